//! Element-wise intrinsics on matrices, applied column by column as HLSL applies them per
//! component: the math table's (`abs(m)`, `clamp(m, 0, 1)`), those the front end builds from
//! several operations (`isfinite`, `rcp`, `fmod`, `degrees`, `radians`, `log10`, `ldexp`),
//! and those with `out` parameters (`sincos`, `modf`, `frexp`), whose outputs are matrices too.

use oneshader_ir::{codes, Span, TypeInner};

use super::context::FnCtx;
use super::expr::Operand;
use super::{types, Lowerer};

impl Lowerer<'_> {
    /// The number of columns of the matrix arguments of element-wise intrinsic `name`:
    /// `Some(None)` when none is a matrix, `None` (reported) when the matrices differ in
    /// shape or a vector is mixed with a matrix.
    fn matrix_argument_columns(
        &mut self,
        name: &str,
        operands: &[Operand],
        spans: &[Span],
    ) -> Option<Option<u32>> {
        if !operands.iter().any(|o| self.matrix_shape(o.ty).is_some()) {
            return Some(None);
        }
        let mut shape = None;
        for (operand, &arg_span) in operands.iter().zip(spans) {
            let t = types::type_name(&self.module, operand.ty);
            match self.module.inner(operand.ty) {
                &TypeInner::Matrix { columns, rows, .. } => {
                    if shape.is_some_and(|s| s != (columns, rows)) {
                        self.error(
                            codes::NO_MATCHING_OVERLOAD,
                            arg_span,
                            format!(
                                "'{name}' takes matrices of one shape (or scalars), not also '{t}'"
                            ),
                        );
                        return None;
                    }
                    shape = Some((columns, rows));
                }
                TypeInner::Scalar(_) => {}
                _ => {
                    self.error(
                        codes::NO_MATCHING_OVERLOAD,
                        arg_span,
                        format!("'{name}' with a matrix argument takes matrices of its shape or scalars, not '{t}'"),
                    );
                    return None;
                }
            }
        }
        Some(shape.map(|(columns, _)| columns.count()))
    }

    /// Applies `apply`, which gives one value per output of an element-wise intrinsic, to
    /// `operands`: once when none is a matrix; otherwise once per column (a matrix operand
    /// gives its column, a scalar itself), each output's columns composed into a matrix.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn per_column_outputs(
        &mut self,
        cx: &mut FnCtx,
        name: &str,
        operands: Vec<Operand>,
        spans: &[Span],
        span: Span,
        mut apply: impl FnMut(&mut Self, &mut FnCtx, Vec<Operand>) -> Option<Vec<Operand>>,
    ) -> Option<Vec<Operand>> {
        let Some(columns) = self.matrix_argument_columns(name, &operands, spans)? else {
            let outputs = apply(self, cx, operands.clone())?;
            return Some(
                outputs
                    .into_iter()
                    .map(|output| self.keep_degenerate(&operands, output))
                    .collect(),
            );
        };
        let operands: Vec<Operand> = operands
            .into_iter()
            .map(|o| Operand {
                expr: if o.literal { o.expr } else { cx.bind(o.expr) },
                ..o
            })
            .collect();
        let mut outputs: Vec<Vec<Operand>> = Vec::new();
        for j in 0..columns {
            let column_operands: Vec<Operand> = operands
                .iter()
                .map(|&o| match self.matrix_shape(o.ty) {
                    Some(_) => self.matrix_column(cx, o, j, span),
                    None => o,
                })
                .collect();
            let results = apply(self, cx, column_operands)?;
            if outputs.is_empty() {
                outputs = results.iter().map(|_| Vec::new()).collect();
            }
            for (output, column) in outputs.iter_mut().zip(results) {
                output.push(column);
            }
        }
        outputs
            .into_iter()
            .map(|columns| self.compose_matrix(cx, columns, span))
            .collect()
    }

    /// [`Self::per_column_outputs`] for an intrinsic with one output.
    pub(crate) fn per_column(
        &mut self,
        cx: &mut FnCtx,
        name: &str,
        operands: Vec<Operand>,
        spans: &[Span],
        span: Span,
        mut apply: impl FnMut(&mut Self, &mut FnCtx, Vec<Operand>) -> Option<Operand>,
    ) -> Option<Operand> {
        let outputs =
            self.per_column_outputs(cx, name, operands, spans, span, |this, cx, operands| {
                apply(this, cx, operands).map(|o| vec![o])
            })?;
        outputs.into_iter().next()
    }
}
