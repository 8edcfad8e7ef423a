//! Tests of the WGSL backend on hand-built IR modules. WGSL is checked by Dawn's Tint
//! (oneshader-harness, node + SwiftShader) and, for shaders without subgroups, by naga.

mod builder;
mod compact;
mod control_flow;
mod io;
mod layout;
mod wave;

use oneshader_ir::{Diagnostic, Module, ModuleInfo};

use crate::{write_entry_point, Options};

/// The WGSL of entry point 0, failing the test on diagnostics.
fn wgsl(module: &Module) -> String {
    wgsl_of(module, 0)
}

fn wgsl_of(module: &Module, entry: usize) -> String {
    match write_entry_point(module, &ModuleInfo::new(module), entry, &Options::default()) {
        Ok(text) => text,
        Err(diagnostics) => panic!("unexpected diagnostics: {diagnostics:#?}"),
    }
}

/// The diagnostics of entry point 0, failing the test if it compiles.
fn errors(module: &Module) -> Vec<Diagnostic> {
    match write_entry_point(module, &ModuleInfo::new(module), 0, &Options::default()) {
        Ok(text) => panic!("expected diagnostics, got:\n{text}"),
        Err(diagnostics) => diagnostics,
    }
}

/// Asserts that Dawn's Tint accepts `text`.
fn assert_tint_accepts(text: &str) {
    if let Err(error) = oneshader_harness::validate_wgsl(text) {
        panic!("Tint rejects the WGSL:\n{error}\n--- WGSL ---\n{text}");
    }
}

/// Asserts that naga parses and validates `text` (only for shaders without subgroups).
fn assert_naga_accepts(text: &str) {
    let module = match naga::front::wgsl::parse_str(text) {
        Ok(module) => module,
        Err(error) => panic!(
            "naga rejects the WGSL:\n{}\n--- WGSL ---\n{text}",
            error.emit_to_string(text)
        ),
    };
    let mut validator = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    );
    if let Err(error) = validator.validate(&module) {
        panic!(
            "naga's validator rejects the WGSL:\n{}\n--- WGSL ---\n{text}",
            error.emit_to_string(text)
        );
    }
}

#[test]
fn a_missing_entry_point_is_an_error_not_a_panic() {
    let module = Module::default();
    let diagnostics =
        match write_entry_point(&module, &ModuleInfo::new(&module), 3, &Options::default()) {
            Ok(text) => panic!("unexpected output {text}"),
            Err(d) => d,
        };
    assert_eq!(diagnostics[0].code, oneshader_ir::codes::WGSL_UNSUPPORTED);
}

/// Entry points share their module's names only when that can't change one: an entry
/// point named like a global is named first, and the global takes a number instead, as
/// when each entry point named everything itself.
#[test]
fn an_entry_point_named_like_a_global_renames_the_global() {
    let mut module = oneshader_ir::samples::compact();
    let mut second = module.entry_points[0].clone();
    second.name = "Kept".into();
    module.entry_points.push(second);
    let info = ModuleInfo::new(&module);
    let writer = crate::ModuleWriter::new(&module, &info, &Options::default());
    let first = writer.write_entry_point(0).expect("CSMain");
    let renamed = writer.write_entry_point(1).expect("Kept");
    assert!(
        first.contains("var<storage, read_write> Kept: array<f32>;"),
        "{first}"
    );
    assert!(renamed.contains("fn Kept("), "{renamed}");
    assert!(
        renamed.contains("var<storage, read_write> Kept_1: array<f32>;"),
        "{renamed}"
    );
    assert_eq!(
        first,
        wgsl_of(&module, 0),
        "one writer for the module, or one per entry point"
    );
}
