//! Structured-buffer counters, as DXC's SPIR-V has them: the hidden counter of a
//! `RWStructuredBuffer` (`IncrementCounter`, `DecrementCounter`), an
//! `AppendStructuredBuffer` (`Append`) or a `ConsumeStructuredBuffer` (`Consume`) is a
//! resource of its own, `counter.var.NAME`: a read-write buffer whose word 0 is the
//! count, bound in the buffer's set at the lowest binding number no other resource uses
//! (DXC's default without `[[vk::counter_binding(N)]]`, which puts it at binding N of the
//! buffer's set). It exists only once a counter
//! operation uses it, so reflection lists it for the entry points that need it and the
//! host binds and initialises it like any buffer.

use oneshader_ir::{
    codes, AddressSpace, ArraySize, AtomicFunction, Expression, GlobalVariable, Handle, Literal,
    Resource, ResourceBinding, ResourceKind, Scalar, Span, Statement, TypeInner,
};

use super::context::{FnCtx, Value};
use super::Lowerer;
use crate::ast;

/// What a structured buffer was declared as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BufferFlavor {
    /// `AppendStructuredBuffer<T>`: only `Append` and `GetDimensions`.
    Append,
    /// `ConsumeStructuredBuffer<T>`: only `Consume` and `GetDimensions`.
    Consume,
}

impl BufferFlavor {
    /// The flavor of a declared type name, if it is an append or consume buffer.
    pub(crate) fn of_type_name(name: &str) -> Option<BufferFlavor> {
        match name {
            "AppendStructuredBuffer" => Some(BufferFlavor::Append),
            "ConsumeStructuredBuffer" => Some(BufferFlavor::Consume),
            _ => None,
        }
    }

    /// The HLSL spelling.
    pub(crate) fn hlsl_name(self) -> &'static str {
        match self {
            BufferFlavor::Append => "AppendStructuredBuffer",
            BufferFlavor::Consume => "ConsumeStructuredBuffer",
        }
    }
}

impl<'a> Lowerer<'a> {
    /// Records the `[[vk::counter_binding(N)]]` of structured buffer `global` declared
    /// with `attributes` (DXC allows it on RW, append and consume structured buffers).
    pub(crate) fn record_counter_binding(
        &mut self,
        global: Handle<GlobalVariable>,
        kind: ResourceKind,
        attributes: &[ast::Attribute<'a>],
    ) {
        for attribute in attributes {
            if !attribute.name.is_qualified("vk", "counter_binding") {
                continue;
            }
            if kind != ResourceKind::RWStructuredBuffer {
                self.error(
                    codes::BAD_BINDING,
                    attribute.span,
                    "[[vk::counter_binding]] only applies to RWStructuredBuffer, AppendStructuredBuffer and ConsumeStructuredBuffer, which have a counter",
                );
                continue;
            }
            match attribute.args {
                [binding] => match self.const_eval(binding) {
                    Some(b) if (0..=i64::from(u32::MAX)).contains(&b) => {
                        self.counter_bindings.insert(global, b as u32);
                    }
                    _ => self.error(
                        codes::BAD_BINDING,
                        attribute.span,
                        "malformed [[vk::counter_binding(N)]]: N must be a non-negative integer constant",
                    ),
                },
                _ => self.error(
                    codes::BAD_BINDING,
                    attribute.span,
                    "[[vk::counter_binding(N)]] takes one binding number (the set is the buffer's)",
                ),
            }
        }
    }

    /// The counter of the structured buffer `buffer`, declared on first use.
    fn counter_of(&mut self, buffer: Handle<GlobalVariable>) -> Handle<GlobalVariable> {
        if let Some(&counter) = self.counters.get(&buffer) {
            return counter;
        }
        let (name, set, span) = {
            let gv = &self.module.global_variables[buffer];
            let set = gv.resource.as_ref().map_or(0, |r| r.binding.set);
            (format!("counter.var.{}", gv.name), set, gv.span)
        };
        let used: std::collections::HashSet<u32> = self
            .module
            .global_variables
            .iter()
            .filter_map(|(_, g)| g.resource.as_ref())
            .filter(|r| r.binding.set == set)
            .map(|r| r.binding.binding)
            .collect();
        let binding = match self.counter_bindings.get(&buffer) {
            Some(&binding) => binding,
            None => (0..).find(|b| !used.contains(b)).unwrap_or(0),
        };
        let word = self.scalar_type(Scalar::U32);
        let words = self.module.type_handle(TypeInner::Array {
            base: word,
            size: ArraySize::Runtime,
            stride: 4,
        });
        let counter = self.module.global_variables.append(
            GlobalVariable {
                name,
                space: AddressSpace::Storage { writable: true },
                ty: words,
                resource: Some(Resource {
                    kind: ResourceKind::RWByteAddressBuffer,
                    binding: ResourceBinding { set, binding },
                    register: None,
                }),
                span,
            },
            span,
        );
        self.counters.insert(buffer, counter);
        counter
    }

    /// Adds `delta` (wrapping) to the counter of `buffer`; returns the value before.
    fn bump_counter(
        &mut self,
        cx: &mut FnCtx,
        buffer: Handle<GlobalVariable>,
        delta: u32,
        span: Span,
    ) -> Handle<Expression> {
        let counter = self.counter_of(buffer);
        let uint = self.scalar_type(Scalar::U32);
        let counter_ty = self.module.global_variables[counter].ty;
        let space = AddressSpace::Storage { writable: true };
        let counter_ptr = self.pointer_type(counter_ty, space);
        let word_ptr = self.pointer_type(uint, space);
        let base = cx.expr(Expression::GlobalVariable(counter), counter_ptr, span);
        let zero = cx.expr(Expression::Literal(Literal::U32(0)), uint, span);
        let pointer = cx.expr(Expression::Access { base, index: zero }, word_ptr, span);
        let value = cx.expr(Expression::Literal(Literal::U32(delta)), uint, span);
        let result = cx.expr(Expression::AtomicResult, uint, span);
        cx.emit(Statement::Atomic {
            pointer,
            fun: AtomicFunction::Add,
            value,
            compare: None,
            result: Some(result),
        });
        result
    }

    /// `IncrementCounter()` (the count before) and `DecrementCounter()` (the count
    /// after), as HLSL defines them.
    pub(crate) fn lower_counter_method(
        &mut self,
        cx: &mut FnCtx,
        buffer: Handle<GlobalVariable>,
        name: &str,
        args: &'a [ast::Expr<'a>],
        span: Span,
    ) -> Option<Value> {
        self.expect_args::<0>(args, name, span)?;
        let uint = self.scalar_type(Scalar::U32);
        let expr = if name == "IncrementCounter" {
            self.bump_counter(cx, buffer, 1, span)
        } else {
            let before = self.bump_counter(cx, buffer, u32::MAX, span);
            let one = cx.expr(Expression::Literal(Literal::U32(1)), uint, span);
            cx.expr(
                Expression::Binary {
                    op: oneshader_ir::BinaryOperator::Subtract,
                    left: before,
                    right: one,
                },
                uint,
                span,
            )
        };
        Some(Value::Rvalue {
            expr,
            ty: uint,
            literal: false,
        })
    }

    /// `Append(value)`: stores at the slot the counter had, and counts it.
    /// `Consume()`: uncounts and reads the last slot.
    pub(crate) fn lower_append_consume(
        &mut self,
        cx: &mut FnCtx,
        buffer: Handle<GlobalVariable>,
        element: Handle<oneshader_ir::Type>,
        flavor: BufferFlavor,
        args: &'a [ast::Expr<'a>],
        span: Span,
    ) -> Option<Value> {
        let uint = self.scalar_type(Scalar::U32);
        let buffer_ty = self.module.global_variables[buffer].ty;
        let space = AddressSpace::Storage { writable: true };
        let buffer_ptr = self.pointer_type(buffer_ty, space);
        let element_ptr = self.pointer_type(element, space);
        match flavor {
            BufferFlavor::Append => {
                let [value] = self.expect_args::<1>(args, "Append", span)?;
                let operand = self.lower_rvalue(cx, value)?;
                let value =
                    self.convert_value(cx, operand.into_value(), element, value.span, true)?;
                let value = cx.bind(value);
                let index = self.bump_counter(cx, buffer, 1, span);
                let base = cx.expr(Expression::GlobalVariable(buffer), buffer_ptr, span);
                let pointer = cx.expr(Expression::Access { base, index }, element_ptr, span);
                cx.emit(Statement::Store { pointer, value });
                Some(Value::Rvalue {
                    expr: self.void_marker(cx, span),
                    ty: self.scalar_type(Scalar::BOOL),
                    literal: false,
                })
            }
            BufferFlavor::Consume => {
                self.expect_args::<0>(args, "Consume", span)?;
                let before = self.bump_counter(cx, buffer, u32::MAX, span);
                let one = cx.expr(Expression::Literal(Literal::U32(1)), uint, span);
                let index = cx.expr(
                    Expression::Binary {
                        op: oneshader_ir::BinaryOperator::Subtract,
                        left: before,
                        right: one,
                    },
                    uint,
                    span,
                );
                let base = cx.expr(Expression::GlobalVariable(buffer), buffer_ptr, span);
                let pointer = cx.expr(Expression::Access { base, index }, element_ptr, span);
                let value = cx.expr(Expression::Load { pointer }, element, span);
                Some(Value::Rvalue {
                    expr: cx.bind(value),
                    ty: element,
                    literal: false,
                })
            }
        }
    }
}
