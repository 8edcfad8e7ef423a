//! Compiling HLSL: from a file or a string to blobs, reflection and diagnostics.

use std::path::Path;

use oneshader_ir::{
    analysis, codes, Diagnostic, EntryPoint, EntryPointInfo, Module, ModuleInfo, ShaderStage,
    SourceMap, Span,
};

use crate::options::CompileOptions;
use crate::reflection::Reflection;
use crate::stages;
use crate::target::Target;

/// One compiled entry point in one target language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaderBlob {
    /// The entry point's HLSL name.
    pub entry_point: String,
    /// The entry function's name in `data`: the HLSL name unless the target reserves it
    /// (MSL's `main` is `main_`). The name to give the API that creates the pipeline.
    pub target_entry_point: String,
    /// Its stage.
    pub stage: ShaderStage,
    /// The language of `data`.
    pub target: Target,
    /// The output: SPIR-V words in little-endian byte order, or UTF-8 text.
    pub data: Vec<u8>,
}

impl ShaderBlob {
    /// The output as text: MSL or WGSL source. `None` for SPIR-V.
    pub fn as_text(&self) -> Option<&str> {
        if self.target.is_text() {
            std::str::from_utf8(&self.data).ok()
        } else {
            None
        }
    }

    /// The SPIR-V words. `None` for the text targets.
    pub fn words(&self) -> Option<Vec<u32>> {
        if self.target != Target::SpirV || self.data.len() % 4 != 0 {
            return None;
        }
        Some(
            self.data
                .chunks_exact(4)
                .filter_map(|b| b.try_into().ok().map(u32::from_le_bytes))
                .collect(),
        )
    }
}

/// Everything one compilation produced.
#[derive(Clone, Debug)]
pub struct CompileResult {
    /// Errors and warnings, in the order they were found.
    pub diagnostics: Vec<Diagnostic>,
    /// One blob per entry point and target that compiled: entry points in source
    /// order, targets in the order of [`CompileOptions::targets`].
    pub blobs: Vec<ShaderBlob>,
    /// The entry points' resources and needs; present whenever the front end succeeded.
    pub reflection: Option<Reflection>,
    /// The source files read (the main file first), for showing diagnostics.
    pub sources: SourceMap,
}

impl CompileResult {
    /// Whether everything compiled: no error diagnostic, and the front end produced a module.
    pub fn success(&self) -> bool {
        self.reflection.is_some() && !self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// The blob of entry point `entry_point` in `target`.
    pub fn find(&self, entry_point: &str, target: Target) -> Option<&ShaderBlob> {
        self.blobs
            .iter()
            .find(|b| b.entry_point == entry_point && b.target == target)
    }

    /// The diagnostics in the one-line form `file(line,col): error OSHnnnn: message`.
    pub fn short_diagnostics(&self) -> Vec<String> {
        self.diagnostics
            .iter()
            .map(|d| d.to_short_string(&self.sources))
            .collect()
    }
}

/// Compiles the HLSL file at `path`; `#include`s are read from disk.
///
/// A file that cannot be read is an `OSH0001` diagnostic in the result, not a Rust error.
pub fn compile_file(path: impl AsRef<Path>, options: &CompileOptions) -> CompileResult {
    let path = path.as_ref();
    let name = path.display().to_string();
    let mut sources = SourceMap::new();
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(error) => {
            let file = sources.add(name.clone(), "");
            let diagnostic = Diagnostic::error(
                codes::FILE_NOT_READABLE,
                Span::new(file, 0, 0),
                format!("The file '{name}' could not be read: {error}."),
            );
            return failed(sources, diagnostic);
        }
    };
    match String::from_utf8(bytes) {
        Ok(text) => {
            let main = sources.add(name, text);
            compile_loaded(sources, main, options)
        }
        Err(error) => {
            let at = error.utf8_error().valid_up_to() as u32;
            let text = String::from_utf8_lossy(error.as_bytes()).into_owned();
            let file = sources.add(name.clone(), text);
            let diagnostic = Diagnostic::error(
                codes::SOURCE_NOT_ACCEPTED,
                Span::new(file, at, at),
                format!("The file '{name}' is not valid UTF-8."),
            )
            .with_help("Save the file as UTF-8.");
            failed(sources, diagnostic)
        }
    }
}

/// Compiles HLSL `text`, shown as `name` in diagnostics. `#include`s are looked up
/// beside `name` and in [`CompileOptions::include_dirs`].
pub fn compile_source(name: &str, text: &str, options: &CompileOptions) -> CompileResult {
    let mut sources = SourceMap::new();
    let main = sources.add(name, text);
    compile_loaded(sources, main, options)
}

/// Compiles an IR module that did not come from the front end (the backends and
/// reflection only). For tests of the back half, such as with
/// `oneshader_ir::samples::compact()`. The module is checked first
/// ([`oneshader_ir::valid`]): one that breaks the IR's rules is an `OSH0004` error.
#[doc(hidden)]
pub fn compile_module(
    module: Module,
    sources: SourceMap,
    options: &CompileOptions,
) -> CompileResult {
    compile_checked(module, sources, options, true)
}

/// [`compile_module`], checking the module's structure first when `validate` (the front
/// end's modules keep the rules by construction: they are checked in debug builds only,
/// so that the tests would find a front end that breaks them).
fn compile_checked(
    module: Module,
    sources: SourceMap,
    options: &CompileOptions,
    validate: bool,
) -> CompileResult {
    let mut result = CompileResult {
        diagnostics: Vec::new(),
        blobs: Vec::new(),
        reflection: None,
        sources,
    };
    let module = match select_entry_point(module, options.entry_point.as_deref()) {
        Ok(module) => module,
        Err(diagnostic) => {
            result.diagnostics.push(diagnostic);
            return result;
        }
    };
    if validate {
        if let Err(diagnostic) = oneshader_ir::valid::validate(&module) {
            result.diagnostics.push(diagnostic);
            return result;
        }
    }
    if let Some(device) = &options.device {
        for entry in &module.entry_points {
            result
                .diagnostics
                .extend(device.check_entry_point(&module, entry));
        }
    }
    let info = ModuleInfo::new(&module);
    let too_large: Vec<Diagnostic> = module
        .entry_points
        .iter()
        .zip(info.entry_points())
        .filter_map(|(entry, entry_info)| groupshared_too_large(&module, entry, entry_info))
        .collect();
    if !too_large.is_empty() {
        result.diagnostics.extend(too_large);
        return result;
    }
    let mut backends = stages::Backends::new(&module, &info, &options.targets);
    result
        .blobs
        .reserve(module.entry_points.len() * options.targets.len());
    for (index, entry) in module.entry_points.iter().enumerate() {
        for &target in &options.targets {
            match backends.run(index, target) {
                Ok(data) => result.blobs.push(ShaderBlob {
                    entry_point: entry.name.clone(),
                    target_entry_point: stages::target_entry_point_name(&module, index, target),
                    stage: entry.stage,
                    target,
                    data,
                }),
                Err(diagnostics) => result.diagnostics.extend(diagnostics),
            }
        }
    }
    let msl_indices = if options.targets.contains(&Target::Msl) {
        stages::msl_resource_indices(&module)
    } else {
        Vec::new()
    };
    result.reflection = Some(Reflection::of_module(
        &module,
        &info,
        &msl_indices,
        &result.sources,
    ));
    result
}

fn compile_loaded(
    mut sources: SourceMap,
    main: oneshader_ir::FileId,
    options: &CompileOptions,
) -> CompileResult {
    let (module, front_diagnostics) = stages::run_front_end(&mut sources, main, options);
    let front_failed = front_diagnostics.iter().any(Diagnostic::is_error);
    match module {
        Some(module) if !front_failed => {
            let mut result = compile_checked(module, sources, options, cfg!(debug_assertions));
            result.diagnostics.splice(0..0, front_diagnostics);
            result
        }
        _ => CompileResult {
            diagnostics: front_diagnostics,
            blobs: Vec::new(),
            reflection: None,
            sources,
        },
    }
}

fn failed(sources: SourceMap, diagnostic: Diagnostic) -> CompileResult {
    CompileResult {
        diagnostics: vec![diagnostic],
        blobs: Vec::new(),
        reflection: None,
        sources,
    }
}

/// OSH0370 when `entry` uses more than [`analysis::MAX_WORKGROUP_BYTES`] of
/// groupshared memory, at its largest groupshared variable.
fn groupshared_too_large(
    module: &Module,
    entry: &EntryPoint,
    info: &EntryPointInfo,
) -> Option<Diagnostic> {
    let variables = analysis::workgroup_variables_of(module, &info.global_uses);
    let total = variables
        .iter()
        .fold(0u64, |total, (_, bytes)| total.saturating_add(*bytes));
    if total <= analysis::MAX_WORKGROUP_BYTES {
        return None;
    }
    let (largest, bytes) = variables.iter().max_by_key(|(_, bytes)| *bytes)?;
    let global = &module.global_variables[*largest];
    let mut diagnostic = Diagnostic::error(
        codes::GROUPSHARED_TOO_LARGE,
        global.span,
        format!(
            "the entry point '{}' uses {total} bytes of groupshared memory; the limit is {} bytes",
            entry.name,
            analysis::MAX_WORKGROUP_BYTES
        ),
    )
    .with_help("Use smaller tiles or types, or keep the data in a RWStructuredBuffer.");
    if variables.len() > 1 {
        diagnostic = diagnostic.with_note(format!("'{}' alone takes {bytes} bytes", global.name));
    }
    Some(diagnostic)
}

/// Keeps only the entry point named `wanted`, when one is asked for.
fn select_entry_point(mut module: Module, wanted: Option<&str>) -> Result<Module, Diagnostic> {
    let Some(wanted) = wanted else {
        return Ok(module);
    };
    if module.entry_point(wanted).is_none() {
        let available: Vec<&str> = module
            .entry_points
            .iter()
            .map(|e| e.name.as_str())
            .collect();
        let mut diagnostic = Diagnostic::error(
            codes::ENTRY_POINT_NOT_FOUND,
            None,
            format!("The entry point '{wanted}' does not exist."),
        );
        if !available.is_empty() {
            diagnostic =
                diagnostic.with_help(format!("The entry points are: {}.", available.join(", ")));
        }
        return Err(diagnostic);
    }
    module.entry_points.retain(|e| e.name == wanted);
    Ok(module)
}

#[cfg(test)]
mod tests {
    use super::*;
    use oneshader_ir::samples;

    fn compact(options: &CompileOptions) -> CompileResult {
        compile_module(samples::compact(), SourceMap::new(), options)
    }

    /// Every blob must pass its independent validator: spirv-val, Tint, the MSL check.
    fn validate_blobs(result: &CompileResult) {
        for blob in &result.blobs {
            let checked = match blob.target {
                Target::SpirV => oneshader_harness::spirv_val(&blob.words().unwrap_or_default()),
                Target::Msl => {
                    oneshader_harness::msl::check_msl(blob.as_text().unwrap_or_default())
                }
                Target::Wgsl => {
                    oneshader_harness::validate_wgsl(blob.as_text().unwrap_or_default())
                }
            };
            if let Err(e) = checked {
                panic!("{} {} is invalid:\n{e}", blob.entry_point, blob.target);
            }
        }
    }

    /// Needs the three backends (`write_entry_point`); fails while `stages` shims them.
    #[test]
    fn compact_compiles_to_three_blobs() {
        let result = compact(&CompileOptions::default());
        assert_eq!(result.short_diagnostics(), Vec::<String>::new());
        assert!(result.success());
        let targets: Vec<Target> = result.blobs.iter().map(|b| b.target).collect();
        assert_eq!(targets, Target::ALL);
        let spirv = result.find("CSMain", Target::SpirV).expect("a SPIR-V blob");
        let words = spirv.words().expect("SPIR-V is whole words");
        assert_eq!(words.first(), Some(&0x0723_0203), "SPIR-V magic number");
        assert_eq!(spirv.as_text(), None);
        let msl = result
            .find("CSMain", Target::Msl)
            .and_then(ShaderBlob::as_text);
        assert!(msl.is_some_and(|t| t.contains("CSMain")), "{msl:?}");
        let wgsl = result
            .find("CSMain", Target::Wgsl)
            .and_then(ShaderBlob::as_text);
        assert!(
            wgsl.is_some_and(|t| t.starts_with("enable subgroups;")),
            "{wgsl:?}"
        );
        validate_blobs(&result);
    }

    fn compact_path() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shaders/Compact.hlsl")
    }

    /// Needs the front end: the HLSL of Compact must reflect like the hand-built sample.
    #[test]
    fn compact_hlsl_compiles_like_the_sample() {
        let result = compile_file(compact_path(), &CompileOptions::default());
        assert_eq!(result.short_diagnostics(), Vec::<String>::new());
        assert!(result.success());
        let shown: Vec<String> = result
            .blobs
            .iter()
            .map(|b| format!("{} {} {}", b.entry_point, b.stage.name(), b.target))
            .collect();
        assert_eq!(
            shown,
            [
                "CSMain compute SpirV",
                "CSMain compute Msl",
                "CSMain compute Wgsl"
            ]
        );
        let sample = compact(&CompileOptions::default());
        // The sample module has no source, so its resources have no declaration place.
        let mut reflection = result.reflection.clone();
        for entry in reflection.iter_mut().flat_map(|r| &mut r.entry_points) {
            for resource in &mut entry.resources {
                assert!(
                    resource.declared_at.is_some(),
                    "{} has a place",
                    resource.name
                );
                resource.declared_at = None;
            }
        }
        assert_eq!(reflection, sample.reflection);
        assert_eq!(
            result
                .sources
                .get(oneshader_ir::FileId(0))
                .map(|f| f.name.as_str()),
            Some(compact_path().display().to_string().as_str())
        );
        validate_blobs(&result);
    }

    /// Needs the front end.
    #[test]
    fn compile_source_applies_defines_and_profile() {
        let text = "RWStructuredBuffer<uint> Out : register(u0);\n\
                    [numthreads(4, 1, 1)]\n\
                    void main(uint3 id : SV_DispatchThreadID) { Out[id.x] = VALUE; }\n";
        let without = compile_source("inline.hlsl", text, &CompileOptions::default());
        assert!(!without.success());
        assert!(
            without.short_diagnostics()[0].starts_with("inline.hlsl(3,"),
            "{:?}",
            without.short_diagnostics()
        );
        let options = CompileOptions {
            targets: vec![Target::Wgsl],
            defines: vec![("VALUE".into(), "7u".into())],
            profile: Some(crate::Profile::parse("cs_6_0").expect("valid profile")),
            ..CompileOptions::default()
        };
        let with = compile_source("inline.hlsl", text, &options);
        assert!(with.success(), "{:?}", with.short_diagnostics());
        let wgsl = with
            .find("main", Target::Wgsl)
            .and_then(ShaderBlob::as_text);
        assert!(wgsl.is_some_and(|t| t.contains("7u")), "{wgsl:?}");
        let reflection = with.reflection.as_ref().expect("reflection");
        assert_eq!(reflection.entry_points[0].workgroup_size, [4, 1, 1]);
        assert!(reflection.entry_points[0].subgroup_operations.is_empty());
        validate_blobs(&with);
    }

    /// Needs the front end: GetDimensions makes MSL take the buffer sizes after the
    /// module's buffers, and reflection says where.
    #[test]
    fn buffer_lengths_reach_msl_through_the_reflected_sizes_index() {
        let text = "StructuredBuffer<float> In : register(t0);\n\
                    RWStructuredBuffer<uint> Out : register(u1);\n\
                    [numthreads(1, 1, 1)]\n\
                    void main() { uint n, stride; In.GetDimensions(n, stride); Out[0] = n; }\n";
        let result = compile_source("sizes.hlsl", text, &CompileOptions::default());
        assert!(result.success(), "{:?}", result.short_diagnostics());
        let entry = &result.reflection.as_ref().expect("reflection").entry_points[0];
        assert_eq!(entry.msl_buffer_sizes_index, Some(2));
        let msl = result
            .find("main", Target::Msl)
            .and_then(ShaderBlob::as_text);
        assert!(
            msl.is_some_and(|t| t.contains("_buffer_sizes [[buffer(2)]]")),
            "{msl:?}"
        );
        validate_blobs(&result);
        let compact = compact(&CompileOptions::default());
        let compact_entry = &compact
            .reflection
            .as_ref()
            .expect("reflection")
            .entry_points[0];
        assert_eq!(compact_entry.msl_buffer_sizes_index, None);
    }

    #[test]
    fn compact_reflection_comes_with_the_blobs() {
        let result = compact(&CompileOptions {
            targets: vec![],
            ..CompileOptions::default()
        });
        assert!(result.success(), "{:?}", result.short_diagnostics());
        assert!(result.blobs.is_empty());
        let reflection = result.reflection.expect("reflection of a compiled module");
        let entry = reflection.entry_point("CSMain").expect("CSMain");
        assert_eq!(entry.resources.len(), 3);
        assert_eq!(entry.subgroup_operations.bits(), 0x9);
    }

    #[test]
    fn unknown_entry_point_is_osh0320() {
        let result = compact(&CompileOptions {
            entry_point: Some("Main".into()),
            ..CompileOptions::default()
        });
        assert!(!result.success());
        assert!(result.blobs.is_empty());
        assert_eq!(
            result.short_diagnostics(),
            ["error OSH0320: The entry point 'Main' does not exist."]
        );
        assert_eq!(
            result.diagnostics[0].help,
            ["The entry points are: CSMain."]
        );
    }

    /// A compute shader around `body`, after `globals`, compiled for SPIR-V alone.
    fn compile_spirv(globals: &str, body: &str) -> CompileResult {
        let source = format!(
            "{globals}\nRWStructuredBuffer<uint> O : register(u0);\n[numthreads(1, 1, 1)]\n\
             void CSMain(uint3 id : SV_DispatchThreadID) {{\n{body}\n}}\n"
        );
        let options = CompileOptions {
            targets: vec![Target::SpirV],
            ..CompileOptions::default()
        };
        compile_source("big.hlsl", &source, &options)
    }

    /// A `switch` on `id.x` with `cases` cases that each set `r`.
    fn switch_of(cases: usize) -> String {
        let mut body = String::from("uint r = 0;\nswitch (id.x) {\n");
        for case in 0..cases {
            body.push_str(&format!("case {case}: r = {}; break;\n", case * 3));
        }
        body.push_str("}\nO[0] = r;");
        body
    }

    /// SPIR-V counts an instruction's words in 16 bits: an array initializer, a switch
    /// or a phi past 65,535 words is an error at the construct, not a wrapped count.
    #[test]
    fn instructions_over_65535_words_are_osh5001() {
        let elements: Vec<String> = (0..70_000).map(|i| (i % 7).to_string()).collect();
        let array = format!("static const uint a[70000] = {{{}}};", elements.join(","));
        let result = compile_spirv(&array, "O[0] = a[id.x];");
        assert!(!result.success());
        assert!(result.blobs.is_empty());
        let lines = result.short_diagnostics();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("big.hlsl(1,30): error OSH5001: an array, vector or struct value needs a SPIR-V instruction (OpConstantComposite) of 70003 words; SPIR-V allows at most 65535: split"),
            "{}",
            lines[0]
        );

        let result = compile_spirv("", &switch_of(33_000));
        assert!(result.blobs.is_empty());
        let lines = result.short_diagnostics();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("big.hlsl(6,12): error OSH5001: a switch of 33000 cases; SPIR-V allows at most 16383 in one: split it"),
            "{}",
            lines[0]
        );
    }

    /// The largest switch SPIR-V takes (16,383 cases) compiles, and validates.
    #[test]
    fn the_largest_switch_compiles() {
        let result = compile_spirv("", &switch_of(16_383));
        assert!(result.success(), "{:?}", result.short_diagnostics());
        validate_blobs(&result);
    }

    /// A loop left by 32,767 breaks and its condition: the phi of `r` where they meet
    /// would take 65,539 words, so `r` stays a variable. (spirv-val takes minutes on
    /// this module: its instructions are walked by their word counts instead.)
    #[test]
    fn a_block_of_too_many_predecessors_keeps_its_variables() {
        let mut body = String::from("uint r = 0;\nfor (uint i = 0; i < 4; i++) {\n");
        for case in 0..32_767 {
            body.push_str(&format!(
                "if (id.x == {case}) {{ r = {}; break; }}\n",
                case * 3
            ));
        }
        body.push_str("}\nO[0] = r;");
        let result = compile_spirv("", &body);
        assert!(result.success(), "{:?}", result.short_diagnostics());
        let words = result.blobs[0].words().unwrap_or_default();
        let mut at = 5;
        while let Some(&first) = words.get(at) {
            assert!(first >> 16 > 0, "a word count of 0 at word {at}");
            at += (first >> 16) as usize;
        }
        assert_eq!(at, words.len(), "the last instruction runs past the end");
    }

    /// The largest array initializer SPIR-V can hold still compiles, and validates.
    #[test]
    fn an_instruction_of_65535_words_is_accepted() {
        let elements: Vec<String> = (0..65_532).map(|i| (i % 7).to_string()).collect();
        let array = format!("static const uint a[65532] = {{{}}};", elements.join(","));
        let result = compile_spirv(&array, "O[0] = a[id.x];");
        assert!(result.success(), "{:?}", result.short_diagnostics());
        validate_blobs(&result);
    }

    /// A struct `Big` of `members` uint members, and a buffer of them.
    fn struct_of(members: usize) -> String {
        let mut globals = String::from("struct Big {\n");
        for member in 0..members {
            globals.push_str(&format!("    uint m{member};\n"));
        }
        globals.push_str("};\nRWStructuredBuffer<Big> B : register(u1);");
        globals
    }

    /// A chain of `depth` structs, each (but the first) holding the one before.
    fn struct_chain(depth: usize) -> String {
        let mut globals = String::from("struct S1 { uint x; };\n");
        for level in 2..=depth {
            globals.push_str(&format!(
                "struct S{level} {{ S{} inner; uint x; }};\n",
                level - 1
            ));
        }
        globals.push_str(&format!("RWStructuredBuffer<S{depth}> B : register(u1);"));
        globals
    }

    /// SPIR-V's universal limit of 16,383 members in a struct is an OSH5001 error at the
    /// struct's declaration, for SPIR-V alone. (Its limit of 255 levels of structs in
    /// structs is the front end's: see `structs_nest_at_most_255_deep`.)
    #[test]
    fn structs_past_spirv_limits_are_osh5001_at_the_struct() {
        let result = compile_spirv(&struct_of(16_384), "B[0].m0 = id.x;");
        assert!(result.blobs.is_empty());
        let lines = result.short_diagnostics();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("big.hlsl(1,8): error OSH5001: the struct 'Big' has 16384 members; SPIR-V allows at most 16383 in one: split it"),
            "{}",
            lines[0]
        );

        // The limits are SPIR-V's: MSL takes both structs.
        let options = CompileOptions {
            targets: vec![Target::Msl],
            ..CompileOptions::default()
        };
        let source = format!(
            "{}\n[numthreads(1, 1, 1)] void CSMain(uint3 id : SV_DispatchThreadID) {{ B[0].m0 = id.x; }}",
            struct_of(16_384)
        );
        let result = compile_source("big.hlsl", &source, &options);
        assert!(result.success(), "{:?}", result.short_diagnostics());
    }

    /// A cbuffer's fields are one struct: past 16,383 of them is an error at the cbuffer's
    /// name, for SPIR-V (OSH5001) and WGSL (OSH5201).
    #[test]
    fn a_cbuffer_of_too_many_fields_is_an_error_at_its_name() {
        let mut source = String::from("cbuffer Many : register(b1) {\n");
        for index in 0..16_384 {
            source.push_str(&format!("float m{index};\n"));
        }
        source.push_str(
            "};\nRWStructuredBuffer<float> O : register(u0);\n\
             [numthreads(1, 1, 1)] void CSMain() { O[0] = m0 + m16383; }\n",
        );
        for (target, start) in [
            (
                Target::SpirV,
                "many.hlsl(1,9): error OSH5001: the struct 'type_Many' has 16384 members",
            ),
            (
                Target::Wgsl,
                "many.hlsl(1,9): error OSH5201: the struct 'type_Many' has 16384 members",
            ),
        ] {
            let options = CompileOptions {
                targets: vec![target],
                ..CompileOptions::default()
            };
            let result = compile_source("many.hlsl", &source, &options);
            assert!(result.blobs.is_empty());
            let lines = result.short_diagnostics();
            assert_eq!(lines.len(), 1, "{lines:?}");
            assert!(lines[0].starts_with(start), "{}", lines[0]);
        }
    }

    /// The largest struct and the deepest nesting of structs SPIR-V takes compile, and
    /// validate.
    #[test]
    fn the_largest_structs_spirv_takes_compile() {
        let result = compile_spirv(&struct_of(16_383), "B[0].m0 = id.x;");
        assert!(result.success(), "{:?}", result.short_diagnostics());
        validate_blobs(&result);
    }

    /// Structs nest at most 255 deep (SPIR-V's universal limit): the deepest compiles for
    /// every target, and validates; one deeper is OSH0201 at the member, for every target.
    #[test]
    fn structs_nest_at_most_255_deep() {
        let options = CompileOptions {
            targets: vec![Target::SpirV, Target::Msl, Target::Wgsl],
            ..CompileOptions::default()
        };
        // A local, not a buffer: WGSL's runtime array of the buffer would be a level more.
        let source = |depth: usize| {
            let mut source = String::from("struct S1 { uint x; };\n");
            for level in 2..=depth {
                source.push_str(&format!(
                    "struct S{level} {{ S{} inner; uint x; }};\n",
                    level - 1
                ));
            }
            source.push_str(&format!(
                "RWStructuredBuffer<uint> B : register(u1);\n\
                 [numthreads(1, 1, 1)] void CSMain(uint3 id : SV_DispatchThreadID) {{\n\
                 S{depth} v; v.inner.x = id.x; B[0] = v.inner.x; }}"
            ));
            source
        };
        let result = compile_source("big.hlsl", &source(255), &options);
        assert!(result.success(), "{:?}", result.short_diagnostics());
        assert_eq!(result.blobs.len(), 3);
        validate_blobs(&result);

        // The member past the limit is dropped: its uses are errors too.
        let result = compile_source("big.hlsl", &source(256), &options);
        assert!(result.blobs.is_empty());
        let lines = result.short_diagnostics();
        assert!(
            lines[0].starts_with(
                "big.hlsl(256,20): error OSH0201: the member 'inner' makes the struct 'S256' nest structs 256 deep"
            ),
            "{}",
            lines[0]
        );
    }

    /// Tint takes composite types nested at most 255 deep, an array a level as a struct
    /// is: a buffer of structs nested 254 deep compiles for every target, and validates;
    /// one of structs 255 deep is OSH5201 at the buffer, for WGSL alone.
    #[test]
    fn wgsl_buffers_nest_types_at_most_255_deep() {
        let source = |depth: usize| {
            format!(
                "{}\n[numthreads(1, 1, 1)] void CSMain(uint3 id : SV_DispatchThreadID) {{ B[0].x = id.x; }}",
                struct_chain(depth)
            )
        };
        let all = CompileOptions {
            targets: vec![Target::SpirV, Target::Msl, Target::Wgsl],
            ..CompileOptions::default()
        };
        let result = compile_source("big.hlsl", &source(254), &all);
        assert!(result.success(), "{:?}", result.short_diagnostics());
        validate_blobs(&result);

        let wgsl = CompileOptions {
            targets: vec![Target::Wgsl],
            ..CompileOptions::default()
        };
        let result = compile_source("big.hlsl", &source(255), &wgsl);
        assert!(result.blobs.is_empty());
        let lines = result.short_diagnostics();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with(
                "big.hlsl(256,26): error OSH5201: the type of 'B' nests types 256 deep in WGSL"
            ),
            "{}",
            lines[0]
        );
        let others = CompileOptions {
            targets: vec![Target::SpirV, Target::Msl],
            ..CompileOptions::default()
        };
        let result = compile_source("big.hlsl", &source(255), &others);
        assert!(result.success(), "{:?}", result.short_diagnostics());
        validate_blobs(&result);
    }

    /// Structs each holding an array of the one before, 127 deep (253 levels in WGSL),
    /// in a buffer and a local: the backends' walks of types go past 64 levels.
    #[test]
    fn arrays_of_structs_nested_deep_compile() {
        let mut source = String::from("struct S1 { uint x; };\n");
        for level in 2..=127 {
            source.push_str(&format!(
                "struct S{level} {{ S{} inner[1]; uint x; }};\n",
                level - 1
            ));
        }
        source.push_str(
            "RWStructuredBuffer<S127> B : register(u1);\n\
             [numthreads(1, 1, 1)] void CSMain(uint3 id : SV_DispatchThreadID) {\n\
             S3 local = (S3)0; local.inner[0].inner[0].x = id.x; B[0].x = local.inner[0].inner[0].x; }",
        );
        let options = CompileOptions {
            targets: vec![Target::SpirV, Target::Msl, Target::Wgsl],
            ..CompileOptions::default()
        };
        let result = compile_source("big.hlsl", &source, &options);
        assert!(result.success(), "{:?}", result.short_diagnostics());
        assert_eq!(result.blobs.len(), 3);
        validate_blobs(&result);
    }

    /// Tint takes at most 16,383 members in a struct: past that is OSH5201 at the
    /// struct, for WGSL alone; the largest validates.
    #[test]
    fn wgsl_structs_take_at_most_16383_members() {
        let options = CompileOptions {
            targets: vec![Target::Wgsl],
            ..CompileOptions::default()
        };
        let source = |members: usize| {
            format!(
                "{}\n[numthreads(1, 1, 1)] void CSMain(uint3 id : SV_DispatchThreadID) {{ B[0].m0 = id.x; }}",
                struct_of(members)
            )
        };
        let result = compile_source("big.hlsl", &source(16_384), &options);
        assert!(result.blobs.is_empty());
        let lines = result.short_diagnostics();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("big.hlsl(1,8): error OSH5201: the struct 'Big' has 16384 members; WebGPU's compilers (Tint) take at most 16383"),
            "{}",
            lines[0]
        );
        let result = compile_source("big.hlsl", &source(16_383), &options);
        assert!(result.success(), "{:?}", result.short_diagnostics());
        validate_blobs(&result);
    }

    /// [`compile_spirv`] for WGSL.
    fn compile_wgsl(globals: &str, body: &str) -> CompileResult {
        let source = format!(
            "{globals}\nRWStructuredBuffer<uint> O : register(u0);\n[numthreads(1, 1, 1)]\n\
             void CSMain(uint3 id : SV_DispatchThreadID) {{\n{body}\n}}\n"
        );
        let options = CompileOptions {
            targets: vec![Target::Wgsl],
            ..CompileOptions::default()
        };
        compile_source("big.hlsl", &source, &options)
    }

    /// The one diagnostic of a failed compile.
    fn only_error(result: &CompileResult) -> String {
        assert!(result.blobs.is_empty());
        let lines = result.short_diagnostics();
        assert_eq!(lines.len(), 1, "{lines:?}");
        lines[0].clone()
    }

    /// Tint's limits on switches (16,383 case selectors, `default` among them), array
    /// constructors (32,767 elements) and function parameters (255) are OSH5201 errors
    /// for WGSL; each largest case validates.
    #[test]
    fn wgsl_limits_of_tint_are_osh5201() {
        // 16,383 cases and the `default` the writer adds.
        let line = only_error(&compile_wgsl("", &switch_of(16_383)));
        assert!(
            line.starts_with("big.hlsl(6,12): error OSH5201: a switch of 16384 case selectors"),
            "{line}"
        );
        let result = compile_wgsl("", &switch_of(16_382));
        assert!(result.success(), "{:?}", result.short_diagnostics());
        validate_blobs(&result);

        let array = |count: usize| {
            let elements: Vec<String> = (0..count).map(|i| (i % 7).to_string()).collect();
            format!("static const uint a[{count}] = {{{}}};", elements.join(","))
        };
        let line = only_error(&compile_wgsl(&array(32_768), "O[0] = a[id.x];"));
        assert!(
            line.contains("error OSH5201: an array value of 32768 elements; WebGPU's compilers (Tint) take at most 32767"),
            "{line}"
        );
        let result = compile_wgsl(&array(32_767), "O[0] = a[id.x];");
        assert!(result.success(), "{:?}", result.short_diagnostics());
        validate_blobs(&result);

        let call = |parameters: usize| {
            let arguments: Vec<String> = (0..parameters).map(|p| format!("O[{p}]")).collect();
            format!("O[0] = F({});", arguments.join(", "))
        };
        let line = only_error(&compile_wgsl(&helper_of(256), &call(256)));
        assert!(
            line.starts_with("big.hlsl(1,1): error OSH5201: the function 'F' takes 256 parameters"),
            "{line}"
        );
        let result = compile_wgsl(&helper_of(255), &call(255));
        assert!(result.success(), "{:?}", result.short_diagnostics());
        validate_blobs(&result);
    }

    /// A helper of `parameters` uint parameters too large to inline (it is called
    /// twice), so that SPIR-V declares it.
    fn helper_of(parameters: usize) -> String {
        let list: Vec<String> = (0..parameters).map(|p| format!("uint p{p}")).collect();
        let mut helper = format!("uint F({}) {{\n    uint s = p0;\n", list.join(", "));
        for step in 0..1500 {
            helper.push_str(&format!("    s = s * p{} + {step};\n", step % parameters));
        }
        helper.push_str("    return s;\n}");
        helper
    }

    /// SPIR-V's limit of 255 parameters is an OSH5001 error at the function; 255 validate.
    #[test]
    fn spirv_functions_take_at_most_255_parameters() {
        let call = |parameters: usize| {
            let arguments: Vec<String> = (0..parameters).map(|p| format!("O[{p}]")).collect();
            let call = format!("F({})", arguments.join(", "));
            format!("O[0] = {call}; O[1] = {call};")
        };
        let result = compile_spirv(&helper_of(256), &call(256));
        assert!(result.blobs.is_empty());
        let lines = result.short_diagnostics();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("big.hlsl(1,1): error OSH5001: the function 'F' takes 256 parameters; SPIR-V allows at most 255: pass"),
            "{}",
            lines[0]
        );
        let result = compile_spirv(&helper_of(255), &call(255));
        assert!(result.success(), "{:?}", result.short_diagnostics());
        validate_blobs(&result);
    }

    /// `static` variables that each stay a global, and the body that reads and writes
    /// each.
    fn statics(count: usize) -> (String, String) {
        let mut globals = String::new();
        let mut body = String::from("uint s = O[1];\n");
        for index in 0..count {
            globals.push_str(&format!("static uint g{index} = {};\n", index % 5));
            body.push_str(&format!("g{index} += s; s += g{index};\n"));
        }
        body.push_str("O[0] = s;");
        (globals, body)
    }

    /// An entry point's global variables are listed in its `OpEntryPoint`: past what
    /// that instruction holds (65,530 for `CSMain`; SPIR-V's own limit is 65,535) is
    /// OSH5001 at the entry point, not a wrapped word count; the most it holds validate.
    #[test]
    fn spirv_entry_points_use_at_most_65530_globals() {
        // With `O` and the dispatch id's input, 65,531 globals.
        let (globals, body) = statics(65_529);
        let result = compile_spirv(&globals, &body);
        assert!(result.blobs.is_empty());
        let lines = result.short_diagnostics();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("big.hlsl(65532,1): error OSH5001: the entry point 'CSMain' uses 65531 global variables"),
            "{}",
            lines[0]
        );
        let (globals, body) = statics(65_528);
        let result = compile_spirv(&globals, &body);
        assert!(result.success(), "{:?}", result.short_diagnostics());
        validate_blobs(&result);
    }

    /// Typedefs of arrays nest types without a struct: past 255 levels (each array
    /// dimension a level, as Tint counts) is OSH0201 at the dimension, not a stack
    /// overflow in a backend's type walk; 255 compiles for SPIR-V and MSL and validates.
    #[test]
    fn types_nest_at_most_255_levels() {
        let source = |levels: usize| {
            let mut text = format!("typedef float T0{};\n", "[1]".repeat(levels % 100));
            for index in 1..=levels / 100 {
                text.push_str(&format!(
                    "typedef T{} T{index}{};\n",
                    index - 1,
                    "[1]".repeat(100)
                ));
            }
            format!(
                "{text}RWStructuredBuffer<float> O : register(u0);\n\
                 [numthreads(1, 1, 1)] void CSMain() {{ T{} b; O[0] = 1; }}\n",
                levels / 100
            )
        };
        // Tint's parser stops at a depth of its own before 255 levels of `array<…>` in a
        // local (a WGSL limit of its own, not this one's).
        let options = CompileOptions {
            targets: vec![Target::SpirV, Target::Msl],
            ..CompileOptions::default()
        };
        let result = compile_source("deep.hlsl", &source(255), &options);
        assert!(result.success(), "{:?}", result.short_diagnostics());
        validate_blobs(&result);
        let result = compile_source("deep.hlsl", &source(256), &options);
        assert!(result.blobs.is_empty());
        let lines = result.short_diagnostics();
        assert!(
            lines[0].starts_with(
                "deep.hlsl(3,15): error OSH0201: this array's type nests 256 levels deep"
            ),
            "{lines:?}"
        );
    }

    /// `OpEntryPoint` holds the entry point's name: a name longer than that instruction
    /// can hold (262,127 bytes) is OSH5001 at the entry point, and the longest that leaves
    /// room for the entry point's globals validates.
    #[test]
    fn spirv_entry_point_names_fit_their_instruction() {
        let compile = |length: usize| {
            let source = format!(
                "RWStructuredBuffer<uint> O : register(u0);\n\
                 [numthreads(1, 1, 1)] void {}() {{ O[0] = 1; }}\n",
                "e".repeat(length)
            );
            let options = CompileOptions {
                targets: vec![Target::SpirV],
                ..CompileOptions::default()
            };
            compile_source("long.hlsl", &source, &options)
        };
        let result = compile(262_128);
        assert!(result.blobs.is_empty());
        let lines = result.short_diagnostics();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with(
                "long.hlsl(2,1): error OSH5001: the entry point's name is 262128 bytes long"
            ),
            "{}",
            lines[0]
        );
        // With `O` in its interface, the longest name `CSMain`'s instruction holds.
        let result = compile(262_123);
        assert!(result.success(), "{:?}", result.short_diagnostics());
        validate_blobs(&result);
    }

    /// A hand-built module whose access chain is its own base would send every backend's
    /// walker around forever: the facade's IR check refuses it first (OSH0004).
    #[test]
    fn a_cyclic_access_chain_is_osh0004_not_a_hang() {
        let mut module = samples::compact();
        let function = &mut module.entry_points[0].function;
        let first = oneshader_ir::Handle::from_index(1);
        if let Some(expression) = function.expressions.try_get_mut(first) {
            *expression = oneshader_ir::Expression::AccessIndex {
                base: first,
                index: 0,
            };
        }
        let result = compile_module(module, SourceMap::new(), &CompileOptions::default());
        assert!(!result.success());
        assert!(result.blobs.is_empty());
        let lines = result.short_diagnostics();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].contains("error OSH0004: the IR module breaks the IR's rules: expression"),
            "{}",
            lines[0]
        );
    }

    #[test]
    fn missing_file_is_osh0001_naming_the_path() {
        let path = std::env::temp_dir().join("oneshader-no-such-dir/Missing.hlsl");
        let result = compile_file(&path, &CompileOptions::default());
        assert!(!result.success());
        assert!(result.blobs.is_empty() && result.reflection.is_none());
        let lines = result.short_diagnostics();
        assert_eq!(lines.len(), 1);
        let expected = format!(
            "{}(1,1): error OSH0001: The file '{}'",
            path.display(),
            path.display()
        );
        assert!(lines[0].starts_with(&expected), "{}", lines[0]);
    }

    #[test]
    fn non_utf8_file_is_osh0002_at_the_bad_byte() {
        let path =
            std::env::temp_dir().join(format!("oneshader-latin1-{}.hlsl", std::process::id()));
        std::fs::write(&path, b"// ok\n// caf\xe9\n").expect("temp file is writable");
        let result = compile_file(&path, &CompileOptions::default());
        let _ = std::fs::remove_file(&path);
        assert_eq!(result.diagnostics.len(), 1);
        assert_eq!(result.diagnostics[0].code, codes::SOURCE_NOT_ACCEPTED);
        let line = &result.short_diagnostics()[0];
        assert!(
            line.starts_with(&format!("{}(2,7): error OSH0002", path.display())),
            "{line}"
        );
    }

    #[test]
    fn blob_views_follow_the_target() {
        let blob = ShaderBlob {
            entry_point: "main".into(),
            target_entry_point: "main".into(),
            stage: ShaderStage::Compute,
            target: Target::SpirV,
            data: vec![0x03, 0x02, 0x23, 0x07, 1, 0, 0, 0],
        };
        assert_eq!(blob.words(), Some(vec![0x0723_0203, 1]));
        assert_eq!(blob.as_text(), None);
        let ragged = ShaderBlob {
            data: vec![1, 2, 3],
            ..blob.clone()
        };
        assert_eq!(ragged.words(), None);
        let wgsl = ShaderBlob {
            target: Target::Wgsl,
            data: b"enable subgroups;".to_vec(),
            ..blob
        };
        assert_eq!(wgsl.as_text(), Some("enable subgroups;"));
        assert_eq!(wgsl.words(), None);
    }

    #[test]
    fn blobs_name_the_entry_function_each_target_declares() {
        let source = "RWStructuredBuffer<uint> Out : register(u0);\n\
                      [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { Out[id.x] = 1; }";
        let options = CompileOptions {
            profile: Some("cs_6_0".parse().expect("a valid profile")),
            ..CompileOptions::default()
        };
        let result = compile_source("main.hlsl", source, &options);
        assert!(result.success(), "{:?}", result.short_diagnostics());
        let msl = result.find("main", Target::Msl).expect("an MSL blob");
        assert_eq!(msl.target_entry_point, "main_");
        let text = msl.as_text().unwrap_or_default();
        assert!(text.contains("kernel void main_("), "{text}");
        for target in [Target::SpirV, Target::Wgsl] {
            let blob = result.find("main", target).expect("a blob");
            assert_eq!(blob.target_entry_point, "main", "{target}");
        }
        let wgsl = result
            .find("main", Target::Wgsl)
            .and_then(ShaderBlob::as_text);
        assert!(wgsl.unwrap_or_default().contains("fn main("));
    }

    /// The kernel set and every corpus shader: modules of several entry points sharing
    /// helpers.
    fn kernels_and_corpus() -> Vec<std::path::PathBuf> {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut paths = vec![root.join("shaders/Kernels.hlsl")];
        let corpus = std::fs::read_dir(root.join("tests/corpus")).expect("tests/corpus");
        paths.extend(
            corpus
                .filter_map(|entry| Some(entry.ok()?.path()))
                .filter(|path| path.extension().is_some_and(|e| e == "hlsl")),
        );
        paths
    }

    /// A module's MSL and WGSL writers, shared by its entry points (names worked out once,
    /// helpers written once and reused where an entry point would write them alike),
    /// write each entry point as the writers of a module of that entry point alone do: on
    /// the kernel set, every corpus shader, and a module
    /// whose helpers an entry point writes otherwise (a buffer used atomically in one
    /// entry point only, a texture sampled with a comparison in one only, a helper's
    /// local named like an entry point).
    #[test]
    fn shared_writers_write_each_entry_point_as_its_own_writer() {
        const ALIKE_BUT_FOR_THE_ENTRY_POINT: &str = "\
            RWStructuredBuffer<uint> Counts : register(u0);\n\
            RWStructuredBuffer<float> Out : register(u1);\n\
            Texture2D<float> Depth : register(t2);\n\
            SamplerComparisonState Compare : register(s3);\n\
            uint Peek(uint i) { uint Second = Counts[i]; return Second + 1; }\n\
            float Look(uint at) { uint w, h; Depth.GetDimensions(w, h); return float(w + h + at); }\n\
            [numthreads(1, 1, 1)] void First(uint3 id : SV_DispatchThreadID) {\n\
                uint old; InterlockedAdd(Counts[0], 1, old);\n\
                Out[id.x] = float(Peek(id.x)) + Look(0);\n\
            }\n\
            [numthreads(1, 1, 1)] void Second(uint3 id : SV_DispatchThreadID) {\n\
                Out[id.x] = float(Peek(id.x)) + Look(1)\n\
                    + Depth.SampleCmpLevelZero(Compare, float2(0.5, 0.5), 0.5);\n\
            }\n";
        let mut shaders = vec![(
            "alike_but_for_the_entry_point.hlsl".to_string(),
            ALIKE_BUT_FOR_THE_ENTRY_POINT.to_string(),
        )];
        for path in kernels_and_corpus() {
            let text = std::fs::read_to_string(&path).expect("a readable shader");
            shaders.push((path.display().to_string(), text));
        }
        let mut compared = 0;
        for (name, text) in shaders {
            let mut sources = SourceMap::new();
            let main = sources.add(name.clone(), &text);
            let (module, diagnostics) =
                stages::run_front_end(&mut sources, main, &CompileOptions::default());
            let Some(module) = module else {
                assert!(!name.starts_with("alike"), "{name}: {diagnostics:?}");
                continue;
            };
            let info = ModuleInfo::new(&module);
            let mut backends = stages::Backends::new(&module, &info, &[Target::Msl, Target::Wgsl]);
            for (index, entry) in module.entry_points.iter().enumerate() {
                let at = format!("{name} {}", entry.name);
                let msl_options = oneshader_msl::Options {
                    buffer_sizes_index: Some(stages::msl_buffer_sizes_index(&module)),
                };
                // The module of this entry point alone: nothing is shared.
                let mut alone = module.clone();
                alone.entry_points = vec![entry.clone()];
                let alone_info = ModuleInfo::new(&alone);
                let text = |bytes: Vec<u8>| String::from_utf8(bytes).unwrap_or_default();
                let own_msl =
                    oneshader_msl::write_entry_point(&alone, &alone_info, 0, &msl_options);
                let shared_msl = backends.run(index, Target::Msl).map(text);
                assert_eq!(shared_msl, own_msl, "MSL of {at}");
                let own_wgsl =
                    oneshader_wgsl::write_entry_point(&alone, &alone_info, 0, &Default::default());
                let shared_wgsl = backends.run(index, Target::Wgsl).map(text);
                assert_eq!(shared_wgsl, own_wgsl, "WGSL of {at}");
                if name.starts_with("alike") {
                    assert!(own_wgsl.is_ok(), "{at}: {own_wgsl:?}");
                    assert!(own_msl.is_ok(), "{at}: {own_msl:?}");
                }
                compared += 1;
            }
        }
        assert!(compared >= 70, "only {compared} entry points compared");
    }

    /// The module facts shared by every entry point ([`ModuleInfo`]) equal what the
    /// one-entry-point analyses compute, on the kernel set (six entry points sharing
    /// helpers) and every corpus shader.
    #[test]
    fn module_info_agrees_with_the_analyses() {
        let mut entry_points = 0;
        for path in kernels_and_corpus() {
            let text = std::fs::read_to_string(&path).expect("a readable shader");
            let mut sources = SourceMap::new();
            let main = sources.add(path.display().to_string(), &text);
            let (module, _) = stages::run_front_end(&mut sources, main, &CompileOptions::default());
            let Some(module) = module else { continue };
            let info = ModuleInfo::new(&module);
            for (entry, facts) in module.entry_points.iter().zip(info.entry_points()) {
                let at = format!("{} {}", path.display(), entry.name);
                assert_eq!(
                    facts.reachable_functions,
                    analysis::reachable_functions(&module, entry),
                    "{at}"
                );
                assert_eq!(
                    facts.global_uses,
                    analysis::global_uses(&module, entry),
                    "{at}"
                );
                assert_eq!(
                    facts.subgroup_operations,
                    analysis::subgroup_operations(&module, entry),
                    "{at}"
                );
                entry_points += 1;
            }
        }
        assert!(
            entry_points >= 70,
            "only {entry_points} entry points compared"
        );
    }
}
