//! Generated programs checked by execution, a small Csmith for HLSL compute shaders:
//! [`random`] generates well-defined programs of the [`program`] model, [`hlsl`] prints them
//! (many to one shader), and [`interpret`] runs them on the CPU, lane by lane, as the
//! reference every device's output is compared with (`tests/e2e/generated.rs`).

pub mod hlsl;
pub mod interpret;
pub mod program;
pub mod random;

pub use interpret::{interpret, Waves};
pub use program::Program;
pub use random::{generate, program_seed};

/// The input buffer's words for a run seeded with `seed`: edges and random words.
pub fn input_words(seed: u32) -> Vec<u32> {
    let mut rng = crate::Rng::new(seed ^ 0x5EED_1234);
    (0..program::INPUT_WORDS)
        .map(|i| match i % 8 {
            0 => [
                0,
                1,
                u32::MAX,
                0x8000_0000,
                0x7FFF_FFFF,
                31,
                32,
                0xFFFF_FFFE,
            ][(i / 8) % 8],
            1..=3 => rng.next_u32() % 64,
            _ => rng.next_u32(),
        })
        .collect()
}
