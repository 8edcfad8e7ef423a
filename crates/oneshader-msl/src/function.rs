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
    Expression, Function, Handle, Literal, LocalVariable, ScalarKind, ShaderStage, Statement,
    SwitchValue, Type, TypeInner, UnaryOperator,
};

use crate::layout::Slot;
use crate::names::MslNames;
use crate::writer::{space_qualifier, unsupported, Writer, BUFFER_SIZES};
use oneshader_ir::text::push_decimal;
use oneshader_ir::text::{FunctionLists, Scope};

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

/// Writes the body of one function, straight into the output text.
///
/// Expressions are written where they are used, into [`FunctionWriter::out`], the way
/// naga's back ends do: no expression is built as a `String` of its own first.
pub struct FunctionWriter<'w, 'a> {
    /// The program-level state.
    pub w: &'w mut Writer<'a>,
    /// The function written.
    pub function: &'a Function,
    /// The output so far: the functions before this one, then this one's text.
    pub out: String,
    /// What the arguments read as, the MSL names of the locals, and whether each
    /// expression is bound to its `_eN` name.
    lists: &'w mut FunctionLists<'a>,
    output: Output,
    indent: usize,
    temporaries: usize,
}

/// Writing an expression or statement: the text went to the output, or the error why not.
type Written = Result<(), Diagnostic>;

impl<'w, 'a> FunctionWriter<'w, 'a> {
    /// A writer for `function`, whose arguments read as `lists.arguments`, naming its
    /// locals in `namer` into `lists`, that appends the body to `out`.
    pub fn new(
        w: &'w mut Writer<'a>,
        function: &'a Function,
        namer: &mut Scope<'a>,
        lists: &'w mut FunctionLists<'a>,
        output: Output,
        out: String,
    ) -> Self {
        namer.reserve(function.local_variables.len());
        lists.locals.extend(
            function
                .local_variables
                .iter()
                .map(|(_, local)| namer.name_in_ir(&local.name)),
        );
        lists.bound.resize(function.expressions.len(), false);
        FunctionWriter {
            w,
            function,
            out,
            lists,
            output,
            indent: 1,
            temporaries: 0,
        }
    }

    /// Appends the body: `prologue` lines, the locals, then the statements; returns the
    /// output.
    pub fn write_body(mut self, prologue: &[String]) -> String {
        for line in prologue {
            self.line(line);
        }
        for (handle, local) in self.function.local_variables.iter() {
            self.start_line();
            let declared = self
                .w
                .types
                .name(local.ty)
                .map(|ty| self.out.push_str(ty))
                .map_err(|what| {
                    unsupported(
                        None,
                        concat_text!(what, " (local variable `", local.name, "`)"),
                    )
                });
            self.out.push(' ');
            if let Some(name) = self.lists.locals.get(handle.index()) {
                self.out.push_str(name);
            }
            let initialized = match local.init {
                Some(init) => {
                    self.out.push_str(" = ");
                    self.expr(init)
                }
                None => {
                    self.out.push_str(" = {}");
                    Ok(())
                }
            };
            self.out.push_str(";\n");
            if let Err(error) = declared.and(initialized) {
                self.w.diagnostics.push(error);
            }
        }
        self.block(&self.function.body);
        self.out
    }

    /// Starts a line at the current indentation.
    fn start_line(&mut self) {
        /// Sixteen levels of indentation, pushed as one piece.
        const SPACES: &str = "                                                                ";
        let mut width = self.indent * 4;
        while width > 0 {
            let piece = SPACES.get(..width.min(SPACES.len())).unwrap_or_default();
            self.out.push_str(piece);
            width -= piece.len();
            if piece.is_empty() {
                break;
            }
        }
    }

    fn line(&mut self, text: &str) {
        self.start_line();
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// [`Self::line`] of the text of `pieces`, one after the other.
    fn line_of(&mut self, pieces: &[&str]) {
        self.start_line();
        for piece in pieces {
            self.out.push_str(piece);
        }
        self.out.push('\n');
    }

    fn span(&self, h: Handle<Expression>) -> Option<oneshader_ir::Span> {
        self.function.expressions.span(h)
    }

    fn fresh(&mut self, prefix: &str) -> String {
        self.temporaries += 1;
        let mut name = String::with_capacity(prefix.len() + 4);
        name.push('_');
        name.push_str(prefix);
        push_decimal(&mut name, self.temporaries as u64);
        name
    }

    /// Whether `h` has been bound to its `_eN` name.
    fn is_bound(&self, h: Handle<Expression>) -> bool {
        self.lists.bound.get(h.index()).is_some_and(|&bound| bound)
    }

    /// Writes `_eN`, the name a `Bind` gives expression `h`.
    fn write_bound_name(&mut self, h: Handle<Expression>) {
        self.out.push_str("_e");
        push_decimal(&mut self.out, h.index() as u64);
    }

    /// Writes the text of `h` and takes it back out of the output, for the few writers
    /// that put operands in another order than they evaluate them.
    pub(crate) fn expr_text(&mut self, h: Handle<Expression>) -> Result<String, Diagnostic> {
        let start = self.out.len();
        self.expr(h)?;
        Ok(self.out.split_off(start))
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
                self.start_line();
                self.out.push_str("if (");
                self.expr(*condition)?;
                self.out.push_str(") {\n");
                self.nested(accept);
                if !reject.is_empty() {
                    self.line("} else {");
                    self.nested(reject);
                }
                self.line("}");
            }
            Statement::Switch { selector, cases } => {
                self.start_line();
                self.out.push_str("switch (");
                self.expr(*selector)?;
                self.out.push_str(") {\n");
                self.indent += 1;
                for case in cases {
                    self.start_line();
                    match case.value {
                        SwitchValue::I32(v) => {
                            self.out.push_str("case ");
                            push_int(&mut self.out, v);
                            self.out.push(':');
                        }
                        SwitchValue::U32(v) => {
                            self.out.push_str("case ");
                            push_decimal(&mut self.out, u64::from(v));
                            self.out.push_str("u:");
                        }
                        SwitchValue::Default => self.out.push_str("default:"),
                    }
                    if case.body.is_empty() && case.fall_through {
                        self.out.push('\n');
                        continue;
                    }
                    self.out.push_str(" {\n");
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
                    self.line_of(&["bool ", &first, " = true;"]);
                    self.line("while (true) {");
                    self.indent += 1;
                    self.line_of(&["if (!", &first, ") {"]);
                    self.nested(continuing);
                    if let Some(condition) = break_if {
                        self.indent += 1;
                        self.start_line();
                        self.out.push_str("if (");
                        self.expr(*condition)?;
                        self.out.push_str(") {\n");
                        self.line("    break;");
                        self.line("}");
                        self.indent -= 1;
                    }
                    self.line("}");
                    self.line_of(&[&first, " = false;"]);
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
            Statement::Store { pointer, value } => self.store(*pointer, *value)?,
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
                self.start_line();
                let declared = match result {
                    Some(result) => self.start_bind(*result),
                    None => Ok(()),
                };
                if let Some(name) = self.w.function_names.try_get(*function) {
                    self.out.push_str(name);
                }
                self.out.push('(');
                let mut first = true;
                for &argument in arguments {
                    if !first {
                        self.out.push_str(", ");
                    }
                    first = false;
                    self.expr(argument)?;
                }
                self.w.make_hidden(*function);
                if let Some(Some(hidden)) = self.w.hidden.try_get(*function) {
                    for name in &hidden.names {
                        if !first {
                            self.out.push_str(", ");
                        }
                        first = false;
                        self.out.push_str(name);
                    }
                    self.w.diagnostics.extend(hidden.errors.iter().cloned());
                }
                self.out.push(')');
                declared?;
                self.out.push_str(";\n");
                if let Some(result) = result {
                    self.mark_bound(*result);
                }
            }
        }
        Ok(())
    }

    /// `target = value;`, or an atomic store.
    fn store(
        &mut self,
        pointer: Handle<Expression>,
        value: Handle<Expression>,
    ) -> Result<(), Diagnostic> {
        self.start_line();
        let atomic = self.is_atomic(pointer);
        if atomic {
            self.out.push_str("atomic_store_explicit(&");
        }
        self.expr(pointer)?;
        self.out.push_str(if atomic { ", " } else { " = " });
        let packed = self.points_to_packed_member(pointer);
        // A packed vector is assigned from a vector, not from a swizzle.
        let converted = match packed {
            Ok(true) => {
                let named = self.write_type_of(value);
                self.out.push('(');
                Some(named)
            }
            _ => None,
        };
        self.expr(value)?;
        packed?;
        if let Some(named) = converted {
            named?;
            self.out.push(')');
        }
        if atomic {
            self.check_atomic_scalar(pointer)?;
            self.out.push_str(", memory_order_relaxed);\n");
        } else {
            self.out.push_str(";\n");
        }
        Ok(())
    }

    /// Evaluates `h` into a temporary (or a reference, for pointers).
    fn bind(&mut self, h: Handle<Expression>) -> Result<(), Diagnostic> {
        if self.is_bound(h) {
            return Ok(());
        }
        let ty = self.type_of(h)?;
        self.start_line();
        if let Some(&TypeInner::Pointer { base, space }) = self.w.types.inner(ty) {
            let atomic = self.is_atomic(h);
            let declared = match self.w.types.name_with(base, atomic) {
                Ok(pointee) => {
                    self.out.push_str(space_qualifier(space));
                    self.out.push(' ');
                    self.out.push_str(pointee);
                    self.out.push_str("& ");
                    self.write_bound_name(h);
                    self.out.push_str(" = ");
                    Ok(())
                }
                Err(what) => Err(what),
            };
            self.expr(h)?;
            declared.map_err(|what| unsupported(self.span(h), what))?;
        } else {
            let declared = self.start_bind(h);
            self.expr(h)?;
            declared?;
        }
        self.out.push_str(";\n");
        self.mark_bound(h);
        Ok(())
    }

    /// Writes `T _eN = `, the start of the declaration binding expression `h`. On an
    /// error nothing is written; the caller reports it after the value's own errors.
    fn start_bind(&mut self, h: Handle<Expression>) -> Result<(), Diagnostic> {
        self.write_type_of(h)?;
        self.out.push(' ');
        self.write_bound_name(h);
        self.out.push_str(" = ");
        Ok(())
    }

    /// Records that `h` is now read through its `_eN` name.
    fn mark_bound(&mut self, h: Handle<Expression>) {
        if let Some(slot) = self.lists.bound.get_mut(h.index()) {
            *slot = true;
        }
    }

    fn write_return(&mut self, value: Option<Handle<Expression>>) -> Result<(), Diagnostic> {
        let output = std::mem::replace(&mut self.output, Output::Helper);
        let result = self.write_return_as(&output, value);
        self.output = output;
        result
    }

    fn write_return_as(
        &mut self,
        output: &Output,
        value: Option<Handle<Expression>>,
    ) -> Result<(), Diagnostic> {
        self.start_line();
        match (output, value) {
            (Output::Helper, Some(value)) => {
                self.out.push_str("return ");
                self.expr(value)?;
                self.out.push_str(";\n");
            }
            (Output::Helper | Output::EntryVoid, value) => {
                if let Some(value) = value {
                    // Evaluated for its errors only.
                    let start = self.out.len();
                    self.expr(value)?;
                    self.out.truncate(start);
                }
                self.out.push_str("return;\n");
            }
            (Output::EntrySingle, Some(value)) => {
                self.out.push_str("return _stage_out{");
                self.expr(value)?;
                self.out.push_str("};\n");
            }
            (Output::EntryStruct { ty, accessors }, Some(value)) => {
                let temporary = self.fresh("result");
                self.out.push_str("{ ");
                self.out.push_str(ty);
                self.out.push(' ');
                self.out.push_str(&temporary);
                self.out.push_str(" = ");
                self.expr(value)?;
                self.out.push_str("; return _stage_out{");
                for (index, member) in accessors.iter().enumerate() {
                    if index > 0 {
                        self.out.push_str(", ");
                    }
                    self.out.push_str(&temporary);
                    self.out.push('.');
                    self.out.push_str(member);
                }
                self.out.push_str("}; }\n");
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
        // Metal has no fence without execution sync in MSL 2.4's compute functions;
        // a barrier without `group_sync` is written as the stronger threadgroup barrier.
        self.line(match (barrier.device_memory, barrier.workgroup_memory) {
            (true, true) => {
                "threadgroup_barrier(mem_flags::mem_device | mem_flags::mem_threadgroup);"
            }
            (true, false) => "threadgroup_barrier(mem_flags::mem_device);",
            (false, true) => "threadgroup_barrier(mem_flags::mem_threadgroup);",
            (false, false) => "threadgroup_barrier(mem_flags::mem_none);",
        });
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
        let op = match fun {
            AtomicFunction::Add => "fetch_add",
            AtomicFunction::And => "fetch_and",
            AtomicFunction::Or => "fetch_or",
            AtomicFunction::Xor => "fetch_xor",
            AtomicFunction::Min => "fetch_min",
            AtomicFunction::Max => "fetch_max",
            AtomicFunction::Exchange => "exchange",
            AtomicFunction::CompareExchange => {
                let target = self.expr_text(pointer)?;
                let value = self.expr_text(value)?;
                return self.compare_exchange(pointer, &target, &value, compare, result);
            }
        };
        self.start_line();
        let declared = match result {
            Some(result) => self.start_bind(result),
            None => Ok(()),
        };
        self.out.push_str("atomic_");
        self.out.push_str(op);
        self.out.push_str("_explicit(&");
        self.expr(pointer)?;
        self.out.push_str(", ");
        self.expr(value)?;
        self.out.push_str(", memory_order_relaxed)");
        declared?;
        self.out.push_str(";\n");
        if let Some(result) = result {
            self.mark_bound(result);
        }
        Ok(())
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
        let compare_text = self.expr_text(compare)?;
        let ty = self.type_of(compare)?;
        let type_name = self
            .w
            .types
            .name(ty)
            .map_err(|what| unsupported(span, what))?
            .to_owned();
        let pointer_ty = self.type_of(pointer)?;
        let (base, space) = match self.w.types.inner(pointer_ty) {
            Some(&TypeInner::Pointer { base, space }) => (base, space),
            _ => return Err(unsupported(span, "an atomic operation on a non-pointer")),
        };
        let atomic_type = self
            .w
            .types
            .atomic_name(base)
            .map_err(|what| unsupported(span, what))?
            .to_owned();
        let original = match result {
            Some(result) => {
                self.mark_bound(result);
                format!("_e{}", result.index())
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

    /// Writes the MSL name of the type of `h`; on an error nothing is written.
    pub fn write_type_of(&mut self, h: Handle<Expression>) -> Written {
        let ty = self.type_of(h)?;
        match self.w.types.name(ty) {
            Ok(name) => {
                self.out.push_str(name);
                Ok(())
            }
            Err(what) => Err(unsupported(self.span(h), what)),
        }
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

    /// Writes `path`, an lvalue of type `ty` in `constant` memory, as a `thread` value.
    ///
    /// A struct or array is rebuilt member by member (designated initializers, so
    /// padding fields stay out of it): a struct's implicit copy constructor binds a
    /// generic reference, which a `constant` object does not convert to. Scalars,
    /// vectors and matrices copy as they are. `path` is extended for the members and
    /// left as it came.
    fn constant_aggregate_copy(
        &mut self,
        path: &mut String,
        ty: Handle<Type>,
        depth: u32,
    ) -> Result<(), String> {
        /// Deeper nesting is not expanded (no HLSL type nests this deep in practice).
        const DEPTH_LIMIT: u32 = 16;
        /// Longer arrays would make the expansion unreasonably long.
        const ELEMENT_LIMIT: u32 = 256;
        if depth > DEPTH_LIMIT {
            return Err("a constant-buffer value nested more than 16 levels deep".into());
        }
        let length = path.len();
        match self.w.types.inner(ty) {
            Some(TypeInner::Struct { members, .. }) => {
                let name = self.w.types.name(ty)?;
                self.out.push_str(name);
                self.out.push('{');
                for (index, member_ty) in members.iter().map(|m| m.ty).enumerate() {
                    let member = self
                        .w
                        .types
                        .member_name(ty, index)
                        .ok_or("a struct member that doesn't exist")?;
                    if index > 0 {
                        self.out.push_str(", ");
                    }
                    self.out.push('.');
                    self.out.push_str(member);
                    self.out.push_str(" = ");
                    path.push('.');
                    path.push_str(member);
                    self.constant_aggregate_copy(path, member_ty, depth + 1)?;
                    path.truncate(length);
                }
                self.out.push('}');
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
                self.out.push_str(name);
                self.out.push('{');
                for i in 0..n {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    path.push('[');
                    push_decimal(path, u64::from(i));
                    path.push(']');
                    self.constant_aggregate_copy(path, base, depth + 1)?;
                    path.truncate(length);
                }
                self.out.push('}');
            }
            _ => self.out.push_str(path),
        }
        Ok(())
    }

    /// Whether pointer `h` points at atomic integers (or an aggregate holding some): into
    /// a global used atomically, at a 32-bit integer, not at a float or vector member of
    /// such a buffer's struct.
    fn is_atomic(&self, h: Handle<Expression>) -> bool {
        if !self.w.uses_atomics {
            return false;
        }
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

    /// Writes `h` as an operand of an operator: parenthesized unless it is a name,
    /// literal or call-like expression.
    pub fn operand(&mut self, h: Handle<Expression>) -> Written {
        if self.is_bound(h) {
            self.write_bound_name(h);
            return Ok(());
        }
        let expression = self.expression(h)?;
        match *expression {
            Expression::Unary { .. } | Expression::Binary { .. } => {
                self.out.push('(');
                self.unbound(h, expression)?;
                self.out.push(')');
            }
            Expression::Literal(_) => {
                let start = self.out.len();
                self.unbound(h, expression)?;
                if self.out.get(start..).is_some_and(|t| t.starts_with('-')) {
                    self.out.insert(start, '(');
                    self.out.push(')');
                }
            }
            _ => self.unbound(h, expression)?,
        }
        Ok(())
    }

    /// Writes the text of expression `h`.
    pub fn expr(&mut self, h: Handle<Expression>) -> Written {
        if self.is_bound(h) {
            self.write_bound_name(h);
            return Ok(());
        }
        let expression = self.expression(h)?;
        self.unbound(h, expression)
    }

    /// Expression `h` of the function.
    fn expression(&self, h: Handle<Expression>) -> Result<&'a Expression, Diagnostic> {
        self.function
            .expressions
            .try_get(h)
            .ok_or_else(|| unsupported(self.span(h), "a reference to a missing expression"))
    }

    /// Writes the text of `expression`, expression `h`, which is not bound to a name.
    #[inline]
    fn unbound(&mut self, h: Handle<Expression>, expression: &'a Expression) -> Written {
        // The operators that nest deepest go straight to their writers, so that the
        // large frame of `other_expr` is not on every level of a deep tree.
        match *expression {
            Expression::Unary { op, expr } => self.unary(op, expr),
            Expression::Binary { op, left, right } => self.binary(op, left, right),
            Expression::Math { fun, ref args } => crate::math::write(self, h, fun, args),
            // A variable and the load of a local are its name (the commonest leaves),
            // written here without `other_expr`'s frame.
            Expression::LocalVariable(_) | Expression::Load { .. } => {
                let read = self.variable_read(expression);
                match read.and_then(|local| self.lists.locals.get(local.index())) {
                    Some(name) => {
                        self.out.push_str(name);
                        Ok(())
                    }
                    None => self.other_expr(h, expression),
                }
            }
            _ => self.other_expr(h, expression),
        }
    }

    /// The local variable whose name `expression` is written as when it is a local
    /// variable, or a load of an unbound local variable (a plain read of it: no atomic,
    /// packed or `constant` memory to take care of); `None` for anything else.
    #[inline]
    fn variable_read(&self, expression: &Expression) -> Option<Handle<LocalVariable>> {
        let local = match *expression {
            Expression::LocalVariable(local) => local,
            Expression::Load { pointer } if !self.is_bound(pointer) => {
                let Some(&Expression::LocalVariable(local)) =
                    self.function.expressions.try_get(pointer)
                else {
                    return None;
                };
                let ty = self.function.expression_types.get(pointer.index())?;
                if !matches!(
                    self.w.types.inner(*ty),
                    Some(TypeInner::Pointer {
                        space: AddressSpace::Function,
                        ..
                    })
                ) {
                    return None;
                }
                local
            }
            _ => return None,
        };
        Some(local)
    }

    /// `-x`, `!x` or `~x`.
    #[inline(never)]
    fn unary(&mut self, op: UnaryOperator, expr: Handle<Expression>) -> Written {
        if op == UnaryOperator::Negate && self.wraps_in_unsigned(expr)? {
            self.out.push_str("as_type<");
            self.write_type_of(expr)?;
            self.out.push_str(">(-");
            self.unsigned_bits(expr)?;
            self.out.push(')');
            return Ok(());
        }
        self.out.push_str(match op {
            UnaryOperator::Negate => "-",
            UnaryOperator::LogicalNot => "!",
            UnaryOperator::BitwiseNot => "~",
        });
        self.operand(expr)
    }

    /// [`Self::expr`] for every kind but the unary and binary operators.
    #[inline(never)]
    fn other_expr(&mut self, h: Handle<Expression>, expression: &Expression) -> Written {
        // The location of `h`, looked up only for an error or a writer that keeps it.
        let function = self.function;
        let span = || function.expressions.span(h);
        match expression {
            Expression::Literal(literal) => {
                write_literal(&mut self.out, *literal).map_err(|w| unsupported(span(), w))
            }
            Expression::ZeroValue(ty) => {
                let name = self.w.types.name(*ty).map_err(|w| unsupported(span(), w))?;
                self.out.push_str(name);
                self.out.push_str("{}");
                Ok(())
            }
            Expression::Compose { ty, components } => self.compose(*ty, components, span()),
            Expression::Splat { value, .. } => {
                let named = self.write_type_of(h);
                self.out.push('(');
                self.expr(*value)?;
                named?;
                self.out.push(')');
                Ok(())
            }
            Expression::Swizzle {
                size,
                vector,
                pattern,
            } => {
                self.operand(*vector)?;
                self.out.push('.');
                for component in pattern.iter().take(size.count() as usize) {
                    self.out.push(component.letter());
                }
                Ok(())
            }
            Expression::Access { base, index } => {
                self.operand(*base)?;
                self.out.push('[');
                self.expr(*index)?;
                self.out.push(']');
                Ok(())
            }
            Expression::AccessIndex { base, index } => self.access_index(h, *base, *index, span()),
            Expression::GlobalVariable(global) => {
                let name = self
                    .w
                    .global_names
                    .try_get(*global)
                    .ok_or_else(|| unsupported(span(), "a global that doesn't exist"))?;
                self.out.push_str(name);
                Ok(())
            }
            Expression::LocalVariable(local) => {
                let name =
                    self.lists.locals.get(local.index()).ok_or_else(|| {
                        unsupported(span(), "a local variable that doesn't exist")
                    })?;
                self.out.push_str(name);
                Ok(())
            }
            Expression::FunctionArgument(index) => {
                let value =
                    self.lists.arguments.get(*index as usize).ok_or_else(|| {
                        unsupported(span(), "a function argument that doesn't exist")
                    })?;
                self.out.push_str(value);
                Ok(())
            }
            Expression::Load { pointer } => self.load(h, *pointer, span()),
            Expression::Unary { op, expr } => self.unary(*op, *expr),
            Expression::Binary { op, left, right } => self.binary(*op, *left, *right),
            Expression::Select {
                condition,
                accept,
                reject,
            } => {
                // The operands are evaluated in the IR's order and written in MSL's.
                let condition = self.expr_text(*condition)?;
                let accept = self.expr_text(*accept)?;
                let reject = self.expr_text(*reject)?;
                let (open, first, second, third, close) = match self.inner_of(h)? {
                    TypeInner::Scalar(_) | TypeInner::Vector { .. } => {
                        ("select(", &reject, &accept, &condition, ")")
                    }
                    _ => ("(", &condition, &accept, &reject, ")"),
                };
                let (after_first, after_second) = if open == "(" {
                    (" ? ", " : ")
                } else {
                    (", ", ", ")
                };
                for piece in [open, first, after_first, second, after_second, third, close] {
                    self.out.push_str(piece);
                }
                Ok(())
            }
            Expression::Math { fun, args } => crate::math::write(self, h, *fun, args),
            Expression::Convert { expr, .. } => {
                let named = self.write_type_of(h);
                self.out.push('(');
                self.expr(*expr)?;
                named?;
                self.out.push(')');
                Ok(())
            }
            Expression::Bitcast { expr, .. } => {
                self.out.push_str("as_type<");
                let named = self.write_type_of(h);
                self.out.push_str(">(");
                self.expr(*expr)?;
                named?;
                self.out.push(')');
                Ok(())
            }
            Expression::Wave { op, args } => crate::wave::write(self, h, *op, args),
            Expression::CallResult(_) | Expression::AtomicResult => Err(unsupported(
                span(),
                "a call or atomic result used before its statement",
            )),
            Expression::ArrayLength(pointer) => self.array_length(h, *pointer),
            Expression::ImageSample { .. } => {
                let text = self.image_sample(h)?;
                self.out.push_str(&text);
                Ok(())
            }
            Expression::ImageLevelOfDetail { .. } => {
                let text = self.image_level_of_detail(h)?;
                self.out.push_str(&text);
                Ok(())
            }
            Expression::ImageLoad { .. } => {
                let text = self.image_load(h)?;
                self.out.push_str(&text);
                Ok(())
            }
            Expression::ImageTexelPointer { .. } => Err(unsupported(
                span(),
                "an Interlocked* function on an element of a RWBuffer or RWTexture: MSL 2.4 \
                 has no texture atomics (Metal 3.1 adds them); keep the counters in a \
                 RWStructuredBuffer or RWByteAddressBuffer for Metal",
            )),
            Expression::ImageQuery { image, query } => {
                let text = self.image_query(*image, *query)?;
                self.out.push_str(&text);
                Ok(())
            }
            Expression::Derivative { axis, expr, .. } => {
                let text = self.derivative(h, *axis, *expr)?;
                self.out.push_str(&text);
                Ok(())
            }
        }
    }

    /// `T(a, b)`, `T{a, b}` for arrays, `T{a, {}, b}` for structs (with `{}` for padding).
    fn compose(
        &mut self,
        ty: Handle<Type>,
        components: &[Handle<Expression>],
        span: Option<oneshader_ir::Span>,
    ) -> Written {
        let named = match self.w.types.name(ty) {
            Ok(name) => {
                self.out.push_str(name);
                Ok(())
            }
            Err(what) => Err(unsupported(span, what)),
        };
        let mut components = components.iter().peekable();
        match self.w.types.inner(ty) {
            Some(TypeInner::Struct { .. }) => {
                let slots = self.w.types.layout(ty).map_or(0, |l| l.slots.len());
                self.out.push('{');
                for position in 0..slots {
                    if position > 0 {
                        self.out.push_str(", ");
                    }
                    let member = matches!(
                        self.w.types.layout(ty).and_then(|l| l.slots.get(position)),
                        Some(Slot::Member { .. })
                    );
                    // Padding takes no component.
                    match components.next_if(|_| member) {
                        Some(&component) => self.expr(component)?,
                        None => self.out.push_str("{}"),
                    }
                }
                self.out.push('}');
                // Components beyond the members are not written, but still checked.
                let end = self.out.len();
                for &component in components {
                    self.expr(component)?;
                }
                self.out.truncate(end);
            }
            inner => {
                let (open, close) = match inner {
                    Some(TypeInner::Array { .. }) => ('{', '}'),
                    _ => ('(', ')'),
                };
                self.out.push(open);
                for (index, &component) in components.enumerate() {
                    if index > 0 {
                        self.out.push_str(", ");
                    }
                    self.expr(component)?;
                }
                self.out.push(close);
            }
        }
        named
    }

    /// `base.member`, `base.x` or `base[i]` for a constant index.
    fn access_index(
        &mut self,
        h: Handle<Expression>,
        base: Handle<Expression>,
        index: u32,
        span: Option<oneshader_ir::Span>,
    ) -> Written {
        let value_ty = self.type_of(base)?;
        let base_ty = match self.w.types.inner(value_ty) {
            Some(&TypeInner::Pointer { base, .. }) => base,
            _ => value_ty,
        };
        let through_pointer = base_ty != value_ty;
        match self.w.types.inner(base_ty) {
            Some(TypeInner::Struct { .. }) => {
                let exists = self.w.types.member_name(base_ty, index as usize).is_some();
                if exists && !through_pointer && self.w.types.member_is_packed(base_ty, index) {
                    // A packed member read as a value is unpacked.
                    let named = self.write_type_of(h);
                    self.out.push('(');
                    self.operand(base)?;
                    named?;
                    self.out.push('.');
                    self.out.push_str(
                        self.w
                            .types
                            .member_name(base_ty, index as usize)
                            .unwrap_or_default(),
                    );
                    self.out.push(')');
                } else {
                    self.operand(base)?;
                    let member = self
                        .w
                        .types
                        .member_name(base_ty, index as usize)
                        .ok_or_else(|| unsupported(span, "a struct member that doesn't exist"))?;
                    self.out.push('.');
                    self.out.push_str(member);
                }
            }
            Some(TypeInner::Vector { .. })
                if oneshader_ir::SwizzleComponent::from_index(index).is_some() =>
            {
                self.operand(base)?;
                if let Some(component) = oneshader_ir::SwizzleComponent::from_index(index) {
                    self.out.push('.');
                    self.out.push(component.letter());
                }
            }
            _ => {
                self.operand(base)?;
                self.out.push('[');
                push_decimal(&mut self.out, u64::from(index));
                self.out.push(']');
            }
        }
        Ok(())
    }

    /// A load: the value the pointer's lvalue reads, an atomic load, or a copy out of
    /// `constant` memory.
    fn load(
        &mut self,
        h: Handle<Expression>,
        pointer: Handle<Expression>,
        span: Option<oneshader_ir::Span>,
    ) -> Written {
        if self.is_atomic(pointer) {
            self.out.push_str("atomic_load_explicit(&");
            self.expr(pointer)?;
            self.check_atomic_scalar(pointer)?;
            self.out.push_str(", memory_order_relaxed)");
            return Ok(());
        }
        let start = self.out.len();
        let packed = self.points_to_packed_member(pointer);
        if let Ok(true) = packed {
            let named = self.write_type_of(h);
            self.out.push('(');
            self.expr(pointer)?;
            named?;
            self.out.push(')');
            return Ok(());
        }
        self.expr(pointer)?;
        packed?;
        if let Some(&TypeInner::Pointer {
            base,
            space: AddressSpace::Uniform,
        }) = self.w.types.inner(self.type_of(pointer)?)
        {
            if matches!(
                self.w.types.inner(base),
                Some(TypeInner::Struct { .. } | TypeInner::Array { .. })
            ) {
                let mut path = self.out.split_off(start);
                self.constant_aggregate_copy(&mut path, base, 0)
                    .map_err(|what| unsupported(span, what))?;
            }
        }
        Ok(())
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
            self.out.push_str("fmod(");
            self.expr(left)?;
            self.out.push_str(", ");
            self.expr(right)?;
            self.out.push(')');
            return Ok(());
        }
        if matches!(op, Add | Subtract | Multiply | ShiftLeft) && is_wide_signed(left_inner) {
            self.out.push_str("as_type<");
            self.write_type_of(left)?;
            self.out.push_str(">(");
            self.wrapping_bits(op, left, right)?;
            self.out.push(')');
            return Ok(());
        }
        // `&&` would skip the right side; the IR evaluates both, and a wave operation
        // must see every active lane.
        let evaluate_both = matches!(op, LogicalAnd | LogicalOr)
            && matches!(left_inner, TypeInner::Scalar(_))
            && self.has_wave_operation(right);
        if evaluate_both {
            self.out.push_str("bool(");
        }
        self.operand(left)?;
        self.out.push_str(match op {
            LogicalAnd if evaluate_both => " & ",
            LogicalOr if evaluate_both => " | ",
            Add => " + ",
            Subtract => " - ",
            Multiply => " * ",
            Divide => " / ",
            Modulo => " % ",
            Equal => " == ",
            NotEqual => " != ",
            Less => " < ",
            LessEqual => " <= ",
            Greater => " > ",
            GreaterEqual => " >= ",
            BitwiseAnd => " & ",
            BitwiseXor => " ^ ",
            BitwiseOr => " | ",
            LogicalAnd => " && ",
            LogicalOr => " || ",
            ShiftLeft => " << ",
            ShiftRight => " >> ",
        });
        if matches!(op, ShiftLeft | ShiftRight) && matches!(left_inner, TypeInner::Vector { .. }) {
            // MSL vector shifts want both operands of one type.
            let named = self.write_type_of(left);
            self.out.push('(');
            self.operand(right)?;
            named?;
            self.out.push(')');
        } else {
            self.operand(right)?;
        }
        if evaluate_both {
            self.out.push(')');
        }
        Ok(())
    }

    /// Whether `h` is a 32- or 64-bit signed integer scalar or vector, whose `+ - * <<`
    /// and negation are undefined on overflow in MSL (C++) but wrap in HLSL. (16-bit
    /// operands are promoted to `int` by C++, so they cannot overflow.)
    fn wraps_in_unsigned(&mut self, h: Handle<Expression>) -> Result<bool, Diagnostic> {
        Ok(is_wide_signed(self.inner_of(h)?))
    }

    /// `l op r` on signed integers in the unsigned type of the same width (`uint`,
    /// `ulong2`, …), whose arithmetic wraps: the caller reads the bits back as signed.
    fn wrapping_bits(
        &mut self,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Written {
        self.unsigned_bits(left)?;
        match op {
            BinaryOperator::Add => {
                self.out.push_str(" + ");
                self.unsigned_bits(right)
            }
            BinaryOperator::Subtract => {
                self.out.push_str(" - ");
                self.unsigned_bits(right)
            }
            BinaryOperator::Multiply => {
                self.out.push_str(" * ");
                self.unsigned_bits(right)
            }
            // The count keeps its value; MSL wants it in the shifted operand's type.
            _ => {
                self.out.push_str(" << u");
                self.write_type_of(left)?;
                self.out.push('(');
                self.expr(right)?;
                self.out.push(')');
                Ok(())
            }
        }
    }

    /// The bits of signed integer `h` in its unsigned type. A chain of wrapping operations
    /// stays unsigned throughout, so it nests no deeper than the plain operators would
    /// (clang stops at 256 brackets).
    fn unsigned_bits(&mut self, h: Handle<Expression>) -> Written {
        let inline = !self.is_bound(h);
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
                self.out.push('(');
                self.wrapping_bits(op, left, right)?;
                self.out.push(')');
            }
            Some(&Expression::Unary {
                op: UnaryOperator::Negate,
                expr,
            }) if inline => {
                self.out.push_str("(-");
                self.unsigned_bits(expr)?;
                self.out.push(')');
            }
            _ => {
                self.out.push_str("as_type<u");
                self.write_type_of(h)?;
                self.out.push_str(">(");
                self.expr(h)?;
                self.out.push(')');
            }
        }
        Ok(())
    }

    /// Whether the inline tree of `h` contains a wave operation.
    fn has_wave_operation(&self, h: Handle<Expression>) -> bool {
        if self.is_bound(h) {
            return false;
        }
        let Some(expression) = self.function.expressions.try_get(h) else {
            return false;
        };
        let any = |children: &[Handle<Expression>]| {
            children.iter().any(|&child| self.has_wave_operation(child))
        };
        match expression {
            Expression::Wave { .. } => true,
            Expression::Compose { components, .. } => any(components),
            Expression::Splat { value, .. } => any(&[*value]),
            Expression::Swizzle { vector, .. } => any(&[*vector]),
            Expression::Access { base, index } => any(&[*base, *index]),
            Expression::AccessIndex { base, .. } => any(&[*base]),
            Expression::Load { pointer } => any(&[*pointer]),
            Expression::Unary { expr, .. }
            | Expression::Convert { expr, .. }
            | Expression::Bitcast { expr, .. } => any(&[*expr]),
            Expression::Binary { left, right, .. } => any(&[*left, *right]),
            Expression::Select {
                condition,
                accept,
                reject,
            } => any(&[*condition, *accept, *reject]),
            Expression::Math { args, .. } => any(args),
            _ => false,
        }
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
        self.out.push('(');
        self.out.push_str(BUFFER_SIZES);
        self.out.push('[');
        push_decimal(&mut self.out, u64::from(index.index));
        self.out.push_str("] / ");
        push_decimal(&mut self.out, u64::from(stride));
        self.out.push_str("u)");
        Ok(())
    }
}

/// Appends an `int` literal (`i32::MIN` as an expression: its digits alone overflow).
fn push_int(out: &mut String, value: i32) {
    if value == i32::MIN {
        out.push_str("(-2147483647 - 1)");
    } else {
        if value < 0 {
            out.push('-');
        }
        push_decimal(out, u64::from(value.unsigned_abs()));
    }
}

/// Whether a block ends by leaving it (so no `break` is needed after it).
fn ends_in_jump(block: &Block) -> bool {
    matches!(
        block.last(),
        Some(Statement::Break | Statement::Continue | Statement::Return { .. } | Statement::Kill)
    )
}

/// Writes the MSL text of a literal.
pub fn write_literal(out: &mut String, literal: Literal) -> Result<(), String> {
    use std::fmt::Write;
    // Writing to a `String` can't fail.
    let _ = match literal {
        Literal::Bool(value) => {
            out.push_str(if value { "true" } else { "false" });
            Ok(())
        }
        Literal::I32(value) => {
            push_int(out, value);
            Ok(())
        }
        Literal::U32(value) => {
            push_decimal(out, u64::from(value));
            out.push('u');
            Ok(())
        }
        Literal::I64(value) if value == i64::MIN => {
            out.push_str("(-9223372036854775807l - 1l)");
            Ok(())
        }
        Literal::I64(value) => write!(out, "{value}l"),
        Literal::U64(value) => write!(out, "{value}ul"),
        Literal::F32(value) if value.is_finite() => {
            oneshader_ir::text::push_f32(out, value);
            out.push('f');
            Ok(())
        }
        Literal::F32(value) => write!(out, "as_type<float>(0x{:08x}u)", value.to_bits()),
        Literal::F64(_) => return Err("a 64-bit float literal: MSL has no double".into()),
    };
    Ok(())
}

/// Whether `inner` is a 32- or 64-bit signed integer scalar or vector (see
/// `FunctionWriter::wraps_in_unsigned`).
fn is_wide_signed(inner: &TypeInner) -> bool {
    inner
        .scalar()
        .is_some_and(|s| s.kind == ScalarKind::Sint && s.width >= 4)
}
