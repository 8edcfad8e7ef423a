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

use crate::layout;
use crate::writer::{unsupported, FunctionContext, Res, Writer};

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

/// The WGSL text of a literal.
pub(crate) fn literal(value: Literal) -> Result<String, String> {
    Ok(match value {
        Literal::Bool(b) => b.to_string(),
        Literal::I32(i32::MIN) => "i32(-2147483648)".into(),
        Literal::I32(v) => format!("{v}i"),
        Literal::U32(v) => format!("{v}u"),
        Literal::F32(v) => {
            if v.is_finite() && (v == 0.0 || v.abs() >= f32::MIN_POSITIVE) {
                format!("{v:?}f")
            } else {
                // Infinities, NaNs and subnormals: exact by their bits.
                format!("bitcast<f32>({:#x}u)", v.to_bits())
            }
        }
        Literal::F64(_) | Literal::I64(_) | Literal::U64(_) => {
            return Err("64-bit literals (WGSL has no 64-bit types)".into())
        }
    })
}

impl Writer<'_> {
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
    ) -> Res<String> {
        let ty = self.type_handle_of(context, expression)?;
        self.type_at(ty, false, context.function.expressions.span(expression))
    }

    fn get<'f>(
        &self,
        context: &FunctionContext<'f>,
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
        let text = self.expression(context, expression)?;
        let infix = !context.bound.contains_key(&expression)
            && matches!(
                self.get(context, expression)?,
                Expression::Binary { .. } | Expression::Unary { .. }
            );
        Ok(if infix || text.starts_with('-') {
            concat_text!("(", text, ")")
        } else {
            text
        })
    }

    /// The WGSL text of the value of `expression` (for a pointer, `&reference`).
    pub(crate) fn expression(
        &self,
        context: &FunctionContext,
        handle: Handle<Expression>,
    ) -> Res<String> {
        if let Some(name) = context.bound.get(&handle) {
            return Ok(name.clone());
        }
        let span = context.function.expressions.span(handle);
        let expression = self.get(context, handle)?;
        let inner = self.type_of(context, handle)?;
        if matches!(inner, TypeInner::Pointer { .. }) {
            return self.pointer(context, handle);
        }
        // The operators that nest deepest go straight to their writers, so that the
        // large frame of `other_expression` is not on every level of a deep tree.
        match *expression {
            Expression::Math { fun, ref args } => self.math(context, handle, fun, args),
            Expression::Unary { op, expr } => self.unary(context, handle, op, expr),
            Expression::Binary { op, left, right } => self.binary(context, handle, op, left, right),
            Expression::Select {
                condition,
                accept,
                reject,
            } => self.select(context, condition, accept, reject),
            _ => self.other_expression(context, handle, expression, span),
        }
    }

    /// `select(reject, accept, condition)`.
    fn select(
        &self,
        context: &FunctionContext,
        condition: Handle<Expression>,
        accept: Handle<Expression>,
        reject: Handle<Expression>,
    ) -> Res<String> {
        let reject = self.expression(context, reject)?;
        let accept = self.expression(context, accept)?;
        let condition = self.expression(context, condition)?;
        Ok(concat_text!(
            "select(", reject, ", ", accept, ", ", condition, ")"
        ))
    }

    /// [`Self::expression`] for every kind but the operators.
    #[inline(never)]
    fn other_expression(
        &self,
        context: &FunctionContext,
        handle: Handle<Expression>,
        expression: &Expression,
        span: Option<oneshader_ir::Span>,
    ) -> Res<String> {
        Ok(match expression {
            Expression::Literal(value) => literal(*value)
                .map_err(|why| unsupported(span, concat_text!("WGSL cannot express ", why)))?,
            Expression::ZeroValue(ty) => concat_text!(self.type_at(*ty, false, span)?, "()"),
            Expression::Compose { ty, components } => {
                let parts = components
                    .iter()
                    .map(|&c| self.expression(context, c))
                    .collect::<Res<Vec<_>>>()?;
                concat_text!(self.type_at(*ty, false, span)?, "(", parts.join(", "), ")")
            }
            Expression::Splat { value, .. } => concat_text!(
                self.type_text_of(context, handle)?,
                "(",
                self.expression(context, *value)?,
                ")"
            ),
            Expression::Swizzle {
                size,
                vector,
                pattern,
            } => {
                let letters: String = pattern
                    .iter()
                    .take(size.count() as usize)
                    .map(|c| c.letter())
                    .collect();
                concat_text!(self.operand(context, *vector)?, ".", letters)
            }
            Expression::Access { base, index } => concat_text!(
                self.operand(context, *base)?,
                "[",
                self.expression(context, *index)?,
                "]"
            ),
            Expression::AccessIndex { base, index } => {
                let base_ty = self.type_handle_of(context, *base)?;
                let selector = self.member_selector(base_ty, *index, span)?;
                concat_text!(self.operand(context, *base)?, selector)
            }
            Expression::GlobalVariable(global) => self
                .global_names
                .try_get(*global)
                .cloned()
                .flatten()
                .ok_or_else(|| unsupported(span, "a global that is not declared"))?,
            Expression::LocalVariable(local) => context
                .local_names
                .try_get(*local)
                .cloned()
                .ok_or_else(|| unsupported(span, "a local variable out of range"))?,
            Expression::FunctionArgument(index) => context
                .arg_names
                .get(*index as usize)
                .cloned()
                .ok_or_else(|| unsupported(span, "a function argument out of range"))?,
            Expression::Load { pointer } => self.load(context, handle, *pointer)?,
            Expression::Unary { op, expr } => self.unary(context, handle, *op, *expr)?,
            Expression::Binary { op, left, right } => {
                self.binary(context, handle, *op, *left, *right)?
            }
            Expression::Select {
                condition,
                accept,
                reject,
            } => self.select(context, *condition, *accept, *reject)?,
            Expression::Math { fun, args } => self.math(context, handle, *fun, args)?,
            Expression::Convert { expr, .. } => {
                let from = self.type_handle_of(context, *expr)?;
                let to = self.type_handle_of(context, handle)?;
                let value = self.expression(context, *expr)?;
                if from == to {
                    value
                } else {
                    concat_text!(self.type_text_of(context, handle)?, "(", value, ")")
                }
            }
            Expression::Bitcast { expr, .. } => {
                let from = self.type_handle_of(context, *expr)?;
                let to = self.type_handle_of(context, handle)?;
                let value = self.expression(context, *expr)?;
                if from == to {
                    value
                } else {
                    concat_text!(
                        "bitcast<",
                        self.type_text_of(context, handle)?,
                        ">(",
                        value,
                        ")"
                    )
                }
            }
            Expression::Wave { op, args } => self.wave(context, handle, *op, args)?,
            Expression::CallResult(_) | Expression::AtomicResult => {
                return Err(unsupported(
                    span,
                    "a call or atomic result used before its statement",
                ))
            }
            Expression::ArrayLength(pointer) => {
                concat_text!("arrayLength(", self.pointer(context, *pointer)?, ")")
            }
            Expression::ImageSample { .. } => self.image_sample(context, handle)?,
            Expression::ImageLevelOfDetail { clamped, .. } => {
                let name = if *clamped {
                    "CalculateLevelOfDetail"
                } else {
                    "CalculateLevelOfDetailUnclamped"
                };
                return Err(unsupported(
                    span,
                    concat_text!("The intrinsic '", name, "' is not supported in WGSL: WGSL has no level-of-detail query. Compute the level from the coordinate's derivatives (dpdx/dpdy, i.e. ddx/ddy) scaled by textureDimensions, and sample with SampleLevel; or compile this shader for SPIR-V and MSL only (--target spirv,msl)."),
                ));
            }
            Expression::ImageLoad { .. } => self.image_load(context, handle)?,
            Expression::ImageTexelPointer { .. } => {
                return Err(unsupported(
                    span,
                    "a texel pointer used as a value (only atomics take one)",
                ))
            }
            Expression::ImageQuery { image, query } => self.image_query(context, *image, *query)?,
            Expression::Derivative {
                axis,
                control,
                expr,
            } => self.derivative(context, span, *axis, *control, *expr)?,
        })
    }

    /// `.member`, `.x` or `[n]` selecting element `index` of a value of type `base_ty`.
    fn member_selector(
        &self,
        base_ty: Handle<Type>,
        index: u32,
        span: Option<oneshader_ir::Span>,
    ) -> Res<String> {
        let inner = layout::inner(self.module, base_ty).map_err(|why| unsupported(span, why))?;
        Ok(match inner {
            TypeInner::Struct { .. } => {
                let name = self
                    .member_names
                    .get(&base_ty)
                    .and_then(|names| names.get(index as usize))
                    .ok_or_else(|| unsupported(span, format!("struct member {index} unknown")))?;
                concat_text!(".", name)
            }
            TypeInner::Vector { .. } => match SwizzleComponent::from_index(index) {
                Some(component) => format!(".{}", component.letter()),
                None => return Err(unsupported(span, "vector component index out of range")),
            },
            TypeInner::Pointer { base, .. } => return self.member_selector(*base, index, span),
            _ => format!("[{index}]"),
        })
    }

    /// The WGSL reference (memory view) a pointer expression denotes.
    pub(crate) fn reference(
        &self,
        context: &FunctionContext,
        pointer: Handle<Expression>,
    ) -> Res<String> {
        let span = context.function.expressions.span(pointer);
        Ok(match self.get(context, pointer)? {
            Expression::GlobalVariable(global) => self
                .global_names
                .try_get(*global)
                .cloned()
                .flatten()
                .ok_or_else(|| unsupported(span, "a global that is not declared"))?,
            Expression::LocalVariable(local) => context
                .local_names
                .try_get(*local)
                .cloned()
                .ok_or_else(|| unsupported(span, "a local variable out of range"))?,
            Expression::FunctionArgument(index) => format!(
                "(*{})",
                context
                    .arg_names
                    .get(*index as usize)
                    .ok_or_else(|| unsupported(span, "a function argument out of range"))?
            ),
            Expression::Access { base, index } => concat_text!(
                self.reference(context, *base)?,
                "[",
                self.expression(context, *index)?,
                "]"
            ),
            Expression::AccessIndex { base, index } => {
                let base_ty = self.type_handle_of(context, *base)?;
                let selector = self.member_selector(base_ty, *index, span)?;
                concat_text!(self.reference(context, *base)?, selector)
            }
            Expression::ImageTexelPointer {
                image, coordinate, ..
            } => self.texel_reference(context, *image, *coordinate, span)?,
            _ => {
                return Err(unsupported(
                    span,
                    "a pointer that is not a variable, parameter or element of one",
                ))
            }
        })
    }

    /// A WGSL pointer value for a pointer expression: `&reference`.
    pub(crate) fn pointer(
        &self,
        context: &FunctionContext,
        pointer: Handle<Expression>,
    ) -> Res<String> {
        let reference = self.reference(context, pointer)?;
        if let Some(name) = reference
            .strip_prefix("(*")
            .and_then(|rest| rest.strip_suffix(')'))
            .filter(|name| name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        {
            return Ok(name.to_owned());
        }
        Ok(concat_text!("&", reference))
    }

    /// Whether `pointer` points into a global declared with atomic integers.
    pub(crate) fn is_atomic_pointer(
        &self,
        context: &FunctionContext,
        pointer: Handle<Expression>,
    ) -> bool {
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
        context: &FunctionContext,
        handle: Handle<Expression>,
        pointer: Handle<Expression>,
    ) -> Res<String> {
        let reference = self.reference(context, pointer)?;
        if !self.is_atomic_pointer(context, pointer) {
            return Ok(reference);
        }
        match self.type_of(context, handle)? {
            TypeInner::Scalar(s) if s.is_integer() => {
                Ok(concat_text!("atomicLoad(&", reference, ")"))
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
        context: &FunctionContext,
        handle: Handle<Expression>,
        op: UnaryOperator,
        expr: Handle<Expression>,
    ) -> Res<String> {
        // A unary operand of a unary operator needs no parentheses (`~~x`, `!!b`, `- -x`):
        // each pair would spend one of the 127 levels of nesting Tint accepts.
        let unary_operand = !context.bound.contains_key(&expr)
            && matches!(self.get(context, expr)?, Expression::Unary { .. });
        let value = if unary_operand {
            self.expression(context, expr)?
        } else {
            self.operand(context, expr)?
        };
        Ok(match op {
            UnaryOperator::Negate => {
                let scalar = self.type_of(context, handle)?.scalar();
                if scalar.is_some_and(|s| s.kind == ScalarKind::Uint) {
                    // WGSL has no unary minus on u32; 0 - x wraps as HLSL does.
                    concat_text!(
                        "(",
                        self.type_text_of(context, handle)?,
                        "() - ",
                        value,
                        ")"
                    )
                } else if value.starts_with('-') {
                    // Not `--`, which is the decrement token.
                    concat_text!("- ", value)
                } else {
                    concat_text!("-", value)
                }
            }
            UnaryOperator::LogicalNot => concat_text!("!", value),
            UnaryOperator::BitwiseNot => concat_text!("~", value),
        })
    }

    fn binary(
        &self,
        context: &FunctionContext,
        handle: Handle<Expression>,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Res<String> {
        use BinaryOperator as B;
        let symbol = match op {
            B::Add => "+",
            B::Subtract => "-",
            B::Multiply => "*",
            B::Divide => "/",
            B::Modulo => "%",
            B::Equal => "==",
            B::NotEqual => "!=",
            B::Less => "<",
            B::LessEqual => "<=",
            B::Greater => ">",
            B::GreaterEqual => ">=",
            B::BitwiseAnd => "&",
            B::BitwiseXor => "^",
            B::BitwiseOr => "|",
            // Both sides are evaluated: `&` and `|` on bools, not `&&`/`||`.
            B::LogicalAnd => "&",
            B::LogicalOr => "|",
            B::ShiftLeft => "<<",
            B::ShiftRight => ">>",
        };
        if let TypeInner::Matrix { columns, .. } = *self.type_of(context, left)? {
            if matches!(op, B::Multiply | B::Divide | B::Modulo) {
                // Per component: WGSL's `*` on matrices is the linear-algebra product.
                let l = self.operand(context, left)?;
                let r = self.operand(context, right)?;
                let columns: Vec<String> = (0..columns.count())
                    .map(|c| format!("{l}[{c}] {symbol} {r}[{c}]"))
                    .collect();
                return Ok(concat_text!(
                    self.type_text_of(context, handle)?,
                    "(",
                    columns.join(", "),
                    ")"
                ));
            }
        }
        let l = self.operand(context, left)?;
        let r = if matches!(op, B::ShiftLeft | B::ShiftRight) {
            self.shift_count(context, right)?
        } else {
            self.operand(context, right)?
        };
        Ok(concat_text!(l, " ", symbol, " ", r))
    }

    /// A shift count; a constant one is reduced below 32, as WGSL requires of constants
    /// (the front end already masks counts, so this changes nothing it computes).
    fn shift_count(&self, context: &FunctionContext, count: Handle<Expression>) -> Res<String> {
        match self.get(context, count)? {
            Expression::Literal(Literal::U32(v)) if *v >= 32 => Ok(format!("{}u", v & 31)),
            Expression::Splat { value, .. }
                if matches!(
                    self.get(context, *value)?,
                    Expression::Literal(Literal::U32(v)) if *v >= 32
                ) =>
            {
                let Expression::Literal(Literal::U32(v)) = self.get(context, *value)? else {
                    return self.operand(context, count);
                };
                Ok(format!(
                    "{}({}u)",
                    self.type_text_of(context, count)?,
                    v & 31
                ))
            }
            _ => self.operand(context, count),
        }
    }

    fn math(
        &self,
        context: &FunctionContext,
        handle: Handle<Expression>,
        fun: MathFunction,
        args: &[Handle<Expression>],
    ) -> Res<String> {
        use MathFunction as M;
        let span = context.function.expressions.span(handle);
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
        let wrong_arity = || {
            unsupported(
                span,
                format!("{fun:?} with {} operands instead of {arity}", args.len()),
            )
        };
        if args.len() != arity {
            return Err(wrong_arity());
        }
        let values = args
            .iter()
            .map(|&a| self.expression(context, a))
            .collect::<Res<Vec<_>>>()?;
        self.math_text(context, handle, fun, args, values)
    }

    /// [`Self::math`] once its operands are written: out of line, so that its large frame is
    /// not on every level of a deeply nested call.
    #[inline(never)]
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
            M::Abs => call("abs"),
            M::Min => call("min"),
            M::Max => call("max"),
            M::Clamp => call("clamp"),
            M::Saturate => call("saturate"),
            M::Floor => call("floor"),
            M::Ceil => call("ceil"),
            M::Round => call("round"),
            M::Trunc => call("trunc"),
            M::Frac => call("fract"),
            M::Sqrt => call("sqrt"),
            M::Rsqrt => call("inverseSqrt"),
            M::Exp => call("exp"),
            M::Exp2 => call("exp2"),
            M::Log => call("log"),
            M::Log2 => call("log2"),
            M::Pow => call("pow"),
            M::Sin => call("sin"),
            M::Cos => call("cos"),
            M::Tan => call("tan"),
            M::Asin => call("asin"),
            M::Acos => call("acos"),
            M::Atan => call("atan"),
            M::Atan2 => call("atan2"),
            M::Sinh => call("sinh"),
            M::Cosh => call("cosh"),
            M::Tanh => call("tanh"),
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
            M::Lerp => call("mix"),
            M::Mad => concat_text!(
                "(",
                self.operand(context, arg(0)?)?,
                " * ",
                self.operand(context, arg(1)?)?,
                " + ",
                self.operand(context, arg(2)?)?,
                ")"
            ),
            M::Step => call("step"),
            M::SmoothStep => call("smoothstep"),
            M::Dot => call("dot"),
            M::Cross => call("cross"),
            M::Length => call("length"),
            M::Normalize => call("normalize"),
            M::Distance => call("distance"),
            M::Reflect => call("reflect"),
            M::Refract => call("refract"),
            M::Transpose => call("transpose"),
            M::Determinant => call("determinant"),
            M::MatrixMultiply => concat_text!(
                "(",
                self.operand(context, arg(0)?)?,
                " * ",
                self.operand(context, arg(1)?)?,
                ")"
            ),
            M::Any => call("any"),
            M::All => call("all"),
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
            M::ReverseBits => call("reverseBits"),
            M::FirstBitHigh => converted(call("firstLeadingBit"))?,
            M::FirstBitLow => converted(call("firstTrailingBit"))?,
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

    /// A local variable's initializer, which WGSL evaluates at the declaration: only
    /// values that do not depend on statements are accepted.
    pub(crate) fn initializer(
        &self,
        context: &FunctionContext,
        init: Handle<Expression>,
    ) -> Res<String> {
        self.check_initializer(context, init, 0)?;
        self.expression(context, init)
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
        let operands: Vec<Handle<Expression>> = match self.get(context, expression)? {
            Expression::Literal(_) | Expression::ZeroValue(_) | Expression::FunctionArgument(_) => {
                vec![]
            }
            Expression::Compose { components, .. } => components.clone(),
            Expression::Splat { value, .. } => vec![*value],
            Expression::Swizzle { vector, .. } => vec![*vector],
            Expression::AccessIndex { base, .. } => vec![*base],
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
            _ => {
                return Err(unsupported(
                    span,
                    "it reads memory or runs an operation, so it cannot be evaluated at the \
                     declaration",
                ))
            }
        };
        for operand in operands {
            self.check_initializer(context, operand, depth + 1)?;
        }
        Ok(())
    }
}
