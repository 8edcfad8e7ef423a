//! The structural rules of a module that the analyses and backends take for granted,
//! checked in one linear pass before they run ([`validate`]).
//!
//! The front end keeps these rules by construction; a module built by hand through this
//! crate may not, and a walker that follows a handle out of its arena or around a cycle
//! would panic or never end. The rules:
//!
//! - every handle is in range of its arena: types, globals, functions, locals,
//!   expressions, arguments;
//! - each expression's operands are earlier expressions of the same function, so that
//!   following operands always ends;
//! - a function has one type per expression;
//! - a helper function calls only functions before it in [`Module::functions`]
//!   (callees first, so no recursion), with one argument per parameter;
//! - no type contains itself, through struct members, array elements or pointees.
//!
//! It checks no typing: a well-formed module of wrong types is the backends' to report.

use crate::arena::Handle;
use crate::diagnostic::{codes, Diagnostic};
use crate::expression::Expression;
use crate::module::{Function, Module};
use crate::source::Span;
use crate::statement::{Block, Statement};
use crate::types::{Type, TypeInner};

/// Checks the rules above, returning the first broken one as an `OSH0004` error (at the
/// expression or declaration that breaks it, when it has a location).
pub fn validate(module: &Module) -> Result<(), Diagnostic> {
    check_types(module)?;
    for global in module.global_variables.iter().map(|(_, global)| global) {
        if module.types.try_get(global.ty).is_none() {
            return Err(invalid(
                global.span,
                format!(
                    "global variable '{}' has a type outside the module",
                    global.name
                ),
            ));
        }
    }
    for (handle, function) in module.functions.iter() {
        let span = module.functions.span(handle);
        check_function(module, function, Some(handle), span)?;
    }
    for entry in &module.entry_points {
        check_function(module, &entry.function, None, entry.span)?;
    }
    Ok(())
}

/// The `OSH0004` error for a module that breaks a rule: `what` says which.
#[cold]
fn invalid(span: Option<Span>, what: String) -> Diagnostic {
    Diagnostic::error(
        codes::INVALID_IR,
        span,
        format!("the IR module breaks the IR's rules: {what}; fix the code that built the module"),
    )
}

/// The types each type of `inner` is made of: its element, pointee or `index`th member.
fn component(inner: &TypeInner, index: usize) -> Option<Handle<Type>> {
    match inner {
        TypeInner::Array { base, .. } | TypeInner::Pointer { base, .. } => {
            (index == 0).then_some(*base)
        }
        TypeInner::Struct { members, .. } => members.get(index).map(|member| member.ty),
        _ => None,
    }
}

/// Every type's components are types of the module, and no type contains itself: a
/// depth-first walk with an explicit stack (types may nest deeper than the thread's
/// stack allows).
fn check_types(module: &Module) -> Result<(), Diagnostic> {
    const NEW: u8 = 0;
    const OPEN: u8 = 1;
    const DONE: u8 = 2;
    let count = module.types.len();
    let mut state = vec![NEW; count];
    let mut stack: Vec<(Handle<Type>, usize)> = Vec::new();
    for (start, _) in module.types.iter() {
        if state.get(start.index()) != Some(&NEW) {
            continue;
        }
        if let Some(slot) = state.get_mut(start.index()) {
            *slot = OPEN;
        }
        stack.push((start, 0));
        while let Some((ty, next)) = stack.last_mut() {
            let ty = *ty;
            let inner = module.types.try_get(ty).map(|t| &t.inner);
            let Some(part) = inner.and_then(|inner| component(inner, *next)) else {
                if let Some(slot) = state.get_mut(ty.index()) {
                    *slot = DONE;
                }
                stack.pop();
                continue;
            };
            *next += 1;
            let name = || module.types.try_get(ty).and_then(|t| t.name.clone());
            match state.get_mut(part.index()) {
                None => {
                    return Err(invalid(
                        None,
                        format!(
                            "type {ty:?} ({}) is made of type {part:?}, which is not in the module",
                            name().unwrap_or_default()
                        ),
                    ))
                }
                Some(slot) if *slot == OPEN => {
                    return Err(invalid(
                        module.struct_spans.get(&ty).copied(),
                        format!(
                            "type {ty:?} ({}) contains itself",
                            name().unwrap_or_default()
                        ),
                    ))
                }
                Some(slot) if *slot == NEW => {
                    *slot = OPEN;
                    stack.push((part, 0));
                }
                Some(_) => {}
            }
        }
    }
    Ok(())
}

/// Checks `function` (the helper `handle`, or an entry point's function when `None`),
/// declared at `span`.
fn check_function(
    module: &Module,
    function: &Function,
    handle: Option<Handle<Function>>,
    span: Option<Span>,
) -> Result<(), Diagnostic> {
    let name = &function.name;
    let expressions = &function.expressions;
    if function.expression_types.len() != expressions.len() {
        return Err(invalid(
            span,
            format!(
                "function '{name}' has {} expressions but {} expression types",
                expressions.len(),
                function.expression_types.len()
            ),
        ));
    }
    let has_type = |ty: Handle<Type>| module.types.try_get(ty).is_some();
    let declared_types = function
        .arguments
        .iter()
        .map(|argument| argument.ty)
        .chain(function.result.as_ref().map(|result| result.ty))
        .chain(function.local_variables.iter().map(|(_, local)| local.ty));
    for ty in declared_types.chain(function.expression_types.iter().copied()) {
        if !has_type(ty) {
            return Err(invalid(
                span,
                format!("function '{name}' refers to type {ty:?}, which is not in the module"),
            ));
        }
    }
    for (local, variable) in function.local_variables.iter() {
        if variable
            .init
            .is_some_and(|init| init.index() >= expressions.len())
        {
            return Err(invalid(
                function.local_variables.span(local).or(span),
                format!(
                    "the initializer of local variable '{}' is not an expression of '{name}'",
                    variable.name
                ),
            ));
        }
    }
    for (handle, expression) in expressions.iter() {
        let at = || expressions.span(handle).or(span);
        let mut later = None;
        expression.for_each_operand(|operand| {
            if operand.index() >= handle.index() && later.is_none() {
                later = Some(operand);
            }
        });
        if let Some(operand) = later {
            return Err(invalid(
                at(),
                format!(
                    "expression {handle:?} of function '{name}' has operand {operand:?}, \
                     which is not an earlier expression (operands must come first, so that \
                     no expression depends on itself)"
                ),
            ));
        }
        let in_range = match expression {
            Expression::ZeroValue(ty) | Expression::Compose { ty, .. } => has_type(*ty),
            Expression::GlobalVariable(global) => {
                module.global_variables.try_get(*global).is_some()
            }
            Expression::LocalVariable(local) => function.local_variables.try_get(*local).is_some(),
            Expression::FunctionArgument(index) => (*index as usize) < function.arguments.len(),
            Expression::CallResult(callee) => module.functions.try_get(*callee).is_some(),
            _ => true,
        };
        if !in_range {
            return Err(invalid(
                at(),
                format!(
                    "expression {handle:?} of function '{name}' refers to a type, variable, \
                     argument or function that does not exist ({expression:?})"
                ),
            ));
        }
    }
    check_body(module, function, handle, span)
}

/// Checks the statements of `function`'s body: their expressions are the function's,
/// and calls reach existing functions (earlier ones, from a helper `caller`) with one
/// argument per parameter. Blocks are walked with an explicit stack.
fn check_body(
    module: &Module,
    function: &Function,
    caller: Option<Handle<Function>>,
    span: Option<Span>,
) -> Result<(), Diagnostic> {
    let name = &function.name;
    let count = function.expressions.len();
    let mut blocks: Vec<&Block> = vec![&function.body];
    while let Some(block) = blocks.pop() {
        for statement in block {
            let mut outside = None;
            let mut check = |operand: Handle<Expression>| {
                if operand.index() >= count && outside.is_none() {
                    outside = Some(operand);
                }
            };
            statement.for_each_operand(&mut check);
            if let Statement::Call {
                function: callee,
                arguments,
                ..
            } = statement
            {
                check_call(module, name, caller, *callee, arguments.len(), span)?;
            }
            if let Some(operand) = outside {
                return Err(invalid(
                    span,
                    format!(
                        "a statement of function '{name}' uses expression {operand:?}, which \
                         is not one of the function's {count}"
                    ),
                ));
            }
            match statement {
                Statement::Block(inner) => blocks.push(inner),
                Statement::If { accept, reject, .. } => {
                    blocks.push(accept);
                    blocks.push(reject);
                }
                Statement::Switch { cases, .. } => {
                    blocks.extend(cases.iter().map(|case| &case.body));
                }
                Statement::Loop {
                    body, continuing, ..
                } => {
                    blocks.push(body);
                    blocks.push(continuing);
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// Checks a call from function `name` (the helper `caller`, or an entry point's function)
/// of `callee` with `arguments` arguments.
fn check_call(
    module: &Module,
    name: &str,
    caller: Option<Handle<Function>>,
    callee: Handle<Function>,
    arguments: usize,
    span: Option<Span>,
) -> Result<(), Diagnostic> {
    let Some(called) = module.functions.try_get(callee) else {
        return Err(invalid(
            span,
            format!("function '{name}' calls function {callee:?}, which does not exist"),
        ));
    };
    if caller.is_some_and(|caller| callee >= caller) {
        return Err(invalid(
            span,
            format!(
                "function '{name}' calls '{}', which is not before it in the module's \
                 functions (callees come first, so that no function calls itself)",
                called.name
            ),
        ));
    }
    if called.arguments.len() != arguments {
        return Err(invalid(
            span,
            format!(
                "function '{name}' calls '{}' with {arguments} arguments; it takes {}",
                called.name,
                called.arguments.len()
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::module::FunctionArgument;
    use crate::samples;
    use crate::types::{Scalar, StructMember};

    /// The message of the error `module` gets.
    fn error_of(module: &Module) -> String {
        match validate(module) {
            Ok(()) => panic!("the module is valid"),
            Err(diagnostic) => {
                assert_eq!(diagnostic.code, codes::INVALID_IR);
                diagnostic.message
            }
        }
    }

    /// The sample's entry function, to break.
    fn entry_function(module: &mut Module) -> &mut Function {
        &mut module.entry_points[0].function
    }

    #[test]
    fn the_sample_is_valid() {
        assert_eq!(validate(&samples::compact()), Ok(()));
    }

    /// An access chain whose base is itself, or a later access that is based on it:
    /// walkers following operands would never end.
    #[test]
    fn cyclic_operands_are_refused() {
        let mut module = samples::compact();
        let function = entry_function(&mut module);
        let (last, _) = function.expressions.iter().last().expect("expressions");
        let first = Handle::from_index(1);
        *function
            .expressions
            .try_get_mut(first)
            .expect("expression 1") = Expression::AccessIndex {
            base: first,
            index: 0,
        };
        let message = error_of(&module);
        assert!(message.contains("has operand"), "{message}");
        assert!(message.contains("not an earlier expression"), "{message}");

        let mut module = samples::compact();
        let function = entry_function(&mut module);
        *function
            .expressions
            .try_get_mut(first)
            .expect("expression 1") = Expression::Load { pointer: last };
        assert!(error_of(&module).contains("not an earlier expression"));
    }

    #[test]
    fn handles_out_of_range_are_refused() {
        let mut module = samples::compact();
        let function = entry_function(&mut module);
        let first = Handle::from_index(0);
        *function
            .expressions
            .try_get_mut(first)
            .expect("expression 0") = Expression::FunctionArgument(7);
        assert!(error_of(&module).contains("does not exist"));

        let mut module = samples::compact();
        let function = entry_function(&mut module);
        *function
            .expressions
            .try_get_mut(first)
            .expect("expression 0") = Expression::GlobalVariable(Handle::from_index(1000));
        assert!(error_of(&module).contains("does not exist"));

        let mut module = samples::compact();
        let function = entry_function(&mut module);
        let outside = Handle::from_index(function.expressions.len());
        function.body.push(Statement::Bind(outside));
        assert!(error_of(&module).contains("which is not one of the function's"));

        let mut module = samples::compact();
        entry_function(&mut module).expression_types.pop();
        assert!(error_of(&module).contains("expression types"));
    }

    /// A struct that contains itself (`replace` can make one) is refused, not walked
    /// forever.
    #[test]
    fn a_type_that_contains_itself_is_refused() {
        let mut module = samples::compact();
        let float = module.type_handle(TypeInner::Scalar(Scalar::F32));
        let member = |ty| StructMember {
            name: "m".into(),
            ty,
            offset: 0,
            binding: None,
        };
        let outer = module.types.insert(Type {
            name: Some("Outer".into()),
            inner: TypeInner::Struct {
                members: vec![member(float)],
                size: 4,
            },
        });
        let inner = module.types.insert(Type {
            name: Some("Inner".into()),
            inner: TypeInner::Struct {
                members: vec![member(outer)],
                size: 4,
            },
        });
        assert_eq!(validate(&module), Ok(()));
        module.types.replace(
            outer,
            Type {
                name: Some("Outer".into()),
                inner: TypeInner::Struct {
                    members: vec![member(inner)],
                    size: 4,
                },
            },
        );
        assert!(error_of(&module).contains("contains itself"));
    }

    /// A helper that calls itself, or a later function, could send the inliner around
    /// forever; a call's arguments must match the callee's parameters.
    #[test]
    fn calls_reach_earlier_functions_with_their_arguments() {
        let mut module = samples::compact();
        let helper = module.functions.append(
            Function {
                name: "Helper".into(),
                ..Function::default()
            },
            None,
        );
        let call = Statement::Call {
            function: helper,
            arguments: Vec::new(),
            result: None,
        };
        entry_function(&mut module).body.push(call.clone());
        assert_eq!(validate(&module), Ok(()));

        let mut recursive = module.clone();
        recursive.functions[helper].body.push(call);
        assert!(error_of(&recursive).contains("not before it"));

        let uint = module.type_handle(TypeInner::Scalar(Scalar::U32));
        module.functions[helper].arguments.push(FunctionArgument {
            name: "x".into(),
            ty: uint,
            binding: None,
        });
        assert!(error_of(&module).contains("with 0 arguments; it takes 1"));
    }
}
