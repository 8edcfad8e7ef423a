//! Vertex and fragment stage I/O, renaming, resources and errors.

use oneshader_ir::{
    codes, AddressSpace, Binding, BuiltIn, EntryPoint, Expression, FunctionArgument,
    FunctionResult, GlobalVariable, Handle, Interpolation, Literal, Module, Resource,
    ResourceBinding, ResourceKind, Sampling, Scalar, ShaderStage, Statement, StructMember, Type,
    TypeInner, WaveOp,
};

use super::build::{buffer, Builder};
use super::{checked, failing};
use crate::Options;

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

fn member(name: &str, ty: Handle<Type>, offset: u32, binding: Option<Binding>) -> StructMember {
    StructMember {
        name: name.into(),
        ty,
        offset,
        binding,
    }
}

/// `VSMain` and `PSMain`: a vertex shader passing a position, a uv and a flat id to a
/// pixel shader that discards back faces and uses quad and lane operations.
fn pair_module() -> Module {
    let mut module = Module::default();
    let float = module.type_handle(TypeInner::Scalar(Scalar::F32));
    let uint = module.type_handle(TypeInner::Scalar(Scalar::U32));
    let boolean = module.type_handle(TypeInner::Scalar(Scalar::BOOL));
    let mut b = Builder::new(&mut module, "VSMain");
    let float2 = b.vector(Scalar::F32, 2);
    let float3 = b.vector(Scalar::F32, 3);
    let float4 = b.vector(Scalar::F32, 4);
    let vs_in = b.module.types.insert(Type {
        name: Some("VSIn".into()),
        inner: TypeInner::Struct {
            members: vec![
                member("pos", float3, 0, location(0, None, None)),
                member("uv", float2, 12, location(1, None, None)),
            ],
            size: 20,
        },
    });
    let vs_out = b.module.types.insert(Type {
        name: Some("VSOut".into()),
        inner: TypeInner::Struct {
            members: vec![
                member("pos", float4, 0, Some(Binding::BuiltIn(BuiltIn::Position))),
                member("uv", float2, 16, location(0, None, None)),
                member("id", uint, 24, location(1, Some(Interpolation::Flat), None)),
            ],
            size: 32,
        },
    });
    b.f.arguments = vec![
        FunctionArgument {
            name: "vid".into(),
            ty: uint,
            binding: Some(Binding::BuiltIn(BuiltIn::VertexIndex)),
        },
        FunctionArgument {
            name: "input".into(),
            ty: vs_in,
            binding: None,
        },
    ];
    b.f.result = Some(FunctionResult {
        ty: vs_out,
        binding: None,
    });
    let input = b.arg(1, vs_in);
    let pos = b.e(
        Expression::AccessIndex {
            base: input,
            index: 0,
        },
        float3,
    );
    let one = b.fl(1.0);
    let pos4 = b.e(
        Expression::Compose {
            ty: float4,
            components: Box::new([pos, one]),
        },
        float4,
    );
    let uv = b.e(
        Expression::AccessIndex {
            base: input,
            index: 1,
        },
        float2,
    );
    let vid = b.arg(0, uint);
    let out = b.e(
        Expression::Compose {
            ty: vs_out,
            components: Box::new([pos4, uv, vid]),
        },
        vs_out,
    );
    b.push(Statement::Return { value: Some(out) });
    let vs = b.f;

    let mut b = Builder::new(&mut module, "PSMain");
    let ps_in = b.module.types.insert(Type {
        name: Some("PSIn".into()),
        inner: TypeInner::Struct {
            members: vec![
                member("pos", float4, 0, Some(Binding::BuiltIn(BuiltIn::Position))),
                member(
                    "uv",
                    float2,
                    16,
                    location(0, Some(Interpolation::Linear), Some(Sampling::Centroid)),
                ),
                member("id", uint, 24, location(1, Some(Interpolation::Flat), None)),
            ],
            size: 32,
        },
    });
    let ps_out = b.module.types.insert(Type {
        name: Some("PSOut".into()),
        inner: TypeInner::Struct {
            members: vec![
                member("color", float4, 0, location(0, None, None)),
                member(
                    "depth",
                    float,
                    16,
                    Some(Binding::BuiltIn(BuiltIn::FragDepth)),
                ),
            ],
            size: 32,
        },
    });
    b.f.arguments = vec![
        FunctionArgument {
            name: "input".into(),
            ty: ps_in,
            binding: None,
        },
        FunctionArgument {
            name: "front".into(),
            ty: boolean,
            binding: Some(Binding::BuiltIn(BuiltIn::FrontFacing)),
        },
    ];
    b.f.result = Some(FunctionResult {
        ty: ps_out,
        binding: None,
    });
    let front = b.arg(1, boolean);
    let back = b.e(
        Expression::Unary {
            op: oneshader_ir::UnaryOperator::LogicalNot,
            expr: front,
        },
        boolean,
    );
    b.push(Statement::If {
        condition: back,
        accept: vec![Statement::Kill],
        reject: vec![],
    });
    let input = b.arg(0, ps_in);
    let uv = b.e(
        Expression::AccessIndex {
            base: input,
            index: 1,
        },
        float2,
    );
    b.bind(uv);
    let u = b.e(Expression::AccessIndex { base: uv, index: 0 }, float);
    let across = b.wave(WaveOp::QuadReadAcrossX, vec![u], float);
    let lane = b.wave(WaveOp::GetLaneIndex, vec![], uint);
    let lane_f = b.convert(lane, Scalar::F32);
    let color = b.e(
        Expression::Compose {
            ty: float4,
            components: Box::new([uv, across, lane_f]),
        },
        float4,
    );
    let depth = b.fl(0.5);
    let out = b.e(
        Expression::Compose {
            ty: ps_out,
            components: Box::new([color, depth]),
        },
        ps_out,
    );
    b.push(Statement::Return { value: Some(out) });
    let ps = b.f;
    module.entry_points.push(EntryPoint {
        name: "VSMain".into(),
        stage: ShaderStage::Vertex,
        workgroup_size: [1, 1, 1],
        function: vs,
        span: None,
    });
    module.entry_points.push(EntryPoint {
        name: "PSMain".into(),
        stage: ShaderStage::Fragment,
        workgroup_size: [1, 1, 1],
        function: ps,
        span: None,
    });
    module
}

#[test]
fn vertex_outputs_meet_fragment_inputs_by_location() {
    let module = pair_module();
    let vs = checked(&module, 0, &Options::default());
    let expect =
        |text: &str, needle: &str| assert!(text.contains(needle), "missing `{needle}` in:\n{text}");
    expect(&vs, "struct _stage_in {\n    float3 input_pos [[attribute(0)]];\n    float2 input_uv [[attribute(1)]];\n};");
    expect(&vs, "struct _stage_out {\n    float4 pos [[position]];\n    float2 uv [[user(locn0)]];\n    uint id [[user(locn1)]];\n};");
    expect(
        &vs,
        "vertex _stage_out VSMain(uint vid [[vertex_id]], _stage_in _in [[stage_in]]) {",
    );
    expect(&vs, "VSIn input = VSIn{_in.input_pos, _in.input_uv};");
    expect(&vs, "packed_float2 uv;");
    expect(
        &vs,
        "return _stage_out{_result1.pos, _result1.uv, _result1.id};",
    );
    assert!(!vs.contains("PSMain"));

    let ps = checked(&module, 1, &Options::default());
    expect(
        &ps,
        "float2 input_uv [[user(locn0), centroid_no_perspective]];",
    );
    expect(&ps, "uint input_id [[user(locn1), flat]];");
    expect(&ps, "float4 color [[color(0)]];");
    expect(&ps, "float depth [[depth(any)]];");
    expect(&ps, "fragment _stage_out PSMain(float4 input_pos [[position]], bool front [[front_facing]], _stage_in _in [[stage_in]], uint _lane_index [[thread_index_in_simdgroup]]) {");
    expect(&ps, "discard_fragment();");
    expect(&ps, "quad_shuffle_xor(_e");
    expect(&ps, "float(_lane_index)");
}

#[test]
fn lane_index_in_a_vertex_shader_is_osh5102() {
    let mut module = Module::default();
    let uint = module.type_handle(TypeInner::Scalar(Scalar::U32));
    let mut b = Builder::new(&mut module, "VS");
    let float4 = b.vector(Scalar::F32, 4);
    b.f.result = Some(FunctionResult {
        ty: float4,
        binding: Some(Binding::BuiltIn(BuiltIn::Position)),
    });
    let lane = b.wave(WaveOp::GetLaneIndex, vec![], uint);
    let lane_f = b.convert(lane, Scalar::F32);
    let position = b.splat(lane_f, 4);
    b.push(Statement::Return {
        value: Some(position),
    });
    let span = b.f.expressions.span(lane);
    let f = b.f;
    module.entry_points.push(EntryPoint {
        name: "VS".into(),
        stage: ShaderStage::Vertex,
        workgroup_size: [1, 1, 1],
        function: f,
        span: None,
    });
    let diagnostics = failing(&module, 0, &Options::default());
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert_eq!(diagnostics[0].code, codes::MSL_WAVE_STAGE);
    assert_eq!(diagnostics[0].span, span);
    assert!(diagnostics[0].message.contains("WaveGetLaneIndex"));
    assert!(
        diagnostics[0].message.contains("Metal has no"),
        "{}",
        diagnostics[0].message
    );
}

#[test]
fn clashing_names_are_renamed_consistently() {
    let mut module = Module::default();
    let uint = module.type_handle(TypeInner::Scalar(Scalar::U32));
    let h = Builder::new(&mut module, "half");
    let mut helper = h.f;
    helper.body.push(Statement::Return { value: None });
    let helper = module.functions.append(helper, None);
    let out = buffer(
        &mut module,
        "device",
        uint,
        ResourceKind::RWStructuredBuffer,
        0,
    );
    let mut b = Builder::new(&mut module, "main");
    let k = b.local("kernel", uint);
    let k_ptr = b.local_ptr(k);
    let seven = b.u(7);
    let store = b.store(k_ptr, seven);
    b.push(store);
    b.push(Statement::Call {
        function: helper,
        arguments: vec![],
        result: None,
    });
    let k_val = b.load(k_ptr);
    let zero = b.u(0);
    let slot = b.element(out, zero);
    let store = b.store(slot, k_val);
    b.push(store);
    let f = b.f;
    module.entry_points.push(EntryPoint {
        name: "main".into(),
        stage: ShaderStage::Compute,
        workgroup_size: [1, 1, 1],
        function: f,
        span: None,
    });
    let text = checked(&module, 0, &Options::default());
    for needle in [
        "kernel void main_(device uint* device_ [[buffer(0)]])",
        "uint kernel_ = {};",
        "void half_() {",
        "    half_();",
        "device_[0u] = kernel_;",
    ] {
        assert!(text.contains(needle), "missing `{needle}` in:\n{text}");
    }
}

fn length_module() -> (Module, Option<oneshader_ir::Span>) {
    let mut module = Module::default();
    let uint = module.type_handle(TypeInner::Scalar(Scalar::U32));
    let values = buffer(
        &mut module,
        "Values",
        uint,
        ResourceKind::StructuredBuffer,
        0,
    );
    let out = buffer(
        &mut module,
        "Out",
        uint,
        ResourceKind::RWStructuredBuffer,
        1,
    );
    let mut b = Builder::new(&mut module, "Length");
    let g = b.global_ptr(values);
    let length = b.e(Expression::ArrayLength(g), uint);
    let zero = b.u(0);
    let slot = b.element(out, zero);
    let store = b.store(slot, length);
    b.push(store);
    let span = b.f.expressions.span(length);
    let f = b.f;
    module.entry_points.push(EntryPoint {
        name: "Length".into(),
        stage: ShaderStage::Compute,
        workgroup_size: [1, 1, 1],
        function: f,
        span: None,
    });
    (module, span)
}

#[test]
fn buffer_length_needs_the_buffer_sizes_argument() {
    let (module, span) = length_module();
    let diagnostics = failing(&module, 0, &Options::default());
    assert_eq!(diagnostics[0].code, codes::MSL_UNSUPPORTED);
    assert_eq!(diagnostics[0].span, span);
    assert!(diagnostics[0].message.contains("GetDimensions"));

    let text = checked(
        &module,
        0,
        &Options {
            buffer_sizes_index: Some(7),
        },
    );
    assert!(
        text.contains("constant uint* _buffer_sizes [[buffer(7)]]"),
        "{text}"
    );
    assert!(
        text.contains("Out[0u] = (_buffer_sizes[0] / 4u);"),
        "{text}"
    );
}

#[test]
fn constant_buffers_are_constant_references_in_the_buffer_table() {
    let mut module = Module::default();
    let float = module.type_handle(TypeInner::Scalar(Scalar::F32));
    let float4 = module.type_handle(TypeInner::Vector {
        size: oneshader_ir::VectorSize::Quad,
        scalar: Scalar::F32,
    });
    let params = module.types.insert(Type {
        name: Some("Params".into()),
        inner: TypeInner::Struct {
            members: vec![
                member("scale", float, 0, None),
                member("tint", float4, 16, None),
            ],
            size: 32,
        },
    });
    // Declared after the output buffer but bound before it: (0, 0) < (0, 1).
    let out = buffer(
        &mut module,
        "Out",
        float,
        ResourceKind::RWStructuredBuffer,
        1,
    );
    let p = module.global_variables.append(
        GlobalVariable {
            name: "P".into(),
            space: AddressSpace::Uniform,
            ty: params,
            resource: Some(Resource {
                kind: ResourceKind::ConstantBuffer,
                binding: ResourceBinding { set: 0, binding: 0 },
                register: None,
            }),
            span: None,
        },
        None,
    );
    let mut b = Builder::new(&mut module, "Scale");
    let g = b.global_ptr(p);
    let float_ptr = b.ty(TypeInner::Pointer {
        base: float,
        space: AddressSpace::Uniform,
    });
    let scale_ptr = b.e(Expression::AccessIndex { base: g, index: 0 }, float_ptr);
    let scale = b.load(scale_ptr);
    let minus = b.e(Expression::Literal(Literal::F32(-2.5)), float);
    let product = b.binary(oneshader_ir::BinaryOperator::Multiply, scale, minus);
    let zero = b.u(0);
    let slot = b.element(out, zero);
    let store = b.store(slot, product);
    b.push(store);
    let f = b.f;
    module.entry_points.push(EntryPoint {
        name: "Scale".into(),
        stage: ShaderStage::Compute,
        workgroup_size: [1, 1, 1],
        function: f,
        span: None,
    });
    let text = checked(&module, 0, &Options::default());
    for needle in [
        "struct Params {\n    float scale;\n    char _pad0[12];\n    float4 tint;\n};",
        "kernel void Scale(constant Params& P [[buffer(0)]], device float* Out [[buffer(1)]])",
        "Out[0u] = P.scale * (-2.5f);",
    ] {
        assert!(text.contains(needle), "missing `{needle}` in:\n{text}");
    }
}

#[test]
fn doubles_are_reported_with_their_span() {
    let mut module = Module::default();
    let double = module.type_handle(TypeInner::Scalar(Scalar::F64));
    let mut b = Builder::new(&mut module, "D");
    let x = b.e(Expression::Literal(Literal::F64(1.0)), double);
    b.bind(x);
    let span = b.f.expressions.span(x);
    let f = b.f;
    module.entry_points.push(EntryPoint {
        name: "D".into(),
        stage: ShaderStage::Compute,
        workgroup_size: [1, 1, 1],
        function: f,
        span: None,
    });
    let diagnostics = failing(&module, 0, &Options::default());
    assert_eq!(diagnostics[0].code, codes::MSL_UNSUPPORTED);
    assert_eq!(diagnostics[0].span, span);
    assert!(
        diagnostics[0].message.contains("double"),
        "{}",
        diagnostics[0].message
    );
}
