//! Statements: declarations, control flow and expression statements.

use oneshader_ir::{
    codes, AddressSpace, Expression, Handle, Literal, Scalar, ScalarKind, Statement, SwitchCase,
    SwitchValue, TypeInner, UnaryOperator,
};

use super::context::{FnCtx, LocalSymbol, Value};
use super::types::Ty;
use super::Lowerer;
use crate::ast;

impl<'a> Lowerer<'a> {
    /// Lowers one statement into the current block.
    pub(crate) fn lower_statement(&mut self, cx: &mut FnCtx, statement: &'a ast::Stmt<'a>) {
        match &statement.kind {
            ast::StmtKind::Block(block) => {
                cx.push_scope();
                for s in block.statements {
                    self.lower_statement(cx, s);
                }
                cx.pop_scope();
            }
            ast::StmtKind::Declaration(item) => match item {
                ast::Item::Variable(decl) => self.lower_local_declaration(cx, decl),
                ast::Item::Struct(_) | ast::Item::Typedef(_) => self.declare_item(item),
                other => self.error(
                    codes::UNSUPPORTED_CONSTRUCT,
                    other.span(),
                    "this declaration is not allowed inside a function",
                ),
            },
            ast::StmtKind::Expr(e) => {
                self.lower_expr(cx, e);
            }
            ast::StmtKind::If(if_stmt) => {
                let ast::IfStmt {
                    condition,
                    accept,
                    reject,
                } = &**if_stmt;
                let Some(condition) = self.lower_condition(cx, condition) else {
                    return;
                };
                let accept = self.lower_nested(cx, accept);
                let reject = match reject {
                    Some(r) => self.lower_nested(cx, r),
                    None => Vec::new(),
                };
                cx.emit(Statement::If {
                    condition,
                    accept,
                    reject,
                });
            }
            ast::StmtKind::For(for_stmt) => {
                let ast::ForStmt {
                    init,
                    condition,
                    step,
                    body,
                } = &**for_stmt;
                if let (Some(plan), Some(init), Some(step)) =
                    (self.unroll_plan(statement), init, step)
                {
                    self.lower_unrolled(cx, &plan, init, body, step);
                    return;
                }
                cx.push_scope();
                if let Some(init) = init {
                    self.lower_statement(cx, init);
                }
                self.lower_loop(cx, condition.as_ref(), body, step.as_ref());
                cx.pop_scope();
            }
            ast::StmtKind::While(w) => {
                self.lower_loop(cx, Some(&w.condition), &w.body, None);
            }
            ast::StmtKind::DoWhile(w) => {
                let ast::WhileStmt { condition, body } = &**w;
                cx.breakables.push(true);
                let body = self.lower_nested(cx, body);
                cx.breakables.pop();
                cx.push_block();
                let condition = self.lower_condition(cx, condition);
                let mut continuing = cx.pop_block();
                let Some(condition) = condition else { return };
                let bool_ty = self.scalar_type(Scalar::BOOL);
                let negated = cx.expr(
                    Expression::Unary {
                        op: UnaryOperator::LogicalNot,
                        expr: condition,
                    },
                    bool_ty,
                    statement.span,
                );
                continuing.push(Statement::Bind(negated));
                // Kept at its exact size, as every finished block is.
                continuing.shrink_to_fit();
                cx.emit(Statement::Loop {
                    body,
                    continuing,
                    break_if: Some(negated),
                });
            }
            ast::StmtKind::Switch(switch) => self.lower_switch(cx, &switch.selector, switch.cases),
            ast::StmtKind::Break => {
                if cx.breakables.is_empty() {
                    self.error(
                        codes::SYNTAX,
                        statement.span,
                        "'break' outside of a loop or switch",
                    );
                } else {
                    cx.emit(Statement::Break);
                }
            }
            ast::StmtKind::Continue => {
                if !cx.breakables.contains(&true) {
                    self.error(
                        codes::SYNTAX,
                        statement.span,
                        "'continue' outside of a loop",
                    );
                } else {
                    cx.emit(Statement::Continue);
                }
            }
            ast::StmtKind::Return(value) => self.lower_return(cx, value.as_ref(), statement.span),
            ast::StmtKind::Discard => cx.emit(Statement::Kill),
            ast::StmtKind::Empty | ast::StmtKind::Error => {}
        }
    }

    /// Lowers a statement into a block of its own (with its own scope).
    fn lower_nested(&mut self, cx: &mut FnCtx, statement: &'a ast::Stmt<'a>) -> Vec<Statement> {
        cx.push_block();
        cx.push_scope();
        self.lower_statement(cx, statement);
        cx.pop_scope();
        cx.pop_block()
    }

    fn lower_loop(
        &mut self,
        cx: &mut FnCtx,
        condition: Option<&'a ast::Expr<'a>>,
        body: &'a ast::Stmt<'a>,
        step: Option<&'a ast::Expr<'a>>,
    ) {
        cx.push_block();
        if let Some(condition) = condition {
            if let Some(c) = self.lower_condition(cx, condition) {
                cx.emit(Statement::If {
                    condition: c,
                    accept: Vec::new(),
                    reject: vec![Statement::Break],
                });
            }
        }
        cx.breakables.push(true);
        cx.push_scope();
        self.lower_statement(cx, body);
        cx.pop_scope();
        cx.breakables.pop();
        let body = cx.pop_block();
        cx.push_block();
        if let Some(step) = step {
            self.lower_expr(cx, step);
        }
        let continuing = cx.pop_block();
        cx.emit(Statement::Loop {
            body,
            continuing,
            break_if: None,
        });
    }

    fn lower_switch(
        &mut self,
        cx: &mut FnCtx,
        selector: &'a ast::Expr<'a>,
        groups: &'a [ast::SwitchCase<'a>],
    ) {
        let Some(value) = self.lower_expr(cx, selector) else {
            return;
        };
        let Some(operand) = self.rvalue(cx, value, selector.span) else {
            return;
        };
        let scalar = match self.module.inner(operand.ty) {
            TypeInner::Scalar(s) if s.kind == ScalarKind::Uint => Scalar::U32,
            TypeInner::Scalar(s) if s.is_integer() || s.kind == ScalarKind::Bool => Scalar::I32,
            _ => {
                self.error(
                    codes::TYPE_MISMATCH,
                    selector.span,
                    "a switch needs an integer scalar selector",
                );
                return;
            }
        };
        let selector_ty = self.scalar_type(scalar);
        let Some(selector_expr) =
            self.convert_value(cx, operand.into_value(), selector_ty, selector.span, true)
        else {
            return;
        };
        let mut cases = Vec::new();
        let mut seen = std::collections::HashSet::new();
        cx.breakables.push(false);
        for (group_index, group) in groups.iter().enumerate() {
            let last_group = group_index + 1 == groups.len();
            let mut values = Vec::new();
            for label in group.labels {
                let value = match label {
                    ast::CaseLabel::Default(_) => SwitchValue::Default,
                    ast::CaseLabel::Case(e) => match self.const_eval(e) {
                        Some(v) if scalar == Scalar::U32 => SwitchValue::U32(v as u32),
                        Some(v) => SwitchValue::I32(v as i32),
                        None => {
                            self.error(
                                codes::TYPE_MISMATCH,
                                e.span,
                                "case labels must be constant integer expressions",
                            );
                            continue;
                        }
                    },
                };
                if !seen.insert(value) {
                    self.error(codes::REDEFINITION, group.span, "duplicate case label");
                    continue;
                }
                values.push(value);
            }
            cx.push_block();
            cx.push_scope();
            for s in group.body {
                self.lower_statement(cx, s);
            }
            cx.pop_scope();
            let mut body = cx.pop_block();
            let ends = body.last().is_some_and(is_terminator);
            if !ends && !body.is_empty() && !last_group {
                // Control falls into the next case. WGSL has no fallthrough, so the cases
                // it reaches are lowered again at the end of this one, up to the first
                // that ends in break, continue, return or discard. Their diagnostics were
                // reported when they were lowered in their own place.
                let reported = std::mem::take(&mut self.diagnostics);
                for next in groups.iter().skip(group_index + 1) {
                    cx.push_block();
                    cx.push_scope();
                    for s in next.body {
                        self.lower_statement(cx, s);
                    }
                    cx.pop_scope();
                    let mut reached = cx.pop_block();
                    let reached_ends = reached.last().is_some_and(is_terminator);
                    body.append(&mut reached);
                    if reached_ends {
                        break;
                    }
                }
                self.diagnostics = reported;
            }
            let count = values.len();
            for (i, value) in values.into_iter().enumerate() {
                let is_last = i + 1 == count;
                let falls = !is_last || (body.is_empty() && !last_group);
                cases.push(SwitchCase {
                    value,
                    body: if is_last { body.clone() } else { Vec::new() },
                    fall_through: falls,
                });
            }
        }
        cx.breakables.pop();
        // The cases were collected one by one, and a case's body may have grown by the
        // cases it falls into: both are kept at their exact size, as every block is.
        cases.shrink_to_fit();
        cx.emit(Statement::Switch {
            selector: selector_expr,
            cases,
        });
    }

    fn lower_return(
        &mut self,
        cx: &mut FnCtx,
        value: Option<&'a ast::Expr<'a>>,
        span: oneshader_ir::Span,
    ) {
        match (cx.return_ty, value) {
            (Ty::Void, None) => cx.emit(Statement::Return { value: None }),
            (Ty::Void, Some(e)) => {
                self.error(
                    codes::TYPE_MISMATCH,
                    e.span,
                    "a void function cannot return a value",
                );
            }
            (Ty::Value(ty), Some(e)) => {
                let Some(v) = self.lower_expr(cx, e) else {
                    return;
                };
                if let Some(value) = self.convert_value(cx, v, ty, e.span, true) {
                    cx.emit(Statement::Return { value: Some(value) });
                }
            }
            (Ty::Value(_), None) => self.error(
                codes::TYPE_MISMATCH,
                span,
                "this function must return a value",
            ),
            (Ty::Resource(_), _) => {}
        }
    }

    fn lower_local_declaration(&mut self, cx: &mut FnCtx, decl: &'a ast::VariableDecl<'a>) {
        let has = |modifier: ast::Modifier| decl.modifiers.iter().any(|m| m.modifier == modifier);
        // A `static const` local never changes, so a constant local initialized on each
        // call is the same value; a mutable static local would keep its value between
        // calls, which a local cannot.
        if has(ast::Modifier::Groupshared) {
            self.error(
                codes::UNSUPPORTED_CONSTRUCT,
                decl.span,
                "groupshared variables inside functions are not supported; declare them at file scope",
            );
            return;
        }
        if has(ast::Modifier::Static) && !has(ast::Modifier::Const) {
            self.error(
                codes::UNSUPPORTED_CONSTRUCT,
                decl.span,
                "static variables inside functions (which keep their value between calls) are not supported yet; declare them at file scope, or make them 'static const'",
            );
            return;
        }
        let Some(ty) = self.resolve_type(&decl.ty) else {
            // Declared all the same, so its uses do not report it again.
            for declarator in decl.declarators {
                cx.declare(declarator.name.symbol, LocalSymbol::Poisoned);
            }
            return;
        };
        let Ty::Value(base) = ty else {
            self.error(
                codes::UNSUPPORTED_CONSTRUCT,
                decl.ty.span,
                "local variables must have value types (no void or resource locals)",
            );
            return;
        };
        for declarator in decl.declarators {
            let Some(ty) = self.apply_array_dims(base, declarator.array_dims) else {
                continue;
            };
            let value = match &declarator.init {
                Some(init) => self.lower_initializer(cx, init, ty),
                None => None,
            };
            let name = self.shared_name(&declarator.name);
            let var = cx.local(name, ty, declarator.span);
            if let Some(value) = value {
                let pointer_ty = self.pointer_type(ty, AddressSpace::Function);
                let pointer = cx.expr(Expression::LocalVariable(var), pointer_ty, declarator.span);
                cx.emit(Statement::Store { pointer, value });
            }
            if !cx.declare(declarator.name.symbol, LocalSymbol::Variable { var, ty }) {
                self.error(
                    codes::REDEFINITION,
                    declarator.name.span,
                    format!(
                        "'{}' is already declared in this scope",
                        declarator.name.name
                    ),
                );
            }
        }
    }

    /// The value of an initializer (an expression or `{ … }` list) converted to `ty`.
    pub(crate) fn lower_initializer(
        &mut self,
        cx: &mut FnCtx,
        init: &'a ast::Expr<'a>,
        ty: Handle<oneshader_ir::Type>,
    ) -> Option<Handle<Expression>> {
        if let ast::ExprKind::InitList(items) = &init.kind {
            let mut scalars = Vec::new();
            for item in *items {
                self.flatten_initializer(cx, item, &mut scalars)?;
            }
            let mut iter = scalars.into_iter();
            let value = self.build_from_scalars(cx, ty, &mut iter, init.span)?;
            if iter.next().is_some() {
                self.error(
                    codes::TYPE_MISMATCH,
                    init.span,
                    "too many values in this initializer list",
                );
                return None;
            }
            return Some(value);
        }
        let value = self.lower_expr(cx, init)?;
        self.convert_value(cx, value, ty, init.span, true)
    }

    fn flatten_initializer(
        &mut self,
        cx: &mut FnCtx,
        item: &'a ast::Expr<'a>,
        out: &mut Vec<super::expr::Operand>,
    ) -> Option<()> {
        if let ast::ExprKind::InitList(items) = &item.kind {
            for i in *items {
                self.flatten_initializer(cx, i, out)?;
            }
            return Some(());
        }
        let value = self.lower_expr(cx, item)?;
        let operand = self.rvalue(cx, value, item.span)?;
        self.scalarize(cx, operand, item.span, out)
    }

    /// A bool condition from an expression.
    pub(crate) fn lower_condition(
        &mut self,
        cx: &mut FnCtx,
        e: &'a ast::Expr<'a>,
    ) -> Option<Handle<Expression>> {
        let value = self.lower_expr(cx, e)?;
        let operand = self.rvalue(cx, value, e.span)?;
        if !matches!(self.module.inner(operand.ty), TypeInner::Scalar(_)) {
            self.error(
                codes::TYPE_MISMATCH,
                e.span,
                "a condition must be a scalar; use any() or all() to reduce a vector",
            );
            return None;
        }
        let bool_ty = self.scalar_type(Scalar::BOOL);
        self.convert_value(cx, operand.into_value(), bool_ty, e.span, true)
    }

    /// The handle of a scalar type.
    pub(crate) fn scalar_type(&mut self, scalar: Scalar) -> Handle<oneshader_ir::Type> {
        self.shaped(scalar, super::expr::Shape::Scalar)
    }

    /// A literal expression of `scalar` kind holding `value`.
    pub(crate) fn literal(
        &mut self,
        cx: &mut FnCtx,
        scalar: Scalar,
        value: i64,
        span: oneshader_ir::Span,
    ) -> Handle<Expression> {
        let literal = match scalar.kind {
            ScalarKind::Bool => Literal::Bool(value != 0),
            ScalarKind::Sint if scalar.width == 8 => Literal::I64(value),
            ScalarKind::Sint => Literal::I32(value as i32),
            ScalarKind::Uint if scalar.width == 8 => Literal::U64(value as u64),
            ScalarKind::Uint => Literal::U32(value as u32),
            ScalarKind::Float if scalar.width == 8 => Literal::F64(value as f64),
            ScalarKind::Float => Literal::F32(value as f32),
        };
        let ty = self.scalar_type(scalar);
        cx.expr(Expression::Literal(literal), ty, span)
    }
}

fn is_terminator(statement: &Statement) -> bool {
    matches!(
        statement,
        Statement::Break | Statement::Continue | Statement::Return { .. } | Statement::Kill
    )
}

impl Value {
    /// The value's type, for places and values.
    pub(crate) fn value_type(&self) -> Option<Handle<oneshader_ir::Type>> {
        match self {
            Value::Rvalue { ty, .. }
            | Value::Place { ty, .. }
            | Value::SwizzlePlace { ty, .. }
            | Value::MatrixPlace { ty, .. }
            | Value::Texel { ty, .. } => Some(*ty),
            Value::Cbuffer(place) => Some(place.ty),
            Value::Resource { .. } => None,
        }
    }
}
