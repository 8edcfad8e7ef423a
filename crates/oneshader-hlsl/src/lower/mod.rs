//! Semantic analysis and lowering: resolves names, types, overloads and implicit
//! conversions of the syntax tree and builds the IR [`Module`].
//!
//! Declarations are collected first (structs, globals, function signatures); then
//! every entry point is lowered, pulling in the functions it calls, and finally the
//! remaining function definitions are checked so their errors are reported too.

mod cbuffer;
mod columns;
mod context;
mod counter;
mod degenerate_matrices;
mod derived;
mod expr;
mod flat_casts;
mod function;
mod globals;
mod image;
mod integer_matrices;
mod intrinsics;
mod matrix;
mod raw_buffer;
mod stage_io;
mod stmt;
pub(crate) mod types;
mod unroll;

use std::rc::Rc;
use std::sync::Arc;

use oneshader_ir::{
    codes, Diagnostic, Diagnostics, FastHashMap, Function, Handle, Module, ShaderStage, Span, Type,
    UniqueArena,
};

use crate::ast;
use crate::lexer::Symbol;
use types::Ty;

/// What the lowering needs to know besides the syntax tree.
#[derive(Clone, Debug, Default)]
pub struct LowerOptions {
    /// Lower only this entry point (`-E`); otherwise every function carrying
    /// `[numthreads]` or `[shader("…")]`.
    pub entry_point: Option<String>,
    /// The stage of the `-T` profile, when one was given.
    pub stage: Option<ShaderStage>,
    /// `-fvk-<class>-shift` options: register numbers to Vulkan bindings.
    pub binding_shifts: Vec<oneshader_ir::BindingShift>,
}

/// A name declared at file scope.
#[derive(Clone, Copy, Debug)]
pub(crate) enum GlobalSymbol<'a> {
    /// A global variable in memory (`groupshared`, `static`).
    Variable {
        global: Handle<oneshader_ir::GlobalVariable>,
        ty: Handle<Type>,
    },
    /// A member of a `cbuffer` block.
    CbufferField {
        global: Handle<oneshader_ir::GlobalVariable>,
        index: u32,
        ty: Handle<Type>,
        /// A `row_major` matrix: the block stores its transpose (see `lower::matrix`).
        transposed: bool,
    },
    /// A member of a row-packed constant buffer (see `lower::cbuffer`), or the whole
    /// value of a `ConstantBuffer<T>`.
    CbufferRows(cbuffer::CbufferPlace),
    /// A buffer resource.
    Resource {
        global: Handle<oneshader_ir::GlobalVariable>,
        ty: types::ResourceTy,
    },
    /// A `static const` value, substituted where used.
    Constant {
        init: &'a ast::Expr<'a>,
        ty: Handle<Type>,
    },
}

/// One parameter of a user function's signature.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ParamSig<'a> {
    /// The name, borrowed from the declaration (empty for an unnamed parameter).
    pub name: &'a str,
    /// The value type; for a resource parameter, the resource's element type.
    pub ty: Handle<Type>,
    /// `out` or `inout`: passed by pointer.
    pub by_pointer: bool,
    /// `inout` (or `in`+`out`): copied in before the call.
    pub copy_in: bool,
    pub default: Option<&'a ast::Expr<'a>>,
    /// A buffer, texture or sampler parameter. It has no IR argument: the global
    /// resource a call passes is substituted into the body, one IR function per
    /// distinct set of resource arguments (as DXC's inlining resolves them).
    pub resource: Option<types::ResourceTy>,
}

/// A user function: its declaration and resolved signature.
#[derive(Clone, Debug)]
pub(crate) struct FunctionSymbol<'a> {
    pub decl: &'a ast::FunctionDecl<'a>,
    /// The parameters, shared: a call and the function's lowering each take the
    /// signature while the symbol tables change.
    pub params: Rc<[ParamSig<'a>]>,
    pub result: Ty,
    /// For a member function, its struct: `this` is the first of `params`.
    pub this_ty: Option<Handle<Type>>,
    /// The IR function once lowered (a function without resource parameters).
    pub handle: Option<Handle<Function>>,
    /// The IR functions of a function with resource parameters, one per distinct
    /// list of global resources passed to them.
    pub specializations: Vec<(Vec<Handle<oneshader_ir::GlobalVariable>>, Handle<Function>)>,
}

impl FunctionSymbol<'_> {
    /// Whether any parameter is a resource (so the function is specialized per call).
    pub(crate) fn has_resource_params(&self) -> bool {
        self.params.iter().any(|p| p.resource.is_some())
    }
}

/// The deepest nesting of structs in structs a shader may declare (SPIR-V's universal
/// limit, which Tint shares): a struct without struct members is one level, and an array
/// between two structs adds none. It bounds every walk of a type, in every backend.
pub(crate) const MAX_STRUCT_NESTING: u32 = 255;

/// The deepest nesting of types a shader may declare, each array dimension and each
/// struct a level (Tint's limit, and so WGSL's; clang crashes on MSL types twice as
/// deep): typedefs of arrays of typedefs otherwise nest without bound, past what the
/// backends' recursive type walks have stack for.
pub(crate) const MAX_TYPE_NESTING: u32 = 255;

/// How deep a type nests, counted two ways.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Nesting {
    /// Structs in structs: 1 for a struct without struct members, an array of structs
    /// counting as its structs; at most [`MAX_STRUCT_NESTING`] for a declared struct.
    pub structs: u32,
    /// Types in types, each array dimension and each struct a level (0 for a scalar,
    /// vector or matrix); at most [`MAX_TYPE_NESTING`].
    pub types: u32,
}

/// The state of one lowering: the module being built and every symbol table.
pub(crate) struct Lowerer<'a> {
    pub module: Module,
    /// `-fvk-<class>-shift` options.
    pub binding_shifts: Vec<oneshader_ir::BindingShift>,
    pub diagnostics: Diagnostics,
    /// The names declared at file scope, by their symbol ([`Lowerer::global_key`]).
    pub globals: FastHashMap<Symbol, GlobalSymbol<'a>>,
    pub structs: FastHashMap<String, Handle<Type>>,
    /// The declaration of each named struct type, for the semantics of its fields.
    pub struct_decls: FastHashMap<Handle<Type>, &'a ast::StructDecl<'a>>,
    /// How deep each declared struct type nests structs and types ([`Nesting`]).
    pub struct_nesting: FastHashMap<Handle<Type>, Nesting>,
    pub typedefs: FastHashMap<String, Ty>,
    pub functions: FastHashMap<Arc<str>, Vec<FunctionSymbol<'a>>>,
    /// Functions being lowered right now, outermost first, to detect recursion: their
    /// declarations, told apart by address (each overload has its own).
    pub in_progress: Vec<&'a ast::FunctionDecl<'a>>,
    /// `static` globals with initializers, stored at the start of every entry point.
    pub static_inits: Vec<(Handle<oneshader_ir::GlobalVariable>, &'a ast::Expr<'a>)>,
    /// Whether matrices in memory are row-major unless declared otherwise: the last
    /// `#pragma pack_matrix` seen (HLSL's default is column-major).
    pub row_major_default: bool,
    /// The counter resource of each structured buffer whose counter is used.
    pub counters:
        FastHashMap<Handle<oneshader_ir::GlobalVariable>, Handle<oneshader_ir::GlobalVariable>>,
    /// The append and consume buffers (lowered as `RWStructuredBuffer`s).
    pub buffer_flavors: FastHashMap<Handle<oneshader_ir::GlobalVariable>, counter::BufferFlavor>,
    /// The binding a structured buffer's `[[vk::counter_binding(N)]]` gives its counter.
    pub counter_bindings: FastHashMap<Handle<oneshader_ir::GlobalVariable>, u32>,
    /// The variables of the `[unroll]` loops being unrolled, innermost last, each with its
    /// value in the copy of the body being lowered (see `unroll`).
    pub unrolled: Vec<(String, i64)>,
    /// The pointer types made so far, by pointee and address space: lowering asks for
    /// one at every use of a variable, and this spares hashing the whole type.
    pub pointer_types: types::PointerTypes,
    /// The scalar and vector types made so far, by component and shape, for the same reason.
    pub numeric_types: types::NumericTypes,
    /// The working storage that finished functions left, for the next ones lowered
    /// (one is in use per function being lowered; see [`context::FnScratch`]).
    pub fn_scratch: Vec<context::FnScratch>,
    /// What each intrinsic name called so far is, by the name's symbol.
    pub intrinsic_kinds: Vec<intrinsics::IntrinsicKind>,
    /// The unit being lowered, which shares the names the IR keeps
    /// ([`Lowerer::shared_name`]).
    pub unit: &'a ast::TranslationUnit<'a>,
}

/// Lowers a parsed translation unit into an IR module.
pub fn lower(
    unit: &ast::TranslationUnit,
    options: &LowerOptions,
    diagnostics: &mut Diagnostics,
) -> Option<Module> {
    let mut lowerer = Lowerer {
        module: Module {
            // Even a small shader names a few dozen types; growing from empty costs
            // several rehashes.
            types: UniqueArena::with_capacity(32),
            ..Module::default()
        },
        binding_shifts: options.binding_shifts.clone(),
        diagnostics: Diagnostics::new(),
        globals: FastHashMap::default(),
        structs: FastHashMap::default(),
        struct_decls: FastHashMap::default(),
        struct_nesting: FastHashMap::default(),
        typedefs: FastHashMap::default(),
        functions: FastHashMap::default(),
        in_progress: Vec::new(),
        static_inits: Vec::new(),
        row_major_default: false,
        counters: FastHashMap::default(),
        buffer_flavors: FastHashMap::default(),
        counter_bindings: FastHashMap::default(),
        unrolled: Vec::new(),
        pointer_types: types::PointerTypes::default(),
        numeric_types: types::NumericTypes::default(),
        fn_scratch: Vec::new(),
        intrinsic_kinds: Vec::new(),
        unit,
    };
    let items = flatten_items(unit.items);
    for item in &items {
        lowerer.declare_item(item);
    }
    lowerer.check_binding_conflicts();
    lowerer.place_push_constants();
    lowerer.reserve_functions();
    let entries = lowerer.find_entry_points(&items, options);
    for (decl, stage, span) in entries {
        lowerer.lower_entry_point(decl, stage, span);
    }
    lowerer.check_remaining_functions();
    lowerer.refuse_degenerate_matrices_in_stage_io();
    lowerer.integer_matrices_to_arrays();
    let failed = lowerer.diagnostics.has_errors();
    diagnostics.extend(lowerer.diagnostics.into_vec());
    if failed {
        None
    } else {
        Some(lowerer.module)
    }
}

/// The top-level items with namespaces opened (names inside keep their last segment).
fn flatten_items<'a>(items: &'a [ast::Item<'a>]) -> Vec<&'a ast::Item<'a>> {
    let mut out = Vec::new();
    for item in items {
        match item {
            ast::Item::Namespace(ns) => out.extend(flatten_items(ns.items)),
            other => out.push(other),
        }
    }
    out
}

impl<'a> Lowerer<'a> {
    /// The spelling of `ident`, a name of the syntax tree, shared as the IR and the
    /// scopes keep names (the unit's spelling table's copy, made on first use).
    pub(crate) fn shared_name(&self, ident: &ast::Ident) -> Arc<str> {
        self.unit.shared_name(ident)
    }

    /// Records an error.
    pub(crate) fn error(
        &mut self,
        code: oneshader_ir::Code,
        span: Span,
        message: impl Into<String>,
    ) {
        self.diagnostics
            .push(Diagnostic::error(code, span, message));
    }

    /// Records a diagnostic.
    pub(crate) fn report(&mut self, diagnostic: Diagnostic) {
        self.diagnostics.push(diagnostic);
    }

    /// The functions to compile as entry points, with their stages.
    fn find_entry_points(
        &mut self,
        items: &[&'a ast::Item<'a>],
        options: &LowerOptions,
    ) -> Vec<(&'a ast::FunctionDecl<'a>, ShaderStage, Span)> {
        let mut entries = Vec::new();
        for item in items {
            let ast::Item::Function(decl) = *item else {
                continue;
            };
            let decl: &'a ast::FunctionDecl<'a> = decl;
            if decl.body.is_none() {
                continue;
            }
            let attributed = entry_stage_from_attributes(decl);
            let wanted = match &options.entry_point {
                Some(name) => decl.name.is(name),
                None => attributed.is_some(),
            };
            if !wanted {
                continue;
            }
            let stage = attributed
                .flatten()
                .or(options.stage)
                .or_else(|| has_attribute(decl, "numthreads").then_some(ShaderStage::Compute));
            match stage {
                Some(stage) => entries.push((decl, stage, decl.span)),
                None => self.error(
                    codes::ENTRY_POINT_INVALID,
                    decl.name.span(),
                    format!(
                        "cannot tell the stage of entry point '{}': give it [shader(\"compute\")], [numthreads(x, y, z)] or a profile with -T",
                        decl.name.name()
                    ),
                ),
            }
        }
        if entries.is_empty() && !self.diagnostics.has_errors() {
            let message = match &options.entry_point {
                Some(name) => format!("entry point '{name}' not found: no function of that name is defined"),
                None => "no entry point found: mark one with [numthreads(x, y, z)] or [shader(\"…\")], or name it with -E".to_string(),
            };
            self.diagnostics.push(Diagnostic::error(
                codes::ENTRY_POINT_NOT_FOUND,
                None,
                message,
            ));
        }
        entries
    }

    /// Makes room in the module for the IR function of every function definition (each
    /// is lowered once, from a call or for its diagnostics), so that the arena of large
    /// `Function`s is not grown and moved step by step. Functions with resource
    /// parameters get one IR function per call's resources, which is not known yet.
    fn reserve_functions(&mut self) {
        let definitions = self
            .functions
            .values()
            .flatten()
            .filter(|f| f.decl.body.is_some() && !f.has_resource_params())
            .count();
        self.module.functions.reserve(definitions);
    }

    /// Lowers every function definition no entry point reached, for its diagnostics.
    fn check_remaining_functions(&mut self) {
        let pending: Vec<(Arc<str>, usize)> = self
            .functions
            .iter()
            .flat_map(|(name, overloads)| {
                overloads
                    .iter()
                    .enumerate()
                    // A function with resource parameters is lowered at its calls
                    // only: its body means nothing without the resources passed.
                    .filter(|(_, f)| {
                        f.handle.is_none() && f.decl.body.is_some() && !f.has_resource_params()
                    })
                    .map(move |(i, _)| (name.clone(), i))
            })
            .collect();
        for (name, index) in pending {
            let is_entry = self
                .functions
                .get(&name)
                .and_then(|o| o.get(index))
                .is_some_and(|f| entry_stage_from_attributes(f.decl).is_some());
            if !is_entry {
                self.function_handle(&name, index, None, &[]);
            }
        }
    }
}

/// Whether `decl` has an attribute named `name`.
pub(crate) fn has_attribute(decl: &ast::FunctionDecl, name: &str) -> bool {
    decl.attributes.iter().any(|a| a.name.is(name))
}

/// `Some(stage)` for `[shader("…")]`, `Some(None)` for `[numthreads]` alone, `None` if neither.
fn entry_stage_from_attributes(decl: &ast::FunctionDecl) -> Option<Option<ShaderStage>> {
    for attribute in decl.attributes {
        if attribute.name.is("shader") {
            if let Some(ast::Expr {
                kind: ast::ExprKind::Literal(ast::Literal::String(stage)),
                ..
            }) = attribute.args.first()
            {
                return Some(match **stage {
                    "compute" => Some(ShaderStage::Compute),
                    "vertex" => Some(ShaderStage::Vertex),
                    "pixel" => Some(ShaderStage::Fragment),
                    _ => None,
                });
            }
        }
    }
    has_attribute(decl, "numthreads").then_some(Some(ShaderStage::Compute))
}

#[cfg(test)]
mod tests;
