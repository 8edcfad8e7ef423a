//! Expressions: names, operators, conversions, assignments and calls.

use oneshader_ir::{
    codes, AddressSpace, ArraySize, BinaryOperator, Diagnostic, Expression, Handle, Literal,
    Scalar, ScalarKind, Span, Statement, SwizzleComponent, Type, TypeInner, UnaryOperator,
    VectorSize,
};

use super::context::{FnCtx, LocalSymbol, MatrixIndex, Value};
use super::types::{self, Ty};
use super::{GlobalSymbol, Lowerer};
use crate::ast;

/// A computed value with its type.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Operand {
    pub expr: Handle<Expression>,
    pub ty: Handle<Type>,
    /// An unsuffixed literal: its type adapts to the other operand.
    pub literal: bool,
}

impl Operand {
    /// As a [`Value`].
    pub fn into_value(self) -> Value {
        Value::Rvalue {
            expr: self.expr,
            ty: self.ty,
            literal: self.literal,
        }
    }
}

/// Rank of scalar kinds in HLSL's usual arithmetic conversions.
fn rank(scalar: Scalar) -> u8 {
    match scalar.kind {
        ScalarKind::Bool => 0,
        ScalarKind::Sint => 1 + scalar.width,
        ScalarKind::Uint => 2 + scalar.width,
        ScalarKind::Float => 20 + scalar.width,
    }
}

/// The shape of a numeric type: scalar or vector size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Shape {
    Scalar,
    Vector(VectorSize),
}

impl<'a> Lowerer<'a> {
    /// The (scalar, shape) of a scalar or vector type.
    pub(crate) fn numeric(&self, ty: Handle<Type>) -> Option<(Scalar, Shape)> {
        match *self.module.inner(ty) {
            TypeInner::Scalar(s) => Some((s, Shape::Scalar)),
            TypeInner::Vector { size, scalar } => Some((scalar, Shape::Vector(size))),
            _ => None,
        }
    }

    /// The type with `scalar` components and `shape`.
    pub(crate) fn shaped(&mut self, scalar: Scalar, shape: Shape) -> Handle<Type> {
        if let Some(ty) = self.numeric_types.get(scalar, shape) {
            return ty;
        }
        let ty = match shape {
            Shape::Scalar => self.module.type_handle(TypeInner::Scalar(scalar)),
            Shape::Vector(size) => self.module.type_handle(TypeInner::Vector { size, scalar }),
        };
        self.numeric_types.insert(scalar, shape, ty);
        ty
    }

    /// A pointer type to `base` in `space`.
    pub(crate) fn pointer_type(&mut self, base: Handle<Type>, space: AddressSpace) -> Handle<Type> {
        if let Some(ty) = self.pointer_types.get(base, space) {
            return ty;
        }
        let ty = self.module.type_handle(TypeInner::Pointer { base, space });
        self.pointer_types.insert(base, space, ty);
        ty
    }

    /// Lowers an expression.
    pub(crate) fn lower_expr(&mut self, cx: &mut FnCtx, e: &'a ast::Expr<'a>) -> Option<Value> {
        let span = e.span;
        match &e.kind {
            ast::ExprKind::Literal(literal) => self.lower_literal(cx, literal, span),
            ast::ExprKind::Name(name) => self.lower_name(cx, name, span),
            ast::ExprKind::Unary { op, operand } => self.lower_unary(cx, *op, operand, span),
            ast::ExprKind::Binary(binary) => {
                self.lower_binary(cx, binary.op, &binary.lhs, &binary.rhs, span)
            }
            ast::ExprKind::Assign(assign) => {
                self.lower_assign(cx, assign.op, &assign.target, &assign.value, span)
            }
            ast::ExprKind::Conditional(c) => {
                self.lower_conditional(cx, &c.condition, &c.accept, &c.reject, span)
            }
            ast::ExprKind::Cast(cast) => {
                let ast::CastExpr {
                    ty,
                    array_dims,
                    operand,
                } = &**cast;
                let target = match self.resolve_type(ty)? {
                    Ty::Value(t) => self.apply_array_dims(t, array_dims)?,
                    _ => {
                        self.error(
                            codes::TYPE_MISMATCH,
                            ty.span,
                            "can only cast to value types",
                        );
                        return None;
                    }
                };
                let value = self.lower_expr(cx, operand)?;
                let expr = self.convert_explicit(cx, value, target, span)?;
                Some(Value::Rvalue {
                    expr,
                    ty: target,
                    literal: false,
                })
            }
            ast::ExprKind::Constructor(constructor) => {
                let ast::ConstructorExpr { ty, args } = &**constructor;
                let Ty::Value(target) = self.resolve_type(ty)? else {
                    self.error(codes::TYPE_MISMATCH, ty.span, "cannot construct this type");
                    return None;
                };
                self.lower_constructor(cx, target, args, span)
            }
            ast::ExprKind::Call(call) => self.lower_call(cx, &call.function, call.args, span),
            ast::ExprKind::MethodCall(call) => self.lower_method_call(
                cx,
                &call.receiver,
                &call.method,
                call.template_args,
                call.args,
                span,
            ),
            ast::ExprKind::Member(m) => self.lower_member(cx, &m.base, &m.member),
            ast::ExprKind::Index(index) => self.lower_index(cx, &index.base, &index.index, span),
            ast::ExprKind::InitList(_) => {
                self.error(
                    codes::SYNTAX,
                    span,
                    "an initializer list is only allowed in a declaration",
                );
                None
            }
            ast::ExprKind::Error => None,
        }
    }

    /// Lowers an expression to a value (loading places).
    pub(crate) fn lower_rvalue(&mut self, cx: &mut FnCtx, e: &'a ast::Expr<'a>) -> Option<Operand> {
        let value = self.lower_expr(cx, e)?;
        self.rvalue(cx, value, e.span)
    }

    /// Reads a value: loads places, reads swizzles.
    #[inline]
    pub(crate) fn rvalue(&mut self, cx: &mut FnCtx, value: Value, span: Span) -> Option<Operand> {
        // A computed value (about half of them) is read where it is, without a call.
        match value {
            Value::Rvalue { expr, ty, literal } => Some(Operand { expr, ty, literal }),
            other => self.read_value(cx, other, span),
        }
    }

    /// [`Self::rvalue`] of a value in memory or a resource.
    fn read_value(&mut self, cx: &mut FnCtx, value: Value, span: Span) -> Option<Operand> {
        match value {
            Value::Rvalue { expr, ty, literal } => Some(Operand { expr, ty, literal }),
            Value::Cbuffer(place) => Some(Operand {
                expr: self.load_cbuffer(cx, &place, span),
                ty: place.ty,
                literal: false,
            }),
            Value::Place { pointer, ty, .. } => Some(Operand {
                expr: cx.expr(Expression::Load { pointer }, ty, span),
                ty,
                literal: false,
            }),
            Value::SwizzlePlace {
                pointer,
                vector_ty,
                components,
                ty,
                ..
            } => {
                let vector = cx.expr(Expression::Load { pointer }, vector_ty, span);
                let expr = self.swizzle(cx, vector, &components, ty, span);
                Some(Operand {
                    expr,
                    ty,
                    literal: false,
                })
            }
            Value::MatrixPlace {
                pointer,
                elements,
                ty,
                ..
            } => self.load_matrix_place(cx, pointer, &elements, ty, span),
            Value::Texel {
                image,
                coordinate,
                array_index,
                level,
                ..
            } => {
                let value = self.read_texel(cx, image, coordinate, array_index, level, span)?;
                self.rvalue(cx, value, span)
            }
            Value::Resource { global, .. } => {
                let name = self.module.global_variables[global].name.clone();
                self.error(
                    codes::TYPE_MISMATCH,
                    span,
                    format!("the resource '{name}' cannot be used as a value: index it or call one of its methods"),
                );
                None
            }
        }
    }

    fn swizzle(
        &mut self,
        cx: &mut FnCtx,
        vector: Handle<Expression>,
        components: &[u32],
        ty: Handle<Type>,
        span: Span,
    ) -> Handle<Expression> {
        // A swizzle of a swizzle (`(a + b).zyx.xy`) is one swizzle of the inner vector.
        let composed: Vec<u32>;
        let (vector, components) = match cx.function.expressions[vector] {
            Expression::Swizzle {
                size,
                vector: inner,
                pattern,
            } if components.iter().all(|&c| c < size as u32) => {
                composed = components
                    .iter()
                    .map(|&c| pattern.get(c as usize).map_or(c, |&p| p as u32))
                    .collect();
                (inner, composed.as_slice())
            }
            _ => (vector, components),
        };
        if let [index] = *components {
            return cx.expr(
                Expression::AccessIndex {
                    base: vector,
                    index,
                },
                ty,
                span,
            );
        }
        let mut pattern = [SwizzleComponent::X; 4];
        for (slot, &c) in pattern.iter_mut().zip(components) {
            *slot = match c {
                0 => SwizzleComponent::X,
                1 => SwizzleComponent::Y,
                2 => SwizzleComponent::Z,
                _ => SwizzleComponent::W,
            };
        }
        let size = VectorSize::from_count(components.len() as u32).unwrap_or(VectorSize::Quad);
        cx.expr(
            Expression::Swizzle {
                size,
                vector,
                pattern,
            },
            ty,
            span,
        )
    }

    fn lower_literal(
        &mut self,
        cx: &mut FnCtx,
        literal: &ast::Literal<'a>,
        span: Span,
    ) -> Option<Value> {
        let (value, literal_flag) = match literal {
            ast::Literal::Bool(b) => (Literal::Bool(*b), false),
            ast::Literal::Int { value, suffix } => match suffix {
                ast::IntSuffix::None => match i32::try_from(*value) {
                    Ok(v) => (Literal::I32(v), true),
                    Err(_) => match u32::try_from(*value) {
                        Ok(v) => (Literal::U32(v), true),
                        Err(_) => (Literal::I64(*value as i64), true),
                    },
                },
                ast::IntSuffix::Unsigned => match u32::try_from(*value) {
                    Ok(v) => (Literal::U32(v), false),
                    Err(_) => (Literal::U64(*value), false),
                },
                ast::IntSuffix::Long => (Literal::I64(*value as i64), false),
                ast::IntSuffix::UnsignedLong => (Literal::U64(*value), false),
            },
            ast::Literal::Float { value, suffix } => match suffix {
                ast::FloatSuffix::None => (Literal::F32(*value as f32), true),
                ast::FloatSuffix::Float | ast::FloatSuffix::Half => {
                    (Literal::F32(*value as f32), false)
                }
                ast::FloatSuffix::Double => (Literal::F64(*value), false),
            },
            ast::Literal::String(_) => {
                self.error(
                    codes::TYPE_MISMATCH,
                    span,
                    "string literals are only allowed in attributes",
                );
                return None;
            }
        };
        let ty = self.scalar_type(value.scalar());
        Some(Value::Rvalue {
            expr: cx.expr(Expression::Literal(value), ty, span),
            ty,
            literal: literal_flag,
        })
    }

    /// The value a name stands for; `expr_span` is the span of the name's expression.
    fn lower_name(
        &mut self,
        cx: &mut FnCtx,
        name_expr: &ast::NameExpr<'a>,
        expr_span: Span,
    ) -> Option<Value> {
        // A plain name (nearly every one) is looked up without making a `Path` of it.
        let (name, symbol, span, plain) = match name_expr {
            ast::NameExpr::Plain { name, symbol } => (&**name, *symbol, expr_span, true),
            ast::NameExpr::Path(path) => {
                (path.name(), path.last.symbol, path.span(), path.is_plain())
            }
        };
        if plain {
            if let Some(symbol) = cx.lookup(symbol) {
                return Some(match symbol {
                    LocalSymbol::Poisoned => return None,
                    LocalSymbol::Variable { var, ty } => {
                        let pointer_ty = self.pointer_type(ty, AddressSpace::Function);
                        Value::Place {
                            pointer: cx.expr(Expression::LocalVariable(var), pointer_ty, span),
                            ty,
                            writable: true,
                        }
                    }
                    LocalSymbol::Value { expr, ty } => Value::Rvalue {
                        expr,
                        ty,
                        literal: false,
                    },
                    LocalSymbol::PointerParam { index, ty } => {
                        let pointer_ty = self.pointer_type(ty, AddressSpace::Function);
                        Value::Place {
                            pointer: cx.expr(Expression::FunctionArgument(index), pointer_ty, span),
                            ty,
                            writable: true,
                        }
                    }
                    LocalSymbol::Resource { global, ty } => {
                        self.resource_value(cx, global, ty, span)
                    }
                    LocalSymbol::ThisMember { member, ty } => {
                        let LocalSymbol::PointerParam { index, ty: this_ty } = cx.lookup_this()?
                        else {
                            return None;
                        };
                        let this_ptr = self.pointer_type(this_ty, AddressSpace::Function);
                        let base = cx.expr(Expression::FunctionArgument(index), this_ptr, span);
                        let pointer_ty = self.pointer_type(ty, AddressSpace::Function);
                        Value::Place {
                            pointer: cx.expr(
                                Expression::AccessIndex {
                                    base,
                                    index: member,
                                },
                                pointer_ty,
                                span,
                            ),
                            ty,
                            writable: true,
                        }
                    }
                });
            }
        }
        match self.globals.get(&symbol).copied() {
            Some(GlobalSymbol::Variable { global, ty }) => {
                let space = self.module.global_variables[global].space;
                let pointer_ty = self.pointer_type(ty, space);
                Some(Value::Place {
                    pointer: cx.expr(Expression::GlobalVariable(global), pointer_ty, span),
                    ty,
                    writable: true,
                })
            }
            Some(GlobalSymbol::CbufferField {
                global,
                index,
                ty,
                transposed,
            }) => {
                let block_ty = self.module.global_variables[global].ty;
                let block_ptr = self.pointer_type(block_ty, AddressSpace::Uniform);
                let base = cx.expr(Expression::GlobalVariable(global), block_ptr, span);
                if transposed {
                    // A row_major matrix: the block holds its transpose.
                    let stored = match self.module.inner(block_ty) {
                        TypeInner::Struct { members, .. } => members.get(index as usize)?.ty,
                        _ => return None,
                    };
                    let pointer_ty = self.pointer_type(stored, AddressSpace::Uniform);
                    let pointer =
                        cx.expr(Expression::AccessIndex { base, index }, pointer_ty, span);
                    let value = cx.expr(Expression::Load { pointer }, stored, span);
                    let expr = cx.expr(
                        Expression::Math {
                            fun: oneshader_ir::MathFunction::Transpose,
                            args: Box::new([value]),
                        },
                        ty,
                        span,
                    );
                    return Some(Value::Rvalue {
                        expr,
                        ty,
                        literal: false,
                    });
                }
                let pointer_ty = self.pointer_type(ty, AddressSpace::Uniform);
                Some(Value::Place {
                    pointer: cx.expr(Expression::AccessIndex { base, index }, pointer_ty, span),
                    ty,
                    writable: false,
                })
            }
            Some(GlobalSymbol::CbufferRows(place)) => Some(Value::Cbuffer(place)),
            Some(GlobalSymbol::Resource { global, ty }) => {
                Some(self.resource_value(cx, global, ty, span))
            }
            Some(GlobalSymbol::Constant { init, ty }) => {
                let expr = self.lower_initializer(cx, init, ty)?;
                Some(Value::Rvalue {
                    expr,
                    ty,
                    literal: false,
                })
            }
            None => {
                let mut diagnostic = Diagnostic::error(
                    codes::UNKNOWN_IDENTIFIER,
                    span,
                    format!(
                        "unknown identifier '{}'",
                        name_expr.to_path(expr_span).to_text()
                    ),
                );
                if let Some(similar) = self.similar_name(cx, name) {
                    diagnostic = diagnostic.with_help(format!("did you mean '{similar}'?"));
                } else {
                    diagnostic = diagnostic.with_help("declare it before this use");
                }
                self.report(diagnostic);
                None
            }
        }
    }

    /// The value a resource's name stands for: a `ConstantBuffer<T>` is its `T` in
    /// uniform memory, any other resource is itself.
    fn resource_value(
        &mut self,
        cx: &mut FnCtx,
        global: Handle<oneshader_ir::GlobalVariable>,
        ty: super::types::ResourceTy,
        span: Span,
    ) -> Value {
        if ty.kind.is_constant_block() {
            let pointer_ty = self.pointer_type(ty.element, AddressSpace::Uniform);
            return Value::Place {
                pointer: cx.expr(Expression::GlobalVariable(global), pointer_ty, span),
                ty: ty.element,
                writable: false,
            };
        }
        Value::Resource { global, ty }
    }

    /// A declared name close to `name`, for "did you mean" suggestions.
    fn similar_name(&self, _cx: &FnCtx, name: &str) -> Option<String> {
        let lower = name.to_ascii_lowercase();
        let unit = self.unit;
        self.globals
            .keys()
            .map(|&symbol| unit.text(symbol))
            .chain(self.functions.keys().map(|name| &**name))
            .filter(|candidate| {
                let c = candidate.to_ascii_lowercase();
                c != lower && edit_distance(&c, &lower) <= 2
            })
            .min()
            .map(str::to_string)
    }

    fn lower_unary(
        &mut self,
        cx: &mut FnCtx,
        op: ast::UnaryOp,
        operand: &'a ast::Expr<'a>,
        span: Span,
    ) -> Option<Value> {
        match op {
            ast::UnaryOp::Plus => self.lower_expr(cx, operand),
            ast::UnaryOp::Negate | ast::UnaryOp::BitNot | ast::UnaryOp::LogicalNot => {
                let value = self.lower_rvalue(cx, operand)?;
                if let Some((columns, _, _)) = self.matrix_shape(value.ty) {
                    // Per component, so column by column.
                    let matrix = cx.bind_operand(value);
                    let mut components = Vec::new();
                    for j in 0..columns.count() {
                        let column = self.matrix_column(cx, matrix, j, span);
                        let result = self.unary_operand(cx, op, column, operand.span, span)?;
                        components.push(self.rvalue(cx, result, span)?);
                    }
                    return self
                        .compose_matrix(cx, components, span)
                        .map(Operand::into_value);
                }
                let result = self.unary_operand(cx, op, value, operand.span, span)?;
                let result = self.rvalue(cx, result, span)?;
                Some(self.keep_degenerate(&[value], result).into_value())
            }
            ast::UnaryOp::PreIncrement
            | ast::UnaryOp::PreDecrement
            | ast::UnaryOp::PostIncrement
            | ast::UnaryOp::PostDecrement => {
                let place = self.lower_expr(cx, operand)?;
                self.check_writable(&place, operand.span)?;
                let old = self.rvalue(cx, place.clone(), span)?;
                let Some((scalar, _)) = self.numeric(old.ty) else {
                    self.error(
                        codes::TYPE_MISMATCH,
                        operand.span,
                        "'++' and '--' need a numeric operand",
                    );
                    return None;
                };
                let old_expr = cx.bind(old.expr);
                let one = self.literal(cx, scalar, 1, span);
                let scalar_ty = self.scalar_type(scalar);
                let one = self.convert_value(
                    cx,
                    Value::Rvalue {
                        expr: one,
                        ty: scalar_ty,
                        literal: false,
                    },
                    old.ty,
                    span,
                    false,
                )?;
                let is_post = matches!(
                    op,
                    ast::UnaryOp::PostIncrement | ast::UnaryOp::PostDecrement
                );
                let binary =
                    if matches!(op, ast::UnaryOp::PreIncrement | ast::UnaryOp::PostIncrement) {
                        BinaryOperator::Add
                    } else {
                        BinaryOperator::Subtract
                    };
                let new = cx.expr(
                    Expression::Binary {
                        op: binary,
                        left: old_expr,
                        right: one,
                    },
                    old.ty,
                    span,
                );
                let new = cx.bind(new);
                self.store(cx, &place, new, span)?;
                Some(Value::Rvalue {
                    expr: if is_post { old_expr } else { new },
                    ty: old.ty,
                    literal: false,
                })
            }
        }
    }
}

impl<'a> Lowerer<'a> {
    /// Lowers every argument, so each one's errors are reported; `None` when any failed.
    pub(crate) fn lower_arguments(
        &mut self,
        cx: &mut FnCtx,
        args: impl IntoIterator<Item = &'a ast::Expr<'a>>,
    ) -> Option<Vec<Operand>> {
        let mut operands = Vec::new();
        let mut failed = false;
        for arg in args {
            match self.lower_rvalue(cx, arg) {
                Some(operand) => operands.push(operand),
                None => failed = true,
            }
        }
        (!failed).then_some(operands)
    }

    fn lower_binary(
        &mut self,
        cx: &mut FnCtx,
        op: ast::BinaryOp,
        lhs: &'a ast::Expr<'a>,
        rhs: &'a ast::Expr<'a>,
        span: Span,
    ) -> Option<Value> {
        if op == ast::BinaryOp::Comma {
            self.lower_expr(cx, lhs);
            return self.lower_expr(cx, rhs);
        }
        if matches!(op, ast::BinaryOp::LogicalAnd | ast::BinaryOp::LogicalOr) && has_effects(rhs) {
            return self.lower_short_circuit(cx, op, lhs, rhs, span);
        }
        // Both sides are checked, so an error on the left does not hide one on the right.
        let left = self.lower_rvalue(cx, lhs);
        let right = self.lower_rvalue(cx, rhs);
        let (left, right) = (left?, right?);
        self.binary_operands(cx, op, left, right, span)
            .map(Operand::into_value)
    }

    /// Applies a binary operator to two values with HLSL's conversions.
    pub(crate) fn binary_operands(
        &mut self,
        cx: &mut FnCtx,
        op: ast::BinaryOp,
        left: Operand,
        right: Operand,
        span: Span,
    ) -> Option<Operand> {
        let result = self.binary_operands_of(cx, op, left, right, span)?;
        Some(self.keep_degenerate(&[left, right], result))
    }

    /// [`Self::binary_operands`], the result as a plain vector for 1xN and Nx1 matrices.
    fn binary_operands_of(
        &mut self,
        cx: &mut FnCtx,
        op: ast::BinaryOp,
        left: Operand,
        right: Operand,
        span: Span,
    ) -> Option<Operand> {
        // Scalars and vectors (nearly every operand) are not matrices: only others are
        // asked whether they are.
        let (Some((ls, lshape)), Some((rs, rshape))) =
            (self.numeric(left.ty), self.numeric(right.ty))
        else {
            if let Some(result) = self.matrix_componentwise(cx, op, left, right, span) {
                return result;
            }
            let l = types::type_name(&self.module, left.ty);
            let r = types::type_name(&self.module, right.ty);
            self.error(
                codes::UNSUPPORTED_CONSTRUCT,
                span,
                format!("the operator is not supported on '{l}' and '{r}' yet: only scalars and vectors"),
            );
            return None;
        };
        let shape = self.common_shape(lshape, rshape, span);
        use ast::BinaryOp as B;
        let (scalar, ir_op, result_scalar) = match op {
            B::LogicalAnd | B::LogicalOr => {
                if shape != Shape::Scalar {
                    self.error(
                        codes::TYPE_MISMATCH,
                        span,
                        "'&&' and '||' need scalars in HLSL 2021; use and() or or() for vectors",
                    );
                    return None;
                }
                let ir = if op == B::LogicalAnd {
                    BinaryOperator::LogicalAnd
                } else {
                    BinaryOperator::LogicalOr
                };
                (Scalar::BOOL, ir, Scalar::BOOL)
            }
            B::Shl | B::Shr => {
                let scalar = if ls.kind == ScalarKind::Bool {
                    Scalar::I32
                } else {
                    ls
                };
                if !scalar.is_integer() || !(rs.is_integer() || rs.kind == ScalarKind::Bool) {
                    self.error(codes::TYPE_MISMATCH, span, "shifts need integer operands");
                    return None;
                }
                let ty = self.shaped(scalar, shape);
                let count_ty = self.shaped(Scalar::U32, shape);
                let l = self.convert_value(cx, left.into_value(), ty, span, true)?;
                let r = self.convert_value(cx, right.into_value(), count_ty, span, true)?;
                // DXC masks the shift count to the bit width.
                let mask_value = i64::from(scalar.width) * 8 - 1;
                let r = self.mask_shift_count(cx, r, count_ty, mask_value, span);
                let ir_op = if op == B::Shl {
                    BinaryOperator::ShiftLeft
                } else {
                    BinaryOperator::ShiftRight
                };
                return Some(Operand {
                    expr: cx.expr(
                        Expression::Binary {
                            op: ir_op,
                            left: l,
                            right: r,
                        },
                        ty,
                        span,
                    ),
                    ty,
                    literal: false,
                });
            }
            _ => {
                let mut scalar = self.common_scalar(ls, left.literal, rs, right.literal);
                let ir = match op {
                    B::Add => BinaryOperator::Add,
                    B::Sub => BinaryOperator::Subtract,
                    B::Mul => BinaryOperator::Multiply,
                    B::Div => BinaryOperator::Divide,
                    B::Rem => BinaryOperator::Modulo,
                    B::Less => BinaryOperator::Less,
                    B::Greater => BinaryOperator::Greater,
                    B::LessEqual => BinaryOperator::LessEqual,
                    B::GreaterEqual => BinaryOperator::GreaterEqual,
                    B::Equal => BinaryOperator::Equal,
                    B::NotEqual => BinaryOperator::NotEqual,
                    B::BitAnd | B::BitOr | B::BitXor => {
                        if scalar.kind == ScalarKind::Float {
                            self.error(
                                codes::TYPE_MISMATCH,
                                span,
                                "bitwise operators need integer or bool operands",
                            );
                            return None;
                        }
                        if scalar.kind == ScalarKind::Bool {
                            match op {
                                B::BitAnd => BinaryOperator::LogicalAnd,
                                B::BitOr => BinaryOperator::LogicalOr,
                                _ => BinaryOperator::NotEqual,
                            }
                        } else {
                            match op {
                                B::BitAnd => BinaryOperator::BitwiseAnd,
                                B::BitOr => BinaryOperator::BitwiseOr,
                                _ => BinaryOperator::BitwiseXor,
                            }
                        }
                    }
                    _ => return None,
                };
                if ir.is_comparison() {
                    if scalar.kind == ScalarKind::Bool
                        && !matches!(ir, BinaryOperator::Equal | BinaryOperator::NotEqual)
                    {
                        scalar = Scalar::I32;
                    }
                    (scalar, ir, Scalar::BOOL)
                } else {
                    if scalar.kind == ScalarKind::Bool
                        && !matches!(
                            ir,
                            BinaryOperator::LogicalAnd
                                | BinaryOperator::LogicalOr
                                | BinaryOperator::NotEqual
                        )
                    {
                        scalar = Scalar::I32;
                    }
                    (scalar, ir, scalar)
                }
            }
        };
        let operand_ty = self.shaped(scalar, shape);
        let l = self.convert_value(cx, left.into_value(), operand_ty, span, true)?;
        let r = self.convert_value(cx, right.into_value(), operand_ty, span, true)?;
        let ty = if result_scalar == scalar {
            operand_ty
        } else {
            self.shaped(result_scalar, shape)
        };
        Some(Operand {
            expr: cx.expr(
                Expression::Binary {
                    op: ir_op,
                    left: l,
                    right: r,
                },
                ty,
                span,
            ),
            ty,
            literal: left.literal && right.literal && !ir_op.is_comparison(),
        })
    }

    fn mask_shift_count(
        &mut self,
        cx: &mut FnCtx,
        count: Handle<Expression>,
        count_ty: Handle<Type>,
        mask: i64,
        span: Span,
    ) -> Handle<Expression> {
        if let Expression::Literal(Literal::U32(v)) = cx.function.expressions[count] {
            let ty = self.scalar_type(Scalar::U32);
            return cx.expr(Expression::Literal(Literal::U32(v & mask as u32)), ty, span);
        }
        let mask_scalar = self.literal(cx, Scalar::U32, mask, span);
        let mask_expr = match self.numeric(count_ty) {
            Some((_, Shape::Vector(size))) => cx.expr(
                Expression::Splat {
                    size,
                    value: mask_scalar,
                },
                count_ty,
                span,
            ),
            _ => mask_scalar,
        };
        cx.expr(
            Expression::Binary {
                op: BinaryOperator::BitwiseAnd,
                left: count,
                right: mask_expr,
            },
            count_ty,
            span,
        )
    }

    /// The component type two operands convert to.
    pub(crate) fn common_scalar(
        &self,
        a: Scalar,
        a_literal: bool,
        b: Scalar,
        b_literal: bool,
    ) -> Scalar {
        match (a_literal, b_literal) {
            (true, false) if !(a.kind == ScalarKind::Float && b.kind != ScalarKind::Float) => b,
            (false, true) if !(b.kind == ScalarKind::Float && a.kind != ScalarKind::Float) => a,
            _ => {
                if rank(a) >= rank(b) {
                    a
                } else {
                    b
                }
            }
        }
    }

    /// The shape two operands convert to: scalars splat, longer vectors truncate.
    pub(crate) fn common_shape(&mut self, a: Shape, b: Shape, span: Span) -> Shape {
        match (a, b) {
            (Shape::Scalar, s) | (s, Shape::Scalar) => s,
            (Shape::Vector(x), Shape::Vector(y)) => {
                if x != y {
                    self.report(
                        Diagnostic::warning(
                            codes::IMPLICIT_TRUNCATION,
                            span,
                            "implicit truncation of vector type: the longer operand loses its last components",
                        )
                        .with_help("make the operands the same length with a swizzle, such as '.xyz'"),
                    );
                }
                Shape::Vector(x.min(y))
            }
        }
    }

    fn lower_short_circuit(
        &mut self,
        cx: &mut FnCtx,
        op: ast::BinaryOp,
        lhs: &'a ast::Expr<'a>,
        rhs: &'a ast::Expr<'a>,
        span: Span,
    ) -> Option<Value> {
        let bool_ty = self.scalar_type(Scalar::BOOL);
        let left = self.lower_condition(cx, lhs)?;
        let temp = cx.temporary(bool_ty, span);
        let pointer_ty = self.pointer_type(bool_ty, AddressSpace::Function);
        let pointer = cx.expr(Expression::LocalVariable(temp), pointer_ty, span);
        cx.emit(Statement::Store {
            pointer,
            value: left,
        });
        cx.push_block();
        let right = self.lower_condition(cx, rhs);
        if let Some(right) = right {
            let pointer = cx.expr(Expression::LocalVariable(temp), pointer_ty, span);
            cx.emit(Statement::Store {
                pointer,
                value: right,
            });
        }
        let evaluate = cx.pop_block();
        let pointer = cx.expr(Expression::LocalVariable(temp), pointer_ty, span);
        let current = cx.expr(Expression::Load { pointer }, bool_ty, span);
        let (accept, reject) = if op == ast::BinaryOp::LogicalAnd {
            (evaluate, Vec::new())
        } else {
            (Vec::new(), evaluate)
        };
        cx.emit(Statement::If {
            condition: current,
            accept,
            reject,
        });
        right?;
        let pointer = cx.expr(Expression::LocalVariable(temp), pointer_ty, span);
        Some(Value::Place {
            pointer,
            ty: bool_ty,
            writable: false,
        })
    }

    /// `-x`, `~x` or `!x` of a scalar or vector operand.
    fn unary_operand(
        &mut self,
        cx: &mut FnCtx,
        op: ast::UnaryOp,
        value: Operand,
        operand_span: Span,
        span: Span,
    ) -> Option<Value> {
        let Some((scalar, shape)) = self.numeric(value.ty) else {
            self.error(
                codes::TYPE_MISMATCH,
                operand_span,
                "this operator needs a scalar or vector operand",
            );
            return None;
        };
        let (ir_op, target) = match op {
            ast::UnaryOp::Negate => (
                UnaryOperator::Negate,
                if scalar.kind == ScalarKind::Bool {
                    Scalar::I32
                } else {
                    scalar
                },
            ),
            ast::UnaryOp::BitNot => {
                if !scalar.is_integer() && scalar.kind != ScalarKind::Bool {
                    self.error(
                        codes::TYPE_MISMATCH,
                        operand_span,
                        "'~' needs an integer operand",
                    );
                    return None;
                }
                (
                    UnaryOperator::BitwiseNot,
                    if scalar.kind == ScalarKind::Bool {
                        Scalar::I32
                    } else {
                        scalar
                    },
                )
            }
            _ => (UnaryOperator::LogicalNot, Scalar::BOOL),
        };
        // A negated literal folds to a literal of its own.
        if let (UnaryOperator::Negate, Expression::Literal(l)) =
            (ir_op, &cx.function.expressions[value.expr])
        {
            let folded = match *l {
                Literal::I32(v) => v.checked_neg().map(Literal::I32),
                Literal::U32(v) if value.literal && v == 2_147_483_648 => {
                    Some(Literal::I32(i32::MIN))
                }
                Literal::F32(v) => Some(Literal::F32(-v)),
                Literal::F64(v) => Some(Literal::F64(-v)),
                Literal::I64(v) => v.checked_neg().map(Literal::I64),
                _ => None,
            };
            if let Some(folded) = folded {
                let ty = self.scalar_type(folded.scalar());
                return Some(Value::Rvalue {
                    expr: cx.expr(Expression::Literal(folded), ty, span),
                    ty,
                    literal: value.literal,
                });
            }
        }
        let ty = self.shaped(target, shape);
        let converted = self.convert_value(cx, value.into_value(), ty, span, false)?;
        Some(Value::Rvalue {
            expr: cx.expr(
                Expression::Unary {
                    op: ir_op,
                    expr: converted,
                },
                ty,
                span,
            ),
            ty,
            literal: value.literal && ir_op != UnaryOperator::LogicalNot,
        })
    }

    fn lower_conditional(
        &mut self,
        cx: &mut FnCtx,
        condition: &'a ast::Expr<'a>,
        accept: &'a ast::Expr<'a>,
        reject: &'a ast::Expr<'a>,
        span: Span,
    ) -> Option<Value> {
        if has_effects(accept) || has_effects(reject) {
            let c = self.lower_condition(cx, condition)?;
            cx.push_block();
            let a = self.lower_rvalue(cx, accept);
            let accept_block_partial = cx.pop_block();
            cx.push_block();
            let r = self.lower_rvalue(cx, reject);
            let reject_block_partial = cx.pop_block();
            let (a, r) = (a?, r?);
            let (ascalar, ashape) = self.numeric(a.ty).unwrap_or((Scalar::F32, Shape::Scalar));
            let (rscalar, rshape) = self.numeric(r.ty).unwrap_or((Scalar::F32, Shape::Scalar));
            let ty = if a.ty == r.ty {
                a.ty
            } else {
                let scalar = self.common_scalar(ascalar, a.literal, rscalar, r.literal);
                let shape = self.common_shape(ashape, rshape, span);
                self.shaped(scalar, shape)
            };
            let temp = cx.temporary(ty, span);
            let pointer_ty = self.pointer_type(ty, AddressSpace::Function);
            let mut blocks = Vec::new();
            for (mut block, operand) in [(accept_block_partial, a), (reject_block_partial, r)] {
                cx.push_block();
                let value = self.convert_value(cx, operand.into_value(), ty, span, true);
                let mut converted = cx.pop_block();
                block.append(&mut converted);
                if let Some(value) = value {
                    let pointer = cx.expr(Expression::LocalVariable(temp), pointer_ty, span);
                    block.push(Statement::Store { pointer, value });
                }
                // Kept at its exact size, as every finished block is.
                block.shrink_to_fit();
                blocks.push(block);
            }
            let reject_block = blocks.pop().unwrap_or_default();
            let accept_block = blocks.pop().unwrap_or_default();
            cx.emit(Statement::If {
                condition: c,
                accept: accept_block,
                reject: reject_block,
            });
            let pointer = cx.expr(Expression::LocalVariable(temp), pointer_ty, span);
            return Some(Value::Place {
                pointer,
                ty,
                writable: false,
            });
        }
        let c = self.lower_rvalue(cx, condition)?;
        let a = self.lower_rvalue(cx, accept)?;
        let r = self.lower_rvalue(cx, reject)?;
        self.select_operands(cx, c, a, r, span)
    }

    /// `c ? a : r` per component with both sides evaluated (`?:` without effects, and
    /// HLSL 2021's `select`): a vector condition picks each component.
    pub(crate) fn select_operands(
        &mut self,
        cx: &mut FnCtx,
        c: Operand,
        a: Operand,
        r: Operand,
        span: Span,
    ) -> Option<Value> {
        let Some((_, cshape)) = self.numeric(c.ty) else {
            let name = types::type_name(&self.module, c.ty);
            self.error(
                codes::TYPE_MISMATCH,
                span,
                format!("the condition must be a scalar or vector, not '{name}'"),
            );
            return None;
        };
        let ty = if a.ty == r.ty
            && !matches!(
                self.module.inner(a.ty),
                TypeInner::Scalar(_) | TypeInner::Vector { .. }
            ) {
            a.ty
        } else {
            let (Some((ascalar, ashape)), Some((rscalar, rshape))) =
                (self.numeric(a.ty), self.numeric(r.ty))
            else {
                self.error(
                    codes::TYPE_MISMATCH,
                    span,
                    "the two sides of '?:' must have the same type",
                );
                return None;
            };
            let scalar = self.common_scalar(ascalar, a.literal, rscalar, r.literal);
            let shape = self.common_shape(ashape, rshape, span);
            let shape = self.common_shape(shape, cshape, span);
            self.shaped(scalar, shape)
        };
        let condition_ty = match self.numeric(ty) {
            Some((_, shape)) if cshape != Shape::Scalar => self.shaped(Scalar::BOOL, shape),
            _ => self.scalar_type(Scalar::BOOL),
        };
        let c = self.convert_value(cx, c.into_value(), condition_ty, span, true)?;
        let a = self.convert_value(cx, a.into_value(), ty, span, true)?;
        let r = self.convert_value(cx, r.into_value(), ty, span, true)?;
        if self.numeric(ty).is_none() {
            // WGSL's and MSL's `select` take scalars and vectors only: a matrix, struct or
            // array is picked whole by an `if` into a temporary.
            let temp = cx.temporary(ty, span);
            let pointer_ty = self.pointer_type(ty, AddressSpace::Function);
            let mut store = |value| {
                let pointer = cx.expr(Expression::LocalVariable(temp), pointer_ty, span);
                vec![Statement::Store { pointer, value }]
            };
            let (accept, reject) = (store(a), store(r));
            cx.emit(Statement::If {
                condition: c,
                accept,
                reject,
            });
            let pointer = cx.expr(Expression::LocalVariable(temp), pointer_ty, span);
            return Some(Value::Place {
                pointer,
                ty,
                writable: false,
            });
        }
        Some(Value::Rvalue {
            expr: cx.expr(
                Expression::Select {
                    condition: c,
                    accept: a,
                    reject: r,
                },
                ty,
                span,
            ),
            ty,
            literal: false,
        })
    }

    fn lower_assign(
        &mut self,
        cx: &mut FnCtx,
        op: Option<ast::BinaryOp>,
        target: &'a ast::Expr<'a>,
        value: &'a ast::Expr<'a>,
        span: Span,
    ) -> Option<Value> {
        let place = self.lower_expr(cx, target)?;
        self.check_writable(&place, target.span)?;
        let target_ty = place.value_type()?;
        let new_value = match op {
            None => {
                let v = self.lower_expr(cx, value)?;
                self.convert_value(cx, v, target_ty, span, true)?
            }
            Some(op) => {
                let current = self.rvalue(cx, place.clone(), target.span)?;
                let v = self.lower_rvalue(cx, value)?;
                let result = self.binary_operands(cx, op, current, v, span)?;
                self.convert_value(cx, result.into_value(), target_ty, span, true)?
            }
        };
        self.store(cx, &place, new_value, span)?;
        Some(place)
    }

    /// Fails with a diagnostic unless `place` can be assigned.
    pub(crate) fn check_writable(&mut self, place: &Value, span: Span) -> Option<()> {
        let writable = match place {
            Value::Place { writable, .. }
            | Value::SwizzlePlace { writable, .. }
            | Value::MatrixPlace { writable, .. }
            | Value::Texel { writable, .. } => *writable,
            _ => false,
        };
        if !writable {
            self.error(
                codes::NOT_ASSIGNABLE,
                span,
                "this expression cannot be assigned: it is a value, a constant, or a read-only resource",
            );
            return None;
        }
        Some(())
    }

    /// Stores `value` into a place.
    pub(crate) fn store(
        &mut self,
        cx: &mut FnCtx,
        place: &Value,
        value: Handle<Expression>,
        span: Span,
    ) -> Option<()> {
        match place {
            Value::Place { pointer, .. } => {
                cx.emit(Statement::Store {
                    pointer: *pointer,
                    value,
                });
                Some(())
            }
            Value::SwizzlePlace {
                pointer,
                vector_ty,
                components,
                ..
            } => {
                let (scalar, shape) = self.numeric(*vector_ty)?;
                let Shape::Vector(size) = shape else {
                    return None;
                };
                let value = cx.bind(value);
                let old = cx.expr(Expression::Load { pointer: *pointer }, *vector_ty, span);
                let old = cx.bind(old);
                let scalar_ty = self.scalar_type(scalar);
                let mut parts = Vec::new();
                for i in 0..size.count() {
                    let part = match components.iter().position(|&c| c == i) {
                        Some(from) => cx.expr(
                            Expression::AccessIndex {
                                base: value,
                                index: from as u32,
                            },
                            scalar_ty,
                            span,
                        ),
                        None => cx.expr(
                            Expression::AccessIndex {
                                base: old,
                                index: i,
                            },
                            scalar_ty,
                            span,
                        ),
                    };
                    parts.push(part);
                }
                let composed = cx.expr(
                    Expression::Compose {
                        ty: *vector_ty,
                        components: parts.into(),
                    },
                    *vector_ty,
                    span,
                );
                cx.emit(Statement::Store {
                    pointer: *pointer,
                    value: composed,
                });
                Some(())
            }
            Value::MatrixPlace {
                pointer,
                elements,
                ty,
                ..
            } => self.store_matrix_place(cx, *pointer, elements, *ty, value, span),
            Value::Texel {
                image,
                coordinate,
                array_index,
                ..
            } => self.write_texel(cx, *image, *coordinate, *array_index, value, span),
            _ => None,
        }
    }

    /// The (columns, rows, scalar) of a matrix type.
    pub(crate) fn matrix_shape(
        &self,
        ty: Handle<Type>,
    ) -> Option<(VectorSize, VectorSize, Scalar)> {
        match *self.module.inner(ty) {
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } => Some((columns, rows, scalar)),
            _ => None,
        }
    }

    /// Column `index` of matrix `operand` (an HLSL column: a vector of its rows).
    pub(crate) fn matrix_column(
        &mut self,
        cx: &mut FnCtx,
        operand: Operand,
        index: u32,
        span: Span,
    ) -> Operand {
        let (_, rows, scalar) = self.matrix_shape(operand.ty).unwrap_or((
            VectorSize::Quad,
            VectorSize::Quad,
            Scalar::F32,
        ));
        let ty = self.shaped(scalar, Shape::Vector(rows));
        element(cx, operand, index, ty, span)
    }

    /// Component `index` of vector `operand`.
    pub(crate) fn vector_component(
        &mut self,
        cx: &mut FnCtx,
        operand: Operand,
        index: u32,
        span: Span,
    ) -> Operand {
        let scalar = self.numeric(operand.ty).map_or(Scalar::F32, |(s, _)| s);
        let ty = self.scalar_type(scalar);
        element(cx, operand, index, ty, span)
    }

    /// The matrix whose columns are `columns`, vectors of one type, which gives the
    /// matrix its rows and component type.
    pub(crate) fn compose_matrix(
        &mut self,
        cx: &mut FnCtx,
        columns: Vec<Operand>,
        span: Span,
    ) -> Option<Operand> {
        let (scalar, Shape::Vector(rows)) = self.numeric(columns.first()?.ty)? else {
            return None;
        };
        let ty = self.module.type_handle(TypeInner::Matrix {
            columns: VectorSize::from_count(columns.len() as u32)?,
            rows,
            scalar,
        });
        let components = columns.into_iter().map(|c| c.expr).collect();
        Some(Operand {
            expr: cx.expr(Expression::Compose { ty, components }, ty, span),
            ty,
            literal: false,
        })
    }

    /// An operator with a matrix operand (`m * 0.5`, `a + b`, `a == b`, `m & 3`): HLSL
    /// applies it per component, so the result is built column by column with the vector
    /// operators. `None` when neither operand is a matrix.
    fn matrix_componentwise(
        &mut self,
        cx: &mut FnCtx,
        op: ast::BinaryOp,
        left: Operand,
        right: Operand,
        span: Span,
    ) -> Option<Option<Operand>> {
        use ast::BinaryOp as B;
        let lm = self.matrix_shape(left.ty);
        let rm = self.matrix_shape(right.ty);
        let (columns, _, _) = lm.or(rm)?;
        let l = types::type_name(&self.module, left.ty);
        let r = types::type_name(&self.module, right.ty);
        if matches!(op, B::LogicalAnd | B::LogicalOr | B::Comma) {
            self.error(
                codes::UNSUPPORTED_CONSTRUCT,
                span,
                format!("'&&' and '||' on '{l}' and '{r}' are not supported: in HLSL 2021 they take scalars; combine matrices per component with '&' and '|' on bool matrices, as in (a != 0) & (b != 0)"),
            );
            return Some(None);
        }
        let same_shape = match (lm, rm) {
            (Some((lc, lr, _)), Some((rc, rr, _))) => lc == rc && lr == rr,
            (Some(_), None) => matches!(self.module.inner(right.ty), TypeInner::Scalar(_)),
            _ => matches!(self.module.inner(left.ty), TypeInner::Scalar(_)),
        };
        if !same_shape {
            self.error(
                codes::TYPE_MISMATCH,
                span,
                format!("'{l}' and '{r}' cannot be combined per component: a matrix goes with a matrix of the same shape or a scalar"),
            );
            return Some(None);
        }
        // Each operand is evaluated once, then split into columns.
        let once = |cx: &mut FnCtx, operand: Operand| Operand {
            expr: if operand.literal {
                operand.expr
            } else {
                cx.bind(operand.expr)
            },
            ..operand
        };
        let (left, right) = (once(cx, left), once(cx, right));
        let mut components = Vec::new();
        for index in 0..columns as u32 {
            let l = match lm {
                Some(_) => self.matrix_column(cx, left, index, span),
                None => left,
            };
            let r = match rm {
                Some(_) => self.matrix_column(cx, right, index, span),
                None => right,
            };
            let Some(column) = self.binary_operands(cx, op, l, r, span) else {
                return Some(None);
            };
            components.push(column);
        }
        Some(self.compose_matrix(cx, components, span))
    }

    /// Converts to or between matrix types: a matrix to a smaller one keeps the upper-left
    /// rows and columns (`(float3x3)world`), a scalar fills every element. `None` when
    /// neither side is a matrix.
    fn convert_matrix(
        &mut self,
        cx: &mut FnCtx,
        operand: Operand,
        to: Handle<Type>,
        span: Span,
        warn: bool,
    ) -> Option<Option<Handle<Expression>>> {
        let (to_columns, to_rows, to_scalar) = self.matrix_shape(to)?;
        let column_ty = self.shaped(to_scalar, Shape::Vector(to_rows));
        let f = types::type_name(&self.module, operand.ty);
        let t = types::type_name(&self.module, to);
        let mut components = Vec::new();
        if let Some((columns, rows, scalar)) = self.matrix_shape(operand.ty) {
            if columns < to_columns || rows < to_rows {
                self.error(
                    codes::TYPE_MISMATCH,
                    span,
                    format!("cannot convert from '{f}' to '{t}': it has fewer rows or columns"),
                );
                return Some(None);
            }
            if warn && (columns > to_columns || rows > to_rows) {
                self.report(
                    Diagnostic::warning(
                        codes::IMPLICIT_TRUNCATION,
                        span,
                        format!("implicit truncation of matrix type: '{f}' to '{t}' keeps the upper-left rows and columns"),
                    )
                    .with_help(format!("cast explicitly ('({t})') when that is what you mean")),
                );
            }
            let matrix = cx.bind_operand(operand);
            let rows_kept: Vec<u32> = (0..to_rows as u32).collect();
            let from_column_ty = self.shaped(scalar, Shape::Vector(to_rows));
            for index in 0..to_columns as u32 {
                let column = self.matrix_column(cx, matrix, index, span);
                let column = if rows == to_rows {
                    column.expr
                } else {
                    self.swizzle(cx, column.expr, &rows_kept, from_column_ty, span)
                };
                components
                    .push(self.convert_scalar(cx, column, scalar, to_scalar, column_ty, span));
            }
        } else if let Some((scalar, Shape::Scalar)) = self.numeric(operand.ty) {
            let scalar_ty = self.scalar_type(to_scalar);
            let value = self.convert_scalar(cx, operand.expr, scalar, to_scalar, scalar_ty, span);
            let value = cx.bind(value);
            for _ in 0..to_columns as u32 {
                components.push(cx.expr(
                    Expression::Splat {
                        size: to_rows,
                        value,
                    },
                    column_ty,
                    span,
                ));
            }
        } else {
            return None;
        }
        Some(Some(cx.expr(
            Expression::Compose {
                ty: to,
                components: components.into(),
            },
            to,
            span,
        )))
    }

    /// Converts implicitly, warning on truncation when `warn` is set.
    #[inline]
    pub(crate) fn convert_value(
        &mut self,
        cx: &mut FnCtx,
        value: Value,
        to: Handle<Type>,
        span: Span,
        warn: bool,
    ) -> Option<Handle<Expression>> {
        if let Some(expr) = unconverted(&value, to) {
            return Some(expr);
        }
        self.convert(cx, value, to, span, warn, false)
    }

    /// A value of aggregate type `to` whose every scalar is `scalar` converted (the cast
    /// of a scalar to a struct or array).
    fn splat_scalar(
        &mut self,
        cx: &mut FnCtx,
        scalar: Operand,
        to: Handle<Type>,
        span: Span,
        depth: u32,
    ) -> Option<Handle<Expression>> {
        let parts: Vec<Handle<Type>> = match self.module.inner(to) {
            TypeInner::Struct { members, .. } => members.iter().map(|m| m.ty).collect(),
            TypeInner::Array {
                base,
                size: ArraySize::Constant(count),
                ..
            } => vec![*base; *count as usize],
            _ => return self.convert(cx, scalar.into_value(), to, span, false, true),
        };
        if depth > 64 {
            self.error(codes::TYPE_MISMATCH, span, "the cast's type nests too deep");
            return None;
        }
        let mut components = Vec::with_capacity(parts.len());
        for part in parts {
            components.push(self.splat_scalar(cx, scalar, part, span, depth + 1)?);
        }
        Some(cx.expr(
            Expression::Compose {
                ty: to,
                components: components.into(),
            },
            to,
            span,
        ))
    }

    /// Converts as a cast does: no truncation warnings.
    #[inline]
    pub(crate) fn convert_explicit(
        &mut self,
        cx: &mut FnCtx,
        value: Value,
        to: Handle<Type>,
        span: Span,
    ) -> Option<Handle<Expression>> {
        if let Some(expr) = unconverted(&value, to) {
            return Some(expr);
        }
        self.convert(cx, value, to, span, false, true)
    }

    fn convert(
        &mut self,
        cx: &mut FnCtx,
        value: Value,
        to: Handle<Type>,
        span: Span,
        warn: bool,
        explicit: bool,
    ) -> Option<Handle<Expression>> {
        let operand = self.rvalue(cx, value, span)?;
        if operand.ty == to {
            return Some(operand.expr);
        }
        if let Some(converted) = self.convert_matrix(cx, operand, to, span, warn && !explicit) {
            return converted;
        }
        if explicit
            && matches!(
                self.module.inner(to),
                TypeInner::Struct { .. } | TypeInner::Array { .. }
            )
            && matches!(self.module.inner(operand.ty), TypeInner::Scalar(_))
        {
            // DXC: `(S)x` of a scalar gives every scalar of S the value x, converted;
            // `(S)0` is the zero value.
            let scalar = cx.bind_operand(operand);
            return self.splat_scalar(cx, scalar, to, span, 0);
        }
        if explicit {
            if let Some(cast) = self.flat_cast(cx, operand, to, span) {
                return cast;
            }
        }
        let from = self.numeric(operand.ty);
        let target = self.numeric(to);
        let (Some((fs, fshape)), Some((ts, tshape))) = (from, target) else {
            let f = types::type_name(&self.module, operand.ty);
            let t = types::type_name(&self.module, to);
            self.error(
                codes::TYPE_MISMATCH,
                span,
                format!("cannot convert from '{f}' to '{t}'"),
            );
            return None;
        };
        if warn && !explicit && !operand.literal && loses_range(fs, ts) {
            let f = types::type_name(&self.module, operand.ty);
            let t = types::type_name(&self.module, to);
            self.report(
                Diagnostic::warning(
                    codes::CONVERSION_LOSS,
                    span,
                    format!("conversion from larger type '{f}' to smaller type '{t}', possible loss of data"),
                )
                .with_help(format!(
                    "convert explicitly with '({t})' when the loss is intended, or keep the value in a '{f}'"
                )),
            );
        }
        // Adjust the shape first, then the component type.
        let reshaped = match (fshape, tshape) {
            (a, b) if a == b => operand.expr,
            (Shape::Scalar, Shape::Vector(size)) => {
                let scalar_target = self.scalar_type(ts);
                let converted = self.convert_scalar(cx, operand.expr, fs, ts, scalar_target, span);
                return Some(cx.expr(
                    Expression::Splat {
                        size,
                        value: converted,
                    },
                    to,
                    span,
                ));
            }
            (Shape::Vector(_), Shape::Scalar) => {
                if warn && !explicit {
                    let f = types::type_name(&self.module, operand.ty);
                    self.report(
                        Diagnostic::warning(
                            codes::IMPLICIT_TRUNCATION,
                            span,
                            format!("implicit truncation of vector type: only the first component of this '{f}' is kept"),
                        )
                        .with_help("take the component you mean with a swizzle, such as '.x'"),
                    );
                }
                let scalar = self.scalar_type(fs);
                cx.expr(
                    Expression::AccessIndex {
                        base: operand.expr,
                        index: 0,
                    },
                    scalar,
                    span,
                )
            }
            (Shape::Vector(a), Shape::Vector(b)) => {
                if a < b {
                    let f = types::type_name(&self.module, operand.ty);
                    let t = types::type_name(&self.module, to);
                    self.error(
                        codes::TYPE_MISMATCH,
                        span,
                        format!("cannot convert from '{f}' to '{t}': it has fewer components"),
                    );
                    return None;
                }
                if warn && !explicit {
                    let f = types::type_name(&self.module, operand.ty);
                    let t = types::type_name(&self.module, to);
                    let swizzle = &"xyzw"[..b.count() as usize];
                    self.report(
                        Diagnostic::warning(
                            codes::IMPLICIT_TRUNCATION,
                            span,
                            format!("implicit truncation of vector type: '{f}' to '{t}' drops the last components"),
                        )
                        .with_help(format!("say which components you mean with a swizzle ('.{swizzle}') or a cast ('({t})')")),
                    );
                }
                let truncated_ty = self.shaped(fs, Shape::Vector(b));
                let components: Vec<u32> = (0..b.count()).collect();
                self.swizzle(cx, operand.expr, &components, truncated_ty, span)
            }
            _ => operand.expr,
        };
        Some(self.convert_scalar(cx, reshaped, fs, ts, to, span))
    }

    /// Converts components from `from` to `to` (same shape); folds literals.
    fn convert_scalar(
        &mut self,
        cx: &mut FnCtx,
        expr: Handle<Expression>,
        from: Scalar,
        to: Scalar,
        to_ty: Handle<Type>,
        span: Span,
    ) -> Handle<Expression> {
        if from == to {
            return expr;
        }
        if let Expression::Literal(l) = cx.function.expressions[expr] {
            if let Some(folded) = convert_literal(l, to) {
                return cx.expr(Expression::Literal(folded), to_ty, span);
            }
        }
        cx.expr(Expression::Convert { expr, to }, to_ty, span)
    }

    /// Splits a value into its scalar components in HLSL's order (vectors by component,
    /// matrices row by row, arrays by element, structs by member).
    pub(crate) fn scalarize(
        &mut self,
        cx: &mut FnCtx,
        operand: Operand,
        span: Span,
        out: &mut Vec<Operand>,
    ) -> Option<()> {
        match self.module.inner(operand.ty).clone() {
            TypeInner::Scalar(_) => out.push(operand),
            TypeInner::Vector { size, .. } => {
                let vector = cx.bind_operand(operand);
                for i in 0..size.count() {
                    out.push(self.vector_component(cx, vector, i, span));
                }
            }
            TypeInner::Matrix { columns, rows, .. } => {
                let matrix = cx.bind_operand(operand);
                let columns: Vec<Operand> = (0..columns.count())
                    .map(|c| self.matrix_column(cx, matrix, c, span))
                    .collect();
                for r in 0..rows.count() {
                    for &column in &columns {
                        out.push(self.vector_component(cx, column, r, span));
                    }
                }
            }
            TypeInner::Array { base, size, .. } => {
                let oneshader_ir::ArraySize::Constant(n) = size else {
                    return None;
                };
                let array = cx.bind_operand(operand);
                for i in 0..n {
                    let item = element(cx, array, i, base, span);
                    self.scalarize(cx, item, span, out)?;
                }
            }
            TypeInner::Struct { members, .. } => {
                let structure = cx.bind_operand(operand);
                for (i, member) in members.iter().enumerate() {
                    let item = element(cx, structure, i as u32, member.ty, span);
                    self.scalarize(cx, item, span, out)?;
                }
            }
            _ => {
                self.error(
                    codes::UNSUPPORTED_CONSTRUCT,
                    span,
                    "this value cannot be split into components",
                );
                return None;
            }
        }
        Some(())
    }

    /// Builds a value of `ty` from scalars in order (initializer lists, constructors).
    pub(crate) fn build_from_scalars(
        &mut self,
        cx: &mut FnCtx,
        ty: Handle<Type>,
        scalars: &mut dyn Iterator<Item = Operand>,
        span: Span,
    ) -> Option<Handle<Expression>> {
        let inner = self.module.inner(ty).clone();
        let mut next =
            |this: &mut Self, cx: &mut FnCtx, target: Handle<Type>| -> Option<Handle<Expression>> {
                match scalars.next() {
                    Some(s) => this.convert_value(cx, s.into_value(), target, span, false),
                    None => {
                        this.error(
                            codes::TYPE_MISMATCH,
                            span,
                            "too few values to initialize this type",
                        );
                        None
                    }
                }
            };
        match inner {
            TypeInner::Scalar(_) => next(self, cx, ty),
            TypeInner::Vector { size, scalar } => {
                let scalar_ty = self.scalar_type(scalar);
                let mut components = Vec::new();
                for _ in 0..size.count() {
                    components.push(next(self, cx, scalar_ty)?);
                }
                Some(cx.expr(
                    Expression::Compose {
                        ty,
                        components: components.into(),
                    },
                    ty,
                    span,
                ))
            }
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } => {
                // HLSL lists matrices row by row; the IR stores columns.
                let scalar_ty = self.scalar_type(scalar);
                let mut values = Vec::new();
                for _ in 0..rows.count() * columns.count() {
                    values.push(next(self, cx, scalar_ty)?);
                }
                let column_ty = self.shaped(scalar, Shape::Vector(rows));
                let mut cols = Vec::new();
                for c in 0..columns.count() {
                    let components = (0..rows.count())
                        .filter_map(|r| values.get((r * columns.count() + c) as usize).copied())
                        .collect();
                    cols.push(cx.expr(
                        Expression::Compose {
                            ty: column_ty,
                            components,
                        },
                        column_ty,
                        span,
                    ));
                }
                Some(cx.expr(
                    Expression::Compose {
                        ty,
                        components: cols.into(),
                    },
                    ty,
                    span,
                ))
            }
            TypeInner::Array { base, size, .. } => {
                let oneshader_ir::ArraySize::Constant(n) = size else {
                    return None;
                };
                let mut components = Vec::new();
                for _ in 0..n {
                    components.push(self.build_from_scalars(cx, base, scalars, span)?);
                }
                Some(cx.expr(
                    Expression::Compose {
                        ty,
                        components: components.into(),
                    },
                    ty,
                    span,
                ))
            }
            TypeInner::Struct { members, .. } => {
                let mut components = Vec::new();
                for member in members {
                    components.push(self.build_from_scalars(cx, member.ty, scalars, span)?);
                }
                Some(cx.expr(
                    Expression::Compose {
                        ty,
                        components: components.into(),
                    },
                    ty,
                    span,
                ))
            }
            _ => {
                self.error(
                    codes::UNSUPPORTED_CONSTRUCT,
                    span,
                    "this type cannot be initialized from a list",
                );
                None
            }
        }
    }

    pub(crate) fn lower_constructor(
        &mut self,
        cx: &mut FnCtx,
        ty: Handle<Type>,
        args: &'a [ast::Expr<'a>],
        span: Span,
    ) -> Option<Value> {
        // One argument (`float(i)`, `float4(0)`, nearly every constructor with one) is
        // lowered without a vector of operands.
        let one;
        let several;
        let operands: &[Operand] = match args {
            [arg] => {
                one = self.lower_rvalue(cx, arg)?;
                std::slice::from_ref(&one)
            }
            _ => {
                several = self.lower_arguments(cx, args)?;
                &several
            }
        };
        // A single scalar splats: float4(0).
        if let [single] = operands {
            if matches!(self.module.inner(single.ty), TypeInner::Scalar(_))
                && matches!(
                    self.module.inner(ty),
                    TypeInner::Vector { .. } | TypeInner::Scalar(_)
                )
            {
                let expr = self.convert_explicit(cx, single.into_value(), ty, span)?;
                return Some(Value::Rvalue {
                    expr,
                    ty,
                    literal: false,
                });
            }
        }
        let mut scalars = Vec::new();
        for &operand in operands {
            self.scalarize(cx, operand, span, &mut scalars)?;
        }
        let mut iter = scalars.into_iter();
        let expr = self.build_from_scalars(cx, ty, &mut iter, span)?;
        if iter.next().is_some() {
            let name = types::type_name(&self.module, ty);
            self.error(
                codes::ARGUMENT_COUNT,
                span,
                format!("too many components to construct '{name}'"),
            );
            return None;
        }
        Some(Value::Rvalue {
            expr,
            ty,
            literal: false,
        })
    }

    fn lower_member(
        &mut self,
        cx: &mut FnCtx,
        base: &'a ast::Expr<'a>,
        member: &ast::Ident<'a>,
    ) -> Option<Value> {
        let value = match self.lower_expr(cx, base)? {
            Value::Cbuffer(place) => match self.cbuffer_member(&place, member.name) {
                Some(member_place) => return Some(Value::Cbuffer(member_place)),
                None => self.cbuffer_rvalue(cx, &place, member.span),
            },
            other => other,
        };
        let Some(base_ty) = value.value_type() else {
            self.error(
                codes::UNKNOWN_MEMBER,
                member.span,
                format!(
                    "resources have no member '{}': call a method instead",
                    member.name
                ),
            );
            return None;
        };
        // `._m02` of a 1xN or Nx1 matrix is a component of its vector.
        let translated = match self.degenerate_swizzle(base_ty, member.name, member.span) {
            Some(Some(letters)) => Some(letters),
            Some(None) => return None,
            None => None,
        };
        let swizzle: &str = translated.as_deref().unwrap_or(member.name);
        let inner = self.module.inner(base_ty).clone();
        match inner {
            TypeInner::Matrix { .. } => {
                let (pointer, writable) = self.matrix_pointer(cx, value, member.span)?;
                self.matrix_swizzle(cx, pointer, base_ty, member.name, writable, member.span)
            }
            TypeInner::Struct { members, .. } => {
                let Some((index, found)) = members
                    .iter()
                    .enumerate()
                    .find(|(_, m)| *m.name == *member.name)
                else {
                    let name = types::type_name(&self.module, base_ty);
                    self.error(
                        codes::UNKNOWN_MEMBER,
                        member.span,
                        format!("'{name}' has no member named '{}'", member.name),
                    );
                    return None;
                };
                let ty = found.ty;
                self.access_index(cx, value, index as u32, ty, member.span)
            }
            TypeInner::Scalar(scalar) | TypeInner::Vector { scalar, .. } => {
                let count = inner.component_count().unwrap_or(1);
                let Some(components) = parse_swizzle(swizzle, count) else {
                    self.error(
                        codes::UNKNOWN_MEMBER,
                        member.span,
                        format!("'{}' is not a valid swizzle of a {count}-component value: use x, y, z, w or r, g, b, a", member.name),
                    );
                    return None;
                };
                let ty = self.shaped(
                    scalar,
                    match VectorSize::from_count(components.len() as u32) {
                        Some(s) => Shape::Vector(s),
                        None => Shape::Scalar,
                    },
                );
                if matches!(inner, TypeInner::Scalar(_)) {
                    let operand = self.rvalue(cx, value, member.span)?;
                    let expr =
                        self.convert_value(cx, operand.into_value(), ty, member.span, false)?;
                    return Some(Value::Rvalue {
                        expr,
                        ty,
                        literal: false,
                    });
                }
                if let Value::MatrixPlace { .. } = value {
                    return self.matrix_place_swizzle(cx, &value, &components, ty, member.span);
                }
                // A swizzle of a swizzle in memory (`v.zyx.yz`) selects components of the
                // same vector: compose the two, so it stays a place and every target
                // sees one swizzle.
                let value = match value {
                    Value::SwizzlePlace {
                        pointer,
                        vector_ty,
                        components: inner,
                        writable,
                        ..
                    } => {
                        let composed: Vec<u32> = components
                            .iter()
                            .map(|&c| inner.get(c as usize).copied().unwrap_or(c))
                            .collect();
                        if let [single] = composed[..] {
                            let vector = Value::Place {
                                pointer,
                                ty: vector_ty,
                                writable,
                            };
                            return self.access_index(cx, vector, single, ty, member.span);
                        }
                        return Some(Value::SwizzlePlace {
                            pointer,
                            vector_ty,
                            components: composed,
                            ty,
                            writable,
                        });
                    }
                    other => other,
                };
                if components.len() == 1 {
                    return self.access_index(
                        cx,
                        value,
                        components.first().copied()?,
                        ty,
                        member.span,
                    );
                }
                match value {
                    Value::Place {
                        pointer, writable, ..
                    } => {
                        let unique = {
                            let mut seen = components.clone();
                            seen.sort_unstable();
                            seen.dedup();
                            seen.len() == components.len()
                        };
                        Some(Value::SwizzlePlace {
                            pointer,
                            vector_ty: base_ty,
                            components,
                            ty,
                            writable: writable && unique,
                        })
                    }
                    other => {
                        let operand = self.rvalue(cx, other, member.span)?;
                        let expr = self.swizzle(cx, operand.expr, &components, ty, member.span);
                        Some(Value::Rvalue {
                            expr,
                            ty,
                            literal: false,
                        })
                    }
                }
            }
            _ => {
                self.error(
                    codes::UNSUPPORTED_CONSTRUCT,
                    member.span,
                    format!(
                        "member access '.{}' on this type is not supported yet",
                        member.name
                    ),
                );
                None
            }
        }
    }

    /// Element or member `index` of a place or value.
    fn access_index(
        &mut self,
        cx: &mut FnCtx,
        value: Value,
        index: u32,
        ty: Handle<Type>,
        span: Span,
    ) -> Option<Value> {
        match value {
            Value::Place {
                pointer, writable, ..
            } => {
                let space = self.pointer_space(cx, pointer);
                let pointer_ty = self.pointer_type(ty, space);
                Some(Value::Place {
                    pointer: cx.expr(
                        Expression::AccessIndex {
                            base: pointer,
                            index,
                        },
                        pointer_ty,
                        span,
                    ),
                    ty,
                    writable,
                })
            }
            other => {
                let operand = self.rvalue(cx, other, span)?;
                Some(element(cx, operand, index, ty, span).into_value())
            }
        }
    }

    /// A pointer to a matrix place or value (a value goes to a read-only temporary),
    /// and whether it may be written.
    fn matrix_pointer(
        &mut self,
        cx: &mut FnCtx,
        value: Value,
        span: Span,
    ) -> Option<(Handle<Expression>, bool)> {
        if let Value::Place {
            pointer, writable, ..
        } = value
        {
            return Some((pointer, writable));
        }
        let operand = self.rvalue(cx, value, span)?;
        let temp = cx.temporary(operand.ty, span);
        let temp_ptr_ty = self.pointer_type(operand.ty, AddressSpace::Function);
        let pointer = cx.expr(Expression::LocalVariable(temp), temp_ptr_ty, span);
        cx.emit(Statement::Store {
            pointer,
            value: operand.expr,
        });
        let pointer = cx.expr(Expression::LocalVariable(temp), temp_ptr_ty, span);
        Some((pointer, false))
    }

    /// The address space of a pointer expression.
    pub(crate) fn pointer_space(&self, cx: &FnCtx, pointer: Handle<Expression>) -> AddressSpace {
        match self.module.inner(cx.function.type_of(pointer)) {
            TypeInner::Pointer { space, .. } => *space,
            _ => AddressSpace::Function,
        }
    }

    fn lower_index(
        &mut self,
        cx: &mut FnCtx,
        base: &'a ast::Expr<'a>,
        index: &'a ast::Expr<'a>,
        span: Span,
    ) -> Option<Value> {
        let value = self.lower_expr(cx, base)?;
        if let Value::Resource { global, .. } = value {
            if let Some(flavor) = self.buffer_flavors.get(&global) {
                self.error(
                    codes::TYPE_MISMATCH,
                    span,
                    format!(
                        "{} cannot be indexed: use its {} method",
                        flavor.hlsl_name(),
                        if *flavor == super::counter::BufferFlavor::Append {
                            "Append"
                        } else {
                            "Consume"
                        }
                    ),
                );
                return None;
            }
        }
        if let Value::Resource { global, ty } = value {
            if matches!(
                ty.kind,
                oneshader_ir::ResourceKind::Texture
                    | oneshader_ir::ResourceKind::RWTexture
                    | oneshader_ir::ResourceKind::Buffer
                    | oneshader_ir::ResourceKind::RWBuffer
            ) {
                return self.lower_texel_index(cx, global, ty, index, span);
            }
        }
        let index_operand = self.lower_rvalue(cx, index)?;
        let index_expr = self.index_value(cx, index_operand, index.span)?;
        if let Some(row) = self.degenerate_row(cx, &value, index_expr, span) {
            return row;
        }
        let value = match value {
            Value::Cbuffer(place) => match self.cbuffer_element(cx, &place, index_expr, span) {
                Some(element) => return Some(Value::Cbuffer(element)),
                None => self.cbuffer_rvalue(cx, &place, span),
            },
            other => other,
        };
        match value {
            Value::Resource { global, ty } => {
                use oneshader_ir::ResourceKind as K;
                if !matches!(ty.kind, K::StructuredBuffer | K::RWStructuredBuffer) {
                    self.error(
                        codes::TYPE_MISMATCH,
                        span,
                        "byte-address buffers cannot be indexed: use Load/Store with a byte offset",
                    );
                    return None;
                }
                let gv = &self.module.global_variables[global];
                let (gty, space) = (gv.ty, gv.space);
                let global_ptr_ty = self.pointer_type(gty, space);
                let base = cx.expr(Expression::GlobalVariable(global), global_ptr_ty, span);
                let pointer_ty = self.pointer_type(ty.element, space);
                Some(Value::Place {
                    pointer: cx.expr(
                        Expression::Access {
                            base,
                            index: index_expr,
                        },
                        pointer_ty,
                        span,
                    ),
                    ty: ty.element,
                    writable: ty.kind.is_writable(),
                })
            }
            Value::Place {
                pointer,
                ty,
                writable,
            } if matches!(self.module.inner(ty), TypeInner::Matrix { .. }) => {
                let row = MatrixIndex::Dynamic(cx.bind(index_expr));
                self.matrix_row(pointer, ty, row, writable)
            }
            place @ Value::MatrixPlace { .. } => {
                if let Some(element) = self.matrix_row_element(cx, &place, index_expr, span) {
                    return Some(element);
                }
                let operand = self.rvalue(cx, place, span)?;
                self.index_through_temporary(cx, operand, index_expr, span)
            }
            Value::Place {
                pointer,
                ty,
                writable,
            } => {
                let element = self.element_type(ty, span)?;
                let space = self.pointer_space(cx, pointer);
                let pointer_ty = self.pointer_type(element, space);
                Some(Value::Place {
                    pointer: cx.expr(
                        Expression::Access {
                            base: pointer,
                            index: index_expr,
                        },
                        pointer_ty,
                        span,
                    ),
                    ty: element,
                    writable,
                })
            }
            other => {
                let operand = self.rvalue(cx, other, span)?;
                self.index_through_temporary(cx, operand, index_expr, span)
            }
        }
    }

    /// Indexes a value through a temporary, so every backend gets a pointer.
    fn index_through_temporary(
        &mut self,
        cx: &mut FnCtx,
        operand: Operand,
        index_expr: Handle<Expression>,
        span: Span,
    ) -> Option<Value> {
        {
            {
                let element = self.element_type(operand.ty, span)?;
                let temp = cx.temporary(operand.ty, span);
                let temp_ptr_ty = self.pointer_type(operand.ty, AddressSpace::Function);
                let temp_ptr = cx.expr(Expression::LocalVariable(temp), temp_ptr_ty, span);
                cx.emit(Statement::Store {
                    pointer: temp_ptr,
                    value: operand.expr,
                });
                let temp_ptr = cx.expr(Expression::LocalVariable(temp), temp_ptr_ty, span);
                if matches!(self.module.inner(operand.ty), TypeInner::Matrix { .. }) {
                    let row = MatrixIndex::Dynamic(cx.bind(index_expr));
                    return self.matrix_row(temp_ptr, operand.ty, row, false);
                }
                let pointer_ty = self.pointer_type(element, AddressSpace::Function);
                Some(Value::Place {
                    pointer: cx.expr(
                        Expression::Access {
                            base: temp_ptr,
                            index: index_expr,
                        },
                        pointer_ty,
                        span,
                    ),
                    ty: element,
                    writable: false,
                })
            }
        }
    }

    /// An index operand as an int or uint scalar.
    pub(crate) fn index_value(
        &mut self,
        cx: &mut FnCtx,
        operand: Operand,
        span: Span,
    ) -> Option<Handle<Expression>> {
        match self.numeric(operand.ty) {
            Some((s, Shape::Scalar)) if s == Scalar::U32 || s == Scalar::I32 => Some(operand.expr),
            Some((_, Shape::Scalar)) => {
                let uint = self.scalar_type(Scalar::U32);
                self.convert_value(cx, operand.into_value(), uint, span, true)
            }
            _ => {
                self.error(
                    codes::TYPE_MISMATCH,
                    span,
                    "an index must be an integer scalar",
                );
                None
            }
        }
    }

    fn element_type(&mut self, ty: Handle<Type>, span: Span) -> Option<Handle<Type>> {
        match *self.module.inner(ty) {
            TypeInner::Array { base, .. } => Some(base),
            TypeInner::Vector { scalar, .. } => Some(self.scalar_type(scalar)),
            TypeInner::Matrix {
                columns, scalar, ..
            } => Some(self.shaped(scalar, Shape::Vector(columns))),
            _ => {
                let name = types::type_name(&self.module, ty);
                self.error(
                    codes::TYPE_MISMATCH,
                    span,
                    format!("'{name}' cannot be indexed"),
                );
                None
            }
        }
    }
}

/// Whether evaluating `e` may have effects beyond its value (calls, assignments,
/// wave operations), so it must not be evaluated speculatively.
pub(crate) fn has_effects(e: &ast::Expr) -> bool {
    has_effects_depth(e, 0)
}

fn has_effects_depth(e: &ast::Expr, depth: u32) -> bool {
    if depth > 256 {
        return true;
    }
    let d = depth + 1;
    match &e.kind {
        ast::ExprKind::Literal(_) | ast::ExprKind::Name(_) | ast::ExprKind::Error => false,
        ast::ExprKind::Assign(_) | ast::ExprKind::MethodCall { .. } => true,
        ast::ExprKind::Unary { op, operand } => {
            op.writes_operand() || has_effects_depth(operand, d)
        }
        ast::ExprKind::Binary(binary) => {
            has_effects_depth(&binary.lhs, d) || has_effects_depth(&binary.rhs, d)
        }
        ast::ExprKind::Conditional(c) => {
            has_effects_depth(&c.condition, d)
                || has_effects_depth(&c.accept, d)
                || has_effects_depth(&c.reject, d)
        }
        ast::ExprKind::Cast(cast) => has_effects_depth(&cast.operand, d),
        ast::ExprKind::Call(call) => {
            !super::intrinsics::is_pure_intrinsic(call.function.name())
                || call.args.iter().any(|a| has_effects_depth(a, d))
        }
        ast::ExprKind::Constructor(constructor) => {
            constructor.args.iter().any(|a| has_effects_depth(a, d))
        }
        ast::ExprKind::InitList(args) => args.iter().any(|a| has_effects_depth(a, d)),
        ast::ExprKind::Member(m) => has_effects_depth(&m.base, d),
        ast::ExprKind::Index(index) => {
            has_effects_depth(&index.base, d) || has_effects_depth(&index.index, d)
        }
    }
}

/// `value` itself when it is a computed value of type `to` already, which converts to
/// nothing (most operands do): [`Lowerer::convert`] would give the same, through a call
/// and a match.
#[inline]
fn unconverted(value: &Value, to: Handle<Type>) -> Option<Handle<Expression>> {
    match *value {
        Value::Rvalue { expr, ty, .. } if ty == to => Some(expr),
        _ => None,
    }
}

/// The component indices of a swizzle like `xyz` or `rgba`, if valid for `count` components.
fn parse_swizzle(text: &str, count: u32) -> Option<Vec<u32>> {
    if text.is_empty() || text.len() > 4 {
        return None;
    }
    let xyzw = text.chars().all(|c| "xyzw".contains(c));
    let rgba = text.chars().all(|c| "rgba".contains(c));
    if !xyzw && !rgba {
        return None;
    }
    let set = if xyzw { "xyzw" } else { "rgba" };
    text.chars()
        .map(|c| set.find(c).map(|i| i as u32).filter(|&i| i < count))
        .collect()
}

/// A literal converted to `to`, if the conversion is a plain value change.
/// Whether an implicit conversion from `from` to `to` components may lose data, as DXC
/// judges it (warning X3205): the target is narrower in bits. Same-width conversions
/// (`float` to `int`) and conversions to `bool` do not count.
fn loses_range(from: Scalar, to: Scalar) -> bool {
    to.kind != ScalarKind::Bool && from.width > to.width
}

fn convert_literal(literal: Literal, to: Scalar) -> Option<Literal> {
    let as_f64 = match literal {
        Literal::Bool(b) => f64::from(u8::from(b)),
        Literal::I32(v) => f64::from(v),
        Literal::U32(v) => f64::from(v),
        Literal::F32(v) => f64::from(v),
        Literal::F64(v) => v,
        Literal::I64(v) => v as f64,
        Literal::U64(v) => v as f64,
    };
    let as_i64 = match literal {
        Literal::Bool(b) => i64::from(b),
        Literal::I32(v) => i64::from(v),
        Literal::U32(v) => i64::from(v),
        Literal::I64(v) => v,
        Literal::U64(v) => v as i64,
        Literal::F32(v) => v as i64,
        Literal::F64(v) => v as i64,
    };
    Some(match (to.kind, to.width) {
        (ScalarKind::Bool, _) => Literal::Bool(as_f64 != 0.0),
        (ScalarKind::Sint, 4) => Literal::I32(as_i64 as i32),
        (ScalarKind::Uint, 4) => Literal::U32(as_i64 as u32),
        (ScalarKind::Float, 4) => Literal::F32(as_f64 as f32),
        (ScalarKind::Float, 8) => Literal::F64(as_f64),
        (ScalarKind::Sint, 8) => Literal::I64(as_i64),
        (ScalarKind::Uint, 8) => Literal::U64(as_i64 as u64),
        _ => return None,
    })
}

/// Levenshtein distance, for suggestions.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    // The previous row of distances, and the next one built from it.
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut next = Vec::with_capacity(row.len());
        next.push(i + 1);
        for ((cb, diagonal), above) in b.iter().zip(&row).zip(row.iter().skip(1)) {
            let substitution = diagonal + usize::from(ca != *cb);
            let left = next.last().map_or(usize::MAX, |d| d + 1);
            next.push(substitution.min(above + 1).min(left));
        }
        row = next;
    }
    row.last().copied().unwrap_or(0)
}

/// Element `index` (of type `ty`) of the value `operand`: a column of a matrix, a
/// component of a vector, an element of an array, a member of a struct.
fn element(cx: &mut FnCtx, operand: Operand, index: u32, ty: Handle<Type>, span: Span) -> Operand {
    Operand {
        expr: cx.expr(
            Expression::AccessIndex {
                base: operand.expr,
                index,
            },
            ty,
            span,
        ),
        ty,
        literal: false,
    }
}
