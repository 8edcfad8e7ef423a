//! Loops, switches with fallthrough, helper calls, groupshared memory, barriers, atomics
//! and bit functions.

use oneshader_harness::{run_wgsl_compute, BufferBinding, DawnDriver, WgslJob};
use oneshader_ir::{
    AddressSpace, ArraySize, AtomicFunction, Barrier, BinaryOperator as B, Binding, BuiltIn,
    Expression, FunctionResult, GlobalVariable, Handle, MathFunction, Module, Scalar, ShaderStage,
    Statement, SwitchCase, SwitchValue,
};

use super::builder::*;
use super::*;

fn binary(
    fb: &mut Fb,
    m: &mut Module,
    op: B,
    left: Handle<Expression>,
    right: Handle<Expression>,
) -> Handle<Expression> {
    let ty = if op.is_comparison() {
        scalar(Scalar::BOOL)
    } else {
        fb.ty(m, left)
    };
    fb.e(m, Expression::Binary { op, left, right }, ty)
}

fn run(
    text: &str,
    buffers: Vec<BufferBinding>,
    features: Vec<String>,
) -> oneshader_harness::ComputeOutput {
    let job = WgslJob {
        wgsl: text.to_owned(),
        entry_point: "main".into(),
        workgroups: [1, 1, 1],
        driver: DawnDriver::SwiftShader,
        features,
        buffers,
    };
    run_wgsl_compute(&job).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

/// `uint twice(uint v) { return v + v; }` and a main with a loop (continue, break if) and
/// a switch where case 0 falls through into case 1.
fn control_flow_module() -> Module {
    let mut m = Module::default();
    let out = buffer(&mut m, "Out", scalar(Scalar::U32), 4, 0, true);

    let mut helper = Fb::new("twice");
    let v = helper.arg(&mut m, "v", scalar(Scalar::U32), None);
    let sum = binary(&mut helper, &mut m, B::Add, v, v);
    helper.body.push(Statement::Return { value: Some(sum) });
    let mut helper = helper.finish();
    helper.result = Some(FunctionResult {
        ty: handle(&mut m, scalar(Scalar::U32)),
        binding: None,
    });
    let twice = m.functions.append(helper, None);

    let mut fb = Fb::new("main");
    let x = fb.thread_x(&mut m);
    let i = fb.local(&mut m, "i", scalar(Scalar::U32));
    let acc = fb.local(&mut m, "acc", scalar(Scalar::U32));
    // loop { if (i & 1) != 0 { continue; } acc += i; } continuing { i += 1; } break if i >= x % 9
    let i_value = fb.load(&mut m, i);
    let one = fb.u32(&mut m, 1);
    let zero = fb.u32(&mut m, 0);
    let low = binary(&mut fb, &mut m, B::BitwiseAnd, i_value, one);
    let is_odd = binary(&mut fb, &mut m, B::NotEqual, low, zero);
    let acc_value = fb.load(&mut m, acc);
    let i_again = fb.load(&mut m, i);
    let added = binary(&mut fb, &mut m, B::Add, acc_value, i_again);
    let i_now = fb.load(&mut m, i);
    let next = binary(&mut fb, &mut m, B::Add, i_now, one);
    let i_after = fb.load(&mut m, i);
    let nine = fb.u32(&mut m, 9);
    let limit = binary(&mut fb, &mut m, B::Modulo, x, nine);
    let done = binary(&mut fb, &mut m, B::GreaterEqual, i_after, limit);
    fb.body.push(Statement::Loop {
        body: vec![
            Statement::If {
                condition: is_odd,
                accept: vec![Statement::Continue],
                reject: vec![],
            },
            Statement::Store {
                pointer: acc,
                value: added,
            },
        ],
        continuing: vec![Statement::Store {
            pointer: i,
            value: next,
        }],
        break_if: Some(done),
    });
    // switch (int(x % 4)) { case 0: case 1: acc += 100; break; case 2: acc += 200; break; default: acc += 300; }
    let four = fb.u32(&mut m, 4);
    let quarter = binary(&mut fb, &mut m, B::Modulo, x, four);
    let selector = fb.e(
        &mut m,
        Expression::Convert {
            expr: quarter,
            to: Scalar::I32,
        },
        scalar(Scalar::I32),
    );
    let add = |fb: &mut Fb, m: &mut Module, amount: u32| {
        let value = fb.load(m, acc);
        let amount = fb.u32(m, amount);
        let sum = binary(fb, m, B::Add, value, amount);
        vec![
            Statement::Store {
                pointer: acc,
                value: sum,
            },
            Statement::Break,
        ]
    };
    let case1 = add(&mut fb, &mut m, 100);
    let case2 = add(&mut fb, &mut m, 200);
    let default = add(&mut fb, &mut m, 300);
    fb.body.push(Statement::Switch {
        selector,
        cases: vec![
            SwitchCase {
                value: SwitchValue::I32(0),
                body: vec![],
                fall_through: true,
            },
            SwitchCase {
                value: SwitchValue::I32(1),
                body: case1,
                fall_through: false,
            },
            SwitchCase {
                value: SwitchValue::I32(2),
                body: case2,
                fall_through: false,
            },
            SwitchCase {
                value: SwitchValue::Default,
                body: default,
                fall_through: false,
            },
        ],
    });
    // Out[x] = twice(acc);
    let acc_final = fb.load(&mut m, acc);
    let result = fb.e(&mut m, Expression::CallResult(twice), scalar(Scalar::U32));
    fb.body.push(Statement::Call {
        function: twice,
        arguments: vec![acc_final],
        result: Some(result),
    });
    let pointer = fb.element(&mut m, out, x);
    fb.store(pointer, result);
    let f = fb.finish();
    entry(&mut m, f, ShaderStage::Compute, [64, 1, 1]);
    m
}

#[test]
fn loops_switches_and_calls_run_as_hlsl_does() {
    let module = control_flow_module();
    let text = wgsl(&module);
    assert!(!text.contains("enable subgroups"), "{text}");
    assert!(text.contains("case 0i, 1i: {"), "{text}");
    assert!(
        text.contains("continuing {") && text.contains("break if "),
        "{text}"
    );
    assert!(text.contains("continue;"), "{text}");
    assert!(text.contains("fn twice(v: u32) -> u32"), "{text}");
    assert_naga_accepts(&text);
    let output = run(
        &text,
        vec![BufferBinding::storage_u32(0, 0, &[0; 64])],
        vec![],
    );
    let results = output.u32s(0).expect("Out");
    for x in 0..64u32 {
        // The loop body runs for i = 0, 1, ... until i >= x % 9 after the increment.
        let limit = x % 9;
        let mut i = 0;
        let mut acc = 0;
        loop {
            if i & 1 == 0 {
                acc += i;
            }
            i += 1;
            if i >= limit {
                break;
            }
        }
        acc += match x % 4 {
            0 | 1 => 100,
            2 => 200,
            _ => 300,
        };
        assert_eq!(results[x as usize], acc * 2, "x = {x}\n{text}");
    }
}

fn workgroup_global(
    m: &mut Module,
    name: &str,
    ty: oneshader_ir::TypeInner,
) -> Handle<GlobalVariable> {
    let ty = handle(m, ty);
    m.global_variables.append(
        GlobalVariable {
            name: name.into(),
            space: AddressSpace::Workgroup,
            ty,
            resource: None,
            span: None,
        },
        None,
    )
}

#[test]
fn groupshared_memory_barriers_and_atomics_run_on_dawn() {
    let mut m = Module::default();
    let out = buffer(&mut m, "Out", scalar(Scalar::U32), 4, 0, true);
    let element = handle(&mut m, scalar(Scalar::U32));
    let tile = workgroup_global(
        &mut m,
        "Tile",
        oneshader_ir::TypeInner::Array {
            base: element,
            size: ArraySize::Constant(64),
            stride: 4,
        },
    );
    let total = workgroup_global(&mut m, "total", scalar(Scalar::U32));
    let mut fb = Fb::new("main");
    let lid = fb.arg(
        &mut m,
        "lid",
        scalar(Scalar::U32),
        Some(Binding::BuiltIn(BuiltIn::LocalInvocationIndex)),
    );
    // Tile[lid] = lid * 3; InterlockedAdd(total, lid); barrier; Out[lid] = Tile[63 - lid] + total;
    let three = fb.u32(&mut m, 3);
    let value = binary(&mut fb, &mut m, B::Multiply, lid, three);
    let slot = fb.element(&mut m, tile, lid);
    fb.store(slot, value);
    let total_ptr = fb.global(&mut m, total);
    fb.body.push(Statement::Atomic {
        pointer: total_ptr,
        fun: AtomicFunction::Add,
        value: lid,
        compare: None,
        result: None,
    });
    fb.body.push(Statement::Barrier(Barrier {
        device_memory: false,
        workgroup_memory: true,
        group_sync: true,
    }));
    let last = fb.u32(&mut m, 63);
    let mirrored = binary(&mut fb, &mut m, B::Subtract, last, lid);
    let other = fb.element(&mut m, tile, mirrored);
    let other_value = fb.load(&mut m, other);
    let total_ptr = fb.global(&mut m, total);
    let total_value = fb.load(&mut m, total_ptr);
    let sum = binary(&mut fb, &mut m, B::Add, other_value, total_value);
    let pointer = fb.element(&mut m, out, lid);
    fb.store(pointer, sum);
    let f = fb.finish();
    entry(&mut m, f, ShaderStage::Compute, [64, 1, 1]);
    let text = wgsl(&m);
    assert!(
        text.contains("var<workgroup> Tile: array<u32, 64>;"),
        "{text}"
    );
    assert!(
        text.contains("var<workgroup> total: atomic<u32>;"),
        "{text}"
    );
    assert!(text.contains("workgroupBarrier();"), "{text}");
    assert!(text.contains("atomicLoad(&total)"), "{text}");
    assert_naga_accepts(&text);
    let output = run(
        &text,
        vec![BufferBinding::storage_u32(0, 0, &[0; 64])],
        vec![],
    );
    let results = output.u32s(0).expect("Out");
    for lid in 0..64u32 {
        assert_eq!(results[lid as usize], (63 - lid) * 3 + (0..64).sum::<u32>());
    }
}

#[test]
fn compare_exchange_is_strong() {
    let mut m = Module::default();
    let counter = buffer(&mut m, "Counter", scalar(Scalar::U32), 4, 0, true);
    let out = buffer(&mut m, "Out", scalar(Scalar::U32), 4, 1, true);
    let mut fb = Fb::new("main");
    let x = fb.thread_x(&mut m);
    let zero = fb.u32(&mut m, 0);
    let one = fb.u32(&mut m, 1);
    let word = fb.element(&mut m, counter, zero);
    let plus = binary(&mut fb, &mut m, B::Add, x, one);
    let original = fb.e(&mut m, Expression::AtomicResult, scalar(Scalar::U32));
    fb.body.push(Statement::Atomic {
        pointer: word,
        fun: AtomicFunction::CompareExchange,
        value: plus,
        compare: Some(zero),
        result: Some(original),
    });
    let pointer = fb.element(&mut m, out, x);
    fb.store(pointer, original);
    let f = fb.finish();
    entry(&mut m, f, ShaderStage::Compute, [64, 1, 1]);
    let text = wgsl(&m);
    assert!(
        text.contains("atomicCompareExchangeWeak(&Counter[0u]"),
        "{text}"
    );
    assert_naga_accepts(&text);
    let output = run(
        &text,
        vec![
            BufferBinding::storage_u32(0, 0, &[0]),
            BufferBinding::storage_u32(0, 1, &[0; 64]),
        ],
        vec![],
    );
    let winner = output.u32s(0).expect("Counter")[0];
    let originals = output.u32s(1).expect("Out");
    // Exactly one thread saw 0 and stored its x + 1; every other saw the winner's value.
    assert_eq!(originals.iter().filter(|&&v| v == 0).count(), 1);
    assert!(originals.iter().all(|&v| v == 0 || v == winner));
    assert_eq!(originals[winner as usize - 1], 0);
}

/// firstbithigh, firstbitlow, countbits and reversebits on int, each result typed `uint`
/// as DXC types them, over the spec's table -31..31.
#[test]
fn bit_functions_match_the_spec_table_on_dawn() {
    let mut m = Module::default();
    let input = buffer(&mut m, "In", scalar(Scalar::I32), 4, 0, false);
    let out = buffer(&mut m, "Out", scalar(Scalar::U32), 4, 1, true);
    let mut fb = Fb::new("main");
    let x = fb.thread_x(&mut m);
    let pointer = fb.element(&mut m, input, x);
    let value = fb.load(&mut m, pointer);
    let value = fb.bind(value);
    let unsigned = fb.e(
        &mut m,
        Expression::Bitcast {
            expr: value,
            to: Scalar::U32,
        },
        scalar(Scalar::U32),
    );
    let functions = [
        (MathFunction::FirstBitHigh, value),
        (MathFunction::FirstBitLow, value),
        (MathFunction::CountBits, value),
        (MathFunction::FirstBitHigh, unsigned),
        (MathFunction::ReverseBits, unsigned),
    ];
    let four = fb.u32(&mut m, functions.len() as u32);
    let base = binary(&mut fb, &mut m, B::Multiply, x, four);
    for (slot, (fun, arg)) in functions.into_iter().enumerate() {
        let result = fb.e(
            &mut m,
            Expression::Math {
                fun,
                args: Box::new([arg]),
            },
            scalar(Scalar::U32),
        );
        let offset = fb.u32(&mut m, slot as u32);
        let index = binary(&mut fb, &mut m, B::Add, base, offset);
        let pointer = fb.element(&mut m, out, index);
        fb.store(pointer, result);
    }
    let f = fb.finish();
    entry(&mut m, f, ShaderStage::Compute, [63, 1, 1]);
    let text = wgsl(&m);
    assert!(text.contains("u32(firstLeadingBit("), "{text}");
    assert!(
        text.contains("u32(firstTrailingBit(") && text.contains("u32(countOneBits("),
        "{text}"
    );
    assert!(text.contains("reverseBits("), "{text}");
    assert_naga_accepts(&text);
    let values: Vec<i32> = (-31..=31).collect();
    let output = run(
        &text,
        vec![
            BufferBinding::new(
                0,
                0,
                oneshader_harness::BufferKind::ReadOnlyStorage,
                oneshader_harness::i32_bytes(&values),
            ),
            BufferBinding::storage_u32(0, 1, &[0; 63 * 5]),
        ],
        vec![],
    );
    let results = output.u32s(1).expect("Out");
    // The spec's table (004): firstbithigh of a negative number is its highest 0 bit.
    let table_high = |v: i32| -> i32 {
        match v {
            -31..=-17 | 16..=31 => 4,
            -16..=-9 | 8..=15 => 3,
            -8..=-5 | 4..=7 => 2,
            -4..=-3 | 2..=3 => 1,
            -2 | 1 => 0,
            _ => -1,
        }
    };
    let table_low = |v: i32| -> i32 {
        if v == 0 {
            -1
        } else {
            v.trailing_zeros() as i32
        }
    };
    for (i, &v) in values.iter().enumerate() {
        let r = &results[i * 5..i * 5 + 5];
        assert_eq!(r[0], table_high(v) as u32, "firstbithigh({v})");
        assert_eq!(r[1], table_low(v) as u32, "firstbitlow({v})");
        assert_eq!(r[2], v.count_ones(), "countbits({v})");
        let u = v as u32;
        let high_unsigned = if u == 0 {
            u32::MAX
        } else {
            31 - u.leading_zeros()
        };
        assert_eq!(r[3], high_unsigned, "firstbithigh(uint {u:#x})");
        assert_eq!(r[4], u.reverse_bits(), "reversebits({u:#x})");
    }
}
