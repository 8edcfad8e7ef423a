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

use oneshader_ir::text::{identifier_hash, Name, Scope};
use oneshader_ir::{WordHash, WordTable};
use std::borrow::Cow;

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
    is_reserved_hashed(name, WordHash::of(name.as_bytes()))
}

/// [`is_reserved`] for a name whose [`WordHash`] the caller made already.
#[inline]
fn is_reserved_hashed(name: &str, hash: WordHash) -> bool {
    RESERVED_WORDS.get_hashed(name, hash).is_some() || is_vector_or_matrix_type(name)
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
    let hash = identifier_hash(name);
    let starts_well = name
        .bytes()
        .next()
        .is_some_and(|b| b != b'_' && !b.is_ascii_digit());
    if starts_well && hash.is_some_and(|hash| !is_reserved_hashed(name, hash)) {
        return Cow::Borrowed(name);
    }
    let plain = hash.is_some();
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

/// The MSL names a [`Scope`] gives: steps 1–3 of the scheme here, step 4 the scope's.
pub trait MslNames<'a> {
    /// The MSL name for `name`, text of the IR (or any text that outlives the output),
    /// in this scope, now taken: `name` itself, borrowed, when it needs no change.
    fn name_in_ir(&mut self, name: &'a str) -> Name<'a>;

    /// The MSL name for `name` in this scope, now taken.
    fn name(&mut self, name: &str) -> Name<'a>;
}

impl<'a> MslNames<'a> for Scope<'a> {
    fn name_in_ir(&mut self, name: &'a str) -> Name<'a> {
        self.take_base(sanitized(name))
    }

    fn name(&mut self, name: &str) -> Name<'a> {
        self.take(&sanitized(name), None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inner_scopes_avoid_the_program_names_but_not_each_others() {
        let mut program = Scope::new();
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
        let mut module = Scope::new();
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
        let mut namer = Scope::new();
        assert_eq!(&*namer.name("i"), "i");
        assert_eq!(&*namer.name("i"), "i_1");
        assert_eq!(&*namer.name("i"), "i_2");
        assert_eq!(&*namer.name("kernel"), "kernel_");
        assert_eq!(&*namer.name("kernel_"), "kernel__1");
    }
}
