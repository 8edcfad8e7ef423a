//! Device profiles: what one GPU (or API) supports, read from JSON (`profiles/*.json`),
//! and the check that an entry point runs on it (`--device`, [`OSH5300`]).
//!
//! [`OSH5300`]: oneshader_ir::codes::DEVICE_UNSUPPORTED

use std::path::Path;

use oneshader_ir::analysis::{self, GlobalUse};
use oneshader_ir::{
    codes, Diagnostic, EntryPoint, Handle, Module, ResourceKind, ScalarKind, ShaderStage, Span,
    SubgroupOperations, Type, TypeInner,
};
use serde::{Deserialize, Serialize};

/// What a device supports, as `VkPhysicalDeviceSubgroupProperties`, its features and
/// limits report it (or WebGPU's and Metal's equivalents).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeviceProfile {
    /// The device, as diagnostics name it (`lavapipe (Mesa 22.3.6)`).
    pub name: String,
    /// Where the values come from (a `vulkaninfo` run, gpuinfo.org, a spec's defaults).
    #[serde(default)]
    pub source: String,
    /// The subgroup (wave) sizes the device may run with, inclusive.
    pub subgroup_size: SubgroupSizeRange,
    /// `supportedOperations`, by the names of `SubgroupOperations::NAMES` (`Basic`, `Ballot`).
    pub subgroup_supported_operations: Vec<String>,
    /// `supportedStages`: `vertex`, `pixel`, `compute`.
    pub subgroup_supported_stages: Vec<String>,
    /// `quadOperationsInAllStages`.
    #[serde(default)]
    pub quad_operations_in_all_stages: bool,
    /// Optional features it has: `subgroups`, `shader-f16`, `int16`, `int64`, `float64`.
    pub features: Vec<String>,
    /// Its limits.
    pub limits: DeviceLimits,
}

/// `minSubgroupSize` and `maxSubgroupSize`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubgroupSizeRange {
    /// The smallest subgroup size.
    pub min: u32,
    /// The largest subgroup size.
    pub max: u32,
}

/// The limits a shader is checked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeviceLimits {
    /// `maxComputeWorkGroupSize` (`maxComputeWorkgroupSizeX/Y/Z`).
    pub max_compute_workgroup_size: [u32; 3],
    /// `maxComputeWorkGroupInvocations` (`maxComputeInvocationsPerWorkgroup`).
    pub max_compute_workgroup_invocations: u32,
    /// `maxPerStageDescriptorStorageBuffers` (`maxStorageBuffersPerShaderStage`).
    pub max_storage_buffers_per_stage: u32,
}

impl DeviceProfile {
    /// Reads a profile from JSON text.
    pub fn from_json(json: &str) -> Result<DeviceProfile, String> {
        let profile: DeviceProfile = serde_json::from_str(json).map_err(|e| e.to_string())?;
        for name in &profile.subgroup_supported_operations {
            if !SubgroupOperations::NAMES.iter().any(|(_, n)| n == name) {
                return Err(format!(
                    "unknown subgroup operation '{name}' (known: Basic, Vote, Arithmetic, \
                     Ballot, Shuffle, ShuffleRelative, Clustered, Quad)"
                ));
            }
        }
        for stage in &profile.subgroup_supported_stages {
            if !["vertex", "pixel", "compute"].contains(&stage.as_str()) {
                return Err(format!(
                    "unknown stage '{stage}' (known: vertex, pixel, compute)"
                ));
            }
        }
        for feature in &profile.features {
            if !FEATURES.contains(&feature.as_str()) {
                return Err(format!(
                    "unknown feature '{feature}' (known: {})",
                    FEATURES.join(", ")
                ));
            }
        }
        Ok(profile)
    }

    /// Reads the profile at `path`; the error names the file.
    pub fn load(path: &Path) -> Result<DeviceProfile, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read the device profile '{}': {e}", path.display()))?;
        DeviceProfile::from_json(&text)
            .map_err(|e| format!("the device profile '{}' is invalid: {e}", path.display()))
    }

    /// `supportedOperations` as flags.
    pub fn subgroup_operations(&self) -> SubgroupOperations {
        SubgroupOperations::NAMES
            .iter()
            .filter(|(_, name)| self.subgroup_supported_operations.iter().any(|n| n == name))
            .fold(SubgroupOperations::empty(), |ops, (bit, _)| ops | *bit)
    }

    fn has(&self, feature: &str) -> bool {
        self.features.iter().any(|f| f == feature)
    }

    /// Every reason `entry` of `module` cannot run on this device, as `OSH5300` errors
    /// at the first line that needs what is missing.
    pub fn check_entry_point(&self, module: &Module, entry: &EntryPoint) -> Vec<Diagnostic> {
        let mut diagnostics = Vec::new();
        self.check_subgroups(module, entry, &mut diagnostics);
        self.check_types(module, entry, &mut diagnostics);
        self.check_limits(module, entry, &mut diagnostics);
        diagnostics
    }

    fn error(&self, span: Option<Span>, message: String) -> Diagnostic {
        Diagnostic::error(codes::DEVICE_UNSUPPORTED, span, message)
            .with_note(format!("device profile: {}", self.name))
    }

    fn check_subgroups(&self, module: &Module, entry: &EntryPoint, out: &mut Vec<Diagnostic>) {
        let uses: Vec<_> = analysis::entry_functions(module, entry)
            .into_iter()
            .flat_map(analysis::wave_uses)
            .collect();
        let Some(first) = uses.first() else {
            return;
        };
        if !self.has("subgroups") {
            out.push(self.error(
                first.span,
                format!(
                    "the device '{}' has no subgroup (wave) operations, which '{}' uses",
                    self.name, entry.name
                ),
            ));
            return;
        }
        let stage = entry.stage.name();
        if !self.subgroup_supported_stages.iter().any(|s| s == stage) {
            out.push(self.error(
                first.span,
                format!(
                    "the device '{}' has subgroup operations only in {} shaders, not in the {stage} shader '{}'",
                    self.name,
                    self.subgroup_supported_stages.join(" and "),
                    entry.name
                ),
            ));
        }
        let supported = self.subgroup_operations();
        let mut reported = SubgroupOperations::empty();
        for wave in &uses {
            let needed = wave.op.subgroup_operations();
            let missing =
                SubgroupOperations::from_bits(needed.bits() & !supported.bits() & !reported.bits());
            if !missing.is_empty() {
                reported |= missing;
                out.push(self.error(
                    wave.span,
                    format!(
                        "the device '{}' lacks the subgroup operations {missing} (0x{:x}) that this line needs",
                        self.name,
                        missing.bits()
                    ),
                ));
            }
        }
        let quad_elsewhere = !matches!(entry.stage, ShaderStage::Fragment | ShaderStage::Compute);
        if quad_elsewhere && !self.quad_operations_in_all_stages {
            if let Some(quad) = uses.iter().find(|w| {
                w.op.subgroup_operations()
                    .contains(SubgroupOperations::QUAD)
            }) {
                out.push(self.error(
                    quad.span,
                    format!(
                        "the device '{}' has quad operations only in pixel and compute shaders (quadOperationsInAllStages is false)",
                        self.name
                    ),
                ));
            }
        }
    }

    fn check_types(&self, module: &Module, entry: &EntryPoint, out: &mut Vec<Diagnostic>) {
        let wanted = [
            (ScalarKind::Float, 2, "shader-f16", "16-bit floats"),
            (ScalarKind::Float, 8, "float64", "64-bit floats (double)"),
            (ScalarKind::Sint, 8, "int64", "64-bit integers"),
            (ScalarKind::Uint, 8, "int64", "64-bit integers"),
            (ScalarKind::Sint, 2, "int16", "16-bit integers"),
            (ScalarKind::Uint, 2, "int16", "16-bit integers"),
        ];
        let mut reported: Vec<&str> = Vec::new();
        for (kind, width, feature, what) in wanted {
            if self.has(feature) || reported.contains(&feature) {
                continue;
            }
            let mut found = None;
            for function in analysis::entry_functions(module, entry) {
                found = function
                    .expressions
                    .iter()
                    .find(|(handle, _)| has_scalar(module, function.type_of(*handle), kind, width))
                    .map(|(handle, _)| function.expressions.span(handle));
                if found.is_some() {
                    break;
                }
            }
            if let Some(span) = found {
                reported.push(feature);
                out.push(self.error(
                    span,
                    format!(
                        "the device '{}' has no {what} (feature '{feature}'), which this line uses",
                        self.name
                    ),
                ));
            }
        }
    }

    fn check_limits(&self, module: &Module, entry: &EntryPoint, out: &mut Vec<Diagnostic>) {
        let limits = &self.limits;
        if entry.stage == ShaderStage::Compute {
            let size = entry.workgroup_size;
            let invocations: u64 = size.iter().map(|&n| u64::from(n)).product();
            if size
                .iter()
                .zip(limits.max_compute_workgroup_size)
                .any(|(&n, max)| n > max)
            {
                out.push(self.error(
                    entry.span,
                    format!(
                        "[numthreads({}, {}, {})] exceeds the largest workgroup of the device '{}', {:?}",
                        size[0], size[1], size[2], self.name, limits.max_compute_workgroup_size
                    ),
                ));
            } else if invocations > u64::from(limits.max_compute_workgroup_invocations) {
                out.push(self.error(
                    entry.span,
                    format!(
                        "[numthreads({}, {}, {})] is {invocations} invocations; the device '{}' allows {}",
                        size[0], size[1], size[2], self.name, limits.max_compute_workgroup_invocations
                    ),
                ));
            }
        }
        let uses: Vec<GlobalUse> = analysis::global_uses(module, entry);
        let storage: Vec<Option<Span>> = module
            .global_variables
            .iter()
            .filter(|(handle, global)| {
                uses.get(handle.index()).is_some_and(|u| u.is_used())
                    && global.resource.as_ref().is_some_and(|r| {
                        matches!(
                            r.kind,
                            ResourceKind::TextureBuffer
                                | ResourceKind::StructuredBuffer
                                | ResourceKind::RWStructuredBuffer
                                | ResourceKind::ByteAddressBuffer
                                | ResourceKind::RWByteAddressBuffer
                        )
                    })
            })
            .map(|(_, global)| global.span)
            .collect();
        let max = limits.max_storage_buffers_per_stage as usize;
        if let Some(&span) = storage.get(max) {
            out.push(self.error(
                span,
                format!(
                    "'{}' uses {} storage buffers; the device '{}' allows {max} per stage",
                    entry.name,
                    storage.len(),
                    self.name
                ),
            ));
        }
    }
}

/// The feature names a profile may list.
pub const FEATURES: [&str; 5] = ["subgroups", "shader-f16", "int16", "int64", "float64"];

fn has_scalar(module: &Module, ty: Handle<Type>, kind: ScalarKind, width: u8) -> bool {
    match module.inner(ty) {
        TypeInner::Scalar(s)
        | TypeInner::Vector { scalar: s, .. }
        | TypeInner::Matrix { scalar: s, .. } => s.kind == kind && s.width == width,
        TypeInner::Array { base, .. } | TypeInner::Pointer { base, .. } => {
            has_scalar(module, *base, kind, width)
        }
        TypeInner::Struct { members, .. } => members
            .iter()
            .any(|m| has_scalar(module, m.ty, kind, width)),
        TypeInner::Image { .. } | TypeInner::Sampler { .. } => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{compile_source, CompileOptions, CompileResult, Target};

    fn profile(name: &str) -> DeviceProfile {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../profiles")
            .join(format!("{name}.json"));
        DeviceProfile::load(&path).unwrap_or_else(|e| panic!("{e}"))
    }

    fn compile_for(device: &str, targets: &[Target], source: &str) -> CompileResult {
        let options = CompileOptions {
            targets: targets.to_vec(),
            device: Some(profile(device)),
            ..CompileOptions::default()
        };
        compile_source("device.hlsl", source, &options)
    }

    #[test]
    fn every_shipped_profile_loads_and_names_its_source() {
        for name in [
            "lavapipe",
            "swiftshader",
            "nvidia",
            "amd",
            "apple",
            "webgpu",
        ] {
            let device = profile(name);
            assert!(
                !device.source.is_empty(),
                "{name} says where its values come from"
            );
            assert!(device.subgroup_size.min <= device.subgroup_size.max);
            assert!(device
                .subgroup_operations()
                .contains(SubgroupOperations::BASIC));
            let json = serde_json::to_string(&device).expect("serializes");
            assert_eq!(DeviceProfile::from_json(&json), Ok(device));
        }
        assert_eq!(profile("lavapipe").subgroup_operations().bits(), 0xbf);
        assert_eq!(profile("nvidia").subgroup_operations().bits(), 0xff);
    }

    #[test]
    fn compact_runs_on_every_shipped_profile() {
        let source = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shaders/Compact.hlsl"),
        )
        .expect("shaders/Compact.hlsl");
        for name in [
            "lavapipe",
            "swiftshader",
            "nvidia",
            "amd",
            "apple",
            "webgpu",
        ] {
            let result = compile_for(name, &Target::ALL, &source);
            assert!(result.success(), "{name}: {:?}", result.short_diagnostics());
        }
    }

    #[test]
    fn too_large_a_workgroup_for_webgpu_is_osh5300_at_the_entry_point() {
        let result = compile_for(
            "webgpu",
            &Target::ALL,
            "RWStructuredBuffer<uint> Out : register(u0);\n[numthreads(512, 1, 1)]\nvoid CSMain(uint3 id : SV_DispatchThreadID) { Out[id.x] = id.x; }\n",
        );
        assert!(!result.success());
        assert_eq!(
            result.short_diagnostics(),
            ["device.hlsl(2,1): error OSH5300: [numthreads(512, 1, 1)] exceeds the largest workgroup of the device 'WebGPU (default limits, with the subgroups and shader-f16 features)', [256, 256, 64]"]
        );
        // The same shader fits lavapipe.
        let options = CompileOptions {
            device: Some(profile("lavapipe")),
            ..CompileOptions::default()
        };
        let fits = compile_source(
            "device.hlsl",
            "RWStructuredBuffer<uint> Out : register(u0);\n[numthreads(512, 1, 1)]\nvoid CSMain(uint3 id : SV_DispatchThreadID) { Out[id.x] = id.x; }\n",
            &options,
        );
        assert!(fits.success(), "{:?}", fits.short_diagnostics());
    }

    #[test]
    fn too_many_invocations_is_osh5300() {
        let result = compile_for(
            "webgpu",
            &Target::ALL,
            "RWStructuredBuffer<uint> Out : register(u0);\n[numthreads(32, 16, 1)]\nvoid CSMain(uint3 id : SV_DispatchThreadID) { Out[id.x] = id.x; }\n",
        );
        assert_eq!(
            result.short_diagnostics(),
            ["device.hlsl(2,1): error OSH5300: [numthreads(32, 16, 1)] is 512 invocations; the device 'WebGPU (default limits, with the subgroups and shader-f16 features)' allows 256"]
        );
    }

    #[test]
    fn wave_operation_in_a_stage_without_subgroups_names_the_line() {
        let source = "[shader(\"vertex\")]\nfloat4 VSMain(uint v : SV_VertexID) : SV_Position {\n    float s = WaveActiveSum(float(v));\n    return float4(s, 0, 0, 1);\n}\n";
        let result = compile_for("lavapipe", &[Target::SpirV], source);
        let lines = result.short_diagnostics();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("device.hlsl(3,15): error OSH5300: the device 'lavapipe (Mesa 22.3.6, llvmpipe LLVM 15)' has subgroup operations only in pixel and compute shaders, not in the vertex shader 'VSMain'"),
            "{lines:?}"
        );
        // SwiftShader has subgroups in vertex shaders.
        let result = compile_for("swiftshader", &[Target::SpirV], source);
        assert!(result.success(), "{:?}", result.short_diagnostics());
    }

    #[test]
    fn missing_operations_and_types_are_each_reported_once() {
        let mut device = profile("swiftshader");
        device.subgroup_supported_operations = vec!["Basic".into(), "Arithmetic".into()];
        let options = CompileOptions {
            targets: vec![Target::SpirV],
            device: Some(device),
            ..CompileOptions::default()
        };
        let source = "RWStructuredBuffer<double> Out : register(u0);\n[numthreads(64, 1, 1)]\nvoid CSMain(uint3 id : SV_DispatchThreadID) {\n    uint n = WaveActiveCountBits(id.x > 3);\n    uint m = WaveActiveCountBits(id.x > 5);\n    Out[id.x] = n + m;\n}\n";
        let result = compile_source("device.hlsl", source, &options);
        let lines = result.short_diagnostics();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(lines[0].starts_with("device.hlsl(4,14): error OSH5300: the device 'SwiftShader 5.0.0 (Subzero, as shipped in Debian 12's chromium 156)' lacks the subgroup operations Ballot (0x8) that this line needs"), "{lines:?}");
        assert!(
            lines[1].contains("has no 64-bit floats (double) (feature 'float64')"),
            "{lines:?}"
        );
    }

    #[test]
    fn malformed_profiles_are_errors_that_say_why() {
        let mut json: serde_json::Value =
            serde_json::to_value(profile("webgpu")).expect("serializes");
        json["features"] = serde_json::json!(["subgroups", "warp-drive"]);
        let error = DeviceProfile::from_json(&json.to_string()).expect_err("unknown feature");
        assert!(error.contains("unknown feature 'warp-drive'"), "{error}");
        json["features"] = serde_json::json!([]);
        json["subgroup_supported_operations"] = serde_json::json!(["Partitioned"]);
        let error = DeviceProfile::from_json(&json.to_string()).expect_err("unknown op");
        assert!(
            error.contains("unknown subgroup operation 'Partitioned'"),
            "{error}"
        );
        assert!(DeviceProfile::from_json("{\"name\": 3}").is_err());
    }
}
