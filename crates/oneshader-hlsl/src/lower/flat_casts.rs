//! Casts between aggregates by their components, as DXC does them: `(S)v` of a `float4` into a
//! struct of a `float`, a `float2` and a `float`, `(float4)s` back, `(float[4])v`, and casts
//! between structs or arrays of the same components. The source's scalars are taken in
//! order (struct members, array elements, vector components, matrix rows), the target filled
//! in the same order, each scalar converted, as initializer lists are ([`Lowerer::scalarize`],
//! [`Lowerer::build_from_scalars`]); a source with more components than the target is
//! truncated, one with fewer is an error.

use oneshader_ir::{codes, ArraySize, Expression, Handle, Span, Type, TypeInner};

use super::context::FnCtx;
use super::expr::Operand;
use super::{types, Lowerer};

/// Deeper nesting is refused rather than recursed into.
const MAX_DEPTH: u32 = 64;

impl Lowerer<'_> {
    /// `(to)operand` when either side is a struct or an array and the other is not a scalar;
    /// `None` when the cast is not such a one.
    pub(crate) fn flat_cast(
        &mut self,
        cx: &mut FnCtx,
        operand: Operand,
        to: Handle<Type>,
        span: Span,
    ) -> Option<Option<Handle<Expression>>> {
        let aggregate =
            |inner: &TypeInner| matches!(inner, TypeInner::Struct { .. } | TypeInner::Array { .. });
        let from_inner = self.module.inner(operand.ty);
        let to_inner = self.module.inner(to);
        if matches!(from_inner, TypeInner::Scalar(_))
            || !(aggregate(from_inner) || aggregate(to_inner))
        {
            return None;
        }
        let available = self.scalar_count(operand.ty, 0);
        let needed = self.scalar_count(to, 0);
        let (Some(available), Some(needed)) = (available, needed) else {
            let name = types::type_name(
                &self.module,
                if available.is_none() { operand.ty } else { to },
            );
            self.error(
                codes::TYPE_MISMATCH,
                span,
                format!("'{name}' has no fixed number of components to cast"),
            );
            return Some(None);
        };
        if needed > available {
            let f = types::type_name(&self.module, operand.ty);
            let t = types::type_name(&self.module, to);
            self.error(
                codes::TYPE_MISMATCH,
                span,
                format!(
                    "cannot convert from '{f}' ({available} components) to '{t}' ({needed} components): a cast takes the components in order and needs at least as many"
                ),
            );
            return Some(None);
        }
        let mut scalars = Vec::new();
        if self.scalarize(cx, operand, span, &mut scalars).is_none() {
            return Some(None);
        }
        Some(self.build_from_scalars(cx, to, &mut scalars.into_iter(), span))
    }

    /// The number of scalars in `ty`, `None` for a type without a fixed count.
    fn scalar_count(&self, ty: Handle<Type>, depth: u32) -> Option<usize> {
        if depth > MAX_DEPTH {
            return None;
        }
        match self.module.inner(ty) {
            TypeInner::Scalar(_) => Some(1),
            TypeInner::Vector { size, .. } => Some(size.count() as usize),
            TypeInner::Matrix { columns, rows, .. } => {
                Some((columns.count() * rows.count()) as usize)
            }
            TypeInner::Array {
                base,
                size: ArraySize::Constant(n),
                ..
            } => Some(self.scalar_count(*base, depth + 1)? * *n as usize),
            TypeInner::Struct { members, .. } => members
                .iter()
                .map(|m| self.scalar_count(m.ty, depth + 1))
                .sum(),
            _ => None,
        }
    }
}
