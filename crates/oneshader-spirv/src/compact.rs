//! Size clean-ups on the written module: Function variables that are only ever
//! stored to (every load was forwarded from a store), and types, constants and
//! names nothing refers to any more.

use rspirv::dr::{Function, Instruction, Module, Operand};
use rspirv::spirv::{Op, Word};

/// A set of ids, one flag per id: SPIR-V ids are dense (below the module's bound), so a
/// flag vector is far cheaper than hashing each id.
#[derive(Clone, Debug, Default)]
struct IdSet {
    /// The id of `flags[0]`: a function's variables are numbered together, far above 0 in
    /// a large module, and a set of them sized from id 0 made the pass quadratic.
    base: Word,
    flags: Vec<bool>,
}

impl IdSet {
    /// An empty set with room for the ids below `bound`.
    fn with_bound(bound: Word) -> Self {
        IdSet::with_range(0, bound)
    }

    /// An empty set with room for the ids from `first` up to, not including, `end`.
    fn with_range(first: Word, end: Word) -> Self {
        IdSet {
            base: first,
            flags: vec![false; end.saturating_sub(first) as usize],
        }
    }

    /// The index of `id` in `flags`; `None` below `base`.
    fn index(&self, id: Word) -> Option<usize> {
        id.checked_sub(self.base).map(|offset| offset as usize)
    }

    /// Adds `id`. An id below `base` is ignored: each set is made with room for the ids
    /// it is given.
    fn insert(&mut self, id: Word) {
        let Some(index) = self.index(id) else {
            return;
        };
        if index >= self.flags.len() {
            self.flags.resize(index + 1, false);
        }
        if let Some(flag) = self.flags.get_mut(index) {
            *flag = true;
        }
    }

    fn remove(&mut self, id: Word) {
        if let Some(flag) = self.index(id).and_then(|index| self.flags.get_mut(index)) {
            *flag = false;
        }
    }

    fn contains(&self, id: Word) -> bool {
        self.index(id)
            .and_then(|index| self.flags.get(index))
            .copied()
            .unwrap_or(false)
    }

    fn extend(&mut self, ids: impl IntoIterator<Item = Word>) {
        for id in ids {
            self.insert(id);
        }
    }
}

/// The id bound of `module`'s header (every id is below it), 0 without a header: the
/// size an [`IdSet`] of its ids starts with (it grows for any id beyond).
fn bound(module: &Module) -> Word {
    module.header.as_ref().map_or(0, |header| header.bound)
}

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
    let variables: Vec<Word> = function
        .blocks
        .first()
        .into_iter()
        .flat_map(|block| &block.instructions)
        .filter(|i| i.class.opcode == Op::Variable)
        .filter_map(|i| i.result_id)
        .collect();
    let (Some(&first), Some(&last)) = (variables.iter().min(), variables.iter().max()) else {
        return;
    };
    // Sized for the variables alone: other ids are no variable's.
    let mut unread = IdSet::with_range(first, last + 1);
    unread.extend(variables.iter().copied());
    for instruction in function.blocks.iter().flat_map(|b| &b.instructions) {
        let is_store = instruction.class.opcode == Op::Store;
        for (index, id) in instruction
            .operands
            .iter()
            .enumerate()
            .filter_map(|(index, operand)| operand.id_ref_any().map(|id| (index, id)))
        {
            // The pointer operand of a store only writes.
            if !(is_store && index == 0) {
                unread.remove(id);
            }
        }
    }
    if !variables.iter().any(|&id| unread.contains(id)) {
        return;
    }
    for block in &mut function.blocks {
        block.instructions.retain(|i| match i.class.opcode {
            Op::Variable => !i.result_id.is_some_and(|id| unread.contains(id)),
            Op::Store => {
                !matches!(i.operands.first(), Some(Operand::IdRef(id)) if unread.contains(*id))
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
    let mut used_outside = IdSet::with_bound(bound(module));
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
        let mut unused = IdSet::default();
        let mut any_unused = false;
        for id in module
            .types_global_values
            .iter()
            .filter_map(|i| i.result_id)
        {
            if !used.contains(id) {
                unused.insert(id);
                any_unused = true;
            }
        }
        if !any_unused {
            return;
        }
        module
            .types_global_values
            .retain(|i| !i.result_id.is_some_and(|id| unused.contains(id)));
        let targets_unused = |i: &Instruction| matches!(i.operands.first(), Some(Operand::IdRef(id)) if unused.contains(*id));
        module.debug_names.retain(|i| !targets_unused(i));
        module.annotations.retain(|i| !targets_unused(i));
    }
}

/// Removes the names of ids that no longer exist in any function.
pub(crate) fn remove_dangling_names(module: &mut Module) {
    let mut defined = IdSet::with_bound(bound(module));
    defined.extend(
        module
            .types_global_values
            .iter()
            .filter_map(|i| i.result_id),
    );
    for function in &module.functions {
        defined.extend(function.def.iter().filter_map(|i| i.result_id));
        defined.extend(function.parameters.iter().filter_map(|i| i.result_id));
        for block in &function.blocks {
            defined.extend(block.label.iter().filter_map(|i| i.result_id));
            defined.extend(block.instructions.iter().filter_map(|i| i.result_id));
        }
    }
    let dangling = |i: &Instruction| matches!(i.operands.first(), Some(Operand::IdRef(id)) if !defined.contains(*id));
    module.debug_names.retain(|i| !dangling(i));
    module.annotations.retain(|i| !dangling(i));
}
