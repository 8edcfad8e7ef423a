//! Preprocessing and parsing: any text gives a syntax tree and diagnostics, without
//! panicking or exhausting the stack.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oneshader_hlsl::{MemoryLoader, PreprocessOptions};
use oneshader_ir::SourceMap;

fuzz_target!(|text: &str| {
    let mut loader = MemoryLoader::new();
    loader.add("main.hlsl", text);
    let mut map = SourceMap::new();
    let main = map.add("main.hlsl", text);
    let arena = oneshader_hlsl::ast::Arena::new();
    let _ = oneshader_hlsl::parse(
        &arena,
        &mut map,
        main,
        &PreprocessOptions::default(),
        &loader,
    );
});
