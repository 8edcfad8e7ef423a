//! How HLSL identifiers become MSL identifiers.
//!
//! The scheme, applied to every name the output takes from the IR (functions, the entry
//! point, structs and their members, globals, parameters, locals):
//!
//! 1. Characters other than ASCII letters, digits and `_` become `_`; a leading digit
//!    gets a `v` in front; an empty name becomes `v`.
//! 2. A name that starts with `_` gets a `u` in front (`_tmp` → `u_tmp`). Names the
//!    backend makes up all start with `_` (`_e12`, `_in`, `_lane_index`, `_ballot`), so
//!    they can never clash with a user's name.
//! 3. A reserved name — a C++ or MSL keyword (`kernel`, `device`, `constant`, `half`…),
//!    a name of the Metal standard library that the output may call or name (`simd_sum`,
//!    `select`, `float3`, `array`…), or `main` — gets `_` appended (`kernel` →
//!    `kernel_`).
//! 4. A name already taken in the same scope gets `_1`, `_2`, … appended, the first that
//!    is free. Functions, structs and globals share the program scope; each function's
//!    parameters and locals take names from the ones the program scope left free;
//!    struct members are unique within their struct.

use std::borrow::Cow;
use std::rc::Rc;

use oneshader_ir::text::{first_free_numbered, is_identifier_byte, Name};
use oneshader_ir::{FastHashSet, WordHash, WordTable};

/// C++14 keywords and the words MSL adds or reserves.
const KEYWORDS: &[&str] = &[
    "alignas",
    "alignof",
    "and",
    "and_eq",
    "asm",
    "auto",
    "bitand",
    "bitor",
    "bool",
    "break",
    "case",
    "catch",
    "char",
    "char16_t",
    "char32_t",
    "class",
    "compl",
    "const",
    "const_cast",
    "constexpr",
    "continue",
    "decltype",
    "default",
    "delete",
    "do",
    "double",
    "dynamic_cast",
    "else",
    "enum",
    "explicit",
    "export",
    "extern",
    "false",
    "float",
    "for",
    "friend",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "mutable",
    "namespace",
    "new",
    "noexcept",
    "not",
    "not_eq",
    "nullptr",
    "operator",
    "or",
    "or_eq",
    "private",
    "protected",
    "public",
    "register",
    "reinterpret_cast",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "static_assert",
    "static_cast",
    "struct",
    "switch",
    "template",
    "this",
    "thread_local",
    "throw",
    "true",
    "try",
    "typedef",
    "typeid",
    "typename",
    "union",
    "unsigned",
    "using",
    "virtual",
    "void",
    "volatile",
    "wchar_t",
    "while",
    "override",
    "final",
    "main",
    // MSL
    "kernel",
    "vertex",
    "fragment",
    "compute",
    "device",
    "constant",
    "thread",
    "threadgroup",
    "threadgroup_imageblock",
    "ray_data",
    "object_data",
    "visible",
    "stitchable",
    "half",
    "uchar",
    "ushort",
    "uint",
    "ulong",
    "size_t",
    "ptrdiff_t",
    "metal",
    "std",
    "sampler",
    "array",
    "array_ref",
    "packed",
    "atomic",
    "simd",
    "NAN",
    "INFINITY",
    "MAXFLOAT",
    "HUGE_VALF",
    "FLT_MAX",
    "FLT_MIN",
    "DBL_MAX",
    "INT_MAX",
    "INT_MIN",
    "UINT_MAX",
    "access",
    "texture1d",
    "texture1d_array",
    "texture2d",
    "texture2d_array",
    "texture3d",
    "texturecube",
    "texturecube_array",
    "texture2d_ms",
    "texture2d_ms_array",
    "depth2d",
    "depth2d_array",
    "depthcube",
    "depthcube_array",
    "depth2d_ms",
    "texture_buffer",
    "mem_flags",
    "memory_order",
    "memory_order_relaxed",
    "thread_scope",
    "simd_vote",
    "quad_vote",
    "atomic_int",
    "atomic_uint",
    "atomic_bool",
    "atomic_float",
    "vec",
    "matrix",
    "packed_vec",
    "coord",
    "filter",
    "address",
    "level",
    "bias",
];

/// Functions of the Metal standard library the output may call.
const LIBRARY_FUNCTIONS: &[&str] = &[
    "abs",
    "min",
    "max",
    "clamp",
    "saturate",
    "floor",
    "ceil",
    "rint",
    "round",
    "trunc",
    "fract",
    "sqrt",
    "rsqrt",
    "exp",
    "exp2",
    "log",
    "log2",
    "pow",
    "powr",
    "sin",
    "cos",
    "tan",
    "asin",
    "acos",
    "atan",
    "atan2",
    "sinh",
    "cosh",
    "tanh",
    "sign",
    "mix",
    "fma",
    "step",
    "smoothstep",
    "dot",
    "cross",
    "length",
    "normalize",
    "distance",
    "reflect",
    "refract",
    "transpose",
    "determinant",
    "any",
    "all",
    "isnan",
    "isinf",
    "select",
    "fmod",
    "fmin",
    "fmax",
    "popcount",
    "clz",
    "ctz",
    "reverse_bits",
    "as_type",
    "discard_fragment",
    "threadgroup_barrier",
    "simdgroup_barrier",
    "atomic_load_explicit",
    "atomic_store_explicit",
    "atomic_exchange_explicit",
    "atomic_compare_exchange_weak_explicit",
    "atomic_fetch_add_explicit",
    "atomic_fetch_sub_explicit",
    "atomic_fetch_and_explicit",
    "atomic_fetch_or_explicit",
    "atomic_fetch_xor_explicit",
    "atomic_fetch_min_explicit",
    "atomic_fetch_max_explicit",
    "simd_ballot",
    "simd_all",
    "simd_any",
    "simd_is_first",
    "simd_sum",
    "simd_product",
    "simd_min",
    "simd_max",
    "simd_and",
    "simd_or",
    "simd_xor",
    "simd_prefix_exclusive_sum",
    "simd_prefix_exclusive_product",
    "simd_broadcast",
    "simd_broadcast_first",
    "simd_shuffle",
    "simd_shuffle_xor",
    "quad_shuffle",
    "quad_shuffle_xor",
    "quad_broadcast",
];

/// Whether `name` is a vector, packed vector or matrix type name of MSL (`float3`,
/// `packed_half2`, `float4x4`).
fn is_vector_or_matrix_type(name: &str) -> bool {
    // The name is a scalar type's name followed by its shape: one dimension (2 to 4)
    // for a vector, two joined by `x` for a matrix. No scalar name ends in `x`, so the
    // shape is found from the end without trying each scalar's name in turn.
    let scalar = match name.as_bytes() {
        [scalar @ .., b'2'..=b'4', b'x', b'2'..=b'4'] => scalar,
        [scalar @ .., b'2'..=b'4'] => scalar,
        _ => return false,
    };
    let scalar = scalar.strip_prefix(b"packed_").unwrap_or(scalar);
    const SCALARS: &[&str] = &[
        "bool", "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "half",
        "float", "double", "bfloat",
    ];
    SCALARS.iter().any(|known| known.as_bytes() == scalar)
}

/// Whether `name` can't be used as an identifier in MSL.
pub fn is_reserved(name: &str) -> bool {
    RESERVED_WORDS.contains(name) || is_vector_or_matrix_type(name)
}

/// [`KEYWORDS`] and [`LIBRARY_FUNCTIONS`] in one table the compiler builds: every name the
/// output takes is checked against them.
static RESERVED_WORDS: WordTable<(), 1024> =
    WordTable::new(&[(KEYWORDS, ()), (LIBRARY_FUNCTIONS, ())]);

/// Steps 1–3 of the scheme: `name` made a valid, unreserved identifier that doesn't start
/// with `_`.
pub fn sanitize(name: &str) -> String {
    sanitized(name).into_owned()
}

/// [`sanitize`], borrowing `name` when it is already such an identifier (nearly every
/// name), so that naming allocates only the name it keeps.
fn sanitized(name: &str) -> Cow<'_, str> {
    // One pass over the bytes both checks them and hashes them for the reserved words.
    let mut plain = true;
    let mut hash = WordHash::START;
    for b in name.bytes() {
        plain &= is_identifier_byte(b);
        hash = hash.add(b);
    }
    let starts_well = name
        .bytes()
        .next()
        .is_some_and(|b| b != b'_' && !b.is_ascii_digit());
    let reserved =
        || RESERVED_WORDS.get_hashed(name, hash).is_some() || is_vector_or_matrix_type(name);
    if plain && starts_well && !reserved() {
        return Cow::Borrowed(name);
    }
    // Sized once: collecting the mapped characters grew the string a few bytes at a time.
    let mut out = String::with_capacity(name.len() + 2);
    if plain {
        out.push_str(name);
    } else {
        out.extend(
            name.chars()
                .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }),
        );
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert(0, 'v');
    }
    if out.starts_with('_') {
        out.insert(0, 'u');
    }
    if is_reserved(&out) {
        out.push('_');
    }
    Cow::Owned(out)
}

/// A scope of taken names (step 4 of the scheme).
///
/// Names are handed out as [`Name`]s: the IR's own text when it needed no change (nearly
/// every name, which then costs no allocation), else text made here, kept by the scope
/// and by the writer's name tables without a second copy.
#[derive(Clone, Debug, Default)]
pub struct Namer<'a> {
    /// The names of the enclosing scope, shared with it and with its other inner scopes:
    /// opening a function's scope must not copy the program's names (one copy per function
    /// made compiling quadratic in the number of functions).
    outer: Rc<FastHashSet<Name<'a>>>,
    /// The names of the scope around that one, if any, shared alike: an entry point's
    /// program scope opens inside the module's, whose names it must not copy either.
    outermost: Option<Rc<FastHashSet<Name<'a>>>>,
    /// The names taken in this scope (and not yet shared).
    taken: FastHashSet<Name<'a>>,
    /// Whether a name this scope gave got a number (step 4) because its base was taken.
    numbered: bool,
    /// Whether some name this scope tried was taken in an enclosing scope (see
    /// [`Namer::clashed_outside`]).
    outer_clash: bool,
}

impl<'a> Namer<'a> {
    /// A scope where no name is taken yet.
    pub fn new() -> Self {
        Namer::default()
    }

    /// Makes room for `additional` more names in this scope, so that taking them doesn't
    /// grow (and rehash) the set of taken names step by step.
    pub fn reserve(&mut self, additional: usize) {
        self.taken.reserve(additional);
    }

    /// Moves the names taken here into the part that inner scopes share, so that
    /// [`Namer::inner`] costs nothing until more names are taken here.
    pub fn share(&mut self) {
        if self.taken.is_empty() {
            return;
        }
        let taken = std::mem::take(&mut self.taken);
        if self.outer.is_empty() {
            // The usual case (the program scope): the set moves as it is.
            self.outer = Rc::new(taken);
        } else if self.outermost.is_none() {
            // A scope opened inside another: the enclosing names stay shared.
            self.outermost = Some(std::mem::replace(&mut self.outer, Rc::new(taken)));
        } else {
            Rc::make_mut(&mut self.outer).extend(taken);
        }
    }

    /// A scope inside this one (a function's, inside the program's): every name taken
    /// here stays taken there; the names it takes are its own.
    pub fn inner(&self) -> Namer<'a> {
        let outer = if self.taken.is_empty() {
            Rc::clone(&self.outer)
        } else {
            let mut all = (*self.outer).clone();
            all.extend(self.taken.iter().cloned());
            Rc::new(all)
        };
        Namer {
            outer,
            outermost: self.outermost.clone(),
            taken: FastHashSet::default(),
            numbered: false,
            outer_clash: false,
        }
    }

    /// [`Namer::inner`], taking its names in `taken`: an empty set that a scope before
    /// gave back ([`Namer::into_taken`]), so that opening the scope allocates nothing.
    pub fn inner_in(&self, taken: FastHashSet<Name<'a>>) -> Namer<'a> {
        let mut inner = self.inner();
        inner.taken = taken;
        inner
    }

    /// The set this scope took its names in, emptied, for a later scope
    /// ([`Namer::inner_in`]).
    pub fn into_taken(self) -> FastHashSet<Name<'a>> {
        let mut taken = self.taken;
        taken.clear();
        taken
    }

    /// Whether a name tried here was taken in an enclosing scope. When none was, the
    /// names given here are the ones any enclosing scopes that take fewer names would
    /// have led to.
    pub fn clashed_outside(&self) -> bool {
        self.outer_clash
    }

    /// [`Namer::is_taken`] for a name this scope tries, noting a clash with an
    /// enclosing scope.
    fn try_name(&mut self, name: &str) -> bool {
        if self.taken.contains(name) {
            return true;
        }
        let outside = self.is_taken_outside(name);
        self.outer_clash |= outside;
        outside
    }

    /// Whether `name` is taken in an enclosing scope.
    fn is_taken_outside(&self, name: &str) -> bool {
        self.outer.contains(name)
            || self
                .outermost
                .as_ref()
                .is_some_and(|names| names.contains(name))
    }

    /// The MSL name for `name`, text of the IR (or any text that outlives the output),
    /// in this scope, now taken: `name` itself, borrowed, when it needs no change.
    pub fn name_in_ir(&mut self, name: &'a str) -> Name<'a> {
        match sanitized(name) {
            Cow::Borrowed(base) => self.take(base, Some(base)),
            Cow::Owned(base) => self.take(&base, None),
        }
    }

    /// The MSL name for `name` in this scope, now taken.
    pub fn name(&mut self, name: &str) -> Name<'a> {
        self.take(&sanitized(name), None)
    }

    /// Takes `base` (steps 1–3 done), `lasting` when that is its text and outlives the
    /// output, if it is free, else `base` with the first number that makes it free.
    ///
    /// A free name (nearly every one) costs one lookup in each enclosing scope's names
    /// and one insertion here, which also tells whether this scope took it already.
    fn take(&mut self, base: &str, lasting: Option<&'a str>) -> Name<'a> {
        if !self.is_taken_outside(base) {
            let name = match lasting {
                Some(text) => Name::Borrowed(text),
                None => Name::Owned(base.into()),
            };
            if self.taken.insert(name.clone()) {
                return name;
            }
        } else if !self.taken.contains(base) {
            // Taken only in an enclosing scope (as `try_name` would note it).
            self.outer_clash = true;
        }
        self.numbered = true;
        let name =
            Name::Owned(first_free_numbered(base, |candidate| self.try_name(candidate)).into());
        self.taken.insert(name.clone());
        name
    }

    /// Takes `name`, an MSL name [`Namer::name`] gave in another scope, as it is: the
    /// caller knows it is free here.
    pub fn keep(&mut self, name: &Name<'a>) {
        self.taken.insert(name.clone());
    }

    /// Whether some name this scope gave got a number because its base was taken: when
    /// none did, each name is its [`sanitize`]d base.
    pub fn numbered(&self) -> bool {
        self.numbered
    }

    /// Whether `name` is taken in this scope or an enclosing one.
    pub fn is_taken(&self, name: &str) -> bool {
        self.taken.contains(name) || self.is_taken_outside(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inner_scopes_avoid_the_program_names_but_not_each_others() {
        let mut program = Namer::new();
        assert_eq!(&*program.name("f"), "f");
        program.share();
        assert_eq!(&*program.name("g"), "g");
        let mut first = program.inner();
        assert_eq!(&*first.name("f"), "f_1");
        assert_eq!(&*first.name("g"), "g_1");
        assert_eq!(&*first.name("x"), "x");
        let mut second = program.inner();
        assert_eq!(&*second.name("x"), "x");
        assert_eq!(&*program.name("x"), "x");
    }

    #[test]
    fn a_scope_inside_a_scope_inside_the_module_avoids_both() {
        let mut module = Namer::new();
        let global = module.name("g");
        module.share();
        let mut program = module.inner();
        assert!(!program.numbered());
        program.keep(&global);
        assert!(!program.numbered());
        assert_eq!(&*program.name("f"), "f");
        program.share();
        let mut function = program.inner();
        assert_eq!(&*function.name("g"), "g_1");
        assert_eq!(&*function.name("f"), "f_1");
        assert!(function.numbered());
        // The module's scope took nothing from the program's.
        assert!(!module.is_taken("f"));
    }

    #[test]
    fn keywords_and_metal_names_get_an_underscore() {
        for (hlsl, msl) in [
            ("kernel", "kernel_"),
            ("device", "device_"),
            ("constant", "constant_"),
            ("half", "half_"),
            ("main", "main_"),
            ("float3", "float3_"),
            ("float4x4", "float4x4_"),
            ("simd_sum", "simd_sum_"),
            ("select", "select_"),
            ("values", "values"),
            ("float5", "float5"),
        ] {
            assert_eq!(sanitize(hlsl), msl, "{hlsl}");
        }
    }

    #[test]
    fn generated_prefix_is_never_produced_from_user_names() {
        assert_eq!(sanitize("_e12"), "u_e12");
        assert_eq!(sanitize("9lives"), "v9lives");
        assert_eq!(sanitize(""), "v");
        assert_eq!(sanitize("a.b"), "a_b");
    }

    #[test]
    fn clashes_get_numbered() {
        let mut namer = Namer::new();
        assert_eq!(&*namer.name("i"), "i");
        assert_eq!(&*namer.name("i"), "i_1");
        assert_eq!(&*namer.name("i"), "i_2");
        assert_eq!(&*namer.name("kernel"), "kernel_");
        assert_eq!(&*namer.name("kernel_"), "kernel__1");
    }
}
