//! The C preprocessor of HLSL, working on [`lexer`](crate::lexer) tokens.
//!
//! Macro expansion follows Prosser's algorithm: every token carries a hide set
//! of the macros it came from, and a macro is never expanded from a token
//! whose hide set names it, which is the "no re-expansion inside its own
//! expansion" rule of C. Tokens produced by a macro take the span of the use
//! site and record their [`MacroExpansion`] for later notes.
//!
//! Files come through a [`FileLoader`]: `#include "x"` and `#include <x>` are
//! looked up beside the including file, then in each include directory.
//! Predefined macros (`__HLSL_VERSION`, `__SHADER_TARGET_*`, `-D` defines) are
//! read from a `<built-in>` file added to the source map.

use std::cell::Cell;
use std::collections::VecDeque;
use std::rc::Rc;
use std::sync::Arc;

use oneshader_ir::{codes, Code, Diagnostic, Diagnostics, FileId, SourceMap, Span};
use oneshader_ir::{FastHashMap, FastHashSet};

use crate::ast::Arena;
use crate::lexer::{
    lex, lex_lines, parse_int_literal, ExpansionId, HideSet, IntSuffix, LineEnd, Lines, Spellings,
    Symbol, Token, TokenKind,
};

/// Includes may nest this deep (the main file is depth 1).
pub const MAX_INCLUDE_DEPTH: usize = 64;
/// Macro expansions may nest this deep.
pub const MAX_EXPANSION_DEPTH: usize = 256;
/// One macro use in the source may expand to at most this many tokens.
pub const MAX_EXPANDED_TOKENS: usize = 100_000;
/// The main file and everything it includes (each inclusion counted) may hold at most
/// this many bytes of source text: 64 MiB.
pub const MAX_SOURCE_BYTES: usize = 64 * 1024 * 1024;
/// Preprocessing may produce at most this many tokens (a few hundred bytes of memory
/// each), whatever produced them.
pub const MAX_OUTPUT_TOKENS: usize = 4_000_000;

/// The name of a predefined macro and its line `#define NAME VALUE` (with its newline).
macro_rules! predefined_line {
    ($name:expr, $value:expr) => {
        ($name, concat!("#define ", $name, " ", $value, "\n"))
    };
}

/// Declares [`ShaderKind`] and [`CONSTANT_PREDEFINED`] from one list of the kinds, each
/// with DXC's number and its `__SHADER_STAGE_*` suffix.
macro_rules! shader_kinds {
    ($($kind:ident = $number:literal $suffix:literal,)*) => {
        /// The shader kinds of DXC's `__SHADER_STAGE_*` macros, with DXC's numbers.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        #[allow(missing_docs)]
        pub enum ShaderKind {
            $($kind = $number,)*
        }

        /// The predefined macros that are the same in every compile, by name and line:
        /// DXC's version macros, then a `__SHADER_STAGE_*` macro for each [`ShaderKind`]
        /// with its number.
        const CONSTANT_PREDEFINED: &[(&str, &str)] = &[
            predefined_line!("__HLSL_VERSION", "2021"),
            predefined_line!("__hlsl_dx_compiler", "1"),
            $(predefined_line!(concat!("__SHADER_STAGE_", $suffix), stringify!($number)),)*
        ];
    };
}

shader_kinds! {
    Pixel = 0 "PIXEL",
    Vertex = 1 "VERTEX",
    Geometry = 2 "GEOMETRY",
    Hull = 3 "HULL",
    Domain = 4 "DOMAIN",
    Compute = 5 "COMPUTE",
    Library = 6 "LIBRARY",
    RayGeneration = 7 "RAYGENERATION",
    Intersection = 8 "INTERSECTION",
    AnyHit = 9 "ANYHIT",
    ClosestHit = 10 "CLOSESTHIT",
    Miss = 11 "MISS",
    Callable = 12 "CALLABLE",
    Mesh = 13 "MESH",
    Amplification = 14 "AMPLIFICATION",
}

/// The target profile as the preprocessor sees it (`cs_6_5` is compute, 6, 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShaderTarget {
    /// The stage, for `__SHADER_TARGET_STAGE`.
    pub stage: ShaderKind,
    /// `__SHADER_TARGET_MAJOR`.
    pub major: u32,
    /// `__SHADER_TARGET_MINOR`.
    pub minor: u32,
}

/// What the preprocessor is given besides the source: defines, include directories, target.
#[derive(Clone, Debug, Default)]
pub struct PreprocessOptions {
    /// `-D NAME[=VALUE]` defines in order; `None` defines the name as `1`.
    pub defines: Vec<(String, Option<String>)>,
    /// `-I` directories, searched in order after the including file's directory.
    pub include_dirs: Vec<String>,
    /// The target profile; without one, the `__SHADER_TARGET_*` macros are not defined.
    pub target: Option<ShaderTarget>,
}

/// A file found by a [`FileLoader`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadedFile {
    /// The canonical path: the same file always gets the same path (used for
    /// `#pragma once`, cycle detection and the source map's file name).
    pub path: String,
    /// The file's text.
    pub text: String,
}

/// Reads included files. The preprocessor asks for candidate paths in search order.
pub trait FileLoader {
    /// The file at `path`, or `None` when there is none.
    fn load(&self, path: &str) -> Option<LoadedFile>;
}

/// Files from the file system.
#[derive(Clone, Copy, Debug, Default)]
pub struct FsLoader;

impl FileLoader for FsLoader {
    fn load(&self, path: &str) -> Option<LoadedFile> {
        let text = std::fs::read_to_string(path).ok()?;
        let canonical = std::fs::canonicalize(path)
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| normalize_path(path));
        Some(LoadedFile {
            path: canonical,
            text,
        })
    }
}

/// Files held in memory, by normalised path (`a/./b/../c.hlsl` is `a/c.hlsl`).
#[derive(Clone, Debug, Default)]
pub struct MemoryLoader {
    files: FastHashMap<String, String>,
}

impl MemoryLoader {
    /// An empty loader.
    pub fn new() -> Self {
        MemoryLoader::default()
    }

    /// Adds (or replaces) the file at `path`.
    pub fn add(&mut self, path: &str, text: impl Into<String>) -> &mut Self {
        self.files.insert(normalize_path(path), text.into());
        self
    }
}

impl FileLoader for MemoryLoader {
    fn load(&self, path: &str) -> Option<LoadedFile> {
        let path = normalize_path(path);
        let text = self.files.get(&path)?.clone();
        Some(LoadedFile { path, text })
    }
}

/// `path` with `\` as `/`, and `.`, `..` and repeated separators resolved lexically.
pub fn normalize_path(path: &str) -> String {
    // Most paths are already normal (every compile normalizes the main file's).
    let relative = path.strip_prefix('/').unwrap_or(path);
    if !path.contains('\\') && relative.split('/').all(|p| !matches!(p, "" | "." | "..")) {
        return path.to_owned();
    }
    let path = path.replace('\\', "/");
    let absolute = path.starts_with('/');
    let mut parts: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." if parts.last().is_some_and(|p| *p != "..") => {
                parts.pop();
            }
            _ => parts.push(part),
        }
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

fn directory_of(path: &str) -> &str {
    path.rsplit_once('/').map(|(dir, _)| dir).unwrap_or("")
}

fn join_path(dir: &str, name: &str) -> String {
    if dir.is_empty() || name.starts_with('/') {
        name.to_string()
    } else {
        format!("{dir}/{name}")
    }
}

/// One macro expansion: which macro, where it was used, where it was defined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MacroExpansion {
    /// The macro's name (shared with the compile's spellings).
    pub name: Arc<str>,
    /// Where the macro was defined (`None` for built-in macros such as `__LINE__`).
    pub definition: Option<Span>,
    /// The use site: the name, through the `)` of a function-like call.
    pub call_site: Span,
    /// The expansion whose result contained this use, if any.
    pub parent: Option<ExpansionId>,
}

/// One `#include` that was followed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Inclusion {
    /// The included file.
    pub file: FileId,
    /// The `#include` directive.
    pub directive: Span,
}

/// The preprocessor's output, its spellings' texts in the compile's [`Arena`].
#[derive(Clone, Debug)]
pub struct Preprocessed<'a> {
    /// Tokens for the parser, without newlines, ending with [`TokenKind::Eof`].
    pub tokens: Vec<Token>,
    /// Every macro expansion, indexed by [`ExpansionId`].
    pub expansions: Vec<MacroExpansion>,
    /// Every followed `#include`, in order.
    pub inclusions: Vec<Inclusion>,
    /// The spellings of the tokens.
    pub spellings: Spellings<'a>,
}

#[derive(Debug)]
enum Builtin {
    Line,
    File,
}

#[derive(Debug)]
struct Macro {
    /// `None` for an object-like macro.
    params: Option<Vec<Symbol>>,
    variadic: bool,
    body: Vec<Token>,
    definition: Option<Span>,
    builtin: Option<Builtin>,
    /// The hide set of the macro's name alone: what its expansions from source
    /// tokens (which hide nothing) carry, shared by all of them; made at the first
    /// expansion ([`HideSet::EMPTY`] until then).
    own_hide: Cell<HideSet>,
}

#[derive(Debug)]
struct Conditional {
    /// The current branch is being compiled.
    active: bool,
    /// Some branch of this `#if` chain was (or must be treated as) taken.
    taken: bool,
    /// The enclosing code is being compiled.
    parent_active: bool,
    seen_else: bool,
    span: Span,
}

struct Frame {
    file: FileId,
    path: String,
    /// The tokens not read yet, ending with [`TokenKind::Eof`].
    tokens: std::vec::IntoIter<Token>,
    /// Where each line ends ([`Lines::ends`]); the last line ends at the end of file, one
    /// less than the number of tokens the file has (read or not).
    line_ends: Vec<LineEnd>,
    /// The first of `line_ends` not behind the tokens read so far, or before it.
    line: usize,
    conditionals: Vec<Conditional>,
    line_delta: i64,
    name_override: Option<String>,
    /// The lexer's invalid-character errors (OSH0010), in source order: reported when
    /// their line is read in an active region, dropped in a skipped one (as clang does).
    invalid_characters: std::collections::VecDeque<Diagnostic>,
}

impl Frame {
    /// The index in the file's tokens of the next token to read.
    fn next_index(&self) -> usize {
        let count = self
            .line_ends
            .last()
            .map_or(0, |end| end.token as usize + 1);
        count.saturating_sub(self.tokens.len())
    }

    /// How many tokens the line being read has left before its end (another line or the
    /// end of file), and where in the file that line ends; past the last token of a line,
    /// the next line with tokens is the one being read.
    fn line_length(&mut self) -> (usize, u32) {
        let next = self.next_index();
        while self
            .line_ends
            .get(self.line)
            .is_some_and(|end| end.token as usize <= next)
        {
            self.line += 1;
        }
        match self.line_ends.get(self.line) {
            Some(end) => (end.token as usize - next, end.byte),
            None => {
                let rest = self.tokens.as_slice();
                let eof = rest.iter().position(|t| t.kind == TokenKind::Eof);
                (eof.unwrap_or(rest.len()), u32::MAX)
            }
        }
    }

    /// The text from the next token on that can go to the output as it is, with the line
    /// being read (of `length` tokens left): the text lines after it up to the next
    /// directive or the end of file (only while no invalid character waits to be
    /// reported, as they are reported line by line), up to the first name of a macro in
    /// `macros`. Returns how many tokens precede that name (all of them when there is
    /// none) and how many up to the end of its line.
    fn plain_text(&self, length: usize, macros: &[Option<Rc<Macro>>]) -> (usize, usize) {
        let rest = self.tokens.as_slice();
        let next = self.next_index();
        let is_macro = |t: &Token| {
            t.ident_text()
                .is_some_and(|name| macros.get(name.index()).is_some_and(Option::is_some))
        };
        let mut start = 0;
        let mut end = length;
        let mut line = self.line;
        loop {
            // While no macro has been defined, no token names one.
            if !macros.is_empty() {
                let text = rest.get(start..end).unwrap_or_default();
                if let Some(at) = text.iter().position(is_macro) {
                    return (start + at, end);
                }
            }
            if !self.invalid_characters.is_empty() {
                return (end, end);
            }
            // The next line with tokens, unless it is the end of file or a directive.
            let next_end = loop {
                line += 1;
                match self.line_ends.get(line) {
                    Some(line_end) if (line_end.token as usize).saturating_sub(next) == end => {
                        continue
                    }
                    Some(line_end) => break (line_end.token as usize).saturating_sub(next),
                    None => return (end, end),
                }
            };
            if rest.get(end).is_none_or(|t| t.kind == TokenKind::Hash) {
                return (end, end);
            }
            start = end;
            end = next_end;
        }
    }

    fn active(&self) -> bool {
        self.conditionals.last().is_none_or(|c| c.active)
    }
}

/// Runs the preprocessor on `main` (already in `source_map`); included files are added to it.
///
/// The spellings of the tokens go to `arena` (where the syntax tree parsed from them
/// will name them).
pub fn preprocess<'a>(
    arena: &'a Arena,
    source_map: &mut SourceMap,
    main: FileId,
    options: &PreprocessOptions,
    loader: &dyn FileLoader,
    diagnostics: &mut Diagnostics,
) -> Preprocessed<'a> {
    let spellings = Spellings::new(arena);
    // The `<built-in>` file is the source map's next file, after the main one, before any
    // inclusion.
    let mut predefined = Predefined::new(options);
    let builtin = source_map.add("<built-in>", std::mem::take(&mut predefined.text));
    let mut pp = Preprocessor {
        spellings,
        hide_sets: HideSets::default(),
        map: source_map,
        loader,
        include_dirs: &options.include_dirs,
        diagnostics,
        macros: Vec::new(),
        predefined: LazyPredefined {
            file: builtin,
            numbers: std::mem::take(&mut predefined.numbers),
            checked: 0,
        },
        frames: Vec::new(),
        pending: VecDeque::new(),
        isolated: false,
        out: Vec::new(),
        substitution: Vec::new(),
        expansions: Vec::new(),
        inclusions: Vec::new(),
        once: FastHashSet::default(),
        depth: 0,
        produced: 0,
        limit_reported: false,
        source_bytes: 0,
    };
    let (main_bytes, main_path) = match pp.map.get(main) {
        Some(f) => (f.text.len(), normalize_path(&f.name)),
        None => (0, String::new()),
    };
    let main_start = Span::new(main, 0, 0);
    if pp.accept_source(main_bytes, &main_path, main_start) {
        // The main file is lexed from the source map's text, without a copy of it.
        let mut lexed = Diagnostics::new();
        let text = pp.map.get(main).map_or("", |f| &f.text);
        let mut lines = lex_lines(main, text, 0, &mut pp.spellings, &mut lexed);
        pp.map
            .set_line_starts(main, std::mem::take(&mut lines.starts));
        pp.push_tokens(main, main_path, lines, lexed);
        // The output is about as long as the main file, with a token a line to spare for
        // what macro expansions add.
        let room = pp
            .frames
            .last()
            .map_or(0, |f| f.tokens.len() + f.line_ends.len());
        pp.out.reserve(room);
    }
    pp.read_command_line(builtin, predefined.commands);

    pp.run();
    let end = pp.map.get(main).map(|f| f.text.len() as u32).unwrap_or(0);
    pp.out.push(Token::new(
        TokenKind::Eof,
        Symbol::EMPTY,
        Span::new(main, end, end),
    ));
    Preprocessed {
        tokens: pp.out,
        expansions: pp.expansions,
        inclusions: pp.inclusions,
        spellings: pp.spellings,
    }
}

/// The `<built-in>` file: a `#define` line for each predefined macro, then one for each
/// command-line define.
///
/// The predefined macros' values are numbers: their lines are recorded as they are
/// written and defined directly ([`Preprocessor::define_predefined`]) once their names
/// are lexed, without lexing them or running them as directives; only the command-line
/// defines are read as source ([`Preprocessor::read_command_line`]).
struct Predefined {
    /// The file's text (moved into the source map before preprocessing starts).
    text: String,
    /// The predefined lines.
    numbers: Vec<NumberLine>,
    /// Where the command-line defines start in `text` (where the predefined lines end).
    commands: usize,
}

/// The macros of the target profile's stage, major and minor versions, defined when
/// there is a target.
const TARGET_NAMES: [&str; 3] = [
    "__SHADER_TARGET_STAGE",
    "__SHADER_TARGET_MAJOR",
    "__SHADER_TARGET_MINOR",
];

/// One `#define NAME VALUE` line of [`Predefined`] (whose values are numbers).
#[derive(Clone, Copy)]
struct NumberLine {
    name: &'static str,
    /// Where the line starts.
    start: u32,
    /// Where its value ends (before its newline).
    end: u32,
}

impl NumberLine {
    /// Where the value starts, after `#define NAME `.
    fn value_start(&self) -> u32 {
        self.start + ("#define ".len() + self.name.len() + 1) as u32
    }
}

impl Predefined {
    fn new(options: &PreprocessOptions) -> Predefined {
        use std::fmt::Write as _;
        let mut predefined = Predefined {
            text: String::with_capacity(1024),
            numbers: Vec::with_capacity(CONSTANT_PREDEFINED.len() + TARGET_NAMES.len()),
            commands: 0,
        };
        for &(name, line) in CONSTANT_PREDEFINED {
            predefined.line(name, |text| text.push_str(line));
        }
        if let Some(target) = options.target {
            let values = [target.stage as u32, target.major, target.minor];
            for (name, value) in TARGET_NAMES.into_iter().zip(values) {
                predefined.line(name, |text| {
                    text.push_str("#define ");
                    text.push_str(name);
                    text.push(' ');
                    // Without the formatting machinery: this is a fixed cost of every compile.
                    oneshader_ir::text::push_decimal(text, u64::from(value));
                    text.push('\n');
                });
            }
        }
        predefined.commands = predefined.text.len();
        for (name, value) in &options.defines {
            let value = value.as_deref().unwrap_or("1").replace('\n', " ");
            let _ = writeln!(predefined.text, "#define {name} {value}");
        }
        predefined
    }

    /// Records the line `#define NAME VALUE\n` that `write` writes.
    fn line(&mut self, name: &'static str, write: impl FnOnce(&mut String)) {
        let start = self.text.len() as u32;
        write(&mut self.text);
        let end = self.text.len() as u32 - 1;
        self.numbers.push(NumberLine { name, start, end });
    }
}

/// The predefined macros of one run, not yet defined ([`Preprocessor::define_predefined`]).
struct LazyPredefined {
    /// The `<built-in>` file.
    file: FileId,
    /// Its `#define NAME NUMBER` lines.
    numbers: Vec<NumberLine>,
    /// How many spellings have been checked for a predefined name.
    checked: usize,
}

/// A predefined macro: built in, or a `#define NAME NUMBER` line of [`Predefined`].
enum PredefinedName {
    Builtin(Builtin),
    Number(NumberLine),
}

struct Preprocessor<'a, 's> {
    /// The spellings of every token read or made.
    spellings: Spellings<'s>,
    /// The hide sets of the tokens made by expansions.
    hide_sets: HideSets,
    map: &'a mut SourceMap,
    loader: &'a dyn FileLoader,
    include_dirs: &'a [String],
    diagnostics: &'a mut Diagnostics,
    /// The defined macros by the [`Symbol`] of their name (the table is as long as the
    /// largest name symbol ever defined), so that a name is looked up without hashing.
    macros: Vec<Option<Rc<Macro>>>,
    /// The predefined macros, defined as their names are first lexed.
    predefined: LazyPredefined,
    frames: Vec<Frame>,
    /// Tokens waiting to be read: rescanned macro output, then the rest of the current line.
    pending: VecDeque<Token>,
    /// Reading only `pending` (expanding a macro argument on its own).
    isolated: bool,
    out: Vec<Token>,
    /// The buffer a macro's substitution is built in, empty between expansions, kept
    /// so that each expansion does not allocate its own (an expansion within one
    /// builds in a new buffer).
    substitution: Vec<Token>,
    /// Every macro expansion so far ([`Preprocessed::expansions`]).
    expansions: Vec<MacroExpansion>,
    /// Every followed `#include` so far ([`Preprocessed::inclusions`]).
    inclusions: Vec<Inclusion>,
    /// Canonical paths of `#pragma once` files.
    once: FastHashSet<String>,
    /// Nesting of isolated argument expansions.
    depth: usize,
    /// Tokens produced by the expansion of the current macro use in the source.
    produced: usize,
    /// Bytes of source text read so far (the main file and each inclusion).
    source_bytes: usize,
    limit_reported: bool,
}

/// The hide sets of one preprocessing run, by [`HideSet`]: each set made once, the
/// empty set first. Sets are small (a macro name each level of a nested expansion), so
/// their names are kept one after another in one buffer rather than each in its own
/// allocation.
struct HideSets {
    /// The names of every set, each set's together.
    names: Vec<Symbol>,
    /// Where each set's names are in `names`, by [`HideSet`].
    sets: Vec<(u32, u32)>,
    /// The last union made, as `(a, b, a ∪ b)`: the tokens of one substitution mostly
    /// repeat it.
    last_union: (HideSet, HideSet, HideSet),
}

impl Default for HideSets {
    fn default() -> Self {
        HideSets {
            names: Vec::new(),
            sets: vec![(0, 0)],
            last_union: (HideSet::EMPTY, HideSet::EMPTY, HideSet::EMPTY),
        }
    }
}

impl HideSets {
    /// Where the names of `set` are in `names`.
    fn range(&self, set: HideSet) -> std::ops::Range<usize> {
        self.sets
            .get(set.0 as usize)
            .map_or(0..0, |&(start, end)| start as usize..end as usize)
    }

    /// The names of `set`.
    fn names(&self, set: HideSet) -> &[Symbol] {
        self.names.get(self.range(set)).unwrap_or_default()
    }

    fn contains(&self, set: HideSet, name: Symbol) -> bool {
        set != HideSet::EMPTY && self.names(set).contains(&name)
    }

    fn len(&self, set: HideSet) -> usize {
        self.names(set).len()
    }

    /// The set of `name` alone.
    fn single(&mut self, name: Symbol) -> HideSet {
        let start = self.names.len();
        self.names.push(name);
        self.finish(start)
    }

    /// The set of the names after the first `start` in `names` (the empty set if there
    /// are none).
    fn finish(&mut self, start: usize) -> HideSet {
        if self.names.len() == start {
            return HideSet::EMPTY;
        }
        self.sets.push((start as u32, self.names.len() as u32));
        HideSet(self.sets.len() as u32 - 1)
    }

    /// Appends to `names` the names of `set` that `other` holds (`held`), or that it does
    /// not hold (`!held`).
    fn append_where(&mut self, set: HideSet, other: HideSet, held: bool) {
        for i in self.range(set) {
            let Some(&name) = self.names.get(i) else {
                break;
            };
            if self.names(other).contains(&name) == held {
                self.names.push(name);
            }
        }
    }

    /// `set` with `name` added; `own` is the set of `name` alone, used when `set` is empty.
    fn with(&mut self, set: HideSet, name: Symbol, own: HideSet) -> HideSet {
        if set == HideSet::EMPTY {
            return own;
        }
        if self.names(set).contains(&name) {
            return set;
        }
        let start = self.names.len();
        self.names.extend_from_within(self.range(set));
        self.names.push(name);
        self.finish(start)
    }

    fn union(&mut self, a: HideSet, b: HideSet) -> HideSet {
        if a == HideSet::EMPTY || a == b {
            return b;
        }
        if b == HideSet::EMPTY {
            return a;
        }
        let (last_a, last_b, last) = self.last_union;
        if (last_a, last_b) == (a, b) {
            return last;
        }
        // The names of `b` that `a` lacks, then those of `a`; `a` itself if there are none.
        let start = self.names.len();
        self.append_where(b, a, false);
        let union = if self.names.len() == start {
            a
        } else {
            self.names.extend_from_within(self.range(a));
            self.finish(start)
        };
        self.last_union = (a, b, union);
        union
    }

    fn intersection(&mut self, a: HideSet, b: HideSet) -> HideSet {
        if a == HideSet::EMPTY || b == HideSet::EMPTY {
            return HideSet::EMPTY;
        }
        let start = self.names.len();
        self.append_where(a, b, true);
        self.finish(start)
    }
}

/// The spelling of tokens as `#` stringizes them: whitespace between two tokens, a line
/// break included, is one space.
fn spell(spellings: &Spellings<'_>, tokens: &[Token]) -> String {
    let mut text = String::new();
    for (i, t) in tokens.iter().enumerate() {
        // The first token of a line has no leading space of its own: the line break is.
        if i > 0 && (t.leading_space || t.line_start) {
            text.push(' ');
        }
        text.push_str(spellings.text(t.text));
    }
    text
}

impl Preprocessor<'_, '_> {
    fn error(&mut self, code: Code, span: Span, message: impl Into<String>) {
        self.diagnostics
            .push(Diagnostic::error(code, span, message));
    }

    /// Defines `name` as the built-in macro `builtin`.
    fn define_builtin(&mut self, name: Symbol, builtin: Builtin) {
        self.set_macro(
            name,
            Some(Macro {
                params: None,
                variadic: false,
                body: Vec::new(),
                definition: None,
                builtin: Some(builtin),
                own_hide: Cell::new(HideSet::EMPTY),
            }),
        );
    }

    /// Defines (or with `None`, undefines) the macro `name`.
    fn set_macro(&mut self, name: Symbol, m: Option<Macro>) {
        let index = name.index();
        if self.macros.len() <= index {
            if m.is_none() {
                return;
            }
            self.macros.resize(index + 1, None);
        }
        if let Some(slot) = self.macros.get_mut(index) {
            *slot = m.map(Rc::new);
        }
    }

    /// The hide set of `m`'s name `name` alone, made at its first use.
    fn own_hide(&mut self, m: &Macro, name: Symbol) -> HideSet {
        if m.own_hide.get() == HideSet::EMPTY {
            m.own_hide.set(self.hide_sets.single(name));
        }
        m.own_hide.get()
    }

    /// The macro `name`, if one is defined.
    fn macro_named(&self, name: Symbol) -> Option<&Rc<Macro>> {
        self.macros.get(name.index()).and_then(Option::as_ref)
    }

    /// Reads the command-line defines, the text of `file` from byte `commands` on: lexed,
    /// then run as directives before the main file.
    fn read_command_line(&mut self, file: FileId, start: usize) {
        let text = self.map.get(file).map_or("", |f| f.text.as_str());
        let commands = text.get(start..).unwrap_or_default();
        if commands.is_empty() {
            return;
        }
        let mut lexed = Diagnostics::new();
        let lines = lex_lines(
            file,
            commands,
            start as u32,
            &mut self.spellings,
            &mut lexed,
        );
        self.push_tokens(file, String::new(), lines, lexed);
    }

    /// Defines the predefined macros named by the spellings interned since the last call.
    ///
    /// A predefined macro is defined only once its name has been lexed (it cannot be used,
    /// tested or undefined before), which spares every compile defining them all. Called
    /// after each lexing, before the lexed tokens are read, so the macros are defined as
    /// if they had been from the start.
    fn define_predefined(&mut self) {
        let first = std::mem::replace(&mut self.predefined.checked, self.spellings.len());
        let mut found = Vec::new();
        for (symbol, text) in self.spellings.since(first) {
            // Every predefined name begins with two underscores.
            if !text.starts_with("__") {
                continue;
            }
            let known = match text {
                "__LINE__" => Some(PredefinedName::Builtin(Builtin::Line)),
                "__FILE__" => Some(PredefinedName::Builtin(Builtin::File)),
                _ => self
                    .predefined
                    .numbers
                    .iter()
                    .find(|line| line.name == text)
                    .map(|&line| PredefinedName::Number(line)),
            };
            found.extend(known.map(|known| (symbol, known)));
        }
        for (name, known) in found {
            match known {
                PredefinedName::Builtin(builtin) => self.define_builtin(name, builtin),
                PredefinedName::Number(line) => self.define_number(name, line),
            }
        }
    }

    /// Defines `name` as the number of `line` of the predefined macros.
    fn define_number(&mut self, name: Symbol, line: NumberLine) {
        let file = self.predefined.file;
        let builtin = self.map.get(file).map_or("", |f| &f.text);
        let value_start = line.value_start();
        let value = builtin
            .get(value_start as usize..line.end as usize)
            .unwrap_or_default();
        let value_span = Span::new(file, value_start, line.end);
        let definition = Span::new(file, line.start, line.end);
        let mut value = Token::new(
            TokenKind::IntLiteral,
            self.spellings.intern(value),
            value_span,
        );
        value.leading_space = true;
        self.set_macro(
            name,
            Some(Macro {
                params: None,
                variadic: false,
                body: vec![value],
                definition: Some(definition),
                builtin: None,
                own_hide: Cell::new(HideSet::EMPTY),
            }),
        );
    }

    /// Counts `bytes` more source text towards [`MAX_SOURCE_BYTES`]; past it, reports
    /// OSH0002 at `span` and returns false (the file is not read).
    fn accept_source(&mut self, bytes: usize, path: &str, span: Span) -> bool {
        self.source_bytes = self.source_bytes.saturating_add(bytes);
        if self.source_bytes <= MAX_SOURCE_BYTES {
            return true;
        }
        self.error(
            codes::SOURCE_NOT_ACCEPTED,
            span,
            format!(
                "reading '{path}' ({bytes} bytes) takes the source past {} MiB; it was not read",
                MAX_SOURCE_BYTES >> 20
            ),
        );
        false
    }

    /// Lexes `file` (its text in the source map) and starts reading it (as
    /// [`Preprocessor::push_tokens`]).
    fn push_file(&mut self, file: FileId, path: String) {
        let mut lexed = Diagnostics::new();
        let text = self.map.get(file).map_or("", |f| &f.text);
        let mut lines = lex_lines(file, text, 0, &mut self.spellings, &mut lexed);
        self.map
            .set_line_starts(file, std::mem::take(&mut lines.starts));
        self.push_tokens(file, path, lines, lexed);
    }

    /// Starts reading the `tokens` of `file`, lexed with the diagnostics `lexed`: invalid
    /// characters wait for their line to be read in an active region, the rest are reported.
    fn push_tokens(&mut self, file: FileId, path: String, lines: Lines, lexed: Diagnostics) {
        self.define_predefined();
        let mut invalid_characters = std::collections::VecDeque::new();
        for diagnostic in lexed.into_vec() {
            if diagnostic.code == codes::INVALID_CHARACTER {
                invalid_characters.push_back(diagnostic);
            } else {
                self.diagnostics.push(diagnostic);
            }
        }
        self.frames.push(Frame {
            invalid_characters,
            file,
            path,
            tokens: lines.tokens.into_iter(),
            line_ends: lines.ends,
            line: 0,
            conditionals: Vec::new(),
            line_delta: 0,
            name_override: None,
        });
    }

    // ----- reading ------------------------------------------------------------------------

    /// The next token to process, reading (and running directives of) further lines as needed.
    fn next_token(&mut self) -> Option<Token> {
        if self.pending.is_empty() && !self.isolated && !self.read_line() {
            return None;
        }
        self.pending.pop_front()
    }

    /// Whether the next token is `(`, reading further lines when needed (a macro call may span lines).
    fn next_is_lparen(&mut self) -> bool {
        if self.pending.is_empty() && !self.isolated && !self.read_line() {
            return false;
        }
        self.pending.front().map(|t| t.kind) == Some(TokenKind::LParen)
    }

    /// Moves the next active text line into `pending`, running directives on the way.
    fn read_line(&mut self) -> bool {
        let Some(length) = self.next_text_line() else {
            return false;
        };
        if let Some(frame) = self.frames.last_mut() {
            self.pending.extend(frame.tokens.by_ref().take(length));
        }
        true
    }

    /// Finds the next active text line, running directives on the way: the line is the
    /// next `length` tokens of the innermost frame. `None` at the end of the input.
    fn next_text_line(&mut self) -> Option<usize> {
        loop {
            let frame = self.frames.last_mut()?;
            if frame
                .tokens
                .as_slice()
                .first()
                .is_none_or(|t| t.kind == TokenKind::Eof)
            {
                self.finish_file();
                continue;
            }
            let (length, line_end) = frame.line_length();
            let rest = frame.tokens.as_slice();
            // Invalid characters before the end of this line belong to it (or to lines
            // without tokens before it, which are in the same region).
            let active = frame.active();
            while frame
                .invalid_characters
                .front()
                .is_some_and(|d| d.span.is_none_or(|span| span.start < line_end))
            {
                if let Some(diagnostic) = frame.invalid_characters.pop_front() {
                    if active {
                        self.diagnostics.push(diagnostic);
                    }
                }
            }
            match rest.first().map(|t| t.kind) {
                Some(TokenKind::Hash) => {
                    let line: Vec<Token> = frame.tokens.by_ref().take(length).collect();
                    self.directive(line);
                }
                Some(_) if active && length > 0 => return Some(length),
                _ => {
                    frame.tokens.by_ref().take(length).for_each(drop);
                }
            }
        }
    }

    /// Preprocesses the whole input into `out`.
    ///
    /// Source lines are copied to the output directly up to their first macro name;
    /// from there on, the line goes through `pending` and [`Preprocessor::process`].
    fn run(&mut self) {
        loop {
            let token = match self.pending.pop_front() {
                Some(token) => token,
                None => {
                    let Some(length) = self.next_text_line() else {
                        return;
                    };
                    let Some(frame) = self.frames.last_mut() else {
                        return;
                    };
                    // The text up to the first macro name goes to the output as it is
                    // (all of it while no macro has ever been defined).
                    #[cfg(test)]
                    let (plain, length) = match tests::COPY_NOTHING.get() {
                        true => (0, length),
                        false => frame.plain_text(length, &self.macros),
                    };
                    #[cfg(not(test))]
                    let (plain, length) = frame.plain_text(length, &self.macros);
                    let text = frame.tokens.as_slice().get(..length).unwrap_or_default();
                    // The output limit holds at each token up to the macro name: past it,
                    // the token at the limit is reported.
                    let room = MAX_OUTPUT_TOKENS.saturating_sub(self.out.len());
                    if let Some(over) = text.get(room).filter(|_| room <= plain) {
                        let span = over.span;
                        self.out
                            .extend_from_slice(text.get(..room).unwrap_or_default());
                        self.output_limit(span);
                        return;
                    }
                    self.out
                        .extend_from_slice(text.get(..plain).unwrap_or_default());
                    if let Some(last_plain) = plain.checked_sub(1) {
                        frame.tokens.nth(last_plain);
                    }
                    if plain < length {
                        self.pending
                            .extend(frame.tokens.by_ref().take(length - plain));
                    }
                    continue;
                }
            };
            if self.out.len() >= MAX_OUTPUT_TOKENS {
                self.output_limit(token.span);
                return;
            }
            self.process(token);
        }
    }

    /// Reports that the output reached [`MAX_OUTPUT_TOKENS`] at `span`.
    fn output_limit(&mut self, span: Span) {
        self.error(
            codes::SOURCE_NOT_ACCEPTED,
            span,
            format!(
                "preprocessing produced more than {MAX_OUTPUT_TOKENS} tokens; the rest of the input was not read"
            ),
        );
    }

    fn finish_file(&mut self) {
        if let Some(frame) = self.frames.pop() {
            if frame.active() {
                self.diagnostics.extend(frame.invalid_characters);
            }
            for c in frame.conditionals {
                self.error(
                    codes::UNBALANCED_CONDITIONAL,
                    c.span,
                    "this conditional directive has no matching #endif",
                );
            }
        }
    }

    // ----- expansion ----------------------------------------------------------------------

    /// Expands `token` if it names a macro; otherwise emits it.
    fn process(&mut self, token: Token) {
        if let Some(name) = token.ident_text() {
            if token.expansion.is_none() && !self.isolated {
                self.produced = 0;
            }
            if !self.hide_sets.contains(token.hide, name) {
                if let Some(m) = self.macro_named(name).cloned() {
                    if self.expand(token, &m) {
                        return;
                    }
                }
            }
        }
        self.out.push(token);
    }

    fn record_expansion(
        &mut self,
        name: Symbol,
        m: &Macro,
        call_site: Span,
        parent: Option<ExpansionId>,
    ) -> ExpansionId {
        let id = ExpansionId(self.expansions.len() as u32);
        self.expansions.push(MacroExpansion {
            name: self.spellings.shared(name),
            definition: m.definition,
            call_site,
            parent,
        });
        id
    }

    /// Expands one macro use, pushing the result back for rescanning.
    /// `false` when `name` turned out not to be a use (a function-like macro without `(`).
    fn expand(&mut self, name: Token, m: &Macro) -> bool {
        let macro_name = name.text;
        if let Some(builtin) = &m.builtin {
            let (kind, text) = match builtin {
                Builtin::Line => (TokenKind::IntLiteral, self.line_of(name.span).to_string()),
                Builtin::File => (TokenKind::StringLiteral, self.file_literal(name.span)),
            };
            let id = self.record_expansion(macro_name, m, name.span, name.expansion);
            let text = self.spellings.intern(&text);
            let mut t = Token::new(kind, text, name.span);
            t.leading_space = name.leading_space;
            t.expansion = Some(id);
            self.pending.push_front(t);
            return true;
        }
        if self.hide_sets.len(name.hide) >= MAX_EXPANSION_DEPTH {
            self.limit(
                name.span,
                format!("macro expansion nests deeper than {MAX_EXPANSION_DEPTH} levels"),
            );
            return false;
        }
        let (args, call_site, hide) = match &m.params {
            None => (Vec::new(), name.span, {
                let own = self.own_hide(m, macro_name);
                self.hide_sets.with(name.hide, macro_name, own)
            }),
            Some(params) => {
                if !self.next_is_lparen() {
                    return false;
                }
                let Some((args, rparen)) = self.collect_arguments(&name) else {
                    return true;
                };
                let expected = params.len();
                let args = self.check_argument_count(&name, m, args, expected);
                let Some(args) = args else {
                    return true;
                };
                let common = self.hide_sets.intersection(name.hide, rparen.hide);
                let own = self.own_hide(m, macro_name);
                let hide = self.hide_sets.with(common, macro_name, own);
                (args, name.span.to(rparen.span), hide)
            }
        };
        let id = self.record_expansion(macro_name, m, call_site, name.expansion);
        let mut result = std::mem::take(&mut self.substitution);
        self.substitute(m, &args, hide, &mut result);
        self.produced += result.len();
        if self.produced > MAX_EXPANDED_TOKENS {
            self.limit(
                call_site,
                format!("macro expansion produces more than {MAX_EXPANDED_TOKENS} tokens"),
            );
            return true;
        }
        for (i, t) in result.iter_mut().enumerate() {
            t.span = call_site;
            t.expansion = Some(id);
            // A line break before an argument's token stays whitespace, for `#`.
            t.leading_space |= t.line_start;
            t.line_start = false;
            if i == 0 {
                t.leading_space = name.leading_space;
            }
        }
        for t in result.drain(..).rev() {
            self.pending.push_front(t);
        }
        self.substitution = result;
        true
    }

    /// Reports a runaway expansion (once) and drops what it has produced so far.
    fn limit(&mut self, span: Span, message: String) {
        self.pending.retain(|t| t.expansion.is_none());
        if !self.limit_reported {
            self.limit_reported = true;
            self.error(codes::MACRO_EXPANSION_LIMIT, span, message);
        }
    }

    /// The arguments of a call whose `(` is next, and the closing `)`.
    fn collect_arguments(&mut self, name: &Token) -> Option<(Vec<Vec<Token>>, Token)> {
        self.next_token(); // the `(`
        let mut args = vec![Vec::new()];
        let mut depth = 0usize;
        loop {
            let Some(t) = self.next_token() else {
                self.error(
                    codes::MACRO_ARGUMENTS,
                    name.span,
                    format!(
                        "unterminated call of macro '{}'",
                        self.spellings.text(name.text)
                    ),
                );
                return None;
            };
            match t.kind {
                TokenKind::LParen => depth += 1,
                TokenKind::RParen if depth == 0 => return Some((args, t)),
                TokenKind::RParen => depth -= 1,
                TokenKind::Comma if depth == 0 => {
                    args.push(Vec::new());
                    continue;
                }
                _ => {}
            }
            if let Some(last) = args.last_mut() {
                last.push(t);
            }
        }
    }

    /// Matches arguments to parameters (joining variadic ones); `None` after a diagnostic.
    fn check_argument_count(
        &mut self,
        name: &Token,
        m: &Macro,
        mut args: Vec<Vec<Token>>,
        params: usize,
    ) -> Option<Vec<Vec<Token>>> {
        // `F()` passes one empty argument, which is no argument for `F()`.
        if params == 0 && matches!(&args[..], [only] if only.is_empty()) {
            args.clear();
        }
        if m.variadic {
            let named = params - 1;
            if args.len() == named {
                args.push(Vec::new());
            }
            if args.len() > named + 1 {
                let rest = args.split_off(named);
                let mut joined = Vec::new();
                for (i, arg) in rest.into_iter().enumerate() {
                    if i > 0 {
                        let comma = self.spellings.intern(",");
                        joined.push(Token::new(TokenKind::Comma, comma, name.span));
                    }
                    joined.extend(arg);
                }
                args.push(joined);
            }
        }
        if args.len() != params {
            let wanted = if m.variadic {
                format!("at least {}", params - 1)
            } else {
                params.to_string()
            };
            self.error(
                codes::MACRO_ARGUMENTS,
                name.span,
                format!(
                    "macro '{}' takes {wanted} argument(s), but {} were given",
                    self.spellings.text(name.text),
                    args.len()
                ),
            );
            return None;
        }
        Some(args)
    }

    /// The fully macro-expanded form of `tokens` alone (a macro argument, an `#if` line).
    fn expand_isolated(&mut self, tokens: Vec<Token>) -> Vec<Token> {
        if self.depth >= MAX_EXPANSION_DEPTH {
            let span = tokens.first().map(|t| t.span);
            if let Some(span) = span {
                self.limit(
                    span,
                    format!("macro arguments nest deeper than {MAX_EXPANSION_DEPTH} levels"),
                );
            }
            return tokens;
        }
        self.depth += 1;
        let saved_pending = std::mem::replace(&mut self.pending, tokens.into());
        let saved_out = std::mem::take(&mut self.out);
        let saved_isolated = std::mem::replace(&mut self.isolated, true);
        while let Some(t) = self.next_token() {
            self.process(t);
        }
        self.isolated = saved_isolated;
        self.pending = saved_pending;
        self.depth -= 1;
        std::mem::replace(&mut self.out, saved_out)
    }

    /// The body of `m` with parameters replaced, `#` and `##` applied, and `hide` added,
    /// appended to `out` (empty).
    fn substitute(&mut self, m: &Macro, args: &[Vec<Token>], hide: HideSet, out: &mut Vec<Token>) {
        let params: &[Symbol] = m.params.as_deref().unwrap_or(&[]);
        let param_index = |t: &Token| -> Option<usize> {
            let text = t.ident_text()?;
            if m.variadic && text == Symbol::VA_ARGS {
                return Some(params.len() - 1);
            }
            params.iter().position(|&p| p == text)
        };
        let body = &m.body;
        let mut expanded_cache: FastHashMap<usize, Vec<Token>> = FastHashMap::default();
        // The caller checked the count; a parameter past the arguments is empty.
        let argument = |p: usize| args.get(p).map(Vec::as_slice).unwrap_or_default();
        let mut i = 0;
        while let Some(t) = body.get(i) {
            // `# param`
            if t.kind == TokenKind::Hash && m.params.is_some() {
                if let Some(p) = body.get(i + 1).and_then(param_index) {
                    let text = spell(&self.spellings, argument(p))
                        .replace('\\', "\\\\")
                        .replace('"', "\\\"");
                    let text = self.spellings.intern(&format!("\"{text}\""));
                    let mut s = Token::new(TokenKind::StringLiteral, text, t.span);
                    s.leading_space = t.leading_space;
                    out.push(s);
                    i += 2;
                    continue;
                }
            }
            // `lhs ## rhs`
            if let (TokenKind::HashHash, Some(rhs_token)) = (t.kind, body.get(i + 1)) {
                let rhs: Vec<Token> = match param_index(rhs_token) {
                    Some(p) => argument(p).to_vec(),
                    None => vec![*rhs_token],
                };
                i += 2;
                // GNU `, ## __VA_ARGS__`: drops the comma when there are no variadic arguments.
                if m.variadic
                    && rhs_token.is_word(Symbol::VA_ARGS)
                    && out.last().map(|t| t.kind) == Some(TokenKind::Comma)
                {
                    if rhs.is_empty() {
                        out.pop();
                    } else {
                        out.extend(rhs);
                    }
                    continue;
                }
                let mut rhs = rhs.into_iter();
                let Some(first) = rhs.next() else {
                    continue;
                };
                match out.pop() {
                    Some(lhs) if lhs.kind != TokenKind::Placemarker => {
                        let pasted = self.paste(&lhs, &first);
                        out.extend(pasted);
                    }
                    _ => out.push(first),
                }
                out.extend(rhs);
                continue;
            }
            if let Some(p) = param_index(t) {
                let next_is_paste = body.get(i + 1).map(|t| t.kind) == Some(TokenKind::HashHash);
                let mut arg = if next_is_paste {
                    argument(p).to_vec()
                } else {
                    match expanded_cache.get(&p) {
                        Some(e) => e.clone(),
                        None => {
                            let e = self.expand_isolated(argument(p).to_vec());
                            expanded_cache.insert(p, e.clone());
                            e
                        }
                    }
                };
                if arg.is_empty() && next_is_paste {
                    out.push(Token::new(TokenKind::Placemarker, Symbol::EMPTY, t.span));
                } else {
                    if let Some(first) = arg.first_mut() {
                        first.leading_space = t.leading_space;
                    }
                    out.extend(arg);
                }
                i += 1;
                continue;
            }
            out.push(*t);
            i += 1;
        }
        out.retain(|t| t.kind != TokenKind::Placemarker);
        for t in out.iter_mut() {
            t.hide = self.hide_sets.union(t.hide, hide);
        }
    }

    /// `lhs ## rhs`: one token from both spellings, or both tokens after a diagnostic.
    fn paste(&mut self, lhs: &Token, rhs: &Token) -> Vec<Token> {
        let (lhs_text, rhs_text) = (self.spellings.text(lhs.text), self.spellings.text(rhs.text));
        let text = format!("{lhs_text}{rhs_text}");
        let mut scratch = Diagnostics::new();
        let tokens = lex(lhs.span.file, &text, &mut self.spellings, &mut scratch);
        self.define_predefined();
        // One token and the end of input.
        if let ([pasted, _], false) = (&tokens[..], scratch.has_errors()) {
            let mut t = *lhs;
            t.kind = pasted.kind;
            t.text = self.spellings.intern(&text);
            t.hide = self.hide_sets.intersection(lhs.hide, rhs.hide);
            return vec![t];
        }
        let message = format!(
            "pasting '{}' and '{}' does not give a valid token",
            self.spellings.text(lhs.text),
            self.spellings.text(rhs.text)
        );
        self.error(codes::BAD_TOKEN_PASTE, lhs.span, message);
        vec![*lhs, *rhs]
    }

    fn line_of(&self, span: Span) -> i64 {
        let line = self
            .map
            .get(span.file)
            .map(|f| f.line_column(span.start).0)
            .unwrap_or(0) as i64;
        let delta = self
            .frames
            .iter()
            .rev()
            .find(|f| f.file == span.file)
            .map_or(0, |f| f.line_delta);
        (line + delta).max(0)
    }

    fn file_literal(&self, span: Span) -> String {
        let name = self
            .frames
            .iter()
            .rev()
            .find(|f| f.file == span.file)
            .and_then(|f| f.name_override.clone())
            .or_else(|| self.map.get(span.file).map(|f| f.name.clone()))
            .unwrap_or_default();
        format!("\"{}\"", name.replace('\\', "\\\\").replace('"', "\\\""))
    }

    // ----- directives ---------------------------------------------------------------------

    fn directive(&mut self, line: Vec<Token>) {
        let Some(hash) = line.first().map(|t| t.span) else {
            return;
        };
        let line_span = line.last().map_or(hash, |t| hash.to(t.span));
        let line_end = Span::new(line_span.file, line_span.end, line_span.end);
        let Some(name) = line.get(1) else {
            return; // the null directive `#`
        };
        let name_text: Arc<str> = match name.ident_text() {
            Some(symbol) => self.spellings.shared(symbol),
            None => Arc::from(""),
        };
        let rest: Vec<Token> = line.get(2..).unwrap_or_default().to_vec();
        let active = self.frames.last().is_some_and(Frame::active);
        match &*name_text {
            "if" | "ifdef" | "ifndef" => {
                let value = active && self.condition(&name_text, &rest, name.span, line_end);
                if let Some(frame) = self.frames.last_mut() {
                    frame.conditionals.push(Conditional {
                        active: value,
                        taken: value || !active,
                        parent_active: active,
                        seen_else: false,
                        span: line_span,
                    });
                }
            }
            "elif" | "else" => {
                let Some(top) = self.frames.last().and_then(|f| f.conditionals.last()) else {
                    self.error(
                        codes::UNBALANCED_CONDITIONAL,
                        line_span,
                        format!("#{name_text} without #if"),
                    );
                    return;
                };
                let (seen_else, evaluate) = (top.seen_else, top.parent_active && !top.taken);
                if seen_else {
                    self.error(
                        codes::UNBALANCED_CONDITIONAL,
                        line_span,
                        format!("#{name_text} after #else"),
                    );
                }
                let value = if &*name_text == "elif" {
                    evaluate && self.condition("if", &rest, name.span, line_end)
                } else {
                    evaluate
                };
                if let Some(top) = self
                    .frames
                    .last_mut()
                    .and_then(|f| f.conditionals.last_mut())
                {
                    top.active = value;
                    top.taken |= value;
                    top.seen_else |= &*name_text == "else";
                }
            }
            "endif" => {
                let popped = self.frames.last_mut().and_then(|f| f.conditionals.pop());
                if popped.is_none() {
                    self.error(
                        codes::UNBALANCED_CONDITIONAL,
                        line_span,
                        "#endif without #if",
                    );
                }
            }
            _ if !active => {}
            "define" => self.define(&rest, line_span),
            "undef" => match rest.first().and_then(|t| t.ident_text()) {
                Some(n) => self.set_macro(n, None),
                None => self.error(codes::BAD_DIRECTIVE, line_span, "#undef needs a macro name"),
            },
            "include" => self.include(rest, line_span),
            "error" => self.error(
                codes::ERROR_DIRECTIVE,
                line_span,
                format!("#error {}", spell(&self.spellings, &rest)),
            ),
            "warning" => self.diagnostics.push(Diagnostic::warning(
                codes::WARNING_DIRECTIVE,
                line_span,
                format!("#warning {}", spell(&self.spellings, &rest)),
            )),
            "pragma" => self.pragma(&rest, line_span),
            "line" => self.line_directive(rest, line_span),
            _ => self.error(
                codes::BAD_DIRECTIVE,
                name.span,
                format!(
                    "unknown preprocessor directive '#{}'",
                    self.spellings.text(name.text)
                ),
            ),
        }
    }

    fn define(&mut self, rest: &[Token], span: Span) {
        let Some(name) = rest.first().and_then(|t| t.ident_text()) else {
            self.error(codes::BAD_DIRECTIVE, span, "#define needs a macro name");
            return;
        };
        if name == Symbol::DEFINED {
            self.error(
                codes::BAD_DIRECTIVE,
                span,
                "'defined' cannot be a macro name",
            );
            return;
        }
        let mut i = 1;
        let mut params = None;
        let mut variadic = false;
        if rest
            .get(1)
            .is_some_and(|t| t.kind == TokenKind::LParen && !t.leading_space)
        {
            let mut list = Vec::new();
            i = 2;
            loop {
                match rest.get(i).map(|t| t.kind) {
                    Some(TokenKind::RParen) if list.is_empty() && !variadic => {
                        i += 1;
                        break;
                    }
                    Some(TokenKind::Dot)
                        if rest.get(i + 1).map(|t| t.kind) == Some(TokenKind::Dot)
                            && rest.get(i + 2).map(|t| t.kind) == Some(TokenKind::Dot) =>
                    {
                        variadic = true;
                        list.push(Symbol::VA_ARGS);
                        i += 3;
                    }
                    Some(TokenKind::Ident | TokenKind::Keyword(_)) if !variadic => {
                        list.extend(rest.get(i).map(|t| t.text));
                        i += 1;
                    }
                    _ => {
                        self.error(codes::BAD_DIRECTIVE, span, "malformed macro parameter list");
                        return;
                    }
                }
                match rest.get(i).map(|t| t.kind) {
                    Some(TokenKind::Comma) if !variadic => i += 1,
                    Some(TokenKind::RParen) => {
                        i += 1;
                        break;
                    }
                    _ => {
                        self.error(codes::BAD_DIRECTIVE, span, "malformed macro parameter list");
                        return;
                    }
                }
            }
            params = Some(list);
        }
        let body: Vec<Token> = rest.get(i..).unwrap_or_default().to_vec();
        if body.first().map(|t| t.kind) == Some(TokenKind::HashHash)
            || body.last().map(|t| t.kind) == Some(TokenKind::HashHash)
        {
            self.error(
                codes::BAD_DIRECTIVE,
                span,
                "'##' cannot begin or end a macro body",
            );
            return;
        }
        self.set_macro(
            name,
            Some(Macro {
                params,
                variadic,
                body,
                definition: Some(span),
                builtin: None,
                own_hide: Cell::new(HideSet::EMPTY),
            }),
        );
    }

    fn include(&mut self, rest: Vec<Token>, span: Span) {
        let rest = match rest.first().map(|t| t.kind) {
            Some(TokenKind::StringLiteral | TokenKind::Lt) => rest,
            _ => self.expand_isolated(rest),
        };
        let name = match rest.first() {
            Some(first) if first.kind == TokenKind::StringLiteral => {
                crate::lexer::unescape_string(self.spellings.text(first.text)).replace('\\', "/")
            }
            Some(first) if first.kind == TokenKind::Lt => {
                let Some(close) = rest.iter().position(|t| t.kind == TokenKind::Gt) else {
                    self.error(
                        codes::BAD_DIRECTIVE,
                        span,
                        "#include <…> has no closing '>'",
                    );
                    return;
                };
                let mut name = String::new();
                for t in rest.get(1..close).unwrap_or_default() {
                    if t.leading_space && !name.is_empty() {
                        name.push(' ');
                    }
                    name.push_str(self.spellings.text(t.text));
                }
                name.replace('\\', "/")
            }
            _ => {
                self.error(
                    codes::BAD_DIRECTIVE,
                    span,
                    "#include expects \"file\" or <file>",
                );
                return;
            }
        };
        let including = self
            .frames
            .last()
            .map(|f| f.path.clone())
            .unwrap_or_default();
        let mut candidates = vec![join_path(directory_of(&including), &name)];
        candidates.extend(self.include_dirs.iter().map(|d| join_path(d, &name)));
        let Some(found) = candidates.iter().find_map(|c| self.loader.load(c)) else {
            self.error(
                codes::INCLUDE_NOT_FOUND,
                span,
                format!("cannot find include file '{name}'"),
            );
            return;
        };
        if self.once.contains(&found.path) {
            return;
        }
        if self.frames.len() > MAX_INCLUDE_DEPTH {
            let chain: Vec<&str> = self.frames.iter().map(|f| f.path.as_str()).collect();
            // The innermost repetition is the cycle itself, named once.
            let cycle = chain
                .iter()
                .rposition(|p| *p == found.path)
                .and_then(|last| chain.get(last..));
            let message = match cycle {
                Some(cycle) => format!(
                    "include cycle: {} -> {}: guard the headers with #pragma once, or remove one of these #includes",
                    cycle.join(" -> "),
                    found.path
                ),
                None => format!("includes nest deeper than {MAX_INCLUDE_DEPTH} levels"),
            };
            self.error(codes::INCLUDE_DEPTH, span, message);
            return;
        }
        if !self.accept_source(found.text.len(), &found.path, span) {
            return;
        }
        let file = match self.map.find(&found.path) {
            Some(id) => id,
            None => self.map.add(found.path.clone(), found.text),
        };
        self.inclusions.push(Inclusion {
            file,
            directive: span,
        });
        self.push_file(file, found.path);
    }

    fn pragma(&mut self, rest: &[Token], span: Span) {
        let word = |t: &Token| t.ident_text().map(|s| self.spellings.text(s));
        match rest.first().and_then(word) {
            Some("once") => {
                if let Some(frame) = self.frames.last() {
                    self.once.insert(frame.path.clone());
                }
            }
            Some("pack_matrix") => {
                let order = rest
                    .get(2)
                    .filter(|t| matches!(word(t), Some("row_major" | "column_major")));
                match order {
                    Some(order) => {
                        let t = Token::new(TokenKind::PragmaPackMatrix, order.text, span);
                        self.out.push(t);
                    }
                    _ => self.error(
                        codes::BAD_DIRECTIVE,
                        span,
                        "#pragma pack_matrix expects (row_major) or (column_major)",
                    ),
                }
            }
            _ => {}
        }
    }

    fn line_directive(&mut self, rest: Vec<Token>, span: Span) {
        let rest = self.expand_isolated(rest);
        let number = rest
            .first()
            .filter(|t| t.kind == TokenKind::IntLiteral)
            .and_then(|t| parse_int_literal(self.spellings.text(t.text)).ok());
        let Some((number, _)) = number else {
            self.error(codes::BAD_DIRECTIVE, span, "#line expects a line number");
            return;
        };
        let physical = self
            .map
            .get(span.file)
            .map(|f| f.line_column(span.start).0)
            .unwrap_or(0) as i64;
        let name = rest
            .get(1)
            .filter(|t| t.kind == TokenKind::StringLiteral)
            .map(|t| crate::lexer::unescape_string(self.spellings.text(t.text)));
        if let Some(frame) = self.frames.last_mut() {
            frame.line_delta = number as i64 - (physical + 1);
            if name.is_some() {
                frame.name_override = name;
            }
        }
    }

    /// Evaluates `#if`/`#ifdef`/`#ifndef`; errors count as false.
    fn condition(&mut self, kind: &str, rest: &[Token], span: Span, line_end: Span) -> bool {
        if kind != "if" {
            let Some(name) = rest.first().and_then(|t| t.ident_text()) else {
                self.error(
                    codes::BAD_CONDITION,
                    span,
                    format!("#{kind} needs a macro name"),
                );
                return false;
            };
            let defined = self.macro_named(name).is_some();
            return defined == (kind == "ifdef");
        }
        // `defined X` and `defined(X)` before expansion.
        let mut replaced = Vec::with_capacity(rest.len());
        let mut i = 0;
        while let Some(token) = rest.get(i) {
            if token.is_word(Symbol::DEFINED) {
                let (name, len) = if rest.get(i + 1).map(|t| t.kind) == Some(TokenKind::LParen) {
                    let ok = rest.get(i + 3).map(|t| t.kind) == Some(TokenKind::RParen);
                    (
                        rest.get(i + 2).filter(|_| ok).and_then(|t| t.ident_text()),
                        4,
                    )
                } else {
                    (rest.get(i + 1).and_then(|t| t.ident_text()), 2)
                };
                let Some(name) = name else {
                    self.error(
                        codes::BAD_CONDITION,
                        token.span,
                        "'defined' needs a macro name",
                    );
                    return false;
                };
                let value = if self.macro_named(name).is_some() {
                    "1"
                } else {
                    "0"
                };
                let value = self.spellings.intern(value);
                replaced.push(Token::new(TokenKind::IntLiteral, value, token.span));
                i += len;
            } else {
                replaced.push(*token);
                i += 1;
            }
        }
        let tokens = self.expand_isolated(replaced);
        let mut eval = ConditionEvaluator {
            spellings: &self.spellings,
            tokens: &tokens,
            pos: 0,
            depth: 0,
            error: None,
            end: line_end,
        };
        let value = eval.expression(true);
        if let (None, Some(extra)) = (&eval.error, tokens.get(eval.pos)) {
            let text = eval.spellings.text(extra.text);
            eval.fail(extra.span, format!("unexpected '{text}' in #if"));
        }
        if tokens.is_empty() {
            eval.fail(span, "#if with no expression".to_string());
        }
        match eval.error {
            Some((span, message)) => {
                self.error(codes::BAD_CONDITION, span, message);
                false
            }
            None => value.value != 0,
        }
    }
}

/// An `#if` value: C's `intmax_t` or `uintmax_t`.
#[derive(Clone, Copy, Debug)]
struct PpValue {
    value: u64,
    unsigned: bool,
}

impl PpValue {
    fn signed(v: i64) -> PpValue {
        PpValue {
            value: v as u64,
            unsigned: false,
        }
    }
}

/// Evaluates a macro-expanded `#if` expression with C's integer rules.
struct ConditionEvaluator<'t> {
    spellings: &'t Spellings<'t>,
    tokens: &'t [Token],
    pos: usize,
    depth: usize,
    error: Option<(Span, String)>,
    end: Span,
}

impl ConditionEvaluator<'_> {
    const ZERO: PpValue = PpValue {
        value: 0,
        unsigned: false,
    };

    fn fail(&mut self, span: Span, message: String) {
        if self.error.is_none() {
            self.error = Some((span, message));
        }
    }

    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn peek_kind(&self) -> Option<TokenKind> {
        self.peek().map(|t| t.kind)
    }

    fn here(&self) -> Span {
        self.peek().map_or(self.end, |t| t.span)
    }

    fn expression(&mut self, evaluate: bool) -> PpValue {
        let mut value = self.conditional(evaluate);
        while self.peek_kind() == Some(TokenKind::Comma) {
            self.pos += 1;
            value = self.conditional(evaluate);
        }
        value
    }

    fn conditional(&mut self, evaluate: bool) -> PpValue {
        let condition = self.binary(1, evaluate);
        if self.peek_kind() != Some(TokenKind::Question) {
            return condition;
        }
        self.pos += 1;
        let take = condition.value != 0;
        let accept = self.expression(evaluate && take);
        if self.peek_kind() != Some(TokenKind::Colon) {
            let span = self.here();
            self.fail(span, "expected ':' in #if expression".to_string());
            return Self::ZERO;
        }
        self.pos += 1;
        let reject = self.conditional(evaluate && !take);
        let unsigned = accept.unsigned || reject.unsigned;
        PpValue {
            value: if take { accept.value } else { reject.value },
            unsigned,
        }
    }

    fn binary(&mut self, min_precedence: u8, evaluate: bool) -> PpValue {
        let mut lhs = self.unary(evaluate);
        loop {
            let Some(kind) = self.peek_kind() else {
                return lhs;
            };
            let precedence = match kind {
                TokenKind::PipePipe => 1,
                TokenKind::AmpAmp => 2,
                TokenKind::Pipe => 3,
                TokenKind::Caret => 4,
                TokenKind::Amp => 5,
                TokenKind::EqEq | TokenKind::NotEq => 6,
                TokenKind::Lt | TokenKind::Gt | TokenKind::LtEq | TokenKind::GtEq => 7,
                TokenKind::Shl | TokenKind::Shr => 8,
                TokenKind::Plus | TokenKind::Minus => 9,
                TokenKind::Star | TokenKind::Slash | TokenKind::Percent => 10,
                _ => return lhs,
            };
            if precedence < min_precedence {
                return lhs;
            }
            let op_span = self.here();
            self.pos += 1;
            let rhs_evaluate = match kind {
                TokenKind::AmpAmp => evaluate && lhs.value != 0,
                TokenKind::PipePipe => evaluate && lhs.value == 0,
                _ => evaluate,
            };
            let rhs = self.binary(precedence + 1, rhs_evaluate);
            lhs = self.apply(kind, lhs, rhs, evaluate && rhs_evaluate, op_span);
        }
    }

    fn apply(
        &mut self,
        kind: TokenKind,
        lhs: PpValue,
        rhs: PpValue,
        evaluate: bool,
        span: Span,
    ) -> PpValue {
        let unsigned = lhs.unsigned || rhs.unsigned;
        let (a, b) = (lhs.value, rhs.value);
        let (sa, sb) = (a as i64, b as i64);
        let boolean = |v: bool| PpValue::signed(v as i64);
        let arith = |value: u64| PpValue { value, unsigned };
        match kind {
            TokenKind::PipePipe => boolean(a != 0 || b != 0),
            TokenKind::AmpAmp => boolean(a != 0 && b != 0),
            TokenKind::Pipe => arith(a | b),
            TokenKind::Caret => arith(a ^ b),
            TokenKind::Amp => arith(a & b),
            TokenKind::EqEq => boolean(a == b),
            TokenKind::NotEq => boolean(a != b),
            TokenKind::Lt => boolean(if unsigned { a < b } else { sa < sb }),
            TokenKind::Gt => boolean(if unsigned { a > b } else { sa > sb }),
            TokenKind::LtEq => boolean(if unsigned { a <= b } else { sa <= sb }),
            TokenKind::GtEq => boolean(if unsigned { a >= b } else { sa >= sb }),
            TokenKind::Shl => PpValue {
                value: a.wrapping_shl(b as u32),
                unsigned: lhs.unsigned,
            },
            TokenKind::Shr => PpValue {
                value: if lhs.unsigned {
                    a.wrapping_shr(b as u32)
                } else {
                    sa.wrapping_shr(b as u32) as u64
                },
                unsigned: lhs.unsigned,
            },
            TokenKind::Plus => arith(a.wrapping_add(b)),
            TokenKind::Minus => arith(a.wrapping_sub(b)),
            TokenKind::Star => arith(a.wrapping_mul(b)),
            TokenKind::Slash | TokenKind::Percent => {
                if b == 0 {
                    if evaluate {
                        self.fail(span, "division by zero in #if expression".to_string());
                    }
                    return Self::ZERO;
                }
                let divide = kind == TokenKind::Slash;
                arith(match (unsigned, divide) {
                    (true, true) => a / b,
                    (true, false) => a % b,
                    (false, true) => sa.wrapping_div(sb) as u64,
                    (false, false) => sa.wrapping_rem(sb) as u64,
                })
            }
            _ => Self::ZERO,
        }
    }

    fn unary(&mut self, evaluate: bool) -> PpValue {
        let Some(token) = self.peek().copied() else {
            self.fail(self.end, "#if expression ends too early".to_string());
            return Self::ZERO;
        };
        self.pos += 1;
        match token.kind {
            TokenKind::Plus => self.unary(evaluate),
            TokenKind::Minus => {
                let v = self.unary(evaluate);
                PpValue {
                    value: v.value.wrapping_neg(),
                    unsigned: v.unsigned,
                }
            }
            TokenKind::Tilde => {
                let v = self.unary(evaluate);
                PpValue {
                    value: !v.value,
                    unsigned: v.unsigned,
                }
            }
            TokenKind::Bang => {
                let v = self.unary(evaluate);
                PpValue::signed((v.value == 0) as i64)
            }
            TokenKind::LParen => {
                self.depth += 1;
                if self.depth > 200 {
                    self.fail(token.span, "#if expression nests too deep".to_string());
                    return Self::ZERO;
                }
                let v = self.expression(evaluate);
                self.depth -= 1;
                if self.peek_kind() != Some(TokenKind::RParen) {
                    let span = self.here();
                    self.fail(span, "expected ')' in #if expression".to_string());
                } else {
                    self.pos += 1;
                }
                v
            }
            TokenKind::IntLiteral => match parse_int_literal(self.spellings.text(token.text)) {
                Ok((value, suffix)) => PpValue {
                    value,
                    unsigned: matches!(suffix, IntSuffix::Unsigned | IntSuffix::UnsignedLong)
                        || value > i64::MAX as u64,
                },
                Err(e) => {
                    self.fail(token.span, e.0);
                    Self::ZERO
                }
            },
            TokenKind::CharLiteral => {
                let inner = self.spellings.text(token.text).trim_matches('\'');
                let value = crate::lexer::unescape_string(inner)
                    .chars()
                    .next()
                    .map_or(0, |c| c as u64);
                PpValue::signed(value as i64)
            }
            TokenKind::Keyword(crate::lexer::Keyword::True) => PpValue::signed(1),
            // Identifiers left after expansion are 0, as in C (`false` included).
            TokenKind::Ident | TokenKind::Keyword(_) => Self::ZERO,
            _ => {
                self.fail(
                    token.span,
                    format!(
                        "'{}' cannot appear in an #if expression",
                        self.spellings.text(token.text)
                    ),
                );
                Self::ZERO
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        /// Whether [`Preprocessor::run`] sends every token through `process` one line at a
        /// time, copying nothing as it is: the simple form its copying is checked against.
        pub(super) static COPY_NOTHING: Cell<bool> = const { Cell::new(false) };
    }

    /// Preprocesses `main.hlsl` of `loader` and returns the output spelling and diagnostics.
    fn run_with(loader: &MemoryLoader, options: &PreprocessOptions) -> (String, Vec<String>) {
        let mut map = SourceMap::new();
        let text = loader.load("main.hlsl").map(|f| f.text).unwrap_or_default();
        let main = map.add("main.hlsl", text);
        let mut diagnostics = Diagnostics::new();
        let arena = Arena::new();
        let out = preprocess(&arena, &mut map, main, options, loader, &mut diagnostics);
        let text: Vec<&str> = out
            .tokens
            .iter()
            .filter(|t| t.kind != TokenKind::Eof)
            .map(|t| out.spellings.text(t.text))
            .collect();
        let diags = diagnostics
            .iter()
            .map(|d| d.to_short_string(&map))
            .collect();
        (text.join(" "), diags)
    }

    fn run(src: &str) -> (String, Vec<String>) {
        let mut loader = MemoryLoader::new();
        loader.add("main.hlsl", src);
        run_with(&loader, &PreprocessOptions::default())
    }

    /// Every output token (kind, spelling, span, spacing, expansion) and diagnostic of
    /// `src`, with the text copied as it is or every token processed one by one.
    fn run_detailed(src: &str, copy_nothing: bool) -> (Vec<String>, Vec<String>) {
        COPY_NOTHING.set(copy_nothing);
        let mut map = SourceMap::new();
        let main = map.add("main.hlsl", src.to_owned());
        let mut diagnostics = Diagnostics::new();
        let loader = MemoryLoader::new();
        let arena = Arena::new();
        let out = preprocess(
            &arena,
            &mut map,
            main,
            &PreprocessOptions::default(),
            &loader,
            &mut diagnostics,
        );
        COPY_NOTHING.set(false);
        let tokens = out
            .tokens
            .iter()
            .map(|t| {
                format!(
                    "{:?} {:?} {:?} {} {} {:?}",
                    t.kind,
                    out.spellings.text(t.text),
                    t.span,
                    t.leading_space,
                    t.line_start,
                    t.expansion
                )
            })
            .collect();
        let diags = diagnostics
            .iter()
            .map(|d| d.to_short_string(&map))
            .collect();
        (tokens, diags)
    }

    /// The text copied as it is, several lines at a time, is what processing every token
    /// gives: on random lines of names, macros defined and undefined between them, calls
    /// spanning lines, `#if 0` regions and invalid characters.
    #[test]
    fn copied_text_is_the_text_processed_token_by_token() {
        let lines = [
            "a b c",
            "x y",
            "",
            "  F(1,",
            "2) z",
            "F (a) F",
            "(b)",
            "O O x",
            "#define O 7",
            "#define F(p) [p]",
            "#define x y y",
            "#undef O",
            "#undef F",
            "#undef x",
            "#if 0",
            "#endif",
            "#if 1",
            "@ a",
            "b ` c",
            "S(a",
            "b)",
            "#define S(v) #v",
            "/* a",
            "b */ c",
            "d // O",
            "e \\",
            "f",
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        for length in 0..500 {
            let mut text = String::new();
            let mut open = 0;
            for _ in 0..length % 30 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let line = lines[(state % lines.len() as u64) as usize];
                // Keep `#if`s and `#endif`s balanced, as most files are.
                match line {
                    "#if 0" | "#if 1" => open += 1,
                    "#endif" if open == 0 => continue,
                    "#endif" => open -= 1,
                    _ => {}
                }
                text.push_str(line);
                text.push('\n');
            }
            for _ in 0..open {
                text.push_str("#endif\n");
            }
            assert_eq!(
                run_detailed(&text, false),
                run_detailed(&text, true),
                "{text:?}"
            );
        }
    }

    #[test]
    fn invalid_characters_count_in_active_lines_only() {
        let (out, diags) = run("#if 0\nskipped @ text ` here\n#endif\nint a;\n");
        assert_eq!(out, "int a ;");
        assert!(diags.is_empty(), "{diags:?}");
        let (_, diags) = run("#ifdef X\n@\n#else\nint a; @\n@\n#endif\n$");
        let invalid: Vec<&String> = diags.iter().filter(|d| d.contains("OSH0010")).collect();
        assert_eq!(invalid.len(), 3, "{diags:?}");
        assert!(invalid[0].contains("(4,"), "{diags:?}");
        assert!(invalid[1].contains("(5,"), "{diags:?}");
        assert!(invalid[2].contains("(7,"), "{diags:?}");
    }

    fn expand(src: &str) -> String {
        let (text, diags) = run(src);
        assert!(diags.is_empty(), "{diags:#?}");
        text
    }

    #[test]
    fn object_and_function_like_macros() {
        assert_eq!(expand("#define N 4\nfloat a[N];"), "float a [ 4 ] ;");
        assert_eq!(
            expand("#define SQ(x) ((x)*(x))\nSQ(a+1)"),
            "( ( a + 1 ) * ( a + 1 ) )"
        );
        assert_eq!(expand("#define F (x)\nF"), "( x )");
        // A function-like macro name without `(` is left alone.
        assert_eq!(expand("#define F(x) x\nF + 1"), "F + 1");
        // Calls may span lines.
        assert_eq!(expand("#define ADD(a, b) a + b\nADD(1,\n 2)"), "1 + 2");
        // Nested calls, and arguments that are calls.
        assert_eq!(
            expand("#define A(x) B(x) * 2\n#define B(y) (y + 1)\nA(B(3))"),
            "( ( 3 + 1 ) + 1 ) * 2"
        );
        assert_eq!(expand("#define E()\n[E()]"), "[ ]");
    }

    #[test]
    fn text_lines_are_copied_up_to_a_macro_name_or_a_directive() {
        // Runs of text lines, blank lines and comments between them, a macro name on a
        // later line of a run and at the end of one, a call spanning lines and
        // directives that end runs.
        let src = "a b\n\n/* c\n */ d\n#define M 1\ne\nf M g\nh\n#define F(x) [x]\ni F\n(\nj\n) k\n#undef M\nM F l";
        assert_eq!(expand(src), "a b d e f 1 g h i [ j ] k M F l");
        // An invalid character waits for its line, in a run as on its own.
        let (text, diags) = run("a\nb @ c\n#if 0\n@\n#endif\nd");
        assert_eq!(text, "a b c d");
        assert_eq!(diags.len(), 1, "{diags:?}");
    }

    #[test]
    fn stringizing_pasting_and_variadics() {
        assert_eq!(expand("#define S(x) #x\nS(a  + \"b\")"), r#""a + \"b\"""#);
        // A line break inside the argument is a space, as in C.
        assert_eq!(expand("#define S(x) #x\nS(a\nb)"), r#""a b""#);
        assert_eq!(
            expand("#define S(x) #x\nS(a\n  b\n\n(c)\n)"),
            r#""a b (c)""#
        );
        assert_eq!(
            expand("#define S(x) #x\n#define E(y) S(y)\nE(a\nb)"),
            r#""a b""#
        );
        assert_eq!(
            expand("#define CAT(a, b) a ## b\nCAT(Wave, Active)"),
            "WaveActive"
        );
        assert_eq!(expand("#define CAT(a, b) a ## b\nCAT(x, )"), "x");
        assert_eq!(expand("#define CAT(a, b) a ## b\nCAT(1, 2u)"), "12u");
        assert_eq!(
            expand("#define CAT(a, b) a ## b\n#define X 5\nCAT(X, 1) CAT(, X)"),
            "X1 5"
        );
        assert_eq!(
            expand("#define V(...) f(__VA_ARGS__)\nV(1, 2, 3) V()"),
            "f ( 1 , 2 , 3 ) f ( )"
        );
        assert_eq!(
            expand("#define V(a, ...) g(a, ## __VA_ARGS__)\nV(1) V(1, 2)"),
            "g ( 1 ) g ( 1 , 2 )"
        );
        let (_, diags) = run("#define CAT(a, b) a ## b\nCAT(+, /)");
        assert_eq!(diags.len(), 1);
        assert!(diags[0].contains("OSH0108"), "{diags:?}");
    }

    #[test]
    fn a_macro_is_not_expanded_inside_itself() {
        assert_eq!(expand("#define foo foo + 1\nfoo"), "foo + 1");
        assert_eq!(expand("#define a b\n#define b a\na b"), "a b");
        assert_eq!(expand("#define f(x) x + f(x)\nf(1)"), "1 + f ( 1 )");
        // Not re-expanded even when the rescan reaches tokens after the call.
        assert_eq!(expand("#define g f\n#define f(x) g\nf(1)(2)"), "f ( 2 )");
    }

    #[test]
    fn conditionals() {
        let src = "#define A 1\n#if A && !defined(B) && defined A\nyes\n#elif 1\nno1\n#else\nno2\n#endif\n\
                   #ifdef B\nno3\n#elif A + 1 == 2\nyes2\n#endif\n#ifndef A\nno4\n#else\nyes3\n#endif\n\
                   #if 0\n#if 1/0\n#error not reached\n#endif\n#else\nyes4\n#endif";
        assert_eq!(expand(src), "yes yes2 yes3 yes4");
        // C integer rules: unsigned comparison, shifts, ternary, short-circuit.
        assert_eq!(expand("#if -1 < 0u\nno\n#else\nyes\n#endif"), "yes");
        assert_eq!(
            expand("#if (1 << 4) == 16 && (0 ? 1/0 : 3) == 3 && (0 && 1/0) == 0\nyes\n#endif"),
            "yes"
        );
        assert_eq!(
            expand("#if -7 / 2 == -3 && -7 % 2 == -1 && 0x10 == 16 && 010 == 8\nyes\n#endif"),
            "yes"
        );
        assert_eq!(expand("#if UNDEFINED_NAME\nno\n#endif\nok"), "ok");
    }

    #[test]
    fn conditional_errors() {
        let (_, diags) = run("#if 1 / 0\nx\n#endif\n#if (1\n#endif\n#else\n#if 1\n");
        assert_eq!(
            diags,
            vec![
                "main.hlsl(1,7): error OSH0106: division by zero in #if expression",
                "main.hlsl(4,7): error OSH0106: expected ')' in #if expression",
                "main.hlsl(6,1): error OSH0105: #else without #if",
                "main.hlsl(7,1): error OSH0105: this conditional directive has no matching #endif",
            ]
        );
    }

    #[test]
    fn argument_count_and_error_directive() {
        let (text, diags) = run("#define F(a, b) a\nF(1)\n#error stop here\nafter");
        assert_eq!(text, "after");
        assert_eq!(
            diags,
            vec![
                "main.hlsl(2,1): error OSH0107: macro 'F' takes 2 argument(s), but 1 were given",
                "main.hlsl(3,1): error OSH0100: #error stop here",
            ]
        );
        let (_, diags) = run("#define F(a) a\nF(1, 2)\n#bogus\n");
        assert_eq!(diags.len(), 2);
        assert!(diags[1].contains("OSH0104"));
    }

    #[test]
    fn line_and_file() {
        assert_eq!(expand("a\n__LINE__\n#define L __LINE__\n\nL"), "a 2 5");
        assert_eq!(
            expand("#line 100 \"x.hlsl\"\n__LINE__ __FILE__"),
            "100 \"x.hlsl\""
        );
        assert_eq!(expand("__FILE__"), "\"main.hlsl\"");
        // Predefined names made by pasting, or undefined before any use, as if defined
        // from the start.
        assert_eq!(
            expand("#define CAT(a, b) a##b\nCAT(__LI, NE__) CAT(__HLSL, _VERSION)"),
            "2 2021"
        );
        assert_eq!(
            expand("#undef __HLSL_VERSION\n__HLSL_VERSION"),
            "__HLSL_VERSION"
        );
    }

    #[test]
    fn includes_from_memory() {
        let mut loader = MemoryLoader::new();
        loader
            .add(
                "main.hlsl",
                "#include \"lib/a.hlsl\"\n#include <b.hlsl>\n#include \"lib/a.hlsl\"\nA B C",
            )
            .add(
                "lib/a.hlsl",
                "#pragma once\n#define A 1\n#include \"c.hlsl\"\nfrom_a",
            )
            .add("lib/c.hlsl", "#define C 3\nfrom_c")
            .add("inc/b.hlsl", "#define B 2\nfrom_b");
        let options = PreprocessOptions {
            include_dirs: vec!["inc".into()],
            ..PreprocessOptions::default()
        };
        let (text, diags) = run_with(&loader, &options);
        assert!(diags.is_empty(), "{diags:#?}");
        assert_eq!(text, "from_c from_a from_b 1 2 3");
    }

    #[test]
    fn include_errors_and_cycles() {
        let mut loader = MemoryLoader::new();
        loader
            .add(
                "main.hlsl",
                "#include \"a.hlsl\"\n#include \"missing.hlsl\"\nend",
            )
            .add("a.hlsl", "#include \"b.hlsl\"\n")
            .add("b.hlsl", "#include \"a.hlsl\"\n");
        let (text, diags) = run_with(&loader, &PreprocessOptions::default());
        assert_eq!(text, "end");
        assert_eq!(diags.len(), 2, "{diags:#?}");
        assert!(diags[0].contains("OSH0102"), "{}", diags[0]);
        assert!(
            diags[0].contains("include cycle: a.hlsl -> b.hlsl -> a.hlsl"),
            "{}",
            diags[0]
        );
        assert!(
            diags[1].starts_with("main.hlsl(2,1): error OSH0101"),
            "{}",
            diags[1]
        );
        // Guarded mutual includes are fine.
        let mut loader = MemoryLoader::new();
        loader
            .add("main.hlsl", "#include \"a.hlsl\"\nend")
            .add(
                "a.hlsl",
                "#ifndef A\n#define A\n#include \"b.hlsl\"\na\n#endif\n",
            )
            .add(
                "b.hlsl",
                "#ifndef B\n#define B\n#include \"a.hlsl\"\nb\n#endif\n",
            );
        let (text, diags) = run_with(&loader, &PreprocessOptions::default());
        assert!(diags.is_empty(), "{diags:#?}");
        assert_eq!(text, "b a end");
    }

    #[test]
    fn sources_past_64_mib_are_not_read() {
        // Each inclusion counts: 5 inclusions of an unguarded 16 MiB header pass 64 MiB.
        let header = format!("{}\nx\n", "/".repeat(16 * 1024 * 1024));
        let mut loader = MemoryLoader::new();
        loader
            .add("main.hlsl", "#include \"h.hlsl\"\n".repeat(5) + "end")
            .add("h.hlsl", header);
        let (text, diags) = run_with(&loader, &PreprocessOptions::default());
        assert_eq!(text, "x x x end");
        assert_eq!(diags.len(), 2, "{diags:#?}");
        assert!(
            diags[0].starts_with("main.hlsl(4,1): error OSH0002")
                && diags[0].contains("past 64 MiB"),
            "{}",
            diags[0]
        );
    }

    #[test]
    fn output_past_the_token_limit_stops() {
        // 5,000 uses of a macro that expands to 1,000 tokens (each use is allowed
        // 100,000 tokens).
        let mut source = String::from("#define T a a a a a a a a a a\n");
        source.push_str("#define H T T T T T T T T T T\n#define K H H H H H H H H H H\n");
        source.push_str(&"K K K K K K K K K K\n".repeat(500));
        let mut loader = MemoryLoader::new();
        loader.add("main.hlsl", source);
        let (_, diags) = run_with(&loader, &PreprocessOptions::default());
        assert_eq!(diags.len(), 1, "{diags:#?}");
        assert!(
            diags[0].contains("OSH0002") && diags[0].contains("4000000 tokens"),
            "{}",
            diags[0]
        );
    }

    #[test]
    fn predefined_and_command_line_macros() {
        let mut loader = MemoryLoader::new();
        loader.add(
            "main.hlsl",
            "__HLSL_VERSION __SHADER_TARGET_STAGE __SHADER_TARGET_MAJOR __SHADER_TARGET_MINOR \
             __SHADER_STAGE_COMPUTE __SHADER_STAGE_PIXEL __SHADER_STAGE_AMPLIFICATION FOO BAR\n\
             #ifdef __spirv__\nspirv\n#endif",
        );
        let options = PreprocessOptions {
            defines: vec![("FOO".into(), None), ("BAR".into(), Some("x + 1".into()))],
            target: Some(ShaderTarget {
                stage: ShaderKind::Compute,
                major: 6,
                minor: 5,
            }),
            ..PreprocessOptions::default()
        };
        let (text, diags) = run_with(&loader, &options);
        assert!(diags.is_empty(), "{diags:#?}");
        assert_eq!(text, "2021 5 6 5 5 0 14 1 x + 1");
    }

    #[test]
    fn paths_are_normalized() {
        for (path, normal) in [
            ("/work/shaders/a.hlsl", "/work/shaders/a.hlsl"),
            ("shaders/a.hlsl", "shaders/a.hlsl"),
            ("a.hlsl", "a.hlsl"),
            ("", ""),
            ("/", "/"),
            ("shaders\\a.hlsl", "shaders/a.hlsl"),
            ("shaders//./a.hlsl", "shaders/a.hlsl"),
            ("shaders/../a.hlsl", "a.hlsl"),
            ("../a.hlsl", "../a.hlsl"),
            ("shaders/", "shaders"),
            ("//a", "/a"),
        ] {
            assert_eq!(normalize_path(path), normal, "{path}");
        }
    }

    #[test]
    fn each_predefined_line_is_recorded_where_it_is_written() {
        let options = PreprocessOptions {
            target: Some(ShaderTarget {
                stage: ShaderKind::Pixel,
                major: 6,
                minor: 10,
            }),
            ..PreprocessOptions::default()
        };
        let predefined = Predefined::new(&options);
        let mut expected = String::new();
        let mut lines = String::new();
        for line in &predefined.numbers {
            let value = &predefined.text[line.value_start() as usize..line.end as usize];
            expected.push_str(&format!("#define {} {value}\n", line.name));
            lines.push_str(&predefined.text[line.start as usize..line.end as usize + 1]);
        }
        assert_eq!(lines, expected);
        assert_eq!(lines, &predefined.text[..predefined.commands]);
        assert_eq!(predefined.numbers.len(), 20);
    }

    #[test]
    fn hide_set_operations() {
        let arena = Arena::new();
        let mut spellings = Spellings::new(&arena);
        let [x, y, z] = ["X", "Y", "Z"].map(|name| spellings.intern(name));
        let mut sets = HideSets::default();
        let xs = sets.single(x);
        let xy = sets.with(xs, y, HideSet::EMPTY);
        let ys = sets.single(y);
        let zs = sets.single(z);
        let made = sets.sets.len();
        // A union with a subset, and an intersection, make no new set.
        assert_eq!(sets.union(xy, ys), xy);
        assert_eq!(sets.union(xy, HideSet::EMPTY), xy);
        assert_eq!(sets.intersection(xy, zs), HideSet::EMPTY);
        assert_eq!(sets.sets.len(), made);
        let xyz = sets.union(xy, zs);
        assert_eq!(sets.len(xyz), 3);
        assert!([x, y, z].iter().all(|&name| sets.contains(xyz, name)));
        let y_only = sets.intersection(xyz, ys);
        assert_eq!(sets.names(y_only), [y]);
    }

    #[test]
    fn runaway_expansion_is_limited() {
        let mut src = String::from("#define L0 x x\n");
        for i in 1..30 {
            src.push_str(&format!("#define L{i} L{j} L{j}\n", j = i - 1));
        }
        src.push_str("L29");
        let (_, diags) = run(&src);
        assert_eq!(diags.len(), 1);
        assert!(diags[0].contains("OSH0103"), "{diags:?}");
    }

    #[test]
    fn expanded_tokens_point_at_the_use_site() {
        let mut map = SourceMap::new();
        let main = map.add("main.hlsl", "#define TWO 1 + 1\nint a = TWO;");
        let mut loader = MemoryLoader::new();
        loader.add("main.hlsl", "");
        let mut diagnostics = Diagnostics::new();
        let arena = Arena::new();
        let out = preprocess(
            &arena,
            &mut map,
            main,
            &PreprocessOptions::default(),
            &loader,
            &mut diagnostics,
        );
        let one = &out.tokens[3];
        assert_eq!(out.spellings.text(one.text), "1");
        assert_eq!(map.location(one.span), Some(("main.hlsl", 2, 9)));
        let expansion = &out.expansions[one.expansion.expect("expansion").0 as usize];
        assert_eq!(&*expansion.name, "TWO");
        assert_eq!(
            expansion
                .definition
                .and_then(|s| map.location(s))
                .map(|l| l.1),
            Some(1)
        );
    }

    /// A header in the style of the FidelityFX SDK: portability macros built with `##`,
    /// nested feature `#if`s, an include chain with guards, and a radix-sort-like kernel.
    const FFX_COMMON: &str = r#"
#ifndef FFX_COMMON_H
#define FFX_COMMON_H
#if defined(FFX_HALF) && FFX_HALF
    #define FFX_MIN16_F min16float
#else
    #define FFX_MIN16_F float
#endif
#define FFX_GROUP_MEMORY_BARRIER GroupMemoryBarrierWithGroupSync
#define FFX_CONCAT_(a, b) a ## b
#define FFX_CONCAT(a, b) FFX_CONCAT_(a, b)
#define FFX_BROADCAST(type, n) type ## n(FFX_CONCAT(x, n), FFX_CONCAT(x, n))
#define FFX_STATIC static
#define FFX_UINT32 uint
#define FFX_UINT32x2 uint2
#define FFX_CB(slot) register(FFX_CONCAT(b, slot))
#define FFX_SRV(slot) register(FFX_CONCAT(t, slot))
#define FFX_UAV(slot) register(FFX_CONCAT(u, slot))
#define FFX_DECLARE_UAV(type, name, slot) RWStructuredBuffer<type> name : FFX_UAV(slot)
#define FFX_ASSERT(...) /* nothing: __VA_ARGS__ */
#include "ffx_core_gpu.h"
#endif // FFX_COMMON_H
"#;

    const FFX_CORE_GPU: &str = r#"
#pragma once
#include "ffx_common.h"
FFX_STATIC const FFX_UINT32 FFX_RADIX_BITS = 4;
#if FFX_RADIX_WAVE_OPS
    #if __SHADER_TARGET_MAJOR > 6 || (__SHADER_TARGET_MAJOR == 6 && __SHADER_TARGET_MINOR >= 0)
        #define FFX_PREFIX(x) WavePrefixSum(x)
    #else
        #error wave operations need shader model 6
    #endif
#else
    #define FFX_PREFIX(x) (x)
#endif
FFX_MIN16_F ffxSaturate(FFX_MIN16_F v) { return clamp(v, 0.0, 1.0); }
"#;

    const FFX_SORT: &str = r#"
#define FFX_RADIX_WAVE_OPS 1
#include "ffx/ffx_common.h"
#define THREADGROUP_SIZE 128
#define KEYS_PER_THREAD (THREADGROUP_SIZE / 32)

cbuffer cbSort : FFX_CB(0) { FFX_UINT32 NumKeys; FFX_UINT32 Shift; };
StructuredBuffer<FFX_UINT32> SrcKeys : FFX_SRV(0);
FFX_DECLARE_UAV(FFX_UINT32, DstKeys, 1);
groupshared FFX_UINT32 gs_Histogram[1 << FFX_RADIX_BITS][2];

[numthreads(THREADGROUP_SIZE, 1, 1)]
void FFX_CONCAT(Radix, Count)(uint3 gtid : SV_GroupThreadID, uint3 gid : SV_GroupID)
{
    FFX_ASSERT(gtid.x < THREADGROUP_SIZE, "bad");
    [unroll] for (int i = 0; i < KEYS_PER_THREAD; ++i)
    {
        FFX_UINT32 key = SrcKeys.Load(gid.x * THREADGROUP_SIZE + gtid.x);
        FFX_UINT32 digit = (key >> Shift) & ((1u << FFX_RADIX_BITS) - 1);
        InterlockedAdd(gs_Histogram[digit][0], FFX_PREFIX(1u));
    }
    FFX_GROUP_MEMORY_BARRIER();
    FFX_UINT32x2 both = FFX_BROADCAST(FFX_UINT32x, 2);
    DstKeys[gtid.x] = gs_Histogram[gtid.x % 16][0] + both.x;
}
"#;

    #[test]
    fn fidelityfx_style_headers_preprocess_and_parse() {
        use crate::ast::{Annotation, ExprKind, Item, StmtKind};
        let mut loader = MemoryLoader::new();
        loader
            .add("src/sort.hlsl", FFX_SORT)
            .add("sdk/include/ffx/ffx_common.h", FFX_COMMON)
            .add("sdk/include/ffx/ffx_core_gpu.h", FFX_CORE_GPU);
        let mut map = SourceMap::new();
        let main = map.add("src/sort.hlsl", FFX_SORT);
        let options = PreprocessOptions {
            include_dirs: vec!["sdk/include".into()],
            defines: vec![("x2".into(), Some("7".into()))],
            target: Some(ShaderTarget {
                stage: ShaderKind::Compute,
                major: 6,
                minor: 2,
            }),
        };
        let arena = crate::ast::Arena::new();
        let (unit, diagnostics) = crate::parse(&arena, &mut map, main, &options, &loader);
        let messages: Vec<String> = diagnostics
            .iter()
            .map(|d| d.to_short_string(&map))
            .collect();
        assert!(messages.is_empty(), "{messages:#?}");
        // The include chain loaded each file once, by canonical path.
        assert!(map.find("sdk/include/ffx/ffx_core_gpu.h").is_some());

        let names: Vec<String> = unit
            .items
            .iter()
            .map(|item| match item {
                Item::Variable(v) => v.declarators[0].name.name.to_string(),
                Item::Function(f) => f.name.to_text(),
                Item::Buffer(b) => b.name.name.to_string(),
                other => format!("{other:?}"),
            })
            .collect();
        assert_eq!(
            names,
            vec![
                "FFX_RADIX_BITS",
                "ffxSaturate",
                "cbSort",
                "SrcKeys",
                "DstKeys",
                "gs_Histogram",
                "RadixCount"
            ]
        );
        // `min16float` was not chosen: FFX_HALF is undefined.
        let Item::Function(saturate) = &unit.items[1] else {
            panic!()
        };
        assert_eq!(
            saturate.return_type.name().map(|p| p.to_text()).as_deref(),
            Some("float")
        );
        // `register(FFX_CONCAT(b, 0))` pasted into `b0`.
        let Item::Buffer(cb) = &unit.items[2] else {
            panic!()
        };
        let [Annotation::Register(reg)] = cb.annotations else {
            panic!()
        };
        assert_eq!(reg.slot.as_ref().map(|s| s.name), Some("b0"));
        let Item::Variable(dst) = &unit.items[4] else {
            panic!()
        };
        let Annotation::Register(reg) = &dst.declarators[0].annotations[0] else {
            panic!()
        };
        assert_eq!(reg.slot.as_ref().map(|s| s.name), Some("u1"));

        let Item::Function(count) = &unit.items[6] else {
            panic!()
        };
        assert_eq!(count.attributes[0].name.to_text(), "numthreads");
        let body = &count.body.as_ref().expect("body").statements;
        // FFX_ASSERT expanded to nothing, leaving an empty statement.
        assert!(matches!(body[0].kind, StmtKind::Empty));
        let StmtKind::For(for_stmt) = &body[1].kind else {
            panic!()
        };
        let StmtKind::Block(block) = &for_stmt.body.kind else {
            panic!()
        };
        // FFX_PREFIX chose the wave-op branch (target 6.2).
        let StmtKind::Expr(add) = &block.statements[2].kind else {
            panic!()
        };
        let ExprKind::Call(call) = &add.kind else {
            panic!()
        };
        assert_eq!(call.function.to_text(), "InterlockedAdd");
        assert!(
            matches!(&call.args[1].kind, ExprKind::Call(inner) if inner.function.is("WavePrefixSum"))
        );
        // FFX_BROADCAST(FFX_UINT32x, 2) pasted `FFX_UINT32x2` and then expanded it to `uint2`;
        // `x2` came from the command line.
        let StmtKind::Declaration(both) = &body[3].kind else {
            panic!()
        };
        let Item::Variable(both) = &**both else {
            panic!()
        };
        let Some(init) = &both.declarators[0].init else {
            panic!()
        };
        let ExprKind::Constructor(constructor) = &init.kind else {
            panic!("{init:?}")
        };
        let (ty, args) = (&constructor.ty, &constructor.args);
        assert_eq!(ty.name().map(|p| p.to_text()).as_deref(), Some("uint2"));
        assert!(matches!(
            &args[0].kind,
            ExprKind::Literal(crate::ast::Literal::Int { value: 7, .. })
        ));
        // Errors inside macros point at the use site in the main file.
        let (line, _) = map.get(main).expect("main").line_column(init.span.start);
        assert_eq!(line, 23);
    }

    #[test]
    fn pack_matrix_pragma_reaches_the_syntax_tree() {
        let mut map = SourceMap::new();
        let main = map.add(
            "m.hlsl",
            "#pragma pack_matrix(column_major)\nfloat4x4 M;\n#pragma warning(disable: 1234)\n",
        );
        let arena = crate::ast::Arena::new();
        let (unit, diagnostics) = crate::parse(
            &arena,
            &mut map,
            main,
            &PreprocessOptions::default(),
            &MemoryLoader::new(),
        );
        assert!(!diagnostics.has_errors());
        assert!(matches!(&unit.items[0], crate::ast::Item::PackMatrix(p) if !p.row_major));
        assert_eq!(unit.items.len(), 2);
    }
}
