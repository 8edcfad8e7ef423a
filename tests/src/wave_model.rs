//! A CPU model of HLSL's wave and quad intrinsics, lane by lane, with HLSL's
//! semantics: reductions and scans run over the active lanes only, a prefix is
//! exclusive over the active lanes below, the ballot is a `uint4` with lane `i` at
//! bit `i % 32` of component `i / 32`, and the first lane is the lowest active one.
//!
//! Values are 32-bit words; an [`Elem`] says how to read them. A vector operand is a
//! `Vec` of words, one per component, and every operation works per component.

use std::fmt;

/// How a 32-bit word is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    /// `int`.
    Int,
    /// `uint`.
    Uint,
    /// `float`.
    Float,
}

impl Elem {
    /// The HLSL scalar type name.
    pub fn hlsl(self) -> &'static str {
        match self {
            Elem::Int => "int",
            Elem::Uint => "uint",
            Elem::Float => "float",
        }
    }

    /// `a + b`, wrapping for integers.
    pub fn add(self, a: u32, b: u32) -> u32 {
        match self {
            Elem::Float => (f32::from_bits(a) + f32::from_bits(b)).to_bits(),
            _ => a.wrapping_add(b),
        }
    }

    /// `a * b`, wrapping for integers (the low 32 bits are the same for both signs).
    pub fn mul(self, a: u32, b: u32) -> u32 {
        match self {
            Elem::Float => (f32::from_bits(a) * f32::from_bits(b)).to_bits(),
            _ => a.wrapping_mul(b),
        }
    }

    /// The smaller of `a` and `b` in this type's order.
    pub fn min(self, a: u32, b: u32) -> u32 {
        match self {
            Elem::Int => (a as i32).min(b as i32) as u32,
            Elem::Uint => a.min(b),
            Elem::Float => f32::from_bits(a).min(f32::from_bits(b)).to_bits(),
        }
    }

    /// The larger of `a` and `b` in this type's order.
    pub fn max(self, a: u32, b: u32) -> u32 {
        match self {
            Elem::Int => (a as i32).max(b as i32) as u32,
            Elem::Uint => a.max(b),
            Elem::Float => f32::from_bits(a).max(f32::from_bits(b)).to_bits(),
        }
    }

    /// The identity of `WavePrefixSum`: 0.
    pub fn zero(self) -> u32 {
        match self {
            Elem::Float => 0.0f32.to_bits(),
            _ => 0,
        }
    }

    /// The identity of `WavePrefixProduct`: 1.
    pub fn one(self) -> u32 {
        match self {
            Elem::Float => 1.0f32.to_bits(),
            _ => 1,
        }
    }

    /// Whether two words are the same value: bit equality, except that a float -0
    /// equals 0 (a scan may start from either).
    pub fn same(self, a: u32, b: u32) -> bool {
        match self {
            Elem::Float => a == b || (f32::from_bits(a) == 0.0 && f32::from_bits(b) == 0.0),
            _ => a == b,
        }
    }

    /// The word printed as a value of this type.
    pub fn show(self, word: u32) -> String {
        match self {
            Elem::Int => format!("{}", word as i32),
            Elem::Uint => format!("{word:#x}"),
            Elem::Float => format!("{:?}", f32::from_bits(word)),
        }
    }
}

impl fmt::Display for Elem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.hlsl())
    }
}

/// A binary reduction of the model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// `WaveActiveSum`, `WavePrefixSum`.
    Sum,
    /// `WaveActiveProduct`, `WavePrefixProduct`.
    Product,
    /// `WaveActiveMin`.
    Min,
    /// `WaveActiveMax`.
    Max,
    /// `WaveActiveBitAnd`.
    BitAnd,
    /// `WaveActiveBitOr`.
    BitOr,
    /// `WaveActiveBitXor`.
    BitXor,
}

impl Reduction {
    fn apply(self, elem: Elem, a: u32, b: u32) -> u32 {
        match self {
            Reduction::Sum => elem.add(a, b),
            Reduction::Product => elem.mul(a, b),
            Reduction::Min => elem.min(a, b),
            Reduction::Max => elem.max(a, b),
            Reduction::BitAnd => a & b,
            Reduction::BitOr => a | b,
            Reduction::BitXor => a ^ b,
        }
    }
}

/// One subgroup as the device formed it: for each lane index, the operand of that
/// lane, or `None` when the lane is inactive at the operation.
#[derive(Clone, Debug)]
pub struct Subgroup<T> {
    /// Per lane index, the lane's operand when it is active.
    pub lanes: Vec<Option<T>>,
}

impl<T: Clone> Subgroup<T> {
    /// The subgroup size (`WaveGetLaneCount`).
    pub fn size(&self) -> u32 {
        self.lanes.len() as u32
    }

    /// The active lanes with their operands, lowest lane first.
    fn active(&self) -> impl Iterator<Item = (usize, &T)> {
        self.lanes
            .iter()
            .enumerate()
            .filter_map(|(i, v)| v.as_ref().map(|v| (i, v)))
    }

    /// The lowest active lane.
    pub fn first_active(&self) -> Option<usize> {
        self.active().next().map(|(i, _)| i)
    }

    /// `WaveIsFirstLane()` on `lane`.
    pub fn is_first_lane(&self, lane: usize) -> bool {
        self.first_active() == Some(lane)
    }

    /// `WaveReadLaneFirst(x)`: the operand of the lowest active lane.
    pub fn read_lane_first(&self) -> Option<T> {
        self.active().next().map(|(_, v)| v.clone())
    }

    /// `WaveReadLaneAt(x, index)`: `Err` when that lane is inactive or absent (HLSL
    /// leaves the result undefined, so a test must not ask for it).
    pub fn read_lane_at(&self, index: u32) -> Result<T, String> {
        self.lanes
            .get(index as usize)
            .cloned()
            .flatten()
            .ok_or_else(|| format!("WaveReadLaneAt reads lane {index}, which is not active"))
    }

    /// `QuadReadLaneAt(x, quad_lane)` on `lane`: the operand of lane
    /// `(lane & !3) + quad_lane`; `Err` when that lane is inactive.
    pub fn quad_read_lane_at(&self, lane: usize, quad_lane: u32) -> Result<T, String> {
        let source = (lane & !3) + quad_lane as usize;
        self.lanes.get(source).cloned().flatten().ok_or_else(|| {
            format!("lane {lane} reads quad lane {quad_lane} (lane {source}), which is not active")
        })
    }

    /// `QuadReadAcrossX/Y/Diagonal` on `lane`: the operand of lane `lane ^ mask`
    /// (1, 2 or 3).
    pub fn quad_read_across(&self, lane: usize, mask: usize) -> Result<T, String> {
        let source = lane ^ mask;
        self.lanes.get(source).cloned().flatten().ok_or_else(|| {
            format!("lane {lane} reads across to lane {source}, which is not active")
        })
    }
}

impl Subgroup<bool> {
    /// `WaveActiveAnyTrue(b)`.
    pub fn any_true(&self) -> bool {
        self.active().any(|(_, &b)| b)
    }

    /// `WaveActiveAllTrue(b)`.
    pub fn all_true(&self) -> bool {
        self.active().all(|(_, &b)| b)
    }

    /// `WaveActiveBallot(b)`: lane `i` at bit `i % 32` of component `i / 32`.
    pub fn ballot(&self) -> [u32; 4] {
        let mut mask = [0u32; 4];
        for (lane, &b) in self.active() {
            if b {
                mask[lane / 32] |= 1 << (lane % 32);
            }
        }
        mask
    }

    /// `WaveActiveCountBits(b)`.
    pub fn count_bits(&self) -> u32 {
        self.active().filter(|(_, &b)| b).count() as u32
    }

    /// `WavePrefixCountBits(b)` on `lane`: active lanes below it where `b` holds.
    pub fn prefix_count_bits(&self, lane: usize) -> u32 {
        self.active().filter(|&(i, &b)| i < lane && b).count() as u32
    }
}

impl Subgroup<Vec<u32>> {
    /// `WaveActiveAllEqual(x)`, per component.
    pub fn all_equal(&self, elem: Elem) -> Vec<bool> {
        let Some(first) = self.read_lane_first() else {
            return Vec::new();
        };
        (0..first.len())
            .map(|c| self.active().all(|(_, v)| elem.same(v[c], first[c])))
            .collect()
    }

    /// `WaveActive*(x)` for reduction `op`, per component.
    pub fn reduce(&self, elem: Elem, op: Reduction) -> Vec<u32> {
        let mut active = self.active().map(|(_, v)| v);
        let Some(first) = active.next() else {
            return Vec::new();
        };
        active.fold(first.clone(), |acc, v| {
            acc.iter()
                .zip(v)
                .map(|(&a, &b)| op.apply(elem, a, b))
                .collect()
        })
    }

    /// `WavePrefix*(x)` on `lane` for `Sum` or `Product`: the reduction over the active
    /// lanes below `lane`, starting from the identity.
    pub fn prefix(&self, elem: Elem, op: Reduction, lane: usize, components: usize) -> Vec<u32> {
        let identity = if op == Reduction::Product {
            elem.one()
        } else {
            elem.zero()
        };
        self.active()
            .filter(|&(i, _)| i < lane)
            .fold(vec![identity; components], |acc, (_, v)| {
                acc.iter()
                    .zip(v)
                    .map(|(&a, &b)| op.apply(elem, a, b))
                    .collect()
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(values: &[Option<i32>]) -> Subgroup<Vec<u32>> {
        Subgroup {
            lanes: values.iter().map(|v| v.map(|v| vec![v as u32])).collect(),
        }
    }

    #[test]
    fn inactive_lanes_take_no_part() {
        let s = words(&[None, Some(3), Some(-5), None, Some(4)]);
        assert_eq!(s.reduce(Elem::Int, Reduction::Sum), vec![2]);
        assert_eq!(s.reduce(Elem::Int, Reduction::Min), vec![-5i32 as u32]);
        assert_eq!(s.reduce(Elem::Uint, Reduction::Min), vec![3]);
        assert_eq!(s.prefix(Elem::Int, Reduction::Sum, 1, 1), vec![0]);
        assert_eq!(
            s.prefix(Elem::Int, Reduction::Sum, 4, 1),
            vec![-2i32 as u32]
        );
        assert_eq!(
            s.prefix(Elem::Int, Reduction::Product, 4, 1),
            vec![-15i32 as u32]
        );
        assert_eq!(s.read_lane_first(), Some(vec![3]));
        assert!(s.is_first_lane(1) && !s.is_first_lane(0));
        assert!(s.read_lane_at(0).is_err());
        assert_eq!(s.quad_read_across(4, 1).ok(), None);
        assert_eq!(s.quad_read_lane_at(2, 1), Ok(vec![3]));
    }

    #[test]
    fn ballot_puts_lane_i_at_bit_i_mod_32_of_component_i_div_32() {
        let mut lanes = vec![Some(false); 64];
        lanes[1] = Some(true);
        lanes[33] = Some(true);
        lanes[40] = None;
        let s = Subgroup { lanes };
        assert_eq!(s.ballot(), [2, 2, 0, 0]);
        assert_eq!(s.count_bits(), 2);
        assert_eq!(s.prefix_count_bits(33), 1);
        assert!(s.any_true() && !s.all_true());
    }

    #[test]
    fn all_equal_is_per_component() {
        let s = Subgroup {
            lanes: vec![Some(vec![1, 7]), None, Some(vec![2, 7])],
        };
        assert_eq!(s.all_equal(Elem::Uint), vec![false, true]);
    }
}
