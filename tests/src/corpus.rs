//! The corpus of `tests/corpus/`: its files and the `// oneshader:` header lines that
//! say how each is compiled (`-E ENTRY -T PROFILE [-D NAME[=VALUE]]… [-I DIR]…`, `-I`
//! relative to the shader's folder; see `docs/testing.md`, "Corpus").

use std::path::{Path, PathBuf};

use oneshader::{CompileOptions, Profile};

/// The corpus directory, `tests/corpus/`.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

/// Every `.hlsl` file of the corpus (not the headers of `include/`), sorted by name.
pub fn corpus_files() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus_dir())
        .expect("tests/corpus is readable")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "hlsl"))
        .collect();
    files.sort();
    files
}

/// One compile a shader asks for: its `// oneshader:` line and the options it means.
pub struct Invocation {
    /// The header line itself, trimmed, to name the compile in failures.
    pub line: String,
    /// The options the line means.
    pub options: CompileOptions,
}

/// Reads the `// oneshader:` lines of `text`; an error says what is wrong with one.
pub fn invocations(path: &Path, text: &str) -> Result<Vec<Invocation>, String> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut found = Vec::new();
    for line in text.lines() {
        let Some(args) = line.trim().strip_prefix("// oneshader:") else {
            continue;
        };
        let mut options = CompileOptions::default();
        let mut words = args.split_whitespace();
        while let Some(flag) = words.next() {
            let mut value = || {
                words
                    .next()
                    .ok_or_else(|| format!("`{flag}` needs a value in `{line}`"))
            };
            match flag {
                "-E" => options.entry_point = Some(value()?.to_string()),
                "-T" => {
                    options.profile =
                        Some(Profile::parse(value()?).map_err(|d| format!("{line}: {d:?}"))?)
                }
                "-D" => {
                    let define = value()?;
                    let (name, value) = define.split_once('=').unwrap_or((define, "1"));
                    options.defines.push((name.to_string(), value.to_string()));
                }
                "-I" => options.include_dirs.push(dir.join(value()?)),
                other => return Err(format!("unknown flag `{other}` in `{line}`")),
            }
        }
        if options.entry_point.is_none() || options.profile.is_none() {
            return Err(format!("`{line}` must give -E and -T"));
        }
        found.push(Invocation {
            line: line.trim().to_string(),
            options,
        });
    }
    if found.is_empty() {
        return Err("no `// oneshader: -E ENTRY -T PROFILE` line".to_string());
    }
    Ok(found)
}
