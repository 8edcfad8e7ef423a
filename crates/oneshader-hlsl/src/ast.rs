//! The HLSL syntax tree. Every node carries the [`Span`] it was parsed from.
//!
//! The tree is purely syntactic: names are not resolved, types are written
//! forms ([`TypeExpr`]), and `S(x)` for a user name is a [`ExprKind::Call`].
//! The only semantic fact the parser uses is the set of type names declared
//! so far (built-in type spellings, `struct` and `typedef` names), to tell a
//! cast `(T)x` from a parenthesised expression and a declaration from an
//! expression statement.
//!
//! A tree lives in one [`Arena`] per compile: nodes refer to their parts by plain
//! references, lists are slices and names are strings, all in the arena, so that
//! building a tree costs bump allocations and dropping it costs nothing (the
//! arena frees its chunks whole; nothing in a tree owns other memory, which
//! [`Arena`] checks at compile time). A name also keeps its token's symbol, by which
//! lowering shares its text from the unit's spelling table.

use std::sync::Arc;

use oneshader_ir::Span;

pub use crate::lexer::{FloatSuffix, IntSuffix};
use crate::lexer::{Spellings, Symbol};

/// The memory a syntax tree lives in: a bump arena, freed whole when it is dropped.
///
/// Create one per compile, pass it to [`crate::parse`] (or the parser's entry points),
/// and keep it alive while the tree is read.
///
/// The arena runs no destructors, so it accepts only values that need none (its
/// allocating methods check that at compile time): a node that owned heap memory would
/// leak it.
#[derive(Debug, Default)]
pub struct Arena(bumpalo::Bump);

impl Arena {
    /// An empty arena.
    pub fn new() -> Arena {
        Arena(bumpalo::Bump::new())
    }

    /// `node`, placed in the arena.
    #[inline]
    pub(crate) fn node<T>(&self, node: T) -> &T {
        const {
            assert!(
                !std::mem::needs_drop::<T>(),
                "the arena runs no destructors"
            )
        };
        self.0.alloc(node)
    }

    /// `nodes`, moved into an arena slice of their exact number.
    #[inline]
    pub(crate) fn list<T, I>(&self, nodes: I) -> &[T]
    where
        I: IntoIterator<Item = T>,
        I::IntoIter: ExactSizeIterator,
    {
        const {
            assert!(
                !std::mem::needs_drop::<T>(),
                "the arena runs no destructors"
            )
        };
        self.0.alloc_slice_fill_iter(nodes)
    }

    /// A copy of `text` in the arena.
    #[inline]
    pub(crate) fn text(&self, text: &str) -> &str {
        self.0.alloc_str(text)
    }
}

/// A whole preprocessed source file: its top-level declarations in order.
#[derive(Clone)]
pub struct TranslationUnit<'a> {
    /// Top-level items in source order.
    pub items: &'a [Item<'a>],
    /// The spellings of the tokens the tree was parsed from, their texts in the tree's
    /// arena: each name's text is one of them, and its [`Ident::symbol`] names it here, so
    /// that a name lowering keeps (an IR name) is shared from here
    /// ([`TranslationUnit::shared_name`]).
    spellings: Spellings<'a>,
    /// The symbol of `this` in `spellings` (added if the source never spells it), the
    /// name lowering gives a member function's implicit parameter.
    this: Symbol,
}

impl<'a> TranslationUnit<'a> {
    /// The unit of `items`, parsed from tokens spelled in `spellings`.
    pub(crate) fn new(items: &'a [Item<'a>], mut spellings: Spellings<'a>) -> TranslationUnit<'a> {
        let this = spellings.intern("this");
        TranslationUnit {
            items,
            spellings,
            this,
        }
    }

    /// The symbol of `text`, if some token of the unit spells it (or it is `this`).
    pub(crate) fn symbol_of(&self, text: &str) -> Option<Symbol> {
        self.spellings.symbol_of(text)
    }

    /// How many symbols the unit's spellings hold (every symbol's index is below it).
    pub(crate) fn symbol_count(&self) -> usize {
        self.spellings.len()
    }

    /// The text of `symbol`, a symbol of this unit.
    pub(crate) fn text(&self, symbol: Symbol) -> &str {
        self.spellings.text(symbol)
    }

    /// The symbol of `this`, a member function's implicit parameter.
    pub(crate) fn this_symbol(&self) -> Symbol {
        self.this
    }

    /// The spelling of `ident` (a name of this tree) as a shared string: the spelling
    /// table's, made the first time a name of that spelling is asked for and shared after.
    pub(crate) fn shared_name(&self, ident: &Ident) -> Arc<str> {
        self.spellings.shared(ident.symbol)
    }
}

impl std::fmt::Debug for TranslationUnit<'_> {
    /// The items (the spelling table they were parsed from is left out).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TranslationUnit")
            .field("items", &self.items)
            .finish_non_exhaustive()
    }
}

/// A name as written, with its location.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ident<'a> {
    /// The spelling (in the arena, one copy for each distinct spelling).
    pub name: &'a str,
    /// The spelling's symbol in the spellings of the tree's [`TranslationUnit`], by
    /// which lowering shares the spelling from there instead of copying it.
    pub symbol: Symbol,
    /// Where it is.
    pub span: Span,
}

/// A possibly qualified name: `x`, `ns::x`, `vk::binding`.
///
/// Where the whole path is follows from its parts ([`Path::span`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Path<'a> {
    /// The last part: the name itself.
    pub last: Ident<'a>,
    /// The `::`-separated parts before the name (`ns` in `ns::x`), outermost first;
    /// empty for a plain name.
    qualifiers: &'a [Ident<'a>],
}

impl<'a> Path<'a> {
    /// The path `qualifiers::last` (`last` alone when `qualifiers` is empty).
    pub fn new(qualifiers: &'a [Ident<'a>], last: Ident<'a>) -> Path<'a> {
        Path { last, qualifiers }
    }

    /// The plain name `last`, without qualifiers.
    pub fn plain(last: Ident<'a>) -> Path<'a> {
        Path {
            last,
            qualifiers: &[],
        }
    }

    /// The `::`-separated parts before the name (`ns` in `ns::x`), outermost first;
    /// empty for a plain name.
    pub fn qualifiers(&self) -> &'a [Ident<'a>] {
        self.qualifiers
    }

    /// Where the whole path is: from its first part through its name.
    pub fn span(&self) -> Span {
        match self.qualifiers().first() {
            Some(first) => first.span.to(self.last.span),
            None => self.last.span,
        }
    }

    /// The last segment's spelling (the name itself, without qualifiers).
    pub fn name(&self) -> &'a str {
        self.last.name
    }

    /// Whether this is a plain name, without qualifiers.
    pub fn is_plain(&self) -> bool {
        self.qualifiers.is_empty()
    }

    /// Whether this is the unqualified name `name`.
    pub fn is(&self, name: &str) -> bool {
        self.is_plain() && self.last.name == name
    }

    /// Whether this is `namespace::name` (`vk::binding`).
    pub fn is_qualified(&self, namespace: &str, name: &str) -> bool {
        matches!(self.qualifiers(), [first] if first.name == namespace) && self.last.name == name
    }

    /// The path joined with `::`.
    pub fn to_text(&self) -> String {
        let parts: Vec<&str> = self
            .qualifiers()
            .iter()
            .chain(std::iter::once(&self.last))
            .map(|s| s.name)
            .collect();
        parts.join("::")
    }
}

/// A top-level declaration (also used for struct members and cbuffer fields).
///
/// Every declaration but a variable is held by reference: functions, structs and buffers
/// are much larger than a variable, and variables are nearly every item (globals, fields,
/// locals).
#[derive(Clone, Debug, PartialEq)]
pub enum Item<'a> {
    /// Variables: `static const float a = 1, b[2];`, resources, struct fields.
    Variable(VariableDecl<'a>),
    /// A function declaration or definition.
    Function(&'a FunctionDecl<'a>),
    /// `struct S { … };`
    Struct(&'a StructDecl<'a>),
    /// `cbuffer Name : register(b0) { … }` or `tbuffer`.
    Buffer(&'a BufferDecl<'a>),
    /// `typedef T Name;`
    Typedef(&'a TypedefDecl<'a>),
    /// `namespace N { … }`
    Namespace(&'a NamespaceDecl<'a>),
    /// `#pragma pack_matrix(…)`: the default matrix order for what follows.
    PackMatrix(PackMatrix),
    /// A stray `;`.
    Empty(Span),
}

impl<'a> Item<'a> {
    /// Where the item is.
    pub fn span(&self) -> Span {
        match self {
            Item::Variable(d) => d.span,
            Item::Function(d) => d.span,
            Item::Struct(d) => d.span,
            Item::Buffer(d) => d.span,
            Item::Typedef(d) => d.span,
            Item::Namespace(d) => d.span,
            Item::PackMatrix(d) => d.span,
            Item::Empty(s) => *s,
        }
    }
}

/// The order `#pragma pack_matrix` selects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackMatrix {
    /// `true` for `row_major`, `false` for `column_major`.
    pub row_major: bool,
    /// Where the pragma is.
    pub span: Span,
}

/// An attribute: `[numthreads(64,1,1)]`, `[unroll]`, `[[vk::binding(0, 1)]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute<'a> {
    /// The attribute's name, qualified for `[[vk::…]]`.
    pub name: Path<'a>,
    /// The arguments in parentheses (empty when there are none).
    pub args: &'a [Expr<'a>],
    /// Written with double brackets `[[…]]`.
    pub double_bracket: bool,
    /// Where it is, brackets included.
    pub span: Span,
}

/// A declaration modifier: storage class, qualifier, interpolation, parameter direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Modifier {
    Static,
    Const,
    Groupshared,
    Uniform,
    Extern,
    Volatile,
    Shared,
    Precise,
    GloballyCoherent,
    RowMajor,
    ColumnMajor,
    Inline,
    Export,
    // Interpolation.
    Linear,
    Centroid,
    NoInterpolation,
    NoPerspective,
    Sample,
    // Parameter direction.
    In,
    Out,
    InOut,
    // Geometry and mesh shader parameters.
    Point,
    Line,
    Triangle,
    LineAdj,
    TriangleAdj,
    Vertices,
    Indices,
    Primitives,
    Payload,
}

/// A modifier with its location.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpannedModifier {
    /// Which modifier.
    pub modifier: Modifier,
    /// Where it is written.
    pub span: Span,
}

/// A type as written.
#[derive(Clone, Debug, PartialEq)]
pub struct TypeExpr<'a> {
    /// What the type is.
    pub kind: TypeKind<'a>,
    /// Where it is written.
    pub span: Span,
}

/// The forms a written type takes.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeKind<'a> {
    /// A named type, possibly with template arguments:
    /// `float4`, `S`, `StructuredBuffer<float>`, `vector<float, 4>`, `RWTexture2D<unorm float4>`.
    Named {
        /// The name.
        name: Path<'a>,
        /// `<…>` arguments, when written.
        args: Option<&'a [TemplateArg<'a>]>,
    },
    /// A struct defined in place: `struct { float a; } x;`.
    Struct(&'a StructDecl<'a>),
}

impl<'a> TypeExpr<'a> {
    /// The type's name when it is a named type.
    pub fn name(&self) -> Option<&Path<'a>> {
        match &self.kind {
            TypeKind::Named { name, .. } => Some(name),
            TypeKind::Struct(_) => None,
        }
    }

    /// The template arguments when there are any.
    pub fn template_args(&self) -> &'a [TemplateArg<'a>] {
        match self.kind {
            TypeKind::Named {
                args: Some(args), ..
            } => args,
            _ => &[],
        }
    }
}

/// A template argument: a type (with an optional `unorm`/`snorm`) or a constant expression.
#[derive(Clone, Debug, PartialEq)]
pub enum TemplateArg<'a> {
    /// A type argument, such as the `float4` of `Texture2D<float4>`.
    Type {
        /// `unorm`/`snorm` before the type.
        norm: Option<Norm>,
        /// The type.
        ty: TypeExpr<'a>,
    },
    /// A value argument, such as the `4` of `vector<float, 4>`.
    Expr(Expr<'a>),
}

/// The `unorm`/`snorm` modifiers of texture element types.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Norm {
    /// `unorm`.
    Unorm,
    /// `snorm`.
    Snorm,
}

/// Something after `:` on a declarator, parameter or function.
#[derive(Clone, Debug, PartialEq)]
pub enum Annotation<'a> {
    /// A semantic: `: SV_Position`, `: TEXCOORD0`.
    Semantic(Ident<'a>),
    /// `: register(u1, space2)`.
    Register(Register<'a>),
    /// `: packoffset(c0.x)`.
    PackOffset(PackOffset<'a>),
}

/// A `register(…)` binding.
#[derive(Clone, Debug, PartialEq)]
pub struct Register<'a> {
    /// The shader profile of the old `register(ps_5_0, t0)` form.
    pub profile: Option<Ident<'a>>,
    /// The register: `t0`, `u1`, `b2`, `s3`, `c4`.
    pub slot: Option<Ident<'a>>,
    /// The space: `space2`.
    pub space: Option<Ident<'a>>,
    /// Where `register(…)` is written.
    pub span: Span,
}

/// A `packoffset(c1.y)` placement.
#[derive(Clone, Debug, PartialEq)]
pub struct PackOffset<'a> {
    /// The constant register: `c1`.
    pub register: Ident<'a>,
    /// The component selector after `.`: `y`.
    pub component: Option<Ident<'a>>,
    /// Where `packoffset(…)` is written.
    pub span: Span,
}

/// Variable declarations sharing one type: `static const float a = 1, b[2] : register(c0);`.
#[derive(Clone, Debug, PartialEq)]
pub struct VariableDecl<'a> {
    /// `[[vk::binding(…)]]` and other attributes.
    pub attributes: &'a [Attribute<'a>],
    /// Storage classes, qualifiers and interpolation modifiers, in order.
    pub modifiers: &'a [SpannedModifier],
    /// The declared type.
    pub ty: TypeExpr<'a>,
    /// The declared names, at least one.
    pub declarators: &'a [Declarator<'a>],
    /// Where the whole declaration is.
    pub span: Span,
}

/// One declared name with its array dimensions, annotations and initializer.
#[derive(Clone, Debug, PartialEq)]
pub struct Declarator<'a> {
    /// The name.
    pub name: Ident<'a>,
    /// Array dimensions, outermost first; `None` for an unsized `[]`.
    pub array_dims: &'a [Option<Expr<'a>>],
    /// Semantics, registers and packoffsets after `:`.
    pub annotations: &'a [Annotation<'a>],
    /// `= value`, an expression or an initializer list.
    pub init: Option<Expr<'a>>,
    /// Where the declarator is.
    pub span: Span,
}

/// A function declaration or definition.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDecl<'a> {
    /// `[numthreads(…)]`, `[shader("compute")]`, ….
    pub attributes: &'a [Attribute<'a>],
    /// `static`, `inline`, `export`, `precise`, ….
    pub modifiers: &'a [SpannedModifier],
    /// The return type.
    pub return_type: TypeExpr<'a>,
    /// The name (qualified for an out-of-line member `S::f`).
    pub name: Path<'a>,
    /// The parameters.
    pub params: &'a [Param<'a>],
    /// The return semantic: `: SV_Target`.
    pub return_annotations: &'a [Annotation<'a>],
    /// The body; `None` for a declaration ending in `;`.
    pub body: Option<Block<'a>>,
    /// The names the body may assign, found while parsing it, with repeats: the
    /// variables that are the target of an assignment or of `++`/`--`, or are passed
    /// directly as a call argument (perhaps an `out` one), an initializer-list element
    /// or a method call's receiver, or have a field or element so used. Lowering
    /// copies a parameter passed by value into a local variable only if it is one.
    pub assigned: &'a [Symbol],
    /// Where the whole function is.
    pub span: Span,
}

/// A function parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param<'a> {
    /// Attributes before the parameter.
    pub attributes: &'a [Attribute<'a>],
    /// `in`, `out`, `inout`, `uniform`, `const`, interpolation, `triangle`, `vertices`, ….
    pub modifiers: &'a [SpannedModifier],
    /// The type.
    pub ty: TypeExpr<'a>,
    /// The name (optional in prototypes).
    pub name: Option<Ident<'a>>,
    /// Array dimensions.
    pub array_dims: &'a [Option<Expr<'a>>],
    /// Semantics after `:`.
    pub annotations: &'a [Annotation<'a>],
    /// `= default value`.
    pub default: Option<Expr<'a>>,
    /// Where the parameter is.
    pub span: Span,
}

/// A struct definition.
#[derive(Clone, Debug, PartialEq)]
pub struct StructDecl<'a> {
    /// The name; `None` for an anonymous struct.
    pub name: Option<Ident<'a>>,
    /// The base struct of `struct D : B`.
    pub base: Option<TypeExpr<'a>>,
    /// Fields ([`Item::Variable`]), methods ([`Item::Function`]), nested structs and typedefs.
    pub members: &'a [Item<'a>],
    /// Where the definition is.
    pub span: Span,
}

/// Whether a buffer block is a `cbuffer` or a `tbuffer`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferKind {
    /// `cbuffer`.
    Constant,
    /// `tbuffer`.
    Texture,
}

/// A `cbuffer`/`tbuffer` block.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferDecl<'a> {
    /// Attributes before it (`[[vk::binding(…)]]`).
    pub attributes: &'a [Attribute<'a>],
    /// `cbuffer` or `tbuffer`.
    pub kind: BufferKind,
    /// The block's name.
    pub name: Ident<'a>,
    /// `: register(b0)`.
    pub annotations: &'a [Annotation<'a>],
    /// The fields (and anything else declared inside).
    pub members: &'a [Item<'a>],
    /// Where the block is.
    pub span: Span,
}

/// `typedef T A, B[4];`
#[derive(Clone, Debug, PartialEq)]
pub struct TypedefDecl<'a> {
    /// `const` and other modifiers on the aliased type.
    pub modifiers: &'a [SpannedModifier],
    /// The aliased type.
    pub ty: TypeExpr<'a>,
    /// The new names (with array dimensions; no annotations or initializers).
    pub declarators: &'a [Declarator<'a>],
    /// Where the typedef is.
    pub span: Span,
}

/// `namespace N { … }`
#[derive(Clone, Debug, PartialEq)]
pub struct NamespaceDecl<'a> {
    /// The namespace's name.
    pub name: Ident<'a>,
    /// What it contains.
    pub items: &'a [Item<'a>],
    /// Where it is.
    pub span: Span,
}

/// `{ statements }`
#[derive(Clone, Debug, PartialEq)]
pub struct Block<'a> {
    /// The statements in order.
    pub statements: &'a [Stmt<'a>],
    /// Where the braces are.
    pub span: Span,
}

/// A statement with its attributes (`[unroll]`, `[branch]`, …).
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt<'a> {
    /// What the statement is.
    pub kind: StmtKind<'a>,
    /// Attributes written before it.
    pub attributes: &'a [Attribute<'a>],
    /// Where it is (attributes included).
    pub span: Span,
}

/// The statement forms.
///
/// The payloads of the control-flow forms are named structs referred to, so that a
/// [`Stmt`] stays small: a block's statements are stored inline in its list.
#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind<'a> {
    /// `{ … }`
    Block(Block<'a>),
    /// A local declaration (variables, or a local struct/typedef).
    Declaration(&'a Item<'a>),
    /// `expr;`
    Expr(Expr<'a>),
    /// `if (cond) then else otherwise`
    If(&'a IfStmt<'a>),
    /// `for (init; condition; step) body`
    For(&'a ForStmt<'a>),
    /// `while (condition) body`
    While(&'a WhileStmt<'a>),
    /// `do body while (condition);`
    DoWhile(&'a WhileStmt<'a>),
    /// `switch (selector) { case …: … }`
    Switch(&'a SwitchStmt<'a>),
    /// `break;`
    Break,
    /// `continue;`
    Continue,
    /// `return;` or `return value;`
    Return(Option<Expr<'a>>),
    /// `discard;`
    Discard,
    /// `;`
    Empty,
    /// A statement that failed to parse (already diagnosed).
    Error,
}

/// The parts of `if (condition) accept else reject` ([`StmtKind::If`]).
#[derive(Clone, Debug, PartialEq)]
pub struct IfStmt<'a> {
    /// The condition.
    pub condition: Expr<'a>,
    /// Taken when true.
    pub accept: Stmt<'a>,
    /// Taken when false.
    pub reject: Option<Stmt<'a>>,
}

/// The parts of `for (init; condition; step) body` ([`StmtKind::For`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ForStmt<'a> {
    /// A declaration or expression statement, if any.
    pub init: Option<Stmt<'a>>,
    /// The loop condition, if any.
    pub condition: Option<Expr<'a>>,
    /// The step expression, if any.
    pub step: Option<Expr<'a>>,
    /// The body.
    pub body: Stmt<'a>,
}

/// The parts of `while (condition) body` and `do body while (condition);`
/// ([`StmtKind::While`], [`StmtKind::DoWhile`]).
#[derive(Clone, Debug, PartialEq)]
pub struct WhileStmt<'a> {
    /// The condition.
    pub condition: Expr<'a>,
    /// The body.
    pub body: Stmt<'a>,
}

/// The parts of `switch (selector) { … }` ([`StmtKind::Switch`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SwitchStmt<'a> {
    /// The value switched on.
    pub selector: Expr<'a>,
    /// The case groups in order.
    pub cases: &'a [SwitchCase<'a>],
}

/// One group of `case`/`default` labels and the statements after them.
#[derive(Clone, Debug, PartialEq)]
pub struct SwitchCase<'a> {
    /// The labels, in order.
    pub labels: &'a [CaseLabel<'a>],
    /// The statements up to the next label.
    pub body: &'a [Stmt<'a>],
    /// Where the group is.
    pub span: Span,
}

/// `case value:` or `default:`.
#[derive(Clone, Debug, PartialEq)]
pub enum CaseLabel<'a> {
    /// `case value:`
    Case(Expr<'a>),
    /// `default:`
    Default(Span),
}

/// An expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr<'a> {
    /// What the expression is.
    pub kind: ExprKind<'a>,
    /// Where it is.
    pub span: Span,
}

/// A literal value.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal<'a> {
    /// An integer literal.
    Int {
        /// The value (literals are never negative; `-1` is a negation).
        value: u64,
        /// Its suffix.
        suffix: IntSuffix,
    },
    /// A floating-point literal.
    Float {
        /// The value.
        value: f64,
        /// Its suffix.
        suffix: FloatSuffix,
    },
    /// `true` or `false`.
    Bool(bool),
    /// A string literal (adjacent literals joined), escapes resolved (behind a second
    /// reference: strings are rare, and a [`Literal`] stays two words).
    String(&'a &'a str),
}

/// Prefix and postfix unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum UnaryOp {
    Plus,
    Negate,
    LogicalNot,
    BitNot,
    PreIncrement,
    PreDecrement,
    PostIncrement,
    PostDecrement,
}

impl UnaryOp {
    /// Whether the operator writes its operand (`++` and `--`, prefix or postfix).
    pub fn writes_operand(self) -> bool {
        matches!(
            self,
            UnaryOp::PreIncrement
                | UnaryOp::PreDecrement
                | UnaryOp::PostIncrement
                | UnaryOp::PostDecrement
        )
    }
}

/// Binary operators (the comma operator included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum BinaryOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Less,
    Greater,
    LessEqual,
    GreaterEqual,
    Equal,
    NotEqual,
    BitAnd,
    BitXor,
    BitOr,
    LogicalAnd,
    LogicalOr,
    Comma,
}

/// The expression forms.
///
/// Every variant is at most two words (a plain name two words and its 4-byte symbol,
/// which sits beside the tag), so that an [`Expr`] takes 40 bytes: a large shader's
/// syntax tree holds millions of them. The payloads of the forms with more
/// parts (binary operators, assignments, indexing, calls, casts, member accesses,
/// conditionals) are named structs referred to, one arena block per node (both operands
/// of a binary operator in one block), and qualified names too (a [`Path`] is larger
/// than every other form).
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind<'a> {
    /// A literal.
    Literal(Literal<'a>),
    /// A variable, constant or enumerator name.
    Name(NameExpr<'a>),
    /// A prefix or postfix operator.
    Unary {
        /// The operator.
        op: UnaryOp,
        /// Its operand.
        operand: &'a Expr<'a>,
    },
    /// A binary operator.
    Binary(&'a BinaryExpr<'a>),
    /// `target = value`, or a compound assignment `target op= value`.
    Assign(&'a AssignExpr<'a>),
    /// `condition ? accept : reject`
    Conditional(&'a ConditionalExpr<'a>),
    /// `(T)operand` or `(T[2])operand`.
    Cast(&'a CastExpr<'a>),
    /// A call of a function by name: `f(a, b)`, `ns::f(a)`, `S(x)` for user names.
    Call(&'a CallExpr<'a>),
    /// A built-in type used as a constructor: `float4(a, b)`, `vector<float, 2>(x, y)`.
    Constructor(&'a ConstructorExpr<'a>),
    /// A method call: `buf.Load(0)`, `tex.Sample(s, uv)`, `buf.Load<float4>(0)`.
    MethodCall(&'a MethodCallExpr<'a>),
    /// `base.member`: a field or a swizzle (`v.xyz`, `m._m00`).
    Member(&'a MemberExpr<'a>),
    /// `base[index]`
    Index(&'a IndexExpr<'a>),
    /// `{ a, b, { c, d } }`
    InitList(&'a [Expr<'a>]),
    /// An expression that failed to parse (already diagnosed).
    Error,
}

/// A name used as an expression ([`ExprKind::Name`]).
///
/// A plain name, nearly every one, is just its spelling and symbol: where it is written
/// is its expression's span. Qualified names, and names whose expression's span is wider than
/// the name (`(x)`), keep their whole [`Path`].
#[derive(Clone, Debug, PartialEq)]
pub enum NameExpr<'a> {
    /// A plain name whose span is its expression's.
    Plain {
        /// The spelling ([`Ident::name`]).
        name: &'a str,
        /// Its symbol ([`Ident::symbol`]).
        symbol: Symbol,
    },
    /// Any other name.
    Path(&'a Path<'a>),
}

impl<'a> NameExpr<'a> {
    /// The plain name `ident`, used as the expression at its own span.
    pub fn plain(ident: Ident<'a>) -> NameExpr<'a> {
        NameExpr::Plain {
            name: ident.name,
            symbol: ident.symbol,
        }
    }

    /// The name `path`, used as the expression at `span`; a name other than a plain
    /// one is placed in `arena`.
    pub fn new(arena: &'a Arena, path: Path<'a>, span: Span) -> NameExpr<'a> {
        if path.is_plain() && path.last.span == span {
            NameExpr::plain(path.last)
        } else {
            NameExpr::Path(arena.node(path))
        }
    }

    /// The name as a [`Path`], given the span of its expression.
    pub fn to_path(&self, span: Span) -> Path<'a> {
        match *self {
            NameExpr::Plain { name, symbol } => Path::plain(Ident { name, symbol, span }),
            NameExpr::Path(path) => *path,
        }
    }

    /// The name, moved to an expression whose span is no longer the name's (the `(x)` of
    /// a parenthesised name); `span` is the name's own expression's span.
    pub fn widened(self, arena: &'a Arena, span: Span) -> NameExpr<'a> {
        match self {
            NameExpr::Plain { .. } => NameExpr::Path(arena.node(self.to_path(span))),
            path => path,
        }
    }

    /// The last segment's spelling (the name itself, without qualifiers).
    pub fn name(&self) -> &'a str {
        match *self {
            NameExpr::Plain { name, .. } => name,
            NameExpr::Path(path) => path.name(),
        }
    }

    /// The last segment's symbol ([`Ident::symbol`]).
    pub fn symbol(&self) -> Symbol {
        match *self {
            NameExpr::Plain { symbol, .. } => symbol,
            NameExpr::Path(path) => path.last.symbol,
        }
    }
}

/// The parts of `lhs op rhs` ([`ExprKind::Binary`]).
#[derive(Clone, Debug, PartialEq)]
pub struct BinaryExpr<'a> {
    /// The operator.
    pub op: BinaryOp,
    /// The left operand.
    pub lhs: Expr<'a>,
    /// The right operand.
    pub rhs: Expr<'a>,
}

/// The parts of `target = value` or `target op= value` ([`ExprKind::Assign`]).
#[derive(Clone, Debug, PartialEq)]
pub struct AssignExpr<'a> {
    /// `None` for `=`, the operator for `+=`, `<<=`, ….
    pub op: Option<BinaryOp>,
    /// The assigned place.
    pub target: Expr<'a>,
    /// The value.
    pub value: Expr<'a>,
}

/// The parts of `base[index]` ([`ExprKind::Index`]).
#[derive(Clone, Debug, PartialEq)]
pub struct IndexExpr<'a> {
    /// The indexed value.
    pub base: Expr<'a>,
    /// The index.
    pub index: Expr<'a>,
}

/// The parts of `condition ? accept : reject` ([`ExprKind::Conditional`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ConditionalExpr<'a> {
    /// The condition.
    pub condition: Expr<'a>,
    /// The value when true.
    pub accept: Expr<'a>,
    /// The value when false.
    pub reject: Expr<'a>,
}

/// The parts of a cast `(T)operand` or `(T[2])operand` ([`ExprKind::Cast`]).
#[derive(Clone, Debug, PartialEq)]
pub struct CastExpr<'a> {
    /// The target type.
    pub ty: TypeExpr<'a>,
    /// Array dimensions written in the cast.
    pub array_dims: &'a [Option<Expr<'a>>],
    /// The converted value.
    pub operand: Expr<'a>,
}

/// The parts of a call by name `f(a, b)` ([`ExprKind::Call`]).
#[derive(Clone, Debug, PartialEq)]
pub struct CallExpr<'a> {
    /// The function's name.
    pub function: Path<'a>,
    /// Explicit template arguments `f<T>(…)`.
    pub template_args: Option<&'a [TemplateArg<'a>]>,
    /// The arguments.
    pub args: &'a [Expr<'a>],
}

/// The parts of a constructor call `float4(a, b)` ([`ExprKind::Constructor`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ConstructorExpr<'a> {
    /// The constructed type.
    pub ty: TypeExpr<'a>,
    /// The arguments.
    pub args: &'a [Expr<'a>],
}

/// The parts of a method call `buf.Load(0)` ([`ExprKind::MethodCall`]).
#[derive(Clone, Debug, PartialEq)]
pub struct MethodCallExpr<'a> {
    /// The object.
    pub receiver: Expr<'a>,
    /// The method's name.
    pub method: Ident<'a>,
    /// Explicit template arguments.
    pub template_args: Option<&'a [TemplateArg<'a>]>,
    /// The arguments.
    pub args: &'a [Expr<'a>],
}

/// The parts of a member access `base.member` ([`ExprKind::Member`]).
#[derive(Clone, Debug, PartialEq)]
pub struct MemberExpr<'a> {
    /// The object.
    pub base: Expr<'a>,
    /// The field or swizzle.
    pub member: Ident<'a>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The sizes of the nodes a large shader's tree holds by the million (64-bit targets):
    /// a change that grows one of them should be a deliberate one.
    #[test]
    #[cfg(target_pointer_width = "64")]
    fn node_sizes() {
        use std::mem::size_of;
        assert_eq!(size_of::<Expr>(), 40);
        assert_eq!(size_of::<ExprKind>(), 24);
        // Three words, yet an expression kind holding one stays three words: its tag
        // takes values NameExpr's own tag leaves free.
        assert_eq!(size_of::<NameExpr>(), 24);
        assert_eq!(size_of::<Ident>(), 32);
        assert_eq!(size_of::<Stmt>(), 80);
        assert_eq!(size_of::<Path>(), 48);
        assert_eq!(size_of::<Item>(), 152);
    }
}
