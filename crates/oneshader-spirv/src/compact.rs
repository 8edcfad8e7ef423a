//! Size clean-ups on the written module: Function variables that are only ever
//! stored to (every load was forwarded from a store), and types, constants and
//! names nothing refers to any more.
//!
//! Both work on the words of [`Builder`], with what it counted while writing: how often
//! functions, entry points and execution modes use each id, and which ids functions
//! define and read.

use rspirv::spirv::{Op, Word};

use crate::module::{Builder, FunctionState};

/// The instructions of `words`, each as its words (a truncated last one is left out).
pub(crate) fn instructions(words: &[Word]) -> impl Iterator<Item = &[Word]> + '_ {
    let mut rest = words;
    std::iter::from_fn(move || {
        let count = (*rest.first()? >> 16).max(1) as usize;
        let instruction = rest.get(..count)?;
        rest = rest.get(count..).unwrap_or_default();
        Some(instruction)
    })
}

/// The opcode of an instruction.
pub(crate) fn opcode(instruction: &[Word]) -> u32 {
    instruction.first().map_or(0, |word| word & 0xffff)
}

/// Appends `function` to the module's functions, its variables at the start of its
/// first block, less the variables that nothing reads and the stores to them.
pub(crate) fn finish_function(builder: &mut Builder, function: &FunctionState) {
    let body = &function.body;
    // Without a block the variables have nowhere to go.
    let first_block = function.first_block.unwrap_or(body.len());
    let mut any_removed = false;
    for variable in instructions(&function.variables) {
        let &[_, _, id, ..] = variable else {
            continue;
        };
        let Some(info) = builder.ids.get_mut(id as usize) else {
            continue;
        };
        if !info.read || function.first_block.is_none() {
            info.removed = true;
            info.in_function = false;
            any_removed = true;
        }
    }
    builder
        .functions
        .extend_from_slice(body.get(..first_block).unwrap_or_default());
    for variable in instructions(&function.variables) {
        let &[_, pointer, id, ref rest @ ..] = variable else {
            continue;
        };
        if builder
            .ids
            .get(id as usize)
            .is_some_and(|info| info.removed)
        {
            builder.unuse_id(pointer);
            if let [_, initializer] = *rest {
                builder.unuse_id(initializer);
            }
        } else {
            builder.functions.extend_from_slice(variable);
        }
    }
    let rest = body.get(first_block..).unwrap_or_default();
    if !any_removed {
        builder.functions.extend_from_slice(rest);
        return;
    }
    // Copied in runs between the stores left out (found among the accesses the builder
    // and the SSA pass recorded): `run` is where the words not yet copied start.
    let mut run = first_block;
    for &at in &function.accesses {
        let Some(&first) = body.get(at).filter(|_| at >= run) else {
            continue;
        };
        let count = ((first >> 16) as usize).max(1);
        let Some(&[_, pointer, value, ..]) = body.get(at..at + count) else {
            continue;
        };
        if first & 0xffff == Op::Store as u32
            && builder
                .ids
                .get(pointer as usize)
                .is_some_and(|info| info.removed)
        {
            builder.unuse_id(pointer);
            builder.unuse_id(value);
            builder
                .functions
                .extend_from_slice(body.get(run..at).unwrap_or_default());
            run = at + count;
        }
    }
    builder
        .functions
        .extend_from_slice(body.get(run..).unwrap_or_default());
}

/// The ids a module-level instruction refers to: its result type and id operands, as
/// two slices.
fn global_references(instruction: &[Word]) -> (&[Word], &[Word]) {
    let words = |range: std::ops::Range<usize>| instruction.get(range).unwrap_or_default();
    let tail = |start: usize| instruction.get(start..).unwrap_or_default();
    const VECTOR: u32 = Op::TypeVector as u32;
    const MATRIX: u32 = Op::TypeMatrix as u32;
    const IMAGE: u32 = Op::TypeImage as u32;
    const SAMPLED_IMAGE: u32 = Op::TypeSampledImage as u32;
    const RUNTIME_ARRAY: u32 = Op::TypeRuntimeArray as u32;
    const ARRAY: u32 = Op::TypeArray as u32;
    const STRUCT: u32 = Op::TypeStruct as u32;
    const FUNCTION: u32 = Op::TypeFunction as u32;
    const POINTER: u32 = Op::TypePointer as u32;
    const CONSTANT: u32 = Op::Constant as u32;
    const TRUE: u32 = Op::ConstantTrue as u32;
    const FALSE: u32 = Op::ConstantFalse as u32;
    const NULL: u32 = Op::ConstantNull as u32;
    const COMPOSITE: u32 = Op::ConstantComposite as u32;
    const VARIABLE: u32 = Op::Variable as u32;
    const UNDEF: u32 = Op::Undef as u32;
    match opcode(instruction) {
        VECTOR | MATRIX | IMAGE | SAMPLED_IMAGE | RUNTIME_ARRAY => (words(2..3), &[]),
        ARRAY => (words(2..4), &[]),
        STRUCT | FUNCTION => (tail(2), &[]),
        POINTER => (words(3..4), &[]),
        CONSTANT | TRUE | FALSE | NULL | UNDEF => (words(1..2), &[]),
        COMPOSITE => (words(1..2), tail(3)),
        VARIABLE => (words(1..2), tail(4)),
        _ => (&[], &[]),
    }
}

/// The result id of a module-level instruction.
fn global_result(instruction: &[Word]) -> Option<Word> {
    const CONSTANT: u32 = Op::Constant as u32;
    const TRUE: u32 = Op::ConstantTrue as u32;
    const FALSE: u32 = Op::ConstantFalse as u32;
    const NULL: u32 = Op::ConstantNull as u32;
    const COMPOSITE: u32 = Op::ConstantComposite as u32;
    const VARIABLE: u32 = Op::Variable as u32;
    const UNDEF: u32 = Op::Undef as u32;
    match opcode(instruction) {
        CONSTANT | TRUE | FALSE | NULL | COMPOSITE | VARIABLE | UNDEF => {
            instruction.get(2).copied()
        }
        _ => instruction.get(1).copied(),
    }
}

/// Appends the module's words to `words`: the header, then each section, less the
/// types, constants and module-level variables nothing refers to, and less the names and
/// decorations of ids no instruction defines any more.
pub(crate) fn assemble(
    builder: &Builder,
    version: Word,
    generator: Word,
    words: &mut impl WordSink,
) {
    // What functions, entry points and execution modes use lives, and with it what it
    // refers to; each global refers only to globals before it.
    let mut live: Vec<bool> = builder.ids.iter().map(|info| info.uses > 0).collect();
    let globals: Vec<&[Word]> = instructions(&builder.globals).collect();
    for instruction in globals.iter().rev() {
        let Some(id) = global_result(instruction) else {
            continue;
        };
        if !live.get(id as usize).copied().unwrap_or(false) {
            continue;
        }
        let (first, second) = global_references(instruction);
        for &reference in first.iter().chain(second) {
            if let Some(flag) = live.get_mut(reference as usize) {
                *flag = true;
            }
        }
    }
    let is_live = |id: Word| live.get(id as usize).copied().unwrap_or(false);
    let defined = |id: Word| {
        builder
            .ids
            .get(id as usize)
            .is_some_and(|info| info.in_function || (info.global.is_some() && is_live(id)))
    };

    let sections = [
        &builder.capabilities,
        &builder.ext_inst_imports,
        &builder.memory_model,
        &builder.entry_points,
        &builder.execution_modes,
        &builder.debug_names,
        &builder.annotations,
        &builder.globals,
        &builder.functions,
    ];
    words.reserve_words(5 + sections.iter().map(|s| s.len()).sum::<usize>());
    words.put(&[
        rspirv::spirv::MAGIC_NUMBER,
        version,
        generator,
        builder.bound(),
        0,
    ]);
    words.put(&builder.capabilities);
    words.put(&builder.ext_inst_imports);
    words.put(&builder.memory_model);
    words.put(&builder.entry_points);
    words.put(&builder.execution_modes);
    // Names and decorations name their target first.
    for section in [&builder.debug_names, &builder.annotations] {
        for instruction in instructions(section) {
            if instruction.get(1).is_some_and(|&target| defined(target)) {
                words.put(instruction);
            }
        }
    }
    for instruction in globals {
        if global_result(instruction).is_some_and(is_live) {
            words.put(instruction);
        }
    }
    words.put(&builder.functions);
}

/// Where [`assemble`] puts the module: a list of words, or the little-endian bytes of
/// the words (what a `.spv` file holds), written straight from the builder's sections
/// so that the module is copied once.
pub(crate) trait WordSink {
    /// Makes room for `count` more words.
    fn reserve_words(&mut self, count: usize);

    /// Appends `words`.
    fn put(&mut self, words: &[Word]);
}

impl WordSink for Vec<Word> {
    fn reserve_words(&mut self, count: usize) {
        self.reserve(count);
    }

    fn put(&mut self, words: &[Word]) {
        self.extend_from_slice(words);
    }
}

impl WordSink for Vec<u8> {
    fn reserve_words(&mut self, count: usize) {
        self.reserve(4 * count);
    }

    fn put(&mut self, words: &[Word]) {
        self.extend(words.iter().flat_map(|word| word.to_le_bytes()));
    }
}
