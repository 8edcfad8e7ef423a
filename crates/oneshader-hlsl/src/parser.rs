//! The recursive-descent parser: preprocessed tokens to an [`ast::TranslationUnit`].
//!
//! The parser is error-resilient: a syntax error is reported as OSH0200
//! ("expected X, found Y"), the parser skips to a synchronisation point (`;`
//! or the `}` that closes the current block) and continues, and it never
//! reports a second error at the token where the previous one was reported,
//! so one mistake gives one diagnostic.
//!
//! **Types versus values.** HLSL's grammar needs to know which names are
//! types in two places: `(T)x` (a cast, or a parenthesised value?) and
//! statements starting with a name (a declaration, or an expression?). The
//! parser keeps a simple set of type names: the built-in spellings
//! ([`is_builtin_type_name`]) plus every `struct` and `typedef` name declared
//! so far, regardless of scope. `(T)` followed by a token that can start an
//! operand is a cast when `T` is in that set; anything else in parentheses is
//! a parenthesised expression. A statement starting with `Name Name` is always
//! a declaration, so resource types and types from macros need no registration.
//!
//! Nesting of expressions, statements and types is limited ([`MAX_NESTING`]);
//! deeper input gives OSH0201 instead of exhausting the stack. The limit bounds the
//! depth of the tree, not only the parser's recursion: each operator of a chain such
//! as `a + b + c` or `v[0][1].x` is one level too, since lowering and the writers
//! recurse over the tree. OSH0201 is fatal, as clang's bracket-depth error: the
//! parser reports it and stops, so a runaway input gives one diagnostic.

use oneshader_ir::{codes, Code, Diagnostic, Diagnostics, FastHashSet, Span};

use crate::ast::*;
use crate::lexer::{
    parse_float_literal, parse_int_literal, unescape_string, Keyword, Spellings, Symbol, Token,
    TokenKind,
};

/// The deepest nesting of expressions, statements and types the parser accepts.
///
/// One parenthesis level costs two units (64 levels of parentheses are
/// accepted); the limit keeps an unoptimised build inside a 2 MiB thread stack,
/// where one parenthesis level takes about 4 KiB (60 levels parse in a 263 KiB stack).
pub const MAX_NESTING: u32 = 128;

/// The error marker of a failed parse step: the diagnostic is already recorded.
struct Failed;

type PResult<T> = Result<T, Failed>;

/// Parses a token stream (as produced by [`crate::preprocess`], or the lexer's).
///
/// Newline tokens are ignored; the stream should end with [`TokenKind::Eof`]
/// (one is added if it does not). `spellings` holds the tokens' spellings.
/// The tree lives in `arena`.
pub fn parse_tokens<'a>(
    arena: &'a Arena,
    mut tokens: Vec<Token>,
    spellings: Spellings<'a>,
    diagnostics: &mut Diagnostics,
) -> TranslationUnit<'a> {
    tokens.retain(|t| !matches!(t.kind, TokenKind::Newline | TokenKind::Placemarker));
    parse_preprocessed(arena, tokens, spellings, diagnostics)
}

/// [`parse_tokens`] for the preprocessor's output, which holds neither newlines nor
/// placemarkers (nothing to filter out).
pub(crate) fn parse_preprocessed<'a>(
    arena: &'a Arena,
    mut tokens: Vec<Token>,
    spellings: Spellings<'a>,
    diagnostics: &mut Diagnostics,
) -> TranslationUnit<'a> {
    let end = match tokens.last() {
        Some(last) if last.kind == TokenKind::Eof => *last,
        last => {
            let span = last
                .map(|t| Span::new(t.span.file, t.span.end, t.span.end))
                .unwrap_or(Span::new(oneshader_ir::FileId(0), 0, 0));
            let eof = Token::new(TokenKind::Eof, Symbol::EMPTY, span);
            tokens.push(eof);
            eof
        }
    };
    let mut parser = Parser {
        arena,
        prev_span: tokens.first().map_or(end.span, |t| t.span),
        current: tokens.first().copied().unwrap_or(end),
        tokens,
        spellings,
        end,
        pos: 0,
        diagnostics,
        type_names: FastHashSet::default(),
        depth: 0,
        last_error_pos: None,
        abandoned: false,
        expr_stack: Vec::new(),
        stmt_stack: Vec::new(),
        assigned: Vec::new(),
    };
    let items = parser.parse_items(false);
    TranslationUnit::new(items, parser.spellings)
}

struct Parser<'a, 'd> {
    /// Where the tree's nodes and lists are placed.
    arena: &'a Arena,
    tokens: Vec<Token>,
    /// The spellings of `tokens`, in the arena: a name of the tree is one.
    spellings: Spellings<'a>,
    /// The last token, `Eof`: what reading past the end gives.
    end: Token,
    /// The token at `pos` (`end` past the last one): what [`Parser::peek`] gives, kept
    /// by [`Parser::advance`] so that looking at it needs no bounds check.
    current: Token,
    pos: usize,
    prev_span: Span,
    diagnostics: &'d mut Diagnostics,
    /// Names declared as types so far (`struct`, `typedef`).
    type_names: FastHashSet<String>,
    /// The nesting levels entered so far ([`Parser::enter`]).
    depth: u32,
    last_error_pos: Option<usize>,
    /// Set by OSH0201: the parser skipped to the end and reports nothing more.
    abandoned: bool,
    /// The arguments of the calls being parsed, innermost call's last: each list is
    /// gathered here and moved into an arena slice of its exact length.
    expr_stack: Vec<Expr<'a>>,
    /// The statements of the blocks being parsed, innermost block's last (as
    /// `expr_stack`).
    stmt_stack: Vec<Stmt<'a>>,
    /// The names the expressions parsed so far may assign ([`Parser::note_assigned`]),
    /// from which each function body takes its own ([`FunctionDecl::assigned`]).
    assigned: Vec<Symbol>,
}

/// The symbol of the variable `e` names or is a field or element of (`v`, `v.x`,
/// `v[i].y`), if any.
fn root_name(e: &Expr) -> Option<Symbol> {
    let mut e = e;
    loop {
        match &e.kind {
            ExprKind::Name(name) => return Some(name.symbol()),
            ExprKind::Member(member) => e = &member.base,
            ExprKind::Index(index) => e = &index.base,
            _ => return None,
        }
    }
}

/// Whether `name` is a scalar, vector or matrix type spelling (`float`, `uint3`, `half4x4`,
/// `vector`, `matrix`): the types that can be called as constructors.
pub fn is_numeric_type_name(name: &str) -> bool {
    if matches!(
        name,
        "vector" | "matrix" | "void" | "int8_t4_packed" | "uint8_t4_packed"
    ) {
        return true;
    }
    // A scalar spelling, then nothing, a dimension (`float4`) or two (`float4x4`); no
    // scalar spelling ends in a digit, so the suffix is found from the end.
    let is_dim = |b: u8| matches!(b, b'1'..=b'4');
    let scalar = match name.as_bytes() {
        [.., r, b'x', c] if is_dim(*r) && is_dim(*c) => name.get(..name.len() - 3),
        [.., n] if is_dim(*n) => name.get(..name.len() - 1),
        _ => Some(name),
    };
    scalar.is_some_and(is_scalar_type_name)
}

/// Whether `name` is a scalar type spelling, one that also forms vectors (`float4`) and
/// matrices (`float4x4`).
fn is_scalar_type_name(name: &str) -> bool {
    matches!(
        name,
        "bool"
            | "int"
            | "uint"
            | "dword"
            | "half"
            | "float"
            | "double"
            | "min16float"
            | "min10float"
            | "min16int"
            | "min12int"
            | "min16uint"
            | "int16_t"
            | "uint16_t"
            | "int32_t"
            | "uint32_t"
            | "int64_t"
            | "uint64_t"
            | "float16_t"
            | "float32_t"
            | "float64_t"
    )
}

/// Whether `name` is a built-in object type (resources, samplers, streams, patches).
fn is_object_type_name(name: &str) -> bool {
    matches!(
        name,
        "Buffer"
            | "RWBuffer"
            | "StructuredBuffer"
            | "RWStructuredBuffer"
            | "AppendStructuredBuffer"
            | "ConsumeStructuredBuffer"
            | "ByteAddressBuffer"
            | "RWByteAddressBuffer"
            | "Texture1D"
            | "Texture1DArray"
            | "Texture2D"
            | "Texture2DArray"
            | "Texture2DMS"
            | "Texture2DMSArray"
            | "Texture3D"
            | "TextureCube"
            | "TextureCubeArray"
            | "RWTexture1D"
            | "RWTexture1DArray"
            | "RWTexture2D"
            | "RWTexture2DArray"
            | "RWTexture3D"
            | "RasterizerOrderedBuffer"
            | "RasterizerOrderedByteAddressBuffer"
            | "RasterizerOrderedStructuredBuffer"
            | "RasterizerOrderedTexture1D"
            | "RasterizerOrderedTexture1DArray"
            | "RasterizerOrderedTexture2D"
            | "RasterizerOrderedTexture2DArray"
            | "RasterizerOrderedTexture3D"
            | "FeedbackTexture2D"
            | "FeedbackTexture2DArray"
            | "SamplerState"
            | "SamplerComparisonState"
            | "ConstantBuffer"
            | "TextureBuffer"
            | "RaytracingAccelerationStructure"
            | "RayQuery"
            | "RayDesc"
            | "BuiltInTriangleIntersectionAttributes"
            | "InputPatch"
            | "OutputPatch"
            | "PointStream"
            | "LineStream"
            | "TriangleStream"
            | "string"
    )
}

/// Whether `name` is any built-in type spelling: numeric types and object types.
pub fn is_builtin_type_name(name: &str) -> bool {
    is_numeric_type_name(name) || is_object_type_name(name)
}

/// Binding strength of a binary operator (higher binds tighter), for precedence climbing.
fn binary_op(kind: TokenKind) -> Option<(BinaryOp, u8)> {
    use TokenKind as T;
    Some(match kind {
        T::PipePipe => (BinaryOp::LogicalOr, 1),
        T::AmpAmp => (BinaryOp::LogicalAnd, 2),
        T::Pipe => (BinaryOp::BitOr, 3),
        T::Caret => (BinaryOp::BitXor, 4),
        T::Amp => (BinaryOp::BitAnd, 5),
        T::EqEq => (BinaryOp::Equal, 6),
        T::NotEq => (BinaryOp::NotEqual, 6),
        T::Lt => (BinaryOp::Less, 7),
        T::Gt => (BinaryOp::Greater, 7),
        T::LtEq => (BinaryOp::LessEqual, 7),
        T::GtEq => (BinaryOp::GreaterEqual, 7),
        T::Shl => (BinaryOp::Shl, 8),
        T::Shr => (BinaryOp::Shr, 8),
        T::Plus => (BinaryOp::Add, 9),
        T::Minus => (BinaryOp::Sub, 9),
        T::Star => (BinaryOp::Mul, 10),
        T::Slash => (BinaryOp::Div, 10),
        T::Percent => (BinaryOp::Rem, 10),
        _ => return None,
    })
}

/// The precedence of additive operators: template value arguments parse from here
/// up, so that `>` and `>>` close the argument list.
const ADDITIVE_PRECEDENCE: u8 = 9;

fn assign_op(kind: TokenKind) -> Option<Option<BinaryOp>> {
    use TokenKind as T;
    Some(match kind {
        T::Eq => None,
        T::PlusEq => Some(BinaryOp::Add),
        T::MinusEq => Some(BinaryOp::Sub),
        T::StarEq => Some(BinaryOp::Mul),
        T::SlashEq => Some(BinaryOp::Div),
        T::PercentEq => Some(BinaryOp::Rem),
        T::ShlEq => Some(BinaryOp::Shl),
        T::ShrEq => Some(BinaryOp::Shr),
        T::AmpEq => Some(BinaryOp::BitAnd),
        T::PipeEq => Some(BinaryOp::BitOr),
        T::CaretEq => Some(BinaryOp::BitXor),
        _ => return None,
    })
}

fn keyword_modifier(k: Keyword) -> Option<Modifier> {
    Some(match k {
        Keyword::Static => Modifier::Static,
        Keyword::Const => Modifier::Const,
        Keyword::Groupshared => Modifier::Groupshared,
        Keyword::Uniform => Modifier::Uniform,
        Keyword::Extern => Modifier::Extern,
        Keyword::Volatile => Modifier::Volatile,
        Keyword::Precise => Modifier::Precise,
        Keyword::Globallycoherent => Modifier::GloballyCoherent,
        Keyword::RowMajor => Modifier::RowMajor,
        Keyword::ColumnMajor => Modifier::ColumnMajor,
        Keyword::Inline => Modifier::Inline,
        Keyword::Export => Modifier::Export,
        Keyword::In => Modifier::In,
        Keyword::Out => Modifier::Out,
        Keyword::Inout => Modifier::InOut,
        _ => return None,
    })
}

/// Modifiers spelled as ordinary identifiers, recognised only before another name.
fn contextual_modifier(text: &str) -> Option<Modifier> {
    Some(match text {
        "linear" => Modifier::Linear,
        "centroid" => Modifier::Centroid,
        "nointerpolation" => Modifier::NoInterpolation,
        "noperspective" => Modifier::NoPerspective,
        "sample" => Modifier::Sample,
        "shared" => Modifier::Shared,
        "point" => Modifier::Point,
        "line" => Modifier::Line,
        "triangle" => Modifier::Triangle,
        "lineadj" => Modifier::LineAdj,
        "triangleadj" => Modifier::TriangleAdj,
        "vertices" => Modifier::Vertices,
        "indices" => Modifier::Indices,
        "primitives" => Modifier::Primitives,
        "payload" => Modifier::Payload,
        _ => return None,
    })
}

fn describe(token: &Token, spellings: &Spellings<'_>) -> String {
    match token.kind {
        TokenKind::Eof => "end of file".to_string(),
        TokenKind::PragmaPackMatrix => "'#pragma pack_matrix'".to_string(),
        _ => format!("'{}'", spellings.text(token.text)),
    }
}

impl<'a> Parser<'a, '_> {
    // ----- token access -------------------------------------------------------------------

    fn peek(&self) -> &Token {
        &self.current
    }

    fn peek_at(&self, n: usize) -> &Token {
        self.tokens.get(self.pos + n).unwrap_or(&self.end)
    }

    fn kind(&self) -> TokenKind {
        self.peek().kind
    }

    fn at(&self, kind: TokenKind) -> bool {
        self.kind() == kind
    }

    fn at_keyword(&self, k: Keyword) -> bool {
        self.kind() == TokenKind::Keyword(k)
    }

    fn span(&self) -> Span {
        self.peek().span
    }

    /// The spelling of `token`.
    fn text(&self, token: &Token) -> &'a str {
        self.spellings.text(token.text)
    }

    fn bump(&mut self) -> Token {
        let token = *self.peek();
        self.advance();
        token
    }

    /// Moves past the next token and returns it as a name (the caller checked its kind).
    fn bump_ident(&mut self) -> Ident<'a> {
        let t = *self.peek();
        let ident = Ident {
            name: self.spellings.text(t.text),
            symbol: t.text,
            span: t.span,
        };
        self.advance();
        ident
    }

    /// `nodes` moved into an arena slice.
    fn list<T>(&self, nodes: Vec<T>) -> &'a [T] {
        self.arena.list(nodes)
    }

    /// Moves past the next token and returns its span.
    fn bump_span(&mut self) -> Span {
        let span = self.span();
        self.advance();
        span
    }

    /// Moves past the next token (not past the end of file), as [`Parser::bump`] without
    /// returning it.
    fn advance(&mut self) {
        if self.current.kind != TokenKind::Eof {
            self.prev_span = self.current.span;
            self.pos += 1;
            self.current = *self.tokens.get(self.pos).unwrap_or(&self.end);
        }
    }

    fn eat(&mut self, kind: TokenKind) -> bool {
        if self.at(kind) {
            self.advance();
            true
        } else {
            false
        }
    }

    /// The span from `start` to the end of the last consumed token.
    fn span_from(&self, start: Span) -> Span {
        start.to(self.prev_span)
    }

    fn error_at(&mut self, code: Code, span: Span, message: String) {
        if self.abandoned || self.last_error_pos == Some(self.pos) {
            return;
        }
        self.last_error_pos = Some(self.pos);
        self.diagnostics
            .push(Diagnostic::error(code, span, message));
    }

    fn expected(&mut self, what: &str) -> Failed {
        let found = describe(self.peek(), &self.spellings);
        let span = self.span();
        self.error_at(
            codes::SYNTAX,
            span,
            format!("expected {what}, found {found}"),
        );
        Failed
    }

    fn expect(&mut self, kind: TokenKind, what: &str) -> PResult<Span> {
        if self.at(kind) {
            Ok(self.bump_span())
        } else {
            Err(self.expected(what))
        }
    }

    /// Consumes a `>` closing a template argument list, splitting `>>` and `>=`.
    fn expect_closing_angle(&mut self) -> PResult<()> {
        let rest = match self.kind() {
            TokenKind::Gt => {
                self.advance();
                return Ok(());
            }
            TokenKind::Shr => TokenKind::Gt,
            TokenKind::GtEq => TokenKind::Eq,
            TokenKind::ShrEq => TokenKind::GtEq,
            _ => return Err(self.expected("'>'")),
        };
        let Some(token) = self.tokens.get_mut(self.pos) else {
            return Err(self.expected("'>'"));
        };
        // The spelling less its first `>`.
        let text = self
            .spellings
            .text(token.text)
            .get(1..)
            .unwrap_or_default()
            .to_owned();
        let text = self.spellings.intern(&text);
        token.kind = rest;
        token.text = text;
        token.span.start += 1;
        self.current = *token;
        self.prev_span = Span::new(token.span.file, token.span.start - 1, token.span.start);
        Ok(())
    }

    fn expect_ident(&mut self, what: &str) -> PResult<Ident<'a>> {
        if self.at(TokenKind::Ident) {
            Ok(self.bump_ident())
        } else {
            Err(self.expected(what))
        }
    }

    /// Enters one nesting level; past the limit, reports OSH0201 and abandons the parse
    /// (skips to the end of the input).
    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth <= MAX_NESTING {
            return Ok(());
        }
        self.depth -= 1;
        let span = self.span();
        self.error_at(
            codes::NESTING_TOO_DEEP,
            span,
            format!(
                "expressions, statements or types nest deeper than {MAX_NESTING} levels; \
                 the rest of the file was not parsed"
            ),
        );
        self.abandoned = true;
        self.pos = self.tokens.len().saturating_sub(1);
        self.current = *self.tokens.get(self.pos).unwrap_or(&self.end);
        Err(Failed)
    }

    /// Runs `parse` and then leaves every nesting level it entered, also on failure:
    /// for the loops that build a chain one level deeper per operator.
    fn chain<T>(&mut self, parse: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        let depth = self.depth;
        let result = parse(self);
        self.depth = depth;
        result
    }

    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Skips from an opening bracket to its matching closer, inclusive.
    fn skip_group(&mut self) {
        let mut depth = 0usize;
        loop {
            match self.kind() {
                TokenKind::LParen | TokenKind::LBracket | TokenKind::LBrace => depth += 1,
                TokenKind::RParen | TokenKind::RBracket | TokenKind::RBrace => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.advance();
                        return;
                    }
                }
                TokenKind::Eof => return,
                _ => {}
            }
            self.advance();
        }
    }

    /// Recovery inside a block: skip past the next `;`, or up to the `}` closing the block.
    fn recover_statement(&mut self) {
        loop {
            match self.kind() {
                TokenKind::Semicolon => {
                    self.advance();
                    return;
                }
                TokenKind::RBrace | TokenKind::Eof => return,
                TokenKind::LBrace => {
                    self.skip_group();
                    return;
                }
                TokenKind::LParen | TokenKind::LBracket => self.skip_group(),
                _ => {
                    self.advance();
                }
            }
        }
    }

    /// Recovery between declarations: skip past the next `;` or braced group.
    fn recover_item(&mut self, nested: bool) {
        loop {
            match self.kind() {
                TokenKind::Semicolon => {
                    self.advance();
                    return;
                }
                TokenKind::Eof => return,
                TokenKind::RBrace => {
                    if !nested {
                        self.advance();
                    }
                    return;
                }
                TokenKind::LBrace => {
                    self.skip_group();
                    self.eat(TokenKind::Semicolon);
                    return;
                }
                TokenKind::LParen | TokenKind::LBracket => self.skip_group(),
                _ => {
                    self.advance();
                }
            }
        }
    }

    fn is_type_name(&self, name: &str) -> bool {
        is_builtin_type_name(name) || self.type_names.contains(name)
    }

    // ----- declarations -------------------------------------------------------------------

    /// Items up to the end of file, or up to (not including) `}` when `nested`.
    fn parse_items(&mut self, nested: bool) -> &'a [Item<'a>] {
        let mut items = Vec::new();
        loop {
            match self.kind() {
                TokenKind::Eof => break,
                TokenKind::RBrace if nested => break,
                _ => {}
            }
            let before = self.pos;
            match self.parse_item(true) {
                Ok(item) => items.push(item),
                Err(Failed) => {
                    self.recover_item(nested);
                    if self.pos == before && !self.at(TokenKind::Eof) {
                        self.advance();
                    }
                }
            }
        }
        self.list(items)
    }

    /// One declaration. Functions are accepted only when `allow_functions`.
    fn parse_item(&mut self, allow_functions: bool) -> PResult<Item<'a>> {
        let start = self.span();
        match self.kind() {
            TokenKind::PragmaPackMatrix => {
                let t = self.bump();
                return Ok(Item::PackMatrix(PackMatrix {
                    row_major: self.text(&t) == "row_major",
                    span: t.span,
                }));
            }
            TokenKind::Semicolon => {
                self.advance();
                return Ok(Item::Empty(start));
            }
            _ => {}
        }
        self.enter()?;
        let result = self.parse_item_inner(start, allow_functions);
        self.leave();
        result
    }

    fn parse_item_inner(&mut self, start: Span, allow_functions: bool) -> PResult<Item<'a>> {
        let attributes = self.parse_attributes()?;
        match self.kind() {
            TokenKind::Keyword(Keyword::Cbuffer | Keyword::Tbuffer) => {
                return self.parse_buffer(start, attributes)
            }
            TokenKind::Keyword(Keyword::Typedef) => return self.parse_typedef(start),
            TokenKind::Keyword(Keyword::Namespace) => return self.parse_namespace(start),
            _ => {}
        }
        let modifiers = self.parse_modifiers();
        let is_struct_definition = matches!(
            self.kind(),
            TokenKind::Keyword(Keyword::Struct | Keyword::Class | Keyword::Interface)
        ) && (matches!(self.peek_at(1).kind, TokenKind::LBrace)
            || (self.peek_at(1).kind == TokenKind::Ident
                && matches!(
                    self.peek_at(2).kind,
                    TokenKind::LBrace | TokenKind::Colon | TokenKind::Semicolon
                )));
        let ty = if is_struct_definition {
            let decl = self.parse_struct()?;
            if self.at(TokenKind::Semicolon) && modifiers.is_empty() {
                self.advance();
                return Ok(Item::Struct(self.arena.node(decl)));
            }
            TypeExpr {
                span: decl.span,
                kind: TypeKind::Struct(self.arena.node(decl)),
            }
        } else {
            self.parse_type()?
        };
        let name = self.parse_path("a name")?;
        if self.at(TokenKind::LParen) {
            if !allow_functions {
                return Err(self.expected("';' or '='"));
            }
            return self
                .parse_function(start, attributes, modifiers, ty, name)
                .map(|function| Item::Function(self.arena.node(function)));
        }
        let first = match name {
            name if name.is_plain() => name.last,
            _ => {
                self.diagnostics.push(Diagnostic::error(
                    codes::SYNTAX,
                    name.span(),
                    "a qualified name can only declare a function",
                ));
                return Err(Failed);
            }
        };
        let declarators = self.parse_declarators(first)?;
        self.expect(TokenKind::Semicolon, "';'")?;
        Ok(Item::Variable(VariableDecl {
            attributes,
            modifiers,
            ty,
            declarators,
            span: self.span_from(start),
        }))
    }

    fn parse_modifiers(&mut self) -> &'a [SpannedModifier] {
        let mut modifiers = Vec::new();
        loop {
            let token = self.peek();
            let modifier = match token.kind {
                TokenKind::Keyword(k) => keyword_modifier(k),
                TokenKind::Ident => contextual_modifier(self.text(token)).filter(|_| {
                    matches!(
                        self.peek_at(1).kind,
                        TokenKind::Ident | TokenKind::Keyword(_)
                    )
                }),
                _ => None,
            };
            let Some(modifier) = modifier else {
                return self.list(modifiers);
            };
            let span = self.bump_span();
            modifiers.push(SpannedModifier { modifier, span });
        }
    }

    /// `[attr(args)]` and `[[ns::attr(args), …]]` groups.
    fn parse_attributes(&mut self) -> PResult<&'a [Attribute<'a>]> {
        let mut attributes = Vec::new();
        while self.at(TokenKind::LBracket) {
            let start = self.bump_span();
            let double_bracket = self.eat(TokenKind::LBracket);
            loop {
                let name = self.parse_attribute_name()?;
                let mut args: &'a [Expr<'a>] = &[];
                if self.eat(TokenKind::LParen) {
                    args = self.parse_arguments_after_paren()?;
                }
                attributes.push(Attribute {
                    name,
                    args,
                    double_bracket,
                    span: self.span_from(start),
                });
                if !self.eat(TokenKind::Comma) {
                    break;
                }
            }
            self.expect(TokenKind::RBracket, "']'")?;
            if double_bracket {
                self.expect(TokenKind::RBracket, "']]'")?;
            }
            if let Some(last) = attributes.last_mut() {
                last.span = self.span_from(start);
            }
        }
        Ok(self.list(attributes))
    }

    /// Attribute names may be keywords (`[unroll]` is not one, but `[[vk::…]]` names can be anything).
    fn parse_attribute_name(&mut self) -> PResult<Path<'a>> {
        let mut segments = Vec::new();
        loop {
            match self.peek().kind {
                TokenKind::Ident | TokenKind::Keyword(_) => {
                    segments.push(self.bump_ident());
                }
                _ => return Err(self.expected("an attribute name")),
            }
            if !self.eat(TokenKind::ColonColon) {
                break;
            }
        }
        let Some(last) = segments.pop() else {
            return Err(self.expected("an attribute name"));
        };
        Ok(Path::new(self.list(segments), last))
    }

    fn parse_path(&mut self, what: &str) -> PResult<Path<'a>> {
        let last = self.expect_ident(what)?;
        if self.at(TokenKind::ColonColon) && self.peek_at(1).kind == TokenKind::Ident {
            self.parse_qualified_path(last, what)
        } else {
            Ok(Path::plain(last))
        }
    }

    /// The rest of a path whose first part, `first`, is followed by `::` and a name.
    #[inline(never)]
    fn parse_qualified_path(&mut self, first: Ident<'a>, what: &str) -> PResult<Path<'a>> {
        let mut last = first;
        let mut qualifiers = Vec::new();
        while self.at(TokenKind::ColonColon) && self.peek_at(1).kind == TokenKind::Ident {
            self.advance();
            let next = self.expect_ident(what)?;
            qualifiers.push(std::mem::replace(&mut last, next));
        }
        Ok(Path::new(self.list(qualifiers), last))
    }

    /// A named type with optional template arguments (`struct S` is accepted as `S`).
    fn parse_type(&mut self) -> PResult<TypeExpr<'a>> {
        self.enter()?;
        let result = self.parse_type_inner();
        self.leave();
        result
    }

    fn parse_type_inner(&mut self) -> PResult<TypeExpr<'a>> {
        let start = self.span();
        if self.at_keyword(Keyword::Struct) {
            self.advance();
        }
        if !self.at(TokenKind::Ident) {
            return Err(self.expected("a type"));
        }
        let name = self.parse_path("a type")?;
        let args = if self.at(TokenKind::Lt) {
            Some(self.parse_template_args()?)
        } else {
            None
        };
        Ok(TypeExpr {
            kind: TypeKind::Named { name, args },
            span: self.span_from(start),
        })
    }

    /// `<arg, …>`, the `<` being current.
    fn parse_template_args(&mut self) -> PResult<&'a [TemplateArg<'a>]> {
        self.expect(TokenKind::Lt, "'<'")?;
        let mut args = Vec::new();
        if matches!(self.kind(), TokenKind::Gt | TokenKind::Shr) {
            self.expect_closing_angle()?;
            return Ok(&[]);
        }
        loop {
            let norm = if self.at_keyword(Keyword::Unorm) {
                self.advance();
                Some(Norm::Unorm)
            } else if self.at_keyword(Keyword::Snorm) {
                self.advance();
                Some(Norm::Snorm)
            } else {
                None
            };
            if norm.is_some() || self.at(TokenKind::Ident) || self.at_keyword(Keyword::Struct) {
                let ty = self.parse_type()?;
                args.push(TemplateArg::Type { norm, ty });
            } else {
                args.push(TemplateArg::Expr(self.parse_binary(ADDITIVE_PRECEDENCE)?));
            }
            if !self.eat(TokenKind::Comma) {
                break;
            }
        }
        self.expect_closing_angle()?;
        Ok(self.list(args))
    }

    /// Declarators after the first name: `a[2] : SEM = 1, b`.
    fn parse_declarators(&mut self, first: Ident<'a>) -> PResult<&'a [Declarator<'a>]> {
        let first = self.parse_declarator(first)?;
        if !self.eat(TokenKind::Comma) {
            return Ok(std::slice::from_ref(self.arena.node(first)));
        }
        let mut declarators = vec![first];
        loop {
            let name = self.expect_ident("a name")?;
            declarators.push(self.parse_declarator(name)?);
            if !self.eat(TokenKind::Comma) {
                break;
            }
        }
        Ok(self.list(declarators))
    }

    /// The rest of the declarator that declares `name`: array dimensions, annotations and
    /// an initializer.
    fn parse_declarator(&mut self, name: Ident<'a>) -> PResult<Declarator<'a>> {
        let start = name.span;
        let array_dims = self.parse_array_dims()?;
        let annotations = self.parse_annotations()?;
        let init = self.parse_initializer()?;
        Ok(Declarator {
            name,
            array_dims,
            annotations,
            init,
            span: self.span_from(start),
        })
    }

    /// The `= expression` after a declarator or a parameter, if there is one.
    fn parse_initializer(&mut self) -> PResult<Option<Expr<'a>>> {
        if self.eat(TokenKind::Eq) {
            Ok(Some(self.parse_assignment()?))
        } else {
            Ok(None)
        }
    }

    /// A declarator's array dimensions, `[N][M]…`: each is a level of type nesting, as
    /// the type the passes after the parser walk is one array deeper per dimension.
    fn parse_array_dims(&mut self) -> PResult<&'a [Option<Expr<'a>>]> {
        let mut dims = Vec::new();
        self.chain(|p| {
            while p.eat(TokenKind::LBracket) {
                p.enter()?;
                if p.eat(TokenKind::RBracket) {
                    dims.push(None);
                    continue;
                }
                dims.push(Some(p.parse_expression()?));
                p.expect(TokenKind::RBracket, "']'")?;
            }
            Ok(())
        })?;
        Ok(self.list(dims))
    }

    /// `: SEMANTIC`, `: register(…)`, `: packoffset(…)`, any number of them.
    fn parse_annotations(&mut self) -> PResult<&'a [Annotation<'a>]> {
        let mut annotations = Vec::new();
        while self.eat(TokenKind::Colon) {
            let start = self.span();
            if self.at_keyword(Keyword::Register) {
                self.advance();
                self.expect(TokenKind::LParen, "'('")?;
                let mut register = Register {
                    profile: None,
                    slot: None,
                    space: None,
                    span: start,
                };
                loop {
                    let part = self.expect_ident("a register or space")?;
                    let is_space = part
                        .name
                        .strip_prefix("space")
                        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
                    if is_space {
                        register.space = Some(part);
                    } else if register.slot.is_none() && part.name.contains('_') {
                        register.profile = Some(part);
                    } else {
                        register.slot = Some(part);
                    }
                    if !self.eat(TokenKind::Comma) {
                        break;
                    }
                }
                self.expect(TokenKind::RParen, "')'")?;
                register.span = self.span_from(start);
                annotations.push(Annotation::Register(register));
            } else if self.at_keyword(Keyword::Packoffset) {
                self.advance();
                self.expect(TokenKind::LParen, "'('")?;
                let register = self.expect_ident("a constant register such as 'c0'")?;
                let component = if self.eat(TokenKind::Dot) {
                    Some(self.expect_ident("a component")?)
                } else {
                    None
                };
                self.expect(TokenKind::RParen, "')'")?;
                annotations.push(Annotation::PackOffset(PackOffset {
                    register,
                    component,
                    span: self.span_from(start),
                }));
            } else {
                annotations.push(Annotation::Semantic(self.expect_ident("a semantic")?));
            }
        }
        Ok(self.list(annotations))
    }

    fn parse_function(
        &mut self,
        start: Span,
        attributes: &'a [Attribute<'a>],
        modifiers: &'a [SpannedModifier],
        return_type: TypeExpr<'a>,
        name: Path<'a>,
    ) -> PResult<FunctionDecl<'a>> {
        self.expect(TokenKind::LParen, "'('")?;
        let mut params = Vec::new();
        let void_list = matches!(self.peek().kind, TokenKind::Ident)
            && self.text(self.peek()) == "void"
            && self.peek_at(1).kind == TokenKind::RParen;
        if void_list {
            self.advance();
        }
        if !self.at(TokenKind::RParen) {
            loop {
                params.push(self.parse_param()?);
                if !self.eat(TokenKind::Comma) {
                    break;
                }
            }
        }
        self.expect(TokenKind::RParen, "')' or ','")?;
        let return_annotations = self.parse_annotations()?;
        let base = self.assigned.len();
        let body = if self.eat(TokenKind::Semicolon) {
            None
        } else if self.at(TokenKind::LBrace) {
            Some(self.parse_block()?)
        } else {
            return Err(self.expected("'{' or ';'"));
        };
        // The body's own notes. An error above leaves them in the list, where only an
        // enclosing function could take them (the next function starts after them); a
        // failed parse is lowered no further, so none is misread.
        let assigned = match body {
            Some(_) => self.arena.list(self.assigned.drain(base..)),
            None => &[],
        };
        Ok(FunctionDecl {
            attributes,
            modifiers,
            return_type,
            name,
            params: self.list(params),
            return_annotations,
            body,
            assigned,
            span: self.span_from(start),
        })
    }

    fn parse_param(&mut self) -> PResult<Param<'a>> {
        let start = self.span();
        let attributes = self.parse_attributes()?;
        let modifiers = self.parse_modifiers();
        let ty = self.parse_type()?;
        let name = if self.at(TokenKind::Ident) {
            Some(self.expect_ident("a parameter name")?)
        } else {
            None
        };
        let array_dims = self.parse_array_dims()?;
        let annotations = self.parse_annotations()?;
        let default = self.parse_initializer()?;
        Ok(Param {
            attributes,
            modifiers,
            ty,
            name,
            array_dims,
            annotations,
            default,
            span: self.span_from(start),
        })
    }

    /// `struct Name : Base { members }` (without the trailing `;`).
    fn parse_struct(&mut self) -> PResult<StructDecl<'a>> {
        let start = self.bump_span();
        let name = if self.at(TokenKind::Ident) {
            let name = self.expect_ident("a struct name")?;
            self.type_names.insert(name.name.to_string());
            Some(name)
        } else {
            None
        };
        let base = if self.eat(TokenKind::Colon) {
            Some(self.parse_type()?)
        } else {
            None
        };
        if self.at(TokenKind::Semicolon) {
            // A forward declaration: `struct S;`.
            return Ok(StructDecl {
                name,
                base,
                members: &[],
                span: self.span_from(start),
            });
        }
        self.expect(TokenKind::LBrace, "'{'")?;
        let members = self.parse_items(true);
        self.expect(TokenKind::RBrace, "'}'")?;
        Ok(StructDecl {
            name,
            base,
            members,
            span: self.span_from(start),
        })
    }

    fn parse_buffer(&mut self, start: Span, attributes: &'a [Attribute<'a>]) -> PResult<Item<'a>> {
        let kind = if self.at_keyword(Keyword::Cbuffer) {
            BufferKind::Constant
        } else {
            BufferKind::Texture
        };
        self.advance();
        let name = self.expect_ident("a buffer name")?;
        let annotations = self.parse_annotations()?;
        self.expect(TokenKind::LBrace, "'{'")?;
        let members = self.parse_items(true);
        self.expect(TokenKind::RBrace, "'}'")?;
        self.eat(TokenKind::Semicolon);
        Ok(Item::Buffer(self.arena.node(BufferDecl {
            attributes,
            kind,
            name,
            annotations,
            members,
            span: self.span_from(start),
        })))
    }

    fn parse_typedef(&mut self, start: Span) -> PResult<Item<'a>> {
        self.advance();
        let modifiers = self.parse_modifiers();
        let ty = if self.at_keyword(Keyword::Struct) && self.peek_at(1).kind == TokenKind::LBrace
            || self.at_keyword(Keyword::Struct) && self.peek_at(2).kind == TokenKind::LBrace
        {
            let decl = self.parse_struct()?;
            TypeExpr {
                span: decl.span,
                kind: TypeKind::Struct(self.arena.node(decl)),
            }
        } else {
            self.parse_type()?
        };
        let mut declarators = Vec::new();
        loop {
            let name = self.expect_ident("a type name")?;
            self.type_names.insert(name.name.to_string());
            let array_dims = self.parse_array_dims()?;
            declarators.push(Declarator {
                span: self.span_from(name.span),
                name,
                array_dims,
                annotations: &[],
                init: None,
            });
            if !self.eat(TokenKind::Comma) {
                break;
            }
        }
        self.expect(TokenKind::Semicolon, "';'")?;
        Ok(Item::Typedef(self.arena.node(TypedefDecl {
            modifiers,
            ty,
            declarators: self.list(declarators),
            span: self.span_from(start),
        })))
    }

    fn parse_namespace(&mut self, start: Span) -> PResult<Item<'a>> {
        self.advance();
        let name = self.expect_ident("a namespace name")?;
        self.expect(TokenKind::LBrace, "'{'")?;
        let items = self.parse_items(true);
        self.expect(TokenKind::RBrace, "'}'")?;
        self.eat(TokenKind::Semicolon);
        Ok(Item::Namespace(self.arena.node(NamespaceDecl {
            name,
            items,
            span: self.span_from(start),
        })))
    }

    // ----- statements ---------------------------------------------------------------------

    #[inline(never)]
    fn parse_block(&mut self) -> PResult<Block<'a>> {
        let start = self.expect(TokenKind::LBrace, "'{'")?;
        let base = self.stmt_stack.len();
        while !self.at(TokenKind::RBrace) && !self.at(TokenKind::Eof) {
            let statement = self.parse_statement();
            self.stmt_stack.push(statement);
        }
        // Moved out whether or not the block closes, so that the stack holds only the
        // enclosing blocks' statements again.
        let statements = self.arena.list(self.stmt_stack.drain(base..));
        self.expect(TokenKind::RBrace, "'}'")?;
        Ok(Block {
            statements,
            span: self.span_from(start),
        })
    }

    /// One statement; on a syntax error, an [`StmtKind::Error`] after recovery.
    fn parse_statement(&mut self) -> Stmt<'a> {
        let start = self.span();
        let before = self.pos;
        let result = match self.enter() {
            Ok(()) => {
                let r = self.parse_statement_inner(start);
                self.leave();
                r
            }
            Err(Failed) => Err(Failed),
        };
        result.unwrap_or_else(|Failed| {
            self.recover_statement();
            if self.pos == before && !self.at(TokenKind::Eof) && !self.at(TokenKind::RBrace) {
                self.advance();
            }
            Stmt {
                kind: StmtKind::Error,
                attributes: &[],
                span: self.span_from(start),
            }
        })
    }

    fn parse_statement_inner(&mut self, start: Span) -> PResult<Stmt<'a>> {
        let attributes = self.parse_attributes()?;
        let kind = match self.kind() {
            TokenKind::LBrace => StmtKind::Block(self.parse_block()?),
            TokenKind::Semicolon => {
                self.advance();
                StmtKind::Empty
            }
            TokenKind::Keyword(Keyword::If) => self.parse_if()?,
            TokenKind::Keyword(Keyword::While) => self.parse_while()?,
            TokenKind::Keyword(Keyword::Do) => self.parse_do_while()?,
            TokenKind::Keyword(Keyword::For) => self.parse_for()?,
            TokenKind::Keyword(Keyword::Switch) => self.parse_switch()?,
            TokenKind::Keyword(Keyword::Break) => {
                self.advance();
                self.expect(TokenKind::Semicolon, "';'")?;
                StmtKind::Break
            }
            TokenKind::Keyword(Keyword::Continue) => {
                self.advance();
                self.expect(TokenKind::Semicolon, "';'")?;
                StmtKind::Continue
            }
            TokenKind::Keyword(Keyword::Discard) => {
                self.advance();
                self.expect(TokenKind::Semicolon, "';'")?;
                StmtKind::Discard
            }
            TokenKind::Keyword(Keyword::Return) => {
                self.advance();
                let value = if self.at(TokenKind::Semicolon) {
                    None
                } else {
                    Some(self.parse_expression()?)
                };
                self.expect(TokenKind::Semicolon, "';'")?;
                StmtKind::Return(value)
            }
            TokenKind::Keyword(Keyword::Case | Keyword::Default) => {
                return Err(self.expected("a statement ('case' outside 'switch')"));
            }
            _ if self.is_declaration_start() => self.parse_declaration_statement()?,
            _ => self.parse_expression_statement()?,
        };
        Ok(Stmt {
            kind,
            attributes,
            span: self.span_from(start),
        })
    }

    // The statements that nest are parsed out of line, so that the frame of
    // `parse_statement_inner`, on every level of nested statements, stays small in
    // unoptimised builds.

    #[inline(never)]
    fn parse_if(&mut self) -> PResult<StmtKind<'a>> {
        self.advance();
        let condition = self.parse_condition()?;
        let accept = self.parse_statement();
        let reject = if self.at_keyword(Keyword::Else) {
            self.advance();
            Some(self.parse_statement())
        } else {
            None
        };
        Ok(StmtKind::If(self.arena.node(IfStmt {
            condition,
            accept,
            reject,
        })))
    }

    #[inline(never)]
    fn parse_while(&mut self) -> PResult<StmtKind<'a>> {
        self.advance();
        let condition = self.parse_condition()?;
        let body = self.parse_statement();
        Ok(StmtKind::While(
            self.arena.node(WhileStmt { condition, body }),
        ))
    }

    #[inline(never)]
    fn parse_do_while(&mut self) -> PResult<StmtKind<'a>> {
        self.advance();
        let body = self.parse_statement();
        if !self.at_keyword(Keyword::While) {
            return Err(self.expected("'while'"));
        }
        self.advance();
        let condition = self.parse_condition()?;
        self.expect(TokenKind::Semicolon, "';'")?;
        Ok(StmtKind::DoWhile(
            self.arena.node(WhileStmt { condition, body }),
        ))
    }

    #[inline(never)]
    fn parse_declaration_statement(&mut self) -> PResult<StmtKind<'a>> {
        let item = self.parse_item(false)?;
        Ok(StmtKind::Declaration(self.arena.node(item)))
    }

    #[inline(never)]
    fn parse_expression_statement(&mut self) -> PResult<StmtKind<'a>> {
        let expr = self.parse_expression()?;
        self.expect(TokenKind::Semicolon, "';'")?;
        Ok(StmtKind::Expr(expr))
    }

    /// Whether a statement starting here declares something (see the module docs).
    fn is_declaration_start(&self) -> bool {
        let token = self.peek();
        match token.kind {
            TokenKind::Keyword(
                Keyword::Struct
                | Keyword::Class
                | Keyword::Typedef
                | Keyword::Unorm
                | Keyword::Snorm,
            ) => true,
            TokenKind::Keyword(k) => keyword_modifier(k).is_some(),
            TokenKind::Ident => {
                if contextual_modifier(self.text(token)).is_some()
                    && self.peek_at(1).kind == TokenKind::Ident
                {
                    return true;
                }
                let mut n = 1;
                while self.peek_at(n).kind == TokenKind::ColonColon
                    && self.peek_at(n + 1).kind == TokenKind::Ident
                {
                    n += 2;
                }
                match self.peek_at(n).kind {
                    TokenKind::Ident => true,
                    TokenKind::Lt => self
                        .skip_angles_ahead(n)
                        .is_some_and(|after| self.peek_at(after).kind == TokenKind::Ident),
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// `( expression )` of `if`, `while`, `switch`.
    fn parse_condition(&mut self) -> PResult<Expr<'a>> {
        self.expect(TokenKind::LParen, "'('")?;
        let condition = self.parse_expression()?;
        self.expect(TokenKind::RParen, "')'")?;
        Ok(condition)
    }

    #[inline(never)]
    fn parse_for(&mut self) -> PResult<StmtKind<'a>> {
        self.advance();
        self.expect(TokenKind::LParen, "'('")?;
        let init_start = self.span();
        let init = if self.eat(TokenKind::Semicolon) {
            None
        } else if self.is_declaration_start() {
            let item = self.parse_item(false)?;
            Some(Stmt {
                kind: StmtKind::Declaration(self.arena.node(item)),
                attributes: &[],
                span: self.span_from(init_start),
            })
        } else {
            let expr = self.parse_expression()?;
            self.expect(TokenKind::Semicolon, "';'")?;
            Some(Stmt {
                kind: StmtKind::Expr(expr),
                attributes: &[],
                span: self.span_from(init_start),
            })
        };
        let condition = if self.at(TokenKind::Semicolon) {
            None
        } else {
            Some(self.parse_expression()?)
        };
        self.expect(TokenKind::Semicolon, "';'")?;
        let step = if self.at(TokenKind::RParen) {
            None
        } else {
            Some(self.parse_expression()?)
        };
        self.expect(TokenKind::RParen, "')'")?;
        let body = self.parse_statement();
        Ok(StmtKind::For(self.arena.node(ForStmt {
            init,
            condition,
            step,
            body,
        })))
    }

    #[inline(never)]
    fn parse_switch(&mut self) -> PResult<StmtKind<'a>> {
        self.advance();
        let selector = self.parse_condition()?;
        self.expect(TokenKind::LBrace, "'{'")?;
        let mut cases: Vec<SwitchCase<'a>> = Vec::new();
        while !self.at(TokenKind::RBrace) && !self.at(TokenKind::Eof) {
            let start = self.span();
            let mut labels = Vec::new();
            loop {
                if self.at_keyword(Keyword::Case) {
                    self.advance();
                    let value = self.parse_conditional()?;
                    self.expect(TokenKind::Colon, "':'")?;
                    labels.push(CaseLabel::Case(value));
                } else if self.at_keyword(Keyword::Default) {
                    let span = self.bump_span();
                    self.expect(TokenKind::Colon, "':'")?;
                    labels.push(CaseLabel::Default(span));
                } else {
                    break;
                }
            }
            if labels.is_empty() {
                return Err(self.expected("'case' or 'default'"));
            }
            let mut body = Vec::new();
            while !matches!(
                self.kind(),
                TokenKind::RBrace
                    | TokenKind::Eof
                    | TokenKind::Keyword(Keyword::Case | Keyword::Default)
            ) {
                body.push(self.parse_statement());
            }
            cases.push(SwitchCase {
                labels: self.list(labels),
                body: self.list(body),
                span: self.span_from(start),
            });
        }
        self.expect(TokenKind::RBrace, "'}'")?;
        Ok(StmtKind::Switch(self.arena.node(SwitchStmt {
            selector,
            cases: self.list(cases),
        })))
    }

    // ----- expressions --------------------------------------------------------------------

    /// A full expression, comma operator included.
    fn parse_expression(&mut self) -> PResult<Expr<'a>> {
        self.chain(Self::parse_comma_chain)
    }

    fn parse_comma_chain(&mut self) -> PResult<Expr<'a>> {
        let mut lhs = self.parse_assignment()?;
        while self.eat(TokenKind::Comma) {
            self.enter()?;
            let rhs = self.parse_assignment()?;
            lhs = Expr {
                span: lhs.span.to(rhs.span),
                kind: ExprKind::Binary(self.arena.node(BinaryExpr {
                    op: BinaryOp::Comma,
                    lhs,
                    rhs,
                })),
            };
        }
        Ok(lhs)
    }

    /// An assignment expression (right-associative; no comma).
    fn parse_assignment(&mut self) -> PResult<Expr<'a>> {
        self.enter()?;
        let result = match self.parse_whole_leaf(1, true) {
            Some(leaf) => Ok(leaf),
            None => self.parse_assignment_inner(),
        };
        self.leave();
        result
    }

    fn parse_assignment_inner(&mut self) -> PResult<Expr<'a>> {
        let target = self.parse_conditional()?;
        let Some(op) = assign_op(self.kind()) else {
            return Ok(target);
        };
        self.advance();
        self.note_assigned(&target);
        let value = self.parse_assignment()?;
        Ok(Expr {
            span: target.span.to(value.span),
            kind: ExprKind::Assign(self.arena.node(AssignExpr { op, target, value })),
        })
    }

    /// `a ? b : c`, where, as in C++, `c` is an assignment expression.
    fn parse_conditional(&mut self) -> PResult<Expr<'a>> {
        let condition = self.parse_binary(1)?;
        if !self.eat(TokenKind::Question) {
            return Ok(condition);
        }
        let accept = self.parse_expression()?;
        self.expect(TokenKind::Colon, "':'")?;
        let reject = self.parse_assignment()?;
        Ok(Expr {
            span: condition.span.to(reject.span),
            kind: ExprKind::Conditional(self.arena.node(ConditionalExpr {
                condition,
                accept,
                reject,
            })),
        })
    }

    /// Binary operators binding at least as tightly as `min_precedence` (precedence climbing).
    fn parse_binary(&mut self, min_precedence: u8) -> PResult<Expr<'a>> {
        self.chain(|parser| parser.parse_binary_chain(min_precedence))
    }

    fn parse_binary_chain(&mut self, min_precedence: u8) -> PResult<Expr<'a>> {
        let mut lhs = self.parse_unary()?;
        while let Some((op, precedence)) = binary_op(self.kind()) {
            if precedence < min_precedence {
                break;
            }
            self.enter()?;
            self.advance();
            let rhs = match self.parse_whole_leaf(precedence + 1, false) {
                Some(leaf) => leaf,
                None => self.parse_binary(precedence + 1)?,
            };
            lhs = Expr {
                span: lhs.span.to(rhs.span),
                kind: ExprKind::Binary(self.arena.node(BinaryExpr { op, lhs, rhs })),
            };
        }
        Ok(lhs)
    }

    fn parse_unary(&mut self) -> PResult<Expr<'a>> {
        self.enter()?;
        let result = self.parse_unary_inner();
        self.leave();
        result
    }

    fn parse_unary_inner(&mut self) -> PResult<Expr<'a>> {
        if let Some(leaf) = self.parse_leaf() {
            return Ok(leaf);
        }
        let op = match self.kind() {
            TokenKind::Plus => Some(UnaryOp::Plus),
            TokenKind::Minus => Some(UnaryOp::Negate),
            TokenKind::Bang => Some(UnaryOp::LogicalNot),
            TokenKind::Tilde => Some(UnaryOp::BitNot),
            TokenKind::PlusPlus => Some(UnaryOp::PreIncrement),
            TokenKind::MinusMinus => Some(UnaryOp::PreDecrement),
            _ => None,
        };
        if let Some(op) = op {
            let start = self.bump_span();
            let operand = self.parse_unary()?;
            if op.writes_operand() {
                self.note_assigned(&operand);
            }
            let operand = self.arena.node(operand);
            return Ok(Expr {
                span: start.to(operand.span),
                kind: ExprKind::Unary { op, operand },
            });
        }
        if self.at(TokenKind::LParen) && self.is_cast_ahead() {
            return self.parse_cast();
        }
        let primary = self.parse_primary()?;
        self.parse_postfix(primary)
    }

    /// The operand here when it is a plain name or a literal that no postfix operator,
    /// call, qualifier or template argument list follows (most operands): the same
    /// expression [`Parser::parse_primary`] and [`Parser::parse_postfix`] would give,
    /// without their steps. `None`, consuming nothing, for anything else.
    #[inline]
    fn parse_leaf(&mut self) -> Option<Expr<'a>> {
        let next = self.peek_at(1).kind;
        let followed_by_postfix = matches!(
            next,
            TokenKind::LBracket | TokenKind::Dot | TokenKind::PlusPlus | TokenKind::MinusMinus
        );
        match self.kind() {
            TokenKind::Ident
                if !followed_by_postfix
                    && !matches!(
                        next,
                        TokenKind::LParen | TokenKind::Lt | TokenKind::ColonColon
                    ) =>
            {
                let name = self.bump_ident();
                Some(Expr {
                    kind: ExprKind::Name(NameExpr::plain(name)),
                    span: name.span,
                })
            }
            TokenKind::IntLiteral
            | TokenKind::FloatLiteral
            | TokenKind::Keyword(Keyword::True | Keyword::False)
                if !followed_by_postfix =>
            {
                let span = self.span();
                let kind = self.parse_literal();
                Some(Expr { kind, span })
            }
            _ => None,
        }
    }

    /// A leaf operand ([`Parser::parse_leaf`]) that is the whole expression being parsed:
    /// no binary operator binding at least as tightly as `min_precedence` follows it,
    /// nor, in an `assignment`, a `?` or an assignment operator. The same expression the
    /// full descent would give, and `None`, consuming nothing, where it would give
    /// something else. Where the descent would pass the nesting limit on its way to the
    /// operand, it is left to the descent, which reports it.
    #[inline]
    fn parse_whole_leaf(&mut self, min_precedence: u8, assignment: bool) -> Option<Expr<'a>> {
        let after = self.peek_at(1).kind;
        let continues = binary_op(after).is_some_and(|(_, p)| p >= min_precedence)
            || (assignment && (after == TokenKind::Question || assign_op(after).is_some()));
        if continues || self.depth >= MAX_NESTING {
            return None;
        }
        self.parse_leaf()
    }

    /// Whether `( Type [dims] )` followed by an operand-start token begins here.
    fn is_cast_ahead(&self) -> bool {
        let mut n = 1;
        while self.peek_at(n).kind == TokenKind::Keyword(Keyword::Const) {
            n += 1;
        }
        let first = self.peek_at(n);
        if first.kind != TokenKind::Ident {
            return false;
        }
        n += 1;
        while self.peek_at(n).kind == TokenKind::ColonColon
            && self.peek_at(n + 1).kind == TokenKind::Ident
        {
            n += 2;
        }
        if !self.is_type_name(self.text(self.peek_at(n - 1))) {
            return false;
        }
        if self.peek_at(n).kind == TokenKind::Lt {
            match self.skip_angles_ahead(n) {
                Some(after) => n = after,
                None => return false,
            }
        }
        while self.peek_at(n).kind == TokenKind::LBracket {
            let mut depth = 0usize;
            loop {
                match self.peek_at(n).kind {
                    TokenKind::LBracket => depth += 1,
                    TokenKind::RBracket => {
                        depth -= 1;
                        if depth == 0 {
                            n += 1;
                            break;
                        }
                    }
                    TokenKind::Eof | TokenKind::Semicolon => return false,
                    _ => {}
                }
                n += 1;
            }
        }
        if self.peek_at(n).kind != TokenKind::RParen {
            return false;
        }
        matches!(
            self.peek_at(n + 1).kind,
            TokenKind::Ident
                | TokenKind::Keyword(Keyword::True | Keyword::False)
                | TokenKind::IntLiteral
                | TokenKind::FloatLiteral
                | TokenKind::LParen
                | TokenKind::Bang
                | TokenKind::Tilde
                | TokenKind::Minus
                | TokenKind::Plus
                | TokenKind::PlusPlus
                | TokenKind::MinusMinus
        )
    }

    /// From a `<` at offset `n`, the offset after its matching `>` when the tokens
    /// between look like template arguments.
    fn skip_angles_ahead(&self, mut n: usize) -> Option<usize> {
        let mut depth = 0i32;
        for _ in 0..128 {
            match self.peek_at(n).kind {
                TokenKind::Lt => depth += 1,
                TokenKind::Gt => depth -= 1,
                TokenKind::Shr => depth -= 2,
                TokenKind::Ident
                | TokenKind::Keyword(Keyword::Unorm | Keyword::Snorm)
                | TokenKind::IntLiteral
                | TokenKind::Comma
                | TokenKind::ColonColon => {}
                _ => return None,
            }
            n += 1;
            if depth == 0 {
                return Some(n);
            }
            if depth < 0 {
                return None;
            }
        }
        None
    }

    /// Whether `<…>(` begins here: explicit template arguments of a call.
    fn is_template_call_ahead(&self) -> bool {
        self.skip_angles_ahead(0)
            .is_some_and(|after| self.peek_at(after).kind == TokenKind::LParen)
    }

    fn parse_cast(&mut self) -> PResult<Expr<'a>> {
        let start = self.bump_span();
        while self.at_keyword(Keyword::Const) {
            self.advance();
        }
        let ty = self.parse_type()?;
        let array_dims = self.parse_array_dims()?;
        self.expect(TokenKind::RParen, "')'")?;
        let operand = self.parse_unary()?;
        Ok(Expr {
            span: start.to(operand.span),
            kind: ExprKind::Cast(self.arena.node(CastExpr {
                ty,
                array_dims,
                operand,
            })),
        })
    }

    fn parse_postfix(&mut self, expr: Expr<'a>) -> PResult<Expr<'a>> {
        self.chain(|parser| parser.parse_postfix_chain(expr))
    }

    fn parse_postfix_chain(&mut self, mut expr: Expr<'a>) -> PResult<Expr<'a>> {
        loop {
            if matches!(
                self.kind(),
                TokenKind::LBracket | TokenKind::Dot | TokenKind::PlusPlus | TokenKind::MinusMinus
            ) {
                self.enter()?;
            }
            match self.kind() {
                TokenKind::LBracket => {
                    self.advance();
                    let index = self.parse_expression()?;
                    self.expect(TokenKind::RBracket, "']'")?;
                    expr = Expr {
                        span: self.span_from(expr.span),
                        kind: ExprKind::Index(self.arena.node(IndexExpr { base: expr, index })),
                    };
                }
                TokenKind::Dot => {
                    self.advance();
                    let member = match self.kind() {
                        TokenKind::Ident | TokenKind::Keyword(_) => self.bump_ident(),
                        _ => return Err(self.expected("a member name")),
                    };
                    let template_args = if self.at(TokenKind::Lt) && self.is_template_call_ahead() {
                        Some(self.parse_template_args()?)
                    } else {
                        None
                    };
                    if self.eat(TokenKind::LParen) {
                        let args = self.parse_arguments_after_paren()?;
                        // A member function may assign the fields of its receiver.
                        self.note_assigned(&expr);
                        self.note_assigned_all(args);
                        expr = Expr {
                            span: self.span_from(expr.span),
                            kind: ExprKind::MethodCall(self.arena.node(MethodCallExpr {
                                receiver: expr,
                                method: member,
                                template_args,
                                args,
                            })),
                        };
                    } else {
                        expr = Expr {
                            span: self.span_from(expr.span),
                            kind: ExprKind::Member(
                                self.arena.node(MemberExpr { base: expr, member }),
                            ),
                        };
                    }
                }
                TokenKind::PlusPlus | TokenKind::MinusMinus => {
                    let op = if self.at(TokenKind::PlusPlus) {
                        UnaryOp::PostIncrement
                    } else {
                        UnaryOp::PostDecrement
                    };
                    self.advance();
                    self.note_assigned(&expr);
                    expr = Expr {
                        span: self.span_from(expr.span),
                        kind: ExprKind::Unary {
                            op,
                            operand: self.arena.node(expr),
                        },
                    };
                }
                _ => return Ok(expr),
            }
        }
    }

    /// Notes that the expression being parsed may assign the variable `e` is a part of
    /// (if any): `e` is the target of an assignment or of `++`/`--`, a call argument
    /// (perhaps an `out` one), an element of an initializer list or the receiver of a
    /// method call.
    fn note_assigned(&mut self, e: &Expr) {
        if let Some(name) = root_name(e) {
            self.assigned.push(name);
        }
    }

    /// [`Parser::note_assigned`] for each of `args`.
    fn note_assigned_all(&mut self, args: &[Expr]) {
        for arg in args {
            self.note_assigned(arg);
        }
    }

    /// Call arguments after the `(`, through the `)`.
    fn parse_arguments_after_paren(&mut self) -> PResult<&'a [Expr<'a>]> {
        if self.eat(TokenKind::RParen) {
            return Ok(&[]);
        }
        let base = self.expr_stack.len();
        let result = self.parse_arguments_onto_stack();
        // Moved out also on failure, so that the stack holds only the enclosing calls'
        // arguments again.
        let args: &'a [Expr<'a>] = self.arena.list(self.expr_stack.drain(base..));
        result.map(|()| args)
    }

    /// The arguments of [`Parser::parse_arguments_after_paren`], pushed onto
    /// `expr_stack`, through the `)`.
    fn parse_arguments_onto_stack(&mut self) -> PResult<()> {
        loop {
            let arg = self.parse_assignment()?;
            self.expr_stack.push(arg);
            if !self.eat(TokenKind::Comma) {
                break;
            }
        }
        self.expect(TokenKind::RParen, "')' or ','")?;
        Ok(())
    }

    fn parse_primary(&mut self) -> PResult<Expr<'a>> {
        let start = self.span();
        let kind = match self.kind() {
            TokenKind::IntLiteral
            | TokenKind::FloatLiteral
            | TokenKind::StringLiteral
            | TokenKind::Keyword(Keyword::True | Keyword::False) => self.parse_literal(),
            TokenKind::LParen => {
                self.advance();
                let inner = self.parse_expression()?;
                self.expect(TokenKind::RParen, "')'")?;
                match inner.kind {
                    ExprKind::Name(name) => ExprKind::Name(name.widened(self.arena, inner.span)),
                    kind => kind,
                }
            }
            TokenKind::LBrace => self.parse_init_list()?,
            TokenKind::Ident => self.parse_name_or_call()?,
            _ => return Err(self.expected("an expression")),
        };
        Ok(Expr {
            kind,
            span: self.span_from(start),
        })
    }

    // The helpers below are kept out of `parse_primary` so that the frames on the
    // recursive path of nested expressions stay small in unoptimised builds.

    #[inline(never)]
    fn parse_literal(&mut self) -> ExprKind<'a> {
        let t = self.bump();
        let literal = match t.kind {
            TokenKind::IntLiteral => {
                let (value, suffix) = parse_int_literal(self.spellings.text(t.text))
                    .unwrap_or_else(|e| {
                        self.diagnostics
                            .push(Diagnostic::error(codes::BAD_LITERAL, t.span, e.0));
                        (0, IntSuffix::None)
                    });
                Literal::Int { value, suffix }
            }
            TokenKind::FloatLiteral => {
                let (value, suffix) = parse_float_literal(self.spellings.text(t.text))
                    .unwrap_or_else(|e| {
                        self.diagnostics
                            .push(Diagnostic::error(codes::BAD_LITERAL, t.span, e.0));
                        (0.0, FloatSuffix::None)
                    });
                Literal::Float { value, suffix }
            }
            TokenKind::StringLiteral => {
                let mut text = unescape_string(self.text(&t));
                while self.at(TokenKind::StringLiteral) {
                    let next = self.bump();
                    text.push_str(&unescape_string(self.text(&next)));
                }
                Literal::String(self.arena.node(self.arena.text(&text)))
            }
            _ => Literal::Bool(t.kind == TokenKind::Keyword(Keyword::True)),
        };
        ExprKind::Literal(literal)
    }

    #[inline(never)]
    fn parse_init_list(&mut self) -> PResult<ExprKind<'a>> {
        self.advance();
        let mut elements = Vec::new();
        while !self.at(TokenKind::RBrace) {
            elements.push(self.parse_assignment()?);
            if !self.eat(TokenKind::Comma) {
                break;
            }
        }
        self.expect(TokenKind::RBrace, "'}'")?;
        let elements = self.list(elements);
        self.note_assigned_all(elements);
        Ok(ExprKind::InitList(elements))
    }

    #[inline(never)]
    fn parse_name_or_call(&mut self) -> PResult<ExprKind<'a>> {
        let text = self.text(self.peek());
        let next = self.peek_at(1).kind;
        let constructor = (next == TokenKind::LParen
            || (next == TokenKind::Lt && matches!(text, "vector" | "matrix")))
            && is_numeric_type_name(text);
        if constructor {
            let ty = self.parse_type()?;
            self.expect(TokenKind::LParen, "'('")?;
            let args = self.parse_arguments_after_paren()?;
            self.note_assigned_all(args);
            return Ok(ExprKind::Constructor(
                self.arena.node(ConstructorExpr { ty, args }),
            ));
        }
        let path = self.parse_path("a name")?;
        let template_args = if self.at(TokenKind::Lt) && self.is_template_call_ahead() {
            Some(self.parse_template_args()?)
        } else {
            None
        };
        if self.eat(TokenKind::LParen) {
            let args = self.parse_arguments_after_paren()?;
            self.note_assigned_all(args);
            Ok(ExprKind::Call(self.arena.node(CallExpr {
                function: path,
                template_args,
                args,
            })))
        } else {
            // `parse_primary` gives the expression the path's span.
            let span = path.span();
            Ok(ExprKind::Name(NameExpr::new(self.arena, path, span)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexer::lex;
    use oneshader_ir::SourceMap;

    /// The tree of `src`, in `arena`.
    fn parse_str<'a>(
        arena: &'a Arena,
        src: &str,
    ) -> (TranslationUnit<'a>, Vec<Diagnostic>, SourceMap) {
        let mut map = SourceMap::new();
        let file = map.add("test.hlsl", src);
        let mut diagnostics = Diagnostics::new();
        let mut spellings = Spellings::new(arena);
        let tokens = lex(file, src, &mut spellings, &mut diagnostics);
        let unit = parse_tokens(arena, tokens, spellings, &mut diagnostics);
        (unit, diagnostics.into_vec(), map)
    }

    fn parse_ok<'a>(arena: &'a Arena, src: &str) -> TranslationUnit<'a> {
        let (unit, diags, map) = parse_str(arena, src);
        let messages: Vec<String> = diags.iter().map(|d| d.to_short_string(&map)).collect();
        assert!(messages.is_empty(), "{messages:#?}");
        unit
    }

    #[test]
    fn a_function_notes_the_names_its_body_may_assign() {
        let arena = Arena::new();
        let unit = parse_ok(
            &arena,
            "float g(float a) { return a; }\n\
             float f(float a, float b, float c, float d, float e, float h, float i, float j, float k) {\n\
               a = 1; b.x += 2; c[0]++; --d; g(e.y); h.Method(); S s = { i, 1 }; return j + k; }\n\
             float m(float x) { float y = x; return y; }",
        );
        let assigned = |index: usize| -> Vec<String> {
            let Item::Function(function) = &unit.items[index] else {
                panic!("item {index} is not a function");
            };
            let mut names: Vec<String> = function
                .assigned
                .iter()
                .map(|&symbol| unit.text(symbol).to_string())
                .collect();
            names.sort();
            names.dedup();
            names
        };
        assert_eq!(assigned(0), Vec::<String>::new());
        assert_eq!(
            assigned(1),
            ["a", "b", "c", "d", "e", "h", "i"].map(String::from)
        );
        assert_eq!(assigned(2), Vec::<String>::new());
    }

    /// A compact prefix rendering of an expression tree.
    fn sexpr(e: &Expr) -> String {
        match &e.kind {
            ExprKind::Literal(Literal::Int { value, .. }) => value.to_string(),
            ExprKind::Literal(Literal::Float { value, .. }) => format!("{value:?}"),
            ExprKind::Literal(Literal::Bool(b)) => b.to_string(),
            ExprKind::Literal(Literal::String(s)) => format!("{s:?}"),
            ExprKind::Name(p) => p.to_path(e.span).to_text(),
            ExprKind::Unary { op, operand } => format!("({op:?} {})", sexpr(operand)),
            ExprKind::Binary(binary) => {
                let BinaryExpr { op, lhs, rhs } = &**binary;
                let op = match op {
                    BinaryOp::Mul => "*",
                    BinaryOp::Div => "/",
                    BinaryOp::Rem => "%",
                    BinaryOp::Add => "+",
                    BinaryOp::Sub => "-",
                    BinaryOp::Shl => "<<",
                    BinaryOp::Shr => ">>",
                    BinaryOp::Less => "<",
                    BinaryOp::Greater => ">",
                    BinaryOp::LessEqual => "<=",
                    BinaryOp::GreaterEqual => ">=",
                    BinaryOp::Equal => "==",
                    BinaryOp::NotEqual => "!=",
                    BinaryOp::BitAnd => "&",
                    BinaryOp::BitXor => "^",
                    BinaryOp::BitOr => "|",
                    BinaryOp::LogicalAnd => "&&",
                    BinaryOp::LogicalOr => "||",
                    BinaryOp::Comma => ",",
                };
                format!("({op} {} {})", sexpr(lhs), sexpr(rhs))
            }
            ExprKind::Assign(assign) => {
                let AssignExpr { op, target, value } = &**assign;
                format!("(={op:?} {} {})", sexpr(target), sexpr(value))
            }
            ExprKind::Conditional(c) => format!(
                "(? {} {} {})",
                sexpr(&c.condition),
                sexpr(&c.accept),
                sexpr(&c.reject)
            ),
            ExprKind::Cast(cast) => {
                format!("(cast {} {})", type_text(&cast.ty), sexpr(&cast.operand))
            }
            ExprKind::Call(call) => {
                format!("(call {}{})", call.function.to_text(), list(call.args))
            }
            ExprKind::Constructor(c) => format!("(new {}{})", type_text(&c.ty), list(c.args)),
            ExprKind::MethodCall(call) => format!(
                "(method {} {}{}{})",
                sexpr(&call.receiver),
                call.method.name,
                if call.template_args.is_some() {
                    "<>"
                } else {
                    ""
                },
                list(call.args)
            ),
            ExprKind::Member(m) => format!("(. {} {})", sexpr(&m.base), m.member.name),
            ExprKind::Index(index) => {
                format!("([] {} {})", sexpr(&index.base), sexpr(&index.index))
            }
            ExprKind::InitList(items) => format!("{{{}}}", list(items)),
            ExprKind::Error => "error".into(),
        }
    }

    fn list(args: &[Expr]) -> String {
        args.iter().map(|a| format!(" {}", sexpr(a))).collect()
    }

    fn type_text(t: &TypeExpr) -> String {
        match &t.kind {
            TypeKind::Named { name, args: None } => name.to_text(),
            TypeKind::Named {
                name,
                args: Some(args),
            } => {
                let args: Vec<String> = args
                    .iter()
                    .map(|a| match a {
                        TemplateArg::Type { norm, ty } => match norm {
                            Some(n) => format!("{n:?} {}", type_text(ty)),
                            None => type_text(ty),
                        },
                        TemplateArg::Expr(e) => sexpr(e),
                    })
                    .collect();
                format!("{}<{}>", name.to_text(), args.join(","))
            }
            TypeKind::Struct(s) => format!("struct {}", s.name.map(|n| n.name).unwrap_or("")),
        }
    }

    /// The expression of `void f() { EXPR; }` with `prelude` before the function.
    fn expr_in(prelude: &str, expr: &str) -> String {
        let arena = Arena::new();
        let unit = parse_ok(&arena, &format!("{prelude}\nvoid f() {{ {expr}; }}"));
        let Some(Item::Function(f)) = unit.items.last() else {
            panic!("no function");
        };
        let body = f.body.as_ref().expect("body");
        match &body.statements[0].kind {
            StmtKind::Expr(e) => sexpr(e),
            other => panic!("not an expression statement: {other:?}"),
        }
    }

    fn expr(expr: &str) -> String {
        expr_in("", expr)
    }

    fn function<'a>(unit: &TranslationUnit<'a>, name: &str) -> &'a FunctionDecl<'a> {
        unit.items
            .iter()
            .find_map(|i| match i {
                Item::Function(f) if f.name.is(name) => Some(*f),
                _ => None,
            })
            .expect("function")
    }

    #[test]
    fn compact_parses_into_the_expected_shape() {
        let src = include_str!("../../../shaders/Compact.hlsl");
        let arena = Arena::new();
        let unit = parse_ok(&arena, src);
        assert_eq!(unit.items.len(), 4);
        let Item::Variable(values) = &unit.items[0] else {
            panic!("Values is not a variable");
        };
        assert_eq!(type_text(&values.ty), "StructuredBuffer<float>");
        assert_eq!(values.declarators[0].name.name, "Values");
        let Annotation::Register(reg) = &values.declarators[0].annotations[0] else {
            panic!("no register");
        };
        assert_eq!(reg.slot.as_ref().map(|s| s.name), Some("t0"));
        assert!(reg.space.is_none());
        let Item::Variable(count) = &unit.items[2] else {
            panic!("Count is not a variable");
        };
        assert_eq!(type_text(&count.ty), "RWByteAddressBuffer");

        let main = function(&unit, "CSMain");
        let attrs: Vec<String> = main
            .attributes
            .iter()
            .map(|a| format!("{}{}", a.name.to_text(), list(a.args)))
            .collect();
        assert_eq!(attrs, vec!["shader \"compute\"", "numthreads 64 1 1"]);
        assert_eq!(main.params.len(), 1);
        assert_eq!(type_text(&main.params[0].ty), "uint3");
        let [Annotation::Semantic(semantic)] = main.params[0].annotations else {
            panic!("no single semantic");
        };
        assert_eq!(semantic.name, "SV_DispatchThreadID");
        let body = &main.body.as_ref().expect("body").statements;
        assert_eq!(body.len(), 8);
        let StmtKind::Declaration(decl) = &body[0].kind else {
            panic!("first statement is not a declaration");
        };
        let Item::Variable(v) = decl else {
            panic!("not a variable");
        };
        assert_eq!(
            v.declarators[0].init.as_ref().map(sexpr).as_deref(),
            Some("([] Values (. id x))")
        );
        // `if (WaveIsFirstLane()) Count.InterlockedAdd(...)` without braces.
        let StmtKind::If(if_stmt) = &body[5].kind else {
            panic!("statement 6 is not an if");
        };
        assert_eq!(sexpr(&if_stmt.condition), "(call WaveIsFirstLane)");
        assert!(if_stmt.reject.is_none());
        let StmtKind::Expr(call) = &if_stmt.accept.kind else {
            panic!("the if body is not an expression statement");
        };
        assert_eq!(
            sexpr(call),
            "(method Count InterlockedAdd 0 waveCount waveBase)"
        );
        let StmtKind::If(if_stmt) = &body[7].kind else {
            panic!("last statement is not an if");
        };
        let StmtKind::Expr(store) = &if_stmt.accept.kind else {
            panic!("not an expression");
        };
        assert_eq!(sexpr(store), "(=None ([] Kept (+ waveBase laneOffset)) v)");
    }

    #[test]
    fn names_are_the_spelling_tables_texts() {
        let arena = Arena::new();
        let unit = parse_ok(&arena, "float value; float f() { return value + value; }");
        let f = function(&unit, "f");
        let Some(StmtKind::Return(Some(sum))) = f.body.as_ref().map(|b| &b.statements[0].kind)
        else {
            panic!("{:?}", f.body);
        };
        let ExprKind::Binary(sum) = &sum.kind else {
            panic!("{sum:?}");
        };
        let names = [&sum.lhs, &sum.rhs].map(|e| match &e.kind {
            ExprKind::Name(name) => name.to_path(e.span).last,
            kind => panic!("{kind:?}"),
        });
        let Some(Item::Variable(global)) = unit.items.first() else {
            panic!("{:?}", unit.items);
        };
        let table = global.declarators[0].name.name;
        for name in names {
            assert_eq!(name.name, "value");
            assert!(std::ptr::eq(name.name, table), "one copy of a spelling");
        }
    }

    #[test]
    fn operator_precedence_follows_c() {
        assert_eq!(
            expr("a + b * c << d < e == f & g ^ h | i && j || k ? l : m = n"),
            "(? (|| (&& (| (^ (& (== (< (<< (+ a (* b c)) d) e) f) g) h) i) j) k) l (=None m n))"
        );
        assert_eq!(expr("a = b += c"), "(=None a (=Some(Add) b c))");
        assert_eq!(expr("a - b - c"), "(- (- a b) c)");
        assert_eq!(expr("a, b = c"), "(, a (=None b c))");
        assert_eq!(expr("-a.b[1]++"), "(Negate (PostIncrement ([] (. a b) 1)))");
        assert_eq!(expr("!~++x"), "(LogicalNot (BitNot (PreIncrement x)))");
        assert_eq!(expr("a ? b ? c : d : e"), "(? a (? b c d) e)");
        assert_eq!(expr("x <<= 2 >> 1"), "(=Some(Shl) x (>> 2 1))");
    }

    #[test]
    fn casts_and_parenthesised_expressions() {
        assert_eq!(expr("(float3)x"), "(cast float3 x)");
        assert_eq!(expr("(float)-x"), "(cast float (Negate x))");
        assert_eq!(expr("(a) - b"), "(- a b)");
        assert_eq!(expr("(uint)(x + 1) * 2"), "(* (cast uint (+ x 1)) 2)");
        assert_eq!(expr("(float4x4)m"), "(cast float4x4 m)");
        assert_eq!(expr("(x)"), "x");
        assert_eq!(expr("(vector<float, 2>)v"), "(cast vector<float,2> v)");
        // A struct or typedef name declared earlier is a type.
        assert_eq!(expr_in("struct S { float a; };", "(S)0"), "(cast S 0)");
        assert_eq!(
            expr_in("typedef float4 Color;", "(Color)c"),
            "(cast Color c)"
        );
        // An undeclared name in parentheses is a value, so `(T)x` is two operands in a row.
        let (_, diags, _) = parse_str(&Arena::new(), "void f() { (T)x; }");
        assert_eq!(diags.len(), 1);
        assert_eq!(diags[0].message, "expected ';', found 'x'");
    }

    #[test]
    fn calls_constructors_methods_and_templates() {
        assert_eq!(expr("float4(a, 1.0)"), "(new float4 a 1.0)");
        assert_eq!(expr("vector<float, 2>(x, y)"), "(new vector<float,2> x y)");
        assert_eq!(expr("buf.Load(0)"), "(method buf Load 0)");
        assert_eq!(expr("buf.Load<float4>(0).x"), "(. (method buf Load<> 0) x)");
        assert_eq!(expr("a.x < b"), "(< (. a x) b)");
        assert_eq!(expr("ns::f(1)"), "(call ns::f 1)");
        assert_eq!(expr("v.xyz"), "(. v xyz)");
        assert_eq!(
            expr("t.Sample(s, uv).rgb * 2"),
            "(* (. (method t Sample s uv) rgb) 2)"
        );
        assert_eq!(expr("x = {1, {2, 3}, }"), "(=None x { 1 { 2 3}})");
        assert_eq!(expr("\"ab\" \"cd\""), "\"abcd\"");
    }

    #[test]
    fn pixel_shader_with_structs_semantics_and_textures() {
        let arena = Arena::new();
        let unit = parse_ok(
            &arena,
            r#"
Texture2D<float4> Albedo : register(t0, space1);
RWTexture2D<unorm float4> Output : register(u0);
SamplerState LinearClamp : register(s0);
[[vk::binding(3, 1)]] ConstantBuffer<Params> P : register(b3);
struct VSOut {
    float4 pos : SV_Position;
    nointerpolation uint id : ID;
    linear centroid float2 uv : TEXCOORD0;
    float3 Lit() { return pos.xyz; }
};
float4 PSMain(VSOut input, in bool front : SV_IsFrontFace, out float depth : SV_Depth) : SV_Target0
{
    float4 c = Albedo.Sample(LinearClamp, input.uv);
    depth = 0.5;
    return c * float4(input.Lit(), 1.0f);
}
"#,
        );
        let Item::Variable(albedo) = &unit.items[0] else {
            panic!()
        };
        let Annotation::Register(r) = &albedo.declarators[0].annotations[0] else {
            panic!()
        };
        assert_eq!(r.slot.as_ref().map(|s| s.name), Some("t0"));
        assert_eq!(r.space.as_ref().map(|s| s.name), Some("space1"));
        let Item::Variable(output) = &unit.items[1] else {
            panic!()
        };
        assert_eq!(type_text(&output.ty), "RWTexture2D<Unorm float4>");
        let Item::Variable(p) = &unit.items[3] else {
            panic!()
        };
        assert_eq!(p.attributes[0].name.to_text(), "vk::binding");
        assert!(p.attributes[0].double_bracket);
        assert_eq!(list(p.attributes[0].args), " 3 1");
        let Item::Struct(s) = &unit.items[4] else {
            panic!()
        };
        assert_eq!(s.members.len(), 4);
        let Item::Variable(uv) = &s.members[2] else {
            panic!()
        };
        let modifiers: Vec<Modifier> = uv.modifiers.iter().map(|m| m.modifier).collect();
        assert_eq!(modifiers, vec![Modifier::Linear, Modifier::Centroid]);
        assert!(matches!(&s.members[3], Item::Function(f) if f.name.is("Lit")));
        let ps = function(&unit, "PSMain");
        let [Annotation::Semantic(ret)] = ps.return_annotations else {
            panic!()
        };
        assert_eq!(ret.name, "SV_Target0");
        assert_eq!(ps.params[1].modifiers[0].modifier, Modifier::In);
        assert_eq!(ps.params[2].modifiers[0].modifier, Modifier::Out);
        let StmtKind::Return(Some(value)) = &ps.body.as_ref().expect("body").statements[2].kind
        else {
            panic!()
        };
        assert_eq!(
            sexpr(value),
            "(* c (new float4 (method (. input) Lit) 1.0))".replace("(. input)", "input")
        );
    }

    #[test]
    fn cbuffers_typedefs_namespaces_and_globals() {
        let arena = Arena::new();
        let unit = parse_ok(
            &arena,
            r#"
cbuffer Constants : register(b0, space2) {
    float4x4 ViewProj : packoffset(c0);
    float Scale : packoffset(c4.y);
    uint2 Sizes[2];
};
tbuffer T { float t; }
typedef vector<float, 3> Vec3, Vec3x2[2];
namespace Math { static const float Pi = 3.14159f; float Sq(float x) { return x * x; } }
groupshared uint Keys[2][256];
static const uint Table[] = { 1, 2, 3 };
globallycoherent RWStructuredBuffer<uint> Flags;
StructuredBuffer<vector<float, 4>> Nested;
float Twice(float x = 1.0) { return Math::Sq(x) + Math::Pi; }
"#,
        );
        let Item::Buffer(cb) = &unit.items[0] else {
            panic!()
        };
        assert_eq!(cb.kind, BufferKind::Constant);
        assert_eq!(cb.members.len(), 3);
        let Item::Variable(scale) = &cb.members[1] else {
            panic!()
        };
        let Annotation::PackOffset(po) = &scale.declarators[0].annotations[0] else {
            panic!()
        };
        assert_eq!(po.register.name, "c4");
        assert_eq!(po.component.as_ref().map(|c| c.name), Some("y"));
        assert!(matches!(&unit.items[1], Item::Buffer(b) if b.kind == BufferKind::Texture));
        let Item::Typedef(td) = &unit.items[2] else {
            panic!()
        };
        assert_eq!(type_text(&td.ty), "vector<float,3>");
        assert_eq!(td.declarators.len(), 2);
        assert_eq!(td.declarators[1].array_dims.len(), 1);
        let Item::Namespace(ns) = &unit.items[3] else {
            panic!()
        };
        assert_eq!(ns.items.len(), 2);
        let Item::Variable(keys) = &unit.items[4] else {
            panic!()
        };
        assert_eq!(keys.modifiers[0].modifier, Modifier::Groupshared);
        assert_eq!(keys.declarators[0].array_dims.len(), 2);
        let Item::Variable(table) = &unit.items[5] else {
            panic!()
        };
        assert_eq!(table.declarators[0].array_dims, &[None]);
        assert_eq!(
            table.declarators[0].init.as_ref().map(sexpr).as_deref(),
            Some("{ 1 2 3}")
        );
        let Item::Variable(nested) = &unit.items[7] else {
            panic!()
        };
        assert_eq!(type_text(&nested.ty), "StructuredBuffer<vector<float,4>>");
        let twice = function(&unit, "Twice");
        assert_eq!(
            twice.params[0].default.as_ref().map(sexpr).as_deref(),
            Some("1.0")
        );
    }

    #[test]
    fn every_statement_kind() {
        let arena = Arena::new();
        let unit = parse_ok(
            &arena,
            r#"
void f(uint n) {
    {}
    ;
    int a = 1, b[2] = {1, 2};
    a += 2;
    if (a) a--; else { a++; }
    [unroll(4)] for (int i = 0, j = 1; i < 4; ++i, j++) continue;
    for (;;) break;
    [loop] while (a > 0) a--;
    do { a++; } while (a < 10);
    [branch] switch (a) { case 0: case 1: a = 2; break; default: { a = 3; } }
    discard;
    return;
    struct Local { float x; } l;
    Local m;
    return a;
}
"#,
        );
        let f = function(&unit, "f");
        let kinds: Vec<&str> = f
            .body
            .as_ref()
            .expect("body")
            .statements
            .iter()
            .map(|s| match &s.kind {
                StmtKind::Block(_) => "block",
                StmtKind::Empty => "empty",
                StmtKind::Declaration(_) => "decl",
                StmtKind::Expr(_) => "expr",
                StmtKind::If { .. } => "if",
                StmtKind::For { .. } => "for",
                StmtKind::While { .. } => "while",
                StmtKind::DoWhile { .. } => "do",
                StmtKind::Switch { .. } => "switch",
                StmtKind::Discard => "discard",
                StmtKind::Return(_) => "return",
                StmtKind::Break => "break",
                StmtKind::Continue => "continue",
                StmtKind::Error => "error",
            })
            .collect();
        assert_eq!(
            kinds,
            vec![
                "block", "empty", "decl", "expr", "if", "for", "for", "while", "do", "switch",
                "discard", "return", "decl", "decl", "return"
            ]
        );
        let stmts = &f.body.as_ref().expect("body").statements;
        let StmtKind::For(for_stmt) = &stmts[5].kind else {
            panic!()
        };
        let (init, step) = (&for_stmt.init, &for_stmt.step);
        assert_eq!(stmts[5].attributes[0].name.to_text(), "unroll");
        assert_eq!(list(stmts[5].attributes[0].args), " 4");
        let Some(StmtKind::Declaration(decl)) = init.as_ref().map(|s| &s.kind) else {
            panic!()
        };
        assert!(matches!(&**decl, Item::Variable(v) if v.declarators.len() == 2));
        assert_eq!(
            step.as_ref().map(sexpr).as_deref(),
            Some("(, (PreIncrement i) (PostIncrement j))")
        );
        let StmtKind::Switch(switch) = &stmts[9].kind else {
            panic!()
        };
        let cases = &switch.cases;
        assert_eq!(cases.len(), 2);
        assert_eq!(cases[0].labels.len(), 2);
        assert_eq!(cases[0].body.len(), 2);
        assert!(matches!(cases[1].labels[0], CaseLabel::Default(_)));
    }

    #[test]
    fn three_syntax_errors_give_three_diagnostics() {
        let src = "float a = ;\nvoid f() {\n    int x = 1 +;\n    int y = 2\n}\nfloat ok;\n";
        let arena = Arena::new();
        let (unit, diags, map) = parse_str(&arena, src);
        let found: Vec<String> = diags.iter().map(|d| d.to_short_string(&map)).collect();
        assert_eq!(
            found,
            vec![
                "test.hlsl(1,11): error OSH0200: expected an expression, found ';'",
                "test.hlsl(3,16): error OSH0200: expected an expression, found ';'",
                "test.hlsl(5,1): error OSH0200: expected ';', found '}'",
            ]
        );
        // Recovery keeps what follows.
        assert!(
            matches!(unit.items.last(), Some(Item::Variable(v)) if v.declarators[0].name.name == "ok")
        );
    }

    /// Parses `src` on a thread with the default 2 MiB test stack; the diagnostics' codes.
    fn codes_on_small_stack(src: String) -> Vec<Code> {
        std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(move || {
                parse_str(&Arena::new(), &src)
                    .1
                    .iter()
                    .map(|d| d.code)
                    .collect()
            })
            .expect("thread")
            .join()
            .expect("the parser overflowed a 2 MiB stack")
    }

    /// Every shape of deep nesting, 20,000 deep, gives exactly one OSH0201 (it is fatal).
    #[test]
    fn deep_nesting_is_one_error_not_a_stack_overflow() {
        let n = 20_000;
        let shapes = [
            (
                "parentheses",
                format!("float a = {}1{};", "(".repeat(n), ")".repeat(n)),
            ),
            ("additions", format!("float a = 1{};", " + 1".repeat(n))),
            ("commas", format!("float a = (1{});", ", 1".repeat(n))),
            ("unary minus", format!("float a = {}1;", "- ".repeat(n))),
            (
                "conditionals",
                format!("float a = {}1;", "b ? 1 : ".repeat(n)),
            ),
            (
                "assignments",
                format!("void f() {{ a = {}1; }}", "b = ".repeat(n)),
            ),
            ("indexing", format!("float a = b{};", "[0]".repeat(n))),
            ("members", format!("float a = b{};", ".x".repeat(n))),
            (
                "calls",
                format!("float a = {}1{};", "abs(".repeat(n), ")".repeat(n)),
            ),
            ("casts", format!("float a = {}1;", "(float)".repeat(n))),
            (
                "blocks",
                format!("void f() {{ {}{} }}", "{".repeat(n), "}".repeat(n)),
            ),
            ("ifs", format!("void f() {{ {}; }}", "if (a) ".repeat(n))),
            (
                "else ifs",
                format!("void f() {{ if (a) ;{} }}", " else if (a) ;".repeat(n)),
            ),
            (
                "loops",
                format!("void f() {{ {}; }}", "while (a) ".repeat(n)),
            ),
            (
                "init lists",
                format!("float a[1] = {}1{};", "{".repeat(n), "}".repeat(n)),
            ),
            (
                "templates",
                format!("{}float{} a;", "vector<".repeat(n), ">".repeat(n)),
            ),
            ("array dimensions", format!("float a{};", "[1]".repeat(n))),
        ];
        for (shape, src) in shapes {
            let src = format!("{src}\nfloat after = ;");
            assert_eq!(
                codes_on_small_stack(src),
                vec![codes::NESTING_TOO_DEEP],
                "{shape}"
            );
        }
    }

    /// Nesting inside the limit parses, on the same small stack.
    #[test]
    fn nesting_inside_the_limit_parses() {
        // One parenthesis level is two levels (the assignment and the unary operand).
        let parens = (MAX_NESTING / 2 - 4) as usize;
        let ok = format!("float a = {}1{};", "(".repeat(parens), ")".repeat(parens));
        assert_eq!(codes_on_small_stack(ok), vec![]);
        let terms = (MAX_NESTING - 4) as usize;
        let ok = format!("float a = 1{};", " + 1".repeat(terms));
        assert_eq!(codes_on_small_stack(ok), vec![]);
        let dims = format!("float a{};", "[1]".repeat(terms));
        assert_eq!(codes_on_small_stack(dims), vec![]);
        let too_many = format!("float a = 1{};", " + 1".repeat(terms + 4));
        assert_eq!(
            codes_on_small_stack(too_many),
            vec![codes::NESTING_TOO_DEEP]
        );
    }
}
