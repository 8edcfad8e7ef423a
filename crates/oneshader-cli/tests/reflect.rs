//! `oneshader reflect`, `compile --reflect` and `--device`: the JSON they write holds what
//! the shader declares and uses, and a device that lacks something fails the command.

#![allow(
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a failed expectation is a failed test"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn oneshader(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oneshader"))
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the oneshader binary runs")
}

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("oneshader-reflect-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir is writable");
    dir
}

fn json_of(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"))
}

#[test]
fn reflect_prints_the_schema_versioned_reflection_of_compact() {
    let compact = repo("shaders/Compact.hlsl");
    let output = oneshader(&["reflect", compact.to_str().unwrap_or_default()]);
    assert!(output.status.success(), "{output:?}");
    let json = json_of(&String::from_utf8_lossy(&output.stdout));
    assert_eq!(json["version"], 1);
    let entry = &json["entry_points"][0];
    assert_eq!(entry["name"], "CSMain");
    assert_eq!(entry["stage"], "compute");
    assert_eq!(entry["workgroup_size"], serde_json::json!([64, 1, 1]));
    assert_eq!(entry["subgroup_operations"], 9);
    assert_eq!(entry["subgroup_stages"], 0x20);
    assert_eq!(entry["inputs"][0]["semantic"], "SV_DispatchThreadID");
    assert_eq!(entry["inputs"][0]["type"], "uint3");
    let names: Vec<&str> = entry["resources"]
        .as_array()
        .expect("resources")
        .iter()
        .filter_map(|r| r["name"].as_str())
        .collect();
    assert_eq!(names, ["Values", "Kept", "Count"]);
    let count = &entry["resources"][2];
    assert_eq!(count["kind"], "RWByteAddressBuffer");
    assert_eq!(
        (count["wgsl_group"].clone(), count["wgsl_binding"].clone()),
        (0.into(), 2.into())
    );
    assert_eq!(count["msl_index"], 2);
    assert_eq!(count["access"]["atomic"], true);
    assert_eq!(count["buffer"]["stride"], 4);
    assert_eq!(count["declared_at"]["line"], 3);
    let reflection: oneshader::Reflection =
        serde_json::from_value(json).expect("the JSON is a Reflection");
    assert_eq!(
        reflection.entry_points[0].subgroup_operations.to_string(),
        "Basic, Ballot"
    );
}

#[test]
fn reflect_honours_defines_and_entry() {
    let dir = scratch("defines");
    let file = dir.join("two.hlsl");
    std::fs::write(
        &file,
        "#ifndef N\n#define N 1\n#endif\nRWStructuredBuffer<uint> Out : register(u0);\n\
         [numthreads(N, 1, 1)] void A(uint3 id : SV_DispatchThreadID) { Out[id.x] = 1; }\n\
         [numthreads(2, 1, 1)] void B(uint3 id : SV_DispatchThreadID) { Out[id.x] = 2; }\n",
    )
    .expect("writable");
    let output = oneshader(&[
        "reflect",
        file.to_str().unwrap_or_default(),
        "-E",
        "A",
        "-D",
        "N=16",
    ]);
    assert!(output.status.success(), "{output:?}");
    let json = json_of(&String::from_utf8_lossy(&output.stdout));
    assert_eq!(json["entry_points"].as_array().map(Vec::len), Some(1));
    assert_eq!(
        json["entry_points"][0]["workgroup_size"],
        serde_json::json!([16, 1, 1])
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn reflect_of_a_broken_file_prints_diagnostics_and_no_json() {
    let dir = scratch("broken");
    let file = dir.join("broken.hlsl");
    std::fs::write(
        &file,
        "[numthreads(1,1,1)] void CSMain() { undefined = 1; }\n",
    )
    .expect("writable");
    let output = oneshader(&["reflect", file.to_str().unwrap_or_default()]);
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    assert!(String::from_utf8_lossy(&output.stderr).contains("OSH0300"));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn compile_reflect_writes_the_reflection_beside_the_outputs() {
    let dir = scratch("compile");
    let compact = repo("shaders/Compact.hlsl");
    let output = oneshader(&[
        "compile",
        compact.to_str().unwrap_or_default(),
        "-o",
        dir.to_str().unwrap_or_default(),
        "--reflect",
    ]);
    assert!(output.status.success(), "{output:?}");
    let text = std::fs::read_to_string(dir.join("Compact.reflect.json")).expect("written");
    let json = json_of(&text);
    assert_eq!(json["entry_points"][0]["resources"][1]["name"], "Kept");
    assert_eq!(
        json["entry_points"][0]["resources"][1]["access"]["write"],
        true
    );
    assert!(dir.join("Compact.spv").is_file());
    // The spec's lines are still printed.
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout.contains("SubgroupOperations: Basic, Ballot (0x9)\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("WebGPU requiredFeatures: [subgroups]\n"),
        "{stdout}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn device_that_lacks_what_the_shader_needs_fails_compile_and_check() {
    let dir = scratch("device");
    let file = dir.join("wide.hlsl");
    std::fs::write(
        &file,
        "RWStructuredBuffer<uint> Out : register(u0);\n[numthreads(16, 16, 2)]\n\
         void CSMain(uint3 id : SV_DispatchThreadID) { Out[id.x] = WaveActiveCountBits(true); }\n",
    )
    .expect("writable");
    let out = dir.join("out");
    let webgpu = repo("profiles/webgpu.json");
    let args = [
        "compile",
        file.to_str().unwrap_or_default(),
        "-o",
        out.to_str().unwrap_or_default(),
        "--device",
        webgpu.to_str().unwrap_or_default(),
        "--message-format",
        "short",
    ];
    let output = oneshader(&args);
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("wide.hlsl(2,1): error OSH5300: [numthreads(16, 16, 2)] is 512 invocations; the device 'WebGPU (default limits, with the subgroups and shader-f16 features)' allows 256"),
        "{stderr}"
    );
    assert!(
        !out.exists(),
        "nothing is written when the device check fails"
    );
    let lavapipe = repo("profiles/lavapipe.json");
    let mut fits = args;
    fits[5] = lavapipe.to_str().unwrap_or_default();
    assert!(oneshader(&fits).status.success());
    let check = oneshader(&[
        "check",
        file.to_str().unwrap_or_default(),
        "--device",
        webgpu.to_str().unwrap_or_default(),
        "--message-format",
        "short",
    ]);
    assert_eq!(check.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&check.stdout).contains("OSH5300"),
        "{check:?}"
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn unreadable_or_invalid_device_profile_is_a_usage_error() {
    let dir = scratch("bad-device");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, "{\"name\": \"x\"}").expect("writable");
    let compact = repo("shaders/Compact.hlsl");
    let output = oneshader(&[
        "reflect",
        compact.to_str().unwrap_or_default(),
        "--device",
        bad.to_str().unwrap_or_default(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("is invalid"),
        "{output:?}"
    );
    let _ = std::fs::remove_dir_all(dir);
}
