//! Intrinsics built from other IR operations: unit conversions (`degrees`, `log10`,
//! `ldexp`), intrinsics with `out` parameters (`sincos`, `modf`), the lighting helpers
//! (`dst`, `lit`, `faceforward`), matrix `transpose`/`determinant`, and the exact
//! half-precision conversions `f32tof16`/`f16tof32`, done with integer operations so
//! that every target rounds as D3D does (to nearest, ties to even).

use oneshader_ir::{
    codes, BinaryOperator, Expression, Handle, Literal, MathFunction, Scalar, ScalarKind, Span,
    Type, TypeInner, UnaryOperator, VectorSize,
};

use super::context::{FnCtx, Value};
use super::expr::{Operand, Shape};
use super::intrinsics::Operands;
use super::Lowerer;
use crate::ast;

/// Element-wise intrinsics this module lowers (on matrices column by column).
pub(crate) const ELEMENT_WISE_DERIVED: &[&str] = &[
    "isfinite", "rcp", "fmod", "degrees", "radians", "log10", "ldexp",
];

/// The other intrinsics this module lowers.
pub(crate) const DERIVED_INTRINSICS: &[&str] = &[
    "sincos",
    "modf",
    "frexp",
    "dst",
    "lit",
    "faceforward",
    "transpose",
    "determinant",
    "f32tof16",
    "f16tof32",
];

/// SM 6.0 intrinsics not lowered, with what to do instead.
pub(crate) fn unsupported_intrinsic_message(name: &str) -> Option<String> {
    let advice = match name {
        "msad4" => "compute the masked sums of absolute byte differences with shifts and abs",
        "noise" => "it is only defined for the legacy tx_1_0 profile",
        _ => return None,
    };
    Some(format!(
        "The intrinsic '{name}' is not supported yet: {advice}."
    ))
}

impl<'a> Lowerer<'a> {
    /// The outputs of an intrinsic with `out` parameters of float argument `x` (`sincos`,
    /// `modf`, `frexp`): `apply` gives them for a scalar or vector; a matrix gets them column
    /// by column.
    fn float_outputs(
        &mut self,
        cx: &mut FnCtx,
        name: &str,
        x: &'a ast::Expr<'a>,
        span: Span,
        mut apply: impl FnMut(&mut Self, &mut FnCtx, Operand) -> Option<Vec<Operand>>,
    ) -> Option<Vec<Operand>> {
        let operand = self.lower_rvalue(cx, x)?;
        let spans = [x.span];
        self.per_column_outputs(
            cx,
            name,
            vec![operand],
            &spans,
            span,
            |this, cx, operands| {
                let (ops, ty) =
                    this.common_operands_of(cx, &operands, &spans, Operands::Float, span)?;
                let x = Operand {
                    expr: ops.first().copied()?,
                    ty,
                    literal: false,
                };
                apply(this, cx, x)
            },
        )
    }

    /// Lowers a call of one of [`ELEMENT_WISE_DERIVED`], on scalars, vectors or matrices.
    pub(crate) fn lower_element_wise_derived(
        &mut self,
        cx: &mut FnCtx,
        name: &str,
        args: &'a [ast::Expr<'a>],
        span: Span,
    ) -> Option<Operand> {
        let arity = if matches!(name, "fmod" | "ldexp") {
            2
        } else {
            1
        };
        self.check_arity(name, arity, args.len(), span)?;
        let operands = self.lower_arguments(cx, args.iter())?;
        let spans: Vec<Span> = args.iter().map(|a| a.span).collect();
        self.per_column(cx, name, operands, &spans, span, |this, cx, operands| {
            this.element_wise_derived_of(cx, name, &operands, &spans, span)
        })
    }

    /// Element-wise intrinsic `name` of scalar or vector float operands.
    fn element_wise_derived_of(
        &mut self,
        cx: &mut FnCtx,
        name: &str,
        operands: &[Operand],
        spans: &[Span],
        span: Span,
    ) -> Option<Operand> {
        let (ops, ty) = self.common_operands_of(cx, operands, spans, Operands::Float, span)?;
        let x = ops.first().copied()?;
        let expr = match name {
            "isfinite" => {
                let x = cx.bind(x);
                let (_, shape) = self.numeric(ty)?;
                let bool_ty = self.shaped(Scalar::BOOL, shape);
                let nan = self.math(cx, MathFunction::IsNan, vec![x], bool_ty, span);
                let inf = self.math(cx, MathFunction::IsInf, vec![x], bool_ty, span);
                let either = self.binary_keep(cx, BinaryOperator::LogicalOr, nan, inf, span);
                cx.expr(
                    Expression::Unary {
                        op: UnaryOperator::LogicalNot,
                        expr: either,
                    },
                    bool_ty,
                    span,
                )
            }
            "rcp" => {
                let one = self.one_like(cx, ty, span)?;
                self.binary_keep(cx, BinaryOperator::Divide, one, x, span)
            }
            "fmod" => {
                let y = ops.get(1).copied()?;
                self.binary_keep(cx, BinaryOperator::Modulo, x, y, span)
            }
            "ldexp" => {
                let e = ops.get(1).copied()?;
                let scale = self.math(cx, MathFunction::Exp2, vec![e], ty, span);
                self.binary_keep(cx, BinaryOperator::Multiply, x, scale, span)
            }
            _ => {
                let (x, factor) = match name {
                    "degrees" => (x, 180.0 / std::f64::consts::PI),
                    "radians" => (x, std::f64::consts::PI / 180.0),
                    _ => (
                        self.math(cx, MathFunction::Log2, vec![x], ty, span),
                        std::f64::consts::LOG10_2,
                    ),
                };
                let factor = self.float_like(cx, x, factor, span)?;
                self.binary_keep(cx, BinaryOperator::Multiply, x, factor, span)
            }
        };
        let ty = cx.function.type_of(expr);
        Some(Operand {
            expr,
            ty,
            literal: false,
        })
    }

    /// Lowers a call of one of [`DERIVED_INTRINSICS`].
    pub(crate) fn lower_derived(
        &mut self,
        cx: &mut FnCtx,
        name: &str,
        args: &'a [ast::Expr<'a>],
        span: Span,
    ) -> Option<Value> {
        match name {
            "sincos" => {
                let [x, sin_out, cos_out] = self.expect_args::<3>(args, name, span)?;
                let outputs = self.float_outputs(cx, name, x, span, |this, cx, x| {
                    let value = cx.bind(x.expr);
                    let sin = this.math(cx, MathFunction::Sin, vec![value], x.ty, span);
                    let cos = this.math(cx, MathFunction::Cos, vec![value], x.ty, span);
                    Some(vec![typed_operand(cx, sin), typed_operand(cx, cos)])
                })?;
                let [sin, cos] = outputs.as_slice() else {
                    return None;
                };
                self.store_out(cx, sin_out, sin.expr, sin.ty)?;
                self.store_out(cx, cos_out, cos.expr, cos.ty)?;
                let marker = self.void_marker(cx, span);
                Some(typed(cx, marker))
            }
            "modf" => {
                let [x, whole_out] = self.expect_args::<2>(args, name, span)?;
                let outputs = self.float_outputs(cx, name, x, span, |this, cx, x| {
                    let value = cx.bind(x.expr);
                    let whole = this.math(cx, MathFunction::Trunc, vec![value], x.ty, span);
                    let whole = cx.bind(whole);
                    let fraction =
                        this.binary_keep(cx, BinaryOperator::Subtract, value, whole, span);
                    Some(vec![typed_operand(cx, fraction), typed_operand(cx, whole)])
                })?;
                let [fraction, whole] = outputs.as_slice() else {
                    return None;
                };
                self.store_out(cx, whole_out, whole.expr, whole.ty)?;
                Some(fraction.into_value())
            }
            "frexp" => {
                // As DXC: from the bits, the exponent ((bits >> 23) & 0xff) - 126 and the
                // mantissa with the exponent of 0.5; both 0 for a zero.
                let [x, exponent_out] = self.expect_args::<2>(args, name, span)?;
                let outputs = self.float_outputs(cx, name, x, span, |this, cx, x| {
                    let (bits, mut u) = this.float_bits(cx, x.expr, x.ty, span)?;
                    let magnitude = u.and(this, cx, bits, 0x7fff_ffff)?;
                    let is_zero = u.compare(this, cx, BinaryOperator::Equal, magnitude, 0)?;
                    let is_zero = cx.bind(is_zero);
                    let shifted = u.shr(this, cx, bits, 23)?;
                    let biased = u.and(this, cx, shifted, 0xff)?;
                    let biased = cx.expr(
                        Expression::Convert {
                            expr: biased,
                            to: Scalar::F32,
                        },
                        x.ty,
                        span,
                    );
                    let bias = this.float_like(cx, biased, 126.0, span)?;
                    let exponent =
                        this.binary_keep(cx, BinaryOperator::Subtract, biased, bias, span);
                    let zero = this.float_like(cx, exponent, 0.0, span)?;
                    let exponent = cx.expr(
                        Expression::Select {
                            condition: is_zero,
                            accept: zero,
                            reject: exponent,
                        },
                        x.ty,
                        span,
                    );
                    let exponent = cx.bind(exponent);
                    let kept = u.and(this, cx, bits, 0x807f_ffff)?;
                    let mantissa_bits = u.or(this, cx, kept, 0x3f00_0000)?;
                    let mantissa = cx.expr(
                        Expression::Bitcast {
                            expr: mantissa_bits,
                            to: Scalar::F32,
                        },
                        x.ty,
                        span,
                    );
                    let zero = this.float_like(cx, mantissa, 0.0, span)?;
                    let result = cx.expr(
                        Expression::Select {
                            condition: is_zero,
                            accept: zero,
                            reject: mantissa,
                        },
                        x.ty,
                        span,
                    );
                    Some(vec![typed_operand(cx, result), typed_operand(cx, exponent)])
                })?;
                let [mantissa, exponent] = outputs.as_slice() else {
                    return None;
                };
                self.store_out(cx, exponent_out, exponent.expr, exponent.ty)?;
                Some(mantissa.into_value())
            }
            "dst" => {
                let [a, b] = self.expect_args::<2>(args, name, span)?;
                let float4 = self.shaped(Scalar::F32, Shape::Vector(VectorSize::Quad));
                let a = self.lower_rvalue(cx, a)?;
                let a = self.convert_value(cx, a.into_value(), float4, span, true)?;
                let b = self.lower_rvalue(cx, b)?;
                let b = self.convert_value(cx, b.into_value(), float4, span, true)?;
                let (a, b) = (cx.bind(a), cx.bind(b));
                let float = self.scalar_type(Scalar::F32);
                let ay = self.component(cx, a, 1, float, span);
                let by = self.component(cx, b, 1, float, span);
                let components = vec![
                    self.float_literal(cx, 1.0, span),
                    self.binary_keep(cx, BinaryOperator::Multiply, ay, by, span),
                    self.component(cx, a, 2, float, span),
                    self.component(cx, b, 3, float, span),
                ];
                {
                    let result = cx.expr(
                        Expression::Compose {
                            ty: float4,
                            components: components.into(),
                        },
                        float4,
                        span,
                    );
                    Some(typed(cx, result))
                }
            }
            "lit" => {
                let [l, h, m] = self.expect_args::<3>(args, name, span)?;
                let float = self.scalar_type(Scalar::F32);
                let mut scalars = Vec::new();
                for arg in [l, h, m] {
                    let v = self.lower_rvalue(cx, arg)?;
                    let v = self.convert_value(cx, v.into_value(), float, arg.span, true)?;
                    scalars.push(cx.bind(v));
                }
                let (l, h, m) = (
                    scalars.first().copied()?,
                    scalars.get(1).copied()?,
                    scalars.get(2).copied()?,
                );
                let zero = self.float_literal(cx, 0.0, span);
                let one = self.float_literal(cx, 1.0, span);
                let diffuse = self.math(cx, MathFunction::Max, vec![l, zero], float, span);
                let bool_ty = self.scalar_type(Scalar::BOOL);
                let l_negative = cx.expr(
                    Expression::Binary {
                        op: BinaryOperator::Less,
                        left: l,
                        right: zero,
                    },
                    bool_ty,
                    span,
                );
                let h_negative = cx.expr(
                    Expression::Binary {
                        op: BinaryOperator::Less,
                        left: h,
                        right: zero,
                    },
                    bool_ty,
                    span,
                );
                let dark = cx.expr(
                    Expression::Binary {
                        op: BinaryOperator::LogicalOr,
                        left: l_negative,
                        right: h_negative,
                    },
                    bool_ty,
                    span,
                );
                let power = self.math(cx, MathFunction::Pow, vec![h, m], float, span);
                let specular = cx.expr(
                    Expression::Select {
                        condition: dark,
                        accept: zero,
                        reject: power,
                    },
                    float,
                    span,
                );
                let float4 = self.shaped(Scalar::F32, Shape::Vector(VectorSize::Quad));
                {
                    let result = cx.expr(
                        Expression::Compose {
                            ty: float4,
                            components: Box::new([one, diffuse, specular, one]),
                        },
                        float4,
                        span,
                    );
                    Some(typed(cx, result))
                }
            }
            "faceforward" => {
                let [n, i, ng] = self.expect_args::<3>(args, name, span)?;
                let (ops, ty) = self.common_operands(cx, &[n, i, ng], Operands::Float, span)?;
                let (scalar, _) = self.numeric(ty)?;
                let scalar_ty = self.scalar_type(scalar);
                let n = cx.bind(ops.first().copied()?);
                let dot = self.math(
                    cx,
                    MathFunction::Dot,
                    vec![ops.get(2).copied()?, ops.get(1).copied()?],
                    scalar_ty,
                    span,
                );
                let zero = self.float_literal(cx, 0.0, span);
                let bool_ty = self.scalar_type(Scalar::BOOL);
                let facing = cx.expr(
                    Expression::Binary {
                        op: BinaryOperator::Less,
                        left: dot,
                        right: zero,
                    },
                    bool_ty,
                    span,
                );
                let negated = cx.expr(
                    Expression::Unary {
                        op: UnaryOperator::Negate,
                        expr: n,
                    },
                    ty,
                    span,
                );
                {
                    let result = cx.expr(
                        Expression::Select {
                            condition: facing,
                            accept: n,
                            reject: negated,
                        },
                        ty,
                        span,
                    );
                    Some(typed(cx, result))
                }
            }
            "transpose" | "determinant" => {
                let [arg] = self.expect_args::<1>(args, name, span)?;
                let m = self.lower_rvalue(cx, arg)?;
                if name == "transpose" {
                    if let Some(transposed) = self.degenerate_transpose(m) {
                        return Some(transposed.into_value());
                    }
                }
                let TypeInner::Matrix {
                    columns,
                    rows,
                    scalar,
                } = *self.module.inner(m.ty)
                else {
                    self.error(
                        codes::NO_MATCHING_OVERLOAD,
                        arg.span,
                        format!("'{name}' needs a matrix"),
                    );
                    return None;
                };
                if scalar.kind != ScalarKind::Float {
                    if name == "determinant" {
                        let t = self.module.hlsl_type_name(m.ty);
                        self.error(
                            codes::NO_MATCHING_OVERLOAD,
                            arg.span,
                            format!("'determinant' needs a float matrix, not '{t}': convert it first, as in determinant((float{}x{})m)", rows.count(), columns.count()),
                        );
                        return None;
                    }
                    return self
                        .integer_matrix_transpose(cx, m, span)
                        .map(Operand::into_value);
                }
                let (fun, ty) = if name == "transpose" {
                    let ty = self.module.type_handle(TypeInner::Matrix {
                        columns: rows,
                        rows: columns,
                        scalar,
                    });
                    (MathFunction::Transpose, ty)
                } else {
                    if rows != columns {
                        self.error(
                            codes::NO_MATCHING_OVERLOAD,
                            arg.span,
                            "'determinant' needs a square matrix",
                        );
                        return None;
                    }
                    (MathFunction::Determinant, self.scalar_type(scalar))
                };
                {
                    let result = self.math(cx, fun, vec![m.expr], ty, span);
                    Some(typed(cx, result))
                }
            }
            "f32tof16" => {
                let [arg] = self.expect_args::<1>(args, name, span)?;
                let x = self.float_operand(cx, arg)?;
                {
                    let result = self.f32_to_f16_bits(cx, x.expr, x.ty, span)?;
                    Some(typed(cx, result))
                }
            }
            "f16tof32" => {
                let [arg] = self.expect_args::<1>(args, name, span)?;
                let (ops, ty) = self.common_operands(cx, &[arg], Operands::Integer, span)?;
                let (_, shape) = self.numeric(ty)?;
                let uint_ty = self.shaped(Scalar::U32, shape);
                let bits = self.convert_value(
                    cx,
                    self.plain(ops.first().copied()?, ty),
                    uint_ty,
                    span,
                    false,
                )?;
                {
                    let result = self.f16_bits_to_f32(cx, bits, uint_ty, span)?;
                    Some(typed(cx, result))
                }
            }
            _ => None,
        }
    }

    /// The bits of float `x` (of type `float_ty`) as a bound uint of its shape, with the
    /// operations on uints of that shape.
    fn float_bits(
        &mut self,
        cx: &mut FnCtx,
        x: Handle<Expression>,
        float_ty: Handle<Type>,
        span: Span,
    ) -> Option<(Handle<Expression>, UintOps)> {
        let (_, shape) = self.numeric(float_ty)?;
        let uint_ty = self.shaped(Scalar::U32, shape);
        let bits = cx.expr(
            Expression::Bitcast {
                expr: x,
                to: Scalar::U32,
            },
            uint_ty,
            span,
        );
        let u = UintOps {
            ty: uint_ty,
            shape,
            span,
        };
        Some((cx.bind(bits), u))
    }

    /// The IEEE half bits (in the low 16 bits of a uint) nearest to float `x`, ties
    /// to even; too large gives infinity, NaN stays NaN (quiet, payload truncated).
    fn f32_to_f16_bits(
        &mut self,
        cx: &mut FnCtx,
        x: Handle<Expression>,
        float_ty: Handle<Type>,
        span: Span,
    ) -> Option<Handle<Expression>> {
        let (bits, mut u) = self.float_bits(cx, x, float_ty, span)?;
        let inner = u.shr(self, cx, bits, 16)?;
        let sign = u.and(self, cx, inner, 0x8000)?;
        let sign = cx.bind(sign);
        let magnitude = u.and(self, cx, bits, 0x7fff_ffff)?;
        let magnitude = cx.bind(magnitude);
        // Normal halves: drop 13 mantissa bits rounding to even, rebias the exponent.
        let inner = u.shr(self, cx, magnitude, 13)?;
        let odd = u.and(self, cx, inner, 1)?;
        let rounded = u.binary(self, cx, BinaryOperator::Add, magnitude, odd)?;
        let rounded = u.add(self, cx, rounded, 0xfff)?;
        let inner = u.sub(self, cx, rounded, 0x3800_0000)?;
        let normal = u.shr(self, cx, inner, 13)?;
        // Subnormal halves: the value in units of 2^-24, rounded to even (exact in f32).
        let small = cx.expr(
            Expression::Bitcast {
                expr: magnitude,
                to: Scalar::F32,
            },
            float_ty,
            span,
        );
        let unit = self.float_like(cx, small, 16_777_216.0, span)?;
        let scaled = self.binary_keep(cx, BinaryOperator::Multiply, small, unit, span);
        let scaled = self.math(cx, MathFunction::Round, vec![scaled], float_ty, span);
        let subnormal = cx.expr(
            Expression::Convert {
                expr: scaled,
                to: Scalar::U32,
            },
            u.ty,
            span,
        );
        let inner = u.shr(self, cx, magnitude, 13)?;
        let nan_payload = u.and(self, cx, inner, 0x3ff)?;
        let nan = u.or(self, cx, nan_payload, 0x7e00)?;
        let is_small = u.compare(self, cx, BinaryOperator::Less, magnitude, 0x3880_0000)?;
        let half = u.select(cx, is_small, subnormal, normal);
        let overflows = u.compare(
            self,
            cx,
            BinaryOperator::GreaterEqual,
            magnitude,
            0x477f_f000,
        )?;
        let infinity = u.constant(self, cx, 0x7c00)?;
        let half = u.select(cx, overflows, infinity, half);
        let is_nan = u.compare(self, cx, BinaryOperator::Greater, magnitude, 0x7f80_0000)?;
        let half = u.select(cx, is_nan, nan, half);
        u.binary(self, cx, BinaryOperator::BitwiseOr, sign, half)
    }

    /// The float with the IEEE half bits in the low 16 bits of `bits` (exact).
    fn f16_bits_to_f32(
        &mut self,
        cx: &mut FnCtx,
        bits: Handle<Expression>,
        uint_ty: Handle<Type>,
        span: Span,
    ) -> Option<Handle<Expression>> {
        let (_, shape) = self.numeric(uint_ty)?;
        let float_ty = self.shaped(Scalar::F32, shape);
        let mut u = UintOps {
            ty: uint_ty,
            shape,
            span,
        };
        let bits = cx.bind(bits);
        let inner = u.and(self, cx, bits, 0x8000)?;
        let sign = u.shl(self, cx, inner, 16)?;
        let sign = cx.bind(sign);
        let inner = u.shr(self, cx, bits, 10)?;
        let exponent = u.and(self, cx, inner, 0x1f)?;
        let exponent = cx.bind(exponent);
        let mantissa = u.and(self, cx, bits, 0x3ff)?;
        let mantissa = cx.bind(mantissa);
        let wide_mantissa = u.shl(self, cx, mantissa, 13)?;
        let wide_mantissa = cx.bind(wide_mantissa);
        let inner = u.add(self, cx, exponent, 112)?;
        let rebiased = u.shl(self, cx, inner, 23)?;
        let normal = u.binary(self, cx, BinaryOperator::BitwiseOr, rebiased, wide_mantissa)?;
        let special = u.or(self, cx, wide_mantissa, 0x7f80_0000)?;
        // Zero and subnormals: mantissa × 2^-24, exact in f32.
        let as_float = cx.expr(
            Expression::Convert {
                expr: mantissa,
                to: Scalar::F32,
            },
            float_ty,
            span,
        );
        let unit = self.float_like(cx, as_float, 1.0 / 16_777_216.0, span)?;
        let small = self.binary_keep(cx, BinaryOperator::Multiply, as_float, unit, span);
        let small = cx.expr(
            Expression::Bitcast {
                expr: small,
                to: Scalar::U32,
            },
            uint_ty,
            span,
        );
        let is_zero_exponent = u.compare(self, cx, BinaryOperator::Equal, exponent, 0)?;
        let magnitude = u.select(cx, is_zero_exponent, small, normal);
        let is_special = u.compare(self, cx, BinaryOperator::Equal, exponent, 0x1f)?;
        let magnitude = u.select(cx, is_special, special, magnitude);
        let result = u.binary(self, cx, BinaryOperator::BitwiseOr, sign, magnitude)?;
        Some(cx.expr(
            Expression::Bitcast {
                expr: result,
                to: Scalar::F32,
            },
            float_ty,
            span,
        ))
    }

    fn math(
        &mut self,
        cx: &mut FnCtx,
        fun: MathFunction,
        args: Vec<Handle<Expression>>,
        ty: Handle<Type>,
        span: Span,
    ) -> Handle<Expression> {
        cx.expr(
            Expression::Math {
                fun,
                args: args.into(),
            },
            ty,
            span,
        )
    }

    /// `left op right`, typed like `left`.
    fn binary_keep(
        &mut self,
        cx: &mut FnCtx,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
        span: Span,
    ) -> Handle<Expression> {
        let ty = cx.function.type_of(left);
        cx.expr(Expression::Binary { op, left, right }, ty, span)
    }

    /// A float constant shaped like `like` (scalar or splatted vector).
    fn float_like(
        &mut self,
        cx: &mut FnCtx,
        like: Handle<Expression>,
        value: f64,
        span: Span,
    ) -> Option<Handle<Expression>> {
        let ty = cx.function.type_of(like);
        let (_, shape) = self.numeric(ty)?;
        let scalar = self.float_literal(cx, value as f32, span);
        Some(match shape {
            Shape::Scalar => scalar,
            Shape::Vector(size) => cx.expr(
                Expression::Splat {
                    size,
                    value: scalar,
                },
                ty,
                span,
            ),
        })
    }

    fn float_literal(&mut self, cx: &mut FnCtx, value: f32, span: Span) -> Handle<Expression> {
        let ty = self.scalar_type(Scalar::F32);
        cx.expr(Expression::Literal(Literal::F32(value)), ty, span)
    }

    fn component(
        &mut self,
        cx: &mut FnCtx,
        base: Handle<Expression>,
        index: u32,
        ty: Handle<Type>,
        span: Span,
    ) -> Handle<Expression> {
        cx.expr(Expression::AccessIndex { base, index }, ty, span)
    }

    fn plain(&self, expr: Handle<Expression>, ty: Handle<Type>) -> Value {
        Value::Rvalue {
            expr,
            ty,
            literal: false,
        }
    }
}

/// `expr` as a value of its own type.
fn typed_operand(cx: &FnCtx, expr: Handle<Expression>) -> Operand {
    Operand {
        expr,
        ty: cx.function.type_of(expr),
        literal: false,
    }
}

fn typed(cx: &FnCtx, expr: Handle<Expression>) -> Value {
    Value::Rvalue {
        expr,
        ty: cx.function.type_of(expr),
        literal: false,
    }
}

/// Per-component operations on uint scalars or vectors of one shape, with constant
/// right operands splatted to that shape.
struct UintOps {
    ty: Handle<Type>,
    shape: Shape,
    span: Span,
}

impl UintOps {
    fn constant(
        &mut self,
        lowerer: &mut Lowerer,
        cx: &mut FnCtx,
        value: u32,
    ) -> Option<Handle<Expression>> {
        let scalar_ty = lowerer.scalar_type(Scalar::U32);
        let scalar = cx.expr(
            Expression::Literal(Literal::U32(value)),
            scalar_ty,
            self.span,
        );
        Some(match self.shape {
            Shape::Scalar => scalar,
            Shape::Vector(size) => cx.expr(
                Expression::Splat {
                    size,
                    value: scalar,
                },
                self.ty,
                self.span,
            ),
        })
    }

    fn binary(
        &mut self,
        _lowerer: &mut Lowerer,
        cx: &mut FnCtx,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Option<Handle<Expression>> {
        Some(cx.expr(Expression::Binary { op, left, right }, self.ty, self.span))
    }

    fn with_constant(
        &mut self,
        lowerer: &mut Lowerer,
        cx: &mut FnCtx,
        op: BinaryOperator,
        left: Handle<Expression>,
        value: u32,
    ) -> Option<Handle<Expression>> {
        let right = self.constant(lowerer, cx, value)?;
        self.binary(lowerer, cx, op, left, right)
    }

    fn and(
        &mut self,
        l: &mut Lowerer,
        cx: &mut FnCtx,
        x: Handle<Expression>,
        v: u32,
    ) -> Option<Handle<Expression>> {
        self.with_constant(l, cx, BinaryOperator::BitwiseAnd, x, v)
    }

    fn or(
        &mut self,
        l: &mut Lowerer,
        cx: &mut FnCtx,
        x: Handle<Expression>,
        v: u32,
    ) -> Option<Handle<Expression>> {
        self.with_constant(l, cx, BinaryOperator::BitwiseOr, x, v)
    }

    fn add(
        &mut self,
        l: &mut Lowerer,
        cx: &mut FnCtx,
        x: Handle<Expression>,
        v: u32,
    ) -> Option<Handle<Expression>> {
        self.with_constant(l, cx, BinaryOperator::Add, x, v)
    }

    fn sub(
        &mut self,
        l: &mut Lowerer,
        cx: &mut FnCtx,
        x: Handle<Expression>,
        v: u32,
    ) -> Option<Handle<Expression>> {
        self.with_constant(l, cx, BinaryOperator::Subtract, x, v)
    }

    fn shr(
        &mut self,
        l: &mut Lowerer,
        cx: &mut FnCtx,
        x: Handle<Expression>,
        v: u32,
    ) -> Option<Handle<Expression>> {
        self.with_constant(l, cx, BinaryOperator::ShiftRight, x, v)
    }

    fn shl(
        &mut self,
        l: &mut Lowerer,
        cx: &mut FnCtx,
        x: Handle<Expression>,
        v: u32,
    ) -> Option<Handle<Expression>> {
        self.with_constant(l, cx, BinaryOperator::ShiftLeft, x, v)
    }

    /// `x op v` as bools of the shape.
    fn compare(
        &mut self,
        lowerer: &mut Lowerer,
        cx: &mut FnCtx,
        op: BinaryOperator,
        x: Handle<Expression>,
        v: u32,
    ) -> Option<Handle<Expression>> {
        let right = self.constant(lowerer, cx, v)?;
        let bool_ty = lowerer.shaped(Scalar::BOOL, self.shape);
        Some(cx.expr(
            Expression::Binary { op, left: x, right },
            bool_ty,
            self.span,
        ))
    }

    fn select(
        &mut self,
        cx: &mut FnCtx,
        condition: Handle<Expression>,
        accept: Handle<Expression>,
        reject: Handle<Expression>,
    ) -> Handle<Expression> {
        cx.expr(
            Expression::Select {
                condition,
                accept,
                reject,
            },
            self.ty,
            self.span,
        )
    }
}
