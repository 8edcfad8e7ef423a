//! What the compiled entry points need from the application: their resources, how
//! they use them, and the subgroup operations the device has to support.
//!
//! A [`Reflection`] is plain data: it serializes to JSON and back unchanged, with the
//! subgroup operations as the `VkSubgroupFeatureFlags` number.

use oneshader_ir::analysis::{self, GlobalUse};
use oneshader_ir::{
    EntryPoint, ImageClass, ImageDimension, Module, RegisterClass, ResourceKind, ScalarKind,
    ShaderStage, SubgroupOperations, TypeInner,
};
use serde::{Deserialize, Serialize};

/// The reflection of one compilation: every entry point compiled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reflection {
    /// The entry points, in source order.
    pub entry_points: Vec<EntryPointReflection>,
}

impl Reflection {
    /// The reflection of every entry point of `module`.
    ///
    /// `msl_indices` gives, per global variable (indexed by handle), the Metal
    /// argument index the MSL backend binds it at; missing entries mean none.
    pub(crate) fn of_module(module: &Module, msl_indices: &[Option<u32>]) -> Reflection {
        Reflection {
            entry_points: module
                .entry_points
                .iter()
                .map(|entry| EntryPointReflection::of_entry_point(module, entry, msl_indices))
                .collect(),
        }
    }

    /// The entry point named `name`.
    pub fn entry_point(&self, name: &str) -> Option<&EntryPointReflection> {
        self.entry_points.iter().find(|e| e.name == name)
    }

    /// The reflection as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        // Serializing plain structs of strings, numbers and booleans cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Reads a reflection written by [`Reflection::to_json`].
    pub fn from_json(json: &str) -> Result<Reflection, serde_json::Error> {
        serde_json::from_str(json)
    }
}

/// One entry point: its stage, workgroup size, resources and subgroup needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryPointReflection {
    /// The HLSL function name.
    pub name: String,
    /// The stage, serialized as `vertex`, `pixel` or `compute`.
    #[serde(with = "ShaderStageDef")]
    pub stage: ShaderStage,
    /// `[numthreads(x, y, z)]` for compute; `[1, 1, 1]` for other stages.
    pub workgroup_size: [u32; 3],
    /// The resources the entry point uses (directly or through the functions it
    /// calls), in declaration order. Declared but unused resources are left out.
    pub resources: Vec<ResourceReflection>,
    /// The Vulkan subgroup operations the entry point needs, serialized as the
    /// `VkSubgroupFeatureFlags` number; its `Display` prints the names (`Basic, Ballot`).
    #[serde(with = "subgroup_operation_bits")]
    pub subgroup_operations: SubgroupOperations,
    /// When the entry point asks a buffer for its length (`GetDimensions`), the MSL
    /// output takes `constant uint* _buffer_sizes` at this `[[buffer(n)]]` index: bind
    /// there the byte size of each buffer, at the buffer's own index.
    pub msl_buffer_sizes_index: Option<u32>,
    /// The entry point uses quad operations in a stage other than pixel and compute, so
    /// a Vulkan device needs `VkPhysicalDeviceSubgroupProperties::quadOperationsInAllStages`.
    pub quad_operations_in_all_stages: bool,
}

impl EntryPointReflection {
    fn of_entry_point(
        module: &Module,
        entry: &EntryPoint,
        msl_indices: &[Option<u32>],
    ) -> EntryPointReflection {
        let uses = analysis::global_uses(module, entry);
        let resources = module
            .global_variables
            .iter()
            .filter_map(|(handle, global)| {
                let resource = global.resource.as_ref()?;
                let usage = uses.get(handle.index()).copied().unwrap_or_default();
                if !usage.is_used() {
                    return None;
                }
                Some(ResourceReflection {
                    name: global.name.clone(),
                    kind: resource.kind,
                    set: resource.binding.set,
                    binding: resource.binding.binding,
                    register: resource
                        .register
                        .map(|(class, index, space)| RegisterReflection {
                            class,
                            index,
                            space,
                        }),
                    access: ResourceAccess::from(usage),
                    msl_index: msl_indices.get(handle.index()).copied().flatten(),
                    texture: TextureReflection::of(module.inner(global.ty), usage),
                    comparison_sampler: matches!(
                        module.inner(global.ty),
                        TypeInner::Sampler { comparison: true }
                    ),
                })
            })
            .collect();
        let asks_length = uses.iter().any(|u| u.length);
        let subgroup_operations = analysis::subgroup_operations(module, entry);
        let quad_elsewhere = subgroup_operations.contains(SubgroupOperations::QUAD)
            && !matches!(entry.stage, ShaderStage::Fragment | ShaderStage::Compute);
        EntryPointReflection {
            name: entry.name.clone(),
            stage: entry.stage,
            workgroup_size: entry.workgroup_size,
            resources,
            subgroup_operations,
            quad_operations_in_all_stages: quad_elsewhere,
            msl_buffer_sizes_index: asks_length
                .then(|| crate::stages::msl_buffer_sizes_index(module)),
        }
    }

    /// The names of the subgroup operations needed (`["Basic", "Ballot"]`), lowest bit first.
    pub fn subgroup_operation_names(&self) -> Vec<&'static str> {
        SubgroupOperations::NAMES
            .iter()
            .filter(|(bit, _)| self.subgroup_operations.contains(*bit))
            .map(|&(_, name)| name)
            .collect()
    }

    /// The resource named `name`, if the entry point uses it.
    pub fn resource(&self, name: &str) -> Option<&ResourceReflection> {
        self.resources.iter().find(|r| r.name == name)
    }
}

/// One resource an entry point uses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResourceReflection {
    /// The HLSL name.
    pub name: String,
    /// What kind of resource it is, serialized with its HLSL spelling.
    #[serde(with = "ResourceKindDef")]
    pub kind: ResourceKind,
    /// Vulkan descriptor set, WebGPU bind group.
    pub set: u32,
    /// Binding within the set or group.
    pub binding: u32,
    /// The `register(...)` it was declared with, if any.
    pub register: Option<RegisterReflection>,
    /// How the entry point's code really uses it.
    pub access: ResourceAccess,
    /// The Metal argument-table index (`[[buffer(n)]]`, `[[texture(n)]]` or
    /// `[[sampler(n)]]` by kind), when the MSL backend binds it.
    pub msl_index: Option<u32>,
    /// For textures: their shape, texel kind and storage format.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub texture: Option<TextureReflection>,
    /// For samplers: a `SamplerComparisonState`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub comparison_sampler: bool,
}

/// What a texture is, in WebGPU terms.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextureReflection {
    /// `GPUTextureViewDimension`: `1d`, `2d`, `2d-array`, `3d`, `cube`, `cube-array`.
    pub view_dimension: String,
    /// `GPUTextureSampleType` for sampled textures: `float`, `sint`, `uint`, or `depth`
    /// when the code samples it with a comparison; `None` for storage textures.
    pub sample_type: Option<String>,
    /// `Texture2DMS`.
    pub multisampled: bool,
    /// For storage textures (`RWTexture*`): the WebGPU texel format, when WebGPU has it.
    pub storage_format: Option<String>,
}

impl TextureReflection {
    fn of(inner: &TypeInner, usage: GlobalUse) -> Option<TextureReflection> {
        let TypeInner::Image {
            dim,
            arrayed,
            class,
        } = *inner
        else {
            return None;
        };
        let view_dimension = match (dim, arrayed) {
            (ImageDimension::D1, false) => "1d",
            (ImageDimension::D1, true) => "1d-array",
            (ImageDimension::D2, false) => "2d",
            (ImageDimension::D2, true) => "2d-array",
            (ImageDimension::D3, _) => "3d",
            (ImageDimension::Cube, false) => "cube",
            (ImageDimension::Cube, true) => "cube-array",
        }
        .to_string();
        Some(match class {
            ImageClass::Sampled {
                kind, multisampled, ..
            } => TextureReflection {
                view_dimension,
                sample_type: Some(
                    match kind {
                        _ if usage.compared => "depth",
                        ScalarKind::Sint => "sint",
                        ScalarKind::Uint => "uint",
                        _ => "float",
                    }
                    .to_string(),
                ),
                multisampled,
                storage_format: None,
            },
            ImageClass::Storage { format, .. } => TextureReflection {
                view_dimension,
                sample_type: None,
                multisampled: false,
                storage_format: format.wgsl_name().map(str::to_string),
            },
        })
    }
}

/// An HLSL `register(...)`: class, index and space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RegisterReflection {
    /// `t`, `u`, `b` or `s`.
    #[serde(with = "RegisterClassDef")]
    pub class: RegisterClass,
    /// The register number.
    pub index: u32,
    /// The register space.
    pub space: u32,
}

/// How code uses a resource, found by walking what the entry point executes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResourceAccess {
    /// Some code reads it.
    pub read: bool,
    /// Some code writes it.
    pub write: bool,
    /// Some code operates on it atomically (atomics also read and write).
    pub atomic: bool,
}

impl From<GlobalUse> for ResourceAccess {
    fn from(usage: GlobalUse) -> Self {
        ResourceAccess {
            read: usage.read,
            write: usage.write,
            atomic: usage.atomic,
        }
    }
}

/// Serde's view of [`ShaderStage`]: the names of [`ShaderStage::name`].
#[derive(Serialize, Deserialize)]
#[serde(remote = "ShaderStage")]
enum ShaderStageDef {
    #[serde(rename = "vertex")]
    Vertex,
    #[serde(rename = "pixel")]
    Fragment,
    #[serde(rename = "compute")]
    Compute,
}

/// Serde's view of [`ResourceKind`]: the HLSL spellings.
#[derive(Serialize, Deserialize)]
#[serde(remote = "ResourceKind")]
enum ResourceKindDef {
    ConstantBuffer,
    StructuredBuffer,
    RWStructuredBuffer,
    ByteAddressBuffer,
    RWByteAddressBuffer,
    Texture,
    RWTexture,
    #[serde(rename = "SamplerState")]
    Sampler,
}

/// Serde's view of [`RegisterClass`]: the register letter.
#[derive(Serialize, Deserialize)]
#[serde(remote = "RegisterClass", rename_all = "lowercase")]
enum RegisterClassDef {
    T,
    U,
    B,
    S,
}

/// [`SubgroupOperations`] as its `VkSubgroupFeatureFlags` number.
mod subgroup_operation_bits {
    use oneshader_ir::SubgroupOperations;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(
        operations: &SubgroupOperations,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        serializer.serialize_u32(operations.bits())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<SubgroupOperations, D::Error> {
        u32::deserialize(deserializer).map(SubgroupOperations::from_bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oneshader_ir::samples;

    fn compact() -> Reflection {
        Reflection::of_module(&samples::compact(), &[Some(0), Some(1), Some(2)])
    }

    #[test]
    fn compact_resources_have_the_access_the_code_makes() {
        let reflection = compact();
        let entry = reflection
            .entry_point("CSMain")
            .expect("CSMain is reflected");
        assert_eq!(entry.stage, ShaderStage::Compute);
        assert_eq!(entry.workgroup_size, [64, 1, 1]);
        let summary: Vec<(&str, ResourceKind, u32, u32, ResourceAccess)> = entry
            .resources
            .iter()
            .map(|r| (r.name.as_str(), r.kind, r.set, r.binding, r.access))
            .collect();
        let access = |read, write, atomic| ResourceAccess {
            read,
            write,
            atomic,
        };
        assert_eq!(
            summary,
            [
                (
                    "Values",
                    ResourceKind::StructuredBuffer,
                    0,
                    0,
                    access(true, false, false)
                ),
                (
                    "Kept",
                    ResourceKind::RWStructuredBuffer,
                    0,
                    1,
                    access(false, true, false)
                ),
                (
                    "Count",
                    ResourceKind::RWByteAddressBuffer,
                    0,
                    2,
                    access(true, true, true)
                ),
            ]
        );
        let kept = entry.resource("Kept").expect("Kept is used");
        assert_eq!(
            kept.register,
            Some(RegisterReflection {
                class: RegisterClass::U,
                index: 1,
                space: 0
            })
        );
        assert_eq!(kept.msl_index, Some(1));
    }

    #[test]
    fn compact_needs_basic_and_ballot() {
        let reflection = compact();
        let entry = &reflection.entry_points[0];
        assert_eq!(entry.subgroup_operations.bits(), 0x9);
        assert_eq!(entry.subgroup_operations.to_string(), "Basic, Ballot");
        assert_eq!(entry.subgroup_operation_names(), ["Basic", "Ballot"]);
    }

    #[test]
    fn unused_resources_are_left_out() {
        let mut module = samples::compact();
        let unused = module
            .global_variables
            .iter()
            .map(|(_, g)| g.clone())
            .find(|g| g.name == "Values")
            .map(|mut g| {
                g.name = "Unused".into();
                g
            })
            .expect("Compact declares Values");
        module.global_variables.append(unused, None);
        let reflection = Reflection::of_module(&module, &[]);
        let names: Vec<&str> = reflection.entry_points[0]
            .resources
            .iter()
            .map(|r| r.name.as_str())
            .collect();
        assert_eq!(names, ["Values", "Kept", "Count"]);
    }

    #[test]
    fn json_round_trips_with_numeric_subgroup_operations() {
        let reflection = compact();
        let json = reflection.to_json();
        let value: serde_json::Value = serde_json::from_str(&json).expect("to_json writes JSON");
        let entry = &value["entry_points"][0];
        assert_eq!(entry["subgroup_operations"], 9);
        assert_eq!(entry["stage"], "compute");
        assert_eq!(entry["resources"][2]["kind"], "RWByteAddressBuffer");
        assert_eq!(entry["resources"][2]["register"]["class"], "u");
        assert_eq!(entry["resources"][2]["access"]["atomic"], true);
        assert_eq!(Reflection::from_json(&json).ok(), Some(reflection));
    }

    #[test]
    fn malformed_json_is_an_error() {
        assert!(Reflection::from_json("{\"entry_points\": [{\"name\": 1}]}").is_err());
    }
}
