//! The module writer: capabilities, constants, globals, function signatures, and
//! the assembly of the final module around the written functions.

use oneshader_ir::{
    AddressSpace, Diagnostic, EntryPoint, FastHashMap, Function, GlobalVariable, Handle, Module,
    ModuleInfo, ResourceKind, Scalar, ScalarKind, ShaderStage, Span, Type, TypeInner, VectorSize,
};
use rspirv::spirv::{
    self, AddressingModel, Capability, Decoration, ExecutionMode, ExecutionModel, MemoryModel,
    StorageClass, Word,
};

use crate::compact::WordSink;
use crate::error::{Error, Result};
use crate::module::{
    Builder, Operand, MAX_FUNCTION_PARAMETERS, MAX_GLOBAL_VARIABLES, MAX_INSTRUCTION_WORDS,
};
use crate::types::Layout;
use crate::Options;

/// A global variable as written: its `OpVariable` and how to address into it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GlobalInfo {
    /// The `OpVariable`.
    pub variable: Word,
    /// Its storage class.
    pub class: StorageClass,
    /// The SPIR-V type it points at (a `Block` struct for buffers).
    pub pointee: Word,
    /// Whether the IR's value is member 0 of a `Block` wrapper struct.
    pub wrapped: bool,
}

/// The SPIR-V types of one IR type, per layout, once declared.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct TypeIds {
    /// In [`Layout::Plain`].
    pub plain: Option<Word>,
    /// In [`Layout::Explicit`].
    pub explicit: Option<Word>,
}

impl TypeIds {
    /// The type in `layout`, if declared.
    pub fn get(self, layout: Layout) -> Option<Word> {
        match layout {
            Layout::Plain => self.plain,
            Layout::Explicit => self.explicit,
        }
    }

    /// Records `id` as the type in `layout`.
    pub fn set(&mut self, layout: Layout, id: Word) {
        match layout {
            Layout::Plain => self.plain = Some(id),
            Layout::Explicit => self.explicit = Some(id),
        }
    }
}

/// A helper function's SPIR-V signature.
#[derive(Clone, Debug)]
pub(crate) struct FunctionSignature {
    /// The `OpFunction` id.
    pub id: Word,
    /// The return type (`void` when the IR has none).
    pub return_type: Word,
    /// The `OpTypeFunction`.
    pub function_type: Word,
    /// One type per parameter (`out`/`inout` ones are Function-class pointers).
    pub parameter_types: Vec<Word>,
}

/// What a [`Writer`] keeps from one entry point of a module to the next, emptied
/// rather than freed, so that each entry point's writer allocates little.
#[derive(Default)]
pub(crate) struct Buffers {
    /// The module builder, once a module was written (see [`Writer::b`]).
    builder: Option<Box<Builder>>,
    /// The writer's tables (empty until a module was written).
    tables: Tables,
}

/// What a [`Writer`] declared so far, found by what it stands for (and the lists it
/// fills while writing); see [`Buffers`].
#[derive(Default)]
pub(crate) struct Tables {
    /// Capabilities declared so far, in declaration order.
    capabilities: Vec<Capability>,
    /// SPIR-V types of IR types, per memory layout.
    pub(crate) types: Vec<TypeIds>,
    /// `Block` structs of buffers, by IR type and writability.
    pub(crate) blocks: FastHashMap<(Handle<Type>, bool, StorageClass), (Word, bool)>,
    /// Pointer types declared so far, by storage class and pointee.
    pointer_types: FastHashMap<(StorageClass, Word), Word>,
    /// Scalar constants by bits, in a table by [`constant_slot`] of their type: a hit
    /// needs neither the type's id nor a hash of it (boxed, as it is large).
    scalar_constants: Box<[FastHashMap<u64, Word>; SCALAR_SLOTS]>,
    /// Composite and null constants by type and constituents.
    /// The key is the type followed by the constituents (none for `OpConstantNull`).
    composite_constants: FastHashMap<Vec<Word>, Word>,
    /// The key of `composite_constants` being looked up, kept to spare an allocation.
    composite_key: Vec<Word>,
    /// Globals written so far.
    globals: FastHashMap<Handle<GlobalVariable>, GlobalInfo>,
    /// Built-in input variables made for wave operations.
    wave_inputs: FastHashMap<u32, Word>,
    /// Every global variable the entry point uses: its interface.
    pub interface: Vec<Word>,
    /// Signatures of the helper functions the entry point reaches.
    pub functions: FastHashMap<Handle<Function>, FunctionSignature>,
    /// The lists of the function writer, between functions.
    pub(crate) function: crate::function::FunctionLists,
    /// The nesting depth of each struct type declared so far (1 for one without struct
    /// members), for SPIR-V's limit ([`crate::module::MAX_STRUCT_DEPTH`]).
    pub(crate) struct_depths: FastHashMap<Handle<Type>, u32>,
}

impl Tables {
    /// Empties the tables for a module of `types` IR types, keeping their allocations.
    fn clear(&mut self, types: usize) {
        self.capabilities.clear();
        self.types.clear();
        self.types.resize(types, TypeIds::default());
        self.blocks.clear();
        self.pointer_types.clear();
        self.pointer_types.reserve(32);
        for constants in self.scalar_constants.iter_mut() {
            constants.clear();
        }
        self.composite_constants.clear();
        self.composite_key.clear();
        self.globals.clear();
        self.wave_inputs.clear();
        self.interface.clear();
        self.functions.clear();
        self.struct_depths.clear();
    }
}

/// Writes one entry point of a module.
pub(crate) struct Writer<'a> {
    /// The IR module.
    pub module: &'a Module,
    /// The entry point written.
    pub entry: &'a EntryPoint,
    /// The entry point's function as written (with its helpers inlined, unless
    /// [`Options::keep_functions`]).
    pub entry_function: &'a Function,
    /// The helper functions written beside it.
    helpers: &'a [Handle<Function>],
    /// The options.
    pub options: &'a Options,
    /// The module under construction (boxed, as it is large and goes back and forth
    /// between the writer and [`Buffers`]).
    pub b: Box<Builder>,
    /// What it declared so far.
    pub(crate) tables: Tables,
    /// The `GLSL.std.450` import, once used.
    glsl: Option<Word>,
    /// Scalar types declared so far (saves the capability checks of `scalar_type`), by
    /// [`scalar_slot`]; 0 where not declared yet.
    scalar_types: [Word; SCALAR_SLOTS],
    /// The commonest scalar constants (see [`small_constant_key`]) by [`constant_slot`] and
    /// key, 0 where not declared yet: looked up before [`Tables::scalar_constants`],
    /// without a hash.
    small_constants: [[Word; SMALL_CONSTANTS]; SCALAR_SLOTS],
    /// Errors met so far.
    pub diagnostics: Vec<Diagnostic>,
}

impl<'a> Writer<'a> {
    /// Writes entry point number `entry` of `module`, whose facts `info` holds, appending
    /// its words (or their bytes) to `words`; the writer's buffers come from `buffers` and go back to it.
    pub fn write(
        module: &'a Module,
        info: &'a ModuleInfo,
        entry: usize,
        options: &'a Options,
        buffers: &mut Buffers,
        words: &mut impl WordSink,
    ) -> std::result::Result<(), Vec<Diagnostic>> {
        let (Some(entry_point), Some(entry_info)) =
            (module.entry_points.get(entry), info.entry_point(entry))
        else {
            return Err(vec![
                *Error::unsupported(
                    None,
                    format!(
                        "there is no entry point number {entry} (the module has {})",
                        module.entry_points.len()
                    ),
                )
                .0,
            ]);
        };
        let inlined;
        let (entry_function, helpers) = if options.keep_functions {
            (
                &entry_point.function,
                entry_info.reachable_functions.as_slice(),
            )
        } else {
            inlined = oneshader_ir::inline::inline_entry_point(module, info, entry);
            match &inlined {
                Some(inlined) => (inlined.function, inlined.helpers.as_slice()),
                None => (
                    &entry_point.function,
                    entry_info.reachable_functions.as_slice(),
                ),
            }
        };
        Writer::write_functions_of(
            module,
            entry_point,
            entry_function,
            helpers,
            options,
            buffers,
            words,
        )
    }

    /// Writes `entry`, whose function is `entry_function`, and the `helpers` it calls,
    /// appending the module's words to `words`.
    fn write_functions_of(
        module: &'a Module,
        entry: &'a EntryPoint,
        entry_function: &'a Function,
        helpers: &'a [Handle<Function>],
        options: &'a Options,
        buffers: &mut Buffers,
        words: &mut impl WordSink,
    ) -> std::result::Result<(), Vec<Diagnostic>> {
        use std::mem::take;
        let mut writer = Writer {
            module,
            entry,
            entry_function,
            helpers,
            options,
            b: buffers
                .builder
                .take()
                .unwrap_or_else(|| Box::new(Builder::new())),
            tables: take(&mut buffers.tables),
            glsl: None,
            scalar_types: [0; SCALAR_SLOTS],
            small_constants: [[0; SMALL_CONSTANTS]; SCALAR_SLOTS],
            diagnostics: Vec::new(),
        };
        writer.clear();
        writer.b.set_version(1, 5);
        writer.capability(Capability::Shader);
        writer
            .b
            .memory_model(AddressingModel::Logical, MemoryModel::GLSL450);
        if let Err(Error(diagnostic)) = writer.write_functions() {
            writer.diagnostics.push(*diagnostic);
        }
        if let Some(op) = writer.b.too_long.take() {
            writer.diagnostics.push(*Error::too_long(op, None).0);
        }
        let result = if writer.diagnostics.is_empty() {
            writer.b.assemble_into(words);
            Ok(())
        } else {
            Err(take(&mut writer.diagnostics))
        };
        *buffers = Buffers {
            builder: Some(writer.b),
            tables: writer.tables,
        };
        result
    }

    /// Empties the builder and tables taken from [`Buffers`], which hold the previous
    /// entry point's module, keeping their allocations.
    fn clear(&mut self) {
        self.b.reset();
        self.tables.clear(self.module.types.len());
    }

    /// Declares the signatures of every reachable helper, then writes the entry
    /// function and the helpers; errors in one function don't stop the others.
    fn write_functions(&mut self) -> Result<()> {
        let helpers = self.helpers;
        let expressions = self.entry_function.expressions.len()
            + helpers
                .iter()
                .filter_map(|&handle| self.module.functions.try_get(handle))
                .map(|function| function.expressions.len())
                .sum::<usize>();
        self.b.reserve(expressions);
        for &handle in helpers {
            let function = self.module.functions.try_get(handle).ok_or_else(|| {
                Error::malformed(
                    None,
                    format!("call of function {handle:?}, which does not exist"),
                )
            })?;
            if function.arguments.len() > MAX_FUNCTION_PARAMETERS {
                return Err(too_many_parameters(
                    function,
                    self.module.functions.span(handle),
                ));
            }
            let signature = self.signature(function)?;
            self.tables.functions.insert(handle, signature);
        }

        let void = self.b.type_void();
        let entry_type = self.b.type_function(void, &[]);
        let entry_id = self.b.id();
        let entry = self.entry;
        if let Err(Error(diagnostic)) =
            crate::function::write_entry_function(self, entry_id, void, entry_type)
        {
            self.diagnostics.push(*diagnostic);
            self.abandon_function();
        }
        for &handle in helpers {
            let (Some(function), Some(signature)) = (
                self.module.functions.try_get(handle),
                self.tables.functions.get(&handle).cloned(),
            ) else {
                continue;
            };
            if let Err(Error(diagnostic)) =
                crate::function::write_helper_function(self, function, &signature)
            {
                self.diagnostics.push(*diagnostic);
                self.abandon_function();
            }
        }

        let model = match entry.stage {
            ShaderStage::Vertex => ExecutionModel::Vertex,
            ShaderStage::Fragment => ExecutionModel::Fragment,
            ShaderStage::Compute => ExecutionModel::GLCompute,
        };
        // `OpEntryPoint` lists every global variable after its first word, model, id
        // and nul-terminated name.
        let name_words = entry.name.len() / 4 + 1;
        let Some(room) = MAX_INSTRUCTION_WORDS.checked_sub(3 + name_words) else {
            return Err(entry_name_too_long(entry));
        };
        let allowed = MAX_GLOBAL_VARIABLES.min(room);
        if self.tables.interface.len() > allowed {
            return Err(too_many_globals(
                entry,
                self.tables.interface.len(),
                allowed,
            ));
        }
        let interface = self.tables.interface.clone();
        self.b
            .entry_point(model, entry_id, entry.name.as_str(), interface);
        match entry.stage {
            ShaderStage::Compute => {
                self.b
                    .execution_mode(entry_id, ExecutionMode::LocalSize, entry.workgroup_size)
            }
            ShaderStage::Fragment => {
                self.b
                    .execution_mode(entry_id, ExecutionMode::OriginUpperLeft, [])
            }
            ShaderStage::Vertex => {}
        }
        self.name(entry_id, &entry.name);
        Ok(())
    }

    /// The pointer type to `pointee` in storage class `class`.
    pub(crate) fn pointer_type(&mut self, class: StorageClass, pointee: Word) -> Word {
        if let Some(&id) = self.tables.pointer_types.get(&(class, pointee)) {
            return id;
        }
        let id = self.b.type_pointer(class, pointee);
        self.tables.pointer_types.insert((class, pointee), id);
        id
    }

    /// The cached SPIR-V type of `scalar`, if it was declared already.
    #[inline]
    pub(crate) fn known_scalar_type(&self, scalar: Scalar) -> Option<Word> {
        let slot = scalar_slot(scalar)?;
        self.scalar_types.get(slot).copied().filter(|&id| id != 0)
    }

    /// Remembers `id` as the SPIR-V type of `scalar` (a scalar of a width SPIR-V has).
    pub(crate) fn remember_scalar_type(&mut self, scalar: Scalar, id: Word) {
        if let Some(known) = scalar_slot(scalar).and_then(|slot| self.scalar_types.get_mut(slot)) {
            *known = id;
        }
    }

    /// Ends a function left half-written by an error, so the builder can go on.
    fn abandon_function(&mut self) {
        if self.b.in_block() {
            let _ = self.b.unreachable();
        }
        if self.b.in_function() {
            let _ = self.b.end_function();
        }
    }

    /// The SPIR-V signature of a helper function.
    fn signature(&mut self, function: &Function) -> Result<FunctionSignature> {
        let return_type = match &function.result {
            Some(result) => self.value_type(result.ty)?,
            None => self.b.type_void(),
        };
        let mut parameter_types = Vec::with_capacity(function.arguments.len());
        for argument in &function.arguments {
            let ty = match *self.inner(argument.ty, None)? {
                TypeInner::Pointer { base, .. } => {
                    let base = self.value_type(base)?;
                    self.pointer_type(StorageClass::Function, base)
                }
                _ => self.value_type(argument.ty)?,
            };
            parameter_types.push(ty);
        }
        let function_type = self.b.type_function(return_type, &parameter_types);
        Ok(FunctionSignature {
            id: self.b.id(),
            return_type,
            function_type,
            parameter_types,
        })
    }

    /// Declares `capability` once.
    pub fn capability(&mut self, capability: Capability) {
        if !self.tables.capabilities.contains(&capability) {
            self.tables.capabilities.push(capability);
            self.b.capability(capability);
        }
    }

    /// The `GLSL.std.450` extended instruction set, imported on first use.
    pub fn glsl(&mut self) -> Word {
        match self.glsl {
            Some(id) => id,
            None => {
                let id = self.b.ext_inst_import("GLSL.std.450");
                self.glsl = Some(id);
                id
            }
        }
    }

    /// Names `id` for readers, unless names are stripped.
    pub fn name(&mut self, id: Word, name: &str) {
        if !self.options.strip_names && !name.is_empty() {
            self.b.name(id, name);
        }
    }

    /// The structure of IR type `ty`, checked to exist.
    #[inline]
    pub fn inner(&self, ty: Handle<Type>, span: Option<Span>) -> Result<&'a TypeInner> {
        let module: &'a Module = self.module;
        match module.types.try_get(ty) {
            Some(ty) => Ok(&ty.inner),
            None => Err(missing_type(ty, span)),
        }
    }

    /// The SPIR-V type of values of IR type `ty`.
    pub fn value_type(&mut self, ty: Handle<Type>) -> Result<Word> {
        if let Some(id) = self.tables.types.get(ty.index()).and_then(|ids| ids.plain) {
            return Ok(id);
        }
        self.type_id(ty, Layout::Plain)
    }

    /// A constant of `scalar` type with the bits `bits` (its low bits for narrow types).
    ///
    /// Inlined for its lookups (most calls find the constant); declaring one is out of line.
    #[inline]
    pub fn scalar_constant(&mut self, scalar: Scalar, bits: u64) -> Result<Word> {
        let slot = constant_slot(scalar);
        let known = match slot.zip(small_constant_key(scalar, bits)) {
            Some((slot, key)) => self
                .small_constants
                .get(slot)
                .and_then(|ids| ids.get(key))
                .filter(|&&id| id != 0),
            None => slot
                .and_then(|slot| self.tables.scalar_constants.get(slot))
                .and_then(|constants| constants.get(&bits)),
        };
        match known {
            Some(&id) => Ok(id),
            None => self.declare_scalar_constant(scalar, bits),
        }
    }

    /// Declares the constant of `scalar` type with the bits `bits`, which
    /// [`Self::scalar_constant`] did not find, and records it for later lookups.
    #[inline(never)]
    fn declare_scalar_constant(&mut self, scalar: Scalar, bits: u64) -> Result<Word> {
        let ty = self.scalar_type(scalar)?;
        let id = match (scalar.kind, scalar.width) {
            (ScalarKind::Bool, _) if bits != 0 => self.b.constant_true(ty),
            (ScalarKind::Bool, _) => self.b.constant_false(ty),
            (_, 8) => self.b.constant_bit64(ty, bits),
            (_, _) => self.b.constant_bit32(ty, bits as u32),
        };
        let slot = constant_slot(scalar);
        match slot.zip(small_constant_key(scalar, bits)) {
            Some((slot, key)) => {
                let known = self.small_constants.get_mut(slot);
                if let Some(known) = known.and_then(|ids| ids.get_mut(key)) {
                    *known = id;
                }
            }
            None => {
                if let Some(constants) =
                    slot.and_then(|slot| self.tables.scalar_constants.get_mut(slot))
                {
                    constants.insert(bits, id);
                }
            }
        }
        Ok(id)
    }

    /// The `uint` constant `value`.
    pub fn u32_constant(&mut self, value: u32) -> Result<Word> {
        self.scalar_constant(Scalar::U32, u64::from(value))
    }

    /// A constant of `scalar` type with value `value` (0, 1, …), splatted to `size`.
    pub fn number_constant(
        &mut self,
        scalar: Scalar,
        value: i8,
        size: Option<VectorSize>,
    ) -> Result<Word> {
        let bits = match (scalar.kind, scalar.width) {
            (ScalarKind::Float, 8) => f64::from(value).to_bits(),
            (ScalarKind::Float, 2) => u64::from(f16_bits(f32::from(value))),
            (ScalarKind::Float, _) => u64::from(f32::from(value).to_bits()),
            (ScalarKind::Bool, _) => u64::from(value != 0),
            (_, width) => (i64::from(value) as u64) & width_mask(width),
        };
        let component = self.scalar_constant(scalar, bits)?;
        match size {
            None => Ok(component),
            Some(size) => {
                let scalar_ty = self.scalar_type(scalar)?;
                let ty = self.b.type_vector(scalar_ty, size.count());
                let components = [component; 4];
                let count = (size.count() as usize).min(components.len());
                Ok(self.composite_constant(ty, components.get(..count).unwrap_or_default()))
            }
        }
    }

    /// An `OpConstantComposite` of type `ty` (cached).
    pub fn composite_constant(&mut self, ty: Word, components: &[Word]) -> Word {
        self.tables.composite_key.clear();
        self.tables.composite_key.push(ty);
        self.tables.composite_key.extend_from_slice(components);
        if let Some(&id) = self
            .tables
            .composite_constants
            .get(self.tables.composite_key.as_slice())
        {
            return id;
        }
        let id = self.b.constant_composite(ty, components);
        self.tables
            .composite_constants
            .insert(self.tables.composite_key.clone(), id);
        id
    }

    /// An `OpConstantNull` of type `ty` (cached).
    pub fn null_constant(&mut self, ty: Word) -> Word {
        if let Some(&id) = self.tables.composite_constants.get([ty].as_slice()) {
            return id;
        }
        let id = self.b.constant_null(ty);
        self.tables.composite_constants.insert(vec![ty], id);
        id
    }

    /// The zero value of IR type `ty`: a scalar zero, or `OpConstantNull`.
    pub fn zero_constant(&mut self, ty: Handle<Type>) -> Result<Word> {
        match *self.inner(ty, None)? {
            TypeInner::Scalar(scalar) => self.scalar_constant(scalar, 0),
            _ => {
                let id = self.value_type(ty)?;
                Ok(self.null_constant(id))
            }
        }
    }

    /// A module-level `OpVariable` of pointer type `pointer` in `class`.
    pub fn global_variable(
        &mut self,
        pointer: Word,
        class: StorageClass,
        initializer: Option<Word>,
    ) -> Word {
        let id = self.b.global_variable(pointer, class, initializer);
        self.tables.interface.push(id);
        id
    }

    /// The global `handle`, written on first use.
    pub fn global(
        &mut self,
        handle: Handle<GlobalVariable>,
        span: Option<Span>,
    ) -> Result<GlobalInfo> {
        if let Some(&info) = self.tables.globals.get(&handle) {
            return Ok(info);
        }
        let module: &'a Module = self.module;
        let global = module.global_variables.try_get(handle).ok_or_else(|| {
            Error::malformed(span, format!("global variable {handle:?} does not exist"))
        })?;
        let span = global.span.or(span);
        let info = match global.space {
            AddressSpace::Storage { writable } => {
                self.buffer(global, StorageClass::StorageBuffer, !writable, span)?
            }
            AddressSpace::Uniform
                if global
                    .resource
                    .as_ref()
                    .is_some_and(|r| r.kind == ResourceKind::PushConstant) =>
            {
                self.buffer(global, StorageClass::PushConstant, true, span)?
            }
            AddressSpace::Uniform => self.buffer(global, StorageClass::Uniform, true, span)?,
            AddressSpace::Private | AddressSpace::Workgroup => {
                let class = if global.space == AddressSpace::Private {
                    StorageClass::Private
                } else {
                    StorageClass::Workgroup
                };
                let pointee = self.value_type(global.ty)?;
                let pointer = self.pointer_type(class, pointee);
                // HLSL zero-initialises `static` globals; groupshared memory starts undefined.
                let initializer =
                    (class == StorageClass::Private).then(|| self.null_constant(pointee));
                let variable = self.global_variable(pointer, class, initializer);
                GlobalInfo {
                    variable,
                    class,
                    pointee,
                    wrapped: false,
                }
            }
            AddressSpace::Handle => self.handle_global(global, span)?,
            AddressSpace::Function => {
                return Err(Error::unsupported(
                    span,
                    format!(
                        "global '{}' is a texture, sampler or function-space variable, which the SPIR-V backend does not support yet",
                        global.name
                    ),
                ))
            }
        };
        self.name(info.variable, &global.name);
        self.tables.globals.insert(handle, info);
        Ok(info)
    }

    /// A buffer global: a `Block` struct in `class`, with its descriptor binding (none for
    /// a `PushConstant` block, which is no descriptor).
    fn buffer(
        &mut self,
        global: &GlobalVariable,
        class: StorageClass,
        read_only: bool,
        span: Option<Span>,
    ) -> Result<GlobalInfo> {
        let Some(resource) = &global.resource else {
            return Err(Error::malformed(
                span,
                format!("buffer '{}' has no resource binding", global.name),
            ));
        };
        let (pointee, wrapped) = self.block_struct(global.ty, read_only, class, span)?;
        let pointer = self.pointer_type(class, pointee);
        let variable = self.global_variable(pointer, class, None);
        if class != StorageClass::PushConstant {
            self.b.decorate(
                variable,
                Decoration::DescriptorSet,
                [Operand::LiteralBit32(resource.binding.set)],
            );
            self.b.decorate(
                variable,
                Decoration::Binding,
                [Operand::LiteralBit32(resource.binding.binding)],
            );
        }
        Ok(GlobalInfo {
            variable,
            class,
            pointee,
            wrapped,
        })
    }

    /// The input variable of a wave built-in (`SubgroupSize`, `SubgroupLocalInvocationId`).
    pub fn wave_input(&mut self, built_in: spirv::BuiltIn) -> Result<Word> {
        if let Some(&id) = self.tables.wave_inputs.get(&(built_in as u32)) {
            return Ok(id);
        }
        self.capability(Capability::GroupNonUniform);
        let uint = self.scalar_type(Scalar::U32)?;
        let pointer = self.pointer_type(StorageClass::Input, uint);
        let variable = self.global_variable(pointer, StorageClass::Input, None);
        self.b
            .decorate(variable, Decoration::BuiltIn, [Operand::BuiltIn(built_in)]);
        if self.entry.stage == ShaderStage::Fragment {
            self.b.decorate(variable, Decoration::Flat, []);
        }
        self.tables.wave_inputs.insert(built_in as u32, variable);
        Ok(variable)
    }
}

/// The mask of the low `width` bytes of a `u64`.
fn width_mask(width: u8) -> u64 {
    match width {
        1 => 0xff,
        2 => 0xffff,
        4 => 0xffff_ffff,
        _ => u64::MAX,
    }
}

/// The IEEE half-precision bits of a small integral `value`.
fn f16_bits(value: f32) -> u16 {
    if value == 0.0 {
        return 0;
    }
    let bits = value.to_bits();
    let sign = ((bits >> 16) & 0x8000) as u16;
    let exponent = ((bits >> 23) & 0xff) as i32 - 127 + 15;
    let mantissa = ((bits >> 13) & 0x3ff) as u16;
    sign | ((exponent.clamp(0, 31) as u16) << 10) | mantissa
}

/// The error for `entry`, whose module would declare `count` global variables, more than
/// the `allowed` that [`MAX_GLOBAL_VARIABLES`] and its `OpEntryPoint`'s words let it list.
#[cold]
fn too_many_globals(entry: &EntryPoint, count: usize, allowed: usize) -> Error {
    Error::unsupported(
        entry.span,
        format!(
            "the entry point '{}' uses {count} global variables (resources, static and \
             groupshared variables, stage inputs and outputs); SPIR-V allows at most \
             {allowed} (its limit is {MAX_GLOBAL_VARIABLES}, and the entry point lists \
             them in one instruction of at most {MAX_INSTRUCTION_WORDS} words): gather \
             some of them into arrays or structs",
            entry.name
        ),
    )
}

/// The error for an entry point whose name alone is longer than `OpEntryPoint` can hold.
#[cold]
fn entry_name_too_long(entry: &EntryPoint) -> Error {
    Error::unsupported(
        entry.span,
        format!(
            "the entry point's name is {} bytes long; SPIR-V writes it in one instruction \
             of at most {MAX_INSTRUCTION_WORDS} words, which holds a name of at most {} \
             bytes: give the entry point a shorter name",
            entry.name.len(),
            (MAX_INSTRUCTION_WORDS - 3) * 4 - 1
        ),
    )
}

/// The error for a helper `function` (declared at `span`) that SPIR-V cannot declare: it
/// takes more than [`MAX_FUNCTION_PARAMETERS`] parameters.
#[cold]
fn too_many_parameters(function: &Function, span: Option<Span>) -> Error {
    Error::unsupported(
        span,
        format!(
            "the function '{}' takes {} parameters; SPIR-V allows at most \
             {MAX_FUNCTION_PARAMETERS}: pass some of them together in a struct",
            function.name,
            function.arguments.len()
        ),
    )
}

/// The error for a type handle outside the module, kept out of line: the lookups that
/// make it are hot, and it never happens for IR the front end built.
#[cold]
fn missing_type(ty: Handle<Type>, span: Option<Span>) -> Error {
    Error::malformed(span, format!("type {ty:?} does not exist"))
}

/// How many scalar types [`scalar_slot`] tells apart: four kinds of four widths.
const SCALAR_SLOTS: usize = 16;

/// The slot of `scalar` in the writer's table of scalar types: one per kind and width
/// of 1, 2, 4 or 8 bytes; `None` for another width (which SPIR-V has no type for).
#[inline]
fn scalar_slot(scalar: Scalar) -> Option<usize> {
    let width = scalar.width;
    if !width.is_power_of_two() || width > 8 {
        return None;
    }
    Some(scalar.kind as usize * 4 + width.trailing_zeros() as usize)
}

/// How many constants of each type the writer keeps in its table of the commonest ones.
const SMALL_CONSTANTS: usize = 8;

/// The place of the constant of type `scalar` with bits `bits` in the writer's table of
/// the commonest constants, if it has one: integers and `bool`s from 0 to 7 by value, and
/// the floating-point 0.0 and 1.0 at 0 and 1.
#[inline]
fn small_constant_key(scalar: Scalar, bits: u64) -> Option<usize> {
    let one = match (scalar.kind, scalar.width) {
        (ScalarKind::Float, 2) => 0x3C00,
        (ScalarKind::Float, 4) => 0x3F80_0000,
        (ScalarKind::Float, 8) => 0x3FF0_0000_0000_0000,
        (ScalarKind::Float, _) => return None,
        _ => {
            return usize::try_from(bits)
                .ok()
                .filter(|&key| key < SMALL_CONSTANTS)
        }
    };
    match bits {
        0 => Some(0),
        _ if bits == one => Some(1),
        _ => None,
    }
}

/// The slot of `scalar`'s constants in the writer's table of scalar constants: its
/// [`scalar_slot`], except that every `bool` shares one, as they share one SPIR-V type.
#[inline]
fn constant_slot(scalar: Scalar) -> Option<usize> {
    match scalar.kind {
        ScalarKind::Bool => Some(ScalarKind::Bool as usize * 4),
        _ => scalar_slot(scalar),
    }
}
