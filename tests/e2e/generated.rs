//! Generated programs checked by execution: random well-defined HLSL compute programs
//! (`oneshader_e2e::generate`) are compiled to SPIR-V, WGSL and MSL, every output is validated
//! (spirv-val, Tint, the MSL check), run on lavapipe (Vulkan) and on Dawn, and every word every
//! thread writes is compared with the CPU interpreter's.
//!
//! Programs run in batches: one shader calls many programs one after another, each writing
//! its own region of `Out`, so one compile, one validation and one dispatch per runtime cover
//! the whole batch. The environment sets the run:
//!
//! - `ONESHADER_GENERATED_PROGRAMS=N` (default 1000) and `ONESHADER_GENERATED_SEED=S` (default 1);
//! - `ONESHADER_GENERATED_PROGRAM=I`: only program `I` of that seed (to rerun a failure), or
//!   `A..B`: programs `A` to `B - 1` (to rerun a batch: batches start at multiples of the
//!   batch size);
//! - `ONESHADER_GENERATED_BATCH=B`: programs per shader (default 25);
//! - `ONESHADER_GENERATED_RUNTIMES=lavapipe,swiftshader,dawn-lavapipe,dawn-swiftshader` or `all`
//!   (default: lavapipe and Dawn on SwiftShader; `ONESHADER_TEST_DEVICE=system` runs on
//!   the system's Vulkan driver alone);
//! - `ONESHADER_GENERATED_TARGETS=spirv,wgsl,msl` (the default): the targets compiled and
//!   validated; SPIR-V always. A long run split across machines runs the Dawn pass with
//!   `spirv,wgsl` where node is and the lavapipe pass with `spirv` where lavapipe is; the
//!   programs are the same for the same seed;
//! - `ONESHADER_GENERATED_WORKERS=W`: batches checked at once (default: the cores, at most 8);
//! - `ONESHADER_GENERATED_SAVE=1`: every program and every batch is written as a failing one
//!   is (to read a program that fails elsewhere, such as on a GPU of another machine);
//! - `ONESHADER_GENERATED_RUN=FILE[,FILE..]`: the test `saved_shaders` compiles each of these
//!   shaders (a saved program or batch, cut down by hand), runs it with the seed's input and
//!   prints every program word each thread wrote, one line per thread: to cut a failure down
//!   on a machine where the interpreter's program is gone, diff the lines of two runtimes.
//!
//! A mismatch names the seed, the program, the runtime, the thread and word, expected and
//! actual, and the file (under `target/tmp/generated-failures/`) holding the program alone as a
//! shader with the same output layout; a batch that does not run (a lost device, a dispatch
//! that never ends) is written there whole.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use oneshader::{CompileOptions, Target};
use oneshader_e2e::generate::hlsl::{batch_shader, output_words, program_base, HEADER_WORDS};
use oneshader_e2e::generate::program::{THREADS, WORDS};
use oneshader_e2e::generate::{generate, input_words, interpret, program_seed, Program, Waves};
use oneshader_e2e::{run, try_compile_source_and_validate, Compiled, Runtime};
use oneshader_harness::{u32_bytes, DawnDriver, VulkanDriver};

/// The run the environment asks for.
struct Settings {
    seed: u64,
    indices: Vec<usize>,
    batch: usize,
    runtimes: Vec<Runtime>,
    targets: Vec<Target>,
    workers: usize,
    save_all: bool,
}

fn env_number(name: &str) -> Option<u64> {
    let value = std::env::var(name).ok()?;
    Some(
        value
            .parse()
            .unwrap_or_else(|_| panic!("{name}={value} is not a number")),
    )
}

impl Settings {
    fn from_env() -> Settings {
        let seed = env_number("ONESHADER_GENERATED_SEED").unwrap_or(1);
        let programs = env_number("ONESHADER_GENERATED_PROGRAMS").unwrap_or(1000) as usize;
        let indices = match std::env::var("ONESHADER_GENERATED_PROGRAM") {
            Ok(only) => match only.split_once("..") {
                Some((first, end)) => {
                    let bound = |b: &str| -> usize {
                        b.parse().unwrap_or_else(|_| {
                            panic!("ONESHADER_GENERATED_PROGRAM={only} is not I or A..B")
                        })
                    };
                    (bound(first)..bound(end)).collect()
                }
                None => vec![env_number("ONESHADER_GENERATED_PROGRAM").unwrap_or(0) as usize],
            },
            Err(_) => (0..programs).collect(),
        };
        let batch = env_number("ONESHADER_GENERATED_BATCH").unwrap_or(25).max(1) as usize;
        let selected = Runtime::selected();
        let runtimes = match std::env::var("ONESHADER_GENERATED_RUNTIMES") {
            _ if selected == [Runtime::Vulkan(VulkanDriver::System)] => selected,
            Ok(names) => names
                .split(',')
                .flat_map(|name| match name.trim() {
                    "all" => selected.clone(),
                    "lavapipe" => vec![Runtime::Vulkan(VulkanDriver::Lavapipe)],
                    "swiftshader" => vec![Runtime::Vulkan(VulkanDriver::SwiftShader)],
                    "dawn-lavapipe" => vec![Runtime::Dawn(DawnDriver::Mesa25Lavapipe)],
                    "dawn-swiftshader" => vec![Runtime::Dawn(DawnDriver::SwiftShader)],
                    other => panic!(
                        "ONESHADER_GENERATED_RUNTIMES: unknown runtime '{other}' (all, lavapipe, \
                         swiftshader, dawn-lavapipe, dawn-swiftshader)"
                    ),
                })
                .collect(),
            // Dawn on Mesa 25's lavapipe compiles each pipeline about ten times slower than
            // Dawn on SwiftShader; it runs with `all` or `dawn-lavapipe`.
            Err(_) => vec![
                Runtime::Vulkan(VulkanDriver::Lavapipe),
                Runtime::Dawn(DawnDriver::SwiftShader),
            ],
        };
        let targets = match std::env::var("ONESHADER_GENERATED_TARGETS") {
            Ok(names) => {
                let mut targets = vec![Target::SpirV];
                for name in names.split(',') {
                    match name.trim() {
                        "spirv" => {}
                        "wgsl" => targets.push(Target::Wgsl),
                        "msl" => targets.push(Target::Msl),
                        other => panic!(
                            "ONESHADER_GENERATED_TARGETS: unknown target '{other}' (spirv, wgsl, msl)"
                        ),
                    }
                }
                targets
            }
            Err(_) => Target::ALL.to_vec(),
        };
        let without = |target: Target| !targets.contains(&target);
        if without(Target::Wgsl) && runtimes.iter().any(|r| matches!(r, Runtime::Dawn(_))) {
            panic!("ONESHADER_GENERATED_TARGETS leaves out wgsl, which Dawn runs");
        }
        if without(Target::Wgsl) || without(Target::Msl) {
            eprintln!("ONESHADER_GENERATED_TARGETS: validating {targets:?} only");
        }
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let workers =
            env_number("ONESHADER_GENERATED_WORKERS").map_or(cores.min(8), |w| w as usize);
        Settings {
            seed,
            indices,
            batch,
            runtimes,
            targets,
            workers: workers.max(1),
            save_all: std::env::var_os("ONESHADER_GENERATED_SAVE").is_some(),
        }
    }

    fn rerun(&self, index: usize) -> String {
        format!(
            "ONESHADER_GENERATED_SEED={} ONESHADER_GENERATED_PROGRAM={index} \
             cargo test -p oneshader-e2e --test generated",
            self.seed
        )
    }
}

/// Where a failing program is written.
fn failure_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("generated-failures")
}

/// Writes program `index` alone as a shader (the same layout as a batch of one) and returns
/// the file's path.
fn save(settings: &Settings, index: usize, program: &Program) -> String {
    let dir = failure_dir();
    let path = dir.join(format!("seed-{}-program-{index}.hlsl", settings.seed));
    let written = std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::write(&path, batch_shader(std::slice::from_ref(program))));
    match written {
        Ok(()) => path.display().to_string(),
        Err(e) => format!("(not written: {}: {e})", path.display()),
    }
}

/// Writes a whole batch that does not run, named by its first program.
fn save_batch(settings: &Settings, first: usize, programs: &[Program]) -> String {
    let dir = failure_dir();
    let path = dir.join(format!("seed-{}-batch-{first}.hlsl", settings.seed));
    let written =
        std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&path, batch_shader(programs)));
    match written {
        Ok(()) => path.display().to_string(),
        Err(e) => format!("(not written: {}: {e})", path.display()),
    }
}

/// Compiles a saved shader (a batch or a cut-down one) and runs it on each runtime with seed
/// `seed`'s input; gives each runtime's `Out` words, or why it did not run.
fn run_saved(
    name: &str,
    source: &str,
    seed: u64,
    settings: &Settings,
) -> Vec<(Runtime, Result<Vec<u32>, String>)> {
    let options = CompileOptions {
        targets: settings.targets.clone(),
        ..CompileOptions::default()
    };
    let compiled = try_compile_source_and_validate(name, source, &options)
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    let buffers = [
        (
            "Out".to_string(),
            vec![0u8; output_words(saved_programs(source)) * 4],
        ),
        ("In".to_string(), u32_bytes(&input_words(seed as u32))),
    ];
    settings
        .runtimes
        .iter()
        .map(|&runtime| {
            let words =
                run(&compiled, runtime, &buffers, [1, 1, 1]).and_then(|output| output.u32s(0));
            (runtime, words)
        })
        .collect()
}

/// The programs' regions a saved shader's `Out` needs: program `k` writes at `program_base(k)`
/// whatever programs a cut-down batch kept.
fn saved_programs(source: &str) -> usize {
    source
        .split("void program")
        .skip(1)
        .filter_map(|rest| {
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse::<usize>().ok()
        })
        .max()
        .map_or(0, |last| last + 1)
}

/// Runs the shaders `ONESHADER_GENERATED_RUN` names (see the module's documentation) and prints
/// their program words; passes with nothing to do when it is unset.
#[test]
fn saved_shaders() {
    let Ok(files) = std::env::var("ONESHADER_GENERATED_RUN") else {
        return;
    };
    let settings = Settings::from_env();
    for file in files.split(',').map(str::trim).filter(|f| !f.is_empty()) {
        let source = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{file}: {e}"));
        for (runtime, words) in run_saved(file, &source, settings.seed, &settings) {
            let words = match words {
                Ok(words) => words,
                Err(e) => {
                    println!("{file} on {runtime:?}: does not run: {e}");
                    continue;
                }
            };
            for k in 0..saved_programs(&source) {
                for t in 0..THREADS {
                    let at = program_base(k) + t * WORDS;
                    let line: Vec<String> = words[at..at + WORDS]
                        .iter()
                        .map(|w| format!("{w:08x}"))
                        .collect();
                    println!("{file} program{k} thread {t:2}: {}", line.join(" "));
                }
            }
        }
    }
}

/// The cut-down programs of `tests/driver_bugs/` (each a GPU driver's bug, written up in
/// docs/testing.md) run here as HLSL says they should: each dispatch finishes and every
/// `// expect: programK thread T word W = 0xV` line holds. On the driver each names, this test
/// fails: that is the bug.
#[test]
fn driver_bug_repros_run_as_hlsl_says() {
    let settings = Settings::from_env();
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("driver_bugs");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|x| x == "hlsl"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 3,
        "the repros are missing from {}",
        dir.display()
    );
    let mut failures = Vec::new();
    for path in &files {
        let name = path.display().to_string();
        let source = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let header = |key: &str| -> Vec<&str> {
            source
                .lines()
                .filter_map(|line| line.strip_prefix(key))
                .map(str::trim)
                .collect()
        };
        let seed = header("// seed:")
            .first()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{name}: no `// seed: N` line"));
        let expectations: Vec<(usize, usize, usize, u32)> = header("// expect:")
            .into_iter()
            .filter(|e| *e != "runs")
            .map(|e| {
                parse_expectation(e).unwrap_or_else(|| panic!("{name}: bad expect line `{e}`"))
            })
            .collect();
        for (runtime, words) in run_saved(&name, &source, seed, &settings) {
            let words = match words {
                Ok(words) => words,
                Err(e) => {
                    failures.push(format!("{name} on {runtime:?} does not run: {e}"));
                    continue;
                }
            };
            for &(program, thread, word, value) in &expectations {
                let actual = words[program_base(program) + thread * WORDS + word];
                if actual != value {
                    failures.push(format!(
                        "{name} on {runtime:?}: program{program} thread {thread} word {word} \
                         is {actual:#010x}, expected {value:#010x}"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// `programK thread T word W = 0xV`.
fn parse_expectation(line: &str) -> Option<(usize, usize, usize, u32)> {
    let (place, value) = line.split_once('=')?;
    let words: Vec<&str> = place.split_whitespace().collect();
    let [program, "thread", thread, "word", word] = words[..] else {
        return None;
    };
    let value = u32::from_str_radix(value.trim().strip_prefix("0x")?, 16).ok()?;
    Some((
        program.strip_prefix("program")?.parse().ok()?,
        thread.parse().ok()?,
        word.parse().ok()?,
        value,
    ))
}

#[test]
fn generated_programs_match_the_interpreter() {
    let settings = Settings::from_env();
    let started = Instant::now();
    let batches: Vec<&[usize]> = settings.indices.chunks(settings.batch).collect();
    let next = AtomicUsize::new(0);
    let failures = Mutex::new(Vec::new());
    let sizes = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..settings.workers {
            scope.spawn(|| {
                while let Some(batch) = batches.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let (found, seen) = check_batch(&settings, batch);
                    failures
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .extend(found);
                    sizes.lock().unwrap_or_else(|e| e.into_inner()).extend(seen);
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut sizes = sizes.into_inner().unwrap_or_else(|e| e.into_inner());
    sizes.sort();
    sizes.dedup();
    eprintln!(
        "{} generated programs (seed {}) in {} batches on {:?} (subgroup sizes {sizes:?}): \
         {} failures, {:.1} s",
        settings.indices.len(),
        settings.seed,
        batches.len(),
        settings.runtimes,
        failures.len(),
        started.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} of {} generated programs fail:\n{}",
        failures.len(),
        settings.indices.len(),
        failures
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

/// Compiles, validates and runs one batch; returns the failures and the subgroup sizes seen.
fn check_batch(settings: &Settings, indices: &[usize]) -> (Vec<String>, Vec<u32>) {
    let programs: Vec<Program> = indices
        .iter()
        .map(|&i| generate(program_seed(settings.seed, i as u64)))
        .collect();
    if settings.save_all {
        for (&index, program) in indices.iter().zip(&programs) {
            eprintln!("saved {}", save(settings, index, program));
        }
        eprintln!("saved {}", save_batch(settings, indices[0], &programs));
    }
    let name = format!("generated-{}-{}.hlsl", settings.seed, indices[0]);
    let compiled = match compile(settings, &name, &programs) {
        Ok(compiled) => compiled,
        Err(batch_error) => {
            return (
                compile_failures(settings, indices, &programs, &batch_error),
                Vec::new(),
            )
        }
    };
    let input = input_words(settings.seed as u32);
    let mut failures = Vec::new();
    let mut sizes = Vec::new();
    for &runtime in &settings.runtimes {
        let mut buffers = vec![(
            "Out".to_string(),
            vec![0u8; output_words(programs.len()) * 4],
        )];
        let reads_input = compiled
            .reflection()
            .entry_point(&compiled.entry)
            .is_some_and(|e| e.resource("In").is_some());
        if reads_input {
            buffers.push(("In".to_string(), u32_bytes(&input)));
        }
        let output = match run(&compiled, runtime, &buffers, [1, 1, 1]) {
            Ok(output) => output,
            Err(e) => {
                let file = save_batch(settings, indices[0], &programs);
                failures.push(format!(
                    "{name} on {runtime:?} does not run: {e}\n  batch: {file}"
                ));
                continue;
            }
        };
        let size = output.device.subgroup_size;
        sizes.push(size);
        let words = match output.u32s(0) {
            Ok(words) => words,
            Err(e) => {
                failures.push(format!("{name} on {runtime:?}: {e}"));
                continue;
            }
        };
        let lanes: Vec<(u32, u32)> = (0..THREADS)
            .map(|t| (words[t * HEADER_WORDS], words[t * HEADER_WORDS + 2]))
            .collect();
        let counts_agree = (0..THREADS).all(|t| words[t * HEADER_WORDS + 1] == size);
        let waves = match Waves::from_lanes(&lanes) {
            Ok(waves) if counts_agree => waves,
            Ok(_) => {
                failures.push(format!("{name} on {runtime:?}: WaveGetLaneCount() is not the reported subgroup size {size}"));
                continue;
            }
            Err(e) => {
                failures.push(format!(
                    "{name} on {runtime:?}: the subgroups the device formed: {e}"
                ));
                continue;
            }
        };
        for (k, (&index, program)) in indices.iter().zip(&programs).enumerate() {
            let base = program_base(k);
            let actual = &words[base..base + THREADS * WORDS];
            let expected = match interpret(program, &input, &waves) {
                Ok(expected) => expected,
                Err(e) => {
                    let file = save(settings, index, program);
                    failures.push(format!(
                        "seed {} program {index}: the interpreter fails ({e}); the generator \
                         made an ill-defined program: {file}",
                        settings.seed
                    ));
                    continue;
                }
            };
            if let Some(word) = (0..expected.len()).find(|&w| expected[w] != actual[w]) {
                let file = save(settings, index, program);
                failures.push(format!(
                    "seed {} program {index} on {runtime:?} (subgroup size {size}): thread {} \
                     word {} is {:#010x}, the interpreter says {:#010x}\n  program: {file}\n  \
                     rerun: {}",
                    settings.seed,
                    word / WORDS,
                    word % WORDS,
                    actual[word],
                    expected[word],
                    settings.rerun(index)
                ));
            }
        }
    }
    (failures, sizes)
}

fn compile(settings: &Settings, name: &str, programs: &[Program]) -> Result<Compiled, String> {
    let options = CompileOptions {
        targets: settings.targets.clone(),
        ..CompileOptions::default()
    };
    try_compile_source_and_validate(name, &batch_shader(programs), &options)
}

/// A batch failed to compile or validate: finds the programs that fail alone.
fn compile_failures(
    settings: &Settings,
    indices: &[usize],
    programs: &[Program],
    batch_error: &str,
) -> Vec<String> {
    let mut failures = Vec::new();
    for (&index, program) in indices.iter().zip(programs) {
        let name = format!("seed-{}-program-{index}.hlsl", settings.seed);
        if let Err(e) = compile(settings, &name, std::slice::from_ref(program)) {
            let file = save(settings, index, program);
            failures.push(format!(
                "seed {} program {index} does not compile or validate: {file}\n  rerun: {}\n{e}",
                settings.seed,
                settings.rerun(index)
            ));
        }
    }
    if failures.is_empty() {
        failures.push(format!(
            "the batch of programs {}..={} fails, though each alone passes:\n{batch_error}",
            indices[0],
            indices[indices.len() - 1]
        ));
    }
    failures
}
