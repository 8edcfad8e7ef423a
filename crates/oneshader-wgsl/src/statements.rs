//! Statements: structured control flow, stores, atomics, calls and barriers.

use std::fmt::Write as _;

use oneshader_ir::{
    AtomicFunction, Barrier, Expression, Function, Handle, ScalarKind, Statement, SwitchCase,
    SwitchValue, TypeInner,
};

use crate::writer::{unsupported, FunctionContext, Res, Writer};

fn pad(indent: usize) -> String {
    "    ".repeat(indent)
}

impl Writer<'_> {
    /// Writes `block` at `indent`; errors go to the context's diagnostics.
    pub(crate) fn write_block(
        &self,
        context: &mut FunctionContext,
        out: &mut String,
        block: &[Statement],
        indent: usize,
    ) {
        for statement in block {
            if let Err(d) = self.write_statement(context, out, statement, indent) {
                context.diagnostics.push(d);
            }
        }
    }

    fn write_statement(
        &self,
        context: &mut FunctionContext,
        out: &mut String,
        statement: &Statement,
        indent: usize,
    ) -> Res<()> {
        let p = pad(indent);
        match statement {
            Statement::Bind(handle) => self.bind(context, out, *handle, indent)?,
            Statement::Block(block) => {
                let _ = writeln!(out, "{p}{{");
                self.write_block(context, out, block, indent + 1);
                let _ = writeln!(out, "{p}}}");
            }
            Statement::If {
                condition,
                accept,
                reject,
            } => {
                let condition = self.expression(context, *condition)?;
                let _ = writeln!(out, "{p}if {condition} {{");
                self.write_block(context, out, accept, indent + 1);
                if !reject.is_empty() {
                    let _ = writeln!(out, "{p}}} else {{");
                    self.write_block(context, out, reject, indent + 1);
                }
                let _ = writeln!(out, "{p}}}");
            }
            Statement::Switch { selector, cases } => {
                self.switch(context, out, *selector, cases, indent)?
            }
            Statement::Loop {
                body,
                continuing,
                break_if,
            } => {
                let _ = writeln!(out, "{p}loop {{");
                self.write_block(context, out, body, indent + 1);
                if !continuing.is_empty() || break_if.is_some() {
                    let _ = writeln!(out, "{p}    continuing {{");
                    self.write_block(context, out, continuing, indent + 2);
                    if let Some(condition) = break_if {
                        let condition = self.expression(context, *condition)?;
                        let _ = writeln!(out, "{p}        break if {condition};");
                    }
                    let _ = writeln!(out, "{p}    }}");
                }
                let _ = writeln!(out, "{p}}}");
            }
            Statement::Break => {
                let _ = writeln!(out, "{p}break;");
            }
            Statement::Continue => {
                let _ = writeln!(out, "{p}continue;");
            }
            Statement::Return { value: None } => {
                let _ = writeln!(out, "{p}return;");
            }
            Statement::Return { value: Some(value) } => {
                let value = self.expression(context, *value)?;
                let _ = writeln!(out, "{p}return {value};");
            }
            Statement::Kill => {
                let _ = writeln!(out, "{p}discard;");
            }
            Statement::Barrier(barrier) => Self::barrier(out, *barrier, &p),
            Statement::ImageStore {
                image,
                coordinate,
                array_index,
                value,
            } => {
                let line = self.image_store(context, *image, *coordinate, *array_index, *value)?;
                let _ = writeln!(out, "{p}{line}");
            }
            Statement::Store { pointer, value } => {
                let reference = self.reference(context, *pointer)?;
                let value = self.expression(context, *value)?;
                if self.is_atomic_pointer(context, *pointer) {
                    self.check_atomic_integer(context, *pointer)?;
                    let _ = writeln!(out, "{p}atomicStore(&{reference}, {value});");
                } else {
                    let _ = writeln!(out, "{p}{reference} = {value};");
                }
            }
            Statement::Atomic {
                pointer,
                fun,
                value,
                compare,
                result,
            } => self.atomic(
                context, out, *pointer, *fun, *value, *compare, *result, indent,
            )?,
            Statement::Call {
                function,
                arguments,
                result,
            } => self.call(context, out, *function, arguments, *result, indent)?,
        }
        Ok(())
    }

    /// `let _eN = value;` for a `Bind`; pointers and call/atomic results need none.
    fn bind(
        &self,
        context: &mut FunctionContext,
        out: &mut String,
        handle: Handle<Expression>,
        indent: usize,
    ) -> Res<()> {
        if context.bound.contains_key(&handle) {
            return Ok(());
        }
        let expression = context.function.expressions.try_get(handle);
        if matches!(
            expression,
            Some(Expression::CallResult(_) | Expression::AtomicResult)
        ) || matches!(self.type_of(context, handle)?, TypeInner::Pointer { .. })
        {
            return Ok(());
        }
        let text = self.expression(context, handle)?;
        let name = format!("_e{}", handle.index());
        let _ = writeln!(out, "{}let {name} = {text};", pad(indent));
        context.bound.insert(handle, name);
        Ok(())
    }

    /// WGSL has no fallthrough: a case that falls through has an empty body in the IR, so
    /// its label joins the next case's selector list (`case 1i, 2i: {...}`).
    fn switch(
        &self,
        context: &mut FunctionContext,
        out: &mut String,
        selector: Handle<Expression>,
        cases: &[SwitchCase],
        indent: usize,
    ) -> Res<()> {
        let p = pad(indent);
        let span = context.function.expressions.span(selector);
        let signed = match self.type_of(context, selector)? {
            TypeInner::Scalar(s) if s.kind == ScalarKind::Sint && s.width == 4 => true,
            TypeInner::Scalar(s) if s.kind == ScalarKind::Uint && s.width == 4 => false,
            _ => {
                return Err(unsupported(
                    span,
                    "a switch on a value that is not a 32-bit integer",
                ))
            }
        };
        let label = |value: SwitchValue| -> String {
            let bits = match value {
                SwitchValue::I32(v) => v as u32,
                SwitchValue::U32(v) => v,
                SwitchValue::Default => return "default".into(),
            };
            if signed {
                match bits as i32 {
                    i32::MIN => "i32(-2147483648)".into(),
                    v => format!("{v}i"),
                }
            } else {
                format!("{bits}u")
            }
        };
        let selector = self.expression(context, selector)?;
        let _ = writeln!(out, "{p}switch {selector} {{");
        let mut labels: Vec<String> = Vec::new();
        let mut has_default = false;
        for case in cases {
            has_default |= case.value == SwitchValue::Default;
            labels.push(label(case.value));
            if case.fall_through {
                if !case.body.is_empty() {
                    return Err(unsupported(
                        span,
                        "a switch case that runs statements and then falls through (WGSL has \
                         no fallthrough; the front end merges such bodies)",
                    ));
                }
                continue;
            }
            self.write_case(context, out, &labels, &case.body, indent + 1);
            labels.clear();
        }
        if !labels.is_empty() {
            // The last cases fall through to the end of the switch.
            self.write_case(context, out, &labels, &[], indent + 1);
        }
        if !has_default {
            let _ = writeln!(out, "{p}    default: {{}}");
        }
        let _ = writeln!(out, "{p}}}");
        Ok(())
    }

    fn write_case(
        &self,
        context: &mut FunctionContext,
        out: &mut String,
        labels: &[String],
        body: &[Statement],
        indent: usize,
    ) {
        let p = pad(indent);
        let head = if matches!(labels, [only] if only == "default") {
            "default".to_owned()
        } else {
            format!("case {}", labels.join(", "))
        };
        let _ = writeln!(out, "{p}{head}: {{");
        self.write_block(context, out, body, indent + 1);
        let _ = writeln!(out, "{p}}}");
    }

    /// WGSL's barriers always synchronize execution too; a memory-only HLSL barrier gets
    /// the stronger one.
    fn barrier(out: &mut String, barrier: Barrier, p: &str) {
        if barrier.device_memory {
            let _ = writeln!(out, "{p}storageBarrier();");
        }
        if barrier.workgroup_memory || !barrier.device_memory {
            let _ = writeln!(out, "{p}workgroupBarrier();");
        }
    }

    fn check_atomic_integer(
        &self,
        context: &FunctionContext,
        pointer: Handle<Expression>,
    ) -> Res<()> {
        match self.type_of(context, pointer)? {
            TypeInner::Pointer { base, .. } => match crate::layout::inner(self.module, *base) {
                Ok(TypeInner::Scalar(s)) if s.is_integer() && s.width == 4 => Ok(()),
                _ => Err(unsupported(
                    context.function.expressions.span(pointer),
                    "storing a whole aggregate into a buffer that is also used atomically \
                     (WGSL writes atomics one integer at a time)",
                )),
            },
            _ => Err(unsupported(
                context.function.expressions.span(pointer),
                "an atomic operand that is not a pointer",
            )),
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn atomic(
        &self,
        context: &mut FunctionContext,
        out: &mut String,
        pointer: Handle<Expression>,
        fun: AtomicFunction,
        value: Handle<Expression>,
        compare: Option<Handle<Expression>>,
        result: Option<Handle<Expression>>,
        indent: usize,
    ) -> Res<()> {
        let p = pad(indent);
        let span = context.function.expressions.span(pointer);
        if !self.is_atomic_pointer(context, pointer) {
            return Err(unsupported(
                span,
                "an atomic operation on something other than a global buffer or groupshared \
                 variable",
            ));
        }
        self.check_atomic_integer(context, pointer)?;
        let pointee = match self.type_of(context, pointer)? {
            TypeInner::Pointer { base, .. } => *base,
            _ => return Err(unsupported(span, "an atomic operand that is not a pointer")),
        };
        let pointee_text = self.type_at(pointee, false, span)?;
        let reference = self.reference(context, pointer)?;
        let operand = |context: &FunctionContext, h: Handle<Expression>| -> Res<String> {
            let text = self.expression(context, h)?;
            if self.type_handle_of(context, h)? == pointee {
                Ok(text)
            } else {
                Ok(format!("{pointee_text}({text})"))
            }
        };
        let value = operand(context, value)?;
        let name = match fun {
            AtomicFunction::Add => "atomicAdd",
            AtomicFunction::And => "atomicAnd",
            AtomicFunction::Or => "atomicOr",
            AtomicFunction::Xor => "atomicXor",
            AtomicFunction::Min => "atomicMin",
            AtomicFunction::Max => "atomicMax",
            AtomicFunction::Exchange => "atomicExchange",
            AtomicFunction::CompareExchange => {
                let compare = compare.ok_or_else(|| {
                    unsupported(span, "a compare-exchange without a comparison value")
                })?;
                let compare = operand(context, compare)?;
                // atomicCompareExchangeWeak may fail spuriously; HLSL's is strong, so retry
                // while it failed although the value was equal.
                let old = match result {
                    Some(r) => format!("_e{}", r.index()),
                    None => context.namer.name("old", "old"),
                };
                let [cmp, val, r] = ["cmp", "value", "exchange"].map(|n| context.namer.name(n, n));
                let _ = writeln!(out, "{p}var {old}: {pointee_text};");
                let _ = writeln!(out, "{p}{{");
                let _ = writeln!(out, "{p}    let {cmp} = {compare};");
                let _ = writeln!(out, "{p}    let {val} = {value};");
                let _ = writeln!(out, "{p}    loop {{");
                let _ = writeln!(
                    out,
                    "{p}        let {r} = atomicCompareExchangeWeak(&{reference}, {cmp}, {val});"
                );
                let _ = writeln!(
                    out,
                    "{p}        if {r}.exchanged || {r}.old_value != {cmp} {{ {old} = {r}.old_value; break; }}"
                );
                let _ = writeln!(out, "{p}    }}");
                let _ = writeln!(out, "{p}}}");
                if let Some(r) = result {
                    context.bound.insert(r, old);
                }
                return Ok(());
            }
        };
        match result {
            Some(r) => {
                let bound = format!("_e{}", r.index());
                let _ = writeln!(out, "{p}let {bound} = {name}(&{reference}, {value});");
                context.bound.insert(r, bound);
            }
            None => {
                let _ = writeln!(out, "{p}{name}(&{reference}, {value});");
            }
        }
        Ok(())
    }

    fn call(
        &self,
        context: &mut FunctionContext,
        out: &mut String,
        function: Handle<Function>,
        arguments: &[Handle<Expression>],
        result: Option<Handle<Expression>>,
        indent: usize,
    ) -> Res<()> {
        let span = result.and_then(|r| context.function.expressions.span(r));
        let name = self
            .function_names
            .get(&function)
            .cloned()
            .ok_or_else(|| unsupported(span, "a call to a function that does not exist"))?;
        let mut values = arguments
            .iter()
            .map(|&a| self.expression(context, a))
            .collect::<Res<Vec<_>>>()?;
        let needs = self.lane_needs.get(&function).copied().unwrap_or_default();
        if needs.index {
            values.push(
                context
                    .lane_index
                    .clone()
                    .ok_or_else(|| unsupported(span, "the lane index is not available here"))?,
            );
        }
        if needs.count {
            values.push(
                context
                    .lane_count
                    .clone()
                    .ok_or_else(|| unsupported(span, "the lane count is not available here"))?,
            );
        }
        let p = pad(indent);
        let call = format!("{name}({})", values.join(", "));
        match result {
            Some(r) => {
                let bound = format!("_e{}", r.index());
                let _ = writeln!(out, "{p}let {bound} = {call};");
                context.bound.insert(r, bound);
            }
            None => {
                let _ = writeln!(out, "{p}{call};");
            }
        }
        Ok(())
    }
}
