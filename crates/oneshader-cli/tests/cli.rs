//! Runs the `oneshader` binary as a user would and checks its exit status, what it
//! prints and what it writes.

#![allow(
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a failed expectation is a failed test"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A fresh, empty scratch directory for one test, removed when the test ends.
struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(test: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("oneshader-cli-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir is writable");
    Scratch(dir)
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("scratch file is writable");
    path
}

fn oneshader(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oneshader"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the oneshader binary runs")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

fn compact_hlsl() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shaders/Compact.hlsl")
}

fn file_len(path: &Path) -> u64 {
    std::fs::metadata(path)
        .unwrap_or_else(|e| panic!("{} was written: {e}", path.display()))
        .len()
}

fn s(path: &Path) -> &str {
    path.to_str().expect("scratch paths are UTF-8")
}

#[test]
fn missing_file_is_osh0001_and_writes_nothing() {
    let dir = scratch("missing");
    let input = dir.join("Missing.hlsl");
    let out = dir.join("out");
    let output = oneshader(&[
        "compile",
        s(&input),
        "-o",
        s(&out),
        "--message-format",
        "short",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let expected = format!(
        "{}(1,1): error OSH0001: The file '{}' could not be read",
        input.display(),
        input.display()
    );
    assert!(
        stderr(&output).starts_with(&expected),
        "{}",
        stderr(&output)
    );
    assert_eq!(stdout(&output), "");
    assert!(!out.exists(), "no output directory for a failed compile");

    let rich = oneshader(&["compile", s(&input), "-o", s(&out)]);
    assert_eq!(rich.status.code(), Some(1));
    let text = stderr(&rich);
    assert!(text.starts_with("error[OSH0001]: The file '"), "{text}");
    assert!(text.contains(s(&input)), "{text}");
}

/// An instruction past SPIR-V's 65,535 words (here a switch of 33,000 cases) is an
/// error that fails the command and writes nothing, not a module with a wrapped count.
#[test]
fn a_switch_too_large_for_spirv_exits_1_and_writes_nothing() {
    let dir = scratch("huge-switch");
    let mut source = String::from(
        "RWStructuredBuffer<uint> O : register(u0);\n[numthreads(1, 1, 1)]\n\
         void CSMain(uint3 id : SV_DispatchThreadID) {\n    uint r = 0;\n    switch (id.x) {\n",
    );
    for case in 0..33_000 {
        source.push_str(&format!("    case {case}: r = {}; break;\n", case * 3));
    }
    source.push_str("    }\n    O[0] = r;\n}\n");
    let input = write(&dir, "Huge.hlsl", &source);
    let out = dir.join("out");
    let output = oneshader(&[
        "compile",
        s(&input),
        "--target",
        "spirv",
        "-o",
        s(&out),
        "--message-format",
        "short",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let expected = format!(
        "{}(5,16): error OSH5001: a switch of 33000 cases; SPIR-V allows at most 16383 in one",
        input.display()
    );
    assert!(
        stderr(&output).starts_with(&expected),
        "{}",
        stderr(&output)
    );
    assert!(!out.exists(), "no output directory for a failed compile");
}

/// A struct of more members than SPIR-V allows (16,383) is an error at the struct that
/// fails the command and writes nothing.
#[test]
fn a_struct_too_large_for_spirv_exits_1_and_writes_nothing() {
    let dir = scratch("huge-struct");
    let mut source = String::from("struct Big {\n");
    for member in 0..16_384 {
        source.push_str(&format!("    float m{member};\n"));
    }
    source.push_str(
        "};\nRWStructuredBuffer<Big> O : register(u0);\n[numthreads(1, 1, 1)]\n\
         void CSMain(uint3 id : SV_DispatchThreadID) { O[0].m1 = id.x; }\n",
    );
    let input = write(&dir, "Huge.hlsl", &source);
    let out = dir.join("out");
    let output = oneshader(&[
        "compile",
        s(&input),
        "--target",
        "spirv,wgsl",
        "-o",
        s(&out),
        "--message-format",
        "short",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let expected = format!(
        "{}(1,8): error OSH5001: the struct 'Big' has 16384 members; SPIR-V allows at most 16383",
        input.display()
    );
    assert!(
        stderr(&output).starts_with(&expected),
        "{}",
        stderr(&output)
    );
    assert!(!out.exists(), "no output directory for a failed compile");
}

/// Structs nested deeper than 255 levels (here a chain of 10,000, each holding the one
/// before) are an error at the first member past the limit that fails the command and
/// writes nothing.
#[test]
fn structs_nested_too_deep_exit_1_and_write_nothing() {
    let dir = scratch("deep-structs");
    let mut source = String::from("struct S0 { float x; };\n");
    for level in 1..10_000 {
        source.push_str(&format!("struct S{level} {{ S{} a; }};\n", level - 1));
    }
    source.push_str(
        "RWStructuredBuffer<S9999> O : register(u0);\n[numthreads(1, 1, 1)]\n\
         void CSMain(uint3 id : SV_DispatchThreadID) { S9999 v = O[0]; O[1] = v; }\n",
    );
    let input = write(&dir, "Deep.hlsl", &source);
    let out = dir.join("out");
    let output = oneshader(&[
        "compile",
        s(&input),
        "--target",
        "spirv,msl,wgsl",
        "-o",
        s(&out),
        "--message-format",
        "short",
    ]);
    assert_eq!(output.status.code(), Some(1));
    let expected = format!(
        "{}(256,20): error OSH0201: the member 'a' makes the struct 'S255' nest structs 256 deep",
        input.display()
    );
    assert!(
        stderr(&output).starts_with(&expected),
        "{}",
        stderr(&output)
    );
    assert!(!out.exists(), "no output directory for a failed compile");
}

#[test]
fn unknown_target_is_a_usage_error() {
    let dir = scratch("target");
    let output = oneshader(&[
        "compile",
        s(&compact_hlsl()),
        "--target",
        "foo",
        "-o",
        s(&dir.join("out")),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        stderr(&output).contains("unknown target 'foo'"),
        "{}",
        stderr(&output)
    );
    assert!(!dir.join("out").exists());
}

#[test]
fn missing_output_dir_and_unknown_flags_are_usage_errors() {
    let no_output = oneshader(&["compile", s(&compact_hlsl())]);
    assert_eq!(no_output.status.code(), Some(2));
    let unknown = oneshader(&["compile", s(&compact_hlsl()), "-o", "x", "--frobnicate"]);
    assert_eq!(unknown.status.code(), Some(2));
    let no_command = oneshader(&[]);
    assert_eq!(no_command.status.code(), Some(2));
}

#[test]
fn bad_profile_is_osh0323() {
    let dir = scratch("profile");
    let out = dir.join("out");
    let output = oneshader(&[
        "compile",
        s(&compact_hlsl()),
        "-o",
        s(&out),
        "-T",
        "cs_5_1",
        "--message-format",
        "short",
    ]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).starts_with("error OSH0323: The profile 'cs_5_1' is not valid"),
        "{}",
        stderr(&output)
    );
    assert!(!out.exists());
}

/// Needs the front end and all three backends.
#[test]
fn compact_prints_the_spec_lines_and_writes_three_files() {
    let dir = scratch("compact");
    let out = dir.join("out");
    let output = oneshader(&[
        "compile",
        s(&compact_hlsl()),
        "--target",
        "spirv,msl,wgsl",
        "-o",
        s(&out),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(stderr(&output), "");
    let spv = out.join("Compact.spv");
    let metal = out.join("Compact.metal");
    let wgsl = out.join("Compact.wgsl");
    let expected = format!(
        "SpirV: {} bytes\nMsl: {} bytes\nWgsl: {} bytes\n\
         SubgroupOperations: Basic, Ballot (0x9)\n\
         WebGPU requiredFeatures: [subgroups]\n",
        file_len(&spv),
        file_len(&metal),
        file_len(&wgsl)
    );
    assert_eq!(stdout(&output), expected);
    let words = std::fs::read(&spv).expect("Compact.spv");
    assert_eq!(
        words.get(..4),
        Some(&[0x03, 0x02, 0x23, 0x07][..]),
        "SPIR-V magic"
    );
    let wgsl_text = std::fs::read_to_string(&wgsl).expect("Compact.wgsl");
    assert!(wgsl_text.starts_with("enable subgroups;"), "{wgsl_text}");
    let metal_text = std::fs::read_to_string(&metal).expect("Compact.metal");
    assert!(metal_text.contains("CSMain"), "{metal_text}");
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .expect("output dir")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    names.sort();
    assert_eq!(names, ["Compact.metal", "Compact.spv", "Compact.wgsl"]);
    validate_outputs(&out);
}

/// Every file the CLI wrote must pass its independent validator.
fn validate_outputs(dir: &Path) {
    for entry in std::fs::read_dir(dir).expect("output dir").flatten() {
        let path = entry.path();
        let checked = match path.extension().and_then(|e| e.to_str()) {
            Some("spv") => {
                let bytes = std::fs::read(&path).expect("readable output");
                let words: Vec<u32> = bytes
                    .chunks_exact(4)
                    .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                    .collect();
                oneshader_harness::spirv_val(&words)
            }
            Some("metal") => oneshader_harness::msl::check_msl(
                &std::fs::read_to_string(&path).expect("readable output"),
            ),
            Some("wgsl") => oneshader_harness::validate_wgsl(
                &std::fs::read_to_string(&path).expect("readable output"),
            ),
            _ => Ok(()),
        };
        if let Err(e) = checked {
            panic!("{} is invalid:\n{e}", path.display());
        }
    }
}

/// Needs the front end and the WGSL backend.
#[test]
fn one_target_writes_one_file() {
    let dir = scratch("one-target");
    let out = dir.join("nested/out");
    let output = oneshader(&[
        "compile",
        s(&compact_hlsl()),
        "--target",
        "wgsl",
        "-o",
        s(&out),
    ]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let lines: Vec<&str> = std::str::from_utf8(&output.stdout)
        .unwrap_or("")
        .lines()
        .collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(
        lines[0],
        format!("Wgsl: {} bytes", file_len(&out.join("Compact.wgsl")))
    );
    assert!(!out.join("Compact.spv").exists());
    validate_outputs(&out);
}

const TWO_ENTRIES: &str = "\
RWStructuredBuffer<uint> Out : register(u0);

[numthreads(32, 1, 1)]
void First(uint3 id : SV_DispatchThreadID)
{
    Out[id.x] = WaveActiveSum(id.x);
}

[numthreads(8, 1, 1)]
void Second(uint3 id : SV_DispatchThreadID)
{
    Out[id.x] = id.x;
}
";

/// Needs the front end and all three backends.
#[test]
fn several_entry_points_name_files_and_lines_by_entry() {
    let dir = scratch("two-entries");
    let input = write(&dir, "Two.hlsl", TWO_ENTRIES);
    let out = dir.join("out");
    let output = oneshader(&["compile", s(&input), "-o", s(&out)]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    for entry in ["First", "Second"] {
        for (target, ext) in [("SpirV", "spv"), ("Msl", "metal"), ("Wgsl", "wgsl")] {
            let file = out.join(format!("Two.{entry}.{ext}"));
            let line = format!("{entry}: {target}: {} bytes\n", file_len(&file));
            assert!(text.contains(&line), "{line} in {text}");
        }
    }
    assert!(
        text.contains("First: SubgroupOperations: Basic, Arithmetic (0x5)\n"),
        "{text}"
    );
    assert!(
        text.contains("First: WebGPU requiredFeatures: [subgroups]\n"),
        "{text}"
    );
    assert!(
        text.contains("Second: SubgroupOperations: None (0x0)\n"),
        "{text}"
    );
    assert!(
        text.contains("Second: WebGPU requiredFeatures: []\n"),
        "{text}"
    );
    assert!(!out.join("Two.spv").exists());

    let only = dir.join("only");
    let output = oneshader(&["compile", s(&input), "-o", s(&only), "-E", "Second"]);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(
        stdout(&output).starts_with("SpirV: "),
        "{}",
        stdout(&output)
    );
    assert!(only.join("Two.spv").exists());
    assert!(!only.join("Two.First.spv").exists());
    validate_outputs(&out);
    validate_outputs(&only);
}

/// Needs the front end.
#[test]
fn compile_error_prints_rich_or_short_and_writes_nothing() {
    let dir = scratch("wavematch");
    let input = write(
        &dir,
        "match.hlsl",
        "RWStructuredBuffer<uint4> Out : register(u0);\n\
         [numthreads(64, 1, 1)]\n\
         void CSMain(uint3 id : SV_DispatchThreadID) { Out[id.x] = WaveMatch(id.x); }\n",
    );
    let out = dir.join("out");
    let short = oneshader(&[
        "compile",
        s(&input),
        "-o",
        s(&out),
        "--message-format",
        "short",
    ]);
    assert_eq!(short.status.code(), Some(1));
    let expected = format!(
        "{}(3,59): error OSH0350: The intrinsic 'WaveMatch' is not supported",
        input.display()
    );
    assert!(stderr(&short).starts_with(&expected), "{}", stderr(&short));

    let rich = oneshader(&["compile", s(&input), "-o", s(&out)]);
    assert_eq!(rich.status.code(), Some(1));
    let text = stderr(&rich);
    assert!(
        text.starts_with("error[OSH0350]: The intrinsic 'WaveMatch'"),
        "{text}"
    );
    assert!(
        text.contains(&format!("{}:3:59", input.display())),
        "{text}"
    );
    assert!(
        text.contains("Out[id.x] = WaveMatch(id.x);"),
        "source snippet in {text}"
    );
    assert!(
        !text.contains('\u{1b}'),
        "no colour when NO_COLOR is set or not a terminal"
    );
    assert!(!out.exists());
}

/// Needs the front end and the backends: SPIR-V compiles, WGSL rejects the vertex
/// wave op, so nothing at all is written.
#[test]
fn a_failing_target_writes_no_partial_outputs() {
    let dir = scratch("partial");
    let input = write(
        &dir,
        "vsw.hlsl",
        "float4 VSMain(uint v : SV_VertexID) : SV_Position { return float4(WaveActiveSum(float(v)), 0, 0, 1); }\n",
    );
    let out = dir.join("out");
    let output = oneshader(&[
        "compile",
        s(&input),
        "-T",
        "vs_6_0",
        "-E",
        "VSMain",
        "-o",
        s(&out),
        "--message-format",
        "short",
    ]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(stderr(&output).contains("error OSH5202: The intrinsic 'WaveActiveSum' is not available in a vertex shader in WGSL"), "{}", stderr(&output));
    assert_eq!(stdout(&output), "");
    assert!(!out.exists());
}

/// Needs the front end's preprocessor.
#[test]
fn defines_and_include_dirs_reach_the_preprocessor() {
    let dir = scratch("defines");
    let include = dir.join("include");
    std::fs::create_dir_all(&include).expect("include dir");
    write(&include, "scale.hlsli", "#define SCALE 2u\n");
    let input = write(
        &dir,
        "Scaled.hlsl",
        "#include \"scale.hlsli\"\n\
         #ifndef ENABLED\n#error ENABLED is not defined\n#endif\n\
         RWStructuredBuffer<uint> Out : register(u0);\n\
         [numthreads(1, 1, 1)]\n\
         void CSMain(uint3 id : SV_DispatchThreadID) { Out[id.x] = id.x * SCALE * LEVEL; }\n",
    );
    let out = dir.join("out");
    let without = oneshader(&[
        "compile",
        s(&input),
        "-o",
        s(&out),
        "-I",
        s(&include),
        "--message-format",
        "short",
    ]);
    assert_eq!(without.status.code(), Some(1));
    assert!(
        stderr(&without).contains("error OSH0100"),
        "{}",
        stderr(&without)
    );

    let with = oneshader(&[
        "compile",
        s(&input),
        "-o",
        s(&out),
        "-I",
        s(&include),
        "-D",
        "ENABLED",
        "-D",
        "LEVEL=3u",
    ]);
    assert_eq!(with.status.code(), Some(0), "{}", stderr(&with));
    assert!(out.join("Scaled.wgsl").exists());
    validate_outputs(&out);

    let bad_define = oneshader(&["compile", s(&input), "-o", s(&out), "-D", "=1"]);
    assert_eq!(bad_define.status.code(), Some(2));
}

/// Needs the front end and the backends.
#[test]
fn an_unwritable_output_fails_and_leaves_nothing_behind() {
    let dir = scratch("unwritable");
    let out = dir.join("out");
    // A directory where Compact.wgsl should go makes that one write fail.
    std::fs::create_dir_all(out.join("Compact.wgsl")).expect("scratch is writable");
    let output = oneshader(&["compile", s(&compact_hlsl()), "-o", s(&out)]);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).starts_with("error: cannot write '"),
        "{}",
        stderr(&output)
    );
    assert_eq!(stdout(&output), "");
    assert!(!out.join("Compact.spv").exists());
    assert!(!out.join("Compact.metal").exists());
}

/// Bad input of each kind gives an OSH diagnostic at the right place first, exit
/// code 1, and no output.
#[test]
fn bad_input_is_one_located_diagnostic_and_no_output() {
    let cases = [
        (
            "syntax.hlsl",
            "RWStructuredBuffer<uint> O : register(u0);\n[numthreads(1,1,1)]\nvoid main() { O[0] = (1 + ; }\n",
            "(3,27): error OSH0200: ",
        ),
        (
            "unknown.hlsl",
            "RWStructuredBuffer<uint> O : register(u0);\n[numthreads(1,1,1)]\nvoid main() {\n    O[0] = missing + 1;\n}\n",
            "(4,12): error OSH0300: unknown identifier 'missing'",
        ),
        (
            "lexer.hlsl",
            "RWStructuredBuffer<uint> O : register(u0);\n[numthreads(1,1,1)]\nvoid main() { O[0] = 1 @ 2; }\n",
            "(3,24): error OSH0010: ",
        ),
    ];
    for (name, text, expected) in cases {
        let dir = scratch(name);
        let input = write(&dir, name, text);
        let out = dir.join("out");
        let output = oneshader(&[
            "compile",
            s(&input),
            "-o",
            s(&out),
            "--message-format",
            "short",
        ]);
        assert_eq!(output.status.code(), Some(1), "{name}: {}", stderr(&output));
        let errors: Vec<String> = stderr(&output)
            .lines()
            .filter(|l| l.contains(": error OSH"))
            .map(str::to_string)
            .collect();
        assert!(!errors.is_empty(), "{name}: no error");
        let want = format!("{}{expected}", input.display());
        assert!(
            errors[0].starts_with(&want),
            "{name}: {} does not start with {want}",
            errors[0]
        );
        assert!(!out.exists(), "{name}: no output directory");
        assert!(!stderr(&output).contains("panicked"), "{name}");
    }
}
