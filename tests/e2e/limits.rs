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

/// OSH5203 `wgsl-nesting-too-deep`.
const WGSL_NESTING_TOO_DEEP: Code = Code(5203);

/// `n` nested `for` loops around `x += 1` (which then computes 1).
fn nested_loops(n: usize) -> String {
    shader(
        "",
        &format!("{}x += 1;", "for (uint i = c; i < c + 1; i++) ".repeat(n)),
    )
}

/// Chains that HLSL nests as deep as our limit allows but that must not nest in WGSL past
/// Tint's 127 levels: `else if` chains and unary chains, 120 deep. Name, shader, and
/// what it computes with `c == 0`.
fn tint_chains(n: usize) -> Vec<(&'static str, String, u32)> {
    let r = |s: &str, k: usize| s.repeat(k);
    vec![
        (
            "else ifs",
            shader(
                "",
                &format!(
                    "if (c == 1000) x = 1;{} else x = 77;",
                    (1..=n)
                        .map(|i| format!(" else if (c == {i}) x = {i};"))
                        .collect::<String>()
                ),
            ),
            77,
        ),
        (
            "bit nots",
            shader("", &format!("x = {}5u;", r("~", n | 1))),
            !5,
        ),
        (
            "logical nots",
            shader("", &format!("x = {}(c == 0) ? 3 : 4;", r("!", n & !1))),
            3,
        ),
        (
            "unary minus",
            shader("", &format!("x = (uint)({}5);", r("- ", n & !1))),
            5,
        ),
    ]
}

/// Compiles `text` on a 2 MiB stack and validates every output (WGSL with Tint).
fn compile_on_test_stack(text: String) -> Result<Compiled, String> {
    on_test_stack(move || {
        oneshader_e2e::try_compile_source_and_validate(
            "chain.hlsl",
            &text,
            &CompileOptions::default(),
        )
    })
}

/// What `compiled` computes into `Out[0]` with `In[0] == 0` on every selected runtime,
/// as failures where it is not `want`.
fn run_everywhere(shape: &str, compiled: &Compiled, want: u32) -> Vec<String> {
    let buffers = vec![
        ("In".to_string(), u32_bytes(&[0])),
        ("Out".to_string(), u32_bytes(&[0xdead])),
    ];
    let mut failures = Vec::new();
    for runtime in Runtime::selected() {
        match run(compiled, runtime, &buffers, [1, 1, 1]) {
            Ok(output) => {
                let got = output.u32s(1).expect("Out")[0];
                if got != want {
                    failures.push(format!(
                        "{shape} on {runtime:?}: got {got}, expected {want}"
                    ));
                }
            }
            Err(e) => failures.push(format!("{shape} on {runtime:?}: {e}")),
        }
    }
    failures
}

/// 120 deep, the chains of [`tint_chains`] compile on a 2 MiB stack and every output
/// validates: the WGSL writes an `else if` chain flat and `~~x` without parentheses, so
/// Tint, which rejects nesting past 127, accepts it. The unary chains compute the CPU's
/// value on every selected runtime. (The `else if` chain runs 50 deep in
/// `nesting_100_deep_compiles_and_runs`; 100 deep, lavapipe computes a wrong value from
/// the valid SPIR-V, ours or Tint's: see docs/testing.md.)
#[test]
fn chains_120_deep_give_wgsl_tint_accepts() {
    let mut failures = Vec::new();
    for (shape, text, want) in tint_chains(120) {
        match compile_on_test_stack(text) {
            Ok(compiled) if shape != "else ifs" => {
                failures.extend(run_everywhere(shape, &compiled, want))
            }
            Ok(_) => {}
            Err(e) => failures.push(format!("{shape}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// A `for` is a `loop` and its block in WGSL, two of Tint's 127 levels, and the loop's
/// condition an `if` in it: 61 nested `for` loops give WGSL Tint accepts and run, 62
/// are OSH5203 at the innermost loop for WGSL (only), and still compile for SPIR-V and
/// MSL.
#[test]
fn nested_loops_past_tints_limit_are_osh5203() {
    let compiled = compile_on_test_stack(nested_loops(61)).expect("61 nested loops");
    let failures = run_everywhere("61 loops", &compiled, 1);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));

    for n in [62, 120] {
        let text = nested_loops(n);
        let result =
            on_test_stack(move || compile_source("loops.hlsl", &text, &CompileOptions::default()));
        assert_eq!(
            error_codes(&result),
            vec![WGSL_NESTING_TOO_DEEP],
            "{n} loops: {:?}",
            result.short_diagnostics()
        );
        let diagnostic = &result.diagnostics[0];
        let (line, column) = diagnostic
            .span
            .and_then(|span| result.sources.location(span))
            .map(|(_, line, column)| (line, column))
            .expect("a located diagnostic");
        // The loops are all on line 9 of the shader, 32 characters each: the error is
        // in the 62nd.
        let loop_text = "for (uint i = c; i < c + 1; i++) ".len() as u32;
        assert_eq!(line, 9, "{:?}", result.short_diagnostics());
        assert!(
            (61 * loop_text..62 * loop_text).contains(&column),
            "{column}: {:?}",
            result.short_diagnostics()
        );
        let text = nested_loops(n);
        let spirv_and_msl = CompileOptions {
            targets: vec![oneshader::Target::SpirV, oneshader::Target::Msl],
            ..CompileOptions::default()
        };
        let result = on_test_stack(move || compile_source("loops.hlsl", &text, &spirv_and_msl));
        assert!(result.success(), "{:?}", result.short_diagnostics());
        let words = result
            .find("main", oneshader::Target::SpirV)
            .and_then(|blob| blob.words())
            .expect("SPIR-V");
        oneshader_harness::spirv_val(&words).unwrap_or_else(|e| panic!("{n} loops: {e}"));
    }
}

/// OSH0302 `type-mismatch`, which an array size out of range is.
const ARRAY_SIZE: Code = Code(302);
/// OSH5201 `wgsl-unsupported`.
const WGSL_UNSUPPORTED: Code = Code(5201);

/// The line of the first diagnostic of `result`.
fn first_line(result: &CompileResult) -> Option<u32> {
    let span = result.diagnostics.first()?.span?;
    result.sources.location(span).map(|(_, line, _)| line)
}

/// Arrays too large are diagnosed where they are declared, before anything is laid out
/// or allocated: more than 16,777,216 elements in a dimension (a local, `groupshared`
/// memory), or 4 GiB or more in all (`uint a[4096][4096][4096]`, whose size does not fit
/// the 32 bits sizes have); and a local or `static` array WebGPU cannot hold (over 65,535
/// elements) is OSH5201 for WGSL only.
#[test]
fn array_sizes_past_the_limits_are_diagnosed() {
    let huge = [
        (
            "local",
            "",
            "    uint a[1 << 30];\n    a[c] = 1;\n    x = a[0];",
            9,
        ),
        (
            "groupshared",
            "groupshared uint g[1 << 30];",
            "    g[c] = 1;\n    x = g[0];",
            1,
        ),
        (
            "three dimensions",
            "",
            "    uint a[4096][4096][4096];\n    a[c][c][c] = 1;\n    x = a[0][0][0];",
            9,
        ),
        (
            "struct member",
            "struct S { uint4 v[1 << 26]; };",
            "    S s;\n    s.v[c].x = 1;\n    x = s.v[0].x;",
            1,
        ),
    ];
    for (what, prelude, body, line) in huge {
        let text = shader(prelude, body);
        let started = std::time::Instant::now();
        let result =
            on_test_stack(move || compile_source("array.hlsl", &text, &CompileOptions::default()));
        // (The uses of the variable that was not declared follow, as OSH0300.)
        assert_eq!(
            error_codes(&result).first(),
            Some(&ARRAY_SIZE),
            "{what}: {:?}",
            result.short_diagnostics()
        );
        assert_eq!(first_line(&result), Some(line), "{what}");
        assert!(
            started.elapsed().as_secs() < 10,
            "{what}: {:?}",
            started.elapsed()
        );
    }

    let text = shader("static uint s[16777216];", "    s[c] = 1;\n    x = s[0];");
    let result = compile_source("static.hlsl", &text, &CompileOptions::default());
    assert_eq!(
        error_codes(&result),
        vec![WGSL_UNSUPPORTED],
        "{:?}",
        result.short_diagnostics()
    );
    assert_eq!(first_line(&result), Some(1));
    let spirv = CompileOptions {
        targets: vec![oneshader::Target::SpirV],
        ..CompileOptions::default()
    };
    let result = compile_source("static.hlsl", &text, &spirv);
    assert!(result.success(), "{:?}", result.short_diagnostics());
    let words = result
        .find("main", oneshader::Target::SpirV)
        .and_then(|blob| blob.words())
        .expect("SPIR-V");
    oneshader_harness::spirv_val(&words).expect("spirv-val");
}

/// `[unroll]` and `[unroll(N)]` are hints oneshader does not act on (docs/diagnostics.md,
/// "Limits"): a billion-iteration loop marked `[unroll]` compiles at once to a loop,
/// every output validates, and it computes what the CPU computes on every runtime.
#[test]
fn unroll_of_a_huge_loop_stays_a_loop() {
    let text = shader(
        "",
        "    [unroll] for (uint i = c; i < 1000000000; i++) { x += i; if (i == c + 3) break; }\n\
         \x20   [unroll(100000000)] for (uint j = 0; j < 4000000000u; j++) { x ^= j << 8; if (j == 2) break; }",
    );
    let started = std::time::Instant::now();
    let compiled = compile_on_test_stack(text).expect("the loops compile");
    assert!(started.elapsed().as_secs() < 30, "{:?}", started.elapsed());
    // Not unrolled: a few hundred words, where a billion iterations would be billions.
    let words = compiled.spirv().len();
    assert!(words < 2000, "{words} words of SPIR-V");
    // x = 0 + 1 + 2 + 3, then ^ (0 << 8) ^ (1 << 8) ^ (2 << 8).
    let failures = run_everywhere("unroll", &compiled, 6 ^ 256 ^ 512);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Nested calls as deep as the nesting limit allows (50 `abs(`, two and a half levels
/// each) compile for every target on a 2 MiB stack (the SPIR-V writer's `math` took
/// 45 KiB a level unoptimised, and 40 fit), validate and run.
#[test]
fn nested_calls_50_deep_fit_a_2_mib_stack() {
    let n = 50;
    let text = shader(
        "",
        &format!("x = {}c + 3{};", "abs(".repeat(n), ")".repeat(n)),
    );
    let compiled = compile_on_test_stack(text).expect("50 nested calls");
    let failures = run_everywhere("calls", &compiled, 3);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
