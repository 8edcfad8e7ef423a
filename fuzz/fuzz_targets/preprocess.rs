//! The preprocessor: any text (with `#include "inc.hlsli"` resolving to the same
//! text, so include cycles and depth are reachable) preprocesses without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oneshader_hlsl::{preprocess, MemoryLoader, PreprocessOptions};
use oneshader_ir::{Diagnostics, SourceMap};

fuzz_target!(|text: &str| {
    let mut loader = MemoryLoader::new();
    loader.add("main.hlsl", text).add("inc.hlsli", text);
    let mut map = SourceMap::new();
    let main = map.add("main.hlsl", text);
    let mut diagnostics = Diagnostics::new();
    let arena = oneshader_hlsl::ast::Arena::new();
    let _ = preprocess::preprocess(
        &arena,
        &mut map,
        main,
        &PreprocessOptions::default(),
        &loader,
        &mut diagnostics,
    );
});
