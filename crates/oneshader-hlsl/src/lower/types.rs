//! Types as the front end sees them: IR value types plus HLSL resources, the
//! spelling of built-in type names, and memory layouts.

use oneshader_ir::{
    AddressSpace, ArraySize, Handle, Module, ResourceKind, Scalar, Type, TypeInner,
};

use super::expr::Shape;

/// An HLSL resource type: its kind and its element (a u32 word for byte-address buffers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ResourceTy {
    pub kind: ResourceKind,
    pub element: Handle<Type>,
}

/// The type of a declaration or expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ty {
    /// `void`.
    Void,
    /// A value type.
    Value(Handle<Type>),
    /// A buffer resource.
    Resource(ResourceTy),
}

/// The scalar and vector types made so far, by component and shape: lowering asks for
/// one at nearly every operator, and a table indexed by kind, width and shape spares
/// hashing the key.
pub(crate) struct NumericTypes([Option<Handle<Type>>; 64]);

impl Default for NumericTypes {
    fn default() -> Self {
        NumericTypes([None; 64])
    }
}

impl NumericTypes {
    /// The table slot of `scalar` in `shape`; `None` for a width the table has no
    /// room for (every scalar type of HLSL has one: 1, 2, 4 or 8 bytes).
    fn slot(scalar: Scalar, shape: Shape) -> Option<usize> {
        let width = match scalar.width {
            1 => 0,
            2 => 1,
            4 => 2,
            8 => 3,
            _ => return None,
        };
        let shape = match shape {
            Shape::Scalar => 0,
            Shape::Vector(size) => size as usize - 1,
        };
        Some((scalar.kind as usize) << 4 | width << 2 | shape)
    }

    /// The type of `scalar` components in `shape`, if made already.
    pub(crate) fn get(&self, scalar: Scalar, shape: Shape) -> Option<Handle<Type>> {
        self.0.get(Self::slot(scalar, shape)?).copied().flatten()
    }

    /// Records `ty` as the type of `scalar` components in `shape`.
    pub(crate) fn insert(&mut self, scalar: Scalar, shape: Shape, ty: Handle<Type>) {
        if let Some(entry) = Self::slot(scalar, shape).and_then(|slot| self.0.get_mut(slot)) {
            *entry = Some(ty);
        }
    }
}

/// The pointer types made so far, by pointee and address space: lowering asks for one
/// at every use of a variable, and a row per pointee type, indexed by its handle,
/// spares hashing the key.
#[derive(Default)]
pub(crate) struct PointerTypes(Vec<[Option<Handle<Type>>; 7]>);

impl PointerTypes {
    /// The column of `space` in a row.
    fn column(space: AddressSpace) -> usize {
        match space {
            AddressSpace::Function => 0,
            AddressSpace::Private => 1,
            AddressSpace::Workgroup => 2,
            AddressSpace::Uniform => 3,
            AddressSpace::Storage { writable: false } => 4,
            AddressSpace::Storage { writable: true } => 5,
            AddressSpace::Handle => 6,
        }
    }

    /// The type of pointers to `base` in `space`, if made already.
    pub(crate) fn get(&self, base: Handle<Type>, space: AddressSpace) -> Option<Handle<Type>> {
        self.0
            .get(base.index())?
            .get(Self::column(space))
            .copied()
            .flatten()
    }

    /// Records `ty` as the type of pointers to `base` in `space`.
    pub(crate) fn insert(&mut self, base: Handle<Type>, space: AddressSpace, ty: Handle<Type>) {
        let row = base.index();
        if self.0.len() <= row {
            self.0.resize(row + 1, [None; 7]);
        }
        let entry = self
            .0
            .get_mut(row)
            .and_then(|columns| columns.get_mut(Self::column(space)));
        if let Some(entry) = entry {
            *entry = Some(ty);
        }
    }
}

/// The scalar of an HLSL scalar type name (`float`, `uint`, `dword`, `min16float`, …).
pub(crate) fn scalar_by_name(name: &str) -> Option<Scalar> {
    Some(match name {
        "bool" => Scalar::BOOL,
        "int" | "int32_t" | "min16int" | "min12int" => Scalar::I32,
        "uint" | "dword" | "uint32_t" | "min16uint" => Scalar::U32,
        "float" | "float32_t" | "half" | "min16float" | "min10float" => Scalar::F32,
        "double" | "float64_t" => Scalar::F64,
        "int64_t" => Scalar::I64,
        "uint64_t" => Scalar::U64,
        _ => return None,
    })
}

/// Splits `float4` into (`float`, 4) and `float3x4` into (`float`, 3, 4) — rows, columns.
pub(crate) fn split_dimensions(name: &str) -> Option<(&str, u32, Option<u32>)> {
    let bytes = name.as_bytes();
    let len = bytes.len();
    if let [_, .., rows, b'x', columns] = *bytes {
        let rows = (rows as char).to_digit(10)?;
        let columns = (columns as char).to_digit(10)?;
        return Some((&name[..len - 3], rows, Some(columns)));
    }
    let count = (*bytes.last()? as char).to_digit(10)?;
    Some((&name[..len - 1], count, None))
}

/// The HLSL spelling of a value type, for messages.
pub(crate) fn type_name(module: &Module, ty: Handle<Type>) -> String {
    module.hlsl_type_name(ty)
}

/// The HLSL spelling of a scalar.
pub(crate) fn scalar_name(scalar: Scalar) -> &'static str {
    scalar.hlsl_name()
}

/// Which rules place struct members and array elements in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum LayoutRules {
    /// Structured buffers, groupshared and local values: std430 (DXC's Vulkan default).
    Std430,
    /// Constant buffers: HLSL packing into 16-byte rows.
    ConstantBuffer,
}

/// Size and alignment in bytes of `ty` under `rules`.
pub(crate) fn size_align(module: &Module, ty: Handle<Type>, rules: LayoutRules) -> (u32, u32) {
    match &module.types[ty].inner {
        TypeInner::Scalar(s) => {
            let w = u32::from(s.width);
            (w, w)
        }
        TypeInner::Vector { size, scalar } => {
            let w = u32::from(scalar.width);
            let n = size.count();
            let align = match rules {
                LayoutRules::Std430 => w * if n == 3 { 4 } else { n },
                LayoutRules::ConstantBuffer => w,
            };
            (w * n, align)
        }
        TypeInner::Matrix {
            columns,
            rows,
            scalar,
        } => {
            let w = u32::from(scalar.width);
            let column_align = w * if rows.count() == 3 { 4 } else { rows.count() };
            match rules {
                LayoutRules::Std430 => (column_align * columns.count(), column_align),
                LayoutRules::ConstantBuffer => (16 * (columns.count() - 1) + w * rows.count(), 16),
            }
        }
        TypeInner::Array { base, size, stride } => {
            let (element_size, align) = size_align(module, *base, rules);
            let count = match size {
                ArraySize::Constant(n) => *n,
                ArraySize::Runtime => 1,
            };
            let align = match rules {
                LayoutRules::Std430 => align,
                LayoutRules::ConstantBuffer => 16,
            };
            let size = match rules {
                LayoutRules::Std430 => stride * count,
                LayoutRules::ConstantBuffer => stride * count.saturating_sub(1) + element_size,
            };
            (size, align)
        }
        TypeInner::Struct { members, size } => {
            let align = match rules {
                LayoutRules::Std430 => members
                    .iter()
                    .map(|m| size_align(module, m.ty, rules).1)
                    .max()
                    .unwrap_or(4),
                LayoutRules::ConstantBuffer => 16,
            };
            (*size, align)
        }
        _ => (4, 4),
    }
}

/// The offset at which a member of `size` and `align` goes after `offset` bytes.
pub(crate) fn place_member(offset: u32, size: u32, align: u32, rules: LayoutRules) -> u32 {
    let aligned = round_up(offset, align.max(1));
    match rules {
        LayoutRules::Std430 => aligned,
        LayoutRules::ConstantBuffer => {
            // A member may not straddle a 16-byte row; aggregates start a new row.
            let row_end = round_up(aligned + 1, 16);
            if align >= 16 || aligned + size > row_end {
                round_up(aligned, 16)
            } else {
                aligned
            }
        }
    }
}

/// `value` rounded up to a multiple of `to`.
pub(crate) fn round_up(value: u32, to: u32) -> u32 {
    value.div_ceil(to.max(1)) * to.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_vector_and_matrix_names() {
        assert_eq!(split_dimensions("float4"), Some(("float", 4, None)));
        assert_eq!(split_dimensions("float3x4"), Some(("float", 3, Some(4))));
        assert_eq!(split_dimensions("uint"), None);
    }

    #[test]
    fn constant_buffer_members_do_not_straddle_rows() {
        let rules = LayoutRules::ConstantBuffer;
        // float3 at 0, float at 12, float2 at 16, float3 must move to 32.
        assert_eq!(place_member(0, 12, 4, rules), 0);
        assert_eq!(place_member(12, 4, 4, rules), 12);
        assert_eq!(place_member(16, 8, 4, rules), 16);
        assert_eq!(place_member(24, 12, 4, rules), 32);
        assert_eq!(place_member(4, 16, 16, rules), 16);
    }
}
