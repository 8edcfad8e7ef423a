//! `[unroll]` loops whose loop variable an argument needs as a constant: a texel offset
//! (`Tex.Sample(s, uv, int2(i, 0))`) must be known when the shader is compiled, which
//! DXC gets by unrolling. Such a loop, counted from a constant to a constant with no
//! `break` or `continue` and no other write of its variable, is lowered as its body once
//! per value, the variable still stepped at run time and known to [`Lowerer::const_eval`]
//! as that value inside each copy. Other loops are lowered as loops.

use crate::ast;

use super::context::FnCtx;
use super::Lowerer;

/// The most copies of a body an unrolled loop gets.
const MAX_ITERATIONS: usize = 64;

/// How to unroll a loop: its variable and the value it has in each copy of the body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct UnrollPlan {
    /// The loop variable.
    pub name: String,
    /// Its value in each iteration, in order.
    pub values: Vec<i64>,
}

impl<'a> Lowerer<'a> {
    /// The plan for the `for` statement `statement`, when it has `[unroll]` and needs it.
    pub(crate) fn unroll_plan(&self, statement: &'a ast::Stmt<'a>) -> Option<UnrollPlan> {
        let ast::StmtKind::For(for_stmt) = &statement.kind else {
            return None;
        };
        let ast::ForStmt {
            init: Some(init),
            condition: Some(condition),
            step: Some(step),
            body,
        } = &**for_stmt
        else {
            return None;
        };
        let unroll = statement.attributes.iter().any(|a| a.name.is("unroll"));
        if !unroll {
            return None;
        }
        let (name, start) = self.counter_declaration(init)?;
        let is_counter =
            |e: &ast::Expr<'_>| matches!(&e.kind, ast::ExprKind::Name(p) if p.name() == name);
        let ast::ExprKind::Binary(binary) = &condition.kind else {
            return None;
        };
        let ast::BinaryExpr { op, lhs, rhs } = &**binary;
        if !is_counter(lhs) {
            return None;
        }
        let end = self.const_eval(rhs)?;
        let delta = match &step.kind {
            ast::ExprKind::Unary { op, operand } if is_counter(operand) => match op {
                ast::UnaryOp::PreIncrement | ast::UnaryOp::PostIncrement => 1,
                ast::UnaryOp::PreDecrement | ast::UnaryOp::PostDecrement => -1,
                _ => return None,
            },
            ast::ExprKind::Assign(assign)
                if matches!(assign.op, Some(ast::BinaryOp::Add | ast::BinaryOp::Sub))
                    && is_counter(&assign.target) =>
            {
                let v = self.const_eval(&assign.value)?;
                if assign.op == Some(ast::BinaryOp::Add) {
                    v
                } else {
                    v.checked_neg()?
                }
            }
            _ => return None,
        };
        if delta == 0 {
            return None;
        }
        let holds = |v: i64| match op {
            ast::BinaryOp::Less => v < end,
            ast::BinaryOp::LessEqual => v <= end,
            ast::BinaryOp::Greater => v > end,
            ast::BinaryOp::GreaterEqual => v >= end,
            ast::BinaryOp::NotEqual => v != end,
            _ => false,
        };
        let mut values = Vec::new();
        let mut value = start;
        while holds(value) {
            if values.len() == MAX_ITERATIONS {
                return None;
            }
            values.push(value);
            value = value.checked_add(delta)?;
        }
        let leaves_early = stmt_any(
            body,
            &|s| matches!(s.kind, ast::StmtKind::Break | ast::StmtKind::Continue),
            &|_| false,
        );
        let writes_counter = stmt_any(body, &|_| false, &|e| match &e.kind {
            ast::ExprKind::Assign(assign) => is_counter(&assign.target),
            ast::ExprKind::Unary { op, operand } => op.writes_operand() && is_counter(operand),
            _ => false,
        });
        // Only a method's argument (a texture offset) needs the value as a constant.
        let needs_constant = stmt_any(body, &|_| false, &|e| match &e.kind {
            ast::ExprKind::MethodCall(call) => {
                call.args.iter().any(|a| expr_any(a, &|x| is_counter(x), 0))
            }
            _ => false,
        });
        (!leaves_early && !writes_counter && needs_constant).then_some(UnrollPlan {
            name: name.to_string(),
            values,
        })
    }

    /// The variable and its constant initial value of a loop's `int i = 0` or `uint i = 0`.
    fn counter_declaration(&self, init: &'a ast::Stmt<'a>) -> Option<(&'a str, i64)> {
        let ast::StmtKind::Declaration(item) = &init.kind else {
            return None;
        };
        let ast::Item::Variable(decl) = item else {
            return None;
        };
        let [declarator] = decl.declarators else {
            return None;
        };
        if !declarator.array_dims.is_empty() {
            return None;
        }
        let start = self.const_eval(declarator.init.as_ref()?)?;
        Some((declarator.name.name, start))
    }

    /// Lowers an unrolled `for (init; …; step) body`: `init` once, then per value of
    /// `plan` the body (where the variable is that constant) and `step`.
    pub(crate) fn lower_unrolled(
        &mut self,
        cx: &mut FnCtx,
        plan: &UnrollPlan,
        init: &'a ast::Stmt<'a>,
        body: &'a ast::Stmt<'a>,
        step: &'a ast::Expr<'a>,
    ) {
        cx.push_scope();
        self.lower_statement(cx, init);
        for &value in &plan.values {
            self.unrolled.push((plan.name.clone(), value));
            cx.push_scope();
            self.lower_statement(cx, body);
            cx.pop_scope();
            self.unrolled.pop();
            self.lower_expr(cx, step);
        }
        cx.pop_scope();
    }

    /// The value an unrolled loop gives `name` in the copy of its body being lowered.
    pub(crate) fn unrolled_value(&self, name: &str) -> Option<i64> {
        self.unrolled
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|&(_, v)| v)
    }
}

/// Whether `stmt` or a statement or expression inside it satisfies `on_stmt` or `on_expr`.
fn stmt_any(
    stmt: &ast::Stmt,
    on_stmt: &dyn Fn(&ast::Stmt) -> bool,
    on_expr: &dyn Fn(&ast::Expr) -> bool,
) -> bool {
    stmt_any_depth(stmt, on_stmt, on_expr, 0)
}

fn stmt_any_depth(
    stmt: &ast::Stmt,
    on_stmt: &dyn Fn(&ast::Stmt) -> bool,
    on_expr: &dyn Fn(&ast::Expr) -> bool,
    depth: u32,
) -> bool {
    // Too deep to look through: assume the worst, which keeps the loop a loop.
    if depth > 256 {
        return true;
    }
    if on_stmt(stmt) {
        return true;
    }
    let d = depth + 1;
    let s = |x: &ast::Stmt| stmt_any_depth(x, on_stmt, on_expr, d);
    let e = |x: &ast::Expr| expr_any(x, on_expr, d);
    match &stmt.kind {
        ast::StmtKind::Block(block) => block.statements.iter().any(s),
        ast::StmtKind::Declaration(item) => match item {
            ast::Item::Variable(decl) => decl
                .declarators
                .iter()
                .any(|d| d.init.as_ref().is_some_and(e)),
            _ => false,
        },
        ast::StmtKind::Expr(x) => e(x),
        ast::StmtKind::If(if_stmt) => {
            e(&if_stmt.condition) || s(&if_stmt.accept) || if_stmt.reject.as_ref().is_some_and(s)
        }
        ast::StmtKind::For(for_stmt) => {
            for_stmt.init.as_ref().is_some_and(s)
                || for_stmt.condition.as_ref().is_some_and(e)
                || for_stmt.step.as_ref().is_some_and(e)
                || s(&for_stmt.body)
        }
        ast::StmtKind::While(w) | ast::StmtKind::DoWhile(w) => e(&w.condition) || s(&w.body),
        ast::StmtKind::Switch(switch) => {
            e(&switch.selector) || switch.cases.iter().any(|c| c.body.iter().any(s))
        }
        ast::StmtKind::Return(value) => value.as_ref().is_some_and(e),
        ast::StmtKind::Break
        | ast::StmtKind::Continue
        | ast::StmtKind::Discard
        | ast::StmtKind::Empty
        | ast::StmtKind::Error => false,
    }
}

/// Whether `expr` or an expression inside it satisfies `on_expr`.
fn expr_any(expr: &ast::Expr, on_expr: &dyn Fn(&ast::Expr) -> bool, depth: u32) -> bool {
    if depth > 256 {
        return true;
    }
    if on_expr(expr) {
        return true;
    }
    let e = |x: &ast::Expr| expr_any(x, on_expr, depth + 1);
    match &expr.kind {
        ast::ExprKind::Literal(_) | ast::ExprKind::Name(_) | ast::ExprKind::Error => false,
        ast::ExprKind::Unary { operand, .. } => e(operand),
        ast::ExprKind::Cast(cast) => e(&cast.operand),
        ast::ExprKind::Binary(binary) => e(&binary.lhs) || e(&binary.rhs),
        ast::ExprKind::Assign(assign) => e(&assign.target) || e(&assign.value),
        ast::ExprKind::Conditional(c) => e(&c.condition) || e(&c.accept) || e(&c.reject),
        ast::ExprKind::Call(call) => call.args.iter().any(e),
        ast::ExprKind::Constructor(constructor) => constructor.args.iter().any(e),
        ast::ExprKind::InitList(args) => args.iter().any(e),
        ast::ExprKind::MethodCall(call) => e(&call.receiver) || call.args.iter().any(e),
        ast::ExprKind::Member(m) => e(&m.base),
        ast::ExprKind::Index(index) => e(&index.base) || e(&index.index),
    }
}
