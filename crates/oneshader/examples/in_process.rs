//! One in-process compilation, for instruction counts under valgrind (benches/compare.sh):
//! `in_process oneshader|naga FILE.hlsl`.
//!
//! - `oneshader`: FILE to SPIR-V, MSL and WGSL, every entry point;
//! - `naga`: naga 30 parses and validates our WGSL output of each entry point of FILE and
//!   writes SPIR-V and MSL, as the criterion bench `in_process/naga` does.
//!
//! The measured work runs in `measured_oneshader` / `measured_naga`, so that
//! `valgrind --tool=callgrind --toggle-collect='*measured_*'` counts it alone (not the
//! process start, nor the WGSL that naga is given).

use std::hint::black_box;
use std::process::ExitCode;

use oneshader::{compile_source, CompileOptions, Target};

#[path = "../benches/common/naga.rs"]
mod naga_job;
use naga_job::{naga_compile, naga_input};

#[inline(never)]
fn measured_oneshader(name: &str, text: &str) -> usize {
    let result = compile_source(name, text, &CompileOptions::default());
    result.blobs.iter().map(|b| b.data.len()).sum()
}

#[inline(never)]
fn measured_naga(modules: &[String]) -> Result<usize, String> {
    let mut bytes = 0;
    for wgsl in modules {
        let (spirv, msl) = naga_compile(wgsl)?;
        bytes += 4 * spirv.len() + msl.len();
    }
    Ok(bytes)
}

fn run() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [which, path] = args.as_slice() else {
        return Err("usage: in_process oneshader|naga FILE.hlsl".into());
    };
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let bytes = match which.as_str() {
        "oneshader" => measured_oneshader(path, black_box(&text)),
        "naga" => {
            let options = CompileOptions {
                targets: vec![Target::Wgsl],
                ..CompileOptions::default()
            };
            let result = compile_source(path, &text, &options);
            if !result.success() {
                return Err(format!("{path}: {:?}", result.short_diagnostics()));
            }
            let modules: Vec<String> = result
                .blobs
                .iter()
                .filter_map(|b| b.as_text().map(naga_input))
                .collect();
            measured_naga(black_box(&modules))?
        }
        other => return Err(format!("{other}: expected oneshader or naga")),
    };
    println!("{bytes} bytes written");
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("in_process: {message}");
            ExitCode::FAILURE
        }
    }
}
