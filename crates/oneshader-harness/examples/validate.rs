//! Validates compiled shader files with the same checks the tests use:
//! `.spv` with `spirv-val --target-env vulkan1.2`, `.wgsl` with Tint (Dawn's
//! `createShaderModule` + `getCompilationInfo`), `.metal` with the MSL check (clang
//! against the harness's `metal_stdlib` header).
//!
//! ```sh
//! cargo run -p oneshader-harness --example validate -- out/*.spv out/*.wgsl out/*.metal
//! ```
//!
//! Prints `ok <validator> <file>` or `FAIL <validator> <file>` and the validator's
//! messages per file; exits 1 if any file failed or has another extension, 2 without files.

use std::path::Path;
use std::process::ExitCode;

use oneshader_harness::{msl::check_msl, spirv_val, validate_wgsl};

fn main() -> ExitCode {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        eprintln!("usage: validate FILE.{{spv,wgsl,metal}}...");
        return ExitCode::from(2);
    }
    let mut failed = 0;
    for file in &files {
        let (validator, result) = validate(Path::new(file));
        match result {
            Ok(()) => println!("ok {validator} {file}"),
            Err(message) => {
                failed += 1;
                println!("FAIL {validator} {file}\n{message}");
            }
        }
    }
    println!("validated {} files: {failed} failed", files.len());
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// The validator for `path` by its extension, and its verdict.
fn validate(path: &Path) -> (&'static str, Result<(), String>) {
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let validator = match extension {
        "spv" => "spirv-val",
        "wgsl" => "tint",
        "metal" => "msl-check",
        _ => return ("none", Err("not a .spv, .wgsl or .metal file".into())),
    };
    let result = match extension {
        "spv" => std::fs::read(path)
            .map_err(|e| format!("cannot read: {e}"))
            .and_then(|bytes| {
                if bytes.len() % 4 != 0 {
                    return Err("not a whole number of 32-bit words".into());
                }
                let words: Vec<u32> = bytes
                    .chunks_exact(4)
                    .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                    .collect();
                spirv_val(&words)
            }),
        _ => std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read: {e}"))
            .and_then(|text| {
                if extension == "wgsl" {
                    validate_wgsl(&text)
                } else {
                    check_msl(&text)
                }
            }),
    };
    (validator, result)
}
