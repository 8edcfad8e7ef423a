//! The HLSL front end of oneshader: lexer, preprocessor, parser and lowering into the IR.
//!
//! [`lexer`] turns text into tokens, [`preprocess`] runs the C preprocessor on
//! those tokens, and [`parser`] builds the syntax tree of [`ast`] without any
//! semantic knowledge beyond the names of declared types; [`lower`] checks names,
//! types and overloads and builds the IR [`Module`]. [`compile`] runs them all.
//!
//! ```
//! use oneshader_hlsl::{ast, parse, MemoryLoader, PreprocessOptions};
//! use oneshader_ir::SourceMap;
//!
//! let mut sources = SourceMap::new();
//! let main = sources.add("a.hlsl", "#define N 4\nfloat v[N];");
//! let arena = ast::Arena::new();
//! let (unit, diagnostics) = parse(
//!     &arena,
//!     &mut sources,
//!     main,
//!     &PreprocessOptions::default(),
//!     &MemoryLoader::new(),
//! );
//! assert!(!diagnostics.has_errors());
//! assert_eq!(unit.items.len(), 1);
//! ```

pub mod ast;
pub mod lexer;
pub mod lower;
pub mod parser;
pub mod preprocess;
mod provenance;

pub use preprocess::{
    FileLoader, FsLoader, LoadedFile, MemoryLoader, PreprocessOptions, Preprocessed, ShaderKind,
    ShaderTarget,
};

pub use lower::LowerOptions;

use oneshader_ir::{Diagnostics, FileId, Module, SourceMap};

/// Preprocesses and parses the file `main` of `source_map` (included files are added to it).
///
/// Returns the syntax tree, which lives in `arena` and is complete as far as the input
/// allowed, and every diagnostic of lexing, preprocessing and parsing.
pub fn parse<'a>(
    arena: &'a ast::Arena,
    source_map: &mut SourceMap,
    main: FileId,
    options: &PreprocessOptions,
    loader: &dyn FileLoader,
) -> (ast::TranslationUnit<'a>, Diagnostics) {
    let mut diagnostics = Diagnostics::new();
    let preprocessed =
        preprocess::preprocess(arena, source_map, main, options, loader, &mut diagnostics);
    let records = provenance::Provenance {
        expansions: preprocessed.expansions,
        inclusions: preprocessed.inclusions,
    };
    let unit = parser::parse_preprocessed(
        arena,
        preprocessed.tokens,
        preprocessed.spellings,
        &mut diagnostics,
    );
    records.annotate(&mut diagnostics, source_map);
    (unit, diagnostics)
}

/// Everything the front end needs besides the source.
#[derive(Clone, Debug, Default)]
pub struct FrontendOptions {
    /// Defines, include directories and target for the preprocessor.
    pub preprocess: PreprocessOptions,
    /// Entry point selection.
    pub lower: LowerOptions,
}

/// Compiles the file `main` of `source_map` into an IR module.
///
/// Returns the module when there were no errors, and every diagnostic. A diagnostic
/// inside a macro expansion carries a label at the macro's definition, and one inside
/// an included file notes the include chain.
pub fn compile(
    source_map: &mut SourceMap,
    main: FileId,
    options: &FrontendOptions,
    loader: &dyn FileLoader,
) -> (Option<Module>, Diagnostics) {
    let mut diagnostics = Diagnostics::new();
    // The syntax tree and its spellings live here until lowering is done, and are freed
    // whole.
    let arena = ast::Arena::new();
    let preprocessed = preprocess::preprocess(
        &arena,
        source_map,
        main,
        &options.preprocess,
        loader,
        &mut diagnostics,
    );
    let records = provenance::Provenance {
        expansions: preprocessed.expansions,
        inclusions: preprocessed.inclusions,
    };
    let unit = parser::parse_preprocessed(
        &arena,
        preprocessed.tokens,
        preprocessed.spellings,
        &mut diagnostics,
    );
    let module = if diagnostics.has_errors() {
        None
    } else {
        lower::lower(&unit, &options.lower, &mut diagnostics)
    };
    records.annotate(&mut diagnostics, source_map);
    (module, diagnostics)
}
