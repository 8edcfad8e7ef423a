//! Shaders/Compact.hlsl, the spec's example.

use oneshader_harness::{run_wgsl_compute, BufferBinding, DawnDriver, WgslJob};

use super::*;

#[test]
fn compact_starts_with_the_subgroup_directives_and_uses_an_atomic_counter() {
    let text = wgsl(&oneshader_ir::samples::compact());
    assert!(
        text.starts_with("enable subgroups;\ndiagnostic(off, subgroup_uniformity);\n"),
        "{text}"
    );
    assert!(text.contains("@group(0) @binding(0) var<storage, read> Values: array<f32>;"));
    assert!(text.contains("@group(0) @binding(1) var<storage, read_write> Kept: array<f32>;"));
    assert!(
        text.contains("@group(0) @binding(2) var<storage, read_write> Count: array<atomic<u32>>;")
    );
    assert!(text.contains("atomicAdd(&Count[0u], "), "{text}");
    assert!(text.contains("@compute @workgroup_size(64, 1, 1)"));
    assert!(text.contains("@builtin(global_invocation_id) id: vec3<u32>"));
    // Only what the entry point uses: no lane built-ins.
    assert!(!text.contains("subgroup_invocation_id"));
    assert!(
        text.len() <= 939,
        "{} bytes, the spec's is 939:\n{text}",
        text.len()
    );
}

#[test]
fn tint_accepts_compact() {
    assert_tint_accepts(&wgsl(&oneshader_ir::samples::compact()));
}

#[test]
fn compact_keeps_the_values_above_one_half_on_dawn() {
    let text = wgsl(&oneshader_ir::samples::compact());
    let values: Vec<f32> = (0..256).map(|i| ((i * 37) % 100) as f32 / 100.0).collect();
    let job = WgslJob {
        wgsl: text.clone(),
        entry_point: "CSMain".into(),
        workgroups: [4, 1, 1],
        driver: DawnDriver::SwiftShader,
        features: vec!["subgroups".into()],
        buffers: vec![
            BufferBinding::read_only_f32(0, 0, &values),
            BufferBinding::storage_f32(0, 1, &[0.0; 256]),
            BufferBinding::storage_u32(0, 2, &[0]),
        ],
    };
    let output = match run_wgsl_compute(&job) {
        Ok(output) => output,
        Err(error) => panic!("{error}\n{text}"),
    };
    let expected: Vec<f32> = values.iter().copied().filter(|&v| v > 0.5).collect();
    let count = output.u32s(2).expect("Count")[0] as usize;
    assert_eq!(count, expected.len());
    let mut kept = output.f32s(1).expect("Kept")[..count].to_vec();
    kept.sort_by(f32::total_cmp);
    let mut expected_sorted = expected;
    expected_sorted.sort_by(f32::total_cmp);
    assert_eq!(kept, expected_sorted);
}
