//! The random program generator: well-defined programs only (guarded division, `clamp` bounds
//! in order, masked indices, loops of at most 4 trips), with wave operations where their
//! active lanes are exactly known: in uniform code, inside `if`/`else`, `switch` cases (not `default`), `?:`
//! sides and `&&`/`||` right-hand sides (divergent), and in loops of constant trip count
//! without `break`/`continue`. Loops with lane-dependent trip counts or jumps hold no wave
//! operations; barriers (with groupshared memory) sit only at the top level.

use super::program::{
    Array, BinaryOp, CompareOp, Expr, ExprKind, Intrinsic, Program, Stmt, Ty, UnaryOp, Var, WaveOp,
    WORDS,
};
use crate::Rng;

/// The seed of program `index` of the run seeded with `seed`.
pub fn program_seed(seed: u64, index: u64) -> u32 {
    // splitmix64's finaliser over the pair.
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(index.wrapping_add(1).wrapping_mul(0xBF58_476D_1CE4_E5B9));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z as u32) | 1
}

/// Generates the program of `seed`.
pub fn generate(seed: u32) -> Program {
    let mut g = Generator {
        rng: Rng::new(seed),
        vars: 0,
        arrays: 0,
        scope: Vec::new(),
        array_scope: Vec::new(),
        statements: 0,
    };
    let top = Context {
        all_active: true,
        wave: true,
        breakable: Breakable::None,
        in_loop: false,
        depth: 0,
    };
    let count = 6 + g.below(8);
    let mut body = g.block(top, count);
    // The last words: top-level variables, so every value computed can reach the output.
    let mut finals: Vec<Expr> = g
        .scope
        .iter()
        .rev()
        .map(|&(var, ty, _)| Expr {
            ty,
            kind: ExprKind::Var(var),
        })
        .collect();
    for slot in WORDS / 2..WORDS {
        let value = finals.pop().unwrap_or_else(|| g.expr(Ty::Uint, 2, top));
        body.push(Stmt::Write(slot, value));
    }
    Program {
        body,
        vars: g.vars,
        arrays: g.arrays,
    }
}

/// The innermost statement a `break` would leave.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Breakable {
    /// None.
    None,
    /// A loop whose body may `break` and `continue`.
    JumpLoop,
    /// A loop without jumps, or a `switch`.
    Other,
}

/// Where code is generated.
#[derive(Clone, Copy)]
struct Context {
    /// Every lane of every subgroup runs it.
    all_active: bool,
    /// Wave operations may appear.
    wave: bool,
    breakable: Breakable,
    /// Inside a loop (loops do not nest: unrolled nests make lavapipe's compile slow).
    in_loop: bool,
    /// Statement nesting.
    depth: usize,
}

impl Context {
    fn divergent(self) -> Context {
        Context {
            all_active: false,
            ..self
        }
    }
}

struct Generator {
    rng: Rng,
    vars: usize,
    arrays: usize,
    /// Variables in scope: number, type, assignable.
    scope: Vec<(Var, Ty, bool)>,
    /// Arrays in scope: number, element type, length.
    array_scope: Vec<(Array, Ty, usize)>,
    statements: usize,
}

/// The most statements a program has.
const MAX_STATEMENTS: usize = 20;

/// Literals chosen for their edges.
const EDGES: [u32; 14] = [
    0,
    1,
    2,
    3,
    31,
    32,
    33,
    0xFFFF_FFFF,
    0xFFFF_FFFE,
    0x8000_0000,
    0x7FFF_FFFF,
    0x0000_FFFF,
    0xFFFF_0000,
    0x8000_0001,
];

impl Generator {
    fn below(&mut self, n: usize) -> usize {
        (self.rng.next_u32() as usize) % n.max(1)
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    fn int_ty(&mut self) -> Ty {
        if self.chance(50) {
            Ty::Int
        } else {
            Ty::Uint
        }
    }

    fn new_var(&mut self, ty: Ty, assignable: bool) -> Var {
        let var = Var(self.vars);
        self.vars += 1;
        self.scope.push((var, ty, assignable));
        var
    }

    /// `count` statements (fewer once the program is long enough).
    fn block(&mut self, cx: Context, count: usize) -> Vec<Stmt> {
        let mut body = Vec::new();
        for _ in 0..count {
            if self.statements >= MAX_STATEMENTS {
                break;
            }
            self.statements += 1;
            body.push(self.stmt(cx));
        }
        body
    }

    /// A nested block: what it declares goes out of scope at its end.
    fn block_in_scope(&mut self, cx: Context, count: usize) -> Vec<Stmt> {
        let (vars, arrays) = (self.scope.len(), self.array_scope.len());
        let body = self.block(cx, count);
        self.scope.truncate(vars);
        self.array_scope.truncate(arrays);
        body
    }

    fn stmt(&mut self, cx: Context) -> Stmt {
        let nested = cx.depth < 2;
        loop {
            match self.below(100) {
                0..=21 => {
                    let ty = self.int_ty();
                    let value = self.expr(ty, 3, cx);
                    let var = self.new_var(ty, true);
                    return Stmt::Declare(var, value);
                }
                22..=37 => {
                    let assignable: Vec<(Var, Ty)> = self
                        .scope
                        .iter()
                        .filter(|v| v.2)
                        .map(|v| (v.0, v.1))
                        .collect();
                    if assignable.is_empty() {
                        continue;
                    }
                    let (var, ty) = assignable[self.below(assignable.len())];
                    const COMPOUND: [BinaryOp; 8] = [
                        BinaryOp::Add,
                        BinaryOp::Sub,
                        BinaryOp::Mul,
                        BinaryOp::BitAnd,
                        BinaryOp::BitOr,
                        BinaryOp::BitXor,
                        BinaryOp::Shl,
                        BinaryOp::Shr,
                    ];
                    let op = self
                        .chance(40)
                        .then(|| COMPOUND[self.below(COMPOUND.len())]);
                    return Stmt::Assign(var, op, self.expr(ty, 3, cx));
                }
                38..=42 => {
                    let ty = self.int_ty();
                    let len = [2, 4, 8][self.below(3)];
                    let values = (0..len).map(|_| self.expr(ty, 1, cx)).collect();
                    let array = Array(self.arrays);
                    self.arrays += 1;
                    self.array_scope.push((array, ty, len));
                    return Stmt::DeclareArray(array, ty, values);
                }
                43..=48 => {
                    if self.array_scope.is_empty() {
                        continue;
                    }
                    let pick = self.below(self.array_scope.len());
                    let (array, ty, len) = self.array_scope[pick];
                    let index = self.expr(Ty::Uint, 2, cx);
                    return Stmt::AssignElement(array, len, index, self.expr(ty, 3, cx));
                }
                49..=58 => {
                    let ty = self.int_ty();
                    return Stmt::Write(self.below(WORDS / 2), self.expr(ty, 3, cx));
                }
                59..=71 if nested => {
                    let condition = self.expr(Ty::Bool, 3, cx);
                    let inner = Context {
                        depth: cx.depth + 1,
                        ..cx.divergent()
                    };
                    let n = 1 + self.below(4);
                    let accept = self.block_in_scope(inner, n);
                    let reject = if self.chance(50) {
                        let n = 1 + self.below(3);
                        self.block_in_scope(inner, n)
                    } else {
                        Vec::new()
                    };
                    return Stmt::If(condition, accept, reject);
                }
                72..=79 if nested && !cx.in_loop => return self.for_loop(cx),
                80..=85 if nested => return self.switch(cx),
                86..=92 if cx.breakable == Breakable::JumpLoop => {
                    let condition = self.expr(Ty::Bool, 2, cx);
                    let jump = if self.chance(50) {
                        Stmt::Break
                    } else {
                        Stmt::Continue
                    };
                    return Stmt::If(condition, vec![jump], Vec::new());
                }
                93..=99 if cx.depth == 0 && cx.all_active => {
                    let value = self.expr(Ty::Uint, 3, cx);
                    let index = self.expr(Ty::Uint, 2, cx);
                    let var = self.new_var(Ty::Uint, true);
                    return Stmt::Exchange(var, value, index);
                }
                _ => continue,
            }
        }
    }

    fn for_loop(&mut self, cx: Context) -> Stmt {
        let uniform = self.chance(50);
        let (count, inner) = if uniform {
            // A constant trip count: every lane that enters runs every trip.
            let count = literal(Ty::Int, 1 + self.below(3) as u32);
            let inner = Context {
                breakable: Breakable::Other,
                in_loop: true,
                depth: cx.depth + 1,
                ..cx
            };
            (count, inner)
        } else {
            let quiet = Context {
                wave: false,
                ..cx.divergent()
            };
            let bound = self.expr(Ty::Int, 2, quiet);
            let count = binary(BinaryOp::BitAnd, bound, literal(Ty::Int, 3));
            let inner = Context {
                breakable: Breakable::JumpLoop,
                in_loop: true,
                depth: cx.depth + 1,
                ..quiet
            };
            (count, inner)
        };
        let scope = self.scope.len();
        let var = self.new_var(Ty::Int, false);
        let n = 1 + self.below(4);
        let body = self.block_in_scope(inner, n);
        self.scope.truncate(scope);
        Stmt::For(var, count, body)
    }

    fn switch(&mut self, cx: Context) -> Stmt {
        let selector = binary(
            BinaryOp::BitAnd,
            self.expr(Ty::Int, 2, cx),
            literal(Ty::Int, 3),
        );
        let inner = Context {
            breakable: Breakable::Other,
            depth: cx.depth + 1,
            ..cx.divergent()
        };
        let mut arms = Vec::new();
        for case in 0..4 {
            if self.chance(60) {
                let n = 1 + self.below(3);
                arms.push((Some(case), self.block_in_scope(inner, n)));
            }
        }
        // Lanes that reach `default` through different selector values need not run it
        // together: NVIDIA's driver ran lanes of selectors 1 and 2 in two passes (Vulkan
        // leaves reconvergence to the implementation), so `default` holds no wave operations.
        let n = 1 + self.below(2);
        let default = Context {
            wave: false,
            ..inner
        };
        arms.push((None, self.block_in_scope(default, n)));
        Stmt::Switch(selector, arms)
    }

    /// An expression of type `ty` at most `depth` operators deep. Operators never apply to
    /// literals alone: clang folds those in the MSL check and warns (an error under `-Werror`)
    /// of signed overflow, so a runtime value takes the place of such an expression.
    fn expr(&mut self, ty: Ty, depth: usize, cx: Context) -> Expr {
        let e = if ty == Ty::Bool {
            self.bool_expr(depth, cx)
        } else {
            self.value_expr(ty, depth, cx)
        };
        if folds(&e) {
            self.runtime_leaf(ty)
        } else {
            e
        }
    }

    /// A value that is not known before the program runs.
    fn runtime_leaf(&mut self, ty: Ty) -> Expr {
        let thread = Expr {
            ty: Ty::Uint,
            kind: ExprKind::ThreadIndex,
        };
        let word = match self.below(3) {
            0 if !self.scope.is_empty() => {
                let pick = self.below(self.scope.len());
                let (var, var_ty, _) = self.scope[pick];
                Expr {
                    ty: var_ty,
                    kind: ExprKind::Var(var),
                }
            }
            1 => Expr {
                ty: Ty::Uint,
                kind: ExprKind::Input(Box::new(thread)),
            },
            _ => thread,
        };
        match ty {
            Ty::Bool => Expr {
                ty,
                kind: ExprKind::Compare(
                    CompareOp::NotEqual,
                    Box::new(binary(
                        BinaryOp::BitAnd,
                        cast(Ty::Uint, word),
                        literal(Ty::Uint, 1),
                    )),
                    Box::new(literal(Ty::Uint, 0)),
                ),
            },
            _ if word.ty == ty => word,
            _ => cast(ty, word),
        }
    }

    fn value_expr(&mut self, ty: Ty, depth: usize, cx: Context) -> Expr {
        if depth == 0 || self.chance(25) {
            return self.leaf(ty);
        }
        let d = depth - 1;
        match self.below(100) {
            0..=39 => {
                const OPS: [BinaryOp; 10] = [
                    BinaryOp::Add,
                    BinaryOp::Sub,
                    BinaryOp::Mul,
                    BinaryOp::Div,
                    BinaryOp::Rem,
                    BinaryOp::BitAnd,
                    BinaryOp::BitOr,
                    BinaryOp::BitXor,
                    BinaryOp::Shl,
                    BinaryOp::Shr,
                ];
                let op = OPS[self.below(OPS.len())];
                let a = self.expr(ty, d, cx);
                let b = self.expr(ty, d, cx);
                match op {
                    BinaryOp::Div | BinaryOp::Rem => binary(op, a, safe_divisor(b)),
                    _ => binary(op, a, b),
                }
            }
            40..=47 => {
                let op = if ty == Ty::Int && self.chance(50) {
                    UnaryOp::Negate
                } else {
                    UnaryOp::BitNot
                };
                unary(ty, op, self.expr(ty, d, cx))
            }
            48..=55 => {
                let c = self.bool_expr(d, cx);
                let a = self.expr(ty, d, cx.divergent());
                let b = self.expr(ty, d, cx.divergent());
                Expr {
                    ty,
                    kind: ExprKind::Select(Box::new(c), Box::new(a), Box::new(b)),
                }
            }
            56..=61 => {
                let other = if ty == Ty::Int { Ty::Uint } else { Ty::Int };
                let from = if self.chance(25) { Ty::Bool } else { other };
                cast(ty, self.expr(from, d, cx))
            }
            62..=81 => self.intrinsic(ty, d, cx),
            82..=99 if cx.wave => self.wave(ty, d, cx),
            _ => self.leaf(ty),
        }
    }

    fn intrinsic(&mut self, ty: Ty, d: usize, cx: Context) -> Expr {
        let call = |op, ty, args| Expr {
            ty,
            kind: ExprKind::Intrinsic(op, args),
        };
        match self.below(9) {
            0 | 1 => {
                let op = if self.chance(50) {
                    Intrinsic::Min
                } else {
                    Intrinsic::Max
                };
                let args = vec![self.expr(ty, d, cx), self.expr(ty, d, cx)];
                call(op, ty, args)
            }
            2 if ty == Ty::Int => {
                // `abs(x | 1)`: never `abs(INT_MIN)`, which SPIR-V's SAbs leaves undefined
                // (NVIDIA's driver folds `abs(x) <= -1` to false; see docs/testing.md).
                let operand = binary(BinaryOp::BitOr, self.expr(ty, d, cx), literal(ty, 1));
                call(Intrinsic::Abs, ty, vec![operand])
            }
            3 => {
                let (a, b) = (self.leaf(ty), self.leaf(ty));
                let low = call(Intrinsic::Min, ty, vec![a.clone(), b.clone()]);
                let high = call(Intrinsic::Max, ty, vec![a, b]);
                call(Intrinsic::Clamp, ty, vec![self.expr(ty, d, cx), low, high])
            }
            4 => {
                let args = (0..3).map(|_| self.expr(ty, d, cx)).collect();
                call(Intrinsic::Mad, ty, args)
            }
            5 if ty == Ty::Uint || self.chance(50) => {
                call(Intrinsic::ReverseBits, ty, vec![self.expr(ty, d, cx)])
            }
            _ => {
                let op = [
                    Intrinsic::CountBits,
                    Intrinsic::FirstBitHigh,
                    Intrinsic::FirstBitLow,
                ][self.below(3)];
                let operand = self.int_ty();
                let value = call(op, Ty::Uint, vec![self.expr(operand, d, cx)]);
                cast(ty, value)
            }
        }
    }

    fn wave(&mut self, ty: Ty, d: usize, cx: Context) -> Expr {
        let wave = |op, ty, args| Expr {
            ty,
            kind: ExprKind::Wave(op, args),
        };
        match self.below(12) {
            0..=3 => {
                let op = [
                    WaveOp::ActiveSum,
                    WaveOp::ActiveProduct,
                    WaveOp::ActiveMin,
                    WaveOp::ActiveMax,
                    WaveOp::PrefixSum,
                    WaveOp::PrefixProduct,
                    WaveOp::ReadLaneFirst,
                ][self.below(7)];
                wave(op, ty, vec![self.expr(ty, d, cx)])
            }
            4 | 5 => {
                let op = [
                    WaveOp::ActiveBitAnd,
                    WaveOp::ActiveBitOr,
                    WaveOp::ActiveBitXor,
                ][self.below(3)];
                cast(ty, wave(op, Ty::Uint, vec![self.expr(Ty::Uint, d, cx)]))
            }
            6 | 7 => {
                let op = if self.chance(50) {
                    WaveOp::ActiveCountBits
                } else {
                    WaveOp::BallotX
                };
                cast(ty, wave(op, Ty::Uint, vec![self.bool_expr(d, cx)]))
            }
            8 | 9 => {
                let lane = if cx.all_active {
                    let count = wave(WaveOp::LaneCount, Ty::Uint, Vec::new());
                    let mask = binary(BinaryOp::Sub, count, literal(Ty::Uint, 1));
                    binary(BinaryOp::BitAnd, self.expr(Ty::Uint, d, cx), mask)
                } else {
                    // An active lane: the first or the last.
                    let index = wave(WaveOp::LaneIndex, Ty::Uint, Vec::new());
                    let op = if self.chance(50) {
                        WaveOp::ReadLaneFirst
                    } else {
                        WaveOp::ActiveMax
                    };
                    wave(op, Ty::Uint, vec![index])
                };
                wave(WaveOp::ReadLaneAt, ty, vec![self.expr(ty, d, cx), lane])
            }
            _ => {
                let op = if self.chance(50) {
                    WaveOp::LaneIndex
                } else {
                    WaveOp::LaneCount
                };
                cast(ty, wave(op, Ty::Uint, Vec::new()))
            }
        }
    }

    fn bool_expr(&mut self, depth: usize, cx: Context) -> Expr {
        let d = depth.saturating_sub(1);
        let boolean = |kind| Expr { ty: Ty::Bool, kind };
        match self.below(100) {
            0..=54 => {
                const OPS: [CompareOp; 6] = [
                    CompareOp::Less,
                    CompareOp::LessEqual,
                    CompareOp::Greater,
                    CompareOp::GreaterEqual,
                    CompareOp::Equal,
                    CompareOp::NotEqual,
                ];
                let op = OPS[self.below(OPS.len())];
                let ty = self.int_ty();
                let a = self.expr(ty, d, cx);
                let mut b = self.expr(ty, d, cx);
                if a == b {
                    // clang warns of a comparison of a value with itself.
                    b = binary(BinaryOp::BitXor, b, self.runtime_leaf(ty));
                }
                boolean(ExprKind::Compare(op, Box::new(a), Box::new(b)))
            }
            55..=69 if depth > 0 => {
                let a = self.bool_expr(d, cx);
                let b = self.bool_expr(d, cx.divergent());
                boolean(ExprKind::Logical(self.chance(50), Box::new(a), Box::new(b)))
            }
            70..=77 if depth > 0 => unary(Ty::Bool, UnaryOp::LogicalNot, self.bool_expr(d, cx)),
            78..=97 if cx.wave => {
                let op = [
                    WaveOp::IsFirstLane,
                    WaveOp::AllTrue,
                    WaveOp::AnyTrue,
                    WaveOp::AllEqual,
                ][self.below(4)];
                let args = match op {
                    WaveOp::IsFirstLane => Vec::new(),
                    WaveOp::AllEqual => {
                        let ty = self.int_ty();
                        vec![self.expr(ty, d, cx)]
                    }
                    _ => vec![self.bool_expr(d, cx)],
                };
                boolean(ExprKind::Wave(op, args))
            }
            _ => {
                // Lane-dependent: a bit of the thread index or of an input word.
                let ty = Ty::Uint;
                let word = if self.chance(50) {
                    Expr {
                        ty,
                        kind: ExprKind::ThreadIndex,
                    }
                } else {
                    self.leaf(ty)
                };
                let bit = literal(ty, 1 << self.below(6));
                let masked = binary(BinaryOp::BitAnd, word, bit);
                boolean(ExprKind::Compare(
                    CompareOp::NotEqual,
                    Box::new(masked),
                    Box::new(literal(ty, 0)),
                ))
            }
        }
    }

    fn leaf(&mut self, ty: Ty) -> Expr {
        let of_ty = |x: Expr| if x.ty == ty { x } else { cast(ty, x) };
        loop {
            match self.below(100) {
                0..=29 => {
                    let word = if self.chance(50) {
                        EDGES[self.below(EDGES.len())]
                    } else if self.chance(50) {
                        (self.below(129) as i32 - 64) as u32
                    } else {
                        self.rng.next_u32()
                    };
                    return literal(ty, word);
                }
                30..=59 => {
                    let vars: Vec<(Var, Ty)> = self.scope.iter().map(|v| (v.0, v.1)).collect();
                    if vars.is_empty() {
                        continue;
                    }
                    let (var, var_ty) = vars[self.below(vars.len())];
                    return of_ty(Expr {
                        ty: var_ty,
                        kind: ExprKind::Var(var),
                    });
                }
                60..=69 => {
                    return of_ty(Expr {
                        ty: Ty::Uint,
                        kind: ExprKind::ThreadIndex,
                    })
                }
                70..=89 => {
                    let index = if self.chance(50) {
                        Expr {
                            ty: Ty::Uint,
                            kind: ExprKind::ThreadIndex,
                        }
                    } else {
                        self.leaf(Ty::Uint)
                    };
                    return of_ty(Expr {
                        ty: Ty::Uint,
                        kind: ExprKind::Input(Box::new(index)),
                    });
                }
                _ => {
                    let arrays: Vec<_> = self.array_scope.clone();
                    if arrays.is_empty() {
                        continue;
                    }
                    let (array, element, len) = arrays[self.below(arrays.len())];
                    let index = self.leaf(Ty::Uint);
                    return of_ty(Expr {
                        ty: element,
                        kind: ExprKind::Element(array, len, Box::new(index)),
                    });
                }
            }
        }
    }
}

/// Whether `e` is an operator over literals only, which a C++ compiler folds.
/// So is `mad` over two literals, which MSL writes as `a * b + c`.
fn folds(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Literal(_) => false,
        ExprKind::Intrinsic(Intrinsic::Mad, args) => args.iter().take(2).all(constant),
        _ => constant(e),
    }
}

/// Whether `e` depends on no variable, thread, input or wave.
fn constant(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Literal(_) => true,
        ExprKind::Var(_)
        | ExprKind::ThreadIndex
        | ExprKind::Input(_)
        | ExprKind::Element(..)
        | ExprKind::Wave(..) => false,
        ExprKind::Unary(_, x) | ExprKind::Cast(x) => constant(x),
        ExprKind::Binary(_, a, b) | ExprKind::Compare(_, a, b) | ExprKind::Logical(_, a, b) => {
            constant(a) && constant(b)
        }
        ExprKind::Select(c, a, b) => constant(c) && constant(a) && constant(b),
        ExprKind::Intrinsic(_, args) => args.iter().all(constant),
    }
}

fn literal(ty: Ty, word: u32) -> Expr {
    Expr {
        ty,
        kind: ExprKind::Literal(word),
    }
}

fn binary(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    Expr {
        ty: a.ty,
        kind: ExprKind::Binary(op, Box::new(a), Box::new(b)),
    }
}

fn unary(ty: Ty, op: UnaryOp, x: Expr) -> Expr {
    Expr {
        ty,
        kind: ExprKind::Unary(op, Box::new(x)),
    }
}

fn cast(ty: Ty, x: Expr) -> Expr {
    Expr {
        ty,
        kind: ExprKind::Cast(Box::new(x)),
    }
}

/// A divisor that is never 0, nor -1 for `int` (so `INT_MIN / -1` cannot happen):
/// `b | 1` for `uint`; `(b | 1) + (int)((b | 1) == -1) * 2` for `int`, which turns -1 into 1
/// without `?:` (whose sides run on some lanes only, which would change the wave operations
/// in `b`).
fn safe_divisor(b: Expr) -> Expr {
    let ty = b.ty;
    let odd = binary(BinaryOp::BitOr, b, literal(ty, 1));
    if ty == Ty::Uint {
        return odd;
    }
    let is_minus_one = Expr {
        ty: Ty::Bool,
        kind: ExprKind::Compare(
            CompareOp::Equal,
            Box::new(odd.clone()),
            Box::new(literal(ty, u32::MAX)),
        ),
    };
    let correction = binary(BinaryOp::Mul, cast(ty, is_minus_one), literal(ty, 2));
    binary(BinaryOp::Add, odd, correction)
}
