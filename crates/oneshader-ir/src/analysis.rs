//! Facts derived from a module: which functions an entry point reaches, which
//! subgroup operations it needs, how it uses each global, and how much groupshared
//! memory it needs.

use std::collections::BTreeSet;

use crate::arena::Handle;
use crate::expression::{Expression, SampleLevel};
use crate::module::{EntryPoint, Function, GlobalVariable, Module};
use crate::source::Span;
use crate::statement::{Block, Statement};
use crate::types::{AddressSpace, ArraySize, Type, TypeInner};
use crate::wave::{SubgroupOperations, WaveOp};

/// Calls `visit` on every statement of `block`, nested blocks included, outer first.
pub fn walk_statements<'a>(block: &'a Block, visit: &mut dyn FnMut(&'a Statement)) {
    for statement in block {
        visit(statement);
        match statement {
            Statement::Block(inner) => walk_statements(inner, visit),
            Statement::If { accept, reject, .. } => {
                walk_statements(accept, visit);
                walk_statements(reject, visit);
            }
            Statement::Switch { cases, .. } => {
                for case in cases {
                    walk_statements(&case.body, visit);
                }
            }
            Statement::Loop {
                body, continuing, ..
            } => {
                walk_statements(body, visit);
                walk_statements(continuing, visit);
            }
            _ => {}
        }
    }
}

/// The functions `function` calls directly.
pub fn callees(function: &Function) -> BTreeSet<Handle<Function>> {
    let mut callees = BTreeSet::new();
    walk_statements(&function.body, &mut |statement| {
        if let Statement::Call { function, .. } = statement {
            callees.insert(*function);
        }
    });
    callees
}

/// Every function `entry` reaches through calls, each once.
pub fn reachable_functions(module: &Module, entry: &EntryPoint) -> Vec<Handle<Function>> {
    let mut seen = BTreeSet::new();
    let mut stack: Vec<Handle<Function>> = callees(&entry.function).into_iter().collect();
    while let Some(handle) = stack.pop() {
        if !seen.insert(handle) {
            continue;
        }
        if let Some(function) = module.functions.try_get(handle) {
            stack.extend(callees(function));
        }
    }
    seen.into_iter().collect()
}

/// The entry function followed by every function it reaches.
pub fn entry_functions<'a>(module: &'a Module, entry: &'a EntryPoint) -> Vec<&'a Function> {
    let mut functions = vec![&entry.function];
    functions.extend(
        reachable_functions(module, entry)
            .into_iter()
            .filter_map(|h| module.functions.try_get(h)),
    );
    functions
}

/// One use of a wave operation, for stage checks and messages.
#[derive(Clone, Debug, PartialEq)]
pub struct WaveUse {
    /// The operation.
    pub op: WaveOp,
    /// Where it is called.
    pub span: Option<Span>,
}

/// Every wave operation `function` uses, in expression order.
pub fn wave_uses(function: &Function) -> Vec<WaveUse> {
    function
        .expressions
        .iter()
        .filter_map(|(handle, expression)| match expression {
            Expression::Wave { op, .. } => Some(WaveUse {
                op: *op,
                span: function.expressions.span(handle),
            }),
            _ => None,
        })
        .collect()
}

/// The Vulkan subgroup operations `entry` needs, across every function it reaches.
pub fn subgroup_operations(module: &Module, entry: &EntryPoint) -> SubgroupOperations {
    entry_functions(module, entry)
        .into_iter()
        .fold(SubgroupOperations::empty(), |ops, function| {
            ops | function_subgroup_operations(function)
        })
}

/// The Vulkan subgroup operations `function` itself needs (not those of its callees).
pub fn function_subgroup_operations(function: &Function) -> SubgroupOperations {
    function
        .expressions
        .iter()
        .fold(
            SubgroupOperations::empty(),
            |ops, (_, expression)| match expression {
                Expression::Wave { op, .. } => ops | op.subgroup_operations(),
                _ => ops,
            },
        )
}

/// How code uses one global variable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GlobalUse {
    /// Some code loads from it.
    pub read: bool,
    /// Some code stores to it.
    pub write: bool,
    /// Some code operates on it atomically.
    pub atomic: bool,
    /// Some code asks for its length (or a texture's size).
    pub length: bool,
    /// Some code samples this texture with a depth comparison (`SampleCmp*`,
    /// `GatherCmp*`): MSL and WGSL declare it as a depth texture.
    pub compared: bool,
}

impl GlobalUse {
    /// No use at all.
    pub const NONE: GlobalUse = GlobalUse {
        read: false,
        write: false,
        atomic: false,
        length: false,
        compared: false,
    };

    /// Whether the global is used at all.
    pub fn is_used(self) -> bool {
        self.read || self.write || self.atomic || self.length
    }

    /// Both uses together.
    pub const fn union(self, other: GlobalUse) -> GlobalUse {
        GlobalUse {
            read: self.read || other.read,
            write: self.write || other.write,
            atomic: self.atomic || other.atomic,
            length: self.length || other.length,
            compared: self.compared || other.compared,
        }
    }
}

/// The global a pointer expression points into, following accesses.
pub fn pointer_root(function: &Function, mut pointer: Handle<Expression>) -> Option<PointerRoot> {
    loop {
        match function.expressions.try_get(pointer)? {
            Expression::Access { base, .. } | Expression::AccessIndex { base, .. } => {
                pointer = *base
            }
            Expression::ImageTexelPointer { image, .. } => pointer = *image,
            Expression::GlobalVariable(global) => return Some(PointerRoot::Global(*global)),
            Expression::LocalVariable(_) => return Some(PointerRoot::Local),
            Expression::FunctionArgument(index) => return Some(PointerRoot::Argument(*index)),
            _ => return None,
        }
    }
}

/// What a pointer ultimately points into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointerRoot {
    /// A global variable.
    Global(Handle<GlobalVariable>),
    /// A local variable.
    Local,
    /// A pointer parameter of the function.
    Argument(u32),
}

/// How the functions `entry` reaches use each global, indexed by global handle.
///
/// Uses through `out`/`inout` parameters are attributed at the call site: the
/// argument pointer's root is counted as read and written.
pub fn global_uses(module: &Module, entry: &EntryPoint) -> Vec<GlobalUse> {
    let mut uses = vec![GlobalUse::default(); module.global_variables.len()];
    for function in entry_functions(module, entry) {
        visit_global_uses(function, &mut |global, used| {
            if let Some(entry) = uses.get_mut(global.index()) {
                *entry = entry.union(used);
            }
        });
    }
    uses
}

/// Calls `visit` with each global `function` itself uses and how, once per use (a
/// global used several times is visited several times).
pub fn visit_global_uses(
    function: &Function,
    visit: &mut dyn FnMut(Handle<GlobalVariable>, GlobalUse),
) {
    visit_function(function, visit, &mut |_| {});
}

/// What one function's own body holds, found in the walk that finds its global uses
/// ([`visit_function`]): the subgroup operations of its wave operations, and what the
/// text writers (MSL, WGSL) ask about.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BodyFacts {
    /// The subgroup operations of its wave operations (what
    /// [`function_subgroup_operations`] gives).
    pub subgroup_operations: SubgroupOperations,
    /// Some expression is `WaveGetLaneIndex`.
    pub lane_index: bool,
    /// Some expression is `WaveGetLaneCount`.
    pub lane_count: bool,
    /// Some expression is `QuadReadLaneAt`.
    pub quad_read_lane_at: bool,
    /// Some expression asks for the length of a runtime-sized array.
    pub array_length: bool,
    /// Some expression takes implicit derivatives: an [`Expression::Derivative`], or an
    /// [`Expression::ImageSample`] whose level is [`SampleLevel::Auto`] or
    /// [`SampleLevel::Bias`].
    pub derivatives: bool,
    /// Some statement is a `discard` ([`Statement::Kill`]).
    pub kill: bool,
    /// Some statement is a barrier ([`Statement::Barrier`]).
    pub barrier: bool,
}

/// What `function` does itself, in one walk of its expressions and one of its
/// statements: calls `visit` as [`visit_global_uses`] does, and `call` with the callee
/// of each call (once per call, in statement order); gives the facts of its own body.
pub fn visit_function(
    function: &Function,
    visit: &mut dyn FnMut(Handle<GlobalVariable>, GlobalUse),
    call: &mut dyn FnMut(Handle<Function>),
) -> BodyFacts {
    const READ: GlobalUse = GlobalUse {
        read: true,
        ..GlobalUse::NONE
    };
    const WRITE: GlobalUse = GlobalUse {
        write: true,
        ..GlobalUse::NONE
    };
    const READ_WRITE: GlobalUse = READ.union(WRITE);
    const LENGTH: GlobalUse = GlobalUse {
        length: true,
        ..GlobalUse::NONE
    };
    let mut mark = |pointer: Handle<Expression>, used: GlobalUse| {
        if let Some(PointerRoot::Global(global)) = pointer_root(function, pointer) {
            visit(global, used);
        }
    };
    let mut facts = BodyFacts::default();
    for (_, expression) in function.expressions.iter() {
        match expression {
            Expression::Wave { op, .. } => {
                facts.subgroup_operations |= op.subgroup_operations();
                match op {
                    WaveOp::GetLaneIndex => facts.lane_index = true,
                    WaveOp::GetLaneCount => facts.lane_count = true,
                    WaveOp::QuadReadLaneAt => facts.quad_read_lane_at = true,
                    _ => {}
                }
            }
            Expression::Load { pointer } => mark(*pointer, READ),
            Expression::ArrayLength(pointer) => {
                facts.array_length = true;
                mark(*pointer, LENGTH);
            }
            Expression::Derivative { .. } => facts.derivatives = true,
            Expression::ImageSample(sample) => {
                facts.derivatives |=
                    matches!(sample.level, SampleLevel::Auto | SampleLevel::Bias(_));
                let compared = GlobalUse {
                    compared: sample.depth_ref.is_some(),
                    ..READ
                };
                mark(sample.image, compared);
                mark(sample.sampler, READ);
            }
            Expression::ImageLoad { image, .. } => mark(*image, READ),
            Expression::ImageQuery { image, .. } => mark(*image, LENGTH),
            Expression::ImageLevelOfDetail { image, sampler, .. } => {
                mark(*image, LENGTH);
                mark(*sampler, READ);
            }
            _ => {}
        }
    }
    walk_statements(&function.body, &mut |statement| match statement {
        Statement::Store { pointer, .. } => mark(*pointer, WRITE),
        Statement::Kill => facts.kill = true,
        Statement::Barrier(_) => facts.barrier = true,
        Statement::ImageStore { image, .. } => mark(*image, WRITE),
        Statement::Atomic { pointer, .. } => mark(
            *pointer,
            GlobalUse {
                atomic: true,
                ..READ_WRITE
            },
        ),
        Statement::Call {
            function: callee,
            arguments,
            ..
        } => {
            call(*callee);
            for &argument in arguments {
                mark(argument, READ_WRITE);
            }
        }
        _ => {}
    });
    facts
}

/// The most groupshared memory an entry point may use, in bytes: D3D12's and
/// Vulkan's guaranteed minimum (`maxComputeSharedMemorySize`), and DXC's limit.
pub const MAX_WORKGROUP_BYTES: u64 = 32 * 1024;

/// The groupshared (workgroup) variables `entry` uses, each with its size in bytes.
pub fn workgroup_variables(
    module: &Module,
    entry: &EntryPoint,
) -> Vec<(Handle<GlobalVariable>, u64)> {
    workgroup_variables_of(module, &global_uses(module, entry))
}

/// The groupshared variables marked used in `uses` (indexed by global handle, as
/// [`global_uses`] gives them), each with its size in bytes.
pub fn workgroup_variables_of(
    module: &Module,
    uses: &[GlobalUse],
) -> Vec<(Handle<GlobalVariable>, u64)> {
    module
        .global_variables
        .iter()
        .filter(|(handle, global)| {
            global.space == AddressSpace::Workgroup
                && uses.get(handle.index()).is_some_and(|u| u.is_used())
        })
        .map(|(handle, global)| (handle, type_bytes(module, global.ty)))
        .collect()
}

/// The bytes a value of type `ty` occupies, padding included; 0 for types without a
/// fixed size (runtime-sized arrays, resources). Saturates instead of overflowing.
pub fn type_bytes(module: &Module, ty: Handle<Type>) -> u64 {
    match &module.types[ty].inner {
        TypeInner::Scalar(scalar) => u64::from(scalar.width),
        TypeInner::Vector { size, scalar } => *size as u64 * u64::from(scalar.width),
        TypeInner::Matrix {
            columns,
            rows,
            scalar,
        } => *columns as u64 * *rows as u64 * u64::from(scalar.width),
        TypeInner::Array {
            base,
            size: ArraySize::Constant(count),
            stride,
        } => {
            let stride = u64::from(*stride).max(type_bytes(module, *base));
            stride.saturating_mul(u64::from(*count))
        }
        TypeInner::Struct { size, .. } => u64::from(*size),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::module::{EntryPoint, ShaderStage};
    use crate::types::{Scalar, TypeInner};

    fn entry_with(function: Function) -> EntryPoint {
        EntryPoint {
            name: "main".into(),
            stage: ShaderStage::Compute,
            workgroup_size: [1, 1, 1],
            function,
            span: None,
        }
    }

    #[test]
    fn subgroup_operations_follow_calls() {
        let mut module = Module::default();
        let uint = module.type_handle(TypeInner::Scalar(Scalar::U32));
        let mut helper = Function {
            name: "helper".into(),
            ..Function::default()
        };
        let value = helper.add_expression(Expression::Literal(crate::Literal::U32(1)), uint, None);
        let sum = helper.add_expression(
            Expression::Wave {
                op: WaveOp::ActiveSum,
                args: Box::new([value]),
            },
            uint,
            None,
        );
        helper.body.push(Statement::Bind(sum));
        let helper = module.functions.append(helper, None);

        let mut main = Function::default();
        let lane = main.add_expression(
            Expression::Wave {
                op: WaveOp::GetLaneIndex,
                args: Box::new([]),
            },
            uint,
            None,
        );
        main.body.push(Statement::If {
            condition: lane,
            accept: vec![Statement::Call {
                function: helper,
                arguments: vec![],
                result: None,
            }],
            reject: vec![],
        });
        let entry = entry_with(main);
        let ops = subgroup_operations(&module, &entry);
        assert_eq!(
            ops,
            SubgroupOperations::BASIC | SubgroupOperations::ARITHMETIC
        );
    }

    #[test]
    fn body_facts_find_discards_and_barriers_in_nested_blocks() {
        let facts = |body: Vec<Statement>| {
            let function = Function {
                body,
                ..Function::default()
            };
            visit_function(&function, &mut |_, _| {}, &mut |_| {})
        };
        let nested = |statement: Statement| Statement::Loop {
            body: vec![Statement::Block(vec![statement])],
            continuing: vec![],
            break_if: None,
        };
        let none = facts(vec![Statement::Break]);
        assert!(!none.kill && !none.barrier);
        let kill = facts(vec![nested(Statement::Kill)]);
        assert!(kill.kill && !kill.barrier);
        let barrier = facts(vec![nested(Statement::Barrier(crate::Barrier {
            device_memory: true,
            workgroup_memory: false,
            group_sync: true,
        }))]);
        assert!(!barrier.kill && barrier.barrier);
    }
}
