//! The calls into the front end and the backends, kept in one place so that the
//! rest of the facade sees only IR modules, bytes and diagnostics.

use oneshader_hlsl::{
    FrontendOptions, FsLoader, LowerOptions, PreprocessOptions, ShaderKind, ShaderTarget,
};
use oneshader_ir::{Diagnostic, FileId, Module, ModuleInfo, SourceMap};

use crate::options::CompileOptions;
use crate::profile::{Profile, ProfileKind};
use crate::target::Target;

/// Runs the HLSL front end on `main` (already in `sources`); includes are read from disk.
pub(crate) fn run_front_end(
    sources: &mut SourceMap,
    main: FileId,
    options: &CompileOptions,
) -> (Option<Module>, Vec<Diagnostic>) {
    let frontend = FrontendOptions {
        preprocess: PreprocessOptions {
            defines: options
                .defines
                .iter()
                .map(|(name, value)| (name.clone(), Some(value.clone())))
                .collect(),
            include_dirs: options
                .include_dirs
                .iter()
                .map(|dir| dir.display().to_string())
                .collect(),
            target: options.profile.map(shader_target),
        },
        lower: LowerOptions {
            entry_point: options.entry_point.clone(),
            stage: options.profile.and_then(|p| p.kind.stage()),
            binding_shifts: options.binding_shifts.clone(),
        },
    };
    let (module, diagnostics) = oneshader_hlsl::compile(sources, main, &frontend, &FsLoader);
    (module, diagnostics.into_vec())
}

/// The preprocessor's view of a profile (for the `__SHADER_TARGET_*` macros).
fn shader_target(profile: Profile) -> ShaderTarget {
    ShaderTarget {
        stage: match profile.kind {
            ProfileKind::Vertex => ShaderKind::Vertex,
            ProfileKind::Pixel => ShaderKind::Pixel,
            ProfileKind::Compute => ShaderKind::Compute,
            ProfileKind::Library => ShaderKind::Library,
        },
        major: u32::from(profile.major),
        minor: u32::from(profile.minor),
    }
}

/// The backends of one module's compilation, each set up once for all its entry points
/// (the MSL and WGSL writers work out the names and layouts they share).
pub(crate) struct Backends<'a> {
    module: &'a Module,
    info: &'a ModuleInfo,
    /// The MSL writer, when MSL is a target.
    msl: Option<oneshader_msl::ModuleWriter<'a>>,
    /// The WGSL writer, when WGSL is a target.
    wgsl: Option<oneshader_wgsl::ModuleWriter<'a>>,
    /// The SPIR-V writer (which keeps its buffers between entry points), when SPIR-V is
    /// a target.
    spirv: Option<oneshader_spirv::ModuleWriter<'a>>,
}

impl<'a> Backends<'a> {
    /// The backends of `targets` for `module`, whose facts `info` holds.
    pub(crate) fn new(module: &'a Module, info: &'a ModuleInfo, targets: &[Target]) -> Self {
        let msl = targets.contains(&Target::Msl).then(|| {
            let options = oneshader_msl::Options {
                buffer_sizes_index: Some(msl_buffer_sizes_index(module)),
            };
            oneshader_msl::ModuleWriter::new(module, info, &options)
        });
        let wgsl = targets
            .contains(&Target::Wgsl)
            .then(|| oneshader_wgsl::ModuleWriter::new(module, info, &Default::default()));
        let spirv = targets
            .contains(&Target::SpirV)
            .then(|| oneshader_spirv::ModuleWriter::new(module, info, &Default::default()));
        Backends {
            module,
            info,
            msl,
            wgsl,
            spirv,
        }
    }

    /// Writes entry point `entry_index` for `target`: SPIR-V as little-endian words, MSL
    /// and WGSL as UTF-8 text.
    pub(crate) fn run(
        &mut self,
        entry_index: usize,
        target: Target,
    ) -> Result<Vec<u8>, Vec<Diagnostic>> {
        let (module, info) = (self.module, self.info);
        match target {
            Target::SpirV => match &mut self.spirv {
                Some(spirv) => spirv.write_entry_point_bytes(entry_index),
                None => oneshader_spirv::ModuleWriter::new(module, info, &Default::default())
                    .write_entry_point_bytes(entry_index),
            },
            Target::Msl => match &self.msl {
                Some(msl) => msl.write_entry_point(entry_index),
                None => {
                    let options = oneshader_msl::Options {
                        buffer_sizes_index: Some(msl_buffer_sizes_index(module)),
                    };
                    oneshader_msl::write_entry_point(module, info, entry_index, &options)
                }
            }
            .map(String::into_bytes),
            Target::Wgsl => match &self.wgsl {
                Some(wgsl) => wgsl.write_entry_point(entry_index),
                None => oneshader_wgsl::write_entry_point(
                    module,
                    info,
                    entry_index,
                    &Default::default(),
                ),
            }
            .map(String::into_bytes),
        }
    }
}

/// The name of entry point `entry_index`'s function in `target`'s output.
pub(crate) fn target_entry_point_name(
    module: &Module,
    entry_index: usize,
    target: Target,
) -> String {
    let renamed = match target {
        Target::SpirV => None,
        Target::Msl => oneshader_msl::entry_point_name(module, entry_index),
        Target::Wgsl => oneshader_wgsl::entry_point_name(module, entry_index),
    };
    renamed
        .or_else(|| module.entry_points.get(entry_index).map(|e| e.name.clone()))
        .unwrap_or_default()
}

/// The `[[buffer(n)]]` index of MSL's buffer-sizes argument (`GetDimensions` on
/// buffers): the first buffer index after the module's own buffers.
pub(crate) fn msl_buffer_sizes_index(module: &Module) -> u32 {
    oneshader_msl::resource_indices(module)
        .into_iter()
        .flatten()
        .filter(|index| index.table == oneshader_msl::ResourceTable::Buffer)
        .map(|index| index.index + 1)
        .max()
        .unwrap_or(0)
}

/// The Metal argument-table index of each global variable, indexed by handle (the
/// table follows from the resource's kind).
pub(crate) fn msl_resource_indices(module: &Module) -> Vec<Option<u32>> {
    oneshader_msl::resource_indices(module)
        .into_iter()
        .map(|index| index.map(|i| i.index))
        .collect()
}
