//! The shared intermediate representation of oneshader.
//!
//! A [`Module`] owns arenas of types, global variables and functions; handles
//! ([`Handle<T>`]) index into them. Wave, quad and bit operations are first-class
//! expressions ([`WaveOp`], [`MathFunction`]), so every backend sees them as such.

pub mod diagnostic;
pub mod source;

pub use diagnostic::{codes, Code, Diagnostic, Diagnostics, Label, Severity};
pub use source::{FileId, SourceFile, SourceMap, Span};
