//! Compact run on lavapipe with random inputs, checked against a CPU reference.

use oneshader_harness::{run_compute, BufferBinding, BufferKind, ComputeJob, VulkanDriver};

use super::*;

/// Deterministic pseudo-random floats in [0, 1).
fn random_values(count: usize, mut state: u32) -> Vec<f32> {
    (0..count)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            (state >> 8) as f32 / (1u32 << 24) as f32
        })
        .collect()
}

#[test]
fn compact_keeps_exactly_the_values_above_one_half_on_lavapipe() {
    const COUNT: usize = 256;
    let values = random_values(COUNT, 0x1234_5678);
    let job = ComputeJob {
        spirv: compile(&oneshader_ir::samples::compact()),
        entry_point: "CSMain".into(),
        workgroups: [(COUNT / 64) as u32, 1, 1],
        push_constants: Vec::new(),
        buffers: vec![
            BufferBinding::new(
                0,
                0,
                BufferKind::ReadOnlyStorage,
                oneshader_harness::f32_bytes(&values),
            ),
            BufferBinding::storage_f32(0, 1, &[0.0; COUNT]),
            BufferBinding::new(
                0,
                2,
                BufferKind::Storage,
                oneshader_harness::u32_bytes(&[0]),
            ),
        ],
    };
    let output = run_compute(VulkanDriver::Lavapipe, &job).unwrap_or_else(|e| panic!("{e}"));
    let mut expected: Vec<u32> = values
        .iter()
        .filter(|&&v| v > 0.5)
        .map(|v| v.to_bits())
        .collect();
    let count = output.u32s(2).expect("the count buffer")[0] as usize;
    assert_eq!(count, expected.len());
    let kept = output.f32s(1).expect("the kept buffer");
    let mut kept: Vec<u32> = kept.iter().take(count).map(|v| v.to_bits()).collect();
    expected.sort_unstable();
    kept.sort_unstable();
    assert_eq!(kept, expected, "the kept values, as a multiset");
    assert!(output.f32s(1).expect("kept")[count..]
        .iter()
        .all(|&v| v == 0.0));
}
