//! Statements: structured control flow, stores, atomics, barriers and calls.
//!
//! Each construct gets the merge and continue blocks SPIR-V's structured rules
//! ask for. After a terminator (break, continue, return, discard) the rest of the
//! IR block is dead and is not written.

use oneshader_ir::{
    AtomicFunction, Barrier, Block, Expression, Handle, ScalarKind, ShaderStage, Statement,
    SwitchCase, SwitchValue, TypeInner,
};
use rspirv::spirv::{
    LoopControl, MemorySemantics, Op, Scope, SelectionControl, StorageClass, Word,
};

use crate::error::{Error, Result};
use crate::function::{Construct, FunctionWriter};
use crate::module::MAX_SWITCH_CASES;

impl FunctionWriter<'_, '_> {
    /// Writes the statements of `block` into the current block while it is open.
    pub fn block(&mut self, block: &[Statement]) -> Result<()> {
        for statement in block {
            if !self.is_open() {
                break;
            }
            self.statement(statement)?;
        }
        Ok(())
    }

    /// Writes a nested block: expressions bound in it are not usable after it.
    fn nested(&mut self, block: &Block) -> Result<()> {
        self.push_scope();
        let written = self.block(block);
        self.pop_scope();
        written
    }

    /// Ends the current block with a branch to `target` if it is still open.
    fn branch_if_open(&mut self, target: Word) -> Result<()> {
        if self.is_open() {
            self.w.b.branch(target)?;
        }
        Ok(())
    }

    fn statement(&mut self, statement: &Statement) -> Result<()> {
        match statement {
            Statement::Bind(handle) => {
                let is_pointer = matches!(self.inner_of(*handle)?, TypeInner::Pointer { .. });
                // Pointers are access chains, written again where used.
                if !is_pointer && self.bound(*handle)?.is_none() {
                    let value = self.value(*handle)?;
                    self.bind(*handle, value);
                }
            }
            Statement::Block(block) => self.nested(block)?,
            Statement::If {
                condition,
                accept,
                reject,
            } => self.if_statement(*condition, accept, reject)?,
            Statement::Switch { selector, cases } => self.switch(*selector, cases)?,
            Statement::Loop {
                body,
                continuing,
                break_if,
            } => self.loop_statement(body, continuing, *break_if)?,
            Statement::Break => {
                let target = match self.s.constructs.last() {
                    Some(Construct::Loop { merge, .. } | Construct::Switch { merge }) => *merge,
                    None => return Err(Error::malformed(None, "break outside a loop or switch")),
                };
                self.w.b.branch(target)?;
            }
            Statement::Continue => {
                let target = self.s.constructs.iter().rev().find_map(|c| match c {
                    Construct::Loop { continuing, .. } => Some(*continuing),
                    Construct::Switch { .. } => None,
                });
                let Some(target) = target else {
                    return Err(Error::malformed(None, "continue outside a loop"));
                };
                self.w.b.branch(target)?;
            }
            Statement::Return { value } => self.return_statement(*value)?,
            Statement::Kill => {
                if self.w.entry.stage != ShaderStage::Fragment {
                    return Err(Error::unsupported(
                        None,
                        format!("discard in a {} shader", self.w.entry.stage.name()),
                    ));
                }
                self.w.b.kill()?;
            }
            Statement::Barrier(barrier) => self.barrier(*barrier)?,
            Statement::ImageStore {
                image,
                coordinate,
                array_index,
                value,
            } => self.image_store(*image, *coordinate, *array_index, *value)?,
            Statement::Store { pointer, value } => {
                let value = self.value(*value)?;
                let local = self.local_root(*pointer);
                let whole_local =
                    matches!(self.expression(*pointer)?, Expression::LocalVariable(_));
                let pointer = self.pointer(*pointer)?;
                self.store(pointer, value)?;
                if let Some(local) = local {
                    if whole_local {
                        self.s.known.set(local, value);
                    } else {
                        self.s.known.forget(local);
                    }
                }
            }
            Statement::Atomic {
                pointer,
                fun,
                value,
                compare,
                result,
            } => self.atomic(*pointer, *fun, *value, *compare, *result)?,
            Statement::Call {
                function,
                arguments,
                result,
            } => self.call(*function, arguments, *result)?,
        }
        Ok(())
    }

    fn if_statement(
        &mut self,
        condition: Handle<Expression>,
        accept: &Block,
        reject: &Block,
    ) -> Result<()> {
        if let Some(breaks_when) = conditional_break(accept, reject) {
            if let Some(&Construct::Loop { merge, .. }) = self.s.constructs.last() {
                let condition = self.value(condition)?;
                let next = self.w.b.id();
                self.branch_out_when(condition, breaks_when, merge, next)?;
                self.w.b.begin_block(Some(next))?;
                return Ok(());
            }
        }
        let condition = self.value(condition)?;
        let before = self.s.known.mark();
        let changed = self.changed_locals(&[accept, reject]);
        let merge = self.w.b.id();
        let accept_label = self.w.b.id();
        let reject_label = if reject.is_empty() {
            merge
        } else {
            self.w.b.id()
        };
        self.w.b.selection_merge(merge, SelectionControl::NONE)?;
        self.w
            .b
            .branch_conditional(condition, accept_label, reject_label)?;
        self.w.b.begin_block(Some(accept_label))?;
        self.nested(accept)?;
        self.branch_if_open(merge)?;
        if !reject.is_empty() {
            self.s.known.rewind(before);
            self.w.b.begin_block(Some(reject_label))?;
            self.nested(reject)?;
            self.branch_if_open(merge)?;
        }
        self.s.known.rewind(before);
        self.forget(changed);
        self.w.b.begin_block(Some(merge))?;
        Ok(())
    }

    fn loop_statement(
        &mut self,
        body: &Block,
        continuing: &Block,
        break_if: Option<Handle<Expression>>,
    ) -> Result<()> {
        let changed = self.changed_locals(&[body, continuing]);
        self.forget(changed);
        let before = self.s.known.mark();
        let header = self.w.b.id();
        let body_label = self.w.b.id();
        let continue_label = self.w.b.id();
        let merge = self.w.b.id();
        self.w.b.branch(header)?;
        self.w.b.begin_block(Some(header))?;
        // A body that starts with its exit test (every `for` and `while` loop) tests in
        // the header, as glslang does: one block and one branch fewer per loop.
        let (test, body) = match body.split_first() {
            Some((
                Statement::If {
                    condition,
                    accept,
                    reject,
                },
                rest,
            )) => match conditional_break(accept, reject) {
                Some(breaks_when) => (Some((*condition, breaks_when)), rest),
                None => (None, body.as_slice()),
            },
            _ => (None, body.as_slice()),
        };
        match test {
            Some((condition, breaks_when)) => {
                let condition = self.value(condition)?;
                self.w
                    .b
                    .loop_merge(merge, continue_label, LoopControl::NONE)?;
                self.branch_out_when(condition, breaks_when, merge, body_label)?;
            }
            None => {
                self.w
                    .b
                    .loop_merge(merge, continue_label, LoopControl::NONE)?;
                self.w.b.branch(body_label)?;
            }
        }

        self.w.b.begin_block(Some(body_label))?;
        self.s.constructs.push(Construct::Loop {
            merge,
            continuing: continue_label,
        });
        // Expressions bound in the body stay usable in `continuing` and `break_if`.
        self.push_scope();
        let written = self.block(body).and_then(|()| {
            self.branch_if_open(continue_label)?;
            self.s.known.rewind(before);
            self.w.b.begin_block(Some(continue_label))?;
            self.s.constructs.pop();
            self.block(continuing)?;
            if self.is_open() {
                match break_if {
                    Some(condition) => {
                        let condition = self.value(condition)?;
                        self.w.b.branch_conditional(condition, merge, header)?;
                    }
                    None => self.w.b.branch(header)?,
                }
            }
            Ok(())
        });
        self.pop_scope();
        written?;
        self.s.known.rewind(before);
        self.w.b.begin_block(Some(merge))?;
        Ok(())
    }

    /// Ends the current block with a branch to `out` when `condition` is `out_when`, to
    /// `stay` otherwise.
    fn branch_out_when(
        &mut self,
        condition: Word,
        out_when: bool,
        out: Word,
        stay: Word,
    ) -> Result<()> {
        let (accept, reject) = if out_when { (out, stay) } else { (stay, out) };
        self.w.b.branch_conditional(condition, accept, reject)?;
        Ok(())
    }

    fn switch(&mut self, selector: Handle<Expression>, cases: &[SwitchCase]) -> Result<()> {
        let span = self.span(selector);
        let signed = match self.inner_of(selector)? {
            TypeInner::Scalar(scalar) if scalar.is_integer() && scalar.width == 4 => {
                scalar.kind == ScalarKind::Sint
            }
            _ => {
                return Err(Error::unsupported(
                    span,
                    "a switch on a non-32-bit-integer value",
                ))
            }
        };
        let selector = self.value(selector)?;
        let merge = self.w.b.id();
        // A case with an empty body that falls through shares the label of the case it
        // reaches; every other case gets a block of its own.
        let mut labels = vec![merge; cases.len()];
        let mut next = merge;
        for (index, case) in cases.iter().enumerate().rev() {
            if !(case.fall_through && case.body.is_empty()) {
                next = self.w.b.id();
            }
            if let Some(label) = labels.get_mut(index) {
                *label = next;
            }
        }
        let mut default = merge;
        let mut targets = Vec::new();
        for (case, &label) in cases.iter().zip(&labels) {
            match case.value {
                SwitchValue::Default => default = label,
                SwitchValue::I32(value) if signed => targets.push((value as u32, label)),
                SwitchValue::U32(value) if !signed => targets.push((value, label)),
                _ => {
                    return Err(Error::malformed(
                        span,
                        "a switch case label whose signedness differs from the selector's",
                    ))
                }
            }
        }
        if targets.len() > MAX_SWITCH_CASES {
            return Err(Error::unsupported(
                span,
                format!(
                    "a switch of {} cases; SPIR-V allows at most {MAX_SWITCH_CASES} in one: \
                     split it into several switches with fewer cases",
                    targets.len()
                ),
            ));
        }
        self.w.b.selection_merge(merge, SelectionControl::NONE)?;
        self.w.b.switch(selector, default, &targets)?;
        self.s.constructs.push(Construct::Switch { merge });
        let bodies: Vec<&Block> = cases.iter().map(|case| &case.body).collect();
        let changed = self.changed_locals(&bodies);
        self.forget(changed);
        let before = self.s.known.mark();
        let mut written = Ok(());
        for (index, case) in cases.iter().enumerate() {
            if case.fall_through && case.body.is_empty() {
                continue;
            }
            let label = labels.get(index).copied().unwrap_or(merge);
            let after = if case.fall_through {
                labels.get(index + 1).copied().unwrap_or(merge)
            } else {
                merge
            };
            self.s.known.rewind(before);
            written = self
                .w
                .b
                .begin_block(Some(label))
                .map_err(Error::from)
                .and_then(|_| self.nested(&case.body))
                .and_then(|()| self.branch_if_open(after));
            if written.is_err() {
                break;
            }
        }
        self.s.constructs.pop();
        written?;
        self.s.known.rewind(before);
        self.w.b.begin_block(Some(merge))?;
        Ok(())
    }

    fn return_statement(&mut self, value: Option<Handle<Expression>>) -> Result<()> {
        let value = value.map(|v| self.value(v)).transpose()?;
        match (value, self.outputs.is_some()) {
            (Some(value), true) => {
                self.store_outputs(value)?;
                self.w.b.ret()?;
            }
            (Some(value), false) => self.w.b.ret_value(value)?,
            (None, _) => self.w.b.ret()?,
        }
        Ok(())
    }

    /// `OpControlBarrier`/`OpMemoryBarrier` with DXC's scopes and semantics.
    fn barrier(&mut self, barrier: Barrier) -> Result<()> {
        let stage = self.w.entry.stage;
        if (barrier.group_sync || barrier.workgroup_memory) && stage != ShaderStage::Compute {
            return Err(Error::unsupported(
                None,
                format!(
                    "a group barrier in a {} shader: only compute shaders have groups",
                    stage.name()
                ),
            ));
        }
        let mut semantics = MemorySemantics::RELAXED;
        if barrier.device_memory {
            semantics |= MemorySemantics::UNIFORM_MEMORY | MemorySemantics::IMAGE_MEMORY;
        }
        if barrier.workgroup_memory {
            semantics |= MemorySemantics::WORKGROUP_MEMORY;
        }
        if !semantics.is_empty() {
            semantics |= MemorySemantics::ACQUIRE_RELEASE;
        }
        let memory_scope = if barrier.device_memory {
            Scope::Device
        } else {
            Scope::Workgroup
        };
        let memory_scope = self.scope(memory_scope)?;
        let semantics = self.w.u32_constant(semantics.bits())?;
        if barrier.group_sync {
            let execution = self.scope(Scope::Workgroup)?;
            self.w
                .b
                .control_barrier(execution, memory_scope, semantics)?;
        } else if barrier.device_memory || barrier.workgroup_memory {
            self.w.b.memory_barrier(memory_scope, semantics)?;
        }
        Ok(())
    }

    /// An atomic read-modify-write; signedness of min/max from the pointee.
    fn atomic(
        &mut self,
        pointer: Handle<Expression>,
        fun: AtomicFunction,
        value: Handle<Expression>,
        compare: Option<Handle<Expression>>,
        result: Option<Handle<Expression>>,
    ) -> Result<()> {
        let span = self.span(pointer);
        let value = self.value(value)?;
        let compare = compare.map(|c| self.value(c)).transpose()?;
        let pointer = self.pointer(pointer)?;
        let scalar = match *self.w.inner(pointer.pointee, span)? {
            TypeInner::Scalar(scalar) if scalar.is_integer() && scalar.width == 4 => scalar,
            _ => {
                return Err(Error::unsupported(
                    span,
                    "an atomic operation on something other than a 32-bit integer",
                ))
            }
        };
        if !matches!(
            pointer.class,
            StorageClass::StorageBuffer | StorageClass::Workgroup | StorageClass::Image
        ) {
            return Err(Error::unsupported(
                span,
                "an atomic operation outside buffer or groupshared memory",
            ));
        }
        let signed = scalar.kind == ScalarKind::Sint;
        let ty = pointer.pointee_id;
        let scope = self.scope(Scope::Device)?;
        let relaxed = self.w.u32_constant(MemorySemantics::RELAXED.bits())?;
        let op = match fun {
            AtomicFunction::Add => Op::AtomicIAdd,
            AtomicFunction::And => Op::AtomicAnd,
            AtomicFunction::Or => Op::AtomicOr,
            AtomicFunction::Xor => Op::AtomicXor,
            AtomicFunction::Min if signed => Op::AtomicSMin,
            AtomicFunction::Min => Op::AtomicUMin,
            AtomicFunction::Max if signed => Op::AtomicSMax,
            AtomicFunction::Max => Op::AtomicUMax,
            AtomicFunction::Exchange => Op::AtomicExchange,
            AtomicFunction::CompareExchange => Op::AtomicCompareExchange,
        };
        let operands = match (fun, compare) {
            (AtomicFunction::CompareExchange, Some(compare)) => {
                vec![pointer.id, scope, relaxed, relaxed, value, compare]
            }
            (AtomicFunction::CompareExchange, None) => {
                return Err(Error::malformed(
                    span,
                    "a compare-exchange without a comparand",
                ))
            }
            _ => vec![pointer.id, scope, relaxed, value],
        };
        let original = self.emit_ids(op, ty, &operands)?;
        if let Some(result) = result {
            self.bind(result, original);
        }
        Ok(())
    }

    /// A call; `out`/`inout` arguments that are not local variables go through a
    /// temporary, copied in before and out after, as HLSL's copy semantics say.
    fn call(
        &mut self,
        function: Handle<oneshader_ir::Function>,
        arguments: &[Handle<Expression>],
        result: Option<Handle<Expression>>,
    ) -> Result<()> {
        let callee = self.w.module.functions.try_get(function);
        let signature = self.w.tables.functions.get(&function).cloned();
        let (Some(callee), Some(signature)) = (callee, signature) else {
            return Err(Error::malformed(
                None,
                format!("call of missing function {function:?}"),
            ));
        };
        if callee.arguments.len() != arguments.len() {
            return Err(Error::malformed(
                None,
                format!(
                    "call of '{}' with the wrong number of arguments",
                    callee.name
                ),
            ));
        }
        let mut ids = Vec::with_capacity(arguments.len());
        let mut copy_back = Vec::new();
        for &argument in arguments {
            if !matches!(self.inner_of(argument)?, TypeInner::Pointer { .. }) {
                ids.push(self.value(argument)?);
                continue;
            }
            if let Expression::LocalVariable(local) = *self.expression(argument)? {
                ids.push(self.local(local, self.span(argument))?);
                continue;
            }
            let pointer = self.pointer(argument)?;
            let value = self.load(pointer)?;
            let temporary = self.spill(pointer.pointee, value)?;
            ids.push(temporary);
            copy_back.push((pointer, temporary));
        }
        let returned = self.emit_ids(
            Op::FunctionCall,
            signature.return_type,
            &std::iter::once(signature.id).chain(ids).collect::<Vec<_>>(),
        )?;
        for &argument in arguments {
            if let Some(local) = self.local_root(argument) {
                self.s.known.forget(local);
            }
        }
        for (pointer, temporary) in copy_back {
            let plain = self.w.value_type(pointer.pointee)?;
            let value = self.emit_ids(Op::Load, plain, &[temporary])?;
            self.store(pointer, value)?;
        }
        if let (Some(result), Some(_)) = (result, &callee.result) {
            self.bind(result, returned);
        }
        Ok(())
    }
}

/// Whether an `if` with these arms is a conditional `break` and nothing else: `Some(true)`
/// for `if (c) break;`, `Some(false)` for `if (c) {} else break;`. Directly inside a loop
/// it is written as one conditional branch to the loop's merge block, with no selection
/// construct of its own (a break block needs none).
fn conditional_break(accept: &Block, reject: &Block) -> Option<bool> {
    match (accept.as_slice(), reject.as_slice()) {
        ([Statement::Break], []) => Some(true),
        ([], [Statement::Break]) => Some(false),
        _ => None,
    }
}
