//! Wave and quad operations as `OpGroupNonUniform*` instructions, as DXC chooses
//! them, with the capability each needs.

use oneshader_ir::{Expression, Handle, Scalar, ScalarKind, Span, TypeInner, WaveOp};
use rspirv::spirv::{self, Capability, GroupOperation, Op, Scope, Word};

use crate::error::{Error, Result};
use crate::function::FunctionWriter;
use crate::module::Operand;

impl FunctionWriter<'_, '_> {
    /// Writes wave operation `op` on `args`, the value of expression `handle`.
    pub fn wave(
        &mut self,
        handle: Handle<Expression>,
        op: WaveOp,
        args: &[Handle<Expression>],
    ) -> Result<Word> {
        use WaveOp as W;
        let span = self.span(handle);
        if args.len() != op.arity() {
            return Err(Error::malformed(
                span,
                format!("{} with {} operands", op.hlsl_name(), args.len()),
            ));
        }
        self.w.capability(Capability::GroupNonUniform);
        // The capability the mapping table gives the operation (docs/intrinsics.md).
        let capability = op.info().capability;
        let capability = capability.parse::<Capability>().map_err(|()| {
            Error::malformed(span, format!("unknown SPIR-V capability '{capability}'"))
        })?;
        self.w.capability(capability);
        let result_type = self.value_type_of(handle)?;
        let mut values = Vec::with_capacity(args.len());
        for &arg in args {
            values.push(self.value(arg)?);
        }
        let value = values.first().copied().unwrap_or(0);
        let scope = self.scope(Scope::Subgroup)?;
        match op {
            W::GetLaneCount => self.load_wave_input(spirv::BuiltIn::SubgroupSize, result_type),
            W::GetLaneIndex => {
                self.load_wave_input(spirv::BuiltIn::SubgroupLocalInvocationId, result_type)
            }
            W::IsFirstLane => self.emit_ids(Op::GroupNonUniformElect, result_type, &[scope]),
            W::ActiveAnyTrue | W::ActiveAllTrue => {
                let condition = self.bool_operand(args, value, op, span)?;
                let spirv_op = if op == W::ActiveAnyTrue {
                    Op::GroupNonUniformAny
                } else {
                    Op::GroupNonUniformAll
                };
                self.emit_ids(spirv_op, result_type, &[scope, condition])
            }
            W::ActiveAllEqual => self.all_equal(args, value, result_type, scope, span),
            W::ActiveBallot => {
                let condition = self.bool_operand(args, value, op, span)?;
                self.emit_ids(Op::GroupNonUniformBallot, result_type, &[scope, condition])
            }
            W::ActiveCountBits | W::PrefixCountBits => {
                let condition = self.bool_operand(args, value, op, span)?;
                let uint4 = self
                    .w
                    .vector_type(Scalar::U32, oneshader_ir::VectorSize::Quad)?;
                let ballot =
                    self.emit_ids(Op::GroupNonUniformBallot, uint4, &[scope, condition])?;
                let operation = if op == W::ActiveCountBits {
                    GroupOperation::Reduce
                } else {
                    GroupOperation::ExclusiveScan
                };
                self.group_operation(
                    Op::GroupNonUniformBallotBitCount,
                    result_type,
                    scope,
                    operation,
                    ballot,
                )
            }
            W::ActiveSum
            | W::ActiveProduct
            | W::ActiveMin
            | W::ActiveMax
            | W::ActiveBitAnd
            | W::ActiveBitOr
            | W::ActiveBitXor
            | W::PrefixSum
            | W::PrefixProduct => self.arithmetic(args, op, value, result_type, scope, span),
            W::ReadLaneAt => {
                let lane = self.unsigned_index(args, &values, span)?;
                self.emit_ids(
                    Op::GroupNonUniformShuffle,
                    result_type,
                    &[scope, value, lane],
                )
            }
            W::ReadLaneFirst => self.emit_ids(
                Op::GroupNonUniformBroadcastFirst,
                result_type,
                &[scope, value],
            ),
            W::QuadReadAcrossX | W::QuadReadAcrossY | W::QuadReadAcrossDiagonal => {
                let direction = match op {
                    W::QuadReadAcrossX => 0,
                    W::QuadReadAcrossY => 1,
                    _ => 2,
                };
                let direction = self.w.u32_constant(direction)?;
                self.emit_ids(
                    Op::GroupNonUniformQuadSwap,
                    result_type,
                    &[scope, value, direction],
                )
            }
            W::QuadReadLaneAt => {
                let lane = self.unsigned_index(args, &values, span)?;
                self.emit_ids(
                    Op::GroupNonUniformQuadBroadcast,
                    result_type,
                    &[scope, value, lane],
                )
            }
        }
    }

    /// Loads a wave built-in input variable.
    fn load_wave_input(&mut self, built_in: spirv::BuiltIn, result_type: Word) -> Result<Word> {
        let variable = self.w.wave_input(built_in)?;
        self.emit_ids(Op::Load, result_type, &[variable])
    }

    /// An instruction with operands (scope, group operation, value).
    fn group_operation(
        &mut self,
        op: Op,
        result_type: Word,
        scope: Word,
        operation: GroupOperation,
        value: Word,
    ) -> Result<Word> {
        self.emit(
            op,
            result_type,
            &[
                Operand::IdScope(scope),
                Operand::GroupOperation(operation),
                Operand::IdRef(value),
            ],
        )
    }

    /// The first operand as a bool scalar (`!= 0` for numbers).
    fn bool_operand(
        &mut self,
        args: &[Handle<Expression>],
        value: Word,
        op: WaveOp,
        span: Option<Span>,
    ) -> Result<Word> {
        let arg = args
            .first()
            .copied()
            .ok_or_else(|| Error::malformed(span, "no operand"))?;
        match *self.inner_of(arg)? {
            TypeInner::Scalar(Scalar {
                kind: ScalarKind::Bool,
                ..
            }) => Ok(value),
            ref inner @ TypeInner::Scalar(_) => self.convert(value, inner, Scalar::BOOL, span),
            _ => Err(Error::unsupported(
                span,
                format!("{} of a value that is not a scalar", op.hlsl_name()),
            )),
        }
    }

    /// The lane operand (second) as an unsigned integer, as SPIR-V requires.
    fn unsigned_index(
        &mut self,
        args: &[Handle<Expression>],
        values: &[Word],
        span: Option<Span>,
    ) -> Result<Word> {
        let (Some(&arg), Some(&value)) = (args.get(1), values.get(1)) else {
            return Err(Error::malformed(span, "no lane operand"));
        };
        let inner = self.inner_of(arg)?;
        match inner {
            TypeInner::Scalar(scalar) if scalar.kind == ScalarKind::Uint => Ok(value),
            TypeInner::Scalar(_) => self.convert(value, inner, Scalar::U32, span),
            _ => Err(Error::unsupported(
                span,
                "a lane index that is not a scalar",
            )),
        }
    }

    /// `WaveActiveAllEqual`: `OpGroupNonUniformAllEqual` per component, as DXC does.
    fn all_equal(
        &mut self,
        args: &[Handle<Expression>],
        value: Word,
        result_type: Word,
        scope: Word,
        span: Option<Span>,
    ) -> Result<Word> {
        let arg = args
            .first()
            .copied()
            .ok_or_else(|| Error::malformed(span, "no operand"))?;
        match *self.inner_of(arg)? {
            TypeInner::Scalar(_) => {
                self.emit_ids(Op::GroupNonUniformAllEqual, result_type, &[scope, value])
            }
            TypeInner::Vector { size, scalar } => {
                let component_type = self.w.scalar_type(scalar)?;
                let bool_type = self.w.scalar_type(Scalar::BOOL)?;
                let mut equal = Vec::with_capacity(size.count() as usize);
                for index in 0..size.count() {
                    let component = self.emit(
                        Op::CompositeExtract,
                        component_type,
                        &[Operand::IdRef(value), Operand::LiteralBit32(index)],
                    )?;
                    equal.push(self.emit_ids(
                        Op::GroupNonUniformAllEqual,
                        bool_type,
                        &[scope, component],
                    )?);
                }
                self.emit_ids(Op::CompositeConstruct, result_type, &equal)
            }
            _ => Err(Error::unsupported(
                span,
                "WaveActiveAllEqual of a value that is not a scalar or vector",
            )),
        }
    }

    /// The reductions and scans: integer, float or bitwise by the operand's type;
    /// bools go through `uint` (or use the logical operations for bitwise ones).
    fn arithmetic(
        &mut self,
        args: &[Handle<Expression>],
        op: WaveOp,
        value: Word,
        result_type: Word,
        scope: Word,
        span: Option<Span>,
    ) -> Result<Word> {
        use ScalarKind::{Bool, Float, Sint, Uint};
        use WaveOp as W;
        let arg = args
            .first()
            .copied()
            .ok_or_else(|| Error::malformed(span, "no operand"))?;
        let inner = self.inner_of(arg)?;
        let Some(scalar) = inner.scalar().filter(|_| inner.component_count().is_some()) else {
            return Err(Error::unsupported(
                span,
                format!(
                    "{} of a value that is not a scalar or vector",
                    op.hlsl_name()
                ),
            ));
        };
        let operation = match op {
            W::PrefixSum | W::PrefixProduct => GroupOperation::ExclusiveScan,
            _ => GroupOperation::Reduce,
        };
        let spirv_op = match (op, scalar.kind) {
            (W::ActiveBitAnd, Bool) => Op::GroupNonUniformLogicalAnd,
            (W::ActiveBitOr, Bool) => Op::GroupNonUniformLogicalOr,
            (W::ActiveBitXor, Bool) => Op::GroupNonUniformLogicalXor,
            (_, Bool) => {
                // Sum, product, min and max of bools: as 0/1 uints, then back to bool.
                let uint = Scalar::U32;
                let as_uint = self.convert(value, inner, uint, span)?;
                let uint_type = self.shaped_type(uint, vector_size(inner))?;
                let uint_op = integer_op(op, Uint);
                let combined =
                    self.group_operation(uint_op, uint_type, scope, operation, as_uint)?;
                let uint_inner = match *inner {
                    TypeInner::Vector { size, .. } => TypeInner::Vector { size, scalar: uint },
                    _ => TypeInner::Scalar(uint),
                };
                return self.convert(combined, &uint_inner, Scalar::BOOL, span);
            }
            (_, Float) => match op {
                W::ActiveSum | W::PrefixSum => Op::GroupNonUniformFAdd,
                W::ActiveProduct | W::PrefixProduct => Op::GroupNonUniformFMul,
                W::ActiveMin => Op::GroupNonUniformFMin,
                W::ActiveMax => Op::GroupNonUniformFMax,
                _ => {
                    return Err(Error::unsupported(
                        span,
                        format!("{} of float values", op.hlsl_name()),
                    ))
                }
            },
            (_, kind @ (Sint | Uint)) => integer_op(op, kind),
        };
        self.group_operation(spirv_op, result_type, scope, operation, value)
    }
}

/// The integer group operation of reduction `op` on `kind` integers.
fn integer_op(op: WaveOp, kind: ScalarKind) -> Op {
    use WaveOp as W;
    let signed = kind == ScalarKind::Sint;
    match op {
        W::ActiveProduct | W::PrefixProduct => Op::GroupNonUniformIMul,
        W::ActiveMin if signed => Op::GroupNonUniformSMin,
        W::ActiveMin => Op::GroupNonUniformUMin,
        W::ActiveMax if signed => Op::GroupNonUniformSMax,
        W::ActiveMax => Op::GroupNonUniformUMax,
        W::ActiveBitAnd => Op::GroupNonUniformBitwiseAnd,
        W::ActiveBitOr => Op::GroupNonUniformBitwiseOr,
        W::ActiveBitXor => Op::GroupNonUniformBitwiseXor,
        _ => Op::GroupNonUniformIAdd,
    }
}

/// The number of components of a vector type.
fn vector_size(inner: &TypeInner) -> Option<oneshader_ir::VectorSize> {
    match *inner {
        TypeInner::Vector { size, .. } => Some(size),
        _ => None,
    }
}
