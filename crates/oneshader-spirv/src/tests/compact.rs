//! `shaders/Compact.hlsl`: the spec's reference shader.

use rspirv::dr::Operand;
use rspirv::spirv::{Capability, GroupOperation, Op};

use super::*;

#[test]
fn compact_is_valid_with_exactly_its_capabilities() {
    let words = compile_valid(&oneshader_ir::samples::compact());
    assert_eq!(
        capabilities(&words),
        [
            Capability::Shader,
            Capability::GroupNonUniform,
            Capability::GroupNonUniformBallot
        ]
    );
}

#[test]
fn compact_uses_dxcs_instructions() {
    let words = compile(&oneshader_ir::samples::compact());
    let module = load(&words);
    let instructions = body_instructions(&module);
    let bit_counts: Vec<GroupOperation> = instructions
        .iter()
        .filter(|i| i.class.opcode == Op::GroupNonUniformBallotBitCount)
        .filter_map(|i| match i.operands.get(1) {
            Some(Operand::GroupOperation(op)) => Some(*op),
            _ => None,
        })
        .collect();
    assert_eq!(
        bit_counts,
        [GroupOperation::ExclusiveScan, GroupOperation::Reduce]
    );
    let ops = body_ops(&words);
    for op in [
        Op::GroupNonUniformBallot,
        Op::AtomicIAdd,
        Op::GroupNonUniformElect,
        Op::GroupNonUniformBroadcastFirst,
    ] {
        assert!(ops.contains(&op), "no {op:?} in\n{}", disassemble(&words));
    }
}

#[test]
fn compact_is_no_larger_than_the_reference() {
    let words = compile(&oneshader_ir::samples::compact());
    let bytes = words.len() * 4;
    assert!(
        bytes <= 1576,
        "Compact is {bytes} bytes, over the 1576 of the reference:\n{}",
        disassemble(&words)
    );
}

#[test]
#[ignore = "prints Compact's SPIR-V for reading"]
fn print_compact() {
    let words = compile(&oneshader_ir::samples::compact());
    println!("{} bytes\n{}", words.len() * 4, disassemble(&words));
}
