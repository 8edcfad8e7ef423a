//! The CPU interpreter of generated programs: all threads of the workgroup run each
//! statement together under a mask of active threads, so control flow, wave operations
//! (through [`crate::wave_model`]), barriers and groupshared memory behave as HLSL (DXC,
//! HLSL 2021) defines them. Any operation HLSL leaves undefined (division by zero,
//! `INT_MIN / -1`, `clamp` with `lo > hi`, reading an inactive lane, a loop that runs away) is
//! an error: the generator must never produce it.

use super::program::{
    BinaryOp, CompareOp, Expr, ExprKind, Intrinsic, Program, Stmt, Ty, UnaryOp, WaveOp,
    INPUT_WORDS, THREADS, WORDS,
};
use crate::wave_model::{Elem, Reduction, Subgroup};

/// How the device grouped the workgroup's threads into subgroups.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Waves {
    /// Each subgroup as the thread indices of its lanes, by lane index.
    pub subgroups: Vec<Vec<usize>>,
}

impl Waves {
    /// Consecutive threads in subgroups of `size`: thread `t` is lane `t % size`.
    pub fn consecutive(size: usize) -> Waves {
        Waves {
            subgroups: (0..THREADS)
                .collect::<Vec<_>>()
                .chunks(size.max(1))
                .map(<[usize]>::to_vec)
                .collect(),
        }
    }

    /// The grouping a device reported: per thread, its lane index and its subgroup's
    /// identity (any value shared by the lanes of one subgroup and no other).
    pub fn from_lanes(lanes: &[(u32, u32)]) -> Result<Waves, String> {
        let mut subgroups: Vec<(u32, Vec<Option<usize>>)> = Vec::new();
        for (thread, &(lane, id)) in lanes.iter().enumerate() {
            let index = match subgroups.iter().position(|(i, _)| *i == id) {
                Some(index) => index,
                None => {
                    subgroups.push((id, Vec::new()));
                    subgroups.len() - 1
                }
            };
            let members = &mut subgroups[index].1;
            let lane = lane as usize;
            if members.len() <= lane {
                members.resize(lane + 1, None);
            }
            if members[lane].replace(thread).is_some() {
                return Err(format!("two threads are lane {lane} of subgroup {id}"));
            }
        }
        subgroups
            .into_iter()
            .map(|(id, members)| {
                members
                    .into_iter()
                    .collect::<Option<Vec<usize>>>()
                    .ok_or_else(|| format!("subgroup {id} has a lane without a thread"))
            })
            .collect::<Result<_, _>>()
            .map(|subgroups| Waves { subgroups })
    }
}

/// Runs `program` on every thread and returns the words it writes: `WORDS` per thread,
/// thread by thread (unwritten words are 0).
pub fn interpret(program: &Program, input: &[u32], waves: &Waves) -> Result<Vec<u32>, String> {
    if input.len() != INPUT_WORDS {
        return Err(format!(
            "the input has {} words, not {INPUT_WORDS}",
            input.len()
        ));
    }
    let mut machine = Machine {
        input,
        waves,
        vars: vec![vec![0; THREADS]; program.vars],
        arrays: vec![Vec::new(); program.arrays],
        shared: vec![0; THREADS],
        out: vec![0; THREADS * WORDS],
        broken: Vec::new(),
        steps: 0,
    };
    machine.block(&program.body, &[true; THREADS])?;
    Ok(machine.out)
}

/// The most loop iterations one program may run (the generator bounds each loop at 4).
const MAX_STEPS: usize = 100_000;

/// Per-thread values.
type Lanes = Vec<u32>;
/// Per-thread activity.
type Mask = [bool];

struct Machine<'a> {
    input: &'a [u32],
    waves: &'a Waves,
    vars: Vec<Lanes>,
    /// Per array, per thread, the elements.
    arrays: Vec<Vec<Vec<u32>>>,
    shared: Vec<u32>,
    out: Vec<u32>,
    /// Per enclosing loop, the threads that left it by `break`.
    broken: Vec<Vec<bool>>,
    steps: usize,
}

fn and(a: &Mask, b: impl Fn(usize) -> bool) -> Vec<bool> {
    a.iter().enumerate().map(|(t, &on)| on && b(t)).collect()
}

fn none(mask: &Mask) -> bool {
    !mask.iter().any(|&on| on)
}

impl Machine<'_> {
    /// Runs `stmts` on the threads of `mask`; returns the threads that reach its end.
    fn block(&mut self, stmts: &[Stmt], mask: &Mask) -> Result<Vec<bool>, String> {
        let mut mask = mask.to_vec();
        for stmt in stmts {
            if none(&mask) {
                break;
            }
            mask = self.stmt(stmt, &mask)?;
        }
        Ok(mask)
    }

    fn stmt(&mut self, stmt: &Stmt, mask: &Mask) -> Result<Vec<bool>, String> {
        match stmt {
            Stmt::Declare(var, value) | Stmt::Assign(var, None, value) => {
                let value = self.eval(value, mask)?;
                self.store(var.0, &value, mask);
            }
            Stmt::Assign(var, Some(op), value) => {
                let ty = value.ty;
                let value = self.eval(value, mask)?;
                let old = &self.vars[var.0];
                let mut result = vec![0; THREADS];
                for t in active(mask) {
                    result[t] = binary(*op, ty, old[t], value[t])?;
                }
                self.store(var.0, &result, mask);
            }
            Stmt::DeclareArray(array, _, values) => {
                let mut elements = vec![vec![0; values.len()]; THREADS];
                for (i, value) in values.iter().enumerate() {
                    let value = self.eval(value, mask)?;
                    for t in active(mask) {
                        elements[t][i] = value[t];
                    }
                }
                let slot = &mut self.arrays[array.0];
                if slot.is_empty() {
                    *slot = vec![Vec::new(); THREADS];
                }
                for t in active(mask) {
                    slot[t] = elements[t].clone();
                }
            }
            Stmt::AssignElement(array, len, index, value) => {
                let index = self.eval(index, mask)?;
                let value = self.eval(value, mask)?;
                for t in active(mask) {
                    let element = self.arrays[array.0][t]
                        .get_mut(index[t] as usize & (len - 1))
                        .ok_or("an array element out of range")?;
                    *element = value[t];
                }
            }
            Stmt::Write(slot, value) => {
                let value = self.eval(value, mask)?;
                for t in active(mask) {
                    self.out[t * WORDS + slot] = value[t];
                }
            }
            Stmt::If(condition, accept, reject) => {
                let c = self.eval(condition, mask)?;
                let then_mask = and(mask, |t| c[t] != 0);
                let else_mask = and(mask, |t| c[t] == 0);
                let a = self.block(accept, &then_mask)?;
                let b = self.block(reject, &else_mask)?;
                return Ok(a.iter().zip(&b).map(|(&x, &y)| x || y).collect());
            }
            Stmt::For(var, count, body) => {
                self.store(var.0, &[0; THREADS], mask);
                let mut running = mask.to_vec();
                self.broken.push(vec![false; THREADS]);
                loop {
                    let bound = self.eval(count, &running)?;
                    let vars = &self.vars[var.0];
                    running = and(&running, |t| (vars[t] as i32) < (bound[t] as i32));
                    if none(&running) {
                        break;
                    }
                    self.steps += 1;
                    if self.steps > MAX_STEPS {
                        return Err("a loop runs away".into());
                    }
                    self.block(body, &running)?;
                    let broken = self.broken.last().cloned().unwrap_or_default();
                    running = and(&running, |t| !broken[t]);
                    for t in active(&running) {
                        self.vars[var.0][t] = self.vars[var.0][t].wrapping_add(1);
                    }
                }
                self.broken.pop();
            }
            Stmt::Switch(selector, arms) => {
                let s = self.eval(selector, mask)?;
                let cases: Vec<i32> = arms.iter().filter_map(|(case, _)| *case).collect();
                for (case, body) in arms {
                    let arm = and(mask, |t| match case {
                        Some(k) => s[t] as i32 == *k,
                        None => !cases.contains(&(s[t] as i32)),
                    });
                    self.block(body, &arm)?;
                }
            }
            Stmt::Break => {
                let broken = self.broken.last_mut().ok_or("a break outside a loop")?;
                for t in active(mask) {
                    broken[t] = true;
                }
                return Ok(vec![false; THREADS]);
            }
            Stmt::Continue => return Ok(vec![false; THREADS]),
            Stmt::Exchange(var, value, index) => {
                if mask.iter().any(|&on| !on) {
                    return Err("a barrier in non-uniform control flow".into());
                }
                let value = self.eval(value, mask)?;
                self.shared.copy_from_slice(&value);
                let index = self.eval(index, mask)?;
                let read: Lanes = index
                    .iter()
                    .map(|&i| self.shared[i as usize & (THREADS - 1)])
                    .collect();
                self.store(var.0, &read, mask);
            }
        }
        Ok(mask.to_vec())
    }

    fn store(&mut self, var: usize, value: &[u32], mask: &Mask) {
        for t in active(mask) {
            self.vars[var][t] = value[t];
        }
    }

    /// The value of `expr` on the threads of `mask` (0 on the others).
    fn eval(&mut self, expr: &Expr, mask: &Mask) -> Result<Lanes, String> {
        let mut out = vec![0u32; THREADS];
        match &expr.kind {
            ExprKind::Literal(word) => active(mask).for_each(|t| out[t] = *word),
            ExprKind::Var(var) => active(mask).for_each(|t| out[t] = self.vars[var.0][t]),
            ExprKind::ThreadIndex => active(mask).for_each(|t| out[t] = t as u32),
            ExprKind::Input(index) => {
                let index = self.eval(index, mask)?;
                for t in active(mask) {
                    out[t] = self.input[index[t] as usize & (INPUT_WORDS - 1)];
                }
            }
            ExprKind::Element(array, len, index) => {
                let index = self.eval(index, mask)?;
                for t in active(mask) {
                    out[t] = *self.arrays[array.0][t]
                        .get(index[t] as usize & (len - 1))
                        .ok_or("an array read before its declaration")?;
                }
            }
            ExprKind::Unary(op, x) => {
                let x = self.eval(x, mask)?;
                for t in active(mask) {
                    out[t] = match op {
                        UnaryOp::Negate => x[t].wrapping_neg(),
                        UnaryOp::BitNot => !x[t],
                        UnaryOp::LogicalNot => u32::from(x[t] == 0),
                    };
                }
            }
            ExprKind::Binary(op, a, b) => {
                let a = self.eval(a, mask)?;
                let b = self.eval(b, mask)?;
                for t in active(mask) {
                    out[t] = binary(*op, expr.ty, a[t], b[t])?;
                }
            }
            ExprKind::Compare(op, a, b) => {
                let ty = a.ty;
                let a = self.eval(a, mask)?;
                let b = self.eval(b, mask)?;
                for t in active(mask) {
                    out[t] = u32::from(compare(*op, ty, a[t], b[t]));
                }
            }
            ExprKind::Logical(is_and, a, b) => {
                let a = self.eval(a, mask)?;
                // The right side runs only where the left does not decide.
                let rest = and(mask, |t| (a[t] != 0) == *is_and);
                let b = self.eval(b, &rest)?;
                for t in active(mask) {
                    out[t] = if rest[t] { b[t] } else { a[t] };
                }
            }
            ExprKind::Select(c, a, b) => {
                let c = self.eval(c, mask)?;
                let then_mask = and(mask, |t| c[t] != 0);
                let else_mask = and(mask, |t| c[t] == 0);
                let a = self.eval(a, &then_mask)?;
                let b = self.eval(b, &else_mask)?;
                for t in active(mask) {
                    out[t] = if then_mask[t] { a[t] } else { b[t] };
                }
            }
            ExprKind::Cast(x) => out = self.eval(x, mask)?,
            ExprKind::Intrinsic(op, args) => {
                let ty = args.first().map_or(Ty::Uint, |a| a.ty);
                let args = args
                    .iter()
                    .map(|a| self.eval(a, mask))
                    .collect::<Result<Vec<_>, _>>()?;
                for t in active(mask) {
                    let arg = |i: usize| args.get(i).map_or(0, |a| a[t]);
                    out[t] = intrinsic(*op, ty, arg(0), arg(1), arg(2))?;
                }
            }
            ExprKind::Wave(op, args) => out = self.wave(*op, args, mask)?,
        }
        Ok(out)
    }

    fn wave(&mut self, op: WaveOp, args: &[Expr], mask: &Mask) -> Result<Lanes, String> {
        let elem = match args.first().map(|a| a.ty) {
            Some(Ty::Int) => Elem::Int,
            _ => Elem::Uint,
        };
        let args = args
            .iter()
            .map(|a| self.eval(a, mask))
            .collect::<Result<Vec<_>, _>>()?;
        let mut out = vec![0u32; THREADS];
        for members in &self.waves.subgroups {
            let operand = |i: usize| Subgroup {
                lanes: members
                    .iter()
                    .map(|&t| mask[t].then(|| vec![args.get(i).map_or(0, |a| a[t])]))
                    .collect::<Vec<_>>(),
            };
            let boolean = Subgroup {
                lanes: members
                    .iter()
                    .map(|&t| mask[t].then(|| args.first().is_some_and(|a| a[t] != 0)))
                    .collect::<Vec<_>>(),
            };
            let x = operand(0);
            let reduce = |r| x.reduce(elem, r).first().copied().unwrap_or(0);
            for (lane, &t) in members.iter().enumerate() {
                if !mask[t] {
                    continue;
                }
                out[t] = match op {
                    WaveOp::ActiveSum => reduce(Reduction::Sum),
                    WaveOp::ActiveProduct => reduce(Reduction::Product),
                    WaveOp::ActiveMin => reduce(Reduction::Min),
                    WaveOp::ActiveMax => reduce(Reduction::Max),
                    WaveOp::ActiveBitAnd => reduce(Reduction::BitAnd),
                    WaveOp::ActiveBitOr => reduce(Reduction::BitOr),
                    WaveOp::ActiveBitXor => reduce(Reduction::BitXor),
                    WaveOp::PrefixSum => x.prefix(elem, Reduction::Sum, lane, 1)[0],
                    WaveOp::PrefixProduct => x.prefix(elem, Reduction::Product, lane, 1)[0],
                    WaveOp::ActiveCountBits => boolean.count_bits(),
                    WaveOp::BallotX => boolean.ballot()[0],
                    WaveOp::ReadLaneFirst => x.read_lane_first().map_or(0, |v| v[0]),
                    WaveOp::ReadLaneAt => {
                        let index = operand(1).lanes[lane].as_ref().map_or(0, |v| v[0]);
                        x.read_lane_at(index)?[0]
                    }
                    WaveOp::IsFirstLane => u32::from(x.is_first_lane(lane)),
                    WaveOp::AllTrue => u32::from(boolean.all_true()),
                    WaveOp::AnyTrue => u32::from(boolean.any_true()),
                    WaveOp::AllEqual => u32::from(x.all_equal(elem)[0]),
                    WaveOp::LaneIndex => lane as u32,
                    WaveOp::LaneCount => members.len() as u32,
                };
            }
        }
        Ok(out)
    }
}

fn active(mask: &Mask) -> impl Iterator<Item = usize> + '_ {
    mask.iter()
        .enumerate()
        .filter_map(|(t, &on)| on.then_some(t))
}

/// A binary operator on two words of type `ty`, as DXC defines it.
pub fn binary(op: BinaryOp, ty: Ty, a: u32, b: u32) -> Result<u32, String> {
    let signed = ty == Ty::Int;
    let (x, y) = (a as i32, b as i32);
    let undefined = || {
        Err(format!(
            "undefined: {} {} {}",
            show(ty, a),
            op.hlsl(),
            show(ty, b)
        ))
    };
    Ok(match op {
        BinaryOp::Add => a.wrapping_add(b),
        BinaryOp::Sub => a.wrapping_sub(b),
        BinaryOp::Mul => a.wrapping_mul(b),
        BinaryOp::Div | BinaryOp::Rem if b == 0 || (signed && x == i32::MIN && y == -1) => {
            return undefined()
        }
        BinaryOp::Div if signed => (x / y) as u32,
        BinaryOp::Div => a / b,
        BinaryOp::Rem if signed => (x % y) as u32,
        BinaryOp::Rem => a % b,
        BinaryOp::BitAnd => a & b,
        BinaryOp::BitOr => a | b,
        BinaryOp::BitXor => a ^ b,
        BinaryOp::Shl => a << (b & 31),
        BinaryOp::Shr if signed => (x >> (b & 31)) as u32,
        BinaryOp::Shr => a >> (b & 31),
    })
}

fn compare(op: CompareOp, ty: Ty, a: u32, b: u32) -> bool {
    let ordering = if ty == Ty::Int {
        (a as i32).cmp(&(b as i32))
    } else {
        a.cmp(&b)
    };
    match op {
        CompareOp::Less => ordering.is_lt(),
        CompareOp::LessEqual => ordering.is_le(),
        CompareOp::Greater => ordering.is_gt(),
        CompareOp::GreaterEqual => ordering.is_ge(),
        CompareOp::Equal => ordering.is_eq(),
        CompareOp::NotEqual => ordering.is_ne(),
    }
}

/// An intrinsic on words of type `ty` (its first operand's).
pub fn intrinsic(op: Intrinsic, ty: Ty, a: u32, b: u32, c: u32) -> Result<u32, String> {
    let signed = ty == Ty::Int;
    let less = |p: u32, q: u32| compare(CompareOp::Less, ty, p, q);
    Ok(match op {
        Intrinsic::Min => {
            if less(b, a) {
                b
            } else {
                a
            }
        }
        Intrinsic::Max => {
            if less(a, b) {
                b
            } else {
                a
            }
        }
        Intrinsic::Abs => (a as i32).wrapping_abs() as u32,
        Intrinsic::Clamp => {
            if less(c, b) {
                return Err(format!(
                    "undefined: clamp with lo {} > hi {}",
                    show(ty, b),
                    show(ty, c)
                ));
            }
            let low = if less(a, b) { b } else { a };
            if less(c, low) {
                c
            } else {
                low
            }
        }
        Intrinsic::Mad => a.wrapping_mul(b).wrapping_add(c),
        Intrinsic::CountBits => a.count_ones(),
        Intrinsic::ReverseBits => a.reverse_bits(),
        Intrinsic::FirstBitHigh => {
            let y = if signed && (a as i32) < 0 { !a } else { a };
            if y == 0 {
                u32::MAX
            } else {
                31 - y.leading_zeros()
            }
        }
        Intrinsic::FirstBitLow => {
            if a == 0 {
                u32::MAX
            } else {
                a.trailing_zeros()
            }
        }
    })
}

fn show(ty: Ty, word: u32) -> String {
    match ty {
        Ty::Int => (word as i32).to_string(),
        _ => word.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::hlsl;
    use crate::generate::program::Var;
    use crate::generate::random::{generate, program_seed};

    fn e(ty: Ty, kind: ExprKind) -> Expr {
        Expr { ty, kind }
    }
    fn uint(word: u32) -> Expr {
        e(Ty::Uint, ExprKind::Literal(word))
    }
    fn int(value: i32) -> Expr {
        e(Ty::Int, ExprKind::Literal(value as u32))
    }
    fn tid() -> Expr {
        e(Ty::Uint, ExprKind::ThreadIndex)
    }
    fn var(n: usize, ty: Ty) -> Expr {
        e(ty, ExprKind::Var(Var(n)))
    }
    fn bin(op: BinaryOp, a: Expr, b: Expr) -> Expr {
        e(a.ty, ExprKind::Binary(op, Box::new(a), Box::new(b)))
    }
    fn cmp(op: CompareOp, a: Expr, b: Expr) -> Expr {
        e(Ty::Bool, ExprKind::Compare(op, Box::new(a), Box::new(b)))
    }
    fn wave(op: WaveOp, ty: Ty, args: Vec<Expr>) -> Expr {
        e(ty, ExprKind::Wave(op, args))
    }
    /// `(tid & bit) != 0`.
    fn tid_bit(bit: u32) -> Expr {
        cmp(
            CompareOp::NotEqual,
            bin(BinaryOp::BitAnd, tid(), uint(bit)),
            uint(0),
        )
    }

    fn run(body: Vec<Stmt>, vars: usize, size: usize) -> Vec<u32> {
        let program = Program {
            body,
            vars,
            arrays: 0,
        };
        let input: Vec<u32> = (0..INPUT_WORDS as u32).map(|i| i * 3).collect();
        interpret(&program, &input, &Waves::consecutive(size)).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Word `slot` of every thread.
    fn slot(out: &[u32], slot: usize) -> Vec<u32> {
        out.chunks(WORDS).map(|words| words[slot]).collect()
    }

    #[test]
    fn operators_have_dxc_meanings_and_undefined_ones_are_errors() {
        let i = |v: i32| v as u32;
        assert_eq!(binary(BinaryOp::Div, Ty::Int, i(-7), 2), Ok(i(-3)));
        assert_eq!(binary(BinaryOp::Rem, Ty::Int, i(-7), 2), Ok(i(-1)));
        assert_eq!(binary(BinaryOp::Div, Ty::Uint, i(-7), 2), Ok(0x7FFF_FFFC));
        assert_eq!(binary(BinaryOp::Shl, Ty::Uint, 1, 33), Ok(2));
        assert_eq!(binary(BinaryOp::Shr, Ty::Int, i(-8), 33), Ok(i(-4)));
        assert_eq!(binary(BinaryOp::Shr, Ty::Uint, 0x8000_0000, 63), Ok(1));
        assert_eq!(binary(BinaryOp::Mul, Ty::Int, i(i32::MAX), 2), Ok(i(-2)));
        assert!(binary(BinaryOp::Div, Ty::Int, i(i32::MIN), i(-1)).is_err());
        assert!(binary(BinaryOp::Rem, Ty::Uint, 5, 0).is_err());
        assert_eq!(
            binary(BinaryOp::Div, Ty::Uint, 0x8000_0000, u32::MAX),
            Ok(0)
        );
    }

    #[test]
    fn bit_intrinsics_match_the_spec_table() {
        // Rows of /work/shared/spec/004's table: value, firstbithigh, firstbitlow.
        for (value, high, low) in [
            (-31, 4, 0),
            (-16, 3, 4),
            (-1, -1, 0),
            (0, -1, -1),
            (24, 4, 3),
        ] {
            let word = value as u32;
            let high_of = intrinsic(Intrinsic::FirstBitHigh, Ty::Int, word, 0, 0);
            assert_eq!(high_of, Ok(high as u32), "firstbithigh({value})");
            let low_of = intrinsic(Intrinsic::FirstBitLow, Ty::Int, word, 0, 0);
            assert_eq!(low_of, Ok(low as u32), "firstbitlow({value})");
        }
        assert_eq!(
            intrinsic(Intrinsic::FirstBitHigh, Ty::Uint, u32::MAX, 0, 0),
            Ok(31)
        );
        assert_eq!(
            intrinsic(Intrinsic::CountBits, Ty::Int, u32::MAX, 0, 0),
            Ok(32)
        );
        assert_eq!(
            intrinsic(Intrinsic::ReverseBits, Ty::Uint, 1, 0, 0),
            Ok(0x8000_0000)
        );
        assert_eq!(
            intrinsic(Intrinsic::Abs, Ty::Int, i32::MIN as u32, 0, 0),
            Ok(i32::MIN as u32)
        );
        assert_eq!(
            intrinsic(Intrinsic::Min, Ty::Int, u32::MAX, 1, 0),
            Ok(u32::MAX)
        );
        assert_eq!(intrinsic(Intrinsic::Min, Ty::Uint, u32::MAX, 1, 0), Ok(1));
        assert_eq!(
            intrinsic(Intrinsic::Clamp, Ty::Int, (-9i32) as u32, (-3i32) as u32, 5,),
            Ok((-3i32) as u32)
        );
        assert!(intrinsic(Intrinsic::Clamp, Ty::Int, 0, 5, 4).is_err());
        assert_eq!(intrinsic(Intrinsic::Mad, Ty::Uint, 3, 4, 5), Ok(17));
    }

    #[test]
    fn wave_operations_in_divergent_branches_see_only_their_lanes() {
        // if (tid & 1) Out[0] = WaveActiveSum(tid); else Out[0] = WavePrefixSum(tid);
        // Out[1] = WaveActiveCountBits(tid < 3); Out[2] = (tid & 2) ? WaveActiveSum(1u) : 9u;
        let body = vec![
            Stmt::If(
                tid_bit(1),
                vec![Stmt::Write(
                    0,
                    wave(WaveOp::ActiveSum, Ty::Uint, vec![tid()]),
                )],
                vec![Stmt::Write(
                    0,
                    wave(WaveOp::PrefixSum, Ty::Uint, vec![tid()]),
                )],
            ),
            Stmt::Write(
                1,
                wave(
                    WaveOp::ActiveCountBits,
                    Ty::Uint,
                    vec![cmp(CompareOp::Less, tid(), uint(3))],
                ),
            ),
            Stmt::Write(
                2,
                e(
                    Ty::Uint,
                    ExprKind::Select(
                        Box::new(tid_bit(2)),
                        Box::new(wave(WaveOp::ActiveSum, Ty::Uint, vec![uint(1)])),
                        Box::new(uint(9)),
                    ),
                ),
            ),
        ];
        let out = run(body, 0, 4);
        // Subgroup 0 is threads 0-3: odd lanes 1 and 3 sum to 4; even lanes 0 and 2 see the
        // even lanes below them (0, then 0). Subgroup 1: 5 + 7, then 0 and 4.
        assert_eq!(&slot(&out, 0)[..8], &[0, 4, 0, 4, 0, 12, 4, 12]);
        assert_eq!(&slot(&out, 1)[..8], &[3, 3, 3, 3, 0, 0, 0, 0]);
        assert_eq!(&slot(&out, 2)[..8], &[9, 9, 2, 2, 9, 9, 2, 2]);
        // On subgroups of 8, lanes 2, 3, 6, 7 take the wave side.
        assert_eq!(
            &slot(&run_select_only(8), 2)[..8],
            &[9, 9, 4, 4, 9, 9, 4, 4]
        );
    }

    fn run_select_only(size: usize) -> Vec<u32> {
        let select = e(
            Ty::Uint,
            ExprKind::Select(
                Box::new(tid_bit(2)),
                Box::new(wave(WaveOp::ActiveSum, Ty::Uint, vec![uint(1)])),
                Box::new(uint(9)),
            ),
        );
        run(vec![Stmt::Write(2, select)], 0, size)
    }

    #[test]
    fn loops_break_and_continue_per_lane_and_switch_picks_arms() {
        // int v0 = 0; for (int v1 = 0; v1 < 4; v1++) { if (tid == v1) break;
        //   if (v1 == 1) continue; v0 += 10; }
        // switch ((int)tid & 3) { case 0: v0 += 1; break; case 2: v0 += 2; break;
        //   default: v0 += 3; break; }
        let loop_body = vec![
            Stmt::If(
                cmp(
                    CompareOp::Equal,
                    e(Ty::Int, ExprKind::Cast(Box::new(tid()))),
                    var(1, Ty::Int),
                ),
                vec![Stmt::Break],
                Vec::new(),
            ),
            Stmt::If(
                cmp(CompareOp::Equal, var(1, Ty::Int), int(1)),
                vec![Stmt::Continue],
                Vec::new(),
            ),
            Stmt::Assign(Var(0), Some(BinaryOp::Add), int(10)),
        ];
        let selector = bin(
            BinaryOp::BitAnd,
            e(Ty::Int, ExprKind::Cast(Box::new(tid()))),
            int(3),
        );
        let add = |k| vec![Stmt::Assign(Var(0), Some(BinaryOp::Add), int(k))];
        let body = vec![
            Stmt::Declare(Var(0), int(0)),
            Stmt::For(Var(1), int(4), loop_body),
            Stmt::Switch(
                selector,
                vec![(Some(0), add(1)), (Some(2), add(2)), (None, add(3))],
            ),
            Stmt::Write(0, var(0, Ty::Int)),
        ];
        let out = run(body, 2, 8);
        // Thread t adds 10 for each trip below min(t, 4) but trip 1.
        let expected: Vec<u32> = (0..8u32)
            .map(|t| {
                let trips = (0..t.min(4)).filter(|&i| i != 1).count() as u32;
                trips * 10 + [1, 3, 2, 3][(t & 3) as usize]
            })
            .collect();
        assert_eq!(&slot(&out, 0)[..8], &expected[..]);
        assert_eq!(slot(&out, 0)[63], 30 + 3);
    }

    #[test]
    fn exchange_reads_other_threads_values_and_read_lane_at_reads_the_lane() {
        let body = vec![
            Stmt::Exchange(
                Var(0),
                bin(BinaryOp::Mul, tid(), uint(2)),
                bin(BinaryOp::Add, tid(), uint(1)),
            ),
            Stmt::Write(0, var(0, Ty::Uint)),
            Stmt::Write(
                1,
                wave(
                    WaveOp::ReadLaneAt,
                    Ty::Uint,
                    vec![e(Ty::Uint, ExprKind::Input(Box::new(tid()))), uint(3)],
                ),
            ),
        ];
        let out = run(body, 1, 8);
        let read: Vec<u32> = (0..THREADS as u32).map(|t| ((t + 1) % 64) * 2).collect();
        assert_eq!(slot(&out, 0), read);
        // In[t] = 3t; lane 3 of subgroup s is thread 8s + 3.
        let lane3: Vec<u32> = (0..THREADS as u32).map(|t| (t / 8 * 8 + 3) * 3).collect();
        assert_eq!(slot(&out, 1), lane3);
    }

    #[test]
    fn reading_an_inactive_lane_and_a_barrier_in_a_branch_are_errors() {
        let read = Stmt::Write(0, wave(WaveOp::ReadLaneAt, Ty::Uint, vec![tid(), uint(0)]));
        let program = |body| Program {
            body,
            vars: 1,
            arrays: 0,
        };
        let input = vec![0; INPUT_WORDS];
        let waves = Waves::consecutive(8);
        let odd_only = program(vec![Stmt::If(tid_bit(1), vec![read], Vec::new())]);
        assert!(interpret(&odd_only, &input, &waves).is_err());
        let exchange = Stmt::Exchange(Var(0), tid(), tid());
        let branch = program(vec![Stmt::If(tid_bit(1), vec![exchange], Vec::new())]);
        assert!(interpret(&branch, &input, &waves).is_err());
    }

    #[test]
    fn waves_follow_the_lanes_the_device_reports() {
        // Threads 0..64 where subgroup membership alternates by 8 and lanes count down.
        let lanes: Vec<(u32, u32)> = (0..THREADS as u32)
            .map(|t| (7 - t % 8, t / 8 % 2))
            .collect();
        assert!(
            Waves::from_lanes(&lanes).is_err(),
            "8 threads share each lane of a subgroup"
        );
        let lanes: Vec<(u32, u32)> = (0..THREADS as u32).map(|t| (31 - t % 32, t / 32)).collect();
        let waves = Waves::from_lanes(&lanes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(waves.subgroups.len(), 2);
        assert_eq!(waves.subgroups[0][0], 31);
        assert_eq!(waves.subgroups[1][31], 32);
        assert_eq!(
            Waves::consecutive(32),
            Waves {
                subgroups: vec![(0..32).collect(), (32..64).collect()]
            }
        );
    }

    #[test]
    fn generated_programs_are_deterministic_and_well_defined_on_every_subgroup_size() {
        let input = crate::generate::input_words(1);
        // Seed 3's program 0 once read an inactive lane (a wave operation in `?:`).
        let programs = (1..=3).flat_map(|seed| (0..40).map(move |index| (seed, index)));
        for (run_seed, index) in programs {
            let seed = program_seed(run_seed, index);
            let program = generate(seed);
            assert_eq!(program, generate(seed));
            for size in [4, 8, 32, 64] {
                if let Err(e) = interpret(&program, &input, &Waves::consecutive(size)) {
                    let mut text = String::new();
                    hlsl::function(&mut text, "program", &program, 0);
                    panic!("seed {run_seed} program {index} on subgroups of {size}: {e}\n{text}");
                }
            }
        }
    }

    #[test]
    fn the_printer_writes_guarded_hlsl() {
        let program = Program {
            body: vec![
                Stmt::Declare(Var(0), bin(BinaryOp::Shl, int(i32::MIN), int(-3))),
                Stmt::Write(5, wave(WaveOp::BallotX, Ty::Uint, vec![tid_bit(4)])),
            ],
            vars: 1,
            arrays: 0,
        };
        let mut text = String::new();
        hlsl::function(&mut text, "p", &program, 192);
        assert_eq!(
            text,
            "void p(uint tid) {\n    int v0 = (((int)0x80000000u) << (-3));\n    \
             Out[192 + tid * 8 + 5] = (uint)(WaveActiveBallot(((tid & 4u) != 0u)).x);\n}\n\n"
        );
    }
}
