//! HLSL's built-in math and bit functions: `GLSL.std.450` where it has them, core
//! instructions otherwise.

use oneshader_ir::{Expression, Handle, MathFunction, ScalarKind, Span, TypeInner};
use rspirv::spirv::{GlslStd450Op as GLOp, Op, Word};

use crate::error::{Error, Result};
use crate::function::FunctionWriter;
use crate::module::Operand;

impl FunctionWriter<'_, '_> {
    /// Writes `fun(args)`, the value of expression `handle`.
    ///
    /// The operands are written first, in this small frame: nested calls recurse through
    /// here, and the large frame of [`Self::math_of_values`] (its `match`, unoptimised) is
    /// only on the stack once they are done.
    pub fn math(
        &mut self,
        handle: Handle<Expression>,
        fun: MathFunction,
        args: &[Handle<Expression>],
    ) -> Result<Word> {
        let mut operands = Vec::with_capacity(args.len());
        for &arg in args {
            operands.push(self.value(arg)?);
        }
        self.math_of_values(handle, fun, args, &operands)
    }

    /// `fun` applied to `operands`, the values of `args`.
    #[inline(never)]
    fn math_of_values(
        &mut self,
        handle: Handle<Expression>,
        fun: MathFunction,
        args: &[Handle<Expression>],
        operands: &[Word],
    ) -> Result<Word> {
        use MathFunction as M;
        use ScalarKind::{Bool, Float, Sint, Uint};
        let span = self.span(handle);
        let result_type = self.value_type_of(handle)?;
        let arity = match fun {
            M::Clamp | M::Lerp | M::Mad | M::SmoothStep | M::Refract => 3,
            M::Min
            | M::Max
            | M::Pow
            | M::Atan2
            | M::Step
            | M::Dot
            | M::Cross
            | M::Distance
            | M::Reflect
            | M::MatrixMultiply => 2,
            _ => 1,
        };
        if args.len() != arity {
            return Err(Error::malformed(
                span,
                format!("{fun:?} with {} operands instead of {arity}", args.len()),
            ));
        }
        let first = args
            .first()
            .copied()
            .ok_or_else(|| Error::malformed(span, "no operand"))?;
        let first_inner = self.inner_of(first)?;
        let kind = first_inner.scalar().map(|s| s.kind);
        let size = match *first_inner {
            TypeInner::Vector { size, .. } => Some(size),
            _ => None,
        };
        let glsl = |this: &mut Self, op: GLOp, ty: Word, operands: &[Word]| {
            let set = this.w.glsl();
            let id = this.w.b.id();
            this.w.b.ext_inst(ty, id, set, op as u32, operands)?;
            Ok(id)
        };
        let by_kind = |float: GLOp, sint: GLOp, uint: GLOp| match kind {
            Some(Float) => Ok(float),
            Some(Sint) => Ok(sint),
            Some(Uint) => Ok(uint),
            _ => Err(unsupported_operand(fun, span)),
        };
        let float_only = |op: GLOp| match kind {
            Some(Float) => Ok(op),
            _ => Err(unsupported_operand(fun, span)),
        };
        let [a, b, c] = [0, 1, 2].map(|i| operands.get(i).copied().unwrap_or(0));
        match fun {
            M::Abs => match kind {
                Some(Uint) => Ok(a),
                _ => glsl(
                    self,
                    by_kind(GLOp::FAbs, GLOp::SAbs, GLOp::SAbs)?,
                    result_type,
                    &[a],
                ),
            },
            M::Min => glsl(
                self,
                by_kind(GLOp::FMin, GLOp::SMin, GLOp::UMin)?,
                result_type,
                &[a, b],
            ),
            M::Max => glsl(
                self,
                by_kind(GLOp::FMax, GLOp::SMax, GLOp::UMax)?,
                result_type,
                &[a, b],
            ),
            M::Clamp => glsl(
                self,
                by_kind(GLOp::FClamp, GLOp::SClamp, GLOp::UClamp)?,
                result_type,
                &[a, b, c],
            ),
            M::Saturate => {
                let scalar = self.scalar_of(first)?;
                let zero = self.w.number_constant(scalar, 0, size)?;
                let one = self.w.number_constant(scalar, 1, size)?;
                glsl(
                    self,
                    float_only(GLOp::FClamp)?,
                    result_type,
                    &[a, zero, one],
                )
            }
            M::Floor => glsl(self, float_only(GLOp::Floor)?, result_type, &[a]),
            M::Ceil => glsl(self, float_only(GLOp::Ceil)?, result_type, &[a]),
            M::Round => glsl(self, float_only(GLOp::RoundEven)?, result_type, &[a]),
            M::Trunc => glsl(self, float_only(GLOp::Trunc)?, result_type, &[a]),
            M::Frac => glsl(self, float_only(GLOp::Fract)?, result_type, &[a]),
            M::Sqrt => glsl(self, float_only(GLOp::Sqrt)?, result_type, &[a]),
            M::Rsqrt => glsl(self, float_only(GLOp::InverseSqrt)?, result_type, &[a]),
            M::Exp => glsl(self, float_only(GLOp::Exp)?, result_type, &[a]),
            M::Exp2 => glsl(self, float_only(GLOp::Exp2)?, result_type, &[a]),
            M::Log => glsl(self, float_only(GLOp::Log)?, result_type, &[a]),
            M::Log2 => glsl(self, float_only(GLOp::Log2)?, result_type, &[a]),
            M::Pow => glsl(self, float_only(GLOp::Pow)?, result_type, &[a, b]),
            M::Sin => glsl(self, float_only(GLOp::Sin)?, result_type, &[a]),
            M::Cos => glsl(self, float_only(GLOp::Cos)?, result_type, &[a]),
            M::Tan => glsl(self, float_only(GLOp::Tan)?, result_type, &[a]),
            M::Asin => glsl(self, float_only(GLOp::Asin)?, result_type, &[a]),
            M::Acos => glsl(self, float_only(GLOp::Acos)?, result_type, &[a]),
            M::Atan => glsl(self, float_only(GLOp::Atan)?, result_type, &[a]),
            M::Atan2 => glsl(self, float_only(GLOp::Atan2)?, result_type, &[a, b]),
            M::Sinh => glsl(self, float_only(GLOp::Sinh)?, result_type, &[a]),
            M::Cosh => glsl(self, float_only(GLOp::Cosh)?, result_type, &[a]),
            M::Tanh => glsl(self, float_only(GLOp::Tanh)?, result_type, &[a]),
            M::Sign => {
                // HLSL's sign gives int; compute in the operand's type, then convert.
                let operand_type = self.value_type_of(first)?;
                let sign = match kind {
                    Some(Float) => glsl(self, GLOp::FSign, operand_type, &[a])?,
                    Some(Sint) => glsl(self, GLOp::SSign, operand_type, &[a])?,
                    Some(Uint) => {
                        let scalar = self.scalar_of(first)?;
                        let zero = self.w.number_constant(scalar, 0, size)?;
                        let one = self.w.number_constant(scalar, 1, size)?;
                        let bool_type = self.shaped_type(oneshader_ir::Scalar::BOOL, size)?;
                        let nonzero = self.emit_ids(Op::INotEqual, bool_type, &[a, zero])?;
                        self.emit_ids(Op::Select, operand_type, &[nonzero, one, zero])?
                    }
                    _ => return Err(unsupported_operand(fun, span)),
                };
                if operand_type == result_type {
                    return Ok(sign);
                }
                let to = self.inner_of(handle)?.scalar().ok_or_else(|| {
                    Error::malformed(span, "sign with a result that is not numeric")
                })?;
                self.convert(sign, first_inner, to, span)
            }
            M::Lerp => glsl(self, float_only(GLOp::FMix)?, result_type, &[a, b, c]),
            M::Mad => match kind {
                Some(Float) => glsl(self, GLOp::Fma, result_type, &[a, b, c]),
                Some(Sint | Uint) => {
                    let product = self.emit_ids(Op::IMul, result_type, &[a, b])?;
                    self.emit_ids(Op::IAdd, result_type, &[product, c])
                }
                _ => Err(unsupported_operand(fun, span)),
            },
            M::Step => glsl(self, float_only(GLOp::Step)?, result_type, &[a, b]),
            M::SmoothStep => glsl(self, float_only(GLOp::SmoothStep)?, result_type, &[a, b, c]),
            M::Dot => match kind {
                Some(Float) => self.emit_ids(Op::Dot, result_type, &[a, b]),
                Some(Sint | Uint) => {
                    // No integer OpDot without an extension: multiply, then add up.
                    let vector_type = self.value_type_of(first)?;
                    let product = self.emit_ids(Op::IMul, vector_type, &[a, b])?;
                    let count = first_inner.component_count().unwrap_or(1);
                    let mut sum = None;
                    for index in 0..count {
                        let component = self.emit(
                            Op::CompositeExtract,
                            result_type,
                            &[Operand::IdRef(product), Operand::LiteralBit32(index)],
                        )?;
                        sum = Some(match sum {
                            None => component,
                            Some(sum) => self.emit_ids(Op::IAdd, result_type, &[sum, component])?,
                        });
                    }
                    sum.ok_or_else(|| Error::malformed(span, "dot of empty vectors"))
                }
                _ => Err(unsupported_operand(fun, span)),
            },
            M::Cross => glsl(self, float_only(GLOp::Cross)?, result_type, &[a, b]),
            M::Length => glsl(self, float_only(GLOp::Length)?, result_type, &[a]),
            M::Normalize => glsl(self, float_only(GLOp::Normalize)?, result_type, &[a]),
            M::Distance => glsl(self, float_only(GLOp::Distance)?, result_type, &[a, b]),
            M::Reflect => glsl(self, float_only(GLOp::Reflect)?, result_type, &[a, b]),
            M::Refract => glsl(self, float_only(GLOp::Refract)?, result_type, &[a, b, c]),
            M::Transpose => self.emit_ids(Op::Transpose, result_type, &[a]),
            M::Determinant => glsl(self, float_only(GLOp::Determinant)?, result_type, &[a]),
            M::MatrixMultiply => {
                let right = args
                    .get(1)
                    .copied()
                    .ok_or_else(|| Error::malformed(span, "no operand"))?;
                let op = match (first_inner, self.inner_of(right)?) {
                    (TypeInner::Matrix { .. }, TypeInner::Matrix { .. }) => Op::MatrixTimesMatrix,
                    (TypeInner::Matrix { .. }, TypeInner::Vector { .. }) => Op::MatrixTimesVector,
                    (TypeInner::Vector { .. }, TypeInner::Matrix { .. }) => Op::VectorTimesMatrix,
                    (TypeInner::Matrix { .. }, TypeInner::Scalar(_)) => Op::MatrixTimesScalar,
                    (TypeInner::Vector { .. }, TypeInner::Scalar(_)) => Op::VectorTimesScalar,
                    _ => return Err(unsupported_operand(fun, span)),
                };
                self.emit_ids(op, result_type, &[a, b])
            }
            M::Any | M::All => match (kind, size) {
                (Some(Bool), None) => Ok(a),
                (Some(Bool), Some(_)) => {
                    let op = if fun == M::Any { Op::Any } else { Op::All };
                    self.emit_ids(op, result_type, &[a])
                }
                _ => Err(unsupported_operand(fun, span)),
            },
            M::IsNan => self.emit_ids(Op::IsNan, result_type, &[a]),
            M::IsInf => self.emit_ids(Op::IsInf, result_type, &[a]),
            M::CountBits => self.emit_ids(Op::BitCount, result_type, &[a]),
            M::ReverseBits => self.emit_ids(Op::BitReverse, result_type, &[a]),
            M::FirstBitHigh => match kind {
                Some(Sint) => glsl(self, GLOp::FindSMsb, result_type, &[a]),
                Some(Uint) => glsl(self, GLOp::FindUMsb, result_type, &[a]),
                _ => Err(unsupported_operand(fun, span)),
            },
            M::FirstBitLow => match kind {
                Some(Sint | Uint) => glsl(self, GLOp::FindILsb, result_type, &[a]),
                _ => Err(unsupported_operand(fun, span)),
            },
        }
    }
}

/// The error for a math function applied to operands of a type it doesn't take.
fn unsupported_operand(fun: MathFunction, span: Option<Span>) -> Error {
    Error::unsupported(span, format!("{fun:?} on operands of this type"))
}
