//! WGSL memory layout: the alignment and size WGSL gives each type, and the `@size`
//! attributes that make a struct's WGSL layout equal the IR's offsets and size.
//!
//! WGSL has no offset or stride attributes. A member is placed at the next multiple of its
//! alignment after the previous member's end, and `@size(n)` on the previous member moves
//! that end. So an IR offset can be reached exactly when it is a multiple of the member's
//! WGSL alignment and not before WGSL's natural place; array strides must equal WGSL's
//! (no attribute changes them). The uniform address space adds rules of its own
//! ([`check_uniform`]).

use oneshader_ir::concat_text;
use oneshader_ir::{ArraySize, Handle, Module, ScalarKind, StructMember, Type, TypeInner};

/// Alignment and size in bytes of a type in WGSL.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// `AlignOf(T)`.
    pub align: u32,
    /// `SizeOf(T)`; for a runtime-sized array, the size of one element.
    pub size: u32,
}

fn round_up(align: u32, value: u32) -> u32 {
    value.div_ceil(align.max(1)).saturating_mul(align.max(1))
}

/// The inner type of `ty`, or a message when the handle is out of range.
pub fn inner(module: &Module, ty: Handle<Type>) -> Result<&TypeInner, String> {
    if ty.index() < module.types.len() {
        Ok(&module.types[ty].inner)
    } else {
        Err(format!("type handle {ty:?} is out of range"))
    }
}

/// How deep the writer's walks of a type go (arrays, pointers and structs each a level):
/// past the front end's 255 levels of structs, with arrays between them.
pub(crate) const MAX_TYPE_DEPTH: u32 = 1024;

/// The WGSL alignment and size of `ty` as the writer declares it (structs with the
/// attributes of [`plan_struct`]), for a host-shareable use. Errors say why a type has no
/// host-shareable WGSL layout.
pub fn layout(module: &Module, ty: Handle<Type>) -> Result<Layout, String> {
    layout_depth(module, ty, 0)
}

fn layout_depth(module: &Module, ty: Handle<Type>, depth: u32) -> Result<Layout, String> {
    if depth > MAX_TYPE_DEPTH {
        return Err("types nest too deep".into());
    }
    Ok(match *inner(module, ty)? {
        TypeInner::Scalar(scalar) => {
            if scalar.kind == ScalarKind::Bool {
                return Err("bool has no memory layout in WGSL (it is not host-shareable)".into());
            }
            let width = u32::from(scalar.width);
            Layout {
                align: width,
                size: width,
            }
        }
        TypeInner::Vector { size, scalar } => {
            if scalar.kind == ScalarKind::Bool {
                return Err("bool vectors are not host-shareable in WGSL".into());
            }
            let width = u32::from(scalar.width);
            let n = size.count();
            Layout {
                align: width * if n == 3 { 4 } else { n },
                size: width * n,
            }
        }
        TypeInner::Matrix {
            columns,
            rows,
            scalar,
        } => {
            let width = u32::from(scalar.width);
            let r = rows.count();
            let column_align = width * if r == 3 { 4 } else { r };
            Layout {
                align: column_align,
                size: column_align * columns.count(),
            }
        }
        TypeInner::Array { base, size, stride } => {
            let element = layout_depth(module, base, depth + 1)?;
            let natural = round_up(element.align, element.size);
            if stride != natural {
                return Err(format!(
                    "its array stride is {stride} bytes, but WGSL's stride for this element \
                     type is {natural} (WGSL has no stride attribute)"
                ));
            }
            Layout {
                align: element.align,
                size: match size {
                    ArraySize::Constant(n) => natural.saturating_mul(n),
                    ArraySize::Runtime => natural,
                },
            }
        }
        TypeInner::Struct { ref members, size } => {
            let plan = plan_struct(module, members, size, depth + 1)?;
            Layout {
                align: plan.align,
                size,
            }
        }
        TypeInner::Pointer { .. } | TypeInner::Image { .. } | TypeInner::Sampler { .. } => {
            return Err("pointers, textures and samplers have no memory layout".into())
        }
    })
}

/// How a struct is declared so that WGSL lays it out as the IR says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StructPlan {
    /// Per member, the `@size(n)` attribute it needs, if any.
    pub sizes: Vec<Option<u32>>,
    /// The struct's WGSL alignment.
    pub align: u32,
}

/// The `@size` attributes that give `members` their IR offsets and the struct its IR size
/// `size`, or why WGSL cannot express that layout (naming the member).
pub fn plan_struct(
    module: &Module,
    members: &[StructMember],
    size: u32,
    depth: u32,
) -> Result<StructPlan, String> {
    let mut sizes = vec![None; members.len()];
    let mut align = 1;
    let mut previous: Option<(u32, Layout)> = None;
    for (index, member) in members.iter().enumerate() {
        let member_layout = layout_depth(module, member.ty, depth)
            .map_err(|why| concat_text!("member '", member.name, "': ", why))?;
        align = align.max(member_layout.align);
        let offset = member.offset;
        match previous {
            None if offset != 0 => {
                return Err(format!(
                    "member '{}' is at offset {offset}, but WGSL puts a struct's first member \
                     at offset 0",
                    member.name
                ))
            }
            None => {}
            Some((previous_offset, previous_layout)) => {
                let natural = round_up(
                    member_layout.align,
                    previous_offset.saturating_add(previous_layout.size),
                );
                if offset < natural {
                    return Err(format!(
                        "member '{}' is at offset {offset}, but WGSL's layout rules place it \
                         at {natural} or later (its WGSL alignment is {})",
                        member.name, member_layout.align
                    ));
                }
                if offset % member_layout.align != 0 {
                    return Err(format!(
                        "member '{}' is at offset {offset}, which is not a multiple of its \
                         WGSL alignment {}",
                        member.name, member_layout.align
                    ));
                }
                // The previous member is padded up to this one.
                let previous_size = index.checked_sub(1).and_then(|i| sizes.get_mut(i));
                if let (true, Some(size)) = (offset > natural, previous_size) {
                    *size = Some(offset - previous_offset);
                }
            }
        }
        previous = Some((offset, member_layout));
    }
    let is_runtime_sized = members.last().is_some_and(|last| {
        matches!(
            inner(module, last.ty),
            Ok(TypeInner::Array {
                size: ArraySize::Runtime,
                ..
            })
        )
    });
    if let (Some((last_offset, last_layout)), false) = (previous, is_runtime_sized) {
        let end = last_offset.saturating_add(last_layout.size);
        let natural = round_up(align, end);
        if size < natural {
            return Err(format!(
                "the struct's size is {size} bytes, less than WGSL's {natural}"
            ));
        }
        if size % align != 0 {
            return Err(format!(
                "the struct's size {size} is not a multiple of its WGSL alignment {align}"
            ));
        }
        if size > natural {
            if let Some(last) = sizes.last_mut() {
                *last = Some(size - last_offset);
            }
        }
    }
    Ok(StructPlan { sizes, align })
}

/// Checks the extra rules of the uniform address space on `ty`: array strides and the
/// offsets of struct- and array-typed members are multiples of 16, a member after a struct
/// starts at least at the struct's end rounded up to 16, and no runtime-sized arrays.
pub fn check_uniform(module: &Module, ty: Handle<Type>) -> Result<(), String> {
    check_uniform_depth(module, ty, 0)
}

fn check_uniform_depth(module: &Module, ty: Handle<Type>, depth: u32) -> Result<(), String> {
    if depth > MAX_TYPE_DEPTH {
        return Err("types nest too deep".into());
    }
    match *inner(module, ty)? {
        TypeInner::Array { base, size, stride } => {
            if size == ArraySize::Runtime {
                return Err("runtime-sized arrays are not allowed in uniform buffers".into());
            }
            if stride % 16 != 0 {
                return Err(format!(
                    "its array stride {stride} is not a multiple of 16, which WGSL requires \
                     in the uniform address space"
                ));
            }
            check_uniform_depth(module, base, depth + 1)
        }
        TypeInner::Struct { ref members, .. } => {
            for (index, member) in members.iter().enumerate() {
                let member_inner = inner(module, member.ty)?;
                let aggregate = matches!(
                    member_inner,
                    TypeInner::Struct { .. } | TypeInner::Array { .. }
                );
                if aggregate && member.offset % 16 != 0 {
                    return Err(format!(
                        "member '{}' is at offset {}, but WGSL aligns structs and arrays to 16 \
                         bytes in the uniform address space",
                        member.name, member.offset
                    ));
                }
                if let (TypeInner::Struct { size, .. }, Some(next)) =
                    (member_inner, members.get(index + 1))
                {
                    let end = round_up(16, member.offset.saturating_add(*size));
                    if next.offset < end {
                        return Err(format!(
                            "member '{}' is at offset {}, but in the uniform address space WGSL \
                             needs it at {end} or later, after the struct before it rounded up \
                             to 16 bytes",
                            next.name, next.offset
                        ));
                    }
                }
                check_uniform_depth(module, member.ty, depth + 1)
                    .map_err(|why| concat_text!("member '", member.name, "': ", why))?;
            }
            Ok(())
        }
        _ => Ok(()),
    }
}
