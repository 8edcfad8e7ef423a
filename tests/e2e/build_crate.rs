//! `oneshader-build` in real cargo builds: the example crate (wgpu running Compact) built
//! from a clean target directory and run on lavapipe and SwiftShader, and a fixture crate
//! that shows when a build script re-runs and how a shader error fails the build.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use oneshader_harness::VulkanDriver;

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A directory under cargo's scratch space for tests, emptied first.
fn clean_dir(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

fn cargo(manifest_dir: &Path, target_dir: &Path, args: &[&str]) -> Output {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    Command::new(cargo)
        .args(args)
        .current_dir(manifest_dir)
        .env("CARGO_TARGET_DIR", target_dir)
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo starts")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Whether cargo's JSON messages say the fixture's binary was rebuilt (`Some(false)`:
/// fresh), or `None` when they don't mention it.
fn fixture_rebuilt(output: &Output) -> Option<bool> {
    text(&output.stdout).lines().find_map(|line| {
        let message: serde_json::Value = serde_json::from_str(line).ok()?;
        let is_fixture_bin = message["reason"] == "compiler-artifact"
            && message["target"]["name"] == "oneshader-build-fixture"
            && message["target"]["kind"]
                .as_array()
                .is_some_and(|kinds| kinds.iter().any(|k| k == "bin"));
        is_fixture_bin.then(|| message["fresh"] == false)
    })
}

#[test]
fn a_build_script_reruns_when_an_included_header_changes_and_fails_on_a_shader_error() {
    let crate_dir = clean_dir("build-fixture");
    let fixture = repo_root().join("tests/fixtures/build-crate");
    for file in [
        "build.rs",
        "src/main.rs",
        "shaders/fill.hlsl",
        "shaders/common.hlsli",
    ] {
        let to = crate_dir.join(file);
        std::fs::create_dir_all(to.parent().expect("a parent")).expect("mkdir");
        std::fs::copy(fixture.join(file), &to).expect("copy the fixture");
    }
    let build_crate = repo_root().join("crates/oneshader-build");
    let manifest = std::fs::read_to_string(fixture.join("Cargo.toml.in"))
        .expect("the fixture's manifest")
        .replace("@ONESHADER_BUILD@", &build_crate.display().to_string());
    std::fs::write(crate_dir.join("Cargo.toml"), manifest).expect("write Cargo.toml");
    // The workspace's lock file, so the fixture builds the versions the workspace tested.
    std::fs::copy(repo_root().join("Cargo.lock"), crate_dir.join("Cargo.lock")).expect("copy");
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("build-fixture-target");
    let build = |what: &str| {
        let output = cargo(&crate_dir, &target, &["build", "--message-format=json"]);
        assert!(
            output.status.success(),
            "{what}: the build failed:\n{}",
            text(&output.stderr)
        );
        output
    };
    let run = || {
        let output = Command::new(target.join("debug/oneshader-build-fixture"))
            .output()
            .expect("the fixture runs");
        text(&output.stdout)
    };

    let first = build("first build");
    assert_eq!(fixture_rebuilt(&first), Some(true));
    let printed = run();
    assert!(printed.contains("workgroup: [8, 1, 1]"), "{printed}");
    assert!(printed.contains("spirv magic: 0x07230203"), "{printed}");
    assert!(printed.contains("bindings: 1"), "{printed}");

    let untouched = build("nothing touched");
    assert_eq!(
        fixture_rebuilt(&untouched),
        Some(false),
        "nothing changed, nothing rebuilt"
    );

    // File times have a resolution; make the change visibly later than the last build.
    std::thread::sleep(Duration::from_millis(1100));
    let header = crate_dir.join("shaders/common.hlsli");
    let same = std::fs::read(&header).expect("read the header");
    std::fs::write(&header, same).expect("touch the header");
    let touched = build("header touched");
    assert_eq!(
        fixture_rebuilt(&touched),
        Some(true),
        "a touched include reruns the build script"
    );

    std::thread::sleep(Duration::from_millis(1100));
    std::fs::write(&header, "#define WIDTH 16\n").expect("edit the header");
    build("header edited");
    let printed = run();
    assert!(
        printed.contains("workgroup: [16, 1, 1]"),
        "the new header reached the shader: {printed}"
    );

    std::thread::sleep(Duration::from_millis(1100));
    let shader = crate_dir.join("shaders/fill.hlsl");
    let source = std::fs::read_to_string(&shader).expect("read the shader");
    std::fs::write(
        &shader,
        source.replace("id.x * 2", "id.x * undefined_scale"),
    )
    .expect("write");
    let failed = cargo(&crate_dir, &target, &["build"]);
    assert!(!failed.status.success(), "a shader error fails the build");
    let stderr = text(&failed.stderr);
    assert!(
        stderr.contains("fill.hlsl(9,") && stderr.contains(": error OSH0300"),
        "the OSH diagnostic is in cargo's output:\n{stderr}"
    );
}

/// The example crate, built from a clean target directory, runs Compact through wgpu on
/// both CPU Vulkan drivers; the kept values are the inputs above 0.5.
#[test]
fn the_wgpu_example_runs_compact_on_lavapipe_and_swiftshader() {
    let example = repo_root().join("examples/compact-wgpu");
    let target = clean_dir("compact-wgpu-target");
    let output = cargo(&example, &target, &["build", "--locked"]);
    assert!(
        output.status.success(),
        "the example failed to build:\n{}",
        text(&output.stderr)
    );

    for (driver, adapter) in [
        (VulkanDriver::Lavapipe, "llvmpipe"),
        (VulkanDriver::SwiftShader, "SwiftShader"),
    ] {
        let manifest = driver.icd_manifest().expect("a CPU driver has a manifest");
        let output = Command::new(target.join("debug/compact-wgpu"))
            .env("VK_ICD_FILENAMES", &manifest)
            .env("VK_DRIVER_FILES", &manifest)
            .env("WGPU_BACKEND", "vulkan")
            .output()
            .expect("the example runs");
        let stdout = text(&output.stdout);
        assert!(
            output.status.success(),
            "{driver:?}: {stdout}\n{}",
            text(&output.stderr)
        );
        let line = |name: &str| {
            stdout
                .lines()
                .find_map(|l| l.strip_prefix(&format!("{name}: ")))
                .unwrap_or_else(|| panic!("{driver:?}: no '{name}' line in\n{stdout}"))
                .to_string()
        };
        assert!(
            line("adapter").contains(adapter),
            "{driver:?}: {}",
            line("adapter")
        );
        let floats = |name: &str| -> Vec<f32> {
            serde_json::from_str(&line(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
        };
        let values = floats("values");
        let mut kept = floats("kept");
        let count: usize = line("count").parse().expect("a count");
        let mut expected: Vec<f32> = values.iter().copied().filter(|&v| v > 0.5).collect();
        assert!(values.len() >= 1024 && !expected.is_empty());
        assert_eq!(count, expected.len(), "{driver:?}: the count");
        kept.sort_by(f32::total_cmp);
        expected.sort_by(f32::total_cmp);
        assert_eq!(kept, expected, "{driver:?}: the kept values, in any order");
    }
}
