//! The lexer: HLSL source text to tokens, with spans and the flags the
//! preprocessor needs (newlines, whether whitespace precedes a token).
//!
//! Keywords are recognised here, but the preprocessor treats them like any
//! other identifier ([`Token::ident_text`]); numeric literals keep their
//! spelling and are converted by [`parse_int_literal`] / [`parse_float_literal`]
//! when someone needs the value.

use std::cell::OnceCell;
use std::sync::{Arc, OnceLock};

use logos::Logos;
use oneshader_ir::{codes, Diagnostic, Diagnostics, FileId, Span};

use crate::ast::Arena;

/// The raw token classes that logos recognises.
///
/// Whitespace and line comments are skipped inside logos: [`lex`] sees them only as a
/// gap between one token's end and the next one's start. The classes that are tokens
/// come first, in the order of their [`TokenKind`]s (so that [`map_raw`] is an addition).
#[derive(Logos, Clone, Copy, Debug, PartialEq, Eq)]
#[logos(skip r"[ \t\x0b\x0c]+")]
#[logos(skip(r"//[^\n]*", allow_greedy = true))]
enum Raw {
    #[regex(r"[A-Za-z_][A-Za-z0-9_]*")]
    Ident,
    #[regex(r"[0-9]+[uUlL]*")]
    #[regex(r"0[xX][0-9a-fA-F]+[uUlL]*")]
    Int,
    #[regex(r"[0-9]+\.[0-9]*([eE][+-]?[0-9]+)?[fFhHlL]?")]
    #[regex(r"\.[0-9]+([eE][+-]?[0-9]+)?[fFhHlL]?")]
    #[regex(r"[0-9]+[eE][+-]?[0-9]+[fFhHlL]?")]
    Float,
    #[regex(r#""([^"\\\n]|\\[^\n])*""#)]
    String,
    #[regex(r"'([^'\\\n]|\\[^\n])*'")]
    Char,
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token(";")]
    Semicolon,
    #[token(",")]
    Comma,
    #[token(".")]
    Dot,
    #[token(":")]
    Colon,
    #[token("::")]
    ColonColon,
    #[token("?")]
    Question,
    #[token("+")]
    Plus,
    #[token("-")]
    Minus,
    #[token("*")]
    Star,
    #[token("/")]
    Slash,
    #[token("%")]
    Percent,
    #[token("++")]
    PlusPlus,
    #[token("--")]
    MinusMinus,
    #[token("=")]
    Eq,
    #[token("+=")]
    PlusEq,
    #[token("-=")]
    MinusEq,
    #[token("*=")]
    StarEq,
    #[token("/=")]
    SlashEq,
    #[token("%=")]
    PercentEq,
    #[token("&=")]
    AmpEq,
    #[token("|=")]
    PipeEq,
    #[token("^=")]
    CaretEq,
    #[token("<<=")]
    ShlEq,
    #[token(">>=")]
    ShrEq,
    #[token("==")]
    EqEq,
    #[token("!=")]
    NotEq,
    #[token("<")]
    Lt,
    #[token(">")]
    Gt,
    #[token("<=")]
    LtEq,
    #[token(">=")]
    GtEq,
    #[token("<<")]
    Shl,
    #[token(">>")]
    Shr,
    #[token("&&")]
    AmpAmp,
    #[token("||")]
    PipePipe,
    #[token("!")]
    Bang,
    #[token("&")]
    Amp,
    #[token("|")]
    Pipe,
    #[token("^")]
    Caret,
    #[token("~")]
    Tilde,
    #[token("#")]
    Hash,
    #[token("##")]
    HashHash,
    #[regex(r"\r?\n")]
    Newline,
    /// A block comment (its end found by [`block_comment`]).
    #[token("/*", block_comment)]
    BlockComment,
    /// A block comment that the file ends in.
    UnterminatedComment,
    /// A backslash at the end of a line: whitespace, whose newline starts a line.
    #[regex(r"\\\r?\n")]
    Continuation,
    #[regex(r#""([^"\\\n]|\\[^\n])*"#)]
    UnterminatedString,
}

/// Skips to the end of a block comment: [`Raw::UnterminatedComment`] when the file ends
/// first.
fn block_comment(lex: &mut logos::Lexer<Raw>) -> Raw {
    match lex.remainder().find("*/") {
        Some(end) => {
            lex.bump(end + 2);
            Raw::BlockComment
        }
        None => {
            lex.bump(lex.remainder().len());
            Raw::UnterminatedComment
        }
    }
}

/// Declares [`Keyword`], [`Keyword::from_text`] and [`KEYWORDS`] from one list of the
/// keywords' spellings and variants.
macro_rules! keywords {
    ($($text:literal => $keyword:ident,)*) => {
        /// HLSL keywords. Type names (`float4`, `Texture2D`, …) are identifiers, and
        /// so are the context-sensitive modifiers (`sample`, `linear`, `point`, …)
        /// that HLSL code also uses as variable names.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[allow(missing_docs)]
        pub enum Keyword {
            $($keyword,)*
        }

        impl Keyword {
            /// The keyword spelled `text`, if `text` is one.
            pub fn from_text(text: &str) -> Option<Keyword> {
                match text {
                    $($text => Some(Keyword::$keyword),)*
                    _ => None,
                }
            }
        }

        /// The keywords, at the fixed symbols from [`Symbol::FIRST_KEYWORD`] on in the
        /// order of [`Keyword`]'s variants.
        const KEYWORDS: &[(&str, Keyword)] = &[$(($text, Keyword::$keyword)),*];
    };
}

keywords! {
    "if" => If,
    "else" => Else,
    "for" => For,
    "while" => While,
    "do" => Do,
    "switch" => Switch,
    "case" => Case,
    "default" => Default,
    "break" => Break,
    "continue" => Continue,
    "return" => Return,
    "discard" => Discard,
    "struct" => Struct,
    "class" => Class,
    "interface" => Interface,
    "cbuffer" => Cbuffer,
    "tbuffer" => Tbuffer,
    "typedef" => Typedef,
    "namespace" => Namespace,
    "template" => Template,
    "typename" => Typename,
    "static" => Static,
    "const" => Const,
    "groupshared" => Groupshared,
    "uniform" => Uniform,
    "extern" => Extern,
    "volatile" => Volatile,
    "precise" => Precise,
    "globallycoherent" => Globallycoherent,
    "row_major" => RowMajor,
    "column_major" => ColumnMajor,
    "in" => In,
    "out" => Out,
    "inout" => Inout,
    "inline" => Inline,
    "export" => Export,
    "unorm" => Unorm,
    "snorm" => Snorm,
    "register" => Register,
    "packoffset" => Packoffset,
    "true" => True,
    "false" => False,
}

/// What kind of token a [`Token`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum TokenKind {
    Ident,
    Keyword(Keyword),
    IntLiteral,
    FloatLiteral,
    StringLiteral,
    CharLiteral,
    LParen,
    RParen,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    Semicolon,
    Comma,
    Dot,
    Colon,
    ColonColon,
    Question,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    PlusPlus,
    MinusMinus,
    Eq,
    PlusEq,
    MinusEq,
    StarEq,
    SlashEq,
    PercentEq,
    AmpEq,
    PipeEq,
    CaretEq,
    ShlEq,
    ShrEq,
    EqEq,
    NotEq,
    Lt,
    Gt,
    LtEq,
    GtEq,
    Shl,
    Shr,
    AmpAmp,
    PipePipe,
    Bang,
    Amp,
    Pipe,
    Caret,
    Tilde,
    /// `#`: a directive start, or stringizing inside a macro body.
    Hash,
    /// `##`: token pasting inside a macro body.
    HashHash,
    /// End of a source line; only the preprocessor sees these.
    Newline,
    /// Stands for an empty macro argument during `##` pasting; never leaves the preprocessor.
    Placemarker,
    /// `#pragma pack_matrix(row_major|column_major)`; the text is the order.
    PragmaPackMatrix,
    /// End of the token stream.
    Eof,
}

/// Declares [`PUNCTUATION`] and [`punctuation_symbol`] from one list of the punctuation
/// spellings and token kinds.
macro_rules! punctuation {
    ($($text:literal => $kind:ident,)*) => {
        /// The punctuation spellings, at the fixed symbols from 1 on in this order (see
        /// [`Spellings`]).
        const PUNCTUATION: &[(&str, TokenKind)] = &[$(($text, TokenKind::$kind)),*];

        /// The fixed symbol of a punctuation token of kind `kind` (its place in
        /// [`PUNCTUATION`]).
        #[inline]
        fn punctuation_symbol(kind: TokenKind) -> Option<Symbol> {
            /// The punctuation kinds, numbered by their place in [`PUNCTUATION`].
            enum Place {
                $($kind,)*
            }
            let place = match kind {
                $(TokenKind::$kind => Place::$kind,)*
                _ => return None,
            };
            Some(Symbol(1 + place as u32))
        }
    };
}

punctuation! {
    "(" => LParen,
    ")" => RParen,
    "[" => LBracket,
    "]" => RBracket,
    "{" => LBrace,
    "}" => RBrace,
    ";" => Semicolon,
    "," => Comma,
    "." => Dot,
    ":" => Colon,
    "::" => ColonColon,
    "?" => Question,
    "+" => Plus,
    "-" => Minus,
    "*" => Star,
    "/" => Slash,
    "%" => Percent,
    "++" => PlusPlus,
    "--" => MinusMinus,
    "=" => Eq,
    "+=" => PlusEq,
    "-=" => MinusEq,
    "*=" => StarEq,
    "/=" => SlashEq,
    "%=" => PercentEq,
    "&=" => AmpEq,
    "|=" => PipeEq,
    "^=" => CaretEq,
    "<<=" => ShlEq,
    ">>=" => ShrEq,
    "==" => EqEq,
    "!=" => NotEq,
    "<" => Lt,
    ">" => Gt,
    "<=" => LtEq,
    ">=" => GtEq,
    "<<" => Shl,
    ">>" => Shr,
    "&&" => AmpAmp,
    "||" => PipePipe,
    "!" => Bang,
    "&" => Amp,
    "|" => Pipe,
    "^" => Caret,
    "~" => Tilde,
    "#" => Hash,
    "##" => HashHash,
}

/// The fixed symbol of `text` if it is a punctuation, newline or keyword spelling.
fn fixed_symbol(text: &str) -> Option<Symbol> {
    match text {
        "\n" => Some(Symbol::NEWLINE),
        "\r\n" => Some(Symbol::CRLF),
        "defined" => Some(Symbol::DEFINED),
        "__VA_ARGS__" => Some(Symbol::VA_ARGS),
        _ if text.len() > 3
            || text.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') =>
        {
            let keyword = Keyword::from_text(text)?;
            Some(Symbol(Symbol::FIRST_KEYWORD.0 + keyword as u32))
        }
        _ => {
            let place = PUNCTUATION.iter().position(|&(t, _)| t == text)?;
            Some(Symbol(1 + place as u32))
        }
    }
}

/// [`fixed_text`] as a shared string (a keyword taken as a name: rare): each fixed
/// text is made shared once per process.
#[cold]
fn shared_fixed_text(symbol: Symbol) -> Arc<str> {
    static SHARED: OnceLock<Box<[Arc<str>]>> = OnceLock::new();
    let shared = SHARED.get_or_init(|| {
        (0..Symbol::FIXED)
            .map(|index| Arc::from(fixed_text(Symbol(index as u32))))
            .collect()
    });
    match shared.get(symbol.index()) {
        Some(text) => Arc::clone(text),
        None => Arc::from(""),
    }
}

/// The text of a fixed symbol (empty for any other).
#[inline(never)]
fn fixed_text(symbol: Symbol) -> &'static str {
    match symbol {
        Symbol::NEWLINE => "\n",
        Symbol::CRLF => "\r\n",
        Symbol::DEFINED => "defined",
        Symbol::VA_ARGS => "__VA_ARGS__",
        _ => match symbol.index().checked_sub(Symbol::FIRST_KEYWORD.index()) {
            Some(place) => KEYWORDS.get(place).map_or("", |&(text, _)| text),
            None => symbol
                .index()
                .checked_sub(1)
                .and_then(|place| PUNCTUATION.get(place))
                .map_or("", |&(text, _)| text),
        },
    }
}

/// Identifies one macro expansion in [`crate::preprocess::Preprocessed::expansions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ExpansionId(pub u32);

/// A token's spelling: its index in the [`Spellings`] of one compile.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol(u32);

impl Symbol {
    /// The empty spelling (the end of file, placemarkers), in every [`Spellings`].
    pub const EMPTY: Symbol = Symbol(0);
    /// A newline, `\n`.
    const NEWLINE: Symbol = Symbol(1 + PUNCTUATION.len() as u32);
    /// A newline spelled `\r\n`.
    const CRLF: Symbol = Symbol(Symbol::NEWLINE.0 + 1);
    /// The first keyword's symbol ([`KEYWORDS`]).
    const FIRST_KEYWORD: Symbol = Symbol(Symbol::CRLF.0 + 1);
    /// `defined`, the operator of `#if`, after the keywords.
    pub(crate) const DEFINED: Symbol = Symbol(Symbol::FIRST_KEYWORD.0 + KEYWORDS.len() as u32);
    /// `__VA_ARGS__`, a variadic macro's last parameter.
    pub(crate) const VA_ARGS: Symbol = Symbol(Symbol::DEFINED.0 + 1);
    /// The number of fixed symbols: the first symbol of a spelling a compile adds.
    const FIXED: usize = Symbol::VA_ARGS.0 as usize + 1;

    /// The symbol's position in its table, for tables indexed by symbol.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The distinct token spellings of one compile, each stored once.
///
/// Tokens hold a [`Symbol`] rather than their text, so they are small `Copy` values
/// that move without reference counting, and equal spellings compare as equal numbers.
/// The texts live in the compile's [`Arena`] (where the syntax tree's names are them),
/// not in an allocation each. Where lowering keeps a name of the syntax tree (an IR name, a scope's key), it shares
/// the spelling from here by the name's symbol ([`Spellings::shared`]): a shared copy is
/// made the first time a spelling is asked for, and only then.
///
/// Every table starts with fixed symbols: the empty spelling, then the punctuation
/// ([`PUNCTUATION`]), the newlines, the keywords ([`KEYWORDS`]) and the two words the
/// preprocessor looks for ([`Symbol::DEFINED`], [`Symbol::VA_ARGS`]), so that the lexer
/// gives punctuation its symbol without looking its text up, and a keyword costs no
/// stored copy of its text.
#[derive(Clone, Debug)]
pub struct Spellings<'a> {
    /// Where the added spellings' texts are placed.
    arena: &'a Arena,
    /// The spellings the compile added, from symbol [`Symbol::FIXED`] on.
    entries: Vec<Entry<'a>>,
    /// The symbols of the spellings looked up so far but the empty and one-byte ones,
    /// each with its [`SpellingKey`], placed by the key's hash: open addressing with
    /// linear probing, a power of two long, [`Symbol::EMPTY`] marking a free slot, at
    /// most half full. The keys spare most text comparisons (all of them for texts of
    /// at most eight bytes) and all rehashing when it grows. A fixed spelling enters it
    /// when first looked up.
    index: Vec<Slot>,
    /// How far a hash shifts right to give its home slot in `index` (see [`home_slot`]).
    shift: u32,
    /// How many symbols `index` holds.
    indexed: usize,
    /// The symbols of one-byte spellings (`i`, `0`, and punctuation not from the lexer)
    /// by their byte, found without hashing; [`Symbol::EMPTY`] until first looked up.
    one_byte: [Symbol; 128],
}

/// A spelling a compile added to its [`Spellings`].
#[derive(Clone, Debug)]
struct Entry<'a> {
    /// The text, in the compile's arena.
    text: &'a str,
    /// The text as a shared string, made when first asked for ([`Spellings::shared`]).
    shared: OnceCell<Arc<str>>,
}

/// One place of [`Spellings::index`]: a spelling's symbol and key.
#[derive(Clone, Copy, Debug)]
struct Slot {
    /// The spelling's [`SpellingKey::tag`].
    tag: u32,
    /// The spelling; [`Symbol::EMPTY`] in a free slot.
    symbol: Symbol,
    /// The spelling's [`SpellingKey::word`].
    word: u64,
}

impl Slot {
    /// A slot that holds no spelling.
    const FREE: Slot = Slot {
        tag: 0,
        symbol: Symbol::EMPTY,
        word: 0,
    };
}

/// What [`Spellings::index`] keeps of a spelling's text to find it and tell it from
/// others.
#[derive(Clone, Copy, PartialEq, Eq)]
struct SpellingKey {
    /// The text's hash ([`spelling_hash`]) with its low four bits replaced by the text's
    /// length (15 for any longer than fourteen bytes).
    tag: u32,
    /// For a text of at most eight bytes, all of them ([`short_word`]): with the length
    /// in `tag`, equal keys are equal texts. Zero for a longer text.
    word: u64,
}

impl SpellingKey {
    /// The key of `text`.
    #[inline]
    fn of(text: &str) -> SpellingKey {
        let (hash, word) = spelling_hash(text);
        let length = text.len().min(15) as u32;
        SpellingKey {
            tag: hash & !15 | length,
            word,
        }
    }
}

/// The hash of a spelling for [`Spellings::index`], and the text as a word when it is
/// at most eight bytes long (else zero): eight bytes at a time, multiplied and rotated
/// (as rustc's FxHash); the length is folded in first, and a short tail is read as
/// overlapping loads rather than byte by byte.
#[inline]
fn spelling_hash(text: &str) -> (u32, u64) {
    const K: u64 = 0xf135_7aea_2e62_a9c5;
    let bytes = text.as_bytes();
    let mix = |hash: u64, word: u64| (hash.rotate_left(5) ^ word).wrapping_mul(K);
    let mut hash = mix(0, bytes.len() as u64);
    let mut short = 0;
    if bytes.len() <= 8 {
        short = short_word(bytes);
        hash = mix(hash, short);
    } else {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            hash = mix(hash, word8(chunk));
        }
        if !chunks.remainder().is_empty() {
            // The last eight bytes, overlapping the last whole chunk.
            hash = mix(
                hash,
                word8(bytes.get(bytes.len() - 8..).unwrap_or_default()),
            );
        }
    }
    // The high bits are the best mixed (each depends on every lower bit of the last
    // product's factors); [`home_slot`] uses the highest of them.
    ((hash >> 32) as u32, short)
}

/// Where a spelling of tag `tag` is first looked for in an index of `2^(32 - shift)`
/// slots: the top bits of the tag's hash.
#[inline]
fn home_slot(tag: u32, shift: u32) -> usize {
    (u64::from(tag) >> shift) as usize
}

/// The [`home_slot`] shift for an index of `len` slots (a power of two).
fn slot_shift(len: usize) -> u32 {
    32 - len.trailing_zeros()
}

/// Whether `a` and `b` are the same text: compared as words, without a call, when they
/// are at most sixteen bytes long (most names).
#[inline]
fn same_text(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let n = a.len();
    if n != b.len() {
        return false;
    }
    if n <= 8 {
        // The words of [`short_word`] hold every byte of a text this short.
        short_word(a) == short_word(b)
    } else if n <= 16 {
        // The first and the last eight bytes, overlapping.
        let last = |bytes: &[u8]| word8(bytes.get(n - 8..).unwrap_or_default());
        word8(a) == word8(b) && last(a) == last(b)
    } else {
        a == b
    }
}

/// The eight bytes `bytes` begins with, little-endian (zero if it is shorter).
#[inline]
fn word8(bytes: &[u8]) -> u64 {
    bytes
        .get(..8)
        .and_then(|b| <[u8; 8]>::try_from(b).ok())
        .map_or(0, u64::from_le_bytes)
}

/// The bytes of `bytes` (at most eight) as one word, from its first and last four or
/// two bytes (overlapping when it is shorter than eight or four): every byte counts.
#[inline]
fn short_word(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    if n >= 4 {
        let first = bytes.get(..4).and_then(|b| <[u8; 4]>::try_from(b).ok());
        let last = bytes.get(n - 4..).and_then(|b| <[u8; 4]>::try_from(b).ok());
        let first = first.map_or(0, u32::from_le_bytes);
        let last = last.map_or(0, u32::from_le_bytes);
        u64::from(first) | u64::from(last) << 32
    } else if n >= 2 {
        let first = bytes.get(..2).and_then(|b| <[u8; 2]>::try_from(b).ok());
        let last = bytes.get(n - 2..).and_then(|b| <[u8; 2]>::try_from(b).ok());
        let first = first.map_or(0, u16::from_le_bytes);
        let last = last.map_or(0, u16::from_le_bytes);
        u64::from(first) | u64::from(last) << 16
    } else {
        bytes.first().map_or(0, |&b| u64::from(b))
    }
}

impl<'a> Spellings<'a> {
    /// A table holding only the fixed spellings, whose added texts go to `arena`, sized
    /// for a small file's spellings (a large one's regrow the tables a few times).
    pub fn new(arena: &'a Arena) -> Spellings<'a> {
        Spellings::with_capacity(arena, 128)
    }

    /// A table holding only the fixed spellings, with room for `expected` more.
    fn with_capacity(arena: &'a Arena, expected: usize) -> Spellings<'a> {
        let slots = (expected * 2).next_power_of_two();
        Spellings {
            arena,
            entries: Vec::with_capacity(expected),
            index: vec![Slot::FREE; slots],
            shift: slot_shift(slots),
            indexed: 0,
            one_byte: [Symbol::EMPTY; 128],
        }
    }

    /// The symbol of `text`, added if it is new.
    #[inline]
    pub fn intern(&mut self, text: &str) -> Symbol {
        if let &[byte] = text.as_bytes() {
            if let Some(&symbol) = self.one_byte.get(usize::from(byte)) {
                if symbol != Symbol::EMPTY {
                    return symbol;
                }
            }
        }
        self.intern_slow(text)
    }

    /// [`Spellings::intern`] for a spelling of more than one byte or one not seen yet.
    ///
    /// Most spellings are two to eight bytes long: they are found here, by their key
    /// alone; the others in [`Spellings::intern_other`].
    #[inline(never)]
    fn intern_slow(&mut self, text: &str) -> Symbol {
        if !(2..=8).contains(&text.len()) {
            return self.intern_other(text);
        }
        let key = SpellingKey::of(text);
        // A text this short is all in its key.
        match self.find(key, |_| true) {
            Ok(symbol) => symbol,
            Err(free) => self.add(text, key, free),
        }
    }

    /// [`Spellings::intern_slow`] for the empty spelling, a one-byte one not seen yet
    /// or one longer than eight bytes.
    #[inline(never)]
    fn intern_other(&mut self, text: &str) -> Symbol {
        match text.as_bytes() {
            [] => Symbol::EMPTY,
            &[byte] => {
                let symbol = fixed_symbol(text).unwrap_or_else(|| self.push(text));
                if let Some(known) = self.one_byte.get_mut(usize::from(byte)) {
                    *known = symbol;
                }
                symbol
            }
            _ => {
                let key = SpellingKey::of(text);
                match self.find(key, |symbol| same_text(self.text(symbol), text)) {
                    Ok(symbol) => symbol,
                    Err(free) => self.add(text, key, free),
                }
            }
        }
    }

    /// The symbol in [`Spellings::index`] of key `key` whose text `is_text` accepts, or
    /// the free slot where that text would go.
    #[inline(always)]
    fn find(&self, key: SpellingKey, is_text: impl Fn(Symbol) -> bool) -> Result<Symbol, usize> {
        let mask = self.index.len() - 1;
        let mut slot = home_slot(key.tag, self.shift);
        while let Some(&found) = self.index.get(slot) {
            if found.symbol == Symbol::EMPTY {
                break;
            }
            if found.tag == key.tag && found.word == key.word && is_text(found.symbol) {
                return Ok(found.symbol);
            }
            slot = (slot + 1) & mask;
        }
        Err(slot)
    }

    /// Enters `text`, of key `key`, in [`Spellings::index`] at the free `slot`, with its
    /// fixed symbol or as a new spelling.
    #[inline(never)]
    fn add(&mut self, text: &str, key: SpellingKey, slot: usize) -> Symbol {
        let symbol = fixed_symbol(text).unwrap_or_else(|| self.push(text));
        if let Some(free) = self.index.get_mut(slot) {
            *free = Slot {
                tag: key.tag,
                symbol,
                word: key.word,
            };
        }
        self.indexed += 1;
        // Half full at most, so probes stay short and a free slot always ends them.
        if self.indexed * 2 > self.index.len() {
            self.grow_index();
        }
        symbol
    }

    /// Adds `text` as a new spelling.
    fn push(&mut self, text: &str) -> Symbol {
        let symbol = Symbol((Symbol::FIXED + self.entries.len()) as u32);
        self.entries.push(Entry {
            text: self.arena.text(text),
            shared: OnceCell::new(),
        });
        symbol
    }

    /// Doubles [`Spellings::index`], placing every spelling again by its kept key.
    #[cold]
    fn grow_index(&mut self) {
        let mut index = vec![Slot::FREE; self.index.len() * 2];
        let mask = index.len() - 1;
        let shift = slot_shift(index.len());
        for kept in std::mem::take(&mut self.index) {
            if kept.symbol == Symbol::EMPTY {
                continue;
            }
            let mut slot = home_slot(kept.tag, shift);
            while index.get(slot).is_some_and(|s| s.symbol != Symbol::EMPTY) {
                slot = (slot + 1) & mask;
            }
            if let Some(free) = index.get_mut(slot) {
                *free = kept;
            }
        }
        self.index = index;
        self.shift = shift;
    }

    /// The text of `symbol` (empty for a symbol of another table).
    #[inline]
    pub fn text(&self, symbol: Symbol) -> &'a str {
        match self.entries.get(symbol.index().wrapping_sub(Symbol::FIXED)) {
            Some(entry) => entry.text,
            None => fixed_text(symbol),
        }
    }

    /// The symbol of `text` if the table holds it; nothing is added.
    pub fn symbol_of(&self, text: &str) -> Option<Symbol> {
        match text.as_bytes() {
            [] => Some(Symbol::EMPTY),
            &[byte] => {
                let symbol = *self.one_byte.get(usize::from(byte))?;
                (symbol != Symbol::EMPTY).then_some(symbol)
            }
            _ => self
                .find(SpellingKey::of(text), |symbol| {
                    same_text(self.text(symbol), text)
                })
                .ok(),
        }
    }

    /// The text of `symbol` as a shared string, for names lowering keeps: copied on the
    /// first call for the symbol, shared without a copy after (a fixed spelling, a keyword
    /// taken as a name, from one process-wide copy).
    #[inline]
    pub fn shared(&self, symbol: Symbol) -> Arc<str> {
        match self.entries.get(symbol.index().wrapping_sub(Symbol::FIXED)) {
            Some(entry) => Arc::clone(entry.shared.get_or_init(|| Arc::from(entry.text))),
            None => shared_fixed_text(symbol),
        }
    }

    /// The keyword `symbol` spells, if any.
    #[inline]
    fn keyword(&self, symbol: Symbol) -> Option<Keyword> {
        let place = symbol.index().checked_sub(Symbol::FIRST_KEYWORD.index())?;
        KEYWORDS.get(place).map(|&(_, keyword)| keyword)
    }

    /// The spellings from the `first`-th on (by symbol index), with their symbols.
    pub(crate) fn since(&self, first: usize) -> impl Iterator<Item = (Symbol, &'a str)> + '_ {
        let first = first.max(Symbol::FIXED);
        let entries = self
            .entries
            .get(first - Symbol::FIXED..)
            .unwrap_or_default();
        (first..)
            .zip(entries)
            .map(|(index, entry)| (Symbol(index as u32), entry.text))
    }

    /// How many spellings the table holds, the fixed ones included (every symbol's
    /// index is below it).
    pub fn len(&self) -> usize {
        Symbol::FIXED + self.entries.len()
    }

    /// Whether the table holds only the fixed spellings.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// One token: its kind, its spelling, where it is, and preprocessor flags.
///
/// A small `Copy` value: the spelling is a [`Symbol`] of the compile's [`Spellings`].
#[derive(Clone, Copy, Debug)]
pub struct Token {
    /// The token class.
    pub kind: TokenKind,
    /// Whitespace or a comment separates this token from the previous one.
    pub leading_space: bool,
    /// The token is the first on its line.
    pub line_start: bool,
    /// The spelling (after macro pasting and stringizing, the pasted text).
    pub text: Symbol,
    /// Where the token is; for macro-produced tokens, the macro use site.
    pub span: Span,
    /// The macro expansion that produced this token, if any.
    pub expansion: Option<ExpansionId>,
    /// Macros that must not be expanded again from this token (Prosser's hide set).
    pub(crate) hide: HideSet,
}

/// A set of macro names a token must not expand: an index into the preprocessor's
/// table of hide sets, [`HideSet::EMPTY`] for none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct HideSet(pub(crate) u32);

impl HideSet {
    /// The empty set: tokens from the source hide nothing.
    pub(crate) const EMPTY: HideSet = HideSet(0);
}

impl Token {
    /// A token made from parts, with no hide set.
    pub fn new(kind: TokenKind, text: Symbol, span: Span) -> Token {
        Token {
            kind,
            text,
            span,
            leading_space: false,
            line_start: false,
            expansion: None,
            hide: HideSet::EMPTY,
        }
    }

    /// The spelling when the token is an identifier or keyword (macro names can be either).
    pub fn ident_text(&self) -> Option<Symbol> {
        match self.kind {
            TokenKind::Ident | TokenKind::Keyword(_) => Some(self.text),
            _ => None,
        }
    }

    /// Whether the token is the identifier or keyword spelled `symbol`.
    pub fn is_word(&self, symbol: Symbol) -> bool {
        self.ident_text() == Some(symbol)
    }
}

/// Lexes `text` of `file` into tokens, ending with [`TokenKind::Eof`]; their spellings
/// go to `spellings`.
///
/// Newlines are kept as [`TokenKind::Newline`] tokens; whitespace and comments
/// only set [`Token::leading_space`]. Invalid characters (OSH0010) and
/// unterminated comments or strings (OSH0011) are reported and skipped.
pub fn lex(
    file: FileId,
    text: &str,
    spellings: &mut Spellings<'_>,
    diagnostics: &mut Diagnostics,
) -> Vec<Token> {
    lex_at::<true>(file, text, 0, spellings, diagnostics, |_, _| {})
}

/// Tokens lexed for the preprocessor ([`lex_lines`]), with where their lines end.
pub(crate) struct Lines {
    /// The tokens, as [`lex`] gives them but without the [`TokenKind::Newline`]s: the
    /// lines are told apart by `ends`, so that consecutive text lines are one slice.
    pub(crate) tokens: Vec<Token>,
    /// Where each line ends, the last one at the [`TokenKind::Eof`]: the preprocessor
    /// finds a line's end without looking for it.
    pub(crate) ends: Vec<LineEnd>,
    /// Where each line starts in the file (as [`oneshader_ir::SourceFile::line_starts`]):
    /// `base`, then one past each `\n`, those in comments and line continuations too.
    pub(crate) starts: Vec<u32>,
}

/// Where a line of [`Lines`] ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LineEnd {
    /// One past the line's last token in [`Lines::tokens`].
    pub(crate) token: u32,
    /// Where the newline that ends the line starts in the file (for the last line, the
    /// file's end).
    pub(crate) byte: u32,
}

/// [`lex`] for `text` that starts at byte `base` of `file` (at the start of a line),
/// without newline tokens, with where each line ends.
pub(crate) fn lex_lines(
    file: FileId,
    text: &str,
    base: u32,
    spellings: &mut Spellings<'_>,
    diagnostics: &mut Diagnostics,
) -> Lines {
    // Lines average 25 to 31 bytes in the shaders measured: a guess on the short side
    // spares regrowing the two vectors.
    let lines = text.len() / 24 + 1;
    let mut ends = Vec::with_capacity(lines);
    let mut starts = Vec::with_capacity(lines);
    starts.push(base);
    let tokens = lex_at::<false>(file, text, base, spellings, diagnostics, |end, start| {
        if let Some((token, byte)) = end {
            ends.push(LineEnd {
                token: token as u32,
                byte,
            });
        }
        starts.push(start);
    });
    ends.push(LineEnd {
        token: tokens.len().saturating_sub(1) as u32,
        byte: base + text.len() as u32,
    });
    Lines {
        tokens,
        ends,
        starts,
    }
}

/// [`lex`] for `text` that starts at byte `base` of `file` (at the start of a line):
/// spans are offsets in the whole file; `newline` is told of each `\n`: how many tokens
/// precede it and where it starts (`None` for one in a comment or a line continuation),
/// and where the next line starts. The newlines that end lines are tokens when
/// `NEWLINES` is true.
///
/// Inlined, so that [`lex`] (a whole file, `base` 0) does not pay for the offset or
/// for keeping the line ends.
#[inline(always)]
fn lex_at<const NEWLINES: bool>(
    file: FileId,
    text: &str,
    base: u32,
    spellings: &mut Spellings<'_>,
    diagnostics: &mut Diagnostics,
    mut newline: impl FnMut(Option<(usize, u32)>, u32),
) -> Vec<Token> {
    // HLSL averages three to six bytes a token (newlines included); one guess on the
    // short side saves the regrowth of a large vector (room never written is never
    // touched).
    let mut tokens = Vec::with_capacity(text.len() / 3 + 16);
    let mut lexer = Raw::lexer(text);
    let mut leading_space = false;
    let mut line_start = true;
    // Where the last raw token (a comment or an invalid character included) ended: text
    // between it and the next one was skipped as whitespace.
    let mut last_end = 0;
    loop {
        // One space after a token, the most common gap, is stepped over here: logos would
        // enter its whitespace state for it and then start again.
        if text.as_bytes().get(last_end) == Some(&b' ') {
            lexer.bump(1);
        }
        let Some(raw) = lexer.next() else {
            break;
        };
        let range = lexer.span();
        let span = Span::new(file, base + range.start as u32, base + range.end as u32);
        leading_space |= range.start != last_end;
        last_end = range.end;
        let raw = match raw {
            Ok(raw) => raw,
            Err(()) => {
                invalid_character(text, range.start, span, diagnostics);
                leading_space = true;
                continue;
            }
        };
        let kind = match map_raw(raw) {
            Some(kind) => kind,
            None => {
                // Whitespace with a newline or two, or a string the line ends in.
                if raw == Raw::UnterminatedString {
                    diagnostics.push(Diagnostic::error(
                        codes::UNTERMINATED,
                        span,
                        "unterminated string literal",
                    ));
                    TokenKind::StringLiteral
                } else {
                    gap(raw, lexer.slice(), span, diagnostics, &mut newline);
                    leading_space = true;
                    continue;
                }
            }
        };
        let (kind, symbol) = match punctuation_symbol(kind) {
            Some(symbol) => (kind, symbol),
            None => match kind {
                TokenKind::Ident => {
                    let symbol = spellings.intern(lexer.slice());
                    let kind = spellings
                        .keyword(symbol)
                        .map_or(TokenKind::Ident, TokenKind::Keyword);
                    (kind, symbol)
                }
                TokenKind::Newline => {
                    newline(Some((tokens.len(), span.start)), span.end);
                    if !NEWLINES {
                        leading_space = false;
                        line_start = true;
                        continue;
                    }
                    let symbol = match range.len() {
                        1 => Symbol::NEWLINE,
                        _ => Symbol::CRLF,
                    };
                    (kind, symbol)
                }
                _ => (kind, spellings.intern(lexer.slice())),
            },
        };
        tokens.push(Token {
            kind,
            leading_space,
            line_start,
            text: symbol,
            span,
            expansion: None,
            hide: HideSet::EMPTY,
        });
        line_start = kind == TokenKind::Newline;
        leading_space = false;
    }
    let end = base + text.len() as u32;
    let mut eof = Token::new(TokenKind::Eof, Symbol::EMPTY, Span::new(file, end, end));
    eof.line_start = line_start;
    tokens.push(eof);
    tokens
}

/// Handles a raw token that is whitespace to the parser: a block comment (`raw`
/// [`Raw::BlockComment`] or [`Raw::UnterminatedComment`], reported) or a line continuation,
/// spelled `slice` at `span`; `newline` is told where each line in it ends (as in
/// [`lex_at`]).
#[cold]
fn gap(
    raw: Raw,
    slice: &str,
    span: Span,
    diagnostics: &mut Diagnostics,
    newline: &mut impl FnMut(Option<(usize, u32)>, u32),
) {
    for (i, _) in slice.bytes().enumerate().filter(|&(_, b)| b == b'\n') {
        newline(None, span.start + i as u32 + 1);
    }
    if raw == Raw::UnterminatedComment {
        diagnostics.push(Diagnostic::error(
            codes::UNTERMINATED,
            Span::new(span.file, span.start, span.start + 2),
            "unterminated block comment",
        ));
    }
}

/// The token kind of a raw token class (`None` for the classes that are not tokens:
/// comments, line continuations and unterminated strings); identifiers are
/// [`TokenKind::Ident`] here, and [`lex`] tells keywords from them.
#[inline]
fn map_raw(raw: Raw) -> Option<TokenKind> {
    use TokenKind as T;
    Some(match raw {
        Raw::Ident => T::Ident,
        Raw::Int => T::IntLiteral,
        Raw::Float => T::FloatLiteral,
        Raw::String => T::StringLiteral,
        Raw::Char => T::CharLiteral,
        Raw::LParen => T::LParen,
        Raw::RParen => T::RParen,
        Raw::LBracket => T::LBracket,
        Raw::RBracket => T::RBracket,
        Raw::LBrace => T::LBrace,
        Raw::RBrace => T::RBrace,
        Raw::Semicolon => T::Semicolon,
        Raw::Comma => T::Comma,
        Raw::Dot => T::Dot,
        Raw::Colon => T::Colon,
        Raw::ColonColon => T::ColonColon,
        Raw::Question => T::Question,
        Raw::Plus => T::Plus,
        Raw::Minus => T::Minus,
        Raw::Star => T::Star,
        Raw::Slash => T::Slash,
        Raw::Percent => T::Percent,
        Raw::PlusPlus => T::PlusPlus,
        Raw::MinusMinus => T::MinusMinus,
        Raw::Eq => T::Eq,
        Raw::PlusEq => T::PlusEq,
        Raw::MinusEq => T::MinusEq,
        Raw::StarEq => T::StarEq,
        Raw::SlashEq => T::SlashEq,
        Raw::PercentEq => T::PercentEq,
        Raw::AmpEq => T::AmpEq,
        Raw::PipeEq => T::PipeEq,
        Raw::CaretEq => T::CaretEq,
        Raw::ShlEq => T::ShlEq,
        Raw::ShrEq => T::ShrEq,
        Raw::EqEq => T::EqEq,
        Raw::NotEq => T::NotEq,
        Raw::Lt => T::Lt,
        Raw::Gt => T::Gt,
        Raw::LtEq => T::LtEq,
        Raw::GtEq => T::GtEq,
        Raw::Shl => T::Shl,
        Raw::Shr => T::Shr,
        Raw::AmpAmp => T::AmpAmp,
        Raw::PipePipe => T::PipePipe,
        Raw::Bang => T::Bang,
        Raw::Amp => T::Amp,
        Raw::Pipe => T::Pipe,
        Raw::Caret => T::Caret,
        Raw::Tilde => T::Tilde,
        Raw::Hash => T::Hash,
        Raw::HashHash => T::HashHash,
        Raw::Newline => T::Newline,
        Raw::BlockComment
        | Raw::UnterminatedComment
        | Raw::Continuation
        | Raw::UnterminatedString => return None,
    })
}

/// Reports the invalid character at byte `start` of `text`, at `span` (OSH0010).
#[cold]
fn invalid_character(text: &str, start: usize, span: Span, diagnostics: &mut Diagnostics) {
    let ch = text.get(start..).and_then(|rest| rest.chars().next());
    let ch = ch.unwrap_or('?');
    diagnostics.push(Diagnostic::error(
        codes::INVALID_CHARACTER,
        span,
        format!("invalid character {ch:?} in source"),
    ));
}

/// The suffix of an integer literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntSuffix {
    /// No suffix: `int` (or a wider type if the value needs it).
    None,
    /// `u`: `uint`.
    Unsigned,
    /// `l` or `ll`: 64-bit signed.
    Long,
    /// `ul`, `lu`, `ull`: 64-bit unsigned.
    UnsignedLong,
}

/// The suffix of a floating-point literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FloatSuffix {
    /// No suffix: `float` (HLSL's literal float).
    None,
    /// `f`: `float`.
    Float,
    /// `h`: `half`.
    Half,
    /// `l`: `double`.
    Double,
}

/// Why a numeric literal was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LiteralError(pub String);

/// The value and suffix of an integer literal spelled `text` (decimal, `0x` hex, or `0` octal).
pub fn parse_int_literal(text: &str) -> Result<(u64, IntSuffix), LiteralError> {
    if let Some(literal) = plain_int_literal(text) {
        return Ok(literal);
    }
    let digits_end = text
        .char_indices()
        .rev()
        .take_while(|(_, c)| matches!(c, 'u' | 'U' | 'l' | 'L'))
        .last()
        .map(|(i, _)| i)
        .unwrap_or(text.len());
    let (digits, suffix_text) = text.split_at(digits_end);
    // The suffix is at most three letters of `uUlL` (longer ones are errors), compared
    // case-insensitively without making a lowercase copy.
    let mut lower = [0u8; 3];
    let suffix_bytes = suffix_text.as_bytes();
    let lower = match lower.get_mut(..suffix_bytes.len()) {
        Some(lower) => {
            lower.copy_from_slice(suffix_bytes);
            lower.make_ascii_lowercase();
            &*lower
        }
        None => suffix_bytes,
    };
    let suffix = match lower {
        b"" => IntSuffix::None,
        b"u" => IntSuffix::Unsigned,
        b"l" | b"ll" => IntSuffix::Long,
        b"ul" | b"lu" | b"ull" | b"llu" => IntSuffix::UnsignedLong,
        _ => {
            return Err(LiteralError(format!(
                "invalid integer suffix '{suffix_text}'"
            )))
        }
    };
    let (radix, body) = if let Some(hex) = digits
        .strip_prefix("0x")
        .or_else(|| digits.strip_prefix("0X"))
    {
        (16, hex)
    } else if digits.len() > 1 && digits.starts_with('0') {
        (8, &digits[1..])
    } else {
        (10, digits)
    };
    match u64::from_str_radix(body, radix) {
        Ok(v) => Ok((v, suffix)),
        Err(e) => match e.kind() {
            std::num::IntErrorKind::PosOverflow => Err(LiteralError(format!(
                "integer literal '{text}' is too large for any integer type"
            ))),
            _ => Err(LiteralError(format!(
                "invalid digits in integer literal '{text}'"
            ))),
        },
    }
}

/// [`parse_int_literal`] of the most common spellings, without its general parsing: up
/// to nineteen decimal digits (so the value fits), not starting with `0` unless they
/// are just `0`, and no suffix or `u`. `None` for any other spelling.
fn plain_int_literal(text: &str) -> Option<(u64, IntSuffix)> {
    let (digits, suffix) = match text.as_bytes() {
        [digits @ .., b'u' | b'U'] => (digits, IntSuffix::Unsigned),
        digits => (digits, IntSuffix::None),
    };
    if digits.is_empty() || digits.len() > 19 || (digits.len() > 1 && digits.first() == Some(&b'0'))
    {
        return None;
    }
    let mut value = 0u64;
    for &digit in digits {
        if !digit.is_ascii_digit() {
            return None;
        }
        value = value * 10 + u64::from(digit - b'0');
    }
    Some((value, suffix))
}

/// The value and suffix of a floating-point literal spelled `text`.
pub fn parse_float_literal(text: &str) -> Result<(f64, FloatSuffix), LiteralError> {
    let (body, suffix) = match text.as_bytes().last() {
        Some(b'f' | b'F') => (&text[..text.len() - 1], FloatSuffix::Float),
        Some(b'h' | b'H') => (&text[..text.len() - 1], FloatSuffix::Half),
        Some(b'l' | b'L') => (&text[..text.len() - 1], FloatSuffix::Double),
        _ => (text, FloatSuffix::None),
    };
    match exact_decimal(body) {
        Some(value) => Ok((value, suffix)),
        None => parse_float_general(text, body, suffix),
    }
}

/// [`parse_float_literal`] of a spelling [`exact_decimal`] does not take (an exponent,
/// too many digits, an error): kept out of line so the common path stays small.
#[cold]
#[inline(never)]
fn parse_float_general(
    text: &str,
    body: &str,
    suffix: FloatSuffix,
) -> Result<(f64, FloatSuffix), LiteralError> {
    // Rust's parser rejects a trailing `.` before an exponent ("1.e5"); C does not. Such
    // spellings are rare: the others are parsed as they are, without a copy.
    let dot_exponent = body
        .as_bytes()
        .windows(2)
        .any(|pair| matches!(pair, [b'.', b'e' | b'E']));
    let parsed = if dot_exponent {
        body.replacen(".e", ".0e", 1)
            .replacen(".E", ".0E", 1)
            .parse::<f64>()
    } else {
        body.parse::<f64>()
    };
    match parsed {
        Ok(v) if v.is_finite() => Ok((v, suffix)),
        Ok(_) => Err(LiteralError(format!(
            "floating-point literal '{text}' is out of range"
        ))),
        Err(_) => Err(LiteralError(format!(
            "invalid floating-point literal '{text}'"
        ))),
    }
}

/// The powers of ten that a double holds exactly.
const EXACT_POWERS_OF_TEN: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// The value of `body`, digits with at most one `.` and no exponent (`0.25`, `8.0`,
/// `1.`), when its digits as an integer and the power of ten they are divided by are
/// both exact doubles: one division, correctly rounded as IEEE divisions are, then
/// gives the value the full parser would. `None` for any other spelling.
fn exact_decimal(body: &str) -> Option<f64> {
    let bytes = body.as_bytes();
    // Nineteen decimal digits always fit a `u64`; more are left to the full parser.
    if bytes.len() > 20 {
        return None;
    }
    let mut mantissa = 0u64;
    // Where the `.` is, once it is seen.
    let mut dot: Option<usize> = None;
    for (index, &byte) in bytes.iter().enumerate() {
        let digit = byte.wrapping_sub(b'0');
        if digit < 10 {
            mantissa = mantissa.wrapping_mul(10).wrapping_add(u64::from(digit));
        } else if byte == b'.' && dot.is_none() {
            dot = Some(index);
        } else {
            return None;
        }
    }
    let digits = bytes.len() - usize::from(dot.is_some());
    if digits == 0 || digits > 19 || mantissa > 1 << f64::MANTISSA_DIGITS {
        return None;
    }
    let fraction_digits = dot.map_or(0, |at| bytes.len() - at - 1);
    let divisor = EXACT_POWERS_OF_TEN.get(fraction_digits)?;
    Some(mantissa as f64 / divisor)
}

/// The contents of a string literal, with C escapes resolved (unknown escapes keep the character).
pub fn unescape_string(text: &str) -> String {
    let inner = text.strip_prefix('"').unwrap_or(text);
    let inner = inner.strip_suffix('"').unwrap_or(inner);
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('0') => out.push('\0'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `count` texts of up to `longest - 1` pieces each, drawn from `pieces` by a
    /// xorshift generator seeded with `seed` (the same texts every run).
    fn random_texts(pieces: &[&str], seed: u64, count: usize, longest: usize) -> Vec<String> {
        let mut state = seed;
        (0..count)
            .map(|length| {
                (0..length % longest)
                    .map(|_| {
                        state ^= state << 13;
                        state ^= state >> 7;
                        state ^= state << 17;
                        pieces[(state % pieces.len() as u64) as usize]
                    })
                    .collect()
            })
            .collect()
    }

    fn kinds(src: &str) -> Vec<TokenKind> {
        let mut d = Diagnostics::new();
        let toks = lex(FileId(0), src, &mut Spellings::new(&Arena::new()), &mut d);
        assert!(!d.has_errors(), "{:?}", d);
        toks.into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn operators_and_punctuation() {
        use TokenKind::*;
        assert_eq!(
            kinds("a <<= b >>= c :: d [[ e ]] ## # -> ..."),
            vec![
                Ident, ShlEq, Ident, ShrEq, Ident, ColonColon, Ident, LBracket, LBracket, Ident,
                RBracket, RBracket, HashHash, Hash, Minus, Gt, Dot, Dot, Dot, Eof
            ]
        );
        assert_eq!(
            kinds("++ -- += -= *= /= %= &= |= ^= == != <= >= && || ! ~ ? : , ; { } ( )"),
            vec![
                PlusPlus, MinusMinus, PlusEq, MinusEq, StarEq, SlashEq, PercentEq, AmpEq, PipeEq,
                CaretEq, EqEq, NotEq, LtEq, GtEq, AmpAmp, PipePipe, Bang, Tilde, Question, Colon,
                Comma, Semicolon, LBrace, RBrace, LParen, RParen, Eof
            ]
        );
    }

    #[test]
    fn keywords_identifiers_and_newlines() {
        use TokenKind::*;
        assert_eq!(
            kinds("if float4 groupshared sample\nreturn"),
            vec![
                Keyword(super::Keyword::If),
                Ident,
                Keyword(super::Keyword::Groupshared),
                Ident,
                Newline,
                Keyword(super::Keyword::Return),
                Eof
            ]
        );
    }

    #[test]
    fn comments_and_continuations_are_whitespace() {
        use TokenKind::*;
        let mut d = Diagnostics::new();
        let toks = lex(
            FileId(0),
            "a/* x\n y */b // c\nd \\\ne",
            &mut Spellings::new(&Arena::new()),
            &mut d,
        );
        let k: Vec<_> = toks.iter().map(|t| t.kind).collect();
        assert_eq!(k, vec![Ident, Ident, Newline, Ident, Ident, Eof]);
        assert!(toks[1].leading_space);
        assert!(!toks[0].leading_space);
        assert!(toks[3].line_start);
        assert!(!toks[4].line_start);
    }

    #[test]
    fn every_line_start_is_recorded() {
        let text = "a/* x\n y */b // c\nd \\\ne\r\n\n/*\n\n*/ f\n";
        let lines = lex_lines(
            FileId(0),
            text,
            0,
            &mut Spellings::new(&Arena::new()),
            &mut Diagnostics::new(),
        );
        let newlines = text.match_indices('\n').map(|(i, _)| i as u32 + 1);
        let expected: Vec<u32> = std::iter::once(0).chain(newlines).collect();
        assert_eq!(lines.starts, expected);
    }

    #[test]
    fn every_line_start_is_recorded_in_any_text() {
        // Continuations (`\\\r\n` too), comments and strings left open, lone `\r`s and
        // non-ASCII text, mixed at random.
        let pieces = ["\\", "\r", "\n", "/", "*", "\"", "'", "a", "é", " ", "#"];
        for text in random_texts(&pieces, 0x2545_f491_4f6c_dd1d_u64, 300, 60) {
            let lines = lex_lines(
                FileId(0),
                &text,
                0,
                &mut Spellings::new(&Arena::new()),
                &mut Diagnostics::new(),
            );
            let scanned = oneshader_ir::SourceFile::new("", text.clone());
            assert_eq!(lines.starts, scanned.line_starts(), "{text:?}");
        }
    }

    /// Where, in `text` made of the pieces of [`leading_space_follows_the_bytes_before`],
    /// a comment or an invalid character (skipped like whitespace) ends.
    fn skipped_ends(text: &str) -> Vec<usize> {
        let mut ends = Vec::new();
        let mut at = 0;
        while let Some(rest) = text.get(at..) {
            let Some(c) = rest.chars().next() else {
                break;
            };
            at += if rest.starts_with("//") {
                rest.find('\n').unwrap_or(rest.len())
            } else if rest.starts_with("/*") {
                rest.find("*/").map_or(rest.len(), |end| end + 2)
            } else {
                c.len_utf8()
            };
            if rest.starts_with('/') || c == '@' || c == 'é' {
                ends.push(at);
            }
        }
        ends
    }

    /// A token has a leading space exactly when whitespace other than a line break, a
    /// comment or an invalid character comes right before it: checked against the bytes
    /// themselves, so that the lexer's one-space step is tested on its own.
    #[test]
    fn leading_space_follows_the_bytes_before() {
        let check = |text: &str| {
            let arena = Arena::new();
            let (mut spellings, mut diagnostics) = (Spellings::new(&arena), Diagnostics::new());
            let tokens = lex(FileId(0), text, &mut spellings, &mut diagnostics);
            let skipped = skipped_ends(text);
            for token in tokens.iter().filter(|t| t.kind != TokenKind::Eof) {
                let start = token.span.start as usize;
                let expected = start > 0
                    && (matches!(text.as_bytes()[start - 1], b' ' | b'\t')
                        || skipped.contains(&start));
                assert_eq!(
                    token.leading_space, expected,
                    "{text:?}: the token at {start}"
                );
            }
            tokens
        };
        for text in [
            "a é b",
            "a @ b",
            "a ",
            " ",
            "a \tb",
            "a /*c*/b",
            "a/*c*/ b",
            "a/*c*/b",
            "é a",
            "a //c\n b",
            " \n a",
            "a  b",
            "(a)",
        ] {
            check(text);
        }
        // One space at the end of the file: the end comes right after it.
        let tokens = check("a ");
        assert_eq!(tokens.len(), 2);
        assert_eq!((tokens[1].span.start, tokens[1].span.end), (2, 2));

        let pieces = [
            "a", "1", "é", "@", " ", " ", "  ", "\t", "/*c*/", "//c", "\n", "+", ";", "(",
        ];
        for text in random_texts(&pieces, 0x2545_f491_4f6c_dd1d_u64, 600, 40) {
            check(&text);
        }
    }

    #[test]
    fn lex_lines_is_lex_without_its_newlines() {
        // Lines of names, numbers and punctuation with blank lines, comments, continuations,
        // `\r\n`s, open strings and invalid characters, mixed at random.
        let pieces = [
            "\\", "\r", "\n", "\n", "/", "*", "\"", "a", "1", " ", "#", ";", "@", "if",
        ];
        for text in random_texts(&pieces, 0x9e37_79b9_7f4a_7c15_u64, 400, 80) {
            let arena = Arena::new();
            let (mut spellings, mut diagnostics) = (Spellings::new(&arena), Diagnostics::new());
            let all = lex(FileId(0), &text, &mut spellings, &mut diagnostics);
            let line_arena = Arena::new();
            let (mut line_spellings, mut line_diagnostics) =
                (Spellings::new(&line_arena), Diagnostics::new());
            let lines = lex_lines(
                FileId(0),
                &text,
                0,
                &mut line_spellings,
                &mut line_diagnostics,
            );
            let summary = |t: &Token, spellings: &Spellings| {
                let text = spellings.text(t.text).to_owned();
                (t.kind, text, t.span, t.leading_space, t.line_start)
            };
            let without_newlines: Vec<_> = all
                .iter()
                .filter(|t| t.kind != TokenKind::Newline)
                .map(|t| summary(t, &spellings))
                .collect();
            let line_tokens: Vec<_> = lines
                .tokens
                .iter()
                .map(|t| summary(t, &line_spellings))
                .collect();
            assert_eq!(line_tokens, without_newlines, "{text:?}");
            // Each newline ends a line where the tokens before it end.
            let mut newlines = 0;
            let mut ends = Vec::new();
            for (index, token) in all.iter().enumerate() {
                if token.kind == TokenKind::Newline {
                    ends.push(LineEnd {
                        token: (index - newlines) as u32,
                        byte: token.span.start,
                    });
                    newlines += 1;
                }
            }
            ends.push(LineEnd {
                token: (all.len() - 1 - newlines) as u32,
                byte: text.len() as u32,
            });
            assert_eq!(lines.ends, ends, "{text:?}");
            assert_eq!(
                line_diagnostics.error_count(),
                diagnostics.error_count(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn literal_kinds() {
        use TokenKind::*;
        assert_eq!(
            kinds(r#"1 0x1Fu 017 1ul 1.0 1. .5 1e-3 2.5f 1.0h 3.0L "s\"x""#),
            vec![
                IntLiteral,
                IntLiteral,
                IntLiteral,
                IntLiteral,
                FloatLiteral,
                FloatLiteral,
                FloatLiteral,
                FloatLiteral,
                FloatLiteral,
                FloatLiteral,
                FloatLiteral,
                StringLiteral,
                Eof
            ]
        );
    }

    #[test]
    fn integer_values() {
        assert_eq!(parse_int_literal("42"), Ok((42, IntSuffix::None)));
        assert_eq!(parse_int_literal("0x1Fu"), Ok((31, IntSuffix::Unsigned)));
        assert_eq!(parse_int_literal("017"), Ok((15, IntSuffix::None)));
        assert_eq!(parse_int_literal("0"), Ok((0, IntSuffix::None)));
        assert_eq!(parse_int_literal("7UL"), Ok((7, IntSuffix::UnsignedLong)));
        assert_eq!(parse_int_literal("7l"), Ok((7, IntSuffix::Long)));
        assert_eq!(
            parse_int_literal("18446744073709551615"),
            Ok((u64::MAX, IntSuffix::None))
        );
        assert!(parse_int_literal("18446744073709551616").is_err());
        assert!(parse_int_literal("09").is_err());
        assert!(parse_int_literal("1uu").is_err());
    }

    #[test]
    fn float_values() {
        assert_eq!(parse_float_literal("1.0"), Ok((1.0, FloatSuffix::None)));
        assert_eq!(parse_float_literal("1."), Ok((1.0, FloatSuffix::None)));
        assert_eq!(parse_float_literal(".5"), Ok((0.5, FloatSuffix::None)));
        assert_eq!(parse_float_literal("1e-3"), Ok((0.001, FloatSuffix::None)));
        assert_eq!(
            parse_float_literal("1.e2f"),
            Ok((100.0, FloatSuffix::Float))
        );
        assert_eq!(parse_float_literal("2.5h"), Ok((2.5, FloatSuffix::Half)));
        assert_eq!(parse_float_literal("2.5L"), Ok((2.5, FloatSuffix::Double)));
        assert!(parse_float_literal("1e999").is_err());
    }

    #[test]
    fn exact_decimals_agree_with_the_full_parser() {
        for text in [
            "0.0",
            "0.1",
            "0.25",
            "3.14159",
            "1.",
            ".5",
            "123456789.123456789",
            "9007199254740992.0",
            "9007199254740993.0",
            "0.0000000000000000000001",
            "0.00000000000000000000001",
            "18446744073709551616.0",
        ] {
            let full = text.parse::<f64>().ok().map(f64::to_bits);
            if let Some(fast) = exact_decimal(text) {
                assert_eq!(Some(fast.to_bits()), full, "{text}");
            }
            let parsed = parse_float_literal(text).ok().map(|(v, _)| v.to_bits());
            assert_eq!(parsed, full, "{text}");
        }
        assert_eq!(exact_decimal("1e5"), None);
        assert_eq!(exact_decimal("."), None);
        assert_eq!(exact_decimal("1.2.3"), None);
    }

    #[test]
    fn plain_int_literals_agree_with_the_full_parser() {
        assert_eq!(plain_int_literal("0"), Some((0, IntSuffix::None)));
        assert_eq!(plain_int_literal("42u"), Some((42, IntSuffix::Unsigned)));
        assert_eq!(
            plain_int_literal("9999999999999999999"),
            Some((9_999_999_999_999_999_999, IntSuffix::None))
        );
        for text in ["07", "0x10", "10l", "u", "", "99999999999999999999"] {
            assert_eq!(plain_int_literal(text), None, "{text}");
        }
    }

    #[test]
    fn invalid_characters_are_reported_and_skipped() {
        let mut d = Diagnostics::new();
        let toks = lex(
            FileId(0),
            "a @ b $",
            &mut Spellings::new(&Arena::new()),
            &mut d,
        );
        assert_eq!(toks.len(), 3);
        let spans: Vec<_> = d
            .iter()
            .map(|d| (d.code, d.span.map(|s| s.start)))
            .collect();
        assert_eq!(
            spans,
            vec![
                (codes::INVALID_CHARACTER, Some(2)),
                (codes::INVALID_CHARACTER, Some(6))
            ]
        );
    }

    #[test]
    fn unterminated_comment_and_string() {
        let mut d = Diagnostics::new();
        lex(
            FileId(0),
            "a \"abc\nb /* never",
            &mut Spellings::new(&Arena::new()),
            &mut d,
        );
        let codes: Vec<_> = d.iter().map(|d| d.code).collect();
        assert_eq!(codes, vec![codes::UNTERMINATED, codes::UNTERMINATED]);
    }

    #[test]
    fn shared_texts_are_shared_not_copied() {
        let arena = Arena::new();
        let mut spellings = Spellings::new(&arena);
        let texts: Vec<String> = (0..300)
            .map(|i| "abcdefghij_".repeat(i % 3) + &i.to_string())
            .chain(["q", "acc", "defined", "float", "+=", ""].map(String::from))
            .collect();
        let symbols: Vec<Symbol> = texts.iter().map(|text| spellings.intern(text)).collect();
        for (text, &symbol) in texts.iter().zip(&symbols) {
            let shared = spellings.shared(symbol);
            assert_eq!(&*shared, text.as_str());
            assert!(Arc::ptr_eq(&shared, &spellings.shared(symbol)), "{text:?}");
        }
    }

    #[test]
    fn spellings_are_interned_once_through_growth() {
        let arena = Arena::new();
        let mut spellings = Spellings::new(&arena);
        let names: Vec<String> = (0..5000).map(|i| format!("name_{i}")).collect();
        let symbols: Vec<Symbol> = names.iter().map(|n| spellings.intern(n)).collect();
        for (name, &symbol) in names.iter().zip(&symbols) {
            assert_eq!(spellings.intern(name), symbol);
            assert_eq!(spellings.text(symbol), name);
        }
        assert_eq!(spellings.len(), Symbol::FIXED + 5000);
        assert_eq!(spellings.intern(""), Symbol::EMPTY);
        let x = spellings.intern("x");
        assert_eq!((spellings.intern("x"), spellings.text(x)), (x, "x"));
        let keyword = spellings.intern("groupshared");
        assert_eq!(spellings.keyword(keyword), Some(Keyword::Groupshared));
    }

    #[test]
    fn symbol_of_finds_only_what_was_interned() {
        let arena = Arena::new();
        let mut spellings = Spellings::new(&arena);
        let texts = ["x", "ab", "groupshared", "a_long_name_of_many_bytes", "\n"];
        for text in texts {
            assert_eq!(spellings.symbol_of(text), None, "{text:?}");
        }
        let symbols: Vec<Symbol> = texts.iter().map(|t| spellings.intern(t)).collect();
        for (text, symbol) in texts.iter().zip(symbols) {
            assert_eq!(spellings.symbol_of(text), Some(symbol), "{text:?}");
        }
        assert_eq!(spellings.symbol_of(""), Some(Symbol::EMPTY));
        assert_eq!(spellings.symbol_of("y"), None);
        assert_eq!(spellings.symbol_of("a_long_name_of_many_byteS"), None);
    }

    #[test]
    fn spellings_whose_hashed_words_overlap_stay_apart() {
        // Short spellings are hashed from overlapping loads, and long ones end with an
        // overlapping word: spellings alike in those loads must still intern apart.
        let texts = [
            "aa",
            "aaa",
            "aaaa",
            "aaaaa",
            "aaaaaaaa",
            "aaaaaaaaa",
            "ab",
            "aba",
            "abab",
            "a\0",
            "a\0\0",
            "abcdefgh",
            "abcdefghh",
            "abcdefghgh",
            "0123456789abcdefg",
        ];
        let arena = Arena::new();
        let mut spellings = Spellings::with_capacity(&arena, 1);
        let symbols: Vec<Symbol> = texts.iter().map(|t| spellings.intern(t)).collect();
        for (text, &symbol) in texts.iter().zip(&symbols) {
            assert_eq!(
                (spellings.intern(text), spellings.text(symbol)),
                (symbol, *text)
            );
        }
        assert_eq!(spellings.len(), Symbol::FIXED + texts.len());
    }

    #[test]
    fn fixed_spellings_keep_their_symbols() {
        let arena = Arena::new();
        let mut spellings = Spellings::new(&arena);
        for (place, &(text, kind)) in PUNCTUATION.iter().enumerate() {
            let symbol = Symbol(1 + place as u32);
            assert_eq!(spellings.intern(text), symbol, "{text}");
            assert_eq!(spellings.text(symbol), text);
            assert_eq!(kinds(text), vec![kind, TokenKind::Eof], "{text}");
        }
        for (place, &(text, keyword)) in KEYWORDS.iter().enumerate() {
            let symbol = Symbol(Symbol::FIRST_KEYWORD.0 + place as u32);
            assert_eq!(spellings.intern(text), symbol, "{text}");
            assert_eq!(spellings.keyword(symbol), Some(keyword));
            assert_eq!(&*spellings.shared(symbol), text);
        }
        assert_eq!(spellings.intern("\n"), Symbol::NEWLINE);
        assert_eq!(spellings.intern("\r\n"), Symbol::CRLF);
        assert_eq!(spellings.intern("defined"), Symbol::DEFINED);
        assert_eq!(spellings.intern("__VA_ARGS__"), Symbol::VA_ARGS);
        assert_eq!(spellings.text(Symbol::VA_ARGS), "__VA_ARGS__");
        assert_eq!(spellings.keyword(Symbol::DEFINED), None);
        assert!(spellings.is_empty());
        let toks = lex(
            FileId(0),
            "a\r\nb\n",
            &mut spellings,
            &mut Diagnostics::new(),
        );
        let texts: Vec<_> = toks.iter().map(|t| spellings.text(t.text)).collect();
        assert_eq!(texts, ["a", "\r\n", "b", "\n", ""]);
    }

    /// What [`scanned`] gives: `(kind, start, end)` of each token, and `(code, start,
    /// end)` of each diagnostic.
    type Scanned = (
        Vec<(TokenKind, u32, u32)>,
        Vec<(oneshader_ir::Code, u32, u32)>,
    );

    /// The tokens and diagnostics of `src`, as [`Scanned`].
    fn scanned(src: &str) -> Scanned {
        let mut d = Diagnostics::new();
        let toks = lex(FileId(0), src, &mut Spellings::new(&Arena::new()), &mut d);
        let toks = toks
            .iter()
            .map(|t| (t.kind, t.span.start, t.span.end))
            .collect();
        let diags = d
            .iter()
            .map(|d| {
                let span = d.span.unwrap_or(Span::new(FileId(0), 0, 0));
                (d.code, span.start, span.end)
            })
            .collect();
        (toks, diags)
    }

    #[test]
    fn numbers_take_the_longest_well_formed_prefix() {
        use TokenKind::*;
        let kinds = |src: &str| -> Vec<(TokenKind, u32, u32)> { scanned(src).0 };
        // `0x` without a digit is `0` and a name; an exponent without digits is a name.
        assert_eq!(
            kinds("0xg"),
            vec![(IntLiteral, 0, 1), (Ident, 1, 3), (Eof, 3, 3)]
        );
        assert_eq!(
            kinds("1e+x"),
            vec![
                (IntLiteral, 0, 1),
                (Ident, 1, 2),
                (Plus, 2, 3),
                (Ident, 3, 4),
                (Eof, 4, 4)
            ]
        );
        assert_eq!(
            kinds("1.e5f 0x1e+5 1..2"),
            vec![
                (FloatLiteral, 0, 5),
                (IntLiteral, 6, 10),
                (Plus, 10, 11),
                (IntLiteral, 11, 12),
                (FloatLiteral, 13, 15),
                (FloatLiteral, 15, 17),
                (Eof, 17, 17)
            ]
        );
        assert_eq!(
            kinds("1f 2ul"),
            vec![
                (IntLiteral, 0, 1),
                (Ident, 1, 2),
                (IntLiteral, 3, 6),
                (Eof, 6, 6)
            ]
        );
    }

    #[test]
    fn broken_literals_and_stray_characters() {
        use TokenKind::*;
        // An unterminated character literal is one invalid character up to where it
        // fails (past a backslash before the newline); the newline is still a token.
        assert_eq!(
            scanned("'ab\\\nc"),
            (
                vec![(Newline, 4, 5), (Ident, 5, 6), (Eof, 6, 6)],
                vec![(codes::INVALID_CHARACTER, 0, 4)]
            )
        );
        // An unterminated string stops before a backslash-newline, which continues the line.
        assert_eq!(
            scanned("\"ab\\\nc"),
            (
                vec![(StringLiteral, 0, 3), (Ident, 5, 6), (Eof, 6, 6)],
                vec![(codes::UNTERMINATED, 0, 3)]
            )
        );
        // `\` before `\r` without `\n` is invalid with the `\r`; a lone `\r` is too; a
        // non-ASCII character is one invalid character, all of its bytes.
        assert_eq!(
            scanned("\\\ra\r\u{e9}b\r\n"),
            (
                vec![(Ident, 2, 3), (Ident, 6, 7), (Newline, 7, 9), (Eof, 9, 9)],
                vec![
                    (codes::INVALID_CHARACTER, 0, 2),
                    (codes::INVALID_CHARACTER, 3, 4),
                    (codes::INVALID_CHARACTER, 4, 6)
                ]
            )
        );
    }

    #[test]
    fn string_unescaping() {
        assert_eq!(unescape_string(r#""a\"b\n""#), "a\"b\n");
    }
}
