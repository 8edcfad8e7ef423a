//! The SARIF output validated against the official SARIF 2.1.0 JSON schema, by
//! `tests/sarif/validate.js` (the schema ships in the npm package
//! `@microsoft/jest-sarif`, installed by `scripts/install-test-deps.sh`).

#![allow(
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a failed expectation is a failed test"
)]

use std::path::{Path, PathBuf};
use std::process::Command;

use oneshader::report::{render, MessageFormat, Report};
use oneshader::{compile_source, CompileOptions, CompileResult};

fn validator_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sarif")
}

/// Runs the schema validator on `log`; `Err` with its output when it rejects the log.
fn validate(name: &str, log: &str) -> Result<(), String> {
    let dir = std::env::temp_dir().join(format!("oneshader-sarif-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir is writable");
    let path = dir.join(name);
    std::fs::write(&path, log).expect("temp file is writable");
    let output = Command::new("node")
        .arg(validator_dir().join("validate.js"))
        .arg(&path)
        .output()
        .expect("node runs (scripts/install-test-deps.sh installs it)");
    let _ = std::fs::remove_file(&path);
    let text = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        !text.contains("Cannot find module"),
        "the SARIF schema package is missing: run scripts/install-test-deps.sh\n{text}"
    );
    if output.status.success() {
        Ok(())
    } else {
        Err(text)
    }
}

fn compile(name: &str, text: &str) -> CompileResult {
    compile_source(name, text, &CompileOptions::default())
}

fn results() -> Vec<CompileResult> {
    vec![
        // Several errors with help, in a file name that needs percent-encoding.
        compile(
            "shaders/two words.hlsl",
            "RWStructuredBuffer<uint> Out : register(t0);\n\
             [numthreads(64, 1, 1)]\n\
             void CSMain(uint3 id : SV_DispatchThreadID) { Out[id.x] = WaveMatch(id.x) + nope; }\n",
        ),
        // A warning only.
        compile(
            "/abs/warn.hlsl",
            "RWStructuredBuffer<float> Out : register(u0);\n\
             [numthreads(1, 1, 1)]\n\
             void CSMain() { float4 c = 1; float3 v = c; Out[0] = v.x; }\n",
        ),
        // A diagnostic without a location.
        compile_source(
            "x.hlsl",
            "[numthreads(1,1,1)] void CSMain() {}",
            &CompileOptions {
                entry_point: Some("Missing".into()),
                ..CompileOptions::default()
            },
        ),
        // Clean.
        compile(
            "clean.hlsl",
            "RWStructuredBuffer<uint> Out : register(u0);\n[numthreads(1, 1, 1)] void CSMain() { Out[0] = 1; }\n",
        ),
    ]
}

#[test]
fn sarif_output_is_valid_sarif_2_1_0() {
    let results = results();
    let reports: Vec<Report> = results.iter().map(Report::of).collect();
    let count: usize = reports.iter().map(|r| r.diagnostics.len()).sum();
    assert!(count >= 3, "the sample produces diagnostics: {count}");
    let log = render(MessageFormat::Sarif, &reports, false);
    if let Err(errors) = validate("all.sarif", &log) {
        panic!("{errors}\n{log}");
    }
    // A clean run is a valid log too: one run, no results.
    let clean = render(MessageFormat::Sarif, &reports[3..], false);
    assert!(clean.contains("\"results\": []"), "{clean}");
    validate("clean.sarif", &clean).expect("an empty run is valid");
}

/// The validator rejects what the schema forbids, so the test above can fail.
#[test]
fn the_validator_rejects_invalid_sarif() {
    let results = results();
    let log = render(MessageFormat::Sarif, &[Report::of(&results[0])], false);
    let broken = log.replacen("\"level\": \"error\"", "\"level\": \"fatal\"", 1);
    assert_ne!(broken, log);
    let errors = validate("broken.sarif", &broken).expect_err("a bad level is rejected");
    assert!(errors.contains("level"), "{errors}");
    let no_version = log.replacen("\"version\": \"2.1.0\"", "\"version\": \"2.0.0\"", 1);
    assert!(validate("version.sarif", &no_version).is_err());
}
