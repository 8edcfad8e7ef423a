//! The state of lowering one function: the IR function under construction, the
//! stack of blocks statements go into, and the local scopes; and the working storage
//! ([`FnScratch`]) that a finished function leaves for the next one.

use std::sync::Arc;

use oneshader_ir::{
    Arena, Block, Expression, Function, Handle, LocalVariable, Span, Statement, Type,
};

use super::expr::Operand;
use super::types::Ty;
use crate::lexer::Symbol;

/// A name declared inside a function.
#[derive(Clone, Copy, Debug)]
pub(crate) enum LocalSymbol {
    /// A local variable (parameters passed by value are copied into one).
    Variable {
        var: Handle<LocalVariable>,
        ty: Handle<Type>,
    },
    /// A parameter the body never assigns: its value, bound at entry.
    Value {
        expr: Handle<Expression>,
        ty: Handle<Type>,
    },
    /// An `out`/`inout` parameter: a pointer argument.
    PointerParam { index: u32, ty: Handle<Type> },
    /// A resource parameter: the global resource this specialization was passed.
    Resource {
        global: Handle<oneshader_ir::GlobalVariable>,
        ty: super::types::ResourceTy,
    },
    /// A field of `this` named without `this.` inside a member function: field
    /// `member` of the struct that argument 0 points to.
    ThisMember { member: u32, ty: Handle<Type> },
    /// A local whose declaration failed (an unknown type): uses of it report nothing
    /// more, since the declaration's error already did.
    Poisoned,
}

/// What lowering an expression gives.
#[derive(Clone, Debug)]
pub(crate) enum Value {
    /// A computed value.
    Rvalue {
        expr: Handle<Expression>,
        ty: Handle<Type>,
        /// An unsuffixed literal (or constant folded from them) whose type adapts to
        /// the other operand, as HLSL's literal int and float do.
        literal: bool,
    },
    /// A location in memory holding a value of `ty`.
    Place {
        pointer: Handle<Expression>,
        ty: Handle<Type>,
        writable: bool,
    },
    /// Components of a vector in memory: `v.zx` on a place.
    SwizzlePlace {
        pointer: Handle<Expression>,
        vector_ty: Handle<Type>,
        components: Vec<u32>,
        ty: Handle<Type>,
        writable: bool,
    },
    /// Scalars of a matrix in memory: a row `m[i]`, an element `m[i][j]` of a row
    /// selected dynamically, or a swizzle `m._m01_m10`. HLSL numbers rows first; each
    /// element here is (IR column, IR row) = (HLSL column, HLSL row).
    MatrixPlace {
        /// Pointer to the whole matrix.
        pointer: Handle<Expression>,
        /// The elements, in the order of the value's components.
        elements: Vec<(MatrixIndex, MatrixIndex)>,
        /// The scalar or vector type of the value.
        ty: Handle<Type>,
        writable: bool,
    },
    /// A texel of a texture: `texture[location]`.
    Texel {
        /// The texture (an image-typed global expression).
        image: Handle<Expression>,
        /// Integer coordinates.
        coordinate: Handle<Expression>,
        /// The layer of arrayed textures.
        array_index: Option<Handle<Expression>>,
        /// The mip level (level 0 for sampled textures; none for RWTextures).
        level: Option<Handle<Expression>>,
        /// The texture's element type.
        ty: Handle<Type>,
        /// A RWTexture texel.
        writable: bool,
    },
    /// A value in a row-packed constant buffer (see `lower::cbuffer`), read-only.
    Cbuffer(super::cbuffer::CbufferPlace),
    /// A buffer, texture or sampler resource.
    Resource {
        global: Handle<oneshader_ir::GlobalVariable>,
        ty: super::types::ResourceTy,
    },
}

/// A column or row number of a [`Value::MatrixPlace`] element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MatrixIndex {
    /// Known while lowering.
    Constant(u32),
    /// Computed; a bound expression, so it may be used more than once.
    Dynamic(Handle<Expression>),
}

/// A local symbol and the depth of the scope that declared it (0: the function's own).
type ScopedSymbol = (LocalSymbol, u32);

/// The working storage of a [`FnCtx`], emptied once its function is finished, for the
/// next function to reuse: lowering keeps one per level of nested function lowering, so
/// that every function does not grow its arenas, block buffers and scope tables again.
#[derive(Debug)]
pub(crate) struct FnScratch {
    /// The buffers of a function's arenas, empty, with their capacity: a function is
    /// built in them and copied out at its exact size when finished.
    expressions: Arena<Expression>,
    expression_types: Vec<Handle<Type>>,
    local_variables: Arena<LocalVariable>,
    /// Buffers for blocks, empty, with their capacity.
    blocks: Vec<Block>,
    /// A table by symbol with no name declared (see [`FnCtx::symbols`]).
    symbols: Vec<Option<ScopedSymbol>>,
    shadowed: Vec<(Symbol, Option<ScopedSymbol>)>,
    scope_starts: Vec<usize>,
    breakables: Vec<bool>,
}

impl Default for FnScratch {
    /// Storage for a first function, with room for the expressions, locals, statements
    /// and names of most: growing its buffers from empty, step by step, would copy
    /// them a dozen times (later functions reuse what it leaves).
    fn default() -> Self {
        let mut expressions = Arena::new();
        expressions.reserve(FnScratch::FIRST_EXPRESSIONS);
        let mut local_variables = Arena::new();
        local_variables.reserve(FnScratch::FIRST_LOCALS);
        FnScratch {
            expressions,
            expression_types: Vec::with_capacity(FnScratch::FIRST_EXPRESSIONS),
            local_variables,
            blocks: vec![Vec::with_capacity(FnScratch::FIRST_STATEMENTS)],
            symbols: Vec::new(),
            shadowed: Vec::with_capacity(FnScratch::FIRST_NAMES),
            scope_starts: Vec::new(),
            breakables: Vec::new(),
        }
    }
}

impl FnScratch {
    /// How many expressions a first function's arena has room for.
    const FIRST_EXPRESSIONS: usize = 128;
    /// How many local variables a first function's arena has room for.
    const FIRST_LOCALS: usize = 16;
    /// How many statements a first function's body has room for.
    const FIRST_STATEMENTS: usize = 16;
    /// How many local names a first function's undo log has room for.
    const FIRST_NAMES: usize = 16;
}

/// How the current function was entered, for `return` in entry points.
#[derive(Debug)]
pub(crate) struct FnCtx {
    pub function: Function,
    /// The buffers of the open blocks (statements go into the last of the first
    /// `open_blocks`), then empty buffers for blocks opened later. A finished block is
    /// copied out at its exact size and its buffer kept, so a function's blocks are
    /// built without growing a `Vec` each and need no shrinking.
    blocks: Vec<Block>,
    /// How many of `blocks` are open: at least one, the function's body.
    open_blocks: usize,
    /// Every visible local name's innermost declaration, by the index of the name's
    /// symbol (`None`, or past the end: not declared). Every entry that is not `None`
    /// has a record in `shadowed`, by which it is emptied again.
    symbols: Vec<Option<ScopedSymbol>>,
    /// What each declaration hid (`None`: the name was not visible), oldest first, so
    /// that closing a scope restores the names its declarations shadowed.
    shadowed: Vec<(Symbol, Option<ScopedSymbol>)>,
    /// Where each open nested scope starts in `shadowed`, innermost last.
    scope_starts: Vec<usize>,
    /// The symbol of `this` in the unit's spellings.
    this: Symbol,
    /// Whether `this` was declared (a member function): elsewhere every call would
    /// look it up for nothing.
    declared_this: bool,
    pub return_ty: Ty,
    /// Nesting of loops and switches, innermost last: `true` for a loop.
    pub breakables: Vec<bool>,
    temp_counter: u32,
}

impl FnCtx {
    /// A context for a function returning `return_ty`, in a unit where `this` has the
    /// symbol `this`.
    pub fn new(function: Function, return_ty: Ty, this: Symbol) -> Self {
        Self::with_scratch(function, return_ty, this, FnScratch::default())
    }

    /// [`FnCtx::new`], working in the storage `scratch` that a finished function left
    /// (for arenas `function` does not fill already).
    pub fn with_scratch(
        mut function: Function,
        return_ty: Ty,
        this: Symbol,
        scratch: FnScratch,
    ) -> Self {
        let FnScratch {
            expressions,
            expression_types,
            local_variables,
            mut blocks,
            symbols,
            shadowed,
            scope_starts,
            breakables,
        } = scratch;
        if function.expressions.is_empty() && function.expression_types.is_empty() {
            function.expressions = expressions;
            function.expression_types = expression_types;
        }
        if function.local_variables.is_empty() {
            function.local_variables = local_variables;
        }
        if blocks.is_empty() {
            blocks.push(Vec::new());
        }
        FnCtx {
            function,
            blocks,
            open_blocks: 1,
            symbols,
            shadowed,
            scope_starts,
            this,
            declared_this: false,
            return_ty,
            breakables,
            temp_counter: 0,
        }
    }

    /// Adds an expression of type `ty`; an operation on literals is added as the
    /// literal it evaluates to ([`oneshader_ir::fold`]).
    pub fn expr(
        &mut self,
        expression: Expression,
        ty: Handle<Type>,
        span: Span,
    ) -> Handle<Expression> {
        let expression = match oneshader_ir::fold::literal(&self.function, &expression) {
            Some(literal) => Expression::Literal(literal),
            None => expression,
        };
        self.function.add_expression(expression, ty, Some(span))
    }

    /// Appends a statement to the current block.
    pub fn emit(&mut self, statement: Statement) {
        if let Some(block) = self
            .open_blocks
            .checked_sub(1)
            .and_then(|current| self.blocks.get_mut(current))
        {
            block.push(statement);
        }
    }

    /// Evaluates `expr` here so later code may use it more than once.
    pub fn bind(&mut self, expr: Handle<Expression>) -> Handle<Expression> {
        self.emit(Statement::Bind(expr));
        expr
    }

    /// [`FnCtx::bind`] for an operand: its value evaluated here, its type kept.
    pub fn bind_operand(&mut self, operand: Operand) -> Operand {
        Operand {
            expr: self.bind(operand.expr),
            ..operand
        }
    }

    /// Starts collecting statements into a new nested block.
    pub fn push_block(&mut self) {
        if self.open_blocks == self.blocks.len() {
            self.blocks.push(Vec::new());
        }
        self.open_blocks += 1;
    }

    /// Ends the innermost nested block and returns its statements.
    pub fn pop_block(&mut self) -> Block {
        if self.open_blocks > 1 {
            self.open_blocks -= 1;
            self.take_block(self.open_blocks)
        } else {
            Vec::new()
        }
    }

    /// The statements of buffer `index`, in a block of their exact size; the buffer is
    /// left empty, with its capacity.
    fn take_block(&mut self, index: usize) -> Block {
        self.blocks
            .get_mut(index)
            .map_or_else(Vec::new, oneshader_ir::arena::take_exact)
    }

    /// Takes the finished function.
    pub fn finish(self) -> Function {
        self.finish_with_scratch().0
    }

    /// Takes the finished function, and the storage for the next one to work in.
    pub fn finish_with_scratch(mut self) -> (Function, FnScratch) {
        let function = &mut self.function;
        let exact = function.expressions.take_exact();
        let expressions = std::mem::replace(&mut function.expressions, exact);
        let exact = oneshader_ir::arena::take_exact(&mut function.expression_types);
        let expression_types = std::mem::replace(&mut function.expression_types, exact);
        let exact = function.local_variables.take_exact();
        let local_variables = std::mem::replace(&mut function.local_variables, exact);
        // Every block was taken out at its exact size (`take_block`), and so were the
        // arenas: nothing is left to shrink.
        self.function.body = self.take_block(0);
        for block in &mut self.blocks {
            block.clear();
        }
        // Only the declared entries are emptied: the table keeps its length.
        for &(name, _) in &self.shadowed {
            if let Some(entry) = self.symbols.get_mut(name.index()) {
                *entry = None;
            }
        }
        self.shadowed.clear();
        self.scope_starts.clear();
        self.breakables.clear();
        let scratch = FnScratch {
            expressions,
            expression_types,
            local_variables,
            blocks: self.blocks,
            symbols: self.symbols,
            shadowed: self.shadowed,
            scope_starts: self.scope_starts,
            breakables: self.breakables,
        };
        (self.function, scratch)
    }

    /// Opens a scope for declarations.
    pub fn push_scope(&mut self) {
        self.scope_starts.push(self.shadowed.len());
    }

    /// Closes the innermost scope (never the function's outermost one).
    pub fn pop_scope(&mut self) {
        let Some(start) = self.scope_starts.pop() else {
            return;
        };
        while self.shadowed.len() > start {
            let Some((name, previous)) = self.shadowed.pop() else {
                break;
            };
            if let Some(entry) = self.symbols.get_mut(name.index()) {
                *entry = previous;
            }
        }
    }

    /// Declares the name of symbol `name` in the innermost scope; `false` if it already
    /// is declared there (the new symbol replaces the old one).
    pub fn declare(&mut self, name: Symbol, symbol: LocalSymbol) -> bool {
        self.declared_this |= name == self.this;
        let depth = self.scope_starts.len() as u32;
        let index = name.index();
        if index >= self.symbols.len() {
            self.grow_symbols(index);
        }
        let Some(entry) = self.symbols.get_mut(index) else {
            return false;
        };
        let previous = match entry {
            Some((declared, declared_depth)) if *declared_depth == depth => {
                *declared = symbol;
                return false;
            }
            _ => entry.replace((symbol, depth)),
        };
        self.shadowed.push((name, previous));
        true
    }

    /// Makes room in the table of declarations for the symbol of `index`.
    #[cold]
    fn grow_symbols(&mut self, index: usize) {
        let length = (index + 1)
            .max(self.symbols.len() * 2)
            .max(Self::FIRST_SYMBOLS);
        self.symbols.resize(length, None);
    }

    /// How many symbols the table of declarations has room for when first grown.
    const FIRST_SYMBOLS: usize = 256;

    /// The innermost declaration of the name of symbol `name`.
    #[inline]
    pub fn lookup(&self, name: Symbol) -> Option<LocalSymbol> {
        match self.symbols.get(name.index()) {
            Some(&Some((symbol, _))) => Some(symbol),
            _ => None,
        }
    }

    /// The innermost declaration of `this`, if any (in a member function).
    pub fn lookup_this(&self) -> Option<LocalSymbol> {
        if self.declared_this {
            self.lookup(self.this)
        } else {
            None
        }
    }

    /// A new local variable named `name` (a name already shared, as
    /// [`FnCtx::declare_shared`] takes it).
    pub fn local(&mut self, name: Arc<str>, ty: Handle<Type>, span: Span) -> Handle<LocalVariable> {
        self.function.local_variables.append(
            LocalVariable {
                name,
                ty,
                init: None,
            },
            Some(span),
        )
    }

    /// A new compiler temporary.
    pub fn temporary(&mut self, ty: Handle<Type>, span: Span) -> Handle<LocalVariable> {
        self.temp_counter += 1;
        let name = format!("_tmp{}", self.temp_counter);
        self.local(name.into(), ty, span)
    }
}
