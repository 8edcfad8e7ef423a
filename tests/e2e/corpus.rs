//! The corpus of `tests/corpus/`: HLSL written the way people write it, covering the
//! scope of the language (preprocessor, types, resources, statements, stages,
//! intrinsics). Every `.hlsl` file there is compiled for each of its `// oneshader:`
//! lines to SPIR-V, MSL and WGSL, and every output is validated (spirv-val, Tint through
//! Dawn, the MSL check). A failure names the file and the command line.
//!
//! The header convention (see `docs/testing.md`, "Corpus"): each line
//! `// oneshader: -E ENTRY -T PROFILE [-D NAME[=VALUE]]… [-I DIR]…` near the top of the
//! file is one compile; `-I` is relative to the shader's folder. Headers that are only
//! included live in `tests/corpus/include/` and are not compiled alone.
//!
//! `ONESHADER_CORPUS_FILTER=text` checks only the files whose name contains `text`.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use oneshader_e2e::corpus::{corpus_dir, corpus_files, invocations};
use oneshader_e2e::try_compile_and_validate;

/// The fewest shaders the corpus must hold (issue 3's proof).
const MIN_SHADERS: usize = 60;

/// How many shaders are checked at once: most of the time goes to node and clang.
const WORKERS: usize = 4;

/// Compiles and validates every invocation of one file; the failures, each naming the file.
fn check_file(path: &Path) -> Vec<String> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => return vec![format!("{name}: {e}")],
    };
    let invocations = match invocations(path, &text) {
        Ok(found) => found,
        Err(e) => return vec![format!("{name}: {e}")],
    };
    invocations
        .iter()
        .filter_map(|inv| {
            try_compile_and_validate(path, &inv.options)
                .err()
                .map(|e| format!("{name} [{}]: {e}", inv.line))
        })
        .collect()
}

#[test]
fn every_corpus_shader_compiles_and_validates_on_every_target() {
    let filter = std::env::var("ONESHADER_CORPUS_FILTER").unwrap_or_default();
    let files: Vec<PathBuf> = corpus_files()
        .into_iter()
        .filter(|p| p.to_string_lossy().contains(&filter))
        .collect();
    assert!(!files.is_empty(), "no corpus file matches '{filter}'");
    let next = Mutex::new(files.iter());
    let failures = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..WORKERS {
            scope.spawn(|| {
                while let Some(path) = next.lock().map(|mut it| it.next()).ok().flatten() {
                    let found = check_file(path);
                    if let Ok(mut all) = failures.lock() {
                        all.extend(found);
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap_or_default();
    assert!(
        failures.is_empty(),
        "{} of {} corpus shaders failed:\n\n{}",
        failures.len(),
        files.len(),
        failures.join("\n\n")
    );
    eprintln!("{} corpus shaders validated on every target", files.len());
}

#[test]
fn the_corpus_holds_enough_shaders() {
    let count = corpus_files().len();
    assert!(
        count >= MIN_SHADERS,
        "the corpus holds {count} shaders; issue 3 asks for at least {MIN_SHADERS}"
    );
}

#[test]
fn every_corpus_shader_is_in_the_coverage_table() {
    let doc = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("docs")
        .join("testing.md");
    let doc = std::fs::read_to_string(&doc).expect("docs/testing.md is readable");
    for path in corpus_files() {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        assert!(
            doc.contains(&format!("`{name}`")),
            "add {name} to the Corpus table of docs/testing.md"
        );
    }
}

#[test]
fn the_header_convention_is_parsed() {
    let path = corpus_dir().join("x.hlsl");
    let found = invocations(
        &path,
        "// oneshader: -E VS -T vs_6_0 -D A=2 -D B -I include\n// oneshader: -E PS -T ps_6_0\n",
    )
    .expect("valid header lines");
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].options.entry_point.as_deref(), Some("VS"));
    assert_eq!(
        found[0].options.defines,
        vec![("A".into(), "2".into()), ("B".into(), "1".into())]
    );
    assert_eq!(
        found[0].options.include_dirs,
        vec![corpus_dir().join("include")]
    );
    assert!(invocations(&path, "// oneshader: -E main\n").is_err());
    assert!(invocations(&path, "// oneshader: -E main -T cs_6_0 -X\n").is_err());
    assert!(invocations(&path, "float4 main() : SV_Target { return 0; }\n").is_err());
}
