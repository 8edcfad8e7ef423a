//! The MSL backend of oneshader: one entry point of an IR [`Module`] to Metal Shading
//! Language 2.4 source text.
//!
//! The output is built from the IR alone: `#include <metal_stdlib>`, the structs, the
//! polyfill helpers the shader needs, the functions the entry point reaches, and the
//! `kernel`/`vertex`/`fragment` function itself. MSL has no program-scope resources,
//! `threadgroup` or per-thread variables, so every global becomes a parameter (resources)
//! or a local (groupshared and `static` data) of the entry function, passed on by
//! reference to the helper functions that use it. How resources are numbered is
//! [`resource_indices`]; identifiers are renamed as [`names`] describes; wave and bit
//! operations map as `docs/msl.md` explains.

mod function;
mod image;
mod layout;
mod math;
pub mod names;
mod polyfill;
mod resources;
mod wave;
mod writer;

#[cfg(test)]
mod tests;

use oneshader_ir::{Diagnostic, Module, ModuleInfo};

pub use resources::{resource_indices, MslResourceIndex, ResourceTable};
pub use writer::ModuleWriter;

/// Options of the MSL backend.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// The `[[buffer(n)]]` index of `constant uint* _buffer_sizes`, an argument giving
    /// the size in bytes of every buffer, indexed by its own `[[buffer(n)]]` index (as
    /// SPIRV-Cross's `spvBufferSizeConstants`). It is needed for `GetDimensions` on
    /// structured and byte-address buffers (runtime array length); without it, such a
    /// shader is an `OSH5101` error. The argument is only declared when used.
    pub buffer_sizes_index: Option<u32>,
}

/// Translates entry point `entry` of `module` (an index into `module.entry_points`) to
/// MSL 2.4 source text.
///
/// The text holds that entry point, the functions it reaches and only the globals they
/// use. Anything MSL can't express is an `OSH5101` diagnostic (`OSH5102` for a wave
/// lane index or count in a vertex shader), with the span of the construct.
///
/// `info` holds the module's facts ([`ModuleInfo::new`]), computed once for all its entry
/// points and targets. To write several entry points of one module, a [`ModuleWriter`]
/// does the work they share once.
pub fn write_entry_point(
    module: &Module,
    info: &ModuleInfo,
    entry: usize,
    options: &Options,
) -> Result<String, Vec<Diagnostic>> {
    ModuleWriter::new(module, info, options).write_entry_point(entry)
}

/// The name the MSL function of entry point `entry` of `module` gets: its HLSL name
/// unless that is reserved in MSL (`main` becomes `main_`). `None` when there is no such
/// entry point.
pub fn entry_point_name(module: &Module, entry: usize) -> Option<String> {
    module
        .entry_points
        .get(entry)
        .map(|entry_point| names::sanitize(&entry_point.name))
}
