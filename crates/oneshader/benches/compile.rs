//! Compile-time benchmarks (docs/performance.md): `cargo bench -p oneshader --bench compile`.
//!
//! - `compile/*`: HLSL to SPIR-V, MSL and WGSL in process, for Compact, the 500-line kernel
//!   set (`shaders/Kernels.hlsl`) and generated shaders of 1k, 10k and 100k lines;
//! - `naga/*`: naga 30 parsing and validating our own WGSL output of the same shader and
//!   writing SPIR-V and MSL from it, the reference for the in-process ratio. Each entry point
//!   is its own WGSL module, so naga does the same work per entry point as we do.

#![allow(
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing,
    reason = "test code: a failed expectation is a failed test"
)]

use std::hint::black_box;
use std::path::Path;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use oneshader::{compile_source, CompileOptions, CompileResult, Target};

#[path = "common/naga.rs"]
mod naga_job;
use naga_job::{naga_compile, naga_input};

/// A shader of the repository's `shaders/` folder.
fn repository_shader(name: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shaders")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn compile_all(name: &str, text: &str) -> CompileResult {
    let result = compile_source(name, text, &CompileOptions::default());
    assert!(result.success(), "{name}: {:?}", result.short_diagnostics());
    result
}

/// Our WGSL output of every entry point of `text`, naga's input.
fn wgsl_of(name: &str, text: &str) -> Vec<String> {
    let options = CompileOptions {
        targets: vec![Target::Wgsl],
        ..CompileOptions::default()
    };
    let result = compile_source(name, text, &options);
    assert!(result.success(), "{name}: {:?}", result.short_diagnostics());
    result
        .blobs
        .iter()
        .map(|blob| naga_input(blob.as_text().unwrap_or_default()))
        .collect()
}

fn named_shaders() -> Vec<(&'static str, String)> {
    vec![
        ("Compact", repository_shader("Compact.hlsl")),
        ("Kernels", repository_shader("Kernels.hlsl")),
    ]
}

fn ours_against_naga(c: &mut Criterion) {
    let mut group = c.benchmark_group("in_process");
    for (name, text) in named_shaders() {
        let wgsl = wgsl_of(name, &text);
        group.bench_with_input(BenchmarkId::new("oneshader", name), &text, |b, text| {
            b.iter(|| compile_all(name, black_box(text)))
        });
        group.bench_with_input(BenchmarkId::new("naga", name), &wgsl, |b, wgsl| {
            b.iter(|| {
                for module in wgsl {
                    black_box(naga_compile(black_box(module)).unwrap_or_else(|e| panic!("{e}")));
                }
            })
        });
    }
    group.finish();
}

fn scaling(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling");
    group.sample_size(10);
    for lines in [1_000, 10_000, 100_000] {
        let text = oneshader_harness::generated_shader(lines);
        group.throughput(Throughput::Elements(text.lines().count() as u64));
        group.bench_with_input(BenchmarkId::new("lines", lines), &text, |b, text| {
            b.iter(|| compile_all("generated.hlsl", black_box(text)))
        });
    }
    group.finish();
}

criterion_group!(benches, ours_against_naga, scaling);
criterion_main!(benches);
