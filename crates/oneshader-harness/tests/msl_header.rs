//! The MSL check (`oneshader_harness::msl::check_msl`) on MSL written in the
//! style oneshader emits: good shaders are accepted, and each kind of broken
//! shader is rejected with clang naming what is wrong.

use oneshader_harness::msl::check_msl;

/// Stream compaction with SIMD-group functions: the MSL of shaders/Compact.hlsl.
const COMPACT: &str = r#"#include <metal_stdlib>
using namespace metal;

kernel void CSMain(const device float* Values [[buffer(0)]],
                   device float* Kept [[buffer(1)]],
                   device atomic_uint* Count [[buffer(2)]],
                   uint3 id [[thread_position_in_grid]],
                   uint lane [[thread_index_in_simdgroup]],
                   uint lanes [[threads_per_simdgroup]])
{
    float v = Values[id.x];
    bool keep = v > 0.5f;
    simd_vote::vote_t ballot = simd_vote::vote_t(simd_ballot(keep));
    ulong below = ballot & ((ulong(1) << lane) - ulong(1));
    uint laneOffset = popcount(uint(below)) + popcount(uint(below >> 32));
    uint waveCount = simd_sum(keep ? 1u : 0u);
    uint waveBase = 0u;
    if (simd_is_first())
        waveBase = atomic_fetch_add_explicit(Count, waveCount, memory_order_relaxed);
    waveBase = simd_broadcast_first(waveBase);
    if (keep && lanes > 0u)
        Kept[waveBase + laneOffset] = v;
}
"#;

/// Threadgroup memory, barriers, the prefix and shuffle functions, bit and
/// math builtins, swizzles and matrices.
const REDUCE: &str = r#"#include <metal_stdlib>
using namespace metal;

struct Params {
    float4x4 transform;
    float4 scale;
    uint count;
};

static float scaled(thread const float4& v, constant Params& p) {
    return dot(v * p.scale, float4(1.0f)) + length(v.xyz);
}

void store_partial(threadgroup float* partials, uint index, float value) {
    partials[index] = value;
}

kernel void Reduce(const device float4* Input [[buffer(0)]],
                   device float* Output [[buffer(1)]],
                   device atomic_int* Flags [[buffer(2)]],
                   constant Params& params [[buffer(3)]],
                   uint3 gid [[thread_position_in_grid]],
                   uint3 tid [[thread_position_in_threadgroup]],
                   uint simd_lane [[thread_index_in_simdgroup]],
                   uint simd_group [[simdgroup_index_in_threadgroup]])
{
    threadgroup float partials[32];
    float4 v = params.transform * Input[gid.x];
    v.xy = v.yx * 2.0f;
    v.zw += float2(clamp(v.x, 0.0f, 1.0f), saturate(v.w));
    float4 mixed = mix(v, float4(v.xy, 0.0f, 1.0f), 0.25f);
    float s = scaled(mixed, params);
    float inclusive = simd_prefix_inclusive_sum(s);
    float exclusive = simd_prefix_exclusive_sum(s);
    float neighbour = simd_shuffle_xor(inclusive, 1u) + simd_shuffle_down(exclusive, 2u);
    uint bits = as_type<uint>(neighbour);
    uint packed = insert_bits(bits, extract_bits(bits, 4u, 8u), 0u, 8u);
    int lowest = int(ctz(packed)) + int(clz(packed)) + int(reverse_bits(packed) & 1u);
    if (isnan(neighbour) || isinf(s))
        atomic_fetch_or_explicit(Flags, 1, memory_order_relaxed);
    if (simd_lane == 0u)
        store_partial(partials, simd_group, neighbour);
    threadgroup_barrier(mem_flags::mem_threadgroup);
    uint4 counts = uint4(popcount(packed), mulhi(packed, 3u), absdiff(packed, 7u), uint(lowest));
    bool4 big = counts > uint4(params.count);
    float q = quad_sum(partials[tid.x % 32u]) + quad_shuffle(s, 1u) + quad_broadcast(s, 0u);
    if (all(big) || any(!big))
        Output[gid.x] = select(q, fma(q, 2.0f, 1.0f), big.x) + simd_max(s) + simd_min(s);
}
"#;

/// A vertex and a fragment function with `[[stage_in]]` structs, a texture and samplers.
const DRAW: &str = r#"#include <metal_stdlib>
using namespace metal;

struct VertexIn {
    float3 position [[attribute(0)]];
    float2 uv [[attribute(1)]];
};

struct VertexOut {
    float4 position [[position]];
    float2 uv [[user(locn0)]];
    half4 tint [[user(locn1)]] [[flat]];
};

struct FragmentOut {
    float4 color [[color(0)]];
};

struct Camera {
    float4x4 view_projection;
};

constexpr sampler linear_clamp(filter::linear, address::clamp_to_edge);

vertex VertexOut VSMain(VertexIn in [[stage_in]],
                        constant Camera& camera [[buffer(0)]],
                        uint vid [[vertex_id]])
{
    VertexOut out;
    out.position = camera.view_projection * float4(in.position, 1.0f);
    out.uv = in.uv;
    out.tint = half4(half(vid & 1u), 0.5h, 0.0h, 1.0h);
    return out;
}

fragment FragmentOut PSMain(VertexOut in [[stage_in]],
                            texture2d<float> albedo [[texture(0)]],
                            texture2d<float, access::read> mask [[texture(1)]],
                            sampler samp [[sampler(0)]])
{
    FragmentOut out;
    float4 base = albedo.sample(samp, in.uv) * float4(in.tint);
    float4 blurred = albedo.sample(linear_clamp, in.uv, level(1.0f));
    uint2 texel = uint2(in.uv * float2(mask.get_width(), mask.get_height()));
    float m = mask.read(texel).r;
    if (m < 0.01f)
        discard_fragment();
    out.color = float4(mix(base.rgb, blurred.rgb, m), base.a);
    return out;
}
"#;

fn expect_accepted(name: &str, source: &str) {
    if let Err(diagnostics) = check_msl(source) {
        panic!("{name} was rejected:\n{diagnostics}");
    }
}

/// Applies `edit` (a `(from, to)` replacement that must occur in `source`),
/// checks the result and returns clang's diagnostics.
fn rejection(source: &str, from: &str, to: &str) -> String {
    assert!(source.contains(from), "the sample has no {from:?} to break");
    let broken = source.replacen(from, to, 1);
    match check_msl(&broken) {
        Ok(()) => panic!("replacing {from:?} with {to:?} was accepted"),
        Err(diagnostics) => diagnostics,
    }
}

fn assert_mentions(diagnostics: &str, needles: &[&str]) {
    for needle in needles {
        assert!(
            diagnostics.contains(needle),
            "expected {needle:?} in the diagnostics:\n{diagnostics}"
        );
    }
}

#[test]
fn good_samples_are_accepted() {
    expect_accepted("COMPACT", COMPACT);
    expect_accepted("REDUCE", REDUCE);
    expect_accepted("DRAW", DRAW);
}

#[test]
fn undeclared_function_is_rejected() {
    let err = rejection(COMPACT, "simd_sum(", "simd_summ(");
    assert_mentions(&err, &["error", "simd_summ"]);
}

#[test]
fn wrong_argument_count_is_rejected() {
    let err = rejection(
        COMPACT,
        "atomic_fetch_add_explicit(Count, waveCount, memory_order_relaxed)",
        "atomic_fetch_add_explicit(Count, waveCount)",
    );
    assert_mentions(&err, &["no matching function", "atomic_fetch_add_explicit"]);
    let err = rejection(REDUCE, "clamp(v.x, 0.0f, 1.0f)", "clamp(v.x, 0.0f)");
    assert_mentions(&err, &["no matching function", "clamp"]);
}

#[test]
fn wrong_argument_type_is_rejected() {
    // simd_ballot takes a bool; a float4 does not convert to one.
    let err = rejection(COMPACT, "simd_ballot(keep)", "simd_ballot(float4(v))");
    assert_mentions(&err, &["simd_ballot"]);
    // dot of float4 and float3 has no overload.
    let err = rejection(REDUCE, "float4(1.0f)) + length", "float3(1.0f)) + length");
    assert_mentions(&err, &["no matching function", "dot"]);
    // sampling needs a sampler, not a texture coordinate.
    let err = rejection(
        DRAW,
        "albedo.sample(samp, in.uv)",
        "albedo.sample(in.uv, samp)",
    );
    assert_mentions(&err, &["no matching member function", "sample"]);
}

#[test]
fn undeclared_identifier_is_rejected() {
    let err = rejection(
        COMPACT,
        "Kept[waveBase + laneOffset]",
        "Kept[waveBase + laneOfset]",
    );
    assert_mentions(&err, &["undeclared identifier", "laneOfset"]);
}

#[test]
fn device_pointer_where_threadgroup_is_needed_is_rejected() {
    let err = rejection(
        REDUCE,
        "store_partial(partials, simd_group, neighbour)",
        "store_partial(Output, simd_group, neighbour)",
    );
    assert_mentions(&err, &["store_partial", "__global", "__local"]);
}

#[test]
fn writing_through_constant_is_rejected() {
    let err = rejection(
        REDUCE,
        "float4 v = params.transform",
        "params.count = 0u; float4 v = params.transform",
    );
    assert_mentions(&err, &["read-only", "params"]);
}

#[test]
fn threadgroup_variable_outside_a_kernel_is_rejected() {
    let err = rejection(
        REDUCE,
        "    partials[index] = value;",
        "    threadgroup float scratch[4];\n    partials[index] = value + scratch[0];",
    );
    assert_mentions(&err, &["scratch", "local address space"]);
}

#[test]
fn returning_the_wrong_type_is_rejected() {
    let err = rejection(
        DRAW,
        "    return out;\n}\n\nfragment",
        "    return out.uv;\n}\n\nfragment",
    );
    assert_mentions(&err, &["no viable conversion", "VertexOut"]);
}

#[test]
fn comparing_vectors_in_a_condition_is_rejected() {
    // A vector comparison yields bool4; MSL needs all() or any() around it.
    let err = rejection(REDUCE, "if (all(big) || any(!big))", "if (big)");
    assert_mentions(&err, &["bool4"]);
}

#[test]
fn implicit_vector_conversion_is_rejected() {
    // float4 to uint4 needs an explicit conversion in MSL.
    let err = rejection(
        REDUCE,
        "bool4 big = counts > uint4(params.count);",
        "uint4 w = v; bool4 big = counts > w;",
    );
    assert_mentions(&err, &["uint4"]);
}

#[test]
fn double_is_rejected() {
    let err = rejection(
        COMPACT,
        "float v = Values[id.x];",
        "double v = Values[id.x];",
    );
    assert_mentions(&err, &["error"]);
}

/// Metal's `array` has an `operator[]` per address space: an element of a
/// `threadgroup` (or `device`) array passed by reference is itself `threadgroup`, so
/// the atomic functions accept it.
const ARRAY_ATOMICS: &str = r#"#include <metal_stdlib>
using namespace metal;

void count(threadgroup array<atomic_uint, 16>& bins, device array<atomic_uint, 4>& totals, uint key) {
    uint before = atomic_fetch_add_explicit(&bins[key & 15u], 1u, memory_order_relaxed);
    atomic_fetch_add_explicit(&totals[key & 3u], before, memory_order_relaxed);
}

kernel void count_keys(device array<atomic_uint, 4>* totals [[buffer(0)]],
                       uint tid [[thread_position_in_threadgroup]]) {
    threadgroup array<atomic_uint, 16> bins;
    count(bins, *totals, tid);
}
"#;

#[test]
fn atomics_on_elements_of_threadgroup_and_device_arrays_are_accepted() {
    expect_accepted("ARRAY_ATOMICS", ARRAY_ATOMICS);
}

#[test]
fn atomics_on_elements_of_thread_arrays_are_rejected() {
    let err = rejection(
        ARRAY_ATOMICS,
        "threadgroup array<atomic_uint, 16> bins;\n    count(bins",
        "array<atomic_uint, 16> bins;\n    count(bins",
    );
    assert_mentions(&err, &["count"]);
}
