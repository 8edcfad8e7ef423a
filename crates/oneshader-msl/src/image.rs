//! Textures and derivatives as MSL member functions: `.sample`, `.sample_compare`,
//! `.gather`, `.read`, `.write`, `.get_width` …, `dfdx`/`dfdy`/`fwidth`.

use oneshader_ir::concat_text;
use oneshader_ir::{
    DerivativeAxis, Diagnostic, Expression, Handle, ImageClass, ImageDimension, ImageQuery,
    ImageSample, SampleLevel, ShaderStage, SwizzleComponent, TypeInner,
};

use crate::function::FunctionWriter;
use crate::writer::unsupported;

/// The text of a texture operation (few enough that they are built as strings).
type Written = Result<String, Diagnostic>;

impl FunctionWriter<'_, '_> {
    fn image_shape(
        &self,
        image: Handle<Expression>,
    ) -> Result<(ImageDimension, bool, ImageClass, bool), Diagnostic> {
        let compared = match self.function.expressions.try_get(image) {
            Some(Expression::GlobalVariable(g)) => self
                .w
                .global_uses
                .get(g.index())
                .is_some_and(|u| u.compared),
            _ => false,
        };
        match *self.inner_of(image)? {
            TypeInner::Image {
                dim,
                arrayed,
                class,
            } => Ok((dim, arrayed, class, compared)),
            _ => Err(unsupported(
                None,
                "a texture operation on a value that is not a texture",
            )),
        }
    }

    /// `Sample*` and `Gather*`.
    pub(crate) fn image_sample(&mut self, h: Handle<Expression>) -> Written {
        let span = self.function.expressions.span(h);
        let Some(Expression::ImageSample(sample)) = self.function.expressions.try_get(h) else {
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
        let (dim, _, _, compared) = self.image_shape(*image)?;
        if compared && depth_ref.is_none() {
            return Err(unsupported(span, "a texture sampled both with and without comparison (MSL compares only on depth textures, which have one component)"));
        }
        if matches!(level, SampleLevel::Auto | SampleLevel::Bias(_))
            && self.w.entry.stage != ShaderStage::Fragment
        {
            return Err(unsupported(span, concat_text!("Sample, SampleBias and SampleCmp need implicit derivatives, which only pixel shaders have (this is a ", self.w.entry.stage.name(), " shader): use SampleLevel, SampleGrad or SampleCmpLevelZero")));
        }
        let texture = self.expr_text(*image)?;
        let mut args = vec![self.expr_text(*sampler)?, self.expr_text(*coordinate)?];
        if let Some(layer) = array_index {
            args.push(concat_text!("uint(", self.expr_text(*layer)?, ")"));
        }
        if let Some(dref) = depth_ref {
            args.push(self.expr_text(*dref)?);
        }
        let gradient = match dim {
            ImageDimension::D1 => "gradient2d",
            ImageDimension::D2 => "gradient2d",
            ImageDimension::D3 => "gradient3d",
            ImageDimension::Cube => "gradientcube",
            ImageDimension::Buffer => {
                return Err(unsupported(span, "sampling a typed buffer"));
            }
        };
        if gather.is_none() && dim != ImageDimension::D1 {
            match level {
                SampleLevel::Auto => {}
                SampleLevel::Zero => args.push("level(0.0)".into()),
                SampleLevel::Exact(lod) => {
                    args.push(concat_text!("level(", self.expr_text(*lod)?, ")"))
                }
                SampleLevel::Bias(bias) => {
                    args.push(concat_text!("bias(", self.expr_text(*bias)?, ")"))
                }
                SampleLevel::Gradient { x, y } => args.push(concat_text!(
                    gradient,
                    "(",
                    self.expr_text(*x)?,
                    ", ",
                    self.expr_text(*y)?,
                    ")"
                )),
            }
        }
        let offset_text = offset.as_ref().map(|o| {
            let parts: Vec<String> = o.iter().map(|v| v.to_string()).collect();
            match &parts[..] {
                [one] => one.clone(),
                _ => format!("int{}({})", parts.len(), parts.join(", ")),
            }
        });
        let method = match (gather, depth_ref) {
            (Some(component), None) => {
                if dim != ImageDimension::Cube {
                    args.push(offset_text.unwrap_or_else(|| "int2(0)".into()));
                }
                let c = match component {
                    SwizzleComponent::X => "x",
                    SwizzleComponent::Y => "y",
                    SwizzleComponent::Z => "z",
                    SwizzleComponent::W => "w",
                };
                args.push(concat_text!("component::", c));
                "gather"
            }
            (Some(_), Some(_)) => {
                args.extend(offset_text);
                "gather_compare"
            }
            (None, Some(_)) => {
                args.extend(offset_text);
                "sample_compare"
            }
            (None, None) => {
                args.extend(offset_text);
                "sample"
            }
        };
        Ok(concat_text!(
            texture,
            ".",
            method,
            "(",
            args.join(", "),
            ")"
        ))
    }

    /// `Load` and `operator[]` reads.
    pub(crate) fn image_load(&mut self, h: Handle<Expression>) -> Written {
        let span = self.function.expressions.span(h);
        let Some(Expression::ImageLoad {
            image,
            coordinate,
            array_index,
            sample,
            level,
        }) = self.function.expressions.try_get(h)
        else {
            return Err(unsupported(span, "malformed load"));
        };
        let (dim, _, class, compared) = self.image_shape(*image)?;
        if compared {
            return Err(unsupported(
                span,
                "a texture both compared and read with Load (MSL compares only on depth textures)",
            ));
        }
        let texture = self.expr_text(*image)?;
        let count = match dim {
            ImageDimension::D1 | ImageDimension::Buffer => 1,
            ImageDimension::D2 => 2,
            _ => 3,
        };
        let coords = self.expr_text(*coordinate)?;
        let mut args = vec![if count == 1 {
            concat_text!("uint(", coords, ")")
        } else {
            format!("uint{count}({coords})")
        }];
        if let Some(layer) = array_index {
            args.push(concat_text!("uint(", self.expr_text(*layer)?, ")"));
        }
        if let Some(sample) = sample {
            args.push(concat_text!("uint(", self.expr_text(*sample)?, ")"));
        } else if let (Some(level), ImageClass::Sampled { .. }, false) =
            (level, class, dim == ImageDimension::D1)
        {
            args.push(concat_text!("uint(", self.expr_text(*level)?, ")"));
        }
        Ok(concat_text!(texture, ".read(", args.join(", "), ")"))
    }

    /// `CalculateLevelOfDetail[Unclamped]`: `calculate_clamped_lod` /
    /// `calculate_unclamped_lod` (fragment functions only, as the implicit derivatives).
    pub(crate) fn image_level_of_detail(&mut self, h: Handle<Expression>) -> Written {
        let span = self.function.expressions.span(h);
        let Some(&Expression::ImageLevelOfDetail {
            image,
            sampler,
            coordinate,
            clamped,
        }) = self.function.expressions.try_get(h)
        else {
            return Err(unsupported(span, "malformed level-of-detail query"));
        };
        let name = if clamped {
            "CalculateLevelOfDetail"
        } else {
            "CalculateLevelOfDetailUnclamped"
        };
        if self.w.entry.stage != ShaderStage::Fragment {
            return Err(unsupported(span, concat_text!("'", name, "' needs implicit derivatives, which only pixel shaders have in MSL (this is a ", self.w.entry.stage.name(), " shader): compute the level from the coordinate's rate of change and the texture size, and use SampleLevel")));
        }
        let (dim, _, _, _) = self.image_shape(image)?;
        if dim == ImageDimension::D1 {
            return Err(unsupported(span, concat_text!("'", name, "' on a Texture1D: MSL's texture1d has no mipmaps and no level-of-detail query; use a Texture2D of height 1")));
        }
        let texture = self.expr_text(image)?;
        let sampler = self.expr_text(sampler)?;
        let coordinate = self.expr_text(coordinate)?;
        let function = if clamped {
            "calculate_clamped_lod"
        } else {
            "calculate_unclamped_lod"
        };
        Ok(concat_text!(
            texture, ".", function, "(", sampler, ", ", coordinate, ")"
        ))
    }

    /// `GetDimensions` parts.
    pub(crate) fn image_query(&mut self, image: Handle<Expression>, query: ImageQuery) -> Written {
        let (dim, _, class, _) = self.image_shape(image)?;
        let texture = self.expr_text(image)?;
        Ok(match query {
            ImageQuery::Size { level } => {
                let lod = match (level, class) {
                    (Some(level), _) => concat_text!("uint(", self.expr_text(level)?, ")"),
                    _ => String::new(),
                };
                let lod = if matches!(dim, ImageDimension::D1 | ImageDimension::Buffer) {
                    String::new()
                } else {
                    lod
                };
                match dim {
                    ImageDimension::D1 | ImageDimension::Buffer => {
                        concat_text!(texture, ".get_width()")
                    }
                    ImageDimension::D2 | ImageDimension::Cube => {
                        concat_text!(
                            "uint2(",
                            texture,
                            ".get_width(",
                            lod,
                            "), ",
                            texture,
                            ".get_height(",
                            lod,
                            "))"
                        )
                    }
                    ImageDimension::D3 => concat_text!(
                        "uint3(",
                        texture,
                        ".get_width(",
                        lod,
                        "), ",
                        texture,
                        ".get_height(",
                        lod,
                        "), ",
                        texture,
                        ".get_depth(",
                        lod,
                        "))"
                    ),
                }
            }
            ImageQuery::NumLevels => concat_text!(texture, ".get_num_mip_levels()"),
            ImageQuery::NumLayers => concat_text!(texture, ".get_array_size()"),
            ImageQuery::NumSamples => concat_text!(texture, ".get_num_samples()"),
        })
    }

    /// `texture[location] = value`.
    pub(crate) fn image_store(
        &mut self,
        image: Handle<Expression>,
        coordinate: Handle<Expression>,
        array_index: Option<Handle<Expression>>,
        value: Handle<Expression>,
    ) -> Written {
        let (dim, ..) = self.image_shape(image)?;
        let texture = self.expr_text(image)?;
        let coords = self.expr_text(coordinate)?;
        let count = match dim {
            ImageDimension::D1 | ImageDimension::Buffer => 1,
            ImageDimension::D2 => 2,
            _ => 3,
        };
        let mut args = vec![
            self.expr_text(value)?,
            if count == 1 {
                concat_text!("uint(", coords, ")")
            } else {
                format!("uint{count}({coords})")
            },
        ];
        if let Some(layer) = array_index {
            args.push(concat_text!("uint(", self.expr_text(layer)?, ")"));
        }
        Ok(concat_text!(texture, ".write(", args.join(", "), ");"))
    }

    /// `ddx`, `ddy`, `fwidth` (MSL has no coarse/fine control: its derivatives are fine
    /// or coarse as the GPU does them).
    pub(crate) fn derivative(
        &mut self,
        h: Handle<Expression>,
        axis: DerivativeAxis,
        expr: Handle<Expression>,
    ) -> Written {
        if self.w.entry.stage != ShaderStage::Fragment {
            return Err(unsupported(
                self.function.expressions.span(h),
                concat_text!("ddx, ddy and fwidth need derivatives, which only pixel shaders have (this is a ", self.w.entry.stage.name(), " shader)"),
            ));
        }
        let f = match axis {
            DerivativeAxis::X => "dfdx",
            DerivativeAxis::Y => "dfdy",
            DerivativeAxis::Width => "fwidth",
        };
        Ok(concat_text!(f, "(", self.expr_text(expr)?, ")"))
    }
}
