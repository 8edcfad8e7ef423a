//! Every wave and quad operation on 32-bit int, uint and float scalars and vectors.

use oneshader_harness::{run_wgsl_compute, BufferBinding, DawnDriver, WgslJob};
use oneshader_ir::{
    codes, Binding, BuiltIn, Expression, FileId, Literal, Module, Scalar, ScalarKind, ShaderStage,
    Span, Statement, TypeInner, WaveOp,
};

use super::builder::*;
use super::*;

/// A compute shader applying `ops` to a value of `element` in each shape, storing each
/// result's first component (as u32 bits) into `Out`.
fn wave_module(element: Scalar, ops: &[WaveOp]) -> Module {
    let mut m = Module::default();
    let input = buffer(&mut m, "In", scalar(element), 4, 0, false);
    let out = buffer(&mut m, "Out", scalar(Scalar::U32), 4, 1, true);
    let mut fb = Fb::new("main");
    let x = fb.thread_x(&mut m);
    let element_ptr = fb.element(&mut m, input, x);
    let value = fb.load(&mut m, element_ptr);
    let value = fb.bind(value);
    let mut slot = 0u32;
    for n in [1u32, 2, 3, 4] {
        let shaped = match oneshader_ir::VectorSize::from_count(n) {
            Some(size) => {
                let splat = fb.e(
                    &mut m,
                    Expression::Splat { size, value },
                    vector(n, element),
                );
                fb.bind(splat)
            }
            None => value,
        };
        let zero_ty = handle(&mut m, vector(n, element));
        let zero = fb.e(&mut m, Expression::ZeroValue(zero_ty), vector(n, element));
        let condition = fb.e(
            &mut m,
            Expression::Binary {
                op: oneshader_ir::BinaryOperator::Greater,
                left: shaped,
                right: zero,
            },
            vector(n, Scalar::BOOL),
        );
        let truth = if n == 1 {
            condition
        } else {
            fb.e(
                &mut m,
                Expression::AccessIndex {
                    base: condition,
                    index: 0,
                },
                scalar(Scalar::BOOL),
            )
        };
        for &op in ops {
            let (args, result_ty) = match op {
                WaveOp::GetLaneCount | WaveOp::GetLaneIndex => (vec![], scalar(Scalar::U32)),
                WaveOp::IsFirstLane => (vec![], scalar(Scalar::BOOL)),
                WaveOp::ActiveAnyTrue | WaveOp::ActiveAllTrue => {
                    (vec![truth], scalar(Scalar::BOOL))
                }
                WaveOp::ActiveBallot => (vec![truth], vector(4, Scalar::U32)),
                WaveOp::ActiveCountBits | WaveOp::PrefixCountBits => {
                    (vec![truth], scalar(Scalar::U32))
                }
                WaveOp::ActiveAllEqual => (vec![shaped], vector(n, Scalar::BOOL)),
                WaveOp::ActiveBitAnd | WaveOp::ActiveBitOr | WaveOp::ActiveBitXor
                    if element.kind == ScalarKind::Float =>
                {
                    continue
                }
                WaveOp::ReadLaneAt => {
                    let lane = fb.u32(&mut m, 1);
                    let lane = if n % 2 == 0 {
                        let masked = fb_convert_u32(&mut fb, &mut m, x);
                        fb.bind(masked)
                    } else {
                        lane
                    };
                    (vec![shaped, lane], vector(n, element))
                }
                WaveOp::QuadReadLaneAt => {
                    // A constant lane for scalars and vec3, a computed one otherwise.
                    let lane = if n % 2 == 1 {
                        fb.u32(&mut m, 2)
                    } else {
                        let three = fb.u32(&mut m, 3);
                        fb.e(
                            &mut m,
                            Expression::Binary {
                                op: oneshader_ir::BinaryOperator::BitwiseAnd,
                                left: x,
                                right: three,
                            },
                            scalar(Scalar::U32),
                        )
                    };
                    (vec![shaped, lane], vector(n, element))
                }
                _ => (vec![shaped], vector(n, element)),
            };
            if n > 1 && args.is_empty() {
                continue;
            }
            let result = fb.wave(&mut m, op, args, result_ty.clone());
            let result = fb.bind(result);
            let first = match result_ty {
                TypeInner::Vector { scalar, .. } => fb.e(
                    &mut m,
                    Expression::AccessIndex {
                        base: result,
                        index: 0,
                    },
                    TypeInner::Scalar(scalar),
                ),
                _ => result,
            };
            let bits = match fb.ty(&m, first).scalar().map(|s| s.kind) {
                Some(ScalarKind::Bool) => fb.e(
                    &mut m,
                    Expression::Convert {
                        expr: first,
                        to: Scalar::U32,
                    },
                    scalar(Scalar::U32),
                ),
                Some(ScalarKind::Uint) => first,
                _ => fb.e(
                    &mut m,
                    Expression::Bitcast {
                        expr: first,
                        to: Scalar::U32,
                    },
                    scalar(Scalar::U32),
                ),
            };
            let index = fb.u32(&mut m, slot);
            slot += 1;
            let pointer = fb.element(&mut m, out, index);
            fb.store(pointer, bits);
        }
    }
    let f = fb.finish();
    entry(&mut m, f, ShaderStage::Compute, [64, 1, 1]);
    m
}

fn fb_convert_u32(
    fb: &mut Fb,
    m: &mut Module,
    x: oneshader_ir::Handle<Expression>,
) -> oneshader_ir::Handle<Expression> {
    let mask = fb.u32(m, 7);
    fb.e(
        m,
        Expression::Binary {
            op: oneshader_ir::BinaryOperator::BitwiseAnd,
            left: x,
            right: mask,
        },
        scalar(Scalar::U32),
    )
}

const EXPECTED_FUNCTIONS: &[(WaveOp, &str)] = &[
    (WaveOp::IsFirstLane, "subgroupElect()"),
    (WaveOp::ActiveAnyTrue, "subgroupAny("),
    (WaveOp::ActiveAllTrue, "subgroupAll("),
    (WaveOp::ActiveAllEqual, "subgroupBroadcastFirst("),
    (WaveOp::ActiveBallot, "subgroupBallot("),
    (WaveOp::ActiveCountBits, "subgroupAdd(u32("),
    (WaveOp::PrefixCountBits, "subgroupExclusiveAdd(u32("),
    (WaveOp::ActiveSum, "subgroupAdd("),
    (WaveOp::ActiveProduct, "subgroupMul("),
    (WaveOp::ActiveMin, "subgroupMin("),
    (WaveOp::ActiveMax, "subgroupMax("),
    (WaveOp::PrefixSum, "subgroupExclusiveAdd("),
    (WaveOp::PrefixProduct, "subgroupExclusiveMul("),
    (WaveOp::ReadLaneAt, "subgroupShuffle("),
    (WaveOp::ReadLaneFirst, "subgroupBroadcastFirst("),
    (WaveOp::QuadReadAcrossX, "quadSwapX("),
    (WaveOp::QuadReadAcrossY, "quadSwapY("),
    (WaveOp::QuadReadAcrossDiagonal, "quadSwapDiagonal("),
    (WaveOp::QuadReadLaneAt, "quadBroadcast("),
];

#[test]
fn every_wave_op_on_every_32_bit_type_is_accepted_by_tint() {
    for element in [Scalar::U32, Scalar::I32, Scalar::F32] {
        let module = wave_module(element, &WaveOp::ALL);
        let text = wgsl(&module);
        assert!(text.starts_with("enable subgroups;\ndiagnostic(off, subgroup_uniformity);\n"));
        for (op, function) in EXPECTED_FUNCTIONS {
            assert!(
                text.contains(function),
                "{op:?} should use {function}:\n{text}"
            );
        }
        if element.kind != ScalarKind::Float {
            for function in ["subgroupAnd(", "subgroupOr(", "subgroupXor("] {
                assert!(text.contains(function), "{function}:\n{text}");
            }
        }
        // Lane-dependent quad lane: the polyfill over the lane index.
        assert!(text.contains("(lane_index & ~3u) + "), "{text}");
        assert!(text.contains("@builtin(subgroup_invocation_id) lane_index: u32"));
        assert!(text.contains("@builtin(subgroup_size) lane_count: u32"));
        // Constant lanes use the constant forms.
        assert!(text.contains("subgroupBroadcast(") && text.contains("quadBroadcast("));
        assert_tint_accepts(&text);
    }
}

#[test]
fn bool_values_move_through_subgroups_as_u32() {
    let mut m = Module::default();
    let out = buffer(&mut m, "Out", scalar(Scalar::U32), 4, 0, true);
    let mut fb = Fb::new("main");
    let x = fb.thread_x(&mut m);
    let one = fb.u32(&mut m, 1);
    let odd = fb.e(
        &mut m,
        Expression::Binary {
            op: oneshader_ir::BinaryOperator::BitwiseAnd,
            left: x,
            right: one,
        },
        scalar(Scalar::U32),
    );
    let zero = fb.u32(&mut m, 0);
    let is_odd = fb.e(
        &mut m,
        Expression::Binary {
            op: oneshader_ir::BinaryOperator::NotEqual,
            left: odd,
            right: zero,
        },
        scalar(Scalar::BOOL),
    );
    let size = oneshader_ir::VectorSize::Bi;
    let pair = fb.e(
        &mut m,
        Expression::Splat {
            size,
            value: is_odd,
        },
        vector(2, Scalar::BOOL),
    );
    let first = fb.wave(
        &mut m,
        WaveOp::ReadLaneFirst,
        vec![is_odd],
        scalar(Scalar::BOOL),
    );
    let equal = fb.wave(
        &mut m,
        WaveOp::ActiveAllEqual,
        vec![pair],
        vector(2, Scalar::BOOL),
    );
    let equal_x = fb.e(
        &mut m,
        Expression::AccessIndex {
            base: equal,
            index: 0,
        },
        scalar(Scalar::BOOL),
    );
    let both = fb.e(
        &mut m,
        Expression::Binary {
            op: oneshader_ir::BinaryOperator::LogicalAnd,
            left: first,
            right: equal_x,
        },
        scalar(Scalar::BOOL),
    );
    let bits = fb.e(
        &mut m,
        Expression::Convert {
            expr: both,
            to: Scalar::U32,
        },
        scalar(Scalar::U32),
    );
    let pointer = fb.element(&mut m, out, x);
    fb.store(pointer, bits);
    let f = fb.finish();
    entry(&mut m, f, ShaderStage::Compute, [8, 1, 1]);
    let text = wgsl(&m);
    assert!(text.contains("bool(subgroupBroadcastFirst(u32("), "{text}");
    assert!(text.contains("vec2<bool>(subgroupAll("), "{text}");
    assert_tint_accepts(&text);
}

/// Runs a u32 wave shader on Dawn and checks each result against the lanes' values.
#[test]
fn wave_results_match_hlsl_semantics_on_dawn() {
    let ops = [
        WaveOp::GetLaneIndex,
        WaveOp::GetLaneCount,
        WaveOp::PrefixSum,
        WaveOp::ActiveSum,
        WaveOp::ActiveMax,
        WaveOp::PrefixCountBits,
        WaveOp::ActiveCountBits,
        WaveOp::ReadLaneFirst,
        WaveOp::QuadReadAcrossX,
        WaveOp::QuadReadAcrossDiagonal,
        WaveOp::QuadReadLaneAt,
        WaveOp::ActiveBallot,
        WaveOp::IsFirstLane,
    ];
    let mut m = Module::default();
    let input = buffer(&mut m, "In", scalar(Scalar::U32), 4, 0, false);
    let out = buffer(&mut m, "Out", scalar(Scalar::U32), 4, 1, true);
    let mut fb = Fb::new("main");
    let x = fb.thread_x(&mut m);
    let pointer = fb.element(&mut m, input, x);
    let value = fb.load(&mut m, pointer);
    let value = fb.bind(value);
    let three = fb.u32(&mut m, 3);
    let k = fb.u32(&mut m, ops.len() as u32);
    let base = fb.e(
        &mut m,
        Expression::Binary {
            op: oneshader_ir::BinaryOperator::Multiply,
            left: x,
            right: k,
        },
        scalar(Scalar::U32),
    );
    let zero = fb.u32(&mut m, 0);
    let one = fb.u32(&mut m, 1);
    let bit = fb.e(
        &mut m,
        Expression::Binary {
            op: oneshader_ir::BinaryOperator::BitwiseAnd,
            left: value,
            right: one,
        },
        scalar(Scalar::U32),
    );
    let odd = fb.e(
        &mut m,
        Expression::Binary {
            op: oneshader_ir::BinaryOperator::NotEqual,
            left: bit,
            right: zero,
        },
        scalar(Scalar::BOOL),
    );
    // The quad lane each lane reads: (x + 1) & 3, not a constant.
    let next = fb.e(
        &mut m,
        Expression::Binary {
            op: oneshader_ir::BinaryOperator::Add,
            left: x,
            right: one,
        },
        scalar(Scalar::U32),
    );
    let quad_lane = fb.e(
        &mut m,
        Expression::Binary {
            op: oneshader_ir::BinaryOperator::BitwiseAnd,
            left: next,
            right: three,
        },
        scalar(Scalar::U32),
    );
    for (slot, op) in ops.iter().enumerate() {
        let (args, ty) = match op {
            WaveOp::GetLaneIndex | WaveOp::GetLaneCount => (vec![], scalar(Scalar::U32)),
            WaveOp::IsFirstLane => (vec![], scalar(Scalar::BOOL)),
            WaveOp::PrefixCountBits | WaveOp::ActiveCountBits => (vec![odd], scalar(Scalar::U32)),
            WaveOp::ActiveBallot => (vec![odd], vector(4, Scalar::U32)),
            WaveOp::QuadReadLaneAt => (vec![value, quad_lane], scalar(Scalar::U32)),
            _ => (vec![value], scalar(Scalar::U32)),
        };
        let result = fb.wave(&mut m, *op, args, ty.clone());
        let result = fb.bind(result);
        let result = match ty {
            TypeInner::Vector { .. } => fb.e(
                &mut m,
                Expression::AccessIndex {
                    base: result,
                    index: 0,
                },
                scalar(Scalar::U32),
            ),
            TypeInner::Scalar(s) if s.kind == ScalarKind::Bool => fb.e(
                &mut m,
                Expression::Convert {
                    expr: result,
                    to: Scalar::U32,
                },
                scalar(Scalar::U32),
            ),
            _ => result,
        };
        let offset = fb.u32(&mut m, slot as u32);
        let index = fb.e(
            &mut m,
            Expression::Binary {
                op: oneshader_ir::BinaryOperator::Add,
                left: base,
                right: offset,
            },
            scalar(Scalar::U32),
        );
        let pointer = fb.element(&mut m, out, index);
        fb.store(pointer, result);
    }
    let f = fb.finish();
    entry(&mut m, f, ShaderStage::Compute, [64, 1, 1]);
    let text = wgsl(&m);

    let values: Vec<u32> = (0..64u32).map(|i| (i * 7 + 3) % 23).collect();
    let job = WgslJob {
        wgsl: text.clone(),
        entry_point: "main".into(),
        workgroups: [1, 1, 1],
        driver: DawnDriver::SwiftShader,
        features: vec!["subgroups".into()],
        buffers: vec![
            BufferBinding::read_only_u32(0, 0, &values),
            BufferBinding::storage_u32(0, 1, &vec![0; 64 * ops.len()]),
        ],
    };
    let output = run_wgsl_compute(&job).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let results = output.u32s(1).expect("Out");
    let row = |t: usize| &results[t * ops.len()..(t + 1) * ops.len()];
    let size = row(0)[1] as usize;
    assert!(
        size.is_power_of_two() && (4..=128).contains(&size),
        "lane count {size}"
    );
    for t in 0..64 {
        let r = row(t);
        let lane = r[0] as usize;
        assert_eq!(
            lane,
            t % size,
            "subgroups are expected to be consecutive threads"
        );
        let first = t - lane;
        let wave = &values[first..first + size];
        let quad = t - t % 4;
        let odd = |v: u32| v & 1 == 1;
        let expected = [
            lane as u32,
            size as u32,
            wave[..lane].iter().sum(),
            wave.iter().sum(),
            *wave.iter().max().expect("lanes"),
            wave[..lane].iter().filter(|&&v| odd(v)).count() as u32,
            wave.iter().filter(|&&v| odd(v)).count() as u32,
            wave[0],
            values[t ^ 1],
            values[t ^ 3],
            values[quad + (t + 1) % 4],
            wave.iter()
                .take(32)
                .enumerate()
                .filter(|(_, &v)| odd(v))
                .map(|(i, _)| 1u32 << i)
                .sum(),
            u32::from(lane == 0),
        ];
        assert_eq!(r, expected, "thread {t}:\n{text}");
    }
}

#[test]
fn a_wave_op_in_a_vertex_shader_is_osh5202_with_the_spec_text() {
    let mut m = Module::default();
    let mut fb = Fb::new("VSMain");
    let one = fb.f32(&mut m, 1.0);
    let span = Span::new(FileId(0), 10, 30);
    let sum = fb.e_at(
        &mut m,
        Expression::Wave {
            op: WaveOp::ActiveSum,
            args: Box::new([one]),
        },
        scalar(Scalar::F32),
        span,
    );
    let size = oneshader_ir::VectorSize::Quad;
    let position = fb.e(
        &mut m,
        Expression::Splat { size, value: sum },
        vector(4, Scalar::F32),
    );
    fb.body.push(Statement::Return {
        value: Some(position),
    });
    let mut f = fb.finish();
    f.result = Some(oneshader_ir::FunctionResult {
        ty: handle(&mut m, vector(4, Scalar::F32)),
        binding: Some(Binding::BuiltIn(BuiltIn::Position)),
    });
    entry(&mut m, f, ShaderStage::Vertex, [1, 1, 1]);
    let diagnostics = errors(&m);
    assert_eq!(diagnostics.len(), 1);
    assert_eq!(diagnostics[0].code, codes::WGSL_WAVE_STAGE);
    assert_eq!(diagnostics[0].span, Some(span));
    assert_eq!(
        diagnostics[0].message,
        "The intrinsic 'WaveActiveSum' is not available in a vertex shader in WGSL: WebGPU's \
         subgroup functions exist only in compute and fragment shaders."
    );
    let _ = Literal::Bool(true);
}
