//! `oneshader`: the command-line HLSL compiler. A thin layer over the `oneshader`
//! library: parse arguments, compile, report diagnostics, write outputs.
//!
//! Exit status: 0 on success, 1 when compilation fails, 2 on a usage error.

mod output;
mod report;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use oneshader::check::{CheckJob, Manifest, WarningOptions};
use oneshader::report::Report;
use oneshader::{
    compile_file, BindingShift, CompileOptions, CompileResult, DeviceProfile, EntryLayout,
    EntryPointReflection, PipelineLayout, Profile, RegisterClass, ResourceKind, Severity,
    SourceMap, Target, WebGpuLayoutOptions,
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
    /// Compile every .hlsl under PATHS (or a manifest's shaders) for every target,
    /// writing nothing: for CI.
    Check(CheckArgs),
    /// Explain a diagnostic code: what it means, an example, and the fix.
    Explain(ExplainArgs),
    /// Print the reflection of an HLSL file as JSON (schema: docs/reflection.md).
    Reflect(ReflectArgs),
}

#[derive(Args)]
struct ReflectArgs {
    /// The HLSL file.
    file: PathBuf,

    #[command(flatten)]
    options: OptionArgs,

    #[command(flatten)]
    diagnostics: DiagnosticArgs,
}

/// How to compile: the flags `compile`, `reflect` and `check` share.
#[derive(Args)]
struct OptionArgs {
    /// The targets, comma-separated: spirv, msl, wgsl (reflection's MSL indices need msl;
    /// a `check` manifest may set its own).
    #[arg(long, value_delimiter = ',', value_parser = parse_target, default_value = "spirv,msl,wgsl")]
    target: Vec<Target>,

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

    /// Check every entry point against a device profile (profiles/*.json): what the
    /// device lacks is an OSH5300 error, and nothing is written.
    #[arg(long, value_name = "PROFILE.json")]
    device: Option<PathBuf>,

    #[command(flatten)]
    bindings: BindingArgs,
}

impl OptionArgs {
    /// The compile options, or the exit code of a bad profile (1, with its diagnostic in
    /// `format`), binding shift or device profile (2).
    fn options(&self, format: MessageFormat) -> Result<CompileOptions, ExitCode> {
        let profile = match self.profile.as_deref().map(Profile::parse).transpose() {
            Ok(profile) => profile,
            Err(diagnostic) => {
                let sources = SourceMap::new();
                let report = Report {
                    diagnostics: std::slice::from_ref(&diagnostic),
                    sources: &sources,
                };
                report::emit(&[report], format);
                return Err(ExitCode::from(1));
            }
        };
        let binding_shifts = self.bindings.shifts().map_err(|message| {
            eprintln!("error: {message}");
            ExitCode::from(2)
        })?;
        let device = load_device(self.device.as_deref())?;
        Ok(CompileOptions {
            targets: dedup(&self.target),
            entry_point: self.entry.clone(),
            profile,
            defines: self.define.clone(),
            include_dirs: self.include.clone(),
            binding_shifts,
            device,
        })
    }
}

#[derive(Args)]
struct CheckArgs {
    /// Files and directories (walked for .hlsl), or an oneshader.toml manifest.
    /// Default: ./oneshader.toml when it exists, else the current directory.
    paths: Vec<PathBuf>,

    #[command(flatten)]
    options: OptionArgs,

    #[command(flatten)]
    diagnostics: DiagnosticArgs,

    /// Write a Makefile depfile: FILE depends on every file read.
    #[arg(long, value_name = "FILE")]
    depfile: Option<PathBuf>,
}

/// DXC's `-fvk-<class>-shift SHIFT SPACE` options (SPACE a number or `all`).
#[derive(Args)]
struct BindingArgs {
    /// Vulkan binding = SHIFT + register number for b registers in SPACE (or all).
    #[arg(long = "fvk-b-shift", num_args = 2, value_names = ["SHIFT", "SPACE"])]
    b_shift: Vec<String>,
    /// Vulkan binding = SHIFT + register number for t registers in SPACE (or all).
    #[arg(long = "fvk-t-shift", num_args = 2, value_names = ["SHIFT", "SPACE"])]
    t_shift: Vec<String>,
    /// Vulkan binding = SHIFT + register number for u registers in SPACE (or all).
    #[arg(long = "fvk-u-shift", num_args = 2, value_names = ["SHIFT", "SPACE"])]
    u_shift: Vec<String>,
    /// Vulkan binding = SHIFT + register number for s registers in SPACE (or all).
    #[arg(long = "fvk-s-shift", num_args = 2, value_names = ["SHIFT", "SPACE"])]
    s_shift: Vec<String>,
}

impl BindingArgs {
    /// The shifts, in the order given per class; an error names a malformed one.
    fn shifts(&self) -> Result<Vec<BindingShift>, String> {
        let mut shifts = Vec::new();
        for (class, letter, values) in [
            (RegisterClass::B, 'b', &self.b_shift),
            (RegisterClass::T, 't', &self.t_shift),
            (RegisterClass::U, 'u', &self.u_shift),
            (RegisterClass::S, 's', &self.s_shift),
        ] {
            for pair in values.chunks(2) {
                let [shift, space] = pair else {
                    return Err(format!("-fvk-{letter}-shift needs SHIFT and SPACE"));
                };
                let shift = shift.parse::<u32>().map_err(|_| {
                    format!(
                        "-fvk-{letter}-shift: the shift '{shift}' is not a non-negative integer"
                    )
                })?;
                let space = match space.as_str() {
                    "all" => None,
                    s => Some(s.parse::<u32>().map_err(|_| {
                        format!("-fvk-{letter}-shift: the space '{s}' is not a non-negative integer or 'all'")
                    })?),
                };
                shifts.push(BindingShift {
                    class,
                    shift,
                    space,
                });
            }
        }
        Ok(shifts)
    }
}

/// How diagnostics are printed and what warnings do.
#[derive(Args)]
struct DiagnosticArgs {
    /// How to print diagnostics.
    #[arg(long, value_enum, default_value_t = MessageFormat::Rich)]
    message_format: MessageFormat,

    /// Treat warnings as errors.
    #[arg(long = "Werror")]
    werror: bool,

    /// Print no warnings.
    #[arg(short = 'w')]
    no_warnings: bool,
}

impl DiagnosticArgs {
    fn warnings(&self) -> WarningOptions {
        WarningOptions {
            as_errors: self.werror,
            suppress: self.no_warnings,
        }
    }
}

#[derive(Args)]
struct ExplainArgs {
    /// The code, such as OSH0350 (or 350).
    code: String,
}

#[derive(Args)]
struct CompileArgs {
    /// The HLSL file.
    file: PathBuf,

    #[command(flatten)]
    options: OptionArgs,

    /// The directory to write outputs into (created if needed).
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    output: PathBuf,

    #[command(flatten)]
    diagnostics: DiagnosticArgs,

    /// Write a Makefile depfile (with -MF; as DXC): the outputs depend on every file read.
    #[arg(long = "MD")]
    write_depfile: bool,

    /// The depfile's path (implies -MD).
    #[arg(long = "MF", alias = "depfile", value_name = "FILE")]
    depfile: Option<PathBuf>,

    /// Also write the reflection, `DIR/<stem>.reflect.json` (schema: docs/reflection.md).
    #[arg(long)]
    reflect: bool,
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
    oneshader::check::parse_define(text)
}

/// DXC spells some long options with one dash (`-Werror`, `-MD`, `-MF`, `-fvk-t-shift`).
fn dxc_spellings(args: impl Iterator<Item = std::ffi::OsString>) -> Vec<std::ffi::OsString> {
    args.map(|arg| match arg.to_str() {
        Some(
            "-Werror" | "-MD" | "-MF" | "-fvk-b-shift" | "-fvk-t-shift" | "-fvk-u-shift"
            | "-fvk-s-shift",
        ) => format!("-{}", arg.to_string_lossy()).into(),
        _ => arg,
    })
    .collect()
}

fn main() -> ExitCode {
    let cli = Cli::parse_from(dxc_spellings(std::env::args_os()));
    match cli.command {
        Command::Compile(args) => compile(args),
        Command::Check(args) => check(args),
        Command::Explain(args) => explain(&args.code),
        Command::Reflect(args) => reflect(args),
    }
}

/// Loads `--device`; a bad profile is a usage error (exit 2).
fn load_device(path: Option<&Path>) -> Result<Option<DeviceProfile>, ExitCode> {
    match path.map(DeviceProfile::load).transpose() {
        Ok(device) => Ok(device),
        Err(message) => {
            report::emit_plain_error(&message);
            Err(ExitCode::from(2))
        }
    }
}

/// `oneshader reflect`: the reflection JSON on stdout; exit 1 when compilation fails.
fn reflect(args: ReflectArgs) -> ExitCode {
    let format = args.diagnostics.message_format;
    let options = match args.options.options(format) {
        Ok(options) => options,
        Err(code) => return code,
    };
    let mut result = compile_file(&args.file, &options);
    args.diagnostics.warnings().apply(&mut result.diagnostics);
    report::emit(&[Report::of(&result)], format);
    match result.reflection.as_ref().filter(|_| result.success()) {
        Some(reflection) => {
            let _ = writeln!(std::io::stdout().lock(), "{}", reflection.to_json());
            ExitCode::SUCCESS
        }
        None => ExitCode::from(1),
    }
}

/// The targets in order, each once.
fn dedup(targets: &[Target]) -> Vec<Target> {
    let mut unique: Vec<Target> = Vec::new();
    for target in targets {
        if !unique.contains(target) {
            unique.push(*target);
        }
    }
    unique
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
    let format = args.diagnostics.message_format;
    let options = match args.options.options(format) {
        Ok(options) => options,
        Err(code) => return code,
    };

    let mut result = compile_file(&args.file, &options);
    args.diagnostics.warnings().apply(&mut result.diagnostics);
    report::emit(&[Report::of(&result)], format);
    let Some(reflection) = result.reflection.as_ref().filter(|_| result.success()) else {
        return ExitCode::from(1);
    };

    let mut written = match write_outputs(&result, &args.file, &args.output) {
        Ok(written) => written,
        Err(message) => {
            report::emit_plain_error(&message);
            return ExitCode::from(1);
        }
    };
    if args.reflect {
        let stem = args.file.file_stem().unwrap_or_default().to_string_lossy();
        let path = args.output.join(format!("{stem}.reflect.json"));
        if let Err(error) = output::replace_file(&path, (reflection.to_json() + "\n").as_bytes()) {
            report::emit_plain_error(&format!("cannot write '{}': {error}", path.display()));
            return ExitCode::from(1);
        }
        written.push(path);
    }
    if args.write_depfile || args.depfile.is_some() {
        let path = args.depfile.clone().unwrap_or_else(|| {
            let stem = args.file.file_stem().unwrap_or_default().to_string_lossy();
            args.output.join(format!("{stem}.d"))
        });
        let targets: Vec<String> = written.iter().map(|p| p.display().to_string()).collect();
        let text = oneshader::check::depfile(&targets, &oneshader::check::dependencies(&result));
        if let Err(error) = output::replace_file(&path, text.as_bytes()) {
            report::emit_plain_error(&format!("cannot write '{}': {error}", path.display()));
            return ExitCode::from(1);
        }
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
                ResourceKind::TextureBuffer
                    | ResourceKind::StructuredBuffer
                    | ResourceKind::ByteAddressBuffer
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
fn write_outputs(result: &CompileResult, input: &Path, dir: &Path) -> Result<Vec<PathBuf>, String> {
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
        if let Err(error) = output::replace_file(&path, &blob.data) {
            // No partial outputs: take back what this run already wrote.
            for earlier in &written {
                let _ = std::fs::remove_file(earlier);
            }
            return Err(format!("cannot write '{}': {error}", path.display()));
        }
        written.push(path);
    }
    Ok(written)
}

/// `oneshader check`: exit 0 when clean, 1 on errors, 2 on usage or I/O errors.
fn check(args: CheckArgs) -> ExitCode {
    let format = args.diagnostics.message_format;
    let options = match args.options.options(format) {
        Ok(options) => options,
        Err(code) => return code,
    };
    let jobs = match check_jobs(&args.paths, options) {
        Ok(jobs) => jobs,
        Err(message) => {
            report::emit_plain_error(&message);
            return ExitCode::from(2);
        }
    };
    let mut results = oneshader::check::run(&jobs);
    let warnings = args.diagnostics.warnings();
    for result in &mut results {
        warnings.apply(&mut result.diagnostics);
    }
    let reports: Vec<Report> = results.iter().map(Report::of).collect();
    report::emit_stdout(&reports, format);
    let count = |severity: Severity| {
        results
            .iter()
            .flat_map(|r| &r.diagnostics)
            .filter(|d| d.severity == severity)
            .count()
    };
    let (errors, warning_count) = (count(Severity::Error), count(Severity::Warning));
    let _ = writeln!(
        std::io::stderr().lock(),
        "checked {} file{}: {errors} error{}, {warning_count} warning{}",
        jobs.len(),
        plural(jobs.len()),
        plural(errors),
        plural(warning_count)
    );
    if let Some(path) = &args.depfile {
        let deps: Vec<String> = results
            .iter()
            .flat_map(oneshader::check::dependencies)
            .collect();
        let text = oneshader::check::depfile(&[path.display().to_string()], &deps);
        if let Err(error) = output::replace_file(path, text.as_bytes()) {
            report::emit_plain_error(&format!("cannot write '{}': {error}", path.display()));
            return ExitCode::from(2);
        }
    }
    if results.iter().any(|r| !r.success()) {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn plural(count: usize) -> &'static str {
    if count == 1 {
        ""
    } else {
        "s"
    }
}

/// The files to check: a manifest's shaders (with the command line's device profile), or
/// every .hlsl under `paths` with the command line's options.
fn check_jobs(paths: &[PathBuf], options: CompileOptions) -> Result<Vec<CheckJob>, String> {
    let manifest = match paths {
        [] if Path::new("oneshader.toml").is_file() => Some(PathBuf::from("oneshader.toml")),
        [one] if one.extension().is_some_and(|e| e == "toml") => Some(one.clone()),
        _ => None,
    };
    if let Some(path) = manifest {
        let base = path.parent().unwrap_or(Path::new("")).to_path_buf();
        let mut jobs = Manifest::load(&path)?.jobs(&base)?;
        if jobs.is_empty() {
            return Err(format!("'{}' lists no [[shader]]", path.display()));
        }
        if let Some(device) = &options.device {
            for job in &mut jobs {
                job.options.device = Some(device.clone());
            }
        }
        return Ok(jobs);
    }
    let paths = if paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        paths.to_vec()
    };
    let files = oneshader::check::discover(&paths)?;
    if files.is_empty() {
        return Err("no .hlsl files found".to_string());
    }
    Ok(files
        .into_iter()
        .map(|file| CheckJob {
            file,
            options: options.clone(),
        })
        .collect())
}
