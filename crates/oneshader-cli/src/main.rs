//! `oneshader`: the command-line HLSL compiler. A thin layer over the `oneshader`
//! library: parse arguments, compile, report diagnostics, write outputs.
//!
//! Exit status: 0 on success, 1 when compilation fails, 2 on a usage error.

mod report;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use oneshader::report::Report;
use oneshader::{
    compile_file, CompileOptions, CompileResult, EntryLayout, EntryPointReflection, PipelineLayout,
    Profile, ResourceKind, SourceMap, Target, WebGpuLayoutOptions,
};

/// Compile HLSL to SPIR-V, MSL and WGSL.
#[derive(Parser)]
#[command(name = "oneshader", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Compile an HLSL file and write one output per entry point and target.
    Compile(CompileArgs),
    /// Explain a diagnostic code: what it means, an example, and the fix.
    Explain(ExplainArgs),
}

#[derive(Args)]
struct ExplainArgs {
    /// The code, such as OSH0350 (or 350).
    code: String,
}

#[derive(Args)]
struct CompileArgs {
    /// The HLSL file to compile.
    file: PathBuf,

    /// The targets to write, comma-separated: spirv, msl, wgsl.
    #[arg(long, value_delimiter = ',', value_parser = parse_target, default_value = "spirv,msl,wgsl")]
    target: Vec<Target>,

    /// The directory to write outputs into (created if needed).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    output: PathBuf,

    /// Compile only this entry point.
    #[arg(short = 'E', long = "entry", value_name = "ENTRY")]
    entry: Option<String>,

    /// The profile, such as cs_6_0, ps_6_0 or lib_6_3.
    #[arg(short = 'T', long = "profile", value_name = "PROFILE")]
    profile: Option<String>,

    /// Define a preprocessor macro (NAME alone defines it as 1).
    #[arg(short = 'D', value_name = "NAME[=VALUE]", value_parser = parse_define)]
    define: Vec<(String, String)>,

    /// Add a directory to the #include search path.
    #[arg(short = 'I', value_name = "DIR")]
    include: Vec<PathBuf>,

    /// How to print diagnostics.
    #[arg(long, value_enum, default_value_t = MessageFormat::Rich)]
    message_format: MessageFormat,
}

/// How diagnostics are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum MessageFormat {
    /// With the source line, labels, notes and help.
    Rich,
    /// One line each: `file(line,col): error OSHnnnn: message`.
    Short,
    /// One JSON object per line per diagnostic.
    Json,
    /// GitHub Actions workflow annotations (`::error file=…::…`).
    Github,
    /// One SARIF 2.1.0 log.
    Sarif,
}

impl From<MessageFormat> for oneshader::report::MessageFormat {
    fn from(format: MessageFormat) -> Self {
        use oneshader::report::MessageFormat as Library;
        match format {
            MessageFormat::Rich => Library::Rich,
            MessageFormat::Short => Library::Short,
            MessageFormat::Json => Library::Json,
            MessageFormat::Github => Library::Github,
            MessageFormat::Sarif => Library::Sarif,
        }
    }
}

fn parse_target(name: &str) -> Result<Target, String> {
    name.trim()
        .parse()
        .map_err(|e: oneshader::UnknownTarget| e.to_string())
}

fn parse_define(text: &str) -> Result<(String, String), String> {
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Compile(args) => compile(args),
        Command::Explain(args) => explain(&args.code),
    }
}

/// Prints the catalog entry of `code`; exit 2 when there is none.
fn explain(code: &str) -> ExitCode {
    let info = code
        .parse::<oneshader::Code>()
        .ok()
        .and_then(oneshader::catalog::lookup);
    match info {
        Some(info) => {
            let _ = write!(
                std::io::stdout().lock(),
                "{}",
                oneshader::catalog::explain(info)
            );
            ExitCode::SUCCESS
        }
        None => {
            report::emit_plain_error(&format!(
                "'{code}' is not a oneshader diagnostic code; the codes are listed in docs/diagnostics.md"
            ));
            ExitCode::from(2)
        }
    }
}

fn compile(args: CompileArgs) -> ExitCode {
    let format = args.message_format;
    let profile = match args.profile.as_deref().map(Profile::parse).transpose() {
        Ok(profile) => profile,
        Err(diagnostic) => {
            let sources = SourceMap::new();
            let report = Report {
                diagnostics: std::slice::from_ref(&diagnostic),
                sources: &sources,
            };
            report::emit(&[report], format);
            return ExitCode::from(1);
        }
    };
    let mut targets: Vec<Target> = Vec::new();
    for target in args.target {
        if !targets.contains(&target) {
            targets.push(target);
        }
    }
    let options = CompileOptions {
        targets,
        entry_point: args.entry,
        profile,
        defines: args.define,
        include_dirs: args.include,
    };

    let result = compile_file(&args.file, &options);
    report::emit(&[Report::of(&result)], format);
    let Some(reflection) = result.reflection.as_ref().filter(|_| result.success()) else {
        return ExitCode::from(1);
    };

    if let Err(message) = write_outputs(&result, &args.file, &args.output) {
        report::emit_plain_error(&message);
        return ExitCode::from(1);
    }

    let several = reflection.entry_points.len() > 1;
    let prefix = |entry: &str| {
        if several {
            format!("{entry}: ")
        } else {
            String::new()
        }
    };
    let mut lines = Vec::new();
    for blob in &result.blobs {
        lines.push(format!(
            "{}{}: {} bytes",
            prefix(&blob.entry_point),
            blob.target,
            blob.data.len()
        ));
    }
    for entry in &reflection.entry_points {
        let ops = entry.subgroup_operations;
        lines.push(format!(
            "{}SubgroupOperations: {ops} (0x{:x})",
            prefix(&entry.name),
            ops.bits()
        ));
        lines.push(format!(
            "{}{}",
            prefix(&entry.name),
            webgpu_line(reflection, entry)
        ));
    }
    let mut stdout = std::io::stdout().lock();
    for line in lines {
        // A closed stdout (`| head`) is not worth failing a successful compile over.
        if writeln!(stdout, "{line}").is_err() {
            break;
        }
    }
    ExitCode::SUCCESS
}

/// `WebGPU requiredFeatures: [...]` for one entry point, computed as an application
/// would: its own pipeline layout, with its shader-resource buffers read-only.
fn webgpu_line(reflection: &oneshader::Reflection, entry: &EntryPointReflection) -> String {
    let read_only_storage_buffers = entry
        .resources
        .iter()
        .filter(|r| {
            matches!(
                r.kind,
                ResourceKind::StructuredBuffer | ResourceKind::ByteAddressBuffer
            )
        })
        .map(|r| r.name.clone())
        .collect();
    let options = WebGpuLayoutOptions {
        read_only_storage_buffers,
    };
    let layout = EntryLayout::from_reflection(reflection, &entry.name)
        .and_then(|layout| PipelineLayout::new(&[layout]).try_to_webgpu(&options));
    match layout {
        Ok(webgpu) => format!(
            "WebGPU requiredFeatures: [{}]",
            webgpu.required_features.join(", ")
        ),
        Err(error) => format!("WebGPU layout: {error}"),
    }
}

/// Writes every blob: `DIR/<stem>.<ext>` for one entry point, `DIR/<stem>.<Entry>.<ext>`
/// for several.
fn write_outputs(result: &CompileResult, input: &Path, dir: &Path) -> Result<(), String> {
    let stem = input
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "out".to_string());
    let entry_count = result
        .reflection
        .as_ref()
        .map_or(0, |r| r.entry_points.len());
    std::fs::create_dir_all(dir)
        .map_err(|e| format!("cannot create the directory '{}': {e}", dir.display()))?;
    let mut written = Vec::new();
    for blob in &result.blobs {
        let name = if entry_count > 1 {
            format!(
                "{stem}.{}.{}",
                blob.entry_point,
                blob.target.file_extension()
            )
        } else {
            format!("{stem}.{}", blob.target.file_extension())
        };
        let path = dir.join(name);
        if let Err(error) = std::fs::write(&path, &blob.data) {
            // No partial outputs: take back what this run already wrote.
            for earlier in &written {
                let _ = std::fs::remove_file(earlier);
            }
            return Err(format!("cannot write '{}': {error}", path.display()));
        }
        written.push(path);
    }
    Ok(())
}
