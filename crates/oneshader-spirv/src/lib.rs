//! oneshader-spirv: the SPIR-V backend of oneshader.
//!
//! [`write_entry_point`] (or [`ModuleWriter`], for several entry points) turns one
//! entry point of an IR [`Module`] into a SPIR-V 1.5 module for Vulkan 1.2, written as
//! words section by section (`module.rs`; rspirv provides the `spirv` enums). The output
//! holds that entry point, the functions it reaches and the globals they use, and
//! declares only the capabilities those need. Wave and quad operations become
//! `OpGroupNonUniform*` instructions as DXC chooses them; docs/spirv.md has the full
//! mapping.
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
/// points and targets. To write several entry points of one module, a [`ModuleWriter`]
/// reuses its buffers between them.
pub fn write_entry_point(
    module: &Module,
    info: &ModuleInfo,
    entry: usize,
    options: &Options,
) -> Result<Vec<u32>, Vec<Diagnostic>> {
    ModuleWriter::new(module, info, options).write_entry_point(entry)
}

/// The SPIR-V writer of one module's entry points, each written as a module of its own
/// (as [`write_entry_point`] writes it). It keeps its buffers (words, id tables, type and
/// constant tables) between the entry points, so that writing the next allocates little,
/// and frees them once it has written the module's last entry point.
///
/// ```
/// let module = oneshader_ir::samples::compact();
/// let info = oneshader_ir::ModuleInfo::new(&module);
/// let mut writer = oneshader_spirv::ModuleWriter::new(&module, &info, &Default::default());
/// let bytes = writer.write_entry_point_bytes(0).expect("Compact compiles");
/// assert_eq!(bytes[..4], 0x0723_0203u32.to_le_bytes());
/// ```
pub struct ModuleWriter<'a> {
    /// The IR module.
    module: &'a Module,
    /// Its facts.
    info: &'a ModuleInfo,
    /// The options.
    options: Options,
    /// The buffers of the writer, kept between entry points.
    buffers: writer::Buffers,
}

impl<'a> ModuleWriter<'a> {
    /// The writer of `module`'s entry points, whose facts `info` holds
    /// ([`ModuleInfo::new`]).
    pub fn new(module: &'a Module, info: &'a ModuleInfo, options: &Options) -> Self {
        ModuleWriter {
            module,
            info,
            options: options.clone(),
            buffers: writer::Buffers::default(),
        }
    }

    /// Writes entry point number `entry` as SPIR-V 1.5 words for Vulkan 1.2, as
    /// [`write_entry_point`] does.
    pub fn write_entry_point(&mut self, entry: usize) -> Result<Vec<u32>, Vec<Diagnostic>> {
        let mut words = Vec::new();
        self.write(entry, &mut words)?;
        Ok(words)
    }

    /// Writes entry point number `entry` as [`ModuleWriter::write_entry_point`] does, as
    /// the little-endian bytes of its words (what a `.spv` file holds).
    pub fn write_entry_point_bytes(&mut self, entry: usize) -> Result<Vec<u8>, Vec<Diagnostic>> {
        let mut bytes = Vec::new();
        self.write(entry, &mut bytes)?;
        Ok(bytes)
    }

    /// Writes entry point number `entry`, appending its words (or their bytes) to `words`.
    ///
    /// After the module's last entry point the buffers are freed: nothing will reuse
    /// them, and the other targets' writers can reuse their memory.
    fn write(
        &mut self,
        entry: usize,
        words: &mut impl compact::WordSink,
    ) -> Result<(), Vec<Diagnostic>> {
        let written = writer::Writer::write(
            self.module,
            self.info,
            entry,
            &self.options,
            &mut self.buffers,
            words,
        );
        if entry + 1 >= self.module.entry_points.len() {
            self.buffers = writer::Buffers::default();
        }
        written
    }
}
