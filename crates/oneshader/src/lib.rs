//! oneshader: compile HLSL to SPIR-V (Vulkan), MSL 2.4 (Metal) and WGSL (WebGPU),
//! with reflection and pipeline layouts.
//!
//! ```no_run
//! use oneshader::{compile_file, CompileOptions, EntryLayout, PipelineLayout, Target, WebGpuLayoutOptions};
//!
//! let result = compile_file("shaders/Compact.hlsl", &CompileOptions::default());
//! for line in result.short_diagnostics() {
//!     eprintln!("{line}");
//! }
//! if result.success() {
//!     for blob in &result.blobs {
//!         println!("{}: {} bytes", blob.target, blob.data.len());
//!     }
//!     let reflection = result.reflection.as_ref().expect("a successful compile has reflection");
//!     let cs = EntryLayout::from_reflection(reflection, "CSMain").expect("CSMain exists");
//!     let webgpu = PipelineLayout::new(&[cs]).try_to_webgpu(&WebGpuLayoutOptions::default());
//!     println!("{:?}", webgpu.map(|l| l.required_features));
//! }
//! ```

pub mod check;
mod compile;
pub mod device;
pub mod layout;
mod options;
mod profile;
pub mod reflection;
pub mod report;
mod stages;
mod target;

pub use compile::{compile_file, compile_module, compile_source, CompileResult, ShaderBlob};
pub use device::DeviceProfile;
pub use layout::{
    EntryLayout, LayoutError, PipelineLayout, VulkanDescriptorSetLayout,
    VulkanDescriptorSetLayoutBinding, VulkanPipelineLayout, VulkanPushConstantRange,
    WebGpuBindGroupLayout, WebGpuBindGroupLayoutEntry, WebGpuBindingType, WebGpuBufferBindingType,
    WebGpuLayoutOptions, WebGpuPipelineLayout, WebGpuShaderStages,
};
pub use options::CompileOptions;
pub use profile::{Profile, ProfileKind};
pub use reflection::{
    BufferLayout, EntryPointReflection, MemberLayout, Reflection, RegisterReflection,
    ResourceAccess, ResourceReflection, SourceLocation, StageVariable, TypeNeeds,
    REFLECTION_SCHEMA_VERSION,
};
pub use target::{Target, UnknownTarget};

pub use oneshader_ir::catalog;
pub use oneshader_ir::{
    BindingShift, Code, Diagnostic, Label, RegisterClass, ResourceKind, Severity, ShaderStage,
    SourceMap, Span, SubgroupOperations,
};
