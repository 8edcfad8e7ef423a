//! Tests of whole outputs: hand-built IR modules, the properties of their MSL, and the
//! MSL check (`oneshader_harness::msl::check_msl`, clang against a Metal header).

mod build;
mod control;
mod io;
mod waves;

use oneshader_harness::msl::check_msl;
use oneshader_ir::{codes, samples, Diagnostic, Module, ModuleInfo};

use crate::{write_entry_point, Options};

/// Writes entry `entry` and type-checks the MSL.
pub fn checked(module: &Module, entry: usize, options: &Options) -> String {
    let text = write_entry_point(module, &ModuleInfo::new(module), entry, options)
        .unwrap_or_else(|d| panic!("MSL output failed: {d:#?}"));
    if let Err(errors) = check_msl(&text) {
        panic!("MSL check failed:\n{errors}\n--- source ---\n{text}");
    }
    text
}

/// Writes entry `entry`, expecting diagnostics.
pub fn failing(module: &Module, entry: usize, options: &Options) -> Vec<Diagnostic> {
    match write_entry_point(module, &ModuleInfo::new(module), entry, options) {
        Ok(text) => panic!("expected errors, got:\n{text}"),
        Err(diagnostics) => diagnostics,
    }
}

#[test]
fn compact_has_the_expected_signature_and_calls() {
    let text = checked(&samples::compact(), 0, &Options::default());
    assert!(text.starts_with("#include <metal_stdlib>\nusing namespace metal;\n"));
    assert!(text.contains(
        "kernel void CSMain(uint3 id [[thread_position_in_grid]], const device float* Values [[buffer(0)]], device float* Kept [[buffer(1)]], device atomic_uint* Count [[buffer(2)]])"
    ), "{text}");
    for call in [
        "simd_prefix_exclusive_sum(uint(keep))",
        "simd_sum(uint(keep))",
        "simd_is_first()",
        "atomic_fetch_add_explicit(&Count[0u], waveCount, memory_order_relaxed)",
        "simd_broadcast_first(waveBase)",
        "Kept[waveBase + laneOffset] = v;",
    ] {
        assert!(text.contains(call), "missing {call} in:\n{text}");
    }
    assert!(
        text.len() <= 1067,
        "{} bytes, over the spec's 1067",
        text.len()
    );
}

#[test]
fn missing_entry_point_is_an_error() {
    let diagnostics = failing(&samples::compact(), 3, &Options::default());
    assert_eq!(diagnostics[0].code, codes::ENTRY_POINT_NOT_FOUND);
}

/// Entry points share their module's names only when that can't change one: an entry
/// point named like a global is named first, and the global takes a number instead, as
/// when each entry point named everything itself.
#[test]
fn an_entry_point_named_like_a_global_renames_the_global() {
    let mut module = samples::compact();
    let mut second = module.entry_points[0].clone();
    second.name = "Kept".into();
    module.entry_points.push(second);
    let info = ModuleInfo::new(&module);
    let writer = crate::ModuleWriter::new(&module, &info, &Options::default());
    let first = writer.write_entry_point(0).expect("CSMain");
    let renamed = writer.write_entry_point(1).expect("Kept");
    assert!(
        first.contains("device float* Kept [[buffer(1)]]"),
        "{first}"
    );
    assert!(renamed.contains("kernel void Kept("), "{renamed}");
    assert!(
        renamed.contains("device float* Kept_1 [[buffer(1)]]"),
        "{renamed}"
    );
    assert_eq!(
        first,
        checked(&module, 0, &Options::default()),
        "one writer for the module, or one per entry point"
    );
}
