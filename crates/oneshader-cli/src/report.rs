//! Printing diagnostics: the library formats them (`oneshader::report`); this picks
//! the stream and whether to colour.

use std::io::{IsTerminal, Write};

use oneshader::report::{render, Report};

use crate::MessageFormat;

/// Prints `reports` in `format` on standard error.
pub fn emit(reports: &[Report<'_>], format: MessageFormat) {
    let color = color_wanted(std::io::stderr().is_terminal());
    let text = render(format.into(), reports, color);
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// Prints `reports` in `format` on standard output (`check`, like cargo's messages).
pub fn emit_stdout(reports: &[Report<'_>], format: MessageFormat) {
    let color = color_wanted(std::io::stdout().is_terminal());
    let text = render(format.into(), reports, color);
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// Prints an error that has no code and no location (such as a failed write).
pub fn emit_plain_error(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "error: {message}");
}

/// Colour only on a terminal, and never when `NO_COLOR` is set to something.
fn color_wanted(terminal: bool) -> bool {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    terminal && !no_color
}
