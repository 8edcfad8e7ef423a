//! Diagnostics as text for people and tools: rich (source snippets), short (DXC's
//! one-line form), JSON lines, GitHub workflow annotations and SARIF 2.1.0.
//!
//! Every format takes the diagnostics of one or more compilations, each with the
//! [`SourceMap`] its spans point into, so that `oneshader check` can report many files
//! in one SARIF run.
//!
//! ```
//! use oneshader::report::{render, MessageFormat, Report};
//! use oneshader::{compile_source, CompileOptions};
//!
//! let source = "[shader(\"pixel\")] float4 main() : SV_Target { return c; }";
//! let result = compile_source("a.hlsl", source, &CompileOptions::default());
//! let text = render(MessageFormat::Short, &[Report::of(&result)], false);
//! assert!(text.starts_with("a.hlsl(1,54): error OSH0300: "), "{text}");
//! ```

use std::io::Write;

use codespan_reporting::diagnostic::{
    Diagnostic as Rich, Label as RichLabel, Severity as RichSeverity,
};
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term::termcolor::{Buffer, WriteColor};
use codespan_reporting::term::{self, Config};
use oneshader_ir::catalog::{self, CATALOG};
use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::compile::CompileResult;
use crate::{Diagnostic, Severity, SourceMap, Span};

/// How diagnostics are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MessageFormat {
    /// The message, the source line with the span underlined, labels, notes and help.
    Rich,
    /// One line each: `file(line,col): error OSHnnnn: message`.
    Short,
    /// One JSON object per line per diagnostic.
    Json,
    /// GitHub Actions workflow commands: `::error file=…,line=…::message`.
    Github,
    /// One SARIF 2.1.0 log (a single JSON document) for code scanning.
    Sarif,
}

impl std::str::FromStr for MessageFormat {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.to_ascii_lowercase().as_str() {
            "rich" => Ok(MessageFormat::Rich),
            "short" => Ok(MessageFormat::Short),
            "json" => Ok(MessageFormat::Json),
            "github" => Ok(MessageFormat::Github),
            "sarif" => Ok(MessageFormat::Sarif),
            _ => Err(format!(
                "unknown message format '{text}': use rich, short, json, github or sarif"
            )),
        }
    }
}

/// The diagnostics of one compilation and the sources their spans point into.
#[derive(Clone, Copy, Debug)]
pub struct Report<'a> {
    /// The diagnostics, in the order they were found.
    pub diagnostics: &'a [Diagnostic],
    /// The files of that compilation.
    pub sources: &'a SourceMap,
}

impl<'a> Report<'a> {
    /// The diagnostics of `result`.
    pub fn of(result: &'a CompileResult) -> Self {
        Report {
            diagnostics: &result.diagnostics,
            sources: &result.sources,
        }
    }
}

/// All of `reports` in `format`. `color` adds ANSI colours to the rich format (the
/// others never have any). Empty when there are no diagnostics, except SARIF, which
/// always is a whole log.
pub fn render(format: MessageFormat, reports: &[Report<'_>], color: bool) -> String {
    let each = |line: fn(&Diagnostic, &SourceMap) -> String| {
        let mut out = String::new();
        for report in reports {
            for diagnostic in report.diagnostics {
                out.push_str(&line(diagnostic, report.sources));
                out.push('\n');
            }
        }
        out
    };
    match format {
        MessageFormat::Rich => reports.iter().map(|r| rich(r, color)).collect(),
        MessageFormat::Short => each(short),
        MessageFormat::Json => each(json_line),
        MessageFormat::Github => each(github),
        MessageFormat::Sarif => {
            let mut text = serde_json::to_string_pretty(&sarif(reports)).unwrap_or_default();
            text.push('\n');
            text
        }
    }
}

/// Where a span lies, 1-based, columns in characters; the end is exclusive.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Location {
    /// The file's name as given (command line or `#include`).
    pub file: String,
    /// Line of the first character.
    pub line: u32,
    /// Column of the first character.
    pub column: u32,
    /// Line of the character after the last.
    pub end_line: u32,
    /// Column of the character after the last.
    pub end_column: u32,
}

impl Location {
    /// The location of `span` in `sources`, when the file is there.
    pub fn of(span: Span, sources: &SourceMap) -> Option<Location> {
        let file = sources.get(span.file)?;
        let (line, column) = file.line_column(span.start);
        let (end_line, end_column) = file.line_column(span.end.max(span.start));
        Some(Location {
            file: file.name.clone(),
            line,
            column,
            end_line,
            end_column,
        })
    }
}

/// The DXC/Visual Studio form: `file(line,col): error OSH0350: message`.
pub fn short(diagnostic: &Diagnostic, sources: &SourceMap) -> String {
    diagnostic.to_short_string(sources)
}

/// One JSON object (one line): code, severity, location, message, notes, help, labels.
pub fn json_line(diagnostic: &Diagnostic, sources: &SourceMap) -> String {
    #[derive(Serialize)]
    struct JsonLabel {
        #[serde(flatten)]
        location: Option<Location>,
        message: String,
    }
    #[derive(Serialize)]
    struct JsonDiagnostic<'a> {
        code: String,
        severity: Severity,
        #[serde(flatten)]
        location: Option<Location>,
        message: &'a str,
        notes: &'a [String],
        help: &'a [String],
        labels: Vec<JsonLabel>,
    }
    let object = JsonDiagnostic {
        code: diagnostic.code.to_string(),
        severity: diagnostic.severity,
        location: diagnostic.span.and_then(|s| Location::of(s, sources)),
        message: &diagnostic.message,
        notes: &diagnostic.notes,
        help: &diagnostic.help,
        labels: diagnostic
            .labels
            .iter()
            .map(|label| JsonLabel {
                location: Location::of(label.span, sources),
                message: label.message.clone(),
            })
            .collect(),
    };
    serde_json::to_string(&object).unwrap_or_default()
}

/// A GitHub Actions workflow command: `::error file=…,line=…,col=…,endLine=…,
/// endColumn=…,title=OSH0350::message`, `::warning` for warnings. Notes and help
/// follow the message on lines of their own.
pub fn github(diagnostic: &Diagnostic, sources: &SourceMap) -> String {
    let command = match diagnostic.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let mut properties = Vec::new();
    if let Some(at) = diagnostic.span.and_then(|s| Location::of(s, sources)) {
        properties.push(format!("file={}", escape_property(&at.file)));
        properties.push(format!("line={}", at.line));
        properties.push(format!("col={}", at.column));
        properties.push(format!("endLine={}", at.end_line));
        properties.push(format!("endColumn={}", at.end_column));
    }
    properties.push(format!("title={}", diagnostic.code));
    let mut message = diagnostic.message.clone();
    for note in &diagnostic.notes {
        message.push_str(&format!("\nnote: {note}"));
    }
    for help in &diagnostic.help {
        message.push_str(&format!("\nhelp: {help}"));
    }
    format!(
        "::{command} {}::{}",
        properties.join(","),
        escape_data(&message)
    )
}

/// Workflow-command data: `%`, CR and LF escaped.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Workflow-command property values: also `:` and `,`.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// A SARIF 2.1.0 log with one run: the catalog as the tool's rules, one result per
/// diagnostic. Columns count Unicode code points, as everywhere in oneshader.
pub fn sarif(reports: &[Report<'_>]) -> Value {
    let rules: Vec<Value> = CATALOG
        .iter()
        .map(|info| {
            json!({
                "id": info.code.to_string(),
                "name": info.name,
                "shortDescription": { "text": info.summary },
                "fullDescription": { "text": info.explanation },
                "help": { "text": info.fix },
                "defaultConfiguration": { "level": sarif_level(info.severity) },
            })
        })
        .collect();
    let mut results = Vec::new();
    for report in reports {
        for diagnostic in report.diagnostics {
            results.push(sarif_result(diagnostic, report.sources));
        }
    }
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {
                "driver": {
                    "name": "oneshader",
                    "version": env!("CARGO_PKG_VERSION"),
                    "rules": rules,
                }
            },
            "columnKind": "unicodeCodePoints",
            "results": results,
        }]
    })
}

fn sarif_level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    }
}

fn sarif_result(diagnostic: &Diagnostic, sources: &SourceMap) -> Value {
    let mut text = diagnostic.message.clone();
    for note in &diagnostic.notes {
        text.push_str(&format!("\nnote: {note}"));
    }
    for help in &diagnostic.help {
        text.push_str(&format!("\nhelp: {help}"));
    }
    let mut result = Map::new();
    result.insert("ruleId".into(), json!(diagnostic.code.to_string()));
    result.insert("level".into(), json!(sarif_level(diagnostic.severity)));
    result.insert("message".into(), json!({ "text": text }));
    if let Some(index) = CATALOG.iter().position(|i| i.code == diagnostic.code) {
        result.insert("ruleIndex".into(), json!(index));
    }
    if let Some(at) = diagnostic.span.and_then(|s| Location::of(s, sources)) {
        result.insert("locations".into(), json!([sarif_location(&at)]));
    }
    let related: Vec<Value> = diagnostic
        .labels
        .iter()
        .filter_map(|label| Some((Location::of(label.span, sources)?, &label.message)))
        .enumerate()
        .map(|(id, (at, message))| {
            let mut location = sarif_location(&at);
            location.insert("id".into(), json!(id));
            location.insert("message".into(), json!({ "text": message }));
            Value::Object(location)
        })
        .collect();
    if !related.is_empty() {
        result.insert("relatedLocations".into(), json!(related));
    }
    Value::Object(result)
}

fn sarif_location(at: &Location) -> Map<String, Value> {
    let mut location = Map::new();
    location.insert(
        "physicalLocation".into(),
        json!({
            "artifactLocation": { "uri": file_uri(&at.file) },
            "region": {
                "startLine": at.line,
                "startColumn": at.column,
                "endLine": at.end_line,
                "endColumn": at.end_column,
            }
        }),
    );
    location
}

/// A file name as a URI reference: relative names stay relative, absolute paths
/// become `file:` URIs; `\` becomes `/`, and bytes outside the unreserved set are
/// percent-encoded.
pub fn file_uri(name: &str) -> String {
    let path = name.replace('\\', "/");
    let mut encoded = String::new();
    for byte in path.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                encoded.push(byte as char)
            }
            _ => encoded.push_str(&format!("%{byte:02X}")),
        }
    }
    let drive = matches!(path.as_bytes(), [letter, b':', ..] if letter.is_ascii_alphabetic());
    if drive {
        // `C:/x` keeps its colon: `file:///C:/x`.
        format!("file:///{}:{}", &path[..1], &encoded[4..])
    } else if path.starts_with('/') {
        format!("file://{encoded}")
    } else {
        encoded
    }
}

/// The rich form of one report, as codespan-reporting renders it.
fn rich(report: &Report<'_>, color: bool) -> String {
    if report.diagnostics.is_empty() {
        // Nothing to show: spare copying every file's text for the renderer.
        return String::new();
    }
    let mut files = SimpleFiles::new();
    for (_, file) in report.sources.files() {
        files.add(file.name.clone(), file.text.clone());
    }
    let mut buffer = if color {
        Buffer::ansi()
    } else {
        Buffer::no_color()
    };
    let config = Config::default();
    for diagnostic in report.diagnostics {
        let rich = to_rich(diagnostic, report.sources);
        if term::emit_to_write_style(&mut buffer, &config, &files, &rich).is_err() {
            // A span the renderer cannot place: fall back to the one-line form.
            let _ = buffer.reset();
            let _ = writeln!(buffer, "{}", short(diagnostic, report.sources));
        }
    }
    String::from_utf8_lossy(buffer.as_slice()).into_owned()
}

fn to_rich(diagnostic: &Diagnostic, sources: &SourceMap) -> Rich<usize> {
    let severity = match diagnostic.severity {
        Severity::Error => RichSeverity::Error,
        Severity::Warning => RichSeverity::Warning,
    };
    let mut labels = Vec::new();
    if let Some(span) = diagnostic.span.filter(|s| has_text(*s, sources)) {
        labels.push(RichLabel::primary(span.file.0 as usize, range(span)));
    }
    for label in &diagnostic.labels {
        if has_text(label.span, sources) {
            labels.push(
                RichLabel::secondary(label.span.file.0 as usize, range(label.span))
                    .with_message(label.message.clone()),
            );
        }
    }
    let mut notes = diagnostic.notes.clone();
    notes.extend(diagnostic.help.iter().map(|h| format!("help: {h}")));
    if diagnostic.span.is_some_and(|s| !has_text(s, sources)) {
        // The snippet cannot be shown; the location still can.
        if let Some(at) = diagnostic.span.and_then(|s| Location::of(s, sources)) {
            notes.insert(0, format!("at {}({},{})", at.file, at.line, at.column));
        }
    }
    if catalog::lookup(diagnostic.code).is_some() {
        notes.push(format!(
            "for more about this, run `oneshader explain {}`",
            diagnostic.code
        ));
    }
    Rich::new(severity)
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

#[cfg(test)]
mod tests {
    use super::*;
    use oneshader_ir::codes;

    fn sample() -> (SourceMap, Vec<Diagnostic>) {
        let mut sources = SourceMap::new();
        let file = sources.add("dir/a b.hlsl", "float x;\nfloat4 y = z, w;\n");
        let diagnostics = vec![
            Diagnostic::error(
                codes::UNKNOWN_IDENTIFIER,
                Span::new(file, 20, 21),
                "no 'z', 100%",
            )
            .with_help("declare it")
            .with_label(Span::new(file, 6, 7), "like this"),
            Diagnostic::warning(codes::IMPLICIT_TRUNCATION, Span::new(file, 9, 15), "cut"),
            Diagnostic::error(codes::BAD_PROFILE, None, "bad profile"),
        ];
        (sources, diagnostics)
    }

    fn render_sample(format: MessageFormat) -> String {
        let (sources, diagnostics) = sample();
        render(
            format,
            &[Report {
                diagnostics: &diagnostics,
                sources: &sources,
            }],
            false,
        )
    }

    #[test]
    fn short_is_dxcs_form() {
        assert_eq!(
            render_sample(MessageFormat::Short),
            "dir/a b.hlsl(2,12): error OSH0300: no 'z', 100%\n\
             dir/a b.hlsl(2,1): warning OSH0400: cut\n\
             error OSH0323: bad profile\n"
        );
    }

    #[test]
    fn json_has_one_object_per_line() {
        let text = render_sample(MessageFormat::Json);
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).expect("each line is JSON"))
            .collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(
            lines[0],
            json!({
                "code": "OSH0300", "severity": "error", "file": "dir/a b.hlsl",
                "line": 2, "column": 12, "end_line": 2, "end_column": 13,
                "message": "no 'z', 100%", "notes": [], "help": ["declare it"],
                "labels": [{ "file": "dir/a b.hlsl", "line": 1, "column": 7,
                             "end_line": 1, "end_column": 8, "message": "like this" }],
            })
        );
        assert_eq!(lines[1]["severity"], "warning");
        assert_eq!(lines[1]["end_column"], 7);
        assert_eq!(lines[2].get("file"), None);
    }

    #[test]
    fn github_annotations_escape_their_data() {
        assert_eq!(
            render_sample(MessageFormat::Github),
            "::error file=dir/a b.hlsl,line=2,col=12,endLine=2,endColumn=13,title=OSH0300::no 'z', 100%25%0Ahelp: declare it\n\
             ::warning file=dir/a b.hlsl,line=2,col=1,endLine=2,endColumn=7,title=OSH0400::cut\n\
             ::error title=OSH0323::bad profile\n"
        );
        assert_eq!(escape_property("C:\\a,b"), "C%3A\\a%2Cb");
    }

    #[test]
    fn sarif_results_point_at_rules() {
        let log: Value =
            serde_json::from_str(&render_sample(MessageFormat::Sarif)).expect("SARIF is JSON");
        let run = &log["runs"][0];
        let rules = run["tool"]["driver"]["rules"].as_array().expect("rules");
        assert_eq!(rules.len(), CATALOG.len());
        let results = run["results"].as_array().expect("results");
        assert_eq!(results.len(), 3);
        for result in results {
            let index = result["ruleIndex"].as_u64().expect("a rule index") as usize;
            assert_eq!(rules[index]["id"], result["ruleId"]);
        }
        let region = &results[0]["locations"][0]["physicalLocation"];
        assert_eq!(region["artifactLocation"]["uri"], "dir/a%20b.hlsl");
        assert_eq!(region["region"]["startColumn"], 12);
        assert_eq!(
            results[0]["relatedLocations"][0]["message"]["text"],
            "like this"
        );
        assert_eq!(results[1]["level"], "warning");
        assert_eq!(results[2].get("locations"), None);
    }

    #[test]
    fn file_uris() {
        assert_eq!(file_uri("shaders/a.hlsl"), "shaders/a.hlsl");
        assert_eq!(file_uri("/tmp/x y/a.hlsl"), "file:///tmp/x%20y/a.hlsl");
        assert_eq!(file_uri("C:\\src\\a.hlsl"), "file:///C:/src/a.hlsl");
    }

    #[test]
    fn rich_shows_the_snippet_and_points_to_explain() {
        let text = render_sample(MessageFormat::Rich);
        assert!(text.contains("error[OSH0300]: no 'z', 100%"), "{text}");
        assert!(text.contains("float4 y = z, w;"), "{text}");
        assert!(text.contains("= help: declare it"), "{text}");
        assert!(text.contains("oneshader explain OSH0300"), "{text}");
        assert!(!text.contains('\u{1b}'), "no colour asked for");
        let (sources, diagnostics) = sample();
        let report = Report {
            diagnostics: &diagnostics,
            sources: &sources,
        };
        assert!(render(MessageFormat::Rich, &[report], true).contains('\u{1b}'));
    }
}
