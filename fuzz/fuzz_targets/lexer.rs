//! The lexer: any text lexes to tokens and diagnostics, without panicking.
#![no_main]

use libfuzzer_sys::fuzz_target;
use oneshader_ir::{Diagnostics, FileId};

fuzz_target!(|text: &str| {
    let mut diagnostics = Diagnostics::new();
    let arena = oneshader_hlsl::ast::Arena::new();
    let mut spellings = oneshader_hlsl::lexer::Spellings::new(&arena);
    let tokens = oneshader_hlsl::lexer::lex(FileId(0), text, &mut spellings, &mut diagnostics);
    for token in &tokens {
        assert!(token.span.start <= token.span.end, "{token:?}");
        assert!(token.span.end as usize <= text.len(), "{token:?}");
    }
});
