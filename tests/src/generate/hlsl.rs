//! The HLSL printer: a program as a function `void NAME(uint tid)` over the resources
//! `StructuredBuffer<uint> In`, `RWStructuredBuffer<uint> Out` and `groupshared uint
//! Shared[THREADS]`, and whole compute shaders that run many programs one after another.

use std::fmt::Write as _;

use super::program::{
    Expr, ExprKind, Program, Stmt, Ty, UnaryOp, WaveOp, INPUT_WORDS, THREADS, WORDS,
};

/// Words at the start of `Out` that each thread of a batch fills in uniform control flow before
/// any program runs: its lane index, the lane count and `WaveReadLaneFirst(tid)`, so the
/// interpreter groups threads into subgroups as the device did.
pub const HEADER_WORDS: usize = 3;

/// Where program `index` of a batch writes in `Out`, in words.
pub fn program_base(index: usize) -> usize {
    THREADS * HEADER_WORDS + index * THREADS * WORDS
}

/// The words of `Out` a batch of `programs` programs needs.
pub fn output_words(programs: usize) -> usize {
    program_base(programs)
}

/// A compute shader `main` (one workgroup of [`THREADS`]) that writes the header and then runs
/// each program in turn, program `i` writing at [`program_base`]`(i)`.
pub fn batch_shader(programs: &[Program]) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "StructuredBuffer<uint> In : register(t0);");
    let _ = writeln!(s, "RWStructuredBuffer<uint> Out : register(u1);");
    let _ = writeln!(s, "groupshared uint Shared[{THREADS}];\n");
    for (i, program) in programs.iter().enumerate() {
        function(&mut s, &format!("program{i}"), program, program_base(i));
    }
    let _ = writeln!(s, "[numthreads({THREADS}, 1, 1)]");
    let _ = writeln!(s, "void main(uint tid : SV_GroupIndex) {{");
    let _ = writeln!(s, "    Out[tid * {HEADER_WORDS}] = WaveGetLaneIndex();");
    let _ = writeln!(s, "    Out[tid * {HEADER_WORDS} + 1] = WaveGetLaneCount();");
    let _ = writeln!(
        s,
        "    Out[tid * {HEADER_WORDS} + 2] = WaveReadLaneFirst(tid);"
    );
    for i in 0..programs.len() {
        let _ = writeln!(s, "    program{i}(tid);");
    }
    let _ = writeln!(s, "}}");
    s
}

/// Appends `void name(uint tid) { .. }` writing at word `base` of `Out`.
pub fn function(s: &mut String, name: &str, program: &Program, base: usize) {
    let _ = writeln!(s, "void {name}(uint tid) {{");
    let printer = Printer { base };
    printer.block(s, &program.body, 1);
    let _ = writeln!(s, "}}\n");
}

struct Printer {
    base: usize,
}

fn indent(s: &mut String, depth: usize) {
    for _ in 0..depth {
        s.push_str("    ");
    }
}

impl Printer {
    fn block(&self, s: &mut String, stmts: &[Stmt], depth: usize) {
        for stmt in stmts {
            self.stmt(s, stmt, depth);
        }
    }

    fn stmt(&self, s: &mut String, stmt: &Stmt, depth: usize) {
        indent(s, depth);
        match stmt {
            Stmt::Declare(var, value) => {
                let _ = writeln!(s, "{} v{} = {};", value.ty.hlsl(), var.0, expr(value));
            }
            Stmt::Assign(var, None, value) => {
                let _ = writeln!(s, "v{} = {};", var.0, expr(value));
            }
            Stmt::Assign(var, Some(op), value) => {
                let _ = writeln!(s, "v{} {}= {};", var.0, op.hlsl(), expr(value));
            }
            Stmt::DeclareArray(array, ty, values) => {
                let values: Vec<String> = values.iter().map(expr).collect();
                let _ = writeln!(
                    s,
                    "{} a{}[{}] = {{ {} }};",
                    ty.hlsl(),
                    array.0,
                    values.len(),
                    values.join(", ")
                );
            }
            Stmt::AssignElement(array, len, index, value) => {
                let _ = writeln!(
                    s,
                    "a{}[({}) & {}] = {};",
                    array.0,
                    expr(index),
                    len - 1,
                    expr(value)
                );
            }
            Stmt::Write(slot, value) => {
                let _ = writeln!(
                    s,
                    "Out[{} + tid * {WORDS} + {slot}] = (uint)({});",
                    self.base,
                    expr(value)
                );
            }
            Stmt::If(condition, accept, reject) => {
                let _ = writeln!(s, "if ({}) {{", expr(condition));
                self.block(s, accept, depth + 1);
                if !reject.is_empty() {
                    indent(s, depth);
                    let _ = writeln!(s, "}} else {{");
                    self.block(s, reject, depth + 1);
                }
                indent(s, depth);
                let _ = writeln!(s, "}}");
            }
            Stmt::For(var, count, body) => {
                let v = var.0;
                let _ = writeln!(s, "for (int v{v} = 0; v{v} < {}; v{v}++) {{", expr(count));
                self.block(s, body, depth + 1);
                indent(s, depth);
                let _ = writeln!(s, "}}");
            }
            Stmt::Switch(selector, arms) => {
                let _ = writeln!(s, "switch ({}) {{", expr(selector));
                for (case, body) in arms {
                    indent(s, depth);
                    match case {
                        Some(k) => {
                            let _ = writeln!(s, "case {k}: {{");
                        }
                        None => {
                            let _ = writeln!(s, "default: {{");
                        }
                    }
                    self.block(s, body, depth + 1);
                    indent(s, depth + 1);
                    let _ = writeln!(s, "break;");
                    indent(s, depth);
                    let _ = writeln!(s, "}}");
                }
                indent(s, depth);
                let _ = writeln!(s, "}}");
            }
            Stmt::Break => s.push_str("break;\n"),
            Stmt::Continue => s.push_str("continue;\n"),
            Stmt::Exchange(var, value, index) => {
                s.push_str("GroupMemoryBarrierWithGroupSync();\n");
                indent(s, depth);
                let _ = writeln!(s, "Shared[tid] = {};", expr(value));
                indent(s, depth);
                s.push_str("GroupMemoryBarrierWithGroupSync();\n");
                indent(s, depth);
                let _ = writeln!(
                    s,
                    "uint v{} = Shared[({}) & {}];",
                    var.0,
                    expr(index),
                    THREADS - 1
                );
            }
        }
    }
}

/// An expression as HLSL, fully parenthesised.
pub fn expr(e: &Expr) -> String {
    match &e.kind {
        ExprKind::Literal(word) => literal(e.ty, *word),
        ExprKind::Var(var) => format!("v{}", var.0),
        ExprKind::ThreadIndex => "tid".into(),
        ExprKind::Input(index) => format!("In[({}) & {}]", expr(index), INPUT_WORDS - 1),
        ExprKind::Element(array, len, index) => {
            format!("a{}[({}) & {}]", array.0, expr(index), len - 1)
        }
        ExprKind::Unary(op, x) => {
            let op = match op {
                UnaryOp::Negate => "-",
                UnaryOp::BitNot => "~",
                UnaryOp::LogicalNot => "!",
            };
            format!("{op}({})", expr(x))
        }
        ExprKind::Binary(op, a, b) => format!("({} {} {})", expr(a), op.hlsl(), expr(b)),
        ExprKind::Compare(op, a, b) => format!("({} {} {})", expr(a), op.hlsl(), expr(b)),
        ExprKind::Logical(is_and, a, b) => {
            let op = if *is_and { "&&" } else { "||" };
            format!("({} {op} {})", expr(a), expr(b))
        }
        ExprKind::Select(c, a, b) => format!("({} ? {} : {})", expr(c), expr(a), expr(b)),
        ExprKind::Cast(x) => format!("(({})({}))", e.ty.hlsl(), expr(x)),
        ExprKind::Intrinsic(op, args) => format!("{}({})", op.hlsl(), list(args)),
        ExprKind::Wave(WaveOp::BallotX, args) => format!("WaveActiveBallot({}).x", list(args)),
        ExprKind::Wave(op, args) => format!("{}({})", op.hlsl(), list(args)),
    }
}

fn list(args: &[Expr]) -> String {
    args.iter().map(expr).collect::<Vec<_>>().join(", ")
}

fn literal(ty: Ty, word: u32) -> String {
    match ty {
        Ty::Bool => (if word != 0 { "true" } else { "false" }).into(),
        Ty::Uint => format!("{word}u"),
        Ty::Int => {
            let value = word as i32;
            if value == i32::MIN {
                "((int)0x80000000u)".into()
            } else if value < 0 {
                format!("({value})")
            } else {
                value.to_string()
            }
        }
    }
}
