//! A small helper for hand-building IR test modules: one compute entry point
//! reading `In` (binding 0) and writing `Out` (binding 1), both `uint` words.

use oneshader_ir::{
    AddressSpace, ArraySize, Binding, BuiltIn, EntryPoint, Expression, Function, FunctionArgument,
    GlobalVariable, Handle, Literal, Module, RegisterClass, Resource, ResourceBinding,
    ResourceKind, Scalar, ShaderStage, Statement, Type, TypeInner, VectorSize,
};

/// A module under construction with one function being written.
pub struct TestModule {
    /// The module.
    pub m: Module,
    /// The function being written (becomes the entry point, or a helper).
    pub f: Function,
    /// Its statements.
    pub body: Vec<Statement>,
}

impl TestModule {
    /// An empty module whose entry function takes `SV_DispatchThreadID` as argument 0.
    pub fn compute() -> Self {
        let mut m = Module::default();
        let uint3 = m.type_handle(TypeInner::Vector {
            size: VectorSize::Tri,
            scalar: Scalar::U32,
        });
        let f = Function {
            name: "main".into(),
            arguments: vec![FunctionArgument {
                name: "id".into(),
                ty: uint3,
                binding: Some(Binding::BuiltIn(BuiltIn::GlobalInvocationId)),
            }],
            ..Function::default()
        };
        TestModule {
            m,
            f,
            body: Vec::new(),
        }
    }

    /// The handle of type `inner`.
    pub fn ty(&mut self, inner: TypeInner) -> Handle<Type> {
        self.m.type_handle(inner)
    }

    /// The scalar type `scalar`.
    pub fn scalar(&mut self, scalar: Scalar) -> Handle<Type> {
        self.ty(TypeInner::Scalar(scalar))
    }

    /// A vector type.
    pub fn vector(&mut self, size: VectorSize, scalar: Scalar) -> Handle<Type> {
        self.ty(TypeInner::Vector { size, scalar })
    }

    /// A pointer type.
    pub fn pointer(&mut self, base: Handle<Type>, space: AddressSpace) -> Handle<Type> {
        self.ty(TypeInner::Pointer { base, space })
    }

    /// Adds expression `e` of type `ty`.
    pub fn expr(&mut self, e: Expression, ty: Handle<Type>) -> Handle<Expression> {
        self.f.add_expression(e, ty, None)
    }

    /// Adds expression `e` of type `ty` and binds it here.
    pub fn bind(&mut self, e: Expression, ty: Handle<Type>) -> Handle<Expression> {
        let h = self.expr(e, ty);
        self.body.push(Statement::Bind(h));
        h
    }

    /// A literal.
    pub fn literal(&mut self, literal: Literal) -> Handle<Expression> {
        let ty = self.scalar(literal.scalar());
        self.expr(Expression::Literal(literal), ty)
    }

    /// A storage buffer of `element`s at (0, `binding`).
    pub fn buffer(
        &mut self,
        name: &str,
        element: Handle<Type>,
        stride: u32,
        binding: u32,
        writable: bool,
    ) -> Handle<GlobalVariable> {
        let ty = self.ty(TypeInner::Array {
            base: element,
            size: ArraySize::Runtime,
            stride,
        });
        let kind = if writable {
            ResourceKind::RWStructuredBuffer
        } else {
            ResourceKind::StructuredBuffer
        };
        let class = if writable {
            RegisterClass::U
        } else {
            RegisterClass::T
        };
        self.m.global_variables.append(
            GlobalVariable {
                name: name.into(),
                space: AddressSpace::Storage { writable },
                ty,
                resource: Some(Resource {
                    kind,
                    binding: ResourceBinding { set: 0, binding },
                    register: Some((class, binding, 0)),
                }),
                span: None,
            },
            None,
        )
    }

    /// A pointer to element `index` of buffer `global` (of `element`s).
    pub fn element(
        &mut self,
        global: Handle<GlobalVariable>,
        element: Handle<Type>,
        index: Handle<Expression>,
    ) -> Handle<Expression> {
        let gv = &self.m.global_variables[global];
        let (ty, space) = (gv.ty, gv.space);
        let global_ptr = self.pointer(ty, space);
        let element_ptr = self.pointer(element, space);
        let base = self.expr(Expression::GlobalVariable(global), global_ptr);
        self.expr(Expression::Access { base, index }, element_ptr)
    }

    /// `id.x`.
    pub fn thread_x(&mut self) -> Handle<Expression> {
        let uint3 = self.vector(VectorSize::Tri, Scalar::U32);
        let uint = self.scalar(Scalar::U32);
        let id = self.expr(Expression::FunctionArgument(0), uint3);
        self.expr(Expression::AccessIndex { base: id, index: 0 }, uint)
    }

    /// Loads element `id.x` of `global`.
    pub fn load_element(
        &mut self,
        global: Handle<GlobalVariable>,
        element: Handle<Type>,
    ) -> Handle<Expression> {
        let x = self.thread_x();
        let pointer = self.element(global, element, x);
        self.bind(Expression::Load { pointer }, element)
    }

    /// Stores `value` to element `id.x` of `global`.
    pub fn store_element(
        &mut self,
        global: Handle<GlobalVariable>,
        element: Handle<Type>,
        value: Handle<Expression>,
    ) {
        let x = self.thread_x();
        let pointer = self.element(global, element, x);
        self.body.push(Statement::Store { pointer, value });
    }

    /// Finishes the entry function and returns the module.
    pub fn finish(mut self) -> Module {
        self.f.body = std::mem::take(&mut self.body);
        self.m.entry_points.push(EntryPoint {
            name: "main".into(),
            stage: ShaderStage::Compute,
            workgroup_size: [64, 1, 1],
            function: self.f,
            span: None,
        });
        self.m
    }
}
