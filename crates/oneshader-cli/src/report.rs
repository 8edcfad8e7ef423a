//! Printing diagnostics on standard error, rich (with source snippets) or short.

use std::io::{IsTerminal, Write};

use codespan_reporting::diagnostic::{
    Diagnostic as Report, Label as ReportLabel, Severity as ReportSeverity,
};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::termcolor::{ColorChoice, StandardStream};
use codespan_reporting::term::{self, Config};
use oneshader::{Diagnostic, Severity, SourceMap, Span};

use crate::MessageFormat;

/// Prints `diagnostics` in `format`.
pub fn emit(diagnostics: &[Diagnostic], sources: &SourceMap, format: MessageFormat) {
    match format {
        MessageFormat::Short => emit_short(diagnostics, sources),
        MessageFormat::Rich => emit_rich(diagnostics, sources),
    }
}

/// Prints an error that has no code and no location (such as a failed write).
pub fn emit_plain_error(message: &str) {
    let _ = writeln!(std::io::stderr().lock(), "error: {message}");
}

fn emit_short(diagnostics: &[Diagnostic], sources: &SourceMap) {
    let mut stderr = std::io::stderr().lock();
    for diagnostic in diagnostics {
        if writeln!(stderr, "{}", diagnostic.to_short_string(sources)).is_err() {
            return;
        }
    }
}

fn emit_rich(diagnostics: &[Diagnostic], sources: &SourceMap) {
    let mut files = SimpleFiles::new();
    for (_, file) in sources.files() {
        files.add(file.name.clone(), file.text.clone());
    }
    let writer = StandardStream::stderr(color_choice());
    let mut writer = writer.lock();
    let config = Config::default();
    for diagnostic in diagnostics {
        let report = to_report(diagnostic, sources);
        if term::emit_to_write_style(&mut writer, &config, &files, &report).is_err() {
            // A span the renderer cannot place: fall back to the one-line form.
            let _ = writeln!(writer, "{}", diagnostic.to_short_string(sources));
        }
    }
}

/// Colour only on a terminal, and never when `NO_COLOR` is set to something.
fn color_choice() -> ColorChoice {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    if no_color || !std::io::stderr().is_terminal() {
        ColorChoice::Never
    } else {
        ColorChoice::Auto
    }
}

fn to_report(diagnostic: &Diagnostic, sources: &SourceMap) -> Report<usize> {
    let severity = match diagnostic.severity {
        Severity::Error => ReportSeverity::Error,
        Severity::Warning => ReportSeverity::Warning,
    };
    let mut labels = Vec::new();
    if let Some(span) = diagnostic.span.filter(|s| has_text(*s, sources)) {
        labels.push(ReportLabel::primary(span.file.0 as usize, range(span)));
    }
    for label in &diagnostic.labels {
        if has_text(label.span, sources) {
            labels.push(
                ReportLabel::secondary(label.span.file.0 as usize, range(label.span))
                    .with_message(label.message.clone()),
            );
        }
    }
    let mut notes = diagnostic.notes.clone();
    notes.extend(diagnostic.help.iter().map(|h| format!("help: {h}")));
    Report::new(severity)
        .with_code(diagnostic.code.to_string())
        .with_message(diagnostic.message.clone())
        .with_labels(labels)
        .with_notes(notes)
}

/// Whether `span` points into a non-empty file of `sources` (an unreadable file is
/// recorded empty, and a snippet of nothing helps no one).
fn has_text(span: Span, sources: &SourceMap) -> bool {
    sources.get(span.file).is_some_and(|f| !f.text.is_empty())
}

fn range(span: Span) -> std::ops::Range<usize> {
    span.start as usize..span.end.max(span.start) as usize
}
