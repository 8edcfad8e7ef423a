//! Struct layouts in buffers: `@size` padding so WGSL's offsets equal the IR's, and
//! OSH5201 for layouts WGSL cannot express.

use oneshader_harness::{run_wgsl_compute, BufferBinding, DawnDriver, WgslJob};
use oneshader_ir::{
    codes, AddressSpace, ArraySize, Expression, GlobalVariable, Handle, Module, Resource,
    ResourceBinding, ResourceKind, Scalar, ShaderStage, StructMember, Type, TypeInner,
};

use super::builder::*;
use super::*;

fn constant_buffer(
    m: &mut Module,
    name: &str,
    members: Vec<(&str, TypeInner, u32)>,
    size: u32,
) -> Handle<GlobalVariable> {
    let members = members
        .into_iter()
        .map(|(name, ty, offset)| StructMember {
            name: name.into(),
            ty: m.type_handle(ty),
            offset,
            binding: None,
        })
        .collect();
    let ty = m.types.insert(Type {
        name: Some(format!("{name}Data")),
        inner: TypeInner::Struct { members, size },
    });
    m.global_variables.append(
        GlobalVariable {
            name: name.into(),
            space: AddressSpace::Uniform,
            ty,
            resource: Some(Resource {
                kind: ResourceKind::ConstantBuffer,
                binding: ResourceBinding { set: 0, binding: 0 },
                register: None,
            }),
            span: None,
        },
        None,
    )
}

/// A shader copying every scalar of the constant buffer `Params` into `Out`, in order.
fn copy_module(members: Vec<(&str, TypeInner, u32)>, size: u32) -> Module {
    let mut m = Module::default();
    let params = constant_buffer(&mut m, "Params", members.clone(), size);
    let out = buffer(&mut m, "Out", scalar(Scalar::F32), 4, 1, true);
    let mut fb = Fb::new("main");
    let struct_ty = m.global_variables[params].ty;
    let mut slot = 0;
    for (index, (_, ty, _)) in members.iter().enumerate() {
        let member_ty = m.type_handle(ty.clone());
        let base = fb.global(&mut m, params);
        let pointer = fb.e(
            &mut m,
            Expression::AccessIndex {
                base,
                index: index as u32,
            },
            TypeInner::Pointer {
                base: member_ty,
                space: AddressSpace::Uniform,
            },
        );
        let value = fb.load(&mut m, pointer);
        let count = ty.component_count().unwrap_or(1);
        for component in 0..count {
            let scalar_value = if count == 1 {
                value
            } else {
                fb.e(
                    &mut m,
                    Expression::AccessIndex {
                        base: value,
                        index: component,
                    },
                    scalar(Scalar::F32),
                )
            };
            let index = fb.u32(&mut m, slot);
            slot += 1;
            let target = fb.element(&mut m, out, index);
            fb.store(target, scalar_value);
        }
    }
    let _ = struct_ty;
    let f = fb.finish();
    entry(&mut m, f, ShaderStage::Compute, [1, 1, 1]);
    m
}

#[test]
fn uniform_struct_padding_reproduces_the_ir_offsets_on_dawn() {
    // a at 0, b at 8 (a gap after a), c at 16, and 16 bytes of tail padding.
    let module = copy_module(
        vec![
            ("a", scalar(Scalar::F32), 0),
            ("b", scalar(Scalar::F32), 8),
            ("c", vector(2, Scalar::F32), 16),
        ],
        32,
    );
    let text = wgsl(&module);
    assert!(text.contains("@size(8) a: f32,"), "{text}");
    assert!(text.contains("    b: f32,"), "{text}");
    assert!(text.contains("@size(16) c: vec2<f32>,"), "{text}");
    assert!(
        text.contains("@group(0) @binding(0) var<uniform> Params: ParamsData;"),
        "{text}"
    );
    assert_naga_accepts(&text);
    let job = WgslJob {
        wgsl: text.clone(),
        entry_point: "main".into(),
        workgroups: [1, 1, 1],
        driver: DawnDriver::SwiftShader,
        features: vec![],
        buffers: vec![
            BufferBinding::uniform_f32(0, 0, &[1.0, -1.0, 2.0, -1.0, 3.0, 4.0, -1.0, -1.0]),
            BufferBinding::storage_f32(0, 1, &[0.0; 4]),
        ],
    };
    let output = run_wgsl_compute(&job).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(output.f32s(1).expect("Out"), [1.0, 2.0, 3.0, 4.0]);
}

#[test]
fn a_member_wgsl_cannot_place_is_osh5201_naming_it() {
    // HLSL cbuffer packing puts a float3 right after a float, at offset 4.
    let module = copy_module(
        vec![
            ("a", scalar(Scalar::F32), 0),
            ("b", vector(3, Scalar::F32), 4),
        ],
        16,
    );
    let diagnostics = errors(&module);
    assert_eq!(diagnostics[0].code, codes::WGSL_UNSUPPORTED);
    assert!(
        diagnostics[0].message.contains("member 'b' is at offset 4"),
        "{}",
        diagnostics[0].message
    );
    assert!(
        diagnostics[0].message.contains("'Params'"),
        "{}",
        diagnostics[0].message
    );
}

#[test]
fn a_uniform_array_with_a_short_stride_is_osh5201() {
    // float weights[4] packed at 4 bytes: uniform buffers need 16-byte strides in WGSL.
    let mut m = Module::default();
    let float = m.type_handle(scalar(Scalar::F32));
    let array = TypeInner::Array {
        base: float,
        size: ArraySize::Constant(4),
        stride: 4,
    };
    let params = constant_buffer(&mut m, "Params", vec![("weights", array.clone(), 0)], 16);
    let out = buffer(&mut m, "Out", scalar(Scalar::F32), 4, 1, true);
    let mut fb = Fb::new("main");
    let array_ty = m.type_handle(array);
    let base = fb.global(&mut m, params);
    let weights = fb.e(
        &mut m,
        Expression::AccessIndex { base, index: 0 },
        TypeInner::Pointer {
            base: array_ty,
            space: AddressSpace::Uniform,
        },
    );
    let first = fb.e(
        &mut m,
        Expression::AccessIndex {
            base: weights,
            index: 0,
        },
        TypeInner::Pointer {
            base: float,
            space: AddressSpace::Uniform,
        },
    );
    let value = fb.load(&mut m, first);
    let zero = fb.u32(&mut m, 0);
    let target = fb.element(&mut m, out, zero);
    fb.store(target, value);
    let f = fb.finish();
    entry(&mut m, f, ShaderStage::Compute, [1, 1, 1]);
    let diagnostics = errors(&m);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert_eq!(diagnostics[0].code, codes::WGSL_UNSUPPORTED);
    assert!(
        diagnostics[0].message.contains("member 'weights'"),
        "{}",
        diagnostics[0].message
    );
    assert!(
        diagnostics[0]
            .message
            .contains("stride 4 is not a multiple of 16"),
        "{}",
        diagnostics[0].message
    );
}

#[test]
fn a_struct_only_a_later_expression_has_is_declared_after_the_buffers_structs() {
    // The buffer's struct is named by the globals' walk, the value's only by its
    // expression: the walk of the functions' types must not stop before it.
    let mut m = Module::default();
    let params = constant_buffer(&mut m, "Params", vec![("x", scalar(Scalar::F32), 0)], 16);
    let out = buffer(&mut m, "Out", scalar(Scalar::F32), 4, 1, true);
    let float = m.type_handle(scalar(Scalar::F32));
    let pair = m.types.insert(Type {
        name: Some("Pair".into()),
        inner: TypeInner::Struct {
            members: ["first", "second"]
                .into_iter()
                .enumerate()
                .map(|(index, name)| StructMember {
                    name: name.into(),
                    ty: float,
                    offset: 4 * index as u32,
                    binding: None,
                })
                .collect(),
            size: 8,
        },
    });
    let mut fb = Fb::new("main");
    let base = fb.global(&mut m, params);
    let pointer = fb.e(
        &mut m,
        Expression::AccessIndex { base, index: 0 },
        TypeInner::Pointer {
            base: float,
            space: AddressSpace::Uniform,
        },
    );
    let x = fb.load(&mut m, pointer);
    let value = fb.f.add_expression(
        Expression::Compose {
            ty: pair,
            components: Box::new([x, x]),
        },
        pair,
        None,
    );
    let value = fb.bind(value);
    let first = fb.e(
        &mut m,
        Expression::AccessIndex {
            base: value,
            index: 0,
        },
        scalar(Scalar::F32),
    );
    let index = fb.u32(&mut m, 0);
    let target = fb.element(&mut m, out, index);
    fb.store(target, first);
    let f = fb.finish();
    entry(&mut m, f, ShaderStage::Compute, [1, 1, 1]);
    let text = wgsl(&m);
    assert!(text.contains("struct ParamsData {"), "{text}");
    assert!(text.contains("struct Pair {"), "{text}");
}
