//! Size clean-ups on the written module: Function variables that are only ever
//! stored to (every load was forwarded from a store), and types, constants and
//! names nothing refers to any more.

use oneshader_ir::FastHashSet;

use rspirv::dr::{Function, Instruction, Module, Operand};
use rspirv::spirv::{Op, Word};

/// The ids an instruction refers to (its result type and id operands).
fn references(instruction: &Instruction) -> impl Iterator<Item = Word> + '_ {
    instruction
        .result_type
        .into_iter()
        .chain(instruction.operands.iter().filter_map(Operand::id_ref_any))
}

/// Removes the Function variables of `function` that nothing reads: their stores
/// and the variables themselves.
pub(crate) fn remove_write_only_variables(function: &mut Function) {
    let variables: FastHashSet<Word> = function
        .blocks
        .first()
        .into_iter()
        .flat_map(|block| &block.instructions)
        .filter(|i| i.class.opcode == Op::Variable)
        .filter_map(|i| i.result_id)
        .collect();
    let mut read = FastHashSet::default();
    for instruction in function.blocks.iter().flat_map(|b| &b.instructions) {
        let is_store = instruction.class.opcode == Op::Store;
        for (index, id) in instruction
            .operands
            .iter()
            .enumerate()
            .filter_map(|(index, operand)| operand.id_ref_any().map(|id| (index, id)))
        {
            // The pointer operand of a store only writes.
            if variables.contains(&id) && !(is_store && index == 0) {
                read.insert(id);
            }
        }
    }
    let unread: FastHashSet<Word> = variables.difference(&read).copied().collect();
    if unread.is_empty() {
        return;
    }
    for block in &mut function.blocks {
        block.instructions.retain(|i| match i.class.opcode {
            Op::Variable => !i.result_id.is_some_and(|id| unread.contains(&id)),
            Op::Store => {
                !matches!(i.operands.first(), Some(Operand::IdRef(id)) if unread.contains(id))
            }
            _ => true,
        });
    }
}

/// Removes types, constants and module-level variables that nothing refers to,
/// with their names and decorations.
pub(crate) fn remove_unused_globals(module: &mut Module) {
    // What the entry points and functions refer to does not change while globals go,
    // so it is collected once; only the globals' own references are counted again.
    let mut used_outside: FastHashSet<Word> = FastHashSet::default();
    let mut mark = |instruction: &Instruction| used_outside.extend(references(instruction));
    module
        .entry_points
        .iter()
        .chain(&module.execution_modes)
        .for_each(&mut mark);
    for function in &module.functions {
        function
            .def
            .iter()
            .chain(&function.parameters)
            .chain(function.blocks.iter().flat_map(|b| &b.instructions))
            .for_each(&mut mark);
    }
    loop {
        let mut used = used_outside.clone();
        for instruction in &module.types_global_values {
            used.extend(references(instruction));
        }
        let unused: FastHashSet<Word> = module
            .types_global_values
            .iter()
            .filter_map(|i| i.result_id)
            .filter(|id| !used.contains(id))
            .collect();
        if unused.is_empty() {
            return;
        }
        module
            .types_global_values
            .retain(|i| !i.result_id.is_some_and(|id| unused.contains(&id)));
        let targets_unused = |i: &Instruction| matches!(i.operands.first(), Some(Operand::IdRef(id)) if unused.contains(id));
        module.debug_names.retain(|i| !targets_unused(i));
        module.annotations.retain(|i| !targets_unused(i));
    }
}

/// Removes the names of ids that no longer exist in any function.
pub(crate) fn remove_dangling_names(module: &mut Module) {
    let mut defined: FastHashSet<Word> = module
        .types_global_values
        .iter()
        .filter_map(|i| i.result_id)
        .collect();
    for function in &module.functions {
        defined.extend(function.def.iter().filter_map(|i| i.result_id));
        defined.extend(function.parameters.iter().filter_map(|i| i.result_id));
        for block in &function.blocks {
            defined.extend(block.label.iter().filter_map(|i| i.result_id));
            defined.extend(block.instructions.iter().filter_map(|i| i.result_id));
        }
    }
    let dangling = |i: &Instruction| matches!(i.operands.first(), Some(Operand::IdRef(id)) if !defined.contains(id));
    module.debug_names.retain(|i| !dangling(i));
    module.annotations.retain(|i| !dangling(i));
}
