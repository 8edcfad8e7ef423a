//! Writing one function: its variables, parameters, the value cache of bound
//! expressions, and pointers (access chains) into memory.

use oneshader_ir::analysis::walk_statements;
use oneshader_ir::arena::emptied;
use oneshader_ir::{
    AddressSpace, Block, Expression, Function, Handle, LocalVariable, Module, Span, Statement,
    Type, TypeInner,
};
use rspirv::spirv::{self, FunctionControl, Op, StorageClass, Word};

use crate::error::{Error, Result};
use crate::interface::EntryInterface;
use crate::known::KnownValues;
use crate::module::Operand;
use crate::types::Layout;
use crate::writer::{FunctionSignature, Writer};

/// The longest array converted between layouts element by element; longer ones are
/// converted with one `OpCopyLogical`.
const MEMBERWISE_ARRAY_LIMIT: u32 = 64;

/// The storage class of IR address space `space`.
pub(crate) fn storage_class(space: AddressSpace, span: Option<Span>) -> Result<StorageClass> {
    Ok(match space {
        AddressSpace::Function => StorageClass::Function,
        AddressSpace::Private => StorageClass::Private,
        AddressSpace::Workgroup => StorageClass::Workgroup,
        AddressSpace::Uniform => StorageClass::Uniform,
        AddressSpace::Storage { .. } => StorageClass::StorageBuffer,
        AddressSpace::Handle => {
            let _ = span;
            StorageClass::UniformConstant
        }
    })
}

/// A pointer into memory, as written.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pointer {
    /// The pointer's id.
    pub id: Word,
    /// The storage class it points into.
    pub class: StorageClass,
    /// The IR type of what it points at.
    pub pointee: Handle<Type>,
    /// The SPIR-V type of what it points at (laid out in buffers).
    pub pointee_id: Word,
}

/// Where `break` and `continue` go.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Construct {
    /// A loop: `break` goes to `merge`, `continue` to `continuing`.
    Loop { merge: Word, continuing: Word },
    /// A switch: `break` goes to `merge`.
    Switch { merge: Word },
}

/// What [`FunctionWriter`] keeps as the value of a bound expression whose scope has
/// ended: ids are below the module's bound, a [`Word`], so never this.
const EXPIRED: Word = Word::MAX;

/// The state of writing one function.
pub(crate) struct FunctionWriter<'w, 'a> {
    /// The module writer.
    pub w: &'w mut Writer<'a>,
    /// The IR function.
    pub f: &'a Function,
    /// What it knows and the lists it fills, taken from the module writer's
    /// [`Tables::function`](crate::writer::Tables) and given back at its end.
    pub s: FunctionLists,
    /// The value of each bound expression (and call/atomic result) in scope: 0 (never
    /// an id) where none is bound yet, [`EXPIRED`] once its scope has ended.
    values: Vec<Word>,
    /// Each argument: its value, or for `out`/`inout` parameters its pointer.
    arguments: Vec<Word>,
    /// For the entry function: its outputs.
    pub outputs: Option<EntryInterface>,
}

/// The state of a [`FunctionWriter`] that lives in lists, kept (emptied) from one
/// function to the next so that writing one allocates little.
#[derive(Default)]
pub(crate) struct FunctionLists {
    /// The expressions bound in the open nested blocks, outermost first: those of
    /// nested block `n` start at `scope_starts[n]`. (The function's own block is never
    /// closed, so what it binds is not listed.)
    scoped: Vec<Handle<Expression>>,
    /// Where each open nested block's expressions start in `scoped`, innermost last.
    scope_starts: Vec<usize>,
    /// The `OpVariable` of each local.
    locals: Vec<Word>,
    /// The enclosing loops and switches, innermost last.
    pub constructs: Vec<Construct>,
    /// The value each local is known to hold here.
    pub known: KnownValues,
    /// Emptied lists of locals, for [`FunctionWriter::changed_locals`] to reuse.
    spare_locals: Vec<Vec<Handle<LocalVariable>>>,
    /// The indices of the pointer being written, outermost first, for
    /// [`FunctionWriter::pointer`] to reuse.
    spare_indices: Vec<Index>,
    /// The operands of an instruction being put together, for reuse.
    spare_words: Vec<Word>,
    /// The same, for an instruction with literal operands.
    pub spare_operands: Vec<Operand>,
}

/// One index of an access chain, as [`FunctionWriter::pointer`] finds it on its way
/// down to the variable.
#[derive(Clone, Copy)]
enum Index {
    /// A constant index (`AccessIndex`).
    Constant(u32),
    /// The value of an expression (`Access`).
    Value(Handle<Expression>),
}

impl FunctionLists {
    /// Empties the lists for a function of `locals` locals.
    fn clear(&mut self, locals: usize) {
        self.scoped.clear();
        self.scope_starts.clear();
        self.locals.clear();
        self.locals.reserve(locals);
        self.constructs.clear();
        self.known.reset(locals);
    }
}

/// Writes the entry function: reads inputs into the arguments, and writes results to
/// the outputs at each `return`.
pub(crate) fn write_entry_function<'a>(
    w: &mut Writer<'a>,
    id: Word,
    void: Word,
    function_type: Word,
) -> Result<()> {
    let entry_function = w.entry_function;
    w.b.begin_function(void, id, FunctionControl::NONE, function_type)?;
    w.b.begin_block(None)?;
    let interface = crate::interface::declare(w, id)?;
    let mut writer = FunctionWriter::new(w, entry_function);
    writer.arguments = writer.load_inputs(&interface)?;
    writer.outputs = Some(interface);
    writer.write_body()
}

/// Writes a helper function with its parameters.
pub(crate) fn write_helper_function<'a>(
    w: &mut Writer<'a>,
    function: &'a Function,
    signature: &FunctionSignature,
) -> Result<()> {
    w.b.begin_function(
        signature.return_type,
        signature.id,
        FunctionControl::NONE,
        signature.function_type,
    )?;
    let mut arguments = Vec::with_capacity(signature.parameter_types.len());
    for (&ty, argument) in signature.parameter_types.iter().zip(&function.arguments) {
        let id = w.b.function_parameter(ty)?;
        w.name(id, &argument.name);
        arguments.push(id);
    }
    w.name(signature.id, &function.name);
    w.b.begin_block(None)?;
    let mut writer = FunctionWriter::new(w, function);
    writer.arguments = arguments;
    writer.write_body()
}

impl<'w, 'a> FunctionWriter<'w, 'a> {
    fn new(w: &'w mut Writer<'a>, f: &'a Function) -> Self {
        let mut s = std::mem::take(&mut w.tables.function);
        s.clear(f.local_variables.len());
        let count = f.expressions.len();
        w.b.reserve_function(count, f.local_variables.len());
        FunctionWriter {
            w,
            f,
            s,
            values: vec![0; count],
            arguments: Vec::new(),
            outputs: None,
        }
    }

    /// Declares the locals, writes the body, and ends the function (which puts every
    /// `OpVariable` at the start of its first block).
    fn write_body(mut self) -> Result<()> {
        let f = self.f;
        let mut stores = Vec::new();
        for (handle, local) in f.local_variables.iter() {
            let (variable, init) = self.local_variable(local)?;
            self.s.locals.push(variable);
            stores.extend(init.map(|init| (handle, variable, init)));
        }
        for (local, variable, init) in stores {
            let value = self.value(init)?;
            self.w.b.store(variable, value, None)?;
            self.s.known.set(local, value);
        }
        self.block(&f.body)?;
        if self.is_open() {
            match (&self.outputs, &f.result) {
                (Some(_), _) | (None, None) => self.w.b.ret()?,
                (None, Some(_)) => self.w.b.unreachable()?,
            }
        }
        self.w.b.end_function()?;
        self.w.tables.function = self.s;
        Ok(())
    }

    /// The local variable a pointer expression points into, if any.
    pub fn local_root(&self, mut pointer: Handle<Expression>) -> Option<Handle<LocalVariable>> {
        loop {
            match *self.f.expressions.try_get(pointer)? {
                Expression::Access { base, .. } | Expression::AccessIndex { base, .. } => {
                    pointer = base
                }
                Expression::LocalVariable(local) => return Some(local),
                _ => return None,
            }
        }
    }

    /// The locals that `blocks` may change: stored to, or passed to `out` parameters
    /// (some more than once); hand the list to [`FunctionWriter::forget`] when done.
    pub fn changed_locals(&mut self, blocks: &[&Block]) -> Vec<Handle<LocalVariable>> {
        let mut changed = self.s.spare_locals.pop().unwrap_or_default();
        for block in blocks {
            walk_statements(block, &mut |statement| match statement {
                Statement::Store { pointer, .. } | Statement::Atomic { pointer, .. } => {
                    changed.extend(self.local_root(*pointer))
                }
                Statement::Call { arguments, .. } => {
                    changed.extend(arguments.iter().filter_map(|&a| self.local_root(a)))
                }
                _ => {}
            });
        }
        changed
    }

    /// Forgets what is known of the locals in `changed` (from
    /// [`FunctionWriter::changed_locals`]), keeping the list for the next one.
    pub fn forget(&mut self, mut changed: Vec<Handle<LocalVariable>>) {
        for &local in &changed {
            self.s.known.forget(local);
        }
        changed.clear();
        self.s.spare_locals.push(changed);
    }

    /// The `OpVariable` of a local, and the value to store at the start when its
    /// initialiser is not a constant. Locals without one start zeroed.
    fn local_variable(
        &mut self,
        local: &LocalVariable,
    ) -> Result<(Word, Option<Handle<Expression>>)> {
        let (initializer, store) = match local.init {
            Some(init) => match self.constant(init)? {
                Some(constant) => (Some(constant), None),
                None => (None, Some(init)),
            },
            None => (Some(self.w.zero_constant(local.ty)?), None),
        };
        let variable = self.new_variable(local.ty, initializer)?;
        self.w.name(variable, &local.name);
        Ok((variable, store))
    }

    /// A new Function-class variable of IR type `ty`.
    pub fn new_variable(&mut self, ty: Handle<Type>, initializer: Option<Word>) -> Result<Word> {
        let pointee = self.w.value_type(ty)?;
        let pointer = self.w.pointer_type(StorageClass::Function, pointee);
        Ok(self.w.b.function_variable(pointer, initializer))
    }

    /// Whether the current block still takes instructions (no terminator yet).
    pub fn is_open(&self) -> bool {
        self.w.b.in_block()
    }

    /// The IR expression `handle`.
    pub fn expression(&self, handle: Handle<Expression>) -> Result<&'a Expression> {
        let f: &'a Function = self.f;
        f.expressions
            .try_get(handle)
            .ok_or_else(|| Error::malformed(None, format!("expression {handle:?} does not exist")))
    }

    /// The source span of `handle`.
    pub fn span(&self, handle: Handle<Expression>) -> Option<Span> {
        self.f.expressions.span(handle)
    }

    /// The IR type of expression `handle`.
    pub fn type_of(&self, handle: Handle<Expression>) -> Result<Handle<Type>> {
        self.f
            .expression_types
            .get(handle.index())
            .copied()
            .ok_or_else(|| Error::malformed(self.span(handle), "an expression without a type"))
    }

    /// The structure of the type of expression `handle`.
    #[inline]
    pub fn inner_of(&self, handle: Handle<Expression>) -> Result<&'a TypeInner> {
        let (f, module): (&'a Function, &'a Module) = (self.f, self.w.module);
        match f
            .expression_types
            .get(handle.index())
            .and_then(|&ty| module.types.try_get(ty))
        {
            Some(ty) => Ok(&ty.inner),
            None => self.missing_type_of(handle),
        }
    }

    /// The error [`FunctionWriter::inner_of`] gives for an expression without a type or
    /// with a type outside the module, with the expression's span.
    #[cold]
    fn missing_type_of(&self, handle: Handle<Expression>) -> Result<&'a TypeInner> {
        let ty = self.type_of(handle)?;
        self.w.inner(ty, self.span(handle))
    }

    /// The SPIR-V type of expression `handle`'s value.
    pub fn value_type_of(&mut self, handle: Handle<Expression>) -> Result<Word> {
        let ty = self.type_of(handle)?;
        self.w.value_type(ty)
    }

    /// Records the value of a bound expression (or a call or atomic result).
    pub fn bind(&mut self, handle: Handle<Expression>, value: Word) {
        if let Some(slot) = self.values.get_mut(handle.index()) {
            if *slot != EXPIRED {
                *slot = value;
            }
        }
        if !self.s.scope_starts.is_empty() {
            self.s.scoped.push(handle);
        }
    }

    /// The value of a bound expression, if bound and in scope.
    pub fn bound(&self, handle: Handle<Expression>) -> Result<Option<Word>> {
        match self.values.get(handle.index()) {
            None | Some(0) => Ok(None),
            Some(&EXPIRED) => Err(Error::malformed(
                self.span(handle),
                "an expression used outside the block that binds it",
            )),
            Some(&value) => Ok(Some(value)),
        }
    }

    /// Opens a nested block's scope of bound expressions.
    pub fn push_scope(&mut self) {
        self.s.scope_starts.push(self.s.scoped.len());
    }

    /// Closes the innermost scope: its bound expressions may not be used after it.
    pub fn pop_scope(&mut self) {
        let start = self.s.scope_starts.pop().unwrap_or(0);
        for &handle in self.s.scoped.get(start..).unwrap_or_default() {
            if let Some(slot) = self.values.get_mut(handle.index()) {
                *slot = EXPIRED;
            }
        }
        self.s.scoped.truncate(start);
    }

    /// The value of argument `index`, or for an `out`/`inout` parameter its pointer.
    pub fn argument(&self, index: u32, span: Option<Span>) -> Result<Word> {
        self.arguments
            .get(index as usize)
            .copied()
            .ok_or_else(|| Error::malformed(span, format!("argument {index} does not exist")))
    }

    /// The `OpVariable` of local `handle`.
    pub fn local(&self, handle: Handle<LocalVariable>, span: Option<Span>) -> Result<Word> {
        self.s
            .locals
            .get(handle.index())
            .copied()
            .ok_or_else(|| Error::malformed(span, format!("local {handle:?} does not exist")))
    }

    /// Appends an instruction with a result to the current block; returns the result.
    pub fn emit(&mut self, op: Op, result_type: Word, operands: &[Operand]) -> Result<Word> {
        let id = self.w.b.id();
        self.w
            .b
            .instruction(op, Some(result_type), Some(id), operands)?;
        Ok(id)
    }

    /// Appends an instruction whose operands are all ids.
    pub fn emit_ids(&mut self, op: Op, result_type: Word, operands: &[Word]) -> Result<Word> {
        let id = self.w.b.id();
        self.w
            .b
            .instruction_ids(op, Some(result_type), Some(id), operands)?;
        Ok(id)
    }

    /// Writes the pointer expression `handle` as an access chain from its variable.
    pub fn pointer(&mut self, handle: Handle<Expression>) -> Result<Pointer> {
        let pointee = match *self.inner_of(handle)? {
            TypeInner::Pointer { base, .. } => base,
            _ => {
                return Err(Error::malformed(
                    self.span(handle),
                    "a value used where a pointer is needed",
                ))
            }
        };
        match *self.expression(handle)? {
            Expression::ImageTexelPointer {
                image,
                coordinate,
                array_index,
            } => {
                let span = self.span(handle);
                return self.image_texel_pointer(image, coordinate, array_index, pointee, span);
            }
            // The most common pointer, without the lists of a chain.
            Expression::LocalVariable(local) => {
                let class = StorageClass::Function;
                return Ok(Pointer {
                    id: self.local(local, self.span(handle))?,
                    class,
                    pointee,
                    pointee_id: self.w.type_id(pointee, Layout::of(class))?,
                });
            }
            _ => {}
        }
        // The indices from `handle` down to the variable, taken from the spare list
        // (a pointer written for an index inside takes its own).
        let mut indices = emptied(&mut self.s.spare_indices);
        let mut current = handle;
        let (root, class, root_pointee, wrapped) = loop {
            match *self.expression(current)? {
                Expression::Access { base, index } => {
                    indices.push(Index::Value(index));
                    current = base;
                }
                Expression::AccessIndex { base, index } => {
                    indices.push(Index::Constant(index));
                    current = base;
                }
                Expression::GlobalVariable(global) => {
                    let info = self.w.global(global, self.span(current))?;
                    break (info.variable, info.class, Some(info.pointee), info.wrapped);
                }
                Expression::LocalVariable(local) => {
                    break (
                        self.local(local, self.span(current))?,
                        StorageClass::Function,
                        None,
                        false,
                    )
                }
                Expression::FunctionArgument(index) => {
                    if self.outputs.is_some() {
                        return Err(Error::malformed(
                            self.span(current),
                            "an entry point argument used as a pointer",
                        ));
                    }
                    break (
                        self.argument(index, self.span(current))?,
                        StorageClass::Function,
                        None,
                        false,
                    );
                }
                _ => {
                    return Err(Error::unsupported(
                        self.span(current),
                        "a pointer that is not a chain of accesses into a variable",
                    ))
                }
            }
        };
        if indices.is_empty() && !wrapped {
            self.s.spare_indices = indices;
            let pointee_id = match root_pointee {
                Some(id) => id,
                None => self.w.type_id(pointee, Layout::of(class))?,
            };
            return Ok(Pointer {
                id: root,
                class,
                pointee,
                pointee_id,
            });
        }
        // The root, then the indices.
        let mut chain = emptied(&mut self.s.spare_words);
        chain.push(root);
        if wrapped {
            chain.push(self.w.u32_constant(0)?);
        }
        for &index in indices.iter().rev() {
            chain.push(match index {
                Index::Constant(index) => self.w.u32_constant(index)?,
                Index::Value(index) => self.value(index)?,
            });
        }
        self.s.spare_indices = indices;
        let pointee_id = self.w.type_id(pointee, Layout::of(class))?;
        let pointer_type = self.w.pointer_type(class, pointee_id);
        let id = self.emit_ids(Op::AccessChain, pointer_type, &chain)?;
        self.s.spare_words = chain;
        Ok(Pointer {
            id,
            class,
            pointee,
            pointee_id,
        })
    }

    /// Loads through `pointer`, converting a laid-out aggregate to its plain type.
    pub fn load(&mut self, pointer: Pointer) -> Result<Word> {
        let loaded = self.emit_ids(Op::Load, pointer.pointee_id, &[pointer.id])?;
        let plain = self.w.value_type(pointer.pointee)?;
        self.convert_layout(loaded, pointer.pointee_id, plain)
    }

    /// Stores `value` through `pointer`, converting to a laid-out aggregate if needed.
    pub fn store(&mut self, pointer: Pointer, value: Word) -> Result<()> {
        let plain = self.w.value_type(pointer.pointee)?;
        let value = self.convert_layout(value, plain, pointer.pointee_id)?;
        self.w.b.store(pointer.id, value, None)?;
        Ok(())
    }

    /// `value`, of SPIR-V type `from`, as the same value of the logically matching type
    /// `to` (an aggregate in another layout).
    ///
    /// Structs and small arrays are rebuilt member by member (`OpCompositeExtract`,
    /// `OpCompositeConstruct`), as DXC does: Mesa's lavapipe 22.3 fails to create a
    /// pipeline that applies `OpCopyLogical` to a uniform block's struct. Arrays longer
    /// than [`MEMBERWISE_ARRAY_LIMIT`] keep one `OpCopyLogical`.
    fn convert_layout(&mut self, value: Word, from: Word, to: Word) -> Result<Word> {
        if from == to {
            return Ok(value);
        }
        let (from_parts, to_parts) = match (self.composite_parts(from), self.composite_parts(to)) {
            (Some(f), Some(t)) if f.len() == t.len() => (f, t),
            _ => return self.emit_ids(Op::CopyLogical, to, &[value]),
        };
        let mut converted = Vec::with_capacity(to_parts.len());
        for (index, (part_from, part_to)) in from_parts.into_iter().zip(to_parts).enumerate() {
            let extracted = self.emit(
                Op::CompositeExtract,
                part_from,
                &[Operand::IdRef(value), Operand::LiteralBit32(index as u32)],
            )?;
            converted.push(self.convert_layout(extracted, part_from, part_to)?);
        }
        self.emit_ids(Op::CompositeConstruct, to, &converted)
    }

    /// The member types of struct type `id`, or the element type repeated for an array
    /// type of at most [`MEMBERWISE_ARRAY_LIMIT`] elements; `None` for anything else.
    fn composite_parts(&self, id: Word) -> Option<Vec<Word>> {
        let declaration = self.w.b.global_instruction(id)?;
        let opcode = declaration.first()? & 0xffff;
        if opcode == Op::TypeStruct as u32 {
            return declaration.get(2..).map(<[Word]>::to_vec);
        }
        if opcode != Op::TypeArray as u32 {
            return None;
        }
        let &[_, _, element, length_id] = declaration else {
            return None;
        };
        // `OpConstant %type %id value`.
        let &[_, _, _, length] = self.w.b.global_instruction(length_id)? else {
            return None;
        };
        (length <= MEMBERWISE_ARRAY_LIMIT).then(|| vec![element; length as usize])
    }

    /// Keeps `value` in a new Function variable of IR type `ty` and returns its pointer.
    pub fn spill(&mut self, ty: Handle<Type>, value: Word) -> Result<Word> {
        let variable = self.new_variable(ty, None)?;
        self.w.b.store(variable, value, None)?;
        Ok(variable)
    }

    /// The id of the `spirv::Scope` constant `scope`.
    pub fn scope(&mut self, scope: spirv::Scope) -> Result<Word> {
        self.w.u32_constant(scope as u32)
    }
}
