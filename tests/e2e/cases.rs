//! The data-driven cases of `tests/cases/`: each shader is compiled to SPIR-V,
//! MSL and WGSL, every output is validated (spirv-val, Tint, the MSL check), and
//! the compute shader runs on lavapipe, SwiftShader and Dawn (on SwiftShader and on Mesa 25's
//! lavapipe) with its expected buffers checked.

use oneshader_e2e::{run_case, Case};

macro_rules! cases {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                let failures = run_case(stringify!($name));
                assert!(failures.is_empty(), "{}", failures.join("\n"));
            }
        )*

        #[test]
        fn every_case_file_has_a_test() {
            let listed = [$(stringify!($name)),*];
            for name in Case::all_names() {
                assert!(listed.contains(&name.as_str()), "add {name} to the cases! list in e2e/cases.rs");
            }
        }
    };
}

cases!(
    abs_int_min,
    aggregate_select,
    atomic_histogram,
    byte_address_words,
    cbuffer_structs,
    compact_odd,
    compute_struct_input,
    degenerate_matrices,
    degenerate_matrix_cbuffer,
    flat_casts,
    frexp_split,
    groupshared_reduction,
    half_and_fmod,
    integer_dot,
    integer_matrices,
    integer_matrix_buffers,
    integer_matrix_cbuffer,
    integer_semantics,
    matrix_componentwise,
    matrix_derived_intrinsics,
    matrix_intrinsics,
    nested_min_max,
    push_constant_digits,
    radix_digit_scan,
    raw_buffer_structs,
    rwtexture_write,
    scatter_multiples,
    select_and_or,
    signed_wrapping,
    struct_casts,
    struct_member_atomics,
    struct_methods,
    structured_counters,
    switch_fallthrough,
    swizzle_compose,
    tbuffer_packing,
    texture_load,
    texture_sample,
    typed_buffer_atomics,
    typed_buffers,
    unrolled_offsets,
);
