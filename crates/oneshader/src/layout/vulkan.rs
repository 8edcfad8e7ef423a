//! The Vulkan form of a pipeline layout: descriptor set layouts, and what the device's
//! `VkPhysicalDeviceSubgroupProperties` must report.

use oneshader_ir::{ResourceKind, ShaderStage};
use serde::{Deserialize, Serialize};

use super::{LayoutError, PipelineLayout, PipelineResource};
use crate::reflection::vk_shader_stage_bit;

/// The descriptor set layouts of a pipeline and its subgroup needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VulkanPipelineLayout {
    /// One layout per descriptor set, set 0 first; sets no resource uses are empty
    /// (`vkCreatePipelineLayout` takes them all, in order).
    pub set_layouts: Vec<VulkanDescriptorSetLayout>,
    /// `VkSubgroupFeatureFlags` the device must have in
    /// `VkPhysicalDeviceSubgroupProperties::supportedOperations`.
    pub subgroup_operations: u32,
    /// `VkShaderStageFlags` the device must have in
    /// `VkPhysicalDeviceSubgroupProperties::supportedStages`.
    pub subgroup_stages: u32,
    /// Whether `quadOperationsInAllStages` must be true.
    pub quad_operations_in_all_stages: bool,
    /// The `VkPushConstantRange`s: one for the `[[vk::push_constant]]` block, when an
    /// entry point reads one (a push-constant block is no descriptor).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub push_constant_ranges: Vec<VulkanPushConstantRange>,
}

/// A `VkPushConstantRange`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VulkanPushConstantRange {
    /// The HLSL name of the push-constant block.
    pub name: String,
    /// `stageFlags`: the `VkShaderStageFlags` of the entry points that read it.
    pub stage_flags: u32,
    /// `offset`: always 0 (the block's member offsets start at 0, as DXC lays them out).
    pub offset: u32,
    /// `size`: the block's size in bytes, padding included.
    pub size: u32,
}

/// A `VkDescriptorSetLayoutCreateInfo`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VulkanDescriptorSetLayout {
    /// The set number.
    pub set: u32,
    /// Its bindings, by binding number.
    pub bindings: Vec<VulkanDescriptorSetLayoutBinding>,
}

/// A `VkDescriptorSetLayoutBinding`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct VulkanDescriptorSetLayoutBinding {
    /// `binding`.
    pub binding: u32,
    /// The HLSL name of the resource.
    pub name: String,
    /// `descriptorType`, by its `VkDescriptorType` name
    /// (`VK_DESCRIPTOR_TYPE_STORAGE_BUFFER`).
    pub descriptor_type: String,
    /// `descriptorCount`.
    pub descriptor_count: u32,
    /// `stageFlags`: the `VkShaderStageFlags` of the entry points that use it.
    pub stage_flags: u32,
}

impl VulkanDescriptorSetLayoutBinding {
    /// The `VkDescriptorType` number of `descriptor_type`.
    pub fn descriptor_type_value(&self) -> Option<u32> {
        DESCRIPTOR_TYPES
            .iter()
            .find(|(name, _)| *name == self.descriptor_type)
            .map(|&(_, value)| value)
    }
}

/// The `VkDescriptorType`s the SPIR-V output uses, with their values.
const DESCRIPTOR_TYPES: [(&str, u32); 7] = [
    ("VK_DESCRIPTOR_TYPE_SAMPLER", 0),
    ("VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE", 2),
    ("VK_DESCRIPTOR_TYPE_STORAGE_IMAGE", 3),
    ("VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER", 4),
    ("VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER", 5),
    ("VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER", 6),
    ("VK_DESCRIPTOR_TYPE_STORAGE_BUFFER", 7),
];

/// The `VkDescriptorType` the SPIR-V output declares a resource of `kind` as: separate
/// images and samplers, as DXC emits them. A push-constant block is no descriptor: its
/// data is in a [`VulkanPushConstantRange`], and this gives `None`.
pub fn descriptor_type_name(kind: ResourceKind) -> Option<&'static str> {
    Some(match kind {
        ResourceKind::PushConstant => return None,
        ResourceKind::ConstantBuffer => "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER",
        ResourceKind::TextureBuffer
        | ResourceKind::StructuredBuffer
        | ResourceKind::RWStructuredBuffer
        | ResourceKind::ByteAddressBuffer
        | ResourceKind::RWByteAddressBuffer => "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER",
        ResourceKind::Texture => "VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE",
        ResourceKind::RWTexture => "VK_DESCRIPTOR_TYPE_STORAGE_IMAGE",
        ResourceKind::Buffer => "VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER",
        ResourceKind::RWBuffer => "VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER",
        ResourceKind::Sampler => "VK_DESCRIPTOR_TYPE_SAMPLER",
    })
}

impl PipelineLayout {
    /// The Vulkan descriptor set layouts, or why there are none (two resources at one
    /// binding).
    pub fn try_to_vulkan(&self) -> Result<VulkanPipelineLayout, LayoutError> {
        let resources = self.merged_resources()?;
        let mut set_layouts: Vec<VulkanDescriptorSetLayout> = Vec::new();
        let mut push_constant_ranges = Vec::new();
        for merged in &resources {
            let Some(descriptor_type) = descriptor_type_name(merged.resource.kind) else {
                push_constant_ranges.push(VulkanPushConstantRange {
                    name: merged.resource.name.clone(),
                    stage_flags: stage_flags(merged),
                    offset: 0,
                    size: merged.resource.buffer.as_ref().map_or(0, |b| b.size),
                });
                continue;
            };
            let set = merged.resource.set;
            while set_layouts.len() as u32 <= set {
                set_layouts.push(VulkanDescriptorSetLayout {
                    set: set_layouts.len() as u32,
                    bindings: Vec::new(),
                });
            }
            if let Some(layout) = set_layouts.get_mut(set as usize) {
                layout.bindings.push(binding(merged, descriptor_type));
            }
        }
        Ok(VulkanPipelineLayout {
            set_layouts,
            subgroup_operations: self.subgroup_operations().bits(),
            subgroup_stages: self.subgroup_stages(),
            quad_operations_in_all_stages: self.entries.iter().any(|e| {
                e.subgroup_operations
                    .contains(oneshader_ir::SubgroupOperations::QUAD)
                    && !matches!(e.stage, ShaderStage::Fragment | ShaderStage::Compute)
            }),
            push_constant_ranges,
        })
    }
}

fn binding(
    merged: &PipelineResource<'_>,
    descriptor_type: &str,
) -> VulkanDescriptorSetLayoutBinding {
    VulkanDescriptorSetLayoutBinding {
        binding: merged.resource.binding,
        name: merged.resource.name.clone(),
        descriptor_type: descriptor_type.to_string(),
        descriptor_count: 1,
        stage_flags: stage_flags(merged),
    }
}

/// The `VkShaderStageFlags` of the entry points that use `merged`.
fn stage_flags(merged: &PipelineResource<'_>) -> u32 {
    merged.users.iter().fold(0, |flags, (entry, _)| {
        flags | vk_shader_stage_bit(entry.stage)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::layout::EntryLayout;
    use crate::{compile_source, CompileOptions};

    const GRAPHICS: &str = r#"
cbuffer Frame : register(b0) { float4x4 viewProj; float4 tint; };
Texture2D<float4> Albedo : register(t1);
SamplerState Linear : register(s2);
struct VSOut { float4 pos : SV_Position; float2 uv : TEXCOORD0; };
[shader("vertex")]
VSOut VSMain(float3 p : POSITION, float2 uv : TEXCOORD0) {
    VSOut o; o.pos = mul(viewProj, float4(p, 1)); o.uv = uv; return o;
}
[shader("pixel")]
float4 PSMain(VSOut i) : SV_Target {
    return Albedo.Sample(Linear, i.uv) * tint + WaveActiveSum(i.uv.x);
}
"#;

    fn graphics_pipeline() -> PipelineLayout {
        let result = compile_source("graphics.hlsl", GRAPHICS, &CompileOptions::default());
        assert!(result.success(), "{:?}", result.short_diagnostics());
        let reflection = result.reflection.expect("reflection");
        let vs = EntryLayout::from_reflection(&reflection, "VSMain").expect("VSMain");
        let ps = EntryLayout::from_reflection(&reflection, "PSMain").expect("PSMain");
        PipelineLayout::new(&[vs, ps])
    }

    #[test]
    fn vertex_and_pixel_merge_with_stage_flags() {
        let layout = graphics_pipeline().try_to_vulkan().expect("a layout");
        let bindings: Vec<(u32, &str, &str, u32)> = layout.set_layouts[0]
            .bindings
            .iter()
            .map(|b| {
                (
                    b.binding,
                    b.name.as_str(),
                    b.descriptor_type.as_str(),
                    b.stage_flags,
                )
            })
            .collect();
        assert_eq!(
            bindings,
            [
                (0, "Frame", "VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER", 0x1 | 0x10),
                (1, "Albedo", "VK_DESCRIPTOR_TYPE_SAMPLED_IMAGE", 0x10),
                (2, "Linear", "VK_DESCRIPTOR_TYPE_SAMPLER", 0x10),
            ]
        );
        assert_eq!(
            layout.set_layouts[0].bindings[1].descriptor_type_value(),
            Some(2)
        );
        // Only the pixel shader uses a wave operation: Basic | Arithmetic in the fragment stage.
        assert_eq!(layout.subgroup_operations, 0x5);
        assert_eq!(layout.subgroup_stages, 0x10);
        assert!(!layout.quad_operations_in_all_stages);
    }

    #[test]
    fn vertex_and_pixel_merge_for_webgpu_with_visibility() {
        let layout = graphics_pipeline()
            .try_to_webgpu(&crate::WebGpuLayoutOptions::default())
            .expect("a layout");
        let frame = &layout.bind_group_layouts[0].entries[0];
        assert_eq!(frame.name, "Frame");
        assert!(frame.visibility.vertex && frame.visibility.fragment && !frame.visibility.compute);
        let albedo = &layout.bind_group_layouts[0].entries[1];
        assert!(!albedo.visibility.vertex && albedo.visibility.fragment);
        let json = serde_json::to_value(&layout).expect("serializes");
        assert_eq!(
            json["bindGroupLayouts"][0]["entries"][0]["type"]["buffer"],
            "uniform"
        );
        assert_eq!(
            json["bindGroupLayouts"][0]["entries"][1]["type"]["texture"]["sampleType"],
            "float"
        );
        assert_eq!(json["requiredFeatures"][0], "subgroups");
        let back: crate::WebGpuPipelineLayout = serde_json::from_value(json).expect("round trips");
        assert_eq!(back, layout);
    }

    #[test]
    fn one_binding_with_two_kinds_names_both_declarations() {
        let source = r#"
StructuredBuffer<float> A : register(t0);
[shader("compute")] [numthreads(1,1,1)] void First(uint3 id : SV_DispatchThreadID) { float x = A[id.x]; }
"#;
        let other = r#"
cbuffer B : register(b0) { float scale; };
RWStructuredBuffer<float> Out : register(u1);
[shader("compute")] [numthreads(1,1,1)] void Second() { Out[0] = scale; }
"#;
        let first = compile_source("first.hlsl", source, &CompileOptions::default());
        let second = compile_source("second.hlsl", other, &CompileOptions::default());
        let first = EntryLayout::from_reflection(first.reflection.as_ref().expect("ok"), "First")
            .expect("First");
        let second =
            EntryLayout::from_reflection(second.reflection.as_ref().expect("ok"), "Second")
                .expect("Second");
        let error = PipelineLayout::new(&[first, second])
            .try_to_vulkan()
            .expect_err("A and B share set 0, binding 0");
        assert_eq!(
            error.to_string(),
            "'A' (StructuredBuffer, declared at first.hlsl(2,25)) and 'B' (ConstantBuffer, \
             declared at second.hlsl(2,1)) are both bound at set 0, binding 0"
        );
    }

    #[test]
    fn pipeline_layout_and_vulkan_layout_round_trip_through_json() {
        let pipeline = graphics_pipeline();
        let json = serde_json::to_string(&pipeline).expect("serializes");
        let back: PipelineLayout = serde_json::from_str(&json).expect("deserializes");
        assert_eq!(back, pipeline);
        let vulkan = pipeline.try_to_vulkan().expect("a layout");
        let json = serde_json::to_string(&vulkan).expect("serializes");
        let back: VulkanPipelineLayout = serde_json::from_str(&json).expect("deserializes");
        assert_eq!(back, vulkan);
    }

    #[test]
    fn a_push_constant_block_is_a_range_in_vulkan_and_a_uniform_after_every_group_in_webgpu() {
        let source = r#"
struct Root { uint shift; float scale; uint2 pad; };
[[vk::push_constant]] Root root;
[[vk::binding(1, 2)]] RWStructuredBuffer<float> Out : register(u0);
[numthreads(1, 1, 1)] void main() { Out[0] = root.scale * root.shift; }
"#;
        let result = compile_source("push.hlsl", source, &CompileOptions::default());
        assert!(result.success(), "{:?}", result.short_diagnostics());
        let reflection = result.reflection.expect("reflection");
        let root = reflection.entry_points[0].resource("root").expect("root");
        assert_eq!(root.kind, ResourceKind::PushConstant);
        assert_eq!((root.wgsl_group, root.wgsl_binding), (3, 0));
        let entry = EntryLayout::from_reflection(&reflection, "main").expect("main");
        let pipeline = PipelineLayout::new(&[entry]);
        let vulkan = pipeline.try_to_vulkan().expect("a layout");
        assert_eq!(
            vulkan.push_constant_ranges,
            [VulkanPushConstantRange {
                name: "root".into(),
                stage_flags: 0x20,
                offset: 0,
                size: 16,
            }]
        );
        let descriptors: Vec<_> = vulkan
            .set_layouts
            .iter()
            .flat_map(|s| s.bindings.iter().map(|b| (s.set, b.name.as_str())))
            .collect();
        assert_eq!(descriptors, [(2, "Out")]);
        let webgpu = pipeline
            .try_to_webgpu(&crate::WebGpuLayoutOptions::default())
            .expect("a layout");
        let root = &webgpu.bind_group_layouts[3].entries[0];
        assert_eq!((root.name.as_str(), root.binding), ("root", 0));
        assert_eq!(
            root.ty,
            crate::WebGpuBindingType::Buffer(crate::WebGpuBufferBindingType::Uniform)
        );
    }

    #[test]
    fn a_tbuffer_is_a_read_only_storage_buffer_with_its_cbuffer_size() {
        let source = r#"
tbuffer Material : register(t0) { float4 color; float weights[2]; };
struct L { float3 dir; float power; };
TextureBuffer<L> Light : register(t1, space1);
RWStructuredBuffer<float4> Out : register(u2);
[numthreads(1, 1, 1)] void main() { Out[0] = color * weights[1] + Light.power; }
"#;
        let result = compile_source("tbuffer.hlsl", source, &CompileOptions::default());
        assert!(result.success(), "{:?}", result.short_diagnostics());
        let reflection = result.reflection.expect("reflection");
        let entry = &reflection.entry_points[0];
        let material = entry.resource("Material").expect("Material");
        assert_eq!(material.kind, ResourceKind::TextureBuffer);
        assert!(material.access.read && !material.access.write);
        // float4 at 0, weights[0] at 16, weights[1] at 32: three 16-byte rows.
        assert_eq!(material.buffer.as_ref().map(|l| l.size), Some(48));
        let light = entry.resource("Light").expect("Light");
        assert_eq!(
            (light.kind, light.set, light.binding),
            (ResourceKind::TextureBuffer, 1, 1)
        );
        let pipeline =
            PipelineLayout::new(
                &[EntryLayout::from_reflection(&reflection, "main").expect("main")],
            );
        let vulkan = pipeline.try_to_vulkan().expect("a layout");
        let descriptors: Vec<_> = vulkan
            .set_layouts
            .iter()
            .flat_map(|s| {
                s.bindings
                    .iter()
                    .map(|b| (b.name.as_str(), b.descriptor_type.as_str()))
            })
            .collect();
        assert_eq!(
            descriptors,
            [
                ("Material", "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"),
                ("Out", "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"),
                ("Light", "VK_DESCRIPTOR_TYPE_STORAGE_BUFFER"),
            ]
        );
        let webgpu = pipeline
            .try_to_webgpu(&crate::WebGpuLayoutOptions::default())
            .expect("a layout");
        assert_eq!(
            webgpu.bind_group_layouts[0].entries[0].ty,
            crate::WebGpuBindingType::Buffer(crate::WebGpuBufferBindingType::ReadOnlyStorage)
        );
    }
}
