//! Uniform buffers, groupshared memory, barriers and atomics.

use oneshader_ir::{
    AddressSpace, ArraySize, AtomicFunction, Barrier, Binding, BuiltIn, Expression,
    FunctionArgument, GlobalVariable, Literal, RegisterClass, Resource, ResourceBinding,
    ResourceKind, Scalar, Statement, StructMember, TypeInner, VectorSize,
};
use rspirv::dr::Operand;
use rspirv::spirv::{Decoration, Op, StorageClass};

use super::builder::TestModule;
use super::*;

#[test]
fn uniform_buffer_is_a_block_struct_with_offsets() {
    let mut t = TestModule::compute();
    let uint = t.scalar(Scalar::U32);
    let float4 = t.vector(VectorSize::Quad, Scalar::F32);
    let float = t.scalar(Scalar::F32);
    let params = t.m.types.insert(oneshader_ir::Type {
        name: Some("Params".into()),
        inner: TypeInner::Struct {
            members: vec![
                StructMember {
                    name: "scale".into(),
                    ty: uint,
                    offset: 0,
                    binding: None,
                },
                StructMember {
                    name: "offset".into(),
                    ty: float4,
                    offset: 16,
                    binding: None,
                },
            ],
            size: 32,
        },
    });
    let cb = t.m.global_variables.append(
        GlobalVariable {
            name: "Params".into(),
            space: AddressSpace::Uniform,
            ty: params,
            resource: Some(Resource {
                kind: ResourceKind::ConstantBuffer,
                binding: ResourceBinding { set: 1, binding: 3 },
                register: Some((RegisterClass::B, 3, 1)),
            }),
            span: None,
        },
        None,
    );
    let cb_ptr = t.pointer(params, AddressSpace::Uniform);
    let float4_ptr = t.pointer(float4, AddressSpace::Uniform);
    let g = t.expr(Expression::GlobalVariable(cb), cb_ptr);
    let member = t.expr(Expression::AccessIndex { base: g, index: 1 }, float4_ptr);
    let offset = t.bind(Expression::Load { pointer: member }, float4);
    let y = t.bind(
        Expression::AccessIndex {
            base: offset,
            index: 1,
        },
        float,
    );
    // The whole struct too: a laid-out copy loaded, then converted.
    let g2 = t.expr(Expression::GlobalVariable(cb), cb_ptr);
    let whole = t.bind(Expression::Load { pointer: g2 }, params);
    let scale = t.bind(
        Expression::AccessIndex {
            base: whole,
            index: 0,
        },
        uint,
    );
    let scale_f = t.bind(
        Expression::Convert {
            expr: scale,
            to: Scalar::F32,
        },
        float,
    );
    let sum = t.bind(
        Expression::Binary {
            op: oneshader_ir::BinaryOperator::Add,
            left: y,
            right: scale_f,
        },
        float,
    );
    let output = t.buffer("Out", float, 4, 1, true);
    t.store_element(output, float, sum);
    let words = compile_valid(&t.finish());
    let module = load(&words);
    let variable = module
        .types_global_values
        .iter()
        .find(|i| {
            i.class.opcode == Op::Variable
                && i.operands.first() == Some(&Operand::StorageClass(StorageClass::Uniform))
        })
        .and_then(|i| i.result_id)
        .expect("a Uniform variable");
    let decorations: Vec<_> = module
        .annotations
        .iter()
        .filter(|i| i.operands.first() == Some(&Operand::IdRef(variable)))
        .map(|i| i.operands[1..].to_vec())
        .collect();
    assert!(decorations.contains(&vec![
        Operand::Decoration(Decoration::DescriptorSet),
        Operand::LiteralBit32(1)
    ]));
    assert!(decorations.contains(&vec![
        Operand::Decoration(Decoration::Binding),
        Operand::LiteralBit32(3)
    ]));
    let offsets: Vec<_> = module
        .annotations
        .iter()
        .filter(|i| i.operands.get(2) == Some(&Operand::Decoration(Decoration::Offset)))
        .filter_map(|i| i.operands.get(3).cloned())
        .collect();
    assert!(offsets.contains(&Operand::LiteralBit32(16)));
    // The block is loaded whole and rebuilt member by member as a plain struct: no
    // OpCopyLogical, which lavapipe 22.3 fails to compile on a block.
    let ops = body_ops(&words);
    assert!(ops.contains(&Op::CompositeConstruct), "{ops:?}");
    assert!(!ops.contains(&Op::CopyLogical), "{ops:?}");
}

#[test]
fn groupshared_with_barrier_and_atomics() {
    let mut t = TestModule::compute();
    let uint = t.scalar(Scalar::U32);
    t.f.arguments.push(FunctionArgument {
        name: "index".into(),
        ty: uint,
        binding: Some(Binding::BuiltIn(BuiltIn::LocalInvocationIndex)),
    });
    let tile_ty = t.ty(TypeInner::Array {
        base: uint,
        size: ArraySize::Constant(64),
        stride: 4,
    });
    let tile = t.m.global_variables.append(
        GlobalVariable {
            name: "tile".into(),
            space: AddressSpace::Workgroup,
            ty: tile_ty,
            resource: None,
            span: None,
        },
        None,
    );
    let tile_ptr = t.pointer(tile_ty, AddressSpace::Workgroup);
    let uint_ptr = t.pointer(uint, AddressSpace::Workgroup);
    let input = t.buffer("In", uint, 4, 0, false);
    let value = t.load_element(input, uint);
    let index = t.expr(Expression::FunctionArgument(1), uint);
    let g = t.expr(Expression::GlobalVariable(tile), tile_ptr);
    let slot = t.expr(Expression::Access { base: g, index }, uint_ptr);
    t.body.push(Statement::Store {
        pointer: slot,
        value,
    });
    t.body.push(Statement::Barrier(Barrier {
        device_memory: false,
        workgroup_memory: true,
        group_sync: true,
    }));
    let g = t.expr(Expression::GlobalVariable(tile), tile_ptr);
    let first = t.expr(Expression::AccessIndex { base: g, index: 0 }, uint_ptr);
    let one = t.literal(Literal::U32(1));
    let original = t.expr(Expression::AtomicResult, uint);
    t.body.push(Statement::Atomic {
        pointer: first,
        fun: AtomicFunction::Add,
        value: one,
        compare: None,
        result: Some(original),
    });
    t.body.push(Statement::Barrier(Barrier {
        device_memory: true,
        workgroup_memory: true,
        group_sync: false,
    }));
    let output = t.buffer("Out", uint, 4, 1, true);
    t.store_element(output, uint, original);
    let words = compile_valid(&t.finish());
    let module = load(&words);
    let instructions = body_instructions(&module);
    let barrier = instructions
        .iter()
        .find(|i| i.class.opcode == Op::ControlBarrier)
        .expect("GroupMemoryBarrierWithGroupSync is an OpControlBarrier");
    let constant = |operand: &Operand| {
        let id = operand.id_ref_any()?;
        module
            .types_global_values
            .iter()
            .find(|i| i.result_id == Some(id))
            .and_then(|i| i.operands.first().cloned())
    };
    // Workgroup execution and memory scope, AcquireRelease | WorkgroupMemory.
    let operands: Vec<_> = barrier.operands.iter().map(constant).collect();
    assert_eq!(
        operands,
        [2, 2, 0x108].map(|v| Some(Operand::LiteralBit32(v)))
    );
    let memory_barrier = instructions
        .iter()
        .find(|i| i.class.opcode == Op::MemoryBarrier)
        .expect("AllMemoryBarrier is an OpMemoryBarrier");
    let operands: Vec<_> = memory_barrier.operands.iter().map(constant).collect();
    assert_eq!(operands, [1, 0x948].map(|v| Some(Operand::LiteralBit32(v))));
    assert!(body_ops(&words).contains(&Op::AtomicIAdd));
}

#[test]
fn every_atomic_function_with_the_pointees_signedness() {
    for (scalar, fun, expected) in [
        (Scalar::U32, AtomicFunction::Add, Op::AtomicIAdd),
        (Scalar::I32, AtomicFunction::And, Op::AtomicAnd),
        (Scalar::U32, AtomicFunction::Or, Op::AtomicOr),
        (Scalar::U32, AtomicFunction::Xor, Op::AtomicXor),
        (Scalar::I32, AtomicFunction::Min, Op::AtomicSMin),
        (Scalar::U32, AtomicFunction::Min, Op::AtomicUMin),
        (Scalar::I32, AtomicFunction::Max, Op::AtomicSMax),
        (Scalar::U32, AtomicFunction::Max, Op::AtomicUMax),
        (Scalar::I32, AtomicFunction::Exchange, Op::AtomicExchange),
        (
            Scalar::U32,
            AtomicFunction::CompareExchange,
            Op::AtomicCompareExchange,
        ),
    ] {
        let mut t = TestModule::compute();
        let ty = t.scalar(scalar);
        let output = t.buffer("Out", ty, 4, 1, true);
        let x = t.thread_x();
        let pointer = t.element(output, ty, x);
        let value = t.literal(if scalar == Scalar::I32 {
            Literal::I32(-3)
        } else {
            Literal::U32(3)
        });
        let compare = (fun == AtomicFunction::CompareExchange).then(|| t.literal(Literal::U32(0)));
        t.body.push(Statement::Atomic {
            pointer,
            fun,
            value,
            compare,
            result: None,
        });
        let words = compile_valid(&t.finish());
        assert!(
            body_ops(&words).contains(&expected),
            "{fun:?} on {scalar:?}"
        );
    }
}

#[test]
fn read_only_buffers_are_non_writable() {
    let words = compile(&oneshader_ir::samples::compact());
    let module = load(&words);
    let non_writable = module
        .annotations
        .iter()
        .filter(|i| i.operands.get(2) == Some(&Operand::Decoration(Decoration::NonWritable)))
        .count();
    assert_eq!(non_writable, 1, "only Values is read-only");
}
