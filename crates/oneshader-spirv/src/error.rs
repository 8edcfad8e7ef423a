//! The backend's error: an `OSH5001` diagnostic, convertible from the module builder's errors.

use oneshader_ir::{codes, Diagnostic, Span};
use rspirv::spirv::Op;

use crate::module::{BuildError, MAX_INSTRUCTION_WORDS};

/// A failure to write some construct; it aborts the function being written. Boxed, so
/// that the writer's results (a word, mostly) stay small enough to return in registers.
#[derive(Debug)]
pub(crate) struct Error(pub Box<Diagnostic>);

/// The result of writing one construct.
pub(crate) type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// An `OSH5001` error at `span`.
    pub fn unsupported(span: Option<Span>, message: impl Into<String>) -> Self {
        Error(Box::new(Diagnostic::error(
            codes::SPIRV_UNSUPPORTED,
            span,
            message,
        )))
    }

    /// An `OSH5001` error for IR that breaks the IR's own rules.
    pub fn malformed(span: Option<Span>, what: impl std::fmt::Display) -> Self {
        Error::unsupported(span, format!("malformed IR for SPIR-V: {what}"))
    }
}

impl From<BuildError> for Error {
    fn from(error: BuildError) -> Self {
        match error {
            BuildError::TooManyWords { op, words } => Error::too_long(op, Some(words)),
            _ => Error::malformed(None, format!("the SPIR-V builder refused it ({error:?})")),
        }
    }
}

impl Error {
    /// An `OSH5001` error for an instruction `op` of `words` words (if known), more than
    /// SPIR-V can count; the location is the construct's, filled in by the caller.
    #[cold]
    pub fn too_long(op: Op, words: Option<usize>) -> Self {
        let (what, fix) = match op {
            Op::ConstantComposite | Op::CompositeConstruct => (
                "an array, vector or struct value",
                "split the array or its initializer into smaller ones",
            ),
            Op::EntryPoint => (
                "the entry point's name and the global variables it uses",
                "shorten its name or use fewer global variables",
            ),
            _ => ("this construct", "split it into smaller ones"),
        };
        let words = match words {
            Some(words) => words.to_string(),
            None => format!("more than {MAX_INSTRUCTION_WORDS}"),
        };
        Error::unsupported(
            None,
            format!(
                "{what} needs a SPIR-V instruction (Op{op:?}) of {words} words; SPIR-V allows \
                 at most {MAX_INSTRUCTION_WORDS}: {fix}"
            ),
        )
    }
}
