//! Writes a generated HLSL benchmark shader of about LINES lines to stdout or FILE:
//! `cargo run --release -p oneshader-harness --example generate_shader -- LINES [FILE]`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(lines) = args.next().and_then(|a| a.parse::<usize>().ok()) else {
        eprintln!("usage: generate_shader LINES [FILE]");
        return ExitCode::from(2);
    };
    let shader = oneshader_harness::generated_shader(lines);
    match args.next() {
        Some(path) => {
            if let Err(e) = std::fs::write(&path, shader) {
                eprintln!("cannot write {path}: {e}");
                return ExitCode::FAILURE;
            }
        }
        None => print!("{shader}"),
    }
    ExitCode::SUCCESS
}
