//! The program model: typed expressions and statements of a generated compute program,
//! shared by the random generator, the HLSL printer and the interpreter.
//!
//! Every value is a 32-bit word read as `int`, `uint` or `bool` (0 or 1). A program is the
//! body of one function run by every thread of a workgroup; it reads the input buffer, may
//! exchange values through groupshared memory, and writes [`Program::words`] words of its own
//! per thread into the output buffer.

/// The type of a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ty {
    /// `int`.
    Int,
    /// `uint`.
    Uint,
    /// `bool`, held as 0 or 1.
    Bool,
}

impl Ty {
    /// The HLSL name.
    pub fn hlsl(self) -> &'static str {
        match self {
            Ty::Int => "int",
            Ty::Uint => "uint",
            Ty::Bool => "bool",
        }
    }
}

/// A local scalar variable, by its number (`v{n}` in HLSL); numbers are unique in a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Var(pub usize);

/// A local array, by its number (`a{n}` in HLSL); numbers are unique in a program.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Array(pub usize);

/// An expression with its type.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// The type of the value.
    pub ty: Ty,
    /// What computes it.
    pub kind: ExprKind,
}

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-x` on `int`, wrapping.
    Negate,
    /// `~x`.
    BitNot,
    /// `!b`.
    LogicalNot,
}

/// A binary arithmetic or bitwise operator; both operands have the result's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    /// `+`, wrapping.
    Add,
    /// `-`, wrapping.
    Sub,
    /// `*`, wrapping.
    Mul,
    /// `/`, truncating; the divisor is never 0 and never -1 with `INT_MIN`.
    Div,
    /// `%`, the sign of the dividend; the same guards as `Div`.
    Rem,
    /// `&`.
    BitAnd,
    /// `|`.
    BitOr,
    /// `^`.
    BitXor,
    /// `<<`, the count masked to 0–31 (DXC's meaning).
    Shl,
    /// `>>`: arithmetic on `int`, logical on `uint`, the count masked to 0–31.
    Shr,
}

impl BinaryOp {
    /// The HLSL operator.
    pub fn hlsl(self) -> &'static str {
        match self {
            BinaryOp::Add => "+",
            BinaryOp::Sub => "-",
            BinaryOp::Mul => "*",
            BinaryOp::Div => "/",
            BinaryOp::Rem => "%",
            BinaryOp::BitAnd => "&",
            BinaryOp::BitOr => "|",
            BinaryOp::BitXor => "^",
            BinaryOp::Shl => "<<",
            BinaryOp::Shr => ">>",
        }
    }
}

/// A comparison of two operands of one type, giving `bool`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareOp {
    /// `<`.
    Less,
    /// `<=`.
    LessEqual,
    /// `>`.
    Greater,
    /// `>=`.
    GreaterEqual,
    /// `==`.
    Equal,
    /// `!=`.
    NotEqual,
}

impl CompareOp {
    /// The HLSL operator.
    pub fn hlsl(self) -> &'static str {
        match self {
            CompareOp::Less => "<",
            CompareOp::LessEqual => "<=",
            CompareOp::Greater => ">",
            CompareOp::GreaterEqual => ">=",
            CompareOp::Equal => "==",
            CompareOp::NotEqual => "!=",
        }
    }
}

/// A bit or arithmetic intrinsic.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Intrinsic {
    /// `min(a, b)`.
    Min,
    /// `max(a, b)`.
    Max,
    /// `abs(x)` on `int` (`abs(INT_MIN)` is `INT_MIN`).
    Abs,
    /// `clamp(x, lo, hi)` with `lo <= hi`.
    Clamp,
    /// `mad(a, b, c)`: `a * b + c`, wrapping.
    Mad,
    /// `countbits(x)`, a `uint`.
    CountBits,
    /// `reversebits(x)`.
    ReverseBits,
    /// `firstbithigh(x)`, a `uint`: on `int`, the first bit that differs from the sign bit.
    FirstBitHigh,
    /// `firstbitlow(x)`, a `uint`.
    FirstBitLow,
}

impl Intrinsic {
    /// The HLSL name.
    pub fn hlsl(self) -> &'static str {
        match self {
            Intrinsic::Min => "min",
            Intrinsic::Max => "max",
            Intrinsic::Abs => "abs",
            Intrinsic::Clamp => "clamp",
            Intrinsic::Mad => "mad",
            Intrinsic::CountBits => "countbits",
            Intrinsic::ReverseBits => "reversebits",
            Intrinsic::FirstBitHigh => "firstbithigh",
            Intrinsic::FirstBitLow => "firstbitlow",
        }
    }
}

/// A wave intrinsic; its operands are evaluated by the active lanes only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaveOp {
    /// `WaveActiveSum(x)`.
    ActiveSum,
    /// `WaveActiveProduct(x)`.
    ActiveProduct,
    /// `WaveActiveMin(x)`.
    ActiveMin,
    /// `WaveActiveMax(x)`.
    ActiveMax,
    /// `WaveActiveBitAnd(x)`.
    ActiveBitAnd,
    /// `WaveActiveBitOr(x)`.
    ActiveBitOr,
    /// `WaveActiveBitXor(x)`.
    ActiveBitXor,
    /// `WavePrefixSum(x)`.
    PrefixSum,
    /// `WavePrefixProduct(x)`.
    PrefixProduct,
    /// `WaveActiveCountBits(b)`.
    ActiveCountBits,
    /// `WaveActiveBallot(b).x`: lanes 0–31 (every subgroup size the runtimes have).
    BallotX,
    /// `WaveReadLaneFirst(x)`.
    ReadLaneFirst,
    /// `WaveReadLaneAt(x, lane)`: the lane is always active.
    ReadLaneAt,
    /// `WaveIsFirstLane()`.
    IsFirstLane,
    /// `WaveActiveAllTrue(b)`.
    AllTrue,
    /// `WaveActiveAnyTrue(b)`.
    AnyTrue,
    /// `WaveActiveAllEqual(x)`.
    AllEqual,
    /// `WaveGetLaneIndex()`.
    LaneIndex,
    /// `WaveGetLaneCount()`.
    LaneCount,
}

impl WaveOp {
    /// The HLSL name (`BallotX` adds `.x` after the call).
    pub fn hlsl(self) -> &'static str {
        match self {
            WaveOp::ActiveSum => "WaveActiveSum",
            WaveOp::ActiveProduct => "WaveActiveProduct",
            WaveOp::ActiveMin => "WaveActiveMin",
            WaveOp::ActiveMax => "WaveActiveMax",
            WaveOp::ActiveBitAnd => "WaveActiveBitAnd",
            WaveOp::ActiveBitOr => "WaveActiveBitOr",
            WaveOp::ActiveBitXor => "WaveActiveBitXor",
            WaveOp::PrefixSum => "WavePrefixSum",
            WaveOp::PrefixProduct => "WavePrefixProduct",
            WaveOp::ActiveCountBits => "WaveActiveCountBits",
            WaveOp::BallotX => "WaveActiveBallot",
            WaveOp::ReadLaneFirst => "WaveReadLaneFirst",
            WaveOp::ReadLaneAt => "WaveReadLaneAt",
            WaveOp::IsFirstLane => "WaveIsFirstLane",
            WaveOp::AllTrue => "WaveActiveAllTrue",
            WaveOp::AnyTrue => "WaveActiveAnyTrue",
            WaveOp::AllEqual => "WaveActiveAllEqual",
            WaveOp::LaneIndex => "WaveGetLaneIndex",
            WaveOp::LaneCount => "WaveGetLaneCount",
        }
    }
}

/// What computes an expression.
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A literal word.
    Literal(u32),
    /// A local variable.
    Var(Var),
    /// The thread's index in the workgroup (`tid`, a `uint`).
    ThreadIndex,
    /// `In[index & (INPUT_WORDS - 1)]`, a `uint`.
    Input(Box<Expr>),
    /// `a{n}[index & (len - 1)]`.
    Element(Array, usize, Box<Expr>),
    /// A unary operator.
    Unary(UnaryOp, Box<Expr>),
    /// A binary operator.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// A comparison.
    Compare(CompareOp, Box<Expr>, Box<Expr>),
    /// `a && b` (`and` true) or `a || b`, short-circuiting (HLSL 2021).
    Logical(bool, Box<Expr>, Box<Expr>),
    /// `c ? a : b`, evaluating only the side each lane takes (HLSL 2021).
    Select(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `(ty)(x)`: the same bits between `int` and `uint`, 0 or 1 from `bool`.
    Cast(Box<Expr>),
    /// A bit or arithmetic intrinsic.
    Intrinsic(Intrinsic, Vec<Expr>),
    /// A wave intrinsic.
    Wave(WaveOp, Vec<Expr>),
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `ty v = value;`.
    Declare(Var, Expr),
    /// `v = value;`, or `v op= value;` with an operator.
    Assign(Var, Option<BinaryOp>, Expr),
    /// `ty a[len] = { values };` (`len` is a power of two).
    DeclareArray(Array, Ty, Vec<Expr>),
    /// `a[index & (len - 1)] = value;`.
    AssignElement(Array, usize, Expr, Expr),
    /// `Out[base + tid * words + slot] = (uint)(value);`.
    Write(usize, Expr),
    /// `if (c) { .. } else { .. }`.
    If(Expr, Vec<Stmt>, Vec<Stmt>),
    /// `for (int v = 0; v < count; v++) { .. }`; `count` is at most 4 whatever the body does.
    For(Var, Expr, Vec<Stmt>),
    /// `switch (selector) { case k: { .. } break; .. default: { .. } break; }`; the cases are
    /// distinct and the last arm, `None`, is `default`.
    Switch(Expr, Vec<(Option<i32>, Vec<Stmt>)>),
    /// `break;` out of the innermost loop.
    Break,
    /// `continue;` in the innermost loop.
    Continue,
    /// Through groupshared memory, in uniform control flow: a barrier, `Shared[tid] = value`,
    /// a barrier, then `uint v = Shared[index & (THREADS - 1)];`.
    Exchange(Var, Expr, Expr),
}

/// A generated program.
#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    /// The statements.
    pub body: Vec<Stmt>,
    /// How many scalar variables it declares (their numbers are below this).
    pub vars: usize,
    /// How many arrays it declares.
    pub arrays: usize,
}

/// Threads in the workgroup that runs a program (a multiple of every subgroup size: 4, 8, 32, 64).
pub const THREADS: usize = 64;

/// Words of the input buffer `In` (a power of two).
pub const INPUT_WORDS: usize = 256;

/// Words each thread of a program writes to `Out`.
pub const WORDS: usize = 8;
