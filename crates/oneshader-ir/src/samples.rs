//! Hand-built modules for testing backends without the front end.
//!
//! Each equals what the front end makes of the named shader in `shaders/`, so backend
//! tests can run before, and independently of, the HLSL front end.

use crate::expression::{AtomicFunction, BinaryOperator, Expression, Literal};
use crate::module::{
    Binding, BuiltIn, EntryPoint, Function, FunctionArgument, GlobalVariable, LocalVariable,
    Module, RegisterClass, Resource, ResourceBinding, ResourceKind, ShaderStage,
};
use crate::statement::Statement;
use crate::types::{AddressSpace, ArraySize, Scalar, TypeInner, VectorSize};
use crate::wave::WaveOp;
use crate::{Handle, Type};

fn buffer(
    module: &mut Module,
    name: &str,
    element: Scalar,
    kind: ResourceKind,
    register: (RegisterClass, u32),
) -> Handle<GlobalVariable> {
    let base = module.type_handle(TypeInner::Scalar(element));
    let ty = module.type_handle(TypeInner::Array {
        base,
        size: ArraySize::Runtime,
        stride: 4,
    });
    module.global_variables.append(
        GlobalVariable {
            name: name.into(),
            space: AddressSpace::Storage {
                writable: kind.is_writable(),
            },
            ty,
            resource: Some(Resource {
                kind,
                binding: ResourceBinding {
                    set: 0,
                    binding: register.1,
                },
                register: Some((register.0, register.1, 0)),
            }),
            span: None,
        },
        None,
    )
}

/// `shaders/Compact.hlsl`: keeps the values above 0.5 with one atomic per wave.
pub fn compact() -> Module {
    let mut m = Module::default();
    let float = m.type_handle(TypeInner::Scalar(Scalar::F32));
    let uint = m.type_handle(TypeInner::Scalar(Scalar::U32));
    let boolean = m.type_handle(TypeInner::Scalar(Scalar::BOOL));
    let uint3 = m.type_handle(TypeInner::Vector {
        size: VectorSize::Tri,
        scalar: Scalar::U32,
    });
    let values = buffer(
        &mut m,
        "Values",
        Scalar::F32,
        ResourceKind::StructuredBuffer,
        (RegisterClass::T, 0),
    );
    let kept = buffer(
        &mut m,
        "Kept",
        Scalar::F32,
        ResourceKind::RWStructuredBuffer,
        (RegisterClass::U, 1),
    );
    let count = buffer(
        &mut m,
        "Count",
        Scalar::U32,
        ResourceKind::RWByteAddressBuffer,
        (RegisterClass::U, 2),
    );
    let ptr = |m: &mut Module, base: Handle<Type>, space| {
        m.type_handle(TypeInner::Pointer { base, space })
    };
    let global_ptr = |m: &mut Module, g: Handle<GlobalVariable>| {
        let gv = &m.global_variables[g];
        let (base, space) = (gv.ty, gv.space);
        m.type_handle(TypeInner::Pointer { base, space })
    };
    let values_ptr = global_ptr(&mut m, values);
    let kept_ptr = global_ptr(&mut m, kept);
    let count_ptr = global_ptr(&mut m, count);
    let read_only = AddressSpace::Storage { writable: false };
    let writable = AddressSpace::Storage { writable: true };
    let float_ro_ptr = ptr(&mut m, float, read_only);
    let float_rw_ptr = ptr(&mut m, float, writable);
    let uint_rw_ptr = ptr(&mut m, uint, writable);
    let float_local = ptr(&mut m, float, AddressSpace::Function);
    let bool_local = ptr(&mut m, boolean, AddressSpace::Function);
    let uint_local = ptr(&mut m, uint, AddressSpace::Function);

    let mut f = Function {
        name: "CSMain".into(),
        arguments: vec![FunctionArgument {
            name: "id".into(),
            ty: uint3,
            binding: Some(Binding::BuiltIn(BuiltIn::GlobalInvocationId)),
        }],
        ..Function::default()
    };
    let local = |f: &mut Function, name: &str, ty| {
        f.local_variables.append(
            LocalVariable {
                name: name.into(),
                ty,
                init: None,
            },
            None,
        )
    };
    let v = local(&mut f, "v", float);
    let keep = local(&mut f, "keep", boolean);
    let lane_offset = local(&mut f, "laneOffset", uint);
    let wave_count = local(&mut f, "waveCount", uint);
    let wave_base = local(&mut f, "waveBase", uint);
    let mut body = Vec::new();

    // float v = Values[id.x];
    let id = f.add_expression(Expression::FunctionArgument(0), uint3, None);
    let id_x = f.add_expression(Expression::AccessIndex { base: id, index: 0 }, uint, None);
    let values_g = f.add_expression(Expression::GlobalVariable(values), values_ptr, None);
    let element = f.add_expression(
        Expression::Access {
            base: values_g,
            index: id_x,
        },
        float_ro_ptr,
        None,
    );
    let loaded = f.add_expression(Expression::Load { pointer: element }, float, None);
    let v_ptr = f.add_expression(Expression::LocalVariable(v), float_local, None);
    body.push(Statement::Store {
        pointer: v_ptr,
        value: loaded,
    });

    // bool keep = v > 0.5;
    let v_ptr2 = f.add_expression(Expression::LocalVariable(v), float_local, None);
    let v_val = f.add_expression(Expression::Load { pointer: v_ptr2 }, float, None);
    let half = f.add_expression(Expression::Literal(Literal::F32(0.5)), float, None);
    let greater = f.add_expression(
        Expression::Binary {
            op: BinaryOperator::Greater,
            left: v_val,
            right: half,
        },
        boolean,
        None,
    );
    let keep_ptr = f.add_expression(Expression::LocalVariable(keep), bool_local, None);
    body.push(Statement::Store {
        pointer: keep_ptr,
        value: greater,
    });

    // uint laneOffset = WavePrefixCountBits(keep); uint waveCount = WaveActiveCountBits(keep);
    for (op, target) in [
        (WaveOp::PrefixCountBits, lane_offset),
        (WaveOp::ActiveCountBits, wave_count),
    ] {
        let keep_ptr = f.add_expression(Expression::LocalVariable(keep), bool_local, None);
        let keep_val = f.add_expression(Expression::Load { pointer: keep_ptr }, boolean, None);
        let wave = f.add_expression(
            Expression::Wave {
                op,
                args: Box::new([keep_val]),
            },
            uint,
            None,
        );
        let target_ptr = f.add_expression(Expression::LocalVariable(target), uint_local, None);
        body.push(Statement::Store {
            pointer: target_ptr,
            value: wave,
        });
    }

    // uint waveBase = 0;
    let zero = f.add_expression(Expression::Literal(Literal::U32(0)), uint, None);
    let base_ptr = f.add_expression(Expression::LocalVariable(wave_base), uint_local, None);
    body.push(Statement::Store {
        pointer: base_ptr,
        value: zero,
    });

    // if (WaveIsFirstLane()) Count.InterlockedAdd(0, waveCount, waveBase);
    let first = f.add_expression(
        Expression::Wave {
            op: WaveOp::IsFirstLane,
            args: Box::new([]),
        },
        boolean,
        None,
    );
    let count_g = f.add_expression(Expression::GlobalVariable(count), count_ptr, None);
    let word = f.add_expression(Expression::Literal(Literal::U32(0)), uint, None);
    let word_ptr = f.add_expression(
        Expression::Access {
            base: count_g,
            index: word,
        },
        uint_rw_ptr,
        None,
    );
    let count_ptr_local = f.add_expression(Expression::LocalVariable(wave_count), uint_local, None);
    let count_val = f.add_expression(
        Expression::Load {
            pointer: count_ptr_local,
        },
        uint,
        None,
    );
    let original = f.add_expression(Expression::AtomicResult, uint, None);
    let base_ptr2 = f.add_expression(Expression::LocalVariable(wave_base), uint_local, None);
    body.push(Statement::If {
        condition: first,
        accept: vec![
            Statement::Atomic {
                pointer: word_ptr,
                fun: AtomicFunction::Add,
                value: count_val,
                compare: None,
                result: Some(original),
            },
            Statement::Store {
                pointer: base_ptr2,
                value: original,
            },
        ],
        reject: vec![],
    });

    // waveBase = WaveReadLaneFirst(waveBase);
    let base_ptr3 = f.add_expression(Expression::LocalVariable(wave_base), uint_local, None);
    let base_val = f.add_expression(Expression::Load { pointer: base_ptr3 }, uint, None);
    let first_base = f.add_expression(
        Expression::Wave {
            op: WaveOp::ReadLaneFirst,
            args: Box::new([base_val]),
        },
        uint,
        None,
    );
    let base_ptr4 = f.add_expression(Expression::LocalVariable(wave_base), uint_local, None);
    body.push(Statement::Store {
        pointer: base_ptr4,
        value: first_base,
    });

    // if (keep) Kept[waveBase + laneOffset] = v;
    let keep_ptr = f.add_expression(Expression::LocalVariable(keep), bool_local, None);
    let keep_val = f.add_expression(Expression::Load { pointer: keep_ptr }, boolean, None);
    let base_ptr5 = f.add_expression(Expression::LocalVariable(wave_base), uint_local, None);
    let base_val = f.add_expression(Expression::Load { pointer: base_ptr5 }, uint, None);
    let offset_ptr = f.add_expression(Expression::LocalVariable(lane_offset), uint_local, None);
    let offset_val = f.add_expression(
        Expression::Load {
            pointer: offset_ptr,
        },
        uint,
        None,
    );
    let index = f.add_expression(
        Expression::Binary {
            op: BinaryOperator::Add,
            left: base_val,
            right: offset_val,
        },
        uint,
        None,
    );
    let kept_g = f.add_expression(Expression::GlobalVariable(kept), kept_ptr, None);
    let slot = f.add_expression(
        Expression::Access {
            base: kept_g,
            index,
        },
        float_rw_ptr,
        None,
    );
    let v_ptr3 = f.add_expression(Expression::LocalVariable(v), float_local, None);
    let v_val = f.add_expression(Expression::Load { pointer: v_ptr3 }, float, None);
    body.push(Statement::If {
        condition: keep_val,
        accept: vec![Statement::Store {
            pointer: slot,
            value: v_val,
        }],
        reject: vec![],
    });

    f.body = body;
    m.entry_points.push(EntryPoint {
        name: "CSMain".into(),
        stage: ShaderStage::Compute,
        workgroup_size: [64, 1, 1],
        function: f,
        span: None,
    });
    m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis;

    #[test]
    fn compact_reflects_as_the_spec_says() {
        let module = compact();
        let entry = &module.entry_points[0];
        assert_eq!(analysis::subgroup_operations(&module, entry).bits(), 0x9);
        let uses = analysis::global_uses(&module, entry);
        assert!(uses[0].read && !uses[0].write);
        assert!(uses[1].write && !uses[1].read);
        assert!(uses[2].atomic);
    }
}
