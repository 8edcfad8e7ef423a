//! The spec's example, `shaders/Compact.hlsl`, on random inputs: `Kept` must hold
//! exactly the values above 0.5 (as a multiset) and `Count` their number, on every
//! runtime; and the library reports what the spec's program prints.

use oneshader::{CompileOptions, EntryLayout, PipelineLayout, WebGpuLayoutOptions};
use oneshader_e2e::{compile_and_validate, run, shaders_dir, Rng, Runtime};
use oneshader_harness::f32_bytes;

const WORKGROUPS: u32 = 64;
const THREADS: usize = 64 * WORKGROUPS as usize;

#[test]
fn compact_keeps_exactly_the_values_above_one_half_on_every_runtime() {
    let compiled = compile_and_validate(
        &shaders_dir().join("Compact.hlsl"),
        &CompileOptions::default(),
    );
    for (seed, runtime) in [11u32, 12, 13, 14].into_iter().zip(Runtime::selected()) {
        let mut rng = Rng::new(seed);
        let values: Vec<f32> = (0..THREADS).map(|_| rng.next_f32()).collect();
        let buffers = vec![
            ("Values".to_string(), f32_bytes(&values)),
            ("Kept".to_string(), vec![0; THREADS * 4]),
            ("Count".to_string(), vec![0; 4]),
        ];
        let output = run(&compiled, runtime, &buffers, [WORKGROUPS, 1, 1])
            .unwrap_or_else(|e| panic!("Compact on {runtime:?}: {e}"));
        let mut expected: Vec<u32> = values
            .iter()
            .filter(|v| **v > 0.5)
            .map(|v| v.to_bits())
            .collect();
        let count = output.u32s(2).expect("Count")[0] as usize;
        assert_eq!(count, expected.len(), "Count on {runtime:?}");
        let kept = output.f32s(1).expect("Kept");
        let mut got: Vec<u32> = kept[..count].iter().map(|v| v.to_bits()).collect();
        got.sort_unstable();
        expected.sort_unstable();
        assert_eq!(
            got, expected,
            "Kept on {runtime:?} (subgroup size {})",
            output.device.subgroup_size
        );
    }
}

#[test]
fn compact_reflects_what_the_spec_prints() {
    let result = oneshader::compile_file(
        shaders_dir().join("Compact.hlsl"),
        &CompileOptions::default(),
    );
    assert!(result.success(), "{:?}", result.short_diagnostics());
    let reflection = result.reflection.as_ref().expect("reflection");
    let entry = reflection.entry_point("CSMain").expect("CSMain");
    assert_eq!(entry.subgroup_operations.bits(), 0x9);
    assert_eq!(entry.subgroup_operations.to_string(), "Basic, Ballot");
    assert_eq!(entry.workgroup_size, [64, 1, 1]);
    let layout = EntryLayout::from_reflection(reflection, "CSMain").expect("entry layout");
    let pipeline = PipelineLayout::new(&[layout]);
    let webgpu = pipeline
        .try_to_webgpu(&WebGpuLayoutOptions {
            read_only_storage_buffers: vec!["Values".into()],
        })
        .expect("WebGPU layout");
    assert_eq!(webgpu.required_features, vec!["subgroups".to_string()]);
}
