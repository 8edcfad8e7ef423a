//! Wave and quad operations as WGSL subgroup built-ins, with exact polyfills where WGSL
//! has no direct equivalent (docs/wgsl.md has the table).

use oneshader_ir::concat_text;
use oneshader_ir::{Expression, Handle, ScalarKind, SwizzleComponent, TypeInner, WaveOp};

use crate::expressions::constant_index;
use crate::writer::{unsupported, FunctionContext, Res, Writer};

/// An operand of a value-moving wave operation, as a WGSL subgroup function takes it.
struct WaveValue {
    /// The operand's text; bools are converted to `u32`s (WGSL moves only numbers).
    text: String,
    /// The operand's structure.
    inner: TypeInner,
    /// Whether the operand was bool and the result must be converted back.
    is_bool: bool,
}

impl Writer<'_> {
    fn wave_value(&self, context: &FunctionContext, value: Handle<Expression>) -> Res<WaveValue> {
        let inner = self.type_of(context, value)?.clone();
        let is_bool = inner.scalar().is_some_and(|s| s.kind == ScalarKind::Bool);
        let text = if is_bool {
            concat_text!(
                self.bits_type(&inner),
                "(",
                self.expression(context, value)?,
                ")"
            )
        } else {
            self.operand(context, value)?
        };
        Ok(WaveValue {
            text,
            inner,
            is_bool,
        })
    }

    /// `text`, a result computed on a [`WaveValue`], converted back to bool if need be.
    fn wave_result(&self, value: &WaveValue, text: String) -> String {
        if !value.is_bool {
            return text;
        }
        match value.inner {
            TypeInner::Vector { size, .. } => format!("vec{}<bool>({text})", size.count()),
            _ => concat_text!("bool(", text, ")"),
        }
    }

    /// The WGSL text of a wave operation.
    pub(crate) fn wave(
        &self,
        context: &FunctionContext,
        handle: Handle<Expression>,
        op: WaveOp,
        args: &[Handle<Expression>],
    ) -> Res<String> {
        use WaveOp::*;
        let span = context.function.expressions.span(handle);
        let wrong_arity = || {
            unsupported(
                span,
                format!(
                    "'{}' with {} operands instead of {}",
                    op.hlsl_name(),
                    args.len(),
                    op.arity()
                ),
            )
        };
        let arg = |index: usize| args.get(index).copied().ok_or_else(wrong_arity);
        if args.len() != op.arity() {
            return Err(wrong_arity());
        }
        let missing = |what: &str| {
            unsupported(
                span,
                concat_text!(
                    "'",
                    op.hlsl_name(),
                    "' needs the ",
                    what,
                    ", which this function lacks"
                ),
            )
        };
        let number = |name: &str| -> Res<String> {
            let inner = self.type_of(context, arg(0)?)?;
            if inner.scalar().is_none_or(|s| s.kind == ScalarKind::Bool) {
                return Err(unsupported(
                    span,
                    concat_text!("'", op.hlsl_name(), "' on a value that is not a number"),
                ));
            }
            Ok(concat_text!(
                name,
                "(",
                self.expression(context, arg(0)?)?,
                ")"
            ))
        };
        let condition = |name: &str| -> Res<String> {
            Ok(concat_text!(
                name,
                "(",
                self.expression(context, arg(0)?)?,
                ")"
            ))
        };
        let count = |name: &str| -> Res<String> {
            // bool to u32 is 0 or 1; the sum over (active, lower) lanes counts them.
            Ok(concat_text!(
                name,
                "(u32(",
                self.expression(context, arg(0)?)?,
                "))"
            ))
        };
        let moved = |name: &str| -> Res<String> {
            let value = self.wave_value(context, arg(0)?)?;
            let text = concat_text!(name, "(", value.text, ")");
            Ok(self.wave_result(&value, text))
        };
        // The built-in the mapping table gives the operation (docs/intrinsics.md), for
        // those that are one call.
        let function = op.info().wgsl.first().copied().ok_or_else(|| {
            unsupported(
                span,
                concat_text!(
                    "'",
                    op.hlsl_name(),
                    "': the mapping table has no WGSL function"
                ),
            )
        })?;
        Ok(match op {
            GetLaneCount => context
                .lane_count
                .ok_or_else(|| missing("lane count"))?
                .to_owned(),
            GetLaneIndex => context
                .lane_index
                .ok_or_else(|| missing("lane index"))?
                .to_owned(),
            IsFirstLane => concat_text!(function, "()"),
            ActiveAnyTrue | ActiveAllTrue | ActiveBallot => condition(function)?,
            ActiveCountBits | PrefixCountBits => count(function)?,
            ActiveSum | ActiveProduct | ActiveMin | ActiveMax | ActiveBitAnd | ActiveBitOr
            | ActiveBitXor | PrefixSum | PrefixProduct => number(function)?,
            ReadLaneFirst | QuadReadAcrossX | QuadReadAcrossY | QuadReadAcrossDiagonal => {
                moved(function)?
            }
            ActiveAllEqual => self.all_equal(context, arg(0)?)?,
            ReadLaneAt => {
                let value = self.wave_value(context, arg(0)?)?;
                let text = match constant_index(context.function, arg(1)?) {
                    // subgroupBroadcast takes a constant lane below 128.
                    Some(lane) if (0..128).contains(&lane) => {
                        format!("subgroupBroadcast({}, {lane}u)", value.text)
                    }
                    _ => concat_text!(
                        "subgroupShuffle(",
                        value.text,
                        ", ",
                        self.expression(context, arg(1)?)?,
                        ")"
                    ),
                };
                self.wave_result(&value, text)
            }
            QuadReadLaneAt => {
                let value = self.wave_value(context, arg(0)?)?;
                let text = match constant_index(context.function, arg(1)?) {
                    // quadBroadcast takes a constant quad lane, 0 to 3.
                    Some(lane) if (0..4).contains(&lane) => {
                        format!("quadBroadcast({}, {lane}u)", value.text)
                    }
                    _ => {
                        // The same lane of this quad: quads are lanes 4k..4k+3.
                        let lane_index = context.lane_index.ok_or_else(|| missing("lane index"))?;
                        let quad_lane = self.unsigned(context, arg(1)?)?;
                        concat_text!(
                            "subgroupShuffle(",
                            value.text,
                            ", (",
                            lane_index,
                            " & ~3u) + ",
                            quad_lane,
                            ")"
                        )
                    }
                };
                self.wave_result(&value, text)
            }
        })
    }

    /// `WaveActiveAllEqual`: per component, whether every active lane has the first
    /// active lane's value: `subgroupAll(x == subgroupBroadcastFirst(x))`.
    fn all_equal(&self, context: &FunctionContext, value: Handle<Expression>) -> Res<String> {
        let value = self.wave_value(context, value)?;
        let compare =
            |v: &str| concat_text!("subgroupAll(", v, " == subgroupBroadcastFirst(", v, "))");
        Ok(match value.inner {
            TypeInner::Vector { size, .. } => {
                let components: Vec<String> = SwizzleComponent::ALL
                    .iter()
                    .take(size.count() as usize)
                    .map(|c| compare(&format!("{}.{}", value.text, c.letter())))
                    .collect();
                format!("vec{}<bool>({})", size.count(), components.join(", "))
            }
            _ => compare(&value.text),
        })
    }

    /// An integer scalar operand as `u32`.
    fn unsigned(&self, context: &FunctionContext, value: Handle<Expression>) -> Res<String> {
        let scalar = self.type_of(context, value)?.scalar();
        Ok(if scalar.is_some_and(|s| s.kind == ScalarKind::Uint) {
            self.operand(context, value)?
        } else {
            concat_text!("u32(", self.expression(context, value)?, ")")
        })
    }
}
