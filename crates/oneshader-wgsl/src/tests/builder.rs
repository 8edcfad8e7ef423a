//! A small builder for hand-made IR modules in tests.

use oneshader_ir::{
    AddressSpace, ArraySize, Binding, BuiltIn, EntryPoint, Expression, Function, FunctionArgument,
    GlobalVariable, Handle, Literal, LocalVariable, Module, RegisterClass, Resource,
    ResourceBinding, ResourceKind, Scalar, ShaderStage, Span, Statement, Type, TypeInner,
    VectorSize, WaveOp,
};

pub fn scalar(s: Scalar) -> TypeInner {
    TypeInner::Scalar(s)
}

pub fn vector(n: u32, s: Scalar) -> TypeInner {
    match VectorSize::from_count(n) {
        Some(size) => TypeInner::Vector { size, scalar: s },
        None => TypeInner::Scalar(s),
    }
}

/// A `RWStructuredBuffer<element>` (or read-only `StructuredBuffer`) at (0, binding).
pub fn buffer(
    m: &mut Module,
    name: &str,
    element: TypeInner,
    stride: u32,
    binding: u32,
    writable: bool,
) -> Handle<GlobalVariable> {
    let base = m.type_handle(element);
    let ty = m.type_handle(TypeInner::Array {
        base,
        size: ArraySize::Runtime,
        stride,
    });
    let kind = if writable {
        ResourceKind::RWStructuredBuffer
    } else {
        ResourceKind::StructuredBuffer
    };
    m.global_variables.append(
        GlobalVariable {
            name: name.into(),
            space: AddressSpace::Storage { writable },
            ty,
            resource: Some(Resource {
                kind,
                binding: ResourceBinding { set: 0, binding },
                register: Some((
                    if writable {
                        RegisterClass::U
                    } else {
                        RegisterClass::T
                    },
                    binding,
                    0,
                )),
            }),
            span: None,
        },
        None,
    )
}

/// Builds one function's expressions and statements.
pub struct Fb {
    pub f: Function,
    pub body: Vec<Statement>,
}

impl Fb {
    pub fn new(name: &str) -> Self {
        Fb {
            f: Function {
                name: name.into(),
                ..Function::default()
            },
            body: Vec::new(),
        }
    }

    pub fn e(
        &mut self,
        m: &mut Module,
        expression: Expression,
        ty: TypeInner,
    ) -> Handle<Expression> {
        let ty = m.type_handle(ty);
        self.f.add_expression(expression, ty, None)
    }

    pub fn e_at(
        &mut self,
        m: &mut Module,
        expression: Expression,
        ty: TypeInner,
        span: Span,
    ) -> Handle<Expression> {
        let ty = m.type_handle(ty);
        self.f.add_expression(expression, ty, Some(span))
    }

    pub fn ty(&self, m: &Module, h: Handle<Expression>) -> TypeInner {
        m.types[self.f.type_of(h)].inner.clone()
    }

    pub fn u32(&mut self, m: &mut Module, v: u32) -> Handle<Expression> {
        self.e(m, Expression::Literal(Literal::U32(v)), scalar(Scalar::U32))
    }

    pub fn f32(&mut self, m: &mut Module, v: f32) -> Handle<Expression> {
        self.e(m, Expression::Literal(Literal::F32(v)), scalar(Scalar::F32))
    }

    pub fn arg(
        &mut self,
        m: &mut Module,
        name: &str,
        ty: TypeInner,
        binding: Option<Binding>,
    ) -> Handle<Expression> {
        let index = self.f.arguments.len() as u32;
        let handle = m.type_handle(ty.clone());
        self.f.arguments.push(FunctionArgument {
            name: name.into(),
            ty: handle,
            binding,
        });
        self.e(m, Expression::FunctionArgument(index), ty)
    }

    /// `SV_DispatchThreadID.x` as an entry argument `id`.
    pub fn thread_x(&mut self, m: &mut Module) -> Handle<Expression> {
        let id = self.arg(
            m,
            "id",
            vector(3, Scalar::U32),
            Some(Binding::BuiltIn(BuiltIn::GlobalInvocationId)),
        );
        self.e(
            m,
            Expression::AccessIndex { base: id, index: 0 },
            scalar(Scalar::U32),
        )
    }

    pub fn local(&mut self, m: &mut Module, name: &str, ty: TypeInner) -> Handle<Expression> {
        let handle = m.type_handle(ty.clone());
        let local = self.f.local_variables.append(
            LocalVariable {
                name: name.into(),
                ty: handle,
                init: None,
            },
            None,
        );
        self.e(
            m,
            Expression::LocalVariable(local),
            TypeInner::Pointer {
                base: handle,
                space: AddressSpace::Function,
            },
        )
    }

    pub fn global(&mut self, m: &mut Module, g: Handle<GlobalVariable>) -> Handle<Expression> {
        let (base, space) = (m.global_variables[g].ty, m.global_variables[g].space);
        self.e(
            m,
            Expression::GlobalVariable(g),
            TypeInner::Pointer { base, space },
        )
    }

    /// A pointer to element `index` of the buffer `g`.
    pub fn element(
        &mut self,
        m: &mut Module,
        g: Handle<GlobalVariable>,
        index: Handle<Expression>,
    ) -> Handle<Expression> {
        let (array, space) = (m.global_variables[g].ty, m.global_variables[g].space);
        let base = match m.types[array].inner {
            TypeInner::Array { base, .. } => base,
            _ => array,
        };
        let pointer = self.global(m, g);
        self.e(
            m,
            Expression::Access {
                base: pointer,
                index,
            },
            TypeInner::Pointer { base, space },
        )
    }

    pub fn load(&mut self, m: &mut Module, pointer: Handle<Expression>) -> Handle<Expression> {
        let ty = match self.ty(m, pointer) {
            TypeInner::Pointer { base, .. } => m.types[base].inner.clone(),
            other => other,
        };
        self.e(m, Expression::Load { pointer }, ty)
    }

    pub fn store(&mut self, pointer: Handle<Expression>, value: Handle<Expression>) {
        self.body.push(Statement::Store { pointer, value });
    }

    pub fn bind(&mut self, h: Handle<Expression>) -> Handle<Expression> {
        self.body.push(Statement::Bind(h));
        h
    }

    pub fn wave(
        &mut self,
        m: &mut Module,
        op: WaveOp,
        args: Vec<Handle<Expression>>,
        ty: TypeInner,
    ) -> Handle<Expression> {
        self.e(
            m,
            Expression::Wave {
                op,
                args: args.into(),
            },
            ty,
        )
    }

    pub fn finish(mut self) -> Function {
        self.f.body = std::mem::take(&mut self.body);
        self.f
    }
}

/// Adds `f` as an entry point.
pub fn entry(m: &mut Module, f: Function, stage: ShaderStage, workgroup_size: [u32; 3]) {
    m.entry_points.push(EntryPoint {
        name: f.name.clone(),
        stage,
        workgroup_size,
        function: f,
        span: None,
    });
}

/// The type of `ty` as a handle.
pub fn handle(m: &mut Module, ty: TypeInner) -> Handle<Type> {
    m.type_handle(ty)
}
