//! Which scalar widths beyond 32 bits an entry point uses, and so which device
//! features it needs (`shaderInt64`, `shaderFloat64`, 16-bit storage, WebGPU `shader-f16`).

use oneshader_ir::EntryPointInfo;
use oneshader_ir::{EntryPoint, Handle, Module, ScalarKind, Type, TypeInner};
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
        entry: &EntryPoint,
        info: &EntryPointInfo,
    ) -> TypeNeeds {
        let mut needs = TypeNeeds::default();
        for function in info.functions(module, entry) {
            for &ty in &function.expression_types {
                needs.add_type(module, ty);
            }
            for (_, local) in function.local_variables.iter() {
                needs.add_type(module, local.ty);
            }
            for argument in &function.arguments {
                needs.add_type(module, argument.ty);
            }
            if let Some(result) = &function.result {
                needs.add_type(module, result.ty);
            }
        }
        for (handle, global) in module.global_variables.iter() {
            if info
                .global_uses
                .get(handle.index())
                .is_some_and(|u| u.is_used())
            {
                needs.add_type(module, global.ty);
            }
        }
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
