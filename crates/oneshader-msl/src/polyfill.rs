//! Helper functions the output defines when an HLSL operation has no single MSL
//! function with the same meaning. Each is defined once per argument type it is used
//! with (C++ overloading keeps one name).
use oneshader_ir::concat_text;

/// A helper function, with the MSL argument type it is defined for.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Polyfill {
    /// `uint4 _ballot(bool)`: `WaveActiveBallot`, the 64-bit `simd_ballot` mask as
    /// (low 32 bits, high 32 bits, 0, 0).
    Ballot,
    /// `boolN _all_equal(T)`: `WaveActiveAllEqual` per component, as
    /// `simd_all(x == simd_broadcast_first(x))`.
    AllEqual {
        /// The argument type (`float3`).
        ty: String,
        /// Its number of components (1 for scalars).
        components: u32,
    },
    /// `T _firstbithigh(T)`.
    FirstBitHigh {
        /// The argument type.
        ty: String,
        /// Whether it is signed (then the first bit differing from the sign is found).
        signed: bool,
    },
    /// `T _firstbitlow(T)`.
    FirstBitLow {
        /// The argument type.
        ty: String,
    },
    /// `T _sign(T)` for integers: -1, 0 or 1.
    IntegerSign {
        /// The argument type.
        ty: String,
    },
}

const COMPONENTS: [&str; 4] = ["x", "y", "z", "w"];

impl Polyfill {
    /// The function's name.
    pub fn name(&self) -> &'static str {
        match self {
            Polyfill::Ballot => "_ballot",
            Polyfill::AllEqual { .. } => "_all_equal",
            Polyfill::FirstBitHigh { .. } => "_firstbithigh",
            Polyfill::FirstBitLow { .. } => "_firstbitlow",
            Polyfill::IntegerSign { .. } => "_sign",
        }
    }

    /// The function's definition.
    pub fn definition(&self) -> String {
        let name = self.name();
        match self {
            Polyfill::Ballot => format!(
                "uint4 {name}(bool b) {{\n    ulong m = ulong(simd_ballot(b));\n    return uint4(uint(m), uint(m >> 32), 0u, 0u);\n}}\n"
            ),
            Polyfill::AllEqual { ty, components: 1 } => format!(
                "bool {name}({ty} x) {{\n    return simd_all(x == simd_broadcast_first(x));\n}}\n"
            ),
            Polyfill::AllEqual { ty, components } => {
                let all: Vec<String> = COMPONENTS
                    .iter()
                    .take(*components as usize)
                    .map(|c| concat_text!("simd_all(e.", c, ")"))
                    .collect();
                format!(
                    "bool{components} {name}({ty} x) {{\n    bool{components} e = x == simd_broadcast_first(x);\n    return bool{components}({});\n}}\n",
                    all.join(", ")
                )
            }
            // For a negative value the highest bit differing from the sign bit is the
            // highest set bit of ~x, which x ^ (x >> 31) gives for either sign; 0 and
            // -1 both leave no bit set and give -1.
            Polyfill::FirstBitHigh { ty, signed: true } => format!(
                "{ty} {name}({ty} x) {{\n    {ty} y = x ^ (x >> {ty}(31));\n    return select({ty}(31) - clz(y), {ty}(-1), y == {ty}(0));\n}}\n"
            ),
            Polyfill::FirstBitHigh { ty, signed: false } => format!(
                "{ty} {name}({ty} x) {{\n    return select({ty}(31) - clz(x), ~{ty}(0), x == {ty}(0));\n}}\n"
            ),
            Polyfill::FirstBitLow { ty } => format!(
                "{ty} {name}({ty} x) {{\n    return select(ctz(x), ~{ty}(0), x == {ty}(0));\n}}\n"
            ),
            Polyfill::IntegerSign { ty } => format!(
                "{ty} {name}({ty} x) {{\n    return select(select({ty}(0), {ty}(1), x > {ty}(0)), {ty}(-1), x < {ty}(0));\n}}\n"
            ),
        }
    }
}
