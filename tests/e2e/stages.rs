//! Vertex and pixel shaders and texture diagnostics: every output validates
//! (spirv-val, Tint, the MSL check), and what a target cannot do is a precise OSH
//! error rather than invalid code.

use std::path::Path;

use oneshader::{compile_source, CompileOptions, Target};
use oneshader_e2e::compile_and_validate;

fn graphics(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("graphics")
        .join(name)
}

#[test]
fn vertex_and_pixel_entry_points_of_one_file_validate() {
    for entry in ["VSMain", "PSMain"] {
        let options = CompileOptions {
            entry_point: Some(entry.into()),
            ..CompileOptions::default()
        };
        let compiled = compile_and_validate(&graphics("textured_quad.hlsl"), &options);
        let wgsl = compiled.text(Target::Wgsl);
        if entry == "VSMain" {
            // User outputs get locations in declaration order; integers are flat.
            assert!(wgsl.contains("@location(0)"), "{wgsl}");
            assert!(wgsl.contains("@location(2) @interpolate(linear"), "{wgsl}");
            assert!(wgsl.contains("@location(1) @interpolate(flat"), "{wgsl}");
        } else {
            assert!(wgsl.contains("@builtin(frag_depth)"), "{wgsl}");
            assert!(wgsl.contains("@location(1)"), "{wgsl}");
            assert!(wgsl.contains("textureSampleBias"), "{wgsl}");
            assert!(wgsl.contains("dpdyFine"), "{wgsl}");
        }
    }
}

#[test]
fn every_texture_shape_and_method_validates_in_a_pixel_shader() {
    let options = CompileOptions {
        profile: Some(oneshader::Profile::parse("ps_6_0").expect("a valid profile")),
        entry_point: Some("main".into()),
        ..CompileOptions::default()
    };
    let compiled = compile_and_validate(&graphics("resources_all.hlsl"), &options);
    let metal = compiled.text(Target::Msl);
    assert!(metal.contains("depth2d<float, access::sample>"), "{metal}");
    assert!(compiled.text(Target::Wgsl).contains("texture_depth_2d"));
}

fn compile_errors(source: &str) -> Vec<String> {
    let result = compile_source("test.hlsl", source, &CompileOptions::default());
    assert!(!result.success(), "{source} compiled");
    result.short_diagnostics()
}

#[test]
fn implicit_derivatives_in_compute_are_an_error_on_every_target() {
    let source = "Texture2D<float4> T : register(t0);\nSamplerState S : register(s1);\n\
                  RWStructuredBuffer<float4> Out : register(u2);\n\
                  [numthreads(1, 1, 1)] void main() { Out[0] = T.Sample(S, float2(0.5, 0.5)); }";
    let errors = compile_errors(source);
    for code in ["OSH5001", "OSH5101", "OSH5201"] {
        assert!(
            errors
                .iter()
                .any(|e| e.contains(code) && e.contains("SampleLevel")),
            "{code}: {errors:?}"
        );
    }
    let source = "RWStructuredBuffer<float> Out : register(u0);\n\
                  [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { Out[0] = ddx(float(id.x)); }";
    let errors = compile_errors(source);
    assert!(
        errors
            .iter()
            .any(|e| e.contains("OSH5001") && e.contains("ddx")),
        "{errors:?}"
    );
}

#[test]
fn storage_formats_webgpu_lacks_are_osh5201() {
    let source = "[[vk::image_format(\"rgb10a2\")]] RWTexture2D<float4> Out : register(u0);\n\
                  [numthreads(1, 1, 1)] void main() { Out[uint2(0, 0)] = 1.0; }";
    let errors = compile_errors(source);
    assert!(
        errors
            .iter()
            .any(|e| e.contains("OSH5201") && e.contains("format")),
        "{errors:?}"
    );
    assert!(
        !errors
            .iter()
            .any(|e| e.contains("OSH5001") || e.contains("OSH5101")),
        "{errors:?}"
    );
}

/// Sampling under a condition that depends on the pixel, as the D3D12 wave intrinsics
/// sample's magnify.hlsl does: legal HLSL, and WGSL's uniformity analysis would reject
/// it, so the WGSL turns `derivative_uniformity` off (Tint validates the output). Its
/// registers b0, t0, t1, s0 share bindings 0 and 1 until shifted with DXC's
/// `-fvk-t-shift 1 0 -fvk-s-shift 3 0`.
const MAGNIFY_STYLE: &str = r#"
cbuffer View : register(b0) { float2 focus; float radius; float zoom; };
Texture2D scene : register(t0);
Texture2D overlay : register(t1);
SamplerState linearClamp : register(s0);
float4 main(float4 position : SV_Position, float2 uv : TEXCOORD) : SV_Target
{
    float4 color = scene.Sample(linearClamp, uv);
    float4 ui = overlay.Sample(linearClamp, uv);
    color = lerp(color, ui, ui.a);
    float2 d = abs(uv - focus);
    if (d.x < radius && d.y < radius)
        color = scene.Sample(linearClamp, focus + (uv - focus) / zoom) + ddx(uv).x;
    return color;
}
"#;

#[test]
fn sampling_in_divergent_control_flow_validates_with_shifted_bindings() {
    use oneshader::{BindingShift, Profile, RegisterClass};
    let profile = Some(Profile::parse("ps_6_0").expect("a valid profile"));
    let unshifted = compile_source(
        "magnify_style.hlsl",
        MAGNIFY_STYLE,
        &CompileOptions {
            profile,
            entry_point: Some("main".into()),
            ..CompileOptions::default()
        },
    );
    let errors = unshifted.short_diagnostics();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors.iter().all(|e| e.contains("OSH0322")), "{errors:?}");

    let options = CompileOptions {
        profile,
        entry_point: Some("main".into()),
        binding_shifts: vec![
            BindingShift {
                class: RegisterClass::T,
                shift: 1,
                space: Some(0),
            },
            BindingShift {
                class: RegisterClass::S,
                shift: 3,
                space: None,
            },
        ],
        ..CompileOptions::default()
    };
    let compiled =
        oneshader_e2e::compile_source_and_validate("magnify_style.hlsl", MAGNIFY_STYLE, &options);
    let wgsl = compiled.text(Target::Wgsl);
    assert!(
        wgsl.starts_with("diagnostic(off, derivative_uniformity);\n"),
        "{wgsl}"
    );
    let entry = compiled
        .reflection()
        .entry_point("main")
        .expect("the entry point's reflection");
    let mut bindings: Vec<(String, u32, u32)> = entry
        .resources
        .iter()
        .map(|r| (r.name.clone(), r.set, r.binding))
        .collect();
    bindings.sort();
    assert_eq!(
        bindings,
        [
            ("View".to_string(), 0, 0),
            ("linearClamp".to_string(), 0, 3),
            ("overlay".to_string(), 0, 2),
            ("scene".to_string(), 0, 1),
        ]
    );
}
