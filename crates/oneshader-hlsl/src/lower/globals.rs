//! File-scope declarations: types, structs, globals, resources, cbuffers and
//! function signatures.

use std::collections::hash_map::Entry;
use std::sync::Arc;

use oneshader_ir::{
    codes, AddressSpace, ArraySize, Diagnostic, FastHashMap, GlobalVariable, Handle, RegisterClass,
    Resource, ResourceBinding, ResourceKind, Scalar, ScalarKind, StructMember, Type, TypeInner,
    VectorSize,
};

use super::cbuffer::CbufferPlace;
use super::counter::BufferFlavor;
use super::expr::Shape;
use super::types::{self, LayoutRules, ResourceTy, Ty};
use super::{
    FunctionSymbol, GlobalSymbol, Lowerer, Nesting, ParamSig, MAX_STRUCT_NESTING, MAX_TYPE_NESTING,
};
use crate::ast;

impl<'a> Lowerer<'a> {
    /// Records the declarations of one top-level item.
    pub(crate) fn declare_item(&mut self, item: &'a ast::Item<'a>) {
        match item {
            ast::Item::Struct(decl) => {
                self.declare_struct(decl);
            }
            ast::Item::Typedef(decl) => {
                let Some(base) = self.resolve_type(&decl.ty) else {
                    return;
                };
                for declarator in decl.declarators {
                    let ty = match base {
                        Ty::Value(b) => match self.apply_array_dims(b, declarator.array_dims) {
                            Some(t) => Ty::Value(t),
                            None => continue,
                        },
                        other => other,
                    };
                    self.typedefs.insert(declarator.name.name.to_string(), ty);
                }
            }
            ast::Item::Variable(decl) => self.declare_global_variables(decl),
            ast::Item::Buffer(decl) => self.declare_cbuffer(decl),
            ast::Item::Function(decl) => self.declare_function(decl),
            ast::Item::PackMatrix(pragma) => self.row_major_default = pragma.row_major,
            ast::Item::Namespace(_) | ast::Item::Empty(_) => {}
        }
    }

    /// Resolves a written type.
    pub(crate) fn resolve_type(&mut self, ty: &'a ast::TypeExpr<'a>) -> Option<Ty> {
        let (name, args) = match &ty.kind {
            ast::TypeKind::Named { name, args } => (name, args.as_deref()),
            ast::TypeKind::Struct(decl) => return self.declare_struct(decl).map(Ty::Value),
        };
        let text = name.name();
        if text == "void" {
            return Some(Ty::Void);
        }
        if let Some(found) = self.typedefs.get(text) {
            return Some(*found);
        }
        if let Some(found) = self.structs.get(text) {
            return Some(Ty::Value(*found));
        }
        if let Some(scalar) = types::scalar_by_name(text) {
            return Some(Ty::Value(self.scalar_type(scalar)));
        }
        if let Some((base, n, columns)) = types::split_dimensions(text) {
            if let Some(scalar) = types::scalar_by_name(base) {
                return self
                    .numeric_type(scalar, n, columns, ty.span)
                    .map(Ty::Value);
            }
        }
        if let Some(image) = self.resolve_image_type(text, args, ty.span) {
            return image;
        }
        match text {
            "vector" => {
                let (scalar, n) = match args {
                    None => (Scalar::F32, 4),
                    Some(args) => (
                        self.template_scalar(args.first(), ty.span)?,
                        self.template_int(args.get(1), ty.span)?,
                    ),
                };
                self.numeric_type(scalar, n, None, ty.span).map(Ty::Value)
            }
            "matrix" => {
                let (scalar, rows, columns) = match args {
                    None => (Scalar::F32, 4, 4),
                    Some(args) => (
                        self.template_scalar(args.first(), ty.span)?,
                        self.template_int(args.get(1), ty.span)?,
                        self.template_int(args.get(2), ty.span)?,
                    ),
                };
                self.numeric_type(scalar, rows, Some(columns), ty.span)
                    .map(Ty::Value)
            }
            "StructuredBuffer"
            | "RWStructuredBuffer"
            | "AppendStructuredBuffer"
            | "ConsumeStructuredBuffer" => {
                let kind = if text == "StructuredBuffer" {
                    ResourceKind::StructuredBuffer
                } else {
                    ResourceKind::RWStructuredBuffer
                };
                let element = self.template_type(args.and_then(|a| a.first()), ty.span)?;
                Some(Ty::Resource(ResourceTy { kind, element }))
            }
            "ByteAddressBuffer" | "RWByteAddressBuffer" => {
                let kind = if text == "ByteAddressBuffer" {
                    ResourceKind::ByteAddressBuffer
                } else {
                    ResourceKind::RWByteAddressBuffer
                };
                let element = self.module.type_handle(TypeInner::Scalar(Scalar::U32));
                Some(Ty::Resource(ResourceTy { kind, element }))
            }
            "ConstantBuffer" | "TextureBuffer" => {
                let kind = if text == "ConstantBuffer" {
                    ResourceKind::ConstantBuffer
                } else {
                    ResourceKind::TextureBuffer
                };
                let element = self.template_type(args.and_then(|a| a.first()), ty.span)?;
                Some(Ty::Resource(ResourceTy { kind, element }))
            }
            _ if is_unsupported_resource(text) => {
                self.error(
                    codes::UNSUPPORTED_CONSTRUCT,
                    ty.span,
                    format!("the resource type '{text}' is not supported yet; buffers (StructuredBuffer, ByteAddressBuffer, ConstantBuffer, cbuffer), textures and samplers are"),
                );
                None
            }
            _ => {
                self.error(
                    codes::UNKNOWN_TYPE,
                    ty.span,
                    format!(
                        "unknown type '{}': declare it, or check the spelling",
                        name.to_text()
                    ),
                );
                None
            }
        }
    }

    /// A scalar, vector (`n` components) or matrix (`n` rows, `columns` columns) type.
    fn numeric_type(
        &mut self,
        scalar: Scalar,
        n: u32,
        columns: Option<u32>,
        span: oneshader_ir::Span,
    ) -> Option<Handle<Type>> {
        let inner = match columns {
            None if n == 1 => return Some(self.scalar_type(scalar)),
            None => {
                let size = self.size_or_error(n, span)?;
                return Some(self.shaped(scalar, Shape::Vector(size)));
            }
            Some(c) if n == 1 || c == 1 => {
                for dimension in [n, c] {
                    if dimension != 1 {
                        self.size_or_error(dimension, span)?;
                    }
                }
                return self.degenerate_matrix_type(scalar, n, c);
            }
            Some(c) => TypeInner::Matrix {
                columns: self.size_or_error(c, span)?,
                rows: self.size_or_error(n, span)?,
                scalar,
            },
        };
        Some(self.module.type_handle(inner))
    }

    fn size_or_error(&mut self, n: u32, span: oneshader_ir::Span) -> Option<VectorSize> {
        let size = VectorSize::from_count(n);
        if size.is_none() {
            self.error(
                codes::UNKNOWN_TYPE,
                span,
                format!("vectors and matrices have 1 to 4 components per dimension, not {n}"),
            );
        }
        size
    }

    fn template_type(
        &mut self,
        arg: Option<&'a ast::TemplateArg<'a>>,
        span: oneshader_ir::Span,
    ) -> Option<Handle<Type>> {
        match arg {
            Some(ast::TemplateArg::Type { ty, .. }) => match self.resolve_type(ty)? {
                Ty::Value(t) => Some(t),
                _ => {
                    self.error(
                        codes::TYPE_MISMATCH,
                        ty.span,
                        "the element type of a buffer must be a value type",
                    );
                    None
                }
            },
            _ => {
                self.error(
                    codes::SYNTAX,
                    span,
                    "this type needs an element type argument, as in StructuredBuffer<float>",
                );
                None
            }
        }
    }

    fn template_scalar(
        &mut self,
        arg: Option<&'a ast::TemplateArg<'a>>,
        span: oneshader_ir::Span,
    ) -> Option<Scalar> {
        let ty = self.template_type(arg, span)?;
        match self.module.inner(ty) {
            TypeInner::Scalar(s) => Some(*s),
            _ => {
                self.error(
                    codes::TYPE_MISMATCH,
                    span,
                    "vector and matrix components must be scalars",
                );
                None
            }
        }
    }

    fn template_int(
        &mut self,
        arg: Option<&'a ast::TemplateArg<'a>>,
        span: oneshader_ir::Span,
    ) -> Option<u32> {
        match arg {
            Some(ast::TemplateArg::Expr(e)) => self.const_u32(e),
            _ => {
                self.error(
                    codes::SYNTAX,
                    span,
                    "expected a constant integer template argument",
                );
                None
            }
        }
    }

    /// The value of a constant integer expression (array sizes, template arguments).
    pub(crate) fn const_u32(&mut self, e: &ast::Expr<'a>) -> Option<u32> {
        match self.const_eval(e) {
            Some(v) if (0..=i64::from(u32::MAX)).contains(&v) => Some(v as u32),
            _ => {
                self.error(
                    codes::TYPE_MISMATCH,
                    e.span,
                    "expected a non-negative constant integer expression",
                );
                None
            }
        }
    }

    /// Folds an integer constant expression made of literals, `static const` names and operators.
    pub(crate) fn const_eval(&self, e: &ast::Expr<'a>) -> Option<i64> {
        self.const_eval_depth(e, 0)
    }

    fn const_eval_depth(&self, e: &ast::Expr<'a>, depth: u32) -> Option<i64> {
        if depth > 64 {
            return None;
        }
        let eval = |x: &ast::Expr<'a>| self.const_eval_depth(x, depth + 1);
        match &e.kind {
            ast::ExprKind::Literal(ast::Literal::Int { value, .. }) => i64::try_from(*value).ok(),
            ast::ExprKind::Literal(ast::Literal::Bool(b)) => Some(i64::from(*b)),
            ast::ExprKind::Name(path) => match self.unrolled_value(path.name()) {
                Some(value) => Some(value),
                None => match self.globals.get(&path.symbol()) {
                    Some(GlobalSymbol::Constant { init, .. }) => eval(init),
                    _ => None,
                },
            },
            ast::ExprKind::Unary { op, operand } => {
                let v = eval(operand)?;
                match op {
                    ast::UnaryOp::Plus => Some(v),
                    ast::UnaryOp::Negate => v.checked_neg(),
                    ast::UnaryOp::BitNot => Some(!v),
                    ast::UnaryOp::LogicalNot => Some(i64::from(v == 0)),
                    _ => None,
                }
            }
            ast::ExprKind::Binary(binary) => {
                let ast::BinaryExpr { op, lhs, rhs } = &**binary;
                let (a, b) = (eval(lhs)?, eval(rhs)?);
                use ast::BinaryOp::*;
                match op {
                    Add => a.checked_add(b),
                    Sub => a.checked_sub(b),
                    Mul => a.checked_mul(b),
                    Div => a.checked_div(b),
                    Rem => a.checked_rem(b),
                    Shl => u32::try_from(b).ok().and_then(|b| a.checked_shl(b)),
                    Shr => u32::try_from(b).ok().and_then(|b| a.checked_shr(b)),
                    BitAnd => Some(a & b),
                    BitOr => Some(a | b),
                    BitXor => Some(a ^ b),
                    Less => Some(i64::from(a < b)),
                    Greater => Some(i64::from(a > b)),
                    LessEqual => Some(i64::from(a <= b)),
                    GreaterEqual => Some(i64::from(a >= b)),
                    Equal => Some(i64::from(a == b)),
                    NotEqual => Some(i64::from(a != b)),
                    LogicalAnd => Some(i64::from(a != 0 && b != 0)),
                    LogicalOr => Some(i64::from(a != 0 || b != 0)),
                    Comma => Some(b),
                }
            }
            ast::ExprKind::Conditional(c) => {
                if eval(&c.condition)? != 0 {
                    eval(&c.accept)
                } else {
                    eval(&c.reject)
                }
            }
            ast::ExprKind::Cast(cast) => eval(&cast.operand),
            _ => None,
        }
    }

    /// Wraps `base` in the written array dimensions (outermost first).
    pub(crate) fn apply_array_dims(
        &mut self,
        base: Handle<Type>,
        dims: &[Option<ast::Expr<'a>>],
    ) -> Option<Handle<Type>> {
        let depth = self.nesting(base).types as usize + dims.len();
        if depth > MAX_TYPE_NESTING as usize {
            if let Some(at) = dims.iter().flatten().next() {
                self.error(
                    codes::NESTING_TOO_DEEP,
                    at.span,
                    format!(
                        "this array's type nests {depth} levels deep (each array dimension \
                         and each struct is a level, also through typedefs); at most \
                         {MAX_TYPE_NESTING} are allowed: use fewer dimensions"
                    ),
                );
                return None;
            }
        }
        let mut ty = base;
        for dim in dims.iter().rev() {
            let size = match dim {
                Some(e) => {
                    let n = self.const_u32(e)?;
                    if n == 0 || n > 1 << 24 {
                        self.error(
                            codes::TYPE_MISMATCH,
                            e.span,
                            format!("array size {n} is out of range: use 1 to 16777216 elements"),
                        );
                        return None;
                    }
                    ArraySize::Constant(n)
                }
                None => ArraySize::Runtime,
            };
            let (size_bytes, align) = types::size_align(&self.module, ty, LayoutRules::Std430);
            let stride = types::round_up(size_bytes, align);
            if let (Some(e), ArraySize::Constant(n)) = (dim, size) {
                // Sizes are 32-bit: no type may reach 4 GiB.
                let bytes = u64::from(stride) * u64::from(n);
                if bytes > u64::from(u32::MAX) {
                    self.error(
                        codes::TYPE_MISMATCH,
                        e.span,
                        format!(
                            "this array would take {bytes} bytes, more than the 4 GiB a type \
                             may take: use fewer elements"
                        ),
                    );
                    return None;
                }
            }
            ty = self.module.type_handle(TypeInner::Array {
                base: ty,
                size,
                stride,
            });
        }
        Some(ty)
    }

    /// Declares a struct and returns its type.
    fn declare_struct(&mut self, decl: &'a ast::StructDecl<'a>) -> Option<Handle<Type>> {
        if let Some(base) = &decl.base {
            self.error(
                codes::UNSUPPORTED_CONSTRUCT,
                base.span,
                "struct inheritance is not supported yet; copy the base struct's fields in",
            );
        }
        let mut members = Vec::new();
        let mut methods = Vec::new();
        let mut offset = 0;
        let mut max_align = 4;
        // How deep this struct nests structs, from its members' depths.
        let mut depth = 1;
        let mut type_depth = 1;
        for member in decl.members {
            match member {
                ast::Item::Variable(field) => {
                    let base = match self.resolve_type(&field.ty) {
                        Some(Ty::Value(base)) => base,
                        // resolve_type has said why.
                        None => continue,
                        Some(_) => {
                            self.error(
                                codes::TYPE_MISMATCH,
                                field.ty.span,
                                "struct fields must have value types",
                            );
                            continue;
                        }
                    };
                    for declarator in field.declarators {
                        let Some(ty) = self.apply_array_dims(base, declarator.array_dims) else {
                            continue;
                        };
                        let member = self.nesting(ty);
                        let member_depth = member.structs;
                        if member_depth >= MAX_STRUCT_NESTING {
                            self.error(
                                codes::NESTING_TOO_DEEP,
                                declarator.name.span,
                                format!(
                                    "the member '{}' makes the struct '{}' nest structs {} deep (a \
                                     struct without struct members is one level); at most \
                                     {MAX_STRUCT_NESTING} are allowed: flatten the nesting, \
                                     moving the fields of some inner struct into the struct \
                                     that holds it",
                                    declarator.name.name,
                                    decl.name.as_ref().map_or("(anonymous)", |n| n.name),
                                    member_depth + 1
                                ),
                            );
                            continue;
                        }
                        depth = depth.max(member_depth + 1);
                        let member_type_depth = member.types;
                        if member_type_depth >= MAX_TYPE_NESTING {
                            self.error(
                                codes::NESTING_TOO_DEEP,
                                declarator.name.span,
                                format!(
                                    "the member '{}' makes its struct nest types {} levels \
                                     deep (each array dimension and each struct is a level); \
                                     at most {MAX_TYPE_NESTING} are allowed: use fewer array \
                                     dimensions or flatten the nesting",
                                    declarator.name.name,
                                    member_type_depth + 1
                                ),
                            );
                            continue;
                        }
                        type_depth = type_depth.max(member_type_depth + 1);
                        if self.is_row_major(field.modifiers)
                            && matches!(self.module.inner(base), TypeInner::Matrix { .. })
                        {
                            self.error(
                                codes::UNSUPPORTED_CONSTRUCT,
                                declarator.span,
                                "row_major matrices in structs are not supported yet; declare the member column_major (the default) and transpose on the host, or put the matrix directly in a cbuffer, where row_major works",
                            );
                            continue;
                        }
                        let (size, align) =
                            types::size_align(&self.module, ty, LayoutRules::Std430);
                        offset = types::place_member(offset, size, align, LayoutRules::Std430);
                        max_align = max_align.max(align);
                        members.push(StructMember {
                            name: declarator.name.name.to_string(),
                            ty,
                            offset,
                            binding: None,
                        });
                        offset += size;
                    }
                }
                ast::Item::Function(f) => methods.push(f),
                _ => {}
            }
        }
        let size = types::round_up(offset, max_align);
        let name = decl.name.as_ref().map(|n| n.name.to_string());
        let handle = self.module.types.insert(Type {
            name: name.clone(),
            inner: TypeInner::Struct { members, size },
        });
        if let Some(name) = &name {
            self.structs.insert(name.clone(), handle);
        }
        let at = decl.name.as_ref().map_or(decl.span, |name| name.span);
        self.module.struct_spans.entry(handle).or_insert(at);
        self.struct_decls.insert(handle, decl);
        self.struct_nesting.insert(
            handle,
            Nesting {
                structs: depth,
                types: type_depth,
            },
        );
        // Methods are declared once the struct exists, so they may take and return it.
        for method in methods {
            match &name {
                Some(struct_name) => {
                    let key = method_key(struct_name, method.name.name()).into();
                    self.declare_function_as(method, key, Some(handle));
                }
                None => self.error(
                    codes::UNSUPPORTED_CONSTRUCT,
                    method.name.span(),
                    "an anonymous struct cannot have member functions: give the struct a name",
                ),
            }
        }
        Some(handle)
    }

    /// How deep `ty` nests structs and types ([`Nesting`]), through any arrays.
    fn nesting(&self, mut ty: Handle<Type>) -> Nesting {
        let mut arrays = 0;
        loop {
            match self.module.inner(ty) {
                TypeInner::Array { base, .. } => {
                    arrays += 1;
                    ty = *base;
                }
                TypeInner::Struct { .. } => {
                    let inner = self.struct_nesting.get(&ty).copied().unwrap_or(Nesting {
                        structs: 1,
                        types: 1,
                    });
                    return Nesting {
                        structs: inner.structs,
                        types: arrays + inner.types,
                    };
                }
                _ => {
                    return Nesting {
                        structs: 0,
                        types: arrays,
                    }
                }
            }
        }
    }

    fn declare_global_variables(&mut self, decl: &'a ast::VariableDecl<'a>) {
        let Some(ty) = self.resolve_type(&decl.ty) else {
            return;
        };
        let has = |m: ast::Modifier| decl.modifiers.iter().any(|x| x.modifier == m);
        for declarator in decl.declarators {
            let name = declarator.name.name.to_string();
            let key = declarator.name.symbol;
            if self.globals.contains_key(&key) {
                self.error(
                    codes::REDEFINITION,
                    declarator.name.span,
                    format!("'{name}' is already declared at file scope; rename one of them"),
                );
                continue;
            }
            match ty {
                Ty::Void => self.error(
                    codes::TYPE_MISMATCH,
                    declarator.name.span,
                    "a variable cannot have type void",
                ),
                Ty::Resource(resource) => {
                    if !declarator.array_dims.is_empty() {
                        self.error(
                            codes::UNSUPPORTED_CONSTRUCT,
                            declarator.span,
                            "arrays of resources are not supported yet",
                        );
                        continue;
                    }
                    self.declare_resource(decl, declarator, resource);
                }
                Ty::Value(base) => {
                    let Some(ty) = self.apply_array_dims(base, declarator.array_dims) else {
                        continue;
                    };
                    if has(ast::Modifier::Static) && has(ast::Modifier::Const) {
                        match &declarator.init {
                            Some(init) => {
                                self.globals
                                    .insert(key, GlobalSymbol::Constant { init, ty });
                            }
                            None => self.error(
                                codes::TYPE_MISMATCH,
                                declarator.span,
                                "a static const variable needs an initializer",
                            ),
                        }
                    } else if has(ast::Modifier::Groupshared) || has(ast::Modifier::Static) {
                        let space = if has(ast::Modifier::Groupshared) {
                            AddressSpace::Workgroup
                        } else {
                            AddressSpace::Private
                        };
                        let global = self.module.global_variables.append(
                            GlobalVariable {
                                name,
                                space,
                                ty,
                                resource: None,
                                span: Some(declarator.span),
                            },
                            Some(declarator.span),
                        );
                        if let Some(init) = &declarator.init {
                            if space == AddressSpace::Workgroup {
                                self.error(
                                    codes::TYPE_MISMATCH,
                                    init.span,
                                    "groupshared variables cannot have initializers; assign them in the shader",
                                );
                            } else {
                                self.static_inits.push((global, init));
                            }
                        }
                        self.globals
                            .insert(key, GlobalSymbol::Variable { global, ty });
                    } else if is_push_constant(decl.attributes) {
                        if !declarator.array_dims.is_empty()
                            || !matches!(self.module.types[base].inner, TypeInner::Struct { .. })
                        {
                            self.error(
                                codes::TYPE_MISMATCH,
                                declarator.span,
                                format!("[[vk::push_constant]] '{name}' must have a struct type, as in DXC"),
                            );
                            continue;
                        }
                        let resource = ResourceTy {
                            kind: ResourceKind::PushConstant,
                            element: base,
                        };
                        self.declare_resource(decl, declarator, resource);
                    } else {
                        self.error(
                            codes::UNSUPPORTED_CONSTRUCT,
                            declarator.span,
                            format!("the global '{name}' would be an implicit constant-buffer member ($Globals), which is not supported yet: put it in a cbuffer, or make it 'static const'"),
                        );
                    }
                }
            }
        }
    }

    /// The (set, binding) of a resource from `register(…)` or `[[vk::binding]]`.
    fn resource_binding(
        &mut self,
        attributes: &[ast::Attribute<'a>],
        annotations: &[ast::Annotation<'a>],
        expected: RegisterClass,
        span: oneshader_ir::Span,
    ) -> (ResourceBinding, Option<(RegisterClass, u32, u32)>) {
        let mut register = None;
        for annotation in annotations {
            let ast::Annotation::Register(r) = annotation else {
                continue;
            };
            let Some(slot) = &r.slot else { continue };
            let parsed = parse_register(slot.name);
            let space = match &r.space {
                Some(s) => s
                    .name
                    .strip_prefix("space")
                    .and_then(|n| n.parse::<u32>().ok()),
                None => Some(0),
            };
            match (parsed, space) {
                (Some((class, index)), Some(space)) => {
                    if class != expected {
                        self.report(
                            Diagnostic::error(
                                codes::BAD_BINDING,
                                slot.span,
                                format!(
                                    "register '{}' has the wrong class for this resource: use '{}{}'",
                                    slot.name,
                                    register_letter(expected),
                                    index
                                ),
                            )
                            .with_note("t: read-only resources, u: read-write resources, b: constant buffers, s: samplers"),
                        );
                    }
                    register = Some((class, index, space));
                }
                _ => self.error(
                    codes::BAD_BINDING,
                    r.span,
                    "malformed register: write it as register(t0) or register(u1, space2)",
                ),
            }
        }
        let mut binding = register.map(|(class, index, space)| ResourceBinding {
            set: space,
            binding: oneshader_ir::BindingShift::apply(&self.binding_shifts, class, index, space),
        });
        for attribute in attributes {
            if !attribute.name.is_qualified("vk", "binding") {
                continue;
            }
            let b = attribute.args.first().and_then(|e| self.const_eval(e));
            let s = match attribute.args.get(1) {
                Some(e) => self.const_eval(e),
                None => Some(0),
            };
            match (b, s) {
                (Some(b), Some(s)) if b >= 0 && s >= 0 => {
                    binding = Some(ResourceBinding {
                        set: s as u32,
                        binding: b as u32,
                    })
                }
                _ => self.error(
                    codes::BAD_BINDING,
                    attribute.span,
                    "malformed [[vk::binding(binding, set)]]: both must be non-negative integer constants",
                ),
            }
        }
        let binding = binding.unwrap_or_else(|| {
            self.report(
                Diagnostic::warning(
                    codes::BAD_BINDING,
                    span,
                    "resource has no register(...) or [[vk::binding]]; it gets set 0, binding 0",
                )
                .with_help("give it an explicit register, such as register(u0)"),
            );
            ResourceBinding { set: 0, binding: 0 }
        });
        (binding, register)
    }

    fn declare_resource(
        &mut self,
        decl: &ast::VariableDecl<'a>,
        declarator: &ast::Declarator<'a>,
        resource: ResourceTy,
    ) {
        let mut resource = resource;
        if resource.kind == ResourceKind::ConstantBuffer && is_push_constant(decl.attributes) {
            resource.kind = ResourceKind::PushConstant;
        }
        if resource.kind == ResourceKind::PushConstant {
            let name = declarator.name.name.to_string();
            let global = self.declare_push_constant(name, resource.element, declarator.span);
            self.globals.insert(
                declarator.name.symbol,
                GlobalSymbol::Resource {
                    global,
                    ty: resource,
                },
            );
            return;
        }
        let expected = match resource.kind {
            ResourceKind::RWStructuredBuffer
            | ResourceKind::RWByteAddressBuffer
            | ResourceKind::RWTexture
            | ResourceKind::RWBuffer => RegisterClass::U,
            ResourceKind::ConstantBuffer | ResourceKind::PushConstant => RegisterClass::B,
            ResourceKind::Sampler => RegisterClass::S,
            _ => RegisterClass::T,
        };
        let (binding, register) = self.resource_binding(
            decl.attributes,
            declarator.annotations,
            expected,
            declarator.span,
        );
        if matches!(
            resource.kind,
            ResourceKind::ConstantBuffer | ResourceKind::TextureBuffer
        ) {
            let row_major = self.row_major_default;
            if !self.check_cbuffer_components(resource.element, declarator.span) {
                return;
            }
            let layout = self.cbuffer_layout(resource.element, row_major);
            let (size, _) = types::size_align(&self.module, layout, LayoutRules::ConstantBuffer);
            let name = declarator.name.name.to_string();
            let ty = self.cbuffer_rows_type(&name, size);
            let global = self.module.global_variables.append(
                GlobalVariable {
                    name,
                    space: constant_block_space(resource.kind),
                    ty,
                    resource: Some(Resource {
                        kind: resource.kind,
                        binding,
                        register,
                    }),
                    span: Some(declarator.span),
                },
                Some(declarator.span),
            );
            self.globals.insert(
                declarator.name.symbol,
                GlobalSymbol::CbufferRows(CbufferPlace {
                    global,
                    row: None,
                    offset: 0,
                    ty: resource.element,
                    layout,
                    row_major,
                }),
            );
            return;
        }
        let (space, ty) = match resource.kind {
            ResourceKind::ConstantBuffer | ResourceKind::PushConstant => {
                (AddressSpace::Uniform, resource.element)
            }
            ResourceKind::Texture | ResourceKind::Buffer | ResourceKind::Sampler => {
                (AddressSpace::Handle, resource.element)
            }
            ResourceKind::RWTexture | ResourceKind::RWBuffer => {
                resource.element = self.declared_image_type(decl, resource.element);
                (AddressSpace::Handle, resource.element)
            }
            _ => {
                let (size, align) =
                    types::size_align(&self.module, resource.element, LayoutRules::Std430);
                let stride = types::round_up(size, align);
                let ty = self.module.type_handle(TypeInner::Array {
                    base: resource.element,
                    size: ArraySize::Runtime,
                    stride,
                });
                (
                    AddressSpace::Storage {
                        writable: resource.kind.is_writable(),
                    },
                    ty,
                )
            }
        };
        let name = declarator.name.name.to_string();
        let global = self.module.global_variables.append(
            GlobalVariable {
                name,
                space,
                ty,
                resource: Some(Resource {
                    kind: resource.kind,
                    binding,
                    register,
                }),
                span: Some(declarator.span),
            },
            Some(declarator.span),
        );
        if let ast::TypeKind::Named {
            name: type_name, ..
        } = &decl.ty.kind
        {
            if let Some(flavor) = BufferFlavor::of_type_name(type_name.name()) {
                self.buffer_flavors.insert(global, flavor);
            }
        }
        self.record_counter_binding(global, resource.kind, decl.attributes);
        self.globals.insert(
            declarator.name.symbol,
            GlobalSymbol::Resource {
                global,
                ty: resource,
            },
        );
    }

    fn declare_cbuffer(&mut self, decl: &'a ast::BufferDecl<'a>) {
        // A tbuffer lives in a storage buffer, whose layout rules differ from a uniform
        // block's on every target: only the row form keeps its cbuffer offsets everywhere.
        let is_tbuffer = decl.kind == ast::BufferKind::Texture;
        if is_tbuffer || self.cbuffer_needs_rows(decl) {
            if is_push_constant(decl.attributes) {
                let name = &decl.name.name;
                let message = if is_tbuffer {
                    format!("the tbuffer '{name}' can't be a [[vk::push_constant]] block: make it a cbuffer")
                } else {
                    format!("the [[vk::push_constant]] cbuffer '{name}' has members that need HLSL's 16-byte row packing, which push constants do not support yet: declare the block as a struct with [[vk::push_constant]]")
                };
                self.error(codes::UNSUPPORTED_CONSTRUCT, decl.name.span, message);
                return;
            }
            self.declare_row_packed_cbuffer(decl);
            return;
        }
        let mut members = Vec::new();
        let mut offset = 0;
        let mut fields = Vec::new();
        for item in decl.members {
            let ast::Item::Variable(field) = item else {
                continue;
            };
            let Some(base) = self.cbuffer_member_type(field) else {
                continue;
            };
            for declarator in field.declarators {
                // Arrays, structs and packoffset went to the row-packed form.
                let ty = base;
                let row_major = self.is_row_major(field.modifiers);
                let stored = match *self.module.inner(ty) {
                    TypeInner::Matrix {
                        columns,
                        rows,
                        scalar,
                    } if row_major => self.module.type_handle(TypeInner::Matrix {
                        columns: rows,
                        rows: columns,
                        scalar,
                    }),
                    _ => ty,
                };
                let (size, align) =
                    types::size_align(&self.module, stored, LayoutRules::ConstantBuffer);
                offset = types::place_member(offset, size, align, LayoutRules::ConstantBuffer);
                fields.push((
                    declarator.name.symbol,
                    declarator.name.name.to_string(),
                    ty,
                    row_major && matches!(self.module.inner(ty), TypeInner::Matrix { .. }),
                    declarator.name.span,
                ));
                members.push(StructMember {
                    name: declarator.name.name.to_string(),
                    ty: stored,
                    offset,
                    binding: None,
                });
                offset += size;
            }
        }
        let size = types::round_up(offset.max(1), 16);
        let ty = self.module.types.insert(Type {
            name: Some(format!("type_{}", decl.name.name)),
            inner: TypeInner::Struct { members, size },
        });
        self.module.struct_spans.entry(ty).or_insert(decl.name.span);
        let global = if is_push_constant(decl.attributes) {
            self.declare_push_constant(decl.name.name.to_string(), ty, decl.span)
        } else {
            let (binding, register) = self.resource_binding(
                decl.attributes,
                decl.annotations,
                RegisterClass::B,
                decl.name.span,
            );
            self.module.global_variables.append(
                GlobalVariable {
                    name: decl.name.name.to_string(),
                    space: AddressSpace::Uniform,
                    ty,
                    resource: Some(Resource {
                        kind: ResourceKind::ConstantBuffer,
                        binding,
                        register,
                    }),
                    span: Some(decl.span),
                },
                Some(decl.span),
            )
        };
        for (index, (key, name, ty, transposed, span)) in fields.into_iter().enumerate() {
            if self.globals.contains_key(&key) {
                self.error(
                    codes::REDEFINITION,
                    span,
                    format!("'{name}' is already declared at file scope; rename one of them"),
                );
                continue;
            }
            self.globals.insert(
                key,
                GlobalSymbol::CbufferField {
                    global,
                    index: index as u32,
                    ty,
                    transposed,
                },
            );
        }
    }

    /// Whether a cbuffer has a struct or array member or a `packoffset`, which only the
    /// row-packed form expresses on every target (see `lower::cbuffer`).
    fn cbuffer_needs_rows(&mut self, decl: &'a ast::BufferDecl<'a>) -> bool {
        self.cbuffer_has_misaligned_vector(decl)
            || decl.members.iter().any(|item| {
                let ast::Item::Variable(field) = item else {
                    return false;
                };
                // An integer matrix becomes an array of columns whose stride is its std430
                // one, not a 16-byte row, and a 1xN or Nx1 matrix is a vector whose HLSL
                // packing is not a vector's: such a cbuffer is read word by word.
                let is_struct = matches!(
                    self.resolve_type(&field.ty),
                    Some(Ty::Value(t)) if matches!(
                        self.module.inner(t),
                        TypeInner::Struct { .. } | TypeInner::Array { .. }
                    ) || matches!(
                        self.module.inner(t),
                        TypeInner::Matrix { scalar, .. } if scalar.kind != ScalarKind::Float
                    ) || self.degenerate_shape(t).is_some()
                );
                is_struct
                    || field.declarators.iter().any(|d| {
                        !d.array_dims.is_empty()
                            || d.annotations
                                .iter()
                                .any(|a| matches!(a, ast::Annotation::PackOffset(_)))
                    })
            })
    }

    /// Whether HLSL's packing puts a vector of a cbuffer made of scalars, vectors and
    /// matrices where std140-style rules (WGSL's uniform layout) cannot: a `float2` at
    /// an odd word, a `float3` or `float4` inside a row (`float a; float3 b;` puts `b` at 4).
    fn cbuffer_has_misaligned_vector(&mut self, decl: &'a ast::BufferDecl<'a>) -> bool {
        let mut offset = 0;
        for item in decl.members {
            let ast::Item::Variable(field) = item else {
                continue;
            };
            let Some(Ty::Value(ty)) = self.resolve_type(&field.ty) else {
                return false;
            };
            for _ in field.declarators {
                let (size, align) =
                    types::size_align(&self.module, ty, LayoutRules::ConstantBuffer);
                offset = types::place_member(offset, size, align, LayoutRules::ConstantBuffer);
                if let TypeInner::Vector { size: n, scalar } = *self.module.inner(ty) {
                    let natural = u32::from(scalar.width) * if n.count() == 2 { 2 } else { 4 };
                    if offset % natural != 0 {
                        return true;
                    }
                }
                offset += size;
            }
        }
        false
    }

    /// Declares a cbuffer (or tbuffer) as a block of 16-byte rows with its members at
    /// HLSL's offsets (or their `packoffset`).
    /// The value type of a cbuffer member; `None` (with an error said) for anything else.
    fn cbuffer_member_type(&mut self, field: &'a ast::VariableDecl<'a>) -> Option<Handle<Type>> {
        match self.resolve_type(&field.ty)? {
            Ty::Value(base) => Some(base),
            _ => {
                self.error(
                    codes::TYPE_MISMATCH,
                    field.ty.span,
                    "cbuffer members must have value types",
                );
                None
            }
        }
    }

    fn declare_row_packed_cbuffer(&mut self, decl: &'a ast::BufferDecl<'a>) {
        let mut offset = 0;
        let mut fields = Vec::new();
        for item in decl.members {
            let ast::Item::Variable(field) = item else {
                continue;
            };
            let Some(base) = self.cbuffer_member_type(field) else {
                continue;
            };
            let row_major = self.is_row_major(field.modifiers);
            for declarator in field.declarators {
                if declarator.array_dims.iter().any(Option::is_none) {
                    self.error(
                        codes::TYPE_MISMATCH,
                        declarator.span,
                        "cbuffer arrays need a size",
                    );
                    continue;
                }
                let Some(ty) = self.apply_array_dims(base, declarator.array_dims) else {
                    continue;
                };
                if !self.check_cbuffer_components(ty, declarator.span) {
                    continue;
                }
                let layout = self.cbuffer_layout(ty, row_major);
                let (size, align) =
                    types::size_align(&self.module, layout, LayoutRules::ConstantBuffer);
                let packed = declarator.annotations.iter().find_map(|a| match a {
                    ast::Annotation::PackOffset(p) => Some(p),
                    _ => None,
                });
                offset = match packed {
                    Some(p) => {
                        let Some(at) = super::cbuffer::packoffset_bytes(
                            p.register.name,
                            p.component.as_ref().map(|c| c.name),
                        ) else {
                            self.error(
                                codes::BAD_BINDING,
                                p.span,
                                "malformed packoffset: write it as packoffset(c3) or packoffset(c3.y)",
                            );
                            continue;
                        };
                        let aggregate = align >= 16;
                        if (aggregate && at % 16 != 0) || (!aggregate && at % 16 + size > 16) {
                            self.error(
                                codes::BAD_BINDING,
                                p.span,
                                format!("packoffset puts '{}' across a 16-byte register boundary: structs, arrays and matrices start at a register (c3), and a vector must fit in the rest of its register", declarator.name.name),
                            );
                            continue;
                        }
                        at
                    }
                    None => types::place_member(offset, size, align, LayoutRules::ConstantBuffer),
                };
                fields.push((
                    declarator.name.symbol,
                    declarator.name.name.to_string(),
                    declarator.name.span,
                    offset,
                    ty,
                    layout,
                    row_major,
                ));
                offset += size;
            }
        }
        let end = fields
            .iter()
            .map(|(_, _, _, at, _, layout, _)| {
                at + types::size_align(&self.module, *layout, LayoutRules::ConstantBuffer).0
            })
            .max()
            .unwrap_or(0);
        let ty = self.cbuffer_rows_type(decl.name.name, end);
        let (kind, class) = match decl.kind {
            ast::BufferKind::Constant => (ResourceKind::ConstantBuffer, RegisterClass::B),
            ast::BufferKind::Texture => (ResourceKind::TextureBuffer, RegisterClass::T),
        };
        let (binding, register) =
            self.resource_binding(decl.attributes, decl.annotations, class, decl.name.span);
        let global = self.module.global_variables.append(
            GlobalVariable {
                name: decl.name.name.to_string(),
                space: constant_block_space(kind),
                ty,
                resource: Some(Resource {
                    kind,
                    binding,
                    register,
                }),
                span: Some(decl.span),
            },
            Some(decl.span),
        );
        for (key, name, span, offset, ty, layout, row_major) in fields {
            if self.globals.contains_key(&key) {
                self.error(
                    codes::REDEFINITION,
                    span,
                    format!("'{name}' is already declared at file scope; rename one of them"),
                );
                continue;
            }
            self.globals.insert(
                key,
                GlobalSymbol::CbufferRows(CbufferPlace {
                    global,
                    row: None,
                    offset,
                    ty,
                    layout,
                    row_major,
                }),
            );
        }
    }

    /// Whether a matrix declared with `modifiers` is stored row by row.
    fn is_row_major(&self, modifiers: &[ast::SpannedModifier]) -> bool {
        let has = |m| modifiers.iter().any(|s| s.modifier == m);
        has(ast::Modifier::RowMajor) || (self.row_major_default && !has(ast::Modifier::ColumnMajor))
    }

    fn declare_function(&mut self, decl: &'a ast::FunctionDecl<'a>) {
        self.declare_function_as(decl, self.shared_name(&decl.name.last), None);
    }

    /// Declares a function under `key` (its name, or [`method_key`] for a member
    /// function of struct `this_ty`, which gets `this` as an implicit first `inout`
    /// parameter).
    fn declare_function_as(
        &mut self,
        decl: &'a ast::FunctionDecl<'a>,
        key: Arc<str>,
        this_ty: Option<Handle<Type>>,
    ) {
        let result = match self.resolve_type(&decl.return_type) {
            Some(Ty::Resource(_)) => {
                self.error(
                    codes::UNSUPPORTED_CONSTRUCT,
                    decl.return_type.span,
                    "functions returning resources are not supported",
                );
                return;
            }
            Some(t) => t,
            None => return,
        };
        let mut params = Vec::with_capacity(usize::from(this_ty.is_some()) + decl.params.len());
        if let Some(ty) = this_ty {
            params.push(ParamSig {
                name: "this",
                ty,
                by_pointer: true,
                copy_in: true,
                default: None,
                resource: None,
            });
        }
        for param in decl.params {
            let has = |m: ast::Modifier| param.modifiers.iter().any(|x| x.modifier == m);
            let mut resource = None;
            let ty = match self.resolve_type(&param.ty) {
                Some(Ty::Value(t)) => match self.apply_array_dims(t, param.array_dims) {
                    Some(t) => t,
                    None => return,
                },
                // A `ConstantBuffer<T>` or `TextureBuffer<T>` parameter is a read-only
                // `T`, as in DXC.
                Some(Ty::Resource(r))
                    if (r.kind.is_constant_block() || r.kind == ResourceKind::TextureBuffer)
                        && param.array_dims.is_empty() =>
                {
                    r.element
                }
                Some(Ty::Resource(r)) if param.array_dims.is_empty() => {
                    resource = Some(r);
                    r.element
                }
                Some(Ty::Resource(_)) => {
                    self.error(
                        codes::UNSUPPORTED_CONSTRUCT,
                        param.ty.span,
                        "arrays of resources as parameters are not supported; pass each resource as its own parameter",
                    );
                    return;
                }
                Some(Ty::Void) => {
                    self.error(
                        codes::TYPE_MISMATCH,
                        param.ty.span,
                        "a parameter cannot have type 'void'",
                    );
                    return;
                }
                None => return,
            };
            let out = has(ast::Modifier::Out) || has(ast::Modifier::InOut);
            params.push(ParamSig {
                name: param.name.as_ref().map_or("", |n| n.name),
                ty,
                by_pointer: out,
                copy_in: has(ast::Modifier::InOut)
                    || (has(ast::Modifier::In) && has(ast::Modifier::Out)),
                default: param.default.as_ref(),
                resource,
            });
        }
        // Nearly every function has one overload.
        let overloads = self
            .functions
            .entry(key)
            .or_insert_with(|| Vec::with_capacity(1));
        // A definition after a prototype with the same parameter types replaces it.
        if let Some(existing) = overloads.iter_mut().find(|f| {
            f.params.len() == params.len()
                && f.params
                    .iter()
                    .zip(&params)
                    .all(|(a, b)| a.ty == b.ty && a.resource == b.resource)
        }) {
            if existing.decl.body.is_none() || decl.body.is_none() {
                if decl.body.is_some() {
                    existing.decl = decl;
                }
                return;
            }
            self.error(
                codes::REDEFINITION,
                decl.name.span(),
                format!(
                    "function '{}' is already defined with these parameter types",
                    decl.name.name()
                ),
            );
            return;
        }
        overloads.push(FunctionSymbol {
            decl,
            params: params.into(),
            result,
            this_ty,
            handle: None,
            specializations: Vec::new(),
        });
    }
}

/// The key of member function `method` of struct `struct_name` among the functions.
pub(crate) fn method_key(struct_name: &str, method: &str) -> String {
    format!("{struct_name}::{method}")
}

/// Splits `u12` into (U, 12).
fn parse_register(text: &str) -> Option<(RegisterClass, u32)> {
    let mut chars = text.chars();
    let class = match chars.next()?.to_ascii_lowercase() {
        't' => RegisterClass::T,
        'u' => RegisterClass::U,
        'b' => RegisterClass::B,
        's' => RegisterClass::S,
        _ => return None,
    };
    let index = chars.as_str().parse().ok()?;
    Some((class, index))
}

/// Where a row-packed constant block of `kind` lives: a `tbuffer` or `TextureBuffer<T>`
/// in a read-only storage buffer (as DXC's SPIR-V), a `cbuffer` in uniform memory.
fn constant_block_space(kind: ResourceKind) -> AddressSpace {
    if kind == ResourceKind::TextureBuffer {
        AddressSpace::Storage { writable: false }
    } else {
        AddressSpace::Uniform
    }
}

fn register_letter(class: RegisterClass) -> char {
    match class {
        RegisterClass::T => 't',
        RegisterClass::U => 'u',
        RegisterClass::B => 'b',
        RegisterClass::S => 's',
    }
}

fn is_unsupported_resource(name: &str) -> bool {
    name.starts_with("Texture")
        || name.starts_with("RWTexture")
        || name.starts_with("Sampler")
        || matches!(
            name,
            "RasterizerOrderedBuffer"
                | "RasterizerOrderedStructuredBuffer"
                | "RasterizerOrderedByteAddressBuffer"
        )
}

impl Lowerer<'_> {
    /// Reports resources bound at the same (set, binding): WebGPU rejects them and
    /// Vulkan needs one descriptor per binding.
    pub(crate) fn check_binding_conflicts(&mut self) {
        // The first resource at each (set, binding); a later one conflicts with it.
        let mut first_at: FastHashMap<(u32, u32), Handle<GlobalVariable>> = FastHashMap::default();
        let mut conflicts = Vec::new();
        for (handle, global) in self.module.global_variables.iter() {
            let Some(resource) = global
                .resource
                .as_ref()
                .filter(|r| r.kind != ResourceKind::PushConstant)
            else {
                continue;
            };
            let key = (resource.binding.set, resource.binding.binding);
            match first_at.entry(key) {
                Entry::Occupied(first) => conflicts.push((handle, *first.get(), key)),
                Entry::Vacant(slot) => {
                    slot.insert(handle);
                }
            }
        }
        for (later, first, (set, binding)) in conflicts {
            let later = &self.module.global_variables[later];
            let first = &self.module.global_variables[first];
            let (name, first_name) = (&later.name, &first.name);
            let mut diagnostic = Diagnostic::error(
                codes::BAD_BINDING,
                later.span,
                format!(
                    "'{name}' and '{first_name}' are both bound at set {set}, binding {binding}: registers of different classes (t, u, b, s) with the same number share a Vulkan and WebGPU binding"
                ),
            )
            .with_help(format!(
                "give '{name}' another register number or space, an explicit [[vk::binding(binding, set)]], or shift its register class with -fvk-t-shift/-fvk-s-shift/-fvk-b-shift/-fvk-u-shift N SPACE"
            ));
            if let Some(first_span) = first.span {
                diagnostic =
                    diagnostic.with_label(first_span, format!("'{first_name}' is declared here"));
            }
            self.report(diagnostic);
        }
    }

    /// Appends the global of a `[[vk::push_constant]]` block of type `ty`. A module has at
    /// most one (as in DXC, which allows one push-constant block per module): a second is
    /// an error naming both.
    fn declare_push_constant(
        &mut self,
        name: String,
        ty: Handle<oneshader_ir::Type>,
        span: oneshader_ir::Span,
    ) -> Handle<GlobalVariable> {
        let first = self.module.global_variables.iter().find_map(|(_, g)| {
            g.resource
                .as_ref()
                .filter(|r| r.kind == ResourceKind::PushConstant)
                .map(|_| (g.name.clone(), g.span))
        });
        if let Some((first, first_span)) = first {
            let mut diagnostic = Diagnostic::error(
                codes::BAD_BINDING,
                span,
                format!("'{name}' is a second [[vk::push_constant]] block after '{first}': a shader has at most one push-constant block"),
            )
            .with_help(format!("merge the members of '{name}' into '{first}'"));
            if let Some(first_span) = first_span {
                diagnostic =
                    diagnostic.with_label(first_span, format!("'{first}' is declared here"));
            }
            self.report(diagnostic);
        }
        self.module.global_variables.append(
            GlobalVariable {
                name,
                space: AddressSpace::Uniform,
                ty,
                resource: Some(Resource {
                    kind: ResourceKind::PushConstant,
                    binding: ResourceBinding { set: 0, binding: 0 },
                    register: None,
                }),
                span: Some(span),
            },
            Some(span),
        )
    }

    /// Places the uniform buffer that emulates the push-constant block on targets without
    /// push constants (WGSL): binding 0 of the group after the highest one any other
    /// resource uses, so that it collides with nothing.
    pub(crate) fn place_push_constants(&mut self) {
        let next_set = self
            .module
            .global_variables
            .iter()
            .filter_map(|(_, g)| g.resource.as_ref())
            .filter(|r| r.kind != ResourceKind::PushConstant)
            // Saturating: a resource in set u32::MAX leaves no free group after it.
            .map(|r| r.binding.set.saturating_add(1))
            .max()
            .unwrap_or(0);
        let blocks: Vec<_> = self
            .module
            .global_variables
            .iter()
            .filter(|(_, g)| {
                g.resource
                    .as_ref()
                    .is_some_and(|r| r.kind == ResourceKind::PushConstant)
            })
            .map(|(handle, _)| handle)
            .collect();
        for handle in blocks {
            if let Some(resource) = self.module.global_variables[handle].resource.as_mut() {
                resource.binding = ResourceBinding {
                    set: next_set,
                    binding: 0,
                };
            }
        }
    }
}

/// Whether the attributes hold `[[vk::push_constant]]`.
fn is_push_constant(attributes: &[ast::Attribute]) -> bool {
    attributes
        .iter()
        .any(|a| a.name.is_qualified("vk", "push_constant"))
}
