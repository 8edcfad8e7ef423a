//! Tests of the SPIR-V backend: every output passes `spirv-val` and contains the
//! instructions the mapping promises, read back with rspirv.

mod builder;
mod compact;
mod control_flow;
mod execution;
mod io;
mod math;
mod memory;
mod ssa;
mod wave;
mod words;

use std::io::Write;
use std::process::Command;

use oneshader_ir::{Module, ModuleInfo};
use rspirv::dr;
use rspirv::spirv::{Capability, Op};

use crate::{write_entry_point, Options};

/// Compiles entry point 0 of `module`, failing the test with the diagnostics.
pub fn compile(module: &Module) -> Vec<u32> {
    match write_entry_point(module, &ModuleInfo::new(module), 0, &Options::default()) {
        Ok(words) => words,
        Err(diagnostics) => panic!("the SPIR-V backend failed: {diagnostics:#?}"),
    }
}

/// Runs `spirv-val --target-env vulkan1.2` on `words`; a missing binary fails the test.
pub fn validate(words: &[u32]) {
    let mut file = tempfile();
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    file.1
        .write_all(&bytes)
        .expect("the temporary file is writable");
    drop(file.1);
    let output = Command::new("spirv-val")
        .args(["--target-env", "vulkan1.2"])
        .arg(&file.0)
        .output()
        .unwrap_or_else(|error| {
            panic!("cannot run spirv-val ({error}): run scripts/install-test-deps.sh to install SPIRV-Tools")
        });
    let _ = std::fs::remove_file(&file.0);
    assert!(
        output.status.success(),
        "spirv-val rejected the module:\n{}{}\n{}",
        String::from_utf8_lossy(&output.stderr),
        String::from_utf8_lossy(&output.stdout),
        disassemble(words)
    );
    file.0.clear();
}

/// A new temporary file, unique to this process and call.
fn tempfile() -> (std::path::PathBuf, std::fs::File) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let path = std::env::temp_dir().join(format!(
        "oneshader-spirv-test-{}-{}.spv",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ));
    let file = std::fs::File::create(&path).expect("the temporary directory is writable");
    (path, file)
}

/// The module read back from its words.
pub fn load(words: &[u32]) -> dr::Module {
    dr::load_words(words).expect("the words parse as SPIR-V")
}

/// The text form of `words`, for failure messages.
pub fn disassemble(words: &[u32]) -> String {
    use rspirv::binary::Disassemble;
    load(words).disassemble()
}

/// Every instruction of every function body.
pub fn body_instructions(module: &dr::Module) -> Vec<&dr::Instruction> {
    module
        .functions
        .iter()
        .flat_map(|f| f.blocks.iter())
        .flat_map(|b| b.label.iter().chain(b.instructions.iter()))
        .collect()
}

/// The opcodes of every function body's instructions.
pub fn body_ops(words: &[u32]) -> Vec<Op> {
    body_instructions(&load(words))
        .iter()
        .map(|i| i.class.opcode)
        .collect()
}

/// The capabilities declared.
pub fn capabilities(words: &[u32]) -> Vec<Capability> {
    load(words)
        .capabilities
        .iter()
        .filter_map(|i| match i.operands.first() {
            Some(dr::Operand::Capability(c)) => Some(*c),
            _ => None,
        })
        .collect()
}

/// The `GLSL.std.450` instruction numbers used.
pub fn glsl_ops(words: &[u32]) -> Vec<u32> {
    body_instructions(&load(words))
        .iter()
        .filter(|i| i.class.opcode == Op::ExtInst)
        .filter_map(|i| match i.operands.get(1) {
            Some(dr::Operand::LiteralExtInstInteger(n)) => Some(*n),
            _ => None,
        })
        .collect()
}

/// Compiles, validates and returns the words.
pub fn compile_valid(module: &Module) -> Vec<u32> {
    let words = compile(module);
    if std::env::var_os("ONESHADER_PRINT_SPIRV").is_some() {
        println!("{}", disassemble(&words));
    }
    validate(&words);
    words
}
