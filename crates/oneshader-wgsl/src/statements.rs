//! Statements: structured control flow, stores, atomics, calls and barriers.

use oneshader_ir::concat_text;
use std::fmt::Write as _;

use oneshader_ir::{
    codes, AtomicFunction, Barrier, Diagnostic, Expression, Function, Handle, ScalarKind, Span,
    Statement, SwitchCase, SwitchValue, TypeInner,
};

use crate::names::WgslNames;
use crate::writer::{
    unsupported, write_indent, write_temporary, Bound, FunctionContext, Res, Writer,
    MAX_STATEMENT_DEPTH, MAX_SWITCH_SELECTORS,
};

impl Writer<'_> {
    /// Writes `block` at `indent`; errors go to the context's diagnostics.
    pub(crate) fn write_block(
        &self,
        context: &mut FunctionContext,
        out: &mut String,
        block: &[Statement],
        indent: usize,
    ) {
        if context.depth > MAX_STATEMENT_DEPTH {
            // One error a function: the first statement too deep.
            let reported = context
                .diagnostics
                .iter()
                .any(|d| d.code == codes::WGSL_NESTING_TOO_DEEP);
            if !reported {
                let span = first_span(context.function, block).or(context.span);
                context.diagnostics.push(too_deep(span, context.depth));
            }
            return;
        }
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
        let span = statement_span(context.function, statement);
        if let Some(span) = span {
            context.span = Some(span);
        }
        match statement {
            Statement::Bind(handle) => self.bind(context, out, *handle, indent)?,
            // Written without braces: every name the output declares in a function is
            // unique in it, so a block's scope changes nothing, and a brace would spend
            // one of the 127 levels of nesting Tint accepts.
            Statement::Block(block) => self.write_block(context, out, block, indent),
            Statement::If {
                condition,
                accept,
                reject,
            } => self.write_if(context, out, *condition, accept, reject, indent)?,
            Statement::Switch { selector, cases } => {
                self.switch(context, out, *selector, cases, indent)?
            }
            Statement::Loop {
                body,
                continuing,
                break_if,
            } => {
                write_indent(out, indent);
                out.push_str("loop {\n");
                self.write_nested(context, out, body, indent + 1, 2);
                if !continuing.is_empty() || break_if.is_some() {
                    write_indent(out, indent + 1);
                    out.push_str("continuing {\n");
                    self.write_nested(context, out, continuing, indent + 2, 2);
                    if let Some(condition) = break_if {
                        write_indent(out, indent + 2);
                        out.push_str("break if ");
                        self.write_expr(out, context, *condition)?;
                        out.push_str(";\n");
                    }
                    write_indent(out, indent + 1);
                    out.push_str("}\n");
                }
                write_indent(out, indent);
                out.push_str("}\n");
            }
            Statement::Break => line(out, indent, "break;"),
            Statement::Continue => line(out, indent, "continue;"),
            Statement::Return { value: None } => line(out, indent, "return;"),
            Statement::Return { value: Some(value) } => {
                write_indent(out, indent);
                out.push_str("return ");
                self.write_expr(out, context, *value)?;
                out.push_str(";\n");
            }
            Statement::Kill => line(out, indent, "discard;"),
            Statement::Barrier(barrier) => Self::barrier(out, *barrier, indent),
            Statement::ImageStore {
                image,
                coordinate,
                array_index,
                value,
            } => {
                let text = self.image_store(context, *image, *coordinate, *array_index, *value)?;
                line(out, indent, &text);
            }
            Statement::Store { pointer, value } => {
                let atomic = self.is_atomic_pointer(context, *pointer);
                write_indent(out, indent);
                if atomic {
                    out.push_str("atomicStore(&");
                }
                self.write_reference(out, context, *pointer)?;
                out.push_str(if atomic { ", " } else { " = " });
                self.write_expr(out, context, *value)?;
                if atomic {
                    self.check_atomic_integer(context, *pointer)?;
                    out.push(')');
                }
                out.push_str(";\n");
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

    /// Writes `block`, whose statements are `levels` deeper than the current ones.
    fn write_nested(
        &self,
        context: &mut FunctionContext,
        out: &mut String,
        block: &[Statement],
        indent: usize,
        levels: usize,
    ) {
        context.depth += levels;
        self.write_block(context, out, block, indent);
        context.depth -= levels;
    }

    /// `if … {} else if … {} else {}`: a `reject` that is only an `if` continues the chain
    /// on the same level, as HLSL's `else if` does (Tint counts each level of an `else if`
    /// chain against its 127).
    fn write_if(
        &self,
        context: &mut FunctionContext,
        out: &mut String,
        condition: Handle<Expression>,
        accept: &[Statement],
        reject: &[Statement],
        indent: usize,
    ) -> Res<()> {
        write_indent(out, indent);
        out.push_str("if ");
        self.write_expr(out, context, condition)?;
        out.push_str(" {\n");
        self.write_nested(context, out, accept, indent + 1, 2);
        let mut reject = reject;
        // Each `else if` is one level deeper than the `if` before it.
        let mut links = 0;
        loop {
            match reject {
                [] => break,
                [Statement::If {
                    condition,
                    accept,
                    reject: next,
                }] => {
                    write_indent(out, indent);
                    out.push_str("} else if ");
                    self.write_expr(out, context, *condition)?;
                    out.push_str(" {\n");
                    links += 1;
                    self.write_nested(context, out, accept, indent + 1, links + 2);
                    reject = next;
                }
                _ => {
                    line(out, indent, "} else {");
                    self.write_nested(context, out, reject, indent + 1, links + 2);
                    break;
                }
            }
        }
        line(out, indent, "}");
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
        if context.is_bound(handle) {
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
        write_indent(out, indent);
        out.push_str("let ");
        write_temporary(out, handle);
        out.push_str(" = ");
        self.write_expr(out, context, handle)?;
        out.push_str(";\n");
        context.bind(handle, Bound::Temporary);
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
        // Every case is a selector, and so is the `default` written where there is none.
        let selectors =
            cases.len() + usize::from(!cases.iter().any(|case| case.value == SwitchValue::Default));
        if selectors > MAX_SWITCH_SELECTORS {
            return Err(unsupported(
                span,
                format!(
                    "a switch of {selectors} case selectors (its `default` one, written when \
                     there is none); WebGPU's compilers (Tint) take at most \
                     {MAX_SWITCH_SELECTORS} in one: split it into several switches with fewer \
                     cases"
                ),
            ));
        }
        write_indent(out, indent);
        out.push_str("switch ");
        self.write_expr(out, context, selector)?;
        out.push_str(" {\n");
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
            line(out, indent + 1, "default: {}");
        }
        line(out, indent, "}");
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
        write_indent(out, indent);
        if matches!(labels, [only] if only == "default") {
            out.push_str("default");
        } else {
            out.push_str("case ");
            for (index, label) in labels.iter().enumerate() {
                if index > 0 {
                    out.push_str(", ");
                }
                out.push_str(label);
            }
        }
        out.push_str(": {\n");
        // The switch, the case clause and its block.
        self.write_nested(context, out, body, indent + 1, 3);
        line(out, indent, "}");
    }

    /// WGSL's barriers always synchronize execution too; a memory-only HLSL barrier gets
    /// the stronger one.
    fn barrier(out: &mut String, barrier: Barrier, indent: usize) {
        if barrier.device_memory {
            line(out, indent, "storageBarrier();");
        }
        if barrier.workgroup_memory || !barrier.device_memory {
            line(out, indent, "workgroupBarrier();");
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
        let p = "    ".repeat(indent);
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
                Ok(concat_text!(pointee_text, "(", text, ")"))
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
                // Its innermost assignment is in a block, a loop and an `if`.
                let deepest = context.depth + 6;
                if deepest > MAX_STATEMENT_DEPTH {
                    return Err(too_deep(span, deepest));
                }
                // atomicCompareExchangeWeak may fail spuriously; HLSL's is strong, so retry
                // while it failed although the value was equal.
                let old = match result {
                    Some(r) => format!("_e{}", r.index()),
                    None => context.namer.name("old", "old").to_string(),
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
                    context.bind(r, Bound::Named(old));
                }
                return Ok(());
            }
        };
        match result {
            Some(r) => {
                let _ = writeln!(
                    out,
                    "{p}let _e{} = {name}(&{reference}, {value});",
                    r.index()
                );
                context.bind(r, Bound::Temporary);
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
            .try_get(function)
            .and_then(Option::as_deref)
            .ok_or_else(|| unsupported(span, "a call to a function that does not exist"))?;
        write_indent(out, indent);
        if let Some(r) = result {
            out.push_str("let ");
            write_temporary(out, r);
            out.push_str(" = ");
        }
        out.push_str(name);
        out.push('(');
        self.write_list(out, context, arguments)?;
        let needs = self
            .lane_needs
            .try_get(function)
            .copied()
            .unwrap_or_default();
        let mut separator = if arguments.is_empty() { "" } else { ", " };
        if needs.index {
            out.push_str(separator);
            out.push_str(
                context
                    .lane_index
                    .ok_or_else(|| unsupported(span, "the lane index is not available here"))?,
            );
            separator = ", ";
        }
        if needs.count {
            out.push_str(separator);
            out.push_str(
                context
                    .lane_count
                    .ok_or_else(|| unsupported(span, "the lane count is not available here"))?,
            );
        }
        out.push_str(");\n");
        if let Some(r) = result {
            context.bind(r, Bound::Temporary);
        }
        Ok(())
    }
}

/// Appends `text` as a line at `indent`.
fn line(out: &mut String, indent: usize, text: &str) {
    write_indent(out, indent);
    out.push_str(text);
    out.push('\n');
}

/// The OSH5203 error for a statement at `span` that would be `depth` levels deep.
fn too_deep(span: Option<Span>, depth: usize) -> Diagnostic {
    Diagnostic::error(
        codes::WGSL_NESTING_TOO_DEEP,
        span,
        format!(
            "this statement would be nested {depth} levels deep in WGSL, past the \
             {MAX_STATEMENT_DEPTH} that WebGPU's compilers accept (an `if` or a loop is two \
             levels): nest the statements less deeply (move the inner ones into a function), \
             or compile without the WGSL target"
        ),
    )
}

/// The source location of the first statement of `block` that has one (through the
/// expressions it uses).
fn first_span(function: &Function, block: &[Statement]) -> Option<Span> {
    block
        .iter()
        .find_map(|statement| statement_span(function, statement))
}

/// The source location of `statement` (through the expressions it uses), if it has one.
// Inlined into `write_statement`, which asks it of every statement.
#[inline]
fn statement_span(function: &Function, statement: &Statement) -> Option<Span> {
    let span = |h: Handle<Expression>| function.expressions.span(h);
    match statement {
        Statement::Bind(h) => span(*h),
        Statement::Block(block) => first_span(function, block),
        Statement::If {
            condition,
            accept,
            reject,
        } => span(*condition)
            .or_else(|| first_span(function, accept))
            .or_else(|| first_span(function, reject)),
        Statement::Switch { selector, .. } => span(*selector),
        Statement::Loop {
            body, continuing, ..
        } => first_span(function, body).or_else(|| first_span(function, continuing)),
        Statement::Return { value: Some(value) } => span(*value),
        Statement::Store { pointer, value } => span(*value).or_else(|| span(*pointer)),
        _ => None,
    }
}
