//! The outputs follow the mapping table of `oneshader_ir` (`WaveOp::info`,
//! `bit_function_info`), which `docs/intrinsics.md` is rendered from: every wave,
//! quad and bit intrinsic is compiled on each operand type it takes, every output is
//! validated, and the SPIR-V (disassembled), MSL and WGSL must use exactly what the
//! table says, with the subgroup operations reflection reports.

use std::collections::BTreeSet;

use oneshader::{CompileOptions, Target};
use oneshader_e2e::{compile_source_and_validate, disassemble};
use oneshader_ir::mapping::BIT_FUNCTIONS;
use oneshader_ir::{bit_function_info, WaveOp};
/// The `OpGroupNonUniform*` instructions of a disassembly.
fn group_ops(disassembly: &str) -> BTreeSet<String> {
    disassembly
        .split_whitespace()
        .filter(|w| w.starts_with("OpGroupNonUniform"))
        .map(str::to_string)
        .collect()
}

/// The HLSL statement that calls `op` on `x` (of type `t`), storing a uint into `Out`.
fn call(op: WaveOp, t: &str, x: &str) -> String {
    use WaveOp::*;
    let value = |e: String| {
        if t.ends_with(|c: char| c.is_ascii_digit()) {
            format!("Out[id.x] = asuint({e}.x);")
        } else {
            format!("Out[id.x] = asuint({e});")
        }
    };
    let lane = "(L[0] & 3u)";
    match op {
        GetLaneCount | GetLaneIndex => format!("Out[id.x] = {}();", op.hlsl_name()),
        IsFirstLane => "Out[id.x] = WaveIsFirstLane() ? 1u : 0u;".into(),
        ActiveAnyTrue | ActiveAllTrue => {
            format!("Out[id.x] = {}(L[id.x] > 1u) ? 1u : 0u;", op.hlsl_name())
        }
        ActiveBallot => "Out[id.x] = WaveActiveBallot(L[id.x] > 1u).y;".into(),
        ActiveCountBits | PrefixCountBits => {
            format!("Out[id.x] = {}(L[id.x] > 1u);", op.hlsl_name())
        }
        ActiveAllEqual => format!("Out[id.x] = all(WaveActiveAllEqual({x})) ? 1u : 0u;"),
        ReadLaneAt | QuadReadLaneAt => value(format!("{}({x}, {lane})", op.hlsl_name())),
        _ => value(format!("{}({x})", op.hlsl_name())),
    }
}

/// A compute shader with operands `xi` of the types `types` (read from `In`) and a
/// uint buffer `L`, running `statements`.
fn shader(types: &[&str], statements: &[String]) -> String {
    let operands: String = types
        .iter()
        .enumerate()
        .map(|(i, t)| format!("    {t} x{i} = ({t})In[id.x];\n"))
        .collect();
    format!(
        "StructuredBuffer<int> In : register(t0);\n\
         StructuredBuffer<uint> L : register(t1);\n\
         RWStructuredBuffer<uint> Out : register(u2);\n\
         [numthreads(64, 1, 1)]\n\
         void main(uint3 id : SV_DispatchThreadID) {{\n{operands}    {}\n}}\n",
        statements.join("\n    ")
    )
}

#[test]
fn every_wave_op_compiles_to_what_its_table_row_says() {
    let mut failures = Vec::new();
    for op in WaveOp::ALL {
        let info = op.info();
        let bitwise = matches!(
            op,
            WaveOp::ActiveBitAnd | WaveOp::ActiveBitOr | WaveOp::ActiveBitXor
        );
        let types: &[&str] = if bitwise {
            &["int", "uint2"]
        } else {
            &["int", "uint2", "float3"]
        };
        {
            let statements: Vec<String> = types
                .iter()
                .enumerate()
                .map(|(i, t)| call(op, t, &format!("x{i}")))
                .collect();
            let text = shader(types, &statements);
            let name = format!("{}.hlsl", op.hlsl_name());
            let compiled = compile_source_and_validate(&name, &text, &CompileOptions::default());
            let dis = disassemble(&compiled.spirv());
            let mut problems = Vec::new();
            if !dis.contains(&format!("OpCapability {}\n", info.capability)) {
                problems.push(format!("no OpCapability {}", info.capability));
            }
            let listed: BTreeSet<String> = info
                .spirv
                .iter()
                .filter(|s| s.starts_with("Op"))
                .map(|s| s.to_string())
                .collect();
            let used = group_ops(&dis);
            if !used.is_subset(&listed) {
                problems.push(format!("SPIR-V uses {used:?}, the table lists {listed:?}"));
            }
            for built_in in info.spirv.iter().filter(|s| s.starts_with("BuiltIn ")) {
                if !dis.contains(built_in) {
                    problems.push(format!("SPIR-V lacks {built_in}"));
                }
            }
            if !listed.is_empty() && used.is_empty() {
                problems.push("SPIR-V uses no OpGroupNonUniform instruction".into());
            }
            let msl = compiled.text(Target::Msl);
            for f in info.msl {
                if !msl.contains(f) {
                    problems.push(format!("MSL lacks {f}"));
                }
            }
            let wgsl = compiled.text(Target::Wgsl);
            for f in info.wgsl {
                if !wgsl.contains(f) {
                    problems.push(format!("WGSL lacks {f}"));
                }
            }
            let reflected = compiled
                .reflection()
                .entry_point(&compiled.entry)
                .expect("entry point")
                .subgroup_operations;
            if reflected != op.subgroup_operations() {
                problems.push(format!(
                    "reflection reports {reflected}, the table {}",
                    op.subgroup_operations()
                ));
            }
            if !problems.is_empty() {
                failures.push(format!("{name}: {}", problems.join("; ")));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_bit_function_compiles_to_what_its_table_row_says() {
    let mut failures = Vec::new();
    for fun in BIT_FUNCTIONS {
        let info = bit_function_info(fun).expect("a bit function");
        {
            let statements = [
                format!("Out[id.x] = asuint({}(x0));", info.hlsl),
                format!("Out[id.x] = asuint({}(x1).z);", info.hlsl),
            ];
            let text = shader(&["int", "uint3"], &statements);
            let name = format!("{}.hlsl", info.hlsl);
            let compiled = compile_source_and_validate(&name, &text, &CompileOptions::default());
            let dis = disassemble(&compiled.spirv());
            let mut problems = Vec::new();
            if !info.spirv.iter().any(|op| dis.contains(op)) {
                problems.push(format!("SPIR-V uses none of {:?}", info.spirv));
            }
            let msl = compiled.text(Target::Msl);
            for f in info.msl {
                if !msl.contains(f) {
                    problems.push(format!("MSL lacks {f}"));
                }
            }
            let wgsl = compiled.text(Target::Wgsl);
            for f in info.wgsl {
                if !wgsl.contains(f) {
                    problems.push(format!("WGSL lacks {f}"));
                }
            }
            if !problems.is_empty() {
                failures.push(format!("{name}: {}", problems.join("; ")));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
