//! The HLSL front end of oneshader: lexer, preprocessor and parser.
//!
//! [`lexer`] turns text into tokens, [`preprocess`] runs the C preprocessor on
//! those tokens, and [`parser`] builds the syntax tree of [`ast`] without any
//! semantic knowledge beyond the names of declared types.

pub mod ast;
pub mod lexer;
pub mod parser;
