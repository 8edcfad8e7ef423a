//! Wave and quad operations as WGSL subgroup built-ins, with exact polyfills where WGSL
//! has no direct equivalent (docs/wgsl.md has the table).

use oneshader_ir::concat_text;
use oneshader_ir::{Expression, Handle, ScalarKind, SwizzleComponent, TypeInner, WaveOp};

use crate::expressions::constant_index;
use crate::writer::{unsupported, FunctionContext, Res, Writer};

/// What a value-moving wave operation needs to know of its operand before writing it.
struct WaveValue {
    /// The operand's structure.
    inner: TypeInner,
    /// Whether the operand is bool: it is converted to `u32` (WGSL moves only numbers) and
    /// the result back to bool.
    is_bool: bool,
}

impl Writer<'_> {
    /// The facts of `value`, an operand that a wave operation moves between lanes.
    fn wave_value(&self, context: &FunctionContext, value: Handle<Expression>) -> Res<WaveValue> {
        let inner = self.type_of(context, value)?.clone();
        let is_bool = inner.scalar().is_some_and(|s| s.kind == ScalarKind::Bool);
        Ok(WaveValue { inner, is_bool })
    }

    /// Appends the text of `value` (with facts `facts`) as a subgroup function takes it:
    /// a bool converted to `u32`.
    fn write_wave_value(
        &self,
        out: &mut String,
        context: &FunctionContext,
        value: Handle<Expression>,
        facts: &WaveValue,
    ) -> Res<()> {
        if !facts.is_bool {
            return self.write_operand(out, context, value);
        }
        match facts.inner {
            TypeInner::Vector { size, .. } => {
                out.push_str("vec");
                oneshader_ir::text::push_decimal(out, size.count() as u64);
                out.push_str("<u32>(");
            }
            _ => out.push_str("u32("),
        }
        self.write_expr(out, context, value)?;
        out.push(')');
        Ok(())
    }

    /// Opens the conversion back to bool of a result computed on a [`WaveValue`], if it
    /// needs one ([`Writer::close_wave_result`] closes it).
    fn open_wave_result(out: &mut String, facts: &WaveValue) {
        if !facts.is_bool {
            return;
        }
        match facts.inner {
            TypeInner::Vector { size, .. } => {
                out.push_str("vec");
                oneshader_ir::text::push_decimal(out, size.count() as u64);
                out.push_str("<bool>(");
            }
            _ => out.push_str("bool("),
        }
    }

    /// Closes what [`Writer::open_wave_result`] opened.
    fn close_wave_result(out: &mut String, facts: &WaveValue) {
        if facts.is_bool {
            out.push(')');
        }
    }

    /// Appends the WGSL text of a wave operation to `out`. On an error, `out` may hold
    /// part of the text.
    pub(crate) fn write_wave(
        &self,
        out: &mut String,
        context: &FunctionContext,
        handle: Handle<Expression>,
        op: WaveOp,
        args: &[Handle<Expression>],
    ) -> Res<()> {
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
        match op {
            GetLaneCount => out.push_str(context.lane_count.ok_or_else(|| missing("lane count"))?),
            GetLaneIndex => out.push_str(context.lane_index.ok_or_else(|| missing("lane index"))?),
            IsFirstLane => {
                out.push_str(function);
                out.push_str("()");
            }
            ActiveAnyTrue | ActiveAllTrue | ActiveBallot => {
                out.push_str(function);
                out.push('(');
                self.write_expr(out, context, arg(0)?)?;
                out.push(')');
            }
            ActiveCountBits | PrefixCountBits => {
                // bool to u32 is 0 or 1; the sum over (active, lower) lanes counts them.
                out.push_str(function);
                out.push_str("(u32(");
                self.write_expr(out, context, arg(0)?)?;
                out.push_str("))");
            }
            ActiveSum | ActiveProduct | ActiveMin | ActiveMax | ActiveBitAnd | ActiveBitOr
            | ActiveBitXor | PrefixSum | PrefixProduct => {
                let inner = self.type_of(context, arg(0)?)?;
                if inner.scalar().is_none_or(|s| s.kind == ScalarKind::Bool) {
                    return Err(unsupported(
                        span,
                        concat_text!("'", op.hlsl_name(), "' on a value that is not a number"),
                    ));
                }
                out.push_str(function);
                out.push('(');
                self.write_expr(out, context, arg(0)?)?;
                out.push(')');
            }
            ReadLaneFirst | QuadReadAcrossX | QuadReadAcrossY | QuadReadAcrossDiagonal => {
                let value = arg(0)?;
                let facts = self.wave_value(context, value)?;
                Self::open_wave_result(out, &facts);
                out.push_str(function);
                out.push('(');
                self.write_wave_value(out, context, value, &facts)?;
                out.push(')');
                Self::close_wave_result(out, &facts);
            }
            ActiveAllEqual => out.push_str(&self.all_equal(context, arg(0)?)?),
            ReadLaneAt => {
                let value = arg(0)?;
                let facts = self.wave_value(context, value)?;
                Self::open_wave_result(out, &facts);
                match constant_index(context.function, arg(1)?) {
                    // subgroupBroadcast takes a constant lane below 128.
                    Some(lane) if (0..128).contains(&lane) => {
                        out.push_str("subgroupBroadcast(");
                        self.write_wave_value(out, context, value, &facts)?;
                        out.push_str(", ");
                        oneshader_ir::text::push_decimal(out, lane as u64);
                        out.push_str("u)");
                    }
                    _ => {
                        out.push_str("subgroupShuffle(");
                        self.write_wave_value(out, context, value, &facts)?;
                        out.push_str(", ");
                        self.write_expr(out, context, arg(1)?)?;
                        out.push(')');
                    }
                }
                Self::close_wave_result(out, &facts);
            }
            QuadReadLaneAt => {
                let value = arg(0)?;
                let facts = self.wave_value(context, value)?;
                Self::open_wave_result(out, &facts);
                match constant_index(context.function, arg(1)?) {
                    // quadBroadcast takes a constant quad lane, 0 to 3.
                    Some(lane) if (0..4).contains(&lane) => {
                        out.push_str("quadBroadcast(");
                        self.write_wave_value(out, context, value, &facts)?;
                        out.push_str(", ");
                        oneshader_ir::text::push_decimal(out, lane as u64);
                        out.push_str("u)");
                    }
                    _ => {
                        // The same lane of this quad: quads are lanes 4k..4k+3.
                        out.push_str("subgroupShuffle(");
                        self.write_wave_value(out, context, value, &facts)?;
                        let lane_index = context.lane_index.ok_or_else(|| missing("lane index"))?;
                        out.push_str(", (");
                        out.push_str(lane_index);
                        out.push_str(" & ~3u) + ");
                        self.write_unsigned(out, context, arg(1)?)?;
                        out.push(')');
                    }
                }
                Self::close_wave_result(out, &facts);
            }
        }
        Ok(())
    }

    /// `WaveActiveAllEqual`: per component, whether every active lane has the first
    /// active lane's value: `subgroupAll(x == subgroupBroadcastFirst(x))`.
    fn all_equal(&self, context: &FunctionContext, value: Handle<Expression>) -> Res<String> {
        let facts = self.wave_value(context, value)?;
        let mut text = String::new();
        self.write_wave_value(&mut text, context, value, &facts)?;
        let compare =
            |v: &str| concat_text!("subgroupAll(", v, " == subgroupBroadcastFirst(", v, "))");
        Ok(match facts.inner {
            TypeInner::Vector { size, .. } => {
                let components: Vec<String> = SwizzleComponent::ALL
                    .iter()
                    .take(size.count() as usize)
                    .map(|c| compare(&format!("{}.{}", text, c.letter())))
                    .collect();
                format!("vec{}<bool>({})", size.count(), components.join(", "))
            }
            _ => compare(&text),
        })
    }

    /// Appends an integer scalar operand as `u32`.
    fn write_unsigned(
        &self,
        out: &mut String,
        context: &FunctionContext,
        value: Handle<Expression>,
    ) -> Res<()> {
        let scalar = self.type_of(context, value)?.scalar();
        if scalar.is_some_and(|s| s.kind == ScalarKind::Uint) {
            self.write_operand(out, context, value)
        } else {
            out.push_str("u32(");
            self.write_expr(out, context, value)?;
            out.push(')');
            Ok(())
        }
    }
}
