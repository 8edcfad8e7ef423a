//! The catalog of diagnostic codes: for every [`Code`], its name, severity and the
//! explanation, example and fix that `oneshader explain` prints and
//! `docs/diagnostics.md` is generated from ([`markdown`]).
//!
//! Codes are stable: an entry may be reworded, never renumbered or reused.

use crate::diagnostic::{codes, Code, Severity};

/// Everything said about one code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CodeInfo {
    /// The code.
    pub code: Code,
    /// A short kebab-case name, such as `intrinsic-not-supported` (SARIF's rule name).
    pub name: &'static str,
    /// The severity it is reported with.
    pub severity: Severity,
    /// One line: what the diagnostic means.
    pub summary: &'static str,
    /// Why it happens, in a paragraph or two.
    pub explanation: &'static str,
    /// HLSL (or a command line) that produces it.
    pub example: &'static str,
    /// What to do about it.
    pub fix: &'static str,
}

const fn entry(
    code: Code,
    name: &'static str,
    severity: Severity,
    summary: &'static str,
    explanation: &'static str,
    example: &'static str,
    fix: &'static str,
) -> CodeInfo {
    CodeInfo {
        code,
        name,
        severity,
        summary,
        explanation,
        example,
        fix,
    }
}

use Severity::{Error, Warning};

/// One limit that turns runaway input into a diagnostic instead of a crash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// What is limited.
    pub what: &'static str,
    /// The limit, in words.
    pub value: &'static str,
    /// The code reported past it.
    pub code: Code,
}

/// The limits, as `docs/diagnostics.md` lists them. The numbers live beside the code
/// that enforces them (`oneshader_hlsl::parser::MAX_NESTING`, the `MAX_*` constants of
/// `oneshader_hlsl::preprocess`, [`crate::analysis::MAX_WORKGROUP_BYTES`]).
pub const LIMITS: &[Limit] = &[
    Limit {
        what: "Source text: the main file and every inclusion, each time it is included",
        value: "64 MiB",
        code: codes::SOURCE_NOT_ACCEPTED,
    },
    Limit {
        what: "Tokens after preprocessing",
        value: "4,000,000",
        code: codes::SOURCE_NOT_ACCEPTED,
    },
    Limit {
        what: "Include depth (a cycle is named as such)",
        value: "64 files",
        code: codes::INCLUDE_DEPTH,
    },
    Limit {
        what: "Nested macro expansions, and macro arguments within arguments",
        value: "256 levels",
        code: codes::MACRO_EXPANSION_LIMIT,
    },
    Limit {
        what: "Tokens from one macro use in the source",
        value: "100,000",
        code: codes::MACRO_EXPANSION_LIMIT,
    },
    Limit {
        what: "Nesting of expressions, statements and types: each operator of a chain \
               (`a + b + c`, `v[0].x`) is a level, a parenthesis two, an array \
               dimension of a declaration (`a[2][3]`) one. \
               Fatal: the rest of the file is not parsed",
        value: "128 levels",
        code: codes::NESTING_TOO_DEEP,
    },
    Limit {
        what: "Structs nested in structs (SPIR-V's universal limit, for every target): a \
               struct without struct members is one level, an array between two structs \
               adds none; the error is at the member, which is dropped",
        value: "255 levels",
        code: codes::NESTING_TOO_DEEP,
    },
    Limit {
        what: "Types nested in types, every target (Tint's limit): each array dimension \
               and each struct is a level, also through typedefs; the error is at the \
               array's first dimension or at the struct's member",
        value: "255 levels",
        code: codes::NESTING_TOO_DEEP,
    },
    Limit {
        what: "Nesting of WGSL statements (Tint's limit): an `if` or a loop is two levels, \
               an `else if` one",
        value: "127 levels",
        code: codes::WGSL_NESTING_TOO_DEEP,
    },
    Limit {
        what: "Nesting of composite types, for WGSL (Tint's limit): a struct or an array is \
               one level more than what it holds, a vector one level, a matrix two; so the \
               structs of a buffer (a runtime array in WGSL) nest at most 254 deep",
        value: "255 levels",
        code: codes::WGSL_UNSUPPORTED,
    },
    Limit {
        what: "Elements of an array",
        value: "16,777,216",
        code: codes::TYPE_MISMATCH,
    },
    Limit {
        what: "Bytes of an array, all its dimensions together (sizes are 32-bit)",
        value: "under 4 GiB",
        code: codes::TYPE_MISMATCH,
    },
    Limit {
        what: "Elements of an array in a local or `static` variable, for WGSL (Tint's limit)",
        value: "65,535",
        code: codes::WGSL_UNSUPPORTED,
    },
    Limit {
        what: "Members of one struct, for WGSL (Tint's limit; WGSL promises 1,023); the \
               error is at the struct",
        value: "16,383",
        code: codes::WGSL_UNSUPPORTED,
    },
    Limit {
        what: "Case selectors of one `switch`, for WGSL (Tint's limit; WGSL promises 1,023): \
               each case, and the `default` written where there is none",
        value: "16,383",
        code: codes::WGSL_UNSUPPORTED,
    },
    Limit {
        what: "Elements of one array value (an initializer), for WGSL (Tint's limit; WGSL \
               promises 2,047)",
        value: "32,767",
        code: codes::WGSL_UNSUPPORTED,
    },
    Limit {
        what: "Parameters of a function, for WGSL, the lane index and count it is passed \
               among them",
        value: "255",
        code: codes::WGSL_UNSUPPORTED,
    },
    Limit {
        what: "Words of one SPIR-V instruction: an array initializer takes its elements \
               and 3",
        value: "65,535",
        code: codes::SPIRV_UNSUPPORTED,
    },
    Limit {
        what: "Cases of one `switch`, for SPIR-V (its universal limit)",
        value: "16,383",
        code: codes::SPIRV_UNSUPPORTED,
    },
    Limit {
        what: "Members of one struct, for SPIR-V (its universal limit); the error is at the struct",
        value: "16,383",
        code: codes::SPIRV_UNSUPPORTED,
    },
    Limit {
        what: "Parameters of a function SPIR-V declares (one not inlined), for SPIR-V (its \
               universal limit)",
        value: "255",
        code: codes::SPIRV_UNSUPPORTED,
    },
    Limit {
        what: "Global variables an entry point uses (resources, `static` and `groupshared` \
               variables, stage inputs and outputs), for SPIR-V: its limit is 65,535, and \
               `OpEntryPoint` lists them all in one instruction (65,535 words, less 3 and \
               the name's words). A name of more than 65,535 bytes is left out of the debug \
               names",
        value: "65,530 for a name of 4-7 letters",
        code: codes::SPIRV_UNSUPPORTED,
    },
    Limit {
        what: "Bytes of an entry point's name, for SPIR-V (`OpEntryPoint` holds it, and its \
               globals after it)",
        value: "262,127",
        code: codes::SPIRV_UNSUPPORTED,
    },
    Limit {
        what: "Groupshared memory an entry point uses",
        value: "32 KiB",
        code: codes::GROUPSHARED_TOO_LARGE,
    },
];

/// Every code, in numeric order.
pub const CATALOG: &[CodeInfo] = &[
    entry(
        codes::FILE_NOT_READABLE,
        "file-not-readable",
        Error,
        "A file could not be read.",
        "The input file (or a file named in a manifest) does not exist, is a directory, or \
         cannot be opened. The diagnostic points at line 1, column 1 of that file and carries \
         the operating system's reason.",
        "oneshader compile missing.hlsl -o out",
        "Check the path and its permissions. Paths are relative to the current directory \
         (or, in `oneshader.toml`, to the manifest's directory).",
    ),
    entry(
        codes::SOURCE_NOT_ACCEPTED,
        "source-not-accepted",
        Error,
        "The input is not valid UTF-8 or is too large.",
        "oneshader reads HLSL as UTF-8. A file in another encoding (UTF-16 with a byte-order \
         mark, Latin-1 with accented letters in comments) stops at the first byte that is not \
         UTF-8; the diagnostic points at it. The source text read (the main file and each \
         inclusion) may total 64 MiB, and preprocessing may produce 4,000,000 tokens; past \
         either, the rest is not read.",
        "// a comment saved as Latin-1: caf\\xe9\nfloat4 main() : SV_Target { return 0; }",
        "Save the file as UTF-8 (ASCII is UTF-8).",
    ),
    entry(
        codes::TOO_MANY_ERRORS,
        "too-many-errors",
        Error,
        "Too many errors; the rest were not reported.",
        "After 100 errors in one file the compiler stops reporting, since later errors are \
         usually consequences of the first ones. The compile fails either way.",
        "// a file with more than 100 errors",
        "Fix the first errors and compile again.",
    ),
    entry(
        codes::INVALID_IR,
        "invalid-ir",
        Error,
        "An IR module that breaks the IR's structural rules (built by hand, not by the front end).",
        "Only a module built through the `oneshader-ir` library, not from HLSL, can get this: \
         before the backends run, the facade checks in one pass that every handle is in \
         range, that each expression's operands are earlier expressions of its function \
         (no cycles), that each function has one type per expression, that helpers call \
         only functions before them with one argument per parameter, and that no type \
         contains itself (`oneshader_ir::valid`). The message names the rule broken.",
        "// a hand-built module whose expression 3 is `Load { pointer: 5 }`",
        "Fix the code that built the module: append each expression after its operands.",
    ),
    entry(
        codes::INVALID_CHARACTER,
        "invalid-character",
        Error,
        "A character that starts no HLSL token.",
        "The lexer found a character that is not part of any HLSL token, such as `@` or `$` \
         outside a string, or a non-ASCII letter in an identifier.",
        "float a = 1 @ 2;",
        "Remove the character, or move it into a comment or string.",
    ),
    entry(
        codes::UNTERMINATED,
        "unterminated",
        Error,
        "A block comment or string literal that never ends.",
        "A `/*` comment without `*/`, or a string literal without its closing `\"` before \
         the end of the line. Everything after it would be swallowed, so the error points at \
         where it starts.",
        "/* the comment starts here\nfloat4 main() : SV_Target { return 0; }",
        "Close the comment with `*/` or the string with `\"`.",
    ),
    entry(
        codes::BAD_LITERAL,
        "bad-literal",
        Error,
        "A numeric literal that is malformed or out of range.",
        "An integer literal too large for 64 bits, a hexadecimal literal without digits, a \
         suffix HLSL does not know, or a malformed exponent.",
        "uint big = 0x;",
        "Write the number in a form HLSL accepts: `0x1F`, `10u`, `1.5f`, `2.0e-3`.",
    ),
    entry(
        codes::ERROR_DIRECTIVE,
        "error-directive",
        Error,
        "`#error` was reached.",
        "The preprocessor reached an `#error` line in code that is compiled; the message is \
         the directive's text. Headers use it to reject configurations they do not support.",
        "#ifndef TILE_SIZE\n#error TILE_SIZE must be defined\n#endif",
        "Do what the message asks, usually defining a macro with `-D` or in the manifest.",
    ),
    entry(
        codes::INCLUDE_NOT_FOUND,
        "include-not-found",
        Error,
        "An `#include` names a file found neither beside the includer nor in any `-I` directory.",
        "`#include \"x\"` and `#include <x>` are looked up beside the including file first, \
         then in each `-I` directory in order.",
        "#include \"missing.hlsli\"",
        "Fix the name, or add the directory that holds the file with `-I DIR` (or `include` \
         in `oneshader.toml`).",
    ),
    entry(
        codes::INCLUDE_DEPTH,
        "include-depth",
        Error,
        "Includes nest too deep or form a cycle.",
        "Includes may nest 64 deep. Deeper nesting is almost always a file that includes \
         itself through others; the message names the cycle.",
        "// a.hlsli\n#include \"b.hlsli\"\n// b.hlsli\n#include \"a.hlsli\"",
        "Break the cycle, and guard headers with `#pragma once` or `#ifndef`/`#define`.",
    ),
    entry(
        codes::MACRO_EXPANSION_LIMIT,
        "macro-expansion-limit",
        Error,
        "Macro expansion runs away (too deep or too large).",
        "One macro use expanded to more than 100,000 tokens, or expansions nested more than \
         256 deep. This guards against macros that grow exponentially.",
        "#define A(x) x x x x x x x x x x\n#define B(x) A(A(A(A(A(A(x))))))\nint v = B(1);",
        "Simplify the macros; use functions for what repeats at run time.",
    ),
    entry(
        codes::BAD_DIRECTIVE,
        "bad-directive",
        Error,
        "A malformed or unknown preprocessor directive.",
        "A line starting with `#` that is not a directive the preprocessor knows, or a known \
         directive with malformed arguments (`#define` without a name, `#include` without a \
         file name).",
        "#defne N 4",
        "Fix the spelling or the arguments of the directive.",
    ),
    entry(
        codes::UNBALANCED_CONDITIONAL,
        "unbalanced-conditional",
        Error,
        "`#if` without `#endif`, or `#else`/`#endif` without `#if`.",
        "Every `#if`, `#ifdef` and `#ifndef` needs its `#endif` in the same file; `#elif`, \
         `#else` and `#endif` need an open `#if`.",
        "#ifdef FAST\nfloat scale = 2;\n",
        "Add the missing `#endif` (or remove the stray one).",
    ),
    entry(
        codes::BAD_CONDITION,
        "bad-condition",
        Error,
        "An `#if` expression that cannot be evaluated.",
        "`#if` and `#elif` take an integer constant expression of macros, literals, \
         `defined(NAME)` and operators. Division by zero, a missing operand or an unbalanced \
         parenthesis cannot be evaluated.",
        "#if 4 / 0\n#endif",
        "Fix the expression; test a macro's presence with `defined(NAME)`.",
    ),
    entry(
        codes::MACRO_ARGUMENTS,
        "macro-arguments",
        Error,
        "A function-like macro called with the wrong number of arguments.",
        "A function-like macro must be given exactly as many arguments as it has parameters \
         (at least as many, for a variadic one). A comma inside the arguments separates them \
         unless it is inside parentheses.",
        "#define MAX(a, b) ((a) > (b) ? (a) : (b))\nint m = MAX(1, 2, 3);",
        "Pass the right number of arguments; wrap an argument that contains a comma in \
         parentheses.",
    ),
    entry(
        codes::BAD_TOKEN_PASTE,
        "bad-token-paste",
        Error,
        "A token paste (`##`) that does not form one token.",
        "`##` glues the tokens on its two sides into one token. When the text it makes is not \
         a single token (`+` pasted with `x` makes `+x`, two tokens), the paste is an error.",
        "#define GLUE(a, b) a ## b\nint v = GLUE(+, x);",
        "Paste only pieces that form one identifier, number or operator; to put tokens side \
         by side, write them without `##`.",
    ),
    entry(
        codes::WARNING_DIRECTIVE,
        "warning-directive",
        Warning,
        "`#warning` was reached.",
        "The preprocessor reached a `#warning` line in code that is compiled; the message is \
         the directive's text. Compilation continues.",
        "#warning this path is slow",
        "Do what the message says, or remove the directive. `-w` hides warnings; `-Werror` \
         makes them errors.",
    ),
    entry(
        codes::SYNTAX,
        "syntax",
        Error,
        "The parser expected something else here.",
        "The tokens do not form HLSL here: a missing `;`, `)` or `}`, or a keyword in the \
         wrong place. The parser skips to the next `;` or `}` and goes on, so later errors \
         are reported too.",
        "float4 main() : SV_Target { return 0 }",
        "Insert or remove what the message names; the missing token is usually just before \
         the location.",
    ),
    entry(
        codes::NESTING_TOO_DEEP,
        "nesting-too-deep",
        Error,
        "Expressions or statements nest deeper than the compiler allows.",
        "Parentheses, blocks or expressions nested hundreds deep would exhaust the compiler's \
         stack; it stops at a fixed depth instead. Structs nest at most 255 deep (SPIR-V's \
         limit): the member that would make a struct deeper is reported and dropped (this \
         error is not fatal).",
        "float v = ((((((((((((((((((((1))))))))))))))))))));  // times a few hundred",
        "Split the expression with temporaries or the block with functions; flatten deeply \
         nested structs, moving the fields of an inner struct into the struct holding it.",
    ),
    entry(
        codes::UNKNOWN_IDENTIFIER,
        "unknown-identifier",
        Error,
        "A name that is not declared.",
        "The name is not a local, parameter, global, function or intrinsic in scope. Names \
         are case-sensitive, and a global must be declared before the function that uses it.",
        "float4 main() : SV_Target { return colour; }",
        "Declare the name, or fix its spelling.",
    ),
    entry(
        codes::UNKNOWN_TYPE,
        "unknown-type",
        Error,
        "A type name that is not declared.",
        "The type is neither an HLSL built-in type nor a struct declared before this point.",
        "Light lights[4];",
        "Declare the struct before its first use, or fix the spelling (`float4`, not \
         `vec4`).",
    ),
    entry(
        codes::TYPE_MISMATCH,
        "type-mismatch",
        Error,
        "A value of one type used where another is needed and no conversion exists.",
        "HLSL converts between numeric scalars, vectors and matrices implicitly, but not \
         between a struct and a number, a resource and a value, or vectors where neither \
         converts to the other.",
        "struct S { float a; };\nfloat f(S s) { return s; }",
        "Convert explicitly, or use the member or component you meant.",
    ),
    entry(
        codes::ARGUMENT_COUNT,
        "argument-count",
        Error,
        "A call with the wrong number of arguments.",
        "A function or intrinsic called with more or fewer arguments than any of its \
         declarations takes.",
        "float f(float a, float b) { return a + b; }\nfloat g() { return f(1); }",
        "Pass the arguments the function declares.",
    ),
    entry(
        codes::NO_MATCHING_OVERLOAD,
        "no-matching-overload",
        Error,
        "No overload of a function or intrinsic accepts these argument types.",
        "The arguments' types match none of the overloads, even with implicit conversions: \
         for example a bit intrinsic given a float, or a wave intrinsic given a struct.",
        "float v = countbits(1.5f);",
        "Pass arguments of the types the function takes; convert with a cast or `asuint`.",
    ),
    entry(
        codes::REDEFINITION,
        "redefinition",
        Error,
        "A name declared twice in one scope.",
        "Two globals, two locals in one block, two parameters, or two struct members share a \
         name.",
        "float f() { float x = 1; float x = 2; return x; }",
        "Rename one of them, or assign instead of declaring again.",
    ),
    entry(
        codes::NOT_ASSIGNABLE,
        "not-assignable",
        Error,
        "Assignment to something that is not an l-value, or to a read-only resource.",
        "Only variables, their members and components, and elements of read-write resources \
         can be assigned. Constants, function results, `cbuffer` members and elements of \
         `StructuredBuffer` (read-only) cannot.",
        "StructuredBuffer<float> In;\n[numthreads(1,1,1)] void main() { In[0] = 1; }",
        "Write into a read-write resource (`RWStructuredBuffer`, register `u`) or a local \
         copy.",
    ),
    entry(
        codes::UNKNOWN_MEMBER,
        "unknown-member",
        Error,
        "A member or method that the type does not have.",
        "The struct has no member of that name, the swizzle uses components the vector lacks \
         (`.z` of a `float2`), or the resource has no such method.",
        "float2 v = 0;\nfloat z = v.z;",
        "Use a member the type declares, or a swizzle within its length.",
    ),
    entry(
        codes::UNSUPPORTED_CONSTRUCT,
        "unsupported-construct",
        Error,
        "A language construct this version of oneshader does not compile yet.",
        "The HLSL is valid, but oneshader does not yet compile this construct (for example \
         a 1xN matrix or an integer matrix in stage inputs, or a bool matrix in a structured \
         buffer). The message names the construct and what to write instead.",
        "float4 main(float4x1 position : POSITION) : SV_Position",
        "Rewrite it with the constructs the message suggests, or report the need.",
    ),
    entry(
        codes::ENTRY_POINT_NOT_FOUND,
        "entry-point-not-found",
        Error,
        "The requested entry point does not exist, or none could be found.",
        "`-E NAME` (or `entry` in the manifest) names a function that does not exist, or the \
         file has no function marked as an entry point (`[shader(\"...\")]`, `[numthreads]`) \
         and no `-E`/`-T` to pick one.",
        "oneshader compile shader.hlsl -E Main -o out   # the function is CSMain",
        "Pass the entry point's name as written; the help lists the entry points found.",
    ),
    entry(
        codes::ENTRY_POINT_INVALID,
        "entry-point-invalid",
        Error,
        "An entry point lacks what its stage needs (`[numthreads]`, semantics, …).",
        "A compute shader needs `[numthreads(x, y, z)]`; the inputs and outputs of vertex and \
         pixel shaders need semantics (`SV_Position`, `TEXCOORD0`); a system value must suit \
         the stage.",
        "[shader(\"compute\")]\nvoid CSMain() {}",
        "Add what the message names, such as `[numthreads(64, 1, 1)]` or `: SV_Target`.",
    ),
    entry(
        codes::BAD_BINDING,
        "bad-binding",
        Error,
        "An invalid `register(...)` or `[[vk::binding]]`.",
        "A register whose class does not fit the resource (`t` for shader resources, `u` for \
         read-write ones, `b` for constant buffers, `s` for samplers), a malformed register, \
         two resources at one binding, or a second `[[vk::push_constant]]` block (a shader \
         has at most one).",
        "RWStructuredBuffer<uint> Out : register(t0);",
        "Use the register class the message names, such as `register(u0)`, give each \
         resource its own binding, and merge push-constant blocks into one.",
    ),
    entry(
        codes::BAD_PROFILE,
        "bad-profile",
        Error,
        "An unknown or malformed shader profile (`-T`).",
        "Profiles are `vs_6_N`, `ps_6_N`, `cs_6_N` or `lib_6_N` with `N` from 0 to 8.",
        "oneshader compile shader.hlsl -T cs_5_0 -o out",
        "Use a shader model 6 profile, such as `cs_6_0`.",
    ),
    entry(
        codes::INTRINSIC_NOT_SUPPORTED,
        "intrinsic-not-supported",
        Error,
        "The intrinsic is not supported on any target.",
        "Some HLSL intrinsics have no portable equivalent on Vulkan, Metal and WebGPU. \
         `WaveMatch` and the `WaveMultiPrefix*` family need partitioned subgroup operations, \
         which only a vendor extension of SPIR-V offers and MSL and WGSL lack entirely, so \
         oneshader rejects them rather than emit something that works on one target only.",
        "RWStructuredBuffer<uint4> Out;\n[numthreads(64, 1, 1)]\nvoid CSMain(uint3 id : SV_DispatchThreadID) {\n    Out[id.x] = WaveMatch(id.x);\n}",
        "Build the groups yourself: loop while lanes remain, take the first remaining lane's \
         value with `WaveReadLaneFirst`, and find the lanes that share it with \
         `WaveActiveBallot(value == first)`.",
    ),
    entry(
        codes::RECURSION,
        "recursion",
        Error,
        "A function calls itself, directly or indirectly.",
        "GPU shading languages have no call stack: SPIR-V for Vulkan, MSL and WGSL all forbid \
         recursion, and so does HLSL.",
        "uint fact(uint n) { return n <= 1 ? 1 : n * fact(n - 1); }",
        "Rewrite the recursion as a loop, with an explicit stack in an array if needed.",
    ),
    entry(
        codes::GROUPSHARED_TOO_LARGE,
        "groupshared-too-large",
        Error,
        "An entry point uses more groupshared memory than the 32 KiB every device has.",
        "The groupshared variables an entry point uses (directly or through the functions it \
         calls) must fit in 32,768 bytes: D3D12's limit, which DXC enforces, and the minimum \
         of Vulkan's `maxComputeSharedMemorySize` and WebGPU's \
         `maxComputeWorkgroupStorageSize`. Variables the entry point does not use do not count.",
        "groupshared float4 tile[4096];  // 64 KiB",
        "Use smaller tiles or fewer components (`half`, packed `uint`), or keep the data in a \
         RWStructuredBuffer.",
    ),
    entry(
        codes::IMPLICIT_TRUNCATION,
        "implicit-truncation",
        Warning,
        "An implicit conversion loses components (implicit truncation of vector type).",
        "Assigning or passing a longer vector where a shorter one is expected keeps only the \
         first components, silently. DXC warns the same way.",
        "float4 c = 1;\nfloat3 rgb = c;",
        "Say which components you mean with a swizzle (`c.rgb`) or a cast (`(float3)c`).",
    ),
    entry(
        codes::CONVERSION_LOSS,
        "conversion-loss",
        Warning,
        "An implicit conversion from a larger type to a smaller one may lose data.",
        "Assigning, passing or returning a value where a type with fewer bits is expected \
         converts it silently: a `double` to a `float` loses precision, a `double` to an \
         `int` drops the fraction and overflows, a 64-bit integer to a 32-bit one drops the \
         high bits. As in DXC (warning X3205), conversions between types of the same width \
         (`float` to `int`), conversions to `bool` and untyped literals (`float f = 2.5;`) \
         do not warn.",
        "double total = 0;\nfloat average = total / 4;",
        "Convert explicitly when the loss is intended (`int i = (int)f;`, `round`, `floor`), \
         or keep the wider type.",
    ),
    entry(
        codes::SPIRV_UNSUPPORTED,
        "spirv-unsupported",
        Error,
        "The SPIR-V backend cannot express this construct.",
        "The program is valid HLSL and reached the SPIR-V backend, but the backend has no \
         mapping for a construct in it. The message names the construct. For example, \
         Vulkan gives `bool` no memory layout, so a buffer of `bool` cannot be declared.",
        "RWStructuredBuffer<bool> Visible : register(u0);\n[numthreads(64, 1, 1)]\nvoid CSMain(uint3 id : SV_DispatchThreadID) {\n    Visible[id.x] = id.x % 2 == 0;\n}",
        "Compile for the other targets only (`--target msl,wgsl`), or rewrite the construct.",
    ),
    entry(
        codes::MSL_UNSUPPORTED,
        "msl-unsupported",
        Error,
        "The MSL backend cannot express this construct.",
        "The program is valid HLSL, but Metal Shading Language 2.4 has no equivalent for a \
         construct in it. The message names the construct. For example, MSL has no 64-bit \
         floating-point type, so `double` cannot be compiled for Metal.",
        "RWStructuredBuffer<float> Out : register(u0);\n[numthreads(64, 1, 1)]\nvoid CSMain(uint3 id : SV_DispatchThreadID) {\n    double sum = id.x;\n    Out[id.x] = (float)(sum / 3);\n}",
        "Compile for the other targets only (`--target spirv,wgsl`), or rewrite the construct.",
    ),
    entry(
        codes::MSL_WAVE_STAGE,
        "msl-wave-stage",
        Error,
        "Metal has no lane index or lane count in this stage.",
        "Metal's SIMD-group functions need `thread_index_in_simdgroup` and \
         `threads_per_simdgroup`, which vertex functions do not have. Wave intrinsics that \
         need the lane index or count (`WaveGetLaneIndex`, `WaveGetLaneCount`, prefix \
         operations) therefore cannot be compiled for a vertex shader in MSL.",
        "[shader(\"vertex\")]\nfloat4 VSMain(uint v : SV_VertexID) : SV_Position {\n    return WaveGetLaneIndex();\n}",
        "Move the wave operation to a compute or pixel shader, or compile the vertex shader \
         without the MSL target.",
    ),
    entry(
        codes::WGSL_UNSUPPORTED,
        "wgsl-unsupported",
        Error,
        "The WGSL backend cannot express this construct.",
        "The program is valid HLSL, but WGSL has no equivalent for a construct in it. The \
         message names the construct. For example, WGSL has no 64-bit integers. (A \
         `cbuffer` whose HLSL packing WGSL's uniform rules cannot express, such as a \
         `float3` right after a `float`, is declared as rows of `vec4<u32>` instead, so it \
         compiles.)",
        "RWStructuredBuffer<uint64_t> Timestamps : register(u0);\n[numthreads(64, 1, 1)]\nvoid CSMain(uint3 id : SV_DispatchThreadID) {\n    Timestamps[id.x] = (uint64_t)id.x << 32;\n}",
        "Compile for the other targets only (`--target spirv,msl`), or rewrite the construct.",
    ),
    entry(
        codes::WGSL_WAVE_STAGE,
        "wgsl-wave-stage",
        Error,
        "WebGPU's subgroup functions exist only in compute and fragment shaders.",
        "WGSL's `subgroups` feature provides the subgroup built-ins and functions in compute \
         and fragment shaders only, so a wave intrinsic in a vertex shader cannot be compiled \
         for WebGPU.",
        "[shader(\"vertex\")]\nfloat4 VSMain(uint v : SV_VertexID) : SV_Position {\n    return WaveActiveSum(v);\n}",
        "Move the wave operation to a compute or pixel shader, or compile the vertex shader \
         without the WGSL target.",
    ),
    entry(
        codes::WGSL_NESTING_TOO_DEEP,
        "wgsl-nesting-too-deep",
        Error,
        "The WGSL would nest statements deeper than WebGPU compilers accept.",
        "Tint (Chrome's and Dawn's WGSL compiler) rejects statements nested more than 127 \
         levels deep, counting the function's body, each statement and each `{}` block: an \
         `if` or a loop costs two levels, each `else if` of a chain one. HLSL's own limit \
         (128 levels, OSH0201) allows deeper statements than that, such as 64 nested `for` \
         loops, so their WGSL would be rejected; oneshader reports this instead, at the \
         first statement too deep. Blocks `{}` and `else if` chains are written without \
         extra levels, and unary chains such as `~~x` without parentheses.",
        "[numthreads(1, 1, 1)]\nvoid main() {\n    uint x = 0;\n    for (uint a = 0; a < 2; a++)\n    for (uint b = 0; b < 2; b++)\n    // … 64 loops deep\n        x += 1;\n}",
        "Nest the statements less deeply: move the inner loops into a function, or merge \
         loops; or compile without the WGSL target.",
    ),
    entry(
        codes::DEVICE_UNSUPPORTED,
        "device-unsupported",
        Error,
        "The device profile given with `--device` cannot run the shader.",
        "With `--device PROFILE.json` the compiler checks each entry point against what that \
         device reports: its supported subgroup operations and the stages that have them, \
         its features (`subgroups`, `shader-f16`, `int64`, `float64`, `int16`) and limits \
         (workgroup size and invocations, storage buffers per stage). The message says what \
         the device lacks, and the span is the first line that needs it. Profiles for common \
         devices are in `profiles/`.",
        "// oneshader compile big.hlsl --device profiles/webgpu.json -o out\n\
         [numthreads(512, 1, 1)]   // WebGPU's default limit is 256 invocations\n\
         void CSMain(uint3 id : SV_DispatchThreadID) {}",
        "Rewrite the line without what the device lacks (for example a ballot or a shuffle \
         through groupshared memory instead of a wave operation), lower the workgroup size, \
         or target a device that has it.",
    ),
];

/// The catalog entry of `code`.
pub fn lookup(code: Code) -> Option<&'static CodeInfo> {
    CATALOG
        .binary_search_by_key(&code, |info| info.code)
        .ok()
        .and_then(|index| CATALOG.get(index))
}

/// `docs/diagnostics.md`: an index table, then one section per code.
pub fn markdown() -> String {
    let mut out = String::from(
        "# Diagnostics\n\n\
         <!-- Generated from oneshader_ir::catalog::CATALOG; do not edit. -->\n\
         <!-- Regenerate: ONESHADER_BLESS=1 cargo test -p oneshader-ir catalog -->\n\n\
         Every error and warning has a stable code: `OSH0xxx` for the language (lexing, \
         preprocessing, parsing, names, types, intrinsics) and `OSH5xxx` for target limits \
         (`OSH50xx` SPIR-V, `OSH51xx` MSL, `OSH52xx` WGSL). `oneshader explain CODE` prints \
         an entry below.\n\n\
         | code | name | severity | meaning |\n|---|---|---|---|\n",
    );
    for info in CATALOG {
        out.push_str(&format!(
            "| [{code}](#{anchor}) | `{}` | {} | {} |\n",
            info.name,
            info.severity,
            info.summary.replace('|', "\\|"),
            code = info.code,
            anchor = info.code.to_string().to_lowercase(),
        ));
    }
    out.push_str(
        "\n## Limits\n\nInput past these limits gets a diagnostic, never a crash or a hang: \
         input nested past the nesting limit never reaches a recursive pass. \
         A limit marked \"for SPIR-V\" or \"for WGSL\" is that target's: the error names \
         the target, and, as with every error, the compile writes no output for any \
         target (leave that target out, `--target spirv,msl`, to get the others). \
         Below it, an unoptimised build compiles 100 levels (nested calls: 50) on a 2 MiB \
         thread stack, an optimised one far more. `[unroll]` unrolls a loop only where a \
         texel offset needs its variable as a constant (as DXC does), and then at most 64 \
         iterations; any other `[unroll(N)]` is a hint left to the driver's compiler, so a \
         huge one costs nothing.\n\n\
         | limit | value | code |\n|---|---|---|\n",
    );
    for limit in LIMITS {
        out.push_str(&format!(
            "| {} | {} | [{code}](#{anchor}) |\n",
            limit.what.replace('|', "\\|"),
            limit.value,
            code = limit.code,
            anchor = limit.code.to_string().to_lowercase(),
        ));
    }
    for info in CATALOG {
        out.push('\n');
        out.push_str(&explain(info));
    }
    out
}

/// One entry as Markdown, the text `oneshader explain` prints.
pub fn explain(info: &CodeInfo) -> String {
    let fence = if info.example.starts_with("oneshader ") {
        "sh"
    } else {
        "hlsl"
    };
    format!(
        "## {code}\n\n`{name}` ({severity}): {summary}\n\n{explanation}\n\n\
         Example:\n\n```{fence}\n{example}\n```\n\nFix: {fix}\n",
        code = info.code,
        name = info.name,
        severity = info.severity,
        summary = info.summary,
        explanation = info.explanation,
        example = info.example,
        fix = info.fix,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_is_sorted_and_unique() {
        for pair in CATALOG.windows(2) {
            assert!(
                pair[0].code < pair[1].code,
                "{} then {}",
                pair[0].code,
                pair[1].code
            );
        }
        let mut names: Vec<&str> = CATALOG.iter().map(|i| i.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), CATALOG.len(), "names must be unique");
    }

    /// Every constant of `codes` has an entry: read from the source, so a new constant
    /// without an entry fails here.
    #[test]
    fn every_code_constant_is_in_the_catalog() {
        let source = include_str!("diagnostic.rs");
        let mut count = 0;
        for piece in source.split("pub const ").skip(1) {
            let Some((name, rest)) = piece.split_once(": Code = Code(") else {
                continue;
            };
            let number: u16 = rest
                .split(')')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("cannot read the number of {name}"));
            assert!(
                lookup(Code(number)).is_some(),
                "{name} ({}) has no entry",
                Code(number)
            );
            count += 1;
        }
        assert_eq!(count, CATALOG.len(), "entries without a constant");
    }

    #[test]
    fn code_parses_from_its_display_form() {
        assert_eq!(
            "OSH0350".parse::<Code>(),
            Ok(codes::INTRINSIC_NOT_SUPPORTED)
        );
        assert_eq!("osh5202".parse::<Code>(), Ok(codes::WGSL_WAVE_STAGE));
        assert_eq!("350".parse::<Code>(), Ok(codes::INTRINSIC_NOT_SUPPORTED));
        assert!("OSH".parse::<Code>().is_err());
        assert!("OSH99999".parse::<Code>().is_err());
        assert!("E0308".parse::<Code>().is_err());
    }

    /// `docs/diagnostics.md` is [`markdown`]; `ONESHADER_BLESS=1` rewrites it.
    #[test]
    fn catalog_doc_is_current() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/diagnostics.md");
        let expected = markdown();
        if std::env::var_os("ONESHADER_BLESS").is_some() {
            std::fs::write(&path, &expected).expect("docs/diagnostics.md is writable");
            return;
        }
        let actual = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            actual == expected,
            "docs/diagnostics.md is out of date: run ONESHADER_BLESS=1 cargo test -p oneshader-ir catalog"
        );
    }
}
