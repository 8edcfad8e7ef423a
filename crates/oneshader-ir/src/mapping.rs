//! The mapping of HLSL's wave, quad and bit intrinsics to SPIR-V, MSL and WGSL, as
//! data: [`WaveOp::info`] for the wave and quad operations, [`bit_function_info`] for
//! the bit functions. [`intrinsics_markdown`] renders both as `docs/intrinsics.md`;
//! a test fails when the file differs from the rendering.

use std::fmt::Write as _;

use crate::{MathFunction, SubgroupOperations, WaveOp};

/// How one bit intrinsic maps to each target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BitFunctionInfo {
    /// The HLSL name.
    pub hlsl: &'static str,
    /// What it returns (DXC's signature).
    pub returns: &'static str,
    /// The SPIR-V instructions, by operand signedness where they differ.
    pub spirv: &'static [&'static str],
    /// The MSL functions the output uses.
    pub msl: &'static [&'static str],
    /// The WGSL built-in functions the output uses.
    pub wgsl: &'static [&'static str],
    /// How it is written where it is not one call.
    pub notes: &'static str,
}

/// The bit functions, in the order of the table.
pub const BIT_FUNCTIONS: [MathFunction; 4] = [
    MathFunction::FirstBitHigh,
    MathFunction::FirstBitLow,
    MathFunction::CountBits,
    MathFunction::ReverseBits,
];

/// How bit function `fun` maps to each target; `None` for other math functions.
pub fn bit_function_info(fun: MathFunction) -> Option<BitFunctionInfo> {
    Some(match fun {
        MathFunction::FirstBitHigh => BitFunctionInfo {
            hlsl: "firstbithigh",
            returns: "uint of the operand's shape",
            spirv: &["FindSMsb", "FindUMsb"],
            msl: &["clz"],
            wgsl: &["firstLeadingBit"],
            notes: "int: the first bit from the top that differs from the sign (0 and -1 give \
                    0xFFFFFFFF); SPIR-V: GLSL.std.450 FindSMsb for int, FindUMsb for uint; MSL: \
                    polyfill 31 - clz(x ^ (x >> 31)) for int, 31 - clz(x) for uint, 0xFFFFFFFF \
                    where no bit is found",
        },
        MathFunction::FirstBitLow => BitFunctionInfo {
            hlsl: "firstbitlow",
            returns: "uint of the operand's shape",
            spirv: &["FindILsb"],
            msl: &["ctz"],
            wgsl: &["firstTrailingBit"],
            notes: "0 gives 0xFFFFFFFF; SPIR-V: GLSL.std.450 FindILsb; MSL: polyfill ctz(x), \
                    0xFFFFFFFF for 0",
        },
        MathFunction::CountBits => BitFunctionInfo {
            hlsl: "countbits",
            returns: "uint of the operand's shape",
            spirv: &["OpBitCount"],
            msl: &["popcount"],
            wgsl: &["countOneBits"],
            notes: "",
        },
        MathFunction::ReverseBits => BitFunctionInfo {
            hlsl: "reversebits",
            returns: "the operand's type",
            spirv: &["OpBitReverse"],
            msl: &["reverse_bits"],
            wgsl: &["reverseBits"],
            notes: "",
        },
        _ => return None,
    })
}

/// Where the rendered table lives, relative to the repository root.
pub const INTRINSICS_DOC: &str = "docs/intrinsics.md";

fn code_list(items: &[&str]) -> String {
    items
        .iter()
        .map(|i| format!("`{i}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn cell(text: &str) -> String {
    if text.is_empty() {
        "".to_string()
    } else {
        text.replace('|', "\\|")
    }
}

/// `docs/intrinsics.md`: the mapping table of every wave, quad and bit intrinsic.
pub fn intrinsics_markdown() -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# Intrinsics: wave, quad and bit functions on every target\n"
    );
    let _ = writeln!(
        s,
        "<!-- Generated from `WaveOp::info` and `bit_function_info` in \
         crates/oneshader-ir (src/wave.rs, src/mapping.rs). Do not edit: change the table \
         there and run `ONESHADER_BLESS=1 cargo test -p oneshader-ir intrinsics_doc`. -->\n"
    );
    let _ = writeln!(
        s,
        "The compiler uses these tables: the SPIR-V backend declares each wave operation's \
         capability from it, the MSL and WGSL backends take the function of every \
         operation that is one call from it, and reflection's subgroup operations come from \
         `WaveOp::subgroup_operations`. `tests/e2e/mapping.rs` compiles every intrinsic and \
         checks each output against the tables; `tests/e2e/waves.rs` and \
         `tests/e2e/bits.rs` prove the semantics by execution (see docs/testing.md).\n"
    );
    let _ = writeln!(s, "## Wave and quad intrinsics\n");
    let _ = writeln!(
        s,
        "Operands: 32-bit `int`, `uint` and `float` scalars and vectors (bools travel as \
         `uint`). Every wave operation runs over the active lanes only. Every one declares \
         the SPIR-V capability `GroupNonUniform` and needs the `Basic` subgroup operation \
         besides the bit listed. A WGSL output that uses any of them starts with \
         `enable subgroups;` and `diagnostic(off, subgroup_uniformity);`, and needs the \
         WebGPU feature `subgroups`.\n"
    );
    let _ = writeln!(
        s,
        "| HLSL | SPIR-V | capability | SubgroupOperations | MSL | WGSL | notes | stage limits |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|");
    for op in WaveOp::ALL {
        let info = op.info();
        let bits = op.subgroup_operations();
        let specific: Vec<String> = SubgroupOperations::NAMES
            .iter()
            .filter(|(bit, _)| *bit != SubgroupOperations::BASIC && bits.contains(*bit))
            .map(|(bit, name)| format!("{name} (0x{:x})", bit.bits()))
            .collect();
        let specific = if specific.is_empty() {
            "Basic (0x1)".to_string()
        } else {
            specific.join(", ")
        };
        let _ = writeln!(
            s,
            "| `{}` | {} | `{}` | {} | {} | {} | {} | {} |",
            op.hlsl_name(),
            code_list(info.spirv),
            info.capability,
            specific,
            code_list(info.msl),
            code_list(info.wgsl),
            cell(info.notes),
            cell(info.stage_limits)
        );
    }
    let _ = writeln!(s, "\n## Bit intrinsics\n");
    let _ = writeln!(
        s,
        "Operands: `int` and `uint` scalars and vectors, per component. No stage limits.\n"
    );
    let _ = writeln!(s, "| HLSL | returns | SPIR-V | MSL | WGSL | notes |");
    let _ = writeln!(s, "|---|---|---|---|---|---|");
    for fun in BIT_FUNCTIONS {
        let Some(info) = bit_function_info(fun) else {
            continue;
        };
        let _ = writeln!(
            s,
            "| `{}` | {} | {} | {} | {} | {} |",
            info.hlsl,
            info.returns,
            code_list(info.spirv),
            code_list(info.msl),
            code_list(info.wgsl),
            cell(info.notes)
        );
    }
    let _ = writeln!(s, "\n## Not supported\n");
    let _ = writeln!(
        s,
        "`WaveMatch` and `WaveMultiPrefix*` are OSH0350 errors: they need partitioned \
         subgroup operations, which no target offers portably."
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn intrinsics_doc_is_the_rendering_of_the_table() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(INTRINSICS_DOC);
        let rendered = intrinsics_markdown();
        if std::env::var("ONESHADER_BLESS").as_deref() == Ok("1") {
            std::fs::write(&path, &rendered).expect("write docs/intrinsics.md");
            return;
        }
        let current = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            current == rendered,
            "{INTRINSICS_DOC} differs from the table in crates/oneshader-ir; regenerate it with \
             `ONESHADER_BLESS=1 cargo test -p oneshader-ir intrinsics_doc`"
        );
    }

    #[test]
    fn every_wave_op_and_bit_function_has_a_full_row() {
        for op in WaveOp::ALL {
            let info = op.info();
            assert!(!info.spirv.is_empty() && !info.msl.is_empty() && !info.wgsl.is_empty());
            assert!(info.capability.starts_with("GroupNonUniform"), "{op:?}");
        }
        for fun in BIT_FUNCTIONS {
            assert!(bit_function_info(fun).is_some(), "{fun:?}");
        }
        assert_eq!(bit_function_info(MathFunction::Abs), None);
    }
}
