//! `oneshader check` as CI runs it: a tree of good and bad shaders, exit codes, the
//! summary, GitHub annotations, warnings flags, manifests and depfiles.

#![allow(
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a failed expectation is a failed test"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn scratch(test: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("oneshader-check-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir is writable");
    Scratch(dir)
}

fn write(dir: &Path, name: &str, text: &str) {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("scratch dir is writable");
    }
    std::fs::write(path, text).expect("scratch file is writable");
}

fn oneshader(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oneshader"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the oneshader binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

const GOOD: &str = "RWStructuredBuffer<uint> Out : register(u0);\n\
                    [numthreads(64, 1, 1)]\n\
                    void CSMain(uint3 id : SV_DispatchThreadID) { Out[id.x] = WaveActiveSum(id.x); }\n";
const WARNS: &str = "RWStructuredBuffer<float> Out : register(u0);\n\
                     [numthreads(1, 1, 1)]\n\
                     void CSMain() { float4 c = 1; float3 v = 0; v = c; Out[0] = v.x; }\n";
const BAD: &str = "RWStructuredBuffer<uint> Out : register(u0);\n\
                   [numthreads(1, 1, 1)]\n\
                   void CSMain() { Out[0] = missing; }\n";

fn tree(test: &str) -> Scratch {
    let dir = scratch(test);
    write(&dir.0, "shaders/good.hlsl", GOOD);
    write(&dir.0, "shaders/sub/warns.hlsl", WARNS);
    write(&dir.0, "shaders/notes.txt", "not a shader");
    dir
}

#[test]
fn a_clean_tree_exits_0_with_a_summary() {
    let dir = tree("clean");
    let output = oneshader(&dir.0, &["check", "shaders", "--message-format", "short"]);
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    assert_eq!(
        text(&output.stdout),
        "shaders/sub/warns.hlsl(3,45): warning OSH0400: implicit truncation of vector type: 'float4' to 'float3' drops the last components\n"
    );
    assert!(text(&output.stderr).ends_with("checked 2 files: 0 errors, 1 warning\n"));
    assert!(
        !dir.0.join("shaders/good.spv").exists(),
        "check writes nothing"
    );
}

#[test]
fn errors_exit_1_with_github_annotations() {
    let dir = tree("errors");
    write(&dir.0, "shaders/bad.hlsl", BAD);
    let output = oneshader(&dir.0, &["check", "shaders", "--message-format", "github"]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        text(&output.stdout),
        "::error file=shaders/bad.hlsl,line=3,col=26,endLine=3,endColumn=33,title=OSH0300::unknown identifier 'missing'%0Ahelp: declare it before this use\n\
         ::warning file=shaders/sub/warns.hlsl,line=3,col=45,endLine=3,endColumn=50,title=OSH0400::implicit truncation of vector type: 'float4' to 'float3' drops the last components%0Ahelp: say which components you mean with a swizzle ('.xyz') or a cast ('(float3)')\n"
    );
    assert!(text(&output.stderr).ends_with("checked 3 files: 1 error, 1 warning\n"));
}

#[test]
fn werror_fails_on_warnings_and_w_hides_them() {
    let dir = tree("werror");
    let output = oneshader(
        &dir.0,
        &["check", "shaders", "-Werror", "--message-format", "short"],
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(text(&output.stdout).contains("error OSH0400"));
    assert!(text(&output.stderr).ends_with("checked 2 files: 1 error, 0 warnings\n"));
    let output = oneshader(
        &dir.0,
        &["check", "shaders", "-w", "--message-format", "short"],
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(text(&output.stdout), "");
}

#[test]
fn usage_and_io_errors_exit_2() {
    let dir = tree("usage");
    assert_eq!(
        oneshader(&dir.0, &["check", "nowhere"]).status.code(),
        Some(2)
    );
    write(&dir.0, "empty/readme.txt", "");
    assert_eq!(
        oneshader(&dir.0, &["check", "empty"]).status.code(),
        Some(2)
    );
    write(&dir.0, "bad.toml", "[[shader]]\nfile = 3\n");
    assert_eq!(
        oneshader(&dir.0, &["check", "bad.toml"]).status.code(),
        Some(2)
    );
    assert_eq!(
        oneshader(&dir.0, &["check", "--frobnicate"]).status.code(),
        Some(2)
    );
}

#[test]
fn a_bad_profile_is_the_same_diagnostic_as_for_compile() {
    let dir = tree("profile");
    write(&dir.0, "a.hlsl", "[numthreads(1, 1, 1)] void main() {}\n");
    for command in ["check", "compile"] {
        let mut args = vec![
            command,
            "a.hlsl",
            "-T",
            "xs_9_9",
            "--message-format",
            "short",
        ];
        if command == "compile" {
            args.extend(["-o", "out"]);
        }
        let output = oneshader(&dir.0, &args);
        assert_eq!(output.status.code(), Some(1), "{command}");
        assert!(
            text(&output.stderr).contains("error OSH0323: The profile 'xs_9_9' is not valid"),
            "{command}: {}",
            text(&output.stderr)
        );
    }
}

#[test]
fn a_manifest_picks_files_entry_points_defines_and_targets() {
    let dir = scratch("manifest");
    write(
        &dir.0,
        "src/tile.hlsl",
        "#ifndef TILE\n#error TILE must be defined\n#endif\n#include \"common.hlsli\"\n\
         RWStructuredBuffer<uint> Out : register(u0);\n\
         [numthreads(TILE, 1, 1)] void CSMain(uint3 id : SV_DispatchThreadID) { Out[id.x] = twice(id.x); }\n",
    );
    write(
        &dir.0,
        "inc/common.hlsli",
        "uint twice(uint x) { return 2 * x; }\n",
    );
    write(
        &dir.0,
        "oneshader.toml",
        "include = [\"inc\"]\n[[shader]]\nfile = \"src/tile.hlsl\"\nentry = \"CSMain\"\n\
         profile = \"cs_6_0\"\ndefines = [\"TILE=8\"]\ntargets = [\"spirv\", \"wgsl\"]\n",
    );
    let output = oneshader(&dir.0, &["check", "--depfile", "check.d"]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}{}",
        text(&output.stdout),
        text(&output.stderr)
    );
    assert!(text(&output.stderr).ends_with("checked 1 file: 0 errors, 0 warnings\n"));
    let depfile = std::fs::read_to_string(dir.0.join("check.d")).expect("the depfile is written");
    assert!(depfile.starts_with("check.d: \\\n"), "{depfile}");
    assert!(depfile.contains("src/tile.hlsl"), "{depfile}");
    assert!(depfile.contains("inc/common.hlsli"), "{depfile}");
    // Without the define the manifest's file fails.
    write(
        &dir.0,
        "oneshader.toml",
        "[[shader]]\nfile = \"src/tile.hlsl\"\n",
    );
    let output = oneshader(&dir.0, &["check", "--message-format", "short"]);
    assert_eq!(output.status.code(), Some(1));
    let printed = text(&output.stdout);
    assert!(printed.contains("error OSH0100: "), "{printed}");
    assert!(printed.contains("TILE must be defined"), "{printed}");
}

#[test]
fn compile_writes_a_depfile_with_md_mf() {
    let dir = scratch("md");
    write(&dir.0, "a.hlsl", "#include \"b.hlsli\"\nRWStructuredBuffer<uint> Out : register(u0);\n[numthreads(1,1,1)] void CSMain() { Out[0] = B; }\n");
    write(&dir.0, "b.hlsli", "#define B 7\n");
    let output = oneshader(
        &dir.0,
        &[
            "compile", "a.hlsl", "-o", "out", "--target", "spirv", "-MD", "-MF", "a.d",
        ],
    );
    assert_eq!(output.status.code(), Some(0), "{}", text(&output.stderr));
    let depfile = std::fs::read_to_string(dir.0.join("a.d")).expect("the depfile is written");
    assert!(depfile.starts_with("out/a.spv: \\\n  "), "{depfile}");
    assert!(depfile.contains("a.hlsl"), "{depfile}");
    assert!(depfile.contains("b.hlsli"), "{depfile}");
}
