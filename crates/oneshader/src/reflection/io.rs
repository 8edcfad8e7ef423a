//! The stage inputs and outputs of an entry point: semantics, locations and types.

use oneshader_ir::{Binding, BuiltIn, EntryPoint, Interpolation, Module, Sampling, TypeInner};
use serde::{Deserialize, Serialize};

use super::memory::type_name;

/// One value an entry point receives from or hands to the pipeline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StageVariable {
    /// For inputs, the entry point parameter it comes from (`uv`; for a struct
    /// parameter, the parameter's name); for outputs, the compiled interface's name
    /// (`return`, or `member_N` of the flattened output struct). The semantic, not the
    /// name, identifies a variable.
    pub name: String,
    /// The HLSL semantic as written for user values (`TEXCOORD0`, `SV_Target1`), or the
    /// system value's `SV_` name (`SV_Position`, `SV_DispatchThreadID`).
    pub semantic: String,
    /// The location (`[[vk::location]]`, `@location`, Metal `[[user(locn)]]`) for user
    /// values and render targets; `None` for system values.
    pub location: Option<u32>,
    /// Whether it is a system value (`SV_*` other than `SV_Target`).
    pub built_in: bool,
    /// The HLSL type the pipeline sees (`float4`, `uint`).
    #[serde(rename = "type")]
    pub ty: String,
    /// `perspective`, `linear` (`noperspective`) or `flat` (`nointerpolation`), for
    /// varyings.
    pub interpolation: Option<String>,
    /// `center`, `centroid` or `sample`, for varyings.
    pub sampling: Option<String>,
}

/// The inputs and outputs of `entry`, in declaration order (struct members flattened).
pub(super) fn stage_io(
    module: &Module,
    entry: &EntryPoint,
) -> (Vec<StageVariable>, Vec<StageVariable>) {
    let mut inputs = Vec::with_capacity(entry.function.arguments.len());
    for (index, argument) in entry.function.arguments.iter().enumerate() {
        // The front end's entry wrapper names its flattened arguments `<param>_<index>`.
        let name = strip_index(&argument.name, index).unwrap_or(&argument.name);
        collect(
            module,
            name,
            argument.ty,
            argument.binding.as_ref(),
            &mut inputs,
        );
    }
    let mut outputs = Vec::new();
    if let Some(result) = &entry.function.result {
        collect(
            module,
            "return",
            result.ty,
            result.binding.as_ref(),
            &mut outputs,
        );
    }
    (inputs, outputs)
}

/// `name` without `_<index>` at its end, if it ends so (without formatting the suffix).
fn strip_index(name: &str, index: usize) -> Option<&str> {
    // The digits from the last.
    let mut rest = name;
    let mut value = index;
    loop {
        rest = rest.strip_suffix(char::from(b'0' + (value % 10) as u8))?;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    rest.strip_suffix('_')
}

fn collect(
    module: &Module,
    name: &str,
    ty: oneshader_ir::Handle<oneshader_ir::Type>,
    binding: Option<&Binding>,
    into: &mut Vec<StageVariable>,
) {
    match (binding, module.inner(ty)) {
        (Some(binding), _) => into.push(variable(module, name, ty, binding)),
        (None, TypeInner::Struct { members, .. }) => {
            for member in members {
                collect(
                    module,
                    &member.name,
                    member.ty,
                    member.binding.as_ref(),
                    into,
                );
            }
        }
        (None, _) => {}
    }
}

fn variable(
    module: &Module,
    name: &str,
    ty: oneshader_ir::Handle<oneshader_ir::Type>,
    binding: &Binding,
) -> StageVariable {
    let ty = type_name(module, ty);
    match binding {
        Binding::BuiltIn(built_in) => StageVariable {
            name: name.to_string(),
            semantic: built_in_semantic(*built_in).to_string(),
            location: None,
            built_in: true,
            ty,
            interpolation: None,
            sampling: None,
        },
        Binding::Location {
            location,
            semantic,
            interpolation,
            sampling,
        } => StageVariable {
            name: name.to_string(),
            semantic: semantic.clone(),
            location: Some(*location),
            built_in: false,
            ty,
            interpolation: interpolation.map(|i| {
                match i {
                    Interpolation::Perspective => "perspective",
                    Interpolation::Linear => "linear",
                    Interpolation::Flat => "flat",
                }
                .to_string()
            }),
            sampling: sampling.map(|s| {
                match s {
                    Sampling::Center => "center",
                    Sampling::Centroid => "centroid",
                    Sampling::Sample => "sample",
                }
                .to_string()
            }),
        },
    }
}

/// The HLSL system-value semantic of a built-in.
fn built_in_semantic(built_in: BuiltIn) -> &'static str {
    match built_in {
        BuiltIn::Position => "SV_Position",
        BuiltIn::VertexIndex => "SV_VertexID",
        BuiltIn::InstanceIndex => "SV_InstanceID",
        BuiltIn::FrontFacing => "SV_IsFrontFace",
        BuiltIn::FragDepth => "SV_Depth",
        BuiltIn::SampleIndex => "SV_SampleIndex",
        BuiltIn::GlobalInvocationId => "SV_DispatchThreadID",
        BuiltIn::LocalInvocationId => "SV_GroupThreadID",
        BuiltIn::LocalInvocationIndex => "SV_GroupIndex",
        BuiltIn::WorkGroupId => "SV_GroupID",
    }
}

#[cfg(test)]
mod tests {
    use super::strip_index;

    #[test]
    fn the_index_suffix_is_stripped_as_formatted() {
        for (name, index) in [
            ("uv_0", 0),
            ("uv_12", 12),
            ("uv_12", 2),
            ("uv12", 12),
            ("_0", 0),
        ] {
            assert_eq!(
                strip_index(name, index),
                name.strip_suffix(&format!("_{index}")),
                "{name} {index}"
            );
        }
    }
}
