//! Pipeline layouts built from reflection: which resources each entry point binds,
//! merged across the entry points of one pipeline, and converted to an API's form.
//!
//! Build an [`EntryLayout`] per entry point from a [`Reflection`], combine them into
//! a [`PipelineLayout`], and convert that with [`PipelineLayout::try_to_webgpu`].

pub mod vulkan;
pub mod webgpu;

use oneshader_ir::{ResourceKind, ShaderStage, SubgroupOperations};
use serde::{Deserialize, Serialize};

use crate::reflection::{Reflection, ResourceReflection, SourceLocation, TypeNeeds};

pub use vulkan::{
    VulkanDescriptorSetLayout, VulkanDescriptorSetLayoutBinding, VulkanPipelineLayout,
    VulkanPushConstantRange,
};

pub use webgpu::{
    WebGpuBindGroupLayout, WebGpuBindGroupLayoutEntry, WebGpuBindingType, WebGpuBufferBindingType,
    WebGpuLayoutOptions, WebGpuPipelineLayout, WebGpuShaderStages,
};

/// Why a layout could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LayoutError {
    /// The reflection has no entry point of that name.
    #[error("the reflection has no entry point '{name}' (it has: {})", available.join(", "))]
    EntryPointNotFound {
        /// The name asked for.
        name: String,
        /// The entry points the reflection does have.
        available: Vec<String>,
    },
    /// Two different resources, or one name with two kinds, are bound at one
    /// (set, binding).
    #[error("{first} and {second} are both bound at set {set}, binding {binding}")]
    BindingConflict {
        /// The set (bind group).
        set: u32,
        /// The binding.
        binding: u32,
        /// The resource seen first.
        first: Box<Declaration>,
        /// The resource that collides with it.
        second: Box<Declaration>,
    },
    /// An entry point needs an arithmetic type WebGPU has no feature for.
    #[error("entry point '{entry_point}' uses {what}, which WebGPU does not support")]
    TypeNotInWebGpu {
        /// The entry point.
        entry_point: String,
        /// `64-bit integers`, `64-bit floats` or `16-bit integers`.
        what: &'static str,
    },
    /// A buffer listed as read-only is written by an entry point.
    #[error(
        "'{buffer}' cannot be a read-only storage buffer: entry point '{entry_point}' writes it"
    )]
    ReadOnlyBufferWritten {
        /// The buffer.
        buffer: String,
        /// An entry point that writes it.
        entry_point: String,
    },
    /// A name listed as a read-only storage buffer is no storage buffer of the pipeline.
    #[error("'{name}' is not a storage buffer that the pipeline's entry points use")]
    NotAStorageBuffer {
        /// The name given.
        name: String,
    },
    /// A writable storage buffer is visible to a vertex shader, which WebGPU forbids.
    #[error("'{buffer}' is a writable storage buffer used by vertex shader '{entry_point}', which WebGPU does not allow")]
    WritableStorageInVertexStage {
        /// The buffer.
        buffer: String,
        /// The vertex entry point.
        entry_point: String,
    },
    /// A resource kind this version cannot describe in the target API's layout.
    #[error("'{name}' is a {kind}, which WebGPU layouts do not describe yet")]
    UnsupportedResource {
        /// The resource.
        name: String,
        /// Its HLSL kind.
        kind: &'static str,
    },
}

/// One side of a binding conflict: a resource, its kind and where it is declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Declaration {
    /// The HLSL name.
    pub name: String,
    /// The HLSL kind (`StructuredBuffer`).
    pub kind: &'static str,
    /// Where it is declared, when known.
    pub declared_at: Option<SourceLocation>,
}

impl Declaration {
    fn of(resource: &ResourceReflection) -> Box<Declaration> {
        Box::new(Declaration {
            name: resource.name.clone(),
            kind: resource.kind.hlsl_name(),
            declared_at: resource.declared_at.clone(),
        })
    }
}

/// `'Name' (Kind, declared at file(line,col))`.
impl std::fmt::Display for Declaration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.declared_at {
            Some(at) => write!(f, "'{}' ({}, declared at {at})", self.name, self.kind),
            None => write!(f, "'{}' ({})", self.name, self.kind),
        }
    }
}

/// What one entry point binds, and what the device must support to run it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryLayout {
    /// The entry point's name.
    pub entry_point: String,
    /// Its stage.
    #[serde(with = "crate::reflection::ShaderStageDef")]
    pub stage: ShaderStage,
    /// The resources it uses, with their access.
    pub resources: Vec<ResourceReflection>,
    /// The Vulkan subgroup operations it needs.
    #[serde(with = "crate::reflection::subgroup_operation_bits")]
    pub subgroup_operations: SubgroupOperations,
    /// The arithmetic types beyond 32 bits it uses.
    #[serde(default)]
    pub type_needs: TypeNeeds,
}

impl EntryLayout {
    /// The layout of the entry point `entry` of `reflection`.
    pub fn from_reflection(
        reflection: &Reflection,
        entry: &str,
    ) -> Result<EntryLayout, LayoutError> {
        let found =
            reflection
                .entry_point(entry)
                .ok_or_else(|| LayoutError::EntryPointNotFound {
                    name: entry.to_string(),
                    available: reflection
                        .entry_points
                        .iter()
                        .map(|e| e.name.clone())
                        .collect(),
                })?;
        Ok(EntryLayout {
            entry_point: found.name.clone(),
            stage: found.stage,
            resources: found.resources.clone(),
            subgroup_operations: found.subgroup_operations,
            type_needs: found.type_needs,
        })
    }
}

/// The entry points of one pipeline (a compute shader, or a vertex and a pixel shader).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PipelineLayout {
    /// The entry points' layouts, in the order given.
    pub entries: Vec<EntryLayout>,
}

impl PipelineLayout {
    /// The pipeline made of `entries`.
    pub fn new(entries: &[EntryLayout]) -> PipelineLayout {
        PipelineLayout {
            entries: entries.to_vec(),
        }
    }

    /// The subgroup operations any of the entry points needs.
    pub fn subgroup_operations(&self) -> SubgroupOperations {
        self.entries
            .iter()
            .fold(SubgroupOperations::empty(), |ops, e| {
                ops | e.subgroup_operations
            })
    }

    /// The `VkShaderStageFlags` of the stages whose entry points use subgroup operations:
    /// compare with `VkPhysicalDeviceSubgroupProperties::supportedStages`.
    pub fn subgroup_stages(&self) -> u32 {
        self.entries
            .iter()
            .filter(|e| !e.subgroup_operations.is_empty())
            .fold(0, |stages, e| {
                stages | crate::reflection::vk_shader_stage_bit(e.stage)
            })
    }

    /// The arithmetic types beyond 32 bits any of the entry points uses.
    pub fn type_needs(&self) -> TypeNeeds {
        self.entries
            .iter()
            .fold(TypeNeeds::default(), |needs, e| needs.union(e.type_needs))
    }

    /// Every resource of the pipeline, once per (set, binding), with the entry points
    /// that use it; two different resources at one binding are an error.
    pub(crate) fn merged_resources(&self) -> Result<Vec<PipelineResource<'_>>, LayoutError> {
        let mut merged: Vec<PipelineResource<'_>> = Vec::new();
        for entry in &self.entries {
            for resource in &entry.resources {
                let existing = merged.iter_mut().find(|m| {
                    m.resource.set == resource.set && m.resource.binding == resource.binding
                });
                match existing {
                    Some(m)
                        if m.resource.name != resource.name || m.resource.kind != resource.kind =>
                    {
                        return Err(LayoutError::BindingConflict {
                            set: resource.set,
                            binding: resource.binding,
                            first: Declaration::of(m.resource),
                            second: Declaration::of(resource),
                        });
                    }
                    Some(m) => m.users.push((entry, resource)),
                    None => merged.push(PipelineResource {
                        resource,
                        users: vec![(entry, resource)],
                    }),
                }
            }
        }
        merged.sort_by_key(|m| (m.resource.set, m.resource.binding));
        Ok(merged)
    }
}

/// One binding of a pipeline and the entry points that use it.
pub(crate) struct PipelineResource<'a> {
    /// The resource as the first user reflects it.
    pub resource: &'a ResourceReflection,
    /// Each entry point using it, with its own view of the resource's access.
    pub users: Vec<(&'a EntryLayout, &'a ResourceReflection)>,
}

impl PipelineResource<'_> {
    /// The first entry point that writes the resource (atomics count as writes).
    pub fn first_writer(&self) -> Option<&EntryLayout> {
        self.users
            .iter()
            .find(|(_, r)| r.access.write || r.access.atomic)
            .map(|(e, _)| *e)
    }
}

/// Whether `kind` is a buffer of storage (not uniform) memory.
pub(crate) fn is_storage_buffer(kind: ResourceKind) -> bool {
    matches!(
        kind,
        ResourceKind::TextureBuffer
            | ResourceKind::StructuredBuffer
            | ResourceKind::RWStructuredBuffer
            | ResourceKind::ByteAddressBuffer
            | ResourceKind::RWByteAddressBuffer
            | ResourceKind::Buffer
            | ResourceKind::RWBuffer
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reflection::Reflection;
    use oneshader_ir::samples;

    fn compact_pipeline() -> PipelineLayout {
        let reflection =
            Reflection::of_module_alone(&samples::compact(), &[], &oneshader_ir::SourceMap::new());
        let cs = EntryLayout::from_reflection(&reflection, "CSMain").expect("CSMain exists");
        PipelineLayout::new(&[cs])
    }

    #[test]
    fn compact_webgpu_layout() {
        let options = WebGpuLayoutOptions {
            read_only_storage_buffers: vec!["Values".into()],
        };
        let layout = compact_pipeline()
            .try_to_webgpu(&options)
            .expect("Compact has a WebGPU layout");
        assert_eq!(layout.required_features, ["subgroups"]);
        assert_eq!(layout.bind_group_layouts.len(), 1);
        let entries: Vec<(u32, &str, WebGpuBindingType)> = layout.bind_group_layouts[0]
            .entries
            .iter()
            .map(|e| (e.binding, e.name.as_str(), e.ty.clone()))
            .collect();
        use WebGpuBufferBindingType::*;
        assert_eq!(
            entries,
            [
                (0, "Values", WebGpuBindingType::Buffer(ReadOnlyStorage)),
                (1, "Kept", WebGpuBindingType::Buffer(Storage)),
                (2, "Count", WebGpuBindingType::Buffer(Storage)),
            ]
        );
        let visibility = layout.bind_group_layouts[0].entries[0].visibility;
        assert_eq!(
            visibility,
            WebGpuShaderStages {
                vertex: false,
                fragment: false,
                compute: true
            }
        );
        assert_eq!(ReadOnlyStorage.to_string(), "read-only-storage");
    }

    #[test]
    fn read_only_buffer_that_is_written_is_an_error() {
        let options = WebGpuLayoutOptions {
            read_only_storage_buffers: vec!["Kept".into()],
        };
        let error = compact_pipeline()
            .try_to_webgpu(&options)
            .expect_err("CSMain writes Kept");
        assert_eq!(
            error,
            LayoutError::ReadOnlyBufferWritten {
                buffer: "Kept".into(),
                entry_point: "CSMain".into()
            }
        );
        assert_eq!(
            error.to_string(),
            "'Kept' cannot be a read-only storage buffer: entry point 'CSMain' writes it"
        );
    }

    #[test]
    fn atomics_count_as_writes_for_read_only() {
        let options = WebGpuLayoutOptions {
            read_only_storage_buffers: vec!["Count".into()],
        };
        let error = compact_pipeline().try_to_webgpu(&options);
        assert!(
            matches!(error, Err(LayoutError::ReadOnlyBufferWritten { ref buffer, .. }) if buffer == "Count"),
            "{error:?}"
        );
    }

    #[test]
    fn unknown_read_only_name_is_an_error() {
        let options = WebGpuLayoutOptions {
            read_only_storage_buffers: vec!["Valeus".into()],
        };
        assert_eq!(
            compact_pipeline().try_to_webgpu(&options),
            Err(LayoutError::NotAStorageBuffer {
                name: "Valeus".into()
            })
        );
    }

    #[test]
    fn missing_entry_point_is_an_error() {
        let reflection =
            Reflection::of_module_alone(&samples::compact(), &[], &oneshader_ir::SourceMap::new());
        let error = EntryLayout::from_reflection(&reflection, "VSMain").expect_err("no VSMain");
        assert_eq!(
            error.to_string(),
            "the reflection has no entry point 'VSMain' (it has: CSMain)"
        );
    }

    #[test]
    fn two_resources_at_one_binding_conflict() {
        let reflection =
            Reflection::of_module_alone(&samples::compact(), &[], &oneshader_ir::SourceMap::new());
        let cs = EntryLayout::from_reflection(&reflection, "CSMain").expect("CSMain exists");
        let mut other = cs.clone();
        other.entry_point = "Other".into();
        other.resources[0].name = "Elsewhere".into();
        let error =
            PipelineLayout::new(&[cs, other]).try_to_webgpu(&WebGpuLayoutOptions::default());
        assert_eq!(
            error,
            Err(LayoutError::BindingConflict {
                set: 0,
                binding: 0,
                first: Box::new(Declaration {
                    name: "Values".into(),
                    kind: "StructuredBuffer",
                    declared_at: None
                }),
                second: Box::new(Declaration {
                    name: "Elsewhere".into(),
                    kind: "StructuredBuffer",
                    declared_at: None
                }),
            })
        );
    }

    #[test]
    fn no_subgroup_operations_no_feature_and_groups_are_contiguous() {
        let reflection =
            Reflection::of_module_alone(&samples::compact(), &[], &oneshader_ir::SourceMap::new());
        let mut cs = EntryLayout::from_reflection(&reflection, "CSMain").expect("CSMain exists");
        cs.subgroup_operations = SubgroupOperations::empty();
        cs.resources.retain(|r| r.name == "Kept");
        cs.resources[0].set = 2;
        let layout = PipelineLayout::new(&[cs])
            .try_to_webgpu(&WebGpuLayoutOptions::default())
            .expect("a storage buffer has a layout");
        assert!(layout.required_features.is_empty());
        let groups: Vec<(u32, usize)> = layout
            .bind_group_layouts
            .iter()
            .map(|g| (g.group, g.entries.len()))
            .collect();
        assert_eq!(groups, [(0, 0), (1, 0), (2, 1)]);
    }
}
