//! Golden tests for the diagnostics: every `tests/diagnostics/OSHnnnn-name.hlsl` is
//! compiled through [`oneshader::compile_file`] for every target, and its diagnostics,
//! rendered by [`oneshader::report`] in the short and the JSON-lines format, must equal
//! `OSHnnnn-name.short` and `OSHnnnn-name.json` beside it. `ONESHADER_BLESS=1` rewrites
//! the expected files from the actual output.
//!
//! An input may start with `// options: ARGS`, where ARGS are `-E NAME`, `-T PROFILE`,
//! `-D NAME[=VALUE]` and `--device PROFILE.json` (relative to the repository root) as on
//! the command line. Files under `tests/diagnostics/include/`
//! are only `#include`d.
//!
//! Every code of the catalog needs at least one golden input whose output contains it,
//! except the few in [`NOT_FROM_SOURCE`], so a new code without a golden fails here.

#![allow(
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a failed expectation is a failed test"
)]

use std::path::{Path, PathBuf};

use oneshader::report::{render, MessageFormat, Report};
use oneshader::{compile_file, CompileOptions, CompileResult, Profile};
use oneshader_ir::catalog::CATALOG;
use oneshader_ir::{codes, Code};

/// Codes that no source file can produce, each with the reason and where it is tested.
const NOT_FROM_SOURCE: &[(Code, &str)] = &[
    (
        codes::BAD_PROFILE,
        "comes from the -T option, not from a file; tested in src/profile.rs",
    ),
    (
        codes::INVALID_IR,
        "comes from an IR module built by hand, not from a file; tested in \
         oneshader-ir's valid.rs and src/compile.rs",
    ),
];

/// The golden of OSH0001 compiles this path, which does not exist, instead of an input.
const MISSING_FILE_GOLDEN: &str = "OSH0001-file-not-readable";

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/diagnostics")
}

/// The golden names (file stems), sorted: the `.hlsl` inputs and [`MISSING_FILE_GOLDEN`].
fn golden_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            if path.extension()? != "hlsl" {
                return None;
            }
            Some(path.file_stem()?.to_str()?.to_string())
        })
        .collect();
    names.push(MISSING_FILE_GOLDEN.to_string());
    names.sort();
    names
}

/// The options an input asks for in its first line (`// options: -E Main -D X=1`).
fn options_of(text: &str) -> CompileOptions {
    let mut options = CompileOptions::default();
    let Some(args) = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// options:"))
    else {
        return options;
    };
    let mut args = args.split_whitespace();
    while let Some(flag) = args.next() {
        let value = args
            .next()
            .unwrap_or_else(|| panic!("option {flag} needs a value"));
        match flag {
            "-E" => options.entry_point = Some(value.to_string()),
            "-T" => {
                options.profile =
                    Some(Profile::parse(value).unwrap_or_else(|d| panic!("{}", d.message)))
            }
            "-D" => {
                let (name, value) = value.split_once('=').unwrap_or((value, "1"));
                options.defines.push((name.to_string(), value.to_string()));
            }
            "--device" => {
                let path = Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("../..")
                    .join(value);
                options.device =
                    Some(oneshader::DeviceProfile::load(&path).unwrap_or_else(|e| panic!("{e}")))
            }
            _ => panic!("unknown option {flag} in a golden input"),
        }
    }
    options
}

fn compile_golden(dir: &Path, name: &str) -> CompileResult {
    if name == MISSING_FILE_GOLDEN {
        return compile_file(dir.join("no-such-file.hlsl"), &CompileOptions::default());
    }
    let path = dir.join(format!("{name}.hlsl"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let options = options_of(&String::from_utf8_lossy(&bytes));
    compile_file(&path, &options)
}

/// `format` of `result`, with the golden directory taken out of every path so the
/// output is the same on every machine.
fn rendered(result: &CompileResult, format: MessageFormat, dir: &Path) -> String {
    let text = render(format, &[Report::of(result)], false);
    text.replace(&format!("{}/", dir.display()), "")
}

/// Compares `actual` with the file `path`, or writes it there when blessing.
/// Returns a description of the difference.
fn compare(path: &Path, actual: &str, bless: bool) -> Option<String> {
    if bless {
        std::fs::write(path, actual).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return None;
    }
    let expected = std::fs::read_to_string(path).unwrap_or_default();
    (expected != actual).then(|| {
        format!(
            "{} differs.\n--- expected ---\n{expected}--- actual ---\n{actual}",
            path.display()
        )
    })
}

#[test]
fn every_golden_input_gives_its_expected_diagnostics() {
    let dir = golden_dir()
        .canonicalize()
        .expect("tests/diagnostics exists");
    let bless = std::env::var_os("ONESHADER_BLESS").is_some();
    let mut failures = Vec::new();
    let mut covered: Vec<Code> = Vec::new();
    for name in golden_names(&dir) {
        let result = compile_golden(&dir, &name);
        let claimed: Code = name
            .get(..7)
            .and_then(|prefix| prefix.parse().ok())
            .unwrap_or_else(|| panic!("{name}: golden names start with their code, OSHnnnn-"));
        if !result.diagnostics.iter().any(|d| d.code == claimed) {
            failures.push(format!(
                "{name}: does not produce {claimed}:\n{}",
                rendered(&result, MessageFormat::Short, &dir)
            ));
        }
        covered.extend(result.diagnostics.iter().map(|d| d.code));
        for (format, extension) in [
            (MessageFormat::Short, "short"),
            (MessageFormat::Json, "json"),
        ] {
            let actual = rendered(&result, format, &dir);
            let path = dir.join(format!("{name}.{extension}"));
            failures.extend(compare(&path, &actual, bless));
        }
    }
    for info in CATALOG {
        let exempt = NOT_FROM_SOURCE.iter().any(|(code, _)| *code == info.code);
        if !exempt && !covered.contains(&info.code) {
            failures.push(format!(
                "{} ({}) has no golden: add tests/diagnostics/{}-{}.hlsl and run with ONESHADER_BLESS=1",
                info.code, info.name, info.code, info.name
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn exempt_codes_are_in_the_catalog_and_not_covered_twice() {
    for (code, reason) in NOT_FROM_SOURCE {
        assert!(
            CATALOG.iter().any(|info| info.code == *code),
            "{code} is not in the catalog"
        );
        assert!(!reason.is_empty());
        let dir = golden_dir();
        let prefix = code.to_string();
        assert!(
            !golden_names(&dir)
                .iter()
                .any(|name| name.starts_with(&prefix)),
            "{code} has a golden: take it off NOT_FROM_SOURCE"
        );
    }
}

/// The catalog's examples of the backend codes are real inputs: each produces its code.
#[test]
fn backend_catalog_examples_trigger_their_code() {
    for code in [
        codes::SPIRV_UNSUPPORTED,
        codes::MSL_UNSUPPORTED,
        codes::MSL_WAVE_STAGE,
        codes::WGSL_UNSUPPORTED,
        codes::WGSL_WAVE_STAGE,
    ] {
        let info = oneshader::catalog::lookup(code).expect("in the catalog");
        let result =
            oneshader::compile_source("example.hlsl", info.example, &CompileOptions::default());
        assert!(
            result.diagnostics.iter().any(|d| d.code == code),
            "the example of {code} does not produce it:\n{}",
            render(MessageFormat::Short, &[Report::of(&result)], false)
        );
    }
}
