//! How a buffer's contents are laid out: element type, stride, struct members and offsets.

use oneshader_ir::{ArraySize, Handle, Module, ResourceKind, Type, TypeInner};
use serde::{Deserialize, Serialize};

/// The memory layout of a buffer resource, as the SPIR-V, MSL and WGSL outputs declare it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BufferLayout {
    /// The HLSL type of one element (`float`, `Particle`); for a constant buffer, its
    /// struct; for a byte-address buffer, `uint` (it is addressed as 32-bit words).
    pub element_type: String,
    /// Bytes from one element to the next in a structured or byte-address buffer;
    /// `None` for a constant buffer.
    pub stride: Option<u32>,
    /// The size of one element (of the constant buffer's struct), padding included.
    pub size: u32,
    /// The members when the element is a struct, in declaration order.
    pub members: Vec<MemberLayout>,
}

/// One member of a buffer's struct.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemberLayout {
    /// The member name.
    pub name: String,
    /// Its HLSL type (`float4x4`, `uint[4]`, `Light`).
    #[serde(rename = "type")]
    pub ty: String,
    /// Byte offset from the start of the struct.
    pub offset: u32,
    /// For arrays: bytes from one element to the next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub array_stride: Option<u32>,
}

impl BufferLayout {
    /// The layout of a buffer resource of type `ty`; `None` for textures and samplers.
    pub(super) fn of(
        module: &Module,
        kind: ResourceKind,
        ty: Handle<Type>,
    ) -> Option<BufferLayout> {
        let (element, stride) = match (kind, module.inner(ty)) {
            (
                ResourceKind::StructuredBuffer
                | ResourceKind::RWStructuredBuffer
                | ResourceKind::ByteAddressBuffer
                | ResourceKind::RWByteAddressBuffer,
                TypeInner::Array { base, stride, .. },
            ) => (*base, Some(*stride)),
            (
                ResourceKind::ConstantBuffer
                | ResourceKind::TextureBuffer
                | ResourceKind::PushConstant,
                _,
            ) => (ty, None),
            _ => return None,
        };
        let (members, size) = match module.inner(element) {
            TypeInner::Struct { members, size } => (
                members
                    .iter()
                    .map(|m| MemberLayout {
                        name: m.name.clone(),
                        ty: type_name(module, m.ty),
                        offset: m.offset,
                        array_stride: match module.inner(m.ty) {
                            TypeInner::Array { stride, .. } => Some(*stride),
                            _ => None,
                        },
                    })
                    .collect(),
                *size,
            ),
            other => (Vec::new(), plain_size(module, other)),
        };
        Some(BufferLayout {
            element_type: type_name(module, element),
            stride,
            size,
            members,
        })
    }
}

/// The size of a non-struct element type; arrays count every element by stride.
fn plain_size(module: &Module, inner: &TypeInner) -> u32 {
    match *inner {
        TypeInner::Scalar(s) => u32::from(s.width),
        TypeInner::Vector { size, scalar } => size.count() * u32::from(scalar.width),
        TypeInner::Matrix {
            columns,
            rows,
            scalar,
        } => columns.count() * rows.count() * u32::from(scalar.width),
        TypeInner::Array {
            size: ArraySize::Constant(n),
            stride,
            ..
        } => n * stride,
        TypeInner::Struct { size, .. } => size,
        TypeInner::Pointer { base, .. } => plain_size(module, module.inner(base)),
        _ => 0,
    }
}

/// The HLSL spelling of `ty`: `float`, `uint3`, `float4x4` (rows x columns), `Light`,
/// `float[4]`.
pub(crate) fn type_name(module: &Module, ty: Handle<Type>) -> String {
    module.hlsl_type_name(ty)
}
