//! Loops, switches, calls, and HLSL's arithmetic semantics.

use oneshader_ir::{
    AddressSpace, BinaryOperator, Expression, Function, FunctionArgument, FunctionResult, Literal,
    LocalVariable, Scalar, Statement, SwitchCase, SwitchValue,
};
use rspirv::spirv::Op;

use super::builder::TestModule;
use super::*;

fn local(
    t: &mut TestModule,
    name: &str,
    ty: oneshader_ir::Handle<oneshader_ir::Type>,
) -> oneshader_ir::Handle<oneshader_ir::LocalVariable> {
    t.f.local_variables.append(
        LocalVariable {
            name: name.into(),
            ty,
            init: None,
        },
        None,
    )
}

/// The ops of the entry function of a loop that breaks at `i >= 10`, skips `i == 3` with
/// `continue`, and adds `i` to a sum; the break's `if` comes first in the body when
/// `test_first`, after the `continue`'s otherwise. The module passes spirv-val.
fn loop_with_continue_and_break_ops(test_first: bool) -> Vec<Op> {
    let mut t = TestModule::compute();
    let uint = t.scalar(Scalar::U32);
    let boolean = t.scalar(Scalar::BOOL);
    let uint_ptr = t.pointer(uint, AddressSpace::Function);
    let i = local(&mut t, "i", uint);
    let sum = local(&mut t, "sum", uint);
    let load = |t: &mut TestModule, l| {
        let p = t.expr(Expression::LocalVariable(l), uint_ptr);
        t.expr(Expression::Load { pointer: p }, uint)
    };
    // body: if (i >= 10) break; if (i == 3) continue; sum += i;
    let i1 = load(&mut t, i);
    let ten = t.literal(Literal::U32(10));
    let done = t.expr(
        Expression::Binary {
            op: BinaryOperator::GreaterEqual,
            left: i1,
            right: ten,
        },
        boolean,
    );
    let i2 = load(&mut t, i);
    let three = t.literal(Literal::U32(3));
    let skip = t.expr(
        Expression::Binary {
            op: BinaryOperator::Equal,
            left: i2,
            right: three,
        },
        boolean,
    );
    let s = load(&mut t, sum);
    let i3 = load(&mut t, i);
    let added = t.expr(
        Expression::Binary {
            op: BinaryOperator::Add,
            left: s,
            right: i3,
        },
        uint,
    );
    let sum_ptr = t.expr(Expression::LocalVariable(sum), uint_ptr);
    // continuing: i += 1; break_if (i > 100)
    let i4 = load(&mut t, i);
    let one = t.literal(Literal::U32(1));
    let next = t.expr(
        Expression::Binary {
            op: BinaryOperator::Add,
            left: i4,
            right: one,
        },
        uint,
    );
    let i_ptr = t.expr(Expression::LocalVariable(i), uint_ptr);
    let i5 = load(&mut t, i);
    let hundred = t.literal(Literal::U32(100));
    let stop = t.expr(
        Expression::Binary {
            op: BinaryOperator::Greater,
            left: i5,
            right: hundred,
        },
        boolean,
    );
    let test = Statement::If {
        condition: done,
        accept: vec![Statement::Break],
        reject: vec![],
    };
    let skip = Statement::If {
        condition: skip,
        accept: vec![Statement::Continue],
        reject: vec![],
    };
    let add = Statement::Store {
        pointer: sum_ptr,
        value: added,
    };
    t.body.push(Statement::Loop {
        body: if test_first {
            vec![test, skip, add]
        } else {
            vec![skip, test, add]
        },
        continuing: vec![Statement::Store {
            pointer: i_ptr,
            value: next,
        }],
        break_if: Some(stop),
    });
    let total = load(&mut t, sum);
    let output = t.buffer("Out", uint, 4, 1, true);
    t.store_element(output, uint, total);
    let words = compile_valid(&t.finish());
    body_ops(&words)
}

/// The op after the (single) `OpLoopMerge`: the header's terminator.
fn header_terminator(ops: &[Op]) -> Option<Op> {
    assert_eq!(ops.iter().filter(|&&o| o == Op::LoopMerge).count(), 1);
    let merge = ops.iter().position(|&o| o == Op::LoopMerge)?;
    ops.get(merge + 1).copied()
}

#[test]
fn loop_test_is_written_in_the_header() {
    let ops = loop_with_continue_and_break_ops(true);
    // `if (done) break;` is the header's conditional branch; only `continue` is a selection.
    assert_eq!(header_terminator(&ops), Some(Op::BranchConditional));
    assert_eq!(ops.iter().filter(|&&o| o == Op::SelectionMerge).count(), 1);
}

#[test]
fn conditional_break_in_the_body_needs_no_selection() {
    let ops = loop_with_continue_and_break_ops(false);
    assert_eq!(header_terminator(&ops), Some(Op::Branch));
    // The break is one OpBranchConditional to the loop's merge; `continue` keeps its
    // selection construct; the loop's own break_if is the third conditional branch.
    assert_eq!(ops.iter().filter(|&&o| o == Op::SelectionMerge).count(), 1);
    assert_eq!(
        ops.iter().filter(|&&o| o == Op::BranchConditional).count(),
        3
    );
}

#[test]
fn switch_with_fallthrough() {
    let mut t = TestModule::compute();
    let int = t.scalar(Scalar::I32);
    let int_ptr = t.pointer(int, AddressSpace::Function);
    let input = t.buffer("In", int, 4, 0, false);
    let selector = t.load_element(input, int);
    let r = local(&mut t, "r", int);
    let assign = |t: &mut TestModule, value: i32, add: bool| {
        let p = t.expr(Expression::LocalVariable(r), int_ptr);
        let v = t.literal(Literal::I32(value));
        let v = if add {
            let p2 = t.expr(Expression::LocalVariable(r), int_ptr);
            let old = t.expr(Expression::Load { pointer: p2 }, int);
            t.expr(
                Expression::Binary {
                    op: BinaryOperator::Add,
                    left: old,
                    right: v,
                },
                int,
            )
        } else {
            v
        };
        Statement::Store {
            pointer: p,
            value: v,
        }
    };
    let case = |value, body, fall_through| SwitchCase {
        value,
        body,
        fall_through,
    };
    let cases = vec![
        // case 1: case 2: r = 10; break;
        case(SwitchValue::I32(1), vec![], true),
        case(
            SwitchValue::I32(2),
            vec![assign(&mut t, 10, false), Statement::Break],
            false,
        ),
        // case 3: r += 1; (falls into) case 4: r += 2;
        case(SwitchValue::I32(3), vec![assign(&mut t, 1, true)], true),
        case(SwitchValue::I32(4), vec![assign(&mut t, 2, true)], false),
        case(SwitchValue::Default, vec![assign(&mut t, 7, false)], false),
    ];
    t.body.push(Statement::Switch { selector, cases });
    let p = t.expr(Expression::LocalVariable(r), int_ptr);
    let result = t.expr(Expression::Load { pointer: p }, int);
    let output = t.buffer("Out", int, 4, 1, true);
    t.store_element(output, int, result);
    let words = compile_valid(&t.finish());
    let module = load(&words);
    let switch = body_instructions(&module)
        .into_iter()
        .find(|i| i.class.opcode == Op::Switch)
        .expect("an OpSwitch")
        .clone();
    // Selector, default, then four (literal, label) pairs; cases 1 and 2 share a label.
    assert_eq!(switch.operands.len(), 10);
    assert_eq!(switch.operands[3], switch.operands[5]);
}

#[test]
fn helper_functions_with_inout_parameters() {
    let mut t = TestModule::compute();
    let uint = t.scalar(Scalar::U32);
    let uint_ptr = t.pointer(uint, AddressSpace::Function);

    // void addTo(inout uint acc, uint v) { acc = acc + v; }
    let mut add_to = Function {
        name: "addTo".into(),
        arguments: vec![
            FunctionArgument {
                name: "acc".into(),
                ty: uint_ptr,
                binding: None,
            },
            FunctionArgument {
                name: "v".into(),
                ty: uint,
                binding: None,
            },
        ],
        ..Function::default()
    };
    let acc = add_to.add_expression(Expression::FunctionArgument(0), uint_ptr, None);
    let v = add_to.add_expression(Expression::FunctionArgument(1), uint, None);
    let old = add_to.add_expression(Expression::Load { pointer: acc }, uint, None);
    let sum = add_to.add_expression(
        Expression::Binary {
            op: BinaryOperator::Add,
            left: old,
            right: v,
        },
        uint,
        None,
    );
    add_to.body = vec![Statement::Store {
        pointer: acc,
        value: sum,
    }];
    let add_to = t.m.functions.append(add_to, None);

    // uint twice(uint x) { return x * 2; }
    let mut twice = Function {
        name: "twice".into(),
        arguments: vec![FunctionArgument {
            name: "x".into(),
            ty: uint,
            binding: None,
        }],
        result: Some(FunctionResult {
            ty: uint,
            binding: None,
        }),
        ..Function::default()
    };
    let x = twice.add_expression(Expression::FunctionArgument(0), uint, None);
    let two = twice.add_expression(Expression::Literal(Literal::U32(2)), uint, None);
    let product = twice.add_expression(
        Expression::Binary {
            op: BinaryOperator::Multiply,
            left: x,
            right: two,
        },
        uint,
        None,
    );
    twice.body = vec![Statement::Return {
        value: Some(product),
    }];
    let twice = t.m.functions.append(twice, None);

    let input = t.buffer("In", uint, 4, 0, false);
    let output = t.buffer("Out", uint, 4, 1, true);
    let value = t.load_element(input, uint);
    let acc = local(&mut t, "acc", uint);
    let acc_ptr = t.expr(Expression::LocalVariable(acc), uint_ptr);
    t.body.push(Statement::Call {
        function: add_to,
        arguments: vec![acc_ptr, value],
        result: None,
    });
    let acc_ptr = t.expr(Expression::LocalVariable(acc), uint_ptr);
    let acc_value = t.expr(Expression::Load { pointer: acc_ptr }, uint);
    let doubled = t.expr(Expression::CallResult(twice), uint);
    t.body.push(Statement::Call {
        function: twice,
        arguments: vec![acc_value],
        result: Some(doubled),
    });
    t.store_element(output, uint, doubled);
    // A buffer element as an inout argument: copied through a temporary.
    let x = t.thread_x();
    let element = t.element(output, uint, x);
    let five = t.literal(Literal::U32(5));
    t.body.push(Statement::Call {
        function: add_to,
        arguments: vec![element, five],
        result: None,
    });

    let module = t.finish();
    let kept = write_entry_point(
        &module,
        &ModuleInfo::new(&module),
        0,
        &Options {
            keep_functions: true,
            ..Options::default()
        },
    )
    .expect("compiles");
    validate(&kept);
    assert_eq!(load(&kept).functions.len(), 3);
    let calls = |words: &[u32]| {
        body_ops(words)
            .iter()
            .filter(|&&o| o == Op::FunctionCall)
            .count()
    };
    assert_eq!(calls(&kept), 3);

    // Inlined: `twice` and the first `add_to` (on a local); the call whose argument
    // points into a buffer stays, so `add_to` is still written.
    let words = compile_valid(&module);
    assert_eq!(load(&words).functions.len(), 2);
    assert_eq!(calls(&words), 1);
}

#[test]
fn integer_and_float_division_and_remainder_follow_hlsl() {
    for (scalar, op, expected) in [
        (Scalar::I32, BinaryOperator::Divide, Op::SDiv),
        // Signed `%` is `l - (l / r) * r`: Vulkan leaves OpSRem of negatives undefined.
        (Scalar::I32, BinaryOperator::Modulo, Op::ISub),
        (Scalar::U32, BinaryOperator::Divide, Op::UDiv),
        (Scalar::U32, BinaryOperator::Modulo, Op::UMod),
        (Scalar::F32, BinaryOperator::Modulo, Op::FRem),
        (Scalar::F32, BinaryOperator::NotEqual, Op::FUnordNotEqual),
        (
            Scalar::I32,
            BinaryOperator::ShiftRight,
            Op::ShiftRightArithmetic,
        ),
        (
            Scalar::U32,
            BinaryOperator::ShiftRight,
            Op::ShiftRightLogical,
        ),
    ] {
        let mut t = TestModule::compute();
        let ty = t.scalar(scalar);
        let input = t.buffer("In", ty, 4, 0, false);
        let value = t.load_element(input, ty);
        let right = if matches!(op, BinaryOperator::ShiftRight) {
            t.literal(Literal::U32(3))
        } else {
            value
        };
        let result_ty = if op.is_comparison() {
            t.scalar(Scalar::BOOL)
        } else {
            ty
        };
        let result = t.bind(
            Expression::Binary {
                op,
                left: value,
                right,
            },
            result_ty,
        );
        let stored = t.bind(
            Expression::Convert {
                expr: result,
                to: scalar,
            },
            ty,
        );
        let output = t.buffer("Out", ty, 4, 1, true);
        t.store_element(output, ty, stored);
        let words = compile_valid(&t.finish());
        let ops = body_ops(&words);
        assert!(ops.contains(&expected), "{op:?} {scalar:?}");
        assert!(
            !ops.contains(&Op::SRem),
            "OpSRem is undefined for negatives on Vulkan"
        );
    }
}
