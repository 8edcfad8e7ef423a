//! Textures and derivatives as WGSL built-ins: `textureSample*`, `textureGather*`,
//! `textureLoad`, `textureStore`, `textureDimensions`, `dpdx`/`dpdy`/`fwidth`.
//!
//! WGSL restrictions become `OSH5201`: implicit-derivative sampling outside fragment
//! shaders, storage texture formats outside WebGPU's list, 1D arrays, level-of-detail
//! sampling of 1D textures, comparison textures also read without comparison.

use oneshader_ir::concat_text;
use oneshader_ir::{
    DerivativeAxis, DerivativeControl, Expression, GlobalVariable, Handle, ImageClass,
    ImageDimension, ImageQuery, ImageSample, SampleLevel, ScalarKind, ShaderStage, Span, TypeInner,
};

use crate::writer::{unsupported, FunctionContext, Res, Writer};

fn sample_type(kind: ScalarKind) -> Result<&'static str, String> {
    Ok(match kind {
        ScalarKind::Float => "f32",
        ScalarKind::Sint => "i32",
        ScalarKind::Uint => "u32",
        ScalarKind::Bool => return Err("textures of bool".into()),
    })
}

/// The component kind and count of a texture's element type.
fn class_components(class: ImageClass) -> (ScalarKind, u8) {
    match class {
        ImageClass::Sampled {
            kind, components, ..
        }
        | ImageClass::Storage {
            kind, components, ..
        } => (kind, components),
    }
}

/// The WGSL element type of a typed buffer's emulating array: `u32`, `vec2<f32>`…
fn typed_buffer_element(class: ImageClass) -> Result<String, String> {
    let (kind, components) = class_components(class);
    let scalar = sample_type(kind)?;
    Ok(match components {
        1 => scalar.to_string(),
        n => format!("vec{n}<{scalar}>"),
    })
}

impl Writer<'_> {
    /// The WGSL type of texture global `handle`: storage access from how the code uses
    /// it, a depth texture when it is sampled with a comparison.
    pub(crate) fn texture_type(
        &self,
        handle: Handle<GlobalVariable>,
        global: &GlobalVariable,
    ) -> Res<Option<String>> {
        let TypeInner::Image {
            dim,
            arrayed,
            class,
        } = self.module.types[global.ty].inner
        else {
            return Ok(None);
        };
        let usage = self.uses.get(handle.index()).copied().unwrap_or_default();
        let err = |what: String| {
            unsupported(
                global.span,
                concat_text!(what, " (texture '", global.name, "')"),
            )
        };
        if dim == ImageDimension::D1 && arrayed {
            return Err(err("WGSL has no 1D array textures".into()));
        }
        if dim == ImageDimension::Buffer {
            return Err(err(
                "a typed buffer is declared as a storage buffer, not a texture".into(),
            ));
        }
        let shape = match (dim, arrayed) {
            (ImageDimension::D1, _) => "1d",
            (ImageDimension::D2, false) => "2d",
            (ImageDimension::D2, true) => "2d_array",
            (ImageDimension::D3, false) => "3d",
            (ImageDimension::Cube, false) => "cube",
            (ImageDimension::Cube, true) => "cube_array",
            (ImageDimension::D3, true) => return Err(err("3D array textures".into())),
            (ImageDimension::Buffer, _) => return Err(err("typed buffers".into())),
        };
        Ok(Some(match class {
            ImageClass::Sampled {
                kind, multisampled, ..
            } => {
                if usage.compared {
                    if multisampled
                        || kind != ScalarKind::Float
                        || dim == ImageDimension::D1
                        || dim == ImageDimension::D3
                    {
                        return Err(err(
                            "comparison sampling needs a float 2D or cube texture".into()
                        ));
                    }
                    concat_text!("texture_depth_", shape)
                } else if multisampled {
                    if arrayed {
                        return Err(err("WGSL has no multisampled array textures".into()));
                    }
                    concat_text!(
                        "texture_multisampled_2d<",
                        sample_type(kind).map_err(err)?,
                        ">"
                    )
                } else {
                    concat_text!("texture_", shape, "<", sample_type(kind).map_err(err)?, ">")
                }
            }
            ImageClass::Storage { format, .. } => {
                if dim == ImageDimension::Cube {
                    return Err(err("storage cube textures".into()));
                }
                let Some(name) = format.wgsl_name() else {
                    return Err(err(format!("the storage texture format {format:?} is not one of WebGPU's storage formats (rgba8unorm, rgba8snorm, rgba8uint, rgba8sint, rgba16float/uint/sint, r32float/uint/sint, rg32float/uint/sint, rgba32float/uint/sint): choose one with [[vk::image_format]] or the element type")));
                };
                let access = match (usage.read, usage.write) {
                    (true, true) => "read_write",
                    (false, true) => "write",
                    _ => "read",
                };
                concat_text!("texture_storage_", shape, "<", name, ", ", access, ">")
            }
        }))
    }

    fn image_shape(
        &self,
        context: &FunctionContext,
        image: Handle<Expression>,
    ) -> Res<(ImageDimension, ImageClass, bool)> {
        let compared = match context.function.expressions.try_get(image) {
            Some(Expression::GlobalVariable(g)) => {
                self.uses.get(g.index()).is_some_and(|u| u.compared)
            }
            _ => false,
        };
        match *self.type_of(context, image)? {
            TypeInner::Image { dim, class, .. } => Ok((dim, class, compared)),
            _ => Err(unsupported(
                None,
                "a texture operation on a value that is not a texture",
            )),
        }
    }

    /// The storage-buffer declaration that stands for typed buffer `global`
    /// (`Buffer<T>`/`RWBuffer<T>`): WGSL has no texel buffers, so it becomes an array
    /// of the element type, `read` for a `Buffer` and `read_write` for a `RWBuffer`
    /// (WebGPU `read-only-storage` and `storage` bindings). A `RWBuffer` of integers that
    /// takes atomics (`atomic`) holds `atomic<u32>`/`atomic<i32>`, read and written with
    /// `atomicLoad`/`atomicStore`.
    pub(crate) fn typed_buffer_declaration(
        &self,
        global: &GlobalVariable,
        name: &str,
        binding: &str,
        atomic: bool,
    ) -> Res<Option<String>> {
        let TypeInner::Image {
            dim: ImageDimension::Buffer,
            class,
            ..
        } = self.module.types[global.ty].inner
        else {
            return Ok(None);
        };
        let mut element = typed_buffer_element(class).map_err(|e| {
            unsupported(global.span, concat_text!(e, " (typed buffer '", name, "')"))
        })?;
        if atomic {
            element = concat_text!("atomic<", element, ">");
        }
        let access = match class {
            ImageClass::Storage { .. } => "read_write",
            ImageClass::Sampled { .. } => "read",
        };
        Ok(Some(format!(
            "{binding}var<storage, {access}> {name}: array<{element}>;\n"
        )))
    }

    /// The element of typed buffer `image` at `coordinate`, as a WGSL reference, for an
    /// atomic (`Hist[i]`); WGSL has no atomics on textures.
    pub(crate) fn texel_reference(
        &self,
        context: &FunctionContext,
        image: Handle<Expression>,
        coordinate: Handle<Expression>,
        span: Option<Span>,
    ) -> Res<String> {
        let (dim, _, _) = self.image_shape(context, image)?;
        if dim != ImageDimension::Buffer {
            return Err(unsupported(
                span,
                "an Interlocked* function on a RWTexture element: WGSL has no texture atomics; \
                 keep the values in a RWStructuredBuffer or RWByteAddressBuffer",
            ));
        }
        Ok(concat_text!(
            self.expression(context, image)?,
            "[",
            self.expression(context, coordinate)?,
            "]"
        ))
    }

    fn offset_text(offset: &[i32]) -> String {
        let parts: Vec<String> = offset.iter().map(|v| format!("{v}i")).collect();
        match &parts[..] {
            [one] => one.clone(),
            _ => format!("vec{}<i32>({})", parts.len(), parts.join(", ")),
        }
    }

    /// `Sample*` and `Gather*`.
    pub(crate) fn image_sample(
        &self,
        context: &FunctionContext,
        handle: Handle<Expression>,
    ) -> Res<String> {
        let span = context.function.expressions.span(handle);
        let Some(Expression::ImageSample(sample)) = context.function.expressions.try_get(handle)
        else {
            return Err(unsupported(span, "malformed sample"));
        };
        let ImageSample {
            image,
            sampler,
            coordinate,
            array_index,
            offset,
            level,
            depth_ref,
            gather,
        } = &**sample;
        let (dim, _, compared) = self.image_shape(context, *image)?;
        if compared && depth_ref.is_none() {
            return Err(unsupported(span, "a texture sampled both with and without comparison: WGSL compares only on depth textures, which read one component"));
        }
        if matches!(level, SampleLevel::Auto | SampleLevel::Bias(_))
            && self.entry.stage != ShaderStage::Fragment
        {
            return Err(unsupported(span, concat_text!("Sample, SampleBias and SampleCmp need implicit derivatives, which WGSL allows only in fragment shaders (this is a ", self.entry.stage.name(), " shader): use SampleLevel, SampleGrad or SampleCmpLevelZero")));
        }
        if dim == ImageDimension::D1 && !matches!(level, SampleLevel::Auto) {
            return Err(unsupported(span, "WGSL samples 1D textures only with textureSample (no level, bias, gradient or gather): use a 2D texture of height 1"));
        }
        let mut args = vec![
            self.expression(context, *image)?,
            self.expression(context, *sampler)?,
            self.expression(context, *coordinate)?,
        ];
        if let Some(layer) = array_index {
            args.push(self.expression(context, *layer)?);
        }
        if let Some(dref) = depth_ref {
            args.push(self.expression(context, *dref)?);
        }
        let function = match (gather, depth_ref) {
            (Some(component), None) => {
                args.insert(0, format!("{}", *component as u32));
                "textureGather"
            }
            (Some(_), Some(_)) => "textureGatherCompare",
            (None, Some(_)) => match level {
                SampleLevel::Auto => "textureSampleCompare",
                SampleLevel::Zero => "textureSampleCompareLevel",
                _ => {
                    return Err(unsupported(span, "WGSL compares only at level 0 or with implicit derivatives: use SampleCmpLevelZero or SampleCmp"))
                }
            },
            (None, None) => match level {
                SampleLevel::Auto => "textureSample",
                SampleLevel::Zero => {
                    args.push("0.0".into());
                    "textureSampleLevel"
                }
                SampleLevel::Exact(lod) => {
                    args.push(self.expression(context, *lod)?);
                    "textureSampleLevel"
                }
                SampleLevel::Bias(bias) => {
                    args.push(self.expression(context, *bias)?);
                    "textureSampleBias"
                }
                SampleLevel::Gradient { x, y } => {
                    args.push(self.expression(context, *x)?);
                    args.push(self.expression(context, *y)?);
                    "textureSampleGrad"
                }
            },
        };
        if let Some(offset) = offset {
            args.push(Self::offset_text(offset));
        }
        Ok(concat_text!(function, "(", args.join(", "), ")"))
    }

    /// `Load` and `operator[]` reads.
    pub(crate) fn image_load(
        &self,
        context: &FunctionContext,
        handle: Handle<Expression>,
    ) -> Res<String> {
        let span = context.function.expressions.span(handle);
        let Some(Expression::ImageLoad {
            image,
            coordinate,
            array_index,
            sample,
            level,
        }) = context.function.expressions.try_get(handle)
        else {
            return Err(unsupported(span, "malformed load"));
        };
        let (dim, class, compared) = self.image_shape(context, *image)?;
        if dim == ImageDimension::Buffer {
            // The IR reads 4 components; the missing ones are 0, 0, 1 as for textures.
            let mut element = concat_text!(
                self.expression(context, *image)?,
                "[",
                self.expression(context, *coordinate)?,
                "]"
            );
            if self.is_atomic_pointer(context, *image) {
                element = concat_text!("atomicLoad(&", element, ")");
            }
            let (kind, components) = class_components(class);
            let sample = sample_type(kind).map_err(|e| unsupported(span, e))?;
            let fill = match components {
                1 => concat_text!(", ", sample, "(0), ", sample, "(0), ", sample, "(1)"),
                2 => concat_text!(", ", sample, "(0), ", sample, "(1)"),
                3 => concat_text!(", ", sample, "(1)"),
                _ => return Ok(element),
            };
            return Ok(concat_text!("vec4<", sample, ">(", element, fill, ")"));
        }
        let mut args = vec![
            self.expression(context, *image)?,
            self.expression(context, *coordinate)?,
        ];
        if let Some(layer) = array_index {
            args.push(self.expression(context, *layer)?);
        }
        if let Some(sample) = sample {
            args.push(self.expression(context, *sample)?);
        } else if let (Some(level), ImageClass::Sampled { .. }) = (level, class) {
            args.push(self.expression(context, *level)?);
        }
        let load = concat_text!("textureLoad(", args.join(", "), ")");
        Ok(if compared {
            concat_text!("vec4<f32>(", load, ", 0.0, 0.0, 1.0)")
        } else {
            load
        })
    }

    /// `GetDimensions` parts.
    pub(crate) fn image_query(
        &self,
        context: &FunctionContext,
        image: Handle<Expression>,
        query: ImageQuery,
    ) -> Res<String> {
        let texture = self.expression(context, image)?;
        if let (ImageDimension::Buffer, _, _) = self.image_shape(context, image)? {
            return Ok(concat_text!("arrayLength(&", texture, ")"));
        }
        Ok(match query {
            ImageQuery::Size { level: Some(level) } => {
                concat_text!(
                    "textureDimensions(",
                    texture,
                    ", ",
                    self.expression(context, level)?,
                    ")"
                )
            }
            ImageQuery::Size { level: None } => concat_text!("textureDimensions(", texture, ")"),
            ImageQuery::NumLevels => concat_text!("textureNumLevels(", texture, ")"),
            ImageQuery::NumLayers => concat_text!("textureNumLayers(", texture, ")"),
            ImageQuery::NumSamples => concat_text!("textureNumSamples(", texture, ")"),
        })
    }

    /// `texture[location] = value`.
    pub(crate) fn image_store(
        &self,
        context: &FunctionContext,
        image: Handle<Expression>,
        coordinate: Handle<Expression>,
        array_index: Option<Handle<Expression>>,
        value: Handle<Expression>,
    ) -> Res<String> {
        let (dim, class, _) = self.image_shape(context, image)?;
        if dim == ImageDimension::Buffer {
            // The IR stores 4 components; the element keeps as many as it has.
            let swizzle = match class_components(class).1 {
                1 => ".x",
                2 => ".xy",
                3 => ".xyz",
                _ => "",
            };
            if self.is_atomic_pointer(context, image) {
                return Ok(concat_text!(
                    "atomicStore(&",
                    self.expression(context, image)?,
                    "[",
                    self.expression(context, coordinate)?,
                    "], (",
                    self.expression(context, value)?,
                    ")",
                    swizzle,
                    ");"
                ));
            }
            return Ok(concat_text!(
                self.expression(context, image)?,
                "[",
                self.expression(context, coordinate)?,
                "] = (",
                self.expression(context, value)?,
                ")",
                swizzle,
                ";"
            ));
        }
        let mut args = vec![
            self.expression(context, image)?,
            self.expression(context, coordinate)?,
        ];
        if let Some(layer) = array_index {
            args.push(self.expression(context, layer)?);
        }
        args.push(self.expression(context, value)?);
        Ok(concat_text!("textureStore(", args.join(", "), ");"))
    }

    /// `ddx`, `ddy`, `fwidth` and their coarse and fine forms.
    pub(crate) fn derivative(
        &self,
        context: &FunctionContext,
        span: Option<Span>,
        axis: DerivativeAxis,
        control: DerivativeControl,
        expr: Handle<Expression>,
    ) -> Res<String> {
        if self.entry.stage != ShaderStage::Fragment {
            return Err(unsupported(span, concat_text!("ddx, ddy and fwidth need derivatives, which WGSL allows only in fragment shaders (this is a ", self.entry.stage.name(), " shader)")));
        }
        let base = match axis {
            DerivativeAxis::X => "dpdx",
            DerivativeAxis::Y => "dpdy",
            DerivativeAxis::Width => "fwidth",
        };
        let suffix = match control {
            DerivativeControl::None => "",
            DerivativeControl::Coarse => "Coarse",
            DerivativeControl::Fine => "Fine",
        };
        Ok(concat_text!(
            base,
            suffix,
            "(",
            self.expression(context, expr)?,
            ")"
        ))
    }
}
