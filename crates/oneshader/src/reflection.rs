//! What the compiled entry points need from the application: their resources, how
//! they use them, and the subgroup operations the device has to support.
//!
//! A [`Reflection`] is plain data: it serializes to JSON and back unchanged, with the
//! subgroup operations as the `VkSubgroupFeatureFlags` number. `docs/reflection.md`
//! documents the JSON schema; [`REFLECTION_SCHEMA_VERSION`] changes when it does.

mod io;
mod memory;
mod needs;

use oneshader_ir::analysis::GlobalUse;
use oneshader_ir::{
    EntryPoint, EntryPointInfo, GlobalVariable, Handle, ImageClass, ImageDimension, Module,
    ModuleInfo, RegisterClass, ResourceKind, ScalarKind, ShaderStage, SourceMap, Span,
    StorageFormat, SubgroupOperations, TypeInner,
};
use serde::{Deserialize, Serialize};

pub use io::StageVariable;
pub use memory::{BufferLayout, MemberLayout};
use needs::ModuleNeeds;
pub use needs::TypeNeeds;

/// The version of the reflection JSON schema (`docs/reflection.md`). Adding a field
/// keeps it; renaming, removing or changing the meaning of one raises it.
pub const REFLECTION_SCHEMA_VERSION: u32 = 1;

/// The reflection of one compilation: every entry point compiled.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reflection {
    /// [`REFLECTION_SCHEMA_VERSION`] of the writer.
    pub version: u32,
    /// The entry points, in source order.
    pub entry_points: Vec<EntryPointReflection>,
}

impl Reflection {
    /// The reflection of every entry point of `module`.
    ///
    /// `msl_indices` gives, per global variable (indexed by handle), the Metal
    /// argument index the MSL backend binds it at; missing entries mean none.
    /// `sources` turns declaration spans into file and line.
    pub(crate) fn of_module(
        module: &Module,
        info: &ModuleInfo,
        msl_indices: &[Option<u32>],
        sources: &SourceMap,
    ) -> Reflection {
        let needs = ModuleNeeds::new(module);
        Reflection {
            version: REFLECTION_SCHEMA_VERSION,
            entry_points: module
                .entry_points
                .iter()
                .zip(info.entry_points())
                .map(|(entry, entry_info)| {
                    EntryPointReflection::of_entry_point(
                        module,
                        &needs,
                        entry,
                        entry_info,
                        msl_indices,
                        sources,
                    )
                })
                .collect(),
        }
    }

    /// [`Reflection::of_module`] with the module's facts computed here, for tests.
    #[cfg(test)]
    pub(crate) fn of_module_alone(
        module: &Module,
        msl_indices: &[Option<u32>],
        sources: &SourceMap,
    ) -> Reflection {
        Reflection::of_module(module, &ModuleInfo::new(module), msl_indices, sources)
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
    /// The values it receives: vertex attributes, pixel varyings, system values.
    pub inputs: Vec<StageVariable>,
    /// The values it produces: vertex varyings, render targets, depth.
    pub outputs: Vec<StageVariable>,
    /// The resources the entry point uses (directly or through the functions it
    /// calls), in declaration order. Declared but unused resources are left out.
    pub resources: Vec<ResourceReflection>,
    /// The Vulkan subgroup operations the entry point needs, serialized as the
    /// `VkSubgroupFeatureFlags` number; its `Display` prints the names (`Basic, Ballot`).
    #[serde(with = "subgroup_operation_bits")]
    pub subgroup_operations: SubgroupOperations,
    /// The `VkShaderStageFlags` of the stages that need `subgroup_operations` (this
    /// entry point's stage, or 0 when it uses none): compare with
    /// `VkPhysicalDeviceSubgroupProperties::supportedStages`.
    pub subgroup_stages: u32,
    /// Arithmetic types beyond 32 bits that the device must support.
    pub type_needs: TypeNeeds,
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
        needs: &ModuleNeeds,
        entry: &EntryPoint,
        info: &EntryPointInfo,
        msl_indices: &[Option<u32>],
        sources: &SourceMap,
    ) -> EntryPointReflection {
        let uses = &info.global_uses;
        let is_used_resource = |(handle, global): (Handle<GlobalVariable>, &GlobalVariable)| {
            global.resource.is_some()
                && uses
                    .get(handle.index())
                    .is_some_and(|usage| usage.is_used())
        };
        // Sized from a count first: the list would otherwise grow twice for most entry
        // points.
        let used_resources = || {
            module
                .global_variables
                .iter()
                .filter(|&global| is_used_resource(global))
        };
        let mut resources = Vec::with_capacity(used_resources().count());
        resources.extend(used_resources().filter_map(|(handle, global)| {
            let resource = global.resource.as_ref()?;
            let usage = uses.get(handle.index()).copied().unwrap_or_default();
            Some(ResourceReflection {
                name: global.name.clone(),
                kind: resource.kind,
                set: resource.binding.set,
                binding: resource.binding.binding,
                wgsl_group: resource.binding.set,
                wgsl_binding: resource.binding.binding,
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
                buffer: BufferLayout::of(module, resource.kind, global.ty),
                declared_at: global.span.and_then(|s| SourceLocation::of(s, sources)),
            })
        }));
        let asks_length = uses.iter().any(|u| u.length);
        let subgroup_operations = info.subgroup_operations;
        let quad_elsewhere = subgroup_operations.contains(SubgroupOperations::QUAD)
            && !matches!(entry.stage, ShaderStage::Fragment | ShaderStage::Compute);
        let (inputs, outputs) = io::stage_io(module, entry);
        EntryPointReflection {
            name: entry.name.clone(),
            stage: entry.stage,
            workgroup_size: entry.workgroup_size,
            inputs,
            outputs,
            resources,
            subgroup_operations,
            subgroup_stages: if subgroup_operations.is_empty() {
                0
            } else {
                vk_shader_stage_bit(entry.stage)
            },
            type_needs: TypeNeeds::of_entry_point(module, needs, entry, info),
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
    /// The WGSL `@group(n)` (the same number as `set`).
    pub wgsl_group: u32,
    /// The WGSL `@binding(n)` (the same number as `binding`).
    pub wgsl_binding: u32,
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
    /// For buffers: the element type, stride and struct layout.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer: Option<BufferLayout>,
    /// Where the resource is declared, when it came from source.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared_at: Option<SourceLocation>,
}

/// A place in the source: file name, 1-based line and column.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceLocation {
    /// The file as the compiler was given it (or as `#include` found it).
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

impl SourceLocation {
    /// The start of `span` in `sources`.
    pub fn of(span: Span, sources: &SourceMap) -> Option<SourceLocation> {
        let (file, line, column) = sources.location(span)?;
        Some(SourceLocation {
            file: file.to_string(),
            line,
            column,
        })
    }
}

/// Prints `file(line,col)`, as diagnostics do.
impl std::fmt::Display for SourceLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}({},{})", self.file, self.line, self.column)
    }
}

/// The `VkShaderStageFlagBits` value of `stage`.
pub fn vk_shader_stage_bit(stage: ShaderStage) -> u32 {
    match stage {
        ShaderStage::Vertex => 0x1,
        ShaderStage::Fragment => 0x10,
        ShaderStage::Compute => 0x20,
    }
}

/// What a texture is, in WebGPU terms.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TextureReflection {
    /// `GPUTextureViewDimension`: `1d`, `2d`, `2d-array`, `3d`, `cube`, `cube-array`;
    /// `buffer` for a typed buffer (`Buffer<T>`/`RWBuffer<T>`), which WebGPU binds as a
    /// storage buffer.
    pub view_dimension: String,
    /// `GPUTextureSampleType` for sampled textures: `float`, `sint`, `uint`, or `depth`
    /// when the code samples it with a comparison; `None` for storage textures.
    pub sample_type: Option<String>,
    /// `Texture2DMS`.
    pub multisampled: bool,
    /// For storage textures (`RWTexture*`): the WebGPU texel format, when WebGPU has it;
    /// for typed buffers, the format of their Vulkan buffer view (`r32uint`…), from the
    /// element type as DXC infers it.
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
            (ImageDimension::Buffer, _) => "buffer",
        }
        .to_string();
        if dim == ImageDimension::Buffer {
            // A typed buffer: the format of its Vulkan buffer view (WebGPU binds the
            // emulating storage buffer, which has none).
            let (kind, components) = match class {
                ImageClass::Sampled {
                    kind, components, ..
                } => (kind, components),
                ImageClass::Storage {
                    kind, components, ..
                } => (kind, components),
            };
            let format = match class {
                ImageClass::Storage { format, .. } => format,
                ImageClass::Sampled { .. } => StorageFormat::inferred(kind, components),
            };
            return Some(TextureReflection {
                view_dimension,
                sample_type: None,
                multisampled: false,
                storage_format: format.wgsl_name().map(str::to_string),
            });
        }
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
pub(crate) enum ShaderStageDef {
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
    TextureBuffer,
    StructuredBuffer,
    RWStructuredBuffer,
    ByteAddressBuffer,
    RWByteAddressBuffer,
    Texture,
    RWTexture,
    Buffer,
    RWBuffer,
    #[serde(rename = "SamplerState")]
    Sampler,
    /// `[[vk::push_constant]]`: a Vulkan push-constant range, an MSL `constant T&` buffer
    /// (at its `msl_index`), a WGSL uniform buffer at its (set, binding).
    PushConstant,
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
pub(crate) mod subgroup_operation_bits {
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
        Reflection::of_module_alone(
            &samples::compact(),
            &[Some(0), Some(1), Some(2)],
            &SourceMap::new(),
        )
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
        let reflection = Reflection::of_module_alone(&module, &[], &SourceMap::new());
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

    fn reflect(name: &str, source: &str) -> Reflection {
        reflect_for(name, source, &crate::CompileOptions::default())
    }

    fn reflect_for(name: &str, source: &str, options: &crate::CompileOptions) -> Reflection {
        let result = crate::compile_source(name, source, options);
        assert!(result.success(), "{:?}", result.short_diagnostics());
        result
            .reflection
            .expect("a successful compile has reflection")
    }

    #[test]
    fn stage_inputs_and_outputs_have_semantics_locations_and_types() {
        let reflection = reflect(
            "io.hlsl",
            r#"
struct VSOut { float4 pos : SV_Position; nointerpolation uint id : BLENDINDICES; float2 uv : TEXCOORD3; };
[shader("vertex")]
VSOut VSMain(float3 p : POSITION, float2 uv : TEXCOORD0, uint v : SV_VertexID) {
    VSOut o; o.pos = float4(p, 1); o.id = v; o.uv = uv; return o;
}
[shader("pixel")]
float4 PSMain(VSOut i) : SV_Target1 { return float4(i.uv, 0, i.id); }
"#,
        );
        let vs = reflection.entry_point("VSMain").expect("VSMain");
        let summary = |vars: &[StageVariable]| -> Vec<(String, String, Option<u32>, String)> {
            vars.iter()
                .map(|v| (v.name.clone(), v.semantic.clone(), v.location, v.ty.clone()))
                .collect()
        };
        let row = |n: &str, s: &str, l: Option<u32>, t: &str| {
            (n.to_string(), s.to_string(), l, t.to_string())
        };
        assert_eq!(
            summary(&vs.inputs),
            [
                row("p", "POSITION", Some(0), "float3"),
                row("uv", "TEXCOORD0", Some(1), "float2"),
                row("v", "SV_VertexID", None, "uint"),
            ]
        );
        // Outputs are known by semantic: the entry wrapper's struct names its members.
        let outputs: Vec<_> = summary(&vs.outputs)
            .into_iter()
            .map(|(_, s, l, t)| (s, l, t))
            .collect();
        let out = |s: &str, l: Option<u32>, t: &str| (s.to_string(), l, t.to_string());
        assert_eq!(
            outputs,
            [
                out("SV_Position", None, "float4"),
                out("BLENDINDICES", Some(0), "uint"),
                out("TEXCOORD3", Some(1), "float2"),
            ]
        );
        assert_eq!(vs.outputs[1].interpolation.as_deref(), Some("flat"));
        let ps = reflection.entry_point("PSMain").expect("PSMain");
        assert_eq!(ps.inputs[2].location, Some(1));
        assert_eq!(
            (ps.outputs[0].semantic.as_str(), ps.outputs[0].location),
            ("SV_Target1", Some(1))
        );
        assert_eq!(ps.subgroup_stages, 0);
        let json = reflection.to_json();
        assert_eq!(Reflection::from_json(&json).ok(), Some(reflection));
    }

    #[test]
    fn integer_matrices_keep_their_hlsl_names() {
        let reflection = reflect_for(
            "int_matrices.hlsl",
            r#"
struct Sample { uint3x3 m; int tail; };
StructuredBuffer<Sample> Samples : register(t0);
RWStructuredBuffer<int2x3> Mats : register(u1);
[numthreads(1, 1, 1)]
void main() { Mats[0] = (int2x3)Samples[0].m; }
"#,
            &crate::CompileOptions::default(),
        );
        let entry = &reflection.entry_points[0];
        let mats = entry.resource("Mats").and_then(|r| r.buffer.as_ref());
        let mats = mats.expect("a buffer layout for Mats");
        assert_eq!(
            (mats.element_type.as_str(), mats.stride),
            ("int2x3", Some(24))
        );
        let samples = entry.resource("Samples").and_then(|r| r.buffer.as_ref());
        let members: Vec<(&str, &str, u32)> = samples
            .expect("a buffer layout for Samples")
            .members
            .iter()
            .map(|m| (m.name.as_str(), m.ty.as_str(), m.offset))
            .collect();
        assert_eq!(members, [("m", "uint3x3", 0), ("tail", "int", 48)]);
    }

    #[test]
    fn type_needs_follow_the_helpers_each_entry_point_reaches() {
        let spirv_only = crate::CompileOptions {
            targets: vec![crate::Target::SpirV],
            ..crate::CompileOptions::default()
        };
        let reflection = reflect_for(
            "needs.hlsl",
            r#"
RWStructuredBuffer<uint> Out : register(u0);
uint Wide(uint x) { uint64_t w = (uint64_t)x << 33; return (uint)(w >> 32); }
uint Narrow(uint x) { return x + 1; }
[numthreads(1, 1, 1)] void UsesWide(uint3 id : SV_DispatchThreadID) { Out[id.x] = Wide(id.x); }
[numthreads(1, 1, 1)] void UsesNarrow(uint3 id : SV_DispatchThreadID) { Out[id.x] = Narrow(id.x); }
"#,
            &spirv_only,
        );
        let needs = |name: &str| {
            reflection
                .entry_points
                .iter()
                .find(|e| e.name == name)
                .map(|e| e.type_needs)
        };
        let int64 = TypeNeeds {
            int64: true,
            ..TypeNeeds::default()
        };
        assert_eq!(needs("UsesWide"), Some(int64));
        assert_eq!(needs("UsesNarrow"), Some(TypeNeeds::default()));
    }

    #[test]
    fn buffers_have_element_type_stride_and_member_offsets() {
        // MSL and WGSL have no `double`; SPIR-V does.
        let spirv_only = crate::CompileOptions {
            targets: vec![crate::Target::SpirV],
            ..crate::CompileOptions::default()
        };
        let reflection = reflect_for(
            "layout.hlsl",
            r#"
struct Particle { float3 position; uint flags; double mass; float2 uv[2]; };
cbuffer Frame : register(b0, space1) { float4x4 viewProj; float time; };
RWStructuredBuffer<Particle> Particles : register(u0);
[shader("compute")] [numthreads(8, 1, 1)]
void CSMain(uint3 id : SV_DispatchThreadID) {
    Particles[id.x].mass += 1.0;
    Particles[id.x].position.x += time * viewProj[0][0];
}
"#,
            &spirv_only,
        );
        let entry = &reflection.entry_points[0];
        let particles = entry.resource("Particles").expect("Particles");
        let layout = particles.buffer.as_ref().expect("a buffer layout");
        assert_eq!(layout.element_type, "Particle");
        let members: Vec<(&str, &str, u32)> = layout
            .members
            .iter()
            .map(|m| (m.name.as_str(), m.ty.as_str(), m.offset))
            .collect();
        assert_eq!(
            members,
            [
                ("position", "float3", 0),
                ("flags", "uint", 12),
                ("mass", "double", 16),
                ("uv", "float2[2]", 24)
            ]
        );
        assert_eq!(layout.members[3].array_stride, Some(8));
        assert_eq!(layout.stride, Some(layout.size));
        // A float3 member aligns the struct to 16 bytes (std430, as DXC lays it out).
        assert_eq!(layout.size, 48);
        let frame = entry.resource("Frame").expect("Frame");
        assert_eq!((frame.wgsl_group, frame.wgsl_binding), (1, 0));
        let frame = frame.buffer.as_ref().expect("a cbuffer layout");
        assert_eq!(frame.stride, None);
        assert_eq!(frame.members[1].name, "time");
        assert_eq!(frame.members[1].offset, 64);
        assert_eq!(
            entry.type_needs,
            TypeNeeds {
                float64: true,
                ..TypeNeeds::default()
            }
        );
        let json = reflection.to_json();
        let value: serde_json::Value = serde_json::from_str(&json).expect("JSON");
        assert_eq!(value["version"], REFLECTION_SCHEMA_VERSION);
        assert_eq!(
            value["entry_points"][0]["resources"][1]["buffer"]["members"][2]["type"],
            "double"
        );
        assert_eq!(Reflection::from_json(&json).ok(), Some(reflection));
    }

    #[test]
    fn malformed_json_is_an_error() {
        assert!(Reflection::from_json("{\"entry_points\": [{\"name\": 1}]}").is_err());
    }
}
