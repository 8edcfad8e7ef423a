//! Vertex and fragment entry points, struct I/O, interpolation, and identifier renaming.

use oneshader_ir::{
    AddressSpace, Binding, BuiltIn, Expression, FunctionResult, GlobalVariable, Interpolation,
    Module, Resource, ResourceBinding, ResourceKind, Sampling, Scalar, ShaderStage, Statement,
    StructMember, Type, TypeInner, WaveOp,
};

use super::builder::*;
use super::*;

fn location(
    location: u32,
    interpolation: Option<Interpolation>,
    sampling: Option<Sampling>,
) -> Option<Binding> {
    Some(Binding::Location {
        location,
        semantic: format!("TEXCOORD{location}"),
        interpolation,
        sampling,
    })
}

/// `VSMain` and `PSMain` sharing the `VSOut` struct.
fn vertex_fragment_module(fragment_wave: bool) -> Module {
    let mut m = Module::default();
    let float4 = handle(&mut m, vector(4, Scalar::F32));
    let float2 = handle(&mut m, vector(2, Scalar::F32));
    let uint = handle(&mut m, scalar(Scalar::U32));
    let member = |name: &str, ty, offset, binding| StructMember {
        name: name.into(),
        ty,
        offset,
        binding,
    };
    let vs_out = m.types.insert(Type {
        name: Some("VSOut".into()),
        inner: TypeInner::Struct {
            members: vec![
                member(
                    "position",
                    float4,
                    0,
                    Some(Binding::BuiltIn(BuiltIn::Position)),
                ),
                member("color", float4, 16, location(0, None, None)),
                member(
                    "tag",
                    uint,
                    32,
                    location(1, Some(Interpolation::Perspective), None),
                ),
                member(
                    "uv",
                    float2,
                    40,
                    location(2, Some(Interpolation::Linear), Some(Sampling::Centroid)),
                ),
            ],
            size: 48,
        },
    });

    let mut vs = Fb::new("VSMain");
    let pos = vs.arg(
        &mut m,
        "pos",
        vector(3, Scalar::F32),
        location(0, None, None),
    );
    let id = vs.arg(&mut m, "id", scalar(Scalar::U32), location(1, None, None));
    let one = vs.f32(&mut m, 1.0);
    let x = vs.e(
        &mut m,
        Expression::AccessIndex {
            base: pos,
            index: 0,
        },
        scalar(Scalar::F32),
    );
    let y = vs.e(
        &mut m,
        Expression::AccessIndex {
            base: pos,
            index: 1,
        },
        scalar(Scalar::F32),
    );
    let z = vs.e(
        &mut m,
        Expression::AccessIndex {
            base: pos,
            index: 2,
        },
        scalar(Scalar::F32),
    );
    let position = vs.e(
        &mut m,
        Expression::Compose {
            ty: float4,
            components: Box::new([x, y, z, one]),
        },
        vector(4, Scalar::F32),
    );
    let uv = vs.e(
        &mut m,
        Expression::Compose {
            ty: float2,
            components: Box::new([x, y]),
        },
        vector(2, Scalar::F32),
    );
    let out = vs.f.add_expression(
        Expression::Compose {
            ty: vs_out,
            components: Box::new([position, position, id, uv]),
        },
        vs_out,
        None,
    );
    vs.body.push(Statement::Return { value: Some(out) });
    let mut vs = vs.finish();
    vs.result = Some(FunctionResult {
        ty: vs_out,
        binding: None,
    });
    entry(&mut m, vs, ShaderStage::Vertex, [1, 1, 1]);

    let mut ps = Fb::new("PSMain");
    ps.f.arguments.push(oneshader_ir::FunctionArgument {
        name: "input".into(),
        ty: vs_out,
        binding: None,
    });
    let input =
        ps.f.add_expression(Expression::FunctionArgument(0), vs_out, None);
    let color = ps.e(
        &mut m,
        Expression::AccessIndex {
            base: input,
            index: 1,
        },
        vector(4, Scalar::F32),
    );
    let tag = ps.e(
        &mut m,
        Expression::AccessIndex {
            base: input,
            index: 2,
        },
        scalar(Scalar::U32),
    );
    let tag = if fragment_wave {
        ps.wave(
            &mut m,
            WaveOp::QuadReadAcrossX,
            vec![tag],
            scalar(Scalar::U32),
        )
    } else {
        tag
    };
    let scale = ps.e(
        &mut m,
        Expression::Convert {
            expr: tag,
            to: Scalar::F32,
        },
        scalar(Scalar::F32),
    );
    let size = oneshader_ir::VectorSize::Quad;
    let scale = ps.e(
        &mut m,
        Expression::Splat { size, value: scale },
        vector(4, Scalar::F32),
    );
    let result = ps.e(
        &mut m,
        Expression::Binary {
            op: oneshader_ir::BinaryOperator::Multiply,
            left: color,
            right: scale,
        },
        vector(4, Scalar::F32),
    );
    ps.body.push(Statement::Return {
        value: Some(result),
    });
    let mut ps = ps.finish();
    ps.result = Some(FunctionResult {
        ty: float4,
        binding: location(0, None, None),
    });
    entry(&mut m, ps, ShaderStage::Fragment, [1, 1, 1]);
    m
}

#[test]
fn vertex_and_fragment_entry_points_with_struct_io() {
    let module = vertex_fragment_module(false);
    let vertex = wgsl_of(&module, 0);
    let fragment = wgsl_of(&module, 1);
    for text in [&vertex, &fragment] {
        assert!(
            text.contains("@builtin(position) position: vec4<f32>,"),
            "{text}"
        );
        assert!(text.contains("@location(0) color: vec4<f32>,"), "{text}");
        // Integers are flat whatever the IR says; others keep their interpolation.
        assert!(
            text.contains("@location(1) @interpolate(flat) tag: u32,"),
            "{text}"
        );
        assert!(
            text.contains("@location(2) @interpolate(linear, centroid) uv: vec2<f32>,"),
            "{text}"
        );
        assert!(!text.contains("enable subgroups"));
        assert_naga_accepts(text);
        assert_tint_accepts(text);
    }
    assert!(vertex.contains("@vertex\nfn VSMain(@location(0) pos: vec3<f32>, @location(1) @interpolate(flat) id: u32) -> VSOut {"), "{vertex}");
    assert!(
        fragment.contains("@fragment\nfn PSMain(input: VSOut) -> @location(0) vec4<f32> {"),
        "{fragment}"
    );
}

#[test]
fn fragment_shaders_may_use_wave_ops() {
    let module = vertex_fragment_module(true);
    let fragment = wgsl_of(&module, 1);
    assert!(fragment.starts_with("enable subgroups;"), "{fragment}");
    assert!(fragment.contains("quadSwapX(input.tag)"), "{fragment}");
    assert_tint_accepts(&fragment);
    // The vertex shader uses none, so it has no directives.
    assert!(!wgsl_of(&module, 0).contains("enable subgroups"));
}

#[test]
fn names_that_clash_with_wgsl_are_renamed() {
    let mut m = Module::default();
    let out = buffer(&mut m, "loop", scalar(Scalar::U32), 4, 0, true);
    let unused = buffer(&mut m, "Unused", scalar(Scalar::U32), 4, 1, true);
    let private_ty = handle(&mut m, scalar(Scalar::U32));
    let private = m.global_variables.append(
        GlobalVariable {
            name: "__counter".into(),
            space: AddressSpace::Private,
            ty: private_ty,
            resource: None,
            span: None,
        },
        None,
    );
    let mut helper = Fb::new("select");
    let read = helper.arg(&mut m, "read", scalar(Scalar::U32), None);
    let local = helper.local(&mut m, "_e1", scalar(Scalar::U32));
    helper.store(local, read);
    let value = helper.load(&mut m, local);
    helper.body.push(Statement::Return { value: Some(value) });
    let mut helper = helper.finish();
    helper.result = Some(FunctionResult {
        ty: private_ty,
        binding: None,
    });
    let select = m.functions.append(helper, None);

    let mut fb = Fb::new("main");
    let x = fb.thread_x(&mut m);
    let counter = fb.global(&mut m, private);
    fb.store(counter, x);
    let loaded = fb.load(&mut m, counter);
    let result = fb.e(&mut m, Expression::CallResult(select), scalar(Scalar::U32));
    fb.body.push(Statement::Call {
        function: select,
        arguments: vec![loaded],
        result: Some(result),
    });
    let pointer = fb.element(&mut m, out, x);
    fb.store(pointer, result);
    let f = fb.finish();
    entry(&mut m, f, ShaderStage::Compute, [1, 1, 1]);
    let text = wgsl(&m);
    assert!(
        text.contains("var<storage, read_write> loop_: array<u32>;"),
        "{text}"
    );
    assert!(text.contains("var<private> u__counter: u32;"), "{text}");
    assert!(text.contains("fn select_(read_: u32) -> u32"), "{text}");
    assert!(text.contains("var _e1_: u32;"), "{text}");
    // Only the globals the entry point uses are declared.
    assert!(!text.contains("Unused"), "{text}");
    let _ = unused;
    assert_naga_accepts(&text);
    assert_tint_accepts(&text);
    let _ = (
        ResourceKind::ConstantBuffer,
        ResourceBinding { set: 0, binding: 0 },
    );
    let _: Option<Resource> = None;
}
