//! Expressions: values, references to memory, built-in functions.
//!
//! A pointer expression is written as a WGSL reference (`Values[id.x]`, `(*p).member`);
//! `Load` reads a reference, and a pointer value is `&reference`. Every infix form a writer
//! makes itself is parenthesized, and operands that are infix IR expressions are too, so
//! text composes without precedence surprises.

use oneshader_ir::analysis::{pointer_root, PointerRoot};
use oneshader_ir::concat_text;
use oneshader_ir::{
    BinaryOperator, Expression, Function, Handle, Literal, MathFunction, Scalar, ScalarKind,
    SwizzleComponent, Type, TypeInner, UnaryOperator,
};
use std::fmt::Write as _;

use crate::layout;
use crate::writer::{unsupported, FunctionContext, Res, Writer, MAX_CONSTRUCTOR_ELEMENTS};

/// The value of `expression` when it is an integer constant (a literal, or a converted
/// literal).
pub(crate) fn constant_index(function: &Function, expression: Handle<Expression>) -> Option<i64> {
    match function.expressions.try_get(expression)? {
        Expression::Literal(Literal::I32(v)) => Some(i64::from(*v)),
        Expression::Literal(Literal::U32(v)) => Some(i64::from(*v)),
        Expression::Convert { expr, to } if to.is_integer() => constant_index(function, *expr),
        _ => None,
    }
}

/// Appends the WGSL text of a literal to `out`.
pub(crate) fn write_literal(out: &mut String, value: Literal) -> Result<(), String> {
    match value {
        Literal::Bool(b) => out.push_str(if b { "true" } else { "false" }),
        Literal::I32(i32::MIN) => out.push_str("i32(-2147483648)"),
        Literal::I32(v) => {
            if v < 0 {
                out.push('-');
            }
            oneshader_ir::text::push_decimal(out, v.unsigned_abs() as u64);
            out.push('i');
        }
        Literal::U32(v) => {
            oneshader_ir::text::push_decimal(out, v as u64);
            out.push('u');
        }
        Literal::F32(v) => {
            if v.is_finite() && (v == 0.0 || v.abs() >= f32::MIN_POSITIVE) {
                oneshader_ir::text::push_f32(out, v);
                out.push('f');
            } else {
                // Infinities, NaNs and subnormals: exact by their bits.
                let _ = write!(out, "bitcast<f32>({:#x}u)", v.to_bits());
            }
        }
        Literal::F64(_) | Literal::I64(_) | Literal::U64(_) => {
            return Err("64-bit literals (WGSL has no 64-bit types)".into())
        }
    }
    Ok(())
}

/// What selects element `index` of a value: written after the value's text.
enum Selector<'a> {
    /// `.name` of a struct member.
    Member(&'a str),
    /// `.x` of a vector.
    Component(char),
    /// `[n]` of an array or matrix.
    Index(u32),
}

impl Selector<'_> {
    fn write(&self, out: &mut String) {
        match *self {
            Selector::Member(name) => {
                out.push('.');
                out.push_str(name);
            }
            Selector::Component(letter) => {
                out.push('.');
                out.push(letter);
            }
            Selector::Index(index) => {
                out.push('[');
                oneshader_ir::text::push_decimal(out, index as u64);
                out.push(']');
            }
        }
    }
}

/// The WGSL name of a math function that maps to a built-in of the same operands and
/// result type; `None` for those written otherwise.
fn plain_math_function(fun: MathFunction) -> Option<&'static str> {
    use MathFunction as M;
    Some(match fun {
        M::Abs => "abs",
        M::Min => "min",
        M::Max => "max",
        M::Clamp => "clamp",
        M::Saturate => "saturate",
        M::Floor => "floor",
        M::Ceil => "ceil",
        M::Round => "round",
        M::Trunc => "trunc",
        M::Frac => "fract",
        M::Sqrt => "sqrt",
        M::Rsqrt => "inverseSqrt",
        M::Exp => "exp",
        M::Exp2 => "exp2",
        M::Log => "log",
        M::Log2 => "log2",
        M::Pow => "pow",
        M::Sin => "sin",
        M::Cos => "cos",
        M::Tan => "tan",
        M::Asin => "asin",
        M::Acos => "acos",
        M::Atan => "atan",
        M::Atan2 => "atan2",
        M::Sinh => "sinh",
        M::Cosh => "cosh",
        M::Tanh => "tanh",
        M::Lerp => "mix",
        M::Step => "step",
        M::SmoothStep => "smoothstep",
        M::Dot => "dot",
        M::Cross => "cross",
        M::Length => "length",
        M::Normalize => "normalize",
        M::Distance => "distance",
        M::Reflect => "reflect",
        M::Refract => "refract",
        M::Transpose => "transpose",
        M::Determinant => "determinant",
        M::Any => "any",
        M::All => "all",
        M::ReverseBits => "reverseBits",
        M::Sign
        | M::Mad
        | M::MatrixMultiply
        | M::IsNan
        | M::IsInf
        | M::CountBits
        | M::FirstBitHigh
        | M::FirstBitLow => return None,
    })
}

impl<'a> Writer<'a> {
    /// The type handle of `expression`.
    pub(crate) fn type_handle_of(
        &self,
        context: &FunctionContext,
        expression: Handle<Expression>,
    ) -> Res<Handle<Type>> {
        context
            .function
            .expression_types
            .get(expression.index())
            .copied()
            .ok_or_else(|| {
                unsupported(
                    context.function.expressions.span(expression),
                    format!("expression {expression:?} has no type"),
                )
            })
    }

    /// The structure of the type of `expression`.
    pub(crate) fn type_of(
        &self,
        context: &FunctionContext,
        expression: Handle<Expression>,
    ) -> Res<&TypeInner> {
        let ty = self.type_handle_of(context, expression)?;
        layout::inner(self.module, ty)
            .map_err(|why| unsupported(context.function.expressions.span(expression), why))
    }

    /// The WGSL type name of `expression`'s type.
    pub(crate) fn type_text_of(
        &self,
        context: &FunctionContext,
        expression: Handle<Expression>,
    ) -> Res<std::borrow::Cow<'a, str>> {
        let ty = self.type_handle_of(context, expression)?;
        self.type_at(ty, false, context.function.expressions.span(expression))
    }

    /// Appends the WGSL type name of `expression`'s type to `out`.
    fn write_type_of(
        &self,
        out: &mut String,
        context: &FunctionContext,
        expression: Handle<Expression>,
    ) -> Res<()> {
        let ty = self.type_handle_of(context, expression)?;
        self.write_type_at(
            out,
            ty,
            false,
            context.function.expressions.span(expression),
        )
    }

    /// Appends the name of `ty`, which a constructor or conversion of `operands` starts
    /// with. When `ty` has no WGSL name, the operands are written first so that an error
    /// of theirs is the one reported, as when they were written before the type.
    fn write_type_before(
        &self,
        out: &mut String,
        context: &FunctionContext,
        ty: Handle<Type>,
        span: Option<oneshader_ir::Span>,
        operands: &[Handle<Expression>],
    ) -> Res<()> {
        let start = out.len();
        if let Err(error) = self.write_type_at(out, ty, false, span) {
            out.truncate(start);
            for &operand in operands {
                self.write_expr(out, context, operand)?;
            }
            return Err(error);
        }
        Ok(())
    }

    fn get<'f>(
        &self,
        context: &FunctionContext<'_, 'f>,
        expression: Handle<Expression>,
    ) -> Res<&'f Expression> {
        context
            .function
            .expressions
            .try_get(expression)
            .ok_or_else(|| unsupported(None, format!("expression {expression:?} is out of range")))
    }

    /// `expression` as an operand of an operator or a postfix: parenthesized when it is
    /// itself an operator or a negative literal.
    pub(crate) fn operand(
        &self,
        context: &FunctionContext,
        expression: Handle<Expression>,
    ) -> Res<String> {
        let mut text = String::new();
        self.write_operand(&mut text, context, expression)?;
        Ok(text)
    }

    /// Appends [`Self::operand`]'s text to `out`.
    pub(crate) fn write_operand(
        &self,
        out: &mut String,
        context: &FunctionContext,
        expression: Handle<Expression>,
    ) -> Res<()> {
        let infix = !context.is_bound(expression)
            && matches!(
                self.get(context, expression)?,
                Expression::Binary { .. } | Expression::Unary { .. }
            );
        let start = out.len();
        if infix {
            out.push('(');
        }
        self.write_expr(out, context, expression)?;
        if infix {
            out.push(')');
        } else if out.get(start..).is_some_and(|text| text.starts_with('-')) {
            out.insert(start, '(');
            out.push(')');
        }
        Ok(())
    }

    /// The WGSL text of the value of `expression` (for a pointer, `&reference`).
    pub(crate) fn expression(
        &self,
        context: &FunctionContext,
        handle: Handle<Expression>,
    ) -> Res<String> {
        let mut text = String::new();
        self.write_expr(&mut text, context, handle)?;
        Ok(text)
    }

    /// Appends the WGSL text of the value of `handle` to `out` (for a pointer,
    /// `&reference`). On an error, `out` may hold part of the text.
    pub(crate) fn write_expr(
        &self,
        out: &mut String,
        context: &FunctionContext,
        handle: Handle<Expression>,
    ) -> Res<()> {
        if context.write_bound(out, handle) {
            return Ok(());
        }
        let expression = self.get(context, handle)?;
        // Only variables, parameters and their elements are pointers: the other kinds
        // skip the type lookup (but for the check that the expression has a type).
        let may_point = matches!(
            expression,
            Expression::GlobalVariable(_)
                | Expression::LocalVariable(_)
                | Expression::FunctionArgument(_)
                | Expression::Access { .. }
                | Expression::AccessIndex { .. }
                | Expression::ImageTexelPointer { .. }
        );
        if may_point
            || context
                .function
                .expression_types
                .get(handle.index())
                .is_none()
        {
            let inner = self.type_of(context, handle)?;
            if matches!(inner, TypeInner::Pointer { .. }) {
                return self.write_pointer(out, context, handle);
            }
        }
        // The operators that nest deepest go straight to their writers, so that the
        // large frame of `other_expression` is not on every level of a deep tree.
        match *expression {
            Expression::Math { fun, ref args } => self.math(out, context, handle, fun, args),
            Expression::Unary { op, expr } => self.unary(out, context, handle, op, expr),
            Expression::Binary { op, left, right } => {
                self.binary(out, context, handle, op, left, right)
            }
            Expression::Select {
                condition,
                accept,
                reject,
            } => self.select(out, context, condition, accept, reject),
            // Loads are the commonest leaves: a local's is its name (locals are never
            // atomic), written without `load`'s checks.
            Expression::Load { pointer } => {
                let local = match context.function.expressions.try_get(pointer) {
                    Some(&Expression::LocalVariable(local)) => {
                        context.lists.locals.get(local.index())
                    }
                    _ => None,
                };
                match local {
                    Some(name) => {
                        out.push_str(name);
                        Ok(())
                    }
                    None => self.load(out, context, handle, pointer),
                }
            }
            _ => self.other_expression(out, context, handle, expression),
        }
    }

    /// `select(reject, accept, condition)`.
    fn select(
        &self,
        out: &mut String,
        context: &FunctionContext,
        condition: Handle<Expression>,
        accept: Handle<Expression>,
        reject: Handle<Expression>,
    ) -> Res<()> {
        out.push_str("select(");
        self.write_expr(out, context, reject)?;
        out.push_str(", ");
        self.write_expr(out, context, accept)?;
        out.push_str(", ");
        self.write_expr(out, context, condition)?;
        out.push(')');
        Ok(())
    }

    /// Appends `expressions` to `out`, separated by commas.
    pub(crate) fn write_list(
        &self,
        out: &mut String,
        context: &FunctionContext,
        expressions: &[Handle<Expression>],
    ) -> Res<()> {
        for (index, &expression) in expressions.iter().enumerate() {
            if index > 0 {
                out.push_str(", ");
            }
            self.write_expr(out, context, expression)?;
        }
        Ok(())
    }

    /// [`Self::write_expr`] for the kinds that hold operands, but the operators: out of
    /// line, and with the other kinds in [`Self::leaf_expression`], so that its frame on
    /// every level of a deep tree stays small in unoptimized builds.
    #[inline(never)]
    fn other_expression(
        &self,
        out: &mut String,
        context: &FunctionContext,
        handle: Handle<Expression>,
        expression: &Expression,
    ) -> Res<()> {
        // The location is looked up only by the kinds that may need it.
        let span = || context.function.expressions.span(handle);
        match *expression {
            Expression::Compose { ty, ref components } => {
                if components.len() > MAX_CONSTRUCTOR_ELEMENTS {
                    return Err(constructor_too_long(span(), components.len()));
                }
                self.write_type_before(out, context, ty, span(), components)?;
                out.push('(');
                self.write_list(out, context, components)?;
                out.push(')');
            }
            Expression::Splat { value, .. } => {
                self.write_type_of(out, context, handle)?;
                out.push('(');
                self.write_expr(out, context, value)?;
                out.push(')');
            }
            Expression::Swizzle {
                size,
                vector,
                pattern,
            } => {
                self.write_operand(out, context, vector)?;
                out.push('.');
                for component in pattern.iter().take(size.count() as usize) {
                    out.push(component.letter());
                }
            }
            Expression::Access { base, index } => {
                self.write_operand(out, context, base)?;
                out.push('[');
                self.write_expr(out, context, index)?;
                out.push(']');
            }
            Expression::AccessIndex { base, index } => {
                let base_ty = self.type_handle_of(context, base)?;
                let selector = self.member_selector(base_ty, index, span())?;
                self.write_operand(out, context, base)?;
                selector.write(out);
            }
            Expression::Load { pointer } => self.load(out, context, handle, pointer)?,
            Expression::Convert { expr, .. } => {
                let from = self.type_handle_of(context, expr)?;
                let to = self.type_handle_of(context, handle)?;
                if from == to {
                    self.write_expr(out, context, expr)?;
                } else {
                    self.write_type_before(out, context, to, span(), &[expr])?;
                    out.push('(');
                    self.write_expr(out, context, expr)?;
                    out.push(')');
                }
            }
            Expression::Bitcast { expr, .. } => {
                let from = self.type_handle_of(context, expr)?;
                let to = self.type_handle_of(context, handle)?;
                if from == to {
                    self.write_expr(out, context, expr)?;
                } else {
                    out.push_str("bitcast<");
                    self.write_type_before(out, context, to, span(), &[expr])?;
                    out.push_str(">(");
                    self.write_expr(out, context, expr)?;
                    out.push(')');
                }
            }
            Expression::ArrayLength(pointer) => {
                out.push_str("arrayLength(");
                self.write_pointer(out, context, pointer)?;
                out.push(')');
            }
            _ => self.leaf_expression(out, context, handle, expression)?,
        }
        Ok(())
    }

    /// [`Self::other_expression`] for the kinds that end a tree or are rare: a function
    /// of its own in unoptimized builds (which inline nothing), so that its frame is not
    /// on every level of a deep tree; optimized builds may inline it (one call site).
    #[inline]
    fn leaf_expression(
        &self,
        out: &mut String,
        context: &FunctionContext,
        handle: Handle<Expression>,
        expression: &Expression,
    ) -> Res<()> {
        // Looked up where it is used: nearly every leaf writes without one.
        let span = || context.function.expressions.span(handle);
        match *expression {
            Expression::Literal(value) => write_literal(out, value)
                .map_err(|why| unsupported(span(), concat_text!("WGSL cannot express ", why)))?,
            Expression::ZeroValue(ty) => {
                self.write_type_at(out, ty, false, span())?;
                out.push_str("()");
            }
            Expression::GlobalVariable(_)
            | Expression::LocalVariable(_)
            | Expression::FunctionArgument(_) => {
                out.push_str(self.variable_name(context, handle, expression)?)
            }
            Expression::Unary { op, expr } => self.unary(out, context, handle, op, expr)?,
            Expression::Binary { op, left, right } => {
                self.binary(out, context, handle, op, left, right)?
            }
            Expression::Select {
                condition,
                accept,
                reject,
            } => self.select(out, context, condition, accept, reject)?,
            Expression::Math { fun, ref args } => self.math(out, context, handle, fun, args)?,
            Expression::Wave { op, ref args } => self.write_wave(out, context, handle, op, args)?,
            Expression::CallResult(_) | Expression::AtomicResult => {
                return Err(unsupported(
                    span(),
                    "a call or atomic result used before its statement",
                ))
            }
            Expression::ImageSample { .. } => out.push_str(&self.image_sample(context, handle)?),
            Expression::ImageLevelOfDetail { clamped, .. } => {
                let name = if clamped {
                    "CalculateLevelOfDetail"
                } else {
                    "CalculateLevelOfDetailUnclamped"
                };
                return Err(unsupported(
                    span(),
                    concat_text!("The intrinsic '", name, "' is not supported in WGSL: WGSL has no level-of-detail query. Compute the level from the coordinate's derivatives (dpdx/dpdy, i.e. ddx/ddy) scaled by textureDimensions, and sample with SampleLevel; or compile this shader for SPIR-V and MSL only (--target spirv,msl)."),
                ));
            }
            Expression::ImageLoad { .. } => out.push_str(&self.image_load(context, handle)?),
            Expression::ImageTexelPointer { .. } => {
                return Err(unsupported(
                    span(),
                    "a texel pointer used as a value (only atomics take one)",
                ))
            }
            Expression::ImageQuery { image, query } => {
                out.push_str(&self.image_query(context, image, query)?)
            }
            Expression::Derivative {
                axis,
                control,
                expr,
            } => out.push_str(&self.derivative(context, span(), axis, control, expr)?),
            Expression::Compose { .. }
            | Expression::Splat { .. }
            | Expression::Swizzle { .. }
            | Expression::Access { .. }
            | Expression::AccessIndex { .. }
            | Expression::Load { .. }
            | Expression::Convert { .. }
            | Expression::Bitcast { .. }
            | Expression::ArrayLength(_) => {
                self.other_expression(out, context, handle, expression)?
            }
        }
        Ok(())
    }

    /// What selects element `index` of a value of type `base_ty`: `.member`, `.x` or `[n]`.
    fn member_selector(
        &self,
        base_ty: Handle<Type>,
        index: u32,
        span: Option<oneshader_ir::Span>,
    ) -> Res<Selector<'_>> {
        let inner = layout::inner(self.module, base_ty).map_err(|why| unsupported(span, why))?;
        Ok(match inner {
            TypeInner::Struct { .. } => {
                let name = self
                    .member_names
                    .try_get(base_ty)
                    .and_then(|names| names.get(index as usize))
                    .ok_or_else(|| unsupported(span, format!("struct member {index} unknown")))?;
                Selector::Member(name)
            }
            TypeInner::Vector { .. } => match SwizzleComponent::from_index(index) {
                Some(component) => Selector::Component(component.letter()),
                None => return Err(unsupported(span, "vector component index out of range")),
            },
            TypeInner::Pointer { base, .. } => return self.member_selector(*base, index, span),
            _ => Selector::Index(index),
        })
    }

    /// The WGSL reference (memory view) a pointer expression denotes.
    pub(crate) fn reference(
        &self,
        context: &FunctionContext,
        pointer: Handle<Expression>,
    ) -> Res<String> {
        let mut text = String::new();
        self.write_reference(&mut text, context, pointer)?;
        Ok(text)
    }

    /// Appends [`Self::reference`]'s text to `out`.
    #[inline]
    pub(crate) fn write_reference(
        &self,
        out: &mut String,
        context: &FunctionContext,
        pointer: Handle<Expression>,
    ) -> Res<()> {
        // Most references are a local or a global itself: its name, without the frame of
        // the general case.
        let name = match context.function.expressions.try_get(pointer) {
            Some(&Expression::LocalVariable(local)) => context.lists.locals.get(local.index()),
            Some(&Expression::GlobalVariable(global)) => {
                self.global_names.try_get(global).and_then(Option::as_ref)
            }
            _ => None,
        };
        match name {
            Some(name) => {
                out.push_str(name);
                Ok(())
            }
            None => self.write_any_reference(out, context, pointer),
        }
    }

    /// [`Self::write_reference`] for every pointer.
    fn write_any_reference(
        &self,
        out: &mut String,
        context: &FunctionContext,
        pointer: Handle<Expression>,
    ) -> Res<()> {
        match *self.get(context, pointer)? {
            Expression::Access { base, index } => {
                self.write_reference(out, context, base)?;
                out.push('[');
                self.write_expr(out, context, index)?;
                out.push(']');
            }
            Expression::AccessIndex { base, index } => {
                let base_ty = self.type_handle_of(context, base)?;
                let span = context.function.expressions.span(pointer);
                let selector = self.member_selector(base_ty, index, span)?;
                self.write_reference(out, context, base)?;
                selector.write(out);
            }
            ref expression => self.reference_root(out, context, pointer, expression)?,
        }
        Ok(())
    }

    /// The name of the global, local or parameter `expression` (expression `handle`)
    /// names. The location of `handle` is looked up only for an error.
    fn variable_name<'n>(
        &'n self,
        context: &'n FunctionContext,
        handle: Handle<Expression>,
        expression: &Expression,
    ) -> Res<&'n str> {
        let span = || context.function.expressions.span(handle);
        match *expression {
            Expression::GlobalVariable(global) => self
                .global_names
                .try_get(global)
                .and_then(Option::as_deref)
                .ok_or_else(|| unsupported(span(), "a global that is not declared")),
            Expression::LocalVariable(local) => context
                .lists
                .locals
                .get(local.index())
                .map(|name| &**name)
                .ok_or_else(|| unsupported(span(), "a local variable out of range")),
            Expression::FunctionArgument(index) => context
                .lists
                .arguments
                .get(index as usize)
                .map(|name| &**name)
                .ok_or_else(|| unsupported(span(), "a function argument out of range")),
            _ => Err(unsupported(
                span(),
                "a value that is not a variable or parameter",
            )),
        }
    }

    /// [`Self::write_reference`] for what is not an element of another reference: a
    /// function of its own in unoptimized builds, so that its frame is not on every level
    /// of a deep access chain; optimized builds may inline it (one call site).
    #[inline]
    fn reference_root(
        &self,
        out: &mut String,
        context: &FunctionContext,
        pointer: Handle<Expression>,
        expression: &Expression,
    ) -> Res<()> {
        let span = || context.function.expressions.span(pointer);
        match *expression {
            Expression::GlobalVariable(_) | Expression::LocalVariable(_) => {
                out.push_str(self.variable_name(context, pointer, expression)?)
            }
            Expression::FunctionArgument(_) => {
                // A pointer parameter: the reference is what it points at.
                out.push_str("(*");
                out.push_str(self.variable_name(context, pointer, expression)?);
                out.push(')');
            }
            Expression::ImageTexelPointer {
                image, coordinate, ..
            } => out.push_str(&self.texel_reference(context, image, coordinate, span())?),
            _ => {
                return Err(unsupported(
                    span(),
                    "a pointer that is not a variable, parameter or element of one",
                ))
            }
        }
        Ok(())
    }

    /// Appends a WGSL pointer value for a pointer expression to `out`: `&reference`, or
    /// the parameter's name for a pointer parameter itself.
    pub(crate) fn write_pointer(
        &self,
        out: &mut String,
        context: &FunctionContext,
        pointer: Handle<Expression>,
    ) -> Res<()> {
        let start = out.len();
        out.push('&');
        self.write_reference(out, context, pointer)?;
        let is_parameter = out
            .get(start + 1..)
            .and_then(|reference| reference.strip_prefix("(*"))
            .and_then(|rest| rest.strip_suffix(')'))
            .is_some_and(|name| name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
        if is_parameter {
            // `&(*name)` is `name`.
            out.pop();
            out.replace_range(start..start + 3, "");
        }
        Ok(())
    }

    /// Whether `pointer` points into a global declared with atomic integers.
    pub(crate) fn is_atomic_pointer(
        &self,
        context: &FunctionContext,
        pointer: Handle<Expression>,
    ) -> bool {
        if !self.uses_atomics {
            return false;
        }
        let root_is_atomic = matches!(
            pointer_root(context.function, pointer),
            Some(PointerRoot::Global(g)) if self.atomic_globals.try_get(g).copied().unwrap_or(false)
        );
        // A float or vector member of a struct in such a buffer keeps its plain type.
        root_is_atomic
            && match self.type_of(context, pointer) {
                Ok(TypeInner::Pointer { base, .. }) => self.holds_atomics(*base, 0),
                _ => true,
            }
    }

    /// Whether `ty` is declared with atomics in a buffer used atomically: an integer, or
    /// an array or struct holding one.
    fn holds_atomics(&self, ty: Handle<oneshader_ir::Type>, depth: u32) -> bool {
        match crate::layout::inner(self.module, ty) {
            Ok(TypeInner::Scalar(s)) => s.is_integer(),
            Ok(TypeInner::Array { base, .. }) if depth < 64 => self.holds_atomics(*base, depth + 1),
            Ok(TypeInner::Struct { members, .. }) if depth < 64 => {
                members.iter().any(|m| self.holds_atomics(m.ty, depth + 1))
            }
            _ => false,
        }
    }

    fn load(
        &self,
        out: &mut String,
        context: &FunctionContext,
        handle: Handle<Expression>,
        pointer: Handle<Expression>,
    ) -> Res<()> {
        if !self.is_atomic_pointer(context, pointer) {
            return self.write_reference(out, context, pointer);
        }
        out.push_str("atomicLoad(&");
        self.write_reference(out, context, pointer)?;
        match self.type_of(context, handle)? {
            TypeInner::Scalar(s) if s.is_integer() => {
                out.push(')');
                Ok(())
            }
            _ => Err(unsupported(
                context.function.expressions.span(handle),
                "loading a whole aggregate from a buffer that is also used atomically \
                 (WGSL reads atomics one integer at a time)",
            )),
        }
    }

    fn unary(
        &self,
        out: &mut String,
        context: &FunctionContext,
        handle: Handle<Expression>,
        op: UnaryOperator,
        expr: Handle<Expression>,
    ) -> Res<()> {
        // A unary operand of a unary operator needs no parentheses (`~~x`, `!!b`, `- -x`):
        // each pair would spend one of the 127 levels of nesting Tint accepts.
        let unary_operand =
            !context.is_bound(expr) && matches!(self.get(context, expr)?, Expression::Unary { .. });
        let start = out.len();
        let symbol = match op {
            UnaryOperator::Negate => '-',
            UnaryOperator::LogicalNot => '!',
            UnaryOperator::BitwiseNot => '~',
        };
        out.push(symbol);
        if unary_operand {
            self.write_expr(out, context, expr)?;
        } else {
            self.write_operand(out, context, expr)?;
        }
        if op == UnaryOperator::Negate {
            let scalar = self.type_of(context, handle)?.scalar();
            if scalar.is_some_and(|s| s.kind == ScalarKind::Uint) {
                self.unsigned_negation(out, context, handle, start)?;
            } else if out
                .get(start + 1..)
                .is_some_and(|value| value.starts_with('-'))
            {
                // Not `--`, which is the decrement token.
                out.insert(start + 1, ' ');
            }
        }
        Ok(())
    }

    /// Turns `-x`, written at `start`, into `(T() - x)`: WGSL has no unary minus on u32,
    /// and 0 - x wraps as HLSL's does. Out of line: rare, and its frame would be on every
    /// level of a unary chain.
    #[inline(never)]
    fn unsigned_negation(
        &self,
        out: &mut String,
        context: &FunctionContext,
        handle: Handle<Expression>,
        start: usize,
    ) -> Res<()> {
        let prefix = concat_text!("(", self.type_text_of(context, handle)?, "() - ");
        out.replace_range(start..start + 1, &prefix);
        out.push(')');
        Ok(())
    }

    fn binary(
        &self,
        out: &mut String,
        context: &FunctionContext,
        handle: Handle<Expression>,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Res<()> {
        use BinaryOperator as B;
        let symbol = match op {
            B::Add => " + ",
            B::Subtract => " - ",
            B::Multiply => " * ",
            B::Divide => " / ",
            B::Modulo => " % ",
            B::Equal => " == ",
            B::NotEqual => " != ",
            B::Less => " < ",
            B::LessEqual => " <= ",
            B::Greater => " > ",
            B::GreaterEqual => " >= ",
            B::BitwiseAnd => " & ",
            B::BitwiseXor => " ^ ",
            B::BitwiseOr => " | ",
            // Both sides are evaluated: `&` and `|` on bools, not `&&`/`||`.
            B::LogicalAnd => " & ",
            B::LogicalOr => " | ",
            B::ShiftLeft => " << ",
            B::ShiftRight => " >> ",
        };
        if let TypeInner::Matrix { columns, .. } = *self.type_of(context, left)? {
            if matches!(op, B::Multiply | B::Divide | B::Modulo) {
                return self.matrix_components(out, context, handle, symbol, columns, left, right);
            }
        }
        self.write_operand(out, context, left)?;
        out.push_str(symbol);
        if matches!(op, B::ShiftLeft | B::ShiftRight) {
            self.write_shift_count(out, context, right)
        } else {
            self.write_operand(out, context, right)
        }
    }

    /// `*`, `/` or `%` on matrices, per component: WGSL's `*` on matrices is the
    /// linear-algebra product.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn matrix_components(
        &self,
        out: &mut String,
        context: &FunctionContext,
        handle: Handle<Expression>,
        symbol: &str,
        columns: oneshader_ir::VectorSize,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Res<()> {
        let l = self.operand(context, left)?;
        let r = self.operand(context, right)?;
        let start = out.len();
        for c in 0..columns.count() {
            if c > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, "{l}[{c}]{symbol}{r}[{c}]");
        }
        out.push(')');
        let prefix = concat_text!(self.type_text_of(context, handle)?, "(");
        out.insert_str(start, &prefix);
        Ok(())
    }

    /// A shift count; a constant one is reduced below 32, as WGSL requires of constants
    /// (the front end already masks counts, so this changes nothing it computes).
    fn write_shift_count(
        &self,
        out: &mut String,
        context: &FunctionContext,
        count: Handle<Expression>,
    ) -> Res<()> {
        match *self.get(context, count)? {
            Expression::Literal(Literal::U32(v)) if v >= 32 => {
                oneshader_ir::text::push_decimal(out, (v & 31) as u64);
                out.push('u');
                Ok(())
            }
            Expression::Splat { value, .. } => match *self.get(context, value)? {
                Expression::Literal(Literal::U32(v)) if v >= 32 => {
                    self.write_type_of(out, context, count)?;
                    out.push('(');
                    oneshader_ir::text::push_decimal(out, (v & 31) as u64);
                    out.push_str("u)");
                    Ok(())
                }
                _ => self.write_operand(out, context, count),
            },
            _ => self.write_operand(out, context, count),
        }
    }

    fn math(
        &self,
        out: &mut String,
        context: &FunctionContext,
        handle: Handle<Expression>,
        fun: MathFunction,
        args: &[Handle<Expression>],
    ) -> Res<()> {
        use MathFunction as M;
        let arity = match fun {
            M::Clamp | M::Lerp | M::Mad | M::SmoothStep | M::Refract => 3,
            M::Min
            | M::Max
            | M::Pow
            | M::Atan2
            | M::Step
            | M::Dot
            | M::Cross
            | M::Distance
            | M::Reflect
            | M::MatrixMultiply => 2,
            _ => 1,
        };
        if args.len() != arity {
            return Err(unsupported(
                context.function.expressions.span(handle),
                format!("{fun:?} with {} operands instead of {arity}", args.len()),
            ));
        }
        let Some(name) = plain_math_function(fun) else {
            return self.other_math(out, context, handle, fun, args);
        };
        out.push_str(name);
        out.push('(');
        self.write_list(out, context, args)?;
        out.push(')');
        // The checks the other functions need, for the same errors.
        self.type_of(context, handle)?;
        if let Some(&first) = args.first() {
            self.type_of(context, first)?;
        }
        Ok(())
    }

    /// [`Self::math`] for the functions that are not one WGSL built-in: out of line, so
    /// that its large frame is not on every level of a deeply nested call.
    #[inline(never)]
    fn other_math(
        &self,
        out: &mut String,
        context: &FunctionContext,
        handle: Handle<Expression>,
        fun: MathFunction,
        args: &[Handle<Expression>],
    ) -> Res<()> {
        let values = args
            .iter()
            .map(|&a| self.expression(context, a))
            .collect::<Res<Vec<_>>>()?;
        out.push_str(&self.math_text(context, handle, fun, args, values)?);
        Ok(())
    }

    /// The text of the functions of [`Self::other_math`], once their operands are
    /// written.
    fn math_text(
        &self,
        context: &FunctionContext,
        handle: Handle<Expression>,
        fun: MathFunction,
        args: &[Handle<Expression>],
        values: Vec<String>,
    ) -> Res<String> {
        use MathFunction as M;
        let span = context.function.expressions.span(handle);
        let wrong_arity = || unsupported(span, format!("{fun:?} with {} operands", args.len()));
        let arg = |index: usize| args.get(index).copied().ok_or_else(wrong_arity);
        let call = |name: &str| concat_text!(name, "(", values.join(", "), ")");
        let result_scalar = self.type_of(context, handle)?.scalar();
        let arg_inner = self.type_of(context, arg(0)?)?.clone();
        let arg_scalar = arg_inner.scalar();
        // Converts a WGSL result whose scalar is the argument's to the IR's result type
        // (integer to integer keeps the bits: -1 becomes 0xFFFFFFFF).
        let converted = |text: String| -> Res<String> {
            if result_scalar != arg_scalar {
                Ok(concat_text!(
                    self.type_text_of(context, handle)?,
                    "(",
                    text,
                    ")"
                ))
            } else {
                Ok(text)
            }
        };
        Ok(match fun {
            M::Sign => match arg_scalar.map(|s| s.kind) {
                Some(ScalarKind::Uint) => {
                    // WGSL has no sign(u32): min(x, 1) is 0 or 1.
                    let one = self.splat_text(&arg_inner, "1u");
                    converted(concat_text!(
                        "min(",
                        values.first().ok_or_else(wrong_arity)?,
                        ", ",
                        one,
                        ")"
                    ))?
                }
                _ => converted(call("sign"))?,
            },
            M::Mad => concat_text!(
                "(",
                self.operand(context, arg(0)?)?,
                " * ",
                self.operand(context, arg(1)?)?,
                " + ",
                self.operand(context, arg(2)?)?,
                ")"
            ),
            M::MatrixMultiply => concat_text!(
                "(",
                self.operand(context, arg(0)?)?,
                " * ",
                self.operand(context, arg(1)?)?,
                ")"
            ),
            M::IsNan | M::IsInf => {
                if arg_scalar != Some(Scalar::F32) {
                    return Err(unsupported(
                        span,
                        format!("{fun:?} on a type other than 32-bit float"),
                    ));
                }
                // Exact on the bits: WGSL lets compilers assume no NaN or infinity in
                // floating-point comparisons.
                let bits_type = self.bits_type(&arg_inner);
                let mask = self.splat_text(&arg_inner, "0x7fffffffu");
                let infinity = self.splat_text(&arg_inner, "0x7f800000u");
                let comparison = if fun == M::IsNan { ">" } else { "==" };
                concat_text!(
                    "((bitcast<",
                    bits_type,
                    ">(",
                    values.first().ok_or_else(wrong_arity)?,
                    ") & ",
                    mask,
                    ") ",
                    comparison,
                    " ",
                    infinity,
                    ")"
                )
            }
            M::CountBits => converted(call("countOneBits"))?,
            M::FirstBitHigh => converted(call("firstLeadingBit"))?,
            M::FirstBitLow => converted(call("firstTrailingBit"))?,
            _ => match plain_math_function(fun) {
                Some(name) => call(name),
                None => return Err(wrong_arity()),
            },
        })
    }

    /// `u32` or `vecN<u32>` of `inner`'s shape.
    pub(crate) fn bits_type(&self, inner: &TypeInner) -> String {
        match inner {
            TypeInner::Vector { size, .. } => format!("vec{}<u32>", size.count()),
            _ => "u32".into(),
        }
    }

    /// `value`, splatted to a vector of `inner`'s size when `inner` is a vector.
    pub(crate) fn splat_text(&self, inner: &TypeInner, value: &str) -> String {
        match inner {
            TypeInner::Vector { size, .. } => format!("vec{}<u32>({value})", size.count()),
            _ => value.to_owned(),
        }
    }

    /// Appends a local variable's initializer, which WGSL evaluates at the declaration:
    /// only values that do not depend on statements are accepted.
    pub(crate) fn write_initializer(
        &self,
        out: &mut String,
        context: &FunctionContext,
        init: Handle<Expression>,
    ) -> Res<()> {
        self.check_initializer(context, init, 0)?;
        self.write_expr(out, context, init)
    }

    fn check_initializer(
        &self,
        context: &FunctionContext,
        expression: Handle<Expression>,
        depth: u32,
    ) -> Res<()> {
        let span = context.function.expressions.span(expression);
        if depth > 256 {
            return Err(unsupported(span, "an initializer nests too deep"));
        }
        let operands: &[Handle<Expression>] = match self.get(context, expression)? {
            Expression::Literal(_) | Expression::ZeroValue(_) | Expression::FunctionArgument(_) => {
                &[]
            }
            Expression::Compose { components, .. } => components,
            Expression::Splat { value, .. } => std::slice::from_ref(value),
            Expression::Swizzle { vector, .. } => std::slice::from_ref(vector),
            Expression::AccessIndex { base, .. } => std::slice::from_ref(base),
            Expression::Unary { expr, .. }
            | Expression::Convert { expr, .. }
            | Expression::Bitcast { expr, .. } => std::slice::from_ref(expr),
            Expression::Binary { left, right, .. } => {
                self.check_initializer(context, *left, depth + 1)?;
                std::slice::from_ref(right)
            }
            Expression::Select {
                condition,
                accept,
                reject,
            } => {
                self.check_initializer(context, *condition, depth + 1)?;
                self.check_initializer(context, *accept, depth + 1)?;
                std::slice::from_ref(reject)
            }
            Expression::Math { args, .. } => args,
            _ => {
                return Err(unsupported(
                    span,
                    "it reads memory or runs an operation, so it cannot be evaluated at the \
                     declaration",
                ))
            }
        };
        for &operand in operands {
            self.check_initializer(context, operand, depth + 1)?;
        }
        Ok(())
    }
}

/// The error for an array value of `count` elements built at `span`, more than
/// [`MAX_CONSTRUCTOR_ELEMENTS`].
#[cold]
fn constructor_too_long(
    span: Option<oneshader_ir::Span>,
    count: usize,
) -> oneshader_ir::Diagnostic {
    unsupported(
        span,
        format!(
            "an array value of {count} elements; WebGPU's compilers (Tint) take at most \
             {MAX_CONSTRUCTOR_ELEMENTS} in one array constructor: initialize a smaller array, \
             or fill the array in a loop or from a buffer"
        ),
    )
}
