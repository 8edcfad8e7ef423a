//! Textures and samplers: their types, their methods (`Sample*`, `Gather*`, `Load`,
//! `GetDimensions`) and `operator[]`.
//!
//! The IR reads texels as 4-vectors of the texture's kind and stores 4-vectors; this
//! module narrows and widens to the declared element type, splits HLSL's combined
//! coordinates (`uv`, layer, mip) into the IR's separate operands, and rounds the
//! layer of sampled arrays as D3D does.

use oneshader_ir::{
    codes, BinaryOperator, Expression, Handle, ImageClass, ImageDimension, ImageQuery, ImageSample,
    Literal, MathFunction, ResourceKind, SampleLevel, Scalar, ScalarKind, Span, Statement,
    StorageFormat, SwizzleComponent, Type, TypeInner, VectorSize,
};

use super::context::{FnCtx, Value};
use super::expr::Shape;
use super::types::{ResourceTy, Ty};
use super::Lowerer;
use crate::ast;

/// The shape of a texture type, as its HLSL name says.
#[derive(Clone, Copy, Debug)]
struct TextureName {
    dim: ImageDimension,
    arrayed: bool,
    multisampled: bool,
    storage: bool,
}

/// Parses `Texture2DArray`, `RWTexture3D`, `Texture2DMS`, `Buffer`, `RWBuffer`…
fn texture_name(text: &str) -> Option<TextureName> {
    let (storage, rest) = match text.strip_prefix("RW") {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    if rest == "Buffer" {
        return Some(TextureName {
            dim: ImageDimension::Buffer,
            arrayed: false,
            multisampled: false,
            storage,
        });
    }
    let rest = rest.strip_prefix("Texture")?;
    let (rest, arrayed) = match rest.strip_suffix("Array") {
        Some(r) => (r, true),
        None => (rest, false),
    };
    let (dim, multisampled) = match rest {
        "1D" => (ImageDimension::D1, false),
        "2D" => (ImageDimension::D2, false),
        "3D" => (ImageDimension::D3, false),
        "Cube" => (ImageDimension::Cube, false),
        "2DMS" => (ImageDimension::D2, true),
        _ => return None,
    };
    let valid = match (storage, dim) {
        (true, ImageDimension::Cube) => false,
        (true, _) => !multisampled,
        (false, ImageDimension::D3) => !arrayed,
        (false, _) => true,
    };
    valid.then_some(TextureName {
        dim,
        arrayed,
        multisampled,
        storage,
    })
}

/// Number of coordinate components of a texture dimension (cubes: a direction).
fn coordinate_count(dim: ImageDimension) -> u32 {
    match dim {
        ImageDimension::D1 | ImageDimension::Buffer => 1,
        ImageDimension::D2 => 2,
        ImageDimension::D3 | ImageDimension::Cube => 3,
    }
}

/// Number of components of a size query (cubes: width and height).
fn size_count(dim: ImageDimension) -> u32 {
    match dim {
        ImageDimension::D1 | ImageDimension::Buffer => 1,
        ImageDimension::D2 | ImageDimension::Cube => 2,
        ImageDimension::D3 => 3,
    }
}

/// Number of offset components (cubes take none).
fn offset_count(dim: ImageDimension) -> u32 {
    match dim {
        ImageDimension::Cube | ImageDimension::Buffer => 0,
        other => coordinate_count(other),
    }
}

/// The image type's structure.
#[derive(Clone, Copy, Debug)]
struct ImageInfo {
    dim: ImageDimension,
    arrayed: bool,
    class: ImageClass,
}

impl ImageInfo {
    fn kind(self) -> ScalarKind {
        match self.class {
            ImageClass::Sampled { kind, .. } | ImageClass::Storage { kind, .. } => kind,
        }
    }

    fn components(self) -> u8 {
        match self.class {
            ImageClass::Sampled { components, .. } | ImageClass::Storage { components, .. } => {
                components
            }
        }
    }

    fn multisampled(self) -> bool {
        matches!(
            self.class,
            ImageClass::Sampled {
                multisampled: true,
                ..
            }
        )
    }

    fn storage(self) -> bool {
        matches!(self.class, ImageClass::Storage { .. })
    }

    /// Whether reads name a mip level: sampled textures other than multisampled ones
    /// and typed buffers.
    fn has_mips(self) -> bool {
        !self.storage() && !self.multisampled() && self.dim != ImageDimension::Buffer
    }
}

/// How a `Sample*`/`Gather*` method chooses its level and comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum SampleMethod {
    Sample,
    Level,
    Grad,
    Bias,
    Cmp,
    CmpLevelZero,
    CmpLevel,
    CmpGrad,
    CmpBias,
    Gather(SwizzleComponent),
    GatherCmp(SwizzleComponent),
}

impl SampleMethod {
    fn from_name(name: &str) -> Option<SampleMethod> {
        use SwizzleComponent::*;
        Some(match name {
            "Sample" => SampleMethod::Sample,
            "SampleLevel" => SampleMethod::Level,
            "SampleGrad" => SampleMethod::Grad,
            "SampleBias" => SampleMethod::Bias,
            "SampleCmp" => SampleMethod::Cmp,
            "SampleCmpLevelZero" => SampleMethod::CmpLevelZero,
            "SampleCmpLevel" => SampleMethod::CmpLevel,
            "SampleCmpGrad" => SampleMethod::CmpGrad,
            "SampleCmpBias" => SampleMethod::CmpBias,
            "Gather" | "GatherRed" => SampleMethod::Gather(X),
            "GatherGreen" => SampleMethod::Gather(Y),
            "GatherBlue" => SampleMethod::Gather(Z),
            "GatherAlpha" => SampleMethod::Gather(W),
            "GatherCmp" | "GatherCmpRed" => SampleMethod::GatherCmp(X),
            "GatherCmpGreen" => SampleMethod::GatherCmp(Y),
            "GatherCmpBlue" => SampleMethod::GatherCmp(Z),
            "GatherCmpAlpha" => SampleMethod::GatherCmp(W),
            _ => return None,
        })
    }

    fn compares(self) -> bool {
        matches!(
            self,
            SampleMethod::Cmp
                | SampleMethod::CmpLevelZero
                | SampleMethod::CmpLevel
                | SampleMethod::CmpGrad
                | SampleMethod::CmpBias
                | SampleMethod::GatherCmp(_)
        )
    }

    /// Arguments between the coordinate and the optional offset.
    fn middle_arguments(self) -> usize {
        match self {
            SampleMethod::Sample
            | SampleMethod::Gather(_)
            | SampleMethod::CmpLevelZero
            | SampleMethod::GatherCmp(_) => usize::from(self.compares()),
            SampleMethod::Level | SampleMethod::Bias | SampleMethod::Cmp => 1,
            SampleMethod::Grad | SampleMethod::CmpLevel | SampleMethod::CmpBias => 2,
            SampleMethod::CmpGrad => 3,
        }
    }
}

impl<'a> Lowerer<'a> {
    /// The resource type of a texture or sampler type name, `None` when `text` names
    /// neither.
    pub(crate) fn resolve_image_type(
        &mut self,
        text: &str,
        args: Option<&'a [ast::TemplateArg<'a>]>,
        span: Span,
    ) -> Option<Option<Ty>> {
        if matches!(text, "SamplerState" | "SamplerComparisonState" | "sampler") {
            let element = self.module.type_handle(TypeInner::Sampler {
                comparison: text == "SamplerComparisonState",
            });
            return Some(Some(Ty::Resource(ResourceTy {
                kind: ResourceKind::Sampler,
                element,
            })));
        }
        let shape = texture_name(text)?;
        Some(self.texture_type(text, shape, args, span))
    }

    fn texture_type(
        &mut self,
        text: &str,
        shape: TextureName,
        args: Option<&'a [ast::TemplateArg<'a>]>,
        span: Span,
    ) -> Option<Ty> {
        let (scalar, components, norm) = match args.and_then(|a| a.first()) {
            None if !shape.storage => (Scalar::F32, 4, None),
            None => {
                self.error(
                    codes::SYNTAX,
                    span,
                    format!("'{text}' needs an element type, as in {text}<float4>"),
                );
                return None;
            }
            Some(ast::TemplateArg::Type { norm, ty }) => {
                let Some(Ty::Value(element)) = self.resolve_type(ty) else {
                    self.error(
                        codes::TYPE_MISMATCH,
                        ty.span,
                        "a texture's element must be a scalar or vector type",
                    );
                    return None;
                };
                let Some((scalar, shape)) = self.numeric(element) else {
                    self.error(
                        codes::TYPE_MISMATCH,
                        ty.span,
                        "a texture's element must be a scalar or vector, not a struct, array or matrix",
                    );
                    return None;
                };
                let components = match shape {
                    Shape::Scalar => 1,
                    Shape::Vector(size) => size.count() as u8,
                };
                (scalar, components, *norm)
            }
            Some(ast::TemplateArg::Expr(e)) => {
                self.error(
                    codes::SYNTAX,
                    e.span,
                    "a texture's first template argument is its element type",
                );
                return None;
            }
        };
        if scalar.kind == ScalarKind::Bool || scalar.width != 4 {
            self.error(
                codes::UNSUPPORTED_CONSTRUCT,
                span,
                "texture elements of bool, 16-bit or 64-bit types are not supported: use float, int or uint components",
            );
            return None;
        }
        if norm.is_some() && scalar.kind != ScalarKind::Float {
            self.error(
                codes::TYPE_MISMATCH,
                span,
                "unorm and snorm apply to float elements only",
            );
            return None;
        }
        if let Some(ast::TemplateArg::Type { ty, .. }) = args.and_then(|a| a.get(2)) {
            self.error(codes::SYNTAX, ty.span, "unexpected template argument");
            return None;
        }
        let class = if shape.storage {
            let format = match (norm, components) {
                (Some(ast::Norm::Unorm), 4) => StorageFormat::Rgba8Unorm,
                (Some(ast::Norm::Snorm), 4) => StorageFormat::Rgba8Snorm,
                (Some(ast::Norm::Unorm), 2) => StorageFormat::Rg8Unorm,
                (Some(ast::Norm::Unorm), 1) => StorageFormat::R8Unorm,
                (Some(_), _) => StorageFormat::Unknown,
                (None, n) => StorageFormat::inferred(scalar.kind, n),
            };
            ImageClass::Storage {
                kind: scalar.kind,
                components,
                format,
                coherent: false,
            }
        } else {
            ImageClass::Sampled {
                kind: scalar.kind,
                multisampled: shape.multisampled,
                components,
            }
        };
        let element = self.module.type_handle(TypeInner::Image {
            dim: shape.dim,
            arrayed: shape.arrayed,
            class,
        });
        let kind = match (shape.dim, shape.storage) {
            (ImageDimension::Buffer, true) => ResourceKind::RWBuffer,
            (ImageDimension::Buffer, false) => ResourceKind::Buffer,
            (_, true) => ResourceKind::RWTexture,
            (_, false) => ResourceKind::Texture,
        };
        Some(Ty::Resource(ResourceTy { kind, element }))
    }

    /// The image type of a `RWTexture` declaration with its `[[vk::image_format]]`
    /// and `globallycoherent` applied.
    pub(crate) fn declared_image_type(
        &mut self,
        decl: &ast::VariableDecl<'a>,
        image: Handle<Type>,
    ) -> Handle<Type> {
        let TypeInner::Image {
            dim,
            arrayed,
            class:
                ImageClass::Storage {
                    kind,
                    components,
                    mut format,
                    ..
                },
        } = *self.module.inner(image)
        else {
            return image;
        };
        let coherent = decl
            .modifiers
            .iter()
            .any(|m| m.modifier == ast::Modifier::GloballyCoherent);
        for attribute in decl.attributes {
            if !attribute.name.is_qualified("vk", "image_format") {
                continue;
            }
            let name = match attribute.args.first().map(|e| &e.kind) {
                Some(ast::ExprKind::Literal(ast::Literal::String(s))) => Some(**s),
                _ => None,
            };
            match name.and_then(StorageFormat::from_vk_name) {
                Some(f) if f.kind().is_none_or(|k| k == kind) => format = f,
                Some(_) => self.error(
                    codes::TYPE_MISMATCH,
                    attribute.span,
                    "this image format's channel type does not match the texture's element type (float formats for float elements, ui for uint, i for int)",
                ),
                None => self.error(
                    codes::BAD_BINDING,
                    attribute.span,
                    "unknown [[vk::image_format(\"...\")]]: use one of rgba32f, rgba16f, rg32f, r32f, rgba8, rgba8snorm, rgba32ui, rgba32i, r32ui, r32i, rgba8ui, rgba8i, rgba16ui, rgba16i, rg32ui, rg32i, rgba16, rgba16snorm, rg16f, r16f, rg8, r8, rgb10a2, r11g11b10f, unknown",
                ),
            }
        }
        self.module.type_handle(TypeInner::Image {
            dim,
            arrayed,
            class: ImageClass::Storage {
                kind,
                components,
                format,
                coherent,
            },
        })
    }

    fn image_info(&self, image_ty: Handle<Type>) -> Option<ImageInfo> {
        match *self.module.inner(image_ty) {
            TypeInner::Image {
                dim,
                arrayed,
                class,
            } => Some(ImageInfo {
                dim,
                arrayed,
                class,
            }),
            _ => None,
        }
    }

    /// The texture global as an IR expression (of the image type itself).
    fn handle_expr(
        &mut self,
        cx: &mut FnCtx,
        global: Handle<oneshader_ir::GlobalVariable>,
        span: Span,
    ) -> Handle<Expression> {
        let ty = self.module.global_variables[global].ty;
        cx.expr(Expression::GlobalVariable(global), ty, span)
    }

    /// A vector (or scalar for `n == 1`) type of `scalar`.
    fn vector_of(&mut self, scalar: Scalar, n: u32) -> Handle<Type> {
        match VectorSize::from_count(n) {
            Some(size) => self.shaped(scalar, Shape::Vector(size)),
            None => self.scalar_type(scalar),
        }
    }

    /// Component `index` of a vector expression.
    fn texel_component(
        &mut self,
        cx: &mut FnCtx,
        vector: Handle<Expression>,
        index: u32,
        scalar: Scalar,
        span: Span,
    ) -> Handle<Expression> {
        let ty = self.scalar_type(scalar);
        cx.expr(
            Expression::AccessIndex {
                base: vector,
                index,
            },
            ty,
            span,
        )
    }

    /// The first `n` components of a vector expression (a scalar for `n == 1`).
    fn leading(
        &mut self,
        cx: &mut FnCtx,
        vector: Handle<Expression>,
        total: u32,
        n: u32,
        scalar: Scalar,
        span: Span,
    ) -> Handle<Expression> {
        if n == total {
            return vector;
        }
        if n == 1 {
            return self.texel_component(cx, vector, 0, scalar, span);
        }
        let ty = self.vector_of(scalar, n);
        let size = VectorSize::from_count(n).unwrap_or(VectorSize::Bi);
        cx.expr(
            Expression::Swizzle {
                size,
                vector,
                pattern: [
                    SwizzleComponent::X,
                    SwizzleComponent::Y,
                    SwizzleComponent::Z,
                    SwizzleComponent::W,
                ],
            },
            ty,
            span,
        )
    }

    /// An argument converted to `n` components of `scalar` and bound, so its parts can
    /// be taken apart.
    fn vector_argument(
        &mut self,
        cx: &mut FnCtx,
        arg: &'a ast::Expr<'a>,
        scalar: Scalar,
        n: u32,
    ) -> Option<Handle<Expression>> {
        let operand = self.lower_rvalue(cx, arg)?;
        let actual = self
            .numeric(operand.ty)
            .map(|(_, shape)| match shape {
                Shape::Scalar => 1,
                Shape::Vector(size) => size.count(),
            })
            .unwrap_or(0);
        if actual != 0 && actual < n {
            self.error(
                codes::TYPE_MISMATCH,
                arg.span,
                format!("this argument needs {n} components, not {actual}"),
            );
            return None;
        }
        let ty = self.vector_of(scalar, n);
        let value = self.convert_value(cx, operand.into_value(), ty, arg.span, true)?;
        Some(cx.bind(value))
    }

    /// Splits sampling coordinates `(coord…, layer)` into float coordinates and a
    /// rounded integer layer.
    fn sample_coordinates(
        &mut self,
        cx: &mut FnCtx,
        info: ImageInfo,
        arg: &'a ast::Expr<'a>,
    ) -> Option<(Handle<Expression>, Option<Handle<Expression>>)> {
        let n = coordinate_count(info.dim);
        let total = n + u32::from(info.arrayed);
        let all = self.vector_argument(cx, arg, Scalar::F32, total)?;
        let coordinate = self.leading(cx, all, total, n, Scalar::F32, arg.span);
        let array_index = if info.arrayed {
            let layer = self.texel_component(cx, all, n, Scalar::F32, arg.span);
            let float = self.scalar_type(Scalar::F32);
            let rounded = cx.expr(
                Expression::Math {
                    fun: MathFunction::Round,
                    args: Box::new([layer]),
                },
                float,
                arg.span,
            );
            let int = self.scalar_type(Scalar::I32);
            Some(cx.expr(
                Expression::Convert {
                    expr: rounded,
                    to: Scalar::I32,
                },
                int,
                arg.span,
            ))
        } else {
            None
        };
        Some((coordinate, array_index))
    }

    /// `CalculateLevelOfDetail[Unclamped](sampler, location)`: the mip level a `Sample`
    /// would use (the location has no layer, even for arrays).
    fn lower_level_of_detail(
        &mut self,
        cx: &mut FnCtx,
        global: Handle<oneshader_ir::GlobalVariable>,
        info: ImageInfo,
        name: &str,
        args: &'a [ast::Expr<'a>],
        span: Span,
    ) -> Option<Value> {
        if info.storage() || info.multisampled() {
            self.error(
                codes::UNKNOWN_MEMBER,
                span,
                format!("'{name}' needs a sampled Texture (not RWTexture or Texture2DMS)"),
            );
            return None;
        }
        let [sampler_arg, location] = self.expect_args::<2>(args, name, span)?;
        let sampler = match self.lower_expr(cx, sampler_arg)? {
            Value::Resource { global, ty } if ty.kind == ResourceKind::Sampler => {
                self.handle_expr(cx, global, sampler_arg.span)
            }
            _ => {
                self.error(
                    codes::TYPE_MISMATCH,
                    sampler_arg.span,
                    format!("the first argument of '{name}' must be a SamplerState"),
                );
                return None;
            }
        };
        let coordinate =
            self.vector_argument(cx, location, Scalar::F32, coordinate_count(info.dim))?;
        let image = self.handle_expr(cx, global, span);
        let float = self.scalar_type(Scalar::F32);
        let expr = cx.expr(
            Expression::ImageLevelOfDetail {
                image,
                sampler,
                coordinate,
                clamped: name == "CalculateLevelOfDetail",
            },
            float,
            span,
        );
        Some(Value::Rvalue {
            expr,
            ty: float,
            literal: false,
        })
    }

    /// A constant texel offset argument.
    fn constant_offset(&mut self, info: ImageInfo, arg: &'a ast::Expr<'a>) -> Option<Vec<i32>> {
        let n = offset_count(info.dim);
        if n == 0 {
            self.error(
                codes::NO_MATCHING_OVERLOAD,
                arg.span,
                "cube textures take no texel offset",
            );
            return None;
        }
        let parts: Vec<&ast::Expr<'a>> = match &arg.kind {
            ast::ExprKind::Constructor(constructor) => constructor.args.iter().collect(),
            _ => vec![arg],
        };
        let mut values = Vec::new();
        for part in &parts {
            match self.const_eval(part) {
                Some(v) if (-8..=7).contains(&v) => values.push(v as i32),
                _ => {
                    self.error(
                        codes::TYPE_MISMATCH,
                        part.span,
                        "a texture sample offset must be a constant integer from -8 to 7 (every target needs it at compile time)",
                    );
                    return None;
                }
            }
        }
        if values.len() == 1 && n > 1 {
            values = vec![values.first().copied()?; n as usize];
        }
        if values.len() != n as usize {
            self.error(
                codes::TYPE_MISMATCH,
                arg.span,
                format!("this texture's offset has {n} components"),
            );
            return None;
        }
        Some(values)
    }

    /// A float scalar argument.
    fn float_argument(
        &mut self,
        cx: &mut FnCtx,
        arg: &'a ast::Expr<'a>,
    ) -> Option<Handle<Expression>> {
        let operand = self.lower_rvalue(cx, arg)?;
        let float = self.scalar_type(Scalar::F32);
        self.convert_value(cx, operand.into_value(), float, arg.span, true)
    }

    /// Narrows a 4-vector texel to the texture's element type.
    fn narrow_texel(
        &mut self,
        cx: &mut FnCtx,
        texel: Handle<Expression>,
        info: ImageInfo,
        span: Span,
    ) -> (Handle<Expression>, Handle<Type>) {
        let scalar = Scalar {
            kind: info.kind(),
            width: 4,
        };
        let n = u32::from(info.components());
        let ty = self.vector_of(scalar, n);
        (self.leading(cx, texel, 4, n, scalar, span), ty)
    }

    /// `Sample*` and `Gather*`.
    #[allow(clippy::too_many_arguments)]
    fn lower_sample(
        &mut self,
        cx: &mut FnCtx,
        global: Handle<oneshader_ir::GlobalVariable>,
        info: ImageInfo,
        method: SampleMethod,
        name: &str,
        args: &'a [ast::Expr<'a>],
        span: Span,
    ) -> Option<Value> {
        if info.storage() || info.multisampled() {
            self.error(
                codes::UNKNOWN_MEMBER,
                span,
                format!("'{name}' samples, which needs a Texture (not RWTexture or Texture2DMS): read texels with Load or [] instead"),
            );
            return None;
        }
        let fixed = 2 + method.middle_arguments();
        if args.len() < fixed || args.len() > fixed + 1 {
            let clamp = args.len() > fixed + 1;
            self.error(
                codes::ARGUMENT_COUNT,
                span,
                if clamp {
                    format!("'{name}' with a level-of-detail clamp or status argument is not supported: pass the sampler, the coordinates{} and at most an offset", if fixed > 2 { ", its operands" } else { "" })
                } else {
                    format!("'{name}' takes a sampler, the coordinates{} and an optional offset", if fixed > 2 { " and its operands" } else { "" })
                },
            );
            return None;
        }
        if let SampleMethod::Gather(_) | SampleMethod::GatherCmp(_) = method {
            if info.dim == ImageDimension::D1 || info.dim == ImageDimension::D3 {
                self.error(
                    codes::NO_MATCHING_OVERLOAD,
                    span,
                    format!("'{name}' gathers from 2D and cube textures only"),
                );
                return None;
            }
        }
        let sampler = match self.lower_expr(cx, args.first()?)? {
            Value::Resource { global, ty } if ty.kind == ResourceKind::Sampler => {
                let comparison = matches!(
                    self.module.inner(ty.element),
                    TypeInner::Sampler { comparison: true }
                );
                if comparison != method.compares() {
                    self.error(
                        codes::TYPE_MISMATCH,
                        args.first()?.span,
                        if method.compares() {
                            format!("'{name}' compares, so its sampler must be a SamplerComparisonState")
                        } else {
                            format!("'{name}' needs a SamplerState, not a SamplerComparisonState: use SampleCmp* to compare")
                        },
                    );
                    return None;
                }
                self.handle_expr(cx, global, args.first()?.span)
            }
            _ => {
                self.error(
                    codes::TYPE_MISMATCH,
                    args.first()?.span,
                    "the first argument of a sample must be a SamplerState or SamplerComparisonState",
                );
                return None;
            }
        };
        let (coordinate, array_index) = self.sample_coordinates(cx, info, args.get(1)?)?;
        let n = coordinate_count(info.dim);
        let mut rest = args.get(2..fixed).unwrap_or_default().iter();
        let depth_ref = if method.compares() {
            let arg = rest.next()?;
            Some(self.float_argument(cx, arg)?)
        } else {
            None
        };
        let level = match method {
            SampleMethod::Sample | SampleMethod::Cmp => SampleLevel::Auto,
            SampleMethod::Gather(_) | SampleMethod::GatherCmp(_) | SampleMethod::CmpLevelZero => {
                SampleLevel::Zero
            }
            SampleMethod::Level | SampleMethod::CmpLevel => {
                SampleLevel::Exact(self.float_argument(cx, rest.next()?)?)
            }
            SampleMethod::Bias | SampleMethod::CmpBias => {
                SampleLevel::Bias(self.float_argument(cx, rest.next()?)?)
            }
            SampleMethod::Grad | SampleMethod::CmpGrad => {
                let x = self.vector_argument(cx, rest.next()?, Scalar::F32, n)?;
                let y = self.vector_argument(cx, rest.next()?, Scalar::F32, n)?;
                SampleLevel::Gradient { x, y }
            }
        };
        let offset = match args.get(fixed) {
            Some(arg) => Some(self.constant_offset(info, arg)?),
            None => None,
        };
        let image = self.handle_expr(cx, global, span);
        let gather = match method {
            SampleMethod::Gather(c) | SampleMethod::GatherCmp(c) => Some(c),
            _ => None,
        };
        if gather.is_some() && info.kind() != ScalarKind::Float && method.compares() {
            self.error(
                codes::NO_MATCHING_OVERLOAD,
                span,
                format!("'{name}' needs a float texture"),
            );
            return None;
        }
        let result_scalar = if depth_ref.is_some() {
            Scalar::F32
        } else {
            Scalar {
                kind: info.kind(),
                width: 4,
            }
        };
        let scalar_result = depth_ref.is_some() && gather.is_none();
        let result_ty = if scalar_result {
            self.scalar_type(result_scalar)
        } else {
            self.vector_of(result_scalar, 4)
        };
        let sample = cx.expr(
            Expression::ImageSample(Box::new(ImageSample {
                image,
                sampler,
                coordinate,
                array_index,
                offset,
                level,
                depth_ref,
                gather,
            })),
            result_ty,
            span,
        );
        if scalar_result || gather.is_some() {
            return Some(rvalue(sample, result_ty));
        }
        let (value, ty) = self.narrow_texel(cx, sample, info, span);
        Some(rvalue(value, ty))
    }

    /// Splits integer texel coordinates `(coord…, layer, mip)` and applies an offset.
    fn load_operands(
        &mut self,
        cx: &mut FnCtx,
        info: ImageInfo,
        location: &'a ast::Expr<'a>,
        with_level: bool,
    ) -> Option<LoadOperands> {
        let n = coordinate_count(info.dim);
        let total = n + u32::from(info.arrayed) + u32::from(with_level);
        let all = self.vector_argument(cx, location, Scalar::I32, total)?;
        let coordinate = self.leading(cx, all, total, n, Scalar::I32, location.span);
        let array_index = info
            .arrayed
            .then(|| self.texel_component(cx, all, n, Scalar::I32, location.span));
        let level = with_level.then(|| {
            self.texel_component(
                cx,
                all,
                n + u32::from(info.arrayed),
                Scalar::I32,
                location.span,
            )
        });
        Some(LoadOperands {
            coordinate,
            array_index,
            level,
        })
    }

    /// `Load(location [, sampleIndex] [, offset])`.
    fn lower_load(
        &mut self,
        cx: &mut FnCtx,
        global: Handle<oneshader_ir::GlobalVariable>,
        info: ImageInfo,
        args: &'a [ast::Expr<'a>],
        span: Span,
    ) -> Option<Value> {
        if info.dim == ImageDimension::Cube {
            self.error(
                codes::UNKNOWN_MEMBER,
                span,
                "cube textures have no Load: sample them with SampleLevel",
            );
            return None;
        }
        let fixed = 1 + usize::from(info.multisampled());
        let max = if info.storage() || info.dim == ImageDimension::Buffer {
            fixed
        } else {
            fixed + 1
        };
        if args.is_empty() || args.len() < fixed || args.len() > max {
            self.error(
                codes::ARGUMENT_COUNT,
                span,
                if info.multisampled() {
                    "Load on a multisampled texture takes the location and the sample index, and an optional offset"
                } else if info.dim == ImageDimension::Buffer {
                    "Load on a Buffer or RWBuffer takes the element index only; a status argument is not supported"
                } else if info.storage() {
                    "Load on a RWTexture takes the location only"
                } else {
                    "Load takes the location (with the mip level as last component) and an optional offset; a status argument is not supported"
                },
            );
            return None;
        }
        let with_level = info.has_mips();
        let mut operands = self.load_operands(cx, info, args.first()?, with_level)?;
        let sample = if info.multisampled() {
            let operand = self.lower_rvalue(cx, args.get(1)?)?;
            let int = self.scalar_type(Scalar::I32);
            Some(self.convert_value(cx, operand.into_value(), int, args.get(1)?.span, true)?)
        } else {
            None
        };
        if let Some(arg) = args.get(fixed) {
            let offset = self.constant_offset(info, arg)?;
            let n = coordinate_count(info.dim);
            let ty = self.vector_of(Scalar::I32, n);
            let components: Vec<_> = offset
                .iter()
                .map(|&v| {
                    cx.expr(
                        Expression::Literal(Literal::I32(v)),
                        self.scalar_type(Scalar::I32),
                        arg.span,
                    )
                })
                .collect();
            let offset = if n == 1 {
                components.first().copied()?
            } else {
                cx.expr(
                    Expression::Compose {
                        ty,
                        components: components.into(),
                    },
                    ty,
                    arg.span,
                )
            };
            operands.coordinate = cx.expr(
                Expression::Binary {
                    op: BinaryOperator::Add,
                    left: operands.coordinate,
                    right: offset,
                },
                ty,
                arg.span,
            );
        }
        let image = self.handle_expr(cx, global, span);
        Some(self.load_texel(cx, image, info, operands, sample, span))
    }

    fn load_texel(
        &mut self,
        cx: &mut FnCtx,
        image: Handle<Expression>,
        info: ImageInfo,
        operands: LoadOperands,
        sample: Option<Handle<Expression>>,
        span: Span,
    ) -> Value {
        let scalar = Scalar {
            kind: info.kind(),
            width: 4,
        };
        let ty = self.vector_of(scalar, 4);
        let texel = cx.expr(
            Expression::ImageLoad {
                image,
                coordinate: operands.coordinate,
                array_index: operands.array_index,
                sample,
                level: operands.level,
            },
            ty,
            span,
        );
        let (value, ty) = self.narrow_texel(cx, texel, info, span);
        rvalue(value, ty)
    }

    /// `texture[location]`: a texel place, writable for RWTextures.
    pub(crate) fn lower_texel_index(
        &mut self,
        cx: &mut FnCtx,
        global: Handle<oneshader_ir::GlobalVariable>,
        texture: ResourceTy,
        index: &'a ast::Expr<'a>,
        span: Span,
    ) -> Option<Value> {
        let info = self.image_info(texture.element)?;
        if info.dim == ImageDimension::Cube || info.multisampled() {
            self.error(
                codes::TYPE_MISMATCH,
                span,
                "cube and multisampled textures cannot be indexed: use SampleLevel or Load(location, sampleIndex)",
            );
            return None;
        }
        let mut operands = self.load_operands(cx, info, index, false)?;
        if info.has_mips() {
            operands.level = Some(cx.expr(
                Expression::Literal(Literal::I32(0)),
                self.scalar_type(Scalar::I32),
                span,
            ));
        }
        let image = self.handle_expr(cx, global, span);
        let scalar = Scalar {
            kind: info.kind(),
            width: 4,
        };
        let ty = self.vector_of(scalar, u32::from(info.components()));
        Some(Value::Texel {
            image,
            coordinate: operands.coordinate,
            array_index: operands.array_index,
            level: operands.level,
            ty,
            writable: info.storage(),
        })
    }

    /// Reads a texel place.
    pub(crate) fn read_texel(
        &mut self,
        cx: &mut FnCtx,
        image: Handle<Expression>,
        coordinate: Handle<Expression>,
        array_index: Option<Handle<Expression>>,
        level: Option<Handle<Expression>>,
        span: Span,
    ) -> Option<Value> {
        let image_ty = cx.function.type_of(image);
        let info = self.image_info(image_ty)?;
        Some(self.load_texel(
            cx,
            image,
            info,
            LoadOperands {
                coordinate,
                array_index,
                level,
            },
            None,
            span,
        ))
    }

    /// Writes `value` (of the element type) to a texel place.
    pub(crate) fn write_texel(
        &mut self,
        cx: &mut FnCtx,
        image: Handle<Expression>,
        coordinate: Handle<Expression>,
        array_index: Option<Handle<Expression>>,
        value: Handle<Expression>,
        span: Span,
    ) -> Option<()> {
        let image_ty = cx.function.type_of(image);
        let info = self.image_info(image_ty)?;
        let scalar = Scalar {
            kind: info.kind(),
            width: 4,
        };
        let n = u32::from(info.components());
        let value = if n == 4 {
            value
        } else {
            let value = cx.bind(value);
            let mut components = Vec::new();
            for i in 0..4 {
                components.push(if i < n {
                    if n == 1 {
                        value
                    } else {
                        self.texel_component(cx, value, i, scalar, span)
                    }
                } else {
                    let literal = match scalar.kind {
                        ScalarKind::Float => Literal::F32(0.0),
                        ScalarKind::Sint => Literal::I32(0),
                        _ => Literal::U32(0),
                    };
                    cx.expr(Expression::Literal(literal), self.scalar_type(scalar), span)
                });
            }
            let ty = self.vector_of(scalar, 4);
            cx.expr(
                Expression::Compose {
                    ty,
                    components: components.into(),
                },
                ty,
                span,
            )
        };
        cx.emit(Statement::ImageStore {
            image,
            coordinate,
            array_index,
            value,
        });
        Some(())
    }

    /// `GetDimensions` in all its overloads.
    fn lower_get_dimensions(
        &mut self,
        cx: &mut FnCtx,
        global: Handle<oneshader_ir::GlobalVariable>,
        info: ImageInfo,
        args: &'a [ast::Expr<'a>],
        span: Span,
    ) -> Option<Value> {
        let sizes = size_count(info.dim) as usize;
        let base = sizes + usize::from(info.arrayed) + usize::from(info.multisampled());
        let mip_form = info.has_mips() && args.len() == base + 2;
        if args.len() != base && !mip_form {
            let layers = if info.arrayed { ", elements" } else { "" };
            let names = ["width", "height", "depth"]
                .get(..sizes)
                .unwrap_or_default()
                .join(", ");
            let message = if !info.has_mips() {
                format!(
                    "GetDimensions on this texture takes out arguments ({names}{layers}{})",
                    if info.multisampled() { ", samples" } else { "" }
                )
            } else {
                format!("GetDimensions on this texture takes ({names}{layers}) or (mipLevel, {names}{layers}, numberOfLevels)")
            };
            self.error(codes::ARGUMENT_COUNT, span, message);
            return None;
        }
        let uint = self.scalar_type(Scalar::U32);
        let mut outs = args.iter();
        let level = if mip_form {
            let arg = outs.next()?;
            let operand = self.lower_rvalue(cx, arg)?;
            Some(self.convert_value(cx, operand.into_value(), uint, arg.span, true)?)
        } else {
            None
        };
        let image = self.handle_expr(cx, global, span);
        let size_ty = self.vector_of(Scalar::U32, sizes as u32);
        let size = cx.expr(
            Expression::ImageQuery {
                image,
                query: ImageQuery::Size { level },
            },
            size_ty,
            span,
        );
        let size = cx.bind(size);
        for i in 0..sizes {
            let value = if sizes == 1 {
                size
            } else {
                self.texel_component(cx, size, i as u32, Scalar::U32, span)
            };
            self.store_texture_out(cx, outs.next()?, value)?;
        }
        let mut queries = Vec::new();
        if info.arrayed {
            queries.push(ImageQuery::NumLayers);
        }
        if info.multisampled() {
            queries.push(ImageQuery::NumSamples);
        }
        if mip_form {
            queries.push(ImageQuery::NumLevels);
        }
        for query in queries {
            let image = self.handle_expr(cx, global, span);
            let value = cx.expr(Expression::ImageQuery { image, query }, uint, span);
            let value = cx.bind(value);
            self.store_texture_out(cx, outs.next()?, value)?;
        }
        let ty = self.scalar_type(Scalar::BOOL);
        Some(rvalue(
            cx.expr(Expression::Literal(Literal::Bool(false)), ty, span),
            ty,
        ))
    }

    /// Stores a `uint` query result into an out argument of uint or float type.
    fn store_texture_out(
        &mut self,
        cx: &mut FnCtx,
        arg: &'a ast::Expr<'a>,
        value: Handle<Expression>,
    ) -> Option<()> {
        let place = self.lower_expr(cx, arg)?;
        self.check_writable(&place, arg.span)?;
        let target = place.value_type()?;
        let uint = self.scalar_type(Scalar::U32);
        let converted = self.convert_value(cx, rvalue(value, uint), target, arg.span, false)?;
        self.store(cx, &place, converted, arg.span)
    }

    /// A method call on a texture or sampler.
    pub(crate) fn lower_image_method(
        &mut self,
        cx: &mut FnCtx,
        global: Handle<oneshader_ir::GlobalVariable>,
        texture: ResourceTy,
        method: &ast::Ident<'a>,
        args: &'a [ast::Expr<'a>],
        span: Span,
    ) -> Option<Value> {
        let name = method.name;
        let Some(info) = self.image_info(texture.element) else {
            self.error(
                codes::UNKNOWN_MEMBER,
                method.span,
                format!("samplers have no methods; '{name}' is a texture method: call it on the texture with the sampler as first argument"),
            );
            return None;
        };
        if info.dim == ImageDimension::Buffer && !matches!(name, "Load" | "GetDimensions") {
            self.error(
                codes::UNKNOWN_MEMBER,
                method.span,
                format!("'{name}' is not a method of Buffer and RWBuffer: they have Load, GetDimensions and operator[]"),
            );
            return None;
        }
        if let Some(sample) = SampleMethod::from_name(name) {
            return self.lower_sample(cx, global, info, sample, name, args, span);
        }
        match name {
            "Load" => self.lower_load(cx, global, info, args, span),
            "GetDimensions" => self.lower_get_dimensions(cx, global, info, args, span),
            "CalculateLevelOfDetail" | "CalculateLevelOfDetailUnclamped" => {
                self.lower_level_of_detail(cx, global, info, name, args, span)
            }
            "GetSamplePosition" | "mips" | "sample" => {
                self.error(
                    codes::UNSUPPORTED_CONSTRUCT,
                    method.span,
                    format!("the texture member '{name}' is not supported yet"),
                );
                None
            }
            _ => {
                self.error(
                    codes::UNKNOWN_MEMBER,
                    method.span,
                    format!("textures have no method '{name}'"),
                );
                None
            }
        }
    }
}

/// The IR operands of a texel read.
struct LoadOperands {
    coordinate: Handle<Expression>,
    array_index: Option<Handle<Expression>>,
    level: Option<Handle<Expression>>,
}

fn rvalue(expr: Handle<Expression>, ty: Handle<Type>) -> Value {
    Value::Rvalue {
        expr,
        ty,
        literal: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{compile, FrontendOptions, MemoryLoader};
    use oneshader_ir::{Diagnostic, Module, SourceMap};

    fn lower(source: &str) -> (Option<Module>, Vec<String>) {
        let mut sources = SourceMap::new();
        let main = sources.add("test.hlsl", source);
        let (module, diagnostics) = compile(
            &mut sources,
            main,
            &FrontendOptions::default(),
            &MemoryLoader::new(),
        );
        let messages = diagnostics
            .into_vec()
            .iter()
            .filter(|d: &&Diagnostic| d.is_error())
            .map(|d| d.to_short_string(&sources))
            .collect();
        (module, messages)
    }

    fn image_of(module: &Module, name: &str) -> TypeInner {
        let (_, global) = module
            .global_variables
            .iter()
            .find(|(_, g)| g.name == name)
            .expect("the global is declared");
        module.inner(global.ty).clone()
    }

    const PRELUDE: &str = "RWStructuredBuffer<float4> Out : register(u9);\n";

    fn compute(body: &str, declarations: &str) -> (Option<Module>, Vec<String>) {
        lower(&format!(
            "{PRELUDE}{declarations}\n[numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {{ {body} }}"
        ))
    }

    #[test]
    fn texture_declarations_become_image_types_with_formats() {
        let (module, errors) = compute(
            "Out[0] = A.Load(int4(0, 0, 0, 0)).xyxy + B[id.xy] + C[id.xy] + float(D[id.xy]); E[id.xy] = 1.0;",
            "Texture2DArray<uint2> A : register(t0);\n\
             RWTexture2D<unorm float4> B : register(u1);\n\
             [[vk::image_format(\"r32f\")]] globallycoherent RWTexture2D<float> E : register(u2);\n\
             RWTexture2D<float4> C : register(u3);\n\
             Texture2D<int> D : register(t4);",
        );
        assert!(errors.is_empty(), "{errors:?}");
        let module = module.expect("the shader lowers");
        assert_eq!(
            image_of(&module, "A"),
            TypeInner::Image {
                dim: ImageDimension::D2,
                arrayed: true,
                class: ImageClass::Sampled {
                    kind: ScalarKind::Uint,
                    multisampled: false,
                    components: 2
                }
            }
        );
        let format = |name| match image_of(&module, name) {
            TypeInner::Image {
                class:
                    ImageClass::Storage {
                        format, coherent, ..
                    },
                ..
            } => (format, coherent),
            other => panic!("{other:?}"),
        };
        assert_eq!(format("B"), (StorageFormat::Rgba8Unorm, false));
        assert_eq!(format("C"), (StorageFormat::Rgba32Float, false));
        assert_eq!(format("E"), (StorageFormat::R32Float, true));
    }

    #[test]
    fn unsupported_and_wrong_texture_uses_are_precise_errors() {
        let decls = "Texture2D<float4> T : register(t0);\nSamplerState S : register(s1);\n\
                     SamplerComparisonState C : register(s2);\nRWTexture2D<float4> R : register(u3);";
        let cases = [
            (
                "Out[0] = R.CalculateLevelOfDetail(S, float2(0, 0)).xxxx;",
                "OSH0307",
                "RWTexture",
            ),
            (
                "Out[0] = T.CalculateLevelOfDetail(S, 0.5).xxxx;",
                "OSH0302",
                "needs 2 components",
            ),
            (
                "Out[0] = T.SampleLevel(C, float2(0, 0), 0);",
                "OSH0302",
                "SamplerState",
            ),
            (
                "Out[0] = T.SampleCmpLevelZero(S, float2(0, 0), 0.5).xxxx;",
                "OSH0302",
                "SamplerComparisonState",
            ),
            (
                "int o = id.x; Out[0] = T.SampleLevel(S, float2(0, 0), 0, int2(o, 0));",
                "OSH0302",
                "offset must be a constant",
            ),
            (
                "Out[0] = R.SampleLevel(S, float2(0, 0), 0);",
                "OSH0307",
                "RWTexture",
            ),
            ("T[id.xy] = 1.0;", "OSH0306", "cannot be assigned"),
            (
                "Out[0] = T.SampleLevel(S, float2(0, 0), 0, int2(1, 0), 1.0);",
                "OSH0303",
                "clamp",
            ),
            ("uint w; T.GetDimensions(w);", "OSH0303", "GetDimensions"),
        ];
        for (body, code, words) in cases {
            let (module, errors) = compute(body, decls);
            assert!(module.is_none(), "{body} lowered");
            assert!(
                errors.iter().any(|e| e.contains(code) && e.contains(words)),
                "{body}: {errors:?}"
            );
        }
        let (_, errors) = lower("RWTexture2D<float4> R : register(t0);\n[numthreads(1,1,1)] void main() { R[uint2(0, 0)] = 1; }");
        assert!(
            errors
                .iter()
                .any(|e| e.contains("OSH0322") && e.contains("u0")),
            "{errors:?}"
        );
        let (_, errors) = lower("[[vk::image_format(\"rgba99\")]] RWTexture2D<float4> R : register(u0);\n[numthreads(1,1,1)] void main() { R[uint2(0, 0)] = 1; }");
        assert!(
            errors.iter().any(|e| e.contains("image_format")),
            "{errors:?}"
        );
    }

    #[test]
    fn texture_names_parse_into_shapes() {
        let t = texture_name("Texture2DArray").expect("a texture name");
        assert_eq!(t.dim, ImageDimension::D2);
        assert!(t.arrayed && !t.storage && !t.multisampled);
        let t = texture_name("RWTexture3D").expect("a texture name");
        assert!(t.storage && t.dim == ImageDimension::D3);
        let t = texture_name("Texture2DMSArray").expect("a texture name");
        assert!(t.multisampled && t.arrayed);
        assert!(texture_name("RWTextureCube").is_none());
        assert!(texture_name("Texture3DArray").is_none());
        assert!(texture_name("Texture4D").is_none());
        assert!(texture_name("RWTexture2DMS").is_none());
    }
}
