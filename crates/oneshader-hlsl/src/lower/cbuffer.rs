//! Constant buffers whose HLSL layout the targets' own struct rules cannot express:
//! structs and arrays inside a `cbuffer`, `packoffset`, and every `ConstantBuffer<T>`.
//!
//! HLSL (FXC's, and D3D's, `cbuffer` rules) packs members into 16-byte rows: a member
//! never straddles a row, every struct and every array element starts a new row, and a
//! struct or array is not padded at its end, so the next member may share its last row.
//! SPIR-V's uniform layout, WGSL's and MSL's cannot all express that (an array of
//! `float` with a 16-byte stride, a member in the tail row of a struct), so such a
//! buffer is declared as what every target can: a block holding `uint4 rows[N]`. A read
//! computes the row (dynamic where an array is indexed dynamically) and the component
//! of every 32-bit word and rebuilds the value, so the offsets are exactly D3D's on
//! every target.

use oneshader_ir::{
    codes, ArraySize, BinaryOperator, Expression, Handle, Literal, MathFunction, Scalar,
    ScalarKind, Span, StructMember, Type, TypeInner, VectorSize,
};

use super::context::{FnCtx, Value};
use super::expr::Operand;
use super::types::{self, LayoutRules};
use super::Lowerer;

/// A value of a row-packed constant buffer, before it is read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CbufferPlace {
    /// The buffer: a block whose one member is `uint4 rows[N]`.
    pub global: Handle<oneshader_ir::GlobalVariable>,
    /// Rows added by dynamic array indices (bound), if any.
    pub row: Option<Handle<Expression>>,
    /// The constant byte offset.
    pub offset: u32,
    /// The HLSL value type.
    pub ty: Handle<Type>,
    /// The same type with cbuffer offsets and strides ([`Lowerer::cbuffer_layout`]).
    pub layout: Handle<Type>,
    /// Matrices are stored row by row (`row_major`).
    pub row_major: bool,
}

/// Where `packoffset(cN.c)` puts a member, in bytes, or `None` when it is malformed.
pub(crate) fn packoffset_bytes(register: &str, component: Option<&str>) -> Option<u32> {
    let row: u32 = register
        .strip_prefix('c')
        .or_else(|| register.strip_prefix('C'))?
        .parse()
        .ok()?;
    let column = match component {
        None | Some("x" | "r") => 0,
        Some("y" | "g") => 1,
        Some("z" | "b") => 2,
        Some("w" | "a") => 3,
        Some(_) => return None,
    };
    Some(row.checked_mul(16)? + column * 4)
}

impl<'a> Lowerer<'a> {
    /// The copy of `ty` laid out by HLSL's cbuffer rules: structs get cbuffer member
    /// offsets and an unpadded size, arrays a stride of whole rows; a `row_major`
    /// matrix is stored as its transpose. Scalars, vectors and matrices are unchanged.
    pub(crate) fn cbuffer_layout(&mut self, ty: Handle<Type>, row_major: bool) -> Handle<Type> {
        if let Some((rows, columns)) = self.degenerate_shape(ty) {
            return self.degenerate_cbuffer_layout(ty, rows, columns, row_major);
        }
        match self.module.inner(ty).clone() {
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } if row_major => self.module.type_handle(TypeInner::Matrix {
                columns: rows,
                rows: columns,
                scalar,
            }),
            TypeInner::Array { base, size, .. } => {
                let element = self.cbuffer_layout(base, row_major);
                let (element_size, _) =
                    types::size_align(&self.module, element, LayoutRules::ConstantBuffer);
                self.module.type_handle(TypeInner::Array {
                    base: element,
                    size,
                    stride: types::round_up(element_size, 16),
                })
            }
            TypeInner::Struct { members, .. } => {
                let name = self.module.types[ty].name.clone();
                let mut laid_out = Vec::new();
                let mut offset = 0;
                for member in members {
                    let member_ty = self.cbuffer_layout(member.ty, row_major);
                    let (size, align) =
                        types::size_align(&self.module, member_ty, LayoutRules::ConstantBuffer);
                    offset = types::place_member(offset, size, align, LayoutRules::ConstantBuffer);
                    laid_out.push(StructMember {
                        ty: member_ty,
                        offset,
                        ..member
                    });
                    offset += size;
                }
                self.module.types.insert(Type {
                    name: name.map(|n| format!("{n}_cbuffer")),
                    inner: TypeInner::Struct {
                        members: laid_out,
                        size: offset,
                    },
                })
            }
            _ => ty,
        }
    }

    /// Declares the block of a row-packed constant buffer of `size` bytes.
    pub(crate) fn cbuffer_rows_type(&mut self, name: &str, size: u32) -> Handle<Type> {
        let row = self.module.type_handle(TypeInner::Vector {
            size: VectorSize::Quad,
            scalar: Scalar::U32,
        });
        let count = size.div_ceil(16).max(1);
        let rows = self.module.type_handle(TypeInner::Array {
            base: row,
            size: ArraySize::Constant(count),
            stride: 16,
        });
        self.module.types.insert(Type {
            name: Some(format!("type_{name}")),
            inner: TypeInner::Struct {
                members: vec![StructMember {
                    name: "rows".into(),
                    ty: rows,
                    offset: 0,
                    binding: None,
                }],
                size: count * 16,
            },
        })
    }

    /// Member `name` of a struct in a row-packed buffer, or `None` when `place` is not
    /// a struct or has no such member (the caller reads the value and goes on).
    pub(crate) fn cbuffer_member(&self, place: &CbufferPlace, name: &str) -> Option<CbufferPlace> {
        let (TypeInner::Struct { members, .. }, TypeInner::Struct { members: laid, .. }) =
            (self.module.inner(place.ty), self.module.inner(place.layout))
        else {
            return None;
        };
        let index = members.iter().position(|m| m.name == name)?;
        let (member, laid) = (members.get(index)?, laid.get(index)?);
        Some(CbufferPlace {
            offset: place.offset + laid.offset,
            ty: member.ty,
            layout: laid.ty,
            ..*place
        })
    }

    /// Element `index` (a u32 or i32 expression) of an array in a row-packed buffer, or
    /// `None` when `place` is not an array.
    pub(crate) fn cbuffer_element(
        &mut self,
        cx: &mut FnCtx,
        place: &CbufferPlace,
        index: Handle<Expression>,
        span: Span,
    ) -> Option<CbufferPlace> {
        let (
            TypeInner::Array { base, .. },
            TypeInner::Array {
                base: laid, stride, ..
            },
        ) = (
            self.module.inner(place.ty).clone(),
            self.module.inner(place.layout).clone(),
        )
        else {
            return None;
        };
        let constant = match cx.function.expressions[index] {
            Expression::Literal(Literal::U32(v)) => Some(v),
            Expression::Literal(Literal::I32(v)) => u32::try_from(v).ok(),
            _ => None,
        };
        if let Some(i) = constant {
            return Some(CbufferPlace {
                offset: place.offset + i * stride,
                ty: base,
                layout: laid,
                ..*place
            });
        }
        let uint = self.scalar_type(Scalar::U32);
        let index = match self.numeric(cx.function.type_of(index)) {
            Some((s, _)) if s == Scalar::U32 => index,
            _ => cx.expr(
                Expression::Bitcast {
                    expr: index,
                    to: Scalar::U32,
                },
                uint,
                span,
            ),
        };
        let rows_per_element = cx.expr(Expression::Literal(Literal::U32(stride / 16)), uint, span);
        let mut row = cx.expr(
            Expression::Binary {
                op: BinaryOperator::Multiply,
                left: index,
                right: rows_per_element,
            },
            uint,
            span,
        );
        if let Some(previous) = place.row {
            row = cx.expr(
                Expression::Binary {
                    op: BinaryOperator::Add,
                    left: previous,
                    right: row,
                },
                uint,
                span,
            );
        }
        Some(CbufferPlace {
            row: Some(cx.bind(row)),
            ty: base,
            layout: laid,
            ..*place
        })
    }

    /// The cbuffer layout of a 1xN or Nx1 matrix: HLSL gives each stored column
    /// (column_major) or row (row_major) a 16-byte row of its own, so a `float1x4` is four
    /// rows of one float (an array of floats, stride 16) and a `float4x1` one row of four (a
    /// one-element array of its vector, which starts a row as every matrix does).
    fn degenerate_cbuffer_layout(
        &mut self,
        ty: Handle<Type>,
        rows: u32,
        columns: u32,
        row_major: bool,
    ) -> Handle<Type> {
        let Some((scalar, _)) = self.numeric(ty) else {
            return ty;
        };
        let (count, per_row) = if row_major {
            (rows, columns)
        } else {
            (columns, rows)
        };
        let base = match VectorSize::from_count(per_row) {
            Some(size) => self.module.type_handle(TypeInner::Vector { size, scalar }),
            None => self.scalar_type(scalar),
        };
        self.module.type_handle(TypeInner::Array {
            base,
            size: ArraySize::Constant(count),
            stride: 16,
        })
    }

    /// Reads the value at `place`.
    pub(crate) fn load_cbuffer(
        &mut self,
        cx: &mut FnCtx,
        place: &CbufferPlace,
        span: Span,
    ) -> Handle<Expression> {
        let ty = place.ty;
        if self.degenerate_shape(ty).is_some() {
            // A 1xN or Nx1 matrix: its vector from the rows of its layout.
            if let TypeInner::Array {
                base,
                size: ArraySize::Constant(n),
                stride,
            } = *self.module.inner(place.layout)
            {
                let components: Vec<_> = (0..n)
                    .map(|i| {
                        let part = CbufferPlace {
                            offset: place.offset + i * stride,
                            ty: base,
                            layout: base,
                            ..*place
                        };
                        self.load_cbuffer(cx, &part, span)
                    })
                    .collect();
                if let [whole] = components[..] {
                    return whole;
                }
                return cx.expr(
                    Expression::Compose {
                        ty,
                        components: components.into(),
                    },
                    ty,
                    span,
                );
            }
        }
        match self.module.inner(place.layout).clone() {
            TypeInner::Scalar(scalar) => self.load_cbuffer_scalar(cx, place, scalar, span),
            TypeInner::Vector { size, scalar } => {
                let components = (0..size.count())
                    .map(|i| {
                        let component = CbufferPlace {
                            offset: place.offset + i * u32::from(scalar.width),
                            ..*place
                        };
                        self.load_cbuffer_scalar(cx, &component, scalar, span)
                    })
                    .collect();
                cx.expr(Expression::Compose { ty, components }, ty, span)
            }
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } => {
                // Each stored column is one row of the buffer.
                let column_ty = self
                    .module
                    .type_handle(TypeInner::Vector { size: rows, scalar });
                let stored_ty = place.layout;
                let components = (0..columns.count())
                    .map(|c| {
                        let column = CbufferPlace {
                            offset: place.offset + 16 * c,
                            ty: column_ty,
                            layout: column_ty,
                            ..*place
                        };
                        self.load_cbuffer(cx, &column, span)
                    })
                    .collect();
                let stored = cx.expr(
                    Expression::Compose {
                        ty: stored_ty,
                        components,
                    },
                    stored_ty,
                    span,
                );
                if place.row_major && scalar.kind != ScalarKind::Float {
                    let stored = Operand {
                        expr: stored,
                        ty: stored_ty,
                        literal: false,
                    };
                    self.integer_matrix_transpose(cx, stored, span)
                        .map_or(stored.expr, |t| t.expr)
                } else if place.row_major {
                    cx.expr(
                        Expression::Math {
                            fun: MathFunction::Transpose,
                            args: Box::new([stored]),
                        },
                        ty,
                        span,
                    )
                } else {
                    stored
                }
            }
            TypeInner::Array {
                size: ArraySize::Constant(n),
                ..
            } => {
                let uint = self.scalar_type(Scalar::U32);
                let components = (0..n)
                    .map(|i| {
                        let index = cx.expr(Expression::Literal(Literal::U32(i)), uint, span);
                        match self.cbuffer_element(cx, place, index, span) {
                            Some(element) => self.load_cbuffer(cx, &element, span),
                            None => cx.expr(Expression::ZeroValue(ty), ty, span),
                        }
                    })
                    .collect();
                cx.expr(Expression::Compose { ty, components }, ty, span)
            }
            TypeInner::Struct { members, .. } => {
                let components = members
                    .iter()
                    .map(|m| match self.cbuffer_member(place, &m.name) {
                        Some(member) => self.load_cbuffer(cx, &member, span),
                        None => cx.expr(Expression::ZeroValue(ty), ty, span),
                    })
                    .collect();
                cx.expr(Expression::Compose { ty, components }, ty, span)
            }
            _ => cx.expr(Expression::ZeroValue(ty), ty, span),
        }
    }

    /// Reads the 32-bit scalar at `place`.
    fn load_cbuffer_scalar(
        &mut self,
        cx: &mut FnCtx,
        place: &CbufferPlace,
        scalar: Scalar,
        span: Span,
    ) -> Handle<Expression> {
        let uint = self.scalar_type(Scalar::U32);
        let uint4 = self.module.type_handle(TypeInner::Vector {
            size: VectorSize::Quad,
            scalar: Scalar::U32,
        });
        let block_ty = self.module.global_variables[place.global].ty;
        let space = self.module.global_variables[place.global].space;
        let rows_ty = match self.module.inner(block_ty) {
            TypeInner::Struct { members, .. } => members.first().map(|m| m.ty),
            _ => None,
        }
        .unwrap_or(block_ty);
        let block_ptr = self.pointer_type(block_ty, space);
        let rows_ptr = self.pointer_type(rows_ty, space);
        let row_ptr = self.pointer_type(uint4, space);
        let word_ptr = self.pointer_type(uint, space);
        let constant_row = cx.expr(
            Expression::Literal(Literal::U32(place.offset / 16)),
            uint,
            span,
        );
        let row = match place.row {
            Some(dynamic) if place.offset >= 16 => cx.expr(
                Expression::Binary {
                    op: BinaryOperator::Add,
                    left: dynamic,
                    right: constant_row,
                },
                uint,
                span,
            ),
            Some(dynamic) => dynamic,
            None => constant_row,
        };
        let block = cx.expr(Expression::GlobalVariable(place.global), block_ptr, span);
        let rows = cx.expr(
            Expression::AccessIndex {
                base: block,
                index: 0,
            },
            rows_ptr,
            span,
        );
        let row = cx.expr(
            Expression::Access {
                base: rows,
                index: row,
            },
            row_ptr,
            span,
        );
        let word = cx.expr(
            Expression::AccessIndex {
                base: row,
                index: (place.offset % 16) / 4,
            },
            word_ptr,
            span,
        );
        let bits = cx.expr(Expression::Load { pointer: word }, uint, span);
        let ty = self.scalar_type(scalar);
        self.value_of_word_bits(cx, bits, scalar, ty, span)
    }

    /// Checks that a row-packed buffer's member type has only 32-bit components;
    /// reports and returns `false` otherwise.
    pub(crate) fn check_cbuffer_components(&mut self, ty: Handle<Type>, span: Span) -> bool {
        let ok = match self.module.inner(ty).clone() {
            TypeInner::Scalar(s)
            | TypeInner::Vector { scalar: s, .. }
            | TypeInner::Matrix { scalar: s, .. } => s.width == 4,
            TypeInner::Array { base, .. } => return self.check_cbuffer_components(base, span),
            TypeInner::Struct { members, .. } => {
                return members
                    .iter()
                    .all(|m| self.check_cbuffer_components(m.ty, span));
            }
            _ => false,
        };
        if !ok {
            let name = types::type_name(&self.module, ty);
            self.error(
                codes::UNSUPPORTED_CONSTRUCT,
                span,
                format!("'{name}' in a constant buffer with structs, arrays or packoffset is not supported yet: only 32-bit components are; use float, int, uint or bool"),
            );
        }
        ok
    }

    /// The value of a row-packed buffer place, read.
    pub(crate) fn cbuffer_rvalue(
        &mut self,
        cx: &mut FnCtx,
        place: &CbufferPlace,
        span: Span,
    ) -> Value {
        Value::Rvalue {
            expr: self.load_cbuffer(cx, place, span),
            ty: place.ty,
            literal: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::packoffset_bytes;

    #[test]
    fn packoffset_registers_are_16_bytes_and_components_4() {
        assert_eq!(packoffset_bytes("c0", None), Some(0));
        assert_eq!(packoffset_bytes("c3", Some("y")), Some(52));
        assert_eq!(packoffset_bytes("c12", Some("w")), Some(204));
        assert_eq!(packoffset_bytes("c1", Some("b")), Some(24));
        assert_eq!(packoffset_bytes("t1", None), None);
        assert_eq!(packoffset_bytes("c1", Some("q")), None);
    }
}
