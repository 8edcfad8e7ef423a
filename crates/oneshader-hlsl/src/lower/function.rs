//! Functions and entry points: signatures, parameters, stage inputs and outputs.

use std::sync::Arc;

use oneshader_ir::{
    codes, AddressSpace, Binding, BuiltIn, Diagnostic, EntryPoint, Expression, Function,
    FunctionArgument, FunctionResult, GlobalVariable, Handle, ShaderStage, Span, Statement,
    TypeInner,
};

use super::context::{FnCtx, LocalSymbol, Value};
use super::types::Ty;
use super::{has_attribute, Lowerer};
use crate::ast;
use crate::lexer::Symbol;

impl<'a> Lowerer<'a> {
    /// The IR function of overload `index` of `name`, lowering it on first use.
    ///
    /// `resources` are the global resources passed to its resource parameters, in
    /// order; each distinct list gets its own IR function.
    pub(crate) fn function_handle(
        &mut self,
        name: &str,
        index: usize,
        call_span: Option<Span>,
        resources: &[Handle<GlobalVariable>],
    ) -> Option<Handle<Function>> {
        let symbol = self.functions.get(name)?.get(index)?;
        let resource_params = symbol
            .params
            .iter()
            .filter(|p| p.resource.is_some())
            .count();
        if resource_params != resources.len() {
            let decl = symbol.decl;
            self.error(
                codes::ENTRY_POINT_INVALID,
                call_span.unwrap_or(decl.name.span()),
                format!("'{name}' has resource parameters: it can only be called with global resources as arguments, not used as an entry point"),
            );
            return None;
        }
        if resources.is_empty() {
            if let Some(handle) = symbol.handle {
                return Some(handle);
            }
        } else if let Some((_, handle)) = symbol
            .specializations
            .iter()
            .find(|(globals, _)| globals.as_slice() == resources)
        {
            return Some(*handle);
        }
        // Lowered once per function (or specialization): its own copy of the signature
        // leaves the symbol tables free for the calls in its body.
        let symbol = symbol.clone();
        let decl = symbol.decl;
        if self.in_progress.iter().any(|&d| std::ptr::eq(d, decl)) {
            self.report(
                Diagnostic::error(
                    codes::RECURSION,
                    call_span.unwrap_or(symbol.decl.name.span()),
                    format!("function '{name}' calls itself, directly or through other functions"),
                )
                .with_help("HLSL has no recursion: rewrite it as a loop with an explicit stack"),
            );
            return None;
        }
        let Some(body) = &symbol.decl.body else {
            self.error(
                codes::UNKNOWN_IDENTIFIER,
                call_span.unwrap_or(symbol.decl.name.span()),
                format!("function '{name}' is declared but never defined"),
            );
            return None;
        };
        self.in_progress.push(decl);
        let mut arguments = Vec::with_capacity(symbol.params.len() - resource_params);
        for param in symbol.params.iter().filter(|p| p.resource.is_none()) {
            let ty = if param.by_pointer {
                self.pointer_type(param.ty, AddressSpace::Function)
            } else {
                param.ty
            };
            arguments.push(FunctionArgument {
                name: param.name.to_string(),
                ty,
                binding: None,
            });
        }
        let result = match symbol.result {
            Ty::Value(ty) => Some(FunctionResult { ty, binding: None }),
            _ => None,
        };
        // A method `S::M` becomes the IR function `S_M` (a plain name, nearly every one,
        // is copied as it is, without searching it for `::`).
        let mut overload_name = if name.contains(':') {
            name.replace("::", "_")
        } else {
            name.to_string()
        };
        if index != 0 {
            overload_name.push('_');
            overload_name.push_str(&index.to_string());
        }
        // A specialization is named after the resources it uses.
        for &global in resources {
            overload_name.push('_');
            overload_name.push_str(&self.module.global_variables[global].name);
        }
        let function = Function {
            name: overload_name,
            arguments,
            result,
            ..Function::default()
        };
        let mut cx = self.begin_function(function, symbol.result);
        let implicit = usize::from(symbol.this_ty.is_some());
        if let Some(this_ty) = symbol.this_ty {
            // Fields are in scope by name; parameters and locals declared later shadow them.
            // (A field whose name no token spells cannot be named.)
            if let TypeInner::Struct { members, .. } = self.module.inner(this_ty) {
                for (member, field) in members.iter().enumerate() {
                    let Some(name) = self.unit.symbol_of(&field.name) else {
                        continue;
                    };
                    cx.declare(
                        name,
                        LocalSymbol::ThisMember {
                            member: member as u32,
                            ty: field.ty,
                        },
                    );
                }
            }
            cx.push_scope();
        }
        let mut resource_arguments = resources.iter();
        let mut argument_index = 0u32;
        for (i, param) in symbol.params.iter().enumerate() {
            let written = i
                .checked_sub(implicit)
                .and_then(|written| symbol.decl.params.get(written));
            let span = written.map_or(symbol.decl.name.span(), |p| p.span);
            // The name's symbol, and its spelling shared from the unit's (`this` is not
            // written; an unnamed parameter is not declared).
            let name = written
                .and_then(|p| p.name.as_ref())
                .map(|ident| (ident.symbol, self.shared_name(ident)));
            if let Some(ty) = param.resource {
                if let (Some(&global), Some((name, _))) = (resource_arguments.next(), &name) {
                    cx.declare(*name, LocalSymbol::Resource { global, ty });
                }
                continue;
            }
            let index = argument_index;
            argument_index += 1;
            if param.by_pointer {
                let symbol = LocalSymbol::PointerParam {
                    index,
                    ty: param.ty,
                };
                match name {
                    Some((name, _)) => {
                        cx.declare(name, symbol);
                    }
                    None if i < implicit => {
                        cx.declare(self.unit.this_symbol(), symbol);
                    }
                    None => {}
                }
            } else {
                let value = cx.expr(Expression::FunctionArgument(index), param.ty, span);
                let assigned = name
                    .as_ref()
                    .is_some_and(|(name, _)| decl.assigned.contains(name));
                self.declare_parameter(&mut cx, name, param.ty, value, assigned, span);
            }
        }
        self.lower_function_body(&mut cx, body);
        let function = self.end_function(cx);
        let handle = self
            .module
            .functions
            .append(function, Some(symbol.decl.span));
        if let Some(f) = self.functions.get_mut(name).and_then(|o| o.get_mut(index)) {
            if resources.is_empty() {
                f.handle = Some(handle);
            } else {
                f.specializations.push((resources.to_vec(), handle));
            }
        }
        if let Some(at) = self
            .in_progress
            .iter()
            .rposition(|&d| std::ptr::eq(d, decl))
        {
            self.in_progress.remove(at);
        }
        Some(handle)
    }

    /// A context for lowering `function`, which returns `return_ty`, in the working
    /// storage a finished function left.
    fn begin_function(&mut self, function: Function, return_ty: Ty) -> FnCtx {
        let scratch = self.fn_scratch.pop().unwrap_or_default();
        FnCtx::with_scratch(function, return_ty, self.unit.this_symbol(), scratch)
    }

    /// The function `cx` has lowered; its working storage is kept for the next one.
    fn end_function(&mut self, cx: FnCtx) -> Function {
        let (function, scratch) = cx.finish_with_scratch();
        self.fn_scratch.push(scratch);
        function
    }

    /// Makes a parameter's value available under `name`: directly when the body
    /// never assigns it (`assigned` is false), else through a local copy.
    fn declare_parameter(
        &mut self,
        cx: &mut FnCtx,
        name: Option<(Symbol, Arc<str>)>,
        ty: Handle<oneshader_ir::Type>,
        value: Handle<Expression>,
        assigned: bool,
        span: Span,
    ) {
        match name {
            Some((name, spelling)) if assigned => {
                let var = cx.local(spelling, ty, span);
                let pointer_ty = self.pointer_type(ty, AddressSpace::Function);
                let pointer = cx.expr(Expression::LocalVariable(var), pointer_ty, span);
                cx.emit(Statement::Store { pointer, value });
                cx.declare(name, LocalSymbol::Variable { var, ty });
            }
            _ => {
                let value = cx.bind(value);
                if let Some((name, _)) = name {
                    cx.declare(name, LocalSymbol::Value { expr: value, ty });
                }
            }
        }
    }

    /// Lowers a function body and checks that non-void functions return.
    fn lower_function_body(&mut self, cx: &mut FnCtx, body: &'a ast::Block<'a>) {
        for statement in body.statements {
            self.lower_statement(cx, statement);
        }
    }

    /// Lowers one entry point.
    pub(crate) fn lower_entry_point(
        &mut self,
        decl: &'a ast::FunctionDecl<'a>,
        stage: ShaderStage,
        span: Span,
    ) {
        let Some(body) = &decl.body else { return };
        let name = decl.name.name().to_string();
        let workgroup_size = match stage {
            ShaderStage::Compute => match self.numthreads(decl) {
                Some(size) => size,
                None => return,
            },
            _ => [1, 1, 1],
        };
        let result_ty = match self.resolve_type(&decl.return_type) {
            Some(t) => t,
            None => return,
        };
        if self.needs_entry_wrapper(decl, result_ty) {
            self.lower_wrapped_entry_point(decl, stage, workgroup_size, span);
            return;
        }
        let mut function = Function {
            name: name.clone(),
            ..Function::default()
        };
        let mut next_input_location = 0;
        let mut inputs = Vec::new();
        for param in decl.params {
            let Some(param_name) = &param.name else {
                continue;
            };
            let Some(Ty::Value(ty)) = self.resolve_type(&param.ty) else {
                self.error(
                    codes::ENTRY_POINT_INVALID,
                    param.ty.span,
                    "entry point parameters must have value types",
                );
                continue;
            };
            if param
                .modifiers
                .iter()
                .any(|m| matches!(m.modifier, ast::Modifier::Out | ast::Modifier::InOut))
            {
                self.error(
                    codes::UNSUPPORTED_CONSTRUCT,
                    param.span,
                    "out parameters of entry points are not supported yet; return the value (or a struct) instead",
                );
                continue;
            }
            let Some(semantic) = semantic_of(param.annotations) else {
                self.error(
                    codes::ENTRY_POINT_INVALID,
                    param_name.span,
                    format!("entry point parameter '{}' needs a semantic, such as ': SV_DispatchThreadID'", param_name.name),
                );
                continue;
            };
            let binding = match self.input_binding(stage, semantic, &mut next_input_location) {
                Some(b) => b,
                None => continue,
            };
            let arg_ty = match &binding {
                Binding::BuiltIn(b) => self.module.type_handle(b.inner_type()),
                Binding::Location { .. } => ty,
            };
            function.arguments.push(FunctionArgument {
                name: param_name.name.to_string(),
                ty: arg_ty,
                binding: Some(binding),
            });
            inputs.push((
                param_name,
                self.shared_name(param_name),
                ty,
                arg_ty,
                param.span,
            ));
        }
        let result = match result_ty {
            Ty::Void => None,
            Ty::Value(ty) => {
                let Some(semantic) = semantic_of(decl.return_annotations) else {
                    self.error(
                        codes::ENTRY_POINT_INVALID,
                        decl.return_type.span,
                        "the entry point's return value needs a semantic, such as ': SV_Target'",
                    );
                    return;
                };
                let Some(binding) = self.output_binding(stage, semantic) else {
                    return;
                };
                Some(FunctionResult {
                    ty,
                    binding: Some(binding),
                })
            }
            Ty::Resource(_) => return,
        };
        function.result = result;
        let mut cx = self.begin_function(function, result_ty);
        for (i, (param_name, spelling, ty, arg_ty, param_span)) in inputs.into_iter().enumerate() {
            let assigned = decl.assigned.contains(&param_name.symbol);
            let arg = cx.expr(Expression::FunctionArgument(i as u32), arg_ty, param_span);
            let value = Value::Rvalue {
                expr: arg,
                ty: arg_ty,
                literal: false,
            };
            // A system value may be declared with fewer components than it has
            // (`uint id : SV_DispatchThreadID`): DXC takes the first ones silently.
            let Some(converted) = self.convert_value(&mut cx, value, ty, param_span, false) else {
                continue;
            };
            let name = Some((param_name.symbol, spelling));
            self.declare_parameter(&mut cx, name, ty, converted, assigned, param_span);
        }
        for (global, init) in self.static_inits.clone() {
            let ty = self.module.global_variables[global].ty;
            let pointer_ty = self.pointer_type(ty, AddressSpace::Private);
            let Some(value) = self.lower_initializer(&mut cx, init, ty) else {
                continue;
            };
            let pointer = cx.expr(Expression::GlobalVariable(global), pointer_ty, init.span);
            cx.emit(Statement::Store { pointer, value });
        }
        self.lower_function_body(&mut cx, body);
        let function = self.end_function(cx);
        self.module.entry_points.push(EntryPoint {
            name,
            stage,
            workgroup_size,
            function,
            span: Some(span),
        });
    }

    fn numthreads(&mut self, decl: &ast::FunctionDecl<'a>) -> Option<[u32; 3]> {
        let Some(attribute) = decl.attributes.iter().find(|a| a.name.is("numthreads")) else {
            self.error(
                codes::ENTRY_POINT_INVALID,
                decl.name.span(),
                format!(
                    "compute entry point '{}' needs [numthreads(x, y, z)]",
                    decl.name.name()
                ),
            );
            return None;
        };
        if attribute.args.len() != 3 {
            self.error(
                codes::ENTRY_POINT_INVALID,
                attribute.span,
                "numthreads takes three sizes: [numthreads(x, y, z)]",
            );
            return None;
        }
        let mut size = [1; 3];
        for (slot, arg) in size.iter_mut().zip(attribute.args) {
            *slot = self.const_u32(arg)?;
            if *slot == 0 || *slot > 1024 {
                self.error(
                    codes::ENTRY_POINT_INVALID,
                    arg.span,
                    "each numthreads size must be between 1 and 1024",
                );
                return None;
            }
        }
        if size.iter().product::<u32>() > 1024 {
            self.error(
                codes::ENTRY_POINT_INVALID,
                attribute.span,
                "numthreads x*y*z must not exceed 1024",
            );
            return None;
        }
        let _ = has_attribute(decl, "numthreads");
        Some(size)
    }

    pub(crate) fn input_binding(
        &mut self,
        stage: ShaderStage,
        semantic: &ast::Ident<'a>,
        next_location: &mut u32,
    ) -> Option<Binding> {
        let upper = semantic.name.to_ascii_uppercase();
        let builtin = match (stage, upper.as_str()) {
            (ShaderStage::Compute, "SV_DISPATCHTHREADID") => BuiltIn::GlobalInvocationId,
            (ShaderStage::Compute, "SV_GROUPTHREADID") => BuiltIn::LocalInvocationId,
            (ShaderStage::Compute, "SV_GROUPID") => BuiltIn::WorkGroupId,
            (ShaderStage::Compute, "SV_GROUPINDEX") => BuiltIn::LocalInvocationIndex,
            (ShaderStage::Vertex, "SV_VERTEXID") => BuiltIn::VertexIndex,
            (ShaderStage::Vertex, "SV_INSTANCEID") => BuiltIn::InstanceIndex,
            (ShaderStage::Fragment, "SV_POSITION") => BuiltIn::Position,
            (ShaderStage::Fragment, "SV_ISFRONTFACE") => BuiltIn::FrontFacing,
            (ShaderStage::Fragment, "SV_SAMPLEINDEX") => BuiltIn::SampleIndex,
            (ShaderStage::Compute, _) => {
                self.error(
                    codes::ENTRY_POINT_INVALID,
                    semantic.span,
                    format!("'{}' is not a compute shader input: use SV_DispatchThreadID, SV_GroupThreadID, SV_GroupID or SV_GroupIndex", semantic.name),
                );
                return None;
            }
            (_, s) if s.starts_with("SV_") => {
                self.error(
                    codes::UNSUPPORTED_CONSTRUCT,
                    semantic.span,
                    format!(
                        "the system value '{}' is not supported as a {} shader input yet",
                        semantic.name,
                        stage.name()
                    ),
                );
                return None;
            }
            _ => {
                let location = *next_location;
                *next_location += 1;
                return Some(Binding::Location {
                    location,
                    semantic: semantic.name.to_string(),
                    interpolation: None,
                    sampling: None,
                });
            }
        };
        Some(Binding::BuiltIn(builtin))
    }

    pub(crate) fn output_binding(
        &mut self,
        stage: ShaderStage,
        semantic: &ast::Ident<'a>,
    ) -> Option<Binding> {
        let upper = semantic.name.to_ascii_uppercase();
        match (stage, upper.as_str()) {
            (ShaderStage::Vertex, "SV_POSITION") => Some(Binding::BuiltIn(BuiltIn::Position)),
            (ShaderStage::Fragment, "SV_DEPTH") => Some(Binding::BuiltIn(BuiltIn::FragDepth)),
            (ShaderStage::Fragment, s) if s.starts_with("SV_TARGET") => {
                let index = s["SV_TARGET".len()..].parse::<u32>().unwrap_or(0);
                if index > 7 {
                    self.error(
                        codes::ENTRY_POINT_INVALID,
                        semantic.span,
                        "render targets are SV_Target0 to SV_Target7",
                    );
                    return None;
                }
                Some(Binding::Location {
                    location: index,
                    semantic: semantic.name.to_string(),
                    interpolation: None,
                    sampling: None,
                })
            }
            (ShaderStage::Vertex, s) if !s.starts_with("SV_") => Some(Binding::Location {
                location: 0,
                semantic: semantic.name.to_string(),
                interpolation: None,
                sampling: None,
            }),
            _ => {
                self.error(
                    codes::UNSUPPORTED_CONSTRUCT,
                    semantic.span,
                    format!(
                        "'{}' is not supported as a {} shader output yet",
                        semantic.name,
                        stage.name()
                    ),
                );
                None
            }
        }
    }
}

/// The semantic among `annotations`.
fn semantic_of<'a>(annotations: &'a [ast::Annotation<'a>]) -> Option<&'a ast::Ident<'a>> {
    annotations.iter().find_map(|a| match a {
        ast::Annotation::Semantic(s) => Some(s),
        _ => None,
    })
}
