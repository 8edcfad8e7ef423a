//! oneshader-wgsl: the WGSL backend of oneshader.
//!
//! [`write_entry_point`] turns one entry point of an IR [`Module`] into WGSL text as
//! WebGPU (Dawn's Tint) accepts it: the entry point, the functions it reaches and the
//! globals they use. It walks the IR only.
//!
//! - Wave and quad operations map to WGSL's `subgroups` extension; a shader using any of
//!   them starts with `enable subgroups;` and `diagnostic(off, subgroup_uniformity);`
//!   (HLSL allows wave operations in non-uniform control flow). Operations WGSL lacks are
//!   exact polyfills (see docs/wgsl.md). WebGPU has no subgroup functions in vertex
//!   shaders: that is [`codes::WGSL_WAVE_STAGE`].
//! - Resources are `@group(set) @binding(binding)` variables; a buffer used atomically has
//!   `atomic<u32>`/`atomic<i32>` elements and all its loads and stores become
//!   `atomicLoad`/`atomicStore`.
//! - Structs in buffers get `@size` attributes so that WGSL's layout equals the IR's
//!   offsets; a layout WGSL cannot express is [`codes::WGSL_UNSUPPORTED`], naming the member.
//! - Identifiers are renamed as [`names`] describes.
//!
//! [`codes::WGSL_WAVE_STAGE`]: oneshader_ir::codes::WGSL_WAVE_STAGE
//! [`codes::WGSL_UNSUPPORTED`]: oneshader_ir::codes::WGSL_UNSUPPORTED

mod expressions;
mod image;
mod layout;
pub mod names;
mod statements;
mod wave;
mod writer;

#[cfg(test)]
mod tests;

use oneshader_ir::{Diagnostic, Module, ModuleInfo};

pub use writer::ModuleWriter;

/// Options of the WGSL backend (none yet).
#[derive(Clone, Debug, Default)]
pub struct Options {}

/// Writes entry point number `entry` of `module` as a WGSL module.
///
/// The output holds that entry point, the functions it reaches and only the globals they
/// use. Anything WGSL cannot express is an error diagnostic ([`codes::WGSL_UNSUPPORTED`],
/// [`codes::WGSL_WAVE_STAGE`]) at the span of the construct; this function never panics.
///
/// `info` holds the module's facts ([`ModuleInfo::new`]), computed once for all its entry
/// points and targets. To write several entry points of one module, a [`ModuleWriter`]
/// does the work they share once.
///
/// [`codes::WGSL_UNSUPPORTED`]: oneshader_ir::codes::WGSL_UNSUPPORTED
/// [`codes::WGSL_WAVE_STAGE`]: oneshader_ir::codes::WGSL_WAVE_STAGE
pub fn write_entry_point(
    module: &Module,
    info: &ModuleInfo,
    entry: usize,
    options: &Options,
) -> Result<String, Vec<Diagnostic>> {
    ModuleWriter::new(module, info, options).write_entry_point(entry)
}

/// The name the WGSL entry function of entry point `entry` of `module` gets: its HLSL
/// name unless that is reserved in WGSL. `None` when there is no such entry point.
pub fn entry_point_name(module: &Module, entry: usize) -> Option<String> {
    module
        .entry_points
        .get(entry)
        .map(|entry_point| writer::entry_function_name(&entry_point.name))
}
