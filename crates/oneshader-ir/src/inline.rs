//! Inlining: an entry point's function with the calls of its helpers replaced by the
//! helpers' bodies, as DXC (spirv-opt's legalization) and glslang write SPIR-V.
//!
//! Every function of the module is flattened once for all its entry points
//! ([`Flattened`]), callees before callers, so inlining a call copies an already
//! flattened body one level deep: a long call chain costs no Rust stack beyond the
//! nesting of one body. A flattened body that only one call inlines (a helper called
//! from one place) is moved into its caller, renamed in place, rather than copied. A call is inlined when its callee is called from one place of
//! the module only and the flattened caller stays within [`SINGLE_USE_BUDGET`]
//! expressions, or when it stays within [`EXPRESSION_BUDGET`]; otherwise the call
//! stays, and so does the callee (written unchanged, with whatever it calls). Repeated
//! calls of large helpers thus never grow a function exponentially, and a generated
//! shader of thousands of helpers does not become one function of millions of
//! expressions.
//!
//! What an inlined call becomes, in the caller:
//! - value arguments are bound where the call was, and the callee's argument
//!   expressions refer to them; pointer arguments (`out`/`inout` temporaries) are the
//!   caller's pointers;
//! - the callee's locals become the caller's, with their names; inside a loop, those
//!   the callee may read before storing are zeroed at each call, as a function's locals
//!   start zeroed;
//! - the value returned at the callee's end is bound there and stands for the call's
//!   result (and for expressions folded with literal arguments, see [`crate::fold`]);
//! - a `return` before the callee's end leaves a loop that runs once around the body
//!   (`break`) after storing its value to a new local, which the call's result loads,
//!   so lanes that returned early wait at its end as they would at the function's
//!   return. A callee whose `return` sits inside its own loop or switch (where `break`
//!   would not leave the wrapper), that has a local with an initialiser, or that is
//!   passed a pointer into a global (a hand-built IR's `out` argument) stays a call,
//!   and so does one that would nest statements deeper than [`MAX_NESTING`].
//!
//! The result is meant for a backend to write, not for the analyses: its expressions
//! may refer to later ones (a call's result replaced by the value its body returned).

use std::sync::OnceLock;

use crate::arena::{emptied, Arena, Handle};
use crate::expression::Expression;
use crate::info::ModuleInfo;
use crate::module::{Function, LocalVariable, Module};
use crate::statement::{Block, Statement, SwitchCase};
use crate::types::{AddressSpace, Type, TypeInner};

/// How many expressions a flattened function may reach by inlining callees that are
/// called from more than one place.
pub const EXPRESSION_BUDGET: usize = 4096;

/// How many expressions a flattened function may reach by inlining callees called from
/// one place. Past it, inlining no longer makes the module smaller by much, while the
/// one function keeps growing: at 100,000 generated lines (6,600 helpers) the inlined
/// entry function was the compiler's peak memory (136 MiB against 80 MiB without it),
/// and drivers' compile time grows faster than a function's size.
pub const SINGLE_USE_BUDGET: usize = 1 << 16;

/// How deep an inlined body may leave statements nested (the front end's limit for a
/// function's own statements): a call is inlined only if its depth plus the callee's
/// nesting stays within it, so inlining never nests statements deeper than a function may.
pub const MAX_NESTING: usize = 128;

/// An entry point's function with its calls inlined.
#[derive(Clone, Debug)]
pub struct Inlined<'a> {
    /// The entry function, its helpers' bodies in place of their calls.
    pub function: &'a Function,
    /// The functions still called, directly or through one another, each once, in
    /// handle order: the helpers a backend writes beside `function`.
    pub helpers: Vec<Handle<Function>>,
}

/// Entry point number `index` of `module` with the calls of the helpers it reaches
/// inlined, if the module has it; `info` holds the facts of `module`
/// ([`ModuleInfo::new`]). Every function and entry point is flattened once per module
/// ([`ModuleInfo::flattened`]), for all its entry points.
pub fn inline_entry_point<'a>(
    module: &'a Module,
    info: &'a ModuleInfo,
    index: usize,
) -> Option<Inlined<'a>> {
    let entry = module.entry_points.get(index)?;
    let flat = info
        .flattened(module)
        .entries
        .get(index)
        .and_then(Option::as_ref);
    let (function, mut stack) = match flat {
        Some(flat) => (&flat.function, flat.calls.clone()),
        None => (
            &entry.function,
            crate::analysis::callees(&entry.function)
                .into_iter()
                .collect(),
        ),
    };

    // The callees still called, and everything they reach unchanged.
    let mut kept = vec![false; module.functions.len()];
    while let Some(handle) = stack.pop() {
        let Some(seen) = kept.get_mut(handle.index()) else {
            continue;
        };
        if !std::mem::replace(seen, true) {
            stack.extend_from_slice(info.callees(handle));
        }
    }
    let helpers = kept
        .iter()
        .enumerate()
        .filter(|&(_, &kept)| kept)
        .map(|(index, _)| Handle::from_index(index))
        .collect();
    Some(Inlined { function, helpers })
}

/// Every entry point of a module flattened (its calls worth inlining inlined, their
/// callees flattened first), once for all of them: [`ModuleInfo::flattened`] keeps it.
///
/// Each function is flattened once, callees before callers. A flattened body that only
/// one call in the module inlines is moved into its caller rather than copied
/// ([`Call::Move`]), which is why the entry points are flattened here, once, too.
#[derive(Clone, Debug, Default)]
pub struct Flattened {
    /// Each entry point flattened, by entry point index; `None` where nothing was
    /// inlined.
    entries: Vec<Option<Flattening>>,
}

/// A function with calls inlined, as [`flatten`] gives it.
#[derive(Clone, Debug)]
struct Flattening {
    /// The function flattened.
    function: Function,
    /// The functions it still calls (the calls it keeps, and those the bodies it
    /// inlines keep), each once, in handle order.
    calls: Vec<Handle<Function>>,
}

impl Flattened {
    /// Flattens every function of `module` (whose facts `info` holds), callees first,
    /// then its entry points.
    pub(crate) fn new(module: &Module, info: &ModuleInfo) -> Flattened {
        let count = module.functions.len();
        let all: Vec<Handle<Function>> = (0..count).map(Handle::from_index).collect();
        let mut flat: Vec<Option<Flat>> = vec![None; count];
        let mut spare = Spare::default();
        for handle in post_order(info, &all, count) {
            let Some(function) = module.functions.try_get(handle) else {
                continue;
            };
            let flattened = flatten(module, info, &mut flat, &mut spare, function);
            let done = Flat::of(module, handle, function, flattened);
            if let Some(slot) = flat.get_mut(handle.index()) {
                *slot = Some(done);
            }
        }
        let entries = module
            .entry_points
            .iter()
            .map(|entry| flatten(module, info, &mut flat, &mut spare, &entry.function))
            .collect();
        Flattened { entries }
    }
}

/// `function` with the calls worth inlining inlined (its callees already in `flat`);
/// `None` when none is. The flattened bodies of the callees that only this call
/// inlines (called from one place, [`ModuleInfo::call_sites`]) are moved out of `flat`.
/// The lists of the copies come from `spare` and go back to it.
fn flatten(
    module: &Module,
    info: &ModuleInfo,
    flat: &mut [Option<Flat>],
    spare: &mut Spare,
    function: &Function,
) -> Option<Flattening> {
    let sites = info.call_sites();
    let inliner = Inliner {
        module,
        sites,
        flat,
    };
    let mut plan = inliner.plan(function)?;
    let still_calls = still_called(info, flat, &plan.calls);
    let calls = std::mem::take(&mut plan.calls)
        .into_iter()
        .map(|(callee, inline)| {
            if !inline {
                return Call::Keep;
            }
            let once = sites.get(callee.index()) == Some(&1);
            match flat.get_mut(callee.index()) {
                Some(Some(flat)) if once => match std::mem::replace(&mut flat.body, Body::Moved) {
                    Body::Flattened(body) => Call::Move(body),
                    other => {
                        flat.body = other;
                        Call::Copy
                    }
                },
                _ => Call::Copy,
            }
        })
        .collect();
    let inliner = Inliner {
        module,
        sites,
        flat,
    };
    Some(Flattening {
        function: inliner.build(function, calls, &plan, spare),
        calls: still_calls,
    })
}

/// The functions a function flattened as `calls` decides still calls, each once, in
/// handle order: the callees of the calls it keeps, and those still called by the
/// bodies it inlines (a flattened body's, kept in `flat`, or the module's own
/// function's, from `info`).
fn still_called(
    info: &ModuleInfo,
    flat: &[Option<Flat>],
    calls: &[(Handle<Function>, bool)],
) -> Vec<Handle<Function>> {
    let mut called = Vec::new();
    for &(callee, inline) in calls {
        if !inline {
            called.push(callee);
            continue;
        }
        match flat.get(callee.index()).and_then(Option::as_ref) {
            Some(flat) if !matches!(flat.body, Body::Original) => {
                called.extend_from_slice(&flat.calls);
            }
            _ => called.extend_from_slice(info.callees(callee)),
        }
    }
    called.sort_unstable();
    called.dedup();
    called
}

/// `reachable` ordered so that every function comes after the functions it calls.
fn post_order(
    info: &ModuleInfo,
    reachable: &[Handle<Function>],
    count: usize,
) -> Vec<Handle<Function>> {
    let mut state = vec![0u8; count]; // 0: unseen, 1: open, 2: done
    let mut order = Vec::with_capacity(reachable.len());
    for &root in reachable {
        let mut stack = vec![(root, 0usize)];
        while let Some((handle, next)) = stack.pop() {
            let Some(mark) = state.get_mut(handle.index()) else {
                continue;
            };
            if next == 0 {
                if *mark != 0 {
                    continue;
                }
                *mark = 1;
            }
            match info.callees(handle).get(next) {
                Some(&callee) => {
                    stack.push((handle, next + 1));
                    if state.get(callee.index()) == Some(&0) {
                        stack.push((callee, 0));
                    }
                }
                None => {
                    if let Some(mark) = state.get_mut(handle.index()) {
                        *mark = 2;
                    }
                    order.push(handle);
                }
            }
        }
    }
    order
}

/// A flattened function and how it may be inlined.
#[derive(Clone, Debug)]
struct Flat {
    /// The body calls of it inline.
    body: Body,
    /// The module's function.
    handle: Handle<Function>,
    /// The functions its flattened body still calls ([`Flattening::calls`]); empty
    /// for [`Body::Original`], whose calls are the module's function's.
    calls: Vec<Handle<Function>>,
    /// Whether calls of it may be inlined: no `return` inside its own loops or switches,
    /// no local with an initialiser.
    inlinable: bool,
    /// Whether a `return` comes before the end of its body (the body is then wrapped).
    early_return: bool,
    /// Whether each argument is a pointer (`out`/`inout`).
    pointer_arguments: Vec<bool>,
    /// The type of a Function-space pointer to its result, if the module has one.
    result_pointer: Option<Handle<Type>>,
    /// How deep its statements nest (a statement of the body's top level is at 0),
    /// counting the loop around a body with early returns.
    depth: usize,
    /// The locals an inlined copy inside a loop must zero first, as a call's locals
    /// start zeroed: those the body may read before storing them whole, each with its
    /// first `LocalVariable` expression, in expression order; worked out when a copy
    /// inside a loop first needs it ([`zeroed_in_loop`]).
    zeroed_in_loop: OnceLock<Vec<(Handle<Expression>, Handle<LocalVariable>)>>,
}

impl Flat {
    /// `original` (the module's function `handle`) as `flattened` (`None`: unchanged).
    fn of(
        module: &Module,
        handle: Handle<Function>,
        original: &Function,
        flattened: Option<Flattening>,
    ) -> Self {
        let (flattened, calls) = match flattened {
            Some(Flattening { function, calls }) => (Some(function), calls),
            None => (None, Vec::new()),
        };
        let function = flattened.as_ref().unwrap_or(original);
        let mut shape = Shape::default();
        let nesting = shape.walk(&function.body, false);
        let last_returns = matches!(function.body.last(), Some(Statement::Return { .. }));
        let early_return = shape.returns > usize::from(last_returns);
        let has_init = function
            .local_variables
            .iter()
            .any(|(_, local)| local.init.is_some());
        let pointer_arguments = function
            .arguments
            .iter()
            .map(|argument| is_pointer(module, argument.ty))
            .collect();
        let result_pointer = function.result.as_ref().and_then(|result| {
            module.types.get(&Type {
                name: None,
                inner: TypeInner::Pointer {
                    base: result.ty,
                    space: AddressSpace::Function,
                },
            })
        });
        let depth = nesting.saturating_add(usize::from(early_return));
        let inlinable = !has_init && !shape.nested_return;
        Flat {
            handle,
            calls,
            depth,
            zeroed_in_loop: OnceLock::new(),
            inlinable,
            early_return,
            pointer_arguments,
            result_pointer,
            body: match flattened {
                Some(function) => Body::Flattened(Box::new(function)),
                None => Body::Original,
            },
        }
    }
}

/// The body a [`Flat`] inlines.
#[derive(Clone, Debug)]
enum Body {
    /// The module's own function: flattening changed nothing.
    Original,
    /// The function flattened.
    Flattened(Box<Function>),
    /// Moved into the one call of it ([`Call::Move`]): nothing else inlines it.
    Moved,
}

/// The locals of `function` that it may read before storing them whole, each with its
/// first `LocalVariable` expression, in expression order (see [`Flat::zeroed_in_loop`]).
fn zeroed_in_loop(function: &Function) -> Vec<(Handle<Expression>, Handle<LocalVariable>)> {
    let read_first = read_before_stored(function);
    let mut seen = vec![false; function.local_variables.len()];
    let mut zeroed = Vec::new();
    for (handle, expression) in function.expressions.iter() {
        if let Expression::LocalVariable(local) = *expression {
            if let Some(seen @ false) = seen.get_mut(local.index()) {
                *seen = true;
                if read_first.get(local.index()) == Some(&true) {
                    zeroed.push((handle, local));
                }
            }
        }
    }
    zeroed
}

/// For each local of `function`, whether it may be read (or partly written) before a
/// store of the whole local on every path to the read: a conservative answer, which
/// follows both sides of `if`s and counts every use inside loops and switches as a read.
fn read_before_stored(function: &Function) -> Vec<bool> {
    let locals = function.local_variables.len();
    let mut scan = FirstReads {
        function,
        read: vec![false; locals],
        seen: vec![false; function.expressions.len()],
        stack: Vec::new(),
    };
    let mut stored = vec![false; locals];
    scan.block(&function.body, &mut stored);
    scan.read
}

/// The walk of [`read_before_stored`].
struct FirstReads<'a> {
    function: &'a Function,
    /// Whether each local may be read before it is stored.
    read: Vec<bool>,
    /// Expressions already evaluated by an earlier statement (their reads happened there).
    seen: Vec<bool>,
    /// Expressions still to look at.
    stack: Vec<Handle<Expression>>,
}

impl FirstReads<'_> {
    /// Follows `block`; `stored`: the locals stored whole on every path to here.
    fn block(&mut self, block: &Block, stored: &mut Vec<bool>) {
        for statement in block {
            match statement {
                Statement::Store { pointer, value } => {
                    self.reads(*value, stored);
                    match self.function.expressions.try_get(*pointer) {
                        Some(&Expression::LocalVariable(local)) => {
                            if let Some(stored) = stored.get_mut(local.index()) {
                                *stored = true;
                            }
                        }
                        _ => self.reads(*pointer, stored),
                    }
                }
                Statement::Block(inner) => self.block(inner, stored),
                Statement::If {
                    condition,
                    accept,
                    reject,
                } => {
                    self.reads(*condition, stored);
                    let mut accepted = stored.clone();
                    self.block(accept, &mut accepted);
                    self.block(reject, stored);
                    for (stored, accepted) in stored.iter_mut().zip(accepted) {
                        *stored &= accepted;
                    }
                }
                _ => {
                    let mut roots = Vec::new();
                    statement_operands(statement, &mut roots);
                    let mut nested = |block: &Block| {
                        crate::analysis::walk_statements(block, &mut |s| {
                            statement_operands(s, &mut roots)
                        })
                    };
                    match statement {
                        Statement::Switch { cases, .. } => {
                            cases.iter().for_each(|case| nested(&case.body))
                        }
                        Statement::Loop {
                            body, continuing, ..
                        } => {
                            nested(body);
                            nested(continuing);
                        }
                        _ => {}
                    }
                    for root in roots {
                        self.reads(root, stored);
                    }
                }
            }
        }
    }

    /// Marks the locals that evaluating `root` reads before they are `stored`.
    fn reads(&mut self, root: Handle<Expression>, stored: &[bool]) {
        self.stack.push(root);
        while let Some(handle) = self.stack.pop() {
            let Some(expression) = self.function.expressions.try_get(handle) else {
                continue;
            };
            match *expression {
                Expression::LocalVariable(local) => {
                    if stored.get(local.index()) == Some(&false) {
                        if let Some(read) = self.read.get_mut(local.index()) {
                            *read = true;
                        }
                    }
                    continue;
                }
                // A pointer is written again at each use: follow it each time.
                Expression::Access { .. } | Expression::AccessIndex { .. } => {}
                _ => match self.seen.get_mut(handle.index()) {
                    Some(seen) if !*seen => *seen = true,
                    _ => continue,
                },
            }
            let stack = &mut self.stack;
            expression.clone().map_operands(|operand| {
                stack.push(operand);
                operand
            });
        }
    }
}

/// Pushes the expressions `statement` itself uses (not those of nested blocks).
fn statement_operands(statement: &Statement, into: &mut Vec<Handle<Expression>>) {
    match *statement {
        Statement::Bind(handle) => into.push(handle),
        Statement::If { condition, .. } => into.push(condition),
        Statement::Switch { selector, .. } => into.push(selector),
        Statement::Loop { break_if, .. } => into.extend(break_if),
        Statement::Return { value } => into.extend(value),
        Statement::Store { pointer, value } => into.extend([pointer, value]),
        Statement::Atomic {
            pointer,
            value,
            compare,
            result,
            ..
        } => {
            into.extend([pointer, value]);
            into.extend(compare);
            into.extend(result);
        }
        Statement::ImageStore {
            image,
            coordinate,
            array_index,
            value,
        } => {
            into.extend([image, coordinate, value]);
            into.extend(array_index);
        }
        Statement::Call {
            ref arguments,
            result,
            ..
        } => {
            into.extend_from_slice(arguments);
            into.extend(result);
        }
        Statement::Block(_)
        | Statement::Break
        | Statement::Continue
        | Statement::Kill
        | Statement::Barrier(_) => {}
    }
}

/// What [`Flat::of`] needs to know of a body's statements, found in one walk.
#[derive(Default)]
struct Shape {
    /// How many `return`s the body holds, at any depth.
    returns: usize,
    /// Whether a `return` sits inside a loop or switch at any depth (inside nested
    /// blocks and `if`s too).
    nested_return: bool,
}

impl Shape {
    /// Walks `block` (inside a loop or switch if `breakable`) and gives how deep its
    /// statements nest below it (0 for a block without nested blocks). Flattened bodies
    /// nest at most [`MAX_NESTING`] deep, which bounds the recursion.
    fn walk(&mut self, block: &Block, breakable: bool) -> usize {
        let mut depth = 0;
        for statement in block {
            let nested = match statement {
                Statement::Return { .. } => {
                    self.returns += 1;
                    self.nested_return |= breakable;
                    0
                }
                Statement::Block(inner) => 1 + self.walk(inner, breakable),
                Statement::If { accept, reject, .. } => {
                    1 + self
                        .walk(accept, breakable)
                        .max(self.walk(reject, breakable))
                }
                Statement::Switch { cases, .. } => cases
                    .iter()
                    .map(|case| 1 + self.walk(&case.body, true))
                    .max()
                    .unwrap_or(0),
                Statement::Loop {
                    body, continuing, ..
                } => 1 + self.walk(body, true).max(self.walk(continuing, true)),
                _ => 0,
            };
            depth = depth.max(nested);
        }
        depth
    }
}

/// Whether `argument` (an expression of `function`) is a value or a pointer into a
/// local variable or a pointer argument, rather than a pointer into a global.
fn points_into_local_or_is_value(function: &Function, argument: Handle<Expression>) -> bool {
    let mut current = argument;
    loop {
        match function.expressions.try_get(current) {
            Some(Expression::Access { base, .. } | Expression::AccessIndex { base, .. }) => {
                current = *base
            }
            Some(Expression::GlobalVariable(_)) => return false,
            _ => return true,
        }
    }
}

/// Whether `ty` is a pointer (an `out`/`inout` parameter's).
fn is_pointer(module: &Module, ty: Handle<Type>) -> bool {
    matches!(module.inner(ty), TypeInner::Pointer { .. })
}

/// Where a `return` of the body being copied goes.
#[derive(Clone, Copy)]
enum ReturnTarget {
    /// The function's own body: a `return` stays one.
    Function,
    /// An inlined body that returns only at its end: the value returned (if the call's
    /// result is used) is bound there and stands for the call's result.
    End {
        /// Whether the call's result is used.
        result_used: bool,
    },
    /// An inlined body with early returns, inside a loop that runs once: each `return`
    /// stores its value to `result` (if the call's result is used) and breaks out.
    Wrapped {
        /// A pointer to the local receiving the value.
        result: Option<Handle<Expression>>,
    },
}

/// The copy of one function's body into the function being built.
struct Copy<'f> {
    source: &'f Function,
    /// The new handle of each of the source's expressions.
    expressions: Vec<Handle<Expression>>,
    /// The new handle of each of the source's locals.
    locals: Vec<Handle<LocalVariable>>,
    /// The runs of the source's expressions between its arguments (see
    /// [`Copy::expressions_into`]).
    runs: Vec<std::ops::Range<usize>>,
    /// Where `return`s go.
    target: ReturnTarget,
    /// For [`ReturnTarget::End`]: the copied value the body returned.
    returned: Option<Handle<Expression>>,
}

impl Copy<'_> {
    /// The new handle of the source's expression `handle`.
    fn expression(&self, handle: Handle<Expression>) -> Handle<Expression> {
        self.expressions
            .get(handle.index())
            .copied()
            .unwrap_or(handle)
    }

    /// Appends the source's locals to `out`, with their names.
    fn locals_into(&mut self, out: &mut Function) {
        let count = self.source.local_variables.len();
        out.local_variables.reserve(count);
        self.locals.reserve(count);
        for (handle, local) in self.source.local_variables.iter() {
            let span = self.source.local_variables.span(handle);
            self.locals
                .push(out.local_variables.append(local.clone(), span));
        }
    }

    /// Renames the local and the operands of `expression`, a source expression (not an
    /// argument) being appended to the function built.
    fn rename(&self, expression: &mut Expression) {
        if let Expression::LocalVariable(local) = expression {
            if let Some(&new) = self.locals.get(local.index()) {
                *local = new;
            }
        }
        expression.map_operands(|operand| self.expression(operand));
    }

    /// [`Copy::locals_into`] for `locals`, the source's own, taken from it.
    fn locals_from(&mut self, out: &mut Function, locals: Arena<LocalVariable>) {
        let start = out.local_variables.len();
        self.locals
            .extend((start..start + locals.len()).map(Handle::from_index));
        let all = 0..locals.len();
        out.local_variables.append_runs(locals, &[all]);
    }

    /// Renames the statements of `block`, a moved body's (see [`Call::Move`]), in place:
    /// what [`Inliner::block_into`] makes of a body whose calls all stay, `return`s
    /// going where [`Copy::target`] says. Recurses once per level of nesting, which
    /// flattened bodies keep within [`MAX_NESTING`].
    fn rename_block(&mut self, block: &mut Block) {
        let mut index = 0;
        while let Some(statement) = block.get_mut(index) {
            index += 1;
            let Statement::Return { value } = *statement else {
                self.rename_statement(statement);
                continue;
            };
            let value = value.map(|h| self.expression(h));
            match self.target {
                ReturnTarget::Function => *statement = Statement::Return { value },
                ReturnTarget::End { result_used } => match (result_used, value) {
                    (true, Some(value)) => {
                        self.returned = Some(value);
                        *statement = Statement::Bind(value);
                    }
                    _ => {
                        index -= 1;
                        block.remove(index);
                    }
                },
                ReturnTarget::Wrapped { result } => {
                    *statement = Statement::Break;
                    if let (Some(pointer), Some(value)) = (result, value) {
                        block.insert(index - 1, Statement::Store { pointer, value });
                        index += 1;
                    }
                }
            }
        }
    }

    /// Renames the expressions of `statement` (not a `return`) in place, and the
    /// statements of its nested blocks, as [`Copy::rename_block`] does.
    fn rename_statement(&mut self, statement: &mut Statement) {
        match statement {
            Statement::Block(block) => self.rename_block(block),
            Statement::If { accept, reject, .. } => {
                self.rename_block(accept);
                self.rename_block(reject);
            }
            Statement::Switch { cases, .. } => {
                for case in cases {
                    self.rename_block(&mut case.body);
                }
            }
            Statement::Loop {
                body, continuing, ..
            } => {
                self.rename_block(body);
                self.rename_block(continuing);
            }
            _ => {}
        }
        statement.map_operands(|handle| self.expression(handle));
    }

    /// Appends the source's expressions to `out` in order, their operands, locals and
    /// arguments (`arguments`, the copied values or pointers) renamed: cloned, or
    /// `taken`, the source's own expressions and types taken from it (see
    /// [`Call::Move`]).
    ///
    /// An operand may come later in the arena than its user (a call's result replaced by
    /// the value its inlined body returns), so every expression gets its new handle
    /// first (the next free one, or the argument it stands for); the expressions are
    /// then appended, in runs between the arguments, and renamed in place.
    fn expressions_into(
        &mut self,
        out: &mut Function,
        arguments: &[Handle<Expression>],
        taken: Option<(Arena<Expression>, Vec<Handle<Type>>)>,
    ) {
        let source = self.source;
        let (expressions, types) = match &taken {
            Some((expressions, types)) => (expressions, types.as_slice()),
            None => (&source.expressions, source.expression_types.as_slice()),
        };
        let start = out.expressions.len();
        let mut next = start;
        // The runs of expressions between the arguments, which are not appended.
        let runs = &mut self.runs;
        let mut run = 0;
        self.expressions.reserve(expressions.len());
        // Found first, then the runs between them numbered in one go each.
        if !arguments.is_empty() {
            for (index, (_, expression)) in expressions.iter().enumerate() {
                if let Some(argument) = argument_of(expression, arguments) {
                    let end = next + (index - run);
                    self.expressions.extend((next..end).map(Handle::from_index));
                    self.expressions.push(argument);
                    next = end;
                    runs.push(run..index);
                    run = index + 1;
                }
            }
        }
        let end = next + (expressions.len() - run);
        self.expressions.extend((next..end).map(Handle::from_index));
        next = end;
        runs.push(run..expressions.len());
        out.reserve_expressions(next - start);
        for run in runs.iter() {
            if let Some(types) = types.get(run.clone()) {
                out.expression_types.extend_from_slice(types);
            }
        }
        match taken {
            Some((expressions, _)) => out.expressions.append_runs(expressions, runs),
            None => {
                for run in runs.iter() {
                    out.expressions.append_copies(
                        &source.expressions,
                        run.clone(),
                        |_, expression| expression.clone(),
                    );
                }
            }
        }
        out.expressions.rewrite_from(start, |before, expression| {
            self.rename(expression);
            // Operands that came before are final; a later one is not renamed yet, so
            // it is no literal.
            if let Some(literal) = crate::fold::literal_among(before, expression) {
                *expression = Expression::Literal(literal);
            }
        });
        debug_assert_eq!(out.expressions.len(), next);
    }
}

/// The parts of a moved body taken out of it (see [`Call::Move`]).
struct Taken {
    locals: Arena<LocalVariable>,
    expressions: Arena<Expression>,
    types: Vec<Handle<Type>>,
    statements: Block,
}

/// The caller's value or pointer that `expression` (of a callee) stands for, if it is
/// one of the callee's arguments.
fn argument_of(
    expression: &Expression,
    arguments: &[Handle<Expression>],
) -> Option<Handle<Expression>> {
    match *expression {
        Expression::FunctionArgument(index) => arguments.get(index as usize).copied(),
        _ => None,
    }
}

/// Builds flattened functions.
struct Inliner<'a> {
    module: &'a Module,
    /// Call sites of each function.
    sites: &'a [u32],
    /// The flattened functions, by handle index, once built.
    flat: &'a [Option<Flat>],
}

impl<'a> Inliner<'a> {
    /// The function `flat` holds: its flattened body, or the module's own; `None` once
    /// moved into its one call.
    fn function_of(&self, flat: &'a Flat) -> Option<&'a Function> {
        match &flat.body {
            Body::Original => self.module.functions.try_get(flat.handle),
            Body::Flattened(function) => Some(function),
            Body::Moved => None,
        }
    }

    /// Which calls of `function` to inline (callees already flattened); `None` when
    /// none is.
    fn plan(&self, function: &Function) -> Option<Plan> {
        let mut decide = Decide {
            function,
            size: function.expressions.len(),
            added: 0,
            locals: function.local_variables.len(),
            statements: function.body.len(),
            decisions: Vec::new(),
        };
        self.decide(&mut decide, &function.body, 0);
        if !decide.decisions.iter().any(|&(_, inline)| inline) {
            return None;
        }
        Some(Plan {
            calls: decide.decisions,
            size: decide.size.saturating_add(decide.added),
            locals: decide.locals,
            statements: decide.statements,
        })
    }

    /// `function` with its calls inlined as `calls` (in the order the copy meets them)
    /// says; `plan` counted the expressions, locals and top-level statements it will
    /// hold. The inlined calls' copies take their lists from `spare` and give them back.
    fn build(
        &self,
        function: &Function,
        calls: Vec<Call>,
        plan: &Plan,
        spare: &mut Spare,
    ) -> Function {
        let mut out = Function {
            name: function.name.clone(),
            arguments: function.arguments.clone(),
            result: function.result.clone(),
            ..Function::default()
        };
        // Room for the inlined bodies too.
        out.reserve_expressions(plan.size);
        out.local_variables.reserve(plan.locals);
        let mut copy = Copy {
            source: function,
            expressions: Vec::with_capacity(function.expressions.len()),
            locals: Vec::with_capacity(function.local_variables.len()),
            runs: Vec::new(),
            target: ReturnTarget::Function,
            returned: None,
        };
        copy.locals_into(&mut out);
        copy.expressions_into(&mut out, &[], None);
        let mut state = State {
            calls: calls.into_iter(),
            replaced: Vec::new(),
            spare,
        };
        let mut body = Vec::with_capacity(plan.statements);
        self.block_into(
            &mut out,
            &mut copy,
            &function.body,
            &mut state,
            false,
            &mut body,
        );
        out.body = body;
        // Expressions copied before an inlined call that use its result use the value
        // its body returned. Only the function's own expressions (the first ones) may:
        // an inlined body's refer to its own and to the call's arguments, which were
        // copied with the replacements made so far.
        if !state.replaced.is_empty() {
            let own = function.expressions.len();
            let mut replacement: Vec<Handle<Expression>> =
                (0..own).map(Handle::from_index).collect();
            for (from, to) in state.replaced {
                if let Some(slot) = replacement.get_mut(from.index()) {
                    *slot = to;
                }
            }
            for expression in out.expressions.iter_mut().take(own) {
                expression.map_operands(|h| replacement.get(h.index()).copied().unwrap_or(h));
            }
        }
        out
    }

    /// Decides, for each call of `block` (nested `depth` deep in `decide.function`) in
    /// the order the copy meets them, whether to inline it.
    fn decide(&self, decide: &mut Decide<'_>, block: &Block, depth: usize) {
        for statement in block {
            match statement {
                Statement::Call {
                    function: callee,
                    arguments,
                    result,
                } => {
                    // A pointer argument into memory other than a local (a hand-built
                    // IR's buffer element) is copied in and out by the call: keep it.
                    let local_pointers = arguments
                        .iter()
                        .all(|&argument| points_into_local_or_is_value(decide.function, argument));
                    let inline = local_pointers
                        && self.worth_inlining(*callee, result.is_some(), depth, decide);
                    if inline && depth == 0 {
                        decide.statements = decide
                            .statements
                            .saturating_add(self.statements_in_place(*callee, arguments.len()));
                    }
                    decide.decisions.push((*callee, inline));
                }
                Statement::Block(inner) => self.decide(decide, inner, depth + 1),
                Statement::If { accept, reject, .. } => {
                    self.decide(decide, accept, depth + 1);
                    self.decide(decide, reject, depth + 1);
                }
                Statement::Switch { cases, .. } => {
                    for case in cases {
                        self.decide(decide, &case.body, depth + 1);
                    }
                }
                Statement::Loop {
                    body, continuing, ..
                } => {
                    self.decide(decide, body, depth + 1);
                    self.decide(decide, continuing, depth + 1);
                }
                _ => {}
            }
        }
    }

    /// How many statements, at most, an inlined call of `callee` with `arguments`
    /// arguments leaves in the block it was in, beyond the call's own: a bind per
    /// argument, the callee's body (or the loop wrapping it) and the bind of its result.
    fn statements_in_place(&self, callee: Handle<Function>, arguments: usize) -> usize {
        let body = self
            .flat
            .get(callee.index())
            .and_then(Option::as_ref)
            .and_then(|flat| self.function_of(flat))
            .map_or(0, |function| function.body.len());
        arguments.saturating_add(body).saturating_add(1)
    }

    /// Whether a call of `callee` (whose result is used if `result_used`), nested `depth`
    /// deep, is inlined into the function `decide` walks, now of `decide.size`
    /// expressions; when it is, that size grows by the callee's expressions and
    /// `decide.locals` by its locals.
    fn worth_inlining(
        &self,
        callee: Handle<Function>,
        result_used: bool,
        depth: usize,
        decide: &mut Decide<'_>,
    ) -> bool {
        let Some(Some(flat)) = self.flat.get(callee.index()) else {
            return false;
        };
        // A wrapped body returns its value through a local, whose pointer type must exist.
        if flat.early_return && result_used && flat.result_pointer.is_none() {
            return false;
        }
        // Bodies nest no deeper than a function may (the writers recurse on nesting).
        if depth.saturating_add(flat.depth) > MAX_NESTING {
            return false;
        }
        let Some(function) = self.function_of(flat) else {
            return false;
        };
        let added = function.expressions.len();
        let once = self.sites.get(callee.index()) == Some(&1);
        let budget = if once {
            SINGLE_USE_BUDGET
        } else {
            EXPRESSION_BUDGET
        };
        let inline = flat.inlinable && decide.size.saturating_add(added) <= budget;
        if inline {
            decide.size = decide.size.saturating_add(added);
            decide.locals = decide.locals.saturating_add(function.local_variables.len());
            // The local a wrapped body returns its value through, and its pointer.
            if flat.early_return && result_used {
                decide.locals = decide.locals.saturating_add(1);
                decide.added = decide.added.saturating_add(1);
            }
        }
        inline
    }

    /// Copies `block` of `copy.source` into `out`; `in_loop`: whether the copy sits
    /// inside a loop of the function being built.
    fn block(
        &self,
        out: &mut Function,
        copy: &mut Copy<'_>,
        block: &Block,
        state: &mut State<'_>,
        in_loop: bool,
    ) -> Block {
        let mut result = Vec::with_capacity(block.len());
        self.block_into(out, copy, block, state, in_loop, &mut result);
        result
    }

    /// Copies `block` as [`Inliner::block`] does, appending its statements to `into`.
    fn block_into(
        &self,
        out: &mut Function,
        copy: &mut Copy<'_>,
        block: &Block,
        state: &mut State<'_>,
        in_loop: bool,
        into: &mut Block,
    ) {
        into.reserve(block.len());
        for statement in block {
            self.statement(out, copy, statement, state, in_loop, into);
        }
    }

    /// Copies one statement into `into`, inlining the call it is if so decided.
    fn statement(
        &self,
        out: &mut Function,
        copy: &mut Copy<'_>,
        statement: &Statement,
        state: &mut State<'_>,
        in_loop: bool,
        into: &mut Block,
    ) {
        let copied = match statement {
            Statement::Block(block) => {
                Statement::Block(self.block(out, copy, block, state, in_loop))
            }
            Statement::If {
                condition,
                accept,
                reject,
            } => Statement::If {
                condition: copy.expression(*condition),
                accept: self.block(out, copy, accept, state, in_loop),
                reject: self.block(out, copy, reject, state, in_loop),
            },
            Statement::Switch { selector, cases } => Statement::Switch {
                selector: copy.expression(*selector),
                cases: cases
                    .iter()
                    .map(|case| SwitchCase {
                        value: case.value,
                        body: self.block(out, copy, &case.body, state, in_loop),
                        fall_through: case.fall_through,
                    })
                    .collect(),
            },
            Statement::Loop {
                body,
                continuing,
                break_if,
            } => Statement::Loop {
                body: self.block(out, copy, body, state, true),
                continuing: self.block(out, copy, continuing, state, true),
                break_if: break_if.map(|h| copy.expression(h)),
            },
            Statement::Return { value } => {
                let value = value.map(|h| copy.expression(h));
                match copy.target {
                    ReturnTarget::Function => Statement::Return { value },
                    ReturnTarget::End { result_used } => {
                        if let (true, Some(value)) = (result_used, value) {
                            copy.returned = Some(value);
                            into.push(Statement::Bind(value));
                        }
                        return;
                    }
                    ReturnTarget::Wrapped { result } => {
                        if let (Some(pointer), Some(value)) = (result, value) {
                            into.push(Statement::Store { pointer, value });
                        }
                        Statement::Break
                    }
                }
            }
            Statement::Call {
                function,
                arguments,
                result,
            } => {
                let (flat, body) = match state.calls.next() {
                    Some(Call::Copy) => (self.flat.get(function.index()), None),
                    Some(Call::Move(body)) => (self.flat.get(function.index()), Some(body)),
                    _ => (None, None),
                };
                let Some(flat) = flat.and_then(Option::as_ref) else {
                    into.push(Statement::Call {
                        function: *function,
                        arguments: arguments.iter().map(|&a| copy.expression(a)).collect(),
                        result: result.map(|h| copy.expression(h)),
                    });
                    return;
                };
                let mut copied = emptied(&mut state.spare.arguments);
                copied.extend(arguments.iter().map(|&a| copy.expression(a)));
                let returned = self.inline_call(
                    out,
                    flat,
                    body,
                    &copied,
                    result.map(|h| copy.expression(h)),
                    in_loop,
                    into,
                    state,
                );
                state.spare.arguments = copied;
                // Later statements, and expressions already copied, use the value
                // returned in place of the call's result.
                if let (Some(result), Some(returned)) = (result, returned) {
                    let old = copy.expression(*result);
                    if let Some(slot) = copy.expressions.get_mut(result.index()) {
                        *slot = returned;
                    }
                    state.replaced.push((old, returned));
                }
                return;
            }
            // The statements without nested blocks: the same with their operands copied.
            Statement::Bind(_)
            | Statement::Break
            | Statement::Continue
            | Statement::Kill
            | Statement::Barrier(_)
            | Statement::Store { .. }
            | Statement::Atomic { .. }
            | Statement::ImageStore { .. } => {
                let mut copied = statement.clone();
                copied.map_operands(|handle| copy.expression(handle));
                copied
            }
        };
        into.push(copied);
    }

    /// Appends to `into` the body of `flat` called with `arguments` (already copied):
    /// `body`, its flattened body moved out of `flat` for this call ([`Call::Move`]), or
    /// else the body `flat` holds. `result` is the call's copied result expression, if
    /// used: with early returns it becomes a load of the local the returns store to;
    /// otherwise the value returned at the end stands for it, and is what this gives.
    /// The copy's lists come from `state`'s spare lists and go back to them.
    #[allow(clippy::too_many_arguments)]
    fn inline_call(
        &self,
        out: &mut Function,
        flat: &'a Flat,
        body: Option<Box<Function>>,
        arguments: &[Handle<Expression>],
        result: Option<Handle<Expression>>,
        in_loop: bool,
        into: &mut Block,
        state: &mut State<'_>,
    ) -> Option<Handle<Expression>> {
        let mut body = body;
        // A moved body's locals, expressions and statements are taken rather than
        // cloned; inside a loop, where its expressions are looked at again for the
        // locals to zero, it is copied like any other.
        let taken = match body.as_mut() {
            Some(body) if !in_loop => Some(Taken {
                locals: std::mem::take(&mut body.local_variables),
                expressions: std::mem::take(&mut body.expressions),
                types: std::mem::take(&mut body.expression_types),
                statements: std::mem::take(&mut body.body),
            }),
            _ => None,
        };
        let callee = match &body {
            Some(body) => body,
            None => self.function_of(flat)?,
        };
        // Value arguments are evaluated at the call, as before; pointers (locals of the
        // caller) are used as they are.
        for (&argument, &pointer) in arguments.iter().zip(&flat.pointer_arguments) {
            if !pointer {
                into.push(Statement::Bind(argument));
            }
        }
        let mut copy = Copy {
            source: callee,
            expressions: emptied(&mut state.spare.expressions),
            locals: emptied(&mut state.spare.locals),
            runs: emptied(&mut state.spare.runs),
            target: ReturnTarget::End {
                result_used: result.is_some(),
            },
            returned: None,
        };
        let (taken, mut statements) = match taken {
            Some(Taken {
                locals,
                expressions,
                types,
                statements,
            }) => {
                copy.locals_from(out, locals);
                (Some((expressions, types)), Some(statements))
            }
            None => {
                copy.locals_into(out);
                (None, None)
            }
        };
        // The returned value's local, and the call result as its load.
        if flat.early_return {
            let mut pointer = None;
            if let (Some(result), Some(returned), Some(pointer_ty)) =
                (result, &callee.result, flat.result_pointer)
            {
                let local = out.local_variables.append(
                    LocalVariable {
                        name: format!("{}_result", callee.name).into(),
                        ty: returned.ty,
                        init: None,
                    },
                    None,
                );
                let local = out.add_expression(Expression::LocalVariable(local), pointer_ty, None);
                if let Some(slot) = out.expressions.try_get_mut(result) {
                    *slot = Expression::Load { pointer: local };
                }
                pointer = Some(local);
            }
            copy.target = ReturnTarget::Wrapped { result: pointer };
        }
        copy.expressions_into(out, arguments, taken);
        // Inside a loop, the callee's locals start zeroed at each call, as a function's do.
        if in_loop {
            let zeroed = flat.zeroed_in_loop.get_or_init(|| zeroed_in_loop(callee));
            for &(handle, local) in zeroed {
                let (Some(&pointer), Some(variable)) = (
                    copy.expressions.get(handle.index()),
                    callee.local_variables.try_get(local),
                ) else {
                    continue;
                };
                let zero =
                    out.add_expression(Expression::ZeroValue(variable.ty), variable.ty, None);
                into.push(Statement::Store {
                    pointer,
                    value: zero,
                });
            }
        }
        // The body's own calls all stay (it is flattened already).
        let mut state = State {
            calls: Vec::new().into_iter(),
            replaced: Vec::new(),
            spare: state.spare,
        };
        let returned = if flat.early_return {
            let mut body = match statements {
                Some(mut statements) => {
                    copy.rename_block(&mut statements);
                    statements
                }
                None => {
                    let mut body = Vec::with_capacity(callee.body.len() + 1);
                    self.block_into(out, &mut copy, &callee.body, &mut state, true, &mut body);
                    body
                }
            };
            body.push(Statement::Break);
            into.push(Statement::Loop {
                body,
                continuing: Vec::new(),
                break_if: None,
            });
            if let Some(result) = result {
                into.push(Statement::Bind(result));
            }
            None
        } else {
            match statements.as_mut() {
                Some(statements) => {
                    copy.rename_block(statements);
                    into.append(statements);
                }
                None => self.block_into(out, &mut copy, &callee.body, &mut state, in_loop, into),
            }
            copy.returned
        };
        state.spare.expressions = copy.expressions;
        state.spare.locals = copy.locals;
        state.spare.runs = copy.runs;
        returned
    }
}

/// The walk of [`Inliner::decide`] over one function.
struct Decide<'a> {
    /// The function whose calls are decided.
    function: &'a Function,
    /// Its expressions, with those of the calls inlined so far.
    size: usize,
    /// The expressions the calls inlined so far add beyond their bodies' (which the
    /// budgets leave out).
    added: usize,
    /// Its locals, with those of the calls inlined so far.
    locals: usize,
    /// The statements of its body's top level, with those the calls inlined there so
    /// far leave in their place ([`Inliner::statements_in_place`]).
    statements: usize,
    /// Each call's callee and whether to inline it, in the order the copy meets them.
    decisions: Vec<(Handle<Function>, bool)>,
}

/// What [`Inliner::plan`] decided for one function.
struct Plan {
    /// Each call's callee and whether to inline it, in the order the copy meets them.
    calls: Vec<(Handle<Function>, bool)>,
    /// How many expressions the function will hold (at least).
    size: usize,
    /// How many locals it will hold.
    locals: usize,
    /// How many statements, at most, the top level of its body will hold.
    statements: usize,
}

/// What flattening a function does with one of its calls.
enum Call {
    /// The call stays.
    Keep,
    /// The callee's body (flattened or the module's own) is copied in its place.
    Copy,
    /// The callee's flattened body, which no other call inlines (it is called from this
    /// one place), is moved in its place: its expressions and locals are taken rather
    /// than cloned.
    Move(Box<Function>),
}

/// The decisions and replacements of one flattening.
struct State<'s> {
    /// What to do with each call, in the order the walk meets them.
    calls: std::vec::IntoIter<Call>,
    /// Call results (copied) and the values returned that replace them.
    replaced: Vec<(Handle<Expression>, Handle<Expression>)>,
    /// The lists of the inlined calls' copies, lent by [`Flattened::new`] to every
    /// flattening.
    spare: &'s mut Spare,
}

/// The lists an inlined call's copy fills, kept (emptied) between the calls of a
/// flattening and from one flattening to the next, so that inlining a call allocates
/// none of them.
#[derive(Default)]
struct Spare {
    /// See [`Copy::expressions`].
    expressions: Vec<Handle<Expression>>,
    /// See [`Copy::locals`].
    locals: Vec<Handle<LocalVariable>>,
    /// See [`Copy::runs`].
    runs: Vec<std::ops::Range<usize>>,
    /// The call's arguments, copied.
    arguments: Vec<Handle<Expression>>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expression::{BinaryOperator, Literal};
    use crate::module::{EntryPoint, FunctionArgument, FunctionResult, ShaderStage};
    use crate::types::Scalar;

    /// `uint NAME(uint x)` whose body `build` writes, given the argument.
    fn helper(
        module: &mut Module,
        name: &str,
        build: impl FnOnce(&mut Function, Handle<Expression>),
    ) -> Handle<Function> {
        let uint = module.type_handle(TypeInner::Scalar(Scalar::U32));
        let mut function = Function {
            name: name.into(),
            arguments: vec![FunctionArgument {
                name: "x".into(),
                ty: uint,
                binding: None,
            }],
            result: Some(FunctionResult {
                ty: uint,
                binding: None,
            }),
            ..Function::default()
        };
        let x = function.add_expression(Expression::FunctionArgument(0), uint, None);
        build(&mut function, x);
        module.functions.append(function, None)
    }

    /// Appends `Call callee(argument)` to `function`'s body and gives its result.
    fn call(
        function: &mut Function,
        callee: Handle<Function>,
        argument: Handle<Expression>,
    ) -> Handle<Expression> {
        let ty = function.type_of(argument);
        let result = function.add_expression(Expression::CallResult(callee), ty, None);
        function.body.push(Statement::Call {
            function: callee,
            arguments: vec![argument],
            result: Some(result),
        });
        result
    }

    /// `left op right` in `function`.
    fn binary(
        function: &mut Function,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Handle<Expression> {
        let ty = function.type_of(left);
        function.add_expression(Expression::Binary { op, left, right }, ty, None)
    }

    /// An entry point calling `callee` with a constant and returning nothing.
    fn entry_calling(module: &mut Module, callee: Handle<Function>) {
        let uint = module.type_handle(TypeInner::Scalar(Scalar::U32));
        let mut function = Function::default();
        let seven = function.add_expression(Expression::Literal(Literal::U32(7)), uint, None);
        let result = call(&mut function, callee, seven);
        function.body.push(Statement::Bind(result));
        module.entry_points.push(EntryPoint {
            name: "main".into(),
            stage: ShaderStage::Compute,
            workgroup_size: [1, 1, 1],
            function,
            span: None,
        });
    }

    fn calls(function: &Function) -> usize {
        let mut calls = 0;
        crate::analysis::walk_statements(&function.body, &mut |statement| {
            calls += usize::from(matches!(statement, Statement::Call { .. }));
        });
        calls
    }

    /// Entry point 0 of a module inlined, owned.
    struct Main {
        function: Function,
        helpers: Vec<Handle<Function>>,
    }

    fn inline_main(module: &Module) -> Main {
        let info = ModuleInfo::new(module);
        let inlined = inline_entry_point(module, &info, 0).expect("an entry point");
        Main {
            function: inlined.function.clone(),
            helpers: inlined.helpers,
        }
    }

    /// A chain of helpers each called once, longer than any nesting limit, inlines whole
    /// without recursing per level.
    #[test]
    fn a_long_chain_inlines_whole() {
        let mut module = Module::default();
        let mut previous = helper(&mut module, "f0", |f, x| {
            f.body.push(Statement::Return { value: Some(x) })
        });
        for level in 1..300 {
            let callee = previous;
            previous = helper(&mut module, &format!("f{level}"), |f, x| {
                let result = call(f, callee, x);
                let one =
                    f.add_expression(Expression::Literal(Literal::U32(1)), f.type_of(x), None);
                let sum = binary(f, BinaryOperator::Add, result, one);
                f.body.push(Statement::Return { value: Some(sum) });
            });
        }
        entry_calling(&mut module, previous);
        let inlined = inline_main(&module);
        assert_eq!(calls(&inlined.function), 0);
        assert!(inlined.helpers.is_empty());
    }

    /// A chain of single-use helpers of 1,000 expressions each, longer than
    /// [`SINGLE_USE_BUDGET`] allows in one function: inlining stops at the budget and
    /// the rest stay calls.
    #[test]
    fn single_use_helpers_stop_at_their_budget() {
        const LEVELS: usize = 100;
        const SIZE: usize = 1000;
        let mut module = Module::default();
        let mut previous = helper(&mut module, "f0", |f, x| {
            f.body.push(Statement::Return { value: Some(x) })
        });
        for level in 1..LEVELS {
            let callee = previous;
            previous = helper(&mut module, &format!("f{level}"), |f, x| {
                let mut value = call(f, callee, x);
                for _ in 0..SIZE {
                    value = binary(f, BinaryOperator::Add, value, x);
                }
                f.body.push(Statement::Return { value: Some(value) });
            });
        }
        entry_calling(&mut module, previous);
        let inlined = inline_main(&module);
        assert!(calls(&inlined.function) > 0);
        assert!(!inlined.helpers.is_empty());
        assert!(inlined.function.expressions.len() <= SINGLE_USE_BUDGET + 2 * SIZE);
    }

    /// Helpers that call the one below twice would double at every level: past the
    /// budget the calls stay, and the helpers they call are listed.
    #[test]
    fn repeated_calls_stop_at_the_budget() {
        let mut module = Module::default();
        let mut previous = helper(&mut module, "g0", |f, x| {
            let two = f.add_expression(Expression::Literal(Literal::U32(2)), f.type_of(x), None);
            let product = binary(f, BinaryOperator::Multiply, x, two);
            f.body.push(Statement::Return {
                value: Some(product),
            });
        });
        for level in 1..40 {
            let callee = previous;
            previous = helper(&mut module, &format!("g{level}"), |f, x| {
                let first = call(f, callee, x);
                let second = call(f, callee, first);
                f.body.push(Statement::Return {
                    value: Some(second),
                });
            });
        }
        entry_calling(&mut module, previous);
        let inlined = inline_main(&module);
        assert!(inlined.function.expressions.len() <= 2 * EXPRESSION_BUDGET);
        assert!(calls(&inlined.function) > 0);
        assert!(!inlined.helpers.is_empty());
    }

    /// A `return` before the end wraps the body in a loop that runs once, and the call's
    /// result is loaded from the local each `return` stores to.
    #[test]
    fn an_early_return_breaks_out_of_a_loop() {
        let mut module = Module::default();
        let uint = module.type_handle(TypeInner::Scalar(Scalar::U32));
        module.type_handle(TypeInner::Pointer {
            base: uint,
            space: AddressSpace::Function,
        });
        let callee = helper(&mut module, "h", |f, x| {
            let one = f.add_expression(Expression::Literal(Literal::U32(1)), uint, None);
            let big = binary(f, BinaryOperator::Greater, x, one);
            let five = f.add_expression(Expression::Literal(Literal::U32(5)), uint, None);
            f.body.push(Statement::If {
                condition: big,
                accept: vec![Statement::Return { value: Some(five) }],
                reject: Vec::new(),
            });
            f.body.push(Statement::Return { value: Some(x) });
        });
        entry_calling(&mut module, callee);
        let inlined = inline_main(&module);
        assert_eq!(calls(&inlined.function), 0);
        let mut loops = 0;
        let mut breaks = 0;
        crate::analysis::walk_statements(&inlined.function.body, &mut |statement| {
            loops += usize::from(matches!(statement, Statement::Loop { .. }));
            breaks += usize::from(matches!(statement, Statement::Break));
        });
        assert_eq!((loops, breaks), (1, 3));
        assert_eq!(inlined.function.local_variables.len(), 1);
    }
}
