//! Vertex and pixel entry points whose inputs or outputs are structs or `out`
//! parameters: the HLSL function is lowered as an ordinary function, and a generated
//! entry point flattens the stage interface (one binding per field or parameter),
//! builds the arguments, calls it and gathers its results.
//!
//! Locations follow DXC: user inputs get locations 0, 1, … in declaration order
//! (fields of struct parameters in field order), system values take none; outputs
//! likewise, the return value first, then `out` parameters. A vertex shader's outputs
//! therefore match a pixel shader's inputs when both declare the same user semantics
//! in the same order, which sharing one struct guarantees.

use oneshader_ir::{
    codes, AddressSpace, Binding, EntryPoint, Expression, Function, FunctionArgument,
    FunctionResult, Handle, Interpolation, Sampling, ScalarKind, ShaderStage, Span, Statement,
    StructMember, Type, TypeInner,
};

use super::context::{FnCtx, Value};
use super::types::Ty;
use super::Lowerer;
use crate::ast;

/// One flattened value of the stage interface.
struct Slot {
    /// Its binding.
    binding: Binding,
    /// The type the HLSL code declares.
    ty: Handle<Type>,
    /// The type the interface carries (a built-in's IR type, else `ty`).
    interface_ty: Handle<Type>,
}

/// Where a flattened value sits in an HLSL parameter or result.
#[derive(Clone, Copy)]
enum Part {
    /// The whole value.
    Whole,
    /// A struct field.
    Field(u32),
}

impl<'a> Lowerer<'a> {
    /// Whether an entry point needs the generated wrapper: a struct parameter or
    /// result, or an `out`/`inout` parameter.
    pub(crate) fn needs_entry_wrapper(
        &mut self,
        decl: &'a ast::FunctionDecl<'a>,
        result: Ty,
    ) -> bool {
        let is_struct = |this: &Self, ty: Ty| match ty {
            Ty::Value(t) => matches!(this.module.inner(t), TypeInner::Struct { .. }),
            _ => false,
        };
        if is_struct(self, result) {
            return true;
        }
        decl.params.iter().any(|p| {
            p.modifiers
                .iter()
                .any(|m| matches!(m.modifier, ast::Modifier::Out | ast::Modifier::InOut))
                || self.resolve_type(&p.ty).is_some_and(|t| is_struct(self, t))
        })
    }

    /// The interpolation written as modifiers.
    fn interpolation_of(
        modifiers: &[ast::SpannedModifier],
    ) -> (Option<Interpolation>, Option<Sampling>) {
        let mut interpolation = None;
        let mut sampling = None;
        for m in modifiers {
            match m.modifier {
                ast::Modifier::Linear => interpolation = Some(Interpolation::Perspective),
                ast::Modifier::NoPerspective => interpolation = Some(Interpolation::Linear),
                ast::Modifier::NoInterpolation => interpolation = Some(Interpolation::Flat),
                ast::Modifier::Centroid => sampling = Some(Sampling::Centroid),
                ast::Modifier::Sample => sampling = Some(Sampling::Sample),
                _ => {}
            }
        }
        (interpolation, sampling)
    }

    /// The binding of one flattened value; user varyings get the next location and
    /// their interpolation (integers are always flat).
    #[allow(clippy::too_many_arguments)]
    fn slot(
        &mut self,
        stage: ShaderStage,
        output: bool,
        semantic: Option<&ast::Ident<'a>>,
        name_span: Span,
        modifiers: &[ast::SpannedModifier],
        ty: Handle<Type>,
        next_location: &mut u32,
    ) -> Option<Slot> {
        let Some(semantic) = semantic else {
            self.error(
                codes::ENTRY_POINT_INVALID,
                name_span,
                format!(
                    "every {} of a {} entry point needs a semantic, such as ': TEXCOORD0'",
                    if output { "output" } else { "input" },
                    stage.name()
                ),
            );
            return None;
        };
        if !matches!(
            self.module.inner(ty),
            TypeInner::Scalar(_) | TypeInner::Vector { .. }
        ) {
            self.error(
                codes::UNSUPPORTED_CONSTRUCT,
                name_span,
                "stage inputs and outputs must be scalars or vectors (nested structs, arrays and matrices are not supported yet)",
            );
            return None;
        }
        let mut binding = if output {
            let binding = self.output_binding(stage, semantic)?;
            match binding {
                Binding::Location { location: 0, .. } if stage == ShaderStage::Vertex => {
                    let location = *next_location;
                    *next_location += 1;
                    Binding::Location {
                        location,
                        semantic: semantic.name.to_string(),
                        interpolation: None,
                        sampling: None,
                    }
                }
                other => other,
            }
        } else {
            self.input_binding(stage, semantic, next_location)?
        };
        let varying =
            (stage == ShaderStage::Vertex && output) || (stage == ShaderStage::Fragment && !output);
        if let Binding::Location {
            ref mut interpolation,
            ref mut sampling,
            ..
        } = binding
        {
            if varying {
                let (written, written_sampling) = Self::interpolation_of(modifiers);
                let integer = self
                    .module
                    .inner(ty)
                    .scalar()
                    .is_some_and(|s| s.kind != ScalarKind::Float);
                *interpolation = if integer {
                    Some(Interpolation::Flat)
                } else {
                    written.or(Some(Interpolation::Perspective))
                };
                *sampling = if integer {
                    None
                } else {
                    written_sampling.or(Some(Sampling::Center))
                };
            }
        }
        let interface_ty = match &binding {
            Binding::BuiltIn(b) => self.module.type_handle(b.inner_type()),
            Binding::Location { .. } => ty,
        };
        Some(Slot {
            binding,
            ty,
            interface_ty,
        })
    }

    /// Flattens one parameter or result of type `ty` into slots.
    #[allow(clippy::too_many_arguments)]
    fn flatten(
        &mut self,
        stage: ShaderStage,
        output: bool,
        ty: Handle<Type>,
        semantic: Option<&ast::Ident<'a>>,
        modifiers: &[ast::SpannedModifier],
        span: Span,
        next_location: &mut u32,
        slots: &mut Vec<(Slot, Part)>,
    ) -> Option<()> {
        if !matches!(self.module.inner(ty), TypeInner::Struct { .. }) {
            let slot = self.slot(stage, output, semantic, span, modifiers, ty, next_location)?;
            slots.push((slot, Part::Whole));
            return Some(());
        }
        let Some(decl) = self.struct_decls.get(&ty).copied() else {
            self.error(
                codes::UNSUPPORTED_CONSTRUCT,
                span,
                "this struct's fields cannot be found",
            );
            return None;
        };
        let TypeInner::Struct { members, .. } = self.module.inner(ty).clone() else {
            return None;
        };
        let mut index = 0u32;
        for item in decl.members {
            let ast::Item::Variable(field) = item else {
                continue;
            };
            for declarator in field.declarators {
                let member = members.get(index as usize)?;
                let semantic = declarator.annotations.iter().find_map(|a| match a {
                    ast::Annotation::Semantic(s) => Some(s),
                    _ => None,
                });
                let mut all_modifiers = modifiers.to_vec();
                all_modifiers.extend_from_slice(field.modifiers);
                let slot = self.slot(
                    stage,
                    output,
                    semantic,
                    declarator.name.span,
                    &all_modifiers,
                    member.ty,
                    next_location,
                )?;
                slots.push((slot, Part::Field(index)));
                index += 1;
            }
        }
        Some(())
    }

    /// Lowers an entry point whose inputs or outputs are structs (or `out` parameters)
    /// through a generated wrapper that flattens them into one interface value per
    /// semantic and calls the function as written.
    pub(crate) fn lower_wrapped_entry_point(
        &mut self,
        decl: &'a ast::FunctionDecl<'a>,
        stage: ShaderStage,
        workgroup_size: [u32; 3],
        span: Span,
    ) {
        let name = decl.name.name().to_string();
        let Some(index) = self
            .functions
            .get(name.as_str())
            .and_then(|o| o.iter().position(|f| std::ptr::eq(f.decl, decl)))
        else {
            return;
        };
        let Some(symbol) = self
            .functions
            .get(name.as_str())
            .and_then(|overloads| overloads.get(index))
            .cloned()
        else {
            return;
        };
        let Some(callee) = self.function_handle(&name, index, Some(span), &[]) else {
            return;
        };
        // Inputs: every parameter that is not `out`.
        let mut input_location = 0;
        let mut inputs: Vec<Vec<(Slot, Part)>> = Vec::new();
        let mut failed = false;
        for (param, sig) in decl.params.iter().zip(symbol.params.iter()) {
            let mut slots = Vec::new();
            let pure_out = sig.by_pointer && !sig.copy_in;
            if !pure_out {
                let semantic = param.annotations.iter().find_map(|a| match a {
                    ast::Annotation::Semantic(s) => Some(s),
                    _ => None,
                });
                let span = param.name.as_ref().map_or(param.span, |n| n.span);
                failed |= self
                    .flatten(
                        stage,
                        false,
                        sig.ty,
                        semantic,
                        param.modifiers,
                        span,
                        &mut input_location,
                        &mut slots,
                    )
                    .is_none();
            }
            inputs.push(slots);
        }
        // Outputs: the result, then `out`/`inout` parameters.
        let mut output_location = 0;
        let mut result_slots = Vec::new();
        if let Ty::Value(ty) = symbol.result {
            let semantic = decl.return_annotations.iter().find_map(|a| match a {
                ast::Annotation::Semantic(s) => Some(s),
                _ => None,
            });
            failed |= self
                .flatten(
                    stage,
                    true,
                    ty,
                    semantic,
                    &[],
                    decl.return_type.span,
                    &mut output_location,
                    &mut result_slots,
                )
                .is_none();
        }
        let mut out_slots: Vec<Vec<(Slot, Part)>> = Vec::new();
        for (param, sig) in decl.params.iter().zip(symbol.params.iter()) {
            let mut slots = Vec::new();
            if sig.by_pointer {
                let semantic = param.annotations.iter().find_map(|a| match a {
                    ast::Annotation::Semantic(s) => Some(s),
                    _ => None,
                });
                let span = param.name.as_ref().map_or(param.span, |n| n.span);
                failed |= self
                    .flatten(
                        stage,
                        true,
                        sig.ty,
                        semantic,
                        param.modifiers,
                        span,
                        &mut output_location,
                        &mut slots,
                    )
                    .is_none();
            }
            out_slots.push(slots);
        }
        if failed {
            return;
        }

        let mut function = Function {
            name: format!("{name}_entry"),
            ..Function::default()
        };
        for (slots, param) in inputs.iter().zip(symbol.params.iter()) {
            for (slot, _) in slots {
                function.arguments.push(FunctionArgument {
                    name: format!("{}_{}", param.name, function.arguments.len()),
                    ty: slot.interface_ty,
                    binding: Some(slot.binding.clone()),
                });
            }
        }
        let all_outputs: Vec<&Slot> = result_slots
            .iter()
            .chain(out_slots.iter().flatten())
            .map(|(s, _)| s)
            .collect();
        let output_struct = if all_outputs.len() > 1 {
            let members = all_outputs
                .iter()
                .enumerate()
                .map(|(i, s)| StructMember {
                    name: format!("member_{i}"),
                    ty: s.interface_ty,
                    offset: i as u32 * 16,
                    binding: Some(s.binding.clone()),
                })
                .collect();
            Some(self.module.types.insert(Type {
                name: Some(format!("{name}_Output")),
                inner: TypeInner::Struct {
                    members,
                    size: all_outputs.len() as u32 * 16,
                },
            }))
        } else {
            None
        };
        function.result = match (output_struct, all_outputs.first()) {
            (Some(ty), _) => Some(FunctionResult { ty, binding: None }),
            (None, Some(slot)) => Some(FunctionResult {
                ty: slot.interface_ty,
                binding: Some(slot.binding.clone()),
            }),
            (None, None) => None,
        };
        let return_ty = match function.result.as_ref() {
            Some(r) => Ty::Value(r.ty),
            None => Ty::Void,
        };
        let mut cx = FnCtx::new(function, return_ty, self.unit.this_symbol());

        // Build each argument.
        let mut argument_index = 0u32;
        let mut arguments = Vec::new();
        let mut out_temps = Vec::new();
        for (slots, sig) in inputs.iter().zip(symbol.params.iter()) {
            let mut parts = Vec::new();
            for (slot, _) in slots {
                let arg = cx.expr(
                    Expression::FunctionArgument(argument_index),
                    slot.interface_ty,
                    span,
                );
                argument_index += 1;
                let value = Value::Rvalue {
                    expr: arg,
                    ty: slot.interface_ty,
                    literal: false,
                };
                let Some(converted) = self.convert_value(&mut cx, value, slot.ty, span, false)
                else {
                    return;
                };
                parts.push(converted);
            }
            let value = match slots.first().map(|(_, part)| *part) {
                Some(Part::Field(_)) => Some(cx.expr(
                    Expression::Compose {
                        ty: sig.ty,
                        components: parts.into(),
                    },
                    sig.ty,
                    span,
                )),
                Some(Part::Whole) => parts.first().copied(),
                None => None,
            };
            if sig.by_pointer {
                let temp = cx.temporary(sig.ty, span);
                let pointer_ty = self.pointer_type(sig.ty, AddressSpace::Function);
                if let Some(value) = value {
                    let pointer = cx.expr(Expression::LocalVariable(temp), pointer_ty, span);
                    cx.emit(Statement::Store { pointer, value });
                }
                let pointer = cx.expr(Expression::LocalVariable(temp), pointer_ty, span);
                arguments.push(pointer);
                out_temps.push(Some((temp, pointer_ty)));
            } else {
                let Some(value) = value else { return };
                arguments.push(value);
                out_temps.push(None);
            }
        }
        let result = match symbol.result {
            Ty::Value(ty) => Some((cx.expr(Expression::CallResult(callee), ty, span), ty)),
            _ => None,
        };
        cx.emit(Statement::Call {
            function: callee,
            arguments,
            result: result.map(|r| r.0),
        });
        // Gather the outputs.
        let mut values = Vec::new();
        let mut gather = |this: &mut Self,
                          cx: &mut FnCtx,
                          whole: Handle<Expression>,
                          whole_ty: Handle<Type>,
                          slots: &[(Slot, Part)]|
         -> Option<()> {
            let whole = cx.bind(whole);
            for (slot, part) in slots {
                let value = match part {
                    Part::Whole => whole,
                    Part::Field(index) => cx.expr(
                        Expression::AccessIndex {
                            base: whole,
                            index: *index,
                        },
                        slot.ty,
                        span,
                    ),
                };
                let _ = whole_ty;
                let converted = this.convert_value(
                    cx,
                    Value::Rvalue {
                        expr: value,
                        ty: slot.ty,
                        literal: false,
                    },
                    slot.interface_ty,
                    span,
                    false,
                )?;
                values.push(converted);
            }
            Some(())
        };
        if let Some((expr, ty)) = result {
            if gather(self, &mut cx, expr, ty, &result_slots).is_none() {
                return;
            }
        }
        for ((slots, temp), param) in out_slots.iter().zip(&out_temps).zip(symbol.params.iter()) {
            let Some((temp, pointer_ty)) = *temp else {
                continue;
            };
            let ty = param.ty;
            let pointer = cx.expr(Expression::LocalVariable(temp), pointer_ty, span);
            let loaded = cx.expr(Expression::Load { pointer }, ty, span);
            if gather(self, &mut cx, loaded, ty, slots).is_none() {
                return;
            }
        }
        let value = match (output_struct, values.len()) {
            (Some(ty), _) => Some(cx.expr(
                Expression::Compose {
                    ty,
                    components: values.into(),
                },
                ty,
                span,
            )),
            (None, 1) => values.first().copied(),
            _ => None,
        };
        cx.emit(Statement::Return { value });
        let function = cx.finish();
        self.module.entry_points.push(EntryPoint {
            name,
            stage,
            workgroup_size,
            function,
            span: Some(span),
        });
    }
}
