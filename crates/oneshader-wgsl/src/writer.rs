//! The module-level writer: names, types, structs, globals and function signatures.

use oneshader_ir::concat_text;
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::fmt::Write as _;
use std::rc::Rc;

use oneshader_ir::analysis::{self, GlobalUse};
use oneshader_ir::{
    codes, AddressSpace, ArraySize, Binding, BuiltIn, Diagnostic, EntryPoint, Expression, Function,
    GlobalVariable, Handle, HandleVec, ImageClass, ImageDimension, Interpolation, Module, Sampling,
    Scalar, ScalarKind, ShaderStage, Span, Type, TypeInner, WaveOp,
};
use oneshader_ir::{BodyFacts, EntryPointInfo, FastHashMap, FastHashSet, ModuleInfo};

use crate::layout;
use crate::names::WgslNames;
use crate::Options;
use oneshader_ir::text::{FunctionLists, Name, Scope};

/// A result whose error is a diagnostic for the user.
pub(crate) type Res<T> = Result<T, Diagnostic>;

/// An OSH5201 error at `span`.
pub(crate) fn unsupported(span: Option<Span>, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(codes::WGSL_UNSUPPORTED, span, message)
}

/// The deepest nesting of composite types Tint takes: a vector is 1 deep, a matrix 2, an
/// array one more than its element and a struct one more than its deepest member.
pub(crate) const MAX_COMPOSITE_DEPTH: u32 = 255;

/// How deep `ty` nests composite types (see [`MAX_COMPOSITE_DEPTH`]), a struct's depth
/// taken from `struct_depths` (1 for one not there).
fn nested_depth(
    module: &Module,
    mut ty: Handle<Type>,
    struct_depths: &FastHashMap<Handle<Type>, u32>,
) -> u32 {
    let mut arrays = 0;
    loop {
        let inner = match layout::inner(module, ty) {
            Ok(TypeInner::Array { base, .. }) => {
                arrays += 1;
                ty = *base;
                continue;
            }
            Ok(inner) => inner,
            Err(_) => return arrays,
        };
        return arrays
            + match inner {
                TypeInner::Vector { .. } => 1,
                TypeInner::Matrix { .. } => 2,
                TypeInner::Struct { .. } => struct_depths.get(&ty).copied().unwrap_or(1),
                _ => 0,
            };
    }
}

/// The name of the parameter holding `@builtin(subgroup_invocation_id)`.
pub(crate) const LANE_INDEX: &str = "lane_index";
/// The name of the parameter holding `@builtin(subgroup_size)`.
pub(crate) const LANE_COUNT: &str = "lane_count";

/// Which subgroup built-ins a function needs, itself or through its callees.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct LaneNeeds {
    /// `subgroup_invocation_id`.
    pub index: bool,
    /// `subgroup_size`.
    pub count: bool,
}

/// Per-function state while writing its body.
pub(crate) struct FunctionContext<'l, 'a> {
    /// The function written.
    pub function: &'a Function,
    /// The WGSL names of the parameters (`arguments`, by position) and of the local
    /// variables (`locals`, by handle index), and whether each expression (`bound`, by
    /// handle index) was already evaluated into a `let` or `var`, named `_eN` unless
    /// [`Self::named`] says otherwise.
    pub lists: &'l mut FunctionLists<'a>,
    /// The bound expressions whose name is not `_eN` (compare-exchange results).
    pub named: Vec<(Handle<Expression>, String)>,
    /// The expression giving the lane index here, when the function needs it.
    pub lane_index: Option<&'static str>,
    /// The expression giving the lane count here, when the function needs it.
    pub lane_count: Option<&'static str>,
    /// Names taken in the function's scope.
    pub namer: &'l mut Scope<'a>,
    /// Errors found in the body.
    pub diagnostics: Vec<Diagnostic>,
    /// How deep, in Tint's count ([`MAX_STATEMENT_DEPTH`]), the statements being written
    /// are nested.
    pub depth: usize,
    /// The source location of the statement being written, for diagnostics.
    pub span: Option<Span>,
}

/// `vecN<` for a vector of `size` components.
fn vector_prefix(size: oneshader_ir::VectorSize) -> &'static str {
    match size {
        oneshader_ir::VectorSize::Bi => "vec2<",
        oneshader_ir::VectorSize::Tri => "vec3<",
        oneshader_ir::VectorSize::Quad => "vec4<",
    }
}

/// The name of an expression evaluated into a `let` or `var`.
#[derive(Debug)]
pub(crate) enum Bound {
    /// `_eN`, N the expression's index: written out at each use rather than stored.
    Temporary,
    /// A name the namer gave.
    Named(String),
}

impl FunctionContext<'_, '_> {
    /// Whether `handle` was evaluated into a named value.
    pub fn is_bound(&self, handle: Handle<Expression>) -> bool {
        self.lists
            .bound
            .get(handle.index())
            .copied()
            .unwrap_or(false)
    }

    /// Appends the name `handle` was bound to, if it was; whether it was.
    pub fn write_bound(&self, out: &mut String, handle: Handle<Expression>) -> bool {
        if !self.is_bound(handle) {
            return false;
        }
        match self.named.iter().find(|(named, _)| *named == handle) {
            Some((_, name)) => out.push_str(name),
            None => write_temporary(out, handle),
        }
        true
    }

    /// Records that `handle` is bound from now on.
    pub fn bind(&mut self, handle: Handle<Expression>, bound: Bound) {
        if let Some(slot) = self.lists.bound.get_mut(handle.index()) {
            *slot = true;
            if let Bound::Named(name) = bound {
                self.named.push((handle, name));
            }
        }
    }
}

/// Appends `_eN`, the name of the temporary holding expression `handle`.
pub(crate) fn write_temporary(out: &mut String, handle: Handle<Expression>) {
    out.push_str("_e");
    oneshader_ir::text::push_decimal(out, handle.index() as u64);
}

/// Spaces for `indent` levels, four each, appended to `out`.
pub(crate) fn write_indent(out: &mut String, indent: usize) {
    for _ in 0..indent {
        out.push_str("    ");
    }
}

/// WGSL's scalar types, by [`scalar_index`].
const SCALAR_NAMES: [&str; 5] = ["bool", "i32", "u32", "f32", "f16"];

/// WGSL's vector types, by [`scalar_index`] of the component and size (2 to 4).
const VECTOR_NAMES: [[&str; 3]; 5] = [
    ["vec2<bool>", "vec3<bool>", "vec4<bool>"],
    ["vec2<i32>", "vec3<i32>", "vec4<i32>"],
    ["vec2<u32>", "vec3<u32>", "vec4<u32>"],
    ["vec2<f32>", "vec3<f32>", "vec4<f32>"],
    ["vec2<f16>", "vec3<f16>", "vec4<f16>"],
];

/// WGSL's matrix types, `f32` then `f16`, by columns and rows (2 to 4 each).
const MATRIX_NAMES: [[[&str; 3]; 3]; 2] = [
    [
        ["mat2x2<f32>", "mat2x3<f32>", "mat2x4<f32>"],
        ["mat3x2<f32>", "mat3x3<f32>", "mat3x4<f32>"],
        ["mat4x2<f32>", "mat4x3<f32>", "mat4x4<f32>"],
    ],
    [
        ["mat2x2<f16>", "mat2x3<f16>", "mat2x4<f16>"],
        ["mat3x2<f16>", "mat3x3<f16>", "mat3x4<f16>"],
        ["mat4x2<f16>", "mat4x3<f16>", "mat4x4<f16>"],
    ],
];

/// The index of `scalar` in [`SCALAR_NAMES`] and [`VECTOR_NAMES`]; `None` for the
/// scalars WGSL lacks.
fn scalar_index(scalar: Scalar) -> Option<usize> {
    match (scalar.kind, scalar.width) {
        (ScalarKind::Bool, _) => Some(0),
        (ScalarKind::Sint, 4) => Some(1),
        (ScalarKind::Uint, 4) => Some(2),
        (ScalarKind::Float, 4) => Some(3),
        (ScalarKind::Float, 2) => Some(4),
        _ => None,
    }
}

/// The deepest statement Tint accepts: the function's body is level 1, each statement
/// and each `{}` block one more (an `if` or a loop and its block two, an `else if` of a
/// chain one).
pub(crate) const MAX_STATEMENT_DEPTH: usize = 127;

/// The most elements Tint accepts in an array in the private or function address space.
pub(crate) const MAX_VALUE_ARRAY_COUNT: u32 = 65_535;

/// The most members of a struct Tint accepts (WGSL's own limit, the least every
/// compiler must take, is 1,023; Tint's, as SPIR-V's, is 16,383).
pub(crate) const MAX_STRUCT_MEMBERS: usize = 16_383;

/// The most case selectors of one `switch` Tint accepts (WGSL's own limit, the least
/// every compiler must take, is 1,023).
pub(crate) const MAX_SWITCH_SELECTORS: usize = 16_383;

/// The most elements of one array constructor Tint accepts (WGSL's own limit, the
/// least every compiler must take, is 2,047).
pub(crate) const MAX_CONSTRUCTOR_ELEMENTS: usize = 32_767;

/// The most parameters of a function Tint accepts (WGSL's limit too).
pub(crate) const MAX_FUNCTION_PARAMETERS: usize = 255;

/// About how many bytes of WGSL one IR expression becomes, to size the output.
const TEXT_PER_EXPRESSION: usize = 12;

/// The depth of the statements of a function's body.
pub(crate) const BODY_DEPTH: usize = 2;

/// Writes one entry point of a module as WGSL.
pub(crate) struct Writer<'a> {
    pub module: &'a Module,
    pub entry: &'a EntryPoint,
    /// What the entry point reaches and uses, and what its entry function's expressions
    /// hold.
    entry_info: &'a EntryPointInfo,
    /// WGSL names of the used globals, by handle index.
    pub global_names: HandleVec<GlobalVariable, Option<Name<'a>>>,
    /// Globals used atomically: their integers are declared `atomic<T>`.
    pub atomic_globals: HandleVec<GlobalVariable, bool>,
    /// Whether some global is used atomically (when none, no pointer is atomic and
    /// nothing need be looked up per access).
    pub uses_atomics: bool,
    /// WGSL names of the reachable helper functions, by handle index.
    pub function_names: HandleVec<Function, Option<Name<'a>>>,
    /// WGSL names of struct types, per (type, declared with atomic integers).
    pub struct_names: FastHashMap<(Handle<Type>, bool), Name<'a>>,
    /// WGSL names of each struct's members, by type handle.
    pub member_names: &'a HandleVec<Type, Vec<Name<'a>>>,
    /// The module's names, when every entry point gives them alike.
    shared_names: Option<&'a ModuleNames<'a>>,
    /// The scope helpers are named in when their text is kept for other entry points.
    helper_scope: Option<&'a Scope<'a>>,
    /// The helpers' texts that earlier entry points of the module wrote.
    helper_texts: &'a RefCell<HandleVec<Function, Option<HelperText>>>,
    /// The subgroup built-ins each helper needs, by handle index.
    pub lane_needs: &'a HandleVec<Function, LaneNeeds>,
    /// The module's facts: what each helper's body holds.
    info: &'a ModuleInfo,
    /// Module-scope names.
    pub namer: Scope<'a>,
    /// The WGSL name of the entry function (as [`entry_function_name`] gives it).
    entry_name: Name<'a>,
    /// Whether some type is `f16` (then the output starts with `enable f16;`).
    pub uses_f16: Cell<bool>,
    /// How the entry point uses each global, by handle index.
    pub(crate) uses: &'a [GlobalUse],
    /// The helper functions the entry point reaches.
    helpers: &'a [Handle<Function>],
    /// Structs to declare, members first, with whether they hold atomics.
    structs: Vec<(Handle<Type>, bool)>,
    /// Structs whose layout matters (reached from storage or uniform globals).
    host_shared: FastHashSet<Handle<Type>>,
    diagnostics: Vec<Diagnostic>,
    /// Lists a function's writing fills, kept from function to function (only
    /// [`Writer::function_text`] borrows them; it writes one function at a time and never
    /// calls itself, so the borrow cannot be taken twice).
    lists: RefCell<FunctionLists<'a>>,
}

/// What the WGSL outputs of every entry point of one module share, worked out once: the
/// struct members' names and, when the module's names allow it, the module-scope names.
pub struct ModuleWriter<'a> {
    module: &'a Module,
    info: &'a ModuleInfo,
    /// WGSL names of each struct's members, by type handle (empty for other types).
    member_names: HandleVec<Type, Vec<Name<'a>>>,
    /// The subgroup built-ins each function needs, itself or through its callees, by
    /// handle.
    lane_needs: HandleVec<Function, LaneNeeds>,
    /// The module-scope names every entry point gives alike, if they do.
    names: Option<ModuleNames<'a>>,
    /// With `names`, every module-scope name an entry point can take (the module's
    /// names and each entry function's), shared: the scope that helpers whose text is
    /// kept for other entry points are named in.
    helper_scope: Option<Scope<'a>>,
    /// Each helper's text as an entry point wrote it, by handle, for the next entry
    /// points that reach it.
    helper_texts: RefCell<HandleVec<Function, Option<HelperText>>>,
}

/// A helper function's text as one entry point wrote it, kept for the module's other
/// entry points, with what it depends on in that entry point.
///
/// Kept only when the module's names hold ([`ModuleNames`]), so that the names of the
/// globals, structs and functions it refers to are the same in every entry point, and
/// when its parameters and locals were named clashing with no module-scope name any
/// entry point can take ([`ModuleWriter::helper_scope`]), so that they are too. What else
/// of the entry point a function's text reads is the stage (errors for derivatives
/// outside fragment shaders) and how the entry point uses the globals the function names
/// (atomic integers, depth textures).
struct HelperText {
    /// The stage of the entry point that wrote it.
    stage: ShaderStage,
    /// How that entry point uses each global the function uses itself, by global.
    uses: Vec<(Handle<GlobalVariable>, GlobalUse)>,
    /// Whether it spells `f16`.
    f16: bool,
    /// The function's text.
    text: String,
}

/// What [`Writer::function_text`] found besides the text.
struct FunctionWritten {
    /// The errors of the function's body.
    diagnostics: Vec<Diagnostic>,
    /// Whether naming a parameter or local clashed with a name of the enclosing scope
    /// ([`Scope::clashed_outside`]).
    clashed_outside: bool,
}

/// The module-scope names of a module whose globals, functions and structs all keep their
/// names made identifiers (no two of them clash, nor with [`LANE_INDEX`] and
/// [`LANE_COUNT`]).
///
/// An entry point's module scope takes the lane names, its entry function's name, the
/// globals it uses, the functions it reaches and the structs it declares (see
/// [`Writer::write`]). When no two of all the module's such names clash and the entry
/// function's name clashes with none of them, each keeps its own name whatever the entry
/// point uses: the names made here once are the names the entry point would make.
struct ModuleNames<'a> {
    /// Every name below: what an entry function's name must not be for them to hold.
    all: Scope<'a>,
    /// WGSL name of each global, by handle.
    global_names: HandleVec<GlobalVariable, Name<'a>>,
    /// WGSL name of each function, by handle.
    function_names: HandleVec<Function, Name<'a>>,
    /// WGSL name of each struct type (`None` for other types), and of its copy with
    /// atomic integers, by type handle.
    struct_names: HandleVec<Type, Option<[Name<'a>; 2]>>,
}

impl<'a> ModuleNames<'a> {
    /// The module's names, or `None` when two of them clash.
    fn new(module: &'a Module) -> Option<Self> {
        let mut all = Scope::new();
        all.reserve(
            2 + module.global_variables.len() + module.functions.len() + 2 * module.types.len(),
        );
        all.take_as_is(Name::Borrowed(LANE_INDEX));
        all.take_as_is(Name::Borrowed(LANE_COUNT));
        let global_names = module
            .global_variables
            .iter()
            .map(|(_, global)| all.name_in_ir(&global.name, "global"))
            .collect();
        let function_names = module
            .functions
            .iter()
            .map(|(_, function)| all.name_in_ir(&function.name, "function"))
            .collect();
        let struct_names = module
            .types
            .iter()
            .map(|(handle, ty)| {
                let TypeInner::Struct { .. } = ty.inner else {
                    return None;
                };
                let base = struct_base_name(module, handle);
                let atomic = concat_text!(base, "_atomic");
                Some([struct_name(&mut all, base), all.name(&atomic, "S")])
            })
            .collect();
        (!all.numbered()).then_some(ModuleNames {
            all,
            global_names,
            function_names,
            struct_names,
        })
    }
}

/// The name a struct is given before it is made unique: its HLSL name, or `S` and its
/// index.
fn struct_base_name(module: &Module, ty: Handle<Type>) -> Cow<'_, str> {
    match &module.types[ty].name {
        Some(name) => Cow::Borrowed(name),
        None => Cow::Owned(format!("S{}", ty.index())),
    }
}

/// The unique name `scope` gives a struct whose base name is `base`
/// ([`struct_base_name`]): the HLSL name itself, borrowed, when it needs no change (so
/// that [`Writer::type_at`] borrows it too).
fn struct_name<'a>(scope: &mut Scope<'a>, base: Cow<'a, str>) -> Name<'a> {
    match base {
        Cow::Borrowed(name) => scope.name_in_ir(name, "S"),
        Cow::Owned(name) => scope.name(&name, "S"),
    }
}

impl<'a> ModuleWriter<'a> {
    /// Prepares the WGSL outputs of `module`'s entry points, whose facts `info` holds.
    pub fn new(module: &'a Module, info: &'a ModuleInfo, _options: &Options) -> Self {
        let member_names = module
            .types
            .iter()
            .map(|(_, ty)| match &ty.inner {
                TypeInner::Struct { members, .. } => crate::names::member_names(members),
                _ => Vec::new(),
            })
            .collect();
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
                scope.take_as_is(Name::Owned(Rc::from(crate::names::identifier(
                    &entry.name,
                    "main",
                ))));
            }
            scope.share();
            scope
        });
        let lane_needs = module_lane_needs(module, info);
        ModuleWriter {
            module,
            info,
            member_names,
            lane_needs,
            names,
            helper_scope,
            helper_texts: RefCell::new(module.functions.iter().map(|_| None).collect()),
        }
    }

    /// Writes entry point number `entry` as a WGSL module.
    pub fn write_entry_point(&self, entry: usize) -> Result<String, Vec<Diagnostic>> {
        let (Some(entry_point), Some(entry_info)) = (
            self.module.entry_points.get(entry),
            self.info.entry_point(entry),
        ) else {
            return Err(vec![Diagnostic::error(
                codes::WGSL_UNSUPPORTED,
                None,
                format!(
                    "the module has no entry point number {entry} (it has {})",
                    self.module.entry_points.len()
                ),
            )]);
        };
        Writer::new(self, entry_point, entry_info).write()
    }
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
        Writer {
            module,
            entry,
            entry_info,
            global_names: HandleVec::from_len(module.global_variables.len(), None),
            atomic_globals: HandleVec::from_len(module.global_variables.len(), false),
            uses_atomics: false,
            function_names: HandleVec::from_len(module.functions.len(), None),
            struct_names: FastHashMap::default(),
            member_names: &shared.member_names,
            shared_names: shared.names.as_ref(),
            helper_scope: shared.helper_scope.as_ref(),
            helper_texts: &shared.helper_texts,
            lane_needs: &shared.lane_needs,
            info: shared.info,
            namer: Scope::new(),
            entry_name: Name::default(),
            uses_f16: Cell::new(false),
            uses: &entry_info.global_uses,
            helpers: &entry_info.reachable_functions,
            structs: Vec::new(),
            host_shared: FastHashSet::default(),
            diagnostics: Vec::new(),
            lists: RefCell::default(),
        }
    }

    /// Writes the whole WGSL module.
    pub fn write(mut self) -> Result<String, Vec<Diagnostic>> {
        // The entry function and the helpers it reaches (`analysis::entry_functions`).
        // With what each one's own body holds.
        let module = self.module;
        let info = self.info;
        let helpers = self.helpers.iter().filter_map(|&h| {
            let function = module.functions.try_get(h)?;
            Some((function, info.body_facts(h)))
        });
        let functions: Vec<(&Function, BodyFacts)> =
            std::iter::once((&self.entry.function, self.entry_info.body_facts))
                .chain(helpers)
                .collect();
        self.check_stage_rules(&functions);
        if !self.diagnostics.is_empty() {
            return Err(self.diagnostics);
        }
        self.atomic_globals = self
            .module
            .global_variables
            .iter()
            .map(|(handle, _)| self.uses.get(handle.index()).is_some_and(|u| u.atomic))
            .collect();
        self.uses_atomics = self.atomic_globals.iter().any(|(_, &atomic)| atomic);
        self.assign_names();
        self.collect_structs();
        self.namer.share();
        self.check_layouts();
        self.check_nesting();

        // Sized from the expression count, so that the text is seldom copied as it grows.
        let expressions: usize = functions.iter().map(|(f, _)| f.expressions.len()).sum();
        let mut body = String::with_capacity(1024 + expressions * TEXT_PER_EXPRESSION);
        let structs = std::mem::take(&mut self.structs);
        for &(ty, atomic) in &structs {
            if let Err(d) = self.write_struct(&mut body, ty, atomic) {
                self.diagnostics.push(d);
            }
        }
        self.structs = structs;
        for (handle, global) in self.module.global_variables.iter() {
            if !self.uses.get(handle.index()).is_some_and(|u| u.is_used()) {
                continue;
            }
            let start = body.len();
            if let Err(d) = self.write_global_declaration(&mut body, handle, global) {
                body.truncate(start);
                self.diagnostics.push(d);
            }
        }
        for &handle in self.helpers {
            if let Some(function) = self.module.functions.try_get(handle) {
                body.push('\n');
                self.write_helper(&mut body, handle, function);
            }
        }
        body.push('\n');
        self.write_function(&mut body, None, &self.entry.function);

        if !self.diagnostics.is_empty() {
            return Err(self.diagnostics);
        }
        let mut directives = String::new();
        if self.uses_f16.get() {
            directives.push_str("enable f16;\n");
        }
        // Every wave operation needs some subgroup operations: the entry point needs
        // none when it reaches none.
        if !self.entry_info.subgroup_operations.is_empty() {
            directives.push_str("enable subgroups;\ndiagnostic(off, subgroup_uniformity);\n");
        }
        // Implicit derivatives (`Sample`, `SampleBias`, `SampleCmp`, `ddx`/`ddy`/`fwidth`):
        // HLSL allows them in non-uniform control flow (as in the D3D12 wave intrinsics
        // sample's magnify.hlsl), WGSL's uniformity analysis rejects them there unless
        // `derivative_uniformity` is off.
        if functions.iter().any(|(_, body)| body.derivatives) {
            directives.push_str("diagnostic(off, derivative_uniformity);\n");
        }
        if !directives.is_empty() {
            directives.push('\n');
            body.insert_str(0, &directives);
        }
        Ok(body)
    }

    /// OSH5202 for wave operations in a vertex shader; OSH5201 for `discard` outside
    /// fragment shaders and barriers outside compute shaders.
    fn check_stage_rules(&mut self, functions: &[(&Function, BodyFacts)]) {
        let stage = self.entry.stage;
        for &(function, body) in functions {
            if stage == ShaderStage::Vertex {
                for wave in analysis::wave_uses(function) {
                    self.diagnostics.push(Diagnostic::error(
                        codes::WGSL_WAVE_STAGE,
                        wave.span,
                        format!(
                            "The intrinsic '{}' is not available in a vertex shader in WGSL: \
                             WebGPU's subgroup functions exist only in compute and fragment \
                             shaders.",
                            wave.op.hlsl_name()
                        ),
                    ));
                }
            }
            if body.kill && stage != ShaderStage::Fragment {
                self.diagnostics.push(unsupported(
                    self.entry.span,
                    concat_text!(
                        "'discard' in a ",
                        stage.name(),
                        " shader: WGSL allows it only in fragment shaders"
                    ),
                ));
            }
            if body.barrier && stage != ShaderStage::Compute {
                self.diagnostics.push(unsupported(
                    self.entry.span,
                    concat_text!(
                        "a barrier in a ",
                        stage.name(),
                        " shader: WGSL has barriers only in compute shaders"
                    ),
                ));
            }
        }
    }

    /// Names the entry point first (so it keeps its HLSL name where possible), then the
    /// generated parameters, globals, structs and helpers.
    fn assign_names(&mut self) {
        // The globals, the helpers, about as many structs, and the fixed names.
        let globals = self.uses.iter().filter(|u| u.is_used()).count();
        self.namer.reserve(globals + 2 * self.helpers.len() + 3);
        self.namer.take_as_is(Name::Borrowed(LANE_INDEX));
        self.namer.take_as_is(Name::Borrowed(LANE_COUNT));
        let entry_name = crate::names::identifier(&self.entry.name, "main");
        // The module's names hold when the entry function's name is none of them.
        self.shared_names = self
            .shared_names
            .filter(|names| !names.all.is_taken(&entry_name));
        self.entry_name = match self.shared_names {
            Some(_) => {
                let name = Name::Owned(Rc::from(entry_name));
                self.namer.keep(&name);
                name
            }
            None => self.namer.name_in_ir(&self.entry.name, "main"),
        };
        for (handle, global) in self.module.global_variables.iter() {
            if self.uses.get(handle.index()).is_some_and(|u| u.is_used()) {
                let name = match self.shared_names {
                    Some(names) => {
                        let name = names.global_names[handle].clone();
                        self.namer.keep(&name);
                        name
                    }
                    None => self.namer.name_in_ir(&global.name, "global"),
                };
                self.global_names[handle] = Some(name);
            }
        }
        for &handle in self.helpers {
            if let Some(function) = self.module.functions.try_get(handle) {
                let shared = self
                    .shared_names
                    .and_then(|names| names.function_names.try_get(handle));
                let name = match shared {
                    Some(name) => {
                        self.namer.keep(name);
                        name.clone()
                    }
                    None => self.namer.name_in_ir(&function.name, "function"),
                };
                if let Some(slot) = self.function_names.try_get_mut(handle) {
                    *slot = Some(name);
                }
            }
        }
    }

    /// Finds every struct the output declares, members before the structs holding them.
    fn collect_structs(&mut self) {
        // Only structs are collected: a module without struct types has none to look for.
        let struct_types = self
            .module
            .types
            .iter()
            .filter(|(_, ty)| matches!(ty.inner, TypeInner::Struct { .. }))
            .count();
        if struct_types == 0 {
            return;
        }
        // Every expression's type is a root: a flag per type and (atomic, host) pair
        // rather than a hashed set, which cost more than the walk itself.
        let mut seen = vec![false; self.module.types.len() * 4];
        for (handle, global) in self.module.global_variables.iter() {
            if !self.uses.get(handle.index()).is_some_and(|u| u.is_used()) {
                continue;
            }
            let host = matches!(
                global.space,
                AddressSpace::Storage { .. } | AddressSpace::Uniform
            );
            let atomic = self.atomic_globals[handle];
            self.collect_type(global.ty, atomic, host, &mut seen);
        }
        let module = self.module;
        let helpers = self.helpers;
        let entry = self.entry;
        let functions = std::iter::once(&entry.function)
            .chain(helpers.iter().filter_map(|&h| module.functions.try_get(h)));
        // The structs named as values (not atomic) so far, counted up to `counted`.
        let (mut counted, mut value_structs) = (0, 0);
        for function in functions {
            // Once every struct type is named as a value, a function's types can reach
            // none that is not (the globals' walk often names them all).
            let new = self.structs.get(counted..).unwrap_or_default();
            value_structs += new.iter().filter(|&&(_, atomic)| !atomic).count();
            counted = self.structs.len();
            if value_structs == struct_types {
                break;
            }
            let declared = function
                .arguments
                .iter()
                .map(|a| a.ty)
                .chain(function.result.iter().map(|r| r.ty))
                .chain(function.local_variables.iter().map(|(_, l)| l.ty));
            for ty in declared {
                self.collect_root(ty, &mut seen);
            }
            // A loop of its own: nearly all the roots, and most share a few types.
            for &ty in &function.expression_types {
                if seen.get(ty.index() * 4).copied() != Some(true) {
                    self.collect_type(ty, false, false, &mut seen);
                }
            }
        }
    }

    /// [`Self::collect_type`] for the type of a function's value, unless it was seen as
    /// one already.
    fn collect_root(&mut self, ty: Handle<Type>, seen: &mut [bool]) {
        if seen.get(ty.index() * 4).copied() != Some(true) {
            self.collect_type(ty, false, false, seen);
        }
    }

    /// Collects the structs `ty` holds (through arrays, pointers and members), members
    /// before the structs holding them, with an explicit stack: the front end lets
    /// structs nest 255 deep, and hand-built IR deeper.
    fn collect_type(&mut self, ty: Handle<Type>, atomic: bool, host: bool, seen: &mut [bool]) {
        // `Some(struct)`: collect that struct, whose members were walked.
        let mut stack = vec![(ty, atomic, host, None::<Handle<Type>>)];
        while let Some((ty, atomic, host, finished)) = stack.pop() {
            if let Some(ty) = finished {
                self.name_struct(ty, atomic, host);
                continue;
            }
            let index = ty.index() * 4 + usize::from(atomic) * 2 + usize::from(host);
            match seen.get_mut(index) {
                Some(seen) if !*seen => *seen = true,
                _ => continue,
            }
            let Ok(inner) = layout::inner(self.module, ty) else {
                continue;
            };
            match inner {
                TypeInner::Array { base, .. } => stack.push((*base, atomic, host, None)),
                TypeInner::Pointer { base, .. } => stack.push((*base, false, false, None)),
                TypeInner::Struct { members, .. } => {
                    stack.push((ty, atomic, host, Some(ty)));
                    // Reversed, so that the first member is walked first.
                    for member in members.iter().rev() {
                        stack.push((member.ty, atomic, host, None));
                    }
                }
                _ => {}
            }
        }
    }

    /// Names struct `ty` (its members collected) and adds it to the structs declared.
    fn name_struct(&mut self, ty: Handle<Type>, atomic: bool, host: bool) {
        if host {
            self.host_shared.insert(ty);
        }
        if !self.struct_names.contains_key(&(ty, atomic)) {
            let shared = self
                .shared_names
                .and_then(|names| names.struct_names.try_get(ty))
                .and_then(Option::as_ref)
                .and_then(|names| names.get(usize::from(atomic)));
            let name = match shared {
                Some(name) => {
                    self.namer.keep(name);
                    name.clone()
                }
                None => {
                    let base = struct_base_name(self.module, ty);
                    if atomic {
                        self.namer.name(&concat_text!(base, "_atomic"), "S")
                    } else {
                        struct_name(&mut self.namer, base)
                    }
                }
            };
            self.struct_names.insert((ty, atomic), name);
            self.structs.push((ty, atomic));
        }
    }

    /// What the entry function needs, callees included.
    pub fn entry_lane_needs(&self) -> LaneNeeds {
        let mut needs = direct_lane_needs(&self.entry.function, self.entry_info.body_facts);
        for &callee in &self.entry_info.callees {
            let callee_needs = self.lane_needs.try_get(callee).copied().unwrap_or_default();
            needs.index |= callee_needs.index;
            needs.count |= callee_needs.count;
        }
        needs
    }

    /// Checks that every buffer's IR layout has a WGSL equivalent.
    fn check_layouts(&mut self) {
        for (handle, global) in self.module.global_variables.iter() {
            if !self.uses.get(handle.index()).is_some_and(|u| u.is_used()) {
                continue;
            }
            let uniform = match global.space {
                AddressSpace::Uniform => true,
                AddressSpace::Storage { .. } => false,
                _ => continue,
            };
            let result = layout::layout(self.module, global.ty).and_then(|_| {
                if uniform {
                    layout::check_uniform(self.module, global.ty)
                } else {
                    Ok(())
                }
            });
            if let Err(why) = result {
                self.diagnostics.push(unsupported(
                    global.span,
                    concat_text!(
                        "the memory layout of '",
                        global.name,
                        "' cannot be expressed in WGSL: ",
                        why
                    ),
                ));
            }
        }
    }

    /// Checks Tint's limit on how deep composite types nest (see [`MAX_COMPOSITE_DEPTH`])
    /// for the structs declared, at the innermost struct past it, and for the buffers
    /// and other globals used, at the global.
    fn check_nesting(&mut self) {
        let mut depths = FastHashMap::default();
        for &(ty, _) in &self.structs {
            if depths.contains_key(&ty) {
                continue;
            }
            let Ok(TypeInner::Struct { members, .. }) = layout::inner(self.module, ty) else {
                continue;
            };
            // Its members' structs came before it.
            let depth = 1 + members
                .iter()
                .map(|member| nested_depth(self.module, member.ty, &depths))
                .max()
                .unwrap_or(0);
            depths.insert(ty, depth);
            if depth > MAX_COMPOSITE_DEPTH {
                let name = self.module.hlsl_type_name(ty);
                self.diagnostics.push(unsupported(
                    self.module.struct_spans.get(&ty).copied(),
                    format!(
                        "the struct '{name}' nests types {depth} deep in WGSL (a struct or an \
                         array is one level, a vector one, a matrix two); WebGPU's compilers \
                         (Tint) take at most {MAX_COMPOSITE_DEPTH}: flatten the nesting"
                    ),
                ));
                // The structs holding this one are past the limit too.
                return;
            }
        }
        for (handle, global) in self.module.global_variables.iter() {
            if !self.uses.get(handle.index()).is_some_and(|u| u.is_used()) {
                continue;
            }
            let depth = nested_depth(self.module, global.ty, &depths);
            if depth > MAX_COMPOSITE_DEPTH {
                self.diagnostics.push(unsupported(
                    global.span,
                    concat_text!(
                        "the type of '",
                        global.name,
                        "' nests types ",
                        depth.to_string(),
                        " deep in WGSL (a struct or an array is one level, a vector one, a \
                         matrix two); WebGPU's compilers (Tint) take at most ",
                        MAX_COMPOSITE_DEPTH.to_string(),
                        ": flatten \
                         the nesting of its structs"
                    ),
                ));
            }
        }
    }

    /// The WGSL spelling of `ty`; with `atomic`, its integers are `atomic<T>`.
    pub fn type_name(&self, ty: Handle<Type>, atomic: bool) -> Result<String, String> {
        let mut name = String::new();
        self.write_type(&mut name, ty, atomic, 0)?;
        Ok(name)
    }

    /// Appends [`Self::type_name`]'s text to `out`; on an error, `out` may hold part of
    /// it.
    pub(crate) fn write_type(
        &self,
        out: &mut String,
        ty: Handle<Type>,
        atomic: bool,
        depth: u32,
    ) -> Result<(), String> {
        if depth > layout::MAX_TYPE_DEPTH {
            return Err("types nest too deep".into());
        }
        let inner = layout::inner(self.module, ty)?;
        if let Some(name) = self.numeric_type_name(inner, atomic) {
            out.push_str(name);
            return Ok(());
        }
        match inner {
            TypeInner::Scalar(scalar) => {
                let name = self.scalar_name(*scalar)?;
                if atomic && scalar.is_integer() {
                    out.push_str("atomic<");
                    out.push_str(name);
                    out.push('>');
                } else {
                    out.push_str(name);
                }
            }
            TypeInner::Vector { size, scalar } => {
                let scalar = self.scalar_name(*scalar)?;
                out.push_str(vector_prefix(*size));
                out.push_str(scalar);
                out.push('>');
            }
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } => {
                if scalar.kind != ScalarKind::Float {
                    return Err("WGSL has only floating-point matrices".into());
                }
                let scalar = self.scalar_name(*scalar)?;
                let _ = write!(out, "mat{}x{}<{scalar}>", columns.count(), rows.count());
            }
            TypeInner::Array { base, size, .. } => {
                if let ArraySize::Constant(0) = size {
                    // Checked before the element, as when the element was spelled first.
                    let mut element = String::new();
                    self.write_type(&mut element, *base, atomic, depth + 1)?;
                    return Err("arrays of 0 elements".into());
                }
                out.push_str("array<");
                self.write_type(out, *base, atomic, depth + 1)?;
                match size {
                    ArraySize::Constant(n) => {
                        out.push_str(", ");
                        oneshader_ir::text::push_decimal(out, *n as u64);
                        out.push('>');
                    }
                    ArraySize::Runtime => out.push('>'),
                }
            }
            TypeInner::Struct { .. } => out.push_str(
                self.struct_names
                    .get(&(ty, atomic))
                    .ok_or_else(|| format!("struct type {ty:?} was not collected"))?,
            ),
            TypeInner::Pointer { base, space } => {
                let (prefix, suffix) = match space {
                    AddressSpace::Function => ("ptr<function, ", ">"),
                    AddressSpace::Private => ("ptr<private, ", ">"),
                    AddressSpace::Workgroup => ("ptr<workgroup, ", ">"),
                    AddressSpace::Uniform => ("ptr<uniform, ", ">"),
                    AddressSpace::Storage { writable: false } => ("ptr<storage, ", ", read>"),
                    AddressSpace::Storage { writable: true } => ("ptr<storage, ", ", read_write>"),
                    AddressSpace::Handle => {
                        // The base is spelled first, as its errors came first.
                        let mut base_name = String::new();
                        self.write_type(&mut base_name, *base, false, depth + 1)?;
                        return Err("pointers to textures or samplers".into());
                    }
                };
                out.push_str(prefix);
                self.write_type(out, *base, false, depth + 1)?;
                out.push_str(suffix);
            }
            TypeInner::Image {
                dim,
                arrayed,
                class,
            } => match class {
                ImageClass::Sampled {
                    kind, multisampled, ..
                } => {
                    let sample = match kind {
                        ScalarKind::Float => "f32",
                        ScalarKind::Sint => "i32",
                        ScalarKind::Uint => "u32",
                        ScalarKind::Bool => return Err("textures of bool".into()),
                    };
                    let shape = match (dim, arrayed, multisampled) {
                        (ImageDimension::D1, false, false) => "1d",
                        (ImageDimension::D2, false, false) => "2d",
                        (ImageDimension::D2, true, false) => "2d_array",
                        (ImageDimension::D3, false, false) => "3d",
                        (ImageDimension::Cube, false, false) => "cube",
                        (ImageDimension::Cube, true, false) => "cube_array",
                        (ImageDimension::D2, false, true) => "multisampled_2d",
                        _ => return Err("this texture shape has no WGSL texture type".into()),
                    };
                    out.push_str("texture_");
                    out.push_str(shape);
                    out.push('<');
                    out.push_str(sample);
                    out.push('>');
                }
                ImageClass::Storage { .. } => {
                    return Err(
                        "read-write textures (WGSL storage textures need a texel format)".into(),
                    )
                }
            },
            TypeInner::Sampler { comparison } => out.push_str(if *comparison {
                "sampler_comparison"
            } else {
                "sampler"
            }),
        }
        Ok(())
    }

    /// The WGSL spelling of a scalar type.
    pub fn scalar_name(&self, scalar: Scalar) -> Result<&'static str, String> {
        Ok(match (scalar.kind, scalar.width) {
            (ScalarKind::Bool, _) => "bool",
            (ScalarKind::Sint, 4) => "i32",
            (ScalarKind::Uint, 4) => "u32",
            (ScalarKind::Float, 4) => "f32",
            (ScalarKind::Float, 2) => {
                self.uses_f16.set(true);
                "f16"
            }
            (kind, width) => {
                return Err(format!(
                    "{}-bit {} values (WGSL has 32-bit integers and 16/32-bit floats)",
                    u32::from(width) * 8,
                    match kind {
                        ScalarKind::Sint => "signed integer",
                        ScalarKind::Uint => "unsigned integer",
                        _ => "floating-point",
                    }
                ))
            }
        })
    }

    /// `type_name` with a diagnostic at `span` on failure.
    /// WebGPU's compilers (Tint) take at most [`MAX_VALUE_ARRAY_COUNT`] elements in an array
    /// in the private or function address space: an OSH5201 error for variable `name` of
    /// type `ty` if it holds a longer one.
    pub(crate) fn check_value_array_counts(
        &self,
        ty: Handle<Type>,
        name: &str,
        span: Option<Span>,
    ) -> Res<()> {
        let mut next = Some(ty);
        while let Some(ty) = next.take() {
            match &self.module.types[ty].inner {
                TypeInner::Array { base, size, .. } => {
                    if let ArraySize::Constant(count) = *size {
                        if count > MAX_VALUE_ARRAY_COUNT {
                            return Err(unsupported(
                                span,
                                format!(
                                    "'{name}' holds an array of {count} elements, but WebGPU \
                                     allows at most {MAX_VALUE_ARRAY_COUNT} in a local or \
                                     `static` variable: use a smaller array, or a buffer \
                                     (or `groupshared` memory)"
                                ),
                            ));
                        }
                    }
                    next = Some(*base);
                }
                TypeInner::Struct { members, .. } => {
                    for member in members {
                        self.check_value_array_counts(member.ty, name, span)?;
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// The WGSL spelling of `ty` ([`Self::type_name`]), with a diagnostic at `span` on
    /// failure; borrowed from the fixed tables for a scalar, vector or matrix, and from
    /// the IR for a struct that keeps its name.
    pub fn type_at(&self, ty: Handle<Type>, atomic: bool, span: Option<Span>) -> Res<Cow<'a, str>> {
        match layout::inner(self.module, ty) {
            Ok(TypeInner::Struct { .. }) => {
                if let Some(&Name::Borrowed(name)) = self.struct_names.get(&(ty, atomic)) {
                    return Ok(Cow::Borrowed(name));
                }
            }
            Ok(inner) => {
                if let Some(name) = self.numeric_type_name(inner, atomic) {
                    return Ok(Cow::Borrowed(name));
                }
            }
            Err(_) => {}
        }
        // Room for the longest names written at all often (`array<vec4<f32>, 16>`).
        let mut name = String::with_capacity(32);
        self.write_type_at(&mut name, ty, atomic, span)?;
        Ok(Cow::Owned(name))
    }

    /// The WGSL name of `inner` when it is a scalar, vector or matrix type WGSL has (and,
    /// with `atomic`, no integer), from fixed tables: the types named at nearly every
    /// declaration and constructor, without assembling their names piece by piece.
    #[inline]
    fn numeric_type_name(&self, inner: &TypeInner, atomic: bool) -> Option<&'static str> {
        let (scalar, name) = match *inner {
            TypeInner::Scalar(scalar) if !(atomic && scalar.is_integer()) => {
                (scalar, SCALAR_NAMES.get(scalar_index(scalar)?)?)
            }
            TypeInner::Vector { size, scalar } => {
                let names = VECTOR_NAMES.get(scalar_index(scalar)?)?;
                (scalar, names.get(size as usize - 2)?)
            }
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } => {
                let set = match (scalar.kind, scalar.width) {
                    (ScalarKind::Float, 4) => 0,
                    (ScalarKind::Float, 2) => 1,
                    _ => return None,
                };
                let names = MATRIX_NAMES.get(set)?.get(columns as usize - 2)?;
                let name = names.get(rows as usize - 2)?;
                (scalar, name)
            }
            _ => return None,
        };
        if scalar == Scalar::F16 {
            self.uses_f16.set(true);
        }
        Some(name)
    }

    /// Appends [`Self::type_at`]'s text to `out`.
    pub(crate) fn write_type_at(
        &self,
        out: &mut String,
        ty: Handle<Type>,
        atomic: bool,
        span: Option<Span>,
    ) -> Res<()> {
        self.write_type(out, ty, atomic, 0)
            .map_err(|why| unsupported(span, concat_text!("WGSL cannot express ", why)))
    }

    fn write_struct(&mut self, out: &mut String, ty: Handle<Type>, atomic: bool) -> Res<()> {
        let TypeInner::Struct { members, size } = &self.module.types[ty].inner else {
            return Ok(());
        };
        if members.len() > MAX_STRUCT_MEMBERS {
            return Err(unsupported(
                self.module.struct_spans.get(&ty).copied(),
                format!(
                    "the struct '{}' has {} members; WebGPU's compilers (Tint) take at most \
                     {MAX_STRUCT_MEMBERS} in one: split it into smaller structs, members of \
                     one struct",
                    self.module.hlsl_type_name(ty),
                    members.len()
                ),
            ));
        }
        let name = self.type_at(ty, atomic, None)?;
        // Only structs whose layout the host sees have member sizes to write.
        let sizes = if self.host_shared.contains(&ty) {
            // Layout errors were reported with the global's span by `check_layouts`.
            layout::plan_struct(self.module, members, *size, 0)
                .map(|plan| plan.sizes)
                .unwrap_or_default()
        } else {
            Vec::new()
        };
        let member_names: &'a [Name<'a>] = self.member_names.try_get(ty).map_or(&[], Vec::as_slice);
        out.push_str("struct ");
        out.push_str(&name);
        out.push_str(" {\n");
        for (index, member) in members.iter().enumerate() {
            out.push_str("    ");
            if let Some(Some(bytes)) = sizes.get(index) {
                out.push_str("@size(");
                oneshader_ir::text::push_decimal(out, *bytes as u64);
                out.push_str(") ");
            }
            if let Some(binding) = &member.binding {
                out.push_str(&self.io_attributes(binding, member.ty, None)?);
            }
            match member_names.get(index) {
                Some(member_name) => out.push_str(member_name),
                None => {
                    out.push_str("member");
                    oneshader_ir::text::push_decimal(out, index as u64);
                }
            }
            out.push_str(": ");
            self.write_type_at(out, member.ty, atomic, None)?;
            out.push_str(",\n");
        }
        out.push_str("}\n\n");
        Ok(())
    }

    /// Appends the declaration of `global` to `out`; on an error, part of it may have
    /// been appended.
    fn write_global_declaration(
        &self,
        out: &mut String,
        handle: Handle<GlobalVariable>,
        global: &GlobalVariable,
    ) -> Res<()> {
        let name = self.global_names[handle].as_deref().unwrap_or(&global.name);
        let atomic = self.atomic_globals[handle];
        let is_typed_buffer = matches!(
            self.module.types[global.ty].inner,
            TypeInner::Image {
                dim: ImageDimension::Buffer,
                ..
            }
        );
        let ty = if is_typed_buffer {
            Cow::Borrowed("")
        } else {
            match self.texture_type(handle, global)? {
                Some(texture) => Cow::Owned(texture),
                None => self.type_at(global.ty, atomic, global.span)?,
            }
        };
        // Appends `@group(g) @binding(b) `.
        let push_binding = |text: &mut String| -> Res<()> {
            let resource = global.resource.as_ref().ok_or_else(|| {
                unsupported(
                    global.span,
                    concat_text!("the resource '", global.name, "' has no binding"),
                )
            })?;
            text.push_str("@group(");
            oneshader_ir::text::push_decimal(text, resource.binding.set as u64);
            text.push_str(") @binding(");
            oneshader_ir::text::push_decimal(text, resource.binding.binding as u64);
            text.push_str(") ");
            Ok(())
        };
        if is_typed_buffer {
            let mut binding = String::with_capacity(32);
            push_binding(&mut binding)?;
            if let Some(declaration) =
                self.typed_buffer_declaration(global, name, &binding, atomic)?
            {
                out.push_str(&declaration);
                return Ok(());
            }
        }
        let text = out;
        let written = self.uses.get(handle.index()).is_some_and(|u| u.write);
        match global.space {
            AddressSpace::Storage { writable } => {
                let access = if writable && (written || self.entry.stage != ShaderStage::Vertex) {
                    if self.entry.stage == ShaderStage::Vertex {
                        return Err(unsupported(
                            global.span,
                            format!(
                                "the vertex shader writes '{}': WebGPU allows no writable \
                                 storage buffers in vertex shaders",
                                global.name
                            ),
                        ));
                    }
                    "read_write"
                } else {
                    "read"
                };
                push_binding(text)?;
                text.push_str("var<storage, ");
                text.push_str(access);
                text.push_str("> ");
            }
            AddressSpace::Uniform => {
                push_binding(text)?;
                text.push_str("var<uniform> ");
            }
            AddressSpace::Handle => {
                push_binding(text)?;
                text.push_str("var ");
            }
            AddressSpace::Workgroup => text.push_str("var<workgroup> "),
            AddressSpace::Private => {
                self.check_value_array_counts(global.ty, &global.name, global.span)?;
                text.push_str("var<private> ");
            }
            AddressSpace::Function => {
                return Err(unsupported(
                    global.span,
                    concat_text!(
                        "the global '",
                        global.name,
                        "' is in the function address space"
                    ),
                ))
            }
        }
        text.push_str(name);
        text.push_str(": ");
        text.push_str(&ty);
        text.push_str(";\n");
        Ok(())
    }

    /// `@builtin(...)` or `@location(n)` with interpolation, each followed by a space.
    pub fn io_attributes(
        &self,
        binding: &Binding,
        ty: Handle<Type>,
        span: Option<Span>,
    ) -> Res<String> {
        match binding {
            Binding::BuiltIn(builtin) => {
                let expected = builtin.inner_type();
                if layout::inner(self.module, ty).ok() != Some(&expected) {
                    return Err(unsupported(
                        span,
                        format!(
                            "the built-in {builtin:?} has type {}, but WGSL gives it {}",
                            self.type_name(ty, false).unwrap_or_else(|e| e),
                            describe_inner(&expected)
                        ),
                    ));
                }
                Ok(concat_text!("@builtin(", builtin_name(*builtin), ") "))
            }
            Binding::Location {
                location,
                interpolation,
                sampling,
                ..
            } => {
                let mut text = String::with_capacity(48);
                text.push_str("@location(");
                oneshader_ir::text::push_decimal(&mut text, *location as u64);
                text.push_str(") ");
                if self.entry.stage == ShaderStage::Compute {
                    return Ok(text);
                }
                let integer = layout::inner(self.module, ty)
                    .ok()
                    .and_then(|t| t.scalar())
                    .is_some_and(|s| s.is_integer());
                let kind = if integer {
                    Some(Interpolation::Flat)
                } else {
                    *interpolation
                };
                match kind {
                    Some(Interpolation::Flat) => text.push_str("@interpolate(flat) "),
                    _ => {
                        let sampling = sampling.unwrap_or(Sampling::Center);
                        let linear = kind == Some(Interpolation::Linear);
                        let sampling_name = match sampling {
                            Sampling::Center => "center",
                            Sampling::Centroid => "centroid",
                            Sampling::Sample => "sample",
                        };
                        match (linear, sampling) {
                            (false, Sampling::Center) => {}
                            (true, Sampling::Center) => text.push_str("@interpolate(linear) "),
                            (linear, _) => {
                                let _ = write!(
                                    text,
                                    "@interpolate({}, {sampling_name}) ",
                                    if linear { "linear" } else { "perspective" }
                                );
                            }
                        }
                    }
                }
                Ok(text)
            }
        }
    }

    /// Appends one function to `out`; its errors go to the writer's diagnostics (and
    /// `out` is then incomplete).
    fn write_function(
        &mut self,
        out: &mut String,
        handle: Option<Handle<Function>>,
        function: &'a Function,
    ) {
        match self.function_text(out, handle, function, None) {
            Ok(written) => self.diagnostics.extend(written.diagnostics),
            Err(d) => self.diagnostics.push(d),
        }
    }

    /// Appends helper `handle` to `out`: the text an earlier entry point of the module
    /// wrote for it when it holds here too ([`HelperText`]), else written anew, and kept
    /// for the next entry points when it can be.
    fn write_helper(&mut self, out: &mut String, handle: Handle<Function>, function: &'a Function) {
        let (Some(_), Some(scope)) = (self.shared_names, self.helper_scope) else {
            return self.write_function(out, Some(handle), function);
        };
        if let Some(Some(kept)) = self.helper_texts.borrow().try_get(handle) {
            let alike = kept.stage == self.entry.stage
                && kept
                    .uses
                    .iter()
                    .all(|&(global, used)| self.uses.get(global.index()) == Some(&used));
            if alike {
                out.push_str(&kept.text);
                if kept.f16 {
                    self.uses_f16.set(true);
                }
                return;
            }
        }
        let start = out.len();
        let f16_before = self.uses_f16.replace(false);
        let written = self.function_text(out, Some(handle), function, Some(scope));
        let f16 = self.uses_f16.get();
        self.uses_f16.set(f16_before || f16);
        match written {
            Ok(written) if written.diagnostics.is_empty() && !written.clashed_outside => {
                let kept = HelperText {
                    stage: self.entry.stage,
                    uses: self.own_global_uses(handle),
                    f16,
                    text: out.get(start..).unwrap_or_default().to_owned(),
                };
                if let Some(slot) = self.helper_texts.borrow_mut().try_get_mut(handle) {
                    *slot = Some(kept);
                }
            }
            _ => {
                // Named or written differently here than in the scope of every entry
                // point: written again as this entry point writes it.
                out.truncate(start);
                self.write_function(out, Some(handle), function);
            }
        }
    }

    /// How this entry point uses each global helper `handle` uses itself (as
    /// [`ModuleInfo::global_uses`] finds them), by global, each once: a global that only
    /// dead code names is not written, so the text does not depend on it.
    fn own_global_uses(
        &self,
        handle: Handle<Function>,
    ) -> Vec<(Handle<GlobalVariable>, GlobalUse)> {
        self.info
            .global_uses(handle)
            .iter()
            .map(|&(global, _)| {
                let used = self.uses.get(global.index()).copied();
                (global, used.unwrap_or_default())
            })
            .collect()
    }

    /// Appends the text of one function to `out`, naming its parameters and locals in a
    /// scope inside `scope` (the module's scope when `None`).
    fn function_text(
        &self,
        out: &mut String,
        handle: Option<Handle<Function>>,
        function: &'a Function,
        scope: Option<&Scope<'a>>,
    ) -> Res<FunctionWritten> {
        scope
            .unwrap_or(&self.namer)
            .inner()
            .with_lists(&mut self.lists.borrow_mut(), |namer, lists| {
                self.function_text_in(out, handle, function, namer, lists)
            })
    }

    /// [`Writer::function_text`], naming the parameters and locals in `namer` (a scope
    /// inside the module's) into `lists`.
    fn function_text_in(
        &self,
        out: &mut String,
        handle: Option<Handle<Function>>,
        function: &'a Function,
        namer: &mut Scope<'a>,
        lists: &mut FunctionLists<'a>,
    ) -> Res<FunctionWritten> {
        let is_entry = handle.is_none();
        let span = match handle {
            Some(h) => self.module.functions.span(h),
            None => self.entry.span,
        };
        let needs = match handle {
            Some(h) => self.lane_needs.try_get(h).copied().unwrap_or_default(),
            None => self.entry_lane_needs(),
        };
        if is_entry {
            match self.entry.stage {
                ShaderStage::Compute => {
                    let [x, y, z] = self.entry.workgroup_size;
                    out.push_str("@compute @workgroup_size(");
                    oneshader_ir::text::push_decimal(out, x as u64);
                    out.push_str(", ");
                    oneshader_ir::text::push_decimal(out, y as u64);
                    out.push_str(", ");
                    oneshader_ir::text::push_decimal(out, z as u64);
                    out.push_str(")\n");
                }
                ShaderStage::Vertex => out.push_str("@vertex\n"),
                ShaderStage::Fragment => out.push_str("@fragment\n"),
            }
        }
        out.push_str("fn ");
        match handle {
            Some(h) => out.push_str(
                self.function_names
                    .try_get(h)
                    .and_then(Option::as_deref)
                    .unwrap_or(&function.name),
            ),
            None => out.push_str(&self.entry_name),
        }
        let parameters =
            function.arguments.len() + usize::from(needs.index) + usize::from(needs.count);
        if parameters > MAX_FUNCTION_PARAMETERS {
            return Err(unsupported(
                span,
                format!(
                    "the function '{}' takes {parameters} parameters (with the lane index and \
                     count it is passed); WGSL allows at most {MAX_FUNCTION_PARAMETERS}: pass \
                     some of them together in a struct",
                    function.name
                ),
            ));
        }
        out.push('(');
        // The parameters, the locals and a compare-exchange's four temporaries.
        namer.reserve(function.arguments.len() + function.local_variables.len() + 4);
        for (index, argument) in function.arguments.iter().enumerate() {
            if index > 0 {
                out.push_str(", ");
            }
            let name = namer.name_in_ir(&argument.name, "arg");
            let ty = self.type_at(argument.ty, false, span)?;
            match (&argument.binding, is_entry) {
                (Some(binding), true) => {
                    out.push_str(&self.io_attributes(binding, argument.ty, span)?)
                }
                (None, true) if !self.is_io_struct(argument.ty) => {
                    return Err(unsupported(
                        span,
                        concat_text!(
                            "the entry point parameter '",
                            argument.name,
                            "' has no semantic"
                        ),
                    ))
                }
                _ => {}
            }
            out.push_str(&name);
            out.push_str(": ");
            out.push_str(&ty);
            lists.arguments.push(name);
        }
        let mut separator = if function.arguments.is_empty() {
            ""
        } else {
            ", "
        };
        let lane_index = needs.index.then_some(LANE_INDEX);
        let lane_count = needs.count.then_some(LANE_COUNT);
        if needs.index {
            out.push_str(separator);
            if is_entry {
                out.push_str("@builtin(subgroup_invocation_id) ");
            }
            out.push_str(LANE_INDEX);
            out.push_str(": u32");
            separator = ", ";
        }
        if needs.count {
            out.push_str(separator);
            if is_entry {
                out.push_str("@builtin(subgroup_size) ");
            }
            out.push_str(LANE_COUNT);
            out.push_str(": u32");
        }
        out.push(')');
        if let Some(result) = &function.result {
            let ty = self.type_at(result.ty, false, span)?;
            out.push_str(" -> ");
            match (&result.binding, is_entry) {
                (Some(binding), true) => {
                    out.push_str(&self.io_attributes(binding, result.ty, span)?)
                }
                (None, true) if !self.is_io_struct(result.ty) => {
                    return Err(unsupported(
                        span,
                        "the entry point's result has no semantic",
                    ))
                }
                _ => {}
            }
            out.push_str(&ty);
        }
        out.push_str(" {\n");

        lists.locals.extend(
            function
                .local_variables
                .iter()
                .map(|(_, local)| namer.name_in_ir(&local.name, "local")),
        );
        lists.bound.resize(function.expressions.len(), false);
        let mut context = FunctionContext {
            function,
            lists,
            named: Vec::new(),
            lane_index,
            lane_count,
            namer,
            diagnostics: Vec::new(),
            depth: BODY_DEPTH,
            span: None,
        };
        for (handle, local) in function.local_variables.iter() {
            let local_span = function.local_variables.span(handle).or(span);
            out.push_str("    var ");
            if let Some(name) = context.lists.locals.get(handle.index()) {
                out.push_str(name);
            }
            out.push_str(": ");
            self.write_type_at(out, local.ty, false, span)?;
            self.check_value_array_counts(local.ty, &local.name, local_span)?;
            match local.init {
                None => out.push_str(";\n"),
                Some(init) => {
                    out.push_str(" = ");
                    match self.write_initializer(out, &context, init) {
                        Ok(()) => out.push_str(";\n"),
                        Err(mut d) => {
                            d.message = format!(
                                "the initializer of local '{}' ({handle:?}): {}",
                                local.name, d.message
                            );
                            context.diagnostics.push(d);
                        }
                    }
                }
            }
        }
        self.write_block(&mut context, out, &function.body, 1);
        out.push_str("}\n");
        Ok(FunctionWritten {
            clashed_outside: context.namer.clashed_outside(),
            diagnostics: context.diagnostics,
        })
    }

    /// Whether `ty` is a struct whose members all carry I/O bindings.
    fn is_io_struct(&self, ty: Handle<Type>) -> bool {
        match layout::inner(self.module, ty) {
            Ok(TypeInner::Struct { members, .. }) => {
                !members.is_empty() && members.iter().all(|m| m.binding.is_some())
            }
            _ => false,
        }
    }
}

/// Which functions need the lane index or count ([`direct_lane_needs`]), directly or
/// through a callee, by handle.
fn module_lane_needs(module: &Module, info: &ModuleInfo) -> HandleVec<Function, LaneNeeds> {
    let mut lane_needs: HandleVec<Function, LaneNeeds> = module
        .functions
        .iter()
        .map(|(handle, function)| direct_lane_needs(function, info.body_facts(handle)))
        .collect();
    loop {
        let mut changed = false;
        for (handle, _) in module.functions.iter() {
            let Some(&before) = lane_needs.try_get(handle) else {
                continue;
            };
            let mut needs = before;
            for &callee in info.callees(handle) {
                let callee_needs = lane_needs.try_get(callee).copied().unwrap_or_default();
                needs.index |= callee_needs.index;
                needs.count |= callee_needs.count;
            }
            if needs != before {
                if let Some(slot) = lane_needs.try_get_mut(handle) {
                    *slot = needs;
                }
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    lane_needs
}

/// What a function whose body holds `facts` needs itself: the lane index for
/// `WaveGetLaneIndex` and for `QuadReadLaneAt` with a non-constant lane, the lane count
/// for `WaveGetLaneCount`.
fn direct_lane_needs(function: &Function, facts: BodyFacts) -> LaneNeeds {
    let mut needs = LaneNeeds {
        index: facts.lane_index,
        count: facts.lane_count,
    };
    if facts.quad_read_lane_at && !needs.index {
        for (_, expression) in function.expressions.iter() {
            if let Expression::Wave {
                op: WaveOp::QuadReadLaneAt,
                args,
            } = expression
            {
                let constant = args
                    .get(1)
                    .and_then(|&a| crate::expressions::constant_index(function, a));
                needs.index |= !constant.is_some_and(|c| (0..4).contains(&c));
            }
        }
    }
    needs
}

/// The WGSL name of a built-in value.
fn builtin_name(builtin: BuiltIn) -> &'static str {
    match builtin {
        BuiltIn::Position => "position",
        BuiltIn::VertexIndex => "vertex_index",
        BuiltIn::InstanceIndex => "instance_index",
        BuiltIn::FrontFacing => "front_facing",
        BuiltIn::FragDepth => "frag_depth",
        BuiltIn::SampleIndex => "sample_index",
        BuiltIn::GlobalInvocationId => "global_invocation_id",
        BuiltIn::LocalInvocationId => "local_invocation_id",
        BuiltIn::LocalInvocationIndex => "local_invocation_index",
        BuiltIn::WorkGroupId => "workgroup_id",
    }
}

fn describe_inner(inner: &TypeInner) -> String {
    match inner {
        TypeInner::Scalar(s) => format!("{:?}", s.kind),
        TypeInner::Vector { size, scalar } => format!("{:?}x{}", scalar.kind, size.count()),
        other => format!("{other:?}"),
    }
}

/// The WGSL name of an entry function whose HLSL name is `name`. The writer names the
/// entry point first, after the lane names, so this reproduces it.
pub(crate) fn entry_function_name(name: &str) -> String {
    let identifier = crate::names::identifier(name, "main");
    if identifier != LANE_INDEX && identifier != LANE_COUNT {
        return identifier;
    }
    let mut namer = Scope::new();
    namer.take_as_is(Name::Borrowed(LANE_INDEX));
    namer.take_as_is(Name::Borrowed(LANE_COUNT));
    namer.name(name, "main").to_string()
}
