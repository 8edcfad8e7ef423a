//! The HLSL syntax tree. Every node carries the [`Span`] it was parsed from.
//!
//! The tree is purely syntactic: names are not resolved, types are written
//! forms ([`TypeExpr`]), and `S(x)` for a user name is a [`ExprKind::Call`].
//! The only semantic fact the parser uses is the set of type names declared
//! so far (built-in type spellings, `struct` and `typedef` names), to tell a
//! cast `(T)x` from a parenthesised expression and a declaration from an
//! expression statement.

use std::sync::Arc;

use oneshader_ir::Span;

pub use crate::lexer::{FloatSuffix, IntSuffix};
pub use short_list::ShortList;

mod short_list;

/// A whole preprocessed source file: its top-level declarations in order.
#[derive(Clone, Debug, PartialEq)]
pub struct TranslationUnit {
    /// Top-level items in source order.
    pub items: Vec<Item>,
}

/// A name as written, with its location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The spelling (shared with the token's).
    pub name: Arc<str>,
    /// Where it is.
    pub span: Span,
}

/// A possibly qualified name: `x`, `ns::x`, `vk::binding`.
///
/// The name itself is held inline and the qualifiers behind one pointer, so that a
/// plain name (nearly every path) costs no allocation and the path stays five words.
/// Where the whole path is follows from its parts ([`Path::span`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Path {
    /// The last part: the name itself.
    pub last: Ident,
    /// The `::`-separated parts before the name (`ns` in `ns::x`), outermost first;
    /// `None` for a plain name.
    qualifiers: Option<Box<Box<[Ident]>>>,
}

impl Path {
    /// The path `qualifiers::last` (`last` alone when `qualifiers` is empty).
    pub fn new(qualifiers: Vec<Ident>, last: Ident) -> Path {
        let qualifiers = (!qualifiers.is_empty()).then(|| Box::new(qualifiers.into_boxed_slice()));
        Path { last, qualifiers }
    }

    /// The plain name `last`, without qualifiers.
    pub fn plain(last: Ident) -> Path {
        Path {
            last,
            qualifiers: None,
        }
    }

    /// A path of `segments` (at least one); `None` without segments.
    pub fn from_segments(mut segments: Vec<Ident>) -> Option<Path> {
        let last = segments.pop()?;
        Some(Path::new(segments, last))
    }

    /// The `::`-separated parts before the name (`ns` in `ns::x`), outermost first;
    /// empty for a plain name.
    pub fn qualifiers(&self) -> &[Ident] {
        self.qualifiers.as_deref().map_or(&[], |q| q)
    }

    /// Where the whole path is: from its first part through its name.
    pub fn span(&self) -> Span {
        match self.qualifiers().first() {
            Some(first) => first.span.to(self.last.span),
            None => self.last.span,
        }
    }

    /// The last segment's spelling (the name itself, without qualifiers).
    pub fn name(&self) -> &str {
        &self.last.name
    }

    /// Whether this is a plain name, without qualifiers.
    pub fn is_plain(&self) -> bool {
        self.qualifiers.is_none()
    }

    /// Whether this is the unqualified name `name`.
    pub fn is(&self, name: &str) -> bool {
        self.is_plain() && &*self.last.name == name
    }

    /// Whether this is `namespace::name` (`vk::binding`).
    pub fn is_qualified(&self, namespace: &str, name: &str) -> bool {
        matches!(self.qualifiers(), [first] if &*first.name == namespace)
            && &*self.last.name == name
    }

    /// The path joined with `::`.
    pub fn to_text(&self) -> String {
        let parts: Vec<&str> = self
            .qualifiers()
            .iter()
            .chain(std::iter::once(&self.last))
            .map(|s| &*s.name)
            .collect();
        parts.join("::")
    }
}

/// A top-level declaration (also used for struct members and cbuffer fields).
///
/// The declarations other than variables are boxed: a local declaration statement holds
/// an [`Item`] (boxed, with its one declarator in place), and functions, structs and
/// buffers are much larger than variables.
// Variables, nearly every item (globals, fields, locals), stay in place: boxing them
// would cost each an allocation, the larger size costs only the rare other items.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// Variables: `static const float a = 1, b[2];`, resources, struct fields.
    Variable(VariableDecl),
    /// A function declaration or definition.
    Function(Box<FunctionDecl>),
    /// `struct S { … };`
    Struct(Box<StructDecl>),
    /// `cbuffer Name : register(b0) { … }` or `tbuffer`.
    Buffer(Box<BufferDecl>),
    /// `typedef T Name;`
    Typedef(Box<TypedefDecl>),
    /// `namespace N { … }`
    Namespace(Box<NamespaceDecl>),
    /// `#pragma pack_matrix(…)`: the default matrix order for what follows.
    PackMatrix(PackMatrix),
    /// A stray `;`.
    Empty(Span),
}

impl Item {
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
pub struct Attribute {
    /// The attribute's name, qualified for `[[vk::…]]`.
    pub name: Path,
    /// The arguments in parentheses (empty when there are none).
    pub args: ShortList<Expr>,
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
pub struct TypeExpr {
    /// What the type is.
    pub kind: TypeKind,
    /// Where it is written.
    pub span: Span,
}

/// The forms a written type takes.
#[derive(Clone, Debug, PartialEq)]
pub enum TypeKind {
    /// A named type, possibly with template arguments:
    /// `float4`, `S`, `StructuredBuffer<float>`, `vector<float, 4>`, `RWTexture2D<unorm float4>`.
    Named {
        /// The name.
        name: Path,
        /// `<…>` arguments, when written.
        args: Option<Vec<TemplateArg>>,
    },
    /// A struct defined in place: `struct { float a; } x;`.
    Struct(Box<StructDecl>),
}

impl TypeExpr {
    /// The type's name when it is a named type.
    pub fn name(&self) -> Option<&Path> {
        match &self.kind {
            TypeKind::Named { name, .. } => Some(name),
            TypeKind::Struct(_) => None,
        }
    }

    /// The template arguments when there are any.
    pub fn template_args(&self) -> &[TemplateArg] {
        match &self.kind {
            TypeKind::Named {
                args: Some(args), ..
            } => args,
            _ => &[],
        }
    }
}

/// A template argument: a type (with an optional `unorm`/`snorm`) or a constant expression.
#[derive(Clone, Debug, PartialEq)]
pub enum TemplateArg {
    /// A type argument, such as the `float4` of `Texture2D<float4>`.
    Type {
        /// `unorm`/`snorm` before the type.
        norm: Option<Norm>,
        /// The type.
        ty: TypeExpr,
    },
    /// A value argument, such as the `4` of `vector<float, 4>`.
    Expr(Expr),
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
pub enum Annotation {
    /// A semantic: `: SV_Position`, `: TEXCOORD0`.
    Semantic(Ident),
    /// `: register(u1, space2)`.
    Register(Register),
    /// `: packoffset(c0.x)`.
    PackOffset(PackOffset),
}

/// A `register(…)` binding.
#[derive(Clone, Debug, PartialEq)]
pub struct Register {
    /// The shader profile of the old `register(ps_5_0, t0)` form.
    pub profile: Option<Ident>,
    /// The register: `t0`, `u1`, `b2`, `s3`, `c4`.
    pub slot: Option<Ident>,
    /// The space: `space2`.
    pub space: Option<Ident>,
    /// Where `register(…)` is written.
    pub span: Span,
}

/// A `packoffset(c1.y)` placement.
#[derive(Clone, Debug, PartialEq)]
pub struct PackOffset {
    /// The constant register: `c1`.
    pub register: Ident,
    /// The component selector after `.`: `y`.
    pub component: Option<Ident>,
    /// Where `packoffset(…)` is written.
    pub span: Span,
}

/// Variable declarations sharing one type: `static const float a = 1, b[2] : register(c0);`.
#[derive(Clone, Debug, PartialEq)]
pub struct VariableDecl {
    /// `[[vk::binding(…)]]` and other attributes.
    pub attributes: Box<[Attribute]>,
    /// Storage classes, qualifiers and interpolation modifiers, in order.
    pub modifiers: Box<[SpannedModifier]>,
    /// The declared type.
    pub ty: TypeExpr,
    /// The declared names, at least one (nearly always one, held in place).
    pub declarators: ShortList<Declarator>,
    /// Where the whole declaration is.
    pub span: Span,
}

/// One declared name with its array dimensions, annotations and initializer.
#[derive(Clone, Debug, PartialEq)]
pub struct Declarator {
    /// The name.
    pub name: Ident,
    /// Array dimensions, outermost first; `None` for an unsized `[]`.
    pub array_dims: Box<[Option<Expr>]>,
    /// Semantics, registers and packoffsets after `:`.
    pub annotations: Box<[Annotation]>,
    /// `= value`, an expression or an initializer list.
    pub init: Option<Expr>,
    /// Where the declarator is.
    pub span: Span,
}

/// A function declaration or definition.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionDecl {
    /// `[numthreads(…)]`, `[shader("compute")]`, ….
    pub attributes: Vec<Attribute>,
    /// `static`, `inline`, `export`, `precise`, ….
    pub modifiers: Vec<SpannedModifier>,
    /// The return type.
    pub return_type: TypeExpr,
    /// The name (qualified for an out-of-line member `S::f`).
    pub name: Path,
    /// The parameters.
    pub params: Vec<Param>,
    /// The return semantic: `: SV_Target`.
    pub return_annotations: Vec<Annotation>,
    /// The body; `None` for a declaration ending in `;`.
    pub body: Option<Block>,
    /// Where the whole function is.
    pub span: Span,
}

/// A function parameter.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    /// Attributes before the parameter.
    pub attributes: Vec<Attribute>,
    /// `in`, `out`, `inout`, `uniform`, `const`, interpolation, `triangle`, `vertices`, ….
    pub modifiers: Vec<SpannedModifier>,
    /// The type.
    pub ty: TypeExpr,
    /// The name (optional in prototypes).
    pub name: Option<Ident>,
    /// Array dimensions.
    pub array_dims: Vec<Option<Expr>>,
    /// Semantics after `:`.
    pub annotations: Vec<Annotation>,
    /// `= default value`.
    pub default: Option<Expr>,
    /// Where the parameter is.
    pub span: Span,
}

/// A struct definition.
#[derive(Clone, Debug, PartialEq)]
pub struct StructDecl {
    /// The name; `None` for an anonymous struct.
    pub name: Option<Ident>,
    /// The base struct of `struct D : B`.
    pub base: Option<TypeExpr>,
    /// Fields ([`Item::Variable`]), methods ([`Item::Function`]), nested structs and typedefs.
    pub members: Vec<Item>,
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
pub struct BufferDecl {
    /// Attributes before it (`[[vk::binding(…)]]`).
    pub attributes: Vec<Attribute>,
    /// `cbuffer` or `tbuffer`.
    pub kind: BufferKind,
    /// The block's name.
    pub name: Ident,
    /// `: register(b0)`.
    pub annotations: Vec<Annotation>,
    /// The fields (and anything else declared inside).
    pub members: Vec<Item>,
    /// Where the block is.
    pub span: Span,
}

/// `typedef T A, B[4];`
#[derive(Clone, Debug, PartialEq)]
pub struct TypedefDecl {
    /// `const` and other modifiers on the aliased type.
    pub modifiers: Vec<SpannedModifier>,
    /// The aliased type.
    pub ty: TypeExpr,
    /// The new names (with array dimensions; no annotations or initializers).
    pub declarators: Vec<Declarator>,
    /// Where the typedef is.
    pub span: Span,
}

/// `namespace N { … }`
#[derive(Clone, Debug, PartialEq)]
pub struct NamespaceDecl {
    /// The namespace's name.
    pub name: Ident,
    /// What it contains.
    pub items: Vec<Item>,
    /// Where it is.
    pub span: Span,
}

/// `{ statements }`
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// The statements in order.
    pub statements: Vec<Stmt>,
    /// Where the braces are.
    pub span: Span,
}

/// A statement with its attributes (`[unroll]`, `[branch]`, …).
#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    /// What the statement is.
    pub kind: StmtKind,
    /// Attributes written before it (no allocation when there are none).
    pub attributes: Box<[Attribute]>,
    /// Where it is (attributes included).
    pub span: Span,
}

/// The statement forms.
///
/// The payloads of the control-flow forms are boxed into named structs, so that a
/// [`Stmt`] stays small: a block's statements are stored inline in its list.
#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    /// `{ … }`
    Block(Block),
    /// A local declaration (variables, or a local struct/typedef).
    Declaration(Box<Item>),
    /// `expr;`
    Expr(Expr),
    /// `if (cond) then else otherwise`
    If(Box<IfStmt>),
    /// `for (init; condition; step) body`
    For(Box<ForStmt>),
    /// `while (condition) body`
    While(Box<WhileStmt>),
    /// `do body while (condition);`
    DoWhile(Box<WhileStmt>),
    /// `switch (selector) { case …: … }`
    Switch(Box<SwitchStmt>),
    /// `break;`
    Break,
    /// `continue;`
    Continue,
    /// `return;` or `return value;`
    Return(Option<Expr>),
    /// `discard;`
    Discard,
    /// `;`
    Empty,
    /// A statement that failed to parse (already diagnosed).
    Error,
}

/// The parts of `if (condition) accept else reject` ([`StmtKind::If`]).
#[derive(Clone, Debug, PartialEq)]
pub struct IfStmt {
    /// The condition.
    pub condition: Expr,
    /// Taken when true.
    pub accept: Stmt,
    /// Taken when false.
    pub reject: Option<Stmt>,
}

/// The parts of `for (init; condition; step) body` ([`StmtKind::For`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ForStmt {
    /// A declaration or expression statement, if any.
    pub init: Option<Stmt>,
    /// The loop condition, if any.
    pub condition: Option<Expr>,
    /// The step expression, if any.
    pub step: Option<Expr>,
    /// The body.
    pub body: Stmt,
}

/// The parts of `while (condition) body` and `do body while (condition);`
/// ([`StmtKind::While`], [`StmtKind::DoWhile`]).
#[derive(Clone, Debug, PartialEq)]
pub struct WhileStmt {
    /// The condition.
    pub condition: Expr,
    /// The body.
    pub body: Stmt,
}

/// The parts of `switch (selector) { … }` ([`StmtKind::Switch`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SwitchStmt {
    /// The value switched on.
    pub selector: Expr,
    /// The case groups in order.
    pub cases: Vec<SwitchCase>,
}

/// One group of `case`/`default` labels and the statements after them.
#[derive(Clone, Debug, PartialEq)]
pub struct SwitchCase {
    /// The labels, in order.
    pub labels: Vec<CaseLabel>,
    /// The statements up to the next label.
    pub body: Vec<Stmt>,
    /// Where the group is.
    pub span: Span,
}

/// `case value:` or `default:`.
#[derive(Clone, Debug, PartialEq)]
pub enum CaseLabel {
    /// `case value:`
    Case(Expr),
    /// `default:`
    Default(Span),
}

/// An expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    /// What the expression is.
    pub kind: ExprKind,
    /// Where it is.
    pub span: Span,
}

/// A literal value.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
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
    /// A string literal (adjacent literals joined), escapes resolved (boxed: strings are
    /// rare, and a [`Literal`] stays two words).
    String(Box<String>),
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
/// Every variant is at most two words, so that an [`Expr`] takes 40 bytes: a large
/// shader's syntax tree holds millions of them. The payloads of the forms with more
/// parts (binary operators, assignments, indexing, calls, casts, member accesses,
/// conditionals) are boxed into named structs, one allocation per node (both operands
/// of a binary operator in one block), and names are boxed too (a [`Path`] is larger
/// than every other form).
#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// A literal.
    Literal(Literal),
    /// A variable, constant or enumerator name.
    Name(NameExpr),
    /// A prefix or postfix operator.
    Unary {
        /// The operator.
        op: UnaryOp,
        /// Its operand.
        operand: Box<Expr>,
    },
    /// A binary operator.
    Binary(Box<BinaryExpr>),
    /// `target = value`, or a compound assignment `target op= value`.
    Assign(Box<AssignExpr>),
    /// `condition ? accept : reject`
    Conditional(Box<ConditionalExpr>),
    /// `(T)operand` or `(T[2])operand`.
    Cast(Box<CastExpr>),
    /// A call of a function by name: `f(a, b)`, `ns::f(a)`, `S(x)` for user names.
    Call(Box<CallExpr>),
    /// A built-in type used as a constructor: `float4(a, b)`, `vector<float, 2>(x, y)`.
    Constructor(Box<ConstructorExpr>),
    /// A method call: `buf.Load(0)`, `tex.Sample(s, uv)`, `buf.Load<float4>(0)`.
    MethodCall(Box<MethodCallExpr>),
    /// `base.member`: a field or a swizzle (`v.xyz`, `m._m00`).
    Member(Box<MemberExpr>),
    /// `base[index]`
    Index(Box<IndexExpr>),
    /// `{ a, b, { c, d } }`
    InitList(Box<[Expr]>),
    /// An expression that failed to parse (already diagnosed).
    Error,
}

/// A name used as an expression ([`ExprKind::Name`]).
///
/// A plain name, nearly every one, is just its spelling: where it is written is its
/// expression's span. Qualified names, and names whose expression's span is wider than
/// the name (`(x)`), keep their whole [`Path`].
#[derive(Clone, Debug, PartialEq)]
pub enum NameExpr {
    /// A plain name whose span is its expression's.
    Plain(Arc<str>),
    /// Any other name.
    Path(Box<Path>),
}

impl NameExpr {
    /// The name `path`, used as the expression at `span`.
    pub fn new(path: Path, span: Span) -> NameExpr {
        if path.is_plain() && path.last.span == span {
            NameExpr::Plain(path.last.name)
        } else {
            NameExpr::Path(Box::new(path))
        }
    }

    /// The name as a [`Path`], given the span of its expression.
    pub fn to_path(&self, span: Span) -> std::borrow::Cow<'_, Path> {
        match self {
            NameExpr::Plain(name) => std::borrow::Cow::Owned(Path::new(
                Vec::new(),
                Ident {
                    name: name.clone(),
                    span,
                },
            )),
            NameExpr::Path(path) => std::borrow::Cow::Borrowed(path),
        }
    }

    /// The name, moved to an expression whose span is no longer the name's (the `(x)` of
    /// a parenthesised name); `span` is the name's own expression's span.
    pub fn widened(self, span: Span) -> NameExpr {
        match self {
            NameExpr::Plain(name) => {
                NameExpr::Path(Box::new(Path::new(Vec::new(), Ident { name, span })))
            }
            path => path,
        }
    }

    /// The last segment's spelling (the name itself, without qualifiers).
    pub fn name(&self) -> &str {
        match self {
            NameExpr::Plain(name) => name,
            NameExpr::Path(path) => path.name(),
        }
    }
}

/// The parts of `lhs op rhs` ([`ExprKind::Binary`]).
#[derive(Clone, Debug, PartialEq)]
pub struct BinaryExpr {
    /// The operator.
    pub op: BinaryOp,
    /// The left operand.
    pub lhs: Expr,
    /// The right operand.
    pub rhs: Expr,
}

/// The parts of `target = value` or `target op= value` ([`ExprKind::Assign`]).
#[derive(Clone, Debug, PartialEq)]
pub struct AssignExpr {
    /// `None` for `=`, the operator for `+=`, `<<=`, ….
    pub op: Option<BinaryOp>,
    /// The assigned place.
    pub target: Expr,
    /// The value.
    pub value: Expr,
}

/// The parts of `base[index]` ([`ExprKind::Index`]).
#[derive(Clone, Debug, PartialEq)]
pub struct IndexExpr {
    /// The indexed value.
    pub base: Expr,
    /// The index.
    pub index: Expr,
}

/// The parts of `condition ? accept : reject` ([`ExprKind::Conditional`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ConditionalExpr {
    /// The condition.
    pub condition: Expr,
    /// The value when true.
    pub accept: Expr,
    /// The value when false.
    pub reject: Expr,
}

/// The parts of a cast `(T)operand` or `(T[2])operand` ([`ExprKind::Cast`]).
#[derive(Clone, Debug, PartialEq)]
pub struct CastExpr {
    /// The target type.
    pub ty: TypeExpr,
    /// Array dimensions written in the cast.
    pub array_dims: Box<[Option<Expr>]>,
    /// The converted value.
    pub operand: Expr,
}

/// The parts of a call by name `f(a, b)` ([`ExprKind::Call`]).
#[derive(Clone, Debug, PartialEq)]
pub struct CallExpr {
    /// The function's name.
    pub function: Path,
    /// Explicit template arguments `f<T>(…)`.
    pub template_args: Option<Vec<TemplateArg>>,
    /// The arguments (nearly always one, held in place).
    pub args: ShortList<Expr>,
}

/// The parts of a constructor call `float4(a, b)` ([`ExprKind::Constructor`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ConstructorExpr {
    /// The constructed type.
    pub ty: TypeExpr,
    /// The arguments (nearly always one, held in place).
    pub args: ShortList<Expr>,
}

/// The parts of a method call `buf.Load(0)` ([`ExprKind::MethodCall`]).
#[derive(Clone, Debug, PartialEq)]
pub struct MethodCallExpr {
    /// The object.
    pub receiver: Expr,
    /// The method's name.
    pub method: Ident,
    /// Explicit template arguments.
    pub template_args: Option<Vec<TemplateArg>>,
    /// The arguments (nearly always one, held in place).
    pub args: ShortList<Expr>,
}

/// The parts of a member access `base.member` ([`ExprKind::Member`]).
#[derive(Clone, Debug, PartialEq)]
pub struct MemberExpr {
    /// The object.
    pub base: Expr,
    /// The field or swizzle.
    pub member: Ident,
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
        assert_eq!(size_of::<NameExpr>(), 16);
        assert_eq!(size_of::<Stmt>(), 80);
        assert_eq!(size_of::<Path>(), 40);
        // A variable declaration holds its one declarator in place (most declare one
        // name): a local declaration statement is then one block, its boxed item.
        assert_eq!(size_of::<Item>(), 248);
    }
}
