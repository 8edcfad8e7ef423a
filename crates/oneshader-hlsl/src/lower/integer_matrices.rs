//! Integer and bool matrices (`int2x3`, `uint4x4`, `bool3x3`) as arrays of column vectors.
//!
//! SPIR-V, MSL and WGSL have float matrices only. While a function is lowered, such a matrix
//! is an IR `Matrix` like a float one, so row indexing, `_mRC` swizzles, per-component
//! operators and conversions read its shape the same way; `mul` and `transpose` of them are
//! expanded per component where they are lowered (`mul` in `intrinsics`, `transpose` in
//! `derived`). Once the module is lowered, each such matrix type becomes an array of its
//! column vectors, which every IR operation left on it (compose, column access, load and
//! store) treats alike, as DXC does. In a storage buffer that array is also the memory
//! layout of a column_major matrix; a constant buffer holding one is read word by word
//! (`cbuffer`), so no block holds one. Bool matrices in storage buffers and integer or
//! bool matrices in stage inputs and outputs are refused.

use oneshader_ir::{
    codes, AddressSpace, ArraySize, Diagnostic, Expression, Handle, MathFunction, ScalarKind, Span,
    Type, TypeInner, VectorSize,
};

use super::context::FnCtx;
use super::expr::{Operand, Shape};
use super::types::{self, LayoutRules};
use super::Lowerer;
use crate::ast;

impl<'a> Lowerer<'a> {
    /// Refuses integer and bool matrices in buffers and stage I/O, then turns every such
    /// matrix type into an array of its columns.
    pub(crate) fn integer_matrices_to_arrays(&mut self) {
        let matrices: Vec<Handle<Type>> = self
            .module
            .types
            .iter()
            .filter(|(_, t)| non_float_matrix(&t.inner))
            .map(|(handle, _)| handle)
            .collect();
        if matrices.is_empty() {
            return;
        }
        self.refuse_integer_matrices_in_interfaces();
        for matrix in matrices {
            let Some((columns, rows, scalar)) = self.matrix_shape(matrix) else {
                continue;
            };
            let column = self
                .module
                .type_handle(TypeInner::Vector { size: rows, scalar });
            let (_, stride) = types::size_align(&self.module, column, LayoutRules::Std430);
            let array = TypeInner::Array {
                base: column,
                size: ArraySize::Constant(columns.count()),
                stride,
            };
            // The HLSL name stays for reflection and messages (`int2x3`, not `int2[3]`).
            let name = Some(self.module.hlsl_type_name(matrix));
            self.module
                .types
                .replace(matrix, Type { name, inner: array });
        }
    }

    fn refuse_integer_matrices_in_interfaces(&mut self) {
        let mut found = Vec::new();
        for (_, global) in self.module.global_variables.iter() {
            // A storage buffer lays a column_major matrix out as its columns, std430
            // vectors one after another: exactly the array of columns. (Struct members
            // may not be row_major there.) Bools have no buffer layout. A constant
            // buffer's block never holds one (it is read word by word); were it to, the
            // 16-byte rows would not be the array's stride.
            let refused = match global.space {
                AddressSpace::Uniform => self.find_non_float_matrix(global.ty, 0, true),
                AddressSpace::Storage { .. } => self.find_non_float_matrix(global.ty, 0, false),
                _ => None,
            };
            if let Some(matrix) = refused {
                let place = match global.space {
                    AddressSpace::Uniform => "a constant buffer",
                    _ => "a buffer",
                };
                found.push((global.span, global.name.clone(), matrix, place));
            }
        }
        for entry in &self.module.entry_points {
            let function = &entry.function;
            let interface = function
                .arguments
                .iter()
                .map(|a| (a.name.clone(), a.ty))
                .chain(function.result.iter().map(|r| ("the result".into(), r.ty)));
            for (name, ty) in interface {
                if let Some(matrix) = self.find_non_float_matrix(ty, 0, true) {
                    found.push((entry.span, name, matrix, "a stage input or output"));
                }
            }
        }
        for (span, name, matrix, place) in found {
            let matrix_name = self.module.hlsl_type_name(matrix);
            let Some((columns, rows, scalar)) = self.matrix_shape(matrix) else {
                continue;
            };
            let (stored, how) = if scalar.kind == ScalarKind::Bool {
                ("uint", "buffers have no layout for bools")
            } else {
                (scalar.hlsl_name(), "their layout there is not modelled yet")
            };
            let rows = format!("{stored}{} rows[{}]", columns.count(), rows.count());
            self.report(Diagnostic::error(
                codes::UNSUPPORTED_CONSTRUCT,
                span,
                format!(
                    "'{name}' holds the matrix type '{matrix_name}' in {place}, which is not supported: {how}; store its rows as an array ({rows}) and convert when reading"
                ),
            ));
        }
    }

    /// The first integer or bool matrix type inside `ty` (members, elements, pointees);
    /// without `integer_too`, the first bool matrix.
    fn find_non_float_matrix(
        &self,
        ty: Handle<Type>,
        depth: u32,
        integer_too: bool,
    ) -> Option<Handle<Type>> {
        if depth > 64 {
            return None;
        }
        match self.module.inner(ty) {
            TypeInner::Matrix { scalar, .. } if scalar.kind == ScalarKind::Bool => Some(ty),
            inner if integer_too && non_float_matrix(inner) => Some(ty),
            TypeInner::Array { base, .. } | TypeInner::Pointer { base, .. } => {
                self.find_non_float_matrix(*base, depth + 1, integer_too)
            }
            TypeInner::Struct { members, .. } => members
                .iter()
                .find_map(|m| self.find_non_float_matrix(m.ty, depth + 1, integer_too)),
            _ => None,
        }
    }
}

fn non_float_matrix(inner: &TypeInner) -> bool {
    matches!(inner, TypeInner::Matrix { scalar, .. } if scalar.kind != ScalarKind::Float)
}

impl<'a> Lowerer<'a> {
    /// `mul` where a matrix operand has integer or bool components, after both operands were
    /// converted to one component type: SPIR-V's matrix products take float matrices only,
    /// so the product is built from columns. With the IR's column-vector matrices, `A × v`
    /// is the sum of `A`'s columns scaled by `v`'s components, `v × B` the dot products of `v`
    /// with `B`'s columns, and column j of `A × B` is `A × (column j of B)`.
    pub(crate) fn integer_matrix_product(
        &mut self,
        cx: &mut FnCtx,
        left: Operand,
        right: Operand,
        span: Span,
    ) -> Option<Operand> {
        let left = cx.bind_operand(left);
        let right = cx.bind_operand(right);
        let l = self.module.inner(left.ty).clone();
        let r = self.module.inner(right.ty).clone();
        match (l, r) {
            (TypeInner::Matrix { columns, .. }, TypeInner::Vector { size, .. }) => {
                self.check_inner_size(columns, size, left.ty, right.ty, span)?;
                self.matrix_times_vector(cx, left, right, span)
            }
            (TypeInner::Vector { size, scalar }, TypeInner::Matrix { columns, rows, .. }) => {
                self.check_inner_size(size, rows, left.ty, right.ty, span)?;
                let scalar_ty = self.scalar_type(scalar);
                let components = (0..columns.count())
                    .map(|j| {
                        let column = self.matrix_column(cx, right, j, span);
                        cx.expr(
                            Expression::Math {
                                fun: MathFunction::Dot,
                                args: Box::new([left.expr, column.expr]),
                            },
                            scalar_ty,
                            span,
                        )
                    })
                    .collect();
                let ty = self.shaped(scalar, Shape::Vector(columns));
                Some(Operand {
                    expr: cx.expr(Expression::Compose { ty, components }, ty, span),
                    ty,
                    literal: false,
                })
            }
            (
                TypeInner::Matrix { columns: inner, .. },
                TypeInner::Matrix {
                    columns,
                    rows: right_rows,
                    ..
                },
            ) => {
                self.check_inner_size(inner, right_rows, left.ty, right.ty, span)?;
                let mut components = Vec::new();
                for j in 0..columns.count() {
                    let column = self.matrix_column(cx, right, j, span);
                    components.push(self.matrix_times_vector(cx, left, column, span)?);
                }
                self.compose_matrix(cx, components, span)
            }
            _ => None,
        }
    }

    /// `matrix × vector`: the matrix's columns scaled by the vector's components, summed.
    fn matrix_times_vector(
        &mut self,
        cx: &mut FnCtx,
        matrix: Operand,
        vector: Operand,
        span: Span,
    ) -> Option<Operand> {
        let (columns, _, _) = self.matrix_shape(matrix.ty)?;
        let mut sum: Option<Operand> = None;
        for k in 0..columns.count() {
            let column = self.matrix_column(cx, matrix, k, span);
            let component = self.vector_component(cx, vector, k, span);
            let term = self.binary_operands(cx, ast::BinaryOp::Mul, column, component, span)?;
            sum = Some(match sum {
                None => term,
                Some(sum) => self.binary_operands(cx, ast::BinaryOp::Add, sum, term, span)?,
            });
        }
        sum
    }

    fn check_inner_size(
        &mut self,
        left: VectorSize,
        right: VectorSize,
        left_ty: Handle<Type>,
        right_ty: Handle<Type>,
        span: Span,
    ) -> Option<()> {
        if left == right {
            return Some(());
        }
        let l = self.module.hlsl_type_name(left_ty);
        let r = self.module.hlsl_type_name(right_ty);
        self.error(
            codes::TYPE_MISMATCH,
            span,
            format!(
                "mul('{l}', '{r}'): the left operand's columns ({}) must match the right operand's rows ({})",
                left.count(),
                right.count()
            ),
        );
        None
    }

    /// `transpose` of an integer or bool matrix, built from its components.
    pub(crate) fn integer_matrix_transpose(
        &mut self,
        cx: &mut FnCtx,
        matrix: Operand,
        span: Span,
    ) -> Option<Operand> {
        let (columns, rows, scalar) = self.matrix_shape(matrix.ty)?;
        let matrix = cx.bind_operand(matrix);
        let scalar_ty = self.scalar_type(scalar);
        let column_ty = self.shaped(scalar, Shape::Vector(columns));
        let mut result_columns = Vec::new();
        for i in 0..rows.count() {
            let components = (0..columns.count())
                .map(|j| {
                    let column = self.matrix_column(cx, matrix, j, span);
                    cx.expr(
                        Expression::AccessIndex {
                            base: column.expr,
                            index: i,
                        },
                        scalar_ty,
                        span,
                    )
                })
                .collect();
            let expr = cx.expr(
                Expression::Compose {
                    ty: column_ty,
                    components,
                },
                column_ty,
                span,
            );
            result_columns.push(Operand {
                expr,
                ty: column_ty,
                literal: false,
            });
        }
        self.compose_matrix(cx, result_columns, span)
    }
}
