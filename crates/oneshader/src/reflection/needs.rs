//! Which scalar widths beyond 32 bits an entry point uses, and so which device
//! features it needs (`shaderInt64`, `shaderFloat64`, 16-bit storage, WebGPU `shader-f16`).

use oneshader_ir::EntryPointInfo;
use oneshader_ir::{EntryPoint, Function, Handle, Module, ScalarKind, Type, TypeInner};
use serde::{Deserialize, Serialize};

/// The arithmetic types an entry point uses that devices may lack.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TypeNeeds {
    /// 16-bit floats (`half` with `-enable-16bit-types`): Vulkan `shaderFloat16`, WebGPU
    /// `shader-f16`.
    pub float16: bool,
    /// 16-bit integers (`int16_t`, `uint16_t`): Vulkan `shaderInt16`; WebGPU has none.
    pub int16: bool,
    /// 64-bit integers (`int64_t`, `uint64_t`): Vulkan `shaderInt64`; WebGPU has none.
    pub int64: bool,
    /// 64-bit floats (`double`): Vulkan `shaderFloat64`; WebGPU has none.
    pub float64: bool,
}

impl TypeNeeds {
    /// Whether it needs nothing beyond 32-bit types.
    pub fn is_empty(self) -> bool {
        self == TypeNeeds::default()
    }

    /// The first need WebGPU has no feature for: `64-bit integers`, `64-bit floats` or
    /// `16-bit integers`.
    pub fn missing_in_webgpu(self) -> Option<&'static str> {
        [
            (self.int64, "64-bit integers"),
            (self.float64, "64-bit floats"),
            (self.int16, "16-bit integers"),
        ]
        .into_iter()
        .find_map(|(needed, what)| needed.then_some(what))
    }

    /// Both sets of needs.
    pub fn union(self, other: TypeNeeds) -> TypeNeeds {
        TypeNeeds {
            float16: self.float16 || other.float16,
            int16: self.int16 || other.int16,
            int64: self.int64 || other.int64,
            float64: self.float64 || other.float64,
        }
    }

    /// The needs of every type `entry` touches: its functions' values, locals and
    /// arguments, and the globals it uses.
    pub(super) fn of_entry_point(
        module: &Module,
        needs: &ModuleNeeds,
        entry: &EntryPoint,
        info: &EntryPointInfo,
    ) -> TypeNeeds {
        if needs.none {
            return TypeNeeds::default();
        }
        let mut result = needs.of_function(&entry.function);
        for &function in &info.reachable_functions {
            if let Some(&of_function) = needs.per_function.get(function.index()) {
                result = result.union(of_function);
            }
        }
        for (handle, global) in module.global_variables.iter() {
            if info
                .global_uses
                .get(handle.index())
                .is_some_and(|u| u.is_used())
            {
                result = result.union(needs.of_type(global.ty));
            }
        }
        result
    }

    /// The needs of `ty` and of every type it is made of.
    fn of_type(module: &Module, ty: Handle<Type>) -> TypeNeeds {
        let mut needs = TypeNeeds::default();
        needs.add_type(module, ty);
        needs
    }

    fn add_type(&mut self, module: &Module, ty: Handle<Type>) {
        match module.inner(ty) {
            TypeInner::Scalar(s)
            | TypeInner::Vector { scalar: s, .. }
            | TypeInner::Matrix { scalar: s, .. } => match (s.kind, s.width) {
                (ScalarKind::Float, 2) => self.float16 = true,
                (ScalarKind::Float, 8) => self.float64 = true,
                (ScalarKind::Sint | ScalarKind::Uint, 2) => self.int16 = true,
                (ScalarKind::Sint | ScalarKind::Uint, 8) => self.int64 = true,
                _ => {}
            },
            TypeInner::Array { base, .. } | TypeInner::Pointer { base, .. } => {
                self.add_type(module, *base)
            }
            TypeInner::Struct { members, .. } => {
                for member in members {
                    self.add_type(module, member.ty);
                }
            }
            TypeInner::Image { .. } | TypeInner::Sampler { .. } => {}
        }
    }
}

/// The [`TypeNeeds`] of each of a module's types and helper functions, found once for all
/// its entry points: they share their helpers, and a function's expressions name the same
/// few types over and over.
pub(super) struct ModuleNeeds {
    /// Indexed by type handle.
    per_type: Vec<TypeNeeds>,
    /// Indexed by function handle (empty when `none`).
    per_function: Vec<TypeNeeds>,
    /// No type of the module needs anything, so neither does any function or entry point.
    none: bool,
}

impl ModuleNeeds {
    pub(super) fn new(module: &Module) -> ModuleNeeds {
        let per_type: Vec<TypeNeeds> = module
            .types
            .iter()
            .map(|(ty, _)| TypeNeeds::of_type(module, ty))
            .collect();
        let none = per_type.iter().all(|needs| needs.is_empty());
        let mut needs = ModuleNeeds {
            per_type,
            per_function: Vec::new(),
            none,
        };
        // Most modules use only 32-bit types: their functions need not be walked.
        if none {
            return needs;
        }
        needs.per_function = module
            .functions
            .iter()
            .map(|(_, function)| needs.of_function(function))
            .collect();
        needs
    }

    fn of_type(&self, ty: Handle<Type>) -> TypeNeeds {
        self.per_type.get(ty.index()).copied().unwrap_or_default()
    }

    /// The needs of one function's values, locals, arguments and result.
    fn of_function(&self, function: &Function) -> TypeNeeds {
        let types = function
            .expression_types
            .iter()
            .copied()
            .chain(function.local_variables.iter().map(|(_, local)| local.ty))
            .chain(function.arguments.iter().map(|argument| argument.ty))
            .chain(function.result.as_ref().map(|result| result.ty));
        types.fold(TypeNeeds::default(), |needs, ty| {
            needs.union(self.of_type(ty))
        })
    }
}
