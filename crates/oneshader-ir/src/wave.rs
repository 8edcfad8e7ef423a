//! Wave (subgroup) and quad operations, and the device features they need.

use std::fmt;

/// A wave or quad intrinsic of HLSL, as one IR operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum WaveOp {
    /// `WaveGetLaneCount()`: lanes in the wave, `uint`.
    GetLaneCount,
    /// `WaveGetLaneIndex()`: this lane's index, `uint`.
    GetLaneIndex,
    /// `WaveIsFirstLane()`: whether this is the lowest active lane.
    IsFirstLane,
    /// `WaveActiveAnyTrue(b)`.
    ActiveAnyTrue,
    /// `WaveActiveAllTrue(b)`.
    ActiveAllTrue,
    /// `WaveActiveAllEqual(x)`: per component, bool of `x`'s shape.
    ActiveAllEqual,
    /// `WaveActiveBallot(b)`: `uint4`, bit `i` of the 128-bit mask for lane `i`.
    ActiveBallot,
    /// `WaveActiveCountBits(b)`: number of active lanes where `b` holds.
    ActiveCountBits,
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
    /// `WavePrefixSum(x)`: sum over active lanes below this one.
    PrefixSum,
    /// `WavePrefixProduct(x)`.
    PrefixProduct,
    /// `WavePrefixCountBits(b)`: active lanes below this one where `b` holds.
    PrefixCountBits,
    /// `WaveReadLaneAt(x, lane)`.
    ReadLaneAt,
    /// `WaveReadLaneFirst(x)`: `x` of the lowest active lane.
    ReadLaneFirst,
    /// `QuadReadAcrossX(x)`: from the horizontal neighbour (lane ^ 1).
    QuadReadAcrossX,
    /// `QuadReadAcrossY(x)`: from the vertical neighbour (lane ^ 2).
    QuadReadAcrossY,
    /// `QuadReadAcrossDiagonal(x)`: from the diagonal neighbour (lane ^ 3).
    QuadReadAcrossDiagonal,
    /// `QuadReadLaneAt(x, quadLane)`: from lane `quadLane` (0–3) of this quad.
    QuadReadLaneAt,
}

impl WaveOp {
    /// Every wave operation, in the order of the table in docs/intrinsics.md.
    pub const ALL: [WaveOp; 24] = [
        WaveOp::GetLaneCount,
        WaveOp::GetLaneIndex,
        WaveOp::IsFirstLane,
        WaveOp::ActiveAnyTrue,
        WaveOp::ActiveAllTrue,
        WaveOp::ActiveAllEqual,
        WaveOp::ActiveBallot,
        WaveOp::ActiveCountBits,
        WaveOp::ActiveSum,
        WaveOp::ActiveProduct,
        WaveOp::ActiveMin,
        WaveOp::ActiveMax,
        WaveOp::ActiveBitAnd,
        WaveOp::ActiveBitOr,
        WaveOp::ActiveBitXor,
        WaveOp::PrefixSum,
        WaveOp::PrefixProduct,
        WaveOp::PrefixCountBits,
        WaveOp::ReadLaneAt,
        WaveOp::ReadLaneFirst,
        WaveOp::QuadReadAcrossX,
        WaveOp::QuadReadAcrossY,
        WaveOp::QuadReadAcrossDiagonal,
        WaveOp::QuadReadLaneAt,
    ];

    /// The HLSL intrinsic's name.
    pub fn hlsl_name(self) -> &'static str {
        use WaveOp::*;
        match self {
            GetLaneCount => "WaveGetLaneCount",
            GetLaneIndex => "WaveGetLaneIndex",
            IsFirstLane => "WaveIsFirstLane",
            ActiveAnyTrue => "WaveActiveAnyTrue",
            ActiveAllTrue => "WaveActiveAllTrue",
            ActiveAllEqual => "WaveActiveAllEqual",
            ActiveBallot => "WaveActiveBallot",
            ActiveCountBits => "WaveActiveCountBits",
            ActiveSum => "WaveActiveSum",
            ActiveProduct => "WaveActiveProduct",
            ActiveMin => "WaveActiveMin",
            ActiveMax => "WaveActiveMax",
            ActiveBitAnd => "WaveActiveBitAnd",
            ActiveBitOr => "WaveActiveBitOr",
            ActiveBitXor => "WaveActiveBitXor",
            PrefixSum => "WavePrefixSum",
            PrefixProduct => "WavePrefixProduct",
            PrefixCountBits => "WavePrefixCountBits",
            ReadLaneAt => "WaveReadLaneAt",
            ReadLaneFirst => "WaveReadLaneFirst",
            QuadReadAcrossX => "QuadReadAcrossX",
            QuadReadAcrossY => "QuadReadAcrossY",
            QuadReadAcrossDiagonal => "QuadReadAcrossDiagonal",
            QuadReadLaneAt => "QuadReadLaneAt",
        }
    }

    /// The operation named `name` in HLSL, if any.
    pub fn from_hlsl_name(name: &str) -> Option<WaveOp> {
        WaveOp::ALL.into_iter().find(|op| op.hlsl_name() == name)
    }

    /// Number of operands.
    pub fn arity(self) -> usize {
        use WaveOp::*;
        match self {
            GetLaneCount | GetLaneIndex | IsFirstLane => 0,
            ReadLaneAt | QuadReadLaneAt => 2,
            _ => 1,
        }
    }

    /// Whether this is a quad operation.
    pub fn is_quad(self) -> bool {
        use WaveOp::*;
        matches!(
            self,
            QuadReadAcrossX | QuadReadAcrossY | QuadReadAcrossDiagonal | QuadReadLaneAt
        )
    }

    /// The Vulkan subgroup operations this needs, as DXC's SPIR-V for it does.
    pub fn subgroup_operations(self) -> SubgroupOperations {
        use WaveOp::*;
        let specific = match self {
            GetLaneCount | GetLaneIndex | IsFirstLane => SubgroupOperations::empty(),
            ActiveAnyTrue | ActiveAllTrue | ActiveAllEqual => SubgroupOperations::VOTE,
            ActiveBallot | ActiveCountBits | PrefixCountBits | ReadLaneFirst => {
                SubgroupOperations::BALLOT
            }
            ActiveSum | ActiveProduct | ActiveMin | ActiveMax | ActiveBitAnd | ActiveBitOr
            | ActiveBitXor | PrefixSum | PrefixProduct => SubgroupOperations::ARITHMETIC,
            ReadLaneAt => SubgroupOperations::SHUFFLE,
            QuadReadAcrossX | QuadReadAcrossY | QuadReadAcrossDiagonal | QuadReadLaneAt => {
                SubgroupOperations::QUAD
            }
        };
        SubgroupOperations::BASIC | specific
    }
}

/// How one wave operation maps to each target. The backends read it (the SPIR-V
/// capability; the MSL and WGSL function of one-call operations), `oneshader-e2e`'s
/// mapping test checks every output against it, and `docs/intrinsics.md` is rendered
/// from it ([`crate::mapping::intrinsics_markdown`]), so the doc and the compiler
/// cannot drift.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaveOpInfo {
    /// The SPIR-V instructions, by operand type where they differ (DXC's choice), or
    /// the `BuiltIn` variable read.
    pub spirv: &'static [&'static str],
    /// The SPIR-V capability it declares (besides `GroupNonUniform`, which all do).
    pub capability: &'static str,
    /// The MSL functions or attributes the output uses.
    pub msl: &'static [&'static str],
    /// The WGSL built-in functions or values the output uses.
    pub wgsl: &'static [&'static str],
    /// How it is written where it is not one call (polyfills, special cases).
    pub notes: &'static str,
    /// Where it is not available.
    pub stage_limits: &'static str,
}

/// The stage limit every wave operation has on WebGPU.
const WGSL_STAGES: &str = "WGSL: compute and fragment shaders only (OSH5202)";
/// The stage limits of the lane index and count.
const LANE_STAGES: &str =
    "WGSL: compute and fragment shaders only (OSH5202); MSL: not in vertex shaders (OSH5102)";
/// The stage limits of quad operations.
const QUAD_STAGES: &str = "WGSL: compute and fragment shaders only (OSH5202); Vulkan: other \
     stages need quadOperationsInAllStages (reflection reports Quad for the entry point's stage)";

impl WaveOp {
    /// How this operation maps to SPIR-V, MSL and WGSL.
    pub fn info(self) -> WaveOpInfo {
        use WaveOp::*;
        let info = |spirv, capability, msl, wgsl, notes| WaveOpInfo {
            spirv,
            capability,
            msl,
            wgsl,
            notes,
            stage_limits: if self.is_quad() {
                QUAD_STAGES
            } else {
                WGSL_STAGES
            },
        };
        let arithmetic = "GroupNonUniformArithmetic";
        match self {
            GetLaneCount => WaveOpInfo {
                stage_limits: LANE_STAGES,
                ..info(
                    &["BuiltIn SubgroupSize"],
                    "GroupNonUniform",
                    &["threads_per_simdgroup"],
                    &["subgroup_size"],
                    "an entry point input on MSL and WGSL",
                )
            },
            GetLaneIndex => WaveOpInfo {
                stage_limits: LANE_STAGES,
                ..info(
                    &["BuiltIn SubgroupLocalInvocationId"],
                    "GroupNonUniform",
                    &["thread_index_in_simdgroup"],
                    &["subgroup_invocation_id"],
                    "an entry point input on MSL and WGSL",
                )
            },
            IsFirstLane => info(
                &["OpGroupNonUniformElect"],
                "GroupNonUniform",
                &["simd_is_first"],
                &["subgroupElect"],
                "",
            ),
            ActiveAnyTrue => info(
                &["OpGroupNonUniformAny"],
                "GroupNonUniformVote",
                &["simd_any"],
                &["subgroupAny"],
                "",
            ),
            ActiveAllTrue => info(
                &["OpGroupNonUniformAll"],
                "GroupNonUniformVote",
                &["simd_all"],
                &["subgroupAll"],
                "",
            ),
            ActiveAllEqual => info(
                &["OpGroupNonUniformAllEqual"],
                "GroupNonUniformVote",
                &["simd_all", "simd_broadcast_first"],
                &["subgroupAll", "subgroupBroadcastFirst"],
                "per component; SPIR-V: one OpGroupNonUniformAllEqual per component; \
                 MSL and WGSL: all(x == broadcast_first(x)) per component",
            ),
            ActiveBallot => info(
                &["OpGroupNonUniformBallot"],
                "GroupNonUniformBallot",
                &["simd_ballot"],
                &["subgroupBallot"],
                "MSL: the 64-bit simd_ballot mask as uint4(low, high, 0, 0)",
            ),
            ActiveCountBits => info(
                &["OpGroupNonUniformBallot", "OpGroupNonUniformBallotBitCount"],
                "GroupNonUniformBallot",
                &["simd_sum"],
                &["subgroupAdd"],
                "SPIR-V: BallotBitCount Reduce of the ballot; MSL and WGSL: the sum of uint(b)",
            ),
            PrefixCountBits => info(
                &["OpGroupNonUniformBallot", "OpGroupNonUniformBallotBitCount"],
                "GroupNonUniformBallot",
                &["simd_prefix_exclusive_sum"],
                &["subgroupExclusiveAdd"],
                "SPIR-V: BallotBitCount ExclusiveScan of the ballot; MSL and WGSL: the \
                 exclusive prefix sum of uint(b)",
            ),
            ActiveSum => info(
                &["OpGroupNonUniformIAdd", "OpGroupNonUniformFAdd"],
                arithmetic,
                &["simd_sum"],
                &["subgroupAdd"],
                "",
            ),
            ActiveProduct => info(
                &["OpGroupNonUniformIMul", "OpGroupNonUniformFMul"],
                arithmetic,
                &["simd_product"],
                &["subgroupMul"],
                "",
            ),
            ActiveMin => info(
                &[
                    "OpGroupNonUniformSMin",
                    "OpGroupNonUniformUMin",
                    "OpGroupNonUniformFMin",
                ],
                arithmetic,
                &["simd_min"],
                &["subgroupMin"],
                "",
            ),
            ActiveMax => info(
                &[
                    "OpGroupNonUniformSMax",
                    "OpGroupNonUniformUMax",
                    "OpGroupNonUniformFMax",
                ],
                arithmetic,
                &["simd_max"],
                &["subgroupMax"],
                "",
            ),
            ActiveBitAnd => info(
                &["OpGroupNonUniformBitwiseAnd"],
                arithmetic,
                &["simd_and"],
                &["subgroupAnd"],
                "",
            ),
            ActiveBitOr => info(
                &["OpGroupNonUniformBitwiseOr"],
                arithmetic,
                &["simd_or"],
                &["subgroupOr"],
                "",
            ),
            ActiveBitXor => info(
                &["OpGroupNonUniformBitwiseXor"],
                arithmetic,
                &["simd_xor"],
                &["subgroupXor"],
                "",
            ),
            PrefixSum => info(
                &["OpGroupNonUniformIAdd", "OpGroupNonUniformFAdd"],
                arithmetic,
                &["simd_prefix_exclusive_sum"],
                &["subgroupExclusiveAdd"],
                "SPIR-V: ExclusiveScan",
            ),
            PrefixProduct => info(
                &["OpGroupNonUniformIMul", "OpGroupNonUniformFMul"],
                arithmetic,
                &["simd_prefix_exclusive_product"],
                &["subgroupExclusiveMul"],
                "SPIR-V: ExclusiveScan",
            ),
            ReadLaneAt => info(
                &["OpGroupNonUniformShuffle"],
                "GroupNonUniformShuffle",
                &["simd_shuffle"],
                &["subgroupShuffle"],
                "WGSL: subgroupBroadcast where the lane is a constant below 128",
            ),
            ReadLaneFirst => info(
                &["OpGroupNonUniformBroadcastFirst"],
                "GroupNonUniformBallot",
                &["simd_broadcast_first"],
                &["subgroupBroadcastFirst"],
                "",
            ),
            QuadReadAcrossX => info(
                &["OpGroupNonUniformQuadSwap"],
                "GroupNonUniformQuad",
                &["quad_shuffle_xor"],
                &["quadSwapX"],
                "SPIR-V: direction 0; MSL: quad_shuffle_xor(x, 1)",
            ),
            QuadReadAcrossY => info(
                &["OpGroupNonUniformQuadSwap"],
                "GroupNonUniformQuad",
                &["quad_shuffle_xor"],
                &["quadSwapY"],
                "SPIR-V: direction 1; MSL: quad_shuffle_xor(x, 2)",
            ),
            QuadReadAcrossDiagonal => info(
                &["OpGroupNonUniformQuadSwap"],
                "GroupNonUniformQuad",
                &["quad_shuffle_xor"],
                &["quadSwapDiagonal"],
                "SPIR-V: direction 2; MSL: quad_shuffle_xor(x, 3)",
            ),
            QuadReadLaneAt => info(
                &["OpGroupNonUniformQuadBroadcast"],
                "GroupNonUniformQuad",
                &["quad_shuffle"],
                &["subgroupShuffle", "subgroup_invocation_id"],
                "WGSL: quadBroadcast where the quad lane is a constant 0-3, else \
                 subgroupShuffle(x, (lane & ~3u) + i)",
            ),
        }
    }
}

/// A set of Vulkan subgroup feature bits, with the values of `VkSubgroupFeatureFlagBits`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SubgroupOperations(u32);

impl SubgroupOperations {
    /// `VK_SUBGROUP_FEATURE_BASIC_BIT`.
    pub const BASIC: Self = Self(0x1);
    /// `VK_SUBGROUP_FEATURE_VOTE_BIT`.
    pub const VOTE: Self = Self(0x2);
    /// `VK_SUBGROUP_FEATURE_ARITHMETIC_BIT`.
    pub const ARITHMETIC: Self = Self(0x4);
    /// `VK_SUBGROUP_FEATURE_BALLOT_BIT`.
    pub const BALLOT: Self = Self(0x8);
    /// `VK_SUBGROUP_FEATURE_SHUFFLE_BIT`.
    pub const SHUFFLE: Self = Self(0x10);
    /// `VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT`.
    pub const SHUFFLE_RELATIVE: Self = Self(0x20);
    /// `VK_SUBGROUP_FEATURE_CLUSTERED_BIT`.
    pub const CLUSTERED: Self = Self(0x40);
    /// `VK_SUBGROUP_FEATURE_QUAD_BIT`.
    pub const QUAD: Self = Self(0x80);

    /// The names of the bits, lowest first, as the spec prints them.
    pub const NAMES: [(SubgroupOperations, &'static str); 8] = [
        (Self::BASIC, "Basic"),
        (Self::VOTE, "Vote"),
        (Self::ARITHMETIC, "Arithmetic"),
        (Self::BALLOT, "Ballot"),
        (Self::SHUFFLE, "Shuffle"),
        (Self::SHUFFLE_RELATIVE, "ShuffleRelative"),
        (Self::CLUSTERED, "Clustered"),
        (Self::QUAD, "Quad"),
    ];

    /// No bits.
    pub const fn empty() -> Self {
        Self(0)
    }

    /// The set with exactly these bits (unknown bits are kept).
    pub const fn from_bits(bits: u32) -> Self {
        Self(bits)
    }

    /// The raw `VkSubgroupFeatureFlags` value.
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// Whether no bit is set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every bit of `other` is set in `self`.
    pub const fn contains(self, other: Self) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for SubgroupOperations {
    type Output = Self;
    fn bitor(self, rhs: Self) -> Self {
        Self(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for SubgroupOperations {
    fn bitor_assign(&mut self, rhs: Self) {
        self.0 |= rhs.0;
    }
}

/// Prints the names joined by ", " (`Basic, Ballot`), or `None` when empty.
impl fmt::Display for SubgroupOperations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Self::NAMES
            .iter()
            .filter(|(bit, _)| self.contains(*bit))
            .map(|&(_, name)| name)
            .collect();
        if names.is_empty() {
            f.write_str("None")
        } else {
            f.write_str(&names.join(", "))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_needs_basic_and_ballot() {
        let mut ops = SubgroupOperations::empty();
        for op in [
            WaveOp::PrefixCountBits,
            WaveOp::ActiveCountBits,
            WaveOp::IsFirstLane,
            WaveOp::ReadLaneFirst,
        ] {
            ops |= op.subgroup_operations();
        }
        assert_eq!(ops.bits(), 0x9);
        assert_eq!(ops.to_string(), "Basic, Ballot");
    }

    #[test]
    fn names_round_trip() {
        for op in WaveOp::ALL {
            assert_eq!(WaveOp::from_hlsl_name(op.hlsl_name()), Some(op));
        }
        assert_eq!(WaveOp::from_hlsl_name("WaveMatch"), None);
    }
}
