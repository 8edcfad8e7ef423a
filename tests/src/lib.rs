//! Shared machinery of the end-to-end tests: compile a shader to every target,
//! validate each output with an independent implementation, and run compute
//! shaders on every device the harness offers.
//!
//! Cases live as data in `tests/cases/`: `NAME.hlsl` and `NAME.json`, the JSON
//! giving the dispatch, the input buffers (by HLSL name) and the expected results.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use oneshader::{
    CompileOptions, CompileResult, EntryLayout, PipelineLayout, Reflection, Target,
    WebGpuBindingType, WebGpuBufferBindingType, WebGpuLayoutOptions,
};
use oneshader_harness::{
    f32_bytes, i32_bytes, msl, run_compute, run_wgsl_compute, spirv_val, u32_bytes, validate_wgsl,
    BufferBinding, BufferKind, ComputeJob, ComputeOutput, DawnDriver, Filter, SetLayoutBindingDesc,
    SetLayoutDesc, TexelFormat, VulkanDriver, WgslJob,
};
use serde::Deserialize;

pub mod corpus;
pub mod generate;
pub mod wave_model;

/// The directory of the case files.
pub fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("cases")
}

/// The repository's `shaders/` directory.
pub fn shaders_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("shaders")
}

/// Where a compute shader runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Runtime {
    /// SPIR-V on Vulkan through a driver.
    Vulkan(VulkanDriver),
    /// WGSL on WebGPU through Dawn, on a Vulkan driver.
    Dawn(DawnDriver),
}

impl Runtime {
    /// Every runtime the CI machine has: lavapipe (subgroup size 8), SwiftShader (4), Dawn on
    /// SwiftShader (4) and Dawn on Mesa 25's lavapipe (8).
    pub const ALL: [Runtime; 4] = [
        Runtime::Vulkan(VulkanDriver::Lavapipe),
        Runtime::Vulkan(VulkanDriver::SwiftShader),
        Runtime::Dawn(DawnDriver::SwiftShader),
        Runtime::Dawn(DawnDriver::Mesa25Lavapipe),
    ];

    /// The runtimes to use: all of them, or the system's Vulkan driver alone when
    /// `ONESHADER_TEST_DEVICE=system` (to run the suite on a real GPU).
    pub fn selected() -> Vec<Runtime> {
        match std::env::var("ONESHADER_TEST_DEVICE").as_deref() {
            Ok("system") => vec![Runtime::Vulkan(VulkanDriver::System)],
            _ => Runtime::ALL.to_vec(),
        }
    }
}

/// An input buffer's contents.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BufferData {
    /// 32-bit unsigned words.
    U32(Vec<u32>),
    /// 32-bit signed words.
    I32(Vec<i32>),
    /// 32-bit floats.
    F32(Vec<f32>),
    /// This many zeroed 32-bit words.
    ZeroWords(usize),
}

impl BufferData {
    /// The bytes of the buffer.
    pub fn bytes(&self) -> Vec<u8> {
        match self {
            BufferData::U32(v) => u32_bytes(v),
            BufferData::I32(v) => i32_bytes(v),
            BufferData::F32(v) => f32_bytes(v),
            BufferData::ZeroWords(n) => vec![0; n * 4],
        }
    }
}

/// A 2D texture of a case: its size, format and texels (tightly packed rows).
#[derive(Clone, Debug, Deserialize)]
pub struct TextureData {
    /// Width in texels.
    pub width: u32,
    /// Height in texels.
    pub height: u32,
    /// `rgba32float`, `rgba8unorm`, `r32float` or `r32uint`.
    pub format: String,
    /// The texels: floats or words for 32-bit formats, bytes (as `u32` values 0–255)
    /// for `rgba8unorm`.
    pub data: BufferData,
}

impl TextureData {
    /// The texel format.
    pub fn texel_format(&self) -> Result<TexelFormat, String> {
        Ok(match self.format.as_str() {
            "rgba32float" => TexelFormat::Rgba32Float,
            "rgba8unorm" => TexelFormat::Rgba8Unorm,
            "r32float" => TexelFormat::R32Float,
            "r32uint" => TexelFormat::R32Uint,
            other => return Err(format!("unknown texture format '{other}'")),
        })
    }

    /// The texel bytes.
    pub fn bytes(&self) -> Vec<u8> {
        match (&self.data, self.format.as_str()) {
            (BufferData::U32(bytes), "rgba8unorm") => bytes.iter().map(|&b| b as u8).collect(),
            (data, _) => data.bytes(),
        }
    }
}

/// What a buffer must hold after the dispatch.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Expectation {
    /// Exactly these words, from the start of the buffer.
    U32(Vec<u32>),
    /// Exactly these signed words.
    I32(Vec<i32>),
    /// Exactly these floats (bit for bit, except that -0 equals 0).
    F32(Vec<f32>),
    /// The first `count` words, where `count` is read from another buffer, hold these
    /// values in any order (the result of compaction with atomics).
    MultisetU32 {
        /// The values.
        values: Vec<u32>,
        /// (buffer name, word index) of the count.
        count: (String, usize),
    },
    /// Like `MultisetU32`, for floats.
    MultisetF32 {
        /// The values.
        values: Vec<f32>,
        /// (buffer name, word index) of the count.
        count: (String, usize),
    },
}

/// One end-to-end case.
#[derive(Clone, Debug, Deserialize)]
pub struct Case {
    /// What the case proves.
    pub description: String,
    /// The shader file, relative to `tests/cases/`.
    pub shader: String,
    /// The entry point; the only one when absent.
    #[serde(default)]
    pub entry: Option<String>,
    /// `-D` defines.
    #[serde(default)]
    pub defines: BTreeMap<String, String>,
    /// Workgroups dispatched.
    pub dispatch: [u32; 3],
    /// Initial contents, by HLSL resource name.
    pub buffers: BTreeMap<String, BufferData>,
    /// Textures (`Texture2D`, `RWTexture2D`), by HLSL resource name; storage textures
    /// can be expected like buffers.
    #[serde(default)]
    pub textures: BTreeMap<String, TextureData>,
    /// Samplers by HLSL name: `point` or `linear` filtering, clamped to the edge.
    #[serde(default)]
    pub samplers: BTreeMap<String, String>,
    /// The bytes of the entry point's `[[vk::push_constant]]` block (in the constant-buffer
    /// layout), by its HLSL name: given with `vkCmdPushConstants` on Vulkan, in the
    /// uniform buffer that emulates the block on WebGPU.
    #[serde(default)]
    pub push_constants: BTreeMap<String, BufferData>,
    /// Expected contents after the dispatch, by HLSL resource name.
    pub expect: BTreeMap<String, Expectation>,
    /// For a shader MSL 2.4 cannot express (texel atomics): a text that the MSL
    /// backend's diagnostic must contain. The case then compiles to SPIR-V and WGSL only,
    /// and checks separately that the MSL compile fails with that diagnostic.
    #[serde(default)]
    pub msl_error: Option<String>,
}

impl Case {
    /// Loads `tests/cases/NAME.json`.
    pub fn load(name: &str) -> Result<Case, String> {
        let path = cases_dir().join(format!("{name}.json"));
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The compile options the case asks for.
    pub fn options(&self) -> CompileOptions {
        let mut options = CompileOptions {
            entry_point: self.entry.clone(),
            defines: self.defines.clone().into_iter().collect(),
            ..CompileOptions::default()
        };
        if self.msl_error.is_some() {
            options.targets = vec![Target::SpirV, Target::Wgsl];
        }
        options
    }

    /// The failure, if any, of the MSL compile that [`Case::msl_error`] expects to fail.
    fn check_msl_error(&self, name: &str) -> Option<String> {
        let expected = self.msl_error.as_ref()?;
        let options = CompileOptions {
            targets: vec![Target::Msl],
            ..self.options()
        };
        let result = oneshader::compile_file(cases_dir().join(&self.shader), &options);
        let diagnostics = result.short_diagnostics();
        if result.success() || !diagnostics.iter().any(|d| d.contains(expected.as_str())) {
            return Some(format!(
                "{name}: the MSL compile should fail with '{expected}', but gave: {diagnostics:?}"
            ));
        }
        None
    }

    /// Its buffers, textures and samplers by HLSL name, with their shapes and data.
    pub fn resources(&self) -> Result<Vec<(String, BindingShape, Vec<u8>)>, String> {
        let mut resources: Vec<(String, BindingShape, Vec<u8>)> = self
            .buffers
            .iter()
            .chain(&self.push_constants)
            .map(|(n, d)| (n.clone(), BindingShape::Buffer, d.bytes()))
            .collect();
        for (name, texture) in &self.textures {
            let format = texture.texel_format().map_err(|e| format!("{name}: {e}"))?;
            let shape = BindingShape::Texture {
                width: texture.width,
                height: texture.height,
                format,
            };
            resources.push((name.clone(), shape, texture.bytes()));
        }
        for (name, filter) in &self.samplers {
            let filter = match filter.as_str() {
                "point" => Filter::Point,
                "linear" => Filter::Linear,
                other => {
                    return Err(format!(
                        "{name}: unknown filter '{other}' (point or linear)"
                    ))
                }
            };
            resources.push((name.clone(), BindingShape::Sampler(filter), Vec::new()));
        }
        Ok(resources)
    }

    /// The names of every case in `tests/cases/`.
    pub fn all_names() -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(cases_dir())
            .map(|entries| {
                entries
                    .filter_map(|e| e.ok())
                    .filter_map(|e| {
                        let name = e.file_name().to_string_lossy().into_owned();
                        name.strip_suffix(".json").map(str::to_string)
                    })
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }
}

/// A compiled shader with every target's output validated.
pub struct Compiled {
    /// The compile result.
    pub result: CompileResult,
    /// The entry point compiled.
    pub entry: String,
}

impl Compiled {
    /// The reflection of the compile.
    pub fn reflection(&self) -> &Reflection {
        self.result
            .reflection
            .as_ref()
            .expect("a successful compile has reflection")
    }

    /// The SPIR-V words.
    pub fn spirv(&self) -> Vec<u32> {
        self.result
            .find(&self.entry, Target::SpirV)
            .and_then(|b| b.words())
            .expect("SPIR-V output")
    }

    /// The text of a text target.
    pub fn text(&self, target: Target) -> &str {
        self.result
            .find(&self.entry, target)
            .and_then(|b| b.as_text())
            .expect("text output")
    }
}

/// Compiles `path` to all targets and validates every output: spirv-val, Tint
/// (through Dawn) and the MSL check. Panics with the reasons on any failure.
pub fn compile_and_validate(path: &Path, options: &CompileOptions) -> Compiled {
    let result = oneshader::compile_file(path, options);
    validate(&path.display().to_string(), result, options)
}

/// Like [`compile_and_validate`], for HLSL text that has no file; `name` names it in
/// diagnostics.
pub fn compile_source_and_validate(name: &str, text: &str, options: &CompileOptions) -> Compiled {
    let result = oneshader::compile_source(name, text, options);
    validate(name, result, options)
}

/// Like [`compile_source_and_validate`], but returns the reasons of a failure instead of
/// panicking.
pub fn try_compile_source_and_validate(
    name: &str,
    text: &str,
    options: &CompileOptions,
) -> Result<Compiled, String> {
    let result = oneshader::compile_source(name, text, options);
    try_validate(name, result, options)
}

/// Checks that `result` succeeded and validates every output; panics with the
/// reasons (and the rejected text) on any failure.
fn validate(name: &str, result: CompileResult, options: &CompileOptions) -> Compiled {
    try_validate(name, result, options).unwrap_or_else(|reason| panic!("{reason}"))
}

/// Like [`compile_and_validate`], but returns the reasons of a failure (naming `path`)
/// instead of panicking, so a caller can check many shaders and report every failure.
pub fn try_compile_and_validate(path: &Path, options: &CompileOptions) -> Result<Compiled, String> {
    let result = oneshader::compile_file(path, options);
    try_validate(&path.display().to_string(), result, options)
}

/// Checks that `result` succeeded and validates every output `options.targets` asked for:
/// spirv-val (always), Tint (through Dawn) and the MSL check. The error names `name` and the validator, and holds the
/// rejected text.
fn try_validate(
    name: &str,
    result: CompileResult,
    options: &CompileOptions,
) -> Result<Compiled, String> {
    if !result.success() {
        return Err(format!(
            "{name} failed to compile:\n{}",
            result.short_diagnostics().join("\n")
        ));
    }
    let reflection = result
        .reflection
        .as_ref()
        .ok_or_else(|| format!("{name}: a successful compile has no reflection"))?;
    let entry = match &options.entry_point {
        Some(e) => e.clone(),
        None => match reflection.entry_points.as_slice() {
            [only] => only.name.clone(),
            _ => return Err(format!("{name}: name the entry point")),
        },
    };
    let compiled = Compiled { result, entry };
    let words = compiled
        .result
        .find(&compiled.entry, Target::SpirV)
        .and_then(|b| b.words())
        .ok_or_else(|| format!("{name}: no SPIR-V output for {}", compiled.entry))?;
    if let Err(e) = spirv_val(&words) {
        return Err(format!("{name}: spirv-val rejects the SPIR-V:\n{e}"));
    }
    if Runtime::selected() == [Runtime::Vulkan(VulkanDriver::System)] {
        // The run on a real GPU's machine executes SPIR-V only: Tint and the MSL
        // check need node and clang, which CI provides and validates every time.
        eprintln!("ONESHADER_TEST_DEVICE=system: WGSL and MSL validation left to CI");
        return Ok(compiled);
    }
    let text = |target: Target| {
        compiled
            .result
            .find(&compiled.entry, target)
            .and_then(|b| b.as_text())
            .ok_or_else(|| format!("{name}: no {target:?} output for {}", compiled.entry))
    };
    if options.targets.contains(&Target::Wgsl) {
        let wgsl = text(Target::Wgsl)?;
        if let Err(e) = validate_wgsl(wgsl) {
            return Err(format!(
                "{name}: Tint rejects the WGSL:\n{e}\n--- WGSL ---\n{wgsl}"
            ));
        }
    }
    if !options.targets.contains(&Target::Msl) {
        return Ok(compiled);
    }
    let metal = text(Target::Msl)?;
    if let Err(e) = msl::check_msl(metal) {
        return Err(format!(
            "{name}: the MSL check rejects the MSL:\n{e}\n--- MSL ---\n{metal}"
        ));
    }
    Ok(compiled)
}

/// What a named binding of a case is, besides a buffer (whose kind reflection gives).
#[derive(Clone, Copy, Debug)]
pub enum BindingShape {
    /// A buffer: storage, read-only storage, uniform or texel buffer as reflection says.
    Buffer,
    /// A 2D texture: sampled or storage as reflection says.
    Texture {
        /// Width in texels.
        width: u32,
        /// Height in texels.
        height: u32,
        /// Texel format.
        format: TexelFormat,
    },
    /// A sampler.
    Sampler(Filter),
}

/// Binds `buffers` (by HLSL name) at the places reflection gives them.
pub fn bind_buffers(compiled: &Compiled, buffers: &[(String, Vec<u8>)]) -> Vec<BufferBinding> {
    let shaped: Vec<_> = buffers
        .iter()
        .map(|(n, d)| (n.clone(), BindingShape::Buffer, d.clone()))
        .collect();
    bind_resources(compiled, &shaped)
}

/// The pipeline layout of the compiled entry point alone, as an application builds it
/// from reflection.
pub fn pipeline_layout(compiled: &Compiled) -> PipelineLayout {
    let entry = EntryLayout::from_reflection(compiled.reflection(), &compiled.entry)
        .unwrap_or_else(|e| panic!("{e}"));
    PipelineLayout::new(&[entry])
}

/// Binds buffers, textures and samplers (by HLSL name) where reflection puts them, each
/// with the binding type of oneshader's WebGPU layout of the entry point (which both the
/// Dawn and the Vulkan runner build their layouts from).
pub fn bind_resources(
    compiled: &Compiled,
    resources: &[(String, BindingShape, Vec<u8>)],
) -> Vec<BufferBinding> {
    let layout = pipeline_layout(compiled)
        .try_to_webgpu(&WebGpuLayoutOptions::default())
        .unwrap_or_else(|e| panic!("no WebGPU layout: {e}"));
    let entry = compiled
        .reflection()
        .entry_point(&compiled.entry)
        .expect("entry point reflection");
    resources
        .iter()
        .map(|(name, shape, data)| {
            let resource = entry
                .resource(name)
                .unwrap_or_else(|| panic!("the shader does not use a resource named '{name}'"));
            let typed_buffer = matches!(
                resource.kind,
                oneshader::ResourceKind::Buffer | oneshader::ResourceKind::RWBuffer
            );
            let ty = layout
                .bind_group_layouts
                .get(resource.set as usize)
                .and_then(|group| group.entries.iter().find(|e| &e.name == name))
                .map(|e| e.ty.clone())
                .unwrap_or_else(|| panic!("'{name}' has no entry in the WebGPU layout"));
            let kind = match (ty, *shape) {
                // Texel buffers on Vulkan; the WebGPU layout's storage buffers on Dawn.
                (WebGpuBindingType::Buffer(buffer), BindingShape::Buffer) if typed_buffer => {
                    let format = resource
                        .texture
                        .as_ref()
                        .and_then(|t| t.storage_format.as_deref())
                        .and_then(TexelFormat::from_webgpu_name)
                        .unwrap_or_else(|| {
                            panic!("typed buffer '{name}' has no texel format the harness binds")
                        });
                    BufferKind::TexelBuffer {
                        format,
                        write: buffer == WebGpuBufferBindingType::Storage,
                    }
                }
                (WebGpuBindingType::Buffer(WebGpuBufferBindingType::Uniform), _) => {
                    BufferKind::Uniform
                }
                (WebGpuBindingType::Buffer(WebGpuBufferBindingType::Storage), _) => {
                    BufferKind::Storage
                }
                (WebGpuBindingType::Buffer(WebGpuBufferBindingType::ReadOnlyStorage), _) => {
                    BufferKind::ReadOnlyStorage
                }
                (
                    WebGpuBindingType::StorageTexture { access, .. },
                    BindingShape::Texture {
                        width,
                        height,
                        format,
                    },
                ) => BufferKind::StorageTexture {
                    width,
                    height,
                    format,
                    read: access.contains("read"),
                    write: access.contains("write"),
                },
                (
                    WebGpuBindingType::Texture { .. },
                    BindingShape::Texture {
                        width,
                        height,
                        format,
                    },
                ) => BufferKind::SampledTexture {
                    width,
                    height,
                    format,
                },
                (WebGpuBindingType::Sampler(_), BindingShape::Sampler(filter)) => {
                    BufferKind::Sampler { filter }
                }
                (ty, shape) => panic!("'{name}' is {ty:?} in the layout but given as {shape:?}"),
            };
            BufferBinding::new(resource.set, resource.binding, kind, data.clone())
        })
        .collect()
}

/// The Vulkan descriptor set layouts of oneshader's layout of the compiled entry point,
/// in the harness's terms.
pub fn vulkan_set_layouts(compiled: &Compiled) -> Vec<SetLayoutDesc> {
    let layout = pipeline_layout(compiled)
        .try_to_vulkan()
        .unwrap_or_else(|e| panic!("no Vulkan layout: {e}"));
    layout
        .set_layouts
        .iter()
        .map(|set| SetLayoutDesc {
            set: set.set,
            bindings: set
                .bindings
                .iter()
                .map(|b| SetLayoutBindingDesc {
                    binding: b.binding,
                    descriptor_type: b
                        .descriptor_type_value()
                        .and_then(|v| i32::try_from(v).ok())
                        .unwrap_or_else(|| panic!("unknown {}", b.descriptor_type)),
                    descriptor_count: b.descriptor_count,
                    stage_flags: b.stage_flags,
                })
                .collect(),
        })
        .collect()
}

/// The size of the push-constant range in oneshader's Vulkan layout of the compiled entry
/// point (0 when it reads no `[[vk::push_constant]]` block).
pub fn vulkan_push_constant_size(compiled: &Compiled) -> u32 {
    pipeline_layout(compiled)
        .try_to_vulkan()
        .unwrap_or_else(|e| panic!("no Vulkan layout: {e}"))
        .push_constant_ranges
        .iter()
        .map(|r| r.offset + r.size)
        .max()
        .unwrap_or(0)
}

/// Runs the compiled compute shader on `runtime` and returns the buffers after it.
pub fn run(
    compiled: &Compiled,
    runtime: Runtime,
    buffers: &[(String, Vec<u8>)],
    dispatch: [u32; 3],
) -> Result<ComputeOutput, String> {
    run_bindings(compiled, runtime, bind_buffers(compiled, buffers), dispatch)
}

/// Runs the compiled compute shader on `runtime` with resources already bound.
pub fn run_bindings(
    compiled: &Compiled,
    runtime: Runtime,
    bindings: Vec<BufferBinding>,
    dispatch: [u32; 3],
) -> Result<ComputeOutput, String> {
    match runtime {
        Runtime::Vulkan(driver) => {
            // The push-constant block's binding (see `bind_resources`) becomes the bytes
            // of vkCmdPushConstants; its bytes are put back into the output at its index.
            let mut bindings = bindings;
            let push_constant = compiled
                .reflection()
                .entry_point(&compiled.entry)
                .and_then(|e| {
                    e.resources
                        .iter()
                        .find(|r| r.kind == oneshader::ResourceKind::PushConstant)
                })
                .and_then(|r| {
                    bindings
                        .iter()
                        .position(|b| (b.set, b.binding) == (r.set, r.binding))
                });
            let pushed = push_constant.map(|index| (index, bindings.remove(index).data));
            let mut output = run_compute(
                driver,
                &ComputeJob {
                    spirv: compiled.spirv(),
                    entry_point: compiled.entry.clone(),
                    workgroups: dispatch,
                    buffers: bindings,
                    push_constants: pushed.as_ref().map(|(_, d)| d.clone()).unwrap_or_default(),
                },
            )?;
            if let Some((index, data)) = pushed {
                output.buffers.insert(index, data);
            }
            Ok(output)
        }
        Runtime::Dawn(driver) => {
            let wgsl = compiled.text(Target::Wgsl).to_string();
            let features = pipeline_layout(compiled)
                .try_to_webgpu(&WebGpuLayoutOptions::default())
                .map_err(|e| format!("no WebGPU layout: {e}"))?
                .required_features;
            run_wgsl_compute(&WgslJob {
                wgsl,
                entry_point: compiled.entry.clone(),
                workgroups: dispatch,
                buffers: bindings,
                features,
                driver,
            })
        }
    }
}

/// Checks one buffer against its expectation; `Err` says how it differs.
pub fn check_expectation(
    name: &str,
    expectation: &Expectation,
    output: &ComputeOutput,
    index_of: &dyn Fn(&str) -> Option<usize>,
) -> Result<(), String> {
    let index = index_of(name).ok_or_else(|| format!("no buffer named '{name}'"))?;
    let count_of = |count: &(String, usize)| -> Result<usize, String> {
        let i = index_of(&count.0).ok_or_else(|| format!("no buffer named '{}'", count.0))?;
        let words = output.u32s(i)?;
        words
            .get(count.1)
            .map(|&n| n as usize)
            .ok_or_else(|| format!("'{}' has no word {}", count.0, count.1))
    };
    match expectation {
        Expectation::U32(expected) => {
            let got = output.u32s(index)?;
            compare(name, &got[..expected.len().min(got.len())], expected)
        }
        Expectation::I32(expected) => {
            let got = output.i32s(index)?;
            compare(name, &got[..expected.len().min(got.len())], expected)
        }
        Expectation::F32(expected) => {
            let got = output.f32s(index)?;
            let got: Vec<u32> = got
                .iter()
                .take(expected.len())
                .map(|f| canonical_bits(*f))
                .collect();
            let want: Vec<u32> = expected.iter().map(|f| canonical_bits(*f)).collect();
            compare(name, &got, &want)
        }
        Expectation::MultisetU32 { values, count } => {
            let n = count_of(count)?;
            let got = output.u32s(index)?;
            let mut got = got
                .get(..n)
                .ok_or_else(|| format!("{name}: count {n} exceeds the buffer"))?
                .to_vec();
            let mut want = values.clone();
            got.sort_unstable();
            want.sort_unstable();
            compare(name, &got, &want)
        }
        Expectation::MultisetF32 { values, count } => {
            let n = count_of(count)?;
            let got = output.f32s(index)?;
            let got = got
                .get(..n)
                .ok_or_else(|| format!("{name}: count {n} exceeds the buffer"))?;
            let mut got: Vec<u32> = got.iter().map(|f| canonical_bits(*f)).collect();
            let mut want: Vec<u32> = values.iter().map(|f| canonical_bits(*f)).collect();
            got.sort_unstable();
            want.sort_unstable();
            compare(name, &got, &want)
        }
    }
}

fn canonical_bits(f: f32) -> u32 {
    if f == 0.0 {
        0
    } else {
        f.to_bits()
    }
}

fn compare<T: PartialEq + std::fmt::Debug>(
    name: &str,
    got: &[T],
    want: &[T],
) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!(
            "{name}: {} values, expected {}",
            got.len(),
            want.len()
        ));
    }
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        if g != w {
            return Err(format!("{name}[{i}] = {g:?}, expected {w:?}"));
        }
    }
    Ok(())
}

/// Compiles, validates and runs one case on every selected runtime, checking
/// every expectation. Returns the failures (empty when the case passes).
pub fn run_case(name: &str) -> Vec<String> {
    let case = match Case::load(name) {
        Ok(c) => c,
        Err(e) => return vec![e],
    };
    let compiled = compile_and_validate(&cases_dir().join(&case.shader), &case.options());
    let resources = match case.resources() {
        Ok(resources) => resources,
        Err(e) => return vec![e],
    };
    let index_of = |wanted: &str| resources.iter().position(|(n, _, _)| n == wanted);
    let bindings = bind_resources(&compiled, &resources);
    let mut failures: Vec<String> = case.check_msl_error(name).into_iter().collect();
    for runtime in Runtime::selected() {
        match run_bindings(&compiled, runtime, bindings.clone(), case.dispatch) {
            Ok(output) => {
                for (buffer, expectation) in &case.expect {
                    if let Err(e) = check_expectation(buffer, expectation, &output, &index_of) {
                        failures.push(format!(
                            "{name} on {runtime:?} (subgroup size {}): {e}",
                            output.device.subgroup_size
                        ));
                    }
                }
            }
            Err(e) => failures.push(format!("{name} on {runtime:?}: {e}")),
        }
    }
    failures
}

/// A small deterministic generator for test inputs (xorshift32).
#[derive(Clone, Debug)]
pub struct Rng(u32);

impl Rng {
    /// A generator from a non-zero seed.
    pub fn new(seed: u32) -> Rng {
        Rng(seed.max(1))
    }

    /// The next 32 random bits.
    pub fn next_u32(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x
    }

    /// A float in [0, 1).
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u32() >> 8) as f32 / (1u32 << 24) as f32
    }
}

/// `spirv-dis --raw-id` of `words`; panics if spirv-dis is missing or rejects them.
pub fn disassemble(words: &[u32]) -> String {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut child = Command::new("spirv-dis")
        .args(["--raw-id", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spirv-dis (scripts/install-test-deps.sh installs spirv-tools)");
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(&bytes)
        .expect("write to spirv-dis");
    let output = child.wait_with_output().expect("spirv-dis output");
    assert!(
        output.status.success(),
        "spirv-dis: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}
