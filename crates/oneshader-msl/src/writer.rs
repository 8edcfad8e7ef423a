//! The program level: what one entry point's output holds and in which order, the
//! entry function's signature and stage I/O, and the hidden parameters through which
//! helper functions reach globals and wave built-ins.

use oneshader_ir::concat_text;
use std::cell::RefCell;
use std::collections::BTreeSet;

use oneshader_ir::analysis::GlobalUse;
use oneshader_ir::{
    codes, AddressSpace, ArraySize, Binding, BodyFacts, BuiltIn, Diagnostic, EntryPoint,
    EntryPointInfo, Function, GlobalVariable, Handle, HandleVec, Interpolation, Module, ModuleInfo,
    Sampling, ScalarKind, ShaderStage, Span, Type, TypeInner,
};

use std::rc::Rc;

use crate::function::{FunctionWriter, Output};
use crate::layout::{Slot, StructTable, Types};
use crate::names::MslNames;
use crate::polyfill::Polyfill;
use crate::resources::{resource_indices, MslResourceIndex};
use crate::Options;
use oneshader_ir::text::push_decimal;
use oneshader_ir::text::{FunctionLists, Name, Scope};

/// Name of the hidden `[[thread_index_in_simdgroup]]` parameter.
pub const LANE_INDEX: &str = "_lane_index";
/// Name of the hidden `[[threads_per_simdgroup]]` parameter.
pub const LANE_COUNT: &str = "_lane_count";
/// Name of the hidden buffer-sizes parameter.
pub const BUFFER_SIZES: &str = "_buffer_sizes";

/// What a function reaches beyond its own parameters, directly or through calls: in MSL
/// each of these is a parameter it must be given.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Needs {
    /// Globals it uses (read, writes, queries or passes on, as
    /// [`ModuleInfo::global_uses`] counts them).
    pub globals: BTreeSet<Handle<GlobalVariable>>,
    /// `WaveGetLaneIndex`.
    pub lane_index: bool,
    /// `WaveGetLaneCount`.
    pub lane_count: bool,
    /// The runtime length of a buffer.
    pub buffer_sizes: bool,
}

impl Needs {
    /// The needs of code that uses `globals` (as [`ModuleInfo::global_uses`] counts
    /// uses) and whose body holds `facts`: a function's own needs, or for an entry point
    /// every global it reaches with its entry function's facts.
    fn direct(
        globals: impl IntoIterator<Item = Handle<GlobalVariable>>,
        facts: BodyFacts,
    ) -> Needs {
        Needs {
            globals: globals.into_iter().collect(),
            lane_index: facts.lane_index,
            lane_count: facts.lane_count,
            buffer_sizes: facts.array_length,
        }
    }

    /// Whether everything `other` needs is needed here too.
    fn covers(&self, other: &Needs) -> bool {
        other.globals.is_subset(&self.globals)
            && (self.lane_index || !other.lane_index)
            && (self.lane_count || !other.lane_count)
            && (self.buffer_sizes || !other.buffer_sizes)
    }

    fn absorb(&mut self, other: &Needs) {
        self.globals.extend(other.globals.iter().copied());
        self.lane_index |= other.lane_index;
        self.lane_count |= other.lane_count;
        self.buffer_sizes |= other.buffer_sizes;
    }
}

/// About how many bytes of MSL one IR expression becomes, to size the output.
const TEXT_PER_EXPRESSION: usize = 14;

/// Everything shared by the functions of one entry point's output.
pub struct Writer<'a> {
    /// The module.
    pub module: &'a Module,
    /// The backend options.
    pub options: &'a Options,
    /// The entry point written.
    pub entry: &'a EntryPoint,
    /// Type names and layouts.
    pub types: Types<'a>,
    /// The program-scope names (structs, functions, globals), for function scopes.
    pub program_names: Scope<'a>,
    /// MSL name of each global, by handle.
    pub global_names: HandleVec<GlobalVariable, Name<'a>>,
    /// MSL name of each function, by handle (empty for functions the entry point
    /// doesn't reach).
    pub function_names: HandleVec<Function, Name<'a>>,
    /// The functions the entry point reaches, in handle order.
    reachable: &'a [Handle<Function>],
    /// The functions the entry function calls itself.
    entry_callees: &'a [Handle<Function>],
    /// What the entry function's own body holds.
    entry_facts: BodyFacts,
    /// How the entry point uses each global, by handle.
    pub global_uses: &'a [GlobalUse],
    /// Whether the entry point uses some global atomically (when none, no pointer is
    /// atomic and nothing need be looked up per access).
    pub uses_atomics: bool,
    /// What each function needs passed, by handle.
    pub needs: &'a HandleVec<Function, Needs>,
    /// Each function's hidden parameters, once made ([`Writer::make_hidden`]).
    pub hidden: HandleVec<Function, Option<Hidden<'a>>>,
    /// The scope helpers are named in when their text is kept for other entry points:
    /// `Some` when this entry point gives the module's names.
    helper_scope: Option<&'a Scope<'a>>,
    /// The helpers' texts that earlier entry points of the module wrote.
    helper_texts: &'a RefCell<HandleVec<Function, Option<HelperText>>>,
    /// Argument-table slots, by global handle.
    pub resource_indices: &'a [Option<MslResourceIndex>],
    /// Helper functions the output needs.
    pub polyfills: BTreeSet<Polyfill>,
    /// Errors so far.
    pub diagnostics: Vec<Diagnostic>,
}

/// Bytes of text to expect per parameter declaration (`const device Particle* particles
/// [[buffer(12)]]` has 48): room made for them up front, so that their text is seldom copied as it grows.
const PARAMETER_TEXT: usize = 64;

/// The hidden parameters of a helper function: the globals and built-ins it reaches.
#[derive(Debug, Default, Clone)]
pub struct Hidden<'a> {
    /// Their declarations in the function's signature, separated by `, `.
    pub declarations: String,
    /// The names a call passes for them.
    pub names: Vec<Name<'a>>,
    /// The globals that can't be passed, reported wherever the parameters are written.
    pub errors: Vec<Diagnostic>,
}

/// An `OSH5101` error.
pub fn unsupported(span: Option<Span>, what: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(
        codes::MSL_UNSUPPORTED,
        span,
        format!("MSL output can't express {what}"),
    )
}

/// What the MSL outputs of every entry point of one module share, worked out once:
/// each function's needs, the argument-table slots and, when the module's names allow
/// it, the program-scope names and the struct layouts.
pub struct ModuleWriter<'a> {
    module: &'a Module,
    info: &'a ModuleInfo,
    options: Options,
    /// What each function needs passed, by handle (its callees' needs included).
    needs: HandleVec<Function, Needs>,
    /// Argument-table slots, by global handle.
    resource_indices: Vec<Option<MslResourceIndex>>,
    /// The names every entry point's program scope gives, when they are the same for all.
    names: Option<ModuleNames<'a>>,
    /// With `names`, every program-scope name an entry point can take (the module's names
    /// and each entry function's), shared: the scope that helpers whose text is kept for
    /// other entry points are named in.
    helper_scope: Option<Scope<'a>>,
    /// Each helper's text as an entry point wrote it, by handle, for the next entry
    /// points that reach it.
    helper_texts: RefCell<HandleVec<Function, Option<HelperText>>>,
}

/// A helper function's text as one entry point wrote it, kept for the module's other
/// entry points, with what it depends on in that entry point and what writing it recorded.
///
/// Kept only when the entry point gives the module's names ([`ModuleNames`]), so that
/// the names of the globals, structs and functions it refers to are the same in every
/// entry point, and when its parameters and locals were named clashing with no
/// program-scope name any entry point can take ([`ModuleWriter::helper_scope`]), so that
/// they are too. What else of the entry point a function's text reads is the stage
/// (errors for derivatives, wave operations and barriers) and how the entry point uses
/// the globals the function reaches (its hidden parameters' types, atomics, depth
/// textures).
struct HelperText {
    /// The stage of the entry point that wrote it.
    stage: ShaderStage,
    /// How that entry point uses each global the function reaches, by global.
    uses: Vec<(Handle<GlobalVariable>, GlobalUse)>,
    /// The types its text names, with whether atomically (the structs their names need
    /// are declared).
    types: Vec<(Handle<Type>, bool)>,
    /// The helper functions its text calls.
    polyfills: BTreeSet<Polyfill>,
    /// The function's text.
    text: String,
}

/// The program-scope names of a module whose globals, functions and structs all keep
/// their sanitized names (no two of them clash).
///
/// An entry point's program scope names its entry function, every global, the functions
/// it reaches and every struct, in that order (see [`Writer::new`]). When no two of those
/// names clash module-wide and the entry function's name clashes with none of them, each
/// keeps its sanitized name whatever the entry point reaches: the names made here once
/// are the names the entry point would make.
struct ModuleNames<'a> {
    /// Every name below: what an entry function's name must not be for them to hold.
    all: Scope<'a>,
    /// The names of the globals and structs, taken: the scope an entry point's program
    /// scope opens inside.
    program: Scope<'a>,
    /// MSL name of each global, by handle.
    global_names: HandleVec<GlobalVariable, Name<'a>>,
    /// MSL name of each function, by handle.
    function_names: HandleVec<Function, Name<'a>>,
    /// The struct names and layouts.
    structs: Rc<StructTable<'a>>,
}

impl<'a> ModuleNames<'a> {
    /// The module's names, or `None` when two of them clash.
    fn new(module: &'a Module) -> Option<Self> {
        let mut all = Scope::new();
        let structs = module
            .types
            .iter()
            .filter(|(_, ty)| matches!(ty.inner, TypeInner::Struct { .. }))
            .count();
        all.reserve(module.global_variables.len() + module.functions.len() + 2 * structs);
        let global_names: HandleVec<GlobalVariable, Name<'a>> = module
            .global_variables
            .iter()
            .map(|(_, g)| all.name_in_ir(&g.name))
            .collect();
        let function_names = module
            .functions
            .iter()
            .map(|(_, f)| all.name_in_ir(&f.name))
            .collect();
        let structs = StructTable::new(module, &mut all);
        if all.numbered() {
            return None;
        }
        let mut program = Scope::new();
        program.reserve(global_names.len() + structs.struct_names().count());
        for (_, name) in global_names.iter() {
            program.keep(name);
        }
        for name in structs.struct_names() {
            program.keep(name);
        }
        program.share();
        Some(ModuleNames {
            all,
            program,
            global_names,
            function_names,
            structs: Rc::new(structs),
        })
    }
}

impl<'a> ModuleWriter<'a> {
    /// Prepares the MSL outputs of `module`'s entry points, whose facts `info` holds.
    pub fn new(module: &'a Module, info: &'a ModuleInfo, options: &Options) -> Self {
        // With one entry point there is nothing to share.
        let names = if module.entry_points.len() > 1 {
            ModuleNames::new(module)
        } else {
            None
        };
        let helper_scope = names.as_ref().map(|names| {
            let mut scope = names.all.clone();
            scope.reserve(module.entry_points.len());
            for entry in &module.entry_points {
                scope.keep(&Name::Owned(Rc::from(crate::names::sanitize(&entry.name))));
            }
            scope.share();
            scope
        });
        ModuleWriter {
            module,
            info,
            options: options.clone(),
            needs: function_needs(module, info),
            resource_indices: resource_indices(module),
            names,
            helper_scope,
            helper_texts: RefCell::new(module.functions.iter().map(|_| None).collect()),
        }
    }

    /// Writes entry point `entry` (an index into `module.entry_points`).
    pub fn write_entry_point(&self, entry: usize) -> Result<String, Vec<Diagnostic>> {
        let (Some(entry_point), Some(entry_info)) = (
            self.module.entry_points.get(entry),
            self.info.entry_point(entry),
        ) else {
            return Err(vec![Diagnostic::error(
                codes::ENTRY_POINT_NOT_FOUND,
                None,
                format!("the module has no entry point number {entry}"),
            )]);
        };
        let mut writer = Writer::new(self, entry_point, entry_info);
        let text = writer.write_program();
        if writer.diagnostics.is_empty() {
            Ok(text)
        } else {
            Err(writer.diagnostics)
        }
    }
}

/// What each function of `module` needs passed: its own needs and its callees'.
fn function_needs(module: &Module, info: &ModuleInfo) -> HandleVec<Function, Needs> {
    let mut needs: HandleVec<Function, Needs> = module
        .functions
        .iter()
        .map(|(handle, _)| {
            let globals = info.global_uses(handle).iter().map(|&(global, _)| global);
            Needs::direct(globals, info.body_facts(handle))
        })
        .collect();
    // Propagate callees' needs to callers; each round settles at least one more level of
    // the call graph. A callee's needs are copied only when they add something, so the
    // last round (which finds nothing new) copies nothing.
    let calls: Vec<(Handle<Function>, &[Handle<Function>])> = module
        .functions
        .iter()
        .map(|(handle, _)| (handle, info.callees(handle)))
        .filter(|(_, callees)| !callees.is_empty())
        .collect();
    for _ in 0..=needs.len() {
        let mut changed = false;
        for &(handle, callees) in &calls {
            for &callee in callees {
                let new = match (needs.try_get(callee), needs.try_get(handle)) {
                    (Some(theirs), Some(mine)) if !mine.covers(theirs) => theirs.clone(),
                    _ => continue,
                };
                needs[handle].absorb(&new);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    needs
}

impl<'a> Writer<'a> {
    /// The writer of `entry`, whose facts `entry_info` holds, with what `shared` worked
    /// out for its module.
    fn new(
        shared: &'a ModuleWriter<'a>,
        entry: &'a EntryPoint,
        entry_info: &'a EntryPointInfo,
    ) -> Self {
        let module = shared.module;
        let reachable = entry_info.reachable_functions.as_slice();
        let mut is_reachable = vec![false; module.functions.len()];
        for handle in reachable {
            if let Some(slot) = is_reachable.get_mut(handle.index()) {
                *slot = true;
            }
        }
        let is_reachable =
            |handle: Handle<Function>| is_reachable.get(handle.index()).is_some_and(|&r| r);
        let entry_name = crate::names::sanitize(&entry.name);
        let (program_names, global_names, function_names, types, helper_scope) = match &shared.names
        {
            Some(names) if !names.all.is_taken(&entry_name) => {
                // Every name is the module's: only the entry function and the reached
                // functions are to be taken in this entry point's scope.
                let mut namer = names.program.inner();
                namer.reserve(1 + reachable.len());
                namer.keep(&Name::Owned(Rc::from(entry_name)));
                let function_names = names
                    .function_names
                    .iter()
                    .map(|(handle, name)| {
                        if is_reachable(handle) {
                            namer.keep(name);
                            name.clone()
                        } else {
                            Name::default()
                        }
                    })
                    .collect();
                namer.share();
                (
                    namer,
                    names.global_names.clone(),
                    function_names,
                    Types::new(Rc::clone(&names.structs)),
                    shared.helper_scope.as_ref(),
                )
            }
            _ => {
                let mut namer = Scope::new();
                let structs = module
                    .types
                    .iter()
                    .filter(|(_, ty)| matches!(ty.inner, TypeInner::Struct { .. }))
                    .count();
                namer.reserve(1 + module.global_variables.len() + reachable.len() + 2 * structs);
                // The entry point is named first so that it keeps its HLSL name when it
                // can.
                namer.name_in_ir(&entry.name);
                let global_names = module
                    .global_variables
                    .iter()
                    .map(|(_, g)| namer.name_in_ir(&g.name))
                    .collect();
                let function_names = module
                    .functions
                    .iter()
                    .map(|(handle, f)| {
                        if is_reachable(handle) {
                            namer.name_in_ir(&f.name)
                        } else {
                            Name::default()
                        }
                    })
                    .collect();
                let types = Types::new(Rc::new(StructTable::new(module, &mut namer)));
                namer.share();
                (namer, global_names, function_names, types, None)
            }
        };
        Writer {
            module,
            options: &shared.options,
            entry,
            types,
            program_names,
            global_names,
            function_names,
            global_uses: &entry_info.global_uses,
            uses_atomics: entry_info.global_uses.iter().any(|u| u.atomic),
            entry_callees: &entry_info.callees,
            entry_facts: entry_info.body_facts,
            hidden: HandleVec::from_len(shared.needs.len(), None),
            helper_scope,
            helper_texts: &shared.helper_texts,
            needs: &shared.needs,
            reachable,
            resource_indices: &shared.resource_indices,
            polyfills: BTreeSet::new(),
            diagnostics: Vec::new(),
        }
    }

    /// The needs of the entry function: its own and its callees'.
    fn entry_needs(&self) -> Needs {
        // The globals it reaches, its own and its callees'.
        let globals = self
            .global_uses
            .iter()
            .enumerate()
            .filter(|(_, used)| used.is_used())
            .map(|(index, _)| Handle::from_index(index));
        let mut needs = Needs::direct(globals, self.entry_facts);
        for &callee in self.entry_callees {
            if let Some(theirs) = self.needs.try_get(callee) {
                needs.absorb(theirs);
            }
        }
        needs
    }

    fn write_program(&mut self) -> String {
        // Sized from the expression count, so that the text is seldom copied as it grows.
        let expressions: usize = self
            .reachable
            .iter()
            .filter_map(|&handle| self.module.functions.try_get(handle))
            .chain(std::iter::once(&self.entry.function))
            .map(|function| function.expressions.len())
            .sum();
        let mut functions = String::with_capacity(1024 + expressions * TEXT_PER_EXPRESSION);
        let mut lists = FunctionLists::default();
        for &handle in self.reachable {
            let Some(function) = self.module.functions.try_get(handle) else {
                continue;
            };
            functions = self.write_kept_helper(handle, function, functions, &mut lists);
            functions.push('\n');
        }
        functions = self
            .program_names
            .inner()
            .with_lists(&mut lists, |namer, lists| {
                self.write_entry(functions, namer, lists)
            });

        // The declarations the functions need, put before them: the functions' text is
        // moved up in place, which measured cheaper than copying both into a new string.
        let mut out = String::with_capacity(1024);
        out.push_str("#include <metal_stdlib>\nusing namespace metal;\n\n");
        // Walked out of the types, which declaring takes; what declaring marks (nothing
        // new: a struct's members are named when it is marked) goes back with them.
        let mut structs = std::mem::take(&mut self.types.used_structs);
        for &ty in &structs {
            match self.types.write_declaration(&mut out, ty) {
                Ok(()) => out.push('\n'),
                Err(what) => self.diagnostics.push(unsupported(None, what)),
            }
        }
        structs.append(&mut self.types.used_structs);
        self.types.used_structs = structs;
        let mut atomic_structs = std::mem::take(&mut self.types.used_atomic_structs);
        for &ty in &atomic_structs {
            match self.types.write_atomic_declaration(&mut out, ty) {
                Ok(()) => out.push('\n'),
                Err(what) => self.diagnostics.push(unsupported(None, what)),
            }
        }
        atomic_structs.append(&mut self.types.used_atomic_structs);
        self.types.used_atomic_structs = atomic_structs;
        for polyfill in &self.polyfills {
            out.push_str(&polyfill.definition());
            out.push('\n');
        }
        functions.insert_str(0, &out);
        functions
    }

    /// Makes the hidden parameters of `function` on first use, into [`Writer::hidden`]:
    /// its parameters for the globals and built-ins it reaches, and the names its calls
    /// pass.
    pub fn make_hidden(&mut self, function: Handle<Function>) {
        if !matches!(self.hidden.try_get(function), Some(None)) {
            return;
        }
        let needs = self.needs.try_get(function);
        let built_ins = [
            (
                needs.is_some_and(|n| n.lane_index),
                "uint _lane_index",
                LANE_INDEX,
            ),
            (
                needs.is_some_and(|n| n.lane_count),
                "uint _lane_count",
                LANE_COUNT,
            ),
            (
                needs.is_some_and(|n| n.buffer_sizes),
                "constant uint* _buffer_sizes",
                BUFFER_SIZES,
            ),
        ];
        let count = needs.map_or(0, |needs| needs.globals.len())
            + built_ins.iter().filter(|(needed, ..)| *needed).count();
        let mut hidden = Hidden {
            // Room for every declaration, so that the text is made once.
            declarations: String::with_capacity(count * PARAMETER_TEXT),
            names: Vec::with_capacity(count),
            ..Hidden::default()
        };
        for &global in needs.into_iter().flat_map(|needs| &needs.globals) {
            let start = hidden.declarations.len();
            if start > 0 {
                hidden.declarations.push_str(", ");
            }
            match self.push_global_parameter(&mut hidden.declarations, global) {
                Ok(true) => hidden.names.push(self.global_names[global].clone()),
                Ok(false) => hidden.declarations.truncate(start),
                Err(error) => {
                    hidden.declarations.truncate(start);
                    hidden.errors.push(error);
                }
            }
        }
        for (needed, declaration, name) in built_ins {
            if needed {
                if !hidden.declarations.is_empty() {
                    hidden.declarations.push_str(", ");
                }
                hidden.declarations.push_str(declaration);
                hidden.names.push(Name::Borrowed(name));
            }
        }
        if let Some(slot) = self.hidden.try_get_mut(function) {
            *slot = Some(hidden);
        }
    }

    /// Appends the declaration of a global as a helper parameter to `out`: a resource as
    /// it comes into the entry point, `threadgroup`/`thread` data by reference. `false`
    /// for globals that need no parameter; on an error, part of it may have been appended.
    fn push_global_parameter(
        &mut self,
        out: &mut String,
        handle: Handle<GlobalVariable>,
    ) -> Result<bool, Diagnostic> {
        let Some(global) = self.module.global_variables.try_get(handle) else {
            return Ok(false);
        };
        let name = self.global_names[handle].clone();
        let atomic = self
            .global_uses
            .get(handle.index())
            .is_some_and(|u| u.atomic);
        let span = global.span;
        let err =
            |what: String| unsupported(span, concat_text!(what, " (global `", global.name, "`)"));
        match global.space {
            AddressSpace::Storage { .. } | AddressSpace::Uniform | AddressSpace::Handle => {
                self.push_resource_type(out, global, atomic).map_err(err)?;
                out.push(' ');
            }
            AddressSpace::Workgroup => {
                let ty = self.value_type(global.ty, atomic).map_err(err)?;
                out.push_str("threadgroup ");
                out.push_str(ty);
                out.push_str("& ");
            }
            AddressSpace::Private => {
                let ty = self.value_type(global.ty, atomic).map_err(err)?;
                out.push_str("thread ");
                out.push_str(ty);
                out.push_str("& ");
            }
            AddressSpace::Function => return Ok(false),
        }
        out.push_str(&name);
        Ok(true)
    }

    fn value_type(&mut self, ty: Handle<Type>, atomic: bool) -> Result<&str, String> {
        self.types.name_with(ty, atomic)
    }

    /// Appends the parameter type of a resource to `out`: `const device float*`,
    /// `constant Params&`, `texture2d<float>`. On an error, part of it may have been
    /// appended.
    fn push_resource_type(
        &mut self,
        out: &mut String,
        global: &GlobalVariable,
        atomic: bool,
    ) -> Result<(), String> {
        if self.types.has_inexact_layout(global.ty) {
            return Err(
                "a buffer of a struct whose HLSL member offsets MSL can't reproduce".into(),
            );
        }
        match global.space {
            AddressSpace::Storage { writable } => {
                let qualifier = if writable || atomic {
                    "device"
                } else {
                    "const device"
                };
                match self.types.inner(global.ty) {
                    Some(&TypeInner::Array {
                        base,
                        size: ArraySize::Runtime,
                        stride,
                    }) => {
                        let element = self.types.buffer_element_name(base, stride, atomic)?;
                        out.push_str(qualifier);
                        out.push(' ');
                        out.push_str(&element);
                        out.push('*');
                    }
                    _ => {
                        let ty = self.value_type(global.ty, atomic)?;
                        out.push_str(qualifier);
                        out.push(' ');
                        out.push_str(ty);
                        out.push('&');
                    }
                }
            }
            AddressSpace::Uniform => {
                let ty = self.types.name(global.ty)?;
                out.push_str("constant ");
                out.push_str(ty);
                out.push('&');
            }
            AddressSpace::Handle => match self.types.inner(global.ty) {
                Some(&TypeInner::Image {
                    dim,
                    arrayed,
                    class,
                }) => {
                    let index = self
                        .module
                        .global_variables
                        .iter()
                        .position(|(_, g)| std::ptr::eq(g, global));
                    let usage = index
                        .and_then(|i| self.global_uses.get(i).copied())
                        .unwrap_or_default();
                    out.push_str(&crate::layout::texture_name(dim, arrayed, class, usage)?);
                }
                _ => out.push_str(self.types.name(global.ty)?),
            },
            _ => out.push_str(self.types.name(global.ty)?),
        }
        Ok(())
    }

    /// Appends helper `handle` to `out`, and returns it: the text an earlier entry point
    /// of the module wrote for it when it holds here too ([`HelperText`]), else written
    /// anew, and kept for the next entry points when it can be.
    fn write_kept_helper(
        &mut self,
        handle: Handle<Function>,
        function: &'a Function,
        out: String,
        lists: &mut FunctionLists<'a>,
    ) -> String {
        let mut out = out;
        let Some(scope) = self.helper_scope else {
            return self.write_helper_in_program_scope(handle, function, out, lists);
        };
        if let Some(Some(kept)) = self.helper_texts.borrow().try_get(handle) {
            let alike = kept.stage == self.entry.stage
                && kept
                    .uses
                    .iter()
                    .all(|&(global, used)| self.global_uses.get(global.index()) == Some(&used));
            if alike {
                out.push_str(&kept.text);
                self.types.name_all(&kept.types);
                self.polyfills.extend(kept.polyfills.iter().cloned());
                return out;
            }
        }
        // Written with records of its own: the types it names and the polyfills it calls,
        // whatever the functions before it named and called.
        let start = out.len();
        let diagnostics = self.diagnostics.len();
        self.types.start_recording();
        let polyfills_before = std::mem::take(&mut self.polyfills);
        let (written, clashed_outside) = scope.inner().with_lists(lists, |namer, lists| {
            let out = self.write_helper(handle, function, out, namer, lists);
            (out, namer.clashed_outside())
        });
        out = written;
        let types = self.types.stop_recording();
        let polyfills = std::mem::replace(&mut self.polyfills, polyfills_before);
        self.polyfills.extend(polyfills.iter().cloned());
        if self.diagnostics.len() == diagnostics && !clashed_outside {
            let uses = self
                .needs
                .try_get(handle)
                .map(|needs| {
                    needs
                        .globals
                        .iter()
                        .map(|&global| {
                            let used = self.global_uses.get(global.index()).copied();
                            (global, used.unwrap_or_default())
                        })
                        .collect()
                })
                .unwrap_or_default();
            let kept = HelperText {
                stage: self.entry.stage,
                uses,
                types,
                polyfills,
                text: out.get(start..).unwrap_or_default().to_owned(),
            };
            if let Some(slot) = self.helper_texts.borrow_mut().try_get_mut(handle) {
                *slot = Some(kept);
            }
        } else {
            // Named or written differently here than in the scope of every entry point:
            // written again as this entry point writes it.
            out.truncate(start);
            self.diagnostics.truncate(diagnostics);
            out = self.write_helper_in_program_scope(handle, function, out, lists);
        }
        out
    }

    /// [`Writer::write_helper`] in a scope inside this entry point's program scope, as it
    /// writes the helpers whose text no other entry point shares.
    fn write_helper_in_program_scope(
        &mut self,
        handle: Handle<Function>,
        function: &'a Function,
        out: String,
        lists: &mut FunctionLists<'a>,
    ) -> String {
        self.program_names
            .inner()
            .with_lists(lists, |namer, lists| {
                self.write_helper(handle, function, out, namer, lists)
            })
    }

    /// Appends helper function `handle` to `out`, naming its parameters and locals in
    /// `namer` (a scope inside the program's) with `lists`, and returns it.
    fn write_helper(
        &mut self,
        handle: Handle<Function>,
        function: &'a Function,
        out: String,
        namer: &mut Scope<'a>,
        lists: &mut FunctionLists<'a>,
    ) -> String {
        let mut out = out;
        namer.reserve(function.arguments.len() + function.local_variables.len());
        // The signature goes straight into the output; an error about the result is
        // reported after the parameters' (the order they are declared in).
        let result_error = match &function.result {
            None => {
                out.push_str("void");
                None
            }
            Some(result) => match self.types.name(result.ty) {
                Ok(ty) => {
                    out.push_str(ty);
                    None
                }
                Err(what) => {
                    out.push_str("void");
                    Some(unsupported(
                        None,
                        concat_text!(what, " (result of `", function.name, "`)"),
                    ))
                }
            },
        };
        out.push(' ');
        out.push_str(&self.function_names[handle]);
        out.push('(');
        let mut first = true;
        for argument in &function.arguments {
            let name = namer.name_in_ir(&argument.name);
            let (qualifier, ty) = match self.types.inner(argument.ty) {
                Some(&TypeInner::Pointer { base, space }) => (Some(space_qualifier(space)), base),
                _ => (None, argument.ty),
            };
            match self.types.name(ty) {
                Ok(ty) => {
                    if !first {
                        out.push_str(", ");
                    }
                    first = false;
                    if let Some(qualifier) = qualifier {
                        out.push_str(qualifier);
                        out.push(' ');
                    }
                    out.push_str(ty);
                    out.push_str(if qualifier.is_some() { "& " } else { " " });
                    out.push_str(&name);
                }
                Err(what) => self.diagnostics.push(unsupported(
                    None,
                    concat_text!(
                        what,
                        " (parameter `",
                        argument.name,
                        "` of `",
                        function.name,
                        "`)"
                    ),
                )),
            }
            lists.arguments.push(name);
        }
        self.make_hidden(handle);
        if let Some(Some(hidden)) = self.hidden.try_get(handle) {
            if !hidden.declarations.is_empty() {
                if !first {
                    out.push_str(", ");
                }
                out.push_str(&hidden.declarations);
            }
            self.diagnostics.extend(hidden.errors.iter().cloned());
        }
        self.diagnostics.extend(result_error);
        out.push_str(") {\n");
        let mut out =
            FunctionWriter::new(self, function, namer, lists, Output::Helper, out).write_body(&[]);
        out.push_str("}\n");
        out
    }

    /// Appends the entry function (and its stage I/O structs) to `out`, naming its
    /// parameters and locals in `namer` (a scope inside the program's) with `lists`, and
    /// returns it.
    fn write_entry(
        &mut self,
        out: String,
        namer: &mut Scope<'a>,
        lists: &mut FunctionLists<'a>,
    ) -> String {
        let mut out = out;
        let entry = self.entry;
        let function = &entry.function;
        let stage = entry.stage;
        namer.reserve(function.arguments.len() + function.local_variables.len());
        let mut parameters: Vec<String> = Vec::new();
        let mut stage_in: Vec<String> = Vec::new();
        let mut prologue: Vec<String> = Vec::new();

        for argument in &function.arguments {
            let name = namer.name_in_ir(&argument.name);
            match &argument.binding {
                Some(binding) => {
                    match self.input(binding, argument.ty, &name) {
                        Ok(Input::Parameter(p)) => parameters.push(p),
                        Ok(Input::StageIn(m)) => {
                            stage_in.push(m);
                            lists
                                .arguments
                                .push(Name::Owned(Rc::from(concat_text!("_in.", name))));
                            continue;
                        }
                        Err(e) => self.diagnostics.push(e),
                    }
                    lists.arguments.push(name);
                }
                None => {
                    // A struct whose members carry the bindings.
                    let Some(TypeInner::Struct { members, .. }) = self.types.inner(argument.ty)
                    else {
                        self.diagnostics.push(unsupported(
                            entry.span,
                            concat_text!(
                                "entry point parameter `",
                                argument.name,
                                "` without a semantic"
                            ),
                        ));
                        lists.arguments.push(name);
                        continue;
                    };
                    let mut values = Vec::new();
                    for (index, member) in members.iter().enumerate() {
                        let member_name = self.types.member_name(argument.ty, index).unwrap_or("m");
                        let flat = namer.name(&concat_text!(name, "_", member_name));
                        let Some(binding) = &member.binding else {
                            self.diagnostics.push(unsupported(
                                entry.span,
                                concat_text!(
                                    "member `",
                                    member.name,
                                    "` of entry point parameter `",
                                    argument.name,
                                    "` without a semantic"
                                ),
                            ));
                            continue;
                        };
                        match self.input(binding, member.ty, &flat) {
                            Ok(Input::Parameter(p)) => {
                                parameters.push(p);
                                values.push(flat.to_string());
                            }
                            Ok(Input::StageIn(m)) => {
                                stage_in.push(m);
                                values.push(concat_text!("_in.", flat));
                            }
                            Err(e) => self.diagnostics.push(e),
                        }
                    }
                    let ty = self.types.name(argument.ty).unwrap_or_default().to_owned();
                    let initializer = self.struct_initializer(argument.ty, values);
                    prologue.push(concat_text!(ty, " ", name, " = ", ty, initializer, ";"));
                    lists.arguments.push(name);
                }
            }
        }
        if !stage_in.is_empty() {
            parameters.push("_stage_in _in [[stage_in]]".into());
        }

        // Resources in argument-table order, then hidden built-ins.
        let needs = self.entry_needs();
        let mut resources: Vec<(MslResourceIndex, String)> = Vec::new();
        // `threadgroup` and per-thread globals, declared first in the body.
        let mut declarations: Vec<String> = Vec::new();
        for &handle in &needs.globals {
            let Some(global) = self.module.global_variables.try_get(handle) else {
                continue;
            };
            let name = self.global_names[handle].clone();
            let atomic = self
                .global_uses
                .get(handle.index())
                .is_some_and(|u| u.atomic);
            let err = |what: String| {
                unsupported(
                    global.span,
                    concat_text!(what, " (global `", global.name, "`)"),
                )
            };
            match global.space {
                AddressSpace::Storage { .. } | AddressSpace::Uniform | AddressSpace::Handle => {
                    let Some(index) = self.resource_indices.get(handle.index()).copied().flatten()
                    else {
                        self.diagnostics
                            .push(err("a buffer or texture without a binding".into()));
                        continue;
                    };
                    let mut parameter = String::with_capacity(PARAMETER_TEXT);
                    match self.push_resource_type(&mut parameter, global, atomic) {
                        Ok(()) => {
                            parameter.push(' ');
                            parameter.push_str(&name);
                            parameter.push_str(" [[");
                            parameter.push_str(index.table.attribute());
                            parameter.push('(');
                            push_decimal(&mut parameter, u64::from(index.index));
                            parameter.push_str(")]]");
                            resources.push((index, parameter));
                        }
                        Err(what) => self.diagnostics.push(err(what)),
                    }
                }
                AddressSpace::Workgroup => {
                    if stage != ShaderStage::Compute {
                        self.diagnostics.push(err(concat_text!(
                            "groupshared data in a ",
                            stage.name(),
                            " shader"
                        )));
                    }
                    match self.value_type(global.ty, atomic) {
                        Ok(ty) => {
                            declarations.push(concat_text!("threadgroup ", ty, " ", name, ";"))
                        }
                        Err(what) => self.diagnostics.push(err(what)),
                    }
                }
                AddressSpace::Private => match self.value_type(global.ty, false) {
                    Ok(ty) => declarations.push(concat_text!(ty, " ", name, " = {};")),
                    Err(what) => self.diagnostics.push(err(what)),
                },
                AddressSpace::Function => {}
            }
        }
        declarations.append(&mut prologue);
        let prologue = declarations;
        resources.sort_by_key(|(index, _)| (index.table, index.index));
        parameters.extend(resources.into_iter().map(|(_, p)| p));
        // Without the option, the ArrayLength expression reports the error, with its span.
        if let (true, Some(index)) = (needs.buffer_sizes, self.options.buffer_sizes_index) {
            parameters.push(format!("constant uint* _buffer_sizes [[buffer({index})]]"));
        }
        for (needed, parameter) in [
            (
                needs.lane_index,
                "uint _lane_index [[thread_index_in_simdgroup]]",
            ),
            (
                needs.lane_count,
                "uint _lane_count [[threads_per_simdgroup]]",
            ),
        ] {
            if !needed {
                continue;
            }
            // In a vertex shader the expression writer reports each use (OSH5102).
            if stage != ShaderStage::Vertex {
                parameters.push(parameter.into());
            }
        }

        // Outputs.
        let mut stage_out: Vec<String> = Vec::new();
        let output = match &function.result {
            None => Output::EntryVoid,
            Some(result) => match &result.binding {
                Some(binding) => {
                    match self.output_member(binding, result.ty, "_value") {
                        Ok(member) => stage_out.push(member),
                        Err(e) => self.diagnostics.push(e),
                    }
                    Output::EntrySingle
                }
                None => {
                    let mut accessors = Vec::new();
                    if let Some(TypeInner::Struct { members, .. }) = self.types.inner(result.ty) {
                        let mut out_namer = Scope::new();
                        for (index, member) in members.iter().enumerate() {
                            let member_name = self
                                .types
                                .member_name(result.ty, index)
                                .unwrap_or("m")
                                .to_string();
                            let out_name = out_namer.name(&member_name);
                            match &member.binding {
                                Some(binding) => {
                                    match self.output_member(binding, member.ty, &out_name) {
                                        Ok(m) => stage_out.push(m),
                                        Err(e) => self.diagnostics.push(e),
                                    }
                                }
                                None => self.diagnostics.push(unsupported(
                                    entry.span,
                                    concat_text!(
                                        "entry point result member `",
                                        member.name,
                                        "` without a semantic"
                                    ),
                                )),
                            }
                            accessors.push(member_name);
                        }
                    } else {
                        self.diagnostics.push(unsupported(
                            entry.span,
                            "an entry point result without a semantic",
                        ));
                    }
                    let ty = self.types.name(result.ty).unwrap_or_default().to_owned();
                    Output::EntryStruct { ty, accessors }
                }
            },
        };

        let entry_name = self.program_entry_name();
        let (qualifier, result) = match stage {
            ShaderStage::Compute => ("kernel", "void"),
            ShaderStage::Vertex => (
                "vertex",
                if stage_out.is_empty() {
                    "void"
                } else {
                    "_stage_out"
                },
            ),
            ShaderStage::Fragment => (
                "fragment",
                if stage_out.is_empty() {
                    "void"
                } else {
                    "_stage_out"
                },
            ),
        };
        if stage == ShaderStage::Compute && function.result.is_some() {
            self.diagnostics.push(unsupported(
                entry.span,
                "a compute entry point that returns a value",
            ));
        }
        let output = if stage_out.is_empty() && !matches!(output, Output::EntryVoid) {
            Output::EntryVoid
        } else {
            output
        };

        for (name, members) in [("_stage_in", &stage_in), ("_stage_out", &stage_out)] {
            if !members.is_empty() {
                out.push_str("struct ");
                out.push_str(name);
                out.push_str(" {\n");
                for member in members {
                    out.push_str("    ");
                    out.push_str(member);
                    out.push_str(";\n");
                }
                out.push_str("};\n\n");
            }
        }
        for piece in [qualifier, " ", result, " ", &entry_name, "("] {
            out.push_str(piece);
        }
        for (index, parameter) in parameters.iter().enumerate() {
            if index > 0 {
                out.push_str(", ");
            }
            out.push_str(parameter);
        }
        out.push_str(") {\n");
        let mut out =
            FunctionWriter::new(self, function, namer, lists, output, out).write_body(&prologue);
        out.push_str("}\n");
        out
    }

    /// The entry function's name (taken first in the program scope).
    fn program_entry_name(&self) -> String {
        crate::names::sanitize(&self.entry.name)
    }

    /// `{ a, {}, b }`: a struct initializer from member values, with `{}` for padding.
    pub fn struct_initializer(&self, ty: Handle<Type>, values: Vec<String>) -> String {
        let mut values = values.into_iter();
        let mut parts = Vec::new();
        for slot in self
            .types
            .layout(ty)
            .map(|l| l.slots.as_slice())
            .unwrap_or_default()
        {
            match slot {
                Slot::Member { .. } => parts.push(values.next().unwrap_or_else(|| "{}".into())),
                Slot::Padding(_) => parts.push("{}".into()),
            }
        }
        concat_text!("{", parts.join(", "), "}")
    }

    /// An entry input: a parameter with a built-in attribute, or a `[[stage_in]]` member.
    fn input(
        &mut self,
        binding: &Binding,
        ty: Handle<Type>,
        name: &str,
    ) -> Result<Input, Diagnostic> {
        let stage = self.entry.stage;
        let span = self.entry.span;
        let type_name = self
            .types
            .name(ty)
            .map_err(|what| unsupported(span, what))?
            .to_owned();
        match binding {
            Binding::BuiltIn(builtin) => {
                let attribute = match (builtin, stage) {
                    (BuiltIn::Position, ShaderStage::Fragment) => "position",
                    (BuiltIn::FrontFacing, ShaderStage::Fragment) => "front_facing",
                    (BuiltIn::SampleIndex, ShaderStage::Fragment) => "sample_id",
                    (BuiltIn::VertexIndex, ShaderStage::Vertex) => "vertex_id",
                    (BuiltIn::InstanceIndex, ShaderStage::Vertex) => "instance_id",
                    (BuiltIn::GlobalInvocationId, ShaderStage::Compute) => {
                        "thread_position_in_grid"
                    }
                    (BuiltIn::LocalInvocationId, ShaderStage::Compute) => {
                        "thread_position_in_threadgroup"
                    }
                    (BuiltIn::LocalInvocationIndex, ShaderStage::Compute) => {
                        "thread_index_in_threadgroup"
                    }
                    (BuiltIn::WorkGroupId, ShaderStage::Compute) => "threadgroup_position_in_grid",
                    _ => {
                        return Err(unsupported(
                            span,
                            format!(
                                "the system value {builtin:?} as an input of a {} shader",
                                stage.name()
                            ),
                        ))
                    }
                };
                Ok(Input::Parameter(concat_text!(
                    type_name, " ", name, " [[", attribute, "]]"
                )))
            }
            Binding::Location {
                location,
                interpolation,
                sampling,
                ..
            } => {
                let mut attributes = match stage {
                    ShaderStage::Vertex => vec![format!("attribute({location})")],
                    ShaderStage::Fragment => vec![format!("user(locn{location})")],
                    ShaderStage::Compute => {
                        return Err(unsupported(
                            span,
                            "a user semantic on a compute shader input",
                        ))
                    }
                };
                if stage == ShaderStage::Fragment {
                    let integer = self
                        .types
                        .inner(ty)
                        .and_then(TypeInner::scalar)
                        .is_some_and(|s| s.kind != ScalarKind::Float);
                    if let Some(qualifier) =
                        interpolation_attribute(*interpolation, *sampling, integer)
                    {
                        attributes.push(qualifier.into());
                    }
                }
                Ok(Input::StageIn(concat_text!(
                    type_name,
                    " ",
                    name,
                    " [[",
                    attributes.join(", "),
                    "]]"
                )))
            }
        }
    }

    /// A member of `_stage_out`.
    fn output_member(
        &mut self,
        binding: &Binding,
        ty: Handle<Type>,
        name: &str,
    ) -> Result<String, Diagnostic> {
        let stage = self.entry.stage;
        let span = self.entry.span;
        let type_name = self
            .types
            .name(ty)
            .map_err(|what| unsupported(span, what))?;
        let attribute = match (binding, stage) {
            (Binding::BuiltIn(BuiltIn::Position), ShaderStage::Vertex) => "position".to_string(),
            (Binding::BuiltIn(BuiltIn::FragDepth), ShaderStage::Fragment) => {
                "depth(any)".to_string()
            }
            (Binding::Location { location, .. }, ShaderStage::Vertex) => {
                format!("user(locn{location})")
            }
            (Binding::Location { location, .. }, ShaderStage::Fragment) => {
                format!("color({location})")
            }
            _ => {
                return Err(unsupported(
                    span,
                    format!("the output {binding:?} of a {} shader", stage.name()),
                ))
            }
        };
        Ok(concat_text!(type_name, " ", name, " [[", attribute, "]]"))
    }
}

/// What an entry input becomes.
enum Input {
    /// A parameter of the entry function, with its attribute.
    Parameter(String),
    /// A member of the `[[stage_in]]` struct, with its attributes.
    StageIn(String),
}

/// The MSL interpolation attribute of a fragment input; `None` for the default
/// (`center_perspective`).
fn interpolation_attribute(
    interpolation: Option<Interpolation>,
    sampling: Option<Sampling>,
    integer: bool,
) -> Option<&'static str> {
    if integer || interpolation == Some(Interpolation::Flat) {
        return Some("flat");
    }
    let sampling = sampling.unwrap_or(Sampling::Center);
    match (
        interpolation.unwrap_or(Interpolation::Perspective),
        sampling,
    ) {
        (Interpolation::Perspective, Sampling::Center) => None,
        (Interpolation::Perspective, Sampling::Centroid) => Some("centroid_perspective"),
        (Interpolation::Perspective, Sampling::Sample) => Some("sample_perspective"),
        (Interpolation::Linear, Sampling::Center) => Some("center_no_perspective"),
        (Interpolation::Linear, Sampling::Centroid) => Some("centroid_no_perspective"),
        (Interpolation::Linear, Sampling::Sample) => Some("sample_no_perspective"),
        (Interpolation::Flat, _) => Some("flat"),
    }
}

/// The `OSH5102` error for a lane index or count in a vertex shader.
pub fn wave_stage_error(span: Option<Span>, what: &str) -> Diagnostic {
    Diagnostic::error(
        codes::MSL_WAVE_STAGE,
        span,
        concat_text!("The intrinsic '", what, "' is not available in a vertex shader in MSL: Metal has no SIMD-group lane index or lane count in vertex functions."),
    )
}

/// The MSL address-space qualifier of references into `space`.
pub fn space_qualifier(space: AddressSpace) -> &'static str {
    match space {
        AddressSpace::Function | AddressSpace::Private => "thread",
        AddressSpace::Workgroup => "threadgroup",
        AddressSpace::Uniform => "constant",
        AddressSpace::Storage { writable: true } => "device",
        AddressSpace::Storage { writable: false } => "const device",
        AddressSpace::Handle => "thread",
    }
}
