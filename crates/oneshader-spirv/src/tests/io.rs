//! Entry point inputs and outputs of vertex and pixel shaders, and diagnostics.

use oneshader_ir::{
    codes, AddressSpace, Binding, BuiltIn, EntryPoint, Expression, Function, FunctionArgument,
    FunctionResult, GlobalVariable, Interpolation, Module, ModuleInfo, Sampling, Scalar,
    ShaderStage, Statement, StructMember, Type, TypeInner, VectorSize, WaveOp,
};
use rspirv::dr::Operand;
use rspirv::spirv::{Decoration, Op};

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

/// Every decoration of the module, as (target, decoration) pairs.
fn decorations(words: &[u32]) -> Vec<(u32, Decoration)> {
    load(words)
        .annotations
        .iter()
        .filter(|i| i.class.opcode == Op::Decorate)
        .filter_map(|i| match (i.operands.first(), i.operands.get(1)) {
            (Some(Operand::IdRef(id)), Some(Operand::Decoration(d))) => Some((*id, *d)),
            _ => None,
        })
        .collect()
}

#[test]
fn pixel_shader_inputs_outputs_and_discard() {
    let mut m = Module::default();
    let float4 = m.type_handle(TypeInner::Vector {
        size: VectorSize::Quad,
        scalar: Scalar::F32,
    });
    let float = m.type_handle(TypeInner::Scalar(Scalar::F32));
    let uint = m.type_handle(TypeInner::Scalar(Scalar::U32));
    let boolean = m.type_handle(TypeInner::Scalar(Scalar::BOOL));
    let output = m.types.insert(Type {
        name: Some("PSOut".into()),
        inner: TypeInner::Struct {
            members: vec![
                StructMember {
                    name: "color".into(),
                    ty: float4,
                    offset: 0,
                    binding: location(0, None, None),
                },
                StructMember {
                    name: "depth".into(),
                    ty: float,
                    offset: 16,
                    binding: Some(Binding::BuiltIn(BuiltIn::FragDepth)),
                },
            ],
            size: 20,
        },
    });
    let argument = |name: &str, ty, binding| FunctionArgument {
        name: name.into(),
        ty,
        binding,
    };
    let mut f = Function {
        name: "PSMain".into(),
        arguments: vec![
            argument(
                "position",
                float4,
                Some(Binding::BuiltIn(BuiltIn::Position)),
            ),
            argument("material", uint, location(0, None, None)),
            argument(
                "fade",
                float,
                location(1, Some(Interpolation::Linear), Some(Sampling::Centroid)),
            ),
            argument(
                "front",
                boolean,
                Some(Binding::BuiltIn(BuiltIn::FrontFacing)),
            ),
        ],
        result: Some(FunctionResult {
            ty: output,
            binding: None,
        }),
        ..Function::default()
    };
    let position = f.add_expression(Expression::FunctionArgument(0), float4, None);
    let fade = f.add_expression(Expression::FunctionArgument(2), float, None);
    let front = f.add_expression(Expression::FunctionArgument(3), boolean, None);
    let lane = f.add_expression(
        Expression::Wave {
            op: WaveOp::GetLaneIndex,
            args: Box::new([]),
        },
        uint,
        None,
    );
    let material = f.add_expression(Expression::FunctionArgument(1), uint, None);
    let sum = f.add_expression(
        Expression::Binary {
            op: oneshader_ir::BinaryOperator::Add,
            left: lane,
            right: material,
        },
        uint,
        None,
    );
    let sum_f = f.add_expression(
        Expression::Convert {
            expr: sum,
            to: Scalar::F32,
        },
        float,
        None,
    );
    let result = f.add_expression(
        Expression::Compose {
            ty: output,
            components: Box::new([position, sum_f]),
        },
        output,
        None,
    );
    let _ = fade;
    f.body = vec![
        Statement::If {
            condition: front,
            accept: vec![Statement::Kill],
            reject: vec![],
        },
        Statement::Return {
            value: Some(result),
        },
    ];
    m.entry_points.push(EntryPoint {
        name: "PSMain".into(),
        stage: ShaderStage::Fragment,
        workgroup_size: [1, 1, 1],
        function: f,
        span: None,
    });
    let words = compile_valid(&m);
    let decorations = decorations(&words);
    let count = |d| decorations.iter().filter(|(_, x)| *x == d).count();
    // The uint location and the lane index are Flat; `fade` is NoPerspective Centroid.
    assert_eq!(count(Decoration::Flat), 2);
    assert_eq!(count(Decoration::NoPerspective), 1);
    assert_eq!(count(Decoration::Centroid), 1);
    assert!(body_ops(&words).contains(&Op::Kill));
    let module = load(&words);
    assert!(
        module.execution_modes.len() == 2,
        "OriginUpperLeft and DepthReplacing"
    );
}

#[test]
fn vertex_shader_outputs_a_struct() {
    let mut m = Module::default();
    let float4 = m.type_handle(TypeInner::Vector {
        size: VectorSize::Quad,
        scalar: Scalar::F32,
    });
    let float2 = m.type_handle(TypeInner::Vector {
        size: VectorSize::Bi,
        scalar: Scalar::F32,
    });
    let float = m.type_handle(TypeInner::Scalar(Scalar::F32));
    let uint = m.type_handle(TypeInner::Scalar(Scalar::U32));
    let output = m.types.insert(Type {
        name: Some("VSOut".into()),
        inner: TypeInner::Struct {
            members: vec![
                StructMember {
                    name: "pos".into(),
                    ty: float4,
                    offset: 0,
                    binding: Some(Binding::BuiltIn(BuiltIn::Position)),
                },
                StructMember {
                    name: "uv".into(),
                    ty: float2,
                    offset: 16,
                    binding: location(0, Some(Interpolation::Linear), None),
                },
            ],
            size: 24,
        },
    });
    let mut f = Function {
        name: "VSMain".into(),
        arguments: vec![FunctionArgument {
            name: "vertex".into(),
            ty: uint,
            binding: Some(Binding::BuiltIn(BuiltIn::VertexIndex)),
        }],
        result: Some(FunctionResult {
            ty: output,
            binding: None,
        }),
        ..Function::default()
    };
    let vertex = f.add_expression(Expression::FunctionArgument(0), uint, None);
    let x = f.add_expression(
        Expression::Convert {
            expr: vertex,
            to: Scalar::F32,
        },
        float,
        None,
    );
    let pos = f.add_expression(
        Expression::Splat {
            size: VectorSize::Quad,
            value: x,
        },
        float4,
        None,
    );
    let uv = f.add_expression(
        Expression::Swizzle {
            size: VectorSize::Bi,
            vector: pos,
            pattern: [oneshader_ir::SwizzleComponent::X; 4],
        },
        float2,
        None,
    );
    let result = f.add_expression(
        Expression::Compose {
            ty: output,
            components: Box::new([pos, uv]),
        },
        output,
        None,
    );
    f.body = vec![Statement::Return {
        value: Some(result),
    }];
    m.entry_points.push(EntryPoint {
        name: "VSMain".into(),
        stage: ShaderStage::Vertex,
        workgroup_size: [1, 1, 1],
        function: f,
        span: None,
    });
    let words = compile_valid(&m);
    let module = load(&words);
    // One input and two outputs.
    let Some(Operand::LiteralString(name)) = module.entry_points[0].operands.get(2) else {
        panic!("no entry point name");
    };
    assert_eq!(name, "VSMain");
    assert_eq!(module.entry_points[0].operands.len(), 3 + 3);
}

#[test]
fn unsupported_and_malformed_ir_are_osh5001_errors() {
    // No such entry point.
    let errors = write_entry_point(
        &Module::default(),
        &ModuleInfo::default(),
        0,
        &Options::default(),
    )
    .expect_err("the backend refuses it");
    assert_eq!(errors[0].code, codes::SPIRV_UNSUPPORTED);

    // A texture global without a binding.
    let mut module = oneshader_ir::samples::compact();
    let texture = module.type_handle(TypeInner::Image {
        dim: oneshader_ir::ImageDimension::D2,
        arrayed: false,
        class: oneshader_ir::ImageClass::Sampled {
            kind: oneshader_ir::ScalarKind::Float,
            multisampled: false,
            components: 4,
        },
    });
    let texture_ptr = module.type_handle(TypeInner::Pointer {
        base: texture,
        space: AddressSpace::Handle,
    });
    let global = module.global_variables.append(
        GlobalVariable {
            name: "Tex".into(),
            space: AddressSpace::Handle,
            ty: texture,
            resource: None,
            span: None,
        },
        None,
    );
    let entry = &mut module.entry_points[0].function;
    let g = entry.add_expression(Expression::GlobalVariable(global), texture_ptr, None);
    let loaded = entry.add_expression(Expression::Load { pointer: g }, texture, None);
    entry.body.insert(0, Statement::Bind(loaded));
    let errors = write_entry_point(&module, &ModuleInfo::new(&module), 0, &Options::default())
        .expect_err("the backend refuses it");
    assert!(errors.iter().all(|e| e.code == codes::SPIRV_UNSUPPORTED));
    assert!(
        errors[0].message.contains("texture"),
        "{}",
        errors[0].message
    );

    // Handles that point nowhere.
    let mut module = oneshader_ir::samples::compact();
    let entry = &mut module.entry_points[0].function;
    let bogus = oneshader_ir::Handle::from_index(10_000);
    entry.body.push(Statement::Bind(bogus));
    entry.body.push(Statement::Call {
        function: oneshader_ir::Handle::from_index(7),
        arguments: vec![],
        result: None,
    });
    let errors = write_entry_point(&module, &ModuleInfo::new(&module), 0, &Options::default())
        .expect_err("the backend refuses it");
    assert!(errors.iter().all(|e| e.code == codes::SPIRV_UNSUPPORTED));

    // A wave op with too few operands, and discard in a compute shader.
    let mut module = oneshader_ir::samples::compact();
    let entry = &mut module.entry_points[0].function;
    let uint = entry.expression_types[0];
    let sum = entry.add_expression(
        Expression::Wave {
            op: WaveOp::ActiveSum,
            args: Box::new([]),
        },
        uint,
        None,
    );
    entry.body.insert(0, Statement::Bind(sum));
    assert!(write_entry_point(&module, &ModuleInfo::new(&module), 0, &Options::default()).is_err());
    let mut module = oneshader_ir::samples::compact();
    module.entry_points[0]
        .function
        .body
        .insert(0, Statement::Kill);
    let errors = write_entry_point(&module, &ModuleInfo::new(&module), 0, &Options::default())
        .expect_err("the backend refuses it");
    assert!(errors[0].message.contains("discard"));
}

#[test]
fn names_can_be_stripped() {
    let module = oneshader_ir::samples::compact();
    let named = compile(&module);
    let stripped = write_entry_point(
        &module,
        &ModuleInfo::new(&module),
        0,
        &Options {
            strip_names: true,
            ..Default::default()
        },
    )
    .expect("compiles");
    validate(&stripped);
    assert!(load(&stripped).debug_names.is_empty());
    assert!(stripped.len() < named.len());
}
