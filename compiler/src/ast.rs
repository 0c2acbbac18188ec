//! The syntax tree, with byte spans into the source.

/// A byte range in the source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The span from `start` to `end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
}

/// A name and where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    /// The name.
    pub name: String,
    /// Where it stands.
    pub span: Span,
}

/// A whole file.
#[derive(Clone, Debug, Default)]
pub struct File {
    /// Declarations and queries in source order.
    pub items: Vec<Item>,
}

/// A top-level item.
#[derive(Clone, Debug)]
pub enum Item {
    /// `const N = e`
    Const(Ident, Expr),
    /// `type Line = H(...) | V(...)`
    Type(TypeDecl),
    /// `fn name(params) -> T = e`
    Fn(FnDecl),
    /// `game Name(...) { ... }` or `game Name = octal "..."`
    Game(GameDecl),
    /// `value ...`, `table ...`, `period ...`
    Query(Query),
}

/// A finite tagged union, `type Name = Variant(T, ...) | Variant | ...`, or another name for a
/// type, `type Cell = (0..R, 0..C)`.
#[derive(Clone, Debug)]
pub struct TypeDecl {
    /// The type's name.
    pub name: Ident,
    /// Its variants, in order (none for an alias written as a set, list, tuple or range).
    pub variants: Vec<VariantDecl>,
    /// The aliased type, when written as a set, list, tuple or range type. (`type A = B`
    /// parses as a union of one tag; the checker makes it an alias when `B` names a type.)
    pub alias: Option<TypeExpr>,
}

/// One variant of a tagged union: a tag and its payload types (none for a plain tag).
#[derive(Clone, Debug)]
pub struct VariantDecl {
    /// The tag.
    pub name: Ident,
    /// The payload's types.
    pub fields: Vec<TypeExpr>,
}

/// One arm of a `match`.
#[derive(Clone, Debug)]
pub struct MatchArm {
    /// The variant and the patterns its payload binds (names, or tuples of patterns), or
    /// `None` for `_`.
    pub pattern: Option<(Ident, Vec<Pattern>)>,
    /// Where the pattern stands.
    pub span: Span,
    /// The arm's value.
    pub body: Expr,
}

/// A helper function.
#[derive(Clone, Debug)]
pub struct FnDecl {
    /// Its name.
    pub name: Ident,
    /// Parameters.
    pub params: Vec<Param>,
    /// Declared result type.
    pub ret: TypeExpr,
    /// Body.
    pub body: Expr,
}

/// `name: Type`
#[derive(Clone, Debug)]
pub struct Param {
    /// The parameter's name.
    pub name: Ident,
    /// Its type.
    pub ty: TypeExpr,
}

/// A written type.
#[derive(Clone, Debug)]
pub enum TypeExpr {
    /// `nat`, `int`, `bool`, a declared `type` (or an unknown name, reported by the
    /// checker).
    Named(Ident),
    /// `lo..hi` or `lo..=hi`.
    Range {
        /// Lower bound.
        lo: Box<Expr>,
        /// Upper bound.
        hi: Box<Expr>,
        /// `..=`
        inclusive: bool,
        /// The whole type.
        span: Span,
    },
    /// `(T, U, ...)`
    Tuple(Vec<TypeExpr>, Span),
    /// `set<T>`
    Set(Box<TypeExpr>, Span),
    /// `list<T>`
    List(Box<TypeExpr>, Span),
}

impl TypeExpr {
    /// Where the type is written.
    pub fn span(&self) -> Span {
        match self {
            TypeExpr::Named(i) => i.span,
            TypeExpr::Range { span, .. }
            | TypeExpr::Tuple(_, span)
            | TypeExpr::Set(_, span)
            | TypeExpr::List(_, span) => *span,
        }
    }
}

/// A game declaration.
#[derive(Clone, Debug)]
pub struct GameDecl {
    /// The game's name.
    pub name: Ident,
    /// Its definition.
    pub body: GameBody,
}

/// How a game is defined.
#[derive(Clone, Debug)]
pub enum GameBody {
    /// Fields and moves.
    Rules {
        /// The position's fields.
        params: Vec<Param>,
        /// The move rules.
        moves: Vec<MoveDecl>,
        /// The declared symmetries.
        symmetries: Vec<SymmetryDecl>,
        /// How its positions are drawn (`draw KIND(FIELD)`), where declared.
        draws: Vec<DrawDecl>,
    },
    /// `octal "0.77"`: a take-and-break code.
    Octal(String, Span),
    /// `subtraction {1, 3, 4}`.
    Subtraction(Vec<Expr>, Span),
}

/// `symmetry name => position`: a map of a game's positions onto its own.
#[derive(Clone, Debug)]
pub struct SymmetryDecl {
    /// Its name.
    pub name: Ident,
    /// The image of a position (its fields are in scope).
    pub result: Expr,
    /// The whole declaration.
    pub span: Span,
}

/// `draw KIND(FIELD)`: how `cgdl explore` draws a game's positions.
#[derive(Clone, Debug)]
pub struct DrawDecl {
    /// `board`, `dots`, `tokens` or `text`.
    pub kind: Ident,
    /// The field drawn (none for `text`).
    pub field: Option<Ident>,
    /// The whole declaration.
    pub span: Span,
}

/// Whose move a rule is: both players' (`move`), or one player's (`left move`,
/// `right move`: a partizan game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveSide {
    /// Either player's.
    Both,
    /// Left's only.
    Left,
    /// Right's only.
    Right,
}

impl MoveSide {
    /// Whether a move of this side is an option of `side` (`None`: of an impartial game,
    /// whose every move is both players').
    pub fn belongs_to(self, side: Option<cgdl_runtime::partizan::Side>) -> bool {
        use cgdl_runtime::partizan::Side;
        matches!(
            (self, side),
            (MoveSide::Both, _)
                | (MoveSide::Left, Some(Side::Left))
                | (MoveSide::Right, Some(Side::Right))
        )
    }
}

/// `move name(clauses) where c => result`
#[derive(Clone, Debug)]
pub struct MoveDecl {
    /// Whose move it is.
    pub side: MoveSide,
    /// The move's name.
    pub name: Ident,
    /// Binders and conditions, left to right.
    pub clauses: Vec<Clause>,
    /// The optional `where` condition.
    pub guard: Option<Expr>,
    /// The resulting position expression.
    pub result: Expr,
    /// The whole rule.
    pub span: Span,
}

/// One clause of a move or a query's `for`.
#[derive(Clone, Debug)]
pub enum Clause {
    /// `pattern in domain`
    Bind(Pattern, Expr),
    /// A condition that filters.
    Cond(Expr),
    /// `let name = value` (or `let (a, b) = value`): names for the later clauses and the
    /// result.
    Let(Pattern, Expr),
}

/// A binder: a name, or a tuple of patterns (`((r1, c1), (r2, c2))`).
#[derive(Clone, Debug)]
pub struct Pattern {
    /// A name or a tuple.
    pub kind: PatternKind,
    /// The whole pattern.
    pub span: Span,
}

/// The two shapes of a pattern.
#[derive(Clone, Debug)]
pub enum PatternKind {
    /// One name, bound to the whole element.
    Name(Ident),
    /// A tuple's parts, each bound by its own pattern.
    Tuple(Vec<Pattern>),
}

/// A query.
#[derive(Clone, Debug)]
pub struct Query {
    /// Which query.
    pub kind: QueryKind,
    /// The values asked for.
    pub values: Vec<Ident>,
    /// The position expression.
    pub target: Expr,
    /// `for` binders of tables and periods.
    pub binders: Vec<(Pattern, Expr)>,
    /// The whole query.
    pub span: Span,
}

/// The three query forms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryKind {
    /// `value v of e`
    Value,
    /// `table v of e for x in D (, y in D)`
    Table,
    /// `period v of e for n in D`
    Period,
    /// `quotient of G(n) for n in D`: the misère quotient of a heap game's heaps.
    Quotient,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    /// `-`
    Neg,
    /// `not`
    Not,
}

/// Binary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum BinOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
    RangeIncl,
    RangeExcl,
    Concat,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Union,
    Inter,
}

impl BinOp {
    /// How the operator is written.
    pub fn symbol(self) -> &'static str {
        use BinOp::*;
        match self {
            Or => "or",
            And => "and",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            In => "in",
            NotIn => "not in",
            RangeIncl => "..=",
            RangeExcl => "..",
            Concat => "++",
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
            Union => "|",
            Inter => "&",
        }
    }
}

/// Quantifier kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuantKind {
    /// `exists x in D: c`
    Exists,
    /// `forall x in D: c`
    Forall,
    /// `count x in D: c`
    Count,
}

/// What a `closure(...)`-shaped expression computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClosureKind {
    /// `closure(seed, x => next)`: the least set holding `seed` and closed under `next`.
    Reach,
    /// `components(set, x => next)`: the classes of the least equivalence on `set` that
    /// relates each `x` to the elements of `next` in `set`, in the order of their least
    /// elements (a list of sets).
    Components,
}

/// An expression with its span.
#[derive(Clone, Debug)]
pub struct Expr {
    /// What it is.
    pub kind: ExprKind,
    /// Where it stands.
    pub span: Span,
}

/// Expression forms.
#[derive(Clone, Debug)]
#[allow(missing_docs)]
pub enum ExprKind {
    Int(i64),
    /// An integer literal past `i64::MAX` (an error when checked).
    IntTooLarge,
    Bool(bool),
    Name(String),
    End,
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `f(args)`: a game position, a compound, a builtin or a `fn`.
    Call(Ident, Vec<Expr>),
    /// `e.0`
    Field(Box<Expr>, usize),
    /// `xs[i]`
    Index(Box<Expr>, Box<Expr>),
    Tuple(Vec<Expr>),
    Set(Vec<Expr>),
    List(Vec<Expr>),
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    Let(Pattern, Box<Expr>, Box<Expr>),
    Quant(QuantKind, Pattern, Box<Expr>, Box<Expr>),
    /// `closure(seed, x => next)`: the least set containing `seed` closed under `next`;
    /// `components(set, x => next)`: the parts `next` connects `set` into.
    Closure(ClosureKind, Box<Expr>, Ident, Box<Expr>),
    /// `xs[lo..hi]`, either bound optional.
    Slice(Box<Expr>, Option<Box<Expr>>, Option<Box<Expr>>),
    /// `xs with [i] = v`
    With(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `{ e for p in D, q in E, c where c2 }`: the clauses of a move (a `where` is the last
    /// condition), then the element.
    Compr(Box<Expr>, Vec<Clause>),
    /// `sum(e for p in D where c)` (or another compound): the compound of one component per
    /// choice of the clauses, in their order, equal ones kept.
    CompoundCompr(Ident, Box<Expr>, Vec<Clause>),
    /// `match e { Tag(x, y) => a, Other => b, _ => c }`
    Match(Box<Expr>, Vec<MatchArm>),
}
