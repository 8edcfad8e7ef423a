//! GPU time of the Compact kernel (`shaders/Compact.hlsl`) compiled by different compilers:
//! `gpu_time_compact [--elements N] [--repetitions R] [--rounds K] NAME=FILE.spv ...`.
//!
//! Each SPIR-V module must have the compute entry point `CSMain` with `Values` at set 0,
//! binding 0, `Kept` at binding 1 and `Count` at binding 2 (what oneshader and glslang both
//! give Compact's registers t0, u1, u2). The modules are timed in turns, K rounds of R
//! dispatches each, on the system's Vulkan driver (docs/performance.md); every module's
//! output is checked against the CPU: the count of values above 0.5, and the kept values as
//! a multiset (their order depends on the scheduling of waves). Validate the modules with
//! spirv-val first: this program does not.

use std::process::ExitCode;

use oneshader_harness::{time_compute, BufferBinding, ComputeJob, VulkanDriver};

struct Args {
    elements: usize,
    repetitions: u32,
    rounds: u32,
    modules: Vec<(String, Vec<u32>)>,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        elements: 64 << 20,
        repetitions: 20,
        rounds: 3,
        modules: Vec::new(),
    };
    let mut iter = std::env::args().skip(1);
    while let Some(arg) = iter.next() {
        let mut number = |what: &str| {
            iter.next()
                .and_then(|v| v.parse::<usize>().ok())
                .ok_or(format!("{what} needs a number"))
        };
        match arg.as_str() {
            "--elements" => args.elements = number("--elements")?,
            "--repetitions" => args.repetitions = number("--repetitions")? as u32,
            "--rounds" => args.rounds = number("--rounds")? as u32,
            module => {
                let (name, path) = module
                    .split_once('=')
                    .ok_or(format!("{module}: expected NAME=FILE.spv"))?;
                let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
                if bytes.len() % 4 != 0 {
                    return Err(format!("{path}: not a whole number of SPIR-V words"));
                }
                let words = bytes
                    .chunks_exact(4)
                    .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
                    .collect();
                args.modules.push((name.to_owned(), words));
            }
        }
    }
    if args.modules.is_empty() || args.elements == 0 || args.elements % 64 != 0 {
        return Err("usage: gpu_time_compact [--elements N (a multiple of 64)] \
                    [--repetitions R] [--rounds K] NAME=FILE.spv ..."
            .into());
    }
    Ok(args)
}

/// Deterministic values in [0, 1), about half of them above 0.5.
fn input_values(count: usize) -> Vec<f32> {
    (0..count as u32)
        .map(|i| {
            let mut h = i.wrapping_mul(0x9E37_79B9) ^ 0x85EB_CA6B;
            h ^= h >> 15;
            h = h.wrapping_mul(0x2C1B_3C6D);
            h ^= h >> 12;
            (h >> 8) as f32 / (1u32 << 24) as f32
        })
        .collect()
}

fn check_output(values: &[f32], kept: &[f32], count: u32) -> Result<(), String> {
    let mut expected: Vec<f32> = values.iter().copied().filter(|&v| v > 0.5).collect();
    if count as usize != expected.len() {
        return Err(format!(
            "Count is {count}, the CPU counts {}",
            expected.len()
        ));
    }
    let mut got = kept[..expected.len()].to_vec();
    got.sort_by(f32::total_cmp);
    expected.sort_by(f32::total_cmp);
    if got != expected {
        return Err("the kept values differ from the CPU's".into());
    }
    Ok(())
}

fn run() -> Result<(), String> {
    let args = parse_args()?;
    let values = input_values(args.elements);
    let workgroups = u32::try_from(args.elements / 64).map_err(|_| "too many elements")?;
    let jobs: Vec<(String, ComputeJob)> = args
        .modules
        .iter()
        .map(|(name, spirv)| {
            let job = ComputeJob {
                spirv: spirv.clone(),
                entry_point: "CSMain".into(),
                workgroups: [workgroups, 1, 1],
                buffers: vec![
                    BufferBinding::read_only_f32(0, 0, &values),
                    BufferBinding::zeroed_storage(0, 1, 4 * args.elements),
                    BufferBinding::zeroed_storage(0, 2, 4),
                ],
                push_constants: Vec::new(),
            };
            (name.clone(), job)
        })
        .collect();
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); jobs.len()];
    for round in 0..args.rounds {
        for (index, (name, job)) in jobs.iter().enumerate() {
            let timing = time_compute(VulkanDriver::System, job, args.repetitions)?;
            if round == 0 {
                let count = timing.output.u32s(2)?[0];
                let kept = timing.output.f32s(1)?;
                check_output(&values, &kept, count).map_err(|e| format!("{name}: {e}"))?;
                println!(
                    "{name}: output matches the CPU ({count} of {} kept) on {}",
                    args.elements, timing.output.device.name
                );
            }
            println!(
                "round {round} {name}: median {:.1} us over {} dispatches",
                timing.median_ns() / 1000.0,
                args.repetitions
            );
            times[index].extend(timing.dispatch_ns);
        }
    }
    println!(
        "\n| module | median (us) | min (us) | max (us) | GB/s read | vs {} |",
        jobs[0].0
    );
    println!("|---|---|---|---|---|---|");
    let medians: Vec<f64> = times
        .iter()
        .map(|t| {
            let mut s = t.clone();
            s.sort_by(f64::total_cmp);
            s[s.len() / 2]
        })
        .collect();
    for (index, (name, _)) in jobs.iter().enumerate() {
        let t = &times[index];
        let min = t.iter().copied().fold(f64::INFINITY, f64::min);
        let max = t.iter().copied().fold(0.0, f64::max);
        let bytes = 4.0 * args.elements as f64;
        println!(
            "| {name} | {:.1} | {:.1} | {:.1} | {:.0} | {:+.2}% |",
            medians[index] / 1000.0,
            min / 1000.0,
            max / 1000.0,
            bytes / medians[index],
            (medians[index] / medians[0] - 1.0) * 100.0
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("gpu_time_compact: {message}");
            ExitCode::FAILURE
        }
    }
}
