//! Hand-written WGSL compute shaders that prove the harness, and naga to turn them into SPIR-V.

/// `output[i] = input[i] * 2 + i` for every `i` below the output's length.
pub const DOUBLE_PLUS_INDEX: &str = r#"
@group(0) @binding(0) var<storage, read> input: array<f32>;
@group(0) @binding(1) var<storage, read_write> output: array<f32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if i < arrayLength(&output) {
        output[i] = input[i] * 2.0 + f32(i);
    }
}
"#;

/// Adds every value above `params.threshold` into `total` with `atomicAdd`, and counts them.
pub const ATOMIC_SUM: &str = r#"
struct Params {
    threshold: u32,
}

struct Totals {
    sum: atomic<u32>,
    count: atomic<u32>,
}

@group(0) @binding(0) var<uniform> params: Params;
@group(0) @binding(1) var<storage, read> values: array<u32>;
@group(1) @binding(0) var<storage, read_write> totals: Totals;

@compute @workgroup_size(32)
fn main(@builtin(global_invocation_id) id: vec3<u32>) {
    let i = id.x;
    if i < arrayLength(&values) && values[i] > params.threshold {
        atomicAdd(&totals.sum, values[i]);
        atomicAdd(&totals.count, 1u);
    }
}
"#;

/// Every invocation writes `subgroupAdd(1u)`, which is its subgroup's size when the workgroup
/// is a whole number of subgroups, and the `subgroup_size` builtin.
///
/// WGSL requires `enable subgroups;` first, but naga 30 rejects that directive (and accepts
/// subgroup operations without it), so the WebGPU tests prepend it.
pub const SUBGROUP_ADD_ONE: &str = r#"
@group(0) @binding(0) var<storage, read_write> sums: array<u32>;
@group(0) @binding(1) var<storage, read_write> sizes: array<u32>;

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) id: vec3<u32>,
        @builtin(subgroup_size) size: u32) {
    sums[id.x] = subgroupAdd(1u);
    sizes[id.x] = size;
}
"#;

/// Translates WGSL into SPIR-V 1.3 with naga; the shader is the test's own, so failures panic.
pub fn spirv_of(wgsl: &str) -> Vec<u32> {
    let module = match naga::front::wgsl::parse_str(wgsl) {
        Ok(module) => module,
        Err(e) => panic!("test shader does not parse: {}", e.emit_to_string(wgsl)),
    };
    let info = naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::all(),
    )
    .validate(&module)
    .expect("test shader validates");
    let options = naga::back::spv::Options {
        lang_version: (1, 3),
        ..Default::default()
    };
    naga::back::spv::write_vec(&module, &info, &options, None).expect("naga writes SPIR-V")
}
