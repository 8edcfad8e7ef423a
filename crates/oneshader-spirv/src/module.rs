//! The module under construction, kept as SPIR-V words section by section.
//!
//! [`Builder`] has the shape of rspirv's `dr::Builder` where the writer uses it (ids,
//! types deduplicated as rspirv does, functions built block by block), but it appends
//! each instruction's words to its section straight away instead of building an
//! `Instruction` with a vector of operands. While it writes, it counts what the
//! functions, entry points and execution modes refer to, which ids functions define and
//! which they read, so the clean-ups of `compact.rs` need no second look at the
//! instructions' operands.

use oneshader_ir::FastHashMap;
use rspirv::spirv::{
    self, AddressingModel, BuiltIn, Capability, Decoration, Dim, ExecutionMode, ExecutionModel,
    FunctionControl, GroupOperation, ImageFormat, ImageOperands, LoopControl, MemoryAccess,
    MemoryModel, Op, SelectionControl, StorageClass, Word,
};

/// The generator word of the header: rspirv's, as the output always had.
const GENERATOR: Word = 0x000f_0000;

/// An operand of an instruction written in a function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Operand {
    /// The id of a value, type, label or variable.
    IdRef(Word),
    /// The id of a `Scope` constant.
    IdScope(Word),
    /// The id of a memory semantics constant.
    IdMemorySemantics(Word),
    /// A 32-bit literal.
    LiteralBit32(u32),
    /// Image operands.
    ImageOperands(ImageOperands),
    /// A group operation.
    GroupOperation(GroupOperation),
    /// A built-in.
    BuiltIn(BuiltIn),
}

impl Operand {
    /// The operand's word, and whether it is an id.
    fn word(self) -> (Word, bool) {
        match self {
            Operand::IdRef(id) | Operand::IdScope(id) | Operand::IdMemorySemantics(id) => {
                (id, true)
            }
            Operand::LiteralBit32(value) => (value, false),
            Operand::ImageOperands(operands) => (operands.bits(), false),
            Operand::GroupOperation(operation) => (operation as u32, false),
            Operand::BuiltIn(built_in) => (built_in as u32, false),
        }
    }
}

/// A misuse of the builder: an instruction outside a block or function, a block
/// inside a block, and the like.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BuildError {
    /// A function begun inside another.
    NestedFunction,
    /// A function ended outside any.
    MismatchedFunctionEnd,
    /// A parameter outside a function.
    DetachedFunctionParameter,
    /// A block begun outside a function.
    DetachedBlock,
    /// A block begun inside another.
    NestedBlock,
    /// An instruction outside any block.
    DetachedInstruction,
    /// A terminator outside any block.
    MismatchedTerminator,
    /// An instruction of more words than its word count can say.
    TooManyWords {
        /// The instruction's opcode.
        op: Op,
        /// The words it would take.
        words: usize,
    },
}

/// The most words one instruction can take: its word count is the high 16 bits of its
/// first word.
pub(crate) const MAX_INSTRUCTION_WORDS: usize = 0xFFFF;

/// The most (literal, label) pairs of an `OpSwitch` that SPIR-V's universal limits have
/// every consumer take (spirv-val checks them). A switch within it (32-bit literals)
/// takes at most 32,769 words, so it never meets [`MAX_INSTRUCTION_WORDS`].
pub(crate) const MAX_SWITCH_CASES: usize = 16_383;

/// The most members of an `OpTypeStruct` that SPIR-V's universal limits have every
/// consumer take (spirv-val checks them).
pub(crate) const MAX_STRUCT_MEMBERS: usize = 16_383;

/// The deepest nesting of structs in structs that SPIR-V's universal limits have every
/// consumer take: a struct without struct members is 1 deep, and an array between two
/// structs adds nothing (as spirv-val counts). The HLSL front end stops deeper nesting
/// (OSH0201), so only a hand-built IR module gets this error.
pub(crate) const MAX_STRUCT_DEPTH: u32 = 255;

/// The longest literal string (in bytes, without its nul) that SPIR-V's universal
/// limits have every consumer take.
pub(crate) const MAX_STRING_BYTES: usize = 65_535;

/// The most module-level variables (of storage classes other than Function) that
/// SPIR-V's universal limits have every consumer take (spirv-val checks them).
pub(crate) const MAX_GLOBAL_VARIABLES: usize = 65_535;

/// The most parameters of a function that SPIR-V's universal limits have every consumer
/// take (spirv-val checks them).
pub(crate) const MAX_FUNCTION_PARAMETERS: usize = 255;

/// Whether opcode `op` reads or writes memory through a pointer: a load, a store or an
/// access chain. The builder records where each is; the SSA pass rewrites them.
pub(crate) fn is_access(op: u32) -> bool {
    const LOAD: u32 = Op::Load as u32;
    const STORE: u32 = Op::Store as u32;
    const ACCESS_CHAIN: u32 = Op::AccessChain as u32;
    const IN_BOUNDS_ACCESS_CHAIN: u32 = Op::InBoundsAccessChain as u32;
    matches!(op, LOAD | STORE | ACCESS_CHAIN | IN_BOUNDS_ACCESS_CHAIN)
}

/// The result of a builder method that may be misused.
pub(crate) type BuildResult<T> = std::result::Result<T, BuildError>;

/// What the builder knows of one id.
#[derive(Clone, Copy, Debug)]
pub(crate) struct IdInfo {
    /// How many times functions, entry points and execution modes refer to the id
    /// (as an operand or a result type).
    pub uses: u32,
    /// Where the id's instruction starts in the types and globals section, if it has one.
    pub global: Option<u32>,
    /// Whether an instruction of a function defines the id.
    pub in_function: bool,
    /// Whether an instruction of a function reads the id: any id operand except the
    /// pointer of `OpStore`.
    pub read: bool,
    /// Whether the id is a Function variable that was removed as write-only.
    pub removed: bool,
}

impl IdInfo {
    /// An id nothing defines or uses yet.
    const NEW: IdInfo = IdInfo {
        uses: 0,
        global: None,
        in_function: false,
        read: false,
        removed: false,
    };
}

/// A deduplicated type: its opcode and operand words (unused ones zero). Function types,
/// whose operands have no fixed count, have a map of their own.
type TypeKey = (u32, [Word; 7]);

/// The function under construction.
#[derive(Debug, Default)]
pub(crate) struct FunctionState {
    /// Its `OpFunction`, parameters and blocks so far.
    pub body: Vec<Word>,
    /// Where the first block's instructions start in `body` (after its label), once begun.
    pub first_block: Option<usize>,
    /// Its `OpVariable`s, put at the start of the first block when the function ends.
    pub variables: Vec<Word>,
    /// Whether a block is open (begun and not yet terminated).
    pub in_block: bool,
    /// Where each block's `OpLabel` is in `body`, in order.
    pub labels: Vec<usize>,
    /// Where each block's terminator is in `body`, in order.
    pub terminators: Vec<usize>,
    /// Where each `OpLoad`, `OpStore`, `OpAccessChain` and `OpInBoundsAccessChain` is in
    /// `body`, in order: the instructions the SSA pass (`ssa.rs`) rewrites. When it
    /// rewrites the body it records where the ones it keeps are, so that `compact.rs`
    /// finds the stores to variables it removes here.
    pub accesses: Vec<usize>,
}

/// A SPIR-V module under construction, as words per section of the module layout.
#[derive(Debug, Default)]
pub(crate) struct Builder {
    /// The version word of the header.
    version: Word,
    /// What is known of each id, by id (id 0 is never handed out).
    pub(crate) ids: Vec<IdInfo>,
    /// `OpCapability` instructions.
    pub(crate) capabilities: Vec<Word>,
    /// `OpExtInstImport` instructions.
    pub(crate) ext_inst_imports: Vec<Word>,
    /// The `OpMemoryModel` instruction.
    pub(crate) memory_model: Vec<Word>,
    /// `OpEntryPoint` instructions.
    pub(crate) entry_points: Vec<Word>,
    /// `OpExecutionMode` instructions.
    pub(crate) execution_modes: Vec<Word>,
    /// `OpName` instructions.
    pub(crate) debug_names: Vec<Word>,
    /// `OpDecorate` and `OpMemberDecorate` instructions.
    pub(crate) annotations: Vec<Word>,
    /// Types, constants and module-level variables, in declaration order.
    pub(crate) globals: Vec<Word>,
    /// The finished functions.
    pub(crate) functions: Vec<Word>,
    /// Types declared without an explicit id, for deduplication.
    types: FastHashMap<TypeKey, Word>,
    /// Function types, by return and parameter types.
    function_types: FastHashMap<Vec<Word>, Word>,
    /// The function under construction, if any.
    function: Option<FunctionState>,
    /// The buffers of the last finished function, reused by the next.
    spare: FunctionState,
    /// The promotion of variables to SSA values, with buffers reused between functions.
    promoter: crate::ssa::Promoter,
    /// The opcode of the first instruction written with more than
    /// [`MAX_INSTRUCTION_WORDS`] words by a method that cannot fail (a module-level one):
    /// the module is wrong and must not be assembled.
    pub(crate) too_long: Option<Op>,
}

/// The first word of an instruction of `count` words.
fn opcode_word(op: Op, count: usize) -> Word {
    ((count as Word) << 16) | op as Word
}

/// Appends `text` as a nul-terminated literal string.
fn push_string(words: &mut Vec<Word>, text: &str) {
    let chunks = text.as_bytes().chunks_exact(4);
    let remainder = chunks.remainder();
    let mut last = [0; 4];
    for (slot, &byte) in last.iter_mut().zip(remainder) {
        *slot = byte;
    }
    words.extend(chunks.map(|chunk| {
        let mut bytes = [0; 4];
        bytes.copy_from_slice(chunk);
        u32::from_le_bytes(bytes)
    }));
    words.push(u32::from_le_bytes(last));
}

/// The words a literal string of `text` takes.
fn string_words(text: &str) -> usize {
    text.len() / 4 + 1
}

impl Builder {
    /// An empty module of SPIR-V 1.0, with room for a small module's globals and types.
    pub fn new() -> Self {
        let mut builder = Builder {
            globals: Vec::with_capacity(256),
            types: FastHashMap::with_capacity_and_hasher(32, Default::default()),
            ..Builder::default()
        };
        builder.reset();
        builder
    }

    /// Empties the module for the next one, keeping the buffers: the empty module of
    /// SPIR-V 1.0 that [`Builder::new`] gives, without allocating.
    pub fn reset(&mut self) {
        self.version = 0x0001_0000;
        self.ids.clear();
        self.ids.push(IdInfo::NEW);
        for section in [
            &mut self.capabilities,
            &mut self.ext_inst_imports,
            &mut self.memory_model,
            &mut self.entry_points,
            &mut self.execution_modes,
            &mut self.debug_names,
            &mut self.annotations,
            &mut self.globals,
            &mut self.functions,
        ] {
            section.clear();
        }
        self.types.clear();
        self.function_types.clear();
        self.function = None;
        self.too_long = None;
    }

    /// Makes room for the ids and function words of about `expressions` IR expressions
    /// (most become one instruction with a result; a few words each).
    pub fn reserve(&mut self, expressions: usize) {
        self.ids.reserve(expressions + expressions / 2);
        self.functions.reserve(4 * expressions);
    }

    /// Sets the SPIR-V version of the header.
    pub fn set_version(&mut self, major: u8, minor: u8) {
        self.version = (u32::from(major) << 16) | (u32::from(minor) << 8);
    }

    /// A new id.
    pub fn id(&mut self) -> Word {
        let id = self.ids.len() as Word;
        self.ids.push(IdInfo::NEW);
        id
    }

    /// The bound of the header: every id is below it.
    pub fn bound(&self) -> Word {
        self.ids.len() as Word
    }

    /// Counts a reference from a function, entry point or execution mode to `id`.
    fn use_id(&mut self, id: Word) {
        if let Some(info) = self.ids.get_mut(id as usize) {
            info.uses += 1;
        }
    }

    /// Counts a read of `id` by an instruction of a function.
    pub(crate) fn read_id(&mut self, id: Word) {
        if let Some(info) = self.ids.get_mut(id as usize) {
            info.uses += 1;
            info.read = true;
        }
    }

    /// Forgets one use of `id`, by an instruction that is removed.
    pub(crate) fn unuse_id(&mut self, id: Word) {
        if let Some(info) = self.ids.get_mut(id as usize) {
            info.uses = info.uses.saturating_sub(1);
        }
    }

    /// Records `id` as defined by an instruction of a function.
    fn define_in_function(&mut self, id: Word) {
        if let Some(info) = self.ids.get_mut(id as usize) {
            info.in_function = true;
        }
    }

    /// The words of the module-level instruction that defines `id`, if any.
    pub fn global_instruction(&self, id: Word) -> Option<&[Word]> {
        let start = self.ids.get(id as usize)?.global? as usize;
        let count = (*self.globals.get(start)? >> 16) as usize;
        self.globals.get(start..start + count)
    }

    // Module-level instructions.

    /// Appends an `OpCapability`.
    pub fn capability(&mut self, capability: Capability) {
        self.capabilities
            .extend([opcode_word(Op::Capability, 2), capability as Word]);
    }

    /// Appends an `OpExtInstImport` of `name`; returns its id.
    pub fn ext_inst_import(&mut self, name: &str) -> Word {
        let id = self.id();
        let words = &mut self.ext_inst_imports;
        words.extend([opcode_word(Op::ExtInstImport, 2 + string_words(name)), id]);
        push_string(words, name);
        id
    }

    /// Sets the `OpMemoryModel`.
    pub fn memory_model(&mut self, addressing: AddressingModel, memory: MemoryModel) {
        self.memory_model.clear();
        self.memory_model.extend([
            opcode_word(Op::MemoryModel, 3),
            addressing as Word,
            memory as Word,
        ]);
    }

    /// Appends an `OpEntryPoint` of function `entry` named `name`, with its interface.
    pub fn entry_point(
        &mut self,
        model: ExecutionModel,
        entry: Word,
        name: &str,
        interface: impl AsRef<[Word]>,
    ) {
        let interface = interface.as_ref();
        self.use_id(entry);
        for &id in interface {
            self.use_id(id);
        }
        let count = 3 + string_words(name) + interface.len();
        if count > MAX_INSTRUCTION_WORDS {
            self.note_too_long(Op::EntryPoint);
        }
        let words = &mut self.entry_points;
        words.extend([opcode_word(Op::EntryPoint, count), model as Word, entry]);
        push_string(words, name);
        words.extend_from_slice(interface);
    }

    /// Appends an `OpExecutionMode` of `entry` with literal operands.
    pub fn execution_mode(
        &mut self,
        entry: Word,
        mode: ExecutionMode,
        literals: impl AsRef<[u32]>,
    ) {
        let literals = literals.as_ref();
        self.use_id(entry);
        self.execution_modes.extend([
            opcode_word(Op::ExecutionMode, 3 + literals.len()),
            entry,
            mode as Word,
        ]);
        self.execution_modes.extend_from_slice(literals);
    }

    /// Appends an `OpName` of `target`.
    pub fn name(&mut self, target: Word, name: &str) {
        if name.len() > MAX_STRING_BYTES {
            // Names are debug information: one SPIR-V cannot hold is left out.
            return;
        }
        let words = &mut self.debug_names;
        words.extend([opcode_word(Op::Name, 2 + string_words(name)), target]);
        push_string(words, name);
    }

    /// Appends an `OpDecorate` of `target` with literal operands.
    pub fn decorate(
        &mut self,
        target: Word,
        decoration: Decoration,
        literals: impl IntoIterator<Item = Operand>,
    ) {
        let words = &mut self.annotations;
        let start = words.len();
        words.extend([0, target, decoration as Word]);
        words.extend(literals.into_iter().map(|operand| operand.word().0));
        let count = words.len() - start;
        if let Some(first) = words.get_mut(start) {
            *first = opcode_word(Op::Decorate, count);
        }
    }

    /// Appends an `OpMemberDecorate` of member `member` of struct `target`.
    pub fn member_decorate(
        &mut self,
        target: Word,
        member: u32,
        decoration: Decoration,
        literals: impl IntoIterator<Item = Operand>,
    ) {
        let words = &mut self.annotations;
        let start = words.len();
        words.extend([0, target, member, decoration as Word]);
        words.extend(literals.into_iter().map(|operand| operand.word().0));
        let count = words.len() - start;
        if let Some(first) = words.get_mut(start) {
            *first = opcode_word(Op::MemberDecorate, count);
        }
    }

    // Types, constants and module-level variables.

    /// Appends a module-level instruction defining `id`, with its operand words.
    fn global(&mut self, op: Op, result_type: Option<Word>, id: Word, operands: &[Word]) {
        let start = self.globals.len();
        let count = 2 + usize::from(result_type.is_some()) + operands.len();
        if count > MAX_INSTRUCTION_WORDS {
            self.note_too_long(op);
        }
        self.globals.push(opcode_word(op, count));
        self.globals.extend(result_type);
        self.globals.push(id);
        self.globals.extend_from_slice(operands);
        if let Some(info) = self.ids.get_mut(id as usize) {
            info.global = Some(start as u32);
        }
    }

    /// The type `op` with `operands` (at most 7 words), declared once.
    fn dedup_type(&mut self, op: Op, operands: &[Word]) -> Word {
        let mut key = [0; 7];
        for (slot, &word) in key.iter_mut().zip(operands) {
            *slot = word;
        }
        if let Some(&id) = self.types.get(&(op as u32, key)) {
            return id;
        }
        let id = self.id();
        self.global(op, None, id, operands);
        self.types.insert((op as u32, key), id);
        id
    }

    /// `OpTypeVoid`.
    pub fn type_void(&mut self) -> Word {
        self.dedup_type(Op::TypeVoid, &[])
    }

    /// `OpTypeBool`.
    pub fn type_bool(&mut self) -> Word {
        self.dedup_type(Op::TypeBool, &[])
    }

    /// `OpTypeInt` of `width` bits, signed when `signedness` is 1.
    pub fn type_int(&mut self, width: u32, signedness: u32) -> Word {
        self.dedup_type(Op::TypeInt, &[width, signedness])
    }

    /// `OpTypeFloat` of `width` bits.
    pub fn type_float(&mut self, width: u32, encoding: Option<spirv::FPEncoding>) -> Word {
        match encoding {
            Some(encoding) => self.dedup_type(Op::TypeFloat, &[width, encoding as Word]),
            None => self.dedup_type(Op::TypeFloat, &[width]),
        }
    }

    /// `OpTypeVector` of `count` components of type `component`.
    pub fn type_vector(&mut self, component: Word, count: u32) -> Word {
        self.dedup_type(Op::TypeVector, &[component, count])
    }

    /// `OpTypeMatrix` of `count` columns of type `column`.
    pub fn type_matrix(&mut self, column: Word, count: u32) -> Word {
        self.dedup_type(Op::TypeMatrix, &[column, count])
    }

    /// `OpTypeImage` (without an access qualifier).
    #[allow(clippy::too_many_arguments)]
    pub fn type_image(
        &mut self,
        sampled_type: Word,
        dim: Dim,
        depth: u32,
        arrayed: u32,
        multisampled: u32,
        sampled: u32,
        format: ImageFormat,
    ) -> Word {
        self.dedup_type(
            Op::TypeImage,
            &[
                sampled_type,
                dim as Word,
                depth,
                arrayed,
                multisampled,
                sampled,
                format as Word,
            ],
        )
    }

    /// `OpTypeSampler`.
    pub fn type_sampler(&mut self) -> Word {
        self.dedup_type(Op::TypeSampler, &[])
    }

    /// `OpTypeSampledImage` of `image`.
    pub fn type_sampled_image(&mut self, image: Word) -> Word {
        self.dedup_type(Op::TypeSampledImage, &[image])
    }

    /// `OpTypePointer` to `pointee` in `class`.
    pub fn type_pointer(&mut self, class: StorageClass, pointee: Word) -> Word {
        self.dedup_type(Op::TypePointer, &[class as Word, pointee])
    }

    /// `OpTypeFunction` returning `result` with `parameters`.
    pub fn type_function(&mut self, result: Word, parameters: &[Word]) -> Word {
        let mut key = Vec::with_capacity(parameters.len() + 1);
        key.push(result);
        key.extend_from_slice(parameters);
        if let Some(&id) = self.function_types.get(&key) {
            return id;
        }
        let id = self.id();
        self.global(Op::TypeFunction, None, id, &key);
        self.function_types.insert(key, id);
        id
    }

    /// `OpTypeArray` `id` of `length` (a constant's id) elements of type `element`.
    pub fn type_array_id(&mut self, id: Word, element: Word, length: Word) {
        self.global(Op::TypeArray, None, id, &[element, length]);
    }

    /// `OpTypeRuntimeArray` `id` of `element`.
    pub fn type_runtime_array_id(&mut self, id: Word, element: Word) {
        self.global(Op::TypeRuntimeArray, None, id, &[element]);
    }

    /// `OpTypeStruct` `id` with members of types `members`.
    pub fn type_struct_id(&mut self, id: Word, members: &[Word]) {
        self.global(Op::TypeStruct, None, id, members);
    }

    /// `OpConstantTrue` of type `ty`.
    pub fn constant_true(&mut self, ty: Word) -> Word {
        let id = self.id();
        self.global(Op::ConstantTrue, Some(ty), id, &[]);
        id
    }

    /// `OpConstantFalse` of type `ty`.
    pub fn constant_false(&mut self, ty: Word) -> Word {
        let id = self.id();
        self.global(Op::ConstantFalse, Some(ty), id, &[]);
        id
    }

    /// `OpConstant` of type `ty` with 32 bits `value`.
    pub fn constant_bit32(&mut self, ty: Word, value: u32) -> Word {
        let id = self.id();
        self.global(Op::Constant, Some(ty), id, &[value]);
        id
    }

    /// `OpConstant` of type `ty` with 64 bits `value` (low word first).
    pub fn constant_bit64(&mut self, ty: Word, value: u64) -> Word {
        let id = self.id();
        self.global(
            Op::Constant,
            Some(ty),
            id,
            &[value as u32, (value >> 32) as u32],
        );
        id
    }

    /// `OpConstantComposite` of type `ty`.
    pub fn constant_composite(&mut self, ty: Word, constituents: &[Word]) -> Word {
        let id = self.id();
        self.global(Op::ConstantComposite, Some(ty), id, constituents);
        id
    }

    /// `OpConstantNull` of type `ty`.
    pub fn constant_null(&mut self, ty: Word) -> Word {
        let id = self.id();
        self.global(Op::ConstantNull, Some(ty), id, &[]);
        id
    }

    /// A module-level `OpUndef` of type `ty`.
    pub fn undef(&mut self, ty: Word) -> Word {
        let id = self.id();
        self.global(Op::Undef, Some(ty), id, &[]);
        id
    }

    /// A module-level `OpVariable` of pointer type `pointer` in `class`.
    pub fn global_variable(
        &mut self,
        pointer: Word,
        class: StorageClass,
        initializer: Option<Word>,
    ) -> Word {
        let id = self.id();
        match initializer {
            Some(initializer) => self.global(
                Op::Variable,
                Some(pointer),
                id,
                &[class as Word, initializer],
            ),
            None => self.global(Op::Variable, Some(pointer), id, &[class as Word]),
        }
        id
    }

    // Functions.

    /// Whether a function is under construction.
    pub fn in_function(&self) -> bool {
        self.function.is_some()
    }

    /// Whether a block is open.
    pub fn in_block(&self) -> bool {
        self.function.as_ref().is_some_and(|f| f.in_block)
    }

    /// The function under construction, if any.
    fn function_mut(&mut self) -> Option<&mut FunctionState> {
        self.function.as_mut()
    }

    /// Begins function `id` of type `function_type`.
    pub fn begin_function(
        &mut self,
        result_type: Word,
        id: Word,
        control: FunctionControl,
        function_type: Word,
    ) -> BuildResult<Word> {
        if self.function.is_some() {
            return Err(BuildError::NestedFunction);
        }
        let mut function = std::mem::take(&mut self.spare);
        function.body.clear();
        function.variables.clear();
        function.first_block = None;
        function.in_block = false;
        function.labels.clear();
        function.terminators.clear();
        function.accesses.clear();
        function.body.extend([
            opcode_word(Op::Function, 5),
            result_type,
            id,
            control.bits(),
            function_type,
        ]);
        self.function = Some(function);
        self.use_id(result_type);
        self.use_id(function_type);
        self.define_in_function(id);
        Ok(id)
    }

    /// Makes room in the function under construction for what about `expressions` IR
    /// expressions and `locals` locals make (its words, blocks, accesses, variables and
    /// their names), so that writing it seldom reallocates.
    pub fn reserve_function(&mut self, expressions: usize, locals: usize) {
        if let Some(function) = self.function.as_mut() {
            // Some 2.2 to 3 words an expression; a block for about ten, a load, store
            // or access chain for about five.
            function.body.reserve(3 * expressions + 16);
            function.labels.reserve(expressions / 8);
            function.terminators.reserve(expressions / 8);
            function.accesses.reserve(expressions / 4);
            // An `OpVariable` of four or five words a local, and its `OpName`.
            function.variables.reserve(5 * locals);
            self.debug_names.reserve(5 * locals);
        }
    }

    /// Declares a parameter of type `ty` of the function under construction.
    pub fn function_parameter(&mut self, ty: Word) -> BuildResult<Word> {
        if self.function.is_none() {
            return Err(BuildError::DetachedFunctionParameter);
        }
        let id = self.id();
        if let Some(function) = self.function_mut() {
            function
                .body
                .extend([opcode_word(Op::FunctionParameter, 3), ty, id]);
        }
        self.use_id(ty);
        self.define_in_function(id);
        Ok(id)
    }

    /// Begins a block labelled `label` (a new id when `None`); returns the label.
    pub fn begin_block(&mut self, label: Option<Word>) -> BuildResult<Word> {
        match &self.function {
            None => return Err(BuildError::DetachedBlock),
            Some(function) if function.in_block => return Err(BuildError::NestedBlock),
            Some(_) => {}
        }
        let label = match label {
            Some(label) => label,
            None => self.id(),
        };
        if let Some(function) = self.function_mut() {
            function.labels.push(function.body.len());
            function.body.extend([opcode_word(Op::Label, 2), label]);
            function.in_block = true;
            if function.first_block.is_none() {
                function.first_block = Some(function.body.len());
            }
        }
        self.define_in_function(label);
        Ok(label)
    }

    /// A Function-class `OpVariable` of pointer type `pointer`, put at the start of the
    /// first block when the function ends.
    pub fn function_variable(&mut self, pointer: Word, initializer: Option<Word>) -> Word {
        let id = self.id();
        let class = StorageClass::Function as Word;
        if let Some(function) = self.function_mut() {
            match initializer {
                Some(initializer) => function.variables.extend([
                    opcode_word(Op::Variable, 5),
                    pointer,
                    id,
                    class,
                    initializer,
                ]),
                None => {
                    function
                        .variables
                        .extend([opcode_word(Op::Variable, 4), pointer, id, class])
                }
            }
        }
        self.use_id(pointer);
        if let Some(initializer) = initializer {
            self.read_id(initializer);
        }
        self.define_in_function(id);
        id
    }

    /// Starts an instruction of `operands` operand words in the open block: appends its
    /// opcode word, result type and result id, counts their uses, and notes a load,
    /// store or access chain among the function's accesses. The caller appends the
    /// operands and counts their reads.
    fn begin_instruction(
        &mut self,
        op: Op,
        result_type: Option<Word>,
        result_id: Option<Word>,
        operands: usize,
    ) -> BuildResult<&mut Vec<Word>> {
        if !self.in_block() {
            return Err(BuildError::DetachedInstruction);
        }
        if let Some(ty) = result_type {
            self.use_id(ty);
        }
        if let Some(id) = result_id {
            self.define_in_function(id);
        }
        if operands > MAX_INSTRUCTION_WORDS - 3 {
            let words = 1
                + operands
                + usize::from(result_type.is_some())
                + usize::from(result_id.is_some());
            if words > MAX_INSTRUCTION_WORDS {
                return Err(BuildError::TooManyWords { op, words });
            }
        }
        let Some(function) = self.function.as_mut() else {
            return Err(BuildError::DetachedInstruction);
        };
        if is_access(op as u32) {
            function.accesses.push(function.body.len());
        }
        let body = &mut function.body;
        // One capacity check for the words of the usual shapes.
        match (result_type, result_id) {
            (Some(ty), Some(id)) => body.extend([opcode_word(op, 3 + operands), ty, id]),
            (None, None) => body.push(opcode_word(op, 1 + operands)),
            (Some(word), None) | (None, Some(word)) => {
                body.extend([opcode_word(op, 2 + operands), word])
            }
        }
        Ok(body)
    }

    /// Appends an instruction to the open block.
    pub fn instruction(
        &mut self,
        op: Op,
        result_type: Option<Word>,
        result_id: Option<Word>,
        operands: &[Operand],
    ) -> BuildResult<()> {
        self.begin_instruction(op, result_type, result_id, operands.len())?
            .extend(operands.iter().map(|operand| operand.word().0));
        for operand in operands {
            if let (id, true) = operand.word() {
                self.read_id(id);
            }
        }
        Ok(())
    }

    /// Appends an instruction whose operands are all ids to the open block.
    pub fn instruction_ids(
        &mut self,
        op: Op,
        result_type: Option<Word>,
        result_id: Option<Word>,
        operands: &[Word],
    ) -> BuildResult<()> {
        self.begin_instruction(op, result_type, result_id, operands.len())?
            .extend_from_slice(operands);
        for &id in operands {
            self.read_id(id);
        }
        Ok(())
    }

    /// Appends `OpExtInst` `id` of type `ty`: instruction `instruction` of the
    /// extended set `set` applied to the ids `operands`.
    pub fn ext_inst(
        &mut self,
        ty: Word,
        id: Word,
        set: Word,
        instruction: u32,
        operands: &[Word],
    ) -> BuildResult<()> {
        let body = self.begin_instruction(Op::ExtInst, Some(ty), Some(id), 2 + operands.len())?;
        body.extend([set, instruction]);
        body.extend_from_slice(operands);
        self.read_id(set);
        for &operand in operands {
            self.read_id(operand);
        }
        Ok(())
    }

    /// Appends a terminator to the open block and closes it.
    fn terminator(&mut self, op: Op, operands: &[Operand]) -> BuildResult<()> {
        if !self.in_block() {
            return Err(BuildError::MismatchedTerminator);
        }
        if let Some(function) = self.function_mut() {
            function.terminators.push(function.body.len());
        }
        self.instruction(op, None, None, operands)?;
        if let Some(function) = self.function_mut() {
            function.in_block = false;
        }
        Ok(())
    }

    /// `OpStore` of `value` through `pointer` (which it does not read).
    pub fn store(
        &mut self,
        pointer: Word,
        value: Word,
        access: Option<MemoryAccess>,
    ) -> BuildResult<()> {
        let operands = 2 + usize::from(access.is_some());
        let body = self.begin_instruction(Op::Store, None, None, operands)?;
        body.extend([pointer, value]);
        body.extend(access.map(|access| access.bits()));
        self.use_id(pointer);
        self.read_id(value);
        Ok(())
    }

    /// `OpImageWrite` of `texel` at `coordinate` of `image`.
    pub fn image_write(&mut self, image: Word, coordinate: Word, texel: Word) -> BuildResult<()> {
        self.instruction(
            Op::ImageWrite,
            None,
            None,
            &[
                Operand::IdRef(image),
                Operand::IdRef(coordinate),
                Operand::IdRef(texel),
            ],
        )
    }

    /// `OpControlBarrier`.
    pub fn control_barrier(
        &mut self,
        execution: Word,
        memory: Word,
        semantics: Word,
    ) -> BuildResult<()> {
        self.instruction(
            Op::ControlBarrier,
            None,
            None,
            &[
                Operand::IdScope(execution),
                Operand::IdScope(memory),
                Operand::IdMemorySemantics(semantics),
            ],
        )
    }

    /// `OpMemoryBarrier`.
    pub fn memory_barrier(&mut self, memory: Word, semantics: Word) -> BuildResult<()> {
        self.instruction(
            Op::MemoryBarrier,
            None,
            None,
            &[
                Operand::IdScope(memory),
                Operand::IdMemorySemantics(semantics),
            ],
        )
    }

    /// `OpSelectionMerge`.
    pub fn selection_merge(&mut self, merge: Word, control: SelectionControl) -> BuildResult<()> {
        self.instruction(
            Op::SelectionMerge,
            None,
            None,
            &[Operand::IdRef(merge), Operand::LiteralBit32(control.bits())],
        )
    }

    /// `OpLoopMerge`.
    pub fn loop_merge(
        &mut self,
        merge: Word,
        continuing: Word,
        control: LoopControl,
    ) -> BuildResult<()> {
        self.instruction(
            Op::LoopMerge,
            None,
            None,
            &[
                Operand::IdRef(merge),
                Operand::IdRef(continuing),
                Operand::LiteralBit32(control.bits()),
            ],
        )
    }

    /// `OpBranch` to `target`.
    pub fn branch(&mut self, target: Word) -> BuildResult<()> {
        self.terminator(Op::Branch, &[Operand::IdRef(target)])
    }

    /// `OpBranchConditional` on `condition`.
    pub fn branch_conditional(
        &mut self,
        condition: Word,
        accept: Word,
        reject: Word,
    ) -> BuildResult<()> {
        self.terminator(
            Op::BranchConditional,
            &[
                Operand::IdRef(condition),
                Operand::IdRef(accept),
                Operand::IdRef(reject),
            ],
        )
    }

    /// `OpSwitch` on `selector`, with (literal, label) targets.
    pub fn switch(
        &mut self,
        selector: Word,
        default: Word,
        targets: &[(u32, Word)],
    ) -> BuildResult<()> {
        let mut operands = Vec::with_capacity(2 + 2 * targets.len());
        operands.extend([Operand::IdRef(selector), Operand::IdRef(default)]);
        for &(value, label) in targets {
            operands.extend([Operand::LiteralBit32(value), Operand::IdRef(label)]);
        }
        self.terminator(Op::Switch, &operands)
    }

    /// `OpReturn`.
    pub fn ret(&mut self) -> BuildResult<()> {
        self.terminator(Op::Return, &[])
    }

    /// `OpReturnValue` of `value`.
    pub fn ret_value(&mut self, value: Word) -> BuildResult<()> {
        self.terminator(Op::ReturnValue, &[Operand::IdRef(value)])
    }

    /// `OpKill`.
    pub fn kill(&mut self) -> BuildResult<()> {
        self.terminator(Op::Kill, &[])
    }

    /// `OpUnreachable`.
    pub fn unreachable(&mut self) -> BuildResult<()> {
        self.terminator(Op::Unreachable, &[])
    }

    /// Notes an instruction `op` of too many words, unless one was noted before.
    #[cold]
    pub(crate) fn note_too_long(&mut self, op: Op) {
        self.too_long.get_or_insert(op);
    }

    /// Ends the function under construction: puts its variables at the start of its
    /// first block, removes those nothing reads (with the stores to them), and appends
    /// it with `OpFunctionEnd` to the module.
    pub fn end_function(&mut self) -> BuildResult<()> {
        let Some(mut function) = self.function.take() else {
            return Err(BuildError::MismatchedFunctionEnd);
        };
        let mut promoter = std::mem::take(&mut self.promoter);
        promoter.run(self, &mut function);
        self.promoter = promoter;
        crate::compact::finish_function(self, &function);
        self.functions.push(opcode_word(Op::FunctionEnd, 1));
        self.spare = function;
        Ok(())
    }

    /// The finished module's words: the header, then each section, without the types,
    /// constants and globals nothing uses, and without names and decorations of ids
    /// that are not in the module.
    #[cfg(test)]
    pub fn assemble(self) -> Vec<Word> {
        let mut words = Vec::new();
        self.assemble_into(&mut words);
        words
    }

    /// Appends the finished module's words to `words` (as words or as their bytes), as
    /// [`Builder::assemble`] returns them, keeping the builder's buffers for
    /// [`Builder::reset`].
    pub fn assemble_into(&self, words: &mut impl crate::compact::WordSink) {
        crate::compact::assemble(self, self.version, GENERATOR, words)
    }
}
