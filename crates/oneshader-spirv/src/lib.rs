//! oneshader-spirv: the SPIR-V backend of oneshader.
//!
//! [`write_entry_point`] turns one entry point of an IR [`Module`] into a SPIR-V 1.5
//! module for Vulkan 1.2, written as words section by section (`module.rs`; rspirv
//! provides the `spirv` enums). The output holds that entry point, the functions it
//! reaches and the globals they use, and declares only the capabilities those need. Wave and quad operations become `OpGroupNonUniform*`
//! instructions as DXC chooses them; docs/spirv.md has the full mapping.
//!
//! ```
//! let module = oneshader_ir::samples::compact();
//! let info = oneshader_ir::ModuleInfo::new(&module);
//! let words = oneshader_spirv::write_entry_point(&module, &info, 0, &Default::default())
//!     .expect("Compact compiles");
//! assert_eq!(words[0], 0x0723_0203);
//! ```

mod compact;
mod error;
mod expression;
mod function;
mod image;
mod interface;
mod known;
mod math;
mod module;
mod ssa;
mod statement;
mod types;
mod wave;
mod writer;

#[cfg(test)]
mod tests;

use oneshader_ir::{Diagnostic, Module, ModuleInfo};

/// Settings of the SPIR-V backend.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Leave out `OpName` debug names (of globals, functions and locals).
    pub strip_names: bool,
    /// Write the helper functions the entry point calls as SPIR-V functions, as a
    /// debug build would; by default each call is inlined (`oneshader_ir::inline`),
    /// as DXC and glslang do, except repeated calls of large helpers.
    pub keep_functions: bool,
}

/// Writes entry point number `entry` of `module` as SPIR-V 1.5 words for Vulkan 1.2.
///
/// Anything the backend cannot express is an `OSH5001` diagnostic naming the
/// construct, with the span of the offending expression where it has one.
///
/// `info` holds the module's facts ([`ModuleInfo::new`]), computed once for all its entry
/// points and targets.
pub fn write_entry_point(
    module: &Module,
    info: &ModuleInfo,
    entry: usize,
    options: &Options,
) -> Result<Vec<u32>, Vec<Diagnostic>> {
    writer::Writer::write(module, info, entry, options)
}
