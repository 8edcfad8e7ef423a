//! The backend's error: an `OSH5001` diagnostic, convertible from the module builder's errors.

use oneshader_ir::{codes, Diagnostic, Span};

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

impl From<crate::module::BuildError> for Error {
    fn from(error: crate::module::BuildError) -> Self {
        Error::malformed(None, format!("the SPIR-V builder refused it ({error:?})"))
    }
}
