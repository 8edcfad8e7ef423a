//! The output languages oneshader compiles to.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// An output language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Target {
    /// SPIR-V 1.5 binary for Vulkan 1.2.
    SpirV,
    /// Metal Shading Language 2.4 source.
    Msl,
    /// WGSL source for WebGPU.
    Wgsl,
}

impl Target {
    /// Every target, in the order the compiler emits them.
    pub const ALL: [Target; 3] = [Target::SpirV, Target::Msl, Target::Wgsl];

    /// The extension of an output file of this target, without the dot.
    pub fn file_extension(self) -> &'static str {
        match self {
            Target::SpirV => "spv",
            Target::Msl => "metal",
            Target::Wgsl => "wgsl",
        }
    }

    /// The name on the command line: `spirv`, `msl`, `wgsl`.
    pub fn command_line_name(self) -> &'static str {
        match self {
            Target::SpirV => "spirv",
            Target::Msl => "msl",
            Target::Wgsl => "wgsl",
        }
    }

    /// Whether the output is text (MSL, WGSL) rather than a binary (SPIR-V).
    pub fn is_text(self) -> bool {
        !matches!(self, Target::SpirV)
    }
}

/// Prints `SpirV`, `Msl` or `Wgsl`.
impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Target::SpirV => "SpirV",
            Target::Msl => "Msl",
            Target::Wgsl => "Wgsl",
        })
    }
}

/// A target name that is none of `spirv`, `msl`, `wgsl`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown target '{0}': expected one of spirv, msl, wgsl")]
pub struct UnknownTarget(pub String);

/// Parses the command-line name (`spirv`, `msl`, `wgsl`), ignoring ASCII case.
impl FromStr for Target {
    type Err = UnknownTarget;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        Target::ALL
            .into_iter()
            .find(|t| t.command_line_name().eq_ignore_ascii_case(name))
            .ok_or_else(|| UnknownTarget(name.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_extensions_and_display() {
        assert_eq!("spirv".parse(), Ok(Target::SpirV));
        assert_eq!("MSL".parse(), Ok(Target::Msl));
        assert_eq!("wgsl".parse(), Ok(Target::Wgsl));
        assert_eq!(
            "hlsl".parse::<Target>(),
            Err(UnknownTarget("hlsl".to_string()))
        );
        let shown: Vec<String> = Target::ALL.iter().map(|t| t.to_string()).collect();
        assert_eq!(shown, ["SpirV", "Msl", "Wgsl"]);
        let extensions: Vec<&str> = Target::ALL.iter().map(|t| t.file_extension()).collect();
        assert_eq!(extensions, ["spv", "metal", "wgsl"]);
    }
}
