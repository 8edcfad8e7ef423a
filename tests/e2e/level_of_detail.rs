//! `CalculateLevelOfDetail` / `CalculateLevelOfDetailUnclamped`: SPIR-V's
//! `OpImageQueryLod` and MSL's `calculate_clamped_lod`/`calculate_unclamped_lod` in pixel
//! shaders (validated: spirv-val, the MSL check), and the diagnostics where a target has
//! no such query (WGSL) or the stage has no derivatives (compute).

use oneshader::{CompileOptions, Target};
use oneshader_e2e::disassemble;
use oneshader_harness::{msl, spirv_val};

fn only(target: Target) -> CompileOptions {
    CompileOptions {
        targets: vec![target],
        ..CompileOptions::default()
    }
}

const PIXEL_LOD: &str = "Texture2D<float4> Tex : register(t0);\n\
Texture2DArray<float4> Layers : register(t1);\n\
TextureCube<float4> Sky : register(t2);\n\
SamplerState Samp : register(s3);\n\
[shader(\"pixel\")] float4 main(float2 uv : TEXCOORD0) : SV_Target0 {\n\
    float clamped = Tex.CalculateLevelOfDetail(Samp, uv);\n\
    float unclamped = Layers.CalculateLevelOfDetailUnclamped(Samp, uv);\n\
    float cube = Sky.CalculateLevelOfDetail(Samp, float3(uv, 1.0));\n\
    return Tex.SampleLevel(Samp, uv, clamped) + float4(unclamped, cube, 0, 0);\n\
}\n";

#[test]
fn spirv_uses_op_image_query_lod_x_for_clamped_and_y_for_unclamped() {
    let result = oneshader::compile_source("lod.hlsl", PIXEL_LOD, &only(Target::SpirV));
    assert!(result.success(), "{:?}", result.short_diagnostics());
    let words = result
        .find("main", Target::SpirV)
        .and_then(|b| b.words())
        .expect("SPIR-V");
    spirv_val(&words).unwrap_or_else(|e| panic!("{e}"));
    let text = disassemble(&words);
    assert!(text.contains("OpCapability ImageQuery"), "{text}");
    // The component taken of each OpImageQueryLod result: 0 (clamped) or 1 (unclamped).
    let mut taken = Vec::new();
    for line in text.lines().filter(|l| l.contains("OpImageQueryLod")) {
        let id = line.split_whitespace().next().expect("result id");
        let extract = text
            .lines()
            .find(|l| l.contains("OpCompositeExtract") && l.contains(&format!(" {id} ")))
            .unwrap_or_else(|| panic!("no extract of {id}:\n{text}"));
        taken.push(
            extract
                .split_whitespace()
                .last()
                .expect("index")
                .to_string(),
        );
    }
    taken.sort();
    assert_eq!(taken, ["0", "0", "1"], "{text}");
}

#[test]
fn msl_uses_calculate_clamped_and_unclamped_lod() {
    let result = oneshader::compile_source("lod.hlsl", PIXEL_LOD, &only(Target::Msl));
    assert!(result.success(), "{:?}", result.short_diagnostics());
    let text = result
        .find("main", Target::Msl)
        .and_then(|b| b.as_text())
        .expect("MSL");
    msl::check_msl(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(text.matches(".calculate_clamped_lod(").count(), 2, "{text}");
    assert_eq!(
        text.matches(".calculate_unclamped_lod(").count(),
        1,
        "{text}"
    );
}

#[test]
fn wgsl_has_no_level_of_detail_query_and_says_what_to_do() {
    let result = oneshader::compile_source("lod.hlsl", PIXEL_LOD, &only(Target::Wgsl));
    assert!(!result.success());
    let lines = result.short_diagnostics();
    assert!(
        lines.iter().any(|l| l.contains("lod.hlsl(6,")
            && l.contains(
                "error OSH5201: The intrinsic 'CalculateLevelOfDetail' is not supported in WGSL"
            )
            && l.contains("SampleLevel")),
        "{lines:?}"
    );
}

#[test]
fn in_a_compute_shader_spirv_names_the_missing_derivative_group_capability() {
    let source = "Texture2D<float4> Tex : register(t0);\n\
        SamplerState Samp : register(s1);\n\
        RWStructuredBuffer<float> Out : register(u2);\n\
        [numthreads(4, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {\n\
            Out[id.x] = Tex.CalculateLevelOfDetail(Samp, float2(id.xy));\n\
        }\n";
    let result = oneshader::compile_source("cs.hlsl", source, &only(Target::SpirV));
    let lines = result.short_diagnostics();
    assert!(
        lines.iter().any(|l| l.contains("cs.hlsl(5,")
            && l.contains("OSH5001")
            && l.contains("'CalculateLevelOfDetail' needs implicit derivatives")
            && l.contains("DerivativeGroupQuadsKHR")),
        "{lines:?}"
    );
    let result = oneshader::compile_source("cs.hlsl", source, &only(Target::Msl));
    assert!(
        result
            .short_diagnostics()
            .iter()
            .any(|l| l.contains("OSH5101") && l.contains("'CalculateLevelOfDetail'")),
        "{:?}",
        result.short_diagnostics()
    );
}
