//! The module: types, globals, functions and entry points.

use std::sync::Arc;

use crate::arena::{Arena, Handle, UniqueArena};
use crate::expression::Expression;
use crate::source::Span;
use crate::statement::{Block, Statement};
use crate::types::{AddressSpace, ArraySize, Scalar, Type, TypeInner, VectorSize};
use crate::FastHashMap;

/// The pipeline stage an entry point runs in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ShaderStage {
    /// Vertex shader (`vs_6_x`).
    Vertex,
    /// Pixel (fragment) shader (`ps_6_x`).
    Fragment,
    /// Compute shader (`cs_6_x`).
    Compute,
}

impl ShaderStage {
    /// The name used in messages and reflection: `vertex`, `pixel`, `compute`.
    pub fn name(self) -> &'static str {
        match self {
            ShaderStage::Vertex => "vertex",
            ShaderStage::Fragment => "pixel",
            ShaderStage::Compute => "compute",
        }
    }
}

/// A system value an entry point reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuiltIn {
    /// `SV_Position`: `float4`, vertex output or pixel input.
    Position,
    /// `SV_VertexID`: `uint`.
    VertexIndex,
    /// `SV_InstanceID`: `uint`.
    InstanceIndex,
    /// `SV_IsFrontFace`: `bool`.
    FrontFacing,
    /// `SV_Depth`: `float`.
    FragDepth,
    /// `SV_SampleIndex`: `uint`.
    SampleIndex,
    /// `SV_DispatchThreadID`: `uint3`.
    GlobalInvocationId,
    /// `SV_GroupThreadID`: `uint3`.
    LocalInvocationId,
    /// `SV_GroupIndex`: `uint`.
    LocalInvocationIndex,
    /// `SV_GroupID`: `uint3`.
    WorkGroupId,
}

impl BuiltIn {
    /// The type the IR gives this built-in (front ends convert to the declared type).
    pub fn inner_type(self) -> TypeInner {
        let uint3 = TypeInner::Vector {
            size: VectorSize::Tri,
            scalar: Scalar::U32,
        };
        match self {
            BuiltIn::Position => TypeInner::Vector {
                size: VectorSize::Quad,
                scalar: Scalar::F32,
            },
            BuiltIn::VertexIndex
            | BuiltIn::InstanceIndex
            | BuiltIn::SampleIndex
            | BuiltIn::LocalInvocationIndex => TypeInner::Scalar(Scalar::U32),
            BuiltIn::FrontFacing => TypeInner::Scalar(Scalar::BOOL),
            BuiltIn::FragDepth => TypeInner::Scalar(Scalar::F32),
            BuiltIn::GlobalInvocationId | BuiltIn::LocalInvocationId | BuiltIn::WorkGroupId => {
                uint3
            }
        }
    }
}

/// How a user-defined stage input or output is interpolated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Interpolation {
    /// Perspective-correct (HLSL's default `linear`).
    Perspective,
    /// `noperspective`.
    Linear,
    /// `nointerpolation`.
    Flat,
}

/// Where within a pixel an input is interpolated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sampling {
    /// The pixel's centre.
    Center,
    /// `centroid`.
    Centroid,
    /// `sample`.
    Sample,
}

/// How an entry point's argument, result or struct member connects to the pipeline.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Binding {
    /// A system value.
    BuiltIn(BuiltIn),
    /// A user value at a location, with the semantic it was declared with.
    Location {
        /// The location index.
        location: u32,
        /// The HLSL semantic (`TEXCOORD0`, `SV_Target1`), for reflection.
        semantic: String,
        /// Interpolation, for pixel inputs and vertex outputs.
        interpolation: Option<Interpolation>,
        /// Sampling, for pixel inputs and vertex outputs.
        sampling: Option<Sampling>,
    },
}

/// The register class an HLSL resource was declared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum RegisterClass {
    /// `t`: shader resource views.
    T,
    /// `u`: unordered access views.
    U,
    /// `b`: constant buffers.
    B,
    /// `s`: samplers.
    S,
}

/// DXC's `-fvk-<class>-shift SHIFT SPACE`: resources declared with a `register` of
/// `class` in `space` (every space when `None`) get binding `SHIFT` + register number.
/// `[[vk::binding]]` is not shifted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BindingShift {
    /// The register class shifted.
    pub class: RegisterClass,
    /// Added to the register number.
    pub shift: u32,
    /// The register space (= descriptor set) it applies to; `None` for all (`all`).
    pub space: Option<u32>,
}

impl BindingShift {
    /// The binding of register `index` of `class` in `space` after the first matching
    /// shift of `shifts` (DXC applies one shift per class and space).
    pub fn apply(shifts: &[BindingShift], class: RegisterClass, index: u32, space: u32) -> u32 {
        shifts
            .iter()
            .find(|s| s.class == class && s.space.is_none_or(|wanted| wanted == space))
            .map_or(index, |s| index.saturating_add(s.shift))
    }
}

/// Where a resource is bound: the Vulkan/WebGPU (set, binding) pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ResourceBinding {
    /// Descriptor set (Vulkan) or bind group (WebGPU): the register space, or the
    /// set of `[[vk::binding]]`.
    pub set: u32,
    /// Binding number: the register index, or the binding of `[[vk::binding]]`.
    pub binding: u32,
}

/// What kind of HLSL resource a global is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResourceKind {
    /// `cbuffer` or `ConstantBuffer<T>`.
    ConstantBuffer,
    /// `tbuffer` or `TextureBuffer<T>`: constants with a `cbuffer`'s packing, read from a
    /// read-only storage buffer (DXC's SPIR-V: a `NonWritable` storage buffer). Its global
    /// is in [`AddressSpace::Storage`](crate::AddressSpace::Storage), not writable.
    TextureBuffer,
    /// `StructuredBuffer<T>`.
    StructuredBuffer,
    /// `RWStructuredBuffer<T>`.
    RWStructuredBuffer,
    /// `ByteAddressBuffer`.
    ByteAddressBuffer,
    /// `RWByteAddressBuffer`.
    RWByteAddressBuffer,
    /// `Texture*<T>`.
    Texture,
    /// `RWTexture*<T>`.
    RWTexture,
    /// `Buffer<T>`: a typed (texel) buffer read through a format; its type is an
    /// [`ImageDimension::Buffer`](crate::ImageDimension::Buffer) image.
    Buffer,
    /// `RWBuffer<T>`: a typed (texel) buffer read and written through a format.
    RWBuffer,
    /// `SamplerState` or `SamplerComparisonState`.
    Sampler,
    /// A `[[vk::push_constant]]` block: a struct, `ConstantBuffer<T>` or `cbuffer` in
    /// Vulkan push-constant memory. Its global is in [`AddressSpace::Uniform`] with the
    /// constant-buffer layout; its binding is no descriptor but where the targets without
    /// push constants (WGSL) place the uniform buffer that emulates it.
    ///
    /// [`AddressSpace::Uniform`]: crate::AddressSpace::Uniform
    PushConstant,
}

impl ResourceKind {
    /// The HLSL spelling.
    pub fn hlsl_name(self) -> &'static str {
        match self {
            ResourceKind::ConstantBuffer => "ConstantBuffer",
            ResourceKind::TextureBuffer => "TextureBuffer",
            ResourceKind::StructuredBuffer => "StructuredBuffer",
            ResourceKind::RWStructuredBuffer => "RWStructuredBuffer",
            ResourceKind::ByteAddressBuffer => "ByteAddressBuffer",
            ResourceKind::RWByteAddressBuffer => "RWByteAddressBuffer",
            ResourceKind::Texture => "Texture",
            ResourceKind::RWTexture => "RWTexture",
            ResourceKind::Buffer => "Buffer",
            ResourceKind::RWBuffer => "RWBuffer",
            ResourceKind::Sampler => "SamplerState",
            ResourceKind::PushConstant => "[[vk::push_constant]]",
        }
    }

    /// Whether it is a block of constants read through a pointer in uniform memory: a
    /// constant buffer or a push-constant block.
    pub fn is_constant_block(self) -> bool {
        matches!(
            self,
            ResourceKind::ConstantBuffer | ResourceKind::PushConstant
        )
    }

    /// Whether the shader may write it (a UAV).
    pub fn is_writable(self) -> bool {
        matches!(
            self,
            ResourceKind::RWStructuredBuffer
                | ResourceKind::RWByteAddressBuffer
                | ResourceKind::RWTexture
                | ResourceKind::RWBuffer
        )
    }
}

/// An HLSL resource's declaration details.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Resource {
    /// What kind of resource it is.
    pub kind: ResourceKind,
    /// The (set, binding) it is bound at.
    pub binding: ResourceBinding,
    /// The `register(...)` it was declared with, if any: class, index, space.
    pub register: Option<(RegisterClass, u32, u32)>,
}

/// A variable outside any function: a resource, `groupshared` or `static` data.
#[derive(Clone, Debug, PartialEq)]
pub struct GlobalVariable {
    /// The HLSL name.
    pub name: String,
    /// Where it lives.
    pub space: AddressSpace,
    /// Its type. A structured or byte-address buffer is a runtime-sized array of its
    /// elements (32-bit words for byte-address buffers).
    pub ty: Handle<Type>,
    /// For resources: kind and binding.
    pub resource: Option<Resource>,
    /// Source location of the declaration.
    pub span: Option<Span>,
}

/// A function's local variable.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalVariable {
    /// The HLSL name (temporaries made by the front end have generated names); shared,
    /// so that each copy an inlined call makes of a callee's locals keeps it for free.
    pub name: Arc<str>,
    /// Its type.
    pub ty: Handle<Type>,
    /// A value it starts with; when absent it starts zeroed.
    pub init: Option<Handle<Expression>>,
}

/// A function parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionArgument {
    /// The HLSL name.
    pub name: String,
    /// Its type; a pointer for `out`/`inout` parameters.
    pub ty: Handle<Type>,
    /// For entry points: where the value comes from.
    pub binding: Option<Binding>,
}

/// What a function returns.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionResult {
    /// The return type.
    pub ty: Handle<Type>,
    /// For entry points: where the value goes.
    pub binding: Option<Binding>,
}

/// A function: its signature, locals, expressions and body.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Function {
    /// The HLSL name (overloads get distinct names from the front end).
    pub name: String,
    /// Parameters.
    pub arguments: Vec<FunctionArgument>,
    /// The return type, if not `void`.
    pub result: Option<FunctionResult>,
    /// Local variables.
    pub local_variables: Arena<LocalVariable>,
    /// Every expression of the body.
    pub expressions: Arena<Expression>,
    /// The type of each expression, indexed like `expressions`.
    pub expression_types: Vec<Handle<Type>>,
    /// The statements.
    pub body: Block,
}

impl Function {
    /// Frees the capacity the arenas reserved while the function was built: a module
    /// of many functions otherwise holds up to twice the memory its expressions need.
    pub fn shrink_to_fit(&mut self) {
        self.local_variables.shrink_to_fit();
        self.expressions.shrink_to_fit();
        self.expression_types.shrink_to_fit();
        shrink_block(&mut self.body);
    }

    /// Makes room for at least `additional` more expressions (with their types), for a
    /// builder that can estimate how many it will add.
    pub fn reserve_expressions(&mut self, additional: usize) {
        self.expressions.reserve(additional);
        self.expression_types.reserve(additional);
    }

    /// Adds an expression of type `ty`.
    #[inline]
    pub fn add_expression(
        &mut self,
        expression: Expression,
        ty: Handle<Type>,
        span: Option<Span>,
    ) -> Handle<Expression> {
        self.expression_types.push(ty);
        self.expressions.append(expression, span)
    }

    /// The type of `expression`.
    #[allow(
        clippy::indexing_slicing,
        reason = "`add_expression` appends each expression with its type"
    )]
    pub fn type_of(&self, expression: Handle<Expression>) -> Handle<Type> {
        self.expression_types[expression.index()]
    }
}

/// Frees the spare capacity of `block` and of every block nested in it: a `Vec` grows
/// to at least four statements, and most of a function's blocks hold one or two.
fn shrink_block(block: &mut Block) {
    block.shrink_to_fit();
    for statement in block.iter_mut() {
        match statement {
            Statement::Block(inner) => shrink_block(inner),
            Statement::If { accept, reject, .. } => {
                shrink_block(accept);
                shrink_block(reject);
            }
            Statement::Switch { cases, .. } => {
                cases.shrink_to_fit();
                for case in cases.iter_mut() {
                    shrink_block(&mut case.body);
                }
            }
            Statement::Loop {
                body, continuing, ..
            } => {
                shrink_block(body);
                shrink_block(continuing);
            }
            _ => {}
        }
    }
}

/// A shader entry point.
#[derive(Clone, Debug, PartialEq)]
pub struct EntryPoint {
    /// The HLSL function name.
    pub name: String,
    /// The stage.
    pub stage: ShaderStage,
    /// `[numthreads(x, y, z)]` for compute; `[1, 1, 1]` otherwise.
    pub workgroup_size: [u32; 3],
    /// The entry function; its arguments and result carry bindings.
    pub function: Function,
    /// Source location of the declaration.
    pub span: Option<Span>,
}

/// A whole translated shader: everything the backends need.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// Every type, deduplicated.
    pub types: UniqueArena<Type>,
    /// Resources and other globals.
    pub global_variables: Arena<GlobalVariable>,
    /// Functions called by entry points (in an order where callees come first).
    pub functions: Arena<Function>,
    /// Entry points.
    pub entry_points: Vec<EntryPoint>,
    /// Where each struct type declared in the source was declared (its name), for
    /// diagnostics about the type itself, such as a target's limit on its members.
    /// Types the front end derives have no entry.
    pub struct_spans: FastHashMap<Handle<Type>, Span>,
}

impl Module {
    /// The HLSL spelling of type `ty`, for messages and reflection: its name when it has
    /// one, else `float`, `uint3`, `float4x3` (rows x columns), `float[4]`, `uint[]`.
    pub fn hlsl_type_name(&self, ty: Handle<Type>) -> String {
        let t = &self.types[ty];
        if let Some(name) = &t.name {
            return name.clone();
        }
        match &t.inner {
            TypeInner::Scalar(s) => s.hlsl_name().to_string(),
            TypeInner::Vector { size, scalar } => format!("{}{}", scalar.hlsl_name(), size.count()),
            TypeInner::Matrix {
                columns,
                rows,
                scalar,
            } => format!("{}{}x{}", scalar.hlsl_name(), rows.count(), columns.count()),
            TypeInner::Array { base, size, .. } => match size {
                ArraySize::Constant(n) => format!("{}[{n}]", self.hlsl_type_name(*base)),
                ArraySize::Runtime => format!("{}[]", self.hlsl_type_name(*base)),
            },
            TypeInner::Struct { .. } => "struct".into(),
            TypeInner::Pointer { base, .. } => self.hlsl_type_name(*base),
            TypeInner::Image { .. } => "texture".into(),
            TypeInner::Sampler { .. } => "sampler".into(),
        }
    }

    /// The handle of the unnamed type with structure `inner`, adding it if needed.
    pub fn type_handle(&mut self, inner: TypeInner) -> Handle<Type> {
        self.types.insert(Type { name: None, inner })
    }

    /// The structure of type `ty`.
    pub fn inner(&self, ty: Handle<Type>) -> &TypeInner {
        &self.types[ty].inner
    }

    /// The entry point named `name`.
    pub fn entry_point(&self, name: &str) -> Option<&EntryPoint> {
        self.entry_points.iter().find(|e| e.name == name)
    }
}
