//! The stage rules and unsupported intrinsics of wave operations, through the whole
//! pipeline (`oneshader::compile_source`): the exact diagnostic lines, which targets
//! still compile, and what reflection reports.

use oneshader::{CompileOptions, ShaderStage, SubgroupOperations, Target};
use oneshader_harness::spirv_val;

fn only(target: Target) -> CompileOptions {
    CompileOptions {
        targets: vec![target],
        ..CompileOptions::default()
    }
}

const VERTEX_SUM: &str = "// vertex\n\
[shader(\"vertex\")] float4 main(float4 p : POSITION) : SV_Position { return p * WaveActiveSum(p.x); }\n";

#[test]
fn a_wave_op_in_a_vertex_shader_is_osh5202_on_wgsl_with_the_spec_wording() {
    let result = oneshader::compile_source("vsw.hlsl", VERTEX_SUM, &only(Target::Wgsl));
    assert!(!result.success());
    let column = VERTEX_SUM
        .lines()
        .nth(1)
        .and_then(|l| l.find("WaveActiveSum"))
        .expect("call")
        + 1;
    assert_eq!(
        result.short_diagnostics(),
        [format!(
            "vsw.hlsl(2,{column}): error OSH5202: The intrinsic 'WaveActiveSum' is not available \
             in a vertex shader in WGSL: WebGPU's subgroup functions exist only in compute and \
             fragment shaders."
        )]
    );
}

#[test]
fn the_same_vertex_shader_compiles_for_spirv_and_msl() {
    for target in [Target::SpirV, Target::Msl] {
        let result = oneshader::compile_source("vsw.hlsl", VERTEX_SUM, &only(target));
        assert!(
            result.success(),
            "{target}: {:?}",
            result.short_diagnostics()
        );
    }
    let result = oneshader::compile_source("vsw.hlsl", VERTEX_SUM, &only(Target::SpirV));
    let words = result
        .find("main", Target::SpirV)
        .and_then(|b| b.words())
        .expect("SPIR-V");
    spirv_val(&words).unwrap_or_else(|e| panic!("{e}"));
}

const VERTEX_LANE: &str = "// vertex\n\
[shader(\"vertex\")] float4 main(float4 p : POSITION) : SV_Position { return p + float(WaveGetLaneIndex()); }\n";

#[test]
fn a_lane_index_in_a_vertex_shader_is_osh5102_on_msl() {
    let result = oneshader::compile_source("vsl.hlsl", VERTEX_LANE, &only(Target::Msl));
    assert!(!result.success());
    let column = VERTEX_LANE
        .lines()
        .nth(1)
        .and_then(|l| l.find("WaveGetLaneIndex"))
        .expect("call")
        + 1;
    assert_eq!(
        result.short_diagnostics(),
        [format!(
            "vsl.hlsl(2,{column}): error OSH5102: The intrinsic 'WaveGetLaneIndex' is not \
             available in a vertex shader in MSL: Metal has no SIMD-group lane index or lane \
             count in vertex functions."
        )]
    );
    let count = VERTEX_LANE.replace("WaveGetLaneIndex", "WaveGetLaneCount");
    let result = oneshader::compile_source("vsl.hlsl", &count, &only(Target::Msl));
    let lines = result.short_diagnostics();
    assert!(
        lines.len() == 1 && lines[0].contains("error OSH5102: The intrinsic 'WaveGetLaneCount'"),
        "{lines:?}"
    );
    let spirv = oneshader::compile_source("vsl.hlsl", VERTEX_LANE, &only(Target::SpirV));
    assert!(spirv.success(), "{:?}", spirv.short_diagnostics());
}

#[test]
fn a_quad_op_outside_fragment_and_compute_is_reported_in_reflection() {
    let text = "// vertex\n\
        [shader(\"vertex\")] float4 main(float4 p : POSITION) : SV_Position { return QuadReadAcrossX(p); }\n";
    let result = oneshader::compile_source("vsq.hlsl", text, &only(Target::SpirV));
    assert!(result.success(), "{:?}", result.short_diagnostics());
    let entry = result
        .reflection
        .as_ref()
        .and_then(|r| r.entry_point("main"))
        .expect("main");
    assert_eq!(entry.stage, ShaderStage::Vertex);
    assert!(entry.subgroup_operations.contains(SubgroupOperations::QUAD));
    assert_eq!(entry.subgroup_operations.bits(), 0x81);
    assert!(entry.quad_operations_in_all_stages);

    let pixel = "[shader(\"pixel\")] float4 main(float4 p : SV_Position) : SV_Target { return QuadReadAcrossX(p); }\n";
    let result = oneshader::compile_source("psq.hlsl", pixel, &only(Target::SpirV));
    assert!(result.success(), "{:?}", result.short_diagnostics());
    let entry = result
        .reflection
        .as_ref()
        .and_then(|r| r.entry_point("main"))
        .expect("main");
    assert!(entry.subgroup_operations.contains(SubgroupOperations::QUAD));
    assert!(
        !entry.quad_operations_in_all_stages,
        "pixel shaders have quads everywhere"
    );
}

#[test]
fn wave_match_and_wave_multi_prefix_are_osh0350_with_the_spec_message() {
    let shader = |call: &str| {
        format!(
            "RWStructuredBuffer<uint> Out : register(u0);\n\
             [numthreads(64, 1, 1)]\n\
             void main(uint3 id : SV_DispatchThreadID) {{ Out[id.x] = {call}; }}\n"
        )
    };
    let text = shader("WaveMatch(id.x).x");
    let result = oneshader::compile_source("match.hlsl", &text, &CompileOptions::default());
    let column = text
        .lines()
        .nth(2)
        .and_then(|l| l.find("WaveMatch"))
        .expect("call")
        + 1;
    assert_eq!(
        result.short_diagnostics(),
        [format!(
            "match.hlsl(3,{column}): error OSH0350: The intrinsic 'WaveMatch' is not supported: \
             it needs partitioned subgroup operations, which no target offers portably (SPIR-V \
             has only a vendor extension; MSL and WGSL have none). Build the groups with \
             WaveActiveBallot and WaveReadLaneFirst in a loop instead."
        )]
    );
    assert!(result.blobs.is_empty());
    for name in [
        "WaveMultiPrefixSum",
        "WaveMultiPrefixProduct",
        "WaveMultiPrefixCountBits",
        "WaveMultiPrefixBitAnd",
        "WaveMultiPrefixBitOr",
        "WaveMultiPrefixBitXor",
    ] {
        let argument = if name.ends_with("CountBits") {
            "id.x > 3u"
        } else {
            "id.x"
        };
        let text = shader(&format!("{name}({argument}, uint4(1u, 0u, 0u, 0u))"));
        let result = oneshader::compile_source("multi.hlsl", &text, &CompileOptions::default());
        let lines = result.short_diagnostics();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].contains(&format!(
                "error OSH0350: The intrinsic '{name}' is not supported: it needs partitioned \
                 subgroup operations"
            )) && lines[0].ends_with(
                "Loop over the groups with WaveActiveBallot and WaveReadLaneFirst, and use the \
                 WavePrefix* intrinsic inside the branch of each group instead."
            ),
            "{lines:?}"
        );
    }
}
