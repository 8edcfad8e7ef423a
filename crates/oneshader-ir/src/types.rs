//! Types of values, pointers and resources.

use crate::arena::Handle;

/// The kind of a scalar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScalarKind {
    /// `bool`.
    Bool,
    /// Two's complement signed integer.
    Sint,
    /// Unsigned integer.
    Uint,
    /// IEEE 754 floating point.
    Float,
}

/// A scalar type: kind and width in bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Scalar {
    /// Bool, signed, unsigned or float.
    pub kind: ScalarKind,
    /// Width in bytes (bool is given width 4, as HLSL stores it).
    pub width: u8,
}

impl Scalar {
    /// The HLSL spelling: `bool`, `int`, `uint`, `float`, `half`, `double`, `int16_t`,
    /// `uint16_t`, `int64_t`, `uint64_t`.
    pub fn hlsl_name(self) -> &'static str {
        match (self.kind, self.width) {
            (ScalarKind::Bool, _) => "bool",
            (ScalarKind::Float, 2) => "half",
            (ScalarKind::Float, 8) => "double",
            (ScalarKind::Float, _) => "float",
            (ScalarKind::Sint, 2) => "int16_t",
            (ScalarKind::Sint, 8) => "int64_t",
            (ScalarKind::Sint, _) => "int",
            (ScalarKind::Uint, 2) => "uint16_t",
            (ScalarKind::Uint, 8) => "uint64_t",
            (ScalarKind::Uint, _) => "uint",
        }
    }

    /// `bool`.
    pub const BOOL: Scalar = Scalar {
        kind: ScalarKind::Bool,
        width: 4,
    };
    /// `int`.
    pub const I32: Scalar = Scalar {
        kind: ScalarKind::Sint,
        width: 4,
    };
    /// `uint`.
    pub const U32: Scalar = Scalar {
        kind: ScalarKind::Uint,
        width: 4,
    };
    /// `float`.
    pub const F32: Scalar = Scalar {
        kind: ScalarKind::Float,
        width: 4,
    };
    /// `half` with 16-bit types enabled.
    pub const F16: Scalar = Scalar {
        kind: ScalarKind::Float,
        width: 2,
    };
    /// `double`.
    pub const F64: Scalar = Scalar {
        kind: ScalarKind::Float,
        width: 8,
    };
    /// `int16_t`.
    pub const I16: Scalar = Scalar {
        kind: ScalarKind::Sint,
        width: 2,
    };
    /// `uint16_t`.
    pub const U16: Scalar = Scalar {
        kind: ScalarKind::Uint,
        width: 2,
    };
    /// `int64_t`.
    pub const I64: Scalar = Scalar {
        kind: ScalarKind::Sint,
        width: 8,
    };
    /// `uint64_t`.
    pub const U64: Scalar = Scalar {
        kind: ScalarKind::Uint,
        width: 8,
    };

    /// Whether this is a signed or unsigned integer.
    pub fn is_integer(self) -> bool {
        matches!(self.kind, ScalarKind::Sint | ScalarKind::Uint)
    }
}

/// Number of components of a vector (2, 3 or 4), or rows/columns of a matrix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VectorSize {
    /// 2 components.
    Bi = 2,
    /// 3 components.
    Tri = 3,
    /// 4 components.
    Quad = 4,
}

impl VectorSize {
    /// The size for `n` components, if `n` is 2, 3 or 4.
    pub fn from_count(n: u32) -> Option<VectorSize> {
        match n {
            2 => Some(VectorSize::Bi),
            3 => Some(VectorSize::Tri),
            4 => Some(VectorSize::Quad),
            _ => None,
        }
    }

    /// The number of components.
    pub fn count(self) -> u32 {
        self as u32
    }
}

/// Where a pointer points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddressSpace {
    /// A function's local variable.
    Function,
    /// A per-invocation global (`static` in HLSL).
    Private,
    /// Shared by a workgroup (`groupshared`).
    Workgroup,
    /// A constant buffer.
    Uniform,
    /// A buffer in device memory.
    Storage {
        /// Whether the shader may write it (UAVs).
        writable: bool,
    },
    /// An opaque resource: texture or sampler.
    Handle,
}

/// The number of elements of an array.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArraySize {
    /// A fixed number of elements.
    Constant(u32),
    /// Sized by the bound buffer (only as the last thing in a storage buffer).
    Runtime,
}

/// One member of a struct, with its byte offset in memory layouts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StructMember {
    /// The member's name.
    pub name: String,
    /// The member's type.
    pub ty: Handle<Type>,
    /// Byte offset from the start of the struct.
    pub offset: u32,
    /// Entry point I/O binding, for structs used as stage inputs or outputs.
    pub binding: Option<crate::module::Binding>,
}

/// Dimensionality of a texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageDimension {
    /// 1D.
    D1,
    /// 2D.
    D2,
    /// 3D.
    D3,
    /// Cube map.
    Cube,
    /// A typed buffer (`Buffer<T>`, `RWBuffer<T>`): one integer coordinate, no mip
    /// levels, no layers. SPIR-V: a texel buffer; MSL: `texture_buffer`; WGSL has none,
    /// so the WGSL writer emulates it as a storage buffer of the element type.
    Buffer,
}

/// What a texture holds and how it is accessed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageClass {
    /// Sampled or loaded texture (`Texture2D<float4>`).
    Sampled {
        /// Component kind of texels.
        kind: ScalarKind,
        /// Multisampled (`Texture2DMS`).
        multisampled: bool,
        /// Number of components of the element type (reads give 4; the front end
        /// narrows).
        components: u8,
    },
    /// Read-write texture (`RWTexture2D<float4>`).
    Storage {
        /// Component kind of texels.
        kind: ScalarKind,
        /// Number of components of the element type.
        components: u8,
        /// The texel format the shader declares (from the element type, `unorm`/`snorm`,
        /// or `[[vk::image_format]]`).
        format: StorageFormat,
        /// `globallycoherent`: writes are visible to other workgroups before the shader ends.
        coherent: bool,
    },
}

/// The texel format of a storage texture, as SPIR-V's `Image Format` and WGSL's texel
/// formats spell it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StorageFormat {
    /// Not declared (`RWTexture2D<float3>`): SPIR-V needs the `*WithoutFormat` capabilities.
    Unknown,
    /// `rgba32f`.
    Rgba32Float,
    /// `rgba32ui`.
    Rgba32Uint,
    /// `rgba32i`.
    Rgba32Sint,
    /// `rg32f`.
    Rg32Float,
    /// `rg32ui`.
    Rg32Uint,
    /// `rg32i`.
    Rg32Sint,
    /// `r32f`.
    R32Float,
    /// `r32ui`.
    R32Uint,
    /// `r32i`.
    R32Sint,
    /// `rgba16f`.
    Rgba16Float,
    /// `rgba16ui`.
    Rgba16Uint,
    /// `rgba16i`.
    Rgba16Sint,
    /// `rgba16` (unorm).
    Rgba16Unorm,
    /// `rgba16_snorm`.
    Rgba16Snorm,
    /// `rg16f`.
    Rg16Float,
    /// `r16f`.
    R16Float,
    /// `rgba8` (unorm).
    Rgba8Unorm,
    /// `rgba8_snorm`.
    Rgba8Snorm,
    /// `rgba8ui`.
    Rgba8Uint,
    /// `rgba8i`.
    Rgba8Sint,
    /// `rg8` (unorm).
    Rg8Unorm,
    /// `r8` (unorm).
    R8Unorm,
    /// `rgb10_a2` (unorm).
    Rgb10A2Unorm,
    /// `r11f_g11f_b10f`.
    Rg11B10Float,
}

impl StorageFormat {
    /// The format named by `[[vk::image_format("...")]]` (DXC's spelling).
    pub fn from_vk_name(name: &str) -> Option<StorageFormat> {
        use StorageFormat::*;
        Some(match name {
            "unknown" => Unknown,
            "rgba32f" => Rgba32Float,
            "rgba32ui" => Rgba32Uint,
            "rgba32i" => Rgba32Sint,
            "rg32f" => Rg32Float,
            "rg32ui" => Rg32Uint,
            "rg32i" => Rg32Sint,
            "r32f" => R32Float,
            "r32ui" => R32Uint,
            "r32i" => R32Sint,
            "rgba16f" => Rgba16Float,
            "rgba16ui" => Rgba16Uint,
            "rgba16i" => Rgba16Sint,
            "rgba16" => Rgba16Unorm,
            "rgba16snorm" => Rgba16Snorm,
            "rg16f" => Rg16Float,
            "r16f" => R16Float,
            "rgba8" => Rgba8Unorm,
            "rgba8snorm" => Rgba8Snorm,
            "rgba8ui" => Rgba8Uint,
            "rgba8i" => Rgba8Sint,
            "rg8" => Rg8Unorm,
            "r8" => R8Unorm,
            "rgb10a2" => Rgb10A2Unorm,
            "r11g11b10f" => Rg11B10Float,
            _ => return None,
        })
    }

    /// The format DXC infers from a `RWTexture` element of `components` components of
    /// `kind` when no format is given: 32-bit per channel, `Unknown` for 3 components.
    pub fn inferred(kind: ScalarKind, components: u8) -> StorageFormat {
        use StorageFormat::*;
        match (kind, components) {
            (ScalarKind::Float, 1) => R32Float,
            (ScalarKind::Float, 2) => Rg32Float,
            (ScalarKind::Float, 4) => Rgba32Float,
            (ScalarKind::Uint, 1) => R32Uint,
            (ScalarKind::Uint, 2) => Rg32Uint,
            (ScalarKind::Uint, 4) => Rgba32Uint,
            (ScalarKind::Sint, 1) => R32Sint,
            (ScalarKind::Sint, 2) => Rg32Sint,
            (ScalarKind::Sint, 4) => Rgba32Sint,
            _ => Unknown,
        }
    }

    /// The scalar kind the shader reads and writes for this format.
    pub fn kind(self) -> Option<ScalarKind> {
        use StorageFormat::*;
        Some(match self {
            Unknown => return None,
            Rgba32Uint | Rg32Uint | R32Uint | Rgba16Uint | Rgba8Uint => ScalarKind::Uint,
            Rgba32Sint | Rg32Sint | R32Sint | Rgba16Sint | Rgba8Sint => ScalarKind::Sint,
            _ => ScalarKind::Float,
        })
    }

    /// The WebGPU / WGSL texel format name, where WebGPU has this format.
    pub fn wgsl_name(self) -> Option<&'static str> {
        use StorageFormat::*;
        Some(match self {
            Rgba32Float => "rgba32float",
            Rgba32Uint => "rgba32uint",
            Rgba32Sint => "rgba32sint",
            Rg32Float => "rg32float",
            Rg32Uint => "rg32uint",
            Rg32Sint => "rg32sint",
            R32Float => "r32float",
            R32Uint => "r32uint",
            R32Sint => "r32sint",
            Rgba16Float => "rgba16float",
            Rgba16Uint => "rgba16uint",
            Rgba16Sint => "rgba16sint",
            Rgba8Unorm => "rgba8unorm",
            Rgba8Snorm => "rgba8snorm",
            Rgba8Uint => "rgba8uint",
            Rgba8Sint => "rgba8sint",
            _ => return None,
        })
    }
}

/// The structure of a type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeInner {
    /// A scalar.
    Scalar(Scalar),
    /// A vector of 2–4 scalars.
    Vector {
        /// Number of components.
        size: VectorSize,
        /// Component type.
        scalar: Scalar,
    },
    /// A matrix stored as `columns` column vectors of `rows` components.
    Matrix {
        /// Number of column vectors.
        columns: VectorSize,
        /// Components per column.
        rows: VectorSize,
        /// Component type.
        scalar: Scalar,
    },
    /// An array, with the distance between elements in memory layouts.
    Array {
        /// Element type.
        base: Handle<Type>,
        /// Number of elements.
        size: ArraySize,
        /// Bytes from one element to the next.
        stride: u32,
    },
    /// A struct.
    Struct {
        /// Members in declaration order.
        members: Vec<StructMember>,
        /// Size in bytes, padding included.
        size: u32,
    },
    /// A pointer to a value in memory.
    Pointer {
        /// The pointee's type.
        base: Handle<Type>,
        /// Where it lives.
        space: AddressSpace,
    },
    /// A texture.
    Image {
        /// 1D, 2D, 3D or cube.
        dim: ImageDimension,
        /// An array of layers.
        arrayed: bool,
        /// Sampled or storage.
        class: ImageClass,
    },
    /// A sampler.
    Sampler {
        /// `SamplerComparisonState`.
        comparison: bool,
    },
}

impl TypeInner {
    /// The scalar of a scalar, vector or matrix type.
    pub fn scalar(&self) -> Option<Scalar> {
        match *self {
            TypeInner::Scalar(s) => Some(s),
            TypeInner::Vector { scalar, .. } | TypeInner::Matrix { scalar, .. } => Some(scalar),
            _ => None,
        }
    }

    /// Number of components of a vector, 1 for a scalar.
    pub fn component_count(&self) -> Option<u32> {
        match *self {
            TypeInner::Scalar(_) => Some(1),
            TypeInner::Vector { size, .. } => Some(size.count()),
            _ => None,
        }
    }
}

/// A type, optionally named (structs carry their HLSL name).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Type {
    /// The declared name, for structs.
    pub name: Option<String>,
    /// The structure.
    pub inner: TypeInner,
}
