//! Constant folding: an operator, conversion or selection whose operands are all
//! literals becomes a literal as the expression is built, as DXC and glslang fold
//! them, so `(uint)(GROUP_SIZE * ITEMS_PER_THREAD)` reaches every target as `1024u`.
//! The front end folds each expression it builds, and [`inline`](crate::inline) the
//! expressions of an inlined body whose arguments are literals.
//!
//! The values are the GPU's: integer arithmetic wraps, a shift's count is already
//! masked by the lowering (and is masked again here to the operand's width), signed
//! shifts right are arithmetic. What a target would not compute exactly alike is left
//! to it: a division or remainder by zero or of the most negative value by `-1`, float
//! arithmetic (rounding), a conversion to float that would round, a float to integer
//! conversion out of range, and a bit pattern that is not a finite float.

use crate::arena::{Arena, Handle};
use crate::expression::{BinaryOperator, Expression, Literal, UnaryOperator};
use crate::module::Function;
use crate::types::{Scalar, ScalarKind};

/// The literal `expression` evaluates to, when its operands (expressions of
/// `function`) are literals and the result is exact on every target.
///
/// Inlined: the front end asks for every expression it builds, and most are of a kind
/// that never folds (a variable, a load, an access), which the first match tells.
#[inline]
pub fn literal(function: &Function, expression: &Expression) -> Option<Literal> {
    literal_in(&function.expressions, expression)
}

/// [`literal`] for an expression whose operands are in `expressions`.
#[inline]
pub fn literal_in(expressions: &Arena<Expression>, expression: &Expression) -> Option<Literal> {
    folded(
        |handle| match expressions.try_get(handle)? {
            Expression::Literal(literal) => Some(*literal),
            _ => None,
        },
        expression,
    )
}

/// [`literal`] for an expression whose operands are among `expressions` (by handle
/// index): the expressions of a function being built.
#[inline]
pub fn literal_among(expressions: &[Expression], expression: &Expression) -> Option<Literal> {
    folded(
        |handle| match expressions.get(handle.index())? {
            Expression::Literal(literal) => Some(*literal),
            _ => None,
        },
        expression,
    )
}

/// The literal `expression` folds to, given the literal each operand is (`operand`).
#[inline]
fn folded(
    operand: impl Fn(Handle<Expression>) -> Option<Literal>,
    expression: &Expression,
) -> Option<Literal> {
    match *expression {
        Expression::Unary { op, expr } => unary(op, operand(expr)?),
        Expression::Binary { op, left, right } => binary(op, operand(left)?, operand(right)?),
        Expression::Select {
            condition,
            accept,
            reject,
        } => match operand(condition)? {
            Literal::Bool(true) => operand(accept),
            Literal::Bool(false) => operand(reject),
            _ => None,
        },
        Expression::Convert { expr, to } => convert(operand(expr)?, to),
        Expression::Bitcast { expr, to } => bitcast(operand(expr)?, to),
        _ => None,
    }
}

/// A unary operator applied to a literal.
fn unary(op: UnaryOperator, value: Literal) -> Option<Literal> {
    use Literal as L;
    use UnaryOperator as U;
    Some(match (op, value) {
        (U::Negate, L::I32(v)) => L::I32(v.wrapping_neg()),
        (U::Negate, L::I64(v)) => L::I64(v.wrapping_neg()),
        (U::Negate, L::U32(v)) => L::U32(v.wrapping_neg()),
        (U::Negate, L::U64(v)) => L::U64(v.wrapping_neg()),
        // Flipping the sign bit is exact.
        (U::Negate, L::F32(v)) => L::F32(-v),
        (U::Negate, L::F64(v)) => L::F64(-v),
        (U::LogicalNot, L::Bool(v)) => L::Bool(!v),
        (U::BitwiseNot, L::I32(v)) => L::I32(!v),
        (U::BitwiseNot, L::I64(v)) => L::I64(!v),
        (U::BitwiseNot, L::U32(v)) => L::U32(!v),
        (U::BitwiseNot, L::U64(v)) => L::U64(!v),
        _ => return None,
    })
}

/// Integer arithmetic and bit operations of one type, as the GPU computes them.
trait GpuInteger: Copy + Ord {
    fn wrapping_add(self, other: Self) -> Self;
    fn wrapping_sub(self, other: Self) -> Self;
    fn wrapping_mul(self, other: Self) -> Self;
    /// Truncating division; `None` by zero and for the most negative value by `-1`.
    fn checked_div(self, other: Self) -> Option<Self>;
    /// Remainder with the sign of `self`; `None` where division is.
    fn checked_rem(self, other: Self) -> Option<Self>;
    /// Shift by the low bits of `count` (the width's).
    fn shl(self, count: u32) -> Self;
    /// Arithmetic shift for signed types, logical for unsigned.
    fn shr(self, count: u32) -> Self;
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    fn xor(self, other: Self) -> Self;
}

macro_rules! gpu_integer {
    ($($t:ty),*) => {$(
        impl GpuInteger for $t {
            fn wrapping_add(self, other: Self) -> Self { <$t>::wrapping_add(self, other) }
            fn wrapping_sub(self, other: Self) -> Self { <$t>::wrapping_sub(self, other) }
            fn wrapping_mul(self, other: Self) -> Self { <$t>::wrapping_mul(self, other) }
            fn checked_div(self, other: Self) -> Option<Self> { <$t>::checked_div(self, other) }
            fn checked_rem(self, other: Self) -> Option<Self> { <$t>::checked_rem(self, other) }
            fn shl(self, count: u32) -> Self { <$t>::wrapping_shl(self, count) }
            fn shr(self, count: u32) -> Self { <$t>::wrapping_shr(self, count) }
            fn and(self, other: Self) -> Self { self & other }
            fn or(self, other: Self) -> Self { self | other }
            fn xor(self, other: Self) -> Self { self ^ other }
        }
    )*};
}

gpu_integer!(i32, u32, i64, u64);

/// The result of `op` on two integers of one type: an integer of that type (`wrap`
/// makes the literal) or a bool.
fn integer<T: GpuInteger>(
    op: BinaryOperator,
    a: T,
    b: T,
    count: u32,
    wrap: fn(T) -> Literal,
) -> Option<Literal> {
    use BinaryOperator as B;
    Some(match op {
        B::Add => wrap(a.wrapping_add(b)),
        B::Subtract => wrap(a.wrapping_sub(b)),
        B::Multiply => wrap(a.wrapping_mul(b)),
        B::Divide => wrap(a.checked_div(b)?),
        B::Modulo => wrap(a.checked_rem(b)?),
        B::BitwiseAnd => wrap(a.and(b)),
        B::BitwiseOr => wrap(a.or(b)),
        B::BitwiseXor => wrap(a.xor(b)),
        B::ShiftLeft => wrap(a.shl(count)),
        B::ShiftRight => wrap(a.shr(count)),
        B::Equal => Literal::Bool(a == b),
        B::NotEqual => Literal::Bool(a != b),
        B::Less => Literal::Bool(a < b),
        B::LessEqual => Literal::Bool(a <= b),
        B::Greater => Literal::Bool(a > b),
        B::GreaterEqual => Literal::Bool(a >= b),
        B::LogicalAnd | B::LogicalOr => return None,
    })
}

/// A binary operator applied to two literals.
fn binary(op: BinaryOperator, left: Literal, right: Literal) -> Option<Literal> {
    use BinaryOperator as B;
    use Literal as L;
    // A shift's count is an unsigned integer of the left operand's shape, whatever
    // the left operand's signedness.
    let count = match right {
        L::U32(v) => Some(v),
        L::I32(v) => Some(v as u32),
        L::U64(v) => Some(v as u32),
        L::I64(v) => Some(v as u32),
        _ => None,
    };
    let shift = matches!(op, B::ShiftLeft | B::ShiftRight);
    match (left, right) {
        (L::Bool(a), L::Bool(b)) => Some(L::Bool(match op {
            B::LogicalAnd | B::BitwiseAnd => a & b,
            B::LogicalOr | B::BitwiseOr => a | b,
            B::BitwiseXor | B::NotEqual => a != b,
            B::Equal => a == b,
            _ => return None,
        })),
        (L::I32(a), _) if shift => integer(op, a, 0, count?, L::I32),
        (L::U32(a), _) if shift => integer(op, a, 0, count?, L::U32),
        (L::I64(a), _) if shift => integer(op, a, 0, count?, L::I64),
        (L::U64(a), _) if shift => integer(op, a, 0, count?, L::U64),
        (L::I32(a), L::I32(b)) => integer(op, a, b, 0, L::I32),
        (L::U32(a), L::U32(b)) => integer(op, a, b, 0, L::U32),
        (L::I64(a), L::I64(b)) => integer(op, a, b, 0, L::I64),
        (L::U64(a), L::U64(b)) => integer(op, a, b, 0, L::U64),
        _ => None,
    }
}

/// The integer value of an integer or bool literal (bools as 0 and 1).
fn integer_value(value: Literal) -> Option<i128> {
    Some(match value {
        Literal::Bool(v) => i128::from(v),
        Literal::I32(v) => i128::from(v),
        Literal::U32(v) => i128::from(v),
        Literal::I64(v) => i128::from(v),
        Literal::U64(v) => i128::from(v),
        Literal::F32(_) | Literal::F64(_) => return None,
    })
}

/// A value conversion of a literal to `to` (`Expression::Convert`).
fn convert(value: Literal, to: Scalar) -> Option<Literal> {
    if let Literal::F32(v) = value {
        // Widening a float is exact; converting one to bool is a comparison.
        return match (to.kind, to.width) {
            (ScalarKind::Float, 8) => Some(Literal::F64(f64::from(v))),
            (ScalarKind::Bool, _) => Some(Literal::Bool(v != 0.0)),
            _ => None,
        };
    }
    if let Literal::F64(v) = value {
        return match to.kind {
            ScalarKind::Bool => Some(Literal::Bool(v != 0.0)),
            _ => None,
        };
    }
    let v = integer_value(value)?;
    Some(match (to.kind, to.width) {
        (ScalarKind::Bool, _) => Literal::Bool(v != 0),
        // Integer conversions keep the low bits.
        (ScalarKind::Sint, 4) => Literal::I32(v as i32),
        (ScalarKind::Uint, 4) => Literal::U32(v as u32),
        (ScalarKind::Sint, 8) => Literal::I64(v as i64),
        (ScalarKind::Uint, 8) => Literal::U64(v as u64),
        // Only integers the float represents exactly.
        (ScalarKind::Float, 4) if v.unsigned_abs() <= 1 << f32::MANTISSA_DIGITS => {
            Literal::F32(v as f32)
        }
        (ScalarKind::Float, 8) if v.unsigned_abs() <= 1 << f64::MANTISSA_DIGITS => {
            Literal::F64(v as f64)
        }
        _ => return None,
    })
}

/// A reinterpretation of a literal's bits as `to` (`Expression::Bitcast`).
fn bitcast(value: Literal, to: Scalar) -> Option<Literal> {
    use Literal as L;
    let bits = match value {
        L::I32(v) => u64::from(v as u32),
        L::U32(v) => u64::from(v),
        L::F32(v) => u64::from(v.to_bits()),
        L::I64(v) => v as u64,
        L::U64(v) => v,
        L::F64(v) => v.to_bits(),
        L::Bool(_) => return None,
    };
    let width = match value {
        L::I32(_) | L::U32(_) | L::F32(_) => 4,
        _ => 8,
    };
    if width != to.width {
        return None;
    }
    let literal = match (to.kind, to.width) {
        (ScalarKind::Sint, 4) => L::I32(bits as u32 as i32),
        (ScalarKind::Uint, 4) => L::U32(bits as u32),
        (ScalarKind::Sint, 8) => L::I64(bits as i64),
        (ScalarKind::Uint, 8) => L::U64(bits),
        // Text targets cannot spell every NaN; only finite floats are folded.
        (ScalarKind::Float, 4) => L::F32(f32::from_bits(bits as u32)),
        (ScalarKind::Float, 8) => L::F64(f64::from_bits(bits)),
        _ => return None,
    };
    match literal {
        L::F32(v) if !v.is_finite() => None,
        L::F64(v) if !v.is_finite() => None,
        literal => Some(literal),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::Handle;
    use crate::types::Type;

    /// Folds `op` on two literals in a function of its own.
    fn fold_binary(op: BinaryOperator, left: Literal, right: Literal) -> Option<Literal> {
        let mut function = Function::default();
        let ty = Handle::<Type>::from_index(0);
        let left = function.add_expression(Expression::Literal(left), ty, None);
        let right = function.add_expression(Expression::Literal(right), ty, None);
        literal(&function, &Expression::Binary { op, left, right })
    }

    #[test]
    fn integers_wrap_and_shifts_mask_their_count() {
        use BinaryOperator as B;
        use Literal as L;
        assert_eq!(
            fold_binary(B::Multiply, L::I32(256), L::I32(4)),
            Some(L::I32(1024))
        );
        assert_eq!(
            fold_binary(B::Add, L::I32(i32::MAX), L::I32(1)),
            Some(L::I32(i32::MIN))
        );
        assert_eq!(
            fold_binary(B::Subtract, L::U32(0), L::U32(1)),
            Some(L::U32(u32::MAX))
        );
        assert_eq!(
            fold_binary(B::ShiftLeft, L::U32(1), L::U32(33)),
            Some(L::U32(2))
        );
        assert_eq!(
            fold_binary(B::ShiftRight, L::I32(-8), L::U32(1)),
            Some(L::I32(-4))
        );
        assert_eq!(
            fold_binary(B::ShiftRight, L::U32(0x8000_0000), L::U32(31)),
            Some(L::U32(1))
        );
        assert_eq!(
            fold_binary(B::Modulo, L::I32(-7), L::I32(2)),
            Some(L::I32(-1))
        );
        assert_eq!(
            fold_binary(B::Divide, L::I32(-7), L::I32(2)),
            Some(L::I32(-3))
        );
        assert_eq!(
            fold_binary(B::Less, L::U32(1), L::U32(2)),
            Some(L::Bool(true))
        );
        assert_eq!(
            fold_binary(B::LogicalAnd, L::Bool(true), L::Bool(false)),
            Some(L::Bool(false))
        );
    }

    #[test]
    fn what_a_gpu_may_compute_differently_is_left_alone() {
        use BinaryOperator as B;
        use Literal as L;
        assert_eq!(fold_binary(B::Divide, L::I32(1), L::I32(0)), None);
        assert_eq!(fold_binary(B::Modulo, L::U32(1), L::U32(0)), None);
        assert_eq!(fold_binary(B::Divide, L::I32(i32::MIN), L::I32(-1)), None);
        assert_eq!(fold_binary(B::Modulo, L::I32(i32::MIN), L::I32(-1)), None);
        assert_eq!(fold_binary(B::Add, L::F32(0.1), L::F32(0.2)), None);
        assert_eq!(convert(L::I32(16_777_217), Scalar::F32), None);
        assert_eq!(convert(L::F32(1.5), Scalar::I32), None);
        assert_eq!(bitcast(L::U32(0x7fc0_0000), Scalar::F32), None);
    }

    #[test]
    fn conversions_and_bitcasts() {
        use Literal as L;
        assert_eq!(convert(L::I32(-1), Scalar::U32), Some(L::U32(u32::MAX)));
        assert_eq!(convert(L::U32(7), Scalar::BOOL), Some(L::Bool(true)));
        assert_eq!(convert(L::Bool(true), Scalar::F32), Some(L::F32(1.0)));
        assert_eq!(convert(L::I32(-3), Scalar::F32), Some(L::F32(-3.0)));
        assert_eq!(convert(L::F32(0.5), Scalar::F64), Some(L::F64(0.5)));
        assert_eq!(bitcast(L::F32(1.0), Scalar::U32), Some(L::U32(0x3f80_0000)));
        assert_eq!(bitcast(L::I32(-1), Scalar::U32), Some(L::U32(u32::MAX)));
        assert_eq!(
            unary(UnaryOperator::Negate, L::I32(i32::MIN)),
            Some(L::I32(i32::MIN))
        );
        assert_eq!(
            unary(UnaryOperator::BitwiseNot, L::U32(0)),
            Some(L::U32(u32::MAX))
        );
    }
}
