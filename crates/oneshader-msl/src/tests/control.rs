//! Control flow, helper functions, groupshared data, barriers and atomics.

use oneshader_ir::{
    AddressSpace, ArraySize, AtomicFunction, Barrier, BinaryOperator, Binding, BuiltIn, EntryPoint,
    Expression, FunctionArgument, FunctionResult, GlobalVariable, Module, ResourceKind, Scalar,
    ShaderStage, Statement, SwitchCase, SwitchValue, TypeInner,
};

use super::build::{buffer, Builder};
use super::checked;
use crate::Options;

fn loops_module() -> Module {
    let mut module = Module::default();
    let uint = module.type_handle(TypeInner::Scalar(Scalar::U32));
    let uint_ptr = module.type_handle(TypeInner::Pointer {
        base: uint,
        space: AddressSpace::Function,
    });
    let out = buffer(
        &mut module,
        "Out",
        uint,
        ResourceKind::RWStructuredBuffer,
        0,
    );

    // uint bump(inout uint x, uint by) { x = x + by; return x * 2; }
    let mut h = Builder::new(&mut module, "bump");
    h.f.arguments = vec![
        FunctionArgument {
            name: "x".into(),
            ty: uint_ptr,
            binding: None,
        },
        FunctionArgument {
            name: "by".into(),
            ty: uint,
            binding: None,
        },
    ];
    h.f.result = Some(FunctionResult {
        ty: uint,
        binding: None,
    });
    let x = h.arg(0, uint_ptr);
    let x_val = h.load(x);
    let by = h.arg(1, uint);
    let sum = h.binary(BinaryOperator::Add, x_val, by);
    let store = h.store(x, sum);
    h.push(store);
    let x_val = h.load(x);
    let two = h.u(2);
    let double = h.binary(BinaryOperator::Multiply, x_val, two);
    h.push(Statement::Return {
        value: Some(double),
    });
    let helper = h.f;
    let helper = module.functions.append(helper, None);

    let mut b = Builder::new(&mut module, "Loops");
    let i = b.local("i", uint);
    let acc = b.local("acc", uint);
    let load = |b: &mut Builder, l| {
        let p = b.local_ptr(l);
        b.load(p)
    };
    // body: if (i % 2 == 0) continue; acc = acc + i; switch (i) { case 1: case 2: acc += 10; break; default: acc ^= 1; }
    let iv = load(&mut b, i);
    let two = b.u(2);
    let rem = b.binary(BinaryOperator::Modulo, iv, two);
    let zero = b.u(0);
    let even = b.binary(BinaryOperator::Equal, rem, zero);
    let av = load(&mut b, acc);
    let iv2 = load(&mut b, i);
    let added = b.binary(BinaryOperator::Add, av, iv2);
    let acc_ptr = b.local_ptr(acc);
    let selector = load(&mut b, i);
    let av2 = load(&mut b, acc);
    let ten = b.u(10);
    let plus_ten = b.binary(BinaryOperator::Add, av2, ten);
    let acc_ptr2 = b.local_ptr(acc);
    let av3 = load(&mut b, acc);
    let one = b.u(1);
    let flipped = b.binary(BinaryOperator::BitwiseXor, av3, one);
    let acc_ptr3 = b.local_ptr(acc);
    let body = vec![
        Statement::If {
            condition: even,
            accept: vec![Statement::Continue],
            reject: vec![],
        },
        Statement::Store {
            pointer: acc_ptr,
            value: added,
        },
        Statement::Switch {
            selector,
            cases: vec![
                SwitchCase {
                    value: SwitchValue::U32(1),
                    body: vec![],
                    fall_through: true,
                },
                SwitchCase {
                    value: SwitchValue::U32(2),
                    body: vec![
                        Statement::Store {
                            pointer: acc_ptr2,
                            value: plus_ten,
                        },
                        Statement::Break,
                    ],
                    fall_through: false,
                },
                SwitchCase {
                    value: SwitchValue::Default,
                    body: vec![Statement::Store {
                        pointer: acc_ptr3,
                        value: flipped,
                    }],
                    fall_through: false,
                },
            ],
        },
    ];
    // continuing: i = i + 1; break_if: i >= 8
    let iv3 = load(&mut b, i);
    let one = b.u(1);
    let next = b.binary(BinaryOperator::Add, iv3, one);
    let i_ptr = b.local_ptr(i);
    let iv4 = load(&mut b, i);
    let eight = b.u(8);
    let done = b.binary(BinaryOperator::GreaterEqual, iv4, eight);
    b.push(Statement::Loop {
        body,
        continuing: vec![Statement::Store {
            pointer: i_ptr,
            value: next,
        }],
        break_if: Some(done),
    });
    // Out[0] = bump(acc, 3);
    let acc_ptr4 = b.local_ptr(acc);
    let three = b.u(3);
    let result = b.e(Expression::CallResult(helper), uint);
    b.push(Statement::Call {
        function: helper,
        arguments: vec![acc_ptr4, three],
        result: Some(result),
    });
    let zero = b.u(0);
    let slot = b.element(out, zero);
    let store = b.store(slot, result);
    b.push(store);
    // A plain loop: while (true) { break; }
    b.push(Statement::Loop {
        body: vec![Statement::Break],
        continuing: vec![],
        break_if: None,
    });
    let f = b.f;
    module.entry_points.push(EntryPoint {
        name: "Loops".into(),
        stage: ShaderStage::Compute,
        workgroup_size: [1, 1, 1],
        function: f,
        span: None,
    });
    module
}

#[test]
fn loops_run_continuing_on_continue_and_switches_fall_through() {
    let text = checked(&loops_module(), 0, &Options::default());
    let expect = |needle: &str| assert!(text.contains(needle), "missing `{needle}` in:\n{text}");
    expect("bool _loop_init1 = true;\n    while (true) {\n        if (!_loop_init1) {\n            i = i + 1u;\n            if (i >= 8u) {\n                break;\n            }\n        }\n        _loop_init1 = false;");
    expect("if ((i % 2u) == 0u) {\n            continue;\n        }");
    expect("case 1u:\n            case 2u: {\n                acc = acc + 10u;\n                break;\n            }");
    expect("default: {\n                acc = acc ^ 1u;\n                break;\n            }");
    expect("uint bump(thread uint& x, uint by) {");
    expect("uint _e");
    expect(" = bump(acc, 3u);");
    expect("while (true) {\n        break;\n    }");
}

fn groupshared_module() -> Module {
    let mut module = Module::default();
    let uint = module.type_handle(TypeInner::Scalar(Scalar::U32));
    let int = module.type_handle(TypeInner::Scalar(Scalar::I32));
    let tile_ty = module.type_handle(TypeInner::Array {
        base: uint,
        size: ArraySize::Constant(64),
        stride: 4,
    });
    let global = |m: &mut Module, name: &str, space, ty| {
        m.global_variables.append(
            GlobalVariable {
                name: name.into(),
                space,
                ty,
                resource: None,
                span: None,
            },
            None,
        )
    };
    let tile = global(&mut module, "tile", AddressSpace::Workgroup, tile_ty);
    let counter = global(&mut module, "counter", AddressSpace::Workgroup, uint);
    let seed = global(&mut module, "seed", AddressSpace::Private, uint);
    let out = buffer(
        &mut module,
        "Out",
        uint,
        ResourceKind::RWStructuredBuffer,
        0,
    );
    let minimum = buffer(
        &mut module,
        "minimum",
        int,
        ResourceKind::RWStructuredBuffer,
        1,
    );

    // uint neighbour(uint gi) { seed = seed + 1; counter += 1; return tile[(gi + 1) % 64] + seed; }
    let mut h = Builder::new(&mut module, "neighbour");
    h.f.arguments = vec![FunctionArgument {
        name: "gi".into(),
        ty: uint,
        binding: None,
    }];
    h.f.result = Some(FunctionResult {
        ty: uint,
        binding: None,
    });
    let seed_ptr = h.global_ptr(seed);
    let seed_val = h.load(seed_ptr);
    let one = h.u(1);
    let seed_next = h.binary(BinaryOperator::Add, seed_val, one);
    let store = h.store(seed_ptr, seed_next);
    h.push(store);
    let counter_ptr = h.global_ptr(counter);
    let one = h.u(1);
    h.push(Statement::Atomic {
        pointer: counter_ptr,
        fun: AtomicFunction::Add,
        value: one,
        compare: None,
        result: None,
    });
    let gi = h.arg(0, uint);
    let one = h.u(1);
    let gi1 = h.binary(BinaryOperator::Add, gi, one);
    let size = h.u(64);
    let wrapped = h.binary(BinaryOperator::Modulo, gi1, size);
    let cell = h.element(tile, wrapped);
    let cell_val = h.load(cell);
    let seed_ptr = h.global_ptr(seed);
    let seed_val = h.load(seed_ptr);
    let total = h.binary(BinaryOperator::Add, cell_val, seed_val);
    h.push(Statement::Return { value: Some(total) });
    let helper = h.f;
    let helper = module.functions.append(helper, None);

    let mut b = Builder::new(&mut module, "Shared");
    b.f.arguments = vec![FunctionArgument {
        name: "gi".into(),
        ty: uint,
        binding: Some(Binding::BuiltIn(BuiltIn::LocalInvocationIndex)),
    }];
    let gi = b.arg(0, uint);
    let cell = b.element(tile, gi);
    let store = b.store(cell, gi);
    b.push(store);
    b.push(Statement::Barrier(Barrier {
        device_memory: false,
        workgroup_memory: true,
        group_sync: true,
    }));
    let value = b.e(Expression::CallResult(helper), uint);
    b.push(Statement::Call {
        function: helper,
        arguments: vec![gi],
        result: Some(value),
    });
    b.push(Statement::Barrier(Barrier {
        device_memory: true,
        workgroup_memory: true,
        group_sync: true,
    }));
    let zero = b.u(0);
    let low = b.element(minimum, zero);
    let as_int = b.convert(value, Scalar::I32);
    b.push(Statement::Atomic {
        pointer: low,
        fun: AtomicFunction::Min,
        value: as_int,
        compare: None,
        result: None,
    });
    let zero = b.u(0);
    let first = b.element(out, zero);
    let expected = b.u(0);
    let original = b.e(Expression::AtomicResult, uint);
    b.push(Statement::Atomic {
        pointer: first,
        fun: AtomicFunction::CompareExchange,
        value,
        compare: Some(expected),
        result: Some(original),
    });
    let one = b.u(1);
    let second = b.element(out, one);
    let store = b.store(second, original);
    b.push(store);
    let f = b.f;
    module.entry_points.push(EntryPoint {
        name: "Shared".into(),
        stage: ShaderStage::Compute,
        workgroup_size: [64, 1, 1],
        function: f,
        span: None,
    });
    module
}

#[test]
fn groupshared_and_static_data_are_passed_by_reference() {
    let text = checked(&groupshared_module(), 0, &Options::default());
    let expect = |needle: &str| assert!(text.contains(needle), "missing `{needle}` in:\n{text}");
    expect("uint neighbour(uint gi, threadgroup array<uint, 64>& tile, threadgroup atomic_uint& counter, thread uint& seed)");
    expect("kernel void Shared(uint gi [[thread_index_in_threadgroup]], device atomic_uint* Out [[buffer(0)]], device atomic_int* minimum [[buffer(1)]]) {");
    expect("    threadgroup array<uint, 64> tile;\n");
    expect("    threadgroup atomic_uint counter;\n");
    expect("    uint seed = {};\n");
    expect("neighbour(gi, tile, counter, seed)");
    expect("atomic_fetch_add_explicit(&counter, 1u, memory_order_relaxed);");
    expect("tile[(gi + 1u) % 64u]");
    expect("threadgroup_barrier(mem_flags::mem_threadgroup);");
    expect("threadgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup);");
    expect("atomic_fetch_min_explicit(&minimum[0u], int(");
    expect("while (!atomic_compare_exchange_weak_explicit(&");
    expect("atomic_store_explicit(&Out[1u], _e");
}

#[test]
fn barriers_outside_compute_are_errors() {
    let mut module = Module::default();
    let mut b = Builder::new(&mut module, "PS");
    b.push(Statement::Barrier(Barrier {
        device_memory: true,
        workgroup_memory: false,
        group_sync: true,
    }));
    let f = b.f;
    module.entry_points.push(EntryPoint {
        name: "PS".into(),
        stage: ShaderStage::Fragment,
        workgroup_size: [1, 1, 1],
        function: f,
        span: None,
    });
    let diagnostics = super::failing(&module, 0, &Options::default());
    assert_eq!(diagnostics[0].code, oneshader_ir::codes::MSL_UNSUPPORTED);
    assert!(
        diagnostics[0].message.contains("barrier"),
        "{}",
        diagnostics[0].message
    );
}
