//! The promotion of variables to SSA values (`ssa.rs`), on functions written word by word
//! with the builder: each result passes `spirv-val` and has the phis it should.

use rspirv::spirv::{
    AddressingModel, Capability, ExecutionMode, ExecutionModel, FunctionControl, LoopControl,
    MemoryModel, Op, SelectionControl, StorageClass, Word,
};

use super::*;
use crate::module::Builder;

/// The ids a test function needs.
struct Ids {
    uint: Word,
    bool_type: Word,
    pointer: Word,
    /// `x`, the function's parameter.
    x: Word,
    constants: [Word; 8],
}

impl Ids {
    /// The `uint` constant `value` (0 to 7).
    fn c(&self, value: usize) -> Word {
        self.constants[value]
    }
}

/// A module with a compute entry point and `uint f(uint x)`, whose body after its first
/// label `write` writes; returns the module's words, checked by `spirv-val`.
fn module(write: impl FnOnce(&mut Builder, &Ids)) -> Vec<Word> {
    let mut b = Builder::new();
    b.set_version(1, 5);
    b.capability(Capability::Shader);
    b.memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
    let void = b.type_void();
    let uint = b.type_int(32, 0);
    let bool_type = b.type_bool();
    let pointer = b.type_pointer(StorageClass::Function, uint);
    let constants = std::array::from_fn(|value| b.constant_bit32(uint, value as u32));
    let main_type = b.type_function(void, &[]);
    let f_type = b.type_function(uint, &[uint]);
    let main = b.id();
    let f = b.id();
    b.entry_point(ExecutionModel::GLCompute, main, "main", []);
    b.execution_mode(main, ExecutionMode::LocalSize, [1, 1, 1]);

    b.begin_function(void, main, FunctionControl::NONE, main_type)
        .unwrap();
    b.begin_block(None).unwrap();
    let result = b.id();
    b.instruction_ids(
        Op::FunctionCall,
        Some(uint),
        Some(result),
        &[f, constants[1]],
    )
    .unwrap();
    b.ret().unwrap();
    b.end_function().unwrap();

    b.begin_function(uint, f, FunctionControl::NONE, f_type)
        .unwrap();
    let x = b.function_parameter(uint).unwrap();
    b.begin_block(None).unwrap();
    let ids = Ids {
        uint,
        bool_type,
        pointer,
        x,
        constants,
    };
    write(&mut b, &ids);
    b.end_function().unwrap();
    let words = b.assemble();
    validate(&words);
    words
}

/// `OpLoad` of `variable`.
fn load_of(b: &mut Builder, ids: &Ids, variable: Word) -> Word {
    let id = b.id();
    b.instruction_ids(Op::Load, Some(ids.uint), Some(id), &[variable])
        .unwrap();
    id
}

/// An instruction `op` of two `uint` operands with a result of type `ty`.
fn binary(b: &mut Builder, op: Op, ty: Word, left: Word, right: Word) -> Word {
    let id = b.id();
    b.instruction_ids(op, Some(ty), Some(id), &[left, right])
        .unwrap();
    id
}

/// How many of each of `ops` the functions have.
fn counts(words: &[Word], ops: &[Op]) -> Vec<usize> {
    let body = body_ops(words);
    ops.iter()
        .map(|op| body.iter().filter(|o| *o == op).count())
        .collect()
}

/// The operands of every `OpPhi`, as (value, parent) ids.
fn phis(words: &[Word]) -> Vec<Vec<Word>> {
    let module = load(words);
    body_instructions(&module)
        .iter()
        .filter(|i| i.class.opcode == Op::Phi)
        .map(|i| i.operands.iter().filter_map(|o| o.id_ref_any()).collect())
        .collect()
}

const MEMORY: [Op; 4] = [Op::Variable, Op::Load, Op::Store, Op::Phi];

#[test]
fn straight_line_code_needs_no_phi() {
    let words = module(|b, ids| {
        let v = b.function_variable(ids.pointer, Some(ids.c(0)));
        b.store(v, ids.x, None).unwrap();
        let loaded = load_of(b, ids, v);
        let sum = binary(b, Op::IAdd, ids.uint, loaded, ids.c(1));
        b.store(v, sum, None).unwrap();
        let result = load_of(b, ids, v);
        b.ret_value(result).unwrap();
    });
    assert_eq!(
        counts(&words, &MEMORY),
        [0, 0, 0, 0],
        "{}",
        disassemble(&words)
    );
}

#[test]
fn if_else_meets_in_a_phi() {
    let mut expected = Vec::new();
    let words = module(|b, ids| {
        let v = b.function_variable(ids.pointer, Some(ids.c(0)));
        let condition = binary(b, Op::ULessThan, ids.bool_type, ids.x, ids.c(1));
        let (accept, reject, merge) = (b.id(), b.id(), b.id());
        expected = vec![ids.x, accept, ids.c(5), reject];
        b.selection_merge(merge, SelectionControl::NONE).unwrap();
        b.branch_conditional(condition, accept, reject).unwrap();
        b.begin_block(Some(accept)).unwrap();
        b.store(v, ids.x, None).unwrap();
        b.branch(merge).unwrap();
        b.begin_block(Some(reject)).unwrap();
        b.store(v, ids.c(5), None).unwrap();
        b.branch(merge).unwrap();
        b.begin_block(Some(merge)).unwrap();
        let result = load_of(b, ids, v);
        b.ret_value(result).unwrap();
    });
    assert_eq!(
        counts(&words, &MEMORY),
        [0, 0, 0, 1],
        "{}",
        disassemble(&words)
    );
    assert_eq!(phis(&words), [expected]);
}

#[test]
fn an_if_without_store_in_one_arm_reads_the_value_before_it() {
    let mut expected = Vec::new();
    let words = module(|b, ids| {
        let v = b.function_variable(ids.pointer, None);
        b.store(v, ids.x, None).unwrap();
        let condition = binary(b, Op::ULessThan, ids.bool_type, ids.x, ids.c(1));
        let (accept, merge) = (b.id(), b.id());
        b.selection_merge(merge, SelectionControl::NONE).unwrap();
        b.branch_conditional(condition, accept, merge).unwrap();
        b.begin_block(Some(accept)).unwrap();
        let loaded = load_of(b, ids, v);
        let doubled = binary(b, Op::IAdd, ids.uint, loaded, loaded);
        b.store(v, doubled, None).unwrap();
        b.branch(merge).unwrap();
        // The first block's label goes in when the phi is read.
        expected = vec![ids.x, 0, doubled, accept];
        b.begin_block(Some(merge)).unwrap();
        let result = load_of(b, ids, v);
        b.ret_value(result).unwrap();
    });
    assert_eq!(
        counts(&words, &MEMORY),
        [0, 0, 0, 1],
        "{}",
        disassemble(&words)
    );
    let mut found = phis(&words);
    // The first block's label: whatever the phi names besides `accept`.
    if let Some(phi) = found.first_mut() {
        expected[1] = phi[1];
    }
    assert_eq!(found, [expected]);
}

/// `for (i = 0; i < x; i++) { if (i == 3) continue; if (i == 5) break; sum += i; }
/// return sum;`
#[test]
fn a_loop_with_continue_and_break_has_phis_at_its_header_and_merge() {
    let words = module(|b, ids| {
        let i = b.function_variable(ids.pointer, Some(ids.c(0)));
        let sum = b.function_variable(ids.pointer, Some(ids.c(0)));
        let (header, body, skip, not_skip, broken, add, continuing, merge) = (
            b.id(),
            b.id(),
            b.id(),
            b.id(),
            b.id(),
            b.id(),
            b.id(),
            b.id(),
        );
        b.branch(header).unwrap();
        b.begin_block(Some(header)).unwrap();
        b.loop_merge(merge, continuing, LoopControl::NONE).unwrap();
        b.branch(body).unwrap();

        b.begin_block(Some(body)).unwrap();
        let loaded = load_of(b, ids, i);
        let more = binary(b, Op::ULessThan, ids.bool_type, loaded, ids.x);
        b.selection_merge(not_skip, SelectionControl::NONE).unwrap();
        b.branch_conditional(more, not_skip, merge).unwrap();

        b.begin_block(Some(not_skip)).unwrap();
        let loaded = load_of(b, ids, i);
        let three = binary(b, Op::IEqual, ids.bool_type, loaded, ids.c(3));
        b.selection_merge(skip, SelectionControl::NONE).unwrap();
        b.branch_conditional(three, continuing, skip).unwrap();

        b.begin_block(Some(skip)).unwrap();
        let loaded = load_of(b, ids, i);
        let five = binary(b, Op::IEqual, ids.bool_type, loaded, ids.c(5));
        b.selection_merge(add, SelectionControl::NONE).unwrap();
        b.branch_conditional(five, broken, add).unwrap();
        b.begin_block(Some(broken)).unwrap();
        b.branch(merge).unwrap();

        b.begin_block(Some(add)).unwrap();
        let total = load_of(b, ids, sum);
        let loaded = load_of(b, ids, i);
        let total = binary(b, Op::IAdd, ids.uint, total, loaded);
        b.store(sum, total, None).unwrap();
        b.branch(continuing).unwrap();

        b.begin_block(Some(continuing)).unwrap();
        let loaded = load_of(b, ids, i);
        let next = binary(b, Op::IAdd, ids.uint, loaded, ids.c(1));
        b.store(i, next, None).unwrap();
        b.branch(header).unwrap();

        b.begin_block(Some(merge)).unwrap();
        let result = load_of(b, ids, sum);
        b.ret_value(result).unwrap();
    });
    // i and sum at the header, and sum at the continue target (from `continue` and the
    // add); at the merge, both ways out have the header's sum.
    assert_eq!(
        counts(&words, &MEMORY),
        [0, 0, 0, 3],
        "{}",
        disassemble(&words)
    );
}

/// `switch (x) { case 0: v = 1; /* falls through */ case 1: v += 2; break; default:
/// v = 7; } return v;`
#[test]
fn a_switch_with_fallthrough_meets_in_phis() {
    let words = module(|b, ids| {
        let v = b.function_variable(ids.pointer, Some(ids.c(0)));
        let (zero, one, default, merge) = (b.id(), b.id(), b.id(), b.id());
        b.selection_merge(merge, SelectionControl::NONE).unwrap();
        b.switch(ids.x, default, &[(0, zero), (1, one)]).unwrap();
        b.begin_block(Some(zero)).unwrap();
        b.store(v, ids.c(1), None).unwrap();
        b.branch(one).unwrap();
        b.begin_block(Some(one)).unwrap();
        let loaded = load_of(b, ids, v);
        let sum = binary(b, Op::IAdd, ids.uint, loaded, ids.c(2));
        b.store(v, sum, None).unwrap();
        b.branch(merge).unwrap();
        b.begin_block(Some(default)).unwrap();
        b.store(v, ids.c(7), None).unwrap();
        b.branch(merge).unwrap();
        b.begin_block(Some(merge)).unwrap();
        let result = load_of(b, ids, v);
        b.ret_value(result).unwrap();
    });
    assert_eq!(
        counts(&words, &MEMORY),
        [0, 0, 0, 2],
        "{}",
        disassemble(&words)
    );
}

/// A loop whose body always breaks: its continue target has no predecessor, yet the
/// header's phi needs an operand from it.
#[test]
fn an_unreachable_continue_target_still_gives_the_header_an_operand() {
    let words = module(|b, ids| {
        let v = b.function_variable(ids.pointer, Some(ids.c(0)));
        let (header, body, continuing, merge) = (b.id(), b.id(), b.id(), b.id());
        b.branch(header).unwrap();
        b.begin_block(Some(header)).unwrap();
        b.loop_merge(merge, continuing, LoopControl::NONE).unwrap();
        b.branch(body).unwrap();
        b.begin_block(Some(body)).unwrap();
        let loaded = load_of(b, ids, v);
        let sum = binary(b, Op::IAdd, ids.uint, loaded, ids.x);
        b.store(v, sum, None).unwrap();
        b.branch(merge).unwrap();
        b.begin_block(Some(continuing)).unwrap();
        b.store(v, ids.c(4), None).unwrap();
        b.branch(header).unwrap();
        b.begin_block(Some(merge)).unwrap();
        let result = load_of(b, ids, v);
        b.ret_value(result).unwrap();
    });
    assert_eq!(
        counts(&words, &MEMORY),
        [0, 0, 0, 1],
        "{}",
        disassemble(&words)
    );
}

/// A variable that an access chain or a call sees stays in memory.
#[test]
fn variables_used_through_pointers_stay() {
    let words = module(|b, ids| {
        let v = b.function_variable(ids.pointer, Some(ids.c(0)));
        let kept = b.function_variable(ids.pointer, Some(ids.c(0)));
        b.store(v, ids.x, None).unwrap();
        b.store(kept, ids.x, None).unwrap();
        let copy = b.id();
        b.instruction_ids(Op::CopyObject, Some(ids.pointer), Some(copy), &[kept])
            .unwrap();
        let a = load_of(b, ids, copy);
        let c = load_of(b, ids, v);
        let sum = binary(b, Op::IAdd, ids.uint, a, c);
        b.ret_value(sum).unwrap();
    });
    assert_eq!(
        counts(&words, &MEMORY),
        [1, 1, 1, 0],
        "{}",
        disassemble(&words)
    );
}

/// `OpAccessChain` of `variable` with constant or dynamic `indices`.
fn chain(b: &mut Builder, pointer: Word, variable: Word, indices: &[Word]) -> Word {
    let id = b.id();
    let mut operands = vec![variable];
    operands.extend_from_slice(indices);
    b.instruction_ids(Op::AccessChain, Some(pointer), Some(id), &operands)
        .unwrap();
    id
}

/// `uint2 v = 0; v.y = x; if (x < 1) v.x = 5; return v.x + v.y;`: the accesses through
/// constant-index chains become inserts into and extracts from the vector's value.
#[test]
fn constant_index_accesses_become_inserts_and_extracts() {
    let words = module(|b, ids| {
        let uint2 = b.type_vector(ids.uint, 2);
        let vector_pointer = b.type_pointer(StorageClass::Function, uint2);
        let zero = b.constant_composite(uint2, &[ids.c(0), ids.c(0)]);
        let v = b.function_variable(vector_pointer, Some(zero));
        let y = chain(b, ids.pointer, v, &[ids.c(1)]);
        b.store(y, ids.x, None).unwrap();
        let condition = binary(b, Op::ULessThan, ids.bool_type, ids.x, ids.c(1));
        let (accept, merge) = (b.id(), b.id());
        b.selection_merge(merge, SelectionControl::NONE).unwrap();
        b.branch_conditional(condition, accept, merge).unwrap();
        b.begin_block(Some(accept)).unwrap();
        let x_component = chain(b, ids.pointer, v, &[ids.c(0)]);
        b.store(x_component, ids.c(5), None).unwrap();
        b.branch(merge).unwrap();
        b.begin_block(Some(merge)).unwrap();
        let x_component = chain(b, ids.pointer, v, &[ids.c(0)]);
        let first = load_of(b, ids, x_component);
        let y = chain(b, ids.pointer, v, &[ids.c(1)]);
        let second = load_of(b, ids, y);
        let sum = binary(b, Op::IAdd, ids.uint, first, second);
        b.ret_value(sum).unwrap();
    });
    let ops = [
        Op::Variable,
        Op::Load,
        Op::Store,
        Op::Phi,
        Op::AccessChain,
        Op::CompositeInsert,
        Op::CompositeExtract,
    ];
    assert_eq!(
        counts(&words, &ops),
        [0, 0, 0, 1, 0, 2, 2],
        "{}",
        disassemble(&words)
    );
}

/// An access chain with an index that is not a constant keeps the variable in memory.
#[test]
fn dynamic_indices_keep_the_variable() {
    let words = module(|b, ids| {
        let uint2 = b.type_vector(ids.uint, 2);
        let vector_pointer = b.type_pointer(StorageClass::Function, uint2);
        let zero = b.constant_composite(uint2, &[ids.c(0), ids.c(0)]);
        let v = b.function_variable(vector_pointer, Some(zero));
        let y = chain(b, ids.pointer, v, &[ids.c(1)]);
        b.store(y, ids.x, None).unwrap();
        let component = chain(b, ids.pointer, v, &[ids.x]);
        let loaded = load_of(b, ids, component);
        b.ret_value(loaded).unwrap();
    });
    assert_eq!(
        counts(&words, &[Op::Variable, Op::AccessChain]),
        [1, 2],
        "{}",
        disassemble(&words)
    );
}

/// `uint2 v = 0; v.y = x; v.x = 5; return v.x + v.y;`: each load through a chain reads
/// back what the last insert through the same chain put there, so neither extracts,
/// and the inserts, read by nothing then, go too.
#[test]
fn loads_through_a_chain_read_back_what_was_inserted() {
    let mut expected_operands = Vec::new();
    let words = module(|b, ids| {
        let uint2 = b.type_vector(ids.uint, 2);
        let vector_pointer = b.type_pointer(StorageClass::Function, uint2);
        let zero = b.constant_composite(uint2, &[ids.c(0), ids.c(0)]);
        let v = b.function_variable(vector_pointer, Some(zero));
        let y = chain(b, ids.pointer, v, &[ids.c(1)]);
        b.store(y, ids.x, None).unwrap();
        let x_component = chain(b, ids.pointer, v, &[ids.c(0)]);
        b.store(x_component, ids.c(5), None).unwrap();
        let x_component = chain(b, ids.pointer, v, &[ids.c(0)]);
        let first = load_of(b, ids, x_component);
        let y = chain(b, ids.pointer, v, &[ids.c(1)]);
        let second = load_of(b, ids, y);
        let sum = binary(b, Op::IAdd, ids.uint, first, second);
        expected_operands = vec![ids.c(5), ids.x];
        b.ret_value(sum).unwrap();
    });
    let ops = [
        Op::Variable,
        Op::Load,
        Op::Store,
        Op::Phi,
        Op::AccessChain,
        Op::CompositeInsert,
        Op::CompositeExtract,
    ];
    assert_eq!(counts(&words, &ops), [0; 7], "{}", disassemble(&words));
    let module = load(&words);
    let add = body_instructions(&module)
        .into_iter()
        .find(|i| i.class.opcode == Op::IAdd)
        .map(|i| {
            i.operands
                .iter()
                .filter_map(|o| o.id_ref_any())
                .collect::<Vec<_>>()
        });
    assert_eq!(add, Some(expected_operands), "{}", disassemble(&words));
}

/// A variable nothing reads (`w`) goes with its stores after the pass rewrote the body:
/// `compact.rs` finds them where the pass recorded its accesses, which the inserts it
/// removed and the phi it placed moved. A variable with a dynamic index (`k`) keeps its
/// store and load.
#[test]
fn stores_to_unread_variables_go_after_the_rewrite() {
    let words = module(|b, ids| {
        let uint2 = b.type_vector(ids.uint, 2);
        let vector_pointer = b.type_pointer(StorageClass::Function, uint2);
        let zero = b.constant_composite(uint2, &[ids.c(0), ids.c(0)]);
        let v = b.function_variable(vector_pointer, Some(zero));
        let w = b.function_variable(ids.pointer, None);
        let k = b.function_variable(vector_pointer, Some(zero));
        let s = b.function_variable(ids.pointer, Some(ids.c(0)));
        b.store(w, ids.c(1), None).unwrap();
        let y = chain(b, ids.pointer, v, &[ids.c(1)]);
        b.store(y, ids.x, None).unwrap();
        let x_component = chain(b, ids.pointer, v, &[ids.c(0)]);
        b.store(x_component, ids.c(5), None).unwrap();
        let x_component = chain(b, ids.pointer, v, &[ids.c(0)]);
        let first = load_of(b, ids, x_component);
        b.store(w, first, None).unwrap();
        let condition = binary(b, Op::ULessThan, ids.bool_type, ids.x, ids.c(1));
        let (accept, merge) = (b.id(), b.id());
        b.selection_merge(merge, SelectionControl::NONE).unwrap();
        b.branch_conditional(condition, accept, merge).unwrap();
        b.begin_block(Some(accept)).unwrap();
        b.store(s, ids.c(3), None).unwrap();
        b.branch(merge).unwrap();
        b.begin_block(Some(merge)).unwrap();
        let y = chain(b, ids.pointer, v, &[ids.c(1)]);
        let second = load_of(b, ids, y);
        let sum = binary(b, Op::IAdd, ids.uint, first, second);
        b.store(w, sum, None).unwrap();
        let element = chain(b, ids.pointer, k, &[ids.x]);
        b.store(element, sum, None).unwrap();
        let element = chain(b, ids.pointer, k, &[ids.x]);
        let kept = load_of(b, ids, element);
        let selected = load_of(b, ids, s);
        b.store(w, selected, None).unwrap();
        let result = binary(b, Op::IAdd, ids.uint, kept, selected);
        b.ret_value(result).unwrap();
    });
    let ops = [
        Op::Variable,
        Op::Load,
        Op::Store,
        Op::Phi,
        Op::CompositeInsert,
    ];
    assert_eq!(
        counts(&words, &ops),
        [1, 1, 1, 1, 0],
        "{}",
        disassemble(&words)
    );
}

/// `OpExtInst`'s instruction number is a literal: one that equals a variable's id
/// (here `UMin`, 38) does not keep the variable in memory.
#[test]
fn an_extended_instruction_number_is_no_use_of_a_variable() {
    const UMIN: u32 = 38;
    let words = module(|b, ids| {
        let glsl = b.ext_inst_import("GLSL.std.450");
        while b.id() + 1 < UMIN {}
        let v = b.function_variable(ids.pointer, Some(ids.c(0)));
        assert_eq!(v, UMIN);
        b.store(v, ids.x, None).unwrap();
        let loaded = load_of(b, ids, v);
        let smaller = b.id();
        b.ext_inst(ids.uint, smaller, glsl, UMIN, &[loaded, ids.c(7)])
            .unwrap();
        b.ret_value(smaller).unwrap();
    });
    assert_eq!(
        counts(&words, &MEMORY),
        [0, 0, 0, 0],
        "{}",
        disassemble(&words)
    );
}
