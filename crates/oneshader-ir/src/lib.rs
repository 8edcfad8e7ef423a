//! The shared intermediate representation of oneshader.
//!
//! A [`Module`] owns arenas of types, global variables and functions; handles
//! ([`Handle<T>`]) index into them. Each [`Function`] owns its expressions, each with
//! a type and a span, and a body of structured [`Statement`]s. Wave, quad and bit
//! operations are first-class ([`WaveOp`], [`MathFunction`]), so every backend sees
//! them as such. [`analysis`] derives what a device must support.

pub mod analysis;
pub mod arena;
pub mod catalog;
pub mod diagnostic;
pub mod expression;
pub mod fold;
pub mod info;
pub mod inline;
pub mod mapping;
pub mod module;
pub mod samples;
pub mod source;
pub mod statement;
pub mod text;
pub mod types;
pub mod valid;
pub mod wave;
pub mod word_table;

pub use analysis::BodyFacts;
pub use arena::{Arena, Handle, HandleVec, UniqueArena};
pub use diagnostic::{codes, Code, Diagnostic, Diagnostics, Label, Severity};
pub use expression::{
    AtomicFunction, BinaryOperator, DerivativeAxis, DerivativeControl, Expression, ImageQuery,
    ImageSample, Literal, MathFunction, SampleLevel, SwizzleComponent, UnaryOperator,
};
pub use info::{EntryPointInfo, ModuleInfo};
pub use mapping::{bit_function_info, intrinsics_markdown, BitFunctionInfo};
pub use module::{
    Binding, BindingShift, BuiltIn, EntryPoint, Function, FunctionArgument, FunctionResult,
    GlobalVariable, Interpolation, LocalVariable, Module, RegisterClass, Resource, ResourceBinding,
    ResourceKind, Sampling, ShaderStage,
};
pub use source::{FileId, SourceFile, SourceMap, Span};
pub use statement::{Barrier, Block, Statement, SwitchCase, SwitchValue};
pub use types::{
    AddressSpace, ArraySize, ImageClass, ImageDimension, Scalar, ScalarKind, StorageFormat,
    StructMember, Type, TypeInner, VectorSize,
};
pub use wave::{SubgroupOperations, WaveOp, WaveOpInfo};
pub use word_table::{WordHash, WordTable};

/// The hash map of the compiler's own tables (arenas, names, ids): Fx hashing, which is
/// several times cheaper than std's SipHash on the small keys these tables hold
/// (handles, ids, short names). The keys come from the compiler, not from an adversary
/// hashing for collisions, so SipHash's flood resistance buys nothing here.
pub type FastHashMap<K, V> = rustc_hash::FxHashMap<K, V>;

/// The hash set counterpart of [`FastHashMap`].
pub type FastHashSet<K> = rustc_hash::FxHashSet<K>;

/// Concatenates string pieces (anything that is `AsRef<str>`) into a new `String` of
/// exactly their total length, in one allocation.
///
/// The backends' text writers build each expression as a `String`. `format!` spends most
/// of its time there on allocation: a format string that starts with an argument
/// (`"{left} + {right}"`) starts with no capacity and grows the string a few bytes at a
/// time, and each piece goes through the formatting machinery. `concat_text!(left, " + ",
/// right)` is the same text for pieces that are already strings.
#[macro_export]
macro_rules! concat_text {
    ($($piece:expr),+ $(,)?) => {
        // A `match` keeps the pieces' temporaries (`self.name(x)?`) alive to its end.
        match [$(::core::convert::AsRef::<str>::as_ref(&$piece)),+] {
            pieces => {
                let mut text = ::std::string::String::with_capacity(
                    pieces.iter().map(|piece| piece.len()).sum(),
                );
                for piece in pieces {
                    text.push_str(piece);
                }
                text
            }
        }
    };
}
