//! Entry point inputs and outputs: one `Input`/`Output` variable per built-in or
//! location, struct-typed arguments and results split into one per member.

use oneshader_ir::{
    Binding, BuiltIn, Handle, Interpolation, Sampling, ScalarKind, ShaderStage, Span, Type,
    TypeInner,
};
use rspirv::spirv::{self, Capability, Decoration, ExecutionMode, Op, StorageClass, Word};

use crate::error::{Error, Result};
use crate::function::FunctionWriter;
use crate::module::Operand;
use crate::writer::Writer;

/// One IR value crossing the interface: a variable, or one per struct member.
#[derive(Clone, Debug)]
pub(crate) enum Io {
    /// A value in one variable.
    Single {
        /// The variable.
        variable: Word,
        /// The value's type.
        ty: Word,
    },
    /// A struct, one variable per member.
    Members {
        /// The struct's type.
        ty: Word,
        /// Each member's variable and type.
        members: Vec<(Word, Word)>,
    },
}

/// The variables of an entry point's arguments and result.
#[derive(Clone, Debug)]
pub(crate) struct EntryInterface {
    /// One per argument.
    pub inputs: Vec<Io>,
    /// The result's, if any.
    pub output: Option<Io>,
}

/// Whether a variable is read or written by the entry point.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Input,
    Output,
}

/// Declares the interface variables of the entry point being written as `entry_id`.
pub(crate) fn declare(w: &mut Writer<'_>, entry_id: Word) -> Result<EntryInterface> {
    let entry = w.entry;
    let span = entry.span;
    let mut inputs = Vec::with_capacity(entry.function.arguments.len());
    for argument in &entry.function.arguments {
        inputs.push(io(
            w,
            entry_id,
            argument.ty,
            argument.binding.as_ref(),
            &argument.name,
            Direction::Input,
            span,
        )?);
    }
    let output = match &entry.function.result {
        Some(result) => Some(io(
            w,
            entry_id,
            result.ty,
            result.binding.as_ref(),
            "",
            Direction::Output,
            span,
        )?),
        None => None,
    };
    Ok(EntryInterface { inputs, output })
}

/// The variables of one argument or result.
fn io(
    w: &mut Writer<'_>,
    entry_id: Word,
    ty: Handle<Type>,
    binding: Option<&Binding>,
    name: &str,
    direction: Direction,
    span: Option<Span>,
) -> Result<Io> {
    if let Some(binding) = binding {
        let variable = variable(w, entry_id, ty, binding, name, direction, span)?;
        let ty = w.value_type(ty)?;
        return Ok(Io::Single { variable, ty });
    }
    let TypeInner::Struct { members, .. } = w.inner(ty, span)? else {
        return Err(Error::malformed(
            span,
            format!("entry point value '{name}' has neither a semantic nor struct members"),
        ));
    };
    let mut variables = Vec::with_capacity(members.len());
    for member in members {
        let Some(binding) = &member.binding else {
            return Err(Error::malformed(
                span,
                format!(
                    "entry point struct member '{}' has no semantic",
                    member.name
                ),
            ));
        };
        let variable = variable(
            w,
            entry_id,
            member.ty,
            binding,
            &member.name,
            direction,
            span,
        )?;
        variables.push((variable, w.value_type(member.ty)?));
    }
    Ok(Io::Members {
        ty: w.value_type(ty)?,
        members: variables,
    })
}

/// One interface variable with its decorations.
fn variable(
    w: &mut Writer<'_>,
    entry_id: Word,
    ty: Handle<Type>,
    binding: &Binding,
    name: &str,
    direction: Direction,
    span: Option<Span>,
) -> Result<Word> {
    let stage = w.entry.stage;
    let class = match direction {
        Direction::Input => StorageClass::Input,
        Direction::Output => StorageClass::Output,
    };
    let value_type = w.value_type(ty)?;
    let pointer = w.pointer_type(class, value_type);
    let id = w.global_variable(pointer, class, None);
    w.name(id, name);
    match binding {
        Binding::BuiltIn(built_in) => {
            let spirv_built_in = built_in_of(*built_in, stage, direction, span)?;
            w.b.decorate(id, Decoration::BuiltIn, [Operand::BuiltIn(spirv_built_in)]);
            match built_in {
                BuiltIn::FragDepth => {
                    w.b.execution_mode(entry_id, ExecutionMode::DepthReplacing, [])
                }
                BuiltIn::SampleIndex => {
                    w.capability(Capability::SampleRateShading);
                    w.b.decorate(id, Decoration::Flat, []);
                }
                _ => {}
            }
        }
        Binding::Location {
            location,
            interpolation,
            sampling,
            ..
        } => {
            w.b.decorate(id, Decoration::Location, [Operand::LiteralBit32(*location)]);
            let interpolated = matches!(
                (stage, direction),
                (ShaderStage::Fragment, Direction::Input)
                    | (ShaderStage::Vertex, Direction::Output)
            );
            if interpolated {
                let integer = w
                    .inner(ty, span)?
                    .scalar()
                    .is_some_and(|s| s.kind != ScalarKind::Float || s.width == 8);
                let fragment_input = stage == ShaderStage::Fragment;
                match interpolation {
                    Some(Interpolation::Flat) => w.b.decorate(id, Decoration::Flat, []),
                    _ if integer && fragment_input => w.b.decorate(id, Decoration::Flat, []),
                    Some(Interpolation::Linear) => w.b.decorate(id, Decoration::NoPerspective, []),
                    _ => {}
                }
                match sampling {
                    Some(Sampling::Centroid) => w.b.decorate(id, Decoration::Centroid, []),
                    Some(Sampling::Sample) => {
                        w.capability(Capability::SampleRateShading);
                        w.b.decorate(id, Decoration::Sample, []);
                    }
                    _ => {}
                }
            }
        }
    }
    Ok(id)
}

/// The SPIR-V built-in of IR built-in `built_in` read or written in `stage`.
fn built_in_of(
    built_in: BuiltIn,
    stage: ShaderStage,
    direction: Direction,
    span: Option<Span>,
) -> Result<spirv::BuiltIn> {
    use Direction::{Input, Output};
    use ShaderStage::{Compute, Fragment, Vertex};
    Ok(match (built_in, stage, direction) {
        (BuiltIn::Position, Vertex, Output) => spirv::BuiltIn::Position,
        (BuiltIn::Position, Fragment, Input) => spirv::BuiltIn::FragCoord,
        (BuiltIn::VertexIndex, Vertex, Input) => spirv::BuiltIn::VertexIndex,
        (BuiltIn::InstanceIndex, Vertex, Input) => spirv::BuiltIn::InstanceIndex,
        (BuiltIn::FrontFacing, Fragment, Input) => spirv::BuiltIn::FrontFacing,
        (BuiltIn::FragDepth, Fragment, Output) => spirv::BuiltIn::FragDepth,
        (BuiltIn::SampleIndex, Fragment, Input) => spirv::BuiltIn::SampleId,
        (BuiltIn::GlobalInvocationId, Compute, Input) => spirv::BuiltIn::GlobalInvocationId,
        (BuiltIn::LocalInvocationId, Compute, Input) => spirv::BuiltIn::LocalInvocationId,
        (BuiltIn::LocalInvocationIndex, Compute, Input) => spirv::BuiltIn::LocalInvocationIndex,
        (BuiltIn::WorkGroupId, Compute, Input) => spirv::BuiltIn::WorkgroupId,
        _ => {
            return Err(Error::unsupported(
                span,
                format!(
                    "the system value {built_in:?} is not available as {} of a {} shader",
                    if direction == Input {
                        "an input"
                    } else {
                        "an output"
                    },
                    stage.name()
                ),
            ))
        }
    })
}

impl FunctionWriter<'_, '_> {
    /// Loads every input of the entry point: the values of its arguments.
    pub fn load_inputs(&mut self, interface: &EntryInterface) -> Result<Vec<Word>> {
        let mut values = Vec::with_capacity(interface.inputs.len());
        for input in &interface.inputs {
            values.push(match input {
                Io::Single { variable, ty } => self.emit_ids(Op::Load, *ty, &[*variable])?,
                Io::Members { ty, members } => {
                    let mut loaded = Vec::with_capacity(members.len());
                    for &(variable, member_type) in members {
                        loaded.push(self.emit_ids(Op::Load, member_type, &[variable])?);
                    }
                    self.emit_ids(Op::CompositeConstruct, *ty, &loaded)?
                }
            });
        }
        Ok(values)
    }

    /// Writes the entry point's returned `value` to its outputs.
    pub fn store_outputs(&mut self, value: Word) -> Result<()> {
        let Some(output) = self.outputs.as_ref().and_then(|o| o.output.clone()) else {
            return Err(Error::malformed(
                None,
                "a value returned from an entry point without a result",
            ));
        };
        match output {
            Io::Single { variable, .. } => self.w.b.store(variable, value, None)?,
            Io::Members { members, .. } => {
                for (index, (variable, member_type)) in members.into_iter().enumerate() {
                    let member = self.emit(
                        Op::CompositeExtract,
                        member_type,
                        &[Operand::IdRef(value), Operand::LiteralBit32(index as u32)],
                    )?;
                    self.w.b.store(variable, member, None)?;
                }
            }
        }
        Ok(())
    }
}
