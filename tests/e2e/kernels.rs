//! The 500-line benchmark kernel set `shaders/Kernels.hlsl` (docs/performance.md) is a
//! real program, not just text to time: every entry point compiles and validates for
//! every target, and two of its kernels run on every runtime against the CPU.

use oneshader::{CompileOptions, Target};
use oneshader_e2e::{compile_and_validate, run, shaders_dir, Compiled, Rng, Runtime};
use oneshader_harness::{f32_bytes, u32_bytes};

const TILE_SIZE: usize = 1024;
const RADIX: usize = 16;
const ENTRY_POINTS: [&str; 6] = [
    "ReduceTiles",
    "ScanTiles",
    "RadixHistogram",
    "RadixScatter",
    "BitonicSortTile",
    "CompactNormalized",
];

fn compile(entry: &str) -> Compiled {
    compile_and_validate(
        &shaders_dir().join("Kernels.hlsl"),
        &CompileOptions {
            entry_point: Some(entry.into()),
            ..CompileOptions::default()
        },
    )
}

/// `cbuffer Params`: ElementCount, TileCount, DigitShift, Flags, then four floats.
fn params(elements: usize, digit_shift: u32) -> Vec<u8> {
    let tiles = elements.div_ceil(TILE_SIZE) as u32;
    let mut bytes = u32_bytes(&[elements as u32, tiles, digit_shift, 0]);
    bytes.extend(f32_bytes(&[1.0, 0.0, 0.0, 1.0]));
    bytes
}

#[test]
fn every_kernel_compiles_and_validates_for_every_target() {
    let result = oneshader::compile_file(
        shaders_dir().join("Kernels.hlsl"),
        &CompileOptions::default(),
    );
    assert!(result.success(), "{:?}", result.short_diagnostics());
    for entry in ENTRY_POINTS {
        for target in Target::ALL {
            assert!(result.find(entry, target).is_some(), "{entry} {target:?}");
        }
        // Validation of each entry point's outputs: spirv-val, Tint, the MSL check.
        compile(entry);
    }
}

#[test]
fn bitonic_sort_tile_sorts_each_tile_by_key_on_every_runtime() {
    let compiled = compile("BitonicSortTile");
    // Two tiles, the second one partial; distinct keys, so the order is unique.
    let elements = TILE_SIZE + 600;
    let keys: Vec<u32> = (0..elements as u32)
        .map(|i| i.wrapping_mul(2_654_435_761) >> 1)
        .collect();
    let values: Vec<f32> = (0..elements).map(|i| i as f32).collect();
    let mut expected: Vec<(u32, f32)> = Vec::new();
    for tile in keys.chunks(TILE_SIZE).zip(values.chunks(TILE_SIZE)) {
        let mut pairs: Vec<(u32, f32)> =
            tile.0.iter().copied().zip(tile.1.iter().copied()).collect();
        pairs.sort_by_key(|p| p.0);
        expected.extend(pairs);
    }
    for runtime in Runtime::selected() {
        let buffers = vec![
            ("Params".to_string(), params(elements, 0)),
            ("InputKeys".to_string(), u32_bytes(&keys)),
            ("InputValues".to_string(), f32_bytes(&values)),
            ("OutputKeys".to_string(), vec![0; 4 * elements]),
            ("OutputValues".to_string(), vec![0; 4 * elements]),
        ];
        let workgroups = elements.div_ceil(TILE_SIZE) as u32;
        let output = run(&compiled, runtime, &buffers, [workgroups, 1, 1])
            .unwrap_or_else(|e| panic!("{runtime:?}: {e}"));
        let got: Vec<(u32, f32)> = output
            .u32s(3)
            .expect("OutputKeys")
            .into_iter()
            .zip(output.f32s(4).expect("OutputValues"))
            .collect();
        assert_eq!(got, expected, "{runtime:?}");
    }
}

#[test]
fn radix_histogram_counts_each_digit_of_each_tile_on_every_runtime() {
    let compiled = compile("RadixHistogram");
    let elements = 3 * TILE_SIZE - 100;
    let tiles = elements.div_ceil(TILE_SIZE);
    let digit_shift = 8;
    let mut rng = Rng::new(8);
    // Digits 0..12 only, so the bit set of digits seen has holes.
    let keys: Vec<u32> = (0..elements)
        .map(|_| {
            let digit = rng.next_u32() % 12;
            (rng.next_u32() & !(0xf << digit_shift)) | (digit << digit_shift)
        })
        .collect();
    let mut counts = vec![0u32; RADIX * tiles];
    let mut seen = 0u32;
    for (i, key) in keys.iter().enumerate() {
        let digit = ((key >> digit_shift) & 0xf) as usize;
        counts[digit * tiles + i / TILE_SIZE] += 1;
        seen |= 1 << digit;
    }
    for runtime in Runtime::selected() {
        let buffers = vec![
            ("Params".to_string(), params(elements, digit_shift)),
            ("InputKeys".to_string(), u32_bytes(&keys)),
            ("TileDigitCounts".to_string(), vec![0; 4 * RADIX * tiles]),
            ("Statistics".to_string(), vec![0; 32]),
        ];
        let output = run(&compiled, runtime, &buffers, [tiles as u32, 1, 1])
            .unwrap_or_else(|e| panic!("{runtime:?}: {e}"));
        assert_eq!(output.u32s(2), Ok(counts.clone()), "{runtime:?}");
        assert_eq!(output.u32s(3).map(|s| s[3]), Ok(seen), "{runtime:?}");
    }
}
