//! Built-in functions, the bit functions among them, as MSL calls.

use oneshader_ir::{Diagnostic, Expression, Handle, MathFunction, ScalarKind, Type, TypeInner};

use crate::function::FunctionWriter;
use crate::polyfill::Polyfill;
use crate::writer::unsupported;

type Written = Result<(), Diagnostic>;

fn arity(fun: MathFunction) -> usize {
    use MathFunction::*;
    match fun {
        Min | Max | Pow | Atan2 | Step | Dot | Cross | Distance | Reflect | MatrixMultiply => 2,
        Clamp | Lerp | Mad | SmoothStep | Refract => 3,
        _ => 1,
    }
}

/// How a built-in function is written.
enum Form {
    /// `(a * b + c)`, operands parenthesized as an operator's.
    Mad,
    /// `(a * b)`.
    MatrixMultiply,
    /// `(T(a).x * T(b).x + …)`: an integer dot product, `count` components of type `ty`.
    IntegerDot { ty: Handle<Type>, count: u32 },
    /// `name(args…)`, converted to `to` (`T(name(args…))`) when that is given.
    Call {
        name: &'static str,
        to: Option<Handle<Type>>,
    },
    /// The one argument as it is (`any`/`all` of a scalar).
    Argument,
}

/// Writes `fun` (expression `h`) applied to `args`.
///
/// How it is written is decided first, in the large frame of [`form`] (unoptimised);
/// the operands are written in this small frame, through which nested calls recurse.
/// When the decision is an error, the operands are still written first, so that their
/// own errors come first (as when the operands were written before deciding).
pub fn write(
    fw: &mut FunctionWriter,
    h: Handle<Expression>,
    fun: MathFunction,
    args: &[Handle<Expression>],
) -> Written {
    let form = match form(fw, h, fun, args) {
        Ok(form) => form,
        Err(error) => {
            for &arg in args {
                fw.expr(arg)?;
            }
            return Err(error);
        }
    };
    match form {
        Form::Mad | Form::MatrixMultiply => {
            // Parenthesized: the text may be the operand of a swizzle or another operator.
            fw.out.push('(');
            for (index, &arg) in args.iter().enumerate() {
                fw.out.push_str(match index {
                    0 => "",
                    1 => " * ",
                    _ => " + ",
                });
                fw.operand(arg)?;
            }
            fw.out.push(')');
        }
        Form::IntegerDot { ty, count } => {
            // As vectors, so that a swizzle operand can be indexed; each is written once
            // and copied into the other terms.
            let [a, b] = args else {
                return Err(unsupported(
                    fw.function.expressions.span(h),
                    "a dot product of other than two operands",
                ));
            };
            fw.out.push('(');
            let a = write_vector(fw, h, ty, *a)?;
            fw.out.push_str(".x * ");
            let b = write_vector(fw, h, ty, *b)?;
            fw.out.push_str(".x");
            // Copied out for the other terms (rare: integer dot products only).
            let a = fw.out.get(a).unwrap_or_default().to_owned();
            let b = fw.out.get(b).unwrap_or_default().to_owned();
            for letter in ["y", "z", "w"]
                .iter()
                .take(count.saturating_sub(1) as usize)
            {
                for piece in [" + ", &a, ".", letter, " * ", &b, ".", letter] {
                    fw.out.push_str(piece);
                }
            }
            fw.out.push(')');
        }
        Form::Call { name, to } => {
            if let Some(to) = to {
                write_type_name(fw, h, to)?;
                fw.out.push('(');
            }
            fw.out.push_str(name);
            fw.out.push('(');
            for (index, &arg) in args.iter().enumerate() {
                if index > 0 {
                    fw.out.push_str(", ");
                }
                fw.expr(arg)?;
            }
            fw.out.push(')');
            if to.is_some() {
                fw.out.push(')');
            }
        }
        Form::Argument => {
            if let Some(&arg) = args.first() {
                fw.expr(arg)?;
            }
        }
    }
    Ok(())
}

/// Writes `T(arg)`, `arg` as a vector of type `ty`, and returns where it is in the output.
fn write_vector(
    fw: &mut FunctionWriter,
    h: Handle<Expression>,
    ty: Handle<Type>,
    arg: Handle<Expression>,
) -> Result<std::ops::Range<usize>, Diagnostic> {
    let start = fw.out.len();
    write_type_name(fw, h, ty)?;
    fw.out.push('(');
    fw.expr(arg)?;
    fw.out.push(')');
    Ok(start..fw.out.len())
}

/// Writes the MSL name of type `ty` (of expression `h`).
fn write_type_name(fw: &mut FunctionWriter, h: Handle<Expression>, ty: Handle<Type>) -> Written {
    let name =
        fw.w.types
            .name(ty)
            .map_err(|what| unsupported(fw.function.expressions.span(h), what))?;
    fw.out.push_str(name);
    Ok(())
}

/// How `fun` (expression `h`) applied to `args` is written, and the helper functions it
/// needs.
#[inline(never)]
fn form(
    fw: &mut FunctionWriter,
    h: Handle<Expression>,
    fun: MathFunction,
    args: &[Handle<Expression>],
) -> Result<Form, Diagnostic> {
    use MathFunction::*;
    let span = fw.function.expressions.span(h);
    let wrong_arity = || unsupported(span, format!("{fun:?} with {} operands", args.len()));
    if args.len() != arity(fun) {
        return Err(wrong_arity());
    }
    let first_arg = args.first().copied().ok_or_else(wrong_arity)?;
    let first = fw.inner_of(first_arg)?;
    let first_scalar = first.scalar();
    let kind = first_scalar.map(|s| s.kind);
    let is_float = kind == Some(ScalarKind::Float);
    let argument_ty = fw.type_of(first_arg)?;
    let argument_type = fw.w.types.name(argument_ty).unwrap_or_default().to_owned();
    let result_ty = fw.type_of(h)?;
    let result_type =
        fw.w.types
            .name(result_ty)
            .map_err(|what| unsupported(span, what))?;
    // The call's MSL type is the argument's; convert where the IR result differs (HLSL's
    // countbits and sign give uint/int for any input).
    let to = (result_type != argument_type).then_some(result_ty);
    let converted = |name: &'static str| Form::Call { name, to };
    let call = |name: &'static str| Form::Call { name, to: None };
    let float_only = |name: &'static str| {
        if is_float {
            Ok(call(name))
        } else {
            Err(unsupported(span, format!("{fun:?} on integers")))
        }
    };

    Ok(match fun {
        Mad => Form::Mad,
        MatrixMultiply => Form::MatrixMultiply,
        // Metal's dot takes floats: an integer dot is the sum of the products.
        Dot if !is_float => Form::IntegerDot {
            ty: argument_ty,
            count: match first {
                TypeInner::Vector { size, .. } => size.count(),
                _ => 1,
            },
        },
        Abs => converted("abs"),
        Min => call("min"),
        Max => call("max"),
        Clamp => call("clamp"),
        Saturate => float_only("saturate")?,
        Floor => float_only("floor")?,
        Ceil => float_only("ceil")?,
        // Round half to even, as DXC does; Metal's round() rounds half away from zero.
        Round => float_only("rint")?,
        Trunc => float_only("trunc")?,
        Frac => float_only("fract")?,
        Sqrt => float_only("sqrt")?,
        Rsqrt => float_only("rsqrt")?,
        Exp => float_only("exp")?,
        Exp2 => float_only("exp2")?,
        Log => float_only("log")?,
        Log2 => float_only("log2")?,
        Pow => float_only("pow")?,
        Sin => float_only("sin")?,
        Cos => float_only("cos")?,
        Tan => float_only("tan")?,
        Asin => float_only("asin")?,
        Acos => float_only("acos")?,
        Atan => float_only("atan")?,
        Atan2 => float_only("atan2")?,
        Sinh => float_only("sinh")?,
        Cosh => float_only("cosh")?,
        Tanh => float_only("tanh")?,
        Lerp => float_only("mix")?,
        Step => float_only("step")?,
        SmoothStep => float_only("smoothstep")?,
        Sign if is_float => converted("sign"),
        Sign => {
            fw.w.polyfills
                .insert(Polyfill::IntegerSign { ty: argument_type });
            converted("_sign")
        }
        Dot => float_only("dot")?,
        Cross => float_only("cross")?,
        Length => float_only("length")?,
        Normalize => float_only("normalize")?,
        Distance => float_only("distance")?,
        Reflect => float_only("reflect")?,
        Refract => float_only("refract")?,
        Transpose => float_only("transpose")?,
        Determinant => float_only("determinant")?,
        Any | All => match first {
            TypeInner::Vector { .. } => call(if fun == Any { "any" } else { "all" }),
            _ => Form::Argument,
        },
        IsNan => float_only("isnan")?,
        IsInf => float_only("isinf")?,
        CountBits | ReverseBits | FirstBitHigh | FirstBitLow => {
            if !matches!(kind, Some(ScalarKind::Sint | ScalarKind::Uint)) {
                return Err(unsupported(span, format!("{fun:?} on a non-integer")));
            }
            match fun {
                CountBits => converted("popcount"),
                ReverseBits => converted("reverse_bits"),
                FirstBitHigh => {
                    fw.w.polyfills.insert(Polyfill::FirstBitHigh {
                        ty: argument_type,
                        signed: kind == Some(ScalarKind::Sint),
                    });
                    converted("_firstbithigh")
                }
                _ => {
                    fw.w.polyfills
                        .insert(Polyfill::FirstBitLow { ty: argument_type });
                    converted("_firstbitlow")
                }
            }
        }
    })
}
