//! Textures, samplers and derivatives: separate images and samplers as DXC writes
//! them (`OpSampledImage` combines them at each sample), fetches, reads, writes and
//! queries, with exactly the capabilities they need.

use oneshader_ir::{
    DerivativeAxis, DerivativeControl, Expression, GlobalVariable, Handle, ImageClass,
    ImageDimension, ImageQuery, ImageSample, SampleLevel, ScalarKind, ShaderStage, Span,
    StorageFormat, Type, TypeInner,
};
use rspirv::spirv::{
    Capability, Decoration, Dim, ImageFormat, ImageOperands, Op, StorageClass, Word,
};

use crate::error::{Error, Result};
use crate::function::{FunctionWriter, Pointer};
use crate::module::Operand;
use crate::types::Layout;
use crate::writer::{GlobalInfo, Writer};

fn image_format(format: StorageFormat) -> ImageFormat {
    use StorageFormat as F;
    match format {
        F::Unknown => ImageFormat::Unknown,
        F::Rgba32Float => ImageFormat::Rgba32f,
        F::Rgba32Uint => ImageFormat::Rgba32ui,
        F::Rgba32Sint => ImageFormat::Rgba32i,
        F::Rg32Float => ImageFormat::Rg32f,
        F::Rg32Uint => ImageFormat::Rg32ui,
        F::Rg32Sint => ImageFormat::Rg32i,
        F::R32Float => ImageFormat::R32f,
        F::R32Uint => ImageFormat::R32ui,
        F::R32Sint => ImageFormat::R32i,
        F::Rgba16Float => ImageFormat::Rgba16f,
        F::Rgba16Uint => ImageFormat::Rgba16ui,
        F::Rgba16Sint => ImageFormat::Rgba16i,
        F::Rgba16Unorm => ImageFormat::Rgba16,
        F::Rgba16Snorm => ImageFormat::Rgba16Snorm,
        F::Rg16Float => ImageFormat::Rg16f,
        F::R16Float => ImageFormat::R16f,
        F::Rgba8Unorm => ImageFormat::Rgba8,
        F::Rgba8Snorm => ImageFormat::Rgba8Snorm,
        F::Rgba8Uint => ImageFormat::Rgba8ui,
        F::Rgba8Sint => ImageFormat::Rgba8i,
        F::Rg8Unorm => ImageFormat::Rg8,
        F::R8Unorm => ImageFormat::R8,
        F::Rgb10A2Unorm => ImageFormat::Rgb10A2,
        F::Rg11B10Float => ImageFormat::R11fG11fB10f,
    }
}

/// Formats outside Vulkan's always-supported storage list need this capability.
fn needs_extended_formats(format: StorageFormat) -> bool {
    use StorageFormat as F;
    !matches!(
        format,
        F::Unknown
            | F::Rgba32Float
            | F::Rgba32Uint
            | F::Rgba32Sint
            | F::R32Float
            | F::R32Uint
            | F::R32Sint
            | F::Rgba16Float
            | F::Rgba16Uint
            | F::Rgba16Sint
            | F::Rgba8Unorm
            | F::Rgba8Snorm
            | F::Rgba8Uint
            | F::Rgba8Sint
    )
}

impl Writer<'_> {
    /// `OpTypeImage` for an IR image, declaring the capabilities its shape needs.
    pub(crate) fn image_type(
        &mut self,
        dim: ImageDimension,
        arrayed: bool,
        class: ImageClass,
    ) -> Result<Word> {
        let (kind, multisampled, sampled, format) = match class {
            // DXC gives a read-only typed buffer the format its element type implies.
            ImageClass::Sampled {
                kind, components, ..
            } if dim == ImageDimension::Buffer => {
                let format = StorageFormat::inferred(kind, components);
                if needs_extended_formats(format) {
                    self.capability(Capability::StorageImageExtendedFormats);
                }
                (kind, false, 1, image_format(format))
            }
            ImageClass::Sampled {
                kind, multisampled, ..
            } => (kind, multisampled, 1, ImageFormat::Unknown),
            ImageClass::Storage { kind, format, .. } => {
                if needs_extended_formats(format) {
                    self.capability(Capability::StorageImageExtendedFormats);
                }
                (kind, false, 2, image_format(format))
            }
        };
        let spirv_dim = match dim {
            ImageDimension::D1 => {
                self.capability(if sampled == 1 {
                    Capability::Sampled1D
                } else {
                    Capability::Image1D
                });
                Dim::Dim1D
            }
            ImageDimension::D2 => Dim::Dim2D,
            ImageDimension::D3 => Dim::Dim3D,
            ImageDimension::Buffer => {
                self.capability(if sampled == 1 {
                    Capability::SampledBuffer
                } else {
                    Capability::ImageBuffer
                });
                Dim::DimBuffer
            }
            ImageDimension::Cube => {
                if arrayed {
                    self.capability(Capability::SampledCubeArray);
                }
                Dim::DimCube
            }
        };
        let sampled_type = match kind {
            ScalarKind::Float => self.b.type_float(32, None),
            ScalarKind::Sint => self.b.type_int(32, 1),
            ScalarKind::Uint => self.b.type_int(32, 0),
            ScalarKind::Bool => {
                return Err(Error::malformed(None, "a texture of bools"));
            }
        };
        Ok(self.b.type_image(
            sampled_type,
            spirv_dim,
            0,
            u32::from(arrayed),
            u32::from(multisampled),
            sampled,
            format,
        ))
    }

    /// A texture or sampler global: a `UniformConstant` variable with its binding.
    pub(crate) fn handle_global(
        &mut self,
        global: &GlobalVariable,
        span: Option<Span>,
    ) -> Result<GlobalInfo> {
        let Some(resource) = &global.resource else {
            return Err(Error::malformed(
                span,
                format!("texture or sampler '{}' has no binding", global.name),
            ));
        };
        let pointee = self.value_type(global.ty)?;
        let class = StorageClass::UniformConstant;
        let pointer = self.pointer_type(class, pointee);
        let variable = self.global_variable(pointer, class, None);
        self.b.decorate(
            variable,
            Decoration::DescriptorSet,
            [Operand::LiteralBit32(resource.binding.set)],
        );
        self.b.decorate(
            variable,
            Decoration::Binding,
            [Operand::LiteralBit32(resource.binding.binding)],
        );
        if let TypeInner::Image {
            class: ImageClass::Storage { coherent: true, .. },
            ..
        } = self.module.types[global.ty].inner
        {
            self.b.decorate(variable, Decoration::Coherent, []);
        }
        Ok(GlobalInfo {
            variable,
            class,
            pointee,
            wrapped: false,
        })
    }
}

impl FunctionWriter<'_, '_> {
    /// Whether expression `handle` is a texture or sampler (a value, not a pointer).
    pub(crate) fn is_handle(&self, handle: Handle<Expression>) -> Result<bool> {
        Ok(matches!(
            self.inner_of(handle)?,
            TypeInner::Image { .. } | TypeInner::Sampler { .. }
        ))
    }

    /// Loads a texture or sampler from its variable.
    pub(crate) fn load_handle(
        &mut self,
        global: Handle<GlobalVariable>,
        span: Option<Span>,
    ) -> Result<Word> {
        let info = self.w.global(global, span)?;
        self.emit_ids(Op::Load, info.pointee, &[info.variable])
    }

    fn image_of(&self, image: Handle<Expression>) -> Result<(ImageDimension, bool, ImageClass)> {
        match *self.inner_of(image)? {
            TypeInner::Image {
                dim,
                arrayed,
                class,
            } => Ok((dim, arrayed, class)),
            _ => Err(Error::malformed(self.span(image), "not a texture")),
        }
    }

    /// Coordinates with the layer appended as the last component, converted to the
    /// coordinates' component type.
    fn coordinates_with_layer(
        &mut self,
        coordinate: Handle<Expression>,
        array_index: Option<Handle<Expression>>,
        float: bool,
    ) -> Result<Word> {
        let coords = self.value(coordinate)?;
        let Some(layer) = array_index else {
            return Ok(coords);
        };
        let count = self.inner_of(coordinate)?.component_count().unwrap_or(1);
        let layer_value = self.value(layer)?;
        let (component_type, layer_value) = if float {
            let f32_type = self.w.b.type_float(32, None);
            let converted = self.emit_ids(Op::ConvertSToF, f32_type, &[layer_value])?;
            (f32_type, converted)
        } else {
            (self.w.b.type_int(32, 1), layer_value)
        };
        let vector = self.w.b.type_vector(component_type, count + 1);
        let mut parts = Vec::new();
        if count == 1 {
            parts.push(coords);
        } else {
            for i in 0..count {
                parts.push(self.emit(
                    Op::CompositeExtract,
                    component_type,
                    &[Operand::IdRef(coords), Operand::LiteralBit32(i)],
                )?);
            }
        }
        parts.push(layer_value);
        self.emit_ids(Op::CompositeConstruct, vector, &parts)
    }

    fn require_fragment(&self, what: &str, span: Option<Span>) -> Result<()> {
        if self.w.entry.stage != ShaderStage::Fragment {
            return Err(Error::unsupported(
                span,
                format!(
                    "{what} needs implicit derivatives, which only pixel shaders have (this is a {} shader): use SampleLevel, SampleGrad or SampleCmpLevelZero",
                    self.w.entry.stage.name()
                ),
            ));
        }
        Ok(())
    }

    /// `CalculateLevelOfDetail[Unclamped]`: `OpImageQueryLod` gives (clamped, unclamped).
    pub(crate) fn image_level_of_detail(
        &mut self,
        handle: Handle<Expression>,
        result_type: Word,
    ) -> Result<Word> {
        let span = self.span(handle);
        let Expression::ImageLevelOfDetail {
            image,
            sampler,
            coordinate,
            clamped,
        } = *self.expression(handle)?
        else {
            return Err(Error::malformed(span, "not a level-of-detail query"));
        };
        let name = if clamped {
            "CalculateLevelOfDetail"
        } else {
            "CalculateLevelOfDetailUnclamped"
        };
        if self.w.entry.stage != ShaderStage::Fragment {
            return Err(Error::unsupported(
                span,
                format!(
                    "'{name}' needs implicit derivatives, which only pixel shaders have in Vulkan (this is a {} shader); compute shaders would need the DerivativeGroupQuadsKHR capability of SPV_KHR_compute_shader_derivatives, which oneshader does not emit: compute the level from the coordinate's rate of change and the texture size, and use SampleLevel",
                    self.w.entry.stage.name()
                ),
            ));
        }
        self.w.capability(Capability::ImageQuery);
        let image_value = self.value(image)?;
        let sampler_value = self.value(sampler)?;
        let image_type = self.value_type_of(image)?;
        let sampled_image_type = self.w.b.type_sampled_image(image_type);
        let sampled = self.emit_ids(
            Op::SampledImage,
            sampled_image_type,
            &[image_value, sampler_value],
        )?;
        let coordinate = self.value(coordinate)?;
        let float = self.w.b.type_float(32, None);
        let pair = self.w.b.type_vector(float, 2);
        let levels = self.emit_ids(Op::ImageQueryLod, pair, &[sampled, coordinate])?;
        self.emit(
            Op::CompositeExtract,
            result_type,
            &[
                Operand::IdRef(levels),
                Operand::LiteralBit32(u32::from(!clamped)),
            ],
        )
    }

    /// `Sample*` and `Gather*`.
    pub(crate) fn image_sample(
        &mut self,
        handle: Handle<Expression>,
        result_type: Word,
    ) -> Result<Word> {
        let span = self.span(handle);
        let Expression::ImageSample(ref sample) = *self.expression(handle)? else {
            return Err(Error::malformed(span, "not a sample"));
        };
        let ImageSample {
            image,
            sampler,
            coordinate,
            array_index,
            ref offset,
            level,
            depth_ref,
            gather,
        } = **sample;
        let image_value = self.value(image)?;
        let sampler_value = self.value(sampler)?;
        let image_type = self.value_type_of(image)?;
        let sampled_image_type = self.w.b.type_sampled_image(image_type);
        let sampled = self.emit_ids(
            Op::SampledImage,
            sampled_image_type,
            &[image_value, sampler_value],
        )?;
        let coords = self.coordinates_with_layer(coordinate, array_index, true)?;
        let mut mask = ImageOperands::empty();
        let mut extra = Vec::new();
        let implicit = matches!(level, SampleLevel::Auto | SampleLevel::Bias(_));
        if implicit {
            self.require_fragment("Sample, SampleBias and SampleCmp", span)?;
        }
        match level {
            SampleLevel::Auto => {}
            SampleLevel::Zero if gather.is_some() => {}
            SampleLevel::Zero => {
                mask |= ImageOperands::LOD;
                let f32_type = self.w.b.type_float(32, None);
                let _ = f32_type;
                extra.push(self.w.scalar_constant(oneshader_ir::Scalar::F32, 0)?);
            }
            SampleLevel::Exact(lod) => {
                mask |= ImageOperands::LOD;
                extra.push(self.value(lod)?);
            }
            SampleLevel::Bias(bias) => {
                mask |= ImageOperands::BIAS;
                extra.push(self.value(bias)?);
            }
            SampleLevel::Gradient { x, y } => {
                mask |= ImageOperands::GRAD;
                extra.push(self.value(x)?);
                extra.push(self.value(y)?);
            }
        }
        if let Some(offset) = offset {
            mask |= ImageOperands::CONST_OFFSET;
            let int_type = self.w.b.type_int(32, 1);
            let mut components = Vec::with_capacity(offset.len());
            for &v in offset {
                components.push(
                    self.w
                        .scalar_constant(oneshader_ir::Scalar::I32, u64::from(v as u32))?,
                );
            }
            let constant = if let [component] = components[..] {
                component
            } else {
                let vector = self.w.b.type_vector(int_type, components.len() as u32);
                self.w.composite_constant(vector, &components)
            };
            extra.push(constant);
        }
        let mut operands = vec![Operand::IdRef(sampled), Operand::IdRef(coords)];
        let op = match (gather, depth_ref) {
            (Some(component), None) => {
                operands.push(Operand::IdRef(self.w.u32_constant(component as u32)?));
                Op::ImageGather
            }
            (Some(_), Some(dref)) => {
                operands.push(Operand::IdRef(self.value(dref)?));
                Op::ImageDrefGather
            }
            (None, Some(dref)) => {
                operands.push(Operand::IdRef(self.value(dref)?));
                if implicit {
                    Op::ImageSampleDrefImplicitLod
                } else {
                    Op::ImageSampleDrefExplicitLod
                }
            }
            (None, None) if implicit => Op::ImageSampleImplicitLod,
            (None, None) => Op::ImageSampleExplicitLod,
        };
        if !mask.is_empty() {
            operands.push(Operand::ImageOperands(mask));
            operands.extend(extra.into_iter().map(Operand::IdRef));
        }
        self.emit(op, result_type, &operands)
    }

    /// `Load` and `operator[]` reads.
    pub(crate) fn image_load(
        &mut self,
        handle: Handle<Expression>,
        result_type: Word,
    ) -> Result<Word> {
        let span = self.span(handle);
        let Expression::ImageLoad {
            image,
            coordinate,
            array_index,
            sample,
            level,
        } = *self.expression(handle)?
        else {
            return Err(Error::malformed(span, "not a load"));
        };
        let (_, _, class) = self.image_of(image)?;
        let image_value = self.value(image)?;
        let coords = self.coordinates_with_layer(coordinate, array_index, false)?;
        let mut operands = vec![Operand::IdRef(image_value), Operand::IdRef(coords)];
        if let Some(sample) = sample {
            operands.push(Operand::ImageOperands(ImageOperands::SAMPLE));
            operands.push(Operand::IdRef(self.value(sample)?));
        } else if let Some(level) = level {
            operands.push(Operand::ImageOperands(ImageOperands::LOD));
            operands.push(Operand::IdRef(self.value(level)?));
        }
        let op = match class {
            ImageClass::Sampled { .. } => Op::ImageFetch,
            ImageClass::Storage { format, .. } => {
                if format == StorageFormat::Unknown {
                    self.w.capability(Capability::StorageImageReadWithoutFormat);
                }
                Op::ImageRead
            }
        };
        self.emit(op, result_type, &operands)
    }

    /// `OpImageTexelPointer` to one texel of a storage image (an `RWTexture*` or
    /// `RWBuffer` of 32-bit integers), sample 0, for an atomic.
    pub(crate) fn image_texel_pointer(
        &mut self,
        image: Handle<Expression>,
        coordinate: Handle<Expression>,
        array_index: Option<Handle<Expression>>,
        pointee: Handle<Type>,
        span: Option<Span>,
    ) -> Result<Pointer> {
        let Expression::GlobalVariable(global) = *self.expression(image)? else {
            return Err(Error::malformed(
                span,
                "a texel pointer into a texture that is not a global",
            ));
        };
        let variable = self.w.global(global, span)?.variable;
        let coords = self.coordinates_with_layer(coordinate, array_index, false)?;
        let sample = self.w.u32_constant(0)?;
        let pointee_id = self.w.type_id(pointee, Layout::of(StorageClass::Image))?;
        let pointer_type = self.w.b.type_pointer(StorageClass::Image, pointee_id);
        let id = self.emit_ids(
            Op::ImageTexelPointer,
            pointer_type,
            &[variable, coords, sample],
        )?;
        Ok(Pointer {
            id,
            class: StorageClass::Image,
            pointee,
            pointee_id,
        })
    }

    /// `GetDimensions`: sizes, layers, levels and samples.
    pub(crate) fn image_query(
        &mut self,
        image: Handle<Expression>,
        query: ImageQuery,
        result_type: Word,
    ) -> Result<Word> {
        self.w.capability(Capability::ImageQuery);
        let (dim, arrayed, class) = self.image_of(image)?;
        let image_value = self.value(image)?;
        let uint = self.w.b.type_int(32, 0);
        let lod_based = dim != ImageDimension::Buffer
            && matches!(
                class,
                ImageClass::Sampled {
                    multisampled: false,
                    ..
                }
            );
        let size_count = match dim {
            ImageDimension::D1 | ImageDimension::Buffer => 1,
            ImageDimension::D2 | ImageDimension::Cube => 2,
            ImageDimension::D3 => 3,
        } + u32::from(arrayed);
        let size = |this: &mut Self, level: Option<Handle<Expression>>| -> Result<Word> {
            let ty = if size_count == 1 {
                uint
            } else {
                this.w.b.type_vector(uint, size_count)
            };
            if lod_based {
                let lod = match level {
                    Some(level) => this.value(level)?,
                    None => this.w.u32_constant(0)?,
                };
                this.emit_ids(Op::ImageQuerySizeLod, ty, &[image_value, lod])
            } else {
                this.emit_ids(Op::ImageQuerySize, ty, &[image_value])
            }
        };
        match query {
            ImageQuery::Size { level } => {
                let all = size(self, level)?;
                let wanted = size_count - u32::from(arrayed);
                if !arrayed {
                    return Ok(all);
                }
                if wanted == 1 {
                    return self.emit(
                        Op::CompositeExtract,
                        result_type,
                        &[Operand::IdRef(all), Operand::LiteralBit32(0)],
                    );
                }
                let mut operands = vec![Operand::IdRef(all), Operand::IdRef(all)];
                operands.extend((0..wanted).map(Operand::LiteralBit32));
                self.emit(Op::VectorShuffle, result_type, &operands)
            }
            ImageQuery::NumLayers => {
                let all = size(self, None)?;
                self.emit(
                    Op::CompositeExtract,
                    result_type,
                    &[Operand::IdRef(all), Operand::LiteralBit32(size_count - 1)],
                )
            }
            ImageQuery::NumLevels => {
                self.emit_ids(Op::ImageQueryLevels, result_type, &[image_value])
            }
            ImageQuery::NumSamples => {
                self.emit_ids(Op::ImageQuerySamples, result_type, &[image_value])
            }
        }
    }

    /// `texture[location] = value`.
    pub(crate) fn image_store(
        &mut self,
        image: Handle<Expression>,
        coordinate: Handle<Expression>,
        array_index: Option<Handle<Expression>>,
        value: Handle<Expression>,
    ) -> Result<()> {
        if let (_, _, ImageClass::Storage { format, .. }) = self.image_of(image)? {
            if format == StorageFormat::Unknown {
                self.w
                    .capability(Capability::StorageImageWriteWithoutFormat);
            }
        }
        let image_value = self.value(image)?;
        let coords = self.coordinates_with_layer(coordinate, array_index, false)?;
        let texel = self.value(value)?;
        self.w.b.image_write(image_value, coords, texel)?;
        Ok(())
    }

    /// `ddx`, `ddy`, `fwidth` and their coarse and fine forms.
    pub(crate) fn derivative(
        &mut self,
        axis: DerivativeAxis,
        control: DerivativeControl,
        expr: Handle<Expression>,
        result_type: Word,
    ) -> Result<Word> {
        let span = self.span(expr);
        if self.w.entry.stage != ShaderStage::Fragment {
            return Err(Error::unsupported(
                span,
                format!(
                    "ddx, ddy and fwidth need derivatives, which only pixel shaders have (this is a {} shader)",
                    self.w.entry.stage.name()
                ),
            ));
        }
        if control != DerivativeControl::None {
            self.w.capability(Capability::DerivativeControl);
        }
        use DerivativeAxis as A;
        use DerivativeControl as C;
        let op = match (axis, control) {
            (A::X, C::None) => Op::DPdx,
            (A::X, C::Coarse) => Op::DPdxCoarse,
            (A::X, C::Fine) => Op::DPdxFine,
            (A::Y, C::None) => Op::DPdy,
            (A::Y, C::Coarse) => Op::DPdyCoarse,
            (A::Y, C::Fine) => Op::DPdyFine,
            (A::Width, C::None) => Op::Fwidth,
            (A::Width, C::Coarse) => Op::FwidthCoarse,
            (A::Width, C::Fine) => Op::FwidthFine,
        };
        let value = self.value(expr)?;
        self.emit_ids(op, result_type, &[value])
    }
}
