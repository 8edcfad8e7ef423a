//! How resources are numbered in Metal's argument tables.

use oneshader_ir::{Module, ResourceKind};

/// One of Metal's three argument tables of an entry function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ResourceTable {
    /// `[[buffer(n)]]`: constant, structured and byte-address buffers.
    Buffer,
    /// `[[texture(n)]]`: textures, read-only and read-write.
    Texture,
    /// `[[sampler(n)]]`: samplers.
    Sampler,
}

impl ResourceTable {
    /// The table of resources of `kind`.
    pub fn of(kind: ResourceKind) -> ResourceTable {
        match kind {
            ResourceKind::ConstantBuffer
            | ResourceKind::TextureBuffer
            | ResourceKind::PushConstant
            | ResourceKind::StructuredBuffer
            | ResourceKind::RWStructuredBuffer
            | ResourceKind::ByteAddressBuffer
            | ResourceKind::RWByteAddressBuffer => ResourceTable::Buffer,
            ResourceKind::Texture
            | ResourceKind::RWTexture
            | ResourceKind::Buffer
            | ResourceKind::RWBuffer => ResourceTable::Texture,
            ResourceKind::Sampler => ResourceTable::Sampler,
        }
    }

    /// The attribute name: `buffer`, `texture` or `sampler`.
    pub fn attribute(self) -> &'static str {
        match self {
            ResourceTable::Buffer => "buffer",
            ResourceTable::Texture => "texture",
            ResourceTable::Sampler => "sampler",
        }
    }
}

/// Where a resource sits in Metal's argument tables: `[[buffer(index)]]` and so on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MslResourceIndex {
    /// The table.
    pub table: ResourceTable,
    /// The index within the table.
    pub index: u32,
}

/// The argument-table slot of every global, indexed by global handle (`None` for
/// globals that are not resources).
///
/// Within each table, resources are numbered 0, 1, 2, … in order of their
/// (set, binding), over all resource globals of the module, whether an entry point uses
/// them or not, so the numbers are the same in every entry point's MSL. Globals with the
/// same (set, binding) are numbered in declaration order. A `[[vk::push_constant]]` block
/// is a `constant T&` buffer too; its (set, binding) is in the group after every other
/// resource's, so it takes the next free `[[buffer(n)]]` index.
pub fn resource_indices(module: &Module) -> Vec<Option<MslResourceIndex>> {
    let mut resources: Vec<(usize, ResourceTable, (u32, u32))> = module
        .global_variables
        .iter()
        .filter_map(|(handle, global)| {
            let resource = global.resource.as_ref()?;
            Some((
                handle.index(),
                ResourceTable::of(resource.kind),
                (resource.binding.set, resource.binding.binding),
            ))
        })
        .collect();
    resources.sort_by_key(|&(index, table, binding)| (table, binding, index));

    let mut indices = vec![None; module.global_variables.len()];
    let mut next = [0u32; 3];
    for (global, table, _) in resources {
        if let (Some(slot), Some(counter)) = (indices.get_mut(global), next.get_mut(table as usize))
        {
            *slot = Some(MslResourceIndex {
                table,
                index: *counter,
            });
            *counter += 1;
        }
    }
    indices
}

#[cfg(test)]
mod tests {
    use super::*;
    use oneshader_ir::samples;

    #[test]
    fn compact_buffers_are_numbered_by_binding() {
        let indices = resource_indices(&samples::compact());
        let numbers: Vec<_> = indices
            .iter()
            .map(|i| i.map(|i| (i.table, i.index)))
            .collect();
        assert_eq!(
            numbers,
            vec![
                Some((ResourceTable::Buffer, 0)),
                Some((ResourceTable::Buffer, 1)),
                Some((ResourceTable::Buffer, 2)),
            ]
        );
    }

    #[test]
    fn each_table_counts_from_zero_in_set_binding_order() {
        use oneshader_ir::{
            AddressSpace, GlobalVariable, Resource, ResourceBinding, Scalar, TypeInner,
        };
        let mut module = Module::default();
        let ty = module.type_handle(TypeInner::Scalar(Scalar::U32));
        let mut add = |kind, set, binding| {
            module.global_variables.append(
                GlobalVariable {
                    name: format!("r{set}_{binding}"),
                    space: AddressSpace::Handle,
                    ty,
                    resource: Some(Resource {
                        kind,
                        binding: ResourceBinding { set, binding },
                        register: None,
                    }),
                    span: None,
                },
                None,
            )
        };
        let late_buffer = add(ResourceKind::RWStructuredBuffer, 1, 0);
        let sampler = add(ResourceKind::Sampler, 0, 3);
        let texture = add(ResourceKind::Texture, 0, 2);
        let early_buffer = add(ResourceKind::ConstantBuffer, 0, 5);
        let indices = resource_indices(&module);
        let at = |h: oneshader_ir::Handle<GlobalVariable>| indices[h.index()].map(|i| i.index);
        assert_eq!(at(early_buffer), Some(0));
        assert_eq!(at(late_buffer), Some(1));
        assert_eq!(at(texture), Some(0));
        assert_eq!(at(sampler), Some(0));
        assert_eq!(
            indices[sampler.index()].map(|i| i.table),
            Some(ResourceTable::Sampler)
        );
    }
}
