//! Wave (SIMD-group) and quad operations as Metal `simd_*`/`quad_*` functions.
//!
//! Every one runs over the active lanes only, as HLSL's do. Metal's SIMD-group
//! functions don't take `bool` for arithmetic, and a `bool` passed through a shuffle or
//! broadcast is carried as `uint` and converted back.

use oneshader_ir::concat_text;
use oneshader_ir::{Diagnostic, Expression, Handle, ScalarKind, ShaderStage, TypeInner, WaveOp};

use crate::function::FunctionWriter;
use crate::layout::scalar_name;
use crate::polyfill::Polyfill;
use crate::writer::{unsupported, wave_stage_error, LANE_COUNT, LANE_INDEX};
use oneshader_ir::text::push_decimal;

type Written = Result<(), Diagnostic>;

/// The shape of a wave operation's value operand.
struct Operand {
    h: Handle<Expression>,
    kind: ScalarKind,
    width: u8,
    components: u32,
}

impl Operand {
    /// Writes the MSL type of the operand with its scalar replaced by `scalar`.
    fn write_type_with(&self, out: &mut String, scalar: &str) {
        out.push_str(scalar);
        if self.components != 1 {
            push_decimal(out, u64::from(self.components));
        }
    }
}

/// The shape of operand `h` of `op` (written afterwards, by the caller).
fn operand(fw: &FunctionWriter, op: WaveOp, h: Handle<Expression>) -> Result<Operand, Diagnostic> {
    let span = fw.function.expressions.span(h);
    let (scalar, components) = match *fw.inner_of(h)? {
        TypeInner::Scalar(scalar) => (scalar, 1),
        TypeInner::Vector { size, scalar } => (scalar, size.count()),
        _ => {
            return Err(unsupported(
                span,
                concat_text!(op.hlsl_name(), " on a value that is not a scalar or vector"),
            ))
        }
    };
    if scalar.width == 8 {
        return Err(unsupported(
            span,
            concat_text!(
                op.hlsl_name(),
                " on 64-bit values: Metal's SIMD-group functions take 32- and 16-bit types only"
            ),
        ));
    }
    Ok(Operand {
        h,
        kind: scalar.kind,
        width: scalar.width,
        components,
    })
}

/// Writes `prefix`, operand `value`, then `suffix`; `check` (an error found before
/// writing) is reported after the operand's own errors.
fn wrapped(
    fw: &mut FunctionWriter,
    prefix: &str,
    value: &Operand,
    suffix: &str,
    check: Result<(), Diagnostic>,
) -> Written {
    fw.out.push_str(prefix);
    fw.expr(value.h)?;
    check?;
    fw.out.push_str(suffix);
    Ok(())
}

/// Writes wave operation `op` (expression `h`) on `args`.
pub fn write(
    fw: &mut FunctionWriter,
    h: Handle<Expression>,
    op: WaveOp,
    args: &[Handle<Expression>],
) -> Written {
    use WaveOp::*;
    let span = fw.function.expressions.span(h);
    let wrong_arity = || {
        unsupported(
            span,
            format!("{} with {} operands", op.hlsl_name(), args.len()),
        )
    };
    let arg = |index: usize| args.get(index).copied().ok_or_else(wrong_arity);
    if args.len() != op.arity() {
        return Err(wrong_arity());
    }
    match op {
        GetLaneIndex | GetLaneCount => {
            if fw.w.entry.stage == ShaderStage::Vertex {
                return Err(wave_stage_error(span, op.hlsl_name()));
            }
            fw.out.push_str(if op == GetLaneIndex {
                LANE_INDEX
            } else {
                LANE_COUNT
            });
            Ok(())
        }
        IsFirstLane => {
            fw.out.push_str("simd_is_first()");
            Ok(())
        }
        ActiveAnyTrue | ActiveAllTrue | ActiveCountBits | PrefixCountBits | ActiveBallot => {
            let value = operand(fw, op, arg(0)?)?;
            let check = if value.kind != ScalarKind::Bool || value.components != 1 {
                Err(unsupported(
                    span,
                    concat_text!(op.hlsl_name(), " on a value that is not a bool"),
                ))
            } else {
                Ok(())
            };
            let (prefix, suffix) = match op {
                ActiveAnyTrue => ("simd_any(", ")"),
                ActiveAllTrue => ("simd_all(", ")"),
                // Exact: an integer sum of 0/1 over the active lanes (below this one).
                ActiveCountBits => ("simd_sum(uint(", "))"),
                PrefixCountBits => ("simd_prefix_exclusive_sum(uint(", "))"),
                _ => ("_ballot(", ")"),
            };
            wrapped(fw, prefix, &value, suffix, check)?;
            if op == ActiveBallot {
                fw.w.polyfills.insert(Polyfill::Ballot);
            }
            Ok(())
        }
        ActiveAllEqual => {
            let value = operand(fw, op, arg(0)?)?;
            fw.out.push_str("_all_equal(");
            let mut ty = String::new();
            if value.kind == ScalarKind::Bool {
                value.write_type_with(&mut ty, "uint");
                fw.out.push_str(&ty);
                fw.out.push('(');
                fw.expr(value.h)?;
                fw.out.push(')');
            } else {
                fw.expr(value.h)?;
                let scalar = scalar_name(oneshader_ir::Scalar {
                    kind: value.kind,
                    width: value.width,
                })
                .map_err(|what| unsupported(span, what))?;
                value.write_type_with(&mut ty, scalar);
            }
            fw.out.push(')');
            fw.w.polyfills.insert(Polyfill::AllEqual {
                ty,
                components: value.components,
            });
            Ok(())
        }
        ActiveSum | ActiveProduct | ActiveMin | ActiveMax | PrefixSum | PrefixProduct
        | ActiveBitAnd | ActiveBitOr | ActiveBitXor => {
            let value = operand(fw, op, arg(0)?)?;
            let bitwise = matches!(op, ActiveBitAnd | ActiveBitOr | ActiveBitXor);
            let check =
                if value.kind == ScalarKind::Bool || (bitwise && value.kind == ScalarKind::Float) {
                    Err(unsupported(
                        span,
                        concat_text!(
                            op.hlsl_name(),
                            " on ",
                            if value.kind == ScalarKind::Bool {
                                "bool"
                            } else {
                                "float"
                            },
                            " values"
                        ),
                    ))
                } else {
                    Ok(())
                };
            // The function the mapping table gives the operation (docs/intrinsics.md).
            match op.info().msl.first().copied() {
                Some(function) => {
                    fw.out.push_str(function);
                    wrapped(fw, "(", &value, ")", check)
                }
                None => {
                    fw.expr(value.h)?;
                    check?;
                    Err(unsupported(
                        span,
                        concat_text!(op.hlsl_name(), " (the mapping table has no MSL function)"),
                    ))
                }
            }
        }
        ReadLaneFirst => carry(fw, op, arg(0)?, "simd_broadcast_first", None),
        ReadLaneAt => {
            let lane = fw.expr_text(arg(1)?)?;
            carry(
                fw,
                op,
                arg(0)?,
                "simd_shuffle",
                Some(Lane::Expression(&lane)),
            )
        }
        QuadReadAcrossX => carry(
            fw,
            op,
            arg(0)?,
            "quad_shuffle_xor",
            Some(Lane::Constant("1")),
        ),
        QuadReadAcrossY => carry(
            fw,
            op,
            arg(0)?,
            "quad_shuffle_xor",
            Some(Lane::Constant("2")),
        ),
        QuadReadAcrossDiagonal => carry(
            fw,
            op,
            arg(0)?,
            "quad_shuffle_xor",
            Some(Lane::Constant("3")),
        ),
        QuadReadLaneAt => {
            let lane = fw.expr_text(arg(1)?)?;
            carry(
                fw,
                op,
                arg(0)?,
                "quad_shuffle",
                Some(Lane::Expression(&lane)),
            )
        }
    }
}

/// The lane argument of a shuffle.
enum Lane<'t> {
    /// A lane the shader computes (the text of its expression), passed as `ushort`.
    Expression(&'t str),
    /// A constant lane mask.
    Constant(&'static str),
}

/// An operation that moves a value between lanes: `function(x[, lane])`, with bools
/// carried as `uint`.
fn carry(
    fw: &mut FunctionWriter,
    op: WaveOp,
    value: Handle<Expression>,
    function: &str,
    lane: Option<Lane>,
) -> Written {
    let value = operand(fw, op, value)?;
    let boolean = value.kind == ScalarKind::Bool;
    if boolean {
        value.write_type_with(&mut fw.out, "bool");
        fw.out.push('(');
    }
    fw.out.push_str(function);
    fw.out.push('(');
    if boolean {
        value.write_type_with(&mut fw.out, "uint");
        fw.out.push('(');
        fw.expr(value.h)?;
        fw.out.push(')');
    } else {
        fw.expr(value.h)?;
    }
    match lane {
        Some(Lane::Expression(lane)) => {
            fw.out.push_str(", ushort(");
            fw.out.push_str(lane);
            fw.out.push(')');
        }
        Some(Lane::Constant(lane)) => {
            fw.out.push_str(", ");
            fw.out.push_str(lane);
        }
        None => {}
    }
    fw.out.push(')');
    if boolean {
        fw.out.push(')');
    }
    Ok(())
}
