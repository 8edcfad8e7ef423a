//! Identifier renaming: HLSL names made into WGSL identifiers that clash with nothing.
//!
//! The scheme (also in docs/wgsl.md):
//! - characters other than ASCII letters, digits and `_` become `_`;
//! - a name starting with `__` (reserved in WGSL) gets a `u` in front: `__x` → `u__x`;
//! - a name starting with a digit gets `v_` in front; an empty name or `_` becomes the
//!   fallback the caller gives;
//! - a WGSL keyword, reserved word, predeclared type, built-in function, enumerant
//!   (`read`, `storage`, …) or built-in value name, or a name of the form of our temporaries
//!   (`_e12`, `_e3_old`), gets `_` appended: `loop` → `loop_`, `select` → `select_`;
//! - a name already taken in the same scope gets `_1`, `_2`, … appended.
//!
//! Function scopes start from the module's names, so a local never shadows a global.

use std::borrow::Cow;

use oneshader_ir::text::{identifier_hash, Name, Scope};
use oneshader_ir::{StructMember, WordHash, WordTable};

/// WGSL keywords.
const KEYWORDS: &[&str] = &[
    "alias",
    "break",
    "case",
    "const",
    "const_assert",
    "continue",
    "continuing",
    "default",
    "diagnostic",
    "discard",
    "else",
    "enable",
    "false",
    "fn",
    "for",
    "if",
    "let",
    "loop",
    "override",
    "requires",
    "return",
    "struct",
    "switch",
    "true",
    "var",
    "while",
];

/// WGSL reserved words.
const RESERVED: &[&str] = &[
    "NULL",
    "Self",
    "abstract",
    "active",
    "alignas",
    "alignof",
    "as",
    "asm",
    "asm_fragment",
    "async",
    "attribute",
    "auto",
    "await",
    "become",
    "cast",
    "catch",
    "class",
    "co_await",
    "co_return",
    "co_yield",
    "coherent",
    "column_major",
    "common",
    "compile",
    "compile_fragment",
    "concept",
    "const_cast",
    "consteval",
    "constexpr",
    "constinit",
    "crate",
    "debugger",
    "decltype",
    "delete",
    "demote",
    "demote_to_helper",
    "do",
    "dynamic_cast",
    "enum",
    "explicit",
    "export",
    "extends",
    "extern",
    "external",
    "fallthrough",
    "filter",
    "final",
    "finally",
    "friend",
    "from",
    "fxgroup",
    "get",
    "goto",
    "groupshared",
    "highp",
    "impl",
    "implements",
    "import",
    "inline",
    "instanceof",
    "interface",
    "layout",
    "lowp",
    "macro",
    "macro_rules",
    "match",
    "mediump",
    "meta",
    "mod",
    "module",
    "move",
    "mut",
    "mutable",
    "namespace",
    "new",
    "nil",
    "noexcept",
    "noinline",
    "nointerpolation",
    "non_coherent",
    "noncoherent",
    "noperspective",
    "null",
    "nullptr",
    "of",
    "operator",
    "package",
    "packoffset",
    "partition",
    "pass",
    "patch",
    "pixelfragment",
    "precise",
    "precision",
    "premerge",
    "priv",
    "protected",
    "pub",
    "public",
    "readonly",
    "ref",
    "regardless",
    "register",
    "reinterpret_cast",
    "require",
    "resource",
    "restrict",
    "self",
    "set",
    "shared",
    "sizeof",
    "smooth",
    "snorm",
    "static",
    "static_assert",
    "static_cast",
    "std",
    "subroutine",
    "super",
    "target",
    "template",
    "this",
    "thread_local",
    "throw",
    "trait",
    "try",
    "type",
    "typedef",
    "typeid",
    "typename",
    "typeof",
    "union",
    "unless",
    "unorm",
    "unsafe",
    "unsized",
    "use",
    "using",
    "varying",
    "virtual",
    "volatile",
    "wgsl",
    "where",
    "with",
    "writeonly",
    "yield",
];

/// Predeclared types, type generators and their aliases.
const TYPES: &[&str] = &[
    "bool",
    "f16",
    "f32",
    "i32",
    "u32",
    "vec2",
    "vec3",
    "vec4",
    "mat2x2",
    "mat2x3",
    "mat2x4",
    "mat3x2",
    "mat3x3",
    "mat3x4",
    "mat4x2",
    "mat4x3",
    "mat4x4",
    "array",
    "atomic",
    "ptr",
    "sampler",
    "sampler_comparison",
    "texture_1d",
    "texture_2d",
    "texture_2d_array",
    "texture_3d",
    "texture_cube",
    "texture_cube_array",
    "texture_multisampled_2d",
    "texture_depth_2d",
    "texture_depth_2d_array",
    "texture_depth_cube",
    "texture_depth_cube_array",
    "texture_depth_multisampled_2d",
    "texture_external",
    "texture_storage_1d",
    "texture_storage_2d",
    "texture_storage_2d_array",
    "texture_storage_3d",
    "vec2i",
    "vec3i",
    "vec4i",
    "vec2u",
    "vec3u",
    "vec4u",
    "vec2f",
    "vec3f",
    "vec4f",
    "vec2h",
    "vec3h",
    "vec4h",
    "mat2x2f",
    "mat2x3f",
    "mat2x4f",
    "mat3x2f",
    "mat3x3f",
    "mat3x4f",
    "mat4x2f",
    "mat4x3f",
    "mat4x4f",
    "mat2x2h",
    "mat2x3h",
    "mat2x4h",
    "mat3x2h",
    "mat3x3h",
    "mat3x4h",
    "mat4x2h",
    "mat4x3h",
    "mat4x4h",
];

/// Built-in functions (a module-scope declaration of one of these would hide it).
const FUNCTIONS: &[&str] = &[
    "bitcast",
    "all",
    "any",
    "select",
    "arrayLength",
    "abs",
    "acos",
    "acosh",
    "asin",
    "asinh",
    "atan",
    "atanh",
    "atan2",
    "ceil",
    "clamp",
    "cos",
    "cosh",
    "countLeadingZeros",
    "countOneBits",
    "countTrailingZeros",
    "cross",
    "degrees",
    "determinant",
    "distance",
    "dot",
    "dot4U8Packed",
    "dot4I8Packed",
    "exp",
    "exp2",
    "extractBits",
    "faceForward",
    "firstLeadingBit",
    "firstTrailingBit",
    "floor",
    "fma",
    "fract",
    "frexp",
    "insertBits",
    "inverseSqrt",
    "ldexp",
    "length",
    "log",
    "log2",
    "max",
    "min",
    "mix",
    "modf",
    "normalize",
    "pow",
    "quantizeToF16",
    "radians",
    "reflect",
    "refract",
    "reverseBits",
    "round",
    "saturate",
    "sign",
    "sin",
    "sinh",
    "smoothstep",
    "sqrt",
    "step",
    "tan",
    "tanh",
    "transpose",
    "trunc",
    "dpdx",
    "dpdxCoarse",
    "dpdxFine",
    "dpdy",
    "dpdyCoarse",
    "dpdyFine",
    "fwidth",
    "fwidthCoarse",
    "fwidthFine",
    "textureDimensions",
    "textureGather",
    "textureGatherCompare",
    "textureLoad",
    "textureNumLayers",
    "textureNumLevels",
    "textureNumSamples",
    "textureSample",
    "textureSampleBias",
    "textureSampleCompare",
    "textureSampleCompareLevel",
    "textureSampleGrad",
    "textureSampleLevel",
    "textureSampleBaseClampToEdge",
    "textureStore",
    "atomicLoad",
    "atomicStore",
    "atomicAdd",
    "atomicSub",
    "atomicMax",
    "atomicMin",
    "atomicAnd",
    "atomicOr",
    "atomicXor",
    "atomicExchange",
    "atomicCompareExchangeWeak",
    "pack4x8snorm",
    "pack4x8unorm",
    "pack4xI8",
    "pack4xU8",
    "pack4xI8Clamp",
    "pack4xU8Clamp",
    "pack2x16snorm",
    "pack2x16unorm",
    "pack2x16float",
    "unpack4x8snorm",
    "unpack4x8unorm",
    "unpack4xI8",
    "unpack4xU8",
    "unpack2x16snorm",
    "unpack2x16unorm",
    "unpack2x16float",
    "storageBarrier",
    "textureBarrier",
    "workgroupBarrier",
    "workgroupUniformLoad",
    "subgroupAdd",
    "subgroupExclusiveAdd",
    "subgroupInclusiveAdd",
    "subgroupAll",
    "subgroupAnd",
    "subgroupAny",
    "subgroupBallot",
    "subgroupBroadcast",
    "subgroupBroadcastFirst",
    "subgroupElect",
    "subgroupMax",
    "subgroupMin",
    "subgroupMul",
    "subgroupExclusiveMul",
    "subgroupInclusiveMul",
    "subgroupOr",
    "subgroupShuffle",
    "subgroupShuffleDown",
    "subgroupShuffleUp",
    "subgroupShuffleXor",
    "subgroupXor",
    "quadBroadcast",
    "quadSwapDiagonal",
    "quadSwapX",
    "quadSwapY",
];

/// Enumerants and built-in value names: predeclared, so a declaration would hide them from
/// `var<storage, read>` or `@builtin(position)`.
const ENUMERANTS: &[&str] = &[
    "read",
    "write",
    "read_write",
    "function",
    "private",
    "workgroup",
    "uniform",
    "storage",
    "perspective",
    "linear",
    "flat",
    "center",
    "centroid",
    "sample",
    "first",
    "either",
    "vertex_index",
    "instance_index",
    "position",
    "front_facing",
    "frag_depth",
    "sample_index",
    "sample_mask",
    "local_invocation_id",
    "local_invocation_index",
    "global_invocation_id",
    "workgroup_id",
    "num_workgroups",
    "subgroup_invocation_id",
    "subgroup_size",
    "clip_distances",
    "primitive_index",
    "rgba8unorm",
    "rgba8snorm",
    "rgba8uint",
    "rgba8sint",
    "rgba16uint",
    "rgba16sint",
    "rgba16float",
    "r32uint",
    "r32sint",
    "r32float",
    "rg32uint",
    "rg32sint",
    "rg32float",
    "rgba32uint",
    "rgba32sint",
    "rgba32float",
    "bgra8unorm",
];

/// What a word of WGSL's own is, for renaming.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Word {
    /// A keyword or reserved word: no identifier may be it, not even a member's.
    Keyword,
    /// A predeclared type, built-in function or enumerant ([`TYPES`], [`FUNCTIONS`],
    /// [`ENUMERANTS`]): declaring it would shadow WGSL's.
    Predeclared,
}

/// WGSL's words, in a table the compiler builds. Keywords last: a word in both lists is
/// a keyword.
static WORDS: WordTable<Word, 1024> = WordTable::new(&[
    (TYPES, Word::Predeclared),
    (FUNCTIONS, Word::Predeclared),
    (ENUMERANTS, Word::Predeclared),
    (KEYWORDS, Word::Keyword),
    (RESERVED, Word::Keyword),
]);

/// Whether `name` has the form of the temporaries the writer makes: `_e` and a digit.
fn is_temporary_name(name: &str) -> bool {
    name.strip_prefix("_e")
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
}

/// The WGSL names a [`Scope`] gives: a name made a valid identifier here, then made
/// unique by the scope.
pub trait WgslNames<'a> {
    /// [`WgslNames::name`] for `name`, text of the IR (or any text that outlives the
    /// output): `name` itself, borrowed, when it needs no change.
    fn name_in_ir(&mut self, name: &'a str, fallback: &str) -> Name<'a>;

    /// A unique identifier for the HLSL name `name`, `fallback` if nothing usable is left.
    fn name(&mut self, name: &str, fallback: &str) -> Name<'a>;
}

impl<'a> WgslNames<'a> for Scope<'a> {
    fn name_in_ir(&mut self, name: &'a str, fallback: &str) -> Name<'a> {
        self.take_base(sanitized(name, fallback, false))
    }

    fn name(&mut self, name: &str, fallback: &str) -> Name<'a> {
        self.take(&sanitized(name, fallback, false), None)
    }
}

/// The WGSL names of a struct's `members`, unique within the struct. Only keywords and
/// reserved words clash with a member's name (members are never looked up as
/// identifiers, so `position` or `f32` are fine member names).
pub fn member_names(members: &[StructMember]) -> Vec<Name<'_>> {
    let mut scope = Scope::new();
    members
        .iter()
        .map(|member| scope.take_base(sanitized(&member.name, "member", true)))
        .collect()
}

/// `name` made a valid WGSL identifier that is no keyword or predeclared name (`fallback`
/// if nothing usable is left): the name a scope gives it when that is free.
pub fn identifier(name: &str, fallback: &str) -> String {
    sanitized(name, fallback, false).into_owned()
}

/// Whether `name` is a valid WGSL identifier as it is, one that is no keyword (nor, unless
/// it names a struct `member`, a predeclared name or of the form of our temporaries):
/// nearly every name.
fn fits(name: &str, member: bool) -> bool {
    let starts_well = match name.as_bytes() {
        [] | [b'_'] | [b'_', b'_', ..] => false,
        [first, ..] => !first.is_ascii_digit(),
    };
    starts_well && identifier_hash(name).is_some_and(|hash| !clashes_hashed(name, hash, member))
}

/// `name` made a valid WGSL identifier that is no keyword or, unless it names a struct
/// `member`, predeclared name (`fallback` if nothing usable is left): `name` itself when
/// it already is one (nearly every name).
fn sanitized<'n>(name: &'n str, fallback: &str, member: bool) -> Cow<'n, str> {
    if fits(name, member) {
        return Cow::Borrowed(name);
    }
    let plain = name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
    let mut out = String::with_capacity(name.len() + 3);
    if plain {
        out.push_str(name);
    } else {
        out.extend(name.chars().map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        }));
    }
    if out.is_empty() || out == "_" {
        out.clear();
        out.push_str(fallback);
    }
    if out.starts_with("__") {
        out.insert(0, 'u');
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert_str(0, "v_");
    }
    if clashes(&out, member) {
        out.push('_');
    }
    Cow::Owned(out)
}

/// Whether `name` (a valid identifier) must get `_` appended: it is a keyword, or, unless
/// it names a struct member, a predeclared name or of the form of our temporaries.
fn clashes(name: &str, member: bool) -> bool {
    clashes_hashed(name, WordHash::of(name.as_bytes()), member)
}

/// [`clashes`] for a name whose [`WordHash`] the caller made already.
#[inline]
fn clashes_hashed(name: &str, hash: WordHash, member: bool) -> bool {
    let word = WORDS.get_hashed(name, hash);
    if member {
        word == Some(Word::Keyword)
    } else {
        word.is_some() || is_temporary_name(name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renames_keywords_reserved_words_and_double_underscores() {
        let mut namer = Scope::new();
        assert_eq!(&*namer.name("loop", "v"), "loop_");
        assert_eq!(&*namer.name("select", "v"), "select_");
        assert_eq!(&*namer.name("read", "v"), "read_");
        assert_eq!(&*namer.name("__x", "v"), "u__x");
        assert_eq!(&*namer.name("9lives", "v"), "v_9lives");
        assert_eq!(&*namer.name("", "arg"), "arg");
        assert_eq!(&*namer.name("_", "arg"), "arg_1");
        assert_eq!(&*namer.name("_e12", "v"), "_e12_");
        assert_eq!(&*namer.name("_edge", "v"), "_edge");
        assert_eq!(&*namer.name("Values", "v"), "Values");
    }

    #[test]
    fn members_only_avoid_keywords() {
        let member = |name: &str| sanitized(name, "m", true).into_owned();
        assert_eq!(member("position"), "position");
        assert_eq!(member("f32"), "f32");
        assert_eq!(member("loop"), "loop_");
    }

    #[test]
    fn inner_scopes_avoid_the_outer_names_but_not_each_others() {
        let mut module = Scope::new();
        assert_eq!(&*module.name("f", "v"), "f");
        module.share();
        assert_eq!(&*module.name("g", "v"), "g");
        let mut first = module.inner();
        assert_eq!(&*first.name("f", "v"), "f_1");
        assert_eq!(&*first.name("g", "v"), "g_1");
        assert_eq!(&*first.name("x", "v"), "x");
        let mut second = module.inner();
        assert_eq!(&*second.name("x", "v"), "x");
        assert_eq!(&*second.name("g", "v"), "g_1");
        // The inner scopes took nothing from the module's.
        assert_eq!(&*module.name("x", "v"), "x");
    }

    #[test]
    fn keeps_names_unique() {
        let mut namer = Scope::new();
        namer.take_as_is(Name::Borrowed("lane_index"));
        assert_eq!(&*namer.name("lane_index", "v"), "lane_index_1");
        assert_eq!(&*namer.name("x", "v"), "x");
        assert_eq!(&*namer.name("x", "v"), "x_1");
        assert_eq!(&*namer.name("x_1", "v"), "x_1_1");
    }
}
