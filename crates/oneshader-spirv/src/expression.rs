//! Expressions: values as SPIR-V instructions, with HLSL's semantics.

use oneshader_ir::arena::emptied;
use oneshader_ir::{
    BinaryOperator, Expression, Handle, Literal, Scalar, ScalarKind, Span, TypeInner,
    UnaryOperator, VectorSize,
};
use rspirv::spirv::{Op, StorageClass, Word};

use crate::error::{Error, Result};
use crate::function::FunctionWriter;
use crate::module::{Operand, MAX_INSTRUCTION_WORDS};

/// The bits of a literal, as its scalar type's constant holds them.
fn literal_bits(literal: Literal) -> u64 {
    match literal {
        Literal::Bool(value) => u64::from(value),
        Literal::I32(value) => u64::from(value as u32),
        Literal::U32(value) => u64::from(value),
        Literal::F32(value) => u64::from(value.to_bits()),
        Literal::F64(value) => value.to_bits(),
        Literal::I64(value) => value as u64,
        Literal::U64(value) => value,
    }
}

impl FunctionWriter<'_, '_> {
    /// The constant that expression `handle` is, if it is one (literals, zero
    /// values, and compositions and splats of constants).
    #[inline]
    pub fn constant(&mut self, handle: Handle<Expression>) -> Result<Option<Word>> {
        let expression = self.expression(handle)?;
        self.constant_of(handle, expression)
    }

    /// [`Self::constant`] of `handle`, which is `expression`.
    #[inline]
    fn constant_of(
        &mut self,
        handle: Handle<Expression>,
        expression: &Expression,
    ) -> Result<Option<Word>> {
        match expression {
            Expression::Literal(literal) => Ok(Some(
                self.w
                    .scalar_constant(literal.scalar(), literal_bits(*literal))?,
            )),
            Expression::ZeroValue(_) | Expression::Compose { .. } | Expression::Splat { .. } => {
                self.aggregate_constant(handle)
            }
            // Most expressions: answered without the frame of the composite case.
            _ => Ok(None),
        }
    }

    /// [`Self::constant`] for a zero value, composition or splat.
    #[inline(never)]
    fn aggregate_constant(&mut self, handle: Handle<Expression>) -> Result<Option<Word>> {
        Ok(match self.expression(handle)? {
            Expression::ZeroValue(ty) => Some(self.w.zero_constant(*ty)?),
            Expression::Compose { components, .. } => {
                // `OpConstantComposite`: its first word, type, id and constituents.
                let words = 3 + components.len();
                if words > MAX_INSTRUCTION_WORDS {
                    return Err(Error::too_long(Op::ConstantComposite, Some(words)));
                }
                let mut constants = Vec::with_capacity(components.len());
                for &component in components {
                    match self.constant(component)? {
                        Some(constant) => constants.push(constant),
                        None => return Ok(None),
                    }
                }
                let ty = self.value_type_of(handle)?;
                Some(self.w.composite_constant(ty, &constants))
            }
            Expression::Splat { size, value } => match self.constant(*value)? {
                Some(constant) => {
                    let ty = self.value_type_of(handle)?;
                    let constants = [constant; 4];
                    let count = (size.count() as usize).min(constants.len());
                    Some(
                        self.w
                            .composite_constant(ty, constants.get(..count).unwrap_or_default()),
                    )
                }
                None => None,
            },
            _ => None,
        })
    }

    /// The value of expression `handle`: its bound value, or written here. Errors
    /// without a location get the expression's.
    pub fn value(&mut self, handle: Handle<Expression>) -> Result<Word> {
        self.value_here(handle).map_err(|Error(mut diagnostic)| {
            if diagnostic.span.is_none() {
                diagnostic.span = self.span(handle);
            }
            Error(diagnostic)
        })
    }

    fn value_here(&mut self, handle: Handle<Expression>) -> Result<Word> {
        if let Some(value) = self.bound(handle)? {
            return Ok(value);
        }
        let expression = self.expression(handle)?;
        if let Some(constant) = self.constant_of(handle, expression)? {
            return Ok(constant);
        }
        // Errors without a span get the expression's from `value`, so none is looked
        // up here.
        let ty = self.type_of(handle)?;
        if let TypeInner::Pointer { .. } = self.w.inner(ty, None)? {
            return Ok(self.pointer(handle)?.id);
        }
        let result_type = self.w.value_type(ty)?;
        // The operators that nest deepest go straight to their writers, so that the
        // large frame of `other_value` is not on every level of a deep tree.
        match *expression {
            Expression::Unary { op, expr } => self.unary(op, expr, result_type),
            Expression::Binary { op, left, right } => self.binary(op, left, right, result_type),
            _ => self.other_value(handle, result_type),
        }
    }

    /// [`Self::value_here`] for every kind but the unary and binary operators.
    #[inline(never)]
    fn other_value(&mut self, handle: Handle<Expression>, result_type: Word) -> Result<Word> {
        let span = self.span(handle);
        match self.expression(handle)? {
            Expression::Literal(_) | Expression::ZeroValue(_) => {
                Err(Error::malformed(span, "a constant that is not constant"))
            }
            Expression::Compose { components, .. } => {
                let mut ids = Vec::with_capacity(components.len());
                for &component in components {
                    ids.push(self.value(component)?);
                }
                self.emit_ids(Op::CompositeConstruct, result_type, &ids)
            }
            Expression::Splat { size, value } => {
                let value = self.value(*value)?;
                self.emit_ids(
                    Op::CompositeConstruct,
                    result_type,
                    &vec![value; size.count() as usize],
                )
            }
            Expression::Swizzle {
                size,
                vector,
                pattern,
            } => {
                let vector = self.value(*vector)?;
                let mut operands = vec![Operand::IdRef(vector), Operand::IdRef(vector)];
                operands.extend(
                    pattern
                        .iter()
                        .take(size.count() as usize)
                        .map(|&c| Operand::LiteralBit32(c as u32)),
                );
                self.emit(Op::VectorShuffle, result_type, &operands)
            }
            Expression::Access { base, index } => {
                self.dynamic_access(*base, *index, result_type, span)
            }
            Expression::AccessIndex { base, index } => {
                let base = self.value(*base)?;
                self.emit(
                    Op::CompositeExtract,
                    result_type,
                    &[Operand::IdRef(base), Operand::LiteralBit32(*index)],
                )
            }
            Expression::GlobalVariable(global) if self.is_handle(handle)? => {
                self.load_handle(*global, span)
            }
            Expression::GlobalVariable(_) | Expression::LocalVariable(_) => Err(Error::malformed(
                span,
                "a variable whose type is not a pointer",
            )),
            Expression::FunctionArgument(index) => self.argument(*index, span),
            Expression::Load { pointer } => {
                let whole_local = match *self.expression(*pointer)? {
                    Expression::LocalVariable(local) => Some(local),
                    _ => None,
                };
                if let Some(known) = whole_local.and_then(|local| self.s.known.get(local)) {
                    return Ok(known);
                }
                if let Some(part) = self.known_part(*pointer, result_type)? {
                    return Ok(part);
                }
                let loaded = self.pointer(*pointer).and_then(|p| self.load(p))?;
                if let Some(local) = whole_local {
                    self.s.known.set(local, loaded);
                }
                Ok(loaded)
            }
            Expression::Unary { op, expr } => self.unary(*op, *expr, result_type),
            Expression::Binary { op, left, right } => self.binary(*op, *left, *right, result_type),
            Expression::Select {
                condition,
                accept,
                reject,
            } => {
                let condition = self.value(*condition)?;
                let accept = self.value(*accept)?;
                let reject = self.value(*reject)?;
                self.emit_ids(Op::Select, result_type, &[condition, accept, reject])
            }
            Expression::Math { fun, args } => self.math(handle, *fun, args),
            Expression::Convert { expr, to } => {
                let from = self.inner_of(*expr)?;
                let value = self.value(*expr)?;
                self.convert(value, from, *to, span)
            }
            Expression::Bitcast { expr, .. } => {
                let value = self.value(*expr)?;
                self.emit_ids(Op::Bitcast, result_type, &[value])
            }
            Expression::Wave { op, args } => self.wave(handle, *op, args),
            Expression::CallResult(_) | Expression::AtomicResult => Err(Error::malformed(
                span,
                "a call or atomic result used before its statement",
            )),
            Expression::ArrayLength(pointer) => self.array_length(*pointer, result_type, span),
            Expression::ImageSample { .. } => self.image_sample(handle, result_type),
            Expression::ImageLevelOfDetail { .. } => {
                self.image_level_of_detail(handle, result_type)
            }
            Expression::ImageLoad { .. } => self.image_load(handle, result_type),
            Expression::ImageTexelPointer { .. } => Err(Error::malformed(
                span,
                "a texel pointer used as a value (only atomics take one)",
            )),
            Expression::ImageQuery { image, query } => {
                self.image_query(*image, *query, result_type)
            }
            Expression::Derivative {
                axis,
                control,
                expr,
            } => self.derivative(*axis, *control, *expr, result_type),
        }
    }

    /// Element `index` of a vector, array or matrix value.
    fn dynamic_access(
        &mut self,
        base: Handle<Expression>,
        index: Handle<Expression>,
        result_type: Word,
        span: Option<Span>,
    ) -> Result<Word> {
        let base_type = self.type_of(base)?;
        let base_inner = self.inner_of(base)?;
        let base_value = self.value(base)?;
        let index = self.value(index)?;
        match base_inner {
            TypeInner::Vector { .. } => {
                self.emit_ids(Op::VectorExtractDynamic, result_type, &[base_value, index])
            }
            TypeInner::Array { .. } | TypeInner::Matrix { .. } => {
                // SPIR-V indexes arrays dynamically only in memory.
                let variable = self.spill(base_type, base_value)?;
                let pointer_type = self.w.pointer_type(StorageClass::Function, result_type);
                let element = self.emit_ids(Op::AccessChain, pointer_type, &[variable, index])?;
                self.emit_ids(Op::Load, result_type, &[element])
            }
            _ => Err(Error::malformed(
                span,
                "indexing a value that has no elements",
            )),
        }
    }

    /// `OpArrayLength` of the runtime array behind `pointer`.
    fn array_length(
        &mut self,
        pointer: Handle<Expression>,
        result_type: Word,
        span: Option<Span>,
    ) -> Result<Word> {
        let (global, member) = match *self.expression(pointer)? {
            Expression::GlobalVariable(global) => (global, None),
            Expression::AccessIndex { base, index } => match *self.expression(base)? {
                Expression::GlobalVariable(global) => (global, Some(index)),
                _ => return Err(length_error(span)),
            },
            _ => return Err(length_error(span)),
        };
        let info = self.w.global(global, span)?;
        let member = match (info.wrapped, member) {
            (true, None) => 0,
            (false, Some(member)) => member,
            _ => return Err(length_error(span)),
        };
        self.emit(
            Op::ArrayLength,
            result_type,
            &[Operand::IdRef(info.variable), Operand::LiteralBit32(member)],
        )
    }

    fn unary(&mut self, op: UnaryOperator, expr: Handle<Expression>, ty: Word) -> Result<Word> {
        let kind = self.scalar_of(expr)?.kind;
        let value = self.value(expr)?;
        let op = match (op, kind) {
            (UnaryOperator::Negate, ScalarKind::Float) => Op::FNegate,
            (UnaryOperator::Negate, _) => Op::SNegate,
            (UnaryOperator::LogicalNot, _) => Op::LogicalNot,
            (UnaryOperator::BitwiseNot, _) => Op::Not,
        };
        self.emit_ids(op, ty, &[value])
    }

    /// The scalar of a scalar, vector or matrix expression.
    pub fn scalar_of(&self, handle: Handle<Expression>) -> Result<Scalar> {
        self.inner_of(handle)?.scalar().ok_or_else(|| {
            Error::unsupported(
                self.span(handle),
                "an arithmetic operation on a value that is not a scalar, vector or matrix",
            )
        })
    }

    /// `left op right`, of SPIR-V type `ty`. Its errors have no span: [`Self::value`],
    /// its only way in, gives them the expression's.
    fn binary(
        &mut self,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
        ty: Word,
    ) -> Result<Word> {
        use BinaryOperator as B;
        use ScalarKind::{Bool, Float, Sint, Uint};
        let left_inner = self.inner_of(left)?;
        let kind = self.scalar_of(left)?.kind;
        let l = self.value(left)?;
        let r = self.value(right)?;
        let spirv_op = match (op, kind) {
            (B::Add, Float) => Op::FAdd,
            (B::Add, Sint | Uint) => Op::IAdd,
            (B::Subtract, Float) => Op::FSub,
            (B::Subtract, Sint | Uint) => Op::ISub,
            (B::Multiply, Float) => Op::FMul,
            (B::Multiply, Sint | Uint) => Op::IMul,
            (B::Divide, Float) => Op::FDiv,
            (B::Divide, Sint) => Op::SDiv,
            (B::Divide, Uint) => Op::UDiv,
            (B::Modulo, Float) => Op::FRem,
            (B::Modulo, Sint) => Op::SRem,
            (B::Modulo, Uint) => Op::UMod,
            (B::Equal, Float) => Op::FOrdEqual,
            (B::Equal, Sint | Uint) => Op::IEqual,
            (B::Equal, Bool) => Op::LogicalEqual,
            (B::NotEqual, Float) => Op::FUnordNotEqual,
            (B::NotEqual, Sint | Uint) => Op::INotEqual,
            (B::NotEqual, Bool) => Op::LogicalNotEqual,
            (B::Less, Float) => Op::FOrdLessThan,
            (B::Less, Sint) => Op::SLessThan,
            (B::Less, Uint) => Op::ULessThan,
            (B::LessEqual, Float) => Op::FOrdLessThanEqual,
            (B::LessEqual, Sint) => Op::SLessThanEqual,
            (B::LessEqual, Uint) => Op::ULessThanEqual,
            (B::Greater, Float) => Op::FOrdGreaterThan,
            (B::Greater, Sint) => Op::SGreaterThan,
            (B::Greater, Uint) => Op::UGreaterThan,
            (B::GreaterEqual, Float) => Op::FOrdGreaterThanEqual,
            (B::GreaterEqual, Sint) => Op::SGreaterThanEqual,
            (B::GreaterEqual, Uint) => Op::UGreaterThanEqual,
            (B::BitwiseAnd, Sint | Uint) => Op::BitwiseAnd,
            (B::BitwiseOr, Sint | Uint) => Op::BitwiseOr,
            (B::BitwiseXor, Sint | Uint) => Op::BitwiseXor,
            (B::BitwiseAnd | B::LogicalAnd, Bool) => Op::LogicalAnd,
            (B::BitwiseOr | B::LogicalOr, Bool) => Op::LogicalOr,
            (B::BitwiseXor, Bool) => Op::LogicalNotEqual,
            (B::ShiftLeft, Sint | Uint) => Op::ShiftLeftLogical,
            (B::ShiftRight, Sint) => Op::ShiftRightArithmetic,
            (B::ShiftRight, Uint) => Op::ShiftRightLogical,
            _ => {
                return Err(Error::unsupported(
                    None,
                    format!("the operator {op:?} on {kind:?} operands"),
                ));
            }
        };
        if let TypeInner::Matrix {
            columns,
            rows,
            scalar,
        } = *left_inner
        {
            // SPIR-V has no component-wise matrix arithmetic: work column by column.
            if !matches!(
                op,
                B::Add | B::Subtract | B::Multiply | B::Divide | B::Modulo
            ) {
                return Err(Error::unsupported(
                    None,
                    format!("the operator {op:?} on matrices"),
                ));
            }
            let column_type = self.w.vector_type(scalar, rows)?;
            let mut result_columns = Vec::with_capacity(columns.count() as usize);
            for column in 0..columns.count() {
                let extract = |this: &mut Self, matrix| {
                    this.emit(
                        Op::CompositeExtract,
                        column_type,
                        &[Operand::IdRef(matrix), Operand::LiteralBit32(column)],
                    )
                };
                let a = extract(self, l)?;
                let b = extract(self, r)?;
                result_columns.push(self.emit_ids(spirv_op, column_type, &[a, b])?);
            }
            return self.emit_ids(Op::CompositeConstruct, ty, &result_columns);
        }
        if spirv_op == Op::SRem {
            // Vulkan leaves OpSRem with negative operands undefined (NVIDIA's drivers
            // return the sign of the divisor); HLSL's `%` truncates, so it is
            // `l - (l / r) * r` with OpSDiv, which Vulkan defines.
            let quotient = self.emit_ids(Op::SDiv, ty, &[l, r])?;
            let product = self.emit_ids(Op::IMul, ty, &[quotient, r])?;
            return self.emit_ids(Op::ISub, ty, &[l, product]);
        }
        self.emit_ids(spirv_op, ty, &[l, r])
    }

    /// Converts `value` of type `from` to components of `to`, as HLSL does: floats to
    /// integers truncate, to bool is `!= 0`, from bool is 0 or 1.
    pub fn convert(
        &mut self,
        value: Word,
        from: &TypeInner,
        to: Scalar,
        span: Option<Span>,
    ) -> Result<Word> {
        let (source, size) = match *from {
            TypeInner::Scalar(scalar) => (scalar, None),
            TypeInner::Vector { size, scalar } => (scalar, Some(size)),
            _ => {
                return Err(Error::unsupported(
                    span,
                    "a conversion of a value that is not a scalar or vector",
                ))
            }
        };
        let target_type = self.shaped_type(to, size)?;
        if source == to {
            return Ok(value);
        }
        use ScalarKind::{Bool, Float, Sint, Uint};
        let op = match (source.kind, to.kind) {
            (Bool, _) => {
                let one = self.w.number_constant(to, 1, size)?;
                let zero = self.w.number_constant(to, 0, size)?;
                return self.emit_ids(Op::Select, target_type, &[value, one, zero]);
            }
            (_, Bool) => {
                let zero = self.w.number_constant(source, 0, size)?;
                let op = if source.kind == Float {
                    Op::FUnordNotEqual
                } else {
                    Op::INotEqual
                };
                return self.emit_ids(op, target_type, &[value, zero]);
            }
            (Float, Sint) => Op::ConvertFToS,
            (Float, Uint) => Op::ConvertFToU,
            (Sint, Float) => Op::ConvertSToF,
            (Uint, Float) => Op::ConvertUToF,
            (Float, Float) => Op::FConvert,
            (Sint | Uint, Sint | Uint) if source.width == to.width => Op::Bitcast,
            (Sint, Sint | Uint) => Op::SConvert,
            (Uint, Uint) => Op::UConvert,
            (Uint, Sint) => {
                // UConvert must give an unsigned result: widen, then reinterpret.
                let unsigned = Scalar {
                    kind: Uint,
                    width: to.width,
                };
                let unsigned_type = self.shaped_type(unsigned, size)?;
                let widened = self.emit_ids(Op::UConvert, unsigned_type, &[value])?;
                return self.emit_ids(Op::Bitcast, target_type, &[widened]);
            }
        };
        self.emit_ids(op, target_type, &[value])
    }

    /// The type of `scalar`, or of a vector of `size` of them.
    pub fn shaped_type(&mut self, scalar: Scalar, size: Option<VectorSize>) -> Result<Word> {
        match size {
            Some(size) => self.w.vector_type(scalar, size),
            None => self.w.scalar_type(scalar),
        }
    }
}

/// The error for an array length of something that is not a buffer's runtime array.
fn length_error(span: Option<Span>) -> Error {
    Error::unsupported(
        span,
        "the length of an array that is not the runtime-sized array of a buffer",
    )
}

impl FunctionWriter<'_, '_> {
    /// The value a load through `pointer` reads when `pointer` selects a part of a local
    /// whose whole value is known here by constant indices (`v.x`, `s.member[1]`): that
    /// part of the known value (`OpCompositeExtract`, of SPIR-V type `result_type`), with
    /// no access chain or load.
    fn known_part(
        &mut self,
        pointer: Handle<Expression>,
        result_type: Word,
    ) -> Result<Option<Word>> {
        // The known value (filled in once found), then the indices, from the spare list.
        let mut operands = emptied(&mut self.s.spare_operands);
        operands.push(Operand::IdRef(0));
        let mut current = pointer;
        let local = loop {
            match *self.expression(current)? {
                Expression::AccessIndex { base, index } => {
                    operands.push(Operand::LiteralBit32(index));
                    current = base;
                }
                Expression::LocalVariable(local) => break Some(local),
                _ => break None,
            }
        };
        let written = match (
            local.and_then(|local| self.s.known.get(local)),
            operands.split_first_mut(),
        ) {
            (Some(known), Some((first, indices))) => {
                *first = Operand::IdRef(known);
                // Found innermost access first.
                indices.reverse();
                self.emit(Op::CompositeExtract, result_type, &operands)
                    .map(Some)
            }
            _ => Ok(None),
        };
        self.s.spare_operands = operands;
        written
    }
}
