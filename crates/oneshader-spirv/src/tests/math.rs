//! Math and bit functions: the GLSL.std.450 or core instruction of each.

use oneshader_ir::{Expression, MathFunction, Scalar, TypeInner, VectorSize};
use rspirv::spirv::{GlslStd450Op as GLOp, Op};

use super::builder::TestModule;
use super::*;

/// A shader storing `fun` of its input element(s) of `scalar` (or vectors of `size`).
fn math_module(
    fun: MathFunction,
    scalar: Scalar,
    size: Option<VectorSize>,
    arity: usize,
    result: Option<TypeInner>,
) -> oneshader_ir::Module {
    let mut t = TestModule::compute();
    let ty = match size {
        Some(size) => t.vector(size, scalar),
        None => t.scalar(scalar),
    };
    let input = t.buffer("In", ty, 16, 0, false);
    let value = t.load_element(input, ty);
    let result_ty = match result {
        Some(inner) => t.ty(inner),
        None => ty,
    };
    let result = t.bind(
        Expression::Math {
            fun,
            args: vec![value; arity].into(),
        },
        result_ty,
    );
    let output = t.buffer("Out", result_ty, 16, 1, true);
    t.store_element(output, result_ty, result);
    t.finish()
}

fn uint_shaped(size: Option<VectorSize>, scalar: Scalar) -> TypeInner {
    match size {
        Some(size) => TypeInner::Vector { size, scalar },
        None => TypeInner::Scalar(scalar),
    }
}

#[test]
fn bit_functions_use_dxcs_instructions() {
    for size in [None, Some(VectorSize::Quad)] {
        for (fun, scalar, result_scalar, glsl, core) in [
            (
                MathFunction::FirstBitHigh,
                Scalar::I32,
                Scalar::I32,
                Some(GLOp::FindSMsb),
                None,
            ),
            (
                MathFunction::FirstBitHigh,
                Scalar::U32,
                Scalar::U32,
                Some(GLOp::FindUMsb),
                None,
            ),
            (
                MathFunction::FirstBitLow,
                Scalar::I32,
                Scalar::I32,
                Some(GLOp::FindILsb),
                None,
            ),
            (
                MathFunction::FirstBitLow,
                Scalar::U32,
                Scalar::U32,
                Some(GLOp::FindILsb),
                None,
            ),
            (
                MathFunction::CountBits,
                Scalar::U32,
                Scalar::U32,
                None,
                Some(Op::BitCount),
            ),
            (
                MathFunction::CountBits,
                Scalar::I32,
                Scalar::U32,
                None,
                Some(Op::BitCount),
            ),
            (
                MathFunction::ReverseBits,
                Scalar::U32,
                Scalar::U32,
                None,
                Some(Op::BitReverse),
            ),
            (
                MathFunction::ReverseBits,
                Scalar::I32,
                Scalar::I32,
                None,
                Some(Op::BitReverse),
            ),
        ] {
            let module = math_module(fun, scalar, size, 1, Some(uint_shaped(size, result_scalar)));
            let words = compile_valid(&module);
            if let Some(glsl) = glsl {
                assert_eq!(glsl_ops(&words), [glsl as u32], "{fun:?} {scalar:?}");
            }
            if let Some(core) = core {
                assert!(body_ops(&words).contains(&core), "{fun:?} {scalar:?}");
            }
        }
    }
}

#[test]
fn float_functions_validate_and_use_glsl_std_450() {
    for (fun, arity, glsl) in [
        (MathFunction::Abs, 1, GLOp::FAbs),
        (MathFunction::Min, 2, GLOp::FMin),
        (MathFunction::Max, 2, GLOp::FMax),
        (MathFunction::Clamp, 3, GLOp::FClamp),
        (MathFunction::Saturate, 1, GLOp::FClamp),
        (MathFunction::Floor, 1, GLOp::Floor),
        (MathFunction::Ceil, 1, GLOp::Ceil),
        (MathFunction::Round, 1, GLOp::RoundEven),
        (MathFunction::Trunc, 1, GLOp::Trunc),
        (MathFunction::Frac, 1, GLOp::Fract),
        (MathFunction::Sqrt, 1, GLOp::Sqrt),
        (MathFunction::Rsqrt, 1, GLOp::InverseSqrt),
        (MathFunction::Exp, 1, GLOp::Exp),
        (MathFunction::Exp2, 1, GLOp::Exp2),
        (MathFunction::Log, 1, GLOp::Log),
        (MathFunction::Log2, 1, GLOp::Log2),
        (MathFunction::Pow, 2, GLOp::Pow),
        (MathFunction::Sin, 1, GLOp::Sin),
        (MathFunction::Cos, 1, GLOp::Cos),
        (MathFunction::Tan, 1, GLOp::Tan),
        (MathFunction::Asin, 1, GLOp::Asin),
        (MathFunction::Acos, 1, GLOp::Acos),
        (MathFunction::Atan, 1, GLOp::Atan),
        (MathFunction::Atan2, 2, GLOp::Atan2),
        (MathFunction::Sinh, 1, GLOp::Sinh),
        (MathFunction::Cosh, 1, GLOp::Cosh),
        (MathFunction::Tanh, 1, GLOp::Tanh),
        (MathFunction::Lerp, 3, GLOp::FMix),
        (MathFunction::Mad, 3, GLOp::Fma),
        (MathFunction::Step, 2, GLOp::Step),
        (MathFunction::SmoothStep, 3, GLOp::SmoothStep),
        (MathFunction::Normalize, 1, GLOp::Normalize),
        (MathFunction::Reflect, 2, GLOp::Reflect),
        (MathFunction::Cross, 2, GLOp::Cross),
    ] {
        let module = math_module(fun, Scalar::F32, Some(VectorSize::Tri), arity, None);
        let words = compile_valid(&module);
        assert_eq!(glsl_ops(&words), [glsl as u32], "{fun:?}");
    }
}

#[test]
fn integer_min_max_clamp_abs_pick_the_signedness() {
    for (fun, scalar, arity, glsl) in [
        (MathFunction::Min, Scalar::I32, 2, GLOp::SMin),
        (MathFunction::Min, Scalar::U32, 2, GLOp::UMin),
        (MathFunction::Max, Scalar::I32, 2, GLOp::SMax),
        (MathFunction::Max, Scalar::U32, 2, GLOp::UMax),
        (MathFunction::Clamp, Scalar::I32, 3, GLOp::SClamp),
        (MathFunction::Clamp, Scalar::U32, 3, GLOp::UClamp),
        (MathFunction::Abs, Scalar::I32, 1, GLOp::SAbs),
    ] {
        let words = compile_valid(&math_module(fun, scalar, None, arity, None));
        assert_eq!(glsl_ops(&words), [glsl as u32], "{fun:?} {scalar:?}");
    }
}

#[test]
fn reductions_and_sign_validate() {
    let float3 = Some(VectorSize::Tri);
    let scalar_f32 = Some(TypeInner::Scalar(Scalar::F32));
    for (fun, arity, result, op) in [
        (MathFunction::Dot, 2, scalar_f32.clone(), Some(Op::Dot)),
        (MathFunction::Length, 1, scalar_f32.clone(), None),
        (MathFunction::Distance, 2, scalar_f32, None),
        (
            MathFunction::Sign,
            1,
            Some(uint_shaped(float3, Scalar::I32)),
            Some(Op::ConvertFToS),
        ),
    ] {
        let words = compile_valid(&math_module(fun, Scalar::F32, float3, arity, result));
        if let Some(op) = op {
            assert!(body_ops(&words).contains(&op), "{fun:?}");
        }
    }
    // Integer dot: multiply and add up, no extension needed.
    let words = compile_valid(&math_module(
        MathFunction::Dot,
        Scalar::I32,
        float3,
        2,
        Some(TypeInner::Scalar(Scalar::I32)),
    ));
    assert!(body_ops(&words).contains(&Op::IMul));
}
