//! Promotion of Function variables to SSA values, on the words of one finished function.
//!
//! A Function-class variable of a value type (scalar, vector, matrix, struct, sized
//! array) whose every use is an `OpLoad` or `OpStore`, of the whole variable or through
//! an `OpAccessChain` of constant indices, is removed: each whole load becomes the value
//! that reaches it, a load through a chain an `OpCompositeExtract` of it, a store
//! through a chain an `OpCompositeInsert` into it, and whole stores go, with `OpPhi`s
//! where values meet. This is what spirv-opt's local-access-chain conversion and SSA
//! rewriting do for glslang's output. The construction is Braun et al.'s "Simple and Efficient Construction of
//! SSA Form" (CC 2013) over the function's blocks in their layout order: a block is
//! sealed once all its predecessors are filled, reads in unsealed blocks (loop headers
//! before their back edge) make incomplete phis completed at sealing, and phis whose
//! operands are all one value (or the phi itself) are replaced by that value.
//!
//! The blocks, loads, stores and access chains are where the builder recorded them
//! while writing ([`FunctionState`]); a variable (or a chain into it) that the builder
//! counted more uses of than those is used some other way and stays in memory.
//!
//! Everything is iterative: reads walk up single-predecessor chains in a loop and keep
//! the phis being given operands on an explicit stack, so deep nesting uses no Rust
//! stack. Per function the cost is linear in its words plus, per promoted variable, the
//! blocks its reads reach (memoized per block).

use oneshader_ir::arena::emptied;
use oneshader_ir::FastHashMap;
use rspirv::spirv::{Op, Word};

use crate::compact::{instructions, opcode};
use crate::module::{is_access, Builder, FunctionState, MAX_INSTRUCTION_WORDS};

/// "No entry" in the dense per-id tables.
const NONE: u32 = u32::MAX;

/// How many definitions a page of [`Definitions`] holds.
const PAGE: usize = 64;

/// Marks a chain's index in [`Promoter::tracked`].
const CHAIN: u32 = 1 << 31;

/// Marks a block's index in [`Promoter::tracked`].
const BLOCK: u32 = 1 << 30;

/// The bits of an entry of [`Promoter::tracked`] that tell what it is an index of
/// (none for a candidate; both for [`NONE`]).
const KIND: u32 = CHAIN | BLOCK;

/// A Function variable that may be promoted.
#[derive(Clone, Copy, Debug)]
struct Candidate {
    /// The variable's id.
    id: Word,
    /// The type of the value it holds.
    value_type: Word,
    /// Its initializer, if any: the value on entry.
    initializer: Option<Word>,
    /// Whether every use is a load or store, whole or through a constant-index chain.
    promotable: bool,
}

/// An `OpAccessChain` into a candidate whose indices are all constants.
#[derive(Clone, Copy, Debug)]
struct Chain {
    /// The chain's id.
    id: Word,
    /// The candidate.
    variable: u32,
    /// How many loads and stores go through it.
    uses: u32,
    /// Its indices' values, as a range of `chain_indices`.
    start: u32,
    end: u32,
}

/// What a load through a chain into a promoted variable reads (see
/// [`Promoter::inserted_part`]).
enum Part {
    /// The object an `OpCompositeInsert` through the same chain inserted: the load goes.
    Inserted(Word),
    /// Part of this composite: the load becomes an `OpCompositeExtract` of it.
    Within(Word),
}

/// In `rewrites`, in place of an insert's id: a load through a chain that reads what
/// an insert put there, left out (its id is replaced by the object).
const FORWARDED: Word = Word::MAX;

/// How many inserts into other members a load looks past for the one it reads.
const MAX_INSERTS_LOOKED_THROUGH: usize = 16;

/// A block of the function: its label and the word range of its instructions after
/// the label (terminator included).
#[derive(Clone, Copy, Debug)]
struct Block {
    label: Word,
    start: usize,
    end: usize,
}

/// The value of each variable at the end of each block (or so far, in the current
/// one), by `variable * blocks + block`: a table of pages allocated when first written,
/// so that a function with many variables and blocks pays only for the pages its
/// definitions touch.
#[derive(Debug, Default)]
struct Definitions {
    /// Where each page starts in `values`, or [`NONE`] while nothing is written there.
    pages: Vec<u32>,
    /// The written pages' values (0: none yet).
    values: Vec<Word>,
    /// How many blocks the function has: the length of a variable's row.
    blocks: usize,
}

impl Definitions {
    /// Empties the table for `variables` variables and `blocks` blocks.
    fn reset(&mut self, variables: usize, blocks: usize) {
        self.blocks = blocks;
        self.pages.clear();
        self.pages
            .resize(variables.saturating_mul(blocks).div_ceil(PAGE), NONE);
        self.values.clear();
        // Room for about a page per variable and per block, what a function's
        // definitions mostly touch: growing the table later copies every page written.
        // Room not written is never touched.
        self.values
            .reserve(variables.saturating_add(blocks).saturating_mul(PAGE));
    }

    /// The value of `variable` at the end of `block`, if known.
    fn get(&self, variable: u32, block: u32) -> Option<Word> {
        let at = variable as usize * self.blocks + block as usize;
        let page = *self.pages.get(at / PAGE)?;
        if page == NONE {
            return None;
        }
        self.values
            .get(page as usize + at % PAGE)
            .copied()
            .filter(|&value| value != 0)
    }

    /// Records `value` as the value of `variable` at the end of `block`.
    fn set(&mut self, variable: u32, block: u32, value: Word) {
        let at = variable as usize * self.blocks + block as usize;
        let Some(page) = self.pages.get_mut(at / PAGE) else {
            return;
        };
        if *page == NONE {
            *page = self.values.len() as u32;
            // A copy of a zeroed page, cheaper than `resize`'s element-wise fill.
            self.values.extend_from_slice(&[0; PAGE]);
        }
        let start = *page as usize;
        if let Some(slot) = self.values.get_mut(start + at % PAGE) {
            *slot = value;
        }
    }
}

/// Where a phi is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum PhiState {
    /// In an unsealed block: operands come when the block is sealed.
    Incomplete,
    /// Being given its operands (on the read stack).
    Filling,
    /// Has an operand per predecessor.
    Complete,
    /// Replaced by the one value its operands have.
    Removed,
}

/// A phi of a promoted variable at the start of a block.
#[derive(Debug)]
struct Phi {
    /// Its result id.
    id: Word,
    /// The promoted variable (index into the candidates).
    variable: u32,
    /// The block it starts.
    block: u32,
    /// Where its operands start in `phi_operands`: one value per predecessor of the
    /// block, in predecessor order.
    operands: u32,
    /// How many operands it has so far.
    filled: u32,
    /// The first of the phis that have this one as an operand, as an index of
    /// `user_links`, or [`NONE`].
    users: u32,
    /// The next incomplete phi of the same block, or [`NONE`].
    next_incomplete: u32,
    /// Where it is in its life.
    state: PhiState,
}

/// The working state of the pass, kept between functions to reuse its buffers.
#[derive(Debug, Default)]
pub(crate) struct Promoter {
    /// The first id the dense tables cover.
    base: Word,
    /// Per id from `base`: the candidate it is (its index), the constant-index access
    /// chain into a candidate it is (the chain's index with [`CHAIN`] set), the block
    /// it labels (the block's index with [`BLOCK`] set), or [`NONE`].
    tracked: Vec<u32>,
    /// The first id the pass allocates (the bound when it begins the function): the
    /// tables of what the pass makes cover the ids from there on.
    new_base: Word,
    /// Per id from `new_base`: the phi it is, or [`NONE`].
    phi_of: Vec<u32>,
    /// Per id from `base`: the value that replaces it (a load's or a removed phi's), or 0.
    replacement: Vec<Word>,
    /// The function's variables of value types that something reads.
    candidates: Vec<Candidate>,
    /// The constant-index access chains into candidates.
    chains: Vec<Chain>,
    /// How many loads, stores and access chains use each candidate directly.
    counted: Vec<u32>,
    /// The literal indices of the chains.
    chain_indices: Vec<u32>,
    /// For each load and store through a promoted chain, in order: the variable's value
    /// there, and for a store the id of the `OpCompositeInsert` that makes the new one.
    rewrites: Vec<(Word, Word)>,
    /// Each `OpCompositeInsert` the pass makes: the object inserted, the composite it
    /// goes into, and the chain (an index into `chains`) it goes through. A load
    /// through the same chain reads the object itself.
    inserts: Vec<(Word, Word, u32)>,
    /// Per id from `new_base`: the insert it is (an index into `inserts`), or [`NONE`].
    insert_of: Vec<u32>,
    /// A chain's indices, copied.
    scratch: Vec<u32>,
    /// Where the phis' operand values are in the function's new words, kept only when
    /// the pass made inserts: a load forwarded from an insert is replaced while the body
    /// is written, possibly after a loop header's phi that names it. Every other
    /// replacement is made before the write.
    phi_values_at: Vec<usize>,
    /// Where each `OpCompositeInsert` the pass wrote is in the new words, and its id:
    /// one that nothing reads once loads are forwarded goes.
    inserts_at: Vec<(usize, Word)>,
    /// The function's blocks, in layout order.
    blocks: Vec<Block>,
    /// Each block's successors (deduplicated), as ranges of `successors`.
    successor_start: Vec<u32>,
    successors: Vec<u32>,
    /// Each block's predecessors (deduplicated, in layout order), as ranges of
    /// `predecessors`.
    predecessor_start: Vec<u32>,
    predecessors: Vec<u32>,
    /// How many of each block's predecessors are filled.
    filled_predecessors: Vec<u32>,
    /// Whether each block is sealed: all its predecessors are filled.
    sealed: Vec<bool>,
    /// The value of each variable at the end of each block.
    definitions: Definitions,
    /// Every phi made for the function, live or removed.
    phis: Vec<Phi>,
    /// The operands of all phis (each phi has a range, see [`Phi::operands`]).
    phi_operands: Vec<Word>,
    /// Lists of the phis that use a phi, as (user, next link or [`NONE`]).
    user_links: Vec<(u32, u32)>,
    /// The first incomplete phi of each block (a list through
    /// [`Phi::next_incomplete`]), or [`NONE`].
    incomplete: Vec<u32>,
    /// The loads and stores through candidates (or chains into them), as (block, word
    /// offset in the body), in layout order.
    accesses: Vec<(u32, usize)>,
    /// The phis being given operands, with the next predecessor to read from.
    stack: Vec<(u32, u32)>,
    /// Blocks passed on the way up a single-predecessor chain.
    chain: Vec<u32>,
    /// Phis to check for a single operand value, in [`Promoter::remove_if_trivial`].
    worklist: Vec<u32>,
    /// The live phis as (block, phi), for writing.
    placed: Vec<(u32, u32)>,
    /// The rewritten function.
    out: Vec<Word>,
    /// Module-level `OpUndef` per type, the value of a variable without initializer
    /// before its first store.
    undefs: FastHashMap<Word, Word>,
}

/// The most predecessors a block can have for a phi: a phi takes 3 words and 2 a
/// predecessor, and SPIR-V counts an instruction's words in 16 bits.
const MAX_PHI_PAIRS: usize = (MAX_INSTRUCTION_WORDS - 3) / 2;

/// Whether a block has more than [`MAX_PHI_PAIRS`] predecessors, by their counts; out of
/// line, as it is rarely asked.
#[cold]
#[inline(never)]
fn too_many_predecessors(counts: &[u32]) -> bool {
    counts.iter().any(|&count| count as usize > MAX_PHI_PAIRS)
}

/// Whether word `position` of an instruction with opcode `op` is a literal rather than
/// an id, for the instructions the writer puts in functions.
fn is_literal(op: u32, position: usize) -> bool {
    const EXT_INST: u32 = Op::ExtInst as u32;
    const LOAD: u32 = Op::Load as u32;
    const STORE: u32 = Op::Store as u32;
    const VECTOR_SHUFFLE: u32 = Op::VectorShuffle as u32;
    const COMPOSITE_EXTRACT: u32 = Op::CompositeExtract as u32;
    const COMPOSITE_INSERT: u32 = Op::CompositeInsert as u32;
    const SAMPLE_IMPLICIT: u32 = Op::ImageSampleImplicitLod as u32;
    const SAMPLE_EXPLICIT: u32 = Op::ImageSampleExplicitLod as u32;
    const SAMPLE_DREF_IMPLICIT: u32 = Op::ImageSampleDrefImplicitLod as u32;
    const SAMPLE_DREF_EXPLICIT: u32 = Op::ImageSampleDrefExplicitLod as u32;
    const FETCH: u32 = Op::ImageFetch as u32;
    const GATHER: u32 = Op::ImageGather as u32;
    const DREF_GATHER: u32 = Op::ImageDrefGather as u32;
    const READ: u32 = Op::ImageRead as u32;
    const WRITE: u32 = Op::ImageWrite as u32;
    const LOOP_MERGE: u32 = Op::LoopMerge as u32;
    const SELECTION_MERGE: u32 = Op::SelectionMerge as u32;
    const BRANCH_CONDITIONAL: u32 = Op::BranchConditional as u32;
    const SWITCH: u32 = Op::Switch as u32;
    const BALLOT_BIT_COUNT: u32 = Op::GroupNonUniformBallotBitCount as u32;
    const FIRST_ARITHMETIC: u32 = Op::GroupNonUniformIAdd as u32;
    const LAST_ARITHMETIC: u32 = Op::GroupNonUniformLogicalXor as u32;
    match op {
        EXT_INST => position == 4,
        LOAD => position >= 4,
        STORE => position >= 3,
        VECTOR_SHUFFLE | COMPOSITE_INSERT => position >= 5,
        COMPOSITE_EXTRACT => position >= 4,
        SAMPLE_IMPLICIT | SAMPLE_EXPLICIT | FETCH | READ => position == 5,
        SAMPLE_DREF_IMPLICIT | SAMPLE_DREF_EXPLICIT | GATHER | DREF_GATHER => position == 6,
        WRITE => position == 4,
        LOOP_MERGE => position >= 3,
        SELECTION_MERGE => position >= 2,
        BRANCH_CONDITIONAL => position >= 4,
        SWITCH => position >= 3 && position % 2 == 1,
        BALLOT_BIT_COUNT | FIRST_ARITHMETIC..=LAST_ARITHMETIC => position == 4,
        _ => false,
    }
}

/// The labels a terminator branches to.
fn branch_targets(instruction: &[Word]) -> &[Word] {
    const BRANCH: u32 = Op::Branch as u32;
    const BRANCH_CONDITIONAL: u32 = Op::BranchConditional as u32;
    const SWITCH: u32 = Op::Switch as u32;
    match opcode(instruction) {
        BRANCH => instruction.get(1..2),
        BRANCH_CONDITIONAL => instruction.get(2..4),
        // The default, then (literal, label) pairs: every other word from 2.
        SWITCH => instruction.get(2..),
        _ => None,
    }
    .unwrap_or_default()
}

/// The type a pointer type `pointer` points to, when it is a value SSA can hold: a
/// scalar, vector, matrix, struct or sized array.
fn value_pointee(builder: &Builder, pointer: Word) -> Option<Word> {
    let &[_, _, _, pointee] = builder.global_instruction(pointer)? else {
        return None;
    };
    let declaration = builder.global_instruction(pointee)?;
    let op = opcode(declaration);
    [
        Op::TypeBool,
        Op::TypeInt,
        Op::TypeFloat,
        Op::TypeVector,
        Op::TypeMatrix,
        Op::TypeStruct,
        Op::TypeArray,
    ]
    .iter()
    .any(|&kind| kind as u32 == op)
    .then_some(pointee)
}

/// The value of `id` when it is a 32-bit integer `OpConstant`.
fn constant_index(builder: &Builder, id: Word) -> Option<u32> {
    match *builder.global_instruction(id)? {
        [first, _, _, value] if first & 0xffff == Op::Constant as u32 => Some(value),
        _ => None,
    }
}

impl Promoter {
    /// Promotes what it can of `function`'s variables, rewriting its body and variables.
    pub(crate) fn run(&mut self, builder: &mut Builder, function: &mut FunctionState) {
        let Some(first_block) = function.first_block else {
            return;
        };
        if !self.find_candidates(builder, function) {
            return;
        }
        if !self.scan(builder, function, first_block) {
            return;
        }
        if !self.candidates.iter().any(|c| c.promotable) {
            return;
        }
        // The value before the first store of a variable without initializer.
        for candidate in &self.candidates {
            if candidate.promotable && candidate.initializer.is_none() {
                let ty = candidate.value_type;
                self.undefs.entry(ty).or_insert_with(|| builder.undef(ty));
            }
        }
        self.construct(builder, &function.body);
        self.write(builder, function);
    }

    /// The dense-table slot of `id`: an id below `base` wraps to a slot past every
    /// table's end.
    fn slot(&self, id: Word) -> Option<usize> {
        Some(id.wrapping_sub(self.base) as usize)
    }

    /// The slot of `id` in the tables of what the pass makes: an id below `new_base`
    /// wraps to a slot past their end.
    fn new_slot(&self, id: Word) -> usize {
        id.wrapping_sub(self.new_base) as usize
    }

    /// What `id` is in [`Promoter::tracked`].
    fn tracked(&self, id: Word) -> u32 {
        self.tracked
            .get(id.wrapping_sub(self.base) as usize)
            .copied()
            .unwrap_or(NONE)
    }

    /// The candidate `id` is, if any.
    fn candidate_index(&self, id: Word) -> Option<u32> {
        Some(self.tracked(id)).filter(|&t| t & KIND == 0)
    }

    /// The chain `id` is, if any.
    fn chain_index(&self, id: Word) -> Option<u32> {
        Some(self.tracked(id))
            .filter(|&t| t & KIND == CHAIN)
            .map(|t| t & !KIND)
    }

    /// The block `id` labels, if any.
    fn block_index(&self, id: Word) -> Option<u32> {
        Some(self.tracked(id))
            .filter(|&t| t & KIND == BLOCK)
            .map(|t| t & !KIND)
    }

    /// The promoted candidate and the chain `id` is, if it is an access chain into one.
    fn promoted_chain(&self, id: Word) -> Option<(u32, Chain)> {
        let index = self.chain_index(id)?;
        let chain = *self.chains.get(index as usize)?;
        self.candidates
            .get(chain.variable as usize)
            .filter(|c| c.promotable)
            .map(|_| (chain.variable, chain))
    }

    /// The literal indices of `chain`.
    fn indices(&self, chain: Chain) -> &[u32] {
        self.chain_indices
            .get(chain.start as usize..chain.end as usize)
            .unwrap_or_default()
    }

    /// A new id, covered by the tables.
    fn new_id(&mut self, builder: &mut Builder) -> Word {
        let id = builder.id();
        let length = id.saturating_sub(self.base) as usize + 1;
        if self.replacement.len() < length {
            // Grown in steps: the pass makes its ids one at a time.
            let length = length.max(self.replacement.len() + self.replacement.len() / 4);
            self.replacement.resize(length, 0);
        }
        let made = id.saturating_sub(self.new_base) as usize + 1;
        if self.phi_of.len() < made {
            // Grown in steps: the pass makes its ids one at a time.
            let length = made.max(2 * self.phi_of.len()).max(64);
            self.phi_of.resize(length, NONE);
            self.insert_of.resize(length, NONE);
        }
        id
    }

    /// The phi `id` is, if it is one.
    fn phi_index(&self, id: Word) -> Option<u32> {
        self.phi_of
            .get(self.new_slot(id))
            .copied()
            .filter(|&phi| phi != NONE)
    }

    /// The promotable candidate `id` is, if any.
    fn promoted(&self, id: Word) -> Option<u32> {
        let index = self.candidate_index(id)?;
        self.candidates
            .get(index as usize)
            .filter(|c| c.promotable)
            .map(|_| index)
    }

    /// Gathers the variables of value types; false when there are none.
    fn find_candidates(&mut self, builder: &Builder, function: &FunctionState) -> bool {
        self.candidates.clear();
        // Four or five words a variable.
        self.candidates.reserve(function.variables.len() / 4);
        for variable in instructions(&function.variables) {
            let &[_, pointer_type, id, _, ref initializer @ ..] = variable else {
                continue;
            };
            // A variable nothing reads is left to `compact.rs`, which removes it.
            let read = builder.ids.get(id as usize).is_some_and(|info| info.read);
            if !read {
                continue;
            }
            if let Some(value_type) = value_pointee(builder, pointer_type) {
                self.candidates.push(Candidate {
                    id,
                    value_type,
                    initializer: initializer.first().copied(),
                    promotable: true,
                });
            }
        }
        !self.candidates.is_empty()
    }

    /// Finds the blocks and their edges (where the builder recorded their labels and
    /// terminators), the loads and stores through candidates (among the accesses it
    /// recorded), and which candidates only loads and stores use, whole or through
    /// constant-index chains (comparing their count with the uses the builder counted).
    /// False when the function has a shape the pass does not handle.
    fn scan(&mut self, builder: &Builder, function: &FunctionState, first_block: usize) -> bool {
        let body = &function.body;
        let bound = builder.bound();
        // The first block's label is allocated before anything else the function
        // defines, except its parameters; the tables cover the ids from there on.
        let Some(label_at) = first_block.checked_sub(2) else {
            return false;
        };
        let Some(&first_label) = body.get(label_at + 1) else {
            return false;
        };
        // A candidate's index must leave room for the kind in `tracked`.
        if self.candidates.len() >= BLOCK as usize {
            return false;
        }
        self.base = self
            .candidates
            .iter()
            .map(|c| c.id)
            .fold(first_label, Word::min);
        let length = bound.saturating_sub(self.base) as usize;
        self.tracked.clear();
        self.tracked.resize(length, NONE);
        self.new_base = bound;
        self.phi_of.clear();
        self.replacement.clear();
        // With room for the ids the pass makes (phis and inserts): growing the table
        // copies it.
        self.replacement.reserve(length + length / 4);
        self.replacement.resize(length, 0);
        self.insert_of.clear();
        self.chains.clear();
        self.chain_indices.clear();
        for (index, candidate) in self.candidates.iter().enumerate() {
            if let Some(entry) = self
                .slot(candidate.id)
                .and_then(|slot| self.tracked.get_mut(slot))
            {
                *entry = index as u32;
            }
        }

        // The blocks and their branch targets (as labels for now), from where the
        // builder wrote their labels and terminators.
        self.blocks.clear();
        self.successor_start.clear();
        self.successors.clear();
        self.accesses.clear();
        if function.in_block
            || function.labels.len() != function.terminators.len()
            || function.labels.first() != Some(&label_at)
        {
            return false;
        }
        let count = function.labels.len();
        self.blocks.reserve(count);
        self.successor_start.reserve(count + 1);
        // Mostly one or two targets a block.
        self.successors.reserve(2 * count);
        self.accesses.reserve(function.accesses.len());
        for (index, (&label_at, &terminator_at)) in function
            .labels
            .iter()
            .zip(&function.terminators)
            .enumerate()
        {
            let Some(&label) = body.get(label_at + 1) else {
                return false;
            };
            let Some(entry) = self.slot(label).and_then(|slot| self.tracked.get_mut(slot)) else {
                return false;
            };
            // A label is no variable or chain; an index must leave room for the kind.
            if *entry != NONE || index >= BLOCK as usize {
                return false;
            }
            *entry = index as u32 | BLOCK;
            let Some(terminator) = body
                .get(terminator_at)
                .and_then(|&first| body.get(terminator_at..terminator_at + (first >> 16) as usize))
            else {
                return false;
            };
            // The builder closes a block with its terminator and begins none inside
            // another.
            let start = label_at + 2;
            if terminator_at < start || self.blocks.last().is_some_and(|b| b.end > label_at) {
                return false;
            }
            self.blocks.push(Block {
                label,
                start,
                end: terminator_at + terminator.len(),
            });
            self.successor_start.push(self.successors.len() as u32);
            let op = opcode(terminator);
            let step = if op == Op::Switch as u32 { 2 } else { 1 };
            // Pushed one by one: a block has few targets, too few for `extend`'s setup.
            for &target in branch_targets(terminator).iter().step_by(step) {
                self.successors.push(target);
            }
        }
        self.successor_start.push(self.successors.len() as u32);

        // The loads and stores through candidates (or chains into them), and the chains
        // into candidates; counted, to compare with how many uses the builder counted.
        self.counted.clear();
        self.counted.resize(self.candidates.len(), 0);
        let mut block = 0;
        for &at in &function.accesses {
            while self.blocks.get(block).is_some_and(|b| b.end <= at) {
                block += 1;
            }
            let Some(instruction) = body
                .get(at)
                .and_then(|&first| body.get(at..at + (first >> 16) as usize))
            else {
                return false;
            };
            let op = opcode(instruction);
            match *instruction {
                [_, _, id, pointer, ..] if op == Op::Load as u32 => {
                    if !self.count_use(pointer) {
                        continue;
                    }
                    // Its uses are replaced through the tables, which must cover it.
                    if self
                        .replacement
                        .get(id.wrapping_sub(self.base) as usize)
                        .is_none()
                    {
                        return false;
                    }
                    self.accesses.push((block as u32, at));
                }
                [_, pointer, ..] if op == Op::Store as u32 => {
                    if !self.count_use(pointer) {
                        continue;
                    }
                    self.accesses.push((block as u32, at));
                }
                [_, _, id, base, ref indices @ ..]
                    if op == Op::AccessChain as u32 || op == Op::InBoundsAccessChain as u32 =>
                {
                    // A chain into a chain is no use the pass follows.
                    if let Some(variable) = self.candidate_index(base) {
                        if let Some(count) = self.counted.get_mut(variable as usize) {
                            *count += 1;
                        }
                        self.access_chain(builder, id, base, indices);
                    }
                }
                _ => {}
            }
        }
        // Any other use (counted by the builder) of a candidate or a chain into one
        // keeps the candidate in memory.
        for index in 0..self.candidates.len() {
            let Some(candidate) = self.candidates.get_mut(index) else {
                continue;
            };
            let counted = self.counted.get(index).copied().unwrap_or(0);
            if builder
                .ids
                .get(candidate.id as usize)
                .map_or(0, |info| info.uses)
                != counted
            {
                candidate.promotable = false;
            }
        }
        for chain in &self.chains {
            if builder
                .ids
                .get(chain.id as usize)
                .map_or(0, |info| info.uses)
                != chain.uses
            {
                if let Some(candidate) = self.candidates.get_mut(chain.variable as usize) {
                    candidate.promotable = false;
                }
            }
        }

        // The targets as blocks, each once per block.
        let mut predecessor_count = emptied(&mut self.filled_predecessors);
        predecessor_count.resize(self.blocks.len(), 0);
        let mut kept = 0;
        for block in 0..self.blocks.len() {
            let (from, to) = self.successor_range(block as u32);
            let first = kept;
            for position in from..to {
                let Some(successor) = self
                    .successors
                    .get(position)
                    .and_then(|&label| self.block_index(label))
                else {
                    return false;
                };
                // `iter().any()`, not `contains`, for a block's few successors:
                // `contains` stays a call here (gen10k +0.2%).
                #[allow(clippy::manual_contains)]
                let seen = self
                    .successors
                    .get(first..kept)
                    .unwrap_or_default()
                    .iter()
                    .any(|&s| s == successor);
                if seen {
                    continue;
                }
                if let Some(slot) = self.successors.get_mut(kept) {
                    *slot = successor;
                }
                kept += 1;
                if let Some(count) = predecessor_count.get_mut(successor as usize) {
                    *count += 1;
                }
            }
            if let Some(start) = self.successor_start.get_mut(block) {
                *start = first as u32;
            }
        }
        self.successors.truncate(kept);
        if let Some(end) = self.successor_start.last_mut() {
            *end = kept as u32;
        }

        // Predecessors, in layout order.
        self.predecessor_start.clear();
        let mut total = 0;
        for &count in &predecessor_count {
            self.predecessor_start.push(total);
            total += count;
        }
        self.predecessor_start.push(total);
        // A function with a block of too many predecessors for a phi keeps its variables.
        if total as usize > MAX_PHI_PAIRS && too_many_predecessors(&predecessor_count) {
            return false;
        }
        self.predecessors.clear();
        self.predecessors.resize(total as usize, 0);
        // Where the next predecessor of each block goes.
        let mut next = predecessor_count;
        next.clear();
        next.extend_from_slice(&self.predecessor_start);
        for block in 0..self.blocks.len() {
            let (from, to) = self.successor_range(block as u32);
            for position in from..to {
                let Some(&successor) = self.successors.get(position) else {
                    continue;
                };
                if let Some(at) = next.get_mut(successor as usize) {
                    if let Some(slot) = self.predecessors.get_mut(*at as usize) {
                        *slot = block as u32;
                    }
                    *at += 1;
                }
            }
        }
        self.filled_predecessors = next;
        true
    }

    /// Counts a load or store through `pointer` if it is a candidate or a
    /// constant-index access chain into one; false if it is neither.
    fn count_use(&mut self, pointer: Word) -> bool {
        let count = if let Some(candidate) = self.candidate_index(pointer) {
            self.counted.get_mut(candidate as usize)
        } else if let Some(chain) = self.chain_index(pointer) {
            self.chains
                .get_mut(chain as usize)
                .map(|chain| &mut chain.uses)
        } else {
            return false;
        };
        if let Some(count) = count {
            *count += 1;
        }
        true
    }

    /// Records access chain `id` into `base` if `base` is a candidate and the indices
    /// are constants (and disqualifies `base` if they are not); false when `base` is not
    /// a candidate.
    fn access_chain(&mut self, builder: &Builder, id: Word, base: Word, indices: &[Word]) -> bool {
        let Some(variable) = self.candidate_index(base) else {
            return false;
        };
        let start = self.chain_indices.len();
        for &index in indices {
            match constant_index(builder, index) {
                Some(value) => self.chain_indices.push(value),
                None => {
                    self.chain_indices.truncate(start);
                    self.disqualify(base);
                    return true;
                }
            }
        }
        let chain = self.chains.len() as u32;
        let entry = self
            .slot(id)
            .and_then(|slot| self.tracked.get_mut(slot))
            .filter(|_| chain < BLOCK);
        let Some(entry) = entry else {
            // A chain the tables do not cover (or that leaves no room for the kind)
            // cannot be followed to its uses.
            self.chain_indices.truncate(start);
            self.disqualify(base);
            return true;
        };
        *entry = chain | CHAIN;
        self.chains.push(Chain {
            id,
            variable,
            uses: 0,
            start: start as u32,
            end: self.chain_indices.len() as u32,
        });
        true
    }

    /// Marks the candidate `id` is or points into, used other than by a whole load or
    /// store or a load or store through a constant-index access chain, as not
    /// promotable.
    fn disqualify(&mut self, id: Word) {
        let index = if let Some(candidate) = self.candidate_index(id) {
            candidate
        } else if let Some(chain) = self.chain_index(id) {
            match self.chains.get(chain as usize) {
                Some(chain) => chain.variable,
                None => return,
            }
        } else {
            return;
        };
        if let Some(candidate) = self.candidates.get_mut(index as usize) {
            candidate.promotable = false;
        }
    }

    /// Where `block`'s successors are in `successors`.
    fn successor_range(&self, block: u32) -> (usize, usize) {
        let from = self
            .successor_start
            .get(block as usize)
            .copied()
            .unwrap_or(0);
        let to = self
            .successor_start
            .get(block as usize + 1)
            .copied()
            .unwrap_or(from);
        (from as usize, to as usize)
    }

    /// The predecessors of `block`.
    fn predecessors_of(&self, block: u32) -> &[u32] {
        let from = self
            .predecessor_start
            .get(block as usize)
            .copied()
            .unwrap_or(0);
        let to = self
            .predecessor_start
            .get(block as usize + 1)
            .copied()
            .unwrap_or(from);
        self.predecessors
            .get(from as usize..to as usize)
            .unwrap_or_default()
    }

    /// The value of `variable` at the end of `block` (so far), if known.
    fn definition(&self, variable: u32, block: u32) -> Option<Word> {
        self.definitions.get(variable, block)
    }

    /// Records `value` as the value of `variable` at the end of `block` (so far).
    fn define(&mut self, variable: u32, block: u32, value: Word) {
        self.definitions.set(variable, block, value);
    }

    /// The value that replaces `id` in the end (itself if nothing does).
    fn resolve(&mut self, id: Word) -> Word {
        let mut current = id;
        let mut steps = 0;
        while let Some(&next) = self
            .slot(current)
            .and_then(|slot| self.replacement.get(slot))
            .filter(|&&next| next != 0)
        {
            current = next;
            steps += 1;
        }
        // Shorten the path for the next time.
        if steps > 1 {
            if let Some(entry) = self
                .slot(id)
                .and_then(|slot| self.replacement.get_mut(slot))
            {
                *entry = current;
            }
        }
        current
    }

    /// Records that `id` is replaced by `value`.
    fn replace(&mut self, id: Word, value: Word) {
        if let Some(entry) = self
            .slot(id)
            .and_then(|slot| self.replacement.get_mut(slot))
        {
            *entry = value;
        }
    }

    /// The value of `variable` on entry: its initializer, or `OpUndef`.
    fn entry_value(&self, variable: u32) -> Word {
        let Some(candidate) = self.candidates.get(variable as usize) else {
            return 0;
        };
        if let Some(initializer) = candidate.initializer {
            return initializer;
        }
        self.undefs.get(&candidate.value_type).copied().unwrap_or(0)
    }

    /// Builds the SSA form: the value each promoted load reads, and the phis.
    fn construct(&mut self, builder: &mut Builder, body: &[Word]) {
        let count = self.blocks.len();
        self.filled_predecessors.clear();
        self.filled_predecessors.resize(count, 0);
        self.sealed.clear();
        self.sealed.resize(count, false);
        self.definitions.reset(self.candidates.len(), count);
        self.phis.clear();
        self.incomplete.clear();
        self.incomplete.resize(count, NONE);
        self.phi_operands.clear();
        // Room for about a phi of two operands per block, what functions mostly make:
        // growing copies every phi made so far.
        self.phis.reserve(count);
        self.phi_operands.reserve(2 * count);
        self.user_links.clear();
        self.rewrites.clear();
        self.inserts.clear();
        for block in 0..count as u32 {
            if self.predecessors_of(block).is_empty() {
                self.seal(builder, block);
            }
        }
        let mut next_access = 0;
        for block in 0..count as u32 {
            while let Some(&(access_block, at)) = self.accesses.get(next_access) {
                if access_block != block {
                    break;
                }
                next_access += 1;
                let Some(&first) = body.get(at) else {
                    continue;
                };
                let end = (at + (first >> 16) as usize).min(body.len());
                match *body.get(at..end).unwrap_or_default() {
                    [first, _, id, pointer, ..] if first & 0xffff == Op::Load as u32 => {
                        if let Some(variable) = self.promoted(pointer) {
                            let value = self.read(builder, variable, block);
                            self.replace(id, value);
                        } else if let Some((variable, chain)) = self.promoted_chain(pointer) {
                            let value = self.read(builder, variable, block);
                            let mut loaded = emptied(&mut self.scratch);
                            loaded.extend_from_slice(self.indices(chain));
                            let part = self.inserted_part(value, &loaded);
                            self.scratch = loaded;
                            match part {
                                Part::Inserted(object) => {
                                    self.replace(id, object);
                                    self.rewrites.push((value, FORWARDED));
                                }
                                Part::Within(composite) => self.rewrites.push((composite, 0)),
                            }
                        }
                    }
                    [first, pointer, value, ..] if first & 0xffff == Op::Store as u32 => {
                        if let Some(variable) = self.promoted(pointer) {
                            self.define(variable, block, value);
                        } else if let Some((variable, _)) = self.promoted_chain(pointer) {
                            let whole = self.read(builder, variable, block);
                            let inserted = self.new_id(builder);
                            self.rewrites.push((whole, inserted));
                            if let Some(chain) = self.chain_index(pointer) {
                                let index = self.inserts.len() as u32;
                                let slot = self.new_slot(inserted);
                                if let Some(entry) = self.insert_of.get_mut(slot) {
                                    *entry = index;
                                    self.inserts.push((value, whole, chain));
                                }
                            }
                            self.define(variable, block, inserted);
                        }
                    }
                    _ => {}
                }
            }
            let (from, to) = self.successor_range(block);
            for position in from..to {
                let Some(&successor) = self.successors.get(position) else {
                    continue;
                };
                let Some(filled) = self.filled_predecessors.get_mut(successor as usize) else {
                    continue;
                };
                *filled += 1;
                if *filled as usize == self.predecessors_of(successor).len() {
                    self.seal(builder, successor);
                }
            }
        }
    }

    /// What a load through `chain` reads from `value`, a promoted variable's value:
    /// the object an insert through the same chain put there, or else the value (or an
    /// older one, past inserts into other members) to extract it from.
    fn inserted_part(&mut self, value: Word, loaded: &[u32]) -> Part {
        let mut composite = self.resolve(value);
        for _ in 0..MAX_INSERTS_LOOKED_THROUGH {
            let Some(&(object, into, through)) = self
                .insert_of
                .get(self.new_slot(composite))
                .and_then(|&index| self.inserts.get(index as usize))
            else {
                break;
            };
            let Some(&inserted) = self.chains.get(through as usize) else {
                break;
            };
            let stored = self.indices(inserted);
            if loaded == stored {
                return Part::Inserted(self.resolve(object));
            }
            // Past an insert into another member only when neither chain is a prefix of
            // the other: the first index where they differ tells them apart.
            let apart = loaded
                .iter()
                .zip(stored)
                .any(|(load_index, store_index)| load_index != store_index);
            if !apart {
                break;
            }
            composite = self.resolve(into);
        }
        Part::Within(composite)
    }

    /// Seals `block` (all its predecessors are filled): gives its incomplete phis their
    /// operands.
    fn seal(&mut self, builder: &mut Builder, block: u32) {
        if let Some(sealed) = self.sealed.get_mut(block as usize) {
            *sealed = true;
        }
        let Some(first) = self.incomplete.get_mut(block as usize) else {
            return;
        };
        let mut phi = std::mem::replace(first, NONE);
        while let Some(p) = self.phis.get_mut(phi as usize) {
            p.state = PhiState::Filling;
            let (variable, next) = (p.variable, p.next_incomplete);
            self.stack.clear();
            self.stack.push((phi, 0));
            self.fill(builder, variable);
            phi = next;
        }
    }

    /// The value of `variable` that reaches the current point of `block`.
    fn read(&mut self, builder: &mut Builder, variable: u32, block: u32) -> Word {
        self.stack.clear();
        match self.descend(builder, variable, block) {
            Some(value) => value,
            None => self.fill(builder, variable),
        }
    }

    /// Gives the phis on the stack their operands, reading `variable` at the end of each
    /// predecessor, and returns the value of the bottom one (itself, or what replaced
    /// it).
    fn fill(&mut self, builder: &mut Builder, variable: u32) -> Word {
        let mut value = None;
        loop {
            if let Some(operand) = value.take() {
                let Some(&mut (phi, ref mut next)) = self.stack.last_mut() else {
                    return operand;
                };
                *next += 1;
                self.add_operand(phi, operand);
            }
            let Some(&(phi, next)) = self.stack.last() else {
                return 0;
            };
            let block = self.phis.get(phi as usize).map_or(0, |p| p.block);
            match self.predecessors_of(block).get(next as usize) {
                Some(&predecessor) => value = self.descend(builder, variable, predecessor),
                None => {
                    self.stack.pop();
                    if let Some(p) = self.phis.get_mut(phi as usize) {
                        p.state = PhiState::Complete;
                    }
                    value = Some(self.remove_if_trivial(phi));
                }
            }
        }
    }

    /// Appends `operand` to `phi`'s, noting `phi` as a user if it is a phi.
    fn add_operand(&mut self, phi: u32, operand: Word) {
        let operand = self.resolve(operand);
        if let Some(used) = self.phi_index(operand) {
            self.add_user(used, phi);
        }
        if let Some(p) = self.phis.get_mut(phi as usize) {
            let at = (p.operands + p.filled) as usize;
            p.filled += 1;
            if let Some(slot) = self.phi_operands.get_mut(at) {
                *slot = operand;
            }
        }
    }

    /// Notes that phi `user` has phi `used` as an operand.
    fn add_user(&mut self, used: u32, user: u32) {
        let link = self.user_links.len() as u32;
        if let Some(p) = self.phis.get_mut(used as usize) {
            let next = std::mem::replace(&mut p.users, link);
            self.user_links.push((user, next));
        }
    }

    /// A new phi of `variable` at the start of `block`.
    fn new_phi(
        &mut self,
        builder: &mut Builder,
        variable: u32,
        block: u32,
        state: PhiState,
    ) -> u32 {
        let id = self.new_id(builder);
        let index = self.phis.len() as u32;
        let slot = self.new_slot(id);
        if let Some(entry) = self.phi_of.get_mut(slot) {
            *entry = index;
        }
        let operands = self.phi_operands.len();
        let count = self.predecessors_of(block).len();
        self.phi_operands.resize(operands + count, 0);
        self.phis.push(Phi {
            id,
            variable,
            block,
            operands: operands as u32,
            filled: 0,
            users: NONE,
            next_incomplete: NONE,
            state,
        });
        self.define(variable, block, id);
        index
    }

    /// The value of `variable` at the end of `block` (filled, or the current one) when
    /// it is known without new phis operands: from a store, the entry value, or a new
    /// phi of an unsealed block. Otherwise pushes a new phi to give operands to on the
    /// stack and returns `None`.
    fn descend(&mut self, builder: &mut Builder, variable: u32, block: u32) -> Option<Word> {
        self.chain.clear();
        let mut block = block;
        let value = loop {
            if let Some(value) = self.definition(variable, block) {
                break value;
            }
            if !self.sealed.get(block as usize).copied().unwrap_or(true) {
                let phi = self.new_phi(builder, variable, block, PhiState::Incomplete);
                if let Some(first) = self.incomplete.get_mut(block as usize) {
                    let next = std::mem::replace(first, phi);
                    if let Some(p) = self.phis.get_mut(phi as usize) {
                        p.next_incomplete = next;
                    }
                }
                break self.phis.get(phi as usize).map_or(0, |p| p.id);
            }
            match *self.predecessors_of(block) {
                [] => {
                    let value = self.entry_value(variable);
                    self.define(variable, block, value);
                    break value;
                }
                // A cycle of single predecessors can only be unreachable.
                [predecessor] if self.chain.len() <= self.blocks.len() => {
                    self.chain.push(block);
                    block = predecessor;
                }
                [_] => break self.entry_value(variable),
                _ => {
                    let phi = self.new_phi(builder, variable, block, PhiState::Filling);
                    self.stack.push((phi, 0));
                    let id = self.phis.get(phi as usize).map_or(0, |p| p.id);
                    for index in 0..self.chain.len() {
                        if let Some(&passed) = self.chain.get(index) {
                            self.define(variable, passed, id);
                        }
                    }
                    return None;
                }
            }
        };
        for index in 0..self.chain.len() {
            if let Some(&passed) = self.chain.get(index) {
                self.define(variable, passed, value);
            }
        }
        Some(value)
    }

    /// Replaces complete `phi` by its one operand value if it has one, and so on for the
    /// phis that used it; returns what `phi` is now.
    fn remove_if_trivial(&mut self, phi: u32) -> Word {
        self.worklist.clear();
        self.worklist.push(phi);
        while let Some(candidate) = self.worklist.pop() {
            let Some(p) = self.phis.get(candidate as usize) else {
                continue;
            };
            if p.state != PhiState::Complete {
                continue;
            }
            let (id, variable) = (p.id, p.variable);
            let (start, end) = (p.operands as usize, (p.operands + p.filled) as usize);
            let mut same = None;
            let mut trivial = true;
            for at in start..end {
                let Some(&operand) = self.phi_operands.get(at) else {
                    break;
                };
                let operand = self.resolve(operand);
                if operand == id || same == Some(operand) {
                    continue;
                }
                if same.is_some() {
                    trivial = false;
                    break;
                }
                same = Some(operand);
            }
            if !trivial {
                continue;
            }
            // Only itself: unreachable from the entry.
            let value = match same {
                Some(value) => value,
                None => self.entry_value(variable),
            };
            self.replace(id, value);
            let mut link = match self.phis.get_mut(candidate as usize) {
                Some(p) => {
                    p.state = PhiState::Removed;
                    std::mem::replace(&mut p.users, NONE)
                }
                None => continue,
            };
            // Its users now use `value`: if that is a phi, they are its users.
            let target = self.phi_index(value);
            while let Some(&(user, next)) = self.user_links.get(link as usize) {
                self.worklist.push(user);
                if let Some(target) = target {
                    self.add_user(target, user);
                }
                link = next;
            }
        }
        let id = self.phis.get(phi as usize).map_or(0, |p| p.id);
        self.resolve(id)
    }

    /// Writes the function again without the promoted variables, their loads and
    /// stores, with the phis, and with every replaced id replaced; keeps the builder's
    /// counts of uses right.
    fn write(&mut self, builder: &mut Builder, function: &mut FunctionState) {
        // The variables.
        let mut kept = 0;
        let mut at = 0;
        while let Some(&first) = function.variables.get(at) {
            let count = ((first >> 16) as usize).max(1);
            let end = (at + count).min(function.variables.len());
            let id = function.variables.get(at + 2).copied().unwrap_or(0);
            if self.promoted(id).is_some() {
                if let Some(info) = builder.ids.get_mut(id as usize) {
                    info.removed = true;
                    info.in_function = false;
                }
                let pointer_type = function.variables.get(at + 1).copied().unwrap_or(0);
                builder.unuse_id(pointer_type);
                if count > 4 {
                    let initializer = function.variables.get(at + 4).copied().unwrap_or(0);
                    builder.unuse_id(initializer);
                }
            } else {
                function.variables.copy_within(at..end, kept);
                kept += end - at;
            }
            at = end;
        }
        function.variables.truncate(kept);

        // The live phis by block.
        self.placed.clear();
        self.placed.reserve(self.phis.len());
        for (index, phi) in self.phis.iter().enumerate() {
            if phi.state == PhiState::Complete {
                self.placed.push((phi.block, index as u32));
            }
        }
        self.placed.sort_unstable();

        // Unchanged instructions are copied in runs: `run` is where the words not yet
        // copied start.
        let body = &function.body;
        // Where the loads, stores and chains kept are in the new words, for `compact.rs`.
        let accesses = &mut function.accesses;
        accesses.clear();
        let mut out = emptied(&mut self.out);
        out.reserve(body.len());
        let mut run = 0;
        let mut new_first_block = None;
        let mut placed = 0;
        let mut rewrites = 0;
        self.phi_values_at.clear();
        self.inserts_at.clear();
        for block in 0..self.blocks.len() {
            let Some(&Block { start, end, .. }) = self.blocks.get(block) else {
                continue;
            };
            if self
                .placed
                .get(placed)
                .is_some_and(|&(phi_block, _)| phi_block as usize == block)
            {
                // The label, then the phis.
                out.extend_from_slice(body.get(run..start).unwrap_or_default());
                run = start;
            }
            new_first_block.get_or_insert(out.len() + start.saturating_sub(run));
            while let Some(&(phi_block, phi)) = self.placed.get(placed) {
                if phi_block as usize != block {
                    break;
                }
                placed += 1;
                self.write_phi(builder, &mut out, phi);
            }
            let words = body.get(start..end).unwrap_or_default();
            let mut offset = 0;
            while let Some(&first) = words.get(offset) {
                let Some(instruction) = words.get(offset..offset + ((first >> 16) as usize).max(1))
                else {
                    break;
                };
                let at = start + offset;
                let next = at + instruction.len();
                offset += instruction.len();
                let op = opcode(instruction);
                if is_access(op) {
                    if self.is_tracked_access(instruction) {
                        let pending = body.get(run..at).unwrap_or_default();
                        if self.rewrite_access(
                            builder,
                            &mut out,
                            pending,
                            instruction,
                            &mut rewrites,
                        ) {
                            run = next;
                            continue;
                        }
                    }
                    accesses.push(out.len() + (at - run));
                }
                // Only an insert this pass made can be read back.
                if op == Op::CompositeExtract as u32 && !self.inserts.is_empty() {
                    if let [_, ty, id, composite, ref indices @ ..] = *instruction {
                        let covered = self.slot(id).is_some_and(|s| s < self.replacement.len());
                        if let Part::Inserted(object) = self.inserted_part(composite, indices) {
                            if covered {
                                // Reading back what an insert put there: the object.
                                out.extend_from_slice(body.get(run..at).unwrap_or_default());
                                run = next;
                                builder.unuse_id(ty);
                                builder.unuse_id(composite);
                                self.replace(id, object);
                                continue;
                            }
                        }
                    }
                }
                // Most instructions have no replaced operand: look before copying.
                let (replacement, base) = (&self.replacement, self.base);
                let operands = instruction.get(1..).unwrap_or_default();
                if !operands.iter().any(|&word| {
                    replacement
                        .get(word.wrapping_sub(base) as usize)
                        .is_some_and(|&r| r != 0)
                }) {
                    continue;
                }
                let mut copied = None;
                for (position, &word) in instruction.iter().enumerate().skip(1) {
                    let replaced = self
                        .replacement
                        .get(word.wrapping_sub(self.base) as usize)
                        .is_some_and(|&r| r != 0);
                    if !replaced || is_literal(op, position) {
                        continue;
                    }
                    // Copy up to the end of this instruction, then change the word.
                    let copied_at = *copied.get_or_insert_with(|| {
                        out.extend_from_slice(body.get(run..next).unwrap_or_default());
                        run = next;
                        out.len() - instruction.len()
                    });
                    let value = self.resolve(word);
                    builder.unuse_id(word);
                    builder.read_id(value);
                    if let Some(slot) = out.get_mut(copied_at + position) {
                        *slot = value;
                    }
                }
            }
        }
        out.extend_from_slice(body.get(run..).unwrap_or_default());
        for index in 0..self.phi_values_at.len() {
            let Some(&at) = self.phi_values_at.get(index) else {
                continue;
            };
            let Some(&written) = out.get(at) else {
                continue;
            };
            let value = self.resolve(written);
            if value != written {
                builder.unuse_id(written);
                builder.read_id(value);
                if let Some(slot) = out.get_mut(at) {
                    *slot = value;
                }
            }
        }
        self.remove_unread_inserts(builder, &mut out, &mut function.accesses);
        function.first_block = new_first_block;
        std::mem::swap(&mut function.body, &mut out);
        self.out = out;
    }

    /// Removes the inserts this pass wrote that nothing reads (the loads they fed were
    /// forwarded), latest first, so that an insert only a removed one read goes too;
    /// moves the positions in `accesses` (sorted) with the words after them.
    fn remove_unread_inserts(
        &mut self,
        builder: &mut Builder,
        out: &mut Vec<Word>,
        accesses: &mut [usize],
    ) {
        let mut removed = Vec::new();
        for &(at, inserted) in self.inserts_at.iter().rev() {
            let unread = builder
                .ids
                .get(inserted as usize)
                .is_some_and(|info| info.uses == 0);
            let Some(instruction) = out
                .get(at)
                .and_then(|&first| out.get(at..at + (first >> 16) as usize))
            else {
                continue;
            };
            if !unread {
                continue;
            }
            // Type, object and composite; the rest are literal indices.
            for &operand in instruction
                .iter()
                .skip(1)
                .take(4)
                .filter(|&&w| w != inserted)
            {
                builder.unuse_id(operand);
            }
            if let Some(info) = builder.ids.get_mut(inserted as usize) {
                info.removed = true;
                info.in_function = false;
            }
            removed.push((at, instruction.len()));
        }
        if removed.is_empty() {
            return;
        }
        removed.sort_unstable();
        let mut removed_before = removed.iter().peekable();
        let mut shift = 0;
        for access in accesses.iter_mut() {
            while let Some(&&(at, length)) = removed_before.peek() {
                if at > *access {
                    break;
                }
                shift += length;
                removed_before.next();
            }
            *access -= shift;
        }
        let mut kept = 0;
        let mut from = 0;
        for (at, length) in removed {
            out.copy_within(from..at, kept);
            kept += at - from;
            from = at + length;
        }
        let end = out.len();
        out.copy_within(from..end, kept);
        kept += end - from;
        out.truncate(kept);
    }

    /// Whether `instruction` (a load, store or access chain) goes through a candidate or
    /// a chain into one, or is such a chain: a quick look, before
    /// [`Promoter::rewrite_access`], that passes by the accesses of other memory.
    fn is_tracked_access(&self, instruction: &[Word]) -> bool {
        let op = opcode(instruction);
        let pointer = match *instruction {
            [_, _, _, pointer, ..] if op == Op::Load as u32 => pointer,
            [_, pointer, ..] if op == Op::Store as u32 => pointer,
            [_, _, id, ..] => id,
            _ => return false,
        };
        self.tracked(pointer) & BLOCK == 0
    }

    /// Leaves out a whole load or store of a promoted variable and an access chain into
    /// one, and writes a load or store through such a chain as an `OpCompositeExtract`
    /// or `OpCompositeInsert` of the variable's value (the next of the rewrites), after
    /// appending `pending` (the unchanged words before it); false, with nothing
    /// appended, for any other instruction.
    fn rewrite_access(
        &mut self,
        builder: &mut Builder,
        out: &mut Vec<Word>,
        pending: &[Word],
        instruction: &[Word],
        rewrites: &mut usize,
    ) -> bool {
        let op = opcode(instruction);
        match *instruction {
            [_, ty, _, pointer, ..]
                if op == Op::Load as u32 && self.promoted(pointer).is_some() =>
            {
                out.extend_from_slice(pending);
                builder.unuse_id(ty);
                builder.unuse_id(pointer);
                return true;
            }
            [_, pointer, value, ..]
                if op == Op::Store as u32 && self.promoted(pointer).is_some() =>
            {
                out.extend_from_slice(pending);
                builder.unuse_id(pointer);
                builder.unuse_id(value);
                return true;
            }
            _ => {}
        }
        if op == Op::AccessChain as u32 || op == Op::InBoundsAccessChain as u32 {
            let [_, ty, id, ref operands @ ..] = *instruction else {
                return false;
            };
            if self.promoted_chain(id).is_none() {
                return false;
            }
            out.extend_from_slice(pending);
            builder.unuse_id(ty);
            for &operand in operands {
                builder.unuse_id(operand);
            }
            return true;
        }
        let (pointer, load, stored) = match *instruction {
            [_, _, _, pointer, ..] if op == Op::Load as u32 => (pointer, true, 0),
            [_, pointer, value, ..] if op == Op::Store as u32 => (pointer, false, value),
            _ => return false,
        };
        let Some((variable, chain)) = self.promoted_chain(pointer) else {
            return false;
        };
        let Some(&(whole, inserted)) = self.rewrites.get(*rewrites) else {
            return false;
        };
        *rewrites += 1;
        out.extend_from_slice(pending);
        if load && inserted == FORWARDED {
            if let [_, ty, ..] = *instruction {
                builder.unuse_id(ty);
            }
            builder.unuse_id(pointer);
            return true;
        }
        builder.unuse_id(pointer);
        let whole = self.resolve(whole);
        builder.read_id(whole);
        let count = self.indices(chain).len() as Word;
        if let [_, ty, id, ..] = *instruction {
            if load {
                out.extend([
                    ((4 + count) << 16) | Op::CompositeExtract as u32,
                    ty,
                    id,
                    whole,
                ]);
                out.extend_from_slice(self.indices(chain));
                return true;
            }
        }
        let resolved = self.resolve(stored);
        if resolved != stored {
            builder.unuse_id(stored);
            builder.read_id(resolved);
        }
        let ty = self
            .candidates
            .get(variable as usize)
            .map_or(0, |c| c.value_type);
        builder.read_id(ty);
        if let Some(info) = builder.ids.get_mut(inserted as usize) {
            info.in_function = true;
        }
        self.inserts_at.push((out.len(), inserted));
        out.extend([
            ((5 + count) << 16) | Op::CompositeInsert as u32,
            ty,
            inserted,
            resolved,
            whole,
        ]);
        out.extend_from_slice(self.indices(chain));
        true
    }

    /// Appends `OpPhi` number `phi`, its operands paired with the predecessors' labels.
    fn write_phi(&mut self, builder: &mut Builder, out: &mut Vec<Word>, phi: u32) {
        let Some(p) = self.phis.get(phi as usize) else {
            return;
        };
        let (id, block, variable, operands) = (p.id, p.block, p.variable, p.operands as usize);
        let ty = self
            .candidates
            .get(variable as usize)
            .map_or(0, |c| c.value_type);
        let from = self
            .predecessor_start
            .get(block as usize)
            .copied()
            .unwrap_or(0) as usize;
        let count = self.predecessors_of(block).len();
        out.reserve(3 + 2 * count);
        // Pushed word by word into the reserved room, cheaper than `extend`'s setup.
        out.push(((3 + 2 * count as Word) << 16) | Op::Phi as u32);
        out.push(ty);
        out.push(id);
        builder.read_id(ty);
        if let Some(info) = builder.ids.get_mut(id as usize) {
            info.in_function = true;
        }
        // Only a load forwarded from an insert is replaced after this (see `write`).
        let track = !self.inserts.is_empty();
        for index in 0..count {
            let operand = self
                .phi_operands
                .get(operands + index)
                .copied()
                .unwrap_or(0);
            let value = self.resolve(operand);
            let label = self
                .predecessors
                .get(from + index)
                .and_then(|&predecessor| self.blocks.get(predecessor as usize))
                .map_or(0, |b| b.label);
            if track {
                self.phi_values_at.push(out.len());
            }
            out.push(value);
            out.push(label);
            builder.read_id(value);
            builder.read_id(label);
        }
    }
}
