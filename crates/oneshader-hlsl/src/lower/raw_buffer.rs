//! Values of any type in a byte-address buffer (`Load<T>`, `Store<T>`), laid out as
//! DXC lays them out: tightly packed, every 32-bit component in the next word (the
//! scalar layout: no std430 vector or struct alignment), structs member after member,
//! arrays element after element, matrices column after column unless the buffer's
//! value is a row-major matrix.

use oneshader_ir::{
    ArraySize, BinaryOperator, Expression, Handle, Literal, Scalar, ScalarKind, Span, Statement,
    Type, TypeInner,
};

use super::context::FnCtx;
use super::Lowerer;

/// Where a raw-buffer value starts: the buffer and its first word's index.
#[derive(Clone, Copy)]
pub(crate) struct RawPlace {
    /// The byte-address buffer (a runtime array of u32 words).
    pub global: Handle<oneshader_ir::GlobalVariable>,
    /// The index of the value's first word (bound once, so it may be used often).
    pub first_word: Handle<Expression>,
}

impl<'a> Lowerer<'a> {
    /// The number of 32-bit words a `T` occupies in a raw buffer, or what about `T` is
    /// not supported.
    pub(crate) fn raw_word_count(&self, ty: Handle<Type>) -> Result<u32, String> {
        match self.module.inner(ty) {
            TypeInner::Scalar(s) => scalar_words(*s),
            TypeInner::Vector { size, scalar } => Ok(scalar_words(*scalar)? * size.count()),
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } => Ok(scalar_words(*scalar)? * columns.count() * rows.count()),
            TypeInner::Array {
                base,
                size: ArraySize::Constant(n),
                ..
            } => Ok(self.raw_word_count(*base)? * n),
            TypeInner::Struct { members, .. } => members
                .iter()
                .try_fold(0, |sum, m| Ok(sum + self.raw_word_count(m.ty)?)),
            _ => Err("resources and runtime-sized arrays".into()),
        }
    }

    /// A pointer to word `word` of the value at `place`.
    fn raw_word_pointer(
        &mut self,
        cx: &mut FnCtx,
        place: RawPlace,
        word: u32,
        span: Span,
    ) -> Handle<Expression> {
        let uint = self.scalar_type(Scalar::U32);
        let gv = &self.module.global_variables[place.global];
        let (global_ty, space) = (gv.ty, gv.space);
        let global_ptr_ty = self.pointer_type(global_ty, space);
        let pointer_ty = self.pointer_type(uint, space);
        let index = if word == 0 {
            place.first_word
        } else {
            let offset = cx.expr(Expression::Literal(Literal::U32(word)), uint, span);
            cx.expr(
                Expression::Binary {
                    op: BinaryOperator::Add,
                    left: place.first_word,
                    right: offset,
                },
                uint,
                span,
            )
        };
        let base = cx.expr(
            Expression::GlobalVariable(place.global),
            global_ptr_ty,
            span,
        );
        cx.expr(Expression::Access { base, index }, pointer_ty, span)
    }

    /// Loads a `ty` starting `word` words after `place` (`raw_word_count` must have
    /// accepted `ty`).
    pub(crate) fn load_raw(
        &mut self,
        cx: &mut FnCtx,
        place: RawPlace,
        word: u32,
        ty: Handle<Type>,
        span: Span,
    ) -> Handle<Expression> {
        let uint = self.scalar_type(Scalar::U32);
        let inner = self.module.inner(ty).clone();
        let (components, word_step): (Vec<Handle<Type>>, u32) = match inner {
            TypeInner::Scalar(scalar) => {
                let pointer = self.raw_word_pointer(cx, place, word, span);
                let bits = cx.expr(Expression::Load { pointer }, uint, span);
                return self.value_of_word_bits(cx, bits, scalar, ty, span);
            }
            TypeInner::Vector { size, scalar } => {
                let words_ty = self.module.type_handle(TypeInner::Vector {
                    size,
                    scalar: Scalar::U32,
                });
                let parts = (0..size.count())
                    .map(|i| {
                        let pointer = self.raw_word_pointer(cx, place, word + i, span);
                        cx.expr(Expression::Load { pointer }, uint, span)
                    })
                    .collect();
                let bits = cx.expr(
                    Expression::Compose {
                        ty: words_ty,
                        components: parts,
                    },
                    words_ty,
                    span,
                );
                return self.value_of_word_bits(cx, bits, scalar, ty, span);
            }
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } => {
                let column = self
                    .module
                    .type_handle(TypeInner::Vector { size: rows, scalar });
                (vec![column; columns.count() as usize], rows.count())
            }
            TypeInner::Array {
                base,
                size: ArraySize::Constant(n),
                ..
            } => {
                let step = self.raw_word_count(base).unwrap_or(1);
                (vec![base; n as usize], step)
            }
            TypeInner::Struct { ref members, .. } => {
                let mut offsets = Vec::new();
                let mut at = word;
                for m in members {
                    offsets.push((m.ty, at));
                    at += self.raw_word_count(m.ty).unwrap_or(1);
                }
                let parts = offsets
                    .into_iter()
                    .map(|(member_ty, at)| self.load_raw(cx, place, at, member_ty, span))
                    .collect();
                return cx.expr(
                    Expression::Compose {
                        ty,
                        components: parts,
                    },
                    ty,
                    span,
                );
            }
            _ => return cx.expr(Expression::ZeroValue(ty), ty, span),
        };
        let parts = (0..)
            .zip(components)
            .map(|(i, part_ty)| self.load_raw(cx, place, word + i * word_step, part_ty, span))
            .collect();
        cx.expr(
            Expression::Compose {
                ty,
                components: parts,
            },
            ty,
            span,
        )
    }

    /// Stores `value` of `ty` starting `word` words after `place`.
    pub(crate) fn store_raw(
        &mut self,
        cx: &mut FnCtx,
        place: RawPlace,
        word: u32,
        value: Handle<Expression>,
        ty: Handle<Type>,
        span: Span,
    ) {
        let uint = self.scalar_type(Scalar::U32);
        let inner = self.module.inner(ty).clone();
        let parts: Vec<(Handle<Type>, u32)> = match inner {
            TypeInner::Scalar(scalar) => {
                let bits = self.word_bits_of(cx, value, scalar, uint, span);
                let pointer = self.raw_word_pointer(cx, place, word, span);
                cx.emit(Statement::Store {
                    pointer,
                    value: bits,
                });
                return;
            }
            TypeInner::Vector { size, scalar } => {
                let component = self.scalar_type(scalar);
                (0..size.count()).map(|i| (component, word + i)).collect()
            }
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } => {
                let column = self
                    .module
                    .type_handle(TypeInner::Vector { size: rows, scalar });
                (0..columns.count())
                    .map(|i| (column, word + i * rows.count()))
                    .collect()
            }
            TypeInner::Array {
                base,
                size: ArraySize::Constant(n),
                ..
            } => {
                let step = self.raw_word_count(base).unwrap_or(1);
                (0..n).map(|i| (base, word + i * step)).collect()
            }
            TypeInner::Struct { ref members, .. } => {
                let mut at = word;
                let mut parts = Vec::new();
                for m in members {
                    parts.push((m.ty, at));
                    at += self.raw_word_count(m.ty).unwrap_or(1);
                }
                parts
            }
            _ => return,
        };
        let value = if parts.len() > 1 {
            cx.bind(value)
        } else {
            value
        };
        for (index, (part_ty, at)) in (0..).zip(parts) {
            let part = cx.expr(
                Expression::AccessIndex { base: value, index },
                part_ty,
                span,
            );
            self.store_raw(cx, place, at, part, part_ty, span);
        }
    }

    /// A scalar or vector of `scalar` components from the u32 words `bits`.
    pub(crate) fn value_of_word_bits(
        &mut self,
        cx: &mut FnCtx,
        bits: Handle<Expression>,
        scalar: Scalar,
        ty: Handle<Type>,
        span: Span,
    ) -> Handle<Expression> {
        match scalar.kind {
            ScalarKind::Uint => bits,
            // DXC stores a bool as a 32-bit 0 or 1 and reads any non-zero word as true.
            ScalarKind::Bool => cx.expr(
                Expression::Convert {
                    expr: bits,
                    to: scalar,
                },
                ty,
                span,
            ),
            _ => cx.expr(
                Expression::Bitcast {
                    expr: bits,
                    to: scalar,
                },
                ty,
                span,
            ),
        }
    }

    /// The u32 word holding the scalar `value`.
    fn word_bits_of(
        &mut self,
        cx: &mut FnCtx,
        value: Handle<Expression>,
        scalar: Scalar,
        uint: Handle<Type>,
        span: Span,
    ) -> Handle<Expression> {
        match scalar.kind {
            ScalarKind::Uint => value,
            ScalarKind::Bool => cx.expr(
                Expression::Convert {
                    expr: value,
                    to: Scalar::U32,
                },
                uint,
                span,
            ),
            _ => cx.expr(
                Expression::Bitcast {
                    expr: value,
                    to: Scalar::U32,
                },
                uint,
                span,
            ),
        }
    }
}

/// Words per scalar: only 32-bit scalars for now.
fn scalar_words(scalar: Scalar) -> Result<u32, String> {
    if scalar.width == 4 {
        Ok(1)
    } else {
        Err(format!("{}-bit components", u32::from(scalar.width) * 8))
    }
}
