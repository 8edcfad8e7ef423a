//! Inlining: an entry point's function with the calls of its helpers replaced by the
//! helpers' bodies, as DXC (spirv-opt's legalization) and glslang write SPIR-V.
//!
//! Every function of the module is flattened once for all its entry points
//! ([`Flattened`]), callees before callers, so inlining a call copies an already
//! flattened body one level deep: a long call chain costs no Rust stack beyond the
//! nesting of one body. A flattened body that only one call inlines (a helper called
//! from one place) is moved into its caller, renamed in place, rather than copied; one
//! that returns only at its end is built straight into its caller instead, unless the
//! call sits in a loop or the body has such a body of its own to build. A call is
//! inlined when its callee is called from one place of the module only and the
//! flattened caller stays within [`SINGLE_USE_BUDGET`] expressions, or when it stays
//! within [`EXPRESSION_BUDGET`]; otherwise the call stays, and so does the callee
//! (written unchanged, with whatever it calls). Repeated calls of large helpers thus
//! never grow a function exponentially, and a generated shader of thousands of helpers
//! does not become one function of millions of expressions.
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

use std::cell::OnceCell;
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
/// ([`Call::Move`]), or built there ([`Call::Build`]), which is why the entry points
/// are flattened here, once, too.
#[derive(Clone, Debug, Default)]
pub struct Flattened {
    /// Each entry point flattened, by entry point index; `None` where nothing was
    /// inlined.
    entries: Vec<Option<Flattening>>,
}

/// A function with calls inlined, as [`Prepared::build`] gives it.
#[derive(Clone, Debug, PartialEq)]
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
        Flattened::with(module, info, true)
    }

    /// [`Flattened::new`]; `defer`: whether bodies may be built in place of their call
    /// ([`Body::Deferred`]), rather than built alone and moved there (which gives the
    /// same functions).
    fn with(module: &Module, info: &ModuleInfo, defer: bool) -> Flattened {
        let count = module.functions.len();
        let all: Vec<Handle<Function>> = (0..count).map(Handle::from_index).collect();
        let mut flat: Vec<Option<Flat>> = (0..count).map(|_| None).collect();
        let mut spare = Spare::default();
        for handle in post_order(info, &all, count) {
            let Some(function) = module.functions.try_get(handle) else {
                continue;
            };
            let done =
                flatten_function(module, info, &mut flat, &mut spare, handle, function, defer);
            if let Some(slot) = flat.get_mut(handle.index()) {
                *slot = Some(done);
            }
        }
        let entries = module
            .entry_points
            .iter()
            .map(|entry| {
                let prepared = prepare(module, info, &mut flat, &entry.function, false)?;
                Some(prepared.build(module, info, &flat, &mut spare, &entry.function))
            })
            .collect();
        Flattened { entries }
    }
}

/// The module's function `handle` (`function`, its callees already in `flat`) as calls
/// of it inline it. A function called from one place that returns only at its end is
/// left to be built in place of that call ([`Body::Deferred`]) rather than built here
/// and moved there, unless one of its own calls is such a body (so that building one
/// in place never builds another inside it); what its callers' decisions read of the
/// flattened body is counted without building it. `defer`: whether to leave any.
fn flatten_function(
    module: &Module,
    info: &ModuleInfo,
    flat: &mut [Option<Flat>],
    spare: &mut Spare,
    handle: Handle<Function>,
    function: &Function,
    defer: bool,
) -> Flat {
    let shape = Shape::of(function);
    let once = info.call_sites().get(handle.index()) == Some(&1);
    let deferrable = defer && once && !shape.early_return;
    // A function that calls nothing has nothing to decide.
    let calls = !info.callees(handle).is_empty();
    let prepared = calls
        .then(|| prepare(module, info, flat, function, deferrable))
        .flatten();
    let Some(prepared) = prepared else {
        let size = Size::of(function);
        return Flat::new(
            module,
            handle,
            function,
            Body::Original,
            Vec::new(),
            shape,
            size,
        );
    };
    // Inlining a body left to build in place leaves `Plan::exact` unknown, so a function
    // deferred here has no such body of its own to build.
    debug_assert!(
        prepared.plan.exact.is_none()
            || !prepared
                .calls
                .iter()
                .any(|call| matches!(call, Call::Build(_))),
        "a function counted exactly builds no body in place"
    );
    match prepared.plan.exact {
        Some(expressions) if deferrable => {
            let nesting = shape.nesting.max(prepared.plan.nesting);
            let size = Size {
                expressions,
                locals: prepared.plan.locals,
                statements: prepared.plan.statements,
            };
            let deferred = Deferred {
                calls: prepared.calls,
                plan: prepared.plan,
            };
            Flat::new(
                module,
                handle,
                function,
                Body::Deferred(Box::new(deferred)),
                prepared.still_calls,
                Shape { nesting, ..shape },
                size,
            )
        }
        _ => {
            let flattening = prepared.build(module, info, flat, spare, function);
            Flat::of(module, handle, function, flattening)
        }
    }
}

/// What flattening a function decided, before the function is built.
struct Prepared {
    /// Which calls to inline, and how big the function will be.
    plan: Plan,
    /// What to do with each call, in the order the copy meets them.
    calls: Vec<Call>,
    /// The functions it still calls ([`Flattening::calls`]).
    still_calls: Vec<Handle<Function>>,
}

/// Which calls of `function` (its callees already in `flat`) to inline, and how:
/// `None` when none is. The flattened bodies of the callees that only this call inlines
/// (called from one place, [`ModuleInfo::call_sites`]) are moved out of `flat`.
/// `exact`: whether to count the expressions the function will hold exactly
/// ([`Plan::exact`]).
fn prepare(
    module: &Module,
    info: &ModuleInfo,
    flat: &mut [Option<Flat>],
    function: &Function,
    exact: bool,
) -> Option<Prepared> {
    let sites = info.call_sites();
    let inliner = Inliner {
        module,
        sites,
        flat,
    };
    let mut plan = inliner.plan(function, exact)?;
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
                    Body::Deferred(deferred) => Call::Build(deferred),
                    other => {
                        flat.body = other;
                        Call::Copy
                    }
                },
                _ => Call::Copy,
            }
        })
        .collect();
    Some(Prepared {
        plan,
        calls,
        still_calls,
    })
}

impl Prepared {
    /// `function` flattened as decided. The lists of the copies come from `spare` and
    /// go back to it.
    fn build(
        self,
        module: &Module,
        info: &ModuleInfo,
        flat: &[Option<Flat>],
        spare: &mut Spare,
        function: &Function,
    ) -> Flattening {
        let inliner = Inliner {
            module,
            sites: info.call_sites(),
            flat,
        };
        Flattening {
            function: inliner.build(function, self.calls, &self.plan, spare),
            calls: self.still_calls,
        }
    }
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
struct Flat {
    /// The body calls of it inline.
    body: Body,
    /// The module's function.
    handle: Handle<Function>,
    /// The functions its flattened body still calls ([`Flattening::calls`]); empty
    /// for [`Body::Original`], whose calls are the module's function's.
    calls: Vec<Handle<Function>>,
    /// How big its flattened body is.
    size: Size,
    /// Whether calls of it may be inlined: no `return` inside its own loops or switches,
    /// no local with an initialiser.
    inlinable: bool,
    /// Whether a `return` comes before the end of its body (the body is then wrapped).
    early_return: bool,
    /// For a body with early returns, the type of a Function-space pointer to its
    /// result, if the module has one.
    result_pointer: Option<Handle<Type>>,
    /// How deep its statements nest (a statement of the body's top level is at 0),
    /// counting the loop around a body with early returns.
    depth: usize,
    /// The locals an inlined copy inside a loop must zero first, as a call's locals
    /// start zeroed: those the body may read before storing them whole, each with its
    /// first `LocalVariable` expression, in expression order; worked out when a copy
    /// inside a loop, or the count of a caller's expressions, first needs it
    /// ([`zeroed_in_loop`]).
    zeroed_in_loop: OnceLock<Vec<(Handle<Expression>, Handle<LocalVariable>)>>,
    /// Where the argument expressions of the body calls copy are, worked out when the
    /// count of a caller's expressions or a copy first needs it.
    arguments: OnceCell<ArgumentExpressions>,
}

impl Flat {
    /// `original` (the module's function `handle`) as `flattened`.
    fn of(
        module: &Module,
        handle: Handle<Function>,
        original: &Function,
        flattened: Flattening,
    ) -> Self {
        let Flattening { function, calls } = flattened;
        let shape = Shape::of(&function);
        let size = Size::of(&function);
        let body = Body::Flattened(Box::new(function));
        Flat::new(module, handle, original, body, calls, shape, size)
    }

    /// The module's function `handle`, `original`, flattened as `body`, which calls
    /// `calls`, has the shape `shape` and the size `size`. (Its arguments, result and
    /// whether a local has an initialiser are the original's: the locals of inlined
    /// bodies have none.)
    fn new(
        module: &Module,
        handle: Handle<Function>,
        original: &Function,
        body: Body,
        calls: Vec<Handle<Function>>,
        shape: Shape,
        size: Size,
    ) -> Self {
        let has_init = original
            .local_variables
            .iter()
            .any(|(_, local)| local.init.is_some());
        let result_pointer = original.result.as_ref().filter(|_| shape.early_return);
        let result_pointer = result_pointer.and_then(|result| {
            module.types.get(&Type {
                name: None,
                inner: TypeInner::Pointer {
                    base: result.ty,
                    space: AddressSpace::Function,
                },
            })
        });
        let depth = shape
            .nesting
            .saturating_add(usize::from(shape.early_return));
        let inlinable = !has_init && !shape.nested_return;
        Flat {
            handle,
            calls,
            size,
            depth,
            zeroed_in_loop: OnceLock::new(),
            arguments: OnceCell::new(),
            inlinable,
            early_return: shape.early_return,
            result_pointer,
            body,
        }
    }
}

/// How big a flattened body is: what the decisions to inline it read.
#[derive(Clone, Copy)]
struct Size {
    /// Its expressions.
    expressions: usize,
    /// Its locals.
    locals: usize,
    /// The statements of its top level (at most, for [`Body::Deferred`]).
    statements: usize,
}

impl Size {
    /// The size of `function`.
    fn of(function: &Function) -> Size {
        Size {
            expressions: function.expressions.len(),
            locals: function.local_variables.len(),
            statements: function.body.len(),
        }
    }
}

/// The body a [`Flat`] inlines.
enum Body {
    /// The module's own function: flattening changed nothing.
    Original,
    /// The function flattened.
    Flattened(Box<Function>),
    /// Not built yet: the one call of it (the function is called from one place) builds
    /// it in its place ([`Call::Build`]).
    Deferred(Box<Deferred>),
    /// Moved into the one call of it ([`Call::Move`], [`Call::Build`]): nothing else
    /// inlines it.
    Moved,
}

/// A flattened body left to build in place of the one call of it.
struct Deferred {
    /// What to do with each of its calls, in the order the copy meets them.
    calls: Vec<Call>,
    /// How big it is (what [`Inliner::build`] reserves, when it is built alone).
    plan: Plan,
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
                    statement.for_each_operand(|root| roots.push(root));
                    let mut nested = |block: &Block| {
                        crate::analysis::walk_statements(block, &mut |s| {
                            s.for_each_operand(|root| roots.push(root))
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

/// What [`Flat::new`] needs to know of a body's statements, found in one walk.
#[derive(Clone, Copy, Default)]
struct Shape {
    /// How many `return`s the body holds, at any depth.
    returns: usize,
    /// Whether a `return` sits inside a loop or switch at any depth (inside nested
    /// blocks and `if`s too).
    nested_return: bool,
    /// Whether a `return` comes before the end of the body.
    early_return: bool,
    /// How deep its statements nest (a statement of the body's top level is at 0).
    nesting: usize,
}

impl Shape {
    /// The shape of `function`'s body.
    fn of(function: &Function) -> Shape {
        let mut shape = Shape::default();
        shape.nesting = shape.walk(&function.body, false);
        let last_returns = matches!(function.body.last(), Some(Statement::Return { .. }));
        shape.early_return = shape.returns > usize::from(last_returns);
        shape
    }

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
    ///
    /// `own`: the source is the module's function being flattened, copied first into
    /// `out` (empty but for its locals): its expressions and locals keep their handles,
    /// and it was folded as it was built (the front end folds each expression), so
    /// renaming and folding would change nothing, and are skipped.
    fn expressions_into(
        &mut self,
        out: &mut Function,
        arguments: &[Handle<Expression>],
        taken: Option<(Arena<Expression>, Vec<Handle<Type>>)>,
        own: bool,
    ) {
        self.expressions_with_arguments_before(out, arguments, usize::MAX, taken, own);
    }

    /// [`Copy::expressions_into`] for a source whose argument expressions all come
    /// before index `arguments_end` ([`ArgumentExpressions::end`]; `usize::MAX` when not
    /// known).
    fn expressions_with_arguments_before(
        &mut self,
        out: &mut Function,
        arguments: &[Handle<Expression>],
        arguments_end: usize,
        taken: Option<(Arena<Expression>, Vec<Handle<Type>>)>,
        own: bool,
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
            for (index, (_, expression)) in expressions.iter().enumerate().take(arguments_end) {
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
        if own {
            debug_assert!(start == 0 && arguments.is_empty());
        } else {
            fold_from(out, start, Some(self));
        }
        debug_assert_eq!(out.expressions.len(), next);
    }
}

/// Folds the expressions of `out` from `start` on, in order, each renamed by `copy`
/// first if given: an operand that came before is final; a later one is not renamed
/// yet, so it is no literal.
///
/// One function for both uses, kept out of line, so that the fold it calls is inlined
/// into this one loop rather than called for every expression.
#[inline(never)]
fn fold_from(out: &mut Function, start: usize, copy: Option<&Copy<'_>>) {
    out.expressions.rewrite_from(start, |before, expression| {
        if let Some(copy) = copy {
            copy.rename(expression);
        }
        if let Some(literal) = crate::fold::literal_among(before, expression) {
            *expression = Expression::Literal(literal);
        }
    });
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
    /// The function `flat` holds: its flattened body, or the module's own; `None` while
    /// not built, and once moved into its one call.
    fn function_of(&self, flat: &'a Flat) -> Option<&'a Function> {
        match &flat.body {
            Body::Original => self.module.functions.try_get(flat.handle),
            Body::Flattened(function) => Some(function),
            Body::Deferred(_) | Body::Moved => None,
        }
    }

    /// Which calls of `function` to inline (callees already flattened); `None` when
    /// none is. `exact`: whether to count its expressions exactly ([`Plan::exact`]).
    fn plan(&self, function: &Function, exact: bool) -> Option<Plan> {
        let mut decide = Decide {
            function,
            size: function.expressions.len(),
            added: 0,
            locals: function.local_variables.len(),
            statements: function.body.len(),
            exact: exact.then_some(function.expressions.len()),
            nesting: 0,
            decisions: Vec::new(),
        };
        self.decide(&mut decide, &function.body, 0, false);
        if !decide.decisions.iter().any(|&(_, inline)| inline) {
            return None;
        }
        Some(Plan {
            calls: decide.decisions,
            size: decide.size.saturating_add(decide.added),
            locals: decide.locals,
            statements: decide.statements,
            exact: decide.exact,
            nesting: decide.nesting,
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
        copy.expressions_into(&mut out, &[], None, true);
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
        // its body returned.
        replace_results(&mut out, 0..function.expressions.len(), &state.replaced);
        out
    }

    /// Inlines a call of `flat`, whose flattened body is not built yet
    /// ([`Body::Deferred`]), outside a loop, as [`Inliner::inline_call`] would inline the
    /// flattened body: the module's function is copied into `out`, its body into
    /// `into`, inlining its own calls as `calls` says. Bodies that are deferred return
    /// only at their end: the value returned stands for the call's `result`, and is what
    /// this gives.
    #[allow(clippy::too_many_arguments)]
    fn build_in_place(
        &self,
        out: &mut Function,
        flat: &'a Flat,
        calls: Vec<Call>,
        arguments: &[Handle<Expression>],
        result: Option<Handle<Expression>>,
        into: &mut Block,
        state: &mut State<'_>,
    ) -> Option<Handle<Expression>> {
        let function = self.module.functions.try_get(flat.handle)?;
        self.bind_values(flat, arguments, into);
        let mut copy = state.spare.copy_to_end(function, result.is_some());
        copy.locals_into(out);
        let start = out.expressions.len();
        copy.expressions_into(out, arguments, None, false);
        let own = start..out.expressions.len();
        let mut inner = State {
            calls: calls.into_iter(),
            replaced: Vec::new(),
            spare: state.spare,
        };
        self.block_into(out, &mut copy, &function.body, &mut inner, false, into);
        debug_assert_eq!(
            out.expressions.len() - start,
            flat.size.expressions - bound_arguments(function, arguments.len()),
            "the size counted for a deferred body"
        );
        // Expressions that use a result replaced by a literal may fold now, and so may
        // those after them that use these: folded again in order, as the body built
        // alone would be when moved here (see [`Copy::expressions_into`]).
        let literal = inner.replaced.iter().any(|&(_, value)| {
            matches!(out.expressions.try_get(value), Some(Expression::Literal(_)))
        });
        replace_results(out, own, &inner.replaced);
        if literal {
            fold_from(out, start, None);
        }
        state.spare.keep(copy)
    }

    /// Decides, for each call of `block` (nested `depth` deep in `decide.function`,
    /// inside a loop if `in_loop`) in the order the copy meets them, whether to inline
    /// it.
    fn decide(&self, decide: &mut Decide<'_>, block: &Block, depth: usize, in_loop: bool) {
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
                    // A result that is not one of the function's call results (malformed
                    // IR) would have the inlined body rewrite whatever expression it names.
                    let own_result = result.is_none_or(|result| {
                        matches!(
                            decide.function.expressions.try_get(result),
                            Some(Expression::CallResult(_))
                        )
                    });
                    let inline = local_pointers
                        && own_result
                        && self.worth_inlining(
                            *callee,
                            result.is_some(),
                            arguments.len(),
                            depth,
                            in_loop,
                            decide,
                        );
                    if inline && depth == 0 {
                        decide.statements = decide
                            .statements
                            .saturating_add(self.statements_in_place(*callee, arguments.len()));
                    }
                    decide.decisions.push((*callee, inline));
                }
                Statement::Block(inner) => self.decide(decide, inner, depth + 1, in_loop),
                Statement::If { accept, reject, .. } => {
                    self.decide(decide, accept, depth + 1, in_loop);
                    self.decide(decide, reject, depth + 1, in_loop);
                }
                Statement::Switch { cases, .. } => {
                    for case in cases {
                        self.decide(decide, &case.body, depth + 1, in_loop);
                    }
                }
                Statement::Loop {
                    body, continuing, ..
                } => {
                    self.decide(decide, body, depth + 1, true);
                    self.decide(decide, continuing, depth + 1, true);
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
            .map_or(0, |flat| flat.size.statements);
        arguments.saturating_add(body).saturating_add(1)
    }

    /// Whether a call of `callee` with `arguments` arguments (whose result is used if
    /// `result_used`), nested `depth` deep (inside a loop if `in_loop`), is inlined into
    /// the function `decide` walks, now of `decide.size` expressions; when it is, that
    /// size grows by the callee's expressions, `decide.locals` by its locals,
    /// `decide.nesting` to the depth its body reaches, and `decide.exact` (while
    /// counted) by what [`Inliner::exact_size`] says.
    fn worth_inlining(
        &self,
        callee: Handle<Function>,
        result_used: bool,
        arguments: usize,
        depth: usize,
        in_loop: bool,
        decide: &mut Decide<'_>,
    ) -> bool {
        let Some(Some(flat)) = self.flat.get(callee.index()) else {
            return false;
        };
        if matches!(flat.body, Body::Moved) {
            return false;
        }
        // A wrapped body returns its value through a local, whose pointer type must exist.
        if flat.early_return && result_used && flat.result_pointer.is_none() {
            return false;
        }
        // Bodies nest no deeper than a function may (the writers recurse on nesting).
        if depth.saturating_add(flat.depth) > MAX_NESTING {
            return false;
        }
        let added = flat.size.expressions;
        let once = self.sites.get(callee.index()) == Some(&1);
        let budget = if once {
            SINGLE_USE_BUDGET
        } else {
            EXPRESSION_BUDGET
        };
        let inline = flat.inlinable && decide.size.saturating_add(added) <= budget;
        if inline {
            decide.size = decide.size.saturating_add(added);
            decide.locals = decide.locals.saturating_add(flat.size.locals);
            decide.nesting = decide.nesting.max(depth.saturating_add(flat.depth));
            if let Some(exact) = decide.exact {
                decide.exact = self
                    .exact_size(flat, result_used, arguments, in_loop)
                    .map(|added| exact.saturating_add(added));
            }
            // The local a wrapped body returns its value through, and its pointer.
            if flat.early_return && result_used {
                decide.locals = decide.locals.saturating_add(1);
                decide.added = decide.added.saturating_add(1);
            }
        }
        inline
    }

    /// Binds, in `into`, the value arguments of a call of `flat` (already copied): they
    /// are evaluated at the call, as before; pointers (`out`/`inout` arguments, locals
    /// of the caller) are used as they are.
    fn bind_values(&self, flat: &Flat, arguments: &[Handle<Expression>], into: &mut Block) {
        let Some(callee) = self.module.functions.try_get(flat.handle) else {
            return;
        };
        for (&argument, parameter) in arguments.iter().zip(&callee.arguments) {
            if !is_pointer(self.module, parameter.ty) {
                into.push(Statement::Bind(argument));
            }
        }
    }

    /// How many expressions inlining a call of `flat` with `arguments` arguments (whose
    /// result is used if `result_used`, inside a loop if `in_loop`) adds exactly: its
    /// body's, less the arguments it refers to (the caller's values or pointers), with
    /// the pointer to the local a wrapped body returns through and, inside a loop, the
    /// zeros of its locals. `None` for a body not built yet, or a call whose arguments
    /// or result do not match the callee's.
    fn exact_size(
        &self,
        flat: &'a Flat,
        result_used: bool,
        arguments: usize,
        in_loop: bool,
    ) -> Option<usize> {
        let function = match flat.body {
            Body::Original | Body::Flattened(_) => self.function_of(flat)?,
            Body::Deferred(_) | Body::Moved => return None,
        };
        if function.arguments.len() != arguments || (result_used && function.result.is_none()) {
            return None;
        }
        let bound = flat
            .arguments
            .get_or_init(|| ArgumentExpressions::of(function))
            .count;
        let zeros = if in_loop {
            flat.zeroed_in_loop
                .get_or_init(|| zeroed_in_loop(function))
                .len()
        } else {
            0
        };
        let returned = usize::from(flat.early_return && result_used);
        Some(function.expressions.len() - bound + returned + zeros)
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
                let inlined = match state.calls.next() {
                    Some(Call::Keep) | None => None,
                    Some(call) => self
                        .flat
                        .get(function.index())
                        .and_then(Option::as_ref)
                        .map(|flat| (flat, call)),
                };
                let Some((flat, call)) = inlined else {
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
                    call,
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

    /// Appends to `into` the body of `flat` called with `arguments` (already copied), as
    /// `call` (not [`Call::Keep`]) says: the body `flat` holds, its flattened body moved
    /// out of `flat` for this call ([`Call::Move`]), or built here ([`Call::Build`]).
    /// `result` is the call's copied result expression, if used: with early returns it
    /// becomes a load of the local the returns store to; otherwise the value returned at
    /// the end stands for it, and is what this gives. The copy's lists come from
    /// `state`'s spare lists and go back to them.
    #[allow(clippy::too_many_arguments)]
    fn inline_call(
        &self,
        out: &mut Function,
        flat: &'a Flat,
        call: Call,
        arguments: &[Handle<Expression>],
        result: Option<Handle<Expression>>,
        in_loop: bool,
        into: &mut Block,
        state: &mut State<'_>,
    ) -> Option<Handle<Expression>> {
        let mut body = match call {
            Call::Keep | Call::Copy => None,
            Call::Move(body) => Some(body),
            // Inside a loop, where the locals to zero are found in the flattened body,
            // it is built alone first.
            Call::Build(deferred) if in_loop => {
                let original = self.module.functions.try_get(flat.handle)?;
                let built = self.build(original, deferred.calls, &deferred.plan, state.spare);
                Some(Box::new(built))
            }
            Call::Build(deferred) => {
                return self.build_in_place(
                    out,
                    flat,
                    deferred.calls,
                    arguments,
                    result,
                    into,
                    state,
                )
            }
        };
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
        self.bind_values(flat, arguments, into);
        let mut copy = state.spare.copy_to_end(callee, result.is_some());
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
        // A body copied for many calls is searched for its arguments once.
        let arguments_end = match (&body, &taken) {
            (None, None) => {
                flat.arguments
                    .get_or_init(|| ArgumentExpressions::of(callee))
                    .end
            }
            _ => usize::MAX,
        };
        copy.expressions_with_arguments_before(out, arguments, arguments_end, taken, false);
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
        state.spare.keep(copy);
        returned
    }
}

/// Where a function's argument expressions are, which an inlined copy does not append,
/// using the call's values or pointers instead (see [`argument_of`]).
#[derive(Clone, Copy)]
struct ArgumentExpressions {
    /// How many there are ([`bound_arguments`] for a call with as many arguments as the
    /// function has).
    count: usize,
    /// The index after the last one (of any argument index): a copy looks for them
    /// before it only.
    end: usize,
}

impl ArgumentExpressions {
    /// Where the argument expressions of `function` are.
    fn of(function: &Function) -> Self {
        let parameters = function.arguments.len();
        let mut found = ArgumentExpressions { count: 0, end: 0 };
        for (index, (_, expression)) in function.expressions.iter().enumerate() {
            if let Expression::FunctionArgument(argument) = *expression {
                found.end = index + 1;
                found.count += usize::from((argument as usize) < parameters);
            }
        }
        found
    }
}

/// How many of `function`'s expressions are its arguments, for a call with `arguments`
/// arguments: those an inlined copy does not append, using the call's values or
/// pointers instead (see [`argument_of`]).
fn bound_arguments(function: &Function, arguments: usize) -> usize {
    function
        .expressions
        .iter()
        .filter(|(_, expression)| {
            matches!(expression, Expression::FunctionArgument(index) if (*index as usize) < arguments)
        })
        .count()
}

/// Makes the expressions of `out` in `range` that use a call result `replaced` lists
/// use the value that replaced it (the value its inlined body returned): in a
/// flattened function, only the expressions copied from its own source (the ones
/// before its first inlined call's, `range`) may. An inlined body's refer to its own
/// and to the call's arguments, which were copied with the replacements made so far.
fn replace_results(
    out: &mut Function,
    range: std::ops::Range<usize>,
    replaced: &[(Handle<Expression>, Handle<Expression>)],
) {
    if replaced.is_empty() {
        return;
    }
    let start = range.start;
    let mut replacement: Vec<Handle<Expression>> = range.clone().map(Handle::from_index).collect();
    for &(from, to) in replaced {
        if let Some(slot) = from
            .index()
            .checked_sub(start)
            .and_then(|index| replacement.get_mut(index))
        {
            *slot = to;
        }
    }
    for expression in out.expressions.iter_mut().skip(start).take(range.len()) {
        expression.map_operands(|h| {
            h.index()
                .checked_sub(start)
                .and_then(|index| replacement.get(index))
                .copied()
                .unwrap_or(h)
        });
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
    /// Its expressions exactly, with those of the calls inlined so far, while counted
    /// (see [`Plan::exact`]).
    exact: Option<usize>,
    /// How deep the inlined bodies nest statements, so far.
    nesting: usize,
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
    /// How many expressions the function will hold exactly, if asked for and known: not
    /// when it was not asked for, when a body it inlines is not built yet
    /// ([`Body::Deferred`]), or when a call has more or fewer arguments than its callee,
    /// or uses a result its callee does not return.
    exact: Option<usize>,
    /// How deep the bodies it inlines nest statements in it (its own statements aside).
    nesting: usize,
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
    /// The callee's flattened body, which no other call inlines, is built in its place
    /// from the module's function, as decided for it.
    Build(Box<Deferred>),
}

/// The decisions and replacements of one flattening.
struct State<'s> {
    /// What to do with each call, in the order the walk meets them.
    calls: std::vec::IntoIter<Call>,
    /// Call results (copied) and the values returned that replace them.
    replaced: Vec<(Handle<Expression>, Handle<Expression>)>,
    /// The lists of the inlined calls' copies, lent by [`Flattened::with`] to every
    /// flattening, and passed on by [`Inliner::build`] to the bodies it builds in place.
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

impl Spare {
    /// A copy of `source` into a caller, whose value returned at its end stands for the
    /// call's result (used when `result_used`), in the spare lists.
    fn copy_to_end<'f>(&mut self, source: &'f Function, result_used: bool) -> Copy<'f> {
        Copy {
            source,
            expressions: emptied(&mut self.expressions),
            locals: emptied(&mut self.locals),
            runs: emptied(&mut self.runs),
            target: ReturnTarget::End { result_used },
            returned: None,
        }
    }

    /// Takes the lists of `copy` back for the next copy; gives the value it returned.
    fn keep(&mut self, copy: Copy<'_>) -> Option<Handle<Expression>> {
        self.expressions = copy.expressions;
        self.locals = copy.locals;
        self.runs = copy.runs;
        copy.returned
    }
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

    /// Flattening `module` with bodies built in place of their one call gives the
    /// functions that building them alone and moving them there gives.
    fn assert_same_built_in_place(module: &Module) {
        let info = ModuleInfo::new(module);
        let in_place = Flattened::with(module, &info, true);
        let moved = Flattened::with(module, &info, false);
        assert!(in_place.entries.iter().any(Option::is_some));
        assert_eq!(in_place.entries, moved.entries);
    }

    /// Appends to `function` a local of type `ty` (`pointer`, a pointer to it), loads
    /// it and binds the load, and gives the local's pointer and the value loaded.
    fn read_local(
        function: &mut Function,
        ty: Handle<Type>,
        pointer: Handle<Type>,
    ) -> (Handle<Expression>, Handle<Expression>) {
        let local = function.local_variables.append(
            LocalVariable {
                name: "l".into(),
                ty,
                init: None,
            },
            None,
        );
        let local = function.add_expression(Expression::LocalVariable(local), pointer, None);
        let loaded = function.add_expression(Expression::Load { pointer: local }, ty, None);
        function.body.push(Statement::Bind(loaded));
        (local, loaded)
    }

    /// `uint f(uint x)`, called from one place: it reads its local before storing it,
    /// and an expression made before its call of `h` (`x * 2`, which reads its local
    /// before storing it too) uses the call's result, which the value `h` returns
    /// replaces. `h` is called three times, once inside a loop.
    fn single_use_helper(module: &mut Module) -> Handle<Function> {
        let uint = module.type_handle(TypeInner::Scalar(Scalar::U32));
        let pointer = module.type_handle(TypeInner::Pointer {
            base: uint,
            space: AddressSpace::Function,
        });
        let h = helper(module, "h", |f, x| {
            let (local, loaded) = read_local(f, uint, pointer);
            let two = f.add_expression(Expression::Literal(Literal::U32(2)), uint, None);
            let product = binary(f, BinaryOperator::Multiply, x, two);
            f.body.push(Statement::Store {
                pointer: local,
                value: product,
            });
            let sum = binary(f, BinaryOperator::Add, product, loaded);
            f.body.push(Statement::Return { value: Some(sum) });
        });
        helper(module, "f", |f, x| {
            let (local, loaded) = read_local(f, uint, pointer);
            let mut body = std::mem::take(&mut f.body);
            let looped = call(f, h, x);
            std::mem::swap(&mut body, &mut f.body);
            body.push(Statement::Bind(looped));
            body.push(Statement::Break);
            f.body.push(Statement::Loop {
                body,
                continuing: Vec::new(),
                break_if: None,
            });
            let first = f.add_expression(Expression::CallResult(h), uint, None);
            let sum = binary(f, BinaryOperator::Add, first, x);
            f.body.push(Statement::Call {
                function: h,
                arguments: vec![x],
                result: Some(first),
            });
            f.body.push(Statement::Bind(sum));
            let second = call(f, h, sum);
            f.body.push(Statement::Store {
                pointer: local,
                value: second,
            });
            let total = binary(f, BinaryOperator::Add, second, loaded);
            f.body.push(Statement::Return { value: Some(total) });
        })
    }

    /// A body built in place of its call (its arguments literals, folded through it)
    /// is the body built alone and moved there.
    #[test]
    fn a_body_built_in_place_is_the_one_moved() {
        let mut module = Module::default();
        let f = single_use_helper(&mut module);
        entry_calling(&mut module, f);
        assert_same_built_in_place(&module);
    }

    /// Inside a loop, a body left to build in place is built alone and copied, its
    /// locals zeroed at each call.
    #[test]
    fn a_body_left_to_build_inside_a_loop_is_built_alone() {
        let mut module = Module::default();
        let f = single_use_helper(&mut module);
        let uint = module.type_handle(TypeInner::Scalar(Scalar::U32));
        let mut function = Function::default();
        let seven = function.add_expression(Expression::Literal(Literal::U32(7)), uint, None);
        let mut body = std::mem::take(&mut function.body);
        let result = call(&mut function, f, seven);
        std::mem::swap(&mut body, &mut function.body);
        body.push(Statement::Bind(result));
        body.push(Statement::Break);
        function.body.push(Statement::Loop {
            body,
            continuing: Vec::new(),
            break_if: None,
        });
        module.entry_points.push(EntryPoint {
            name: "main".into(),
            stage: ShaderStage::Compute,
            workgroup_size: [1, 1, 1],
            function,
            span: None,
        });
        assert_same_built_in_place(&module);
        let inlined = inline_main(&module);
        assert_eq!(calls(&inlined.function), 0);
    }

    /// A chain of single-use helpers, each level built in place or moved, is the chain
    /// built level by level.
    #[test]
    fn a_chain_built_in_place_is_the_one_moved() {
        let mut module = Module::default();
        let mut previous = single_use_helper(&mut module);
        for level in 1..6 {
            let callee = previous;
            previous = helper(&mut module, &format!("f{level}"), |f, x| {
                let result = call(f, callee, x);
                let sum = binary(f, BinaryOperator::Add, result, x);
                f.body.push(Statement::Return { value: Some(sum) });
            });
        }
        entry_calling(&mut module, previous);
        assert_same_built_in_place(&module);
    }

    /// An expression made before a call of a helper that returns its argument (`s = r +
    /// one`, `r = h(one)`) adds two literals once the result is replaced: built in place,
    /// it is folded as the moved body's renamed copy is, and so is what a later inlined
    /// call (`k(s)`) makes of it.
    #[test]
    fn a_result_replaced_in_place_is_folded_as_moved() {
        let mut module = Module::default();
        let uint = module.type_handle(TypeInner::Scalar(Scalar::U32));
        let h = helper(&mut module, "h", |f, y| {
            f.body.push(Statement::Return { value: Some(y) })
        });
        let k = helper(&mut module, "k", |f, y| {
            let three = f.add_expression(Expression::Literal(Literal::U32(3)), uint, None);
            let product = binary(f, BinaryOperator::Multiply, y, three);
            f.body.push(Statement::Return {
                value: Some(product),
            });
        });
        let f = helper(&mut module, "f", |f, _| {
            let one = f.add_expression(Expression::Literal(Literal::U32(1)), uint, None);
            let r = f.add_expression(Expression::CallResult(h), uint, None);
            let s = binary(f, BinaryOperator::Add, r, one);
            f.body.push(Statement::Call {
                function: h,
                arguments: vec![one],
                result: Some(r),
            });
            let u = call(f, k, s);
            f.body.push(Statement::Return { value: Some(u) });
        });
        entry_calling(&mut module, f);
        assert_same_built_in_place(&module);
    }

    /// A call whose result names an expression other than a call result (malformed IR:
    /// here the caller's argument) stays a call, in place or moved, and the expression
    /// is left as it was.
    #[test]
    fn a_call_whose_result_is_no_call_result_stays() {
        let mut module = Module::default();
        let uint = module.type_handle(TypeInner::Scalar(Scalar::U32));
        module.type_handle(TypeInner::Pointer {
            base: uint,
            space: AddressSpace::Function,
        });
        let h = helper(&mut module, "h", |f, x| {
            let one = f.add_expression(Expression::Literal(Literal::U32(1)), uint, None);
            let big = binary(f, BinaryOperator::Greater, x, one);
            f.body.push(Statement::If {
                condition: big,
                accept: vec![Statement::Return { value: Some(one) }],
                reject: Vec::new(),
            });
            f.body.push(Statement::Return { value: Some(x) });
        });
        let f = helper(&mut module, "f", |f, x| {
            f.body.push(Statement::Call {
                function: h,
                arguments: vec![x],
                result: Some(x),
            });
            f.body.push(Statement::Return { value: Some(x) });
        });
        entry_calling(&mut module, f);
        assert_same_built_in_place(&module);
        let inlined = inline_main(&module);
        assert_eq!(calls(&inlined.function), 1);
        assert!(matches!(
            inlined.function.expressions.iter().next(),
            Some((_, Expression::Literal(Literal::U32(7))))
        ));
    }

    /// The argument expressions are counted for the function's own parameters only,
    /// and the search for them ends after the last one, whatever its index.
    #[test]
    fn argument_expressions_are_found_up_to_the_last() {
        let mut module = Module::default();
        let uint = module.type_handle(TypeInner::Scalar(Scalar::U32));
        let f = helper(&mut module, "f", |f, x| {
            let one = f.add_expression(Expression::Literal(Literal::U32(1)), uint, None);
            binary(f, BinaryOperator::Add, x, one);
            f.add_expression(Expression::FunctionArgument(0), uint, None);
            f.add_expression(Expression::FunctionArgument(5), uint, None);
            f.add_expression(Expression::Literal(Literal::U32(2)), uint, None);
        });
        let found = ArgumentExpressions::of(&module.functions[f]);
        assert_eq!(found.count, 2);
        assert_eq!(found.end, 5);
        assert_eq!(found.count, bound_arguments(&module.functions[f], 1));
    }
}
