//! `firstbithigh`, `firstbitlow`, `countbits` and `reversebits` on int and uint
//! scalars and vectors, executed on every selected runtime and compared with a CPU
//! reference that itself matches the spec's table (-31 … 31), over that table's
//! inputs and the edges INT_MIN, INT_MAX, 0x80000000u, 0xFFFFFFFFu and 0.
//!
//! DXC's signatures hold: `firstbithigh`, `firstbitlow` and `countbits` return uint
//! (0xFFFFFFFF where the spec's table says -1), `reversebits` the operand's type.

use std::fmt::Write as _;

use oneshader::CompileOptions;
use oneshader_e2e::{compile_source_and_validate, run, Runtime};
use oneshader_harness::u32_bytes;

/// The spec's table: value, firstbithigh, firstbitlow.
const SPEC_TABLE: [(i32, i32, i32); 63] = [
    (-31, 4, 0),
    (-30, 4, 1),
    (-29, 4, 0),
    (-28, 4, 2),
    (-27, 4, 0),
    (-26, 4, 1),
    (-25, 4, 0),
    (-24, 4, 3),
    (-23, 4, 0),
    (-22, 4, 1),
    (-21, 4, 0),
    (-20, 4, 2),
    (-19, 4, 0),
    (-18, 4, 1),
    (-17, 4, 0),
    (-16, 3, 4),
    (-15, 3, 0),
    (-14, 3, 1),
    (-13, 3, 0),
    (-12, 3, 2),
    (-11, 3, 0),
    (-10, 3, 1),
    (-9, 3, 0),
    (-8, 2, 3),
    (-7, 2, 0),
    (-6, 2, 1),
    (-5, 2, 0),
    (-4, 1, 2),
    (-3, 1, 0),
    (-2, 0, 1),
    (-1, -1, 0),
    (0, -1, -1),
    (1, 0, 0),
    (2, 1, 1),
    (3, 1, 0),
    (4, 2, 2),
    (5, 2, 0),
    (6, 2, 1),
    (7, 2, 0),
    (8, 3, 3),
    (9, 3, 0),
    (10, 3, 1),
    (11, 3, 0),
    (12, 3, 2),
    (13, 3, 0),
    (14, 3, 1),
    (15, 3, 0),
    (16, 4, 4),
    (17, 4, 0),
    (18, 4, 1),
    (19, 4, 0),
    (20, 4, 2),
    (21, 4, 0),
    (22, 4, 1),
    (23, 4, 0),
    (24, 4, 3),
    (25, 4, 0),
    (26, 4, 1),
    (27, 4, 0),
    (28, 4, 2),
    (29, 4, 0),
    (30, 4, 1),
    (31, 4, 0),
];

/// The edges besides the table, as words.
const EDGES: [u32; 9] = [
    i32::MIN as u32,
    i32::MAX as u32,
    0x8000_0000,
    0xFFFF_FFFF,
    0,
    0x4000_0000,
    0x0001_0000,
    0xFFFF_0000,
    0x0F0F_F0F0,
];

/// firstbithigh of a signed value: the first bit from the top that differs from the
/// sign bit; none (0 and -1) is 0xFFFFFFFF.
fn firstbithigh_signed(x: i32) -> u32 {
    let y = if x < 0 { !x } else { x };
    if y == 0 {
        u32::MAX
    } else {
        31 - y.leading_zeros()
    }
}

/// firstbithigh of an unsigned value: the highest set bit, 0xFFFFFFFF for 0.
fn firstbithigh_unsigned(x: u32) -> u32 {
    if x == 0 {
        u32::MAX
    } else {
        31 - x.leading_zeros()
    }
}

/// firstbitlow: the lowest set bit, 0xFFFFFFFF for 0 (either signedness).
fn firstbitlow(x: u32) -> u32 {
    if x == 0 {
        u32::MAX
    } else {
        x.trailing_zeros()
    }
}

#[test]
fn the_reference_matches_the_spec_table() {
    for (value, high, low) in SPEC_TABLE {
        assert_eq!(
            firstbithigh_signed(value),
            high as u32,
            "firstbithigh({value})"
        );
        assert_eq!(
            firstbitlow(value as u32),
            low as u32,
            "firstbitlow({value})"
        );
    }
}

/// The inputs: the table's values and the edges.
fn inputs() -> Vec<u32> {
    SPEC_TABLE
        .iter()
        .map(|row| row.0 as u32)
        .chain(EDGES)
        .collect()
}

/// An operand type: signedness and components.
#[derive(Clone, Copy)]
struct Operand {
    signed: bool,
    components: usize,
}

impl Operand {
    fn hlsl(self) -> String {
        let scalar = if self.signed { "int" } else { "uint" };
        if self.components == 1 {
            scalar.to_string()
        } else {
            format!("{scalar}{}", self.components)
        }
    }
}

const OPERANDS: [Operand; 4] = [
    Operand {
        signed: true,
        components: 1,
    },
    Operand {
        signed: true,
        components: 3,
    },
    Operand {
        signed: false,
        components: 1,
    },
    Operand {
        signed: false,
        components: 4,
    },
];

/// The functions under test.
const FUNCTIONS: [&str; 4] = ["firstbithigh", "firstbitlow", "countbits", "reversebits"];

/// Words per invocation: every function on every operand type.
fn record() -> usize {
    OPERANDS
        .iter()
        .map(|o| o.components * FUNCTIONS.len())
        .sum()
}

/// The shader: invocation `i` builds each operand from words `i`, `i + 1`, … of `In`
/// (wrapping), applies every function and writes the results as words. The return
/// types are spelled as DXC gives them, so a wrong one fails to compile.
fn shader(n: usize) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "StructuredBuffer<uint> In : register(t0);");
    let _ = writeln!(s, "RWStructuredBuffer<uint> Out : register(u1);\n");
    let _ = writeln!(s, "[numthreads(64, 1, 1)]");
    let _ = writeln!(s, "void main(uint3 id : SV_DispatchThreadID) {{");
    let _ = writeln!(s, "    uint i = id.x;");
    let _ = writeln!(s, "    if (i >= {n}u) {{ return; }}");
    let _ = writeln!(s, "    uint base = i * {}u;", record());
    let mut offset = 0;
    for (k, operand) in OPERANDS.iter().enumerate() {
        let t = operand.hlsl();
        let cast = if operand.signed { "asint" } else { "" };
        let parts: Vec<String> = (0..operand.components)
            .map(|c| format!("{cast}(In[(i + {c}u) % {n}u])"))
            .collect();
        let _ = writeln!(s, "    {t} x{k} = {t}({});", parts.join(", "));
        for function in FUNCTIONS {
            let result = if function == "reversebits" {
                t.clone()
            } else if operand.components == 1 {
                "uint".to_string()
            } else {
                format!("uint{}", operand.components)
            };
            let _ = writeln!(s, "    {{ {result} r = {function}(x{k});");
            for c in 0..operand.components {
                let component = if operand.components == 1 {
                    "r".to_string()
                } else {
                    format!("r.{}", ["x", "y", "z", "w"][c])
                };
                let _ = writeln!(
                    s,
                    "      Out[base + {}u] = asuint({component});",
                    offset + c
                );
            }
            let _ = writeln!(s, "    }}");
            offset += operand.components;
        }
    }
    let _ = writeln!(s, "}}");
    s
}

/// The expected word of `function` on `word` as a signed or unsigned operand.
fn expected(function: &str, signed: bool, word: u32) -> u32 {
    match function {
        "firstbithigh" if signed => firstbithigh_signed(word as i32),
        "firstbithigh" => firstbithigh_unsigned(word),
        "firstbitlow" => firstbitlow(word),
        "countbits" => word.count_ones(),
        _ => word.reverse_bits(),
    }
}

#[test]
fn bit_functions_are_exact_on_every_runtime() {
    let values = inputs();
    let n = values.len();
    let text = shader(n);
    let compiled = compile_source_and_validate("bits.hlsl", &text, &CompileOptions::default());
    let record = record();
    let buffers = vec![
        ("In".to_string(), u32_bytes(&values)),
        ("Out".to_string(), vec![0; n * record * 4]),
    ];
    let mut failures = Vec::new();
    for runtime in Runtime::selected() {
        let output = match run(&compiled, runtime, &buffers, [n.div_ceil(64) as u32, 1, 1]) {
            Ok(o) => o,
            Err(e) => {
                failures.push(format!("{runtime:?}: {e}"));
                continue;
            }
        };
        let out = output.u32s(1).expect("Out");
        let mut checked = 0;
        for i in 0..n {
            let mut offset = 0;
            for operand in OPERANDS {
                for function in FUNCTIONS {
                    for c in 0..operand.components {
                        let word = values[(i + c) % n];
                        let want = expected(function, operand.signed, word);
                        let got = out[i * record + offset + c];
                        checked += 1;
                        if got != want {
                            failures.push(format!(
                                "{runtime:?}: {function}({}) of {word:#010x} ({}) component {c}: got {got:#010x}, expected {want:#010x}",
                                operand.hlsl(),
                                word as i32
                            ));
                        }
                    }
                    offset += operand.components;
                }
            }
        }
        eprintln!("bits on {runtime:?}: {checked} results checked");
    }
    assert!(
        failures.is_empty(),
        "{} wrong:\n{}\n--- HLSL ---\n{text}",
        failures.len(),
        failures
            .iter()
            .take(40)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}
