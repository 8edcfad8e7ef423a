//! The whole compile, to SPIR-V, MSL and WGSL: any text gives outputs or diagnostics,
//! without panicking; a successful compile has an error-free result for every entry
//! point and target, and its SPIR-V loads in rspirv (a structural check, cheap enough
//! to run on every input; spirv-val runs in the test suite).
#![no_main]

use libfuzzer_sys::fuzz_target;
use oneshader::{compile_source, CompileOptions, Target};

fuzz_target!(|text: &str| {
    let result = compile_source("fuzz.hlsl", text, &CompileOptions::default());
    if !result.success() {
        return;
    }
    for blob in &result.blobs {
        if blob.target == Target::SpirV {
            let words = blob.words().expect("SPIR-V blob without words");
            let mut loader = rspirv::dr::Loader::new();
            rspirv::binary::parse_words(&words, &mut loader)
                .unwrap_or_else(|e| panic!("rspirv cannot parse our SPIR-V: {e}"));
        }
    }
});
