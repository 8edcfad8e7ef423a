//! Calls: user functions with overload resolution, HLSL intrinsics (math, bits,
//! wave, atomics, barriers) and resource methods.

use oneshader_ir::{
    codes, AddressSpace, AtomicFunction, Barrier, BinaryOperator, Diagnostic, Expression, Handle,
    Literal, MathFunction, ResourceKind, Scalar, ScalarKind, Span, Statement, Type, TypeInner,
    VectorSize, WaveOp,
};

use super::context::{FnCtx, LocalSymbol, Value};
use super::counter::BufferFlavor;
use super::expr::{Operand, Shape};
use super::raw_buffer::RawPlace;
use super::types::{self, Ty};
use super::Lowerer;
use crate::ast;
use crate::lexer::Symbol;

/// How an intrinsic's operands are typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Operands {
    /// Float scalars or vectors, all of one common type.
    Float,
    /// Any numeric scalars or vectors, all of one common type.
    Numeric,
    /// Integer scalars or vectors.
    Integer,
}

/// How the result type follows from the operand type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Returns {
    /// The common operand type.
    Same,
    /// Its scalar component type (dot, length).
    Component,
    /// Bool of the operand's shape.
    BoolShaped,
    /// Uint of the operand's shape.
    UintShaped,
    /// Int of the operand's shape.
    IntShaped,
}

/// Element-wise intrinsics that map onto one IR math function.
const MATH: &[(&str, MathFunction, usize, Operands, Returns)] = &[
    (
        "abs",
        MathFunction::Abs,
        1,
        Operands::Numeric,
        Returns::Same,
    ),
    (
        "min",
        MathFunction::Min,
        2,
        Operands::Numeric,
        Returns::Same,
    ),
    (
        "max",
        MathFunction::Max,
        2,
        Operands::Numeric,
        Returns::Same,
    ),
    (
        "clamp",
        MathFunction::Clamp,
        3,
        Operands::Numeric,
        Returns::Same,
    ),
    (
        "saturate",
        MathFunction::Saturate,
        1,
        Operands::Float,
        Returns::Same,
    ),
    (
        "floor",
        MathFunction::Floor,
        1,
        Operands::Float,
        Returns::Same,
    ),
    (
        "ceil",
        MathFunction::Ceil,
        1,
        Operands::Float,
        Returns::Same,
    ),
    (
        "round",
        MathFunction::Round,
        1,
        Operands::Float,
        Returns::Same,
    ),
    (
        "trunc",
        MathFunction::Trunc,
        1,
        Operands::Float,
        Returns::Same,
    ),
    (
        "frac",
        MathFunction::Frac,
        1,
        Operands::Float,
        Returns::Same,
    ),
    (
        "sqrt",
        MathFunction::Sqrt,
        1,
        Operands::Float,
        Returns::Same,
    ),
    (
        "rsqrt",
        MathFunction::Rsqrt,
        1,
        Operands::Float,
        Returns::Same,
    ),
    ("exp", MathFunction::Exp, 1, Operands::Float, Returns::Same),
    (
        "exp2",
        MathFunction::Exp2,
        1,
        Operands::Float,
        Returns::Same,
    ),
    ("log", MathFunction::Log, 1, Operands::Float, Returns::Same),
    (
        "log2",
        MathFunction::Log2,
        1,
        Operands::Float,
        Returns::Same,
    ),
    ("pow", MathFunction::Pow, 2, Operands::Float, Returns::Same),
    ("sin", MathFunction::Sin, 1, Operands::Float, Returns::Same),
    ("cos", MathFunction::Cos, 1, Operands::Float, Returns::Same),
    ("tan", MathFunction::Tan, 1, Operands::Float, Returns::Same),
    (
        "asin",
        MathFunction::Asin,
        1,
        Operands::Float,
        Returns::Same,
    ),
    (
        "acos",
        MathFunction::Acos,
        1,
        Operands::Float,
        Returns::Same,
    ),
    (
        "atan",
        MathFunction::Atan,
        1,
        Operands::Float,
        Returns::Same,
    ),
    (
        "atan2",
        MathFunction::Atan2,
        2,
        Operands::Float,
        Returns::Same,
    ),
    (
        "sinh",
        MathFunction::Sinh,
        1,
        Operands::Float,
        Returns::Same,
    ),
    (
        "cosh",
        MathFunction::Cosh,
        1,
        Operands::Float,
        Returns::Same,
    ),
    (
        "tanh",
        MathFunction::Tanh,
        1,
        Operands::Float,
        Returns::Same,
    ),
    (
        "sign",
        MathFunction::Sign,
        1,
        Operands::Numeric,
        Returns::IntShaped,
    ),
    (
        "lerp",
        MathFunction::Lerp,
        3,
        Operands::Float,
        Returns::Same,
    ),
    (
        "mad",
        MathFunction::Mad,
        3,
        Operands::Numeric,
        Returns::Same,
    ),
    (
        "step",
        MathFunction::Step,
        2,
        Operands::Float,
        Returns::Same,
    ),
    (
        "smoothstep",
        MathFunction::SmoothStep,
        3,
        Operands::Float,
        Returns::Same,
    ),
    (
        "dot",
        MathFunction::Dot,
        2,
        Operands::Numeric,
        Returns::Component,
    ),
    (
        "cross",
        MathFunction::Cross,
        2,
        Operands::Float,
        Returns::Same,
    ),
    (
        "length",
        MathFunction::Length,
        1,
        Operands::Float,
        Returns::Component,
    ),
    (
        "normalize",
        MathFunction::Normalize,
        1,
        Operands::Float,
        Returns::Same,
    ),
    (
        "distance",
        MathFunction::Distance,
        2,
        Operands::Float,
        Returns::Component,
    ),
    (
        "reflect",
        MathFunction::Reflect,
        2,
        Operands::Float,
        Returns::Same,
    ),
    (
        "isnan",
        MathFunction::IsNan,
        1,
        Operands::Float,
        Returns::BoolShaped,
    ),
    (
        "isinf",
        MathFunction::IsInf,
        1,
        Operands::Float,
        Returns::BoolShaped,
    ),
    (
        "countbits",
        MathFunction::CountBits,
        1,
        Operands::Integer,
        Returns::UintShaped,
    ),
    (
        "reversebits",
        MathFunction::ReverseBits,
        1,
        Operands::Integer,
        Returns::Same,
    ),
    (
        "firstbithigh",
        MathFunction::FirstBitHigh,
        1,
        Operands::Integer,
        Returns::UintShaped,
    ),
    (
        "firstbitlow",
        MathFunction::FirstBitLow,
        1,
        Operands::Integer,
        Returns::UintShaped,
    ),
];

/// Intrinsics without effects, safe to evaluate speculatively.
pub(crate) fn is_pure_intrinsic(name: &str) -> bool {
    MATH.iter().any(|m| m.0 == name)
        || matches!(
            name,
            "asuint"
                | "asint"
                | "asfloat"
                | "any"
                | "all"
                | "mul"
                | "and"
                | "or"
                | "select"
                | "refract"
                | "transpose"
                | "determinant"
        )
        || super::derived::ELEMENT_WISE_DERIVED.contains(&name)
        || (super::derived::DERIVED_INTRINSICS.contains(&name)
            && !matches!(name, "sincos" | "modf" | "frexp"))
}

/// The spec's message for wave intrinsics that no target offers portably.
fn unsupported_wave_message(name: &str) -> Option<String> {
    let partitioned = "it needs partitioned subgroup operations, which no target offers portably (SPIR-V has only a vendor extension; MSL and WGSL have none)";
    match name {
        "WaveMatch" => Some(format!("The intrinsic '{name}' is not supported: {partitioned}. Build the groups with WaveActiveBallot and WaveReadLaneFirst in a loop instead.")),
        n if n.starts_with("WaveMultiPrefix") => Some(format!("The intrinsic '{name}' is not supported: {partitioned}. Loop over the groups with WaveActiveBallot and WaveReadLaneFirst, and use the WavePrefix* intrinsic inside the branch of each group instead.")),
        _ => None,
    }
}

/// What an intrinsic's name says about its call, told once a name
/// ([`Lowerer::intrinsic_kinds`]): the kinds lowered alike, by a table or a family.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum IntrinsicKind {
    /// Not told yet.
    #[default]
    Unknown,
    /// One no target supports (OSH0350).
    Unsupported,
    /// One of [`super::derived::ELEMENT_WISE_DERIVED`].
    ElementWiseDerived,
    /// One of [`super::derived::DERIVED_INTRINSICS`].
    Derived,
    /// A wave or quad operation.
    Wave(WaveOp),
    /// The entry of [`MATH`] at this index.
    Math(u16),
    /// Any other name, lowered by [`Lowerer::lower_other_intrinsic`].
    Other,
}

impl IntrinsicKind {
    /// The kind of the intrinsic named `name`.
    fn of(name: &str) -> IntrinsicKind {
        if unsupported_wave_message(name).is_some()
            || super::derived::unsupported_intrinsic_message(name).is_some()
        {
            IntrinsicKind::Unsupported
        } else if super::derived::ELEMENT_WISE_DERIVED.contains(&name) {
            IntrinsicKind::ElementWiseDerived
        } else if super::derived::DERIVED_INTRINSICS.contains(&name) {
            IntrinsicKind::Derived
        } else if let Some(op) = WaveOp::from_hlsl_name(name) {
            IntrinsicKind::Wave(op)
        } else if let Some(index) = MATH.iter().position(|m| m.0 == name) {
            u16::try_from(index).map_or(IntrinsicKind::Other, IntrinsicKind::Math)
        } else {
            IntrinsicKind::Other
        }
    }
}

impl<'a> Lowerer<'a> {
    /// A call by name: a user function, or an intrinsic.
    pub(crate) fn lower_call(
        &mut self,
        cx: &mut FnCtx,
        function: &ast::Path<'a>,
        args: &'a [ast::Expr<'a>],
        span: Span,
    ) -> Option<Value> {
        let name = function.name();
        // Inside a member function, a sibling method named alone is called on `this`.
        if let Some(LocalSymbol::PointerParam { index, ty }) = cx.lookup_this() {
            if let Some(struct_name) = self.module.types[ty].name.clone() {
                let key = super::globals::method_key(&struct_name, name);
                if self.functions.contains_key(key.as_str()) {
                    let pointer_ty = self.pointer_type(ty, AddressSpace::Function);
                    let this = Value::Place {
                        pointer: cx.expr(Expression::FunctionArgument(index), pointer_ty, span),
                        ty,
                        writable: true,
                    };
                    return self.lower_user_call(cx, &key, Some((this, span)), args, span);
                }
            }
        }
        if self.functions.contains_key(name) {
            return self.lower_user_call(cx, name, None, args, span);
        }
        // A typedef of a scalar, vector or matrix constructs like the type it names:
        // `typedef float3 color3; color3(1, 0, 0)`.
        if let Some(&Ty::Value(ty)) = self.typedefs.get(name) {
            if matches!(
                self.module.inner(ty),
                TypeInner::Scalar(_) | TypeInner::Vector { .. } | TypeInner::Matrix { .. }
            ) {
                return self.lower_constructor(cx, ty, args, span);
            }
        }
        match self.intrinsic_kind(function.last.symbol, name) {
            IntrinsicKind::ElementWiseDerived => {
                return self
                    .lower_element_wise_derived(cx, name, args, span)
                    .map(Operand::into_value);
            }
            IntrinsicKind::Derived => return self.lower_derived(cx, name, args, span),
            IntrinsicKind::Wave(op) => return self.lower_wave(cx, op, args, span),
            IntrinsicKind::Math(index) => {
                let &(_, fun, arity, operands, returns) = MATH.get(usize::from(index))?;
                return self.lower_math(cx, name, fun, arity, operands, returns, args, span);
            }
            IntrinsicKind::Other | IntrinsicKind::Unknown => {}
            IntrinsicKind::Unsupported => return self.unsupported_intrinsic(function),
        }
        self.lower_other_intrinsic(cx, function, args, span)
    }

    /// What the intrinsic name `name`, of symbol `symbol`, is: found once a name and
    /// kept in [`Lowerer::intrinsic_kinds`].
    fn intrinsic_kind(&mut self, symbol: Symbol, name: &str) -> IntrinsicKind {
        let index = symbol.index();
        if let Some(&known) = self.intrinsic_kinds.get(index) {
            if known != IntrinsicKind::Unknown {
                return known;
            }
        }
        let kind = IntrinsicKind::of(name);
        if index >= self.intrinsic_kinds.len() {
            // Room for every symbol of the unit at once.
            let symbols = self.unit.symbol_count().max(index + 1);
            self.intrinsic_kinds.resize(symbols, IntrinsicKind::Unknown);
        }
        if let Some(entry) = self.intrinsic_kinds.get_mut(index) {
            *entry = kind;
        }
        kind
    }

    /// Reports the intrinsic `function` names as one no target supports.
    #[cold]
    fn unsupported_intrinsic(&mut self, function: &ast::Path<'a>) -> Option<Value> {
        let name = function.name();
        let message = unsupported_wave_message(name)
            .or_else(|| super::derived::unsupported_intrinsic_message(name))?;
        self.report(Diagnostic::error(
            codes::INTRINSIC_NOT_SUPPORTED,
            function.span(),
            message,
        ));
        None
    }

    /// An intrinsic call not of a kind [`IntrinsicKind`] tells apart, by its name.
    fn lower_other_intrinsic(
        &mut self,
        cx: &mut FnCtx,
        function: &ast::Path<'a>,
        args: &'a [ast::Expr<'a>],
        span: Span,
    ) -> Option<Value> {
        let name = function.name();
        match name {
            "asuint" | "asint" | "asfloat" => {
                let to = match name {
                    "asuint" => Scalar::U32,
                    "asint" => Scalar::I32,
                    _ => Scalar::F32,
                };
                let [arg] = self.expect_args::<1>(args, name, span)?;
                let operand = self.lower_rvalue(cx, arg)?;
                let Some((from, shape)) = self.numeric(operand.ty) else {
                    self.error(
                        codes::NO_MATCHING_OVERLOAD,
                        arg.span,
                        format!("{name} needs a 32-bit scalar or vector"),
                    );
                    return None;
                };
                let from = if from.kind == ScalarKind::Bool {
                    Scalar::U32
                } else {
                    from
                };
                if from.width != 4 {
                    self.error(
                        codes::NO_MATCHING_OVERLOAD,
                        arg.span,
                        format!(
                            "{name} reinterprets 32-bit values; this one is {} bits",
                            from.width * 8
                        ),
                    );
                    return None;
                }
                let source_ty = self.shaped(from, shape);
                let value = self.convert_value(cx, operand.into_value(), source_ty, span, false)?;
                let ty = self.shaped(to, shape);
                let expr = if source_ty == ty {
                    value
                } else {
                    cx.expr(Expression::Bitcast { expr: value, to }, ty, span)
                };
                Some(rvalue(expr, ty))
            }
            "and" | "or" => {
                // HLSL 2021's per-component logical operators (`&&`/`||` take scalars).
                let [a, b] = self.expect_args::<2>(args, name, span)?;
                let operands = self.lower_arguments(cx, [a, b])?;
                let shapes: Option<Vec<Shape>> = operands
                    .iter()
                    .map(|o| self.numeric(o.ty).map(|(_, shape)| shape))
                    .collect();
                let Some(shapes) = shapes else {
                    self.error(
                        codes::NO_MATCHING_OVERLOAD,
                        span,
                        format!("{name} needs scalars or vectors"),
                    );
                    return None;
                };
                let shape =
                    self.common_shape(shapes.first().copied()?, shapes.get(1).copied()?, span);
                let ty = self.shaped(Scalar::BOOL, shape);
                let l = self.convert_value(
                    cx,
                    operands.first().copied()?.into_value(),
                    ty,
                    span,
                    true,
                )?;
                let r =
                    self.convert_value(cx, operands.get(1).copied()?.into_value(), ty, span, true)?;
                let op = if name == "and" {
                    BinaryOperator::LogicalAnd
                } else {
                    BinaryOperator::LogicalOr
                };
                Some(rvalue(
                    cx.expr(
                        Expression::Binary {
                            op,
                            left: l,
                            right: r,
                        },
                        ty,
                        span,
                    ),
                    ty,
                ))
            }
            "select" => {
                let [c, a, r] = self.expect_args::<3>(args, name, span)?;
                let operands = self.lower_arguments(cx, [c, a, r])?;
                self.select_operands(
                    cx,
                    operands.first().copied()?,
                    operands.get(1).copied()?,
                    operands.get(2).copied()?,
                    span,
                )
            }
            "any" | "all" => {
                let [arg] = self.expect_args::<1>(args, name, span)?;
                let operand = self.lower_rvalue(cx, arg)?;
                let result = self.scalar_type(Scalar::BOOL);
                let Some((columns, _, _)) = self.matrix_shape(operand.ty) else {
                    let value = self.any_all_of(cx, name, operand, arg.span)?;
                    return Some(rvalue(value, result));
                };
                // Of a matrix: of each column, then `||` (any) or `&&` (all) of those.
                let matrix = cx.bind_operand(operand);
                let op = if name == "any" {
                    BinaryOperator::LogicalOr
                } else {
                    BinaryOperator::LogicalAnd
                };
                let mut value = None;
                for j in 0..columns.count() {
                    let column = self.matrix_column(cx, matrix, j, span);
                    let of_column = self.any_all_of(cx, name, column, arg.span)?;
                    value = Some(match value {
                        None => of_column,
                        Some(left) => cx.expr(
                            Expression::Binary {
                                op,
                                left,
                                right: of_column,
                            },
                            result,
                            span,
                        ),
                    });
                }
                Some(rvalue(value?, result))
            }
            "refract" => {
                let [i, n, eta] = self.expect_args::<3>(args, name, span)?;
                let (ops, ty) = self.common_operands(cx, &[i, n], Operands::Float, span)?;
                let eta = self.lower_rvalue(cx, eta)?;
                let (scalar, _) = self.numeric(ty)?;
                let eta_ty = self.scalar_type(scalar);
                let eta = self.convert_value(cx, eta.into_value(), eta_ty, span, true)?;
                Some(rvalue(
                    cx.expr(
                        Expression::Math {
                            fun: MathFunction::Refract,
                            args: Box::new([ops.first().copied()?, ops.get(1).copied()?, eta]),
                        },
                        ty,
                        span,
                    ),
                    ty,
                ))
            }
            "mul" => {
                let [a, b] = self.expect_args::<2>(args, name, span)?;
                let left = self.lower_rvalue(cx, a)?;
                let right = self.lower_rvalue(cx, b)?;
                self.lower_mul(cx, left, right, span)
            }
            "GroupMemoryBarrierWithGroupSync"
            | "GroupMemoryBarrier"
            | "DeviceMemoryBarrier"
            | "DeviceMemoryBarrierWithGroupSync"
            | "AllMemoryBarrier"
            | "AllMemoryBarrierWithGroupSync" => {
                self.expect_args::<0>(args, name, span)?;
                cx.emit(Statement::Barrier(Barrier {
                    device_memory: name.starts_with("Device") || name.starts_with("All"),
                    workgroup_memory: name.starts_with("Group") || name.starts_with("All"),
                    group_sync: name.ends_with("WithGroupSync"),
                }));
                None.or(Some(Value::Rvalue {
                    expr: self.void_marker(cx, span),
                    ty: self.scalar_type(Scalar::BOOL),
                    literal: false,
                }))
            }
            n if n.starts_with("Interlocked") => self.lower_interlocked(cx, n, args, span),
            "ddx" | "ddy" | "ddx_coarse" | "ddy_coarse" | "ddx_fine" | "ddy_fine" | "fwidth" => {
                use oneshader_ir::{DerivativeAxis, DerivativeControl};
                let [arg] = self.expect_args::<1>(args, name, span)?;
                let operand = self.float_operand(cx, arg)?;
                let axis = match name {
                    "fwidth" => DerivativeAxis::Width,
                    n if n.starts_with("ddx") => DerivativeAxis::X,
                    _ => DerivativeAxis::Y,
                };
                let control = if name.ends_with("_coarse") {
                    DerivativeControl::Coarse
                } else if name.ends_with("_fine") {
                    DerivativeControl::Fine
                } else {
                    DerivativeControl::None
                };
                let expr = cx.expr(
                    Expression::Derivative {
                        axis,
                        control,
                        expr: operand.expr,
                    },
                    operand.ty,
                    span,
                );
                Some(rvalue(expr, operand.ty))
            }
            "clip" => {
                let [arg] = self.expect_args::<1>(args, name, span)?;
                let x = self.float_operand(cx, arg)?;
                let zero = self.zero_like(cx, x.ty, span)?;
                let bool_ty = self.shape_of(cx, x.expr, Scalar::BOOL);
                let less = cx.expr(
                    Expression::Binary {
                        op: BinaryOperator::Less,
                        left: x.expr,
                        right: zero,
                    },
                    bool_ty,
                    span,
                );
                let scalar_bool = self.scalar_type(Scalar::BOOL);
                let condition = if bool_ty == scalar_bool {
                    less
                } else {
                    cx.expr(
                        Expression::Math {
                            fun: MathFunction::Any,
                            args: Box::new([less]),
                        },
                        scalar_bool,
                        span,
                    )
                };
                cx.emit(Statement::If {
                    condition,
                    accept: vec![Statement::Kill],
                    reject: Vec::new(),
                });
                Some(rvalue(self.void_marker(cx, span), scalar_bool))
            }
            _ => {
                self.report(
                    Diagnostic::error(
                        codes::UNKNOWN_IDENTIFIER,
                        function.span(),
                        format!("unknown function '{}'", function.to_text()),
                    )
                    .with_help(
                        "declare the function before calling it, or check the intrinsic's name",
                    ),
                );
                None
            }
        }
    }

    /// A placeholder value for calls of void intrinsics used as statements.
    pub(crate) fn void_marker(&mut self, cx: &mut FnCtx, span: Span) -> Handle<Expression> {
        let ty = self.scalar_type(Scalar::BOOL);
        cx.expr(Expression::Literal(Literal::Bool(false)), ty, span)
    }

    /// Reports (and gives `None`) when intrinsic `name`, which takes `arity` arguments, got
    /// `count`.
    pub(crate) fn check_arity(
        &mut self,
        name: &str,
        arity: usize,
        count: usize,
        span: Span,
    ) -> Option<()> {
        if count == arity {
            return Some(());
        }
        self.error(
            codes::ARGUMENT_COUNT,
            span,
            format!(
                "'{name}' takes {arity} argument{}, not {count}",
                if arity == 1 { "" } else { "s" },
            ),
        );
        None
    }

    pub(crate) fn expect_args<'e, const N: usize>(
        &mut self,
        args: &'e [ast::Expr<'a>],
        name: &str,
        span: Span,
    ) -> Option<[&'e ast::Expr<'a>; N]> {
        self.check_arity(name, N, args.len(), span)?;
        let v: Vec<&ast::Expr<'a>> = args.iter().collect();
        v.try_into().ok()
    }

    fn shape_of(&mut self, cx: &FnCtx, expr: Handle<Expression>, scalar: Scalar) -> Handle<Type> {
        let ty = cx.function.type_of(expr);
        let shape = self.numeric(ty).map(|(_, s)| s).unwrap_or(Shape::Scalar);
        self.shaped(scalar, shape)
    }

    pub(crate) fn one_like(
        &mut self,
        cx: &mut FnCtx,
        ty: Handle<Type>,
        span: Span,
    ) -> Option<Handle<Expression>> {
        let (scalar, shape) = self.numeric(ty)?;
        let one = self.literal(cx, scalar, 1, span);
        Some(match shape {
            Shape::Scalar => one,
            Shape::Vector(size) => cx.expr(Expression::Splat { size, value: one }, ty, span),
        })
    }

    fn zero_like(
        &mut self,
        cx: &mut FnCtx,
        ty: Handle<Type>,
        span: Span,
    ) -> Option<Handle<Expression>> {
        let (scalar, shape) = self.numeric(ty)?;
        let zero = self.literal(cx, scalar, 0, span);
        Some(match shape {
            Shape::Scalar => zero,
            Shape::Vector(size) => cx.expr(Expression::Splat { size, value: zero }, ty, span),
        })
    }

    pub(crate) fn float_operand(
        &mut self,
        cx: &mut FnCtx,
        arg: &'a ast::Expr<'a>,
    ) -> Option<Operand> {
        let (ops, ty) = self.common_operands(cx, &[arg], Operands::Float, arg.span)?;
        Some(Operand {
            expr: ops.first().copied()?,
            ty,
            literal: false,
        })
    }

    /// `any` or `all` (`name`) of a scalar or vector: a bool.
    fn any_all_of(
        &mut self,
        cx: &mut FnCtx,
        name: &str,
        operand: Operand,
        span: Span,
    ) -> Option<Handle<Expression>> {
        let Some((_, shape)) = self.numeric(operand.ty) else {
            self.error(
                codes::NO_MATCHING_OVERLOAD,
                span,
                format!("{name} needs a scalar, vector or matrix"),
            );
            return None;
        };
        let bool_ty = self.shaped(Scalar::BOOL, shape);
        let value = self.convert_value(cx, operand.into_value(), bool_ty, span, false)?;
        if shape == Shape::Scalar {
            return Some(value);
        }
        let fun = if name == "any" {
            MathFunction::Any
        } else {
            MathFunction::All
        };
        let result = self.scalar_type(Scalar::BOOL);
        Some(cx.expr(
            Expression::Math {
                fun,
                args: Box::new([value]),
            },
            result,
            span,
        ))
    }

    /// Lowers `args` and converts them to one common type of the given class.
    pub(crate) fn common_operands(
        &mut self,
        cx: &mut FnCtx,
        args: &[&'a ast::Expr<'a>],
        class: Operands,
        span: Span,
    ) -> Option<(Vec<Handle<Expression>>, Handle<Type>)> {
        let operands = self.lower_arguments(cx, args.iter().copied())?;
        let spans: Vec<Span> = args.iter().map(|a| a.span).collect();
        self.common_operands_of(cx, &operands, &spans, class, span)
    }

    /// The common scalar or vector type of lowered `operands` (at `spans`) for an intrinsic
    /// of `class`, and the operands converted to it.
    pub(crate) fn common_operands_of(
        &mut self,
        cx: &mut FnCtx,
        operands: &[Operand],
        spans: &[Span],
        class: Operands,
        span: Span,
    ) -> Option<(Vec<Handle<Expression>>, Handle<Type>)> {
        let mut common: Option<(Scalar, bool, Shape)> = None;
        for (operand, &arg_span) in operands.iter().zip(spans) {
            let Some((scalar, shape)) = self.numeric(operand.ty) else {
                let name = types::type_name(&self.module, operand.ty);
                self.error(
                    codes::NO_MATCHING_OVERLOAD,
                    arg_span,
                    format!("expected a scalar or vector, found '{name}'"),
                );
                return None;
            };
            common = Some(match common {
                None => (scalar, operand.literal, shape),
                Some((s, lit, sh)) => {
                    let merged = self.common_scalar(s, lit, scalar, operand.literal);
                    let merged_shape = self.common_shape(sh, shape, span);
                    (merged, lit && operand.literal, merged_shape)
                }
            });
        }
        let (mut scalar, _, shape) = common?;
        match class {
            Operands::Float => {
                if scalar.kind != ScalarKind::Float {
                    scalar = Scalar::F32;
                }
            }
            Operands::Integer => {
                if scalar.kind == ScalarKind::Bool {
                    scalar = Scalar::U32;
                }
                if !scalar.is_integer() {
                    self.error(
                        codes::NO_MATCHING_OVERLOAD,
                        span,
                        format!(
                            "this intrinsic takes integer operands, not '{}': convert with a cast such as '(uint)', or take the bits with 'asuint'",
                            types::scalar_name(scalar)
                        ),
                    );
                    return None;
                }
            }
            Operands::Numeric => {
                if scalar.kind == ScalarKind::Bool {
                    scalar = Scalar::I32;
                }
            }
        }
        let ty = self.shaped(scalar, shape);
        let mut converted = Vec::new();
        for operand in operands {
            converted.push(self.convert_value(cx, operand.into_value(), ty, span, true)?);
        }
        Some((converted, ty))
    }

    #[allow(clippy::too_many_arguments)]
    fn lower_math(
        &mut self,
        cx: &mut FnCtx,
        name: &str,
        fun: MathFunction,
        arity: usize,
        operands: Operands,
        returns: Returns,
        args: &'a [ast::Expr<'a>],
        span: Span,
    ) -> Option<Value> {
        self.check_arity(name, arity, args.len(), span)?;
        let lowered = self.lower_arguments(cx, args.iter())?;
        let spans: Vec<Span> = args.iter().map(|a| a.span).collect();
        let any_matrix = lowered.iter().any(|o| self.matrix_shape(o.ty).is_some());
        if any_matrix && (returns == Returns::Component || fun == MathFunction::Cross) {
            self.error(
                codes::NO_MATCHING_OVERLOAD,
                span,
                format!("'{name}' takes scalars or vectors, not matrices"),
            );
            return None;
        }
        let result = self.per_column(cx, name, lowered, &spans, span, |this, cx, lowered| {
            this.math_of(cx, fun, operands, returns, &lowered, &spans, span)
        })?;
        Some(result.into_value())
    }

    /// Math function `fun` of scalar or vector operands, converted to their common type.
    #[allow(clippy::too_many_arguments)]
    fn math_of(
        &mut self,
        cx: &mut FnCtx,
        fun: MathFunction,
        operands: Operands,
        returns: Returns,
        lowered: &[Operand],
        spans: &[Span],
        span: Span,
    ) -> Option<Operand> {
        let (ops, ty) = self.common_operands_of(cx, lowered, spans, operands, span)?;
        let (scalar, shape) = self.numeric(ty)?;
        if matches!(fun, MathFunction::Cross) && shape != Shape::Vector(VectorSize::Tri) {
            self.error(
                codes::NO_MATCHING_OVERLOAD,
                span,
                "cross needs two 3-component vectors",
            );
            return None;
        }
        let result = match returns {
            Returns::Same => ty,
            Returns::Component => self.scalar_type(scalar),
            Returns::BoolShaped => self.shaped(Scalar::BOOL, shape),
            Returns::UintShaped => self.shaped(Scalar::U32, shape),
            Returns::IntShaped => self.shaped(Scalar::I32, shape),
        };
        // dot of scalars is a product.
        let expr = if fun == MathFunction::Dot && shape == Shape::Scalar {
            Expression::Binary {
                op: BinaryOperator::Multiply,
                left: ops.first().copied()?,
                right: ops.get(1).copied()?,
            }
        } else {
            Expression::Math {
                fun,
                args: ops.into(),
            }
        };
        Some(rvalue_operand(cx.expr(expr, result, span), result))
    }

    pub(crate) fn lower_mul(
        &mut self,
        cx: &mut FnCtx,
        left: Operand,
        right: Operand,
        span: Span,
    ) -> Option<Value> {
        if let Some(product) = self.degenerate_mul(cx, left, right, span) {
            return product.map(Operand::into_value);
        }
        let l = self.module.inner(left.ty).clone();
        let r = self.module.inner(right.ty).clone();
        let is_matrix = |t: &TypeInner| matches!(t, TypeInner::Matrix { .. });
        if !is_matrix(&l) && !is_matrix(&r) {
            let vectors =
                matches!(l, TypeInner::Vector { .. }) && matches!(r, TypeInner::Vector { .. });
            if vectors {
                let (ops, ty) =
                    self.common_operands_from(cx, &[left, right], Operands::Numeric, span)?;
                let (scalar, _) = self.numeric(ty)?;
                let result = self.scalar_type(scalar);
                return Some(rvalue(
                    cx.expr(
                        Expression::Math {
                            fun: MathFunction::Dot,
                            args: ops.into(),
                        },
                        result,
                        span,
                    ),
                    result,
                ));
            }
            return self
                .binary_operands(cx, ast::BinaryOp::Mul, left, right, span)
                .map(Operand::into_value);
        }
        let (Some(ls), Some(rs)) = (l.scalar(), r.scalar()) else {
            return self
                .binary_operands(cx, ast::BinaryOp::Mul, left, right, span)
                .map(Operand::into_value);
        };
        let scalar = self.common_scalar(ls, left.literal, rs, right.literal);
        let (left, right) = if ls == rs {
            (left, right)
        } else {
            (
                self.with_scalar(cx, left, scalar, span)?,
                self.with_scalar(cx, right, scalar, span)?,
            )
        };
        if scalar.kind != ScalarKind::Float {
            return self
                .integer_matrix_product(cx, left, right, span)
                .map(Operand::into_value);
        }
        let (l, r) = (
            self.module.inner(left.ty).clone(),
            self.module.inner(right.ty).clone(),
        );
        let result_inner = match (&l, &r) {
            (TypeInner::Matrix { rows, scalar, .. }, TypeInner::Vector { .. }) => {
                TypeInner::Vector {
                    size: *rows,
                    scalar: *scalar,
                }
            }
            (
                TypeInner::Vector { .. },
                TypeInner::Matrix {
                    columns, scalar, ..
                },
            ) => TypeInner::Vector {
                size: *columns,
                scalar: *scalar,
            },
            (TypeInner::Matrix { rows, scalar, .. }, TypeInner::Matrix { columns, .. }) => {
                TypeInner::Matrix {
                    columns: *columns,
                    rows: *rows,
                    scalar: *scalar,
                }
            }
            _ => {
                return self
                    .binary_operands(cx, ast::BinaryOp::Mul, left, right, span)
                    .map(Operand::into_value);
            }
        };
        let ty = self.module.type_handle(result_inner);
        Some(rvalue(
            cx.expr(
                Expression::Math {
                    fun: MathFunction::MatrixMultiply,
                    args: Box::new([left.expr, right.expr]),
                },
                ty,
                span,
            ),
            ty,
        ))
    }

    /// `operand` (a scalar, vector or matrix) converted to components of type `scalar`.
    fn with_scalar(
        &mut self,
        cx: &mut FnCtx,
        operand: Operand,
        scalar: Scalar,
        span: Span,
    ) -> Option<Operand> {
        let ty = match *self.module.inner(operand.ty) {
            TypeInner::Matrix { columns, rows, .. } => self.module.type_handle(TypeInner::Matrix {
                columns,
                rows,
                scalar,
            }),
            _ => {
                let (_, shape) = self.numeric(operand.ty)?;
                self.shaped(scalar, shape)
            }
        };
        let expr = self.convert_value(cx, operand.into_value(), ty, span, false)?;
        Some(Operand {
            expr,
            ty,
            literal: false,
        })
    }

    fn common_operands_from(
        &mut self,
        cx: &mut FnCtx,
        operands: &[Operand],
        class: Operands,
        span: Span,
    ) -> Option<(Vec<Handle<Expression>>, Handle<Type>)> {
        let mut scalar = None;
        let mut shape = Shape::Scalar;
        for o in operands {
            let (s, sh) = self.numeric(o.ty)?;
            scalar = Some(match scalar {
                None => s,
                Some(prev) => self.common_scalar(prev, false, s, o.literal),
            });
            shape = self.common_shape(shape, sh, span);
        }
        let mut scalar = scalar?;
        if class == Operands::Numeric && scalar.kind == ScalarKind::Bool {
            scalar = Scalar::I32;
        }
        let ty = self.shaped(scalar, shape);
        let mut out = Vec::new();
        for o in operands {
            out.push(self.convert_value(cx, o.into_value(), ty, span, true)?);
        }
        Some((out, ty))
    }

    fn lower_wave(
        &mut self,
        cx: &mut FnCtx,
        op: WaveOp,
        args: &'a [ast::Expr<'a>],
        span: Span,
    ) -> Option<Value> {
        if args.len() != op.arity() {
            self.error(
                codes::ARGUMENT_COUNT,
                span,
                format!(
                    "'{}' takes {} argument{}, not {}",
                    op.hlsl_name(),
                    op.arity(),
                    if op.arity() == 1 { "" } else { "s" },
                    args.len()
                ),
            );
            return None;
        }
        let bool_ty = self.scalar_type(Scalar::BOOL);
        let uint = self.scalar_type(Scalar::U32);
        use WaveOp::*;
        match op {
            GetLaneCount | GetLaneIndex => Some(rvalue(
                cx.expr(
                    Expression::Wave {
                        op,
                        args: Box::new([]),
                    },
                    uint,
                    span,
                ),
                uint,
            )),
            IsFirstLane => Some(rvalue(
                cx.expr(
                    Expression::Wave {
                        op,
                        args: Box::new([]),
                    },
                    bool_ty,
                    span,
                ),
                bool_ty,
            )),
            ActiveAnyTrue | ActiveAllTrue | ActiveBallot | ActiveCountBits | PrefixCountBits => {
                let condition = self.lower_condition(cx, args.first()?)?;
                let result = match op {
                    ActiveAnyTrue | ActiveAllTrue => bool_ty,
                    ActiveBallot => self.shaped(Scalar::U32, Shape::Vector(VectorSize::Quad)),
                    _ => uint,
                };
                Some(rvalue(
                    cx.expr(
                        Expression::Wave {
                            op,
                            args: Box::new([condition]),
                        },
                        result,
                        span,
                    ),
                    result,
                ))
            }
            ActiveAllEqual => {
                let (value, scalar, shape) = self.wave_value(cx, op, args.first()?)?;
                let value = self.wave_data(cx, value, scalar, shape, span)?;
                let result = self.shaped(Scalar::BOOL, shape);
                Some(rvalue(
                    cx.expr(
                        Expression::Wave {
                            op,
                            args: Box::new([value.0]),
                        },
                        result,
                        span,
                    ),
                    result,
                ))
            }
            _ => {
                let (value, scalar, shape) = self.wave_value(cx, op, args.first()?)?;
                let bitwise = matches!(op, ActiveBitAnd | ActiveBitOr | ActiveBitXor);
                if bitwise && scalar.kind == ScalarKind::Float {
                    self.error(
                        codes::NO_MATCHING_OVERLOAD,
                        args.first()?.span,
                        format!("{} needs integer operands", op.hlsl_name()),
                    );
                    return None;
                }
                let arithmetic = matches!(
                    op,
                    ActiveSum | ActiveProduct | ActiveMin | ActiveMax | PrefixSum | PrefixProduct
                );
                if (arithmetic || bitwise) && scalar.kind == ScalarKind::Bool {
                    self.error(
                        codes::NO_MATCHING_OVERLOAD,
                        args.first()?.span,
                        format!(
                            "{} does not take bool operands; convert to uint first",
                            op.hlsl_name()
                        ),
                    );
                    return None;
                }
                let was_bool = scalar.kind == ScalarKind::Bool;
                let (value, data_ty) = self.wave_data(cx, value, scalar, shape, span)?;
                let mut operands = vec![value];
                if matches!(op, ReadLaneAt | QuadReadLaneAt) {
                    let lane = self.lower_rvalue(cx, args.get(1)?)?;
                    operands.push(self.convert_value(
                        cx,
                        lane.into_value(),
                        uint,
                        args.get(1)?.span,
                        true,
                    )?);
                }
                let expr = cx.expr(
                    Expression::Wave {
                        op,
                        args: operands.into(),
                    },
                    data_ty,
                    span,
                );
                if was_bool {
                    let ty = self.shaped(Scalar::BOOL, shape);
                    let back = self.convert_value(
                        cx,
                        rvalue_operand(expr, data_ty).into_value(),
                        ty,
                        span,
                        false,
                    )?;
                    return Some(rvalue(back, ty));
                }
                Some(rvalue(expr, data_ty))
            }
        }
    }

    /// The value operand of a wave intrinsic, which must be a scalar or vector.
    fn wave_value(
        &mut self,
        cx: &mut FnCtx,
        op: WaveOp,
        arg: &'a ast::Expr<'a>,
    ) -> Option<(Operand, Scalar, Shape)> {
        let value = self.lower_rvalue(cx, arg)?;
        let Some((scalar, shape)) = self.numeric(value.ty) else {
            self.error(
                codes::NO_MATCHING_OVERLOAD,
                arg.span,
                format!("{} needs a scalar or vector", op.hlsl_name()),
            );
            return None;
        };
        Some((value, scalar, shape))
    }

    /// A wave operand: 32-bit int, uint or float; bools travel as uint.
    fn wave_data(
        &mut self,
        cx: &mut FnCtx,
        value: Operand,
        scalar: Scalar,
        shape: Shape,
        span: Span,
    ) -> Option<(Handle<Expression>, Handle<Type>)> {
        let target = match scalar.kind {
            ScalarKind::Bool => Scalar::U32,
            _ if scalar.width != 4 => {
                self.error(
                    codes::NO_MATCHING_OVERLOAD,
                    span,
                    "wave intrinsics take 32-bit int, uint and float values",
                );
                return None;
            }
            _ => scalar,
        };
        let ty = self.shaped(target, shape);
        let expr = self.convert_value(cx, value.into_value(), ty, span, false)?;
        Some((expr, ty))
    }

    fn lower_interlocked(
        &mut self,
        cx: &mut FnCtx,
        name: &str,
        args: &'a [ast::Expr<'a>],
        span: Span,
    ) -> Option<Value> {
        let Some(fun) = atomic_function(name) else {
            self.error(
                codes::UNKNOWN_IDENTIFIER,
                span,
                format!("unknown function '{name}'"),
            );
            return None;
        };
        let Some((dest_arg, rest)) = args.split_first() else {
            self.error(
                codes::ARGUMENT_COUNT,
                span,
                format!("'{name}' needs a destination"),
            );
            return None;
        };
        let dest = self.lower_expr(cx, dest_arg)?;
        if let Value::Texel {
            image,
            coordinate,
            array_index,
            ty,
            writable,
            ..
        } = dest
        {
            // As DXC: `OpImageTexelPointer` into the storage image (a typed buffer is one).
            if !writable {
                self.error(codes::NOT_ASSIGNABLE, dest_arg.span, format!("the destination of '{name}' must be an element of a RWBuffer or RWTexture, not of a read-only one"));
                return None;
            }
            if !matches!(self.module.inner(ty), TypeInner::Scalar(s) if s.is_integer() && s.width == 4)
            {
                let element = types::type_name(&self.module, ty);
                self.error(
                    codes::NO_MATCHING_OVERLOAD,
                    dest_arg.span,
                    format!("'{name}' on a texel needs a RWBuffer or RWTexture of int or uint, not of {element}"),
                );
                return None;
            }
            let pointer_ty = self.pointer_type(ty, AddressSpace::Handle);
            let pointer = cx.expr(
                Expression::ImageTexelPointer {
                    image,
                    coordinate,
                    array_index,
                },
                pointer_ty,
                span,
            );
            return self.emit_atomic(cx, name, fun, pointer, ty, rest, span);
        }
        let Value::Place {
            pointer,
            ty,
            writable,
        } = dest
        else {
            self.error(codes::NOT_ASSIGNABLE, dest_arg.span, format!("the destination of '{name}' must be a groupshared variable or a buffer element"));
            return None;
        };
        let space = self.pointer_space(cx, pointer);
        if !writable
            || !matches!(
                space,
                AddressSpace::Workgroup | AddressSpace::Storage { writable: true }
            )
        {
            self.error(codes::NOT_ASSIGNABLE, dest_arg.span, format!("the destination of '{name}' must be a groupshared variable or an element of a read-write buffer"));
            return None;
        }
        if !matches!(self.module.inner(ty), TypeInner::Scalar(s) if s.is_integer() && s.width == 4)
        {
            self.error(
                codes::NO_MATCHING_OVERLOAD,
                dest_arg.span,
                format!("'{name}' operates on 32-bit int or uint values"),
            );
            return None;
        }
        self.emit_atomic(cx, name, fun, pointer, ty, rest, span)
    }

    /// Emits an atomic on `pointer` with the HLSL operands `rest` (value, [compare], [original]).
    #[allow(clippy::too_many_arguments)]
    fn emit_atomic(
        &mut self,
        cx: &mut FnCtx,
        name: &str,
        fun: AtomicFunction,
        pointer: Handle<Expression>,
        ty: Handle<Type>,
        rest: &'a [ast::Expr<'a>],
        span: Span,
    ) -> Option<Value> {
        let compare_store = name.ends_with("CompareStore");
        let (compare, value, original) = match (fun, rest) {
            (AtomicFunction::CompareExchange, [c, v]) if compare_store => (Some(c), v, None),
            (AtomicFunction::CompareExchange, [c, v, o]) if !compare_store => (Some(c), v, Some(o)),
            (AtomicFunction::CompareExchange, _) => {
                self.error(
                    codes::ARGUMENT_COUNT,
                    span,
                    format!(
                        "'{name}' takes the destination, a compare value, a value{}",
                        if compare_store {
                            ""
                        } else {
                            " and an out original value"
                        }
                    ),
                );
                return None;
            }
            (AtomicFunction::Exchange, [v, o]) => (None, v, Some(o)),
            (AtomicFunction::Exchange, _) => {
                self.error(
                    codes::ARGUMENT_COUNT,
                    span,
                    format!("'{name}' takes the destination, a value and an out original value"),
                );
                return None;
            }
            (_, [v]) => (None, v, None),
            (_, [v, o]) => (None, v, Some(o)),
            _ => {
                self.error(codes::ARGUMENT_COUNT, span, format!("'{name}' takes the destination, a value and an optional out original value"));
                return None;
            }
        };
        let compare = match compare {
            Some(c) => {
                let v = self.lower_expr(cx, c)?;
                Some(self.convert_value(cx, v, ty, c.span, true)?)
            }
            None => None,
        };
        let v = self.lower_expr(cx, value)?;
        let value = self.convert_value(cx, v, ty, value.span, true)?;
        let original_place = match original {
            Some(o) => {
                let place = self.lower_expr(cx, o)?;
                self.check_writable(&place, o.span)?;
                Some((place, o.span))
            }
            None => None,
        };
        let result = original_place
            .as_ref()
            .map(|_| cx.expr(Expression::AtomicResult, ty, span));
        cx.emit(Statement::Atomic {
            pointer,
            fun,
            value,
            compare,
            result,
        });
        if let (Some((place, o_span)), Some(result)) = (original_place, result) {
            let converted = self.convert_value(
                cx,
                rvalue_operand(result, ty).into_value(),
                place.value_type()?,
                o_span,
                true,
            )?;
            self.store(cx, &place, converted, o_span)?;
        }
        let bool_ty = self.scalar_type(Scalar::BOOL);
        Some(rvalue(self.void_marker(cx, span), bool_ty))
    }

    /// A method call on a resource.
    pub(crate) fn lower_method_call(
        &mut self,
        cx: &mut FnCtx,
        receiver: &'a ast::Expr<'a>,
        method: &ast::Ident<'a>,
        template_args: Option<&'a [ast::TemplateArg<'a>]>,
        args: &'a [ast::Expr<'a>],
        span: Span,
    ) -> Option<Value> {
        let target = self.lower_expr(cx, receiver)?;
        if let Some(key) = self.method_of(&target, method.name) {
            return self.lower_user_call(cx, &key, Some((target, receiver.span)), args, span);
        }
        let Value::Resource { global, ty } = target else {
            self.error(
                codes::UNKNOWN_MEMBER,
                method.span,
                format!(
                    "'{}' is not a method of this value; methods exist on resources and on structs that declare them",
                    method.name
                ),
            );
            return None;
        };
        if matches!(
            ty.kind,
            ResourceKind::Texture
                | ResourceKind::RWTexture
                | ResourceKind::Buffer
                | ResourceKind::RWBuffer
                | ResourceKind::Sampler
        ) {
            return self.lower_image_method(cx, global, ty, method, args, span);
        }
        let name = method.name;
        if let Some(&flavor) = self.buffer_flavors.get(&global) {
            match (flavor, name) {
                (BufferFlavor::Append, "Append") | (BufferFlavor::Consume, "Consume") => {
                    return self.lower_append_consume(cx, global, ty.element, flavor, args, span);
                }
                (_, "GetDimensions") => {}
                _ => {
                    let only = match flavor {
                        BufferFlavor::Append => "Append",
                        BufferFlavor::Consume => "Consume",
                    };
                    self.error(
                        codes::UNKNOWN_MEMBER,
                        method.span,
                        format!(
                            "{} has no method '{name}': it has {only} and GetDimensions",
                            flavor.hlsl_name()
                        ),
                    );
                    return None;
                }
            }
        }
        let gv = &self.module.global_variables[global];
        let (global_ty, space) = (gv.ty, gv.space);
        let global_ptr_ty = self.pointer_type(global_ty, space);
        let uint = self.scalar_type(Scalar::U32);
        match (ty.kind, name) {
            (ResourceKind::StructuredBuffer | ResourceKind::RWStructuredBuffer, "Load") => {
                let [index] = self.expect_args::<1>(args, name, span)?;
                let index = self.lower_rvalue(cx, index)?;
                let index = self.index_value(cx, index, span)?;
                let base = cx.expr(Expression::GlobalVariable(global), global_ptr_ty, span);
                let pointer_ty = self.pointer_type(ty.element, space);
                let pointer = cx.expr(Expression::Access { base, index }, pointer_ty, span);
                Some(rvalue(
                    cx.expr(Expression::Load { pointer }, ty.element, span),
                    ty.element,
                ))
            }
            (
                ResourceKind::StructuredBuffer | ResourceKind::RWStructuredBuffer,
                "GetDimensions",
            ) => {
                let [count, stride] = self.expect_args::<2>(args, name, span)?;
                let base = cx.expr(Expression::GlobalVariable(global), global_ptr_ty, span);
                let length = cx.expr(Expression::ArrayLength(base), uint, span);
                self.store_out(cx, count, length, uint)?;
                let stride_value = match self.module.inner(global_ty) {
                    TypeInner::Array { stride, .. } => *stride,
                    _ => 0,
                };
                let stride_expr = self.literal(cx, Scalar::U32, i64::from(stride_value), span);
                self.store_out(cx, stride, stride_expr, uint)?;
                Some(rvalue(
                    self.void_marker(cx, span),
                    self.scalar_type(Scalar::BOOL),
                ))
            }
            (
                ResourceKind::ByteAddressBuffer | ResourceKind::RWByteAddressBuffer,
                "GetDimensions",
            ) => {
                let [size] = self.expect_args::<1>(args, name, span)?;
                let base = cx.expr(Expression::GlobalVariable(global), global_ptr_ty, span);
                let length = cx.expr(Expression::ArrayLength(base), uint, span);
                let four = self.literal(cx, Scalar::U32, 4, span);
                let bytes = cx.expr(
                    Expression::Binary {
                        op: BinaryOperator::Multiply,
                        left: length,
                        right: four,
                    },
                    uint,
                    span,
                );
                self.store_out(cx, size, bytes, uint)?;
                Some(rvalue(
                    self.void_marker(cx, span),
                    self.scalar_type(Scalar::BOOL),
                ))
            }
            (
                ResourceKind::ByteAddressBuffer | ResourceKind::RWByteAddressBuffer,
                "Load" | "Load2" | "Load3" | "Load4",
            ) => {
                let [address] = self.expect_args::<1>(args, name, span)?;
                let result_ty = match template_args {
                    Some([ast::TemplateArg::Type { ty: t, .. }]) => match self.resolve_type(t)? {
                        Ty::Value(t) => t,
                        _ => return None,
                    },
                    Some(_) => {
                        self.error(
                            codes::NO_MATCHING_OVERLOAD,
                            span,
                            "Load<T> takes one value type",
                        );
                        return None;
                    }
                    None => self.words_type(name),
                };
                if let Err(what) = self.raw_word_count(result_ty) {
                    self.error(
                        codes::UNSUPPORTED_CONSTRUCT,
                        span,
                        format!("Load<{}> is not supported: {what} are not supported in byte-address buffers yet; load 32-bit words and convert them", types::type_name(&self.module, result_ty)),
                    );
                    return None;
                }
                let first_word = self.word_index(cx, address, span)?;
                let first_word = cx.bind(first_word);
                let place = RawPlace { global, first_word };
                let value = self.load_raw(cx, place, 0, result_ty, span);
                Some(rvalue(value, result_ty))
            }
            (ResourceKind::RWByteAddressBuffer, "Store" | "Store2" | "Store3" | "Store4") => {
                let [address, value] = self.expect_args::<2>(args, name, span)?;
                let operand = self.lower_rvalue(cx, value)?;
                let value_ty = match template_args {
                    Some([ast::TemplateArg::Type { ty: t, .. }]) => match self.resolve_type(t)? {
                        Ty::Value(t) => t,
                        _ => return None,
                    },
                    // Like DXC's templated Store, a typed value stores its own bits.
                    None if name == "Store"
                        && !operand.literal
                        && self.raw_word_count(operand.ty).is_ok()
                        && self
                            .numeric(operand.ty)
                            .is_none_or(|(s, _)| s.kind != ScalarKind::Bool) =>
                    {
                        operand.ty
                    }
                    _ => self.words_type(name),
                };
                if let Err(what) = self.raw_word_count(value_ty) {
                    self.error(
                        codes::UNSUPPORTED_CONSTRUCT,
                        span,
                        format!("Store<{}> is not supported: {what} are not supported in byte-address buffers yet; store 32-bit words", types::type_name(&self.module, value_ty)),
                    );
                    return None;
                }
                let converted =
                    self.convert_value(cx, operand.into_value(), value_ty, value.span, true)?;
                let first_word = self.word_index(cx, address, span)?;
                let first_word = cx.bind(first_word);
                let place = RawPlace { global, first_word };
                self.store_raw(cx, place, 0, converted, value_ty, span);
                Some(rvalue(
                    self.void_marker(cx, span),
                    self.scalar_type(Scalar::BOOL),
                ))
            }
            (ResourceKind::RWByteAddressBuffer, n) if n.starts_with("Interlocked") => {
                let Some(fun) = atomic_function(n) else {
                    self.error(
                        codes::UNKNOWN_MEMBER,
                        method.span,
                        format!("RWByteAddressBuffer has no method '{n}'"),
                    );
                    return None;
                };
                let Some((address, rest)) = args.split_first() else {
                    self.error(
                        codes::ARGUMENT_COUNT,
                        span,
                        format!("'{n}' needs a byte address"),
                    );
                    return None;
                };
                let index = self.word_index(cx, address, span)?;
                let base = cx.expr(Expression::GlobalVariable(global), global_ptr_ty, span);
                let pointer_ty = self.pointer_type(uint, space);
                let pointer = cx.expr(Expression::Access { base, index }, pointer_ty, span);
                self.emit_atomic(cx, n, fun, pointer, uint, rest, span)
            }
            (ResourceKind::ByteAddressBuffer, n)
                if n.starts_with("Store") || n.starts_with("Interlocked") =>
            {
                self.error(codes::NOT_ASSIGNABLE, method.span, format!("'{n}' writes, but ByteAddressBuffer is read-only: declare it RWByteAddressBuffer and bind a UAV (register u)"));
                None
            }
            (ResourceKind::RWStructuredBuffer, "IncrementCounter" | "DecrementCounter") => {
                self.lower_counter_method(cx, global, name, args, span)
            }
            _ => {
                self.error(
                    codes::UNKNOWN_MEMBER,
                    method.span,
                    format!("{} has no method '{name}'", ty.kind.hlsl_name()),
                );
                None
            }
        }
    }

    /// The uint scalar or vector that `Load2`, `Store3`, … move (by the name's digit).
    fn words_type(&mut self, method: &str) -> Handle<Type> {
        let shape =
            VectorSize::from_count(method_width(method)).map_or(Shape::Scalar, Shape::Vector);
        self.shaped(Scalar::U32, shape)
    }

    /// `address >> 2` as a uint word index.
    fn word_index(
        &mut self,
        cx: &mut FnCtx,
        address: &'a ast::Expr<'a>,
        span: Span,
    ) -> Option<Handle<Expression>> {
        let uint = self.scalar_type(Scalar::U32);
        let operand = self.lower_rvalue(cx, address)?;
        let address = self.convert_value(cx, operand.into_value(), uint, address.span, true)?;
        if let Expression::Literal(Literal::U32(v)) = cx.function.expressions[address] {
            return Some(cx.expr(Expression::Literal(Literal::U32(v >> 2)), uint, span));
        }
        let two = self.literal(cx, Scalar::U32, 2, span);
        Some(cx.expr(
            Expression::Binary {
                op: BinaryOperator::ShiftRight,
                left: address,
                right: two,
            },
            uint,
            span,
        ))
    }

    /// Stores `value` of `ty` into the place written as argument `arg` (an out argument).
    pub(crate) fn store_out(
        &mut self,
        cx: &mut FnCtx,
        arg: &'a ast::Expr<'a>,
        value: Handle<Expression>,
        ty: Handle<Type>,
    ) -> Option<()> {
        let place = self.lower_expr(cx, arg)?;
        self.check_writable(&place, arg.span)?;
        let target = place.value_type()?;
        let converted = self.convert_value(
            cx,
            rvalue_operand(value, ty).into_value(),
            target,
            arg.span,
            true,
        )?;
        self.store(cx, &place, converted, arg.span)
    }

    /// The function key of member function `method` of the struct `value` holds, if
    /// it declares one.
    fn method_of(&self, value: &Value, method: &str) -> Option<String> {
        let ty = value.value_type()?;
        if !matches!(self.module.inner(ty), TypeInner::Struct { .. }) {
            return None;
        }
        let struct_name = self.module.types[ty].name.as_deref()?;
        let key = super::globals::method_key(struct_name, method);
        self.functions.contains_key(key.as_str()).then_some(key)
    }

    /// A call of a user function, with overload resolution and out/inout copies. A
    /// member function gets its `receiver` as the implicit `this`: copied in, and
    /// copied back when it is writable.
    fn lower_user_call(
        &mut self,
        cx: &mut FnCtx,
        name: &str,
        receiver: Option<(Value, Span)>,
        args: &'a [ast::Expr<'a>],
        span: Span,
    ) -> Option<Value> {
        // Each argument's value (a place for an `out` argument) and span.
        let implicit = usize::from(receiver.is_some());
        let mut operands: Vec<(Value, Span)> = Vec::with_capacity(implicit + args.len());
        let mut failed = false;
        operands.extend(receiver);
        for arg in args {
            // Every argument is checked, so each one's errors are reported.
            let Some(value) = self.lower_expr(cx, arg) else {
                failed = true;
                continue;
            };
            operands.push((value, arg.span));
        }
        if failed {
            return None;
        }
        let given = operands.len();
        let overloads = self.functions.get(name)?;
        let mut best: Option<(usize, u32)> = None;
        let mut ambiguous = false;
        for (index, candidate) in overloads.iter().enumerate() {
            let required = candidate
                .params
                .iter()
                .filter(|p| p.default.is_none())
                .count();
            if given < required || given > candidate.params.len() {
                continue;
            }
            let mut cost = 0;
            let mut viable = true;
            for ((value, _), param) in operands.iter().zip(candidate.params.iter()) {
                let param_cost = match (param.resource, value) {
                    (Some(want), Value::Resource { ty, .. }) => (want == *ty).then_some(0),
                    (Some(_), _) | (None, Value::Resource { .. }) => None,
                    (None, _) => self.conversion_cost(value, param.ty),
                };
                match param_cost {
                    Some(c) => cost += c,
                    None => viable = false,
                }
            }
            if !viable {
                continue;
            }
            match best {
                Some((_, c)) if c < cost => {}
                Some((_, c)) if c == cost => ambiguous = true,
                _ => {
                    best = Some((index, cost));
                    ambiguous = false;
                }
            }
        }
        let Some((index, _)) = best else {
            if let [only] = overloads.as_slice() {
                let count = only.params.len() - implicit;
                let required =
                    only.params.iter().filter(|p| p.default.is_none()).count() - implicit;
                if args.len() < required || args.len() > count {
                    let takes = if required == count {
                        format!("{count}")
                    } else {
                        format!("{required} to {count}")
                    };
                    self.error(
                        codes::ARGUMENT_COUNT,
                        span,
                        format!(
                            "'{name}' takes {takes} argument{}, but {} {} given: pass one value for each parameter it declares",
                            if count == 1 { "" } else { "s" },
                            args.len(),
                            if args.len() == 1 { "was" } else { "were" }
                        ),
                    );
                    return None;
                }
            }
            self.error(
                codes::NO_MATCHING_OVERLOAD,
                span,
                format!(
                    "no overload of '{name}' takes {} argument{} of these types: convert the arguments to the parameter types of one overload",
                    args.len(),
                    if args.len() == 1 { "" } else { "s" }
                ),
            );
            return None;
        };
        if ambiguous {
            self.error(
                codes::NO_MATCHING_OVERLOAD,
                span,
                format!("the call of '{name}' is ambiguous between overloads"),
            );
            return None;
        }
        // The parameters are copied out (they borrow only the syntax tree) so that the
        // arguments can be lowered while the symbol tables change.
        let (params, result_ty) = {
            let symbol = self.functions.get(name)?.get(index)?;
            (symbol.params.clone(), symbol.result)
        };
        let mut arguments = Vec::with_capacity(params.len());
        let mut resources = Vec::new();
        let mut copy_back = Vec::new();
        for (i, param) in params.iter().enumerate() {
            let (value, arg_span) = match operands.get(i) {
                Some((v, s)) => (v.clone(), *s),
                None => {
                    let default = param.default?;
                    let v = self.lower_expr(cx, default)?;
                    (v, default.span)
                }
            };
            if param.resource.is_some() {
                // Overload resolution admitted only a resource of the parameter's type.
                let Value::Resource { global, .. } = value else {
                    return None;
                };
                resources.push(global);
            } else if param.by_pointer {
                let place = operands.get(i).map(|(v, _)| v.clone());
                let place = place?;
                // A method called on a value that cannot be assigned (a constant, a
                // read-only resource, a temporary) works on a copy, as on a C++ temporary.
                let receiver_is_read_only = i < implicit && !is_writable(&place);
                if !receiver_is_read_only {
                    self.check_writable(&place, arg_span)?;
                }
                let temp = cx.temporary(param.ty, arg_span);
                let pointer_ty = self.pointer_type(param.ty, AddressSpace::Function);
                if param.copy_in {
                    let initial = self.convert_value(cx, value, param.ty, arg_span, true)?;
                    let pointer = cx.expr(Expression::LocalVariable(temp), pointer_ty, arg_span);
                    cx.emit(Statement::Store {
                        pointer,
                        value: initial,
                    });
                }
                arguments.push(cx.expr(Expression::LocalVariable(temp), pointer_ty, arg_span));
                if !receiver_is_read_only {
                    copy_back.push((place, temp, param.ty, pointer_ty, arg_span));
                }
            } else {
                let converted = self.convert_value(cx, value, param.ty, arg_span, true)?;
                arguments.push(converted);
            }
        }
        let handle = self.function_handle(name, index, Some(span), &resources)?;
        let result = match result_ty {
            Ty::Value(ty) => Some((cx.expr(Expression::CallResult(handle), ty, span), ty)),
            _ => None,
        };
        cx.emit(Statement::Call {
            function: handle,
            arguments,
            result: result.map(|r| r.0),
        });
        for (place, temp, ty, pointer_ty, arg_span) in copy_back {
            let pointer = cx.expr(Expression::LocalVariable(temp), pointer_ty, arg_span);
            let value = cx.expr(Expression::Load { pointer }, ty, arg_span);
            let target = place.value_type()?;
            let converted = self.convert_value(
                cx,
                rvalue_operand(value, ty).into_value(),
                target,
                arg_span,
                true,
            )?;
            self.store(cx, &place, converted, arg_span)?;
        }
        match result {
            Some((expr, ty)) => Some(rvalue(expr, ty)),
            None => Some(rvalue(
                self.void_marker(cx, span),
                self.scalar_type(Scalar::BOOL),
            )),
        }
    }

    /// How costly converting `value` to `to` is for overload resolution; `None` if impossible.
    fn conversion_cost(&self, value: &Value, to: Handle<Type>) -> Option<u32> {
        let from = value.value_type()?;
        if from == to {
            return Some(0);
        }
        let (fs, fshape) = self.numeric(from)?;
        let (ts, tshape) = self.numeric(to)?;
        let shape_cost = match (fshape, tshape) {
            (a, b) if a == b => 0,
            (Shape::Scalar, Shape::Vector(_)) => 2,
            (Shape::Vector(a), Shape::Vector(b)) if a > b => 4,
            (Shape::Vector(_), Shape::Scalar) => 4,
            _ => return None,
        };
        let kind_cost = if fs == ts {
            0
        } else if fs.kind == ts.kind {
            1
        } else {
            2
        };
        Some(shape_cost + kind_cost)
    }
}

/// Whether `value` is a place that may be assigned.
fn is_writable(value: &Value) -> bool {
    match value {
        Value::Place { writable, .. }
        | Value::SwizzlePlace { writable, .. }
        | Value::MatrixPlace { writable, .. }
        | Value::Texel { writable, .. } => *writable,
        _ => false,
    }
}

fn rvalue(expr: Handle<Expression>, ty: Handle<Type>) -> Value {
    Value::Rvalue {
        expr,
        ty,
        literal: false,
    }
}

fn rvalue_operand(expr: Handle<Expression>, ty: Handle<Type>) -> Operand {
    Operand {
        expr,
        ty,
        literal: false,
    }
}

/// Number of words of `Load2`/`Store3`/….
fn method_width(name: &str) -> u32 {
    name.chars()
        .last()
        .and_then(|c| c.to_digit(10))
        .unwrap_or(1)
}

fn atomic_function(name: &str) -> Option<AtomicFunction> {
    Some(match name {
        "InterlockedAdd" => AtomicFunction::Add,
        "InterlockedAnd" => AtomicFunction::And,
        "InterlockedOr" => AtomicFunction::Or,
        "InterlockedXor" => AtomicFunction::Xor,
        "InterlockedMin" => AtomicFunction::Min,
        "InterlockedMax" => AtomicFunction::Max,
        "InterlockedExchange" => AtomicFunction::Exchange,
        "InterlockedCompareExchange" | "InterlockedCompareStore" => AtomicFunction::CompareExchange,
        _ => return None,
    })
}
