//! Where a diagnostic's text came from: the macro expansion it lies in and the chain
//! of `#include`s that brought its file in, added to the diagnostic as a label at the
//! macro's definition and `in file included from a.hlsl(3,1)` notes.

use oneshader_ir::{Diagnostics, FileId, SourceMap, Span};

use crate::preprocess::{Inclusion, MacroExpansion, MAX_INCLUDE_DEPTH};

/// The preprocessor's records of one compilation.
pub(crate) struct Provenance {
    pub expansions: Vec<MacroExpansion>,
    pub inclusions: Vec<Inclusion>,
}

impl Provenance {
    /// Adds the macro label and the include-chain notes to every diagnostic.
    pub fn annotate(&self, diagnostics: &mut Diagnostics, sources: &SourceMap) {
        for diagnostic in diagnostics.iter_mut() {
            let Some(span) = diagnostic.span else {
                continue;
            };
            if let Some(expansion) = self.expansion_at(span) {
                if let Some(definition) = expansion.definition {
                    diagnostic.labels.push(oneshader_ir::Label {
                        span: definition,
                        message: format!(
                            "in this expansion of the macro '{}', defined here",
                            expansion.name
                        ),
                    });
                }
            }
            diagnostic
                .notes
                .extend(self.include_chain(span.file, sources));
        }
    }

    /// The innermost macro use whose call site covers `span` (tokens from a macro take
    /// the use site's span).
    fn expansion_at(&self, span: Span) -> Option<&MacroExpansion> {
        self.expansions
            .iter()
            .filter(|e| {
                e.call_site.file == span.file
                    && e.call_site.start <= span.start
                    && span.end <= e.call_site.end
            })
            .min_by_key(|e| e.call_site.end - e.call_site.start)
    }

    /// `in file included from a.hlsl(3,1)` for each `#include` from `file` up to the
    /// main file, innermost first.
    fn include_chain(&self, mut file: FileId, sources: &SourceMap) -> Vec<String> {
        let mut notes = Vec::new();
        while let Some(inclusion) = self.inclusions.iter().find(|i| i.file == file) {
            if notes.len() > MAX_INCLUDE_DEPTH {
                break;
            }
            if let Some((name, line, column)) = sources.location(inclusion.directive) {
                notes.push(format!("in file included from {name}({line},{column})"));
            }
            file = inclusion.directive.file;
        }
        notes
    }
}

#[cfg(test)]
mod tests {
    use oneshader_ir::{Diagnostic, SourceMap};

    use crate::{compile, FrontendOptions, MemoryLoader};

    fn diagnostics(loader: &MemoryLoader, main: &str) -> (Vec<Diagnostic>, SourceMap) {
        let mut sources = SourceMap::new();
        let file = sources.add("main.hlsl", main);
        let (_, diagnostics) = compile(&mut sources, file, &FrontendOptions::default(), loader);
        (diagnostics.into_vec(), sources)
    }

    fn at(sources: &SourceMap, span: oneshader_ir::Span) -> String {
        let (name, line, column) = sources.location(span).expect("a located span");
        format!("{name}({line},{column})")
    }

    #[test]
    fn an_error_in_a_macro_points_at_the_use_and_labels_the_definition() {
        let main = "RWStructuredBuffer<float> Out : register(u0);\n\
                    #define SCALE (factor * 2)\n\
                    [numthreads(1, 1, 1)]\n\
                    void CSMain() { Out[0] = SCALE; }\n";
        let (diagnostics, sources) = diagnostics(&MemoryLoader::new(), main);
        assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
        let d = &diagnostics[0];
        assert_eq!(d.code, oneshader_ir::codes::UNKNOWN_IDENTIFIER);
        let span = d.span.expect("located");
        assert_eq!(at(&sources, span), "main.hlsl(4,26)");
        assert_eq!(d.labels.len(), 1);
        // The definition is the `#define` line.
        assert_eq!(at(&sources, d.labels[0].span), "main.hlsl(2,1)");
        assert_eq!(
            d.labels[0].message,
            "in this expansion of the macro 'SCALE', defined here"
        );
    }

    #[test]
    fn an_error_in_an_included_file_notes_the_include_chain() {
        let mut loader = MemoryLoader::new();
        loader.add("inner.hlsli", "float inner() { return missing; }\n");
        loader.add("outer.hlsli", "// outer\n#include \"inner.hlsli\"\n");
        let main = "#include \"outer.hlsli\"\n\
                    RWStructuredBuffer<float> Out : register(u0);\n\
                    [numthreads(1, 1, 1)]\n\
                    void CSMain() { Out[0] = inner(); }\n";
        let (diagnostics, sources) = diagnostics(&loader, main);
        assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
        let d = &diagnostics[0];
        assert_eq!(at(&sources, d.span.expect("located")), "inner.hlsli(1,24)");
        assert_eq!(
            d.notes,
            vec![
                "in file included from outer.hlsli(2,1)".to_string(),
                "in file included from main.hlsl(1,1)".to_string(),
            ]
        );
    }
}
