//! Matrices as HLSL sees them, on top of the IR's column-vector matrices.
//!
//! The IR keeps an HLSL `floatRxC` as the mathematical R×C matrix: `Matrix { columns: C,
//! rows: R }`, C column vectors of R components (see `oneshader_ir::TypeInner::Matrix`).
//! HLSL, though, indexes by rows: `m[i]` is row i, a vector of C components, and
//! `m._m01` is row 0, column 1. A row is therefore not one IR vector but C scalars, one
//! from each column: this module lowers rows, row elements and `_m` swizzles into
//! [`Value::MatrixPlace`]s (scattered scalars in memory) and reads and writes them.

use oneshader_ir::{codes, Expression, Handle, Span, Statement, Type, TypeInner, VectorSize};

use super::context::{FnCtx, MatrixIndex, Value};
use super::expr::{Operand, Shape};
use super::Lowerer;

impl<'a> Lowerer<'a> {
    /// Row `row` of the matrix `pointer` points at (HLSL `m[row]`).
    pub(crate) fn matrix_row(
        &mut self,
        pointer: Handle<Expression>,
        matrix_ty: Handle<Type>,
        row: MatrixIndex,
        writable: bool,
    ) -> Option<Value> {
        let TypeInner::Matrix {
            columns, scalar, ..
        } = *self.module.inner(matrix_ty)
        else {
            return None;
        };
        let elements = (0..columns.count())
            .map(|c| (MatrixIndex::Constant(c), row))
            .collect();
        Some(Value::MatrixPlace {
            pointer,
            elements,
            ty: self.shaped(scalar, Shape::Vector(columns)),
            writable,
        })
    }

    /// Element `index` of a row: a place for one scalar when the place is a whole row,
    /// `None` for other matrix places (the caller indexes their value instead).
    pub(crate) fn matrix_row_element(
        &mut self,
        cx: &mut FnCtx,
        place: &Value,
        index: Handle<Expression>,
        span: Span,
    ) -> Option<Value> {
        let Value::MatrixPlace {
            pointer,
            elements,
            ty,
            writable,
        } = place
        else {
            return None;
        };
        let row = elements.first()?.1;
        let whole_row = elements
            .iter()
            .enumerate()
            .all(|(i, e)| *e == (MatrixIndex::Constant(i as u32), row));
        if !whole_row {
            return None;
        }
        let (scalar, _) = self.numeric(*ty)?;
        let scalar_ty = self.scalar_type(scalar);
        let index = cx.bind(index);
        let element =
            self.matrix_element_pointer(cx, *pointer, (MatrixIndex::Dynamic(index), row), span)?;
        Some(Value::Place {
            pointer: element,
            ty: scalar_ty,
            writable: *writable,
        })
    }

    /// The components `picks` (indices into its elements) of a matrix place, for a
    /// vector swizzle of a row (`m[1].zx`).
    pub(crate) fn matrix_place_swizzle(
        &mut self,
        cx: &mut FnCtx,
        place: &Value,
        picks: &[u32],
        ty: Handle<Type>,
        span: Span,
    ) -> Option<Value> {
        let Value::MatrixPlace {
            pointer,
            elements,
            writable,
            ..
        } = place
        else {
            return None;
        };
        let chosen: Vec<_> = picks
            .iter()
            .map(|&p| elements.get(p as usize).copied())
            .collect::<Option<_>>()?;
        let unique = all_different(&chosen);
        self.matrix_elements(cx, *pointer, chosen, ty, *writable && unique, span)
    }

    /// A matrix swizzle `._m01_m10` (zero-based) or `._12_21` (one-based) of the matrix
    /// `pointer` points at, or `None` (after a diagnostic) when `text` is not one.
    pub(crate) fn matrix_swizzle(
        &mut self,
        cx: &mut FnCtx,
        pointer: Handle<Expression>,
        matrix_ty: Handle<Type>,
        text: &str,
        writable: bool,
        span: Span,
    ) -> Option<Value> {
        let TypeInner::Matrix {
            columns,
            rows,
            scalar,
        } = *self.module.inner(matrix_ty)
        else {
            return None;
        };
        let Some(picks) = parse_matrix_swizzle(text, rows.count(), columns.count()) else {
            self.error(
                codes::UNKNOWN_MEMBER,
                span,
                format!(
                    "'{text}' is not a valid swizzle of a {}x{} matrix: use _m<row><column> (from 0) or _<row><column> (from 1), up to four of them, as in ._m00_m11",
                    rows.count(),
                    columns.count()
                ),
            );
            return None;
        };
        let unique = all_different(&picks);
        let shape = match VectorSize::from_count(picks.len() as u32) {
            Some(size) => Shape::Vector(size),
            None => Shape::Scalar,
        };
        let ty = self.shaped(scalar, shape);
        let elements = picks
            .into_iter()
            .map(|(row, column)| (MatrixIndex::Constant(column), MatrixIndex::Constant(row)))
            .collect();
        self.matrix_elements(cx, pointer, elements, ty, writable && unique, span)
    }

    /// A place for `elements` of a matrix: a plain place for a single scalar.
    fn matrix_elements(
        &mut self,
        cx: &mut FnCtx,
        pointer: Handle<Expression>,
        elements: Vec<(MatrixIndex, MatrixIndex)>,
        ty: Handle<Type>,
        writable: bool,
        span: Span,
    ) -> Option<Value> {
        if let [element] = elements[..] {
            return Some(Value::Place {
                pointer: self.matrix_element_pointer(cx, pointer, element, span)?,
                ty,
                writable,
            });
        }
        Some(Value::MatrixPlace {
            pointer,
            elements,
            ty,
            writable,
        })
    }

    /// A pointer to the scalar at (IR column, IR row) of the matrix `pointer` points at.
    pub(crate) fn matrix_element_pointer(
        &mut self,
        cx: &mut FnCtx,
        pointer: Handle<Expression>,
        (column, row): (MatrixIndex, MatrixIndex),
        span: Span,
    ) -> Option<Handle<Expression>> {
        let space = self.pointer_space(cx, pointer);
        let TypeInner::Pointer { base, .. } = *self.module.inner(cx.function.type_of(pointer))
        else {
            return None;
        };
        let TypeInner::Matrix { rows, scalar, .. } = *self.module.inner(base) else {
            return None;
        };
        let column_ty = self.shaped(scalar, Shape::Vector(rows));
        let column_ptr_ty = self.pointer_type(column_ty, space);
        let scalar_ty = self.scalar_type(scalar);
        let scalar_ptr_ty = self.pointer_type(scalar_ty, space);
        let column_ptr = cx.expr(index_expression(pointer, column), column_ptr_ty, span);
        Some(cx.expr(index_expression(column_ptr, row), scalar_ptr_ty, span))
    }

    /// Reads a matrix place: its scalars composed into a vector.
    pub(crate) fn load_matrix_place(
        &mut self,
        cx: &mut FnCtx,
        pointer: Handle<Expression>,
        elements: &[(MatrixIndex, MatrixIndex)],
        ty: Handle<Type>,
        span: Span,
    ) -> Option<Operand> {
        let (scalar, _) = self.numeric(ty)?;
        let scalar_ty = self.scalar_type(scalar);
        let mut components = Vec::new();
        for &element in elements {
            let element = self.matrix_element_pointer(cx, pointer, element, span)?;
            components.push(cx.expr(Expression::Load { pointer: element }, scalar_ty, span));
        }
        Some(Operand {
            expr: cx.expr(
                Expression::Compose {
                    ty,
                    components: components.into(),
                },
                ty,
                span,
            ),
            ty,
            literal: false,
        })
    }

    /// Writes `value` (a vector of the place's type) into a matrix place, one scalar
    /// at a time.
    pub(crate) fn store_matrix_place(
        &mut self,
        cx: &mut FnCtx,
        pointer: Handle<Expression>,
        elements: &[(MatrixIndex, MatrixIndex)],
        ty: Handle<Type>,
        value: Handle<Expression>,
        span: Span,
    ) -> Option<()> {
        let (scalar, _) = self.numeric(ty)?;
        let scalar_ty = self.scalar_type(scalar);
        let value = cx.bind(value);
        for (i, &element) in elements.iter().enumerate() {
            let element = self.matrix_element_pointer(cx, pointer, element, span)?;
            let part = cx.expr(
                Expression::AccessIndex {
                    base: value,
                    index: i as u32,
                },
                scalar_ty,
                span,
            );
            cx.emit(Statement::Store {
                pointer: element,
                value: part,
            });
        }
        Some(())
    }
}

/// `base[index]` with a constant or bound dynamic index.
fn index_expression(base: Handle<Expression>, index: MatrixIndex) -> Expression {
    match index {
        MatrixIndex::Constant(index) => Expression::AccessIndex { base, index },
        MatrixIndex::Dynamic(index) => Expression::Access { base, index },
    }
}

/// The (row, column) pairs of a matrix swizzle such as `_m01_m10` or `_11_22`, if
/// valid for a matrix of `rows` × `columns`. Zero- and one-based forms may not mix.
pub(crate) fn parse_matrix_swizzle(text: &str, rows: u32, columns: u32) -> Option<Vec<(u32, u32)>> {
    let rest = text.strip_prefix('_')?;
    let zero_based = rest.starts_with('m');
    let mut picks = Vec::new();
    for part in rest.split('_') {
        let digits = if zero_based {
            part.strip_prefix('m')?
        } else {
            part
        };
        let mut chars = digits.chars();
        let (Some(r), Some(c), None) = (chars.next(), chars.next(), chars.next()) else {
            return None;
        };
        let (mut r, mut c) = (r.to_digit(10)?, c.to_digit(10)?);
        if !zero_based {
            r = r.checked_sub(1)?;
            c = c.checked_sub(1)?;
        }
        if r >= rows || c >= columns {
            return None;
        }
        picks.push((r, c));
    }
    (1..=4).contains(&picks.len()).then_some(picks)
}

/// Whether no two of `items` are equal (a swizzle that names an element twice cannot be
/// written through).
fn all_different<T: PartialEq>(items: &[T]) -> bool {
    items
        .iter()
        .enumerate()
        .all(|(i, item)| !items.iter().take(i).any(|earlier| earlier == item))
}

#[cfg(test)]
mod tests {
    use super::parse_matrix_swizzle;

    #[test]
    fn parses_zero_and_one_based_matrix_swizzles() {
        assert_eq!(parse_matrix_swizzle("_m12", 3, 4), Some(vec![(1, 2)]));
        assert_eq!(
            parse_matrix_swizzle("_m00_m21", 3, 2),
            Some(vec![(0, 0), (2, 1)])
        );
        assert_eq!(
            parse_matrix_swizzle("_12_33", 3, 3),
            Some(vec![(0, 1), (2, 2)])
        );
        assert_eq!(parse_matrix_swizzle("_m30", 3, 4), None);
        assert_eq!(parse_matrix_swizzle("_00", 4, 4), None);
        assert_eq!(parse_matrix_swizzle("_m00_11", 4, 4), None);
        assert_eq!(parse_matrix_swizzle("_m00_m00_m00_m00_m00", 4, 4), None);
        assert_eq!(parse_matrix_swizzle("xy", 4, 4), None);
    }
}
