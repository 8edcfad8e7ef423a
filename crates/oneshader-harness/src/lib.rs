//! oneshader-harness: the test harness of oneshader's end-to-end tests.
//!
//! It checks compiled shaders the way a device would see them:
//! - [`spirv_val`] validates SPIR-V with SPIRV-Tools' `spirv-val` for Vulkan 1.2;
//! - [`run_compute`] runs a SPIR-V compute shader on Vulkan ([`VulkanDriver::Lavapipe`],
//!   [`VulkanDriver::SwiftShader`], or the system's driver) and returns its buffers;
//! - [`time_compute`] measures a compute dispatch's GPU time with timestamp queries;
//! - [`run_wgsl_compute`] and [`validate_wgsl`] do the same for WGSL on WebGPU, with Dawn
//!   (the npm `webgpu` package) in a node child process, running on SwiftShader or on Mesa 25's
//!   lavapipe ([`DawnDriver`]).
//! - [`msl::check_msl`] type-checks MSL with clang against a declaration header of the Metal
//!   Standard Library (see `docs/msl-check.md`).
//!
//! - [`generated_shader`] writes HLSL compute shaders of any length for the benchmarks.
//!
//! Every tool it needs is installed by `scripts/install-test-deps.sh`; a missing one is an error
//! that says so, never a skipped check.

mod generated;
mod job;
pub mod msl;
mod process;
mod spirv_scan;
mod spirv_val;
mod vulkan;
mod webgpu;

#[cfg(test)]
mod test_shaders;

pub use generated::generated_shader;
pub use job::{
    f32_bytes, f32s_of, i32_bytes, i32s_of, u32_bytes, u32s_of, BufferBinding, BufferKind,
    ComputeJob, ComputeOutput, DawnDriver, DeviceInfo, DrawJob, DrawOutput, Filter, ShaderStages,
    SubgroupOperations, TexelFormat, WgslDrawJob, WgslJob,
};
pub use process::INSTALL_HINT;
pub use spirv_val::spirv_val;
pub use vulkan::{
    check_compute_pipeline_layout, fence_timeout, run_compute, run_draw, time_compute,
    DispatchTiming, SetLayoutBindingDesc, SetLayoutDesc, VulkanDriver, FENCE_TIMEOUT,
    FENCE_TIMEOUT_ENV, LAVAPIPE_ICD_ENV, SWIFTSHADER_ICD_ENV,
};
pub use webgpu::{
    run_wgsl_compute, run_wgsl_draw, validate_wgsl, MESA25_LAVAPIPE_ICD_ENV, NODE_ENV, NODE_TIMEOUT,
};
