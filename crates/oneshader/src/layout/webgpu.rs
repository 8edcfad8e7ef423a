//! The WebGPU form of a pipeline layout: bind group layouts and required features.

use std::fmt;

use oneshader_ir::{ResourceKind, ShaderStage};
use serde::{Deserialize, Serialize};

use super::{is_storage_buffer, LayoutError, PipelineLayout, PipelineResource};

/// Choices the WebGPU layout cannot take from the shader alone.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WebGpuLayoutOptions {
    /// Storage buffers to bind as `read-only-storage`. Shader-resource buffers
    /// (`StructuredBuffer`, `ByteAddressBuffer`) always are; list a `RW` buffer here
    /// when this pipeline only reads it. Naming a buffer an entry point writes is an
    /// error.
    pub read_only_storage_buffers: Vec<String>,
}

/// A `GPUPipelineLayout` description plus the device features it needs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebGpuPipelineLayout {
    /// One layout per bind group, group 0 first; groups no resource uses are empty.
    pub bind_group_layouts: Vec<WebGpuBindGroupLayout>,
    /// The `GPUFeatureName`s to request when creating the device (`subgroups`).
    pub required_features: Vec<String>,
}

/// A `GPUBindGroupLayout` description.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebGpuBindGroupLayout {
    /// The bind group index (`@group`, the HLSL register space).
    pub group: u32,
    /// Its entries, by binding.
    pub entries: Vec<WebGpuBindGroupLayoutEntry>,
}

/// A `GPUBindGroupLayoutEntry`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebGpuBindGroupLayoutEntry {
    /// The `@binding` number.
    pub binding: u32,
    /// The HLSL name of the resource bound here.
    pub name: String,
    /// The stages that use it.
    pub visibility: WebGpuShaderStages,
    /// What is bound: `{"buffer": "storage"}`, `{"texture": {...}}`, … in JSON.
    #[serde(rename = "type")]
    pub ty: WebGpuBindingType,
}

/// `GPUShaderStageFlags`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WebGpuShaderStages {
    /// `GPUShaderStage.VERTEX`.
    pub vertex: bool,
    /// `GPUShaderStage.FRAGMENT`.
    pub fragment: bool,
    /// `GPUShaderStage.COMPUTE`.
    pub compute: bool,
}

impl WebGpuShaderStages {
    fn add(&mut self, stage: ShaderStage) {
        match stage {
            ShaderStage::Vertex => self.vertex = true,
            ShaderStage::Fragment => self.fragment = true,
            ShaderStage::Compute => self.compute = true,
        }
    }
}

/// The resource member of a `GPUBindGroupLayoutEntry`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum WebGpuBindingType {
    /// `buffer: { type }`.
    Buffer(WebGpuBufferBindingType),
    /// `texture: { sampleType, viewDimension, multisampled }`. Float textures are
    /// `float` (filterable); bind an unfilterable format (`rgba32float`) through a
    /// layout of your own with `unfilterable-float` and a `non-filtering` sampler.
    Texture {
        /// `float`, `sint`, `uint` or `depth`.
        sample_type: String,
        /// `2d`, `2d-array`, `3d`, `cube`, …
        view_dimension: String,
        /// `Texture2DMS`.
        multisampled: bool,
    },
    /// `storageTexture: { access, format, viewDimension }`.
    StorageTexture {
        /// `read-only`, `write-only` or `read-write`, from what the code does.
        access: String,
        /// The texel format (`rgba8unorm`, `r32float`, …).
        format: String,
        /// `2d`, `2d-array`, `3d`, …
        view_dimension: String,
    },
    /// `sampler: { type }`: `filtering`, or `comparison` for `SamplerComparisonState`.
    Sampler(String),
}

/// `GPUBufferBindingType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WebGpuBufferBindingType {
    /// `uniform`: constant buffers.
    Uniform,
    /// `storage`: buffers the shader may write.
    Storage,
    /// `read-only-storage`: buffers the shader only reads.
    ReadOnlyStorage,
}

/// Prints the WebGPU spelling: `uniform`, `storage`, `read-only-storage`.
impl fmt::Display for WebGpuBufferBindingType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WebGpuBufferBindingType::Uniform => "uniform",
            WebGpuBufferBindingType::Storage => "storage",
            WebGpuBufferBindingType::ReadOnlyStorage => "read-only-storage",
        })
    }
}

impl PipelineLayout {
    /// The WebGPU pipeline layout, or why there is none.
    pub fn try_to_webgpu(
        &self,
        options: &WebGpuLayoutOptions,
    ) -> Result<WebGpuPipelineLayout, LayoutError> {
        let resources = self.merged_resources()?;
        for name in &options.read_only_storage_buffers {
            let known = resources
                .iter()
                .any(|r| &r.resource.name == name && is_storage_buffer(r.resource.kind));
            if !known {
                return Err(LayoutError::NotAStorageBuffer { name: name.clone() });
            }
        }

        let mut bind_group_layouts: Vec<WebGpuBindGroupLayout> = Vec::new();
        for resource in &resources {
            let entry = bind_group_entry(resource, options)?;
            let group = resource.resource.set;
            while bind_group_layouts.len() as u32 <= group {
                bind_group_layouts.push(WebGpuBindGroupLayout {
                    group: bind_group_layouts.len() as u32,
                    entries: Vec::new(),
                });
            }
            if let Some(layout) = bind_group_layouts.get_mut(group as usize) {
                layout.entries.push(entry);
            }
        }

        for entry in &self.entries {
            if let Some(what) = entry.type_needs.missing_in_webgpu() {
                return Err(LayoutError::TypeNotInWebGpu {
                    entry_point: entry.entry_point.clone(),
                    what,
                });
            }
        }
        let needs = self.type_needs();
        let mut required_features = Vec::new();
        if needs.float16 {
            required_features.push("shader-f16".to_string());
        }
        if !self.subgroup_operations().is_empty() {
            required_features.push("subgroups".to_string());
        }
        Ok(WebGpuPipelineLayout {
            bind_group_layouts,
            required_features,
        })
    }
}

/// The entry of a texture or sampler.
fn handle_entry(merged: &PipelineResource<'_>) -> Result<WebGpuBindGroupLayoutEntry, LayoutError> {
    let resource = merged.resource;
    let unsupported = || LayoutError::UnsupportedResource {
        name: resource.name.clone(),
        kind: resource.kind.hlsl_name(),
    };
    let ty = match (&resource.kind, &resource.texture) {
        (ResourceKind::Sampler, _) => WebGpuBindingType::Sampler(
            if resource.comparison_sampler {
                "comparison"
            } else {
                "filtering"
            }
            .into(),
        ),
        (ResourceKind::Texture, Some(texture)) => WebGpuBindingType::Texture {
            sample_type: texture.sample_type.clone().ok_or_else(unsupported)?,
            view_dimension: texture.view_dimension.clone(),
            multisampled: texture.multisampled,
        },
        (ResourceKind::RWTexture, Some(texture)) => {
            let (read, write) = merged.users.iter().fold((false, false), |(r, w), (_, u)| {
                (r || u.access.read, w || u.access.write)
            });
            WebGpuBindingType::StorageTexture {
                access: match (read, write) {
                    (true, true) => "read-write",
                    (false, true) => "write-only",
                    _ => "read-only",
                }
                .into(),
                format: texture.storage_format.clone().ok_or_else(unsupported)?,
                view_dimension: texture.view_dimension.clone(),
            }
        }
        _ => return Err(unsupported()),
    };
    let mut visibility = WebGpuShaderStages::default();
    for (entry, _) in &merged.users {
        visibility.add(entry.stage);
    }
    Ok(WebGpuBindGroupLayoutEntry {
        binding: resource.binding,
        name: resource.name.clone(),
        visibility,
        ty,
    })
}

fn bind_group_entry(
    merged: &PipelineResource<'_>,
    options: &WebGpuLayoutOptions,
) -> Result<WebGpuBindGroupLayoutEntry, LayoutError> {
    let resource = merged.resource;
    let listed_read_only = options
        .read_only_storage_buffers
        .iter()
        .any(|n| n == &resource.name);
    let buffer_type = match resource.kind {
        // WebGPU has no push constants: the WGSL output reads the block from a uniform
        // buffer at the reflected (group, binding).
        ResourceKind::ConstantBuffer | ResourceKind::PushConstant => {
            WebGpuBufferBindingType::Uniform
        }
        // Typed buffers are storage buffers of their element type in WGSL.
        ResourceKind::TextureBuffer
        | ResourceKind::StructuredBuffer
        | ResourceKind::ByteAddressBuffer
        | ResourceKind::Buffer => WebGpuBufferBindingType::ReadOnlyStorage,
        ResourceKind::RWStructuredBuffer
        | ResourceKind::RWByteAddressBuffer
        | ResourceKind::RWBuffer => {
            if listed_read_only {
                if let Some(writer) = merged.first_writer() {
                    return Err(LayoutError::ReadOnlyBufferWritten {
                        buffer: resource.name.clone(),
                        entry_point: writer.entry_point.clone(),
                    });
                }
                WebGpuBufferBindingType::ReadOnlyStorage
            } else {
                WebGpuBufferBindingType::Storage
            }
        }
        ResourceKind::Texture | ResourceKind::RWTexture | ResourceKind::Sampler => {
            return handle_entry(merged);
        }
    };
    let mut visibility = WebGpuShaderStages::default();
    for (entry, _) in &merged.users {
        visibility.add(entry.stage);
        if entry.stage == ShaderStage::Vertex && buffer_type == WebGpuBufferBindingType::Storage {
            return Err(LayoutError::WritableStorageInVertexStage {
                buffer: resource.name.clone(),
                entry_point: entry.entry_point.clone(),
            });
        }
    }
    Ok(WebGpuBindGroupLayoutEntry {
        binding: resource.binding,
        name: resource.name.clone(),
        visibility,
        ty: WebGpuBindingType::Buffer(buffer_type),
    })
}
