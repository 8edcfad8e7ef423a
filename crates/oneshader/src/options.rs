//! What to compile and how.

use std::path::PathBuf;

use crate::device::DeviceProfile;
use crate::profile::Profile;
use crate::target::Target;

/// The settings of one compilation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileOptions {
    /// The languages to write, in the order their blobs should appear.
    /// The default is every target: SPIR-V, MSL, WGSL.
    pub targets: Vec<Target>,
    /// Compile only this entry point. When absent, every entry point marked with
    /// `[shader("...")]` is compiled (or `main` for a single-stage profile).
    pub entry_point: Option<String>,
    /// The profile (`cs_6_0`, `lib_6_3`, …). When absent, the stages come from the
    /// `[shader("...")]` attributes.
    pub profile: Option<Profile>,
    /// Preprocessor macros as `(name, value)`; `-D NAME` alone defines it as `1`.
    pub defines: Vec<(String, String)>,
    /// Directories searched by `#include`, after the including file's own directory.
    pub include_dirs: Vec<PathBuf>,
    /// DXC's `-fvk-<class>-shift SHIFT SPACE`: register numbers to Vulkan/WebGPU bindings.
    pub binding_shifts: Vec<oneshader_ir::BindingShift>,
    /// When set, each entry point is checked against this device and what it lacks is
    /// an `OSH5300` error.
    pub device: Option<DeviceProfile>,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            targets: Target::ALL.to_vec(),
            entry_point: None,
            profile: None,
            defines: Vec::new(),
            include_dirs: Vec::new(),
            binding_shifts: Vec::new(),
            device: None,
        }
    }
}
