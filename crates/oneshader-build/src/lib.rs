//! Compile and check HLSL shaders from a build script with oneshader: no C++ toolchain,
//! no DXC download. The outputs and layouts land in a generated Rust module.
//!
//! ```no_run
//! // build.rs
//! use oneshader_build::{Builder, Target};
//!
//! fn main() {
//!     Builder::new()
//!         .shader("shaders/compact.hlsl")
//!         .targets(&[Target::SpirV, Target::Msl, Target::Wgsl])
//!         .define("WG", "64")
//!         .build()
//!         .unwrap();
//! }
//! ```
//!
//! ```ignore
//! // src/main.rs
//! mod shaders {
//!     include!(concat!(env!("OUT_DIR"), "/shaders.rs"));
//! }
//! let words: &[u32] = shaders::compact::cs_main::SPIRV;
//! let wgsl: &str = shaders::compact::cs_main::WGSL;
//! let [x, _, _] = shaders::compact::cs_main::WORKGROUP_SIZE;
//! ```
//!
//! Per shader file the module has a module named after the file (`compact`), and in it
//! one per entry point (`cs_main`) with `ENTRY_POINT`, `STAGE`, `WORKGROUP_SIZE`,
//! `SUBGROUP_OPERATIONS` (as `VkSubgroupFeatureFlags`), `SPIRV: &[u32]`, `MSL`/`WGSL:
//! &str` with `MSL_ENTRY_POINT`/`WGSL_ENTRY_POINT`, `BINDINGS`, `BIND_GROUP_COUNT` and
//! `REQUIRED_FEATURES` (WebGPU). With the `wgpu` feature it also has
//! `bind_group_layout_entries(group) -> Vec<wgpu::BindGroupLayoutEntry>` and
//! `required_features() -> wgpu::Features`.
//!
//! The build script prints `cargo:rerun-if-changed` for every file a shader reads (its
//! `#include`s too), each warning as a `cargo:warning` line, and on an error the
//! diagnostics (`file(line,col): error OSHnnnn: …`) on stderr, which cargo shows when the
//! build fails.

mod codegen;
mod names;

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

use oneshader::report::{render, MessageFormat, Report};
use oneshader::{
    compile_file, CompileOptions, CompileResult, EntryLayout, PipelineLayout, Profile,
    WebGpuLayoutOptions,
};

pub use oneshader::Target;

use codegen::{CodegenOptions, EntryCode, ShaderCode};

/// One shader file to compile.
#[derive(Clone, Debug)]
struct ShaderSpec {
    path: PathBuf,
    entry_point: Option<String>,
    profile: Option<String>,
}

/// Compiles shaders and writes the Rust module that holds their outputs.
#[derive(Clone, Debug)]
pub struct Builder {
    shaders: Vec<ShaderSpec>,
    targets: Vec<Target>,
    defines: Vec<(String, String)>,
    include_dirs: Vec<PathBuf>,
    webgpu: WebGpuLayoutOptions,
    out_dir: Option<PathBuf>,
    file_name: String,
    cargo_instructions: bool,
    wgpu: bool,
}

impl Default for Builder {
    fn default() -> Self {
        Builder::new()
    }
}

impl Builder {
    /// A builder with no shaders, every target, and output to `$OUT_DIR/shaders.rs`.
    pub fn new() -> Self {
        Builder {
            shaders: Vec::new(),
            targets: Target::ALL.to_vec(),
            defines: Vec::new(),
            include_dirs: Vec::new(),
            webgpu: WebGpuLayoutOptions::default(),
            out_dir: None,
            file_name: "shaders.rs".into(),
            cargo_instructions: true,
            wgpu: cfg!(feature = "wgpu"),
        }
    }

    /// Adds a shader file (relative to the package root). Every entry point marked
    /// `[shader("…")]` is compiled.
    pub fn shader(mut self, path: impl AsRef<Path>) -> Self {
        self.shaders.push(ShaderSpec {
            path: path.as_ref().to_path_buf(),
            entry_point: None,
            profile: None,
        });
        self
    }

    /// Adds a shader file with one entry point and a profile, as `-E entry -T profile`:
    /// for shaders without `[shader("…")]` attributes.
    pub fn shader_entry(
        mut self,
        path: impl AsRef<Path>,
        entry_point: &str,
        profile: &str,
    ) -> Self {
        self.shaders.push(ShaderSpec {
            path: path.as_ref().to_path_buf(),
            entry_point: Some(entry_point.into()),
            profile: Some(profile.into()),
        });
        self
    }

    /// The languages to generate (every one by default).
    pub fn targets(mut self, targets: &[Target]) -> Self {
        self.targets = targets.to_vec();
        self
    }

    /// Defines a preprocessor macro for every shader, as `-D name=value`.
    pub fn define(mut self, name: &str, value: &str) -> Self {
        self.defines.push((name.into(), value.into()));
        self
    }

    /// Adds a directory searched by `#include`, as `-I dir`.
    pub fn include_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.include_dirs.push(dir.as_ref().to_path_buf());
        self
    }

    /// Storage buffers the application binds read-only in WebGPU (the layout's
    /// `read-only-storage`); an error if a shader writes one.
    pub fn read_only_storage_buffer(mut self, name: &str) -> Self {
        self.webgpu.read_only_storage_buffers.push(name.into());
        self
    }

    /// Writes the module into `dir` instead of `$OUT_DIR`.
    pub fn out_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// The generated file's name (`shaders.rs` by default).
    pub fn file_name(mut self, name: &str) -> Self {
        self.file_name = name.into();
        self
    }

    /// Whether to print `cargo:` instructions (on by default; off outside build scripts).
    pub fn cargo_instructions(mut self, on: bool) -> Self {
        self.cargo_instructions = on;
        self
    }

    /// Whether to generate the `wgpu` helper functions (on when the `wgpu` feature is).
    pub fn wgpu(mut self, on: bool) -> Self {
        self.wgpu = on;
        self
    }

    /// Compiles every shader and writes the module. Any error diagnostic fails the build;
    /// the module is written only when every shader compiled.
    pub fn build(self) -> Result<Generated, Error> {
        let out_dir = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or(Error::NoOutDir)?,
        };
        let mut compiled = Vec::new();
        let mut dependencies = BTreeSet::new();
        let mut failed = Vec::new();
        for spec in &self.shaders {
            let result = self.compile(spec)?;
            dependencies.insert(spec.path.clone());
            for (_, file) in result.sources.files() {
                if Path::new(&file.name).is_file() {
                    dependencies.insert(PathBuf::from(&file.name));
                }
            }
            let warnings: Vec<String> = result
                .diagnostics
                .iter()
                .filter(|d| !d.is_error())
                .map(|d| d.to_short_string(&result.sources))
                .collect();
            if self.cargo_instructions {
                for line in &warnings {
                    println!("cargo:warning={line}");
                }
            }
            if !result.success() {
                failed.push(result);
                continue;
            }
            compiled.push((spec, result));
        }
        if self.cargo_instructions {
            for path in &dependencies {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
        if !failed.is_empty() {
            let reports: Vec<Report<'_>> = failed.iter().map(Report::of).collect();
            eprint!("{}", render(MessageFormat::Rich, &reports, false));
            let diagnostics = failed
                .iter()
                .flat_map(|r| {
                    r.diagnostics
                        .iter()
                        .filter(|d| d.is_error())
                        .map(|d| d.to_short_string(&r.sources))
                })
                .collect();
            return Err(Error::Compile { diagnostics });
        }

        let text = self.generate(&compiled)?;
        std::fs::create_dir_all(&out_dir).map_err(|source| Error::Write {
            path: out_dir.clone(),
            source,
        })?;
        let path = out_dir.join(&self.file_name);
        std::fs::write(&path, text).map_err(|source| Error::Write {
            path: path.clone(),
            source,
        })?;
        Ok(Generated {
            path,
            dependencies: dependencies.into_iter().collect(),
        })
    }

    fn compile(&self, spec: &ShaderSpec) -> Result<CompileResult, Error> {
        let profile = match &spec.profile {
            Some(text) => Some(text.parse::<Profile>().map_err(|_| Error::Profile {
                path: spec.path.clone(),
                profile: text.clone(),
            })?),
            None => None,
        };
        let options = CompileOptions {
            targets: self.targets.clone(),
            entry_point: spec.entry_point.clone(),
            profile,
            defines: self.defines.clone(),
            include_dirs: self.include_dirs.clone(),
            ..CompileOptions::default()
        };
        Ok(compile_file(&spec.path, &options))
    }

    fn generate(&self, compiled: &[(&ShaderSpec, CompileResult)]) -> Result<String, Error> {
        let mut shaders: Vec<ShaderCode<'_>> = Vec::new();
        for (spec, result) in compiled {
            let stem = spec
                .path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            let module = names::snake_case(&stem);
            if let Some(other) = shaders.iter().find(|s| s.module == module) {
                return Err(Error::DuplicateModule {
                    module,
                    first: PathBuf::from(&other.path),
                    second: spec.path.clone(),
                });
            }
            let Some(reflection) = &result.reflection else {
                continue;
            };
            let mut entries = Vec::new();
            for entry in &reflection.entry_points {
                let outputs = result
                    .blobs
                    .iter()
                    .filter(|b| b.entry_point == entry.name)
                    .map(|b| (b.target, b.data.as_slice(), b.target_entry_point.as_str()))
                    .collect();
                let webgpu = match EntryLayout::from_reflection(reflection, &entry.name) {
                    Ok(layout) => PipelineLayout::new(&[layout]).try_to_webgpu(&self.webgpu),
                    Err(error) => Err(error),
                };
                let webgpu = match webgpu {
                    Ok(layout) => Some(layout),
                    Err(error) if self.targets.contains(&Target::Wgsl) => {
                        return Err(Error::Layout {
                            path: spec.path.clone(),
                            entry_point: entry.name.clone(),
                            message: error.to_string(),
                        })
                    }
                    Err(error) => {
                        if self.cargo_instructions {
                            println!(
                                "cargo:warning={}: entry point '{}' has no WebGPU layout: {error}",
                                spec.path.display(),
                                entry.name
                            );
                        }
                        None
                    }
                };
                entries.push(EntryCode {
                    reflection: entry,
                    outputs,
                    webgpu,
                });
            }
            shaders.push(ShaderCode {
                module,
                path: spec.path.display().to_string(),
                entries,
            });
        }
        codegen::generate(&shaders, CodegenOptions { wgpu: self.wgpu }).map_err(Error::Generate)
    }
}

/// What [`Builder::build`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Generated {
    /// The generated module.
    pub path: PathBuf,
    /// Every file the shaders read, which `cargo:rerun-if-changed` names.
    pub dependencies: Vec<PathBuf>,
}

/// Why the build failed.
#[derive(thiserror::Error)]
pub enum Error {
    /// A shader has errors; each line is `file(line,col): error OSHnnnn: message`.
    #[error("oneshader: the shaders have errors:\n{}", diagnostics.join("\n"))]
    Compile {
        /// The error diagnostics in their one-line form.
        diagnostics: Vec<String>,
    },
    /// The `OUT_DIR` variable is not set: not in a build script, and no [`Builder::out_dir`].
    #[error("oneshader: OUT_DIR is not set; call Builder::out_dir outside a build script")]
    NoOutDir,
    /// A profile given to [`Builder::shader_entry`] is not one oneshader knows.
    #[error("oneshader: '{profile}' (for {}) is not a profile such as cs_6_0, vs_6_0 or ps_6_0", path.display())]
    Profile {
        /// The shader.
        path: PathBuf,
        /// The profile text.
        profile: String,
    },
    /// Two shader files would get the same module name.
    #[error("oneshader: {} and {} would both be the module '{module}'; rename one", first.display(), second.display())]
    DuplicateModule {
        /// The module name.
        module: String,
        /// The first file.
        first: PathBuf,
        /// The second file.
        second: PathBuf,
    },
    /// WebGPU can't express an entry point's layout while WGSL is a target.
    #[error("oneshader: {}: entry point '{entry_point}': {message}", path.display())]
    Layout {
        /// The shader.
        path: PathBuf,
        /// The entry point.
        entry_point: String,
        /// What WebGPU can't express.
        message: String,
    },
    /// The generated module could not be written.
    #[error("oneshader: could not write {}: {source}", path.display())]
    Write {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The module could not be generated from the outputs.
    #[error("oneshader: {0}")]
    Generate(String),
}

/// The same text as `Display`, so that `build().unwrap()` shows the diagnostics as they
/// are rather than as a struct.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests;
