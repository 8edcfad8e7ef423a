//! MSL type names, and struct declarations laid out at the IR's byte offsets.
//!
//! MSL aligns `float2` to 8 bytes and `float3`/`float4` to 16, while HLSL's structured
//! buffers align every member to 4 bytes. A struct member is therefore declared as a
//! packed vector (`packed_float3`) where its natural MSL alignment or size would move it
//! or the next member away from the IR's offset, and `char` padding arrays fill gaps the
//! IR leaves (constant-buffer packing). A struct whose IR layout can't be reached this
//! way (offsets that go backwards, misaligned matrices, array strides MSL can't give) is
//! declared with MSL's natural layout and marked inexact: it may be used as a value, but
//! not in a buffer.

use oneshader_ir::concat_text;
use oneshader_ir::text::push_decimal;
use std::collections::BTreeSet;
use std::rc::Rc;

use oneshader_ir::{
    ArraySize, Handle, HandleVec, Module, Scalar, ScalarKind, Type, TypeInner, VectorSize,
};

use crate::names::MslNames;
use oneshader_ir::text::{Name, Scope};

/// One field of a struct declaration.
#[derive(Clone, Debug, PartialEq)]
pub enum Slot {
    /// IR member `index`, as a packed vector when `packed`.
    Member {
        /// The IR member index.
        index: usize,
        /// Declared as `packed_*`.
        packed: bool,
    },
    /// `bytes` bytes of padding.
    Padding(u32),
}

/// How a struct is declared.
#[derive(Clone, Debug)]
pub struct StructLayout {
    /// The declaration's fields in order.
    pub slots: Vec<Slot>,
    /// The MSL alignment of the struct.
    pub align: u32,
    /// The MSL size of the struct.
    pub size: u32,
    /// Whether every member sits at its IR offset and the size is the IR size.
    pub exact: bool,
}

/// The names and layouts of a module's structs: the part of [`Types`] that doesn't
/// change while an output is written, shared by the entry points whose program scopes
/// name the structs alike.
pub struct StructTable<'a> {
    all: Vec<&'a Type>,
    struct_names: HandleVec<Type, Option<Name<'a>>>,
    member_names: HandleVec<Type, Vec<Name<'a>>>,
    layouts: HandleVec<Type, Option<StructLayout>>,
    /// The name of each struct's copy with atomic integers (`Bin_atomic`).
    atomic_struct_names: HandleVec<Type, Option<Name<'a>>>,
}

/// Names and layouts of the module's types, for one output.
pub struct Types<'a> {
    /// The struct names and layouts.
    table: Rc<StructTable<'a>>,
    /// Each type's MSL name, once asked for (naming a type is asked for at nearly every
    /// expression).
    /// Most names are constants or the struct table's, borrowed or shared, not copied.
    names: HandleVec<Type, Option<Name<'a>>>,
    /// Each type's MSL name with atomic integers, once asked for.
    atomic_names: HandleVec<Type, Option<Name<'a>>>,
    /// The structs the output names, to be declared.
    pub used_structs: BTreeSet<Handle<Type>>,
    /// The structs the output names with atomic integers (in a buffer used with
    /// `Interlocked*`), declared after [`Types::used_structs`].
    pub used_atomic_structs: BTreeSet<Handle<Type>>,
    /// While recording ([`Types::start_recording`]), each type named, with whether
    /// atomically.
    recording: Option<Vec<(Handle<Type>, bool)>>,
}

/// The MSL spelling of a scalar type, or why there is none.
pub fn scalar_name(scalar: Scalar) -> Result<&'static str, String> {
    Shapes::of(scalar).map(|shapes| shapes.scalar)
}

/// The MSL names of a scalar type and of its vectors and matrices (`float`, `float3`,
/// `half4x4`): constants, so that naming a type makes no text.
struct Shapes {
    /// The scalar's name.
    scalar: &'static str,
    /// Its vectors of 2 to 4.
    vectors: [&'static str; 3],
    /// Its matrices by columns and rows (2 to 4); empty but for floats: MSL matrices
    /// hold floats only.
    matrices: [[&'static str; 3]; 3],
}

/// A scalar's [`Shapes`]: its name with `2` to `4` appended, and with `CxR` for matrices.
macro_rules! shapes {
    ($scalar:ident) => {
        Shapes {
            scalar: stringify!($scalar),
            vectors: [
                concat!(stringify!($scalar), "2"),
                concat!(stringify!($scalar), "3"),
                concat!(stringify!($scalar), "4"),
            ],
            matrices: [[""; 3]; 3],
        }
    };
    ($scalar:ident and matrices) => {
        Shapes {
            matrices: [
                shapes!(@columns $scalar, "2x2", "2x3", "2x4"),
                shapes!(@columns $scalar, "3x2", "3x3", "3x4"),
                shapes!(@columns $scalar, "4x2", "4x3", "4x4"),
            ],
            ..shapes!($scalar)
        }
    };
    (@columns $scalar:ident, $($shape:literal),*) => {
        [$(concat!(stringify!($scalar), $shape)),*]
    };
}

impl Shapes {
    /// The names of `scalar` and its shapes, or why MSL has no such scalar.
    fn of(scalar: Scalar) -> Result<&'static Shapes, String> {
        Ok(match (scalar.kind, scalar.width) {
            (ScalarKind::Bool, _) => &shapes!(bool),
            (ScalarKind::Sint, 2) => &shapes!(short),
            (ScalarKind::Sint, 4) => &shapes!(int),
            (ScalarKind::Sint, 8) => &shapes!(long),
            (ScalarKind::Uint, 2) => &shapes!(ushort),
            (ScalarKind::Uint, 4) => &shapes!(uint),
            (ScalarKind::Uint, 8) => &shapes!(ulong),
            (ScalarKind::Float, 2) => &shapes!(half and matrices),
            (ScalarKind::Float, 4) => &shapes!(float and matrices),
            (ScalarKind::Float, 8) => {
                return Err("the 64-bit float type `double`: MSL has no double".into())
            }
            (kind, width) => return Err(format!("a {width}-byte {kind:?} scalar")),
        })
    }

    /// The name of the vector of `size`.
    fn vector(&self, size: VectorSize) -> &'static str {
        by_size(self.vectors, size)
    }

    /// The name of the matrix of `columns` columns of `rows`, if MSL has it.
    fn matrix(&self, columns: VectorSize, rows: VectorSize) -> Option<&'static str> {
        Some(by_size(by_size(self.matrices, columns), rows)).filter(|name| !name.is_empty())
    }
}

/// The one of `[two, three, four]` for `size`.
fn by_size<T>([two, three, four]: [T; 3], size: VectorSize) -> T {
    match size {
        VectorSize::Bi => two,
        VectorSize::Tri => three,
        VectorSize::Quad => four,
    }
}

/// MSL size of a scalar (bool is one byte in MSL).
fn scalar_size(scalar: Scalar) -> u32 {
    match scalar.kind {
        ScalarKind::Bool => 1,
        _ => u32::from(scalar.width),
    }
}

/// MSL (size, alignment) of a vector of `size` `scalar`s.
fn vector_size_align(size: VectorSize, scalar: Scalar) -> (u32, u32) {
    let s = scalar_size(scalar);
    let n = match size {
        VectorSize::Tri => 4,
        other => other.count(),
    };
    (s * n, s * n)
}

fn round_up(value: u32, align: u32) -> u32 {
    value.div_ceil(align.max(1)) * align.max(1)
}

impl<'a> StructTable<'a> {
    /// Names every struct of `module` in `namer` (the program scope) and lays it out.
    pub fn new(module: &'a Module, namer: &mut Scope<'a>) -> Self {
        let all: Vec<&Type> = module.types.iter().map(|(_, t)| t).collect();
        let mut table = StructTable {
            struct_names: HandleVec::from_len(all.len(), None),
            member_names: HandleVec::from_len(all.len(), Vec::new()),
            layouts: HandleVec::from_len(all.len(), None),
            atomic_struct_names: HandleVec::from_len(all.len(), None),
            all,
        };
        for (index, ty) in module.types.iter() {
            if let TypeInner::Struct { members, .. } = &ty.inner {
                let base = ty.name.as_deref().unwrap_or("_struct");
                table.struct_names[index] = Some(namer.name_in_ir(base));
                table.atomic_struct_names[index] = Some(namer.name(&concat_text!(base, "_atomic")));
                let mut member_namer = Scope::new();
                member_namer.reserve(members.len());
                table.member_names[index] = members
                    .iter()
                    .map(|m| member_namer.name_in_ir(&m.name))
                    .collect();
                // Members' types come before the struct in the arena, so their
                // layouts are known by now.
                table.layouts[index] = Some(table.layout_struct(&ty.inner));
            }
        }
        table
    }

    /// The MSL names of the structs, each with its copy with atomic integers.
    pub fn struct_names(&self) -> impl Iterator<Item = &Name<'a>> {
        self.struct_names
            .iter()
            .chain(self.atomic_struct_names.iter())
            .filter_map(|(_, name)| name.as_ref())
    }

    /// The structure of `ty`, if `ty` belongs to the module.
    fn inner(&self, ty: Handle<Type>) -> Option<&'a TypeInner> {
        self.all.get(ty.index()).map(|t| &t.inner)
    }

    /// The declaration layout of struct `ty`.
    fn layout(&self, ty: Handle<Type>) -> Option<&StructLayout> {
        self.layouts.try_get(ty).and_then(Option::as_ref)
    }

    /// MSL (size, alignment) of `ty`, natural (unpacked) for vectors.
    fn size_align(&self, ty: Handle<Type>) -> Option<(u32, u32)> {
        Some(match *self.inner(ty)? {
            TypeInner::Scalar(scalar) => (scalar_size(scalar), scalar_size(scalar)),
            TypeInner::Vector { size, scalar } => vector_size_align(size, scalar),
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } => {
                let (size, align) = vector_size_align(rows, scalar);
                (size * columns.count(), align)
            }
            TypeInner::Array {
                base,
                size: ArraySize::Constant(count),
                ..
            } => {
                let (size, align) = self.size_align(base)?;
                (round_up(size, align) * count, align)
            }
            TypeInner::Struct { .. } => {
                let layout = self.layout(ty)?;
                (layout.size, layout.align)
            }
            _ => return None,
        })
    }

    /// Lays out a struct at its IR offsets, or naturally when that can't be done.
    fn layout_struct(&self, inner: &TypeInner) -> StructLayout {
        let TypeInner::Struct { members, size } = inner else {
            return StructLayout {
                slots: Vec::new(),
                align: 1,
                size: 0,
                exact: false,
            };
        };
        let ir_size = *size;
        // The struct's size must be a multiple of its alignment, so no member may need
        // more alignment than divides the IR size.
        let size_limit = if ir_size == 0 {
            16
        } else {
            (1u32 << ir_size.trailing_zeros()).min(16)
        };
        let mut slots = Vec::new();
        let mut position = 0u32;
        let mut align = 1u32;
        let mut exact = true;
        for (index, member) in members.iter().enumerate() {
            let next = members
                .get(index + 1)
                .map(|m| m.offset)
                .unwrap_or(if ir_size == 0 { u32::MAX } else { ir_size });
            let Some((mut member_size, mut member_align)) = self.size_align(member.ty) else {
                exact = false;
                break;
            };
            let mut packed = false;
            if let Some(TypeInner::Vector { size, scalar }) = self.inner(member.ty) {
                let misplaced = member.offset % member_align != 0
                    || member_align > size_limit
                    || member.offset.saturating_add(member_size) > next;
                if misplaced {
                    packed = true;
                    member_size = scalar_size(*scalar) * size.count();
                    member_align = scalar_size(*scalar);
                }
            }
            if member.offset < position
                || member.offset % member_align != 0
                || member.offset.saturating_add(member_size) > next
            {
                exact = false;
                break;
            }
            if member.offset > position {
                slots.push(Slot::Padding(member.offset - position));
            }
            slots.push(Slot::Member { index, packed });
            position = member.offset + member_size;
            align = align.max(member_align);
        }
        if exact && ir_size != 0 {
            if ir_size > position {
                slots.push(Slot::Padding(ir_size - position));
                position = ir_size;
            }
            exact = round_up(position, align) == ir_size;
        }
        if exact {
            return StructLayout {
                slots,
                align,
                size: round_up(position, align),
                exact,
            };
        }
        // Natural layout.
        let mut position = 0;
        let mut align = 1;
        for member in members {
            let (size, member_align) = self.size_align(member.ty).unwrap_or((4, 4));
            position = round_up(position, member_align) + size;
            align = align.max(member_align);
        }
        StructLayout {
            slots: (0..members.len())
                .map(|index| Slot::Member {
                    index,
                    packed: false,
                })
                .collect(),
            align,
            size: round_up(position, align),
            exact: false,
        }
    }
}

impl<'a> Types<'a> {
    /// The types of one output, whose structs `table` names and lays out.
    pub fn new(table: Rc<StructTable<'a>>) -> Self {
        let count = table.all.len();
        Types {
            table,
            names: HandleVec::from_len(count, None),
            atomic_names: HandleVec::from_len(count, None),
            used_structs: BTreeSet::new(),
            used_atomic_structs: BTreeSet::new(),
            recording: None,
        }
    }

    /// The structure of `ty`, if `ty` belongs to the module.
    pub fn inner(&self, ty: Handle<Type>) -> Option<&'a TypeInner> {
        self.table.inner(ty)
    }

    /// The MSL name of member `index` of struct `ty`.
    pub fn member_name(&self, ty: Handle<Type>, index: usize) -> Option<&str> {
        self.table
            .member_names
            .try_get(ty)
            .and_then(|names| names.get(index))
            .map(|name| &**name)
    }

    /// The declaration layout of struct `ty`.
    pub fn layout(&self, ty: Handle<Type>) -> Option<&StructLayout> {
        self.table.layout(ty)
    }

    /// Whether member `index` of struct `ty` is declared as a packed vector
    /// (`packed_float3`): a value read from it is unpacked, since MSL's packed and
    /// unpacked vectors mix ambiguously in arithmetic.
    pub fn member_is_packed(&self, ty: Handle<Type>, index: u32) -> bool {
        self.layout(ty).is_some_and(|layout| {
            layout.slots.iter().any(|slot| {
                matches!(slot, Slot::Member { index: i, packed: true } if *i == index as usize)
            })
        })
    }

    /// The MSL name of value type `ty`, recording the structs it names.
    pub fn name(&mut self, ty: Handle<Type>) -> Result<&str, String> {
        self.name_with(ty, false)
    }

    /// The MSL name of `ty` with its 32-bit integers atomic (`atomic_uint`), for
    /// variables operated on atomically.
    pub fn atomic_name(&mut self, ty: Handle<Type>) -> Result<&str, String> {
        self.name_with(ty, true)
    }

    /// Starts recording the types named from now on ([`Types::stop_recording`]).
    pub fn start_recording(&mut self) {
        self.recording = Some(Vec::with_capacity(16));
    }

    /// Stops recording: the types named since [`Types::start_recording`], with whether
    /// atomically, each once. Naming them again ([`Types::name_all`]) records the structs
    /// their names need, as naming them the first time did.
    pub fn stop_recording(&mut self) -> Vec<(Handle<Type>, bool)> {
        let mut named = self.recording.take().unwrap_or_default();
        named.sort_unstable();
        named.dedup();
        named
    }

    /// Names each of `types` (as [`Types::stop_recording`] gave them), so that the structs
    /// their names need are declared.
    pub fn name_all(&mut self, types: &[(Handle<Type>, bool)]) {
        for &(ty, atomic) in types {
            let _ = self.name_with(ty, atomic);
        }
    }

    /// The MSL name of `ty`, atomic or not, made on first use and kept. The structs a
    /// name mentions are recorded when it is made, so a kept name needs no recording.
    pub fn name_with(&mut self, ty: Handle<Type>, atomic: bool) -> Result<&str, String> {
        self.named(ty, atomic).map(|name| &**name)
    }

    /// [`Types::name_with`] as the kept [`Name`], which clones without copying its text.
    fn named(&mut self, ty: Handle<Type>, atomic: bool) -> Result<&Name<'a>, String> {
        if let Some(named) = &mut self.recording {
            // Expressions in a row are often of one type: it is recorded once for them.
            if named.last() != Some(&(ty, atomic)) {
                named.push((ty, atomic));
            }
        }
        let known = |types: &Self| {
            let names = if atomic {
                &types.atomic_names
            } else {
                &types.names
            };
            names.try_get(ty).and_then(Option::as_deref).is_some()
        };
        if !known(self) {
            let name = self.make_name(ty, atomic)?;
            let names = if atomic {
                &mut self.atomic_names
            } else {
                &mut self.names
            };
            if let Some(slot) = names.try_get_mut(ty) {
                *slot = Some(name);
            }
        }
        let names = if atomic {
            &self.atomic_names
        } else {
            &self.names
        };
        names
            .try_get(ty)
            .and_then(Option::as_ref)
            .ok_or_else(|| format!("type handle {ty:?}, which is not in the module"))
    }

    /// [`Types::name_with`] for a name not made yet.
    fn make_name(&mut self, ty: Handle<Type>, atomic: bool) -> Result<Name<'a>, String> {
        let inner = self
            .inner(ty)
            .ok_or_else(|| format!("type handle {ty:?}, which is not in the module"))?;
        Ok(match *inner {
            TypeInner::Scalar(scalar) if atomic => match (scalar.kind, scalar.width) {
                (ScalarKind::Uint, 4) => Name::Borrowed("atomic_uint"),
                (ScalarKind::Sint, 4) => Name::Borrowed("atomic_int"),
                _ => return Err(concat_text!("an atomic ", scalar_name(scalar)?)),
            },
            TypeInner::Scalar(scalar) => Name::Borrowed(scalar_name(scalar)?),
            TypeInner::Vector { .. } | TypeInner::Matrix { .. } if atomic => {
                return Err("an atomic operation on a vector or matrix".into())
            }
            TypeInner::Vector { size, scalar } => Name::Borrowed(Shapes::of(scalar)?.vector(size)),
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } => {
                let shapes = Shapes::of(scalar)?;
                match shapes.matrix(columns, rows) {
                    Some(name) => Name::Borrowed(name),
                    None => {
                        return Err(concat_text!(
                            "a ",
                            shapes.scalar,
                            " matrix: MSL matrices hold floats only"
                        ))
                    }
                }
            }
            TypeInner::Array { base, size, stride } => {
                let ArraySize::Constant(count) = size else {
                    return Err("a runtime-sized array outside a buffer".into());
                };
                let element = self.named(base, atomic)?.clone();
                // Bools never live in memory the host sees (buffers hold them as 32-bit
                // integers), so the IR stride of an array of them describes no layout.
                if !atomic && !self.holds_bool(base, 0) {
                    if let Some((size, align)) = self.size_align(base) {
                        if round_up(size, align) != stride {
                            return Err(format!(
                                "an array of {element} with a {stride}-byte stride (MSL's is {})",
                                round_up(size, align)
                            ));
                        }
                    }
                }
                let mut name = concat_text!("array<", element, ", ");
                push_decimal(&mut name, u64::from(count));
                name.push('>');
                Name::Owned(name.into())
            }
            TypeInner::Struct { .. } if atomic => {
                self.mark_atomic_struct(ty);
                self.table
                    .atomic_struct_names
                    .try_get(ty)
                    .and_then(Option::clone)
                    .ok_or_else(|| "an unnamed struct".to_string())?
            }
            TypeInner::Struct { .. } => {
                self.mark_struct(ty);
                self.table
                    .struct_names
                    .try_get(ty)
                    .and_then(Option::clone)
                    .ok_or_else(|| "an unnamed struct".to_string())?
            }
            TypeInner::Pointer { .. } => return Err("a pointer used as a value".into()),
            TypeInner::Image {
                dim,
                arrayed,
                class,
            } => Name::Owned(image_name(dim, arrayed, class)?.into()),
            TypeInner::Sampler { .. } => Name::Borrowed("sampler"),
        })
    }

    /// The element type of a buffer pointer (`device T*`) for a runtime array of `base`
    /// with `stride`: packed for 3-vectors stored 12 bytes apart.
    pub fn buffer_element_name(
        &mut self,
        base: Handle<Type>,
        stride: u32,
        atomic: bool,
    ) -> Result<Name<'a>, String> {
        if atomic {
            return self.named(base, true).cloned();
        }
        let name = self.named(base, false)?.clone();
        if let Some(TypeInner::Vector {
            size: VectorSize::Tri,
            scalar,
        }) = self.inner(base)
        {
            if stride == 3 * scalar_size(*scalar) {
                return Ok(Name::Owned(concat_text!("packed_", name).into()));
            }
        }
        match self.size_align(base) {
            Some((size, align)) if round_up(size, align) == stride => Ok(name),
            Some((size, align)) => Err(format!(
                "a buffer of {name} with a {stride}-byte stride (MSL's is {})",
                round_up(size, align)
            )),
            None => Err(concat_text!("a buffer of ", name)),
        }
    }

    /// Whether `ty` is, or contains, a struct whose IR layout MSL can't reproduce.
    pub fn has_inexact_layout(&self, ty: Handle<Type>) -> bool {
        match self.inner(ty) {
            Some(TypeInner::Array { base, .. }) => self.has_inexact_layout(*base),
            Some(TypeInner::Struct { members, .. }) => {
                !self.layout(ty).is_some_and(|l| l.exact)
                    || members.iter().any(|m| self.has_inexact_layout(m.ty))
            }
            _ => false,
        }
    }

    /// Whether `ty` holds 32-bit integers that a buffer used atomically declares as
    /// `atomic_uint`/`atomic_int`: such a scalar, or an array or struct holding one.
    /// Other members of such a struct (floats, vectors) keep their plain types.
    pub fn holds_atomics(&self, ty: Handle<Type>) -> bool {
        match self.inner(ty) {
            Some(TypeInner::Scalar(s)) => s.is_integer() && s.width == 4,
            Some(TypeInner::Array { base, .. }) => self.holds_atomics(*base),
            Some(TypeInner::Struct { members, .. }) => {
                members.iter().any(|m| self.holds_atomics(m.ty))
            }
            _ => false,
        }
    }

    fn mark_atomic_struct(&mut self, ty: Handle<Type>) {
        if !self.used_atomic_structs.insert(ty) {
            return;
        }
        if let Some(TypeInner::Struct { members, .. }) = self.inner(ty) {
            for member in members {
                let atomic = self.holds_atomics(member.ty);
                let _ = self.name_with(member.ty, atomic);
            }
        }
    }

    fn mark_struct(&mut self, ty: Handle<Type>) {
        if !self.used_structs.insert(ty) {
            return;
        }
        if let Some(TypeInner::Struct { members, .. }) = self.inner(ty) {
            for member in members {
                // Members are named when the struct is declared; marking here makes
                // sure nested structs are declared too.
                let _ = self.name(member.ty);
            }
        }
    }

    /// Whether `ty` has bool components, in itself or in its elements or members.
    fn holds_bool(&self, ty: Handle<Type>, depth: u32) -> bool {
        match self.inner(ty) {
            _ if depth > 64 => false,
            Some(TypeInner::Scalar(scalar))
            | Some(TypeInner::Vector { scalar, .. })
            | Some(TypeInner::Matrix { scalar, .. }) => scalar.kind == ScalarKind::Bool,
            Some(TypeInner::Array { base, .. }) => self.holds_bool(*base, depth + 1),
            Some(TypeInner::Struct { members, .. }) => {
                members.iter().any(|m| self.holds_bool(m.ty, depth + 1))
            }
            _ => false,
        }
    }

    /// MSL (size, alignment) of `ty`, natural (unpacked) for vectors.
    fn size_align(&self, ty: Handle<Type>) -> Option<(u32, u32)> {
        self.table.size_align(ty)
    }

    /// Appends the declaration of struct `ty` to `out`: `struct S { ... };`. On an error
    /// nothing is appended.
    pub fn write_declaration(&mut self, out: &mut String, ty: Handle<Type>) -> Result<(), String> {
        self.write_declaration_with(out, ty, false)
    }

    /// Appends the declaration of struct `ty` with its 32-bit integers atomic
    /// (`struct Bin_atomic { atomic_uint count; float weight; }`), at the same offsets.
    pub fn write_atomic_declaration(
        &mut self,
        out: &mut String,
        ty: Handle<Type>,
    ) -> Result<(), String> {
        self.write_declaration_with(out, ty, true)
    }

    fn write_declaration_with(
        &mut self,
        out: &mut String,
        ty: Handle<Type>,
        atomic: bool,
    ) -> Result<(), String> {
        let start = out.len();
        let written = self.push_declaration(out, ty, atomic);
        if written.is_err() {
            out.truncate(start);
        }
        written
    }

    /// [`Types::write_declaration_with`], leaving what it appended before an error.
    fn push_declaration(
        &mut self,
        out: &mut String,
        ty: Handle<Type>,
        atomic: bool,
    ) -> Result<(), String> {
        let Some(TypeInner::Struct { members, .. }) = self.inner(ty) else {
            return Err("a struct declaration of a non-struct type".into());
        };
        out.push_str("struct ");
        out.push_str(self.name_with(ty, atomic)?);
        out.push_str(" {\n");
        // The table is shared: its layouts are read while this naming takes `self`.
        let table = Rc::clone(&self.table);
        let slots = table.layout(ty).map_or(&[][..], |l| &l.slots);
        let mut padding = 0;
        for slot in slots {
            match *slot {
                Slot::Member { index, packed } => {
                    let Some(member) = members.get(index) else {
                        continue;
                    };
                    let member_atomic = atomic && self.holds_atomics(member.ty);
                    let type_name = self.name_with(member.ty, member_atomic)?;
                    out.push_str("    ");
                    if packed {
                        out.push_str("packed_");
                    }
                    out.push_str(type_name);
                    out.push(' ');
                    out.push_str(self.member_name(ty, index).unwrap_or("_member"));
                    out.push_str(";\n");
                }
                Slot::Padding(bytes) => {
                    out.push_str("    char _pad");
                    push_decimal(out, padding);
                    out.push('[');
                    push_decimal(out, u64::from(bytes));
                    out.push_str("];\n");
                    padding += 1;
                }
            }
        }
        out.push_str("};\n");
        Ok(())
    }
}

/// The MSL type of a texture global: `access::read`/`write`/`read_write` as the code
/// uses it, and a depth texture when it is sampled with a comparison.
pub(crate) fn texture_name(
    dim: oneshader_ir::ImageDimension,
    arrayed: bool,
    class: oneshader_ir::ImageClass,
    usage: oneshader_ir::analysis::GlobalUse,
) -> Result<String, String> {
    use oneshader_ir::{ImageClass, ImageDimension};
    match class {
        ImageClass::Storage { kind, .. } => {
            let base = match dim {
                ImageDimension::D1 => "texture1d",
                ImageDimension::D2 => "texture2d",
                ImageDimension::D3 => "texture3d",
                ImageDimension::Cube => return Err("a read-write cube texture".into()),
                ImageDimension::Buffer => "texture_buffer",
            };
            let access = match (usage.read, usage.write) {
                (true, true) => "read_write",
                (false, true) => "write",
                _ => "read",
            };
            let array = if arrayed { "_array" } else { "" };
            let element = scalar_name(Scalar { kind, width: 4 })?;
            Ok(concat_text!(
                base,
                array,
                "<",
                element,
                ", access::",
                access,
                ">"
            ))
        }
        ImageClass::Sampled {
            kind, multisampled, ..
        } if usage.compared => {
            if kind != oneshader_ir::ScalarKind::Float || multisampled {
                return Err("a comparison sample of a non-float or multisampled texture".into());
            }
            let base = match dim {
                ImageDimension::D2 => "depth2d",
                ImageDimension::Cube => "depthcube",
                _ => return Err("a comparison sample of a 1D or 3D texture".into()),
            };
            let array = if arrayed { "_array" } else { "" };
            Ok(concat_text!(base, array, "<float, access::sample>"))
        }
        ImageClass::Sampled { .. } => image_name(dim, arrayed, class),
    }
}

fn image_name(
    dim: oneshader_ir::ImageDimension,
    arrayed: bool,
    class: oneshader_ir::ImageClass,
) -> Result<String, String> {
    use oneshader_ir::{ImageClass, ImageDimension};
    let (kind, multisampled, access) = match class {
        ImageClass::Sampled {
            kind, multisampled, ..
        } => (kind, multisampled, ""),
        ImageClass::Storage { kind, .. } => (kind, false, ", access::read_write"),
    };
    let base = match (dim, multisampled) {
        (ImageDimension::D1, false) => "texture1d",
        (ImageDimension::D2, false) => "texture2d",
        (ImageDimension::D2, true) => "texture2d_ms",
        (ImageDimension::D3, false) => "texture3d",
        (ImageDimension::Cube, false) => "texturecube",
        (ImageDimension::Buffer, false) => "texture_buffer",
        _ => return Err("a multisampled texture that is not 2D".into()),
    };
    let array = if arrayed { "_array" } else { "" };
    let element = scalar_name(Scalar { kind, width: 4 })?;
    Ok(concat_text!(base, array, "<", element, access, ">"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use oneshader_ir::StructMember;

    #[test]
    fn shape_names_are_the_scalar_and_the_counts() {
        let sizes = [VectorSize::Bi, VectorSize::Tri, VectorSize::Quad];
        for kind in [
            ScalarKind::Bool,
            ScalarKind::Sint,
            ScalarKind::Uint,
            ScalarKind::Float,
        ] {
            for width in [2, 4, 8] {
                let Ok(shapes) = Shapes::of(Scalar { kind, width }) else {
                    continue;
                };
                let scalar = shapes.scalar;
                for columns in sizes {
                    let count = columns.count();
                    assert_eq!(shapes.vector(columns), format!("{scalar}{count}"));
                    for rows in sizes {
                        let matrix = shapes.matrix(columns, rows);
                        if matches!(scalar, "half" | "float") {
                            let rows = rows.count();
                            assert_eq!(matrix, Some(&*format!("{scalar}{count}x{rows}")));
                        } else {
                            assert_eq!(matrix, None);
                        }
                    }
                }
            }
        }
    }

    fn member(name: &str, ty: Handle<Type>, offset: u32) -> StructMember {
        StructMember {
            name: name.into(),
            ty,
            offset,
            binding: None,
        }
    }

    #[test]
    fn structured_buffer_layout_packs_misaligned_vectors() {
        let mut module = Module::default();
        let float = module.type_handle(TypeInner::Scalar(Scalar::F32));
        let float2 = module.type_handle(TypeInner::Vector {
            size: VectorSize::Bi,
            scalar: Scalar::F32,
        });
        let float3 = module.type_handle(TypeInner::Vector {
            size: VectorSize::Tri,
            scalar: Scalar::F32,
        });
        // HLSL structured buffer: { float a; float2 b; float3 c; float d; } = 4+8+12+4
        let s = module.types.insert(Type {
            name: Some("Particle".into()),
            inner: TypeInner::Struct {
                members: vec![
                    member("a", float, 0),
                    member("b", float2, 4),
                    member("c", float3, 12),
                    member("d", float, 24),
                ],
                size: 28,
            },
        });
        let mut types = Types::new(Rc::new(StructTable::new(&module, &mut Scope::new())));
        let layout = types.layout(s).expect("laid out");
        assert!(layout.exact);
        assert_eq!(layout.size, 28);
        let mut text = String::new();
        types.write_declaration(&mut text, s).expect("declared");
        assert!(text.contains("packed_float2 b;"), "{text}");
        assert!(text.contains("packed_float3 c;"), "{text}");
        assert!(text.contains("float d;"), "{text}");
    }

    #[test]
    fn constant_buffer_gaps_become_padding() {
        let mut module = Module::default();
        let float = module.type_handle(TypeInner::Scalar(Scalar::F32));
        let float4 = module.type_handle(TypeInner::Vector {
            size: VectorSize::Quad,
            scalar: Scalar::F32,
        });
        let s = module.types.insert(Type {
            name: Some("Params".into()),
            inner: TypeInner::Struct {
                members: vec![member("scale", float, 0), member("color", float4, 32)],
                size: 48,
            },
        });
        let mut types = Types::new(Rc::new(StructTable::new(&module, &mut Scope::new())));
        let layout = types.layout(s).expect("laid out");
        assert!(layout.exact);
        assert_eq!(layout.slots[1], Slot::Padding(28));
        let mut text = String::new();
        types.write_declaration(&mut text, s).expect("declared");
        assert!(text.contains("char _pad0[28];"), "{text}");
    }

    #[test]
    fn backwards_offsets_fall_back_to_natural_layout() {
        let mut module = Module::default();
        let float = module.type_handle(TypeInner::Scalar(Scalar::F32));
        let s = module.types.insert(Type {
            name: None,
            inner: TypeInner::Struct {
                members: vec![member("a", float, 0), member("b", float, 0)],
                size: 0,
            },
        });
        let types = Types::new(Rc::new(StructTable::new(&module, &mut Scope::new())));
        assert!(!types.layout(s).expect("laid out").exact);
        assert!(types.has_inexact_layout(s));
    }
}
