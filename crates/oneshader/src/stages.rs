//! The calls into the front end and the backends, kept in one place so that the
//! rest of the facade sees only IR modules, bytes and diagnostics.

use oneshader_ir::{codes, Diagnostic, FileId, Module, SourceMap};

use crate::options::CompileOptions;
use crate::target::Target;

/// Runs the HLSL front end on `main` (already in `sources`); includes are read from disk.
//
// SHIM: `oneshader_hlsl::compile` (with `FrontendOptions` and `FsLoader`) does not
// exist yet. When it lands, replace the body with:
//     let frontend = oneshader_hlsl::FrontendOptions {
//         defines: options.defines.clone(),
//         include_dirs: options.include_dirs.clone(),
//         entry_point: options.entry_point.clone(),
//         profile: options.profile,
//     };
//     let (module, diagnostics) =
//         oneshader_hlsl::compile(sources, main, &frontend, &oneshader_hlsl::FsLoader);
//     (module, diagnostics.into_vec())
pub(crate) fn run_front_end(
    sources: &mut SourceMap,
    main: FileId,
    options: &CompileOptions,
) -> (Option<Module>, Vec<Diagnostic>) {
    let _ = (&sources, main, options);
    let missing = Diagnostic::error(
        codes::UNSUPPORTED_CONSTRUCT,
        None,
        "The HLSL front end is not built into this version of oneshader yet.",
    );
    (None, vec![missing])
}

/// Writes entry point `entry_index` of `module` for `target`: SPIR-V as
/// little-endian words, MSL and WGSL as UTF-8 text.
//
// SHIM: the backends' `write_entry_point` functions do not exist yet. When they land:
//     match target {
//         Target::SpirV => oneshader_spirv::write_entry_point(module, entry_index, &Default::default())
//             .map(|words| words.iter().flat_map(|w| w.to_le_bytes()).collect()),
//         Target::Msl => oneshader_msl::write_entry_point(module, entry_index, &Default::default())
//             .map(String::into_bytes),
//         Target::Wgsl => oneshader_wgsl::write_entry_point(module, entry_index, &Default::default())
//             .map(String::into_bytes),
//     }
pub(crate) fn run_backend(
    module: &Module,
    entry_index: usize,
    target: Target,
) -> Result<Vec<u8>, Vec<Diagnostic>> {
    let _ = (module, entry_index);
    let code = match target {
        Target::SpirV => codes::SPIRV_UNSUPPORTED,
        Target::Msl => codes::MSL_UNSUPPORTED,
        Target::Wgsl => codes::WGSL_UNSUPPORTED,
    };
    Err(vec![Diagnostic::error(
        code,
        None,
        format!("The {target} backend is not built into this version of oneshader yet."),
    )])
}

/// The Metal argument-table index of each global variable, indexed by handle.
//
// SHIM: `oneshader_msl::resource_indices` does not exist yet; when it lands, map its
// `MslResourceIndex` values to their index number here.
pub(crate) fn msl_resource_indices(module: &Module) -> Vec<Option<u32>> {
    vec![None; module.global_variables.len()]
}
