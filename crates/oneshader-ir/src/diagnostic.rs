//! Diagnostics: every error and warning carries a stable `OSHnnnn` code.
//!
//! Codes are grouped by where they arise: `OSH0xxx` for the language (lexing,
//! preprocessing, parsing, names, types, intrinsics) and `OSH5xxx` for target
//! limits (`OSH50xx` SPIR-V, `OSH51xx` MSL, `OSH52xx` WGSL).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::source::{SourceMap, Span};

/// A stable diagnostic code, shown as `OSH` and four digits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Code(pub u16);

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "OSH{:04}", self.0)
    }
}

impl std::str::FromStr for Code {
    type Err = String;

    /// Reads `OSH0350`, `osh0350` or `350`.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let digits = match text.get(..3) {
            Some(prefix) if prefix.eq_ignore_ascii_case("OSH") => &text[3..],
            _ => text,
        };
        let valid =
            !digits.is_empty() && digits.len() <= 4 && digits.bytes().all(|b| b.is_ascii_digit());
        match digits.parse::<u16>() {
            Ok(number) if valid => Ok(Code(number)),
            _ => Err(format!(
                "'{text}' is not a diagnostic code; codes look like OSH0350"
            )),
        }
    }
}

/// The codes, as constants. Each constant's doc comment is its one-line meaning;
/// [`crate::catalog`] explains each one.
pub mod codes {
    use super::Code;

    /// A file could not be read.
    pub const FILE_NOT_READABLE: Code = Code(1);
    /// The input is not valid UTF-8 or is too large.
    pub const SOURCE_NOT_ACCEPTED: Code = Code(2);
    /// Too many errors in one file; the rest were not reported.
    pub const TOO_MANY_ERRORS: Code = Code(3);
    /// An IR module that breaks the IR's structural rules (built by hand, not by the
    /// front end).
    pub const INVALID_IR: Code = Code(4);

    /// A character that starts no HLSL token.
    pub const INVALID_CHARACTER: Code = Code(10);
    /// A block comment or string literal that never ends.
    pub const UNTERMINATED: Code = Code(11);
    /// A numeric literal that is malformed or out of range.
    pub const BAD_LITERAL: Code = Code(12);

    /// `#error` was reached.
    pub const ERROR_DIRECTIVE: Code = Code(100);
    /// An `#include` names a file found neither beside the includer nor in any `-I` directory.
    pub const INCLUDE_NOT_FOUND: Code = Code(101);
    /// Includes nest too deep or form a cycle.
    pub const INCLUDE_DEPTH: Code = Code(102);
    /// Macro expansion runs away (too deep or too large).
    pub const MACRO_EXPANSION_LIMIT: Code = Code(103);
    /// A malformed or unknown preprocessor directive.
    pub const BAD_DIRECTIVE: Code = Code(104);
    /// `#if` without `#endif`, or `#else`/`#endif` without `#if`.
    pub const UNBALANCED_CONDITIONAL: Code = Code(105);
    /// An `#if` expression that cannot be evaluated.
    pub const BAD_CONDITION: Code = Code(106);
    /// A function-like macro called with the wrong number of arguments.
    pub const MACRO_ARGUMENTS: Code = Code(107);
    /// A token paste (`##`) that does not form one token.
    pub const BAD_TOKEN_PASTE: Code = Code(108);
    /// `#warning` was reached (a warning).
    pub const WARNING_DIRECTIVE: Code = Code(109);

    /// The parser expected something else here.
    pub const SYNTAX: Code = Code(200);
    /// Expressions or statements nest deeper than the compiler allows.
    pub const NESTING_TOO_DEEP: Code = Code(201);

    /// A name that is not declared.
    pub const UNKNOWN_IDENTIFIER: Code = Code(300);
    /// A type name that is not declared.
    pub const UNKNOWN_TYPE: Code = Code(301);
    /// A value of one type used where another is needed and no conversion exists.
    pub const TYPE_MISMATCH: Code = Code(302);
    /// A call with the wrong number of arguments.
    pub const ARGUMENT_COUNT: Code = Code(303);
    /// No overload of a function or intrinsic accepts these argument types.
    pub const NO_MATCHING_OVERLOAD: Code = Code(304);
    /// A name declared twice in one scope.
    pub const REDEFINITION: Code = Code(305);
    /// Assignment to something that is not an l-value, or to a read-only resource.
    pub const NOT_ASSIGNABLE: Code = Code(306);
    /// A member or method that the type does not have.
    pub const UNKNOWN_MEMBER: Code = Code(307);
    /// A language construct this version of oneshader does not compile yet.
    pub const UNSUPPORTED_CONSTRUCT: Code = Code(310);
    /// The requested entry point does not exist, or none could be found.
    pub const ENTRY_POINT_NOT_FOUND: Code = Code(320);
    /// An entry point lacks what its stage needs (`[numthreads]`, semantics, …).
    pub const ENTRY_POINT_INVALID: Code = Code(321);
    /// An invalid `register(...)` or `[[vk::binding]]`.
    pub const BAD_BINDING: Code = Code(322);
    /// An unknown or malformed shader profile (`-T`).
    pub const BAD_PROFILE: Code = Code(323);
    /// The intrinsic is not supported on any target.
    pub const INTRINSIC_NOT_SUPPORTED: Code = Code(350);
    /// A function calls itself, directly or indirectly.
    pub const RECURSION: Code = Code(360);
    /// An entry point uses more groupshared memory than the 32 KiB every device has.
    pub const GROUPSHARED_TOO_LARGE: Code = Code(370);
    /// An implicit conversion loses precision or components (a warning).
    pub const IMPLICIT_TRUNCATION: Code = Code(400);
    /// An implicit conversion to a smaller type may lose data (a warning).
    pub const CONVERSION_LOSS: Code = Code(401);

    /// The SPIR-V backend cannot express this construct.
    pub const SPIRV_UNSUPPORTED: Code = Code(5001);
    /// The MSL backend cannot express this construct.
    pub const MSL_UNSUPPORTED: Code = Code(5101);
    /// Metal has no lane index or lane count in this stage.
    pub const MSL_WAVE_STAGE: Code = Code(5102);
    /// The WGSL backend cannot express this construct.
    pub const WGSL_UNSUPPORTED: Code = Code(5201);
    /// WebGPU's subgroup functions exist only in compute and fragment shaders.
    pub const WGSL_WAVE_STAGE: Code = Code(5202);
    /// The WGSL would nest statements deeper than WebGPU compilers accept.
    pub const WGSL_NESTING_TOO_DEEP: Code = Code(5203);
    /// The device named by `--device` lacks a feature, operation or limit the shader needs.
    pub const DEVICE_UNSUPPORTED: Code = Code(5300);
}

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Compilation continues and succeeds.
    Warning,
    /// Compilation fails; no outputs are written.
    Error,
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Warning => "warning",
            Severity::Error => "error",
        })
    }
}

/// A secondary location with a message, such as "macro defined here".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What is there.
    pub message: String,
}

/// One error or warning, with the location and the advice a person needs to fix it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// The stable code.
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// The main message: what is wrong.
    pub message: String,
    /// The primary location, when the problem has one.
    pub span: Option<Span>,
    /// Secondary locations.
    pub labels: Vec<Label>,
    /// Further explanation.
    pub notes: Vec<String>,
    /// What to do about it.
    pub help: Vec<String>,
}

impl Diagnostic {
    /// An error with `code` and `message` at `span`.
    pub fn error(code: Code, span: impl Into<Option<Span>>, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            severity: Severity::Error,
            message: message.into(),
            span: span.into(),
            labels: Vec::new(),
            notes: Vec::new(),
            help: Vec::new(),
        }
    }

    /// A warning with `code` and `message` at `span`.
    pub fn warning(code: Code, span: impl Into<Option<Span>>, message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Warning,
            ..Diagnostic::error(code, span, message)
        }
    }

    /// Adds a secondary label.
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }

    /// Adds a note.
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }

    /// Adds a suggestion of what to do.
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help.push(help.into());
        self
    }

    /// Whether this diagnostic fails the compilation.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }

    /// The DXC/Visual Studio form: `file(line,col): error OSH0350: message`.
    pub fn to_short_string(&self, sources: &SourceMap) -> String {
        match self.span.and_then(|s| sources.location(s)) {
            Some((file, line, column)) => format!(
                "{file}({line},{column}): {} {}: {}",
                self.severity, self.code, self.message
            ),
            None => format!("{} {}: {}", self.severity, self.code, self.message),
        }
    }
}

/// Errors past this many in one compilation are dropped, and one
/// [`codes::TOO_MANY_ERRORS`] says so.
pub const ERROR_LIMIT: usize = 100;

/// Collects diagnostics during one phase; callers check [`Diagnostics::has_errors`].
#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    items: Vec<Diagnostic>,
    errors: usize,
}

impl Diagnostics {
    /// An empty collection.
    pub fn new() -> Self {
        Diagnostics::default()
    }

    /// Records a diagnostic. Past [`ERROR_LIMIT`] errors, errors are dropped and one
    /// `OSH0003` records that they were.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        if diagnostic.is_error() {
            self.errors += 1;
            if self.errors == ERROR_LIMIT + 1 {
                self.items.push(
                    Diagnostic::error(
                        codes::TOO_MANY_ERRORS,
                        diagnostic.span,
                        format!("too many errors: stopping after {ERROR_LIMIT}"),
                    )
                    .with_help("fix the errors above and compile again"),
                );
            }
            if self.errors > ERROR_LIMIT {
                return;
            }
        }
        self.items.push(diagnostic);
    }

    /// Whether any error was recorded.
    pub fn has_errors(&self) -> bool {
        self.items.iter().any(Diagnostic::is_error)
    }

    /// Number of errors recorded (including those past [`ERROR_LIMIT`]).
    pub fn error_count(&self) -> usize {
        self.errors
    }

    /// The recorded diagnostics, in order.
    pub fn iter(&self) -> impl Iterator<Item = &Diagnostic> {
        self.items.iter()
    }

    /// The recorded diagnostics, to add labels and notes to.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Diagnostic> {
        self.items.iter_mut()
    }

    /// Takes the recorded diagnostics.
    pub fn into_vec(self) -> Vec<Diagnostic> {
        self.items
    }

    /// Appends all of `other`, through [`Diagnostics::push`].
    pub fn extend(&mut self, other: impl IntoIterator<Item = Diagnostic>) {
        for diagnostic in other {
            self.push(diagnostic);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_stop_at_the_limit_with_one_note() {
        let mut diagnostics = Diagnostics::new();
        for i in 0..150 {
            diagnostics.push(Diagnostic::error(codes::SYNTAX, None, format!("e{i}")));
            diagnostics.push(Diagnostic::warning(codes::IMPLICIT_TRUNCATION, None, "w"));
        }
        let items = diagnostics.into_vec();
        let errors: Vec<&Diagnostic> = items.iter().filter(|d| d.is_error()).collect();
        assert_eq!(errors.len(), ERROR_LIMIT + 1);
        assert_eq!(errors[ERROR_LIMIT - 1].message, "e99");
        assert_eq!(errors[ERROR_LIMIT].code, codes::TOO_MANY_ERRORS);
        assert_eq!(items.iter().filter(|d| !d.is_error()).count(), 150);
    }

    #[test]
    fn short_form_matches_dxc() {
        let mut map = SourceMap::new();
        let f = map.add("match.hlsl", "a\nbb\n  WaveMatch(x)");
        let d = Diagnostic::error(codes::INTRINSIC_NOT_SUPPORTED, Span::new(f, 7, 16), "msg");
        assert_eq!(
            d.to_short_string(&map),
            "match.hlsl(3,3): error OSH0350: msg"
        );
    }
}
