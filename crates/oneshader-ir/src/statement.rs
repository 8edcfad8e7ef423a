//! Statements: what a function does, in order, with structured control flow.

use crate::arena::Handle;
use crate::expression::{AtomicFunction, Expression};
use crate::module::Function;

/// A sequence of statements.
pub type Block = Vec<Statement>;

/// The value a switch case matches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SwitchValue {
    /// A signed case label.
    I32(i32),
    /// An unsigned case label.
    U32(u32),
    /// `default:`.
    Default,
}

/// One case of a [`Statement::Switch`].
#[derive(Clone, Debug, PartialEq)]
pub struct SwitchCase {
    /// The label.
    pub value: SwitchValue,
    /// The statements of the case.
    pub body: Block,
    /// Whether control falls into the next case at the end of `body` (`body` is then
    /// empty: the front end merges fallthrough bodies into the case they reach).
    pub fall_through: bool,
}

/// Memory made visible by a barrier, and whether it also waits for the workgroup.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Barrier {
    /// Orders device (buffer and texture) memory.
    pub device_memory: bool,
    /// Orders workgroup (`groupshared`) memory.
    pub workgroup_memory: bool,
    /// Waits until every invocation of the workgroup reaches it (`...WithGroupSync`).
    pub group_sync: bool,
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Statement {
    /// Evaluates an expression here; later expressions may refer to it any number of times.
    Bind(Handle<Expression>),
    /// A nested block.
    Block(Block),
    /// `if (condition) accept else reject`.
    If {
        /// A bool scalar.
        condition: Handle<Expression>,
        /// Runs when the condition holds.
        accept: Block,
        /// Runs otherwise.
        reject: Block,
    },
    /// `switch (selector) { cases }`.
    Switch {
        /// An integer scalar.
        selector: Handle<Expression>,
        /// The cases, `default` among them where present.
        cases: Vec<SwitchCase>,
    },
    /// A loop: `body` runs, then `continuing`, then `break_if` is tested, and again.
    /// `Continue` in `body` jumps to `continuing`.
    Loop {
        /// The loop body.
        body: Block,
        /// Runs after each iteration and after `Continue` (a `for` loop's increment).
        continuing: Block,
        /// Leaves the loop when true, tested after `continuing`.
        break_if: Option<Handle<Expression>>,
    },
    /// Leaves the innermost loop or switch.
    Break,
    /// Goes to the innermost loop's `continuing`.
    Continue,
    /// Returns from the function.
    Return {
        /// The returned value, for non-void functions.
        value: Option<Handle<Expression>>,
    },
    /// `discard`: ends the fragment invocation without writing.
    Kill,
    /// A memory and/or execution barrier.
    Barrier(Barrier),
    /// Writes `value` where `pointer` points.
    Store {
        /// The destination.
        pointer: Handle<Expression>,
        /// The value stored.
        value: Handle<Expression>,
    },
    /// An atomic read-modify-write on a 32-bit integer in workgroup or storage memory.
    Atomic {
        /// The integer operated on.
        pointer: Handle<Expression>,
        /// The operation.
        fun: AtomicFunction,
        /// The operand.
        value: Handle<Expression>,
        /// For `CompareExchange`, the value compared with.
        compare: Option<Handle<Expression>>,
        /// An [`Expression::AtomicResult`] that receives the original value, if used.
        result: Option<Handle<Expression>>,
    },
    /// Writes one texel of a storage texture.
    ImageStore {
        /// The texture: an [`Expression::GlobalVariable`] of storage image type.
        image: Handle<Expression>,
        /// Integer texel coordinates, one per dimension.
        coordinate: Handle<Expression>,
        /// For arrayed textures, the layer, an integer.
        array_index: Option<Handle<Expression>>,
        /// The texel, a 4-vector of the texture's kind (unused components are ignored).
        value: Handle<Expression>,
    },
    /// Calls a function.
    Call {
        /// The callee.
        function: Handle<Function>,
        /// One value per parameter (pointers for `out`/`inout` parameters).
        arguments: Vec<Handle<Expression>>,
        /// An [`Expression::CallResult`] that receives the return value, if used.
        result: Option<Handle<Expression>>,
    },
}

impl Statement {
    /// Calls `visit` with every expression handle the statement itself holds: the
    /// read-only [`Statement::map_operands`] (the statements of its nested blocks are not
    /// its own).
    pub fn for_each_operand(&self, mut visit: impl FnMut(Handle<Expression>)) {
        match self {
            Statement::Bind(handle)
            | Statement::If {
                condition: handle, ..
            }
            | Statement::Switch {
                selector: handle, ..
            } => visit(*handle),
            Statement::Loop { break_if, .. } => break_if.iter().copied().for_each(visit),
            Statement::Return { value } => value.iter().copied().for_each(visit),
            Statement::Store { pointer, value } => {
                visit(*pointer);
                visit(*value);
            }
            Statement::Atomic {
                pointer,
                value,
                compare,
                result,
                ..
            } => {
                visit(*pointer);
                visit(*value);
                compare.iter().copied().for_each(&mut visit);
                result.iter().copied().for_each(visit);
            }
            Statement::ImageStore {
                image,
                coordinate,
                array_index,
                value,
            } => {
                visit(*image);
                visit(*coordinate);
                array_index.iter().copied().for_each(&mut visit);
                visit(*value);
            }
            Statement::Call {
                arguments, result, ..
            } => {
                arguments.iter().copied().for_each(&mut visit);
                result.iter().copied().for_each(visit);
            }
            Statement::Block(_)
            | Statement::Break
            | Statement::Continue
            | Statement::Kill
            | Statement::Barrier(_) => {}
        }
    }

    /// Replaces every expression handle the statement itself holds by `map` of it: a
    /// condition, selector or `break_if`, a returned or stored value, a call's arguments
    /// and result. The statements of its nested blocks are not its own: they stay as they
    /// are.
    pub fn map_operands(&mut self, mut map: impl FnMut(Handle<Expression>) -> Handle<Expression>) {
        let mut one = |handle: &mut Handle<Expression>| *handle = map(*handle);
        match self {
            Statement::Bind(handle)
            | Statement::If {
                condition: handle, ..
            }
            | Statement::Switch {
                selector: handle, ..
            } => one(handle),
            Statement::Loop { break_if, .. } => break_if.iter_mut().for_each(one),
            Statement::Return { value } => value.iter_mut().for_each(one),
            Statement::Store { pointer, value } => {
                one(pointer);
                one(value);
            }
            Statement::Atomic {
                pointer,
                value,
                compare,
                result,
                ..
            } => {
                one(pointer);
                one(value);
                compare.iter_mut().for_each(&mut one);
                result.iter_mut().for_each(one);
            }
            Statement::ImageStore {
                image,
                coordinate,
                array_index,
                value,
            } => {
                one(image);
                one(coordinate);
                array_index.iter_mut().for_each(&mut one);
                one(value);
            }
            Statement::Call {
                arguments, result, ..
            } => {
                arguments.iter_mut().for_each(&mut one);
                result.iter_mut().for_each(one);
            }
            Statement::Block(_)
            | Statement::Break
            | Statement::Continue
            | Statement::Kill
            | Statement::Barrier(_) => {}
        }
    }
}
