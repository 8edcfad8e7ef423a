//! Built-in functions, the bit functions among them, as MSL calls.

use oneshader_ir::concat_text;
use oneshader_ir::{Expression, Handle, MathFunction, ScalarKind, TypeInner};

use crate::function::FunctionWriter;
use crate::polyfill::Polyfill;
use crate::writer::unsupported;

type Written = Result<String, oneshader_ir::Diagnostic>;

fn arity(fun: MathFunction) -> usize {
    use MathFunction::*;
    match fun {
        Min | Max | Pow | Atan2 | Step | Dot | Cross | Distance | Reflect | MatrixMultiply => 2,
        Clamp | Lerp | Mad | SmoothStep | Refract => 3,
        _ => 1,
    }
}

/// The MSL text of `fun` (expression `h`) applied to `args`.
///
/// The operands are written first, in this small frame: nested calls recurse through
/// here, and the large frame of [`write_of_texts`] (unoptimised) is only on the stack once
/// they are done.
pub fn write(
    fw: &mut FunctionWriter,
    h: Handle<Expression>,
    fun: MathFunction,
    args: &[Handle<Expression>],
) -> Written {
    let mut texts = Vec::with_capacity(args.len());
    for &arg in args {
        texts.push(fw.expr(arg)?);
    }
    write_of_texts(fw, h, fun, args, &texts)
}

/// `fun` applied to `args`, whose MSL texts are `texts`.
#[inline(never)]
fn write_of_texts(
    fw: &mut FunctionWriter,
    h: Handle<Expression>,
    fun: MathFunction,
    args: &[Handle<Expression>],
    texts: &[String],
) -> Written {
    use MathFunction::*;
    let span = fw.function.expressions.span(h);
    let wrong_arity = || unsupported(span, format!("{fun:?} with {} operands", args.len()));
    let arg = |index: usize| args.get(index).copied().ok_or_else(wrong_arity);
    let text = |index: usize| texts.get(index).cloned().ok_or_else(wrong_arity);
    // `args[index]` as an operand of an operator.
    let operand =
        |fw: &FunctionWriter, index: usize| Ok(fw.parenthesized(arg(index)?, text(index)?));
    if args.len() != arity(fun) {
        return Err(wrong_arity());
    }
    let first = fw.inner_of(arg(0)?)?;
    let first_scalar = first.scalar();
    let kind = first_scalar.map(|s| s.kind);
    let is_float = kind == Some(ScalarKind::Float);
    let argument_type = {
        let ty = fw.type_of(arg(0)?)?;
        fw.w.types.name(ty).unwrap_or_default()
    };
    let result_type = fw.type_name_of(h)?;
    // The call's MSL type is the argument's; convert where the IR result differs (HLSL's
    // countbits and sign give uint/int for any input).
    let converted = |text: String| {
        if result_type == argument_type {
            text
        } else {
            concat_text!(result_type, "(", text, ")")
        }
    };

    if fun == Mad {
        let a = operand(fw, 0)?;
        let b = operand(fw, 1)?;
        let c = operand(fw, 2)?;
        // Parenthesized: the text may be the operand of a swizzle or another operator.
        return Ok(concat_text!("(", a, " * ", b, " + ", c, ")"));
    }
    if fun == MatrixMultiply {
        let a = operand(fw, 0)?;
        let b = operand(fw, 1)?;
        return Ok(concat_text!("(", a, " * ", b, ")"));
    }
    if fun == Dot && !is_float {
        // Metal's dot takes floats: an integer dot is the sum of the products.
        let count = match first {
            TypeInner::Vector { size, .. } => size.count(),
            _ => 1,
        };
        // As vectors, so that a swizzle operand can be indexed.
        let a = concat_text!(argument_type, "(", text(0)?, ")");
        let b = concat_text!(argument_type, "(", text(1)?, ")");
        let terms: Vec<String> = ['x', 'y', 'z', 'w']
            .iter()
            .take(count as usize)
            .map(|c| format!("{a}.{c} * {b}.{c}"))
            .collect();
        return Ok(concat_text!("(", terms.join(" + "), ")"));
    }
    let call = |name: &str| concat_text!(name, "(", texts.join(", "), ")");
    let float_only = |name: &str| {
        if is_float {
            Ok(call(name))
        } else {
            Err(unsupported(span, format!("{fun:?} on integers")))
        }
    };
    Ok(match fun {
        Abs => converted(call("abs")),
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
        Sign if is_float => converted(call("sign")),
        Sign => {
            fw.w.polyfills.insert(Polyfill::IntegerSign {
                ty: argument_type.clone(),
            });
            converted(call("_sign"))
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
            _ => texts.first().cloned().ok_or_else(wrong_arity)?,
        },
        IsNan => float_only("isnan")?,
        IsInf => float_only("isinf")?,
        CountBits | ReverseBits | FirstBitHigh | FirstBitLow => {
            if !matches!(kind, Some(ScalarKind::Sint | ScalarKind::Uint)) {
                return Err(unsupported(span, format!("{fun:?} on a non-integer")));
            }
            match fun {
                CountBits => converted(call("popcount")),
                ReverseBits => converted(call("reverse_bits")),
                FirstBitHigh => {
                    fw.w.polyfills.insert(Polyfill::FirstBitHigh {
                        ty: argument_type.clone(),
                        signed: kind == Some(ScalarKind::Sint),
                    });
                    converted(call("_firstbithigh"))
                }
                _ => {
                    fw.w.polyfills.insert(Polyfill::FirstBitLow {
                        ty: argument_type.clone(),
                    });
                    converted(call("_firstbitlow"))
                }
            }
        }
        // Written above, before the operands were needed unparenthesized.
        Mad | MatrixMultiply => return Err(unsupported(span, format!("{fun:?} here"))),
    })
}
