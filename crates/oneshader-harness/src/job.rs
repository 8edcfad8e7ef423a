//! What a compute run is given (a job and its buffers) and what it gives back.

use ash::vk;

/// The texel format of a harness texture.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexelFormat {
    /// Four 32-bit floats per texel (`VK_FORMAT_R32G32B32A32_SFLOAT`, `rgba32float`);
    /// not filterable on WebGPU, so sampled only with point filtering there.
    Rgba32Float,
    /// Four 8-bit unsigned normalized channels (`VK_FORMAT_R8G8B8A8_UNORM`, `rgba8unorm`).
    Rgba8Unorm,
    /// One 32-bit float (`VK_FORMAT_R32_SFLOAT`, `r32float`).
    R32Float,
    /// One 32-bit unsigned integer (`VK_FORMAT_R32_UINT`, `r32uint`).
    R32Uint,
    /// One 32-bit signed integer (`VK_FORMAT_R32_SINT`, `r32sint`).
    R32Sint,
    /// Two 32-bit signed integers (`VK_FORMAT_R32G32_SINT`, `rg32sint`).
    Rg32Sint,
    /// Four 32-bit unsigned integers (`VK_FORMAT_R32G32B32A32_UINT`, `rgba32uint`).
    Rgba32Uint,
}

impl TexelFormat {
    /// Bytes per texel.
    pub fn texel_size(self) -> usize {
        match self {
            TexelFormat::Rgba32Float | TexelFormat::Rgba32Uint => 16,
            TexelFormat::Rg32Sint => 8,
            TexelFormat::Rgba8Unorm
            | TexelFormat::R32Float
            | TexelFormat::R32Uint
            | TexelFormat::R32Sint => 4,
        }
    }

    /// The format WebGPU calls `name` (`r32uint`…), if the harness has it.
    pub fn from_webgpu_name(name: &str) -> Option<TexelFormat> {
        use TexelFormat::*;
        [
            Rgba32Float,
            Rgba8Unorm,
            R32Float,
            R32Uint,
            R32Sint,
            Rg32Sint,
            Rgba32Uint,
        ]
        .into_iter()
        .find(|f| f.webgpu_name() == name)
    }

    /// The WebGPU format name.
    pub fn webgpu_name(self) -> &'static str {
        match self {
            TexelFormat::Rgba32Float => "rgba32float",
            TexelFormat::Rgba8Unorm => "rgba8unorm",
            TexelFormat::R32Float => "r32float",
            TexelFormat::R32Uint => "r32uint",
            TexelFormat::R32Sint => "r32sint",
            TexelFormat::Rg32Sint => "rg32sint",
            TexelFormat::Rgba32Uint => "rgba32uint",
        }
    }
}

/// How a sampler filters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Filter {
    /// Nearest texel.
    Point,
    /// Bilinear between the four nearest texels.
    Linear,
}

/// How a buffer, texture or sampler is bound to the shader.
///
/// Textures are 2D, one mip level, one layer; their data is tightly packed rows of
/// texels, and a run gives back their contents after the dispatch the same way.
/// Samplers clamp to the edge and have no data (an empty `data`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BufferKind {
    /// A texture read through `Texture2D` (a sampled image; WGSL `texture_2d`).
    SampledTexture {
        /// Width in texels.
        width: u32,
        /// Height in texels.
        height: u32,
        /// The texel format.
        format: TexelFormat,
    },
    /// A texture read and written through `RWTexture2D` (a storage image; WGSL
    /// `texture_storage_2d`).
    StorageTexture {
        /// Width in texels.
        width: u32,
        /// Height in texels.
        height: u32,
        /// The texel format.
        format: TexelFormat,
        /// Whether the shader reads it (WebGPU: `read-write` rather than `write-only`).
        read: bool,
        /// Whether the shader writes it (WebGPU: `read-only` when not).
        write: bool,
    },
    /// A `SamplerState`.
    Sampler {
        /// Its filter for magnification and minification.
        filter: Filter,
    },
    /// A read-write storage buffer (`RWStructuredBuffer`, WGSL `var<storage, read_write>`).
    Storage,
    /// A read-only storage buffer (`StructuredBuffer`, WGSL `var<storage, read>`).
    ///
    /// Vulkan binds it as an ordinary storage buffer; WebGPU as `read-only-storage`.
    ReadOnlyStorage,
    /// A uniform buffer (`cbuffer`, WGSL `var<uniform>`).
    Uniform,
    /// A typed buffer (`Buffer<T>`, `RWBuffer<T>`): on Vulkan a uniform or storage
    /// texel buffer with a buffer view of `format`; on WebGPU, which has no texel
    /// buffers, the read-only or read-write storage buffer the WGSL backend emulates it
    /// with. Its data is tightly packed texels.
    TexelBuffer {
        /// The texel format of the Vulkan buffer view.
        format: TexelFormat,
        /// `RWBuffer`: a storage texel buffer (WebGPU `storage`); else a uniform texel
        /// buffer (WebGPU `read-only-storage`).
        write: bool,
    },
}

/// One buffer of a job: where it is bound and what it holds before the dispatch.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferBinding {
    /// The descriptor set (Vulkan) or bind group (WebGPU `@group`).
    pub set: u32,
    /// The binding number inside the set or group.
    pub binding: u32,
    /// How the buffer is bound.
    pub kind: BufferKind,
    /// The initial contents; its length is the buffer's size in bytes (must not be zero).
    pub data: Vec<u8>,
}

impl BufferBinding {
    /// A buffer of any kind with the given initial bytes.
    pub fn new(set: u32, binding: u32, kind: BufferKind, data: Vec<u8>) -> Self {
        BufferBinding {
            set,
            binding,
            kind,
            data,
        }
    }

    /// A read-write storage buffer holding `values`.
    pub fn storage_f32(set: u32, binding: u32, values: &[f32]) -> Self {
        Self::new(set, binding, BufferKind::Storage, f32_bytes(values))
    }

    /// A read-write storage buffer holding `values`.
    pub fn storage_u32(set: u32, binding: u32, values: &[u32]) -> Self {
        Self::new(set, binding, BufferKind::Storage, u32_bytes(values))
    }

    /// A read-write storage buffer holding `values`.
    pub fn storage_i32(set: u32, binding: u32, values: &[i32]) -> Self {
        Self::new(set, binding, BufferKind::Storage, i32_bytes(values))
    }

    /// A read-only storage buffer holding `values`.
    pub fn read_only_f32(set: u32, binding: u32, values: &[f32]) -> Self {
        Self::new(set, binding, BufferKind::ReadOnlyStorage, f32_bytes(values))
    }

    /// A read-only storage buffer holding `values`.
    pub fn read_only_u32(set: u32, binding: u32, values: &[u32]) -> Self {
        Self::new(set, binding, BufferKind::ReadOnlyStorage, u32_bytes(values))
    }

    /// A read-write storage buffer of `len_bytes` zero bytes.
    pub fn zeroed_storage(set: u32, binding: u32, len_bytes: usize) -> Self {
        Self::new(set, binding, BufferKind::Storage, vec![0; len_bytes])
    }

    /// A uniform buffer holding `values`.
    pub fn uniform_u32(set: u32, binding: u32, values: &[u32]) -> Self {
        Self::new(set, binding, BufferKind::Uniform, u32_bytes(values))
    }

    /// A uniform buffer holding `values`.
    pub fn uniform_f32(set: u32, binding: u32, values: &[f32]) -> Self {
        Self::new(set, binding, BufferKind::Uniform, f32_bytes(values))
    }
}

/// A SPIR-V compute dispatch for the Vulkan runner.
#[derive(Clone, Debug, PartialEq)]
pub struct ComputeJob {
    /// The SPIR-V module, as words.
    pub spirv: Vec<u32>,
    /// The name of the compute entry point.
    pub entry_point: String,
    /// The number of workgroups dispatched, `[x, y, z]`.
    pub workgroups: [u32; 3],
    /// Every buffer the shader binds; `(set, binding)` pairs must be distinct.
    pub buffers: Vec<BufferBinding>,
    /// The bytes given to `vkCmdPushConstants` at offset 0 before the dispatch; the
    /// pipeline layout gets a compute push-constant range of their size. Empty for none;
    /// otherwise a multiple of 4 bytes, at most the device's `maxPushConstantsSize`.
    pub push_constants: Vec<u8>,
}

/// A draw for the Vulkan runner: a vertex and a pixel shader, `vertex_count` vertices (and
/// `instance_count` instances) as a triangle list with no vertex buffers, so the vertex
/// shader builds its positions from `SV_VertexID`/`SV_InstanceID`, into render targets of
/// `width` x `height` texels cleared to zero.
///
/// The conventions are D3D's, so one HLSL shader draws the same image on every runtime:
/// clip space has y up (Vulkan's viewport is flipped, as engines do with
/// `VK_KHR_maintenance1`), clockwise triangles are front faces, and the provoking vertex of
/// a flat value is the first.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawJob {
    /// The vertex shader's SPIR-V module, as words.
    pub vertex_spirv: Vec<u32>,
    /// The vertex shader's entry point.
    pub vertex_entry: String,
    /// The pixel shader's SPIR-V module, as words.
    pub fragment_spirv: Vec<u32>,
    /// The pixel shader's entry point.
    pub fragment_entry: String,
    /// The render targets' size in texels.
    pub width: u32,
    /// The render targets' height in texels.
    pub height: u32,
    /// The format of render target `i` (`SV_Target<i>`).
    pub targets: Vec<TexelFormat>,
    /// Vertices drawn (a triangle list).
    pub vertex_count: u32,
    /// Instances drawn.
    pub instance_count: u32,
    /// Buffers both stages may bind (storage and uniform buffers only).
    pub buffers: Vec<BufferBinding>,
}

/// A draw for the WebGPU (Dawn) runner: [`DrawJob`]'s draw from two WGSL modules, with the
/// same conventions (WebGPU's own: y up in clip space, `frontFace: "cw"`, the first vertex
/// provoking).
#[derive(Clone, Debug, PartialEq)]
pub struct WgslDrawJob {
    /// The vertex shader's WGSL.
    pub vertex_wgsl: String,
    /// The vertex shader's entry point.
    pub vertex_entry: String,
    /// The pixel shader's WGSL.
    pub fragment_wgsl: String,
    /// The pixel shader's entry point.
    pub fragment_entry: String,
    /// The render targets' size in texels.
    pub width: u32,
    /// The render targets' height in texels.
    pub height: u32,
    /// The format of render target `i` (`@location(i)`).
    pub targets: Vec<TexelFormat>,
    /// Vertices drawn (a triangle list).
    pub vertex_count: u32,
    /// Instances drawn.
    pub instance_count: u32,
    /// Buffers both stages may bind (storage and uniform buffers only; a writable storage
    /// buffer is visible to the pixel shader alone, as WebGPU requires).
    pub buffers: Vec<BufferBinding>,
    /// The Vulkan driver Dawn runs on.
    pub driver: DawnDriver,
}

/// The result of a draw.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawOutput {
    /// Every render target's texels, row by row from the top, in the job's order.
    pub targets: Vec<Vec<u8>>,
    /// Every buffer's bytes after the draw, in the order of the job's `buffers`.
    pub buffers: Vec<Vec<u8>>,
    /// The device that ran the job.
    pub device: DeviceInfo,
}

/// A WGSL compute dispatch for the WebGPU (Dawn) runner.
#[derive(Clone, Debug, PartialEq)]
pub struct WgslJob {
    /// The WGSL source.
    pub wgsl: String,
    /// The name of the compute entry point.
    pub entry_point: String,
    /// The number of workgroups dispatched, `[x, y, z]`.
    pub workgroups: [u32; 3],
    /// Every buffer the shader binds; `(set, binding)` pairs must be distinct.
    pub buffers: Vec<BufferBinding>,
    /// WebGPU features the device is created with, e.g. `"subgroups"` for `enable subgroups;`.
    pub features: Vec<String>,
    /// The Vulkan driver Dawn runs on.
    pub driver: DawnDriver,
}

/// The Vulkan driver under Dawn: which CPU device a WGSL job runs on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum DawnDriver {
    /// Google's SwiftShader, shipped with Debian's `chromium`: subgroup size 4.
    #[default]
    SwiftShader,
    /// Mesa 25's lavapipe from bookworm-backports, unpacked beside the system's Mesa by
    /// `scripts/install-mesa25-lavapipe.sh`: subgroup size 8. (Debian 12's own lavapipe, Mesa
    /// 22.3, lacks a Vulkan feature Dawn requires.)
    Mesa25Lavapipe,
}

/// The subgroup operation flags of Vulkan (`VkSubgroupFeatureFlags`).
pub type SubgroupOperations = vk::SubgroupFeatureFlags;

/// Shader stage flags of Vulkan (`VkShaderStageFlags`).
pub type ShaderStages = vk::ShaderStageFlags;

/// What the device that ran a job reports about itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    /// The device's name (e.g. `llvmpipe (LLVM 15.0.6, 256 bits)`).
    pub name: String,
    /// The subgroup size: Vulkan's `subgroupSize`; WebGPU's `subgroupMinSize`.
    pub subgroup_size: u32,
    /// The smallest subgroup size the device may use (`minSubgroupSize`; WebGPU `subgroupMinSize`).
    ///
    /// Equals `subgroup_size` on a Vulkan device without subgroup size control.
    pub subgroup_min_size: u32,
    /// The largest subgroup size the device may use (`maxSubgroupSize`; WebGPU `subgroupMaxSize`).
    ///
    /// Equals `subgroup_size` on a Vulkan device without subgroup size control.
    pub subgroup_max_size: u32,
    /// Vulkan: `subgroupSupportedOperations`. WebGPU: the operations WGSL's `subgroups` feature
    /// provides (basic, vote, arithmetic, ballot, shuffle, shuffle-relative, quad) when the device
    /// was created with it, else empty.
    pub subgroup_operations: SubgroupOperations,
    /// Vulkan: `subgroupSupportedStages`. WebGPU: compute and fragment when the device was created
    /// with the `subgroups` feature, else empty.
    pub subgroup_stages: ShaderStages,
}

/// The result of a dispatch.
#[derive(Clone, Debug, PartialEq)]
pub struct ComputeOutput {
    /// Every buffer's bytes after the dispatch, in the order of the job's `buffers`.
    pub buffers: Vec<Vec<u8>>,
    /// The device that ran the job.
    pub device: DeviceInfo,
}

impl ComputeOutput {
    /// The bytes of the job's buffer number `index`, or an error naming the index.
    pub fn bytes(&self, index: usize) -> Result<&[u8], String> {
        self.buffers.get(index).map(Vec::as_slice).ok_or_else(|| {
            format!(
                "no buffer {index}: the job had {} buffers",
                self.buffers.len()
            )
        })
    }

    /// The job's buffer number `index`, read as little-endian `f32`s.
    pub fn f32s(&self, index: usize) -> Result<Vec<f32>, String> {
        self.bytes(index).map(f32s_of)
    }

    /// The job's buffer number `index`, read as little-endian `u32`s.
    pub fn u32s(&self, index: usize) -> Result<Vec<u32>, String> {
        self.bytes(index).map(u32s_of)
    }

    /// The job's buffer number `index`, read as little-endian `i32`s.
    pub fn i32s(&self, index: usize) -> Result<Vec<i32>, String> {
        self.bytes(index).map(i32s_of)
    }
}

/// The little-endian bytes of `values`.
pub fn f32_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The little-endian bytes of `values`.
pub fn u32_bytes(values: &[u32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// The little-endian bytes of `values`.
pub fn i32_bytes(values: &[i32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

/// `bytes` read as little-endian `f32`s; a trailing partial word is ignored.
pub fn f32s_of(bytes: &[u8]) -> Vec<f32> {
    words_of(bytes).map(f32::from_le_bytes).collect()
}

/// `bytes` read as little-endian `u32`s; a trailing partial word is ignored.
pub fn u32s_of(bytes: &[u8]) -> Vec<u32> {
    words_of(bytes).map(u32::from_le_bytes).collect()
}

/// `bytes` read as little-endian `i32`s; a trailing partial word is ignored.
pub fn i32s_of(bytes: &[u8]) -> Vec<i32> {
    words_of(bytes).map(i32::from_le_bytes).collect()
}

fn words_of(bytes: &[u8]) -> impl Iterator<Item = [u8; 4]> + '_ {
    bytes
        .chunks_exact(4)
        .map(|chunk| [chunk[0], chunk[1], chunk[2], chunk[3]])
}

/// Checks what both runners require of a job's buffers: none empty, no `(set, binding)` twice.
pub(crate) fn check_buffers(buffers: &[BufferBinding]) -> Result<(), String> {
    for (index, buffer) in buffers.iter().enumerate() {
        let texture = match buffer.kind {
            BufferKind::SampledTexture {
                width,
                height,
                format,
            }
            | BufferKind::StorageTexture {
                width,
                height,
                format,
                ..
            } => Some((width, height, format)),
            _ => None,
        };
        if let Some((width, height, format)) = texture {
            let expected = width as usize * height as usize * format.texel_size();
            if expected == 0 || buffer.data.len() != expected {
                return Err(format!(
                    "texture {index} (set {}, binding {}) is {width}x{height} {format:?}, so its data needs {expected} bytes, not {}",
                    buffer.set,
                    buffer.binding,
                    buffer.data.len()
                ));
            }
        }
        if let BufferKind::TexelBuffer { format, .. } = buffer.kind {
            if buffer.data.len() % format.texel_size() != 0 {
                return Err(format!(
                    "texel buffer {index} (set {}, binding {}) holds {format:?} texels of {} bytes, but its data is {} bytes",
                    buffer.set,
                    buffer.binding,
                    format.texel_size(),
                    buffer.data.len()
                ));
            }
        }
        if let BufferKind::Sampler { .. } = buffer.kind {
            if !buffer.data.is_empty() {
                return Err(format!("sampler {index} has data; samplers take none"));
            }
        } else if buffer.data.is_empty() {
            return Err(format!(
                "buffer {index} (set {}, binding {}) is empty; buffers need at least one byte",
                buffer.set, buffer.binding
            ));
        }
        let first = buffers
            .iter()
            .position(|b| b.set == buffer.set && b.binding == buffer.binding);
        if first != Some(index) {
            return Err(format!(
                "buffers {} and {index} are both bound at set {}, binding {}",
                first.unwrap_or(index),
                buffer.set,
                buffer.binding
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_round_trip_through_little_endian_bytes() {
        let floats = [1.5f32, -0.0, f32::MAX];
        assert_eq!(f32s_of(&f32_bytes(&floats)), floats);
        assert_eq!(u32_bytes(&[0x0403_0201]), vec![1, 2, 3, 4]);
        assert_eq!(i32s_of(&i32_bytes(&[-7, 9])), vec![-7, 9]);
        assert_eq!(u32s_of(&[1, 0, 0, 0, 9]), vec![1]);
    }

    #[test]
    fn output_reads_buffers_by_index() {
        let output = ComputeOutput {
            buffers: vec![u32_bytes(&[5, 6])],
            device: DeviceInfo {
                name: String::new(),
                subgroup_size: 4,
                subgroup_min_size: 4,
                subgroup_max_size: 4,
                subgroup_operations: SubgroupOperations::empty(),
                subgroup_stages: ShaderStages::empty(),
            },
        };
        assert_eq!(output.u32s(0), Ok(vec![5, 6]));
        assert!(output.u32s(1).is_err_and(|e| e.contains("no buffer 1")));
    }

    #[test]
    fn buffers_must_be_non_empty_and_distinct() {
        let a = BufferBinding::storage_u32(0, 1, &[1]);
        let b = BufferBinding::storage_u32(0, 2, &[1]);
        assert_eq!(check_buffers(&[a.clone(), b.clone()]), Ok(()));
        let twice = check_buffers(&[a.clone(), b, a.clone()]);
        assert!(twice.is_err_and(|e| e.contains("buffers 0 and 2")));
        let empty = check_buffers(&[BufferBinding::storage_u32(1, 0, &[])]);
        assert!(empty.is_err_and(|e| e.contains("empty")));
    }
}
