//! `oneshader explain CODE`, as `rustc --explain` does.

#![allow(
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a failed expectation is a failed test"
)]

use std::process::{Command, Output};

fn oneshader(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oneshader"))
        .args(args)
        .output()
        .expect("the oneshader binary runs")
}

#[test]
fn explain_prints_explanation_example_and_fix() {
    let output = oneshader(&["explain", "OSH0350"]);
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(text.starts_with("## OSH0350\n"), "{text}");
    assert!(text.contains("`intrinsic-not-supported` (error)"), "{text}");
    assert!(text.contains("Out[id.x] = WaveMatch(id.x);"), "{text}");
    assert!(text.contains("Fix: Build the groups yourself"), "{text}");
    // Lower case and the bare number name the same entry.
    assert_eq!(oneshader(&["explain", "osh350"]).stdout, output.stdout);
}

#[test]
fn every_catalog_code_is_explained() {
    for info in oneshader::catalog::CATALOG {
        let output = oneshader(&["explain", &info.code.to_string()]);
        assert_eq!(output.status.code(), Some(0), "{}", info.code);
        assert!(String::from_utf8_lossy(&output.stdout).contains(info.fix));
    }
}

#[test]
fn unknown_codes_exit_2() {
    for code in ["OSH9999", "OSH0399", "E0308", "OSH"] {
        let output = oneshader(&["explain", code]);
        assert_eq!(output.status.code(), Some(2), "{code}");
        let text = String::from_utf8_lossy(&output.stderr);
        assert!(
            text.contains("is not a oneshader diagnostic code"),
            "{text}"
        );
    }
}
