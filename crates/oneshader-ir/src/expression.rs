//! Expressions: the values a function computes.
//!
//! Expressions live in their function's arena, each with its type and span. An
//! expression is evaluated either where a [`Statement::Bind`](crate::Statement::Bind)
//! names it (then any number of later expressions may use it) or inline at the one
//! place that uses it. Call and atomic results are bound by their statements.

use crate::arena::Handle;
use crate::module::{Function, GlobalVariable, LocalVariable};
use crate::types::{Scalar, Type, VectorSize};
use crate::wave::WaveOp;

/// A constant scalar value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Literal {
    /// `true` / `false`.
    Bool(bool),
    /// 32-bit signed.
    I32(i32),
    /// 32-bit unsigned.
    U32(u32),
    /// 32-bit float.
    F32(f32),
    /// 64-bit float.
    F64(f64),
    /// 64-bit signed.
    I64(i64),
    /// 64-bit unsigned.
    U64(u64),
}

impl Literal {
    /// The literal's scalar type.
    pub fn scalar(self) -> Scalar {
        match self {
            Literal::Bool(_) => Scalar::BOOL,
            Literal::I32(_) => Scalar::I32,
            Literal::U32(_) => Scalar::U32,
            Literal::F32(_) => Scalar::F32,
            Literal::F64(_) => Scalar::F64,
            Literal::I64(_) => Scalar::I64,
            Literal::U64(_) => Scalar::U64,
        }
    }
}

/// A unary operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOperator {
    /// `-x`, per component.
    Negate,
    /// `!x` on bools, per component.
    LogicalNot,
    /// `~x` on integers, per component.
    BitwiseNot,
}

/// A binary operator. Operands have the same type, except that a shift's right
/// operand is an unsigned integer of the left's shape. Results are per component;
/// comparisons give bools of the operands' shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOperator {
    /// `+`.
    Add,
    /// `-`.
    Subtract,
    /// `*`, per component (matrix products are [`MathFunction::MatrixMultiply`]).
    Multiply,
    /// `/`; integer division truncates toward zero.
    Divide,
    /// `%`; for integers the sign of the left operand (truncated division), for floats
    /// `x - y * trunc(x / y)`.
    Modulo,
    /// `==`.
    Equal,
    /// `!=`.
    NotEqual,
    /// `<`.
    Less,
    /// `<=`.
    LessEqual,
    /// `>`.
    Greater,
    /// `>=`.
    GreaterEqual,
    /// `&` on integers.
    BitwiseAnd,
    /// `^` on integers.
    BitwiseXor,
    /// `|` on integers.
    BitwiseOr,
    /// `&` / `&&` on bools, both sides evaluated.
    LogicalAnd,
    /// `|` / `||` on bools, both sides evaluated.
    LogicalOr,
    /// `<<`; the count is already masked to the bit width by the front end.
    ShiftLeft,
    /// `>>`, arithmetic for signed, logical for unsigned; count already masked.
    ShiftRight,
}

impl BinaryOperator {
    /// Whether the operator compares and yields bools.
    pub fn is_comparison(self) -> bool {
        use BinaryOperator::*;
        matches!(
            self,
            Equal | NotEqual | Less | LessEqual | Greater | GreaterEqual
        )
    }
}

/// A built-in function applied per component unless noted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathFunction {
    /// `abs`.
    Abs,
    /// `min`.
    Min,
    /// `max`.
    Max,
    /// `clamp(x, lo, hi)`.
    Clamp,
    /// `saturate`.
    Saturate,
    /// `floor`.
    Floor,
    /// `ceil`.
    Ceil,
    /// `round` (to nearest even, as DXC).
    Round,
    /// `trunc`.
    Trunc,
    /// `frac`: `x - floor(x)`.
    Frac,
    /// `sqrt`.
    Sqrt,
    /// `rsqrt`.
    Rsqrt,
    /// `exp`.
    Exp,
    /// `exp2`.
    Exp2,
    /// `log`.
    Log,
    /// `log2`.
    Log2,
    /// `pow`.
    Pow,
    /// `sin`.
    Sin,
    /// `cos`.
    Cos,
    /// `tan`.
    Tan,
    /// `asin`.
    Asin,
    /// `acos`.
    Acos,
    /// `atan`.
    Atan,
    /// `atan2(y, x)`.
    Atan2,
    /// `sinh`.
    Sinh,
    /// `cosh`.
    Cosh,
    /// `tanh`.
    Tanh,
    /// `sign`.
    Sign,
    /// `lerp(a, b, t)`.
    Lerp,
    /// `mad(a, b, c)`.
    Mad,
    /// `step(edge, x)`.
    Step,
    /// `smoothstep(lo, hi, x)`.
    SmoothStep,
    /// `dot`, vectors to scalar.
    Dot,
    /// `cross`, 3-vectors.
    Cross,
    /// `length`.
    Length,
    /// `normalize`.
    Normalize,
    /// `distance`.
    Distance,
    /// `reflect`.
    Reflect,
    /// `refract`.
    Refract,
    /// `transpose`.
    Transpose,
    /// `determinant`.
    Determinant,
    /// Linear-algebra product `left × right` of an R×K and a K×C operand (a vector on
    /// the left is a 1×K row, on the right a K×1 column), with `Matrix { columns, rows }`
    /// read as the mathematical rows×columns matrix: SPIR-V's `OpMatrixTimesMatrix`,
    /// `OpMatrixTimesVector`, `OpVectorTimesMatrix`, and `*` in MSL and WGSL, operands
    /// in the same order. HLSL's `mul(a, b)` maps to it unchanged (`floatRxC` is
    /// `Matrix { columns: C, rows: R }`).
    MatrixMultiply,
    /// `any`, bool vector to bool.
    Any,
    /// `all`, bool vector to bool.
    All,
    /// `isnan`.
    IsNan,
    /// `isinf`.
    IsInf,
    /// `countbits`: number of set bits, as `uint`.
    CountBits,
    /// `reversebits`.
    ReverseBits,
    /// `firstbithigh`: for unsigned, index of the highest set bit; for signed, the
    /// highest bit that differs from the sign bit; `-1` (all ones) when none.
    FirstBitHigh,
    /// `firstbitlow`: index of the lowest set bit, `-1` (all ones) for zero.
    FirstBitLow,
}

/// An atomic read-modify-write operation; the result is the value before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicFunction {
    /// `InterlockedAdd`.
    Add,
    /// `InterlockedAnd`.
    And,
    /// `InterlockedOr`.
    Or,
    /// `InterlockedXor`.
    Xor,
    /// `InterlockedMin` (signedness from the pointee).
    Min,
    /// `InterlockedMax` (signedness from the pointee).
    Max,
    /// `InterlockedExchange`.
    Exchange,
    /// `InterlockedCompareExchange`/`InterlockedCompareStore`: stores `value` if the
    /// current value equals the statement's `compare`.
    CompareExchange,
}

/// Which component a swizzle picks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SwizzleComponent {
    /// `.x`.
    X = 0,
    /// `.y`.
    Y = 1,
    /// `.z`.
    Z = 2,
    /// `.w`.
    W = 3,
}

impl SwizzleComponent {
    /// The four components, in order.
    pub const ALL: [SwizzleComponent; 4] = [Self::X, Self::Y, Self::Z, Self::W];

    /// The component at position `index` of a vector, if there is one.
    pub fn from_index(index: u32) -> Option<Self> {
        Self::ALL.get(index as usize).copied()
    }

    /// Its letter in HLSL, MSL and WGSL: `x`, `y`, `z` or `w`.
    pub const fn letter(self) -> char {
        match self {
            Self::X => 'x',
            Self::Y => 'y',
            Self::Z => 'z',
            Self::W => 'w',
        }
    }
}

/// Which mip level a texture sample reads, and how it is chosen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SampleLevel {
    /// From the implicit derivatives of the coordinate (`Sample`): pixel shaders only.
    Auto,
    /// Level 0 (`SampleCmpLevelZero`, `Gather`).
    Zero,
    /// An explicit level of detail (`SampleLevel`), a float.
    Exact(Handle<Expression>),
    /// Implicit derivatives plus a bias (`SampleBias`), a float.
    Bias(Handle<Expression>),
    /// Explicit derivatives (`SampleGrad`), float vectors of the coordinate's size.
    Gradient {
        /// The derivative along x.
        x: Handle<Expression>,
        /// The derivative along y.
        y: Handle<Expression>,
    },
}

/// What a texture query asks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ImageQuery {
    /// Width (and height, depth) of mip `level` (level 0 when absent), a `uint`
    /// or `uint2`/`uint3` with as many components as the texture has dimensions
    /// (cubes: 2), layers excluded.
    Size {
        /// The mip level, a `uint`.
        level: Option<Handle<Expression>>,
    },
    /// Number of mip levels, a `uint`.
    NumLevels,
    /// Number of array layers, a `uint`.
    NumLayers,
    /// Number of samples per texel of a multisampled texture, a `uint`.
    NumSamples,
}

/// A filtered read of a sampled texture through a sampler, the operands of an
/// [`Expression::ImageSample`]: a 4-vector of the texture's kind, or for a comparison
/// (`depth_ref`) a `float`; a gather gives the chosen component of the four texels of
/// the bilinear footprint.
#[derive(Clone, Debug, PartialEq)]
pub struct ImageSample {
    /// The texture: an [`Expression::GlobalVariable`] of image type.
    pub image: Handle<Expression>,
    /// The sampler: an [`Expression::GlobalVariable`] of sampler type.
    pub sampler: Handle<Expression>,
    /// Float coordinates, one per dimension (cubes: a direction `float3`).
    pub coordinate: Handle<Expression>,
    /// For arrayed textures, the layer, an `int` (already rounded).
    pub array_index: Option<Handle<Expression>>,
    /// A constant texel offset, one component per dimension.
    pub offset: Option<Vec<i32>>,
    /// How the mip level is chosen.
    pub level: SampleLevel,
    /// For comparison samplers, the reference value, a `float`.
    pub depth_ref: Option<Handle<Expression>>,
    /// For gathers, the component gathered.
    pub gather: Option<SwizzleComponent>,
}

/// An expression. Operand handles refer to the same function's arena.
///
/// Kept small (at most 32 bytes, checked by a test): a function holds one per operation,
/// so the large, rare kinds box their operands.
#[derive(Clone, Debug, PartialEq)]
pub enum Expression {
    /// A constant scalar.
    Literal(Literal),
    /// The zero value of a type (all members zero, `false`).
    ZeroValue(Handle<Type>),
    /// A vector, matrix (from columns), array or struct built from components.
    Compose {
        /// The type built.
        ty: Handle<Type>,
        /// One operand per component, column, element or member.
        components: Box<[Handle<Expression>]>,
    },
    /// A vector with every component equal to a scalar.
    Splat {
        /// Number of components.
        size: VectorSize,
        /// The scalar.
        value: Handle<Expression>,
    },
    /// Selected components of a vector value.
    Swizzle {
        /// Number of components of the result.
        size: VectorSize,
        /// The vector read.
        vector: Handle<Expression>,
        /// The components picked; the first `size` are used.
        pattern: [SwizzleComponent; 4],
    },
    /// Element `index` (a dynamic integer) of an array, vector or matrix, through a
    /// pointer (giving a pointer) or of a value (giving a value).
    Access {
        /// The array, vector or matrix, or a pointer to one.
        base: Handle<Expression>,
        /// The element's index.
        index: Handle<Expression>,
    },
    /// Element or struct member `index` (a constant), through a pointer or of a value.
    AccessIndex {
        /// The aggregate, or a pointer to one.
        base: Handle<Expression>,
        /// The element or member index.
        index: u32,
    },
    /// A pointer to a global variable.
    GlobalVariable(Handle<GlobalVariable>),
    /// A pointer to a local variable.
    LocalVariable(Handle<LocalVariable>),
    /// The value of the function's argument at this position.
    FunctionArgument(u32),
    /// The value a pointer points at.
    Load {
        /// The pointer.
        pointer: Handle<Expression>,
    },
    /// A unary operation.
    Unary {
        /// The operator.
        op: UnaryOperator,
        /// The operand.
        expr: Handle<Expression>,
    },
    /// A binary operation.
    Binary {
        /// The operator.
        op: BinaryOperator,
        /// Left operand.
        left: Handle<Expression>,
        /// Right operand.
        right: Handle<Expression>,
    },
    /// `condition ? accept : reject`, per component when `condition` is a vector;
    /// both sides are evaluated.
    Select {
        /// Bool scalar or vector.
        condition: Handle<Expression>,
        /// Value where the condition holds.
        accept: Handle<Expression>,
        /// Value where it does not.
        reject: Handle<Expression>,
    },
    /// A built-in function.
    Math {
        /// Which one.
        fun: MathFunction,
        /// Its operands.
        args: Box<[Handle<Expression>]>,
    },
    /// A value conversion per component to `to` (float↔int truncating toward zero,
    /// to bool as `!= 0`, from bool as 0/1).
    Convert {
        /// The value converted.
        expr: Handle<Expression>,
        /// The scalar type of the result's components.
        to: Scalar,
    },
    /// A reinterpretation of the bits per component (`asuint`, `asfloat`).
    Bitcast {
        /// The value reinterpreted.
        expr: Handle<Expression>,
        /// The scalar type of the result's components.
        to: Scalar,
    },
    /// A wave (subgroup) or quad operation.
    Wave {
        /// Which one.
        op: WaveOp,
        /// Its operands, as [`WaveOp::arity`] says.
        args: Box<[Handle<Expression>]>,
    },
    /// The value returned by a [`Statement::Call`](crate::Statement::Call).
    CallResult(Handle<Function>),
    /// The value before an [`Statement::Atomic`](crate::Statement::Atomic).
    AtomicResult,
    /// Number of elements of the runtime-sized array behind a pointer.
    ArrayLength(Handle<Expression>),
    /// A filtered read of a sampled texture through a sampler (boxed: it is large and
    /// rare, and every expression is as large as the largest kind).
    ImageSample(Box<ImageSample>),
    /// An unfiltered read of one texel: a 4-vector of the texture's kind.
    ImageLoad {
        /// The texture.
        image: Handle<Expression>,
        /// Integer texel coordinates, one per dimension.
        coordinate: Handle<Expression>,
        /// For arrayed textures, the layer, an integer.
        array_index: Option<Handle<Expression>>,
        /// For multisampled textures, the sample index, an integer.
        sample: Option<Handle<Expression>>,
        /// For sampled, non-multisampled textures, the mip level, an integer.
        level: Option<Handle<Expression>>,
    },
    /// A pointer to one texel of a storage texture or `RWBuffer` whose element is a
    /// 32-bit integer scalar, for a [`Statement::Atomic`](crate::Statement::Atomic)
    /// (`InterlockedAdd(tex[p], v)`); its type is a pointer in
    /// [`AddressSpace::Handle`](crate::AddressSpace::Handle) to that scalar.
    ImageTexelPointer {
        /// The texture: an [`Expression::GlobalVariable`] of storage image type.
        image: Handle<Expression>,
        /// Integer texel coordinates, one per dimension.
        coordinate: Handle<Expression>,
        /// For arrayed textures, the layer, an integer.
        array_index: Option<Handle<Expression>>,
    },
    /// The mip level a `Sample` at `coordinate` would use, from the implicit derivatives
    /// (pixel shaders): `CalculateLevelOfDetail` (`clamped`: to the texture's levels and
    /// the sampler's LOD range) or `CalculateLevelOfDetailUnclamped`. A `float`.
    ImageLevelOfDetail {
        /// The texture: an [`Expression::GlobalVariable`] of image type.
        image: Handle<Expression>,
        /// The sampler: an [`Expression::GlobalVariable`] of sampler type.
        sampler: Handle<Expression>,
        /// Float coordinates, one per dimension (cubes: a direction), no layer.
        coordinate: Handle<Expression>,
        /// Clamped (`CalculateLevelOfDetail`) or not.
        clamped: bool,
    },
    /// A query of a texture's size, levels, layers or samples.
    ImageQuery {
        /// The texture.
        image: Handle<Expression>,
        /// What is asked.
        query: ImageQuery,
    },
    /// The derivative of a float scalar or vector across neighbouring pixels (pixel
    /// shaders only): `ddx`/`ddy` and their `_coarse`/`_fine` forms, `fwidth`.
    Derivative {
        /// Which derivative.
        axis: DerivativeAxis,
        /// Coarse, fine or unspecified precision.
        control: DerivativeControl,
        /// The value differentiated.
        expr: Handle<Expression>,
    },
}

impl Expression {
    /// Calls `visit` with each operand handle of the expression: the read-only
    /// [`Expression::map_operands`] (its local variables, arguments, globals and
    /// functions are not operands).
    pub fn for_each_operand(&self, mut visit: impl FnMut(Handle<Expression>)) {
        match self {
            Expression::Literal(_)
            | Expression::ZeroValue(_)
            | Expression::GlobalVariable(_)
            | Expression::LocalVariable(_)
            | Expression::FunctionArgument(_)
            | Expression::CallResult(_)
            | Expression::AtomicResult => {}
            Expression::Compose { components, .. } => components.iter().copied().for_each(visit),
            Expression::Math { args, .. } | Expression::Wave { args, .. } => {
                args.iter().copied().for_each(visit)
            }
            Expression::Splat { value: expr, .. }
            | Expression::Swizzle { vector: expr, .. }
            | Expression::AccessIndex { base: expr, .. }
            | Expression::Load { pointer: expr }
            | Expression::Unary { expr, .. }
            | Expression::Convert { expr, .. }
            | Expression::Bitcast { expr, .. }
            | Expression::ArrayLength(expr)
            | Expression::Derivative { expr, .. } => visit(*expr),
            Expression::Access { base, index } => {
                visit(*base);
                visit(*index);
            }
            Expression::Binary { left, right, .. } => {
                visit(*left);
                visit(*right);
            }
            Expression::Select {
                condition,
                accept,
                reject,
            } => {
                visit(*condition);
                visit(*accept);
                visit(*reject);
            }
            Expression::ImageSample(sample) => {
                let ImageSample {
                    image,
                    sampler,
                    coordinate,
                    array_index,
                    offset: _,
                    level,
                    depth_ref,
                    gather: _,
                } = &**sample;
                visit(*image);
                visit(*sampler);
                visit(*coordinate);
                array_index.iter().copied().for_each(&mut visit);
                depth_ref.iter().copied().for_each(&mut visit);
                match level {
                    SampleLevel::Auto | SampleLevel::Zero => {}
                    SampleLevel::Exact(x) | SampleLevel::Bias(x) => visit(*x),
                    SampleLevel::Gradient { x, y } => {
                        visit(*x);
                        visit(*y);
                    }
                }
            }
            Expression::ImageLoad {
                image,
                coordinate,
                array_index,
                sample,
                level,
            } => {
                visit(*image);
                visit(*coordinate);
                for operand in [array_index, sample, level] {
                    operand.iter().copied().for_each(&mut visit);
                }
            }
            Expression::ImageTexelPointer {
                image,
                coordinate,
                array_index,
            } => {
                visit(*image);
                visit(*coordinate);
                array_index.iter().copied().for_each(visit);
            }
            Expression::ImageLevelOfDetail {
                image,
                sampler,
                coordinate,
                ..
            } => {
                visit(*image);
                visit(*sampler);
                visit(*coordinate);
            }
            Expression::ImageQuery { image, query } => {
                visit(*image);
                if let ImageQuery::Size { level: Some(level) } = query {
                    visit(*level);
                }
            }
        }
    }

    /// Replaces every operand handle of the expression by `map` of it (its local
    /// variables and arguments are not operands: they stay as they are).
    pub fn map_operands(&mut self, mut map: impl FnMut(Handle<Expression>) -> Handle<Expression>) {
        let mut one = |handle: &mut Handle<Expression>| *handle = map(*handle);
        match self {
            Expression::Literal(_)
            | Expression::ZeroValue(_)
            | Expression::GlobalVariable(_)
            | Expression::LocalVariable(_)
            | Expression::FunctionArgument(_)
            | Expression::CallResult(_)
            | Expression::AtomicResult => {}
            Expression::Compose { components, .. } => components.iter_mut().for_each(one),
            Expression::Math { args, .. } | Expression::Wave { args, .. } => {
                args.iter_mut().for_each(one)
            }
            Expression::Splat { value: expr, .. }
            | Expression::Swizzle { vector: expr, .. }
            | Expression::AccessIndex { base: expr, .. }
            | Expression::Load { pointer: expr }
            | Expression::Unary { expr, .. }
            | Expression::Convert { expr, .. }
            | Expression::Bitcast { expr, .. }
            | Expression::ArrayLength(expr)
            | Expression::Derivative { expr, .. } => one(expr),
            Expression::Access { base, index } => {
                one(base);
                one(index);
            }
            Expression::Binary { left, right, .. } => {
                one(left);
                one(right);
            }
            Expression::Select {
                condition,
                accept,
                reject,
            } => {
                one(condition);
                one(accept);
                one(reject);
            }
            Expression::ImageSample(sample) => {
                let ImageSample {
                    image,
                    sampler,
                    coordinate,
                    array_index,
                    offset: _,
                    level,
                    depth_ref,
                    gather: _,
                } = &mut **sample;
                one(image);
                one(sampler);
                one(coordinate);
                array_index.iter_mut().for_each(&mut one);
                depth_ref.iter_mut().for_each(&mut one);
                match level {
                    SampleLevel::Auto | SampleLevel::Zero => {}
                    SampleLevel::Exact(x) | SampleLevel::Bias(x) => one(x),
                    SampleLevel::Gradient { x, y } => {
                        one(x);
                        one(y);
                    }
                }
            }
            Expression::ImageLoad {
                image,
                coordinate,
                array_index,
                sample,
                level,
            } => {
                one(image);
                one(coordinate);
                for operand in [array_index, sample, level] {
                    operand.iter_mut().for_each(&mut one);
                }
            }
            Expression::ImageTexelPointer {
                image,
                coordinate,
                array_index,
            } => {
                one(image);
                one(coordinate);
                array_index.iter_mut().for_each(one);
            }
            Expression::ImageLevelOfDetail {
                image,
                sampler,
                coordinate,
                ..
            } => {
                one(image);
                one(sampler);
                one(coordinate);
            }
            Expression::ImageQuery { image, query } => {
                one(image);
                if let ImageQuery::Size { level: Some(level) } = query {
                    one(level);
                }
            }
        }
    }
}

/// The direction of a [`Expression::Derivative`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DerivativeAxis {
    /// `ddx`.
    X,
    /// `ddy`.
    Y,
    /// `fwidth`: `abs(ddx) + abs(ddy)`.
    Width,
}

/// The precision of a [`Expression::Derivative`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DerivativeControl {
    /// Whatever the implementation picks (`ddx`).
    None,
    /// Per 2x2 quad (`ddx_coarse`).
    Coarse,
    /// Per pixel pair (`ddx_fine`).
    Fine,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statement::Statement;

    /// A function holds one expression per operation: their size is most of the IR's
    /// memory, so the large, rare kinds are boxed and optional handles take no extra room.
    #[test]
    fn expressions_stay_small() {
        eprintln!(
            "Expression {}, Statement {}, Option<Handle> {}, ImageQuery {}, Literal {}",
            std::mem::size_of::<Expression>(),
            std::mem::size_of::<Statement>(),
            std::mem::size_of::<Option<Handle<Expression>>>(),
            std::mem::size_of::<ImageQuery>(),
            std::mem::size_of::<Literal>(),
        );
        assert_eq!(std::mem::size_of::<Option<Handle<Expression>>>(), 4);
        assert!(std::mem::size_of::<Expression>() <= 24);
    }
}
