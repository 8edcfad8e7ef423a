//! One function's body: statements and expressions as MSL text.
//!
//! An expression is written where a `Bind` statement names it (as a `_eN` temporary, or
//! a `_eN` reference for pointers) or inline at its one use. Pointers are written as the
//! lvalue they point at (`Kept[i]`), so loads and stores are plain reads and
//! assignments, except on atomically used globals where they become
//! `atomic_load_explicit`/`atomic_store_explicit`.

use oneshader_ir::analysis::{pointer_root, PointerRoot};
use oneshader_ir::concat_text;
use oneshader_ir::{
    AddressSpace, ArraySize, AtomicFunction, Barrier, BinaryOperator, Block, Diagnostic,
    Expression, Function, Handle, HandleVec, Literal, LocalVariable, ScalarKind, ShaderStage,
    Statement, SwitchValue, Type, TypeInner, UnaryOperator,
};

use crate::names::Namer;
use crate::writer::{space_qualifier, unsupported, Writer, BUFFER_SIZES};

/// How `return` is written.
pub enum Output {
    /// A helper function: `return value;`.
    Helper,
    /// An entry point without outputs: `return;`.
    EntryVoid,
    /// An entry point with one output: `return _stage_out{value};`.
    EntrySingle,
    /// An entry point returning a struct: its members go into `_stage_out`.
    EntryStruct {
        /// The struct's MSL type name.
        ty: String,
        /// The MSL member names, in order.
        accessors: Vec<String>,
    },
}

/// Writes the body of one function.
pub struct FunctionWriter<'w, 'a> {
    /// The program-level state.
    pub w: &'w mut Writer<'a>,
    /// The function written.
    pub function: &'a Function,
    local_names: HandleVec<LocalVariable, String>,
    argument_values: Vec<String>,
    bound: HandleVec<Expression, Option<String>>,
    output: Output,
    out: String,
    indent: usize,
    temporaries: usize,
}

type Written = Result<String, Diagnostic>;

impl<'w, 'a> FunctionWriter<'w, 'a> {
    /// A writer for `function`, whose arguments read as `argument_values`, naming its
    /// locals in `namer`.
    pub fn new(
        w: &'w mut Writer<'a>,
        function: &'a Function,
        mut namer: Namer,
        argument_values: Vec<String>,
        output: Output,
    ) -> Self {
        let local_names = function
            .local_variables
            .iter()
            .map(|(_, local)| namer.name(&local.name))
            .collect();
        FunctionWriter {
            w,
            function,
            local_names,
            argument_values,
            bound: HandleVec::from_len(function.expressions.len(), None),
            output,
            out: String::new(),
            indent: 1,
            temporaries: 0,
        }
    }

    /// The body's text: `prologue` lines, the locals, then the statements.
    pub fn write_body(mut self, prologue: Vec<String>) -> String {
        for line in prologue {
            self.line(&line);
        }
        for (handle, local) in self.function.local_variables.iter() {
            let name = self.local_names[handle].clone();
            let declaration = self.w.types.name(local.ty).map_err(|what| {
                unsupported(
                    None,
                    concat_text!(what, " (local variable `", local.name, "`)"),
                )
            });
            let init = match local.init {
                Some(init) => self.expr(init).map(|value| concat_text!(" = ", value)),
                None => Ok(" = {}".to_string()),
            };
            match (declaration, init) {
                (Ok(ty), Ok(init)) => self.line(&concat_text!(ty, " ", name, init, ";")),
                (Err(e), _) | (_, Err(e)) => self.w.diagnostics.push(e),
            }
        }
        self.block(&self.function.body);
        self.out
    }

    fn line(&mut self, text: &str) {
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
        self.out.push_str(text);
        self.out.push('\n');
    }

    fn span(&self, h: Handle<Expression>) -> Option<oneshader_ir::Span> {
        self.function.expressions.span(h)
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.temporaries += 1;
        format!("_{prefix}{}", self.temporaries)
    }

    // ------------------------------------------------------------------ statements

    fn block(&mut self, block: &'a Block) {
        for statement in block {
            if let Err(error) = self.statement(statement) {
                self.w.diagnostics.push(error);
            }
        }
    }

    fn nested(&mut self, block: &'a Block) {
        self.indent += 1;
        self.block(block);
        self.indent -= 1;
    }

    fn statement(&mut self, statement: &'a Statement) -> Result<(), Diagnostic> {
        match statement {
            Statement::Bind(h) => self.bind(*h)?,
            Statement::Block(block) => {
                self.line("{");
                self.nested(block);
                self.line("}");
            }
            Statement::If {
                condition,
                accept,
                reject,
            } => {
                let condition = self.expr(*condition)?;
                self.line(&concat_text!("if (", condition, ") {"));
                self.nested(accept);
                if !reject.is_empty() {
                    self.line("} else {");
                    self.nested(reject);
                }
                self.line("}");
            }
            Statement::Switch { selector, cases } => {
                let selector = self.expr(*selector)?;
                self.line(&concat_text!("switch (", selector, ") {"));
                self.indent += 1;
                for case in cases {
                    let label = match case.value {
                        SwitchValue::I32(v) => concat_text!("case ", int_literal(v), ":"),
                        SwitchValue::U32(v) => format!("case {v}u:"),
                        SwitchValue::Default => "default:".to_string(),
                    };
                    if case.body.is_empty() && case.fall_through {
                        self.line(&label);
                        continue;
                    }
                    self.line(&concat_text!(label, " {"));
                    self.nested(&case.body);
                    if !case.fall_through && !ends_in_jump(&case.body) {
                        self.indent += 1;
                        self.line("break;");
                        self.indent -= 1;
                    }
                    self.line("}");
                }
                self.indent -= 1;
                self.line("}");
            }
            Statement::Loop {
                body,
                continuing,
                break_if,
            } => {
                if continuing.is_empty() && break_if.is_none() {
                    self.line("while (true) {");
                    self.nested(body);
                    self.line("}");
                } else {
                    // `continue` jumps to the top, where the continuing block runs before
                    // every iteration but the first.
                    let first = self.fresh("loop_init");
                    self.line(&concat_text!("bool ", first, " = true;"));
                    self.line("while (true) {");
                    self.indent += 1;
                    self.line(&concat_text!("if (!", first, ") {"));
                    self.nested(continuing);
                    if let Some(condition) = break_if {
                        let condition = self.expr(*condition)?;
                        self.indent += 1;
                        self.line(&concat_text!("if (", condition, ") {"));
                        self.line("    break;");
                        self.line("}");
                        self.indent -= 1;
                    }
                    self.line("}");
                    self.line(&concat_text!(first, " = false;"));
                    self.block(body);
                    self.indent -= 1;
                    self.line("}");
                }
            }
            Statement::Break => self.line("break;"),
            Statement::Continue => self.line("continue;"),
            Statement::Return { value } => self.write_return(*value)?,
            Statement::Kill => {
                if self.w.entry.stage != ShaderStage::Fragment {
                    return Err(unsupported(
                        self.w.entry.span,
                        concat_text!("`discard` in a ", self.w.entry.stage.name(), " shader"),
                    ));
                }
                self.line("discard_fragment();");
            }
            Statement::Barrier(barrier) => self.barrier(*barrier)?,
            Statement::ImageStore {
                image,
                coordinate,
                array_index,
                value,
            } => {
                let line = self.image_store(*image, *coordinate, *array_index, *value)?;
                self.line(&line);
            }
            Statement::Store { pointer, value } => {
                let target = self.expr(*pointer)?;
                let value_expr = *value;
                let mut value = self.expr(*value)?;
                if self.points_to_packed_member(*pointer)? {
                    // A packed vector is assigned from a vector, not from a swizzle.
                    value = concat_text!(self.type_name_of(value_expr)?, "(", value, ")");
                }
                if self.is_atomic(*pointer) {
                    self.check_atomic_scalar(*pointer)?;
                    self.line(&concat_text!(
                        "atomic_store_explicit(&",
                        target,
                        ", ",
                        value,
                        ", memory_order_relaxed);"
                    ));
                } else {
                    self.line(&concat_text!(target, " = ", value, ";"));
                }
            }
            Statement::Atomic {
                pointer,
                fun,
                value,
                compare,
                result,
            } => self.atomic(*pointer, *fun, *value, *compare, *result)?,
            Statement::Call {
                function,
                arguments,
                result,
            } => {
                let name = self
                    .w
                    .function_names
                    .try_get(*function)
                    .cloned()
                    .unwrap_or_default();
                let mut values = Vec::new();
                for &argument in arguments {
                    values.push(self.expr(argument)?);
                }
                values.extend(self.w.hidden_arguments(*function));
                let call = concat_text!(name, "(", values.join(", "), ")");
                match result {
                    Some(result) => self.bind_text(*result, &call)?,
                    None => self.line(&concat_text!(call, ";")),
                }
            }
        }
        Ok(())
    }

    /// Evaluates `h` into a temporary (or a reference, for pointers).
    fn bind(&mut self, h: Handle<Expression>) -> Result<(), Diagnostic> {
        if self.bound.try_get(h).is_some_and(Option::is_some) {
            return Ok(());
        }
        let ty = self.type_of(h)?;
        if let Some(&TypeInner::Pointer { base, space }) = self.w.types.inner(ty) {
            let target = self.expr(h)?;
            let name = format!("_e{}", h.index());
            let pointee = if self.is_atomic(h) {
                self.w.types.atomic_name(base)
            } else {
                self.w.types.name(base)
            }
            .map_err(|what| unsupported(self.span(h), what))?;
            let qualifier = space_qualifier(space);
            self.line(&concat_text!(
                qualifier, " ", pointee, "& ", name, " = ", target, ";"
            ));
            self.bound[h] = Some(name);
            return Ok(());
        }
        let value = self.expr(h)?;
        self.bind_text(h, &value)
    }

    /// Declares `_eN` for expression `h` with the value `text`.
    fn bind_text(&mut self, h: Handle<Expression>, text: &str) -> Result<(), Diagnostic> {
        let ty = self.type_of(h)?;
        let type_name = self
            .w
            .types
            .name(ty)
            .map_err(|what| unsupported(self.span(h), what))?;
        let name = format!("_e{}", h.index());
        self.line(&concat_text!(type_name, " ", name, " = ", text, ";"));
        if let Some(slot) = self.bound.try_get_mut(h) {
            *slot = Some(name);
        }
        Ok(())
    }

    fn write_return(&mut self, value: Option<Handle<Expression>>) -> Result<(), Diagnostic> {
        let value = value.map(|v| self.expr(v)).transpose()?;
        let output = std::mem::replace(&mut self.output, Output::Helper);
        let result = self.write_return_as(&output, value);
        self.output = output;
        result
    }

    fn write_return_as(
        &mut self,
        output: &Output,
        value: Option<String>,
    ) -> Result<(), Diagnostic> {
        match (output, value) {
            (Output::Helper, Some(value)) => self.line(&concat_text!("return ", value, ";")),
            (Output::Helper | Output::EntryVoid, _) => self.line("return;"),
            (Output::EntrySingle, Some(value)) => {
                self.line(&concat_text!("return _stage_out{", value, "};"))
            }
            (Output::EntryStruct { ty, accessors }, Some(value)) => {
                let temporary = self.fresh("result");
                let members: Vec<String> = accessors
                    .iter()
                    .map(|member| concat_text!(temporary, ".", member))
                    .collect();
                let text = concat_text!(
                    "{ ",
                    ty,
                    " ",
                    temporary,
                    " = ",
                    value,
                    "; return _stage_out{",
                    members.join(", "),
                    "}; }"
                );
                self.line(&text);
            }
            (_, None) => {
                return Err(unsupported(
                    self.w.entry.span,
                    "a `return` without a value in an entry point with outputs",
                ))
            }
        }
        Ok(())
    }

    fn barrier(&mut self, barrier: Barrier) -> Result<(), Diagnostic> {
        if self.w.entry.stage != ShaderStage::Compute {
            return Err(unsupported(
                self.w.entry.span,
                concat_text!(
                    "a memory barrier in a ",
                    self.w.entry.stage.name(),
                    " shader"
                ),
            ));
        }
        let mut flags = Vec::new();
        if barrier.device_memory {
            flags.push("mem_flags::mem_device");
        }
        if barrier.workgroup_memory {
            flags.push("mem_flags::mem_threadgroup");
        }
        if flags.is_empty() {
            flags.push("mem_flags::mem_none");
        }
        // Metal has no fence without execution sync in MSL 2.4's compute functions;
        // a barrier without `group_sync` is written as the stronger threadgroup barrier.
        self.line(&concat_text!(
            "threadgroup_barrier(",
            flags.join(" | "),
            ");"
        ));
        Ok(())
    }

    fn atomic(
        &mut self,
        pointer: Handle<Expression>,
        fun: AtomicFunction,
        value: Handle<Expression>,
        compare: Option<Handle<Expression>>,
        result: Option<Handle<Expression>>,
    ) -> Result<(), Diagnostic> {
        let span = self.span(pointer);
        if !self.is_atomic(pointer) {
            return Err(unsupported(
                span,
                "an atomic operation on memory other than a buffer or groupshared variable",
            ));
        }
        let target = self.expr(pointer)?;
        let value = self.expr(value)?;
        let op = match fun {
            AtomicFunction::Add => "fetch_add",
            AtomicFunction::And => "fetch_and",
            AtomicFunction::Or => "fetch_or",
            AtomicFunction::Xor => "fetch_xor",
            AtomicFunction::Min => "fetch_min",
            AtomicFunction::Max => "fetch_max",
            AtomicFunction::Exchange => "exchange",
            AtomicFunction::CompareExchange => {
                return self.compare_exchange(pointer, &target, &value, compare, result)
            }
        };
        let call = concat_text!(
            "atomic_",
            op,
            "_explicit(&",
            target,
            ", ",
            value,
            ", memory_order_relaxed)"
        );
        match result {
            Some(result) => self.bind_text(result, &call),
            None => {
                self.line(&concat_text!(call, ";"));
                Ok(())
            }
        }
    }

    /// `InterlockedCompareExchange`: MSL only has the weak compare-exchange, which may
    /// fail spuriously; it is retried while the value it saw still equals `compare`, so
    /// the result is exactly the original value, as in HLSL.
    fn compare_exchange(
        &mut self,
        pointer: Handle<Expression>,
        target: &str,
        value: &str,
        compare: Option<Handle<Expression>>,
        result: Option<Handle<Expression>>,
    ) -> Result<(), Diagnostic> {
        let span = self.span(pointer);
        let compare =
            compare.ok_or_else(|| unsupported(span, "a compare-exchange without a comparand"))?;
        let compare_text = self.expr(compare)?;
        let ty = self.type_of(compare)?;
        let type_name = self
            .w
            .types
            .name(ty)
            .map_err(|what| unsupported(span, what))?;
        let pointer_ty = self.type_of(pointer)?;
        let (base, space) = match self.w.types.inner(pointer_ty) {
            Some(&TypeInner::Pointer { base, space }) => (base, space),
            _ => return Err(unsupported(span, "an atomic operation on a non-pointer")),
        };
        let atomic_type = self
            .w
            .types
            .atomic_name(base)
            .map_err(|what| unsupported(span, what))?;
        let original = match result {
            Some(result) => {
                let name = format!("_e{}", result.index());
                if let Some(slot) = self.bound.try_get_mut(result) {
                    *slot = Some(name.clone());
                }
                name
            }
            None => self.fresh("original"),
        };
        let reference = self.fresh("atomic");
        let expected = self.fresh("expected");
        let desired = self.fresh("desired");
        let qualifier = space_qualifier(space).trim_start_matches("const ");
        self.line(&concat_text!(
            type_name,
            " ",
            original,
            " = ",
            compare_text,
            ";"
        ));
        self.line("{");
        self.indent += 1;
        self.line(&concat_text!(
            qualifier,
            " ",
            atomic_type,
            "& ",
            reference,
            " = ",
            target,
            ";"
        ));
        self.line(&concat_text!(
            type_name, " ", expected, " = ", original, ";"
        ));
        self.line(&concat_text!(type_name, " ", desired, " = ", value, ";"));
        self.line(&concat_text!(
            "while (!atomic_compare_exchange_weak_explicit(&",
            reference,
            ", &",
            original,
            ", ",
            desired,
            ", memory_order_relaxed, memory_order_relaxed) && ",
            original,
            " == ",
            expected,
            ") {"
        ));
        self.line("}");
        self.indent -= 1;
        self.line("}");
        Ok(())
    }

    // ------------------------------------------------------------------ expressions

    /// The type of expression `h`.
    pub fn type_of(&self, h: Handle<Expression>) -> Result<Handle<Type>, Diagnostic> {
        self.function
            .expression_types
            .get(h.index())
            .copied()
            .ok_or_else(|| unsupported(self.span(h), "an expression without a type"))
    }

    /// The structure of the type of `h`, looking through pointers when `deref`.
    pub fn inner_of(&self, h: Handle<Expression>) -> Result<&'a TypeInner, Diagnostic> {
        let ty = self.type_of(h)?;
        let inner = self
            .w
            .types
            .inner(ty)
            .ok_or_else(|| unsupported(self.span(h), "an expression of an unknown type"))?;
        Ok(match *inner {
            TypeInner::Pointer { base, .. } => self.w.types.inner(base).unwrap_or(inner),
            _ => inner,
        })
    }

    /// The MSL name of the type of `h`.
    pub fn type_name_of(&mut self, h: Handle<Expression>) -> Written {
        let ty = self.type_of(h)?;
        self.w
            .types
            .name(ty)
            .map_err(|what| unsupported(self.span(h), what))
    }

    /// Whether pointer `h` is a struct member declared as a packed vector.
    fn points_to_packed_member(&self, h: Handle<Expression>) -> Result<bool, Diagnostic> {
        let Expression::AccessIndex { base, index } = self.function.expressions[h] else {
            return Ok(false);
        };
        let base_ty = self.type_of(base)?;
        Ok(match self.w.types.inner(base_ty) {
            Some(&TypeInner::Pointer { base: pointee, .. }) => {
                self.w.types.member_is_packed(pointee, index)
            }
            _ => false,
        })
    }

    /// `text`, a value of type `ty` in `constant` memory, as a `thread` value.
    ///
    /// A struct or array is rebuilt member by member (designated initializers, so
    /// padding fields stay out of it): a struct's implicit copy constructor binds a
    /// generic reference, which a `constant` object does not convert to. Scalars,
    /// vectors and matrices copy as they are.
    fn constant_aggregate_copy(
        &mut self,
        text: String,
        ty: Handle<Type>,
        depth: u32,
    ) -> Result<String, String> {
        /// Deeper nesting is not expanded (no HLSL type nests this deep in practice).
        const DEPTH_LIMIT: u32 = 16;
        /// Longer arrays would make the expansion unreasonably long.
        const ELEMENT_LIMIT: u32 = 256;
        if depth > DEPTH_LIMIT {
            return Err("a constant-buffer value nested more than 16 levels deep".into());
        }
        match self.w.types.inner(ty) {
            Some(TypeInner::Struct { members, .. }) => {
                let name = self.w.types.name(ty)?;
                let mut fields = Vec::with_capacity(members.len());
                for (index, member_ty) in members.iter().map(|m| m.ty).enumerate() {
                    let member = self
                        .w
                        .types
                        .member_name(ty, index)
                        .ok_or("a struct member that doesn't exist")?
                        .to_string();
                    let value = self.constant_aggregate_copy(
                        concat_text!(text, ".", member),
                        member_ty,
                        depth + 1,
                    )?;
                    fields.push(concat_text!(".", member, " = ", value));
                }
                Ok(concat_text!(name, "{", fields.join(", "), "}"))
            }
            Some(&TypeInner::Array {
                base,
                size: ArraySize::Constant(n),
                ..
            }) => {
                if n > ELEMENT_LIMIT {
                    return Err(format!("copying a constant-buffer array of {n} elements as a whole (at most {ELEMENT_LIMIT}); read the elements you need instead"));
                }
                let name = self.w.types.name(ty)?;
                let mut elements = Vec::with_capacity(n as usize);
                for i in 0..n {
                    elements.push(self.constant_aggregate_copy(
                        format!("{text}[{i}]"),
                        base,
                        depth + 1,
                    )?);
                }
                Ok(concat_text!(name, "{", elements.join(", "), "}"))
            }
            _ => Ok(text),
        }
    }

    /// Whether pointer `h` points into a global used atomically.
    /// Whether pointer `h` points at atomic integers (or an aggregate holding some): into
    /// a global used atomically, at a 32-bit integer, not at a float or vector member of
    /// such a buffer's struct.
    fn is_atomic(&self, h: Handle<Expression>) -> bool {
        let root_is_atomic = match pointer_root(self.function, h) {
            Some(PointerRoot::Global(global)) => self
                .w
                .global_uses
                .get(global.index())
                .is_some_and(|u| u.atomic),
            _ => false,
        };
        root_is_atomic
            && match self.type_of(h).ok().and_then(|ty| self.w.types.inner(ty)) {
                Some(&TypeInner::Pointer { base, .. }) => self.w.types.holds_atomics(base),
                _ => true,
            }
    }

    /// An error when pointer `h` points at a whole aggregate that holds atomics: MSL
    /// loads and stores atomics one integer at a time.
    fn check_atomic_scalar(&self, h: Handle<Expression>) -> Result<(), Diagnostic> {
        let span = self.function.expressions.span(h);
        match self.type_of(h).ok().and_then(|ty| self.w.types.inner(ty)) {
            Some(&TypeInner::Pointer { base, .. })
                if !matches!(self.w.types.inner(base), Some(TypeInner::Scalar(_))) =>
            {
                Err(unsupported(
                    span,
                    "loading or storing a whole struct or array of a buffer also used with \
                     Interlocked* (MSL reads and writes atomics one integer at a time)",
                ))
            }
            _ => Ok(()),
        }
    }

    /// `h` as an operand of an operator: parenthesized unless it is a name, literal or
    /// call-like expression.
    pub fn operand(&mut self, h: Handle<Expression>) -> Written {
        let text = self.expr(h)?;
        Ok(self.parenthesized(h, text))
    }

    /// `text`, the text of `h`, as an operand of an operator (see [`Self::operand`]).
    pub fn parenthesized(&self, h: Handle<Expression>, text: String) -> String {
        let compound = self.bound.try_get(h).is_none_or(Option::is_none)
            && match self.function.expressions.try_get(h) {
                Some(Expression::Unary { .. } | Expression::Binary { .. }) => true,
                Some(Expression::Literal(_)) => text.starts_with('-'),
                _ => false,
            };
        if compound {
            concat_text!("(", text, ")")
        } else {
            text
        }
    }

    /// The text of expression `h`.
    pub fn expr(&mut self, h: Handle<Expression>) -> Written {
        if let Some(Some(name)) = self.bound.try_get(h) {
            return Ok(name.clone());
        }
        let span = self.span(h);
        let expression = self
            .function
            .expressions
            .try_get(h)
            .ok_or_else(|| unsupported(span, "a reference to a missing expression"))?;
        // The operators that nest deepest go straight to their writers, so that the
        // large frame of `other_expr` is not on every level of a deep tree.
        match *expression {
            Expression::Unary { op, expr } => self.unary(op, expr),
            Expression::Binary { op, left, right } => self.binary(op, left, right),
            Expression::Math { fun, ref args } => crate::math::write(self, h, fun, args),
            _ => self.other_expr(h, expression, span),
        }
    }

    /// `-x`, `!x` or `~x`.
    fn unary(&mut self, op: UnaryOperator, expr: Handle<Expression>) -> Written {
        if op == UnaryOperator::Negate && self.wraps_in_unsigned(expr)? {
            let signed = self.type_name_of(expr)?;
            let bits = self.unsigned_bits(expr)?;
            return Ok(concat_text!("as_type<", signed, ">(-", bits, ")"));
        }
        let operand = self.operand(expr)?;
        let op = match op {
            UnaryOperator::Negate => "-",
            UnaryOperator::LogicalNot => "!",
            UnaryOperator::BitwiseNot => "~",
        };
        Ok(concat_text!(op, operand))
    }

    /// [`Self::expr`] for every kind but the unary and binary operators.
    #[inline(never)]
    fn other_expr(
        &mut self,
        h: Handle<Expression>,
        expression: &Expression,
        span: Option<oneshader_ir::Span>,
    ) -> Written {
        match expression {
            Expression::Literal(literal) => {
                literal_text(*literal).map_err(|w| unsupported(span, w))
            }
            Expression::ZeroValue(ty) => {
                let name = self.w.types.name(*ty).map_err(|w| unsupported(span, w))?;
                Ok(concat_text!(name, "{}"))
            }
            Expression::Compose { ty, components } => {
                let mut values = Vec::new();
                for &component in components {
                    values.push(self.expr(component)?);
                }
                let name = self.w.types.name(*ty).map_err(|w| unsupported(span, w))?;
                Ok(match self.w.types.inner(*ty) {
                    Some(TypeInner::Struct { .. }) => {
                        concat_text!(name, self.w.struct_initializer(*ty, values))
                    }
                    Some(TypeInner::Array { .. }) => {
                        concat_text!(name, "{", values.join(", "), "}")
                    }
                    _ => concat_text!(name, "(", values.join(", "), ")"),
                })
            }
            Expression::Splat { value, .. } => {
                let value = self.expr(*value)?;
                Ok(concat_text!(self.type_name_of(h)?, "(", value, ")"))
            }
            Expression::Swizzle {
                size,
                vector,
                pattern,
            } => {
                let vector = self.operand(*vector)?;
                let letters: String = pattern
                    .iter()
                    .take(size.count() as usize)
                    .map(|c| c.letter())
                    .collect();
                Ok(concat_text!(vector, ".", letters))
            }
            Expression::Access { base, index } => {
                let base_text = self.operand(*base)?;
                let index = self.expr(*index)?;
                Ok(concat_text!(base_text, "[", index, "]"))
            }
            Expression::AccessIndex { base, index } => {
                let base_text = self.operand(*base)?;
                let base_ty = self.type_of(*base)?;
                let base_ty = match self.w.types.inner(base_ty) {
                    Some(&TypeInner::Pointer { base, .. }) => base,
                    _ => base_ty,
                };
                let through_pointer = base_ty != self.type_of(*base)?;
                let component = oneshader_ir::SwizzleComponent::from_index(*index);
                Ok(match (self.w.types.inner(base_ty), component) {
                    (Some(TypeInner::Struct { .. }), _) => {
                        let member = self
                            .w
                            .types
                            .member_name(base_ty, *index as usize)
                            .ok_or_else(|| unsupported(span, "a struct member that doesn't exist"))?
                            .to_string();
                        if !through_pointer && self.w.types.member_is_packed(base_ty, *index) {
                            concat_text!(self.type_name_of(h)?, "(", base_text, ".", member, ")")
                        } else {
                            concat_text!(base_text, ".", member)
                        }
                    }
                    (Some(TypeInner::Vector { .. }), Some(component)) => {
                        format!("{base_text}.{}", component.letter())
                    }
                    _ => format!("{base_text}[{index}]"),
                })
            }
            Expression::GlobalVariable(global) => self
                .w
                .global_names
                .try_get(*global)
                .cloned()
                .ok_or_else(|| unsupported(span, "a global that doesn't exist")),
            Expression::LocalVariable(local) => self
                .local_names
                .try_get(*local)
                .cloned()
                .ok_or_else(|| unsupported(span, "a local variable that doesn't exist")),
            Expression::FunctionArgument(index) => self
                .argument_values
                .get(*index as usize)
                .cloned()
                .ok_or_else(|| unsupported(span, "a function argument that doesn't exist")),
            Expression::Load { pointer } => {
                let target = self.expr(*pointer)?;
                if self.is_atomic(*pointer) {
                    self.check_atomic_scalar(*pointer)?;
                    return Ok(concat_text!(
                        "atomic_load_explicit(&",
                        target,
                        ", memory_order_relaxed)"
                    ));
                }
                if self.points_to_packed_member(*pointer)? {
                    return Ok(concat_text!(self.type_name_of(h)?, "(", target, ")"));
                }
                match self.w.types.inner(self.type_of(*pointer)?) {
                    Some(&TypeInner::Pointer {
                        base,
                        space: AddressSpace::Uniform,
                    }) => self
                        .constant_aggregate_copy(target, base, 0)
                        .map_err(|what| unsupported(span, what)),
                    _ => Ok(target),
                }
            }
            Expression::Unary { op, expr } => self.unary(*op, *expr),
            Expression::Binary { op, left, right } => self.binary(*op, *left, *right),
            Expression::Select {
                condition,
                accept,
                reject,
            } => {
                let condition = self.expr(*condition)?;
                let accept = self.expr(*accept)?;
                let reject = self.expr(*reject)?;
                Ok(match self.inner_of(h)? {
                    TypeInner::Scalar(_) | TypeInner::Vector { .. } => {
                        concat_text!("select(", reject, ", ", accept, ", ", condition, ")")
                    }
                    _ => concat_text!("(", condition, " ? ", accept, " : ", reject, ")"),
                })
            }
            Expression::Math { fun, args } => crate::math::write(self, h, *fun, args),
            Expression::Convert { expr, .. } => {
                let value = self.expr(*expr)?;
                Ok(concat_text!(self.type_name_of(h)?, "(", value, ")"))
            }
            Expression::Bitcast { expr, .. } => {
                let value = self.expr(*expr)?;
                Ok(concat_text!(
                    "as_type<",
                    self.type_name_of(h)?,
                    ">(",
                    value,
                    ")"
                ))
            }
            Expression::Wave { op, args } => crate::wave::write(self, h, *op, args),
            Expression::CallResult(_) | Expression::AtomicResult => Err(unsupported(
                span,
                "a call or atomic result used before its statement",
            )),
            Expression::ArrayLength(pointer) => self.array_length(h, *pointer),
            Expression::ImageSample { .. } => self.image_sample(h),
            Expression::ImageLevelOfDetail { .. } => self.image_level_of_detail(h),
            Expression::ImageLoad { .. } => self.image_load(h),
            Expression::ImageTexelPointer { .. } => Err(unsupported(
                span,
                "an Interlocked* function on an element of a RWBuffer or RWTexture: MSL 2.4 \
                 has no texture atomics (Metal 3.1 adds them); keep the counters in a \
                 RWStructuredBuffer or RWByteAddressBuffer for Metal",
            )),
            Expression::ImageQuery { image, query } => self.image_query(*image, *query),
            Expression::Derivative { axis, expr, .. } => self.derivative(h, *axis, *expr),
        }
    }

    fn binary(
        &mut self,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Written {
        use BinaryOperator::*;
        let left_inner = self.inner_of(left)?;
        let scalar = left_inner.scalar();
        let is_float = scalar.is_some_and(|s| s.kind == ScalarKind::Float);
        if op == Modulo && is_float {
            let l = self.expr(left)?;
            let r = self.expr(right)?;
            return Ok(concat_text!("fmod(", l, ", ", r, ")"));
        }
        if matches!(op, Add | Subtract | Multiply | ShiftLeft) && self.wraps_in_unsigned(left)? {
            let signed = self.type_name_of(left)?;
            let bits = self.wrapping_bits(op, left, right)?;
            return Ok(concat_text!("as_type<", signed, ">(", bits, ")"));
        }
        let l = self.operand(left)?;
        let mut r = self.operand(right)?;
        if matches!(op, ShiftLeft | ShiftRight) && matches!(left_inner, TypeInner::Vector { .. }) {
            // MSL vector shifts want both operands of one type.
            r = concat_text!(self.type_name_of(left)?, "(", r, ")");
        }
        if matches!(op, LogicalAnd | LogicalOr)
            && matches!(left_inner, TypeInner::Scalar(_))
            && self.has_wave_operation(right)
        {
            // `&&` would skip the right side; the IR evaluates both, and a wave
            // operation must see every active lane.
            let bit = if op == LogicalAnd { "&" } else { "|" };
            return Ok(concat_text!("bool(", l, " ", bit, " ", r, ")"));
        }
        let symbol = match op {
            Add => "+",
            Subtract => "-",
            Multiply => "*",
            Divide => "/",
            Modulo => "%",
            Equal => "==",
            NotEqual => "!=",
            Less => "<",
            LessEqual => "<=",
            Greater => ">",
            GreaterEqual => ">=",
            BitwiseAnd => "&",
            BitwiseXor => "^",
            BitwiseOr => "|",
            LogicalAnd => "&&",
            LogicalOr => "||",
            ShiftLeft => "<<",
            ShiftRight => ">>",
        };
        Ok(concat_text!(l, " ", symbol, " ", r))
    }

    /// Whether `h` is a 32- or 64-bit signed integer scalar or vector, whose `+ - * <<`
    /// and negation are undefined on overflow in MSL (C++) but wrap in HLSL. (16-bit
    /// operands are promoted to `int` by C++, so they cannot overflow.)
    fn wraps_in_unsigned(&mut self, h: Handle<Expression>) -> Result<bool, Diagnostic> {
        Ok(self
            .inner_of(h)?
            .scalar()
            .is_some_and(|s| s.kind == ScalarKind::Sint && s.width >= 4))
    }

    /// `l op r` on signed integers in the unsigned type of the same width (`uint`,
    /// `ulong2`, …), whose arithmetic wraps: the caller reads the bits back as signed.
    fn wrapping_bits(
        &mut self,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Written {
        let l = self.unsigned_bits(left)?;
        let (symbol, r) = match op {
            BinaryOperator::Add => ("+", self.unsigned_bits(right)?),
            BinaryOperator::Subtract => ("-", self.unsigned_bits(right)?),
            BinaryOperator::Multiply => ("*", self.unsigned_bits(right)?),
            // The count keeps its value; MSL wants it in the shifted operand's type.
            _ => {
                let unsigned = concat_text!("u", self.type_name_of(left)?);
                ("<<", concat_text!(unsigned, "(", self.expr(right)?, ")"))
            }
        };
        Ok(concat_text!(l, " ", symbol, " ", r))
    }

    /// The bits of signed integer `h` in its unsigned type. A chain of wrapping operations
    /// stays unsigned throughout, so it nests no deeper than the plain operators would
    /// (clang stops at 256 brackets).
    fn unsigned_bits(&mut self, h: Handle<Expression>) -> Written {
        let inline = self.bound.try_get(h).is_none_or(Option::is_none);
        match self.function.expressions.try_get(h) {
            Some(&Expression::Binary { op, left, right })
                if inline
                    && matches!(
                        op,
                        BinaryOperator::Add
                            | BinaryOperator::Subtract
                            | BinaryOperator::Multiply
                            | BinaryOperator::ShiftLeft
                    ) =>
            {
                Ok(concat_text!("(", self.wrapping_bits(op, left, right)?, ")"))
            }
            Some(&Expression::Unary {
                op: UnaryOperator::Negate,
                expr,
            }) if inline => Ok(concat_text!("(-", self.unsigned_bits(expr)?, ")")),
            _ => {
                let unsigned = concat_text!("u", self.type_name_of(h)?);
                Ok(concat_text!("as_type<", unsigned, ">(", self.expr(h)?, ")"))
            }
        }
    }

    /// Whether the inline tree of `h` contains a wave operation.
    fn has_wave_operation(&self, h: Handle<Expression>) -> bool {
        if self.bound.try_get(h).is_some_and(Option::is_some) {
            return false;
        }
        let Some(expression) = self.function.expressions.try_get(h) else {
            return false;
        };
        let children: Vec<Handle<Expression>> = match expression {
            Expression::Wave { .. } => return true,
            Expression::Compose { components, .. } => components.clone(),
            Expression::Splat { value, .. } => vec![*value],
            Expression::Swizzle { vector, .. } => vec![*vector],
            Expression::Access { base, index } => vec![*base, *index],
            Expression::AccessIndex { base, .. } => vec![*base],
            Expression::Load { pointer } => vec![*pointer],
            Expression::Unary { expr, .. }
            | Expression::Convert { expr, .. }
            | Expression::Bitcast { expr, .. } => vec![*expr],
            Expression::Binary { left, right, .. } => vec![*left, *right],
            Expression::Select {
                condition,
                accept,
                reject,
            } => vec![*condition, *accept, *reject],
            Expression::Math { args, .. } => args.clone(),
            _ => Vec::new(),
        };
        children.into_iter().any(|c| self.has_wave_operation(c))
    }

    fn array_length(&mut self, h: Handle<Expression>, pointer: Handle<Expression>) -> Written {
        let span = self.span(h);
        if self.w.options.buffer_sizes_index.is_none() {
            return Err(unsupported(
                span,
                "the length of a runtime-sized buffer (GetDimensions) without a buffer-sizes argument",
            )
            .with_help("set `Options::buffer_sizes_index` and bind `constant uint* _buffer_sizes` there, with the byte size of each buffer at its [[buffer(n)]] index"));
        }
        let global = match self.function.expressions.try_get(pointer) {
            Some(Expression::GlobalVariable(global)) => *global,
            _ => {
                return Err(unsupported(
                    span,
                    "the length of a runtime-sized array that is not a whole buffer",
                ))
            }
        };
        let index = self
            .w
            .resource_indices
            .get(global.index())
            .copied()
            .flatten()
            .ok_or_else(|| unsupported(span, "the length of a buffer without a binding"))?;
        let stride = self
            .w
            .module
            .global_variables
            .try_get(global)
            .and_then(|g| match self.w.types.inner(g.ty) {
                Some(&TypeInner::Array { stride, .. }) => Some(stride),
                _ => None,
            })
            .filter(|&stride| stride != 0)
            .ok_or_else(|| unsupported(span, "the length of a buffer that is not an array"))?;
        Ok(format!("({BUFFER_SIZES}[{}] / {stride}u)", index.index))
    }
}

/// Whether a block ends by leaving it (so no `break` is needed after it).
fn ends_in_jump(block: &Block) -> bool {
    matches!(
        block.last(),
        Some(Statement::Break | Statement::Continue | Statement::Return { .. } | Statement::Kill)
    )
}

fn int_literal(value: i32) -> String {
    if value == i32::MIN {
        "(-2147483647 - 1)".into()
    } else {
        value.to_string()
    }
}

/// The MSL text of a literal.
pub fn literal_text(literal: Literal) -> Result<String, String> {
    Ok(match literal {
        Literal::Bool(value) => value.to_string(),
        Literal::I32(value) => int_literal(value),
        Literal::U32(value) => format!("{value}u"),
        Literal::I64(value) if value == i64::MIN => "(-9223372036854775807l - 1l)".into(),
        Literal::I64(value) => format!("{value}l"),
        Literal::U64(value) => format!("{value}ul"),
        Literal::F32(value) if value.is_finite() => format!("{value:?}f"),
        Literal::F32(value) => format!("as_type<float>(0x{:08x}u)", value.to_bits()),
        Literal::F64(_) => return Err("a 64-bit float literal: MSL has no double".into()),
    })
}
