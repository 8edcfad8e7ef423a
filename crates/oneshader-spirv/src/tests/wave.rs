//! Every wave and quad operation on `uint`, `int` and `float` scalars and vectors.

use oneshader_ir::{
    BinaryOperator, Expression, Literal, Scalar, ScalarKind, TypeInner, VectorSize, WaveOp,
};
use rspirv::dr::Operand;
use rspirv::spirv::{Capability, GroupOperation, Op};

use super::builder::TestModule;
use super::*;

/// Whether HLSL has `op` on values of `kind` (the bitwise ones only on integers).
fn applies(op: WaveOp, kind: ScalarKind) -> bool {
    !matches!(
        (op, kind),
        (
            WaveOp::ActiveBitAnd | WaveOp::ActiveBitOr | WaveOp::ActiveBitXor,
            ScalarKind::Float
        )
    )
}

/// A compute shader storing `op` of its input element of `scalar` (or a vector of
/// `size` of them) into its output, bools stored as `uint`s.
fn wave_module(op: WaveOp, scalar: Scalar, size: Option<VectorSize>) -> oneshader_ir::Module {
    let mut t = TestModule::compute();
    let input_ty = match size {
        Some(size) => t.vector(size, scalar),
        None => t.scalar(scalar),
    };
    let uint = t.scalar(Scalar::U32);
    let boolean = t.scalar(Scalar::BOOL);
    let input = t.buffer("In", input_ty, 16, 0, false);
    let value = t.load_element(input, input_ty);
    let mut args = Vec::new();
    match op {
        WaveOp::GetLaneCount | WaveOp::GetLaneIndex | WaveOp::IsFirstLane => {}
        WaveOp::ActiveAnyTrue
        | WaveOp::ActiveAllTrue
        | WaveOp::ActiveBallot
        | WaveOp::ActiveCountBits
        | WaveOp::PrefixCountBits => {
            // A condition on the first component.
            let first = match size {
                Some(_) => {
                    let scalar_ty = t.scalar(scalar);
                    t.expr(
                        Expression::AccessIndex {
                            base: value,
                            index: 0,
                        },
                        scalar_ty,
                    )
                }
                None => value,
            };
            let zero = match scalar.kind {
                ScalarKind::Float => t.literal(Literal::F32(0.0)),
                ScalarKind::Sint => t.literal(Literal::I32(0)),
                _ => t.literal(Literal::U32(0)),
            };
            let condition = t.bind(
                Expression::Binary {
                    op: BinaryOperator::Greater,
                    left: first,
                    right: zero,
                },
                boolean,
            );
            args.push(condition);
        }
        WaveOp::ReadLaneAt | WaveOp::QuadReadLaneAt => {
            args.push(value);
            args.push(t.literal(Literal::U32(1)));
        }
        _ => args.push(value),
    }
    let result_inner = match op {
        WaveOp::GetLaneCount
        | WaveOp::GetLaneIndex
        | WaveOp::ActiveCountBits
        | WaveOp::PrefixCountBits => TypeInner::Scalar(Scalar::U32),
        WaveOp::IsFirstLane | WaveOp::ActiveAnyTrue | WaveOp::ActiveAllTrue => {
            TypeInner::Scalar(Scalar::BOOL)
        }
        WaveOp::ActiveBallot => TypeInner::Vector {
            size: VectorSize::Quad,
            scalar: Scalar::U32,
        },
        WaveOp::ActiveAllEqual => match size {
            Some(size) => TypeInner::Vector {
                size,
                scalar: Scalar::BOOL,
            },
            None => TypeInner::Scalar(Scalar::BOOL),
        },
        _ => t.m.inner(input_ty).clone(),
    };
    let result_ty = t.ty(result_inner.clone());
    let result = t.bind(
        Expression::Wave {
            op,
            args: args.into(),
        },
        result_ty,
    );
    // Store as uints (bools converted), in a buffer of the result's shape.
    let (stored, stored_ty) = match result_inner {
        TypeInner::Scalar(Scalar {
            kind: ScalarKind::Bool,
            ..
        }) => (
            t.bind(
                Expression::Convert {
                    expr: result,
                    to: Scalar::U32,
                },
                uint,
            ),
            uint,
        ),
        TypeInner::Vector { size, scalar } if scalar.kind == ScalarKind::Bool => {
            let ty = t.vector(size, Scalar::U32);
            (
                t.bind(
                    Expression::Convert {
                        expr: result,
                        to: Scalar::U32,
                    },
                    ty,
                ),
                ty,
            )
        }
        _ => (result, result_ty),
    };
    let output = t.buffer("Out", stored_ty, 16, 1, true);
    t.store_element(output, stored_ty, stored);
    t.finish()
}

/// The instruction DXC uses for `op` on `kind` values.
fn expected_op(op: WaveOp, kind: ScalarKind) -> Op {
    use ScalarKind::*;
    use WaveOp as W;
    match (op, kind) {
        (W::GetLaneCount | W::GetLaneIndex, _) => Op::Load,
        (W::IsFirstLane, _) => Op::GroupNonUniformElect,
        (W::ActiveAnyTrue, _) => Op::GroupNonUniformAny,
        (W::ActiveAllTrue, _) => Op::GroupNonUniformAll,
        (W::ActiveAllEqual, _) => Op::GroupNonUniformAllEqual,
        (W::ActiveBallot, _) => Op::GroupNonUniformBallot,
        (W::ActiveCountBits | W::PrefixCountBits, _) => Op::GroupNonUniformBallotBitCount,
        (W::ActiveSum | W::PrefixSum, Float) => Op::GroupNonUniformFAdd,
        (W::ActiveSum | W::PrefixSum, _) => Op::GroupNonUniformIAdd,
        (W::ActiveProduct | W::PrefixProduct, Float) => Op::GroupNonUniformFMul,
        (W::ActiveProduct | W::PrefixProduct, _) => Op::GroupNonUniformIMul,
        (W::ActiveMin, Float) => Op::GroupNonUniformFMin,
        (W::ActiveMin, Sint) => Op::GroupNonUniformSMin,
        (W::ActiveMin, _) => Op::GroupNonUniformUMin,
        (W::ActiveMax, Float) => Op::GroupNonUniformFMax,
        (W::ActiveMax, Sint) => Op::GroupNonUniformSMax,
        (W::ActiveMax, _) => Op::GroupNonUniformUMax,
        (W::ActiveBitAnd, _) => Op::GroupNonUniformBitwiseAnd,
        (W::ActiveBitOr, _) => Op::GroupNonUniformBitwiseOr,
        (W::ActiveBitXor, _) => Op::GroupNonUniformBitwiseXor,
        (W::ReadLaneAt, _) => Op::GroupNonUniformShuffle,
        (W::ReadLaneFirst, _) => Op::GroupNonUniformBroadcastFirst,
        (W::QuadReadAcrossX | W::QuadReadAcrossY | W::QuadReadAcrossDiagonal, _) => {
            Op::GroupNonUniformQuadSwap
        }
        (W::QuadReadLaneAt, _) => Op::GroupNonUniformQuadBroadcast,
    }
}

/// The capabilities DXC declares for `op`.
fn expected_capabilities(op: WaveOp) -> Vec<Capability> {
    use WaveOp as W;
    let specific = match op {
        W::GetLaneCount | W::GetLaneIndex | W::IsFirstLane => None,
        W::ActiveAnyTrue | W::ActiveAllTrue | W::ActiveAllEqual => {
            Some(Capability::GroupNonUniformVote)
        }
        W::ActiveBallot | W::ActiveCountBits | W::PrefixCountBits | W::ReadLaneFirst => {
            Some(Capability::GroupNonUniformBallot)
        }
        W::ReadLaneAt => Some(Capability::GroupNonUniformShuffle),
        W::QuadReadAcrossX | W::QuadReadAcrossY | W::QuadReadAcrossDiagonal | W::QuadReadLaneAt => {
            Some(Capability::GroupNonUniformQuad)
        }
        _ => Some(Capability::GroupNonUniformArithmetic),
    };
    [Capability::Shader, Capability::GroupNonUniform]
        .into_iter()
        .chain(specific)
        .collect()
}

/// The group operation (`Reduce`, `ExclusiveScan`) of the wave instructions.
fn group_operations(words: &[u32], op: Op) -> Vec<GroupOperation> {
    body_instructions(&load(words))
        .iter()
        .filter(|i| i.class.opcode == op)
        .filter_map(|i| match i.operands.get(1) {
            Some(Operand::GroupOperation(g)) => Some(*g),
            _ => None,
        })
        .collect()
}

#[test]
fn every_wave_op_on_every_type_validates_and_uses_dxcs_instruction() {
    let shapes = [None, Some(VectorSize::Tri), Some(VectorSize::Quad)];
    for op in WaveOp::ALL {
        for scalar in [Scalar::U32, Scalar::I32, Scalar::F32] {
            if !applies(op, scalar.kind) {
                continue;
            }
            for size in shapes {
                let words = compile_valid(&wave_module(op, scalar, size));
                let expected = expected_op(op, scalar.kind);
                let ops = body_ops(&words);
                let count = ops.iter().filter(|&&o| o == expected).count();
                let want = match (op, size) {
                    (WaveOp::ActiveAllEqual, Some(size)) => size.count() as usize,
                    // The thread id, the input element, and the built-in.
                    (WaveOp::GetLaneCount | WaveOp::GetLaneIndex, _) => 3,
                    _ => 1,
                };
                assert_eq!(
                    count,
                    want,
                    "{} on {scalar:?} {size:?}: {expected:?}\n{}",
                    op.hlsl_name(),
                    disassemble(&words)
                );
                assert_eq!(
                    capabilities(&words),
                    expected_capabilities(op),
                    "{} on {scalar:?} {size:?}",
                    op.hlsl_name()
                );
            }
        }
    }
}

#[test]
fn prefix_ops_scan_exclusively_and_active_ops_reduce() {
    for (op, spirv_op, operation) in [
        (
            WaveOp::PrefixSum,
            Op::GroupNonUniformIAdd,
            GroupOperation::ExclusiveScan,
        ),
        (
            WaveOp::ActiveSum,
            Op::GroupNonUniformIAdd,
            GroupOperation::Reduce,
        ),
        (
            WaveOp::PrefixProduct,
            Op::GroupNonUniformIMul,
            GroupOperation::ExclusiveScan,
        ),
        (
            WaveOp::ActiveProduct,
            Op::GroupNonUniformIMul,
            GroupOperation::Reduce,
        ),
        (
            WaveOp::PrefixCountBits,
            Op::GroupNonUniformBallotBitCount,
            GroupOperation::ExclusiveScan,
        ),
        (
            WaveOp::ActiveCountBits,
            Op::GroupNonUniformBallotBitCount,
            GroupOperation::Reduce,
        ),
    ] {
        let words = compile(&wave_module(op, Scalar::U32, None));
        assert_eq!(
            group_operations(&words, spirv_op),
            [operation],
            "{}",
            op.hlsl_name()
        );
    }
}

#[test]
fn quad_swaps_use_directions_0_1_2() {
    for (op, direction) in [
        (WaveOp::QuadReadAcrossX, 0),
        (WaveOp::QuadReadAcrossY, 1),
        (WaveOp::QuadReadAcrossDiagonal, 2),
    ] {
        let words = compile(&wave_module(op, Scalar::F32, None));
        let module = load(&words);
        let swap = body_instructions(&module)
            .into_iter()
            .find(|i| i.class.opcode == Op::GroupNonUniformQuadSwap)
            .expect("a quad swap");
        let Some(Operand::IdRef(constant)) = swap.operands.get(2) else {
            panic!("no direction operand");
        };
        let value = module
            .types_global_values
            .iter()
            .find(|i| i.result_id == Some(*constant))
            .and_then(|i| i.operands.first().cloned());
        assert_eq!(
            value,
            Some(Operand::LiteralBit32(direction)),
            "{}",
            op.hlsl_name()
        );
    }
}

#[test]
fn lane_built_ins_are_subgroup_variables() {
    for (op, built_in) in [
        (WaveOp::GetLaneCount, rspirv::spirv::BuiltIn::SubgroupSize),
        (
            WaveOp::GetLaneIndex,
            rspirv::spirv::BuiltIn::SubgroupLocalInvocationId,
        ),
    ] {
        let words = compile(&wave_module(op, Scalar::U32, None));
        let module = load(&words);
        assert!(
            module
                .annotations
                .iter()
                .any(|i| i.operands.get(2) == Some(&Operand::BuiltIn(built_in))),
            "{}",
            disassemble(&words)
        );
    }
}

/// Wave ops on bool operands where SPIR-V wants numbers: sums go through uint,
/// bitwise ones become the logical group operations.
#[test]
fn bool_operands_of_arithmetic_ops() {
    for (op, expected) in [
        (WaveOp::ActiveBitAnd, Op::GroupNonUniformLogicalAnd),
        (WaveOp::ActiveBitOr, Op::GroupNonUniformLogicalOr),
        (WaveOp::ActiveBitXor, Op::GroupNonUniformLogicalXor),
        (WaveOp::ActiveSum, Op::GroupNonUniformIAdd),
        (WaveOp::ActiveMax, Op::GroupNonUniformUMax),
        (WaveOp::ReadLaneFirst, Op::GroupNonUniformBroadcastFirst),
        (WaveOp::ActiveAllEqual, Op::GroupNonUniformAllEqual),
    ] {
        let mut t = TestModule::compute();
        let uint = t.scalar(Scalar::U32);
        let boolean = t.scalar(Scalar::BOOL);
        let input = t.buffer("In", uint, 4, 0, false);
        let value = t.load_element(input, uint);
        let condition = t.bind(
            Expression::Convert {
                expr: value,
                to: Scalar::BOOL,
            },
            boolean,
        );
        let result = t.bind(
            Expression::Wave {
                op,
                args: Box::new([condition]),
            },
            boolean,
        );
        let stored = t.bind(
            Expression::Convert {
                expr: result,
                to: Scalar::U32,
            },
            uint,
        );
        let output = t.buffer("Out", uint, 4, 1, true);
        t.store_element(output, uint, stored);
        let words = compile_valid(&t.finish());
        assert!(body_ops(&words).contains(&expected), "{}", op.hlsl_name());
    }
}

/// A ballot of a uint operand tests it against zero first.
#[test]
fn ballot_of_a_number_compares_with_zero() {
    let mut t = TestModule::compute();
    let uint = t.scalar(Scalar::U32);
    let uint4 = t.vector(VectorSize::Quad, Scalar::U32);
    let input = t.buffer("In", uint, 4, 0, false);
    let value = t.load_element(input, uint);
    let ballot = t.bind(
        Expression::Wave {
            op: WaveOp::ActiveBallot,
            args: Box::new([value]),
        },
        uint4,
    );
    let output = t.buffer("Out", uint4, 16, 1, true);
    t.store_element(output, uint4, ballot);
    let words = compile_valid(&t.finish());
    let ops = body_ops(&words);
    assert!(ops.contains(&Op::INotEqual) && ops.contains(&Op::GroupNonUniformBallot));
}
