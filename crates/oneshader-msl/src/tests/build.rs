//! A small builder of IR functions for the tests.

use oneshader_ir::{
    AddressSpace, ArraySize, Expression, FileId, Function, GlobalVariable, Handle, Literal,
    LocalVariable, Module, RegisterClass, Resource, ResourceBinding, ResourceKind, Scalar, Span,
    Statement, Type, TypeInner, VectorSize, WaveOp,
};

/// Adds a global buffer of `element`s (a runtime array) bound at `(0, binding)`.
pub fn buffer(
    module: &mut Module,
    name: &str,
    element: Handle<Type>,
    kind: ResourceKind,
    binding: u32,
) -> Handle<GlobalVariable> {
    let ty = module.type_handle(TypeInner::Array {
        base: element,
        size: ArraySize::Runtime,
        stride: 4,
    });
    module.global_variables.append(
        GlobalVariable {
            name: name.into(),
            space: AddressSpace::Storage {
                writable: kind.is_writable(),
            },
            ty,
            resource: Some(Resource {
                kind,
                binding: ResourceBinding { set: 0, binding },
                register: Some((
                    if kind.is_writable() {
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
pub struct Builder<'m> {
    pub module: &'m mut Module,
    pub f: Function,
    next_span: u32,
}

#[allow(dead_code)]
impl<'m> Builder<'m> {
    pub fn new(module: &'m mut Module, name: &str) -> Self {
        Builder {
            module,
            f: Function {
                name: name.into(),
                ..Function::default()
            },
            next_span: 0,
        }
    }

    pub fn ty(&mut self, inner: TypeInner) -> Handle<Type> {
        self.module.type_handle(inner)
    }
    pub fn scalar(&mut self, scalar: Scalar) -> Handle<Type> {
        self.ty(TypeInner::Scalar(scalar))
    }
    pub fn vector(&mut self, scalar: Scalar, n: u32) -> Handle<Type> {
        match VectorSize::from_count(n) {
            Some(size) => self.ty(TypeInner::Vector { size, scalar }),
            None => self.scalar(scalar),
        }
    }

    /// Adds an expression; every one gets a distinct span so diagnostics can be traced.
    pub fn e(&mut self, expression: Expression, ty: Handle<Type>) -> Handle<Expression> {
        self.next_span += 1;
        let span = Span::new(FileId(0), self.next_span * 10, self.next_span * 10 + 5);
        self.f.add_expression(expression, ty, Some(span))
    }
    pub fn u(&mut self, v: u32) -> Handle<Expression> {
        let t = self.scalar(Scalar::U32);
        self.e(Expression::Literal(Literal::U32(v)), t)
    }
    pub fn i(&mut self, v: i32) -> Handle<Expression> {
        let t = self.scalar(Scalar::I32);
        self.e(Expression::Literal(Literal::I32(v)), t)
    }
    pub fn fl(&mut self, v: f32) -> Handle<Expression> {
        let t = self.scalar(Scalar::F32);
        self.e(Expression::Literal(Literal::F32(v)), t)
    }
    pub fn arg(&mut self, index: u32, ty: Handle<Type>) -> Handle<Expression> {
        self.e(Expression::FunctionArgument(index), ty)
    }
    pub fn local(&mut self, name: &str, ty: Handle<Type>) -> Handle<LocalVariable> {
        self.f.local_variables.append(
            LocalVariable {
                name: name.into(),
                ty,
                init: None,
            },
            None,
        )
    }
    pub fn local_ptr(&mut self, local: Handle<LocalVariable>) -> Handle<Expression> {
        let base = self.f.local_variables[local].ty;
        let ty = self.ty(TypeInner::Pointer {
            base,
            space: AddressSpace::Function,
        });
        self.e(Expression::LocalVariable(local), ty)
    }
    pub fn global_ptr(&mut self, global: Handle<GlobalVariable>) -> Handle<Expression> {
        let (base, space) = {
            let g = &self.module.global_variables[global];
            (g.ty, g.space)
        };
        let ty = self.ty(TypeInner::Pointer { base, space });
        self.e(Expression::GlobalVariable(global), ty)
    }
    /// A pointer to element `index` of a buffer or array global.
    pub fn element(
        &mut self,
        global: Handle<GlobalVariable>,
        index: Handle<Expression>,
    ) -> Handle<Expression> {
        let (array, space) = {
            let g = &self.module.global_variables[global];
            (g.ty, g.space)
        };
        let base = match self.module.inner(array) {
            TypeInner::Array { base, .. } => *base,
            _ => array,
        };
        let ty = self.ty(TypeInner::Pointer { base, space });
        let g = self.global_ptr(global);
        self.e(Expression::Access { base: g, index }, ty)
    }
    pub fn load(&mut self, pointer: Handle<Expression>) -> Handle<Expression> {
        let ty = match self.module.inner(self.f.type_of(pointer)) {
            TypeInner::Pointer { base, .. } => *base,
            _ => self.f.type_of(pointer),
        };
        self.e(Expression::Load { pointer }, ty)
    }
    pub fn convert(&mut self, expr: Handle<Expression>, to: Scalar) -> Handle<Expression> {
        let n = self
            .module
            .inner(self.f.type_of(expr))
            .component_count()
            .unwrap_or(1);
        let ty = self.vector(to, n);
        self.e(Expression::Convert { expr, to }, ty)
    }
    pub fn splat(&mut self, value: Handle<Expression>, n: u32) -> Handle<Expression> {
        let scalar = self
            .module
            .inner(self.f.type_of(value))
            .scalar()
            .unwrap_or(Scalar::U32);
        let ty = self.vector(scalar, n);
        let size = VectorSize::from_count(n).unwrap_or(VectorSize::Quad);
        self.e(Expression::Splat { size, value }, ty)
    }
    pub fn binary(
        &mut self,
        op: oneshader_ir::BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Handle<Expression> {
        let ty = if op.is_comparison() {
            let n = self
                .module
                .inner(self.f.type_of(left))
                .component_count()
                .unwrap_or(1);
            self.vector(Scalar::BOOL, n)
        } else {
            self.f.type_of(left)
        };
        self.e(Expression::Binary { op, left, right }, ty)
    }
    pub fn wave(
        &mut self,
        op: WaveOp,
        args: Vec<Handle<Expression>>,
        ty: Handle<Type>,
    ) -> Handle<Expression> {
        self.e(
            Expression::Wave {
                op,
                args: args.into(),
            },
            ty,
        )
    }
    pub fn push(&mut self, statement: Statement) {
        self.f.body.push(statement);
    }
    pub fn bind(&mut self, h: Handle<Expression>) {
        self.f.body.push(Statement::Bind(h));
    }
    pub fn store(&mut self, pointer: Handle<Expression>, value: Handle<Expression>) -> Statement {
        Statement::Store { pointer, value }
    }
}
