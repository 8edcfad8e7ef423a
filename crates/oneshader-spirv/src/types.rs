//! IR types as SPIR-V types, with explicit layouts for buffer memory.
//!
//! Values and Function/Private/Workgroup memory use plain types; Uniform and
//! StorageBuffer memory use copies of aggregates with `Offset`/`ArrayStride`
//! decorations. Loads and stores between the two rebuild the aggregate member by member
//! (`OpCopyLogical` only for long arrays).

use oneshader_ir::{ArraySize, Handle, Scalar, ScalarKind, Span, Type, TypeInner, VectorSize};
use rspirv::spirv::{Capability, Decoration, StorageClass, Word};

use crate::error::{Error, Result};
use crate::module::{Operand, MAX_STRUCT_DEPTH, MAX_STRUCT_MEMBERS};
use crate::writer::Writer;

/// Whether a type carries the explicit memory layout of buffers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Layout {
    /// Values and Function, Private, Workgroup memory: no layout decorations.
    Plain,
    /// Uniform and StorageBuffer memory: offsets and strides.
    Explicit,
}

impl Layout {
    /// The layout of memory in storage class `class`.
    pub fn of(class: StorageClass) -> Layout {
        match class {
            StorageClass::Uniform | StorageClass::StorageBuffer | StorageClass::PushConstant => {
                Layout::Explicit
            }
            _ => Layout::Plain,
        }
    }
}

impl Writer<'_> {
    /// The SPIR-V scalar type of `scalar`, declaring the capability its width needs.
    pub fn scalar_type(&mut self, scalar: Scalar) -> Result<Word> {
        if let Some(id) = self.known_scalar_type(scalar) {
            return Ok(id);
        }
        let capability = match (scalar.kind, scalar.width) {
            (ScalarKind::Bool, _) => return Ok(self.b.type_bool()),
            (_, 4) => None,
            (ScalarKind::Float, 2) => Some(Capability::Float16),
            (ScalarKind::Float, 8) => Some(Capability::Float64),
            (_, 2) => Some(Capability::Int16),
            (_, 8) => Some(Capability::Int64),
            (_, width) => {
                return Err(Error::unsupported(
                    None,
                    format!("{width}-byte scalars are not supported"),
                ))
            }
        };
        if let Some(capability) = capability {
            self.capability(capability);
        }
        let bits = u32::from(scalar.width) * 8;
        let id = match scalar.kind {
            ScalarKind::Float => self.b.type_float(bits, None),
            ScalarKind::Sint => self.b.type_int(bits, 1),
            _ => self.b.type_int(bits, 0),
        };
        self.remember_scalar_type(scalar, id);
        Ok(id)
    }

    /// The SPIR-V vector type of `size` components of `scalar`.
    pub fn vector_type(&mut self, scalar: Scalar, size: VectorSize) -> Result<Word> {
        let component = self.scalar_type(scalar)?;
        Ok(self.b.type_vector(component, size.count()))
    }

    /// The SPIR-V type of IR type `ty` in `layout`.
    pub fn type_id(&mut self, ty: Handle<Type>, layout: Layout) -> Result<Word> {
        // Only aggregates differ between layouts.
        let inner = self.inner(ty, None)?;
        let layout = match inner {
            TypeInner::Array { .. } | TypeInner::Struct { .. } => layout,
            _ => Layout::Plain,
        };
        if let Some(id) = self
            .tables
            .types
            .get(ty.index())
            .and_then(|ids| ids.get(layout))
        {
            return Ok(id);
        }
        let id = match *inner {
            TypeInner::Scalar(scalar) => {
                if layout == Layout::Explicit && scalar.kind == ScalarKind::Bool {
                    return Err(bool_in_buffer());
                }
                self.scalar_type(scalar)?
            }
            TypeInner::Vector { size, scalar } => self.vector_type(scalar, size)?,
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } => {
                if scalar.kind != ScalarKind::Float {
                    return Err(Error::unsupported(
                        None,
                        "SPIR-V matrices must have float components; integer and bool matrices are not supported",
                    ));
                }
                let column = self.vector_type(scalar, rows)?;
                self.b.type_matrix(column, columns.count())
            }
            TypeInner::Array { base, size, stride } => {
                let element = self.type_id(base, layout)?;
                if layout == Layout::Explicit && self.is_bool(base)? {
                    return Err(bool_in_buffer());
                }
                let id = self.b.id();
                match size {
                    ArraySize::Constant(length) => {
                        let length = self.u32_constant(length)?;
                        self.b.type_array_id(id, element, length);
                    }
                    ArraySize::Runtime => {
                        if layout == Layout::Plain {
                            return Err(Error::unsupported(
                                None,
                                "a runtime-sized array outside a buffer is not supported",
                            ));
                        }
                        self.b.type_runtime_array_id(id, element);
                    }
                }
                if layout == Layout::Explicit {
                    self.b
                        .decorate(id, Decoration::ArrayStride, [Operand::LiteralBit32(stride)]);
                }
                id
            }
            TypeInner::Struct { ref members, .. } => {
                let mut member_types = Vec::with_capacity(members.len());
                for member in members {
                    member_types.push(self.type_id(member.ty, layout)?);
                }
                let depth = self.check_struct(ty, members.iter().map(|m| m.ty))?;
                self.tables.struct_depths.insert(ty, depth);
                let id = self.b.id();
                self.b.type_struct_id(id, &member_types);
                if layout == Layout::Explicit {
                    let member_tys: Vec<_> = members.iter().map(|m| (m.ty, m.offset)).collect();
                    self.lay_out_members(id, &member_tys)?;
                }
                let name = self.module.types[ty].name.clone();
                if let Some(name) = name {
                    self.name(id, &name);
                }
                id
            }
            TypeInner::Pointer { base, space } => {
                let class = crate::function::storage_class(space, None)?;
                let pointee = self.type_id(base, Layout::of(class))?;
                self.pointer_type(class, pointee)
            }
            TypeInner::Image {
                dim,
                arrayed,
                class,
            } => self.image_type(dim, arrayed, class)?,
            TypeInner::Sampler { .. } => self.b.type_sampler(),
        };
        if let Some(ids) = self.tables.types.get_mut(ty.index()) {
            ids.set(layout, id);
        }
        Ok(id)
    }

    /// The nesting depth of struct `ty` of `members` (whose types are declared), or the
    /// error, at the struct's declaration, for a struct past SPIR-V's limits on members
    /// and nesting.
    fn check_struct(
        &self,
        ty: Handle<Type>,
        members: impl ExactSizeIterator<Item = Handle<Type>>,
    ) -> Result<u32> {
        let count = members.len();
        let depth = 1 + members
            .filter_map(|member| self.tables.struct_depths.get(&member).copied())
            .max()
            .unwrap_or(0);
        if count <= MAX_STRUCT_MEMBERS && depth <= MAX_STRUCT_DEPTH {
            return Ok(depth);
        }
        let span = self.module.struct_spans.get(&ty).copied();
        let name = self.module.hlsl_type_name(ty);
        Err(Error::unsupported(
            span,
            if count > MAX_STRUCT_MEMBERS {
                format!(
                    "the struct '{name}' has {count} members; SPIR-V allows at most \
                     {MAX_STRUCT_MEMBERS} in one: split it into smaller structs, members \
                     of one struct"
                )
            } else {
                format!(
                    "the struct '{name}' nests structs {depth} deep (a struct member of \
                     struct type is one level); SPIR-V allows at most {MAX_STRUCT_DEPTH}: \
                     merge some levels into one struct"
                )
            },
        ))
    }

    /// Whether IR type `ty` is a bool scalar or vector.
    fn is_bool(&self, ty: Handle<Type>) -> Result<bool> {
        Ok(self
            .inner(ty, None)?
            .scalar()
            .is_some_and(|s| s.kind == ScalarKind::Bool))
    }

    /// Decorates the members of explicitly laid-out struct `id` with their offsets, and
    /// matrix members with their column-major layout.
    fn lay_out_members(&mut self, id: Word, members: &[(Handle<Type>, u32)]) -> Result<()> {
        for (index, &(ty, offset)) in members.iter().enumerate() {
            let index = index as u32;
            if self.is_bool(ty)? {
                return Err(bool_in_buffer());
            }
            self.b.member_decorate(
                id,
                index,
                Decoration::Offset,
                [Operand::LiteralBit32(offset)],
            );
            if let Some(stride) = self.matrix_stride(ty)? {
                self.b.member_decorate(id, index, Decoration::ColMajor, []);
                self.b.member_decorate(
                    id,
                    index,
                    Decoration::MatrixStride,
                    [Operand::LiteralBit32(stride)],
                );
            }
        }
        Ok(())
    }

    /// For a matrix (or array of matrices), the bytes between its columns: each
    /// column starts a 16-byte register, as HLSL's packing does.
    fn matrix_stride(&self, ty: Handle<Type>) -> Result<Option<u32>> {
        Ok(match *self.inner(ty, None)? {
            TypeInner::Matrix { rows, scalar, .. } => {
                let bytes = rows.count() * u32::from(scalar.width);
                Some(bytes.div_ceil(16) * 16)
            }
            TypeInner::Array { base, .. } => self.matrix_stride(base)?,
            _ => None,
        })
    }

    /// The `Block` struct of a buffer of IR type `ty` in `class`: a laid-out copy of
    /// `ty` when it is a struct, else a struct wrapping it as member 0 (then the
    /// second value is `true`). Read-only buffers' members are `NonWritable`.
    pub fn block_struct(
        &mut self,
        ty: Handle<Type>,
        read_only: bool,
        class: StorageClass,
        span: Option<Span>,
    ) -> Result<(Word, bool)> {
        let key = (ty, read_only, class);
        if let Some(&found) = self.tables.blocks.get(&key) {
            return Ok(found);
        }
        let members: Vec<(Handle<Type>, u32)> = match self.inner(ty, span)? {
            TypeInner::Struct { members, .. } => members.iter().map(|m| (m.ty, m.offset)).collect(),
            _ => Vec::new(),
        };
        let wrapped = members.is_empty();
        let member_types = if wrapped { vec![(ty, 0)] } else { members };
        let mut ids = Vec::with_capacity(member_types.len());
        for &(member, _) in &member_types {
            ids.push(self.type_id(member, Layout::Explicit)?);
        }
        self.check_struct(ty, member_types.iter().map(|&(member, _)| member))?;
        let id = self.b.id();
        self.b.type_struct_id(id, &ids);
        self.b.decorate(id, Decoration::Block, []);
        self.lay_out_members(id, &member_types)?;
        if read_only && class == StorageClass::StorageBuffer {
            for index in 0..member_types.len() as u32 {
                self.b
                    .member_decorate(id, index, Decoration::NonWritable, []);
            }
        }
        self.tables.blocks.insert(key, (id, wrapped));
        Ok((id, wrapped))
    }
}

/// The error for a bool stored in buffer memory.
fn bool_in_buffer() -> Error {
    Error::unsupported(
        None,
        "bool values in buffer memory are not supported by the SPIR-V backend (Vulkan has no bool layout); use uint",
    )
}
