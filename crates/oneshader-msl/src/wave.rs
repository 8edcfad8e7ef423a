//! Wave (SIMD-group) and quad operations as Metal `simd_*`/`quad_*` functions.
//!
//! Every one runs over the active lanes only, as HLSL's do. Metal's SIMD-group
//! functions don't take `bool` for arithmetic, and a `bool` passed through a shuffle or
//! broadcast is carried as `uint` and converted back.

use oneshader_ir::concat_text;
use oneshader_ir::{Expression, Handle, ScalarKind, ShaderStage, TypeInner, WaveOp};

use crate::function::FunctionWriter;
use crate::layout::scalar_name;
use crate::polyfill::Polyfill;
use crate::writer::{unsupported, wave_stage_error, LANE_COUNT, LANE_INDEX};

type Written = Result<String, oneshader_ir::Diagnostic>;

/// The shape of a wave operation's value operand.
struct Operand {
    text: String,
    kind: ScalarKind,
    width: u8,
    components: u32,
}

impl Operand {
    /// The MSL type of the operand with its scalar replaced by `scalar`.
    fn type_with(&self, scalar: &str) -> String {
        if self.components == 1 {
            scalar.to_string()
        } else {
            format!("{scalar}{}", self.components)
        }
    }
}

fn operand(
    fw: &mut FunctionWriter,
    op: WaveOp,
    h: Handle<Expression>,
) -> Result<Operand, oneshader_ir::Diagnostic> {
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
        text: fw.expr(h)?,
        kind: scalar.kind,
        width: scalar.width,
        components,
    })
}

/// The MSL text of wave operation `op` (expression `h`) on `args`.
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
            Ok(if op == GetLaneIndex {
                LANE_INDEX
            } else {
                LANE_COUNT
            }
            .to_string())
        }
        IsFirstLane => Ok("simd_is_first()".into()),
        ActiveAnyTrue | ActiveAllTrue | ActiveCountBits | PrefixCountBits | ActiveBallot => {
            let value = operand(fw, op, arg(0)?)?;
            if value.kind != ScalarKind::Bool || value.components != 1 {
                return Err(unsupported(
                    span,
                    concat_text!(op.hlsl_name(), " on a value that is not a bool"),
                ));
            }
            let b = value.text;
            Ok(match op {
                ActiveAnyTrue => concat_text!("simd_any(", b, ")"),
                ActiveAllTrue => concat_text!("simd_all(", b, ")"),
                // Exact: an integer sum of 0/1 over the active lanes (below this one).
                ActiveCountBits => concat_text!("simd_sum(uint(", b, "))"),
                PrefixCountBits => concat_text!("simd_prefix_exclusive_sum(uint(", b, "))"),
                _ => {
                    fw.w.polyfills.insert(Polyfill::Ballot);
                    concat_text!("_ballot(", b, ")")
                }
            })
        }
        ActiveAllEqual => {
            let value = operand(fw, op, arg(0)?)?;
            let (ty, text) = if value.kind == ScalarKind::Bool {
                let ty = value.type_with("uint");
                let text = concat_text!(ty, "(", value.text, ")");
                (ty, text)
            } else {
                let scalar = scalar_name(oneshader_ir::Scalar {
                    kind: value.kind,
                    width: value.width,
                })
                .map_err(|what| unsupported(span, what))?;
                (value.type_with(scalar), value.text.clone())
            };
            fw.w.polyfills.insert(Polyfill::AllEqual {
                ty,
                components: value.components,
            });
            Ok(concat_text!("_all_equal(", text, ")"))
        }
        ActiveSum | ActiveProduct | ActiveMin | ActiveMax | PrefixSum | PrefixProduct
        | ActiveBitAnd | ActiveBitOr | ActiveBitXor => {
            let value = operand(fw, op, arg(0)?)?;
            let bitwise = matches!(op, ActiveBitAnd | ActiveBitOr | ActiveBitXor);
            if value.kind == ScalarKind::Bool || (bitwise && value.kind == ScalarKind::Float) {
                return Err(unsupported(
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
                ));
            }
            // The function the mapping table gives the operation (docs/intrinsics.md).
            let function = op.info().msl.first().copied().ok_or_else(|| {
                unsupported(
                    span,
                    concat_text!(op.hlsl_name(), " (the mapping table has no MSL function)"),
                )
            })?;
            Ok(concat_text!(function, "(", value.text, ")"))
        }
        ReadLaneFirst => carry(fw, op, arg(0)?, "simd_broadcast_first", None),
        ReadLaneAt => {
            let lane = fw.expr(arg(1)?)?;
            carry(
                fw,
                op,
                arg(0)?,
                "simd_shuffle",
                Some(concat_text!("ushort(", lane, ")")),
            )
        }
        QuadReadAcrossX => carry(fw, op, arg(0)?, "quad_shuffle_xor", Some("1".into())),
        QuadReadAcrossY => carry(fw, op, arg(0)?, "quad_shuffle_xor", Some("2".into())),
        QuadReadAcrossDiagonal => carry(fw, op, arg(0)?, "quad_shuffle_xor", Some("3".into())),
        QuadReadLaneAt => {
            let lane = fw.expr(arg(1)?)?;
            carry(
                fw,
                op,
                arg(0)?,
                "quad_shuffle",
                Some(concat_text!("ushort(", lane, ")")),
            )
        }
    }
}

/// An operation that moves a value between lanes: `function(x[, lane])`, with bools
/// carried as `uint`.
fn carry(
    fw: &mut FunctionWriter,
    op: WaveOp,
    value: Handle<Expression>,
    function: &str,
    lane: Option<String>,
) -> Written {
    let value = operand(fw, op, value)?;
    let extra = lane.map(|l| concat_text!(", ", l)).unwrap_or_default();
    if value.kind == ScalarKind::Bool {
        let carrier = value.type_with("uint");
        let boolean = value.type_with("bool");
        Ok(concat_text!(
            boolean, "(", function, "(", carrier, "(", value.text, ")", extra, "))"
        ))
    } else {
        Ok(concat_text!(function, "(", value.text, extra, ")"))
    }
}
