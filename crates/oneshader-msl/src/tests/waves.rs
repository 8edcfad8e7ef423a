//! Every wave op on u32/i32/f32 scalars and vectors, and the bit functions.

use std::process::Command;

use oneshader_ir::{
    BinaryOperator, Binding, BuiltIn, EntryPoint, Expression, FunctionArgument, MathFunction,
    Module, ResourceKind, Scalar, ShaderStage, Statement, TypeInner, WaveOp,
};

use super::build::{buffer, Builder};
use super::checked;
use crate::polyfill::Polyfill;
use crate::Options;

/// A compute entry `Waves` that binds every wave op on every operand type it takes.
fn wave_module() -> Module {
    let mut module = Module::default();
    let uint = module.type_handle(TypeInner::Scalar(Scalar::U32));
    let out = buffer(
        &mut module,
        "Out",
        uint,
        ResourceKind::RWStructuredBuffer,
        0,
    );
    let mut b = Builder::new(&mut module, "Waves");
    let uint3 = b.vector(Scalar::U32, 3);
    let boolean = b.scalar(Scalar::BOOL);
    let uint4 = b.vector(Scalar::U32, 4);
    b.f.arguments.push(FunctionArgument {
        name: "id".into(),
        ty: uint3,
        binding: Some(Binding::BuiltIn(BuiltIn::GlobalInvocationId)),
    });
    let id = b.arg(0, uint3);
    let x_ptr = b.e(Expression::AccessIndex { base: id, index: 0 }, uint);
    b.bind(x_ptr);
    let xu = x_ptr;
    let xi = b.convert(xu, Scalar::I32);
    let xf = b.convert(xu, Scalar::F32);
    let three = b.u(3);
    let flag = b.binary(BinaryOperator::Greater, xu, three);
    for h in [xi, xf, flag] {
        b.bind(h);
    }
    let mut values = vec![
        (xu, Scalar::U32, 1),
        (xi, Scalar::I32, 1),
        (xf, Scalar::F32, 1),
    ];
    for (h, scalar, _) in values.clone() {
        let v = b.splat(h, 3);
        b.bind(v);
        values.push((v, scalar, 3));
    }
    let bool3 = b.splat(flag, 3);
    b.bind(bool3);

    for op in WaveOp::ALL {
        match op {
            WaveOp::GetLaneCount | WaveOp::GetLaneIndex => {
                let h = b.wave(op, vec![], uint);
                b.bind(h);
            }
            WaveOp::IsFirstLane | WaveOp::ActiveAnyTrue | WaveOp::ActiveAllTrue => {
                let args = if op == WaveOp::IsFirstLane {
                    vec![]
                } else {
                    vec![flag]
                };
                let h = b.wave(op, args, boolean);
                b.bind(h);
            }
            WaveOp::ActiveBallot => {
                let h = b.wave(op, vec![flag], uint4);
                b.bind(h);
            }
            WaveOp::ActiveCountBits | WaveOp::PrefixCountBits => {
                let h = b.wave(op, vec![flag], uint);
                b.bind(h);
            }
            _ => {
                let bitwise = matches!(
                    op,
                    WaveOp::ActiveBitAnd | WaveOp::ActiveBitOr | WaveOp::ActiveBitXor
                );
                let carries_bool = matches!(
                    op,
                    WaveOp::ActiveAllEqual
                        | WaveOp::ReadLaneAt
                        | WaveOp::ReadLaneFirst
                        | WaveOp::QuadReadAcrossX
                        | WaveOp::QuadReadAcrossY
                        | WaveOp::QuadReadAcrossDiagonal
                        | WaveOp::QuadReadLaneAt
                );
                let mut operands = values.clone();
                if carries_bool {
                    operands.push((flag, Scalar::BOOL, 1));
                    operands.push((bool3, Scalar::BOOL, 3));
                }
                for (value, scalar, n) in operands {
                    if bitwise && scalar == Scalar::F32 {
                        continue;
                    }
                    let ty = if op == WaveOp::ActiveAllEqual {
                        b.vector(Scalar::BOOL, n)
                    } else {
                        b.f.type_of(value)
                    };
                    let mut args = vec![value];
                    if op.arity() == 2 {
                        let lane = b.u(1);
                        args.push(lane);
                    }
                    let h = b.wave(op, args, ty);
                    b.bind(h);
                }
            }
        }
    }
    // Something observable: Out[id.x] = WaveActiveSum(id.x).
    let sum = b.wave(WaveOp::ActiveSum, vec![xu], uint);
    let slot = b.element(out, xu);
    let store = b.store(slot, sum);
    b.push(store);
    let f = b.f;
    module.entry_points.push(EntryPoint {
        name: "Waves".into(),
        stage: ShaderStage::Compute,
        workgroup_size: [64, 1, 1],
        function: f,
        span: None,
    });
    module
}

#[test]
fn every_wave_op_maps_to_its_metal_function() {
    let text = checked(&wave_module(), 0, &Options::default());
    for expected in [
        "uint _lane_count [[threads_per_simdgroup]]",
        "uint _lane_index [[thread_index_in_simdgroup]]",
        "simd_is_first()",
        "simd_any(_e",
        "simd_all(_e",
        "_ballot(_e",
        "ulong m = ulong(simd_ballot(b));",
        "return uint4(uint(m), uint(m >> 32), 0u, 0u);",
        "simd_sum(uint(_e",
        "simd_prefix_exclusive_sum(uint(_e",
        "bool _all_equal(float x)",
        "bool3 _all_equal(int3 x)",
        "_all_equal(uint(_e",
        "_all_equal(uint3(_e",
        "simd_sum(_e",
        "simd_product(_e",
        "simd_min(_e",
        "simd_max(_e",
        "simd_and(_e",
        "simd_or(_e",
        "simd_xor(_e",
        "simd_prefix_exclusive_sum(_e",
        "simd_prefix_exclusive_product(_e",
        "simd_shuffle(_e",
        "bool(simd_shuffle(uint(_e",
        "bool3(simd_broadcast_first(uint3(_e",
        "simd_broadcast_first(_e",
        "quad_shuffle_xor(_e",
        ", 1)",
        ", 2)",
        ", 3)",
        "quad_shuffle(_e",
        "Out[_e",
    ] {
        assert!(text.contains(expected), "missing `{expected}` in:\n{text}");
    }
    // Float bitwise ops are not generated for floats: none of the bitwise calls takes a float.
    assert!(!text.contains("float _e") || !text.contains("simd_and(float"));
}

#[test]
fn wave_ops_in_a_helper_get_the_lane_parameters_passed() {
    let mut module = Module::default();
    let uint = module.type_handle(TypeInner::Scalar(Scalar::U32));
    let mut h = Builder::new(&mut module, "lane");
    let index = h.wave(WaveOp::GetLaneIndex, vec![], uint);
    let count = h.wave(WaveOp::GetLaneCount, vec![], uint);
    let sum = h.binary(BinaryOperator::Add, index, count);
    h.push(Statement::Return { value: Some(sum) });
    let mut helper = h.f;
    helper.result = Some(oneshader_ir::FunctionResult {
        ty: uint,
        binding: None,
    });
    let helper = module.functions.append(helper, None);
    let out = buffer(
        &mut module,
        "Out",
        uint,
        ResourceKind::RWStructuredBuffer,
        0,
    );
    let mut b = Builder::new(&mut module, "Main");
    let result = b.e(Expression::CallResult(helper), uint);
    b.push(Statement::Call {
        function: helper,
        arguments: vec![],
        result: Some(result),
    });
    let zero = b.u(0);
    let slot = b.element(out, zero);
    let store = b.store(slot, result);
    b.push(store);
    let f = b.f;
    module.entry_points.push(EntryPoint {
        name: "Main".into(),
        stage: ShaderStage::Compute,
        workgroup_size: [32, 1, 1],
        function: f,
        span: None,
    });
    let text = checked(&module, 0, &Options::default());
    assert!(
        text.contains("uint lane(uint _lane_index, uint _lane_count)"),
        "{text}"
    );
    assert!(text.contains("lane(_lane_index, _lane_count)"), "{text}");
    assert!(
        text.contains("[[thread_index_in_simdgroup]]")
            && text.contains("[[threads_per_simdgroup]]")
    );
}

/// A compute entry binding each bit function on uint, int, uint2 and int2.
fn bits_module() -> Module {
    let mut module = Module::default();
    let mut b = Builder::new(&mut module, "Bits");
    let uint3 = b.vector(Scalar::U32, 3);
    b.f.arguments.push(FunctionArgument {
        name: "id".into(),
        ty: uint3,
        binding: Some(Binding::BuiltIn(BuiltIn::GlobalInvocationId)),
    });
    let id = b.arg(0, uint3);
    let uint = b.scalar(Scalar::U32);
    let xu = b.e(Expression::AccessIndex { base: id, index: 0 }, uint);
    b.bind(xu);
    let xi = b.convert(xu, Scalar::I32);
    b.bind(xi);
    let vu = b.splat(xu, 2);
    let vi = b.splat(xi, 2);
    b.bind(vu);
    b.bind(vi);
    for fun in [
        MathFunction::CountBits,
        MathFunction::ReverseBits,
        MathFunction::FirstBitHigh,
        MathFunction::FirstBitLow,
    ] {
        for x in [xu, xi, vu, vi] {
            let ty = b.f.type_of(x);
            let result_ty = if fun == MathFunction::CountBits {
                let n = b.module.inner(ty).component_count().unwrap_or(1);
                b.vector(Scalar::U32, n)
            } else {
                ty
            };
            let h = b.e(
                Expression::Math {
                    fun,
                    args: Box::new([x]),
                },
                result_ty,
            );
            b.bind(h);
        }
    }
    let f = b.f;
    module.entry_points.push(EntryPoint {
        name: "Bits".into(),
        stage: ShaderStage::Compute,
        workgroup_size: [1, 1, 1],
        function: f,
        span: None,
    });
    module
}

#[test]
fn bit_functions_use_exact_polyfills() {
    let text = checked(&bits_module(), 0, &Options::default());
    for expected in [
        "popcount(_e",
        "uint(popcount(_e",
        "uint2(popcount(_e",
        "reverse_bits(_e",
        "uint _firstbithigh(uint x)",
        "int _firstbithigh(int x)",
        "int2 _firstbithigh(int2 x)",
        "uint2 _firstbitlow(uint2 x)",
        "int y = x ^ (x >> int(31));",
        "return select(ctz(x), ~uint(0), x == uint(0));",
    ] {
        assert!(text.contains(expected), "missing `{expected}` in:\n{text}");
    }
}

/// HLSL's firstbithigh/firstbitlow, from their definitions in the spec (004): for a
/// negative int, the highest 0 bit; -1 (all ones) when there is no such bit.
fn reference_first_bit_high(x: i32) -> i32 {
    let y = if x < 0 { !x } else { x };
    if y == 0 {
        -1
    } else {
        31 - y.leading_zeros() as i32
    }
}
fn reference_first_bit_low(x: i32) -> i32 {
    if x == 0 {
        -1
    } else {
        x.trailing_zeros() as i32
    }
}

/// Compiles the polyfills' exact text as C++ with scalar stand-ins for Metal's `clz`,
/// `ctz` and `select`, runs them over -31..=31 and the extremes, and compares with the
/// spec's table.
#[test]
fn bit_polyfills_compute_the_spec_table() {
    let mut program = String::from(
        "#include <cstdio>\ntypedef unsigned uint;\n\
         int clz(int x) { return x == 0 ? 32 : __builtin_clz((uint)x); }\n\
         uint clz(uint x) { return x == 0 ? 32 : __builtin_clz(x); }\n\
         int ctz(int x) { return x == 0 ? 32 : __builtin_ctz((uint)x); }\n\
         uint ctz(uint x) { return x == 0 ? 32 : __builtin_ctz(x); }\n\
         template<class T> T select(T a, T b, bool c) { return c ? b : a; }\n",
    );
    for polyfill in [
        Polyfill::FirstBitHigh {
            ty: "int".into(),
            signed: true,
        },
        Polyfill::FirstBitHigh {
            ty: "uint".into(),
            signed: false,
        },
        Polyfill::FirstBitLow { ty: "int".into() },
        Polyfill::FirstBitLow { ty: "uint".into() },
    ] {
        program.push_str(&polyfill.definition());
    }
    program.push_str(
        "int main() {\n  int xs[] = {-2147483647 - 1, -1073741824, 2147483647, 65536};\n\
         for (int x = -31; x <= 31; ++x) printf(\"%d %d %d %d %d\\n\", x, _firstbithigh(x), _firstbitlow(x), (int)_firstbithigh((uint)x), (int)_firstbitlow((uint)x));\n\
         for (int x : xs) printf(\"%d %d %d %d %d\\n\", x, _firstbithigh(x), _firstbitlow(x), (int)_firstbithigh((uint)x), (int)_firstbitlow((uint)x));\n}\n",
    );
    let dir = std::env::temp_dir().join(format!("oneshader-msl-bits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let source = dir.join("bits.cpp");
    let binary = dir.join("bits");
    std::fs::write(&source, &program).expect("write");
    let status = Command::new("clang++")
        .args(["-std=c++17", "-o"])
        .arg(&binary)
        .arg(&source)
        .status()
        .expect("clang++ runs");
    assert!(status.success(), "clang++ failed on:\n{program}");
    let output = Command::new(&binary).output().expect("runs");
    let _ = std::fs::remove_dir_all(&dir);
    let text = String::from_utf8_lossy(&output.stdout);
    let mut rows = 0;
    for line in text.lines() {
        let v: Vec<i64> = line.split(' ').filter_map(|s| s.parse().ok()).collect();
        let x = v[0] as i32;
        assert_eq!(
            v[1] as i32,
            reference_first_bit_high(x),
            "firstbithigh(int {x})"
        );
        assert_eq!(
            v[2] as i32,
            reference_first_bit_low(x),
            "firstbitlow(int {x})"
        );
        let ux = x as u32;
        let high_u = if ux == 0 {
            -1
        } else {
            31 - ux.leading_zeros() as i32
        };
        assert_eq!(v[3] as i32, high_u, "firstbithigh(uint {ux})");
        assert_eq!(
            v[4] as i32,
            reference_first_bit_low(x),
            "firstbitlow(uint {ux})"
        );
        rows += 1;
    }
    assert_eq!(rows, 63 + 4);
    // Rows of the spec's table, literally.
    for (x, high, low) in [
        (-31, 4, 0),
        (-17, 4, 0),
        (-16, 3, 4),
        (-2, 0, 1),
        (-1, -1, 0),
        (0, -1, -1),
        (1, 0, 0),
        (24, 4, 3),
    ] {
        let line = text
            .lines()
            .find(|l| l.split(' ').next() == Some(&x.to_string()))
            .expect("row");
        let v: Vec<i32> = line.split(' ').filter_map(|s| s.parse().ok()).collect();
        assert_eq!((v[1], v[2]), (high, low), "table row {x}");
    }
}
