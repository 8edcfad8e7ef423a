//! Checking many shaders at once, for CI and build systems: finding them (a directory
//! walk or an `oneshader.toml` manifest), compiling them in parallel, the warning
//! flags (`-Werror`, `-w`), and Makefile dependency files.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::compile::{compile_file, CompileResult};
use crate::options::CompileOptions;
use crate::profile::Profile;
use crate::target::Target;
use crate::{Diagnostic, Severity};

/// One file to compile, with its options.
#[derive(Clone, Debug)]
pub struct CheckJob {
    /// The HLSL file.
    pub file: PathBuf,
    /// How to compile it.
    pub options: CompileOptions,
}

/// Every `.hlsl` file under `paths` (a file is taken as it is; directories are walked
/// recursively), sorted, each once. `Err` names a path that cannot be read.
pub fn discover(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        let metadata = std::fs::metadata(path)
            .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        if metadata.is_dir() {
            walk(path, &mut files)?;
        } else {
            files.push(path.clone());
        }
    }
    files.sort();
    files.dedup();
    Ok(files)
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read '{}': {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read '{}': {e}", dir.display()))?;
        let path = entry.path();
        let kind = entry
            .file_type()
            .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        if kind.is_dir() {
            walk(&path, files)?;
        } else if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("hlsl"))
        {
            files.push(path);
        }
    }
    Ok(())
}

/// `oneshader.toml`: the shaders to check and how.
///
/// ```toml
/// # Defaults for every shader.
/// targets = ["spirv", "msl", "wgsl"]
/// include = ["include"]
/// defines = ["QUALITY=2"]
///
/// [[shader]]
/// file = "shaders/Compact.hlsl"
/// entry = "CSMain"
/// profile = "cs_6_0"
/// defines = ["TILE=8"]
/// targets = ["spirv", "wgsl"]
/// ```
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// Default targets (all three when absent).
    #[serde(default)]
    pub targets: Option<Vec<String>>,
    /// Include directories for every shader, relative to the manifest.
    #[serde(default)]
    pub include: Vec<String>,
    /// Defines for every shader, `NAME` or `NAME=VALUE`.
    #[serde(default)]
    pub defines: Vec<String>,
    /// The shaders.
    #[serde(default, rename = "shader")]
    pub shaders: Vec<ManifestShader>,
}

/// One `[[shader]]` of a [`Manifest`].
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ManifestShader {
    /// The file, relative to the manifest.
    pub file: String,
    /// `-E`: compile only this entry point.
    pub entry: Option<String>,
    /// `-T`: the profile.
    pub profile: Option<String>,
    /// Defines added to the manifest's.
    #[serde(default)]
    pub defines: Vec<String>,
    /// Include directories searched after the manifest's.
    #[serde(default)]
    pub include: Vec<String>,
    /// Targets instead of the manifest's.
    pub targets: Option<Vec<String>>,
}

impl Manifest {
    /// Reads and parses the manifest at `path`.
    pub fn load(path: &Path) -> Result<Manifest, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
        toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The jobs it lists, paths resolved against `base` (the manifest's directory).
    pub fn jobs(&self, base: &Path) -> Result<Vec<CheckJob>, String> {
        let mut jobs = Vec::new();
        for shader in &self.shaders {
            let targets = shader
                .targets
                .as_ref()
                .or(self.targets.as_ref())
                .map(|names| parse_targets(names))
                .transpose()?
                .unwrap_or_else(|| Target::ALL.to_vec());
            let profile = shader
                .profile
                .as_deref()
                .map(|p| Profile::parse(p).map_err(|d| format!("{}: {}", shader.file, d.message)))
                .transpose()?;
            let defines = self
                .defines
                .iter()
                .chain(&shader.defines)
                .map(|d| parse_define(d))
                .collect::<Result<Vec<_>, _>>()?;
            let include_dirs = self
                .include
                .iter()
                .chain(&shader.include)
                .map(|d| base.join(d))
                .collect();
            jobs.push(CheckJob {
                file: base.join(&shader.file),
                options: CompileOptions {
                    targets,
                    entry_point: shader.entry.clone(),
                    profile,
                    defines,
                    include_dirs,
                    binding_shifts: Vec::new(),
                    device: None,
                },
            });
        }
        Ok(jobs)
    }
}

fn parse_targets(names: &[String]) -> Result<Vec<Target>, String> {
    let mut targets = Vec::new();
    for name in names {
        let target: Target = name
            .parse()
            .map_err(|e: crate::UnknownTarget| e.to_string())?;
        if !targets.contains(&target) {
            targets.push(target);
        }
    }
    Ok(targets)
}

/// `NAME` (defined as 1) or `NAME=VALUE`; `Err` for a name that is not an identifier.
pub fn parse_define(text: &str) -> Result<(String, String), String> {
    let (name, value) = text.split_once('=').unwrap_or((text, "1"));
    let valid = name
        .chars()
        .enumerate()
        .all(|(i, c)| c == '_' || c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit()));
    if name.is_empty() || !valid {
        return Err(format!("'{name}' is not a macro name"));
    }
    Ok((name.to_string(), value.to_string()))
}

/// Compiles every job, in parallel on all cores; results in the order of `jobs`.
pub fn run(jobs: &[CheckJob]) -> Vec<CompileResult> {
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(jobs.len().max(1));
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results: Vec<Option<CompileResult>> = vec![None; jobs.len()];
    let finished = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(job) = jobs.get(index) else {
                    break;
                };
                let result = compile_file(&job.file, &job.options);
                if let Ok(mut finished) = finished.lock() {
                    finished.push((index, result));
                }
            });
        }
    });
    for (index, result) in finished.into_inner().unwrap_or_default() {
        if let Some(slot) = results.get_mut(index) {
            *slot = Some(result);
        }
    }
    results.into_iter().flatten().collect()
}

/// What to do with warnings.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WarningOptions {
    /// `-Werror`: every warning becomes an error.
    pub as_errors: bool,
    /// `-w`: warnings are dropped (this wins over `as_errors`, as in DXC).
    pub suppress: bool,
}

impl WarningOptions {
    /// Applies the options to `diagnostics`.
    pub fn apply(self, diagnostics: &mut Vec<Diagnostic>) {
        if self.suppress {
            diagnostics.retain(Diagnostic::is_error);
        } else if self.as_errors {
            for diagnostic in diagnostics.iter_mut() {
                if diagnostic.severity == Severity::Warning {
                    diagnostic.severity = Severity::Error;
                    diagnostic
                        .notes
                        .push("warnings are errors here (-Werror)".to_string());
                }
            }
        }
    }
}

/// The files `result` read: the main file and every included one, without the
/// preprocessor's built-in file.
pub fn dependencies(result: &CompileResult) -> Vec<String> {
    result
        .sources
        .files()
        .map(|(_, file)| file.name.clone())
        .filter(|name| name != "<built-in>")
        .collect()
}

/// A Makefile rule `targets: dependencies`, spaces and `#`, `$` escaped, with an
/// empty rule per dependency so a deleted header does not break `make`.
pub fn depfile(targets: &[String], dependencies: &[String]) -> String {
    fn escape(path: &str) -> String {
        path.replace('\\', "/")
            .replace(' ', "\\ ")
            .replace('#', "\\#")
            .replace('$', "$$")
    }
    let mut deps: Vec<String> = dependencies.iter().map(|d| escape(d)).collect();
    deps.sort();
    deps.dedup();
    let targets: Vec<String> = targets.iter().map(|t| escape(t)).collect();
    let mut out = format!("{}:", targets.join(" "));
    for dep in &deps {
        out.push_str(" \\\n  ");
        out.push_str(dep);
    }
    out.push('\n');
    for dep in &deps {
        out.push_str(&format!("\n{dep}:\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use oneshader_ir::codes;

    #[test]
    fn manifest_resolves_paths_and_merges_defaults() {
        let manifest: Manifest = toml::from_str(
            "targets = [\"spirv\", \"wgsl\"]\ninclude = [\"inc\"]\ndefines = [\"A=2\"]\n\
             [[shader]]\nfile = \"a.hlsl\"\nentry = \"CSMain\"\nprofile = \"cs_6_0\"\ndefines = [\"B\"]\n\
             [[shader]]\nfile = \"b.hlsl\"\ntargets = [\"msl\"]\n",
        )
        .expect("a valid manifest");
        let jobs = manifest.jobs(Path::new("base")).expect("valid jobs");
        assert_eq!(jobs.len(), 2);
        assert_eq!(jobs[0].file, Path::new("base/a.hlsl"));
        assert_eq!(jobs[0].options.targets, vec![Target::SpirV, Target::Wgsl]);
        assert_eq!(jobs[0].options.entry_point.as_deref(), Some("CSMain"));
        assert_eq!(
            jobs[0].options.defines,
            vec![("A".into(), "2".into()), ("B".into(), "1".into())]
        );
        assert_eq!(
            jobs[0].options.include_dirs,
            vec![PathBuf::from("base/inc")]
        );
        assert_eq!(jobs[1].options.targets, vec![Target::Msl]);
    }

    #[test]
    fn manifest_errors_say_what_is_wrong() {
        let unknown = toml::from_str::<Manifest>("[[shader]]\nfile = \"a\"\nentrypoint = \"x\"\n");
        assert!(unknown.is_err_and(|e| e.to_string().contains("entrypoint")));
        let manifest: Manifest =
            toml::from_str("[[shader]]\nfile = \"a\"\ntargets = [\"dxil\"]\n").expect("parses");
        assert!(manifest
            .jobs(Path::new("."))
            .is_err_and(|e| e.contains("dxil")));
        let manifest: Manifest =
            toml::from_str("[[shader]]\nfile = \"a\"\ndefines = [\"1X\"]\n").expect("parses");
        assert!(manifest.jobs(Path::new(".")).is_err());
    }

    #[test]
    fn warning_options() {
        let sample = || {
            vec![
                Diagnostic::warning(codes::IMPLICIT_TRUNCATION, None, "w"),
                Diagnostic::error(codes::SYNTAX, None, "e"),
            ]
        };
        let mut werror = sample();
        WarningOptions {
            as_errors: true,
            suppress: false,
        }
        .apply(&mut werror);
        assert!(werror.iter().all(Diagnostic::is_error));
        let mut quiet = sample();
        WarningOptions {
            as_errors: true,
            suppress: true,
        }
        .apply(&mut quiet);
        assert_eq!(quiet.len(), 1);
        assert_eq!(quiet[0].code, codes::SYNTAX);
    }

    #[test]
    fn depfile_is_makefile_syntax() {
        let text = depfile(
            &["out/a b.spv".to_string()],
            &["a b.hlsl".to_string(), "inc/x.hlsli".to_string()],
        );
        assert_eq!(
            text,
            "out/a\\ b.spv: \\\n  a\\ b.hlsl \\\n  inc/x.hlsli\n\na\\ b.hlsl:\n\ninc/x.hlsli:\n"
        );
    }
}
