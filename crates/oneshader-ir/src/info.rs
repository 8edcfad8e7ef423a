//! Facts about a whole module, computed once and shared by every entry point's backends
//! and reflection: which functions each entry point reaches, how it uses each global, and
//! which subgroup operations it needs.
//!
//! The free functions of [`analysis`](crate::analysis) answer the same questions for one
//! entry point by walking the bodies of every function it reaches. A module with several
//! entry points, written for three targets and reflected, asks each question many times
//! per entry point; [`ModuleInfo`] walks each function body once.

use crate::analysis::{self, BodyFacts, GlobalUse};
use std::sync::OnceLock;

use crate::arena::Handle;
use crate::inline::Flattened;
use crate::module::{EntryPoint, Function, GlobalVariable, Module};
use crate::wave::SubgroupOperations;

/// The facts of every entry point of a module, by entry point index.
#[derive(Clone, Debug, Default)]
pub struct ModuleInfo {
    functions: Vec<FunctionFacts>,
    /// How many calls of each function the module holds, in functions and entry points.
    call_sites: Vec<u32>,
    entry_points: Vec<EntryPointInfo>,
    /// The module's entry points flattened for inlining, once a backend asks.
    flattened: OnceLock<Flattened>,
}

/// What one entry point reaches and uses.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EntryPointInfo {
    /// The functions the entry function calls itself, sorted, each once.
    pub callees: Vec<Handle<Function>>,
    /// Every function the entry point reaches through calls, each once, in handle order
    /// (as [`analysis::reachable_functions`] gives them).
    pub reachable_functions: Vec<Handle<Function>>,
    /// How the entry function and every function it reaches use each global, indexed by
    /// global handle (as [`analysis::global_uses`] gives them).
    pub global_uses: Vec<GlobalUse>,
    /// The Vulkan subgroup operations the entry point needs.
    pub subgroup_operations: SubgroupOperations,
    /// The facts of the entry function's own body (not its callees').
    pub body_facts: BodyFacts,
}

/// What one function does itself, not counting its callees.
#[derive(Clone, Debug, Default)]
struct FunctionFacts {
    /// The functions it calls, sorted, each once.
    callees: Vec<Handle<Function>>,
    /// Each global it uses, with how, sorted by global, each once.
    global_uses: Vec<(Handle<GlobalVariable>, GlobalUse)>,
    /// The facts of its own body.
    body: BodyFacts,
}

impl FunctionFacts {
    /// The facts of `function`, counting its calls of each function in `call_sites`.
    fn of(function: &Function, call_sites: &mut [u32]) -> FunctionFacts {
        let mut callees = Vec::new();
        let mut global_uses = Vec::new();
        let body = analysis::visit_function(
            function,
            &mut |global, used| global_uses.push((global, used)),
            &mut |callee| callees.push(callee),
        );
        for callee in &callees {
            if let Some(count) = call_sites.get_mut(callee.index()) {
                *count = count.saturating_add(1);
            }
        }
        callees.sort_unstable();
        callees.dedup();
        global_uses.sort_unstable_by_key(|&(global, _)| global);
        global_uses.dedup_by(|later, earlier| {
            let same = later.0 == earlier.0;
            if same {
                earlier.1 = earlier.1.union(later.1);
            }
            same
        });
        FunctionFacts {
            callees,
            global_uses,
            body,
        }
    }
}

impl ModuleInfo {
    /// Walks every function of `module` once and derives the facts of each entry point.
    pub fn new(module: &Module) -> ModuleInfo {
        let mut call_sites = vec![0; module.functions.len()];
        let functions: Vec<FunctionFacts> = module
            .functions
            .iter()
            .map(|(_, function)| FunctionFacts::of(function, &mut call_sites))
            .collect();
        let entry_points = module
            .entry_points
            .iter()
            .map(|entry| EntryPointInfo::of(module, entry, &functions, &mut call_sites))
            .collect();
        ModuleInfo {
            functions,
            call_sites,
            entry_points,
            flattened: OnceLock::new(),
        }
    }

    /// The functions `function` calls itself, sorted, each once (as
    /// [`analysis::callees`] gives them); none for a handle outside the module.
    pub fn callees(&self, function: Handle<Function>) -> &[Handle<Function>] {
        self.functions
            .get(function.index())
            .map_or(&[], |facts| facts.callees.as_slice())
    }

    /// Each global `function` uses itself, with how, sorted by global, each once (as
    /// [`analysis::visit_function`] finds them); none for a handle outside the module.
    pub fn global_uses(
        &self,
        function: Handle<Function>,
    ) -> &[(Handle<GlobalVariable>, GlobalUse)] {
        self.functions
            .get(function.index())
            .map_or(&[], |facts| facts.global_uses.as_slice())
    }

    /// How many calls of each function (by handle index) the module holds, in its
    /// functions and entry points.
    pub(crate) fn call_sites(&self) -> &[u32] {
        &self.call_sites
    }

    /// Every entry point of `module` (the module these facts are of) flattened for
    /// [`inline_entry_point`](crate::inline::inline_entry_point), with the module's
    /// functions flattened on the way: built on the first call, for all the entry points.
    pub fn flattened(&self, module: &Module) -> &Flattened {
        self.flattened.get_or_init(|| Flattened::new(module, self))
    }

    /// The facts of `function`'s own body; none for a handle outside the module.
    pub fn body_facts(&self, function: Handle<Function>) -> BodyFacts {
        self.functions
            .get(function.index())
            .map_or_else(BodyFacts::default, |facts| facts.body)
    }

    /// The facts of each entry point, in the module's order.
    pub fn entry_points(&self) -> &[EntryPointInfo] {
        &self.entry_points
    }

    /// The facts of entry point number `index`, if the module has it.
    pub fn entry_point(&self, index: usize) -> Option<&EntryPointInfo> {
        self.entry_points.get(index)
    }
}

impl EntryPointInfo {
    /// The facts of `entry`, from the facts of the module's functions (by handle index);
    /// its calls are counted in `call_sites`.
    fn of(
        module: &Module,
        entry: &EntryPoint,
        functions: &[FunctionFacts],
        call_sites: &mut [u32],
    ) -> EntryPointInfo {
        let own = FunctionFacts::of(&entry.function, call_sites);
        let mut reached = vec![false; functions.len()];
        let mut stack = own.callees.clone();
        while let Some(handle) = stack.pop() {
            let Some(seen) = reached.get_mut(handle.index()) else {
                continue;
            };
            if std::mem::replace(seen, true) {
                continue;
            }
            if let Some(facts) = functions.get(handle.index()) {
                stack.extend_from_slice(&facts.callees);
            }
        }
        let reachable_functions: Vec<Handle<Function>> = reached
            .iter()
            .enumerate()
            .filter(|&(_, &reached)| reached)
            .map(|(index, _)| Handle::from_index(index))
            .collect();
        let mut global_uses = vec![GlobalUse::NONE; module.global_variables.len()];
        let mut subgroup_operations = SubgroupOperations::empty();
        let reached_facts = reachable_functions
            .iter()
            .filter_map(|handle| functions.get(handle.index()));
        for facts in std::iter::once(&own).chain(reached_facts) {
            for &(global, used) in &facts.global_uses {
                if let Some(entry) = global_uses.get_mut(global.index()) {
                    *entry = entry.union(used);
                }
            }
            subgroup_operations |= facts.body.subgroup_operations;
        }
        EntryPointInfo {
            callees: own.callees,
            reachable_functions,
            global_uses,
            subgroup_operations,
            body_facts: own.body,
        }
    }

    /// The entry function followed by every function it reaches (as
    /// [`analysis::entry_functions`] gives them).
    pub fn functions<'a>(
        &'a self,
        module: &'a Module,
        entry: &'a EntryPoint,
    ) -> impl Iterator<Item = &'a Function> + 'a {
        std::iter::once(&entry.function).chain(
            self.reachable_functions
                .iter()
                .filter_map(|&handle| module.functions.try_get(handle)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples;
    use crate::statement::Statement;

    /// The shared facts are those the one-entry-point analyses compute, for every
    /// entry point of `module`.
    pub(crate) fn assert_agrees_with_the_analyses(module: &Module) {
        {
            let info = ModuleInfo::new(module);
            for (index, entry) in module.entry_points.iter().enumerate() {
                let facts = info.entry_point(index).expect("one info per entry point");
                assert_eq!(
                    facts.reachable_functions,
                    analysis::reachable_functions(module, entry)
                );
                assert_eq!(facts.global_uses, analysis::global_uses(module, entry));
                assert_eq!(
                    facts.subgroup_operations,
                    analysis::subgroup_operations(module, entry)
                );
                let functions: Vec<*const Function> = facts
                    .functions(module, entry)
                    .map(std::ptr::from_ref)
                    .collect();
                let expected: Vec<*const Function> = analysis::entry_functions(module, entry)
                    .into_iter()
                    .map(std::ptr::from_ref)
                    .collect();
                assert_eq!(functions, expected);
                let callees: Vec<_> = analysis::callees(&entry.function).into_iter().collect();
                assert_eq!(facts.callees, callees);
                for (handle, function) in module.functions.iter() {
                    let callees: Vec<_> = analysis::callees(function).into_iter().collect();
                    assert_eq!(info.callees(handle), callees.as_slice());
                    let mut uses = std::collections::BTreeMap::new();
                    analysis::visit_global_uses(function, &mut |global, used| {
                        let merged: &mut GlobalUse = uses.entry(global).or_default();
                        *merged = merged.union(used);
                    });
                    let uses: Vec<_> = uses.into_iter().collect();
                    assert_eq!(info.global_uses(handle), uses.as_slice());
                }
            }
            let mut call_sites = vec![0; module.functions.len()];
            let functions = module.functions.iter().map(|(_, function)| function);
            let entries = module.entry_points.iter().map(|entry| &entry.function);
            for function in functions.chain(entries) {
                analysis::walk_statements(&function.body, &mut |statement| {
                    if let Statement::Call { function, .. } = statement {
                        call_sites[function.index()] += 1;
                    }
                });
            }
            assert_eq!(info.call_sites(), call_sites.as_slice());
        }
    }

    #[test]
    fn agrees_with_the_analyses_on_compact() {
        assert_agrees_with_the_analyses(&samples::compact());
    }
}
