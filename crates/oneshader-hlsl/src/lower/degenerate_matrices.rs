//! 1xN and Nx1 matrices (`float1x4`, `float4x1`, `matrix<int, 1, 3>`): vectors that keep
//! their HLSL name, as DXC lowers them.
//!
//! The IR's matrices have at least two columns and two rows, so a one-row or one-column
//! matrix is a vector type named after the matrix (`float1x4`); the name is what makes it a
//! matrix ([`Lowerer::degenerate_shape`]), and reflection shows it. Every target sees the
//! vector. What differs from a vector is lowered here: `m[i]` of a `1xN` matrix is its only
//! row (the whole vector) while `m[i]` of an `Nx1` one is a component, `._mRC` swizzles name a
//! row and a column, `mul` follows the shapes (an outer product for `Nx1` times `1xM`, a dot
//! product for `1xN` times `Nx1`), `transpose` swaps the name, and operators and element-wise
//! intrinsics keep the shape. A `float1x1` is a scalar named so. Constant buffers read them at
//! D3D's offsets (`cbuffer`: each stored column or row in a 16-byte row of its own); stage
//! inputs and outputs refuse them.

use oneshader_ir::{codes, Expression, Handle, Literal, Scalar, Span, Type, TypeInner, VectorSize};

use super::context::{FnCtx, Value};
use super::expr::{Operand, Shape};
use super::matrix::parse_matrix_swizzle;
use super::{types, Lowerer};

impl Lowerer<'_> {
    /// The `rows`x`columns` matrix type with one row or one column: a vector of
    /// `rows * columns` components named after the matrix.
    pub(crate) fn degenerate_matrix_type(
        &mut self,
        scalar: Scalar,
        rows: u32,
        columns: u32,
    ) -> Option<Handle<Type>> {
        let inner = match rows * columns {
            1 => TypeInner::Scalar(scalar),
            n => TypeInner::Vector {
                size: VectorSize::from_count(n)?,
                scalar,
            },
        };
        Some(self.module.types.insert(Type {
            name: Some(format!("{}{rows}x{columns}", scalar.hlsl_name())),
            inner,
        }))
    }

    /// `(rows, columns)` of a 1xN or Nx1 matrix type, `None` for any other type.
    pub(crate) fn degenerate_shape(&self, ty: Handle<Type>) -> Option<(u32, u32)> {
        let t = &self.module.types[ty];
        let (count, scalar) = match t.inner {
            TypeInner::Vector { size, scalar } => (size.count(), scalar),
            TypeInner::Scalar(scalar) => (1, scalar),
            _ => return None,
        };
        let (rows, columns) = t
            .name
            .as_deref()?
            .strip_prefix(scalar.hlsl_name())?
            .split_once('x')?;
        let (rows, columns): (u32, u32) = (rows.parse().ok()?, columns.parse().ok()?);
        ((rows == 1 || columns == 1) && rows * columns == count).then_some((rows, columns))
    }

    /// `result`, a plain vector, as the 1xN or Nx1 matrix of the operands' shape when one of
    /// `operands` is such a matrix with as many components (`m * 2`, `-m`, `abs(m)`).
    #[inline]
    pub(crate) fn keep_degenerate(&mut self, operands: &[Operand], result: Operand) -> Operand {
        // A scalar result (most are) is not a matrix's, and is told without a call.
        let TypeInner::Vector { size, scalar } = *self.module.inner(result.ty) else {
            return result;
        };
        self.keep_degenerate_vector(operands, result, size, scalar)
    }

    /// [`Self::keep_degenerate`] of a vector `result` of `size` components of `scalar`.
    fn keep_degenerate_vector(
        &mut self,
        operands: &[Operand],
        result: Operand,
        size: VectorSize,
        scalar: Scalar,
    ) -> Operand {
        if self.degenerate_shape(result.ty).is_some() {
            return result;
        }
        let shape = operands
            .iter()
            .filter_map(|o| self.degenerate_shape(o.ty))
            .find(|(rows, columns)| rows * columns == size.count());
        match shape.and_then(|(rows, columns)| self.degenerate_matrix_type(scalar, rows, columns)) {
            Some(ty) => Operand { ty, ..result },
            None => result,
        }
    }

    /// `m[index]` of a 1xN matrix: its only row, the whole vector (typed as a plain vector, so
    /// that it indexes by component); `x[0]` of a scalar (a `float1`): itself. `None` when
    /// `value` is neither.
    pub(crate) fn degenerate_row(
        &mut self,
        cx: &mut FnCtx,
        value: &Value,
        index: Handle<Expression>,
        span: Span,
    ) -> Option<Option<Value>> {
        let ty = value.value_type()?;
        // A one-component vector (`float1`, the row of an Nx1 matrix) is a scalar here.
        let columns = match self.degenerate_shape(ty) {
            Some((1, columns)) => columns,
            Some(_) => return None,
            None if matches!(self.module.inner(ty), TypeInner::Scalar(_)) => 1,
            None => return None,
        };
        let constant = match cx.function.expressions[index] {
            Expression::Literal(Literal::I32(i)) => Some(i64::from(i)),
            Expression::Literal(Literal::U32(u)) => Some(i64::from(u)),
            _ => None,
        };
        if constant.is_some_and(|i| i != 0) {
            let name = types::type_name(&self.module, ty);
            self.error(
                codes::TYPE_MISMATCH,
                span,
                if columns == 1 {
                format!("'{name}' has one component, so its index must be 0")
            } else {
                format!("'{name}' has one row, so its row index must be 0: take a component with [0][i] or ._m0i")
            },
            );
            return Some(None);
        }
        let (scalar, _) = self.numeric(ty)?;
        let plain = match VectorSize::from_count(columns) {
            Some(size) => self.shaped(scalar, Shape::Vector(size)),
            None => self.scalar_type(scalar),
        };
        Some(match value.clone() {
            Value::Place {
                pointer, writable, ..
            } => Some(Value::Place {
                pointer,
                ty: plain,
                writable,
            }),
            other => self.rvalue(cx, other, span).map(|o| Value::Rvalue {
                expr: o.expr,
                ty: plain,
                literal: false,
            }),
        })
    }

    /// The vector swizzle (`xyzw` letters) that a matrix swizzle `text` (`._m02`, `._13_11`)
    /// of a 1xN or Nx1 matrix of type `ty` names; `None` when `ty` is no such matrix or
    /// `text` no matrix swizzle; `Some(None)` (reported) when it names elements outside it.
    pub(crate) fn degenerate_swizzle(
        &mut self,
        ty: Handle<Type>,
        text: &str,
        span: Span,
    ) -> Option<Option<String>> {
        let (rows, columns) = self.degenerate_shape(ty)?;
        if !text.starts_with('_') {
            return None;
        }
        let Some(picks) = parse_matrix_swizzle(text, rows, columns) else {
            self.error(
                codes::UNKNOWN_MEMBER,
                span,
                format!("'{text}' is not a valid swizzle of a {rows}x{columns} matrix: use _m<row><column> (from 0) or _<row><column> (from 1), up to four of them, as in ._m00"),
            );
            return Some(None);
        };
        let letters = picks
            .into_iter()
            .filter_map(|(row, column)| {
                let component = if rows == 1 { column } else { row };
                "xyzw".chars().nth(component as usize)
            })
            .collect();
        Some(Some(letters))
    }

    /// `transpose` of a 1xN or Nx1 matrix: the same vector, named as the other shape.
    pub(crate) fn degenerate_transpose(&mut self, m: Operand) -> Option<Operand> {
        let (rows, columns) = self.degenerate_shape(m.ty)?;
        let (scalar, _) = self.numeric(m.ty)?;
        let ty = self.degenerate_matrix_type(scalar, columns, rows)?;
        Some(Operand { ty, ..m })
    }

    /// `mul(left, right)` when either is a 1xN or Nx1 matrix: `None` when neither is. A
    /// vector is a row on the left and a column on the right, as HLSL's `mul` takes it.
    pub(crate) fn degenerate_mul(
        &mut self,
        cx: &mut FnCtx,
        left: Operand,
        right: Operand,
        span: Span,
    ) -> Option<Option<Operand>> {
        let l = self.degenerate_shape(left.ty);
        let r = self.degenerate_shape(right.ty);
        if l.is_none() && r.is_none() {
            return None;
        }
        let shape = |this: &Self, o: Operand, degenerate: Option<(u32, u32)>, is_left: bool| {
            if degenerate.is_some() {
                return degenerate;
            }
            match *this.module.inner(o.ty) {
                TypeInner::Matrix { columns, rows, .. } => Some((rows.count(), columns.count())),
                TypeInner::Vector { size, .. } if is_left => Some((1, size.count())),
                TypeInner::Vector { size, .. } => Some((size.count(), 1)),
                _ => None,
            }
        };
        let (Some((lr, lk)), Some((rk, rc))) =
            (shape(self, left, l, true), shape(self, right, r, false))
        else {
            // A scalar times a matrix scales it.
            let result = self.binary_operands(cx, crate::ast::BinaryOp::Mul, left, right, span)?;
            return Some(Some(result));
        };
        if lk != rk {
            let ln = types::type_name(&self.module, left.ty);
            let rn = types::type_name(&self.module, right.ty);
            self.error(
                codes::NO_MATCHING_OVERLOAD,
                span,
                format!("mul of '{ln}' ({lr}x{lk}) and '{rn}' ({rk}x{rc}): the left's columns ({lk}) must equal the right's rows ({rk})"),
            );
            return Some(None);
        }
        let plain = |this: &mut Self, o: Operand| -> Operand {
            match *this.module.inner(o.ty) {
                TypeInner::Vector { size, scalar } if this.degenerate_shape(o.ty).is_some() => {
                    Operand {
                        ty: this.shaped(scalar, Shape::Vector(size)),
                        ..o
                    }
                }
                _ => o,
            }
        };
        let (left, right) = (plain(self, left), plain(self, right));
        let product = if lk == 1 {
            // A column times a row: the outer product, column j of which is the column
            // scaled by the row's component j.
            self.outer_product(cx, left, right, lr, rc, span)?
        } else {
            // A row times a column is their dot product; a row times a matrix and a
            // matrix times a column are the IR's products.
            self.lower_mul(cx, left, right, span)
                .and_then(|value| self.rvalue(cx, value, span))?
        };
        let (TypeInner::Vector { scalar, .. } | TypeInner::Scalar(scalar)) =
            *self.module.inner(product.ty)
        else {
            return Some(Some(product));
        };
        match (lr, rc) {
            (1, 1) => Some(Some(product)),
            (rows, columns) if rows == 1 || columns == 1 => {
                let ty = self.degenerate_matrix_type(scalar, rows, columns)?;
                Some(Some(Operand { ty, ..product }))
            }
            _ => Some(Some(product)),
        }
    }

    /// The `rows`x`columns` outer product of column vector `column` and row vector `row`
    /// (either may be a scalar: a 1x1 matrix).
    fn outer_product(
        &mut self,
        cx: &mut FnCtx,
        column: Operand,
        row: Operand,
        rows: u32,
        columns: u32,
        span: Span,
    ) -> Option<Operand> {
        let column = cx.bind_operand(column);
        let row = cx.bind_operand(row);
        if rows == 1 || columns == 1 {
            // A scalar times a vector (or a scalar).
            return self.binary_operands(cx, crate::ast::BinaryOp::Mul, column, row, span);
        }
        let mut products = Vec::new();
        for j in 0..columns {
            let component = self.vector_component(cx, row, j, span);
            let scaled =
                self.binary_operands(cx, crate::ast::BinaryOp::Mul, column, component, span)?;
            products.push(scaled);
        }
        // Integer products too: integer matrices are IR matrices while a function is
        // lowered (see `integer_matrices`).
        self.compose_matrix(cx, products, span)
    }

    /// Refuses 1xN and Nx1 matrices in stage inputs and outputs, whose locations D3D counts
    /// per row.
    pub(crate) fn refuse_degenerate_matrices_in_stage_io(&mut self) {
        let mut found = Vec::new();
        for entry in &self.module.entry_points {
            let function = &entry.function;
            let interface = function
                .arguments
                .iter()
                .map(|a| (a.name.clone(), a.ty))
                .chain(function.result.iter().map(|r| ("the result".into(), r.ty)));
            for (name, ty) in interface {
                if let Some(matrix) = self.find_degenerate(ty, 0) {
                    found.push((entry.span, name, matrix));
                }
            }
        }
        for (span, name, matrix) in found {
            let matrix_name = self.module.hlsl_type_name(matrix);
            let vector = match self.module.inner(matrix) {
                TypeInner::Vector { size, scalar } => {
                    format!("{}{}", scalar.hlsl_name(), size.count())
                }
                _ => "a vector".into(),
            };
            self.report(oneshader_ir::Diagnostic::error(
                codes::UNSUPPORTED_CONSTRUCT,
                span,
                format!("'{name}' is the matrix type '{matrix_name}', which stage inputs and outputs do not support yet (D3D gives each of its rows a register): pass a {vector} and convert"),
            ));
        }
    }

    /// The first 1xN or Nx1 matrix type inside `ty` (members, elements, pointees).
    pub(crate) fn find_degenerate(&self, ty: Handle<Type>, depth: u32) -> Option<Handle<Type>> {
        if depth > 64 {
            return None;
        }
        if self.degenerate_shape(ty).is_some() {
            return Some(ty);
        }
        match self.module.inner(ty) {
            TypeInner::Array { base, .. } | TypeInner::Pointer { base, .. } => {
                self.find_degenerate(*base, depth + 1)
            }
            TypeInner::Struct { members, .. } => members
                .iter()
                .find_map(|m| self.find_degenerate(m.ty, depth + 1)),
            _ => None,
        }
    }
}
