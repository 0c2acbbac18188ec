//! The checked IR, read by both back ends: names resolved (each with its slot and type),
//! operators resolved by type, constants folded.

use crate::ast::{ClosureKind, QuantKind, Span};
use cgdl_runtime::native::payload_message;
use cgdl_runtime::Compound;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::rc::Rc;

mod digits;
mod heap;
mod props;
mod ranges;
mod shape;
pub mod share;
mod types;
mod typing;
mod verify;

pub use digits::Digits;
pub use heap::heap_code;
pub use props::Props;
pub use ranges::{param_ranges, Evaluate, Interval, ValueRange};
pub use shape::Shape;
pub use types::*;
pub use verify::verify;
/// Operators after type resolution.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Op {
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
    Add,
    /// `nat - nat`: fails on underflow.
    NatSub,
    Sub,
    Mul,
    Div,
    Rem,
    SetUnion,
    SetInter,
    SetDiff,
    /// `set | {elem}`: the set with one element added, no set built for it (lowered by
    /// `opt/elements.rs`; the checker never makes it).
    Insert,
    /// `set - {elem}`: the set with one element removed (lowered by `opt/elements.rs`).
    Remove,
    Concat,
    /// `position + position`: a disjunctive sum.
    GameSum,
}

impl Op {
    /// Whether the operator gives a `bool`: logic, comparisons and membership.
    pub fn gives_bool(self) -> bool {
        matches!(
            self,
            Op::Or
                | Op::And
                | Op::Eq
                | Op::Ne
                | Op::Lt
                | Op::Le
                | Op::Gt
                | Op::Ge
                | Op::In
                | Op::NotIn
        )
    }

    /// Whether the operator cannot fail on operands of its types (no arithmetic, which may
    /// overflow, underflow or divide by zero, and no game sums).
    pub fn cannot_fail(self) -> bool {
        self.gives_bool() || self.is_set_algebra() || matches!(self, Op::RangeIncl | Op::RangeExcl)
    }

    /// Whether the operator builds a set from sets (or a set and an element): work that
    /// grows with the sets it reads.
    pub fn is_set_algebra(self) -> bool {
        matches!(
            self,
            Op::SetUnion | Op::SetInter | Op::SetDiff | Op::Insert | Op::Remove
        )
    }
}

/// Built-in functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Builtin {
    Min,
    Max,
    Abs,
    Len,
}

/// A local name: a game's field, a binder, a `let`, a function parameter. The interpreter
/// keeps it in frame slot `slot` (the checker gives each binding of a body a slot of its
/// own; no name is bound where another of its slot is visible); native code names it
/// after `name`, which no other name visible beside it shares (the checker forbids
/// shadowing).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Var {
    /// Its slot in the frame of its game, function or query.
    pub slot: VarId,
    /// Its name as written.
    pub name: Rc<str>,
    /// Its static type.
    pub ty: Ty,
}

/// A name's slot in the frame of its body ([`Locals`]): a game's fields, or a function's
/// parameters, first and in order, then each name the body binds.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct VarId(usize);

impl VarId {
    /// Slot `index`.
    pub const fn new(index: usize) -> VarId {
        VarId(index)
    }

    /// The slot's index in the frame.
    pub const fn index(self) -> usize {
        self.0
    }

    /// The slot `by` further on (where a body's names are taken into another's after its
    /// own: [`Locals::append`]).
    pub const fn offset(self, by: usize) -> VarId {
        VarId(self.0 + by)
    }
}

impl fmt::Debug for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl fmt::Display for VarId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The names of one body (a game's moves, a function, a query), by slot: each binding's
/// name and type. The interpreter's frame for the body has a slot for each; a pass that
/// binds a name takes a new slot with [`Locals::bind`]. The verifier checks that every name
/// in the body is its slot's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Locals(Vec<(Rc<str>, Ty)>);

impl Locals {
    /// How many slots the body has.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the body has no names.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// A new name of type `ty` in the next slot.
    pub fn bind(&mut self, name: Rc<str>, ty: Ty) -> Var {
        self.0.push((name.clone(), ty.clone()));
        Var {
            slot: VarId(self.0.len() - 1),
            name,
            ty,
        }
    }

    /// The name and type in slot `slot`.
    pub fn get(&self, slot: VarId) -> Option<(&Rc<str>, &Ty)> {
        self.0.get(slot.0).map(|(n, t)| (n, t))
    }

    /// `base`, or `base_1`, `base_2`, ...: the first that no slot is named.
    pub fn fresh_name(&self, base: &str) -> Rc<str> {
        let taken = |n: &str| self.0.iter().any(|(m, _)| &**m == n);
        (0..)
            .map(|k| match k {
                0 => base.to_string(),
                k => format!("{base}_{k}"),
            })
            .find(|n| !taken(n))
            .unwrap_or_default()
            .into()
    }

    /// Forgets the slots from `len` on (names a pass bound for a rewrite it gave up).
    pub fn truncate(&mut self, len: usize) {
        self.0.truncate(len);
    }

    /// Takes every name of `other` into new slots; returns the first (`other`'s slot `s`
    /// is the returned slot plus `s`).
    pub fn append(&mut self, other: &Locals) -> usize {
        let offset = self.0.len();
        self.0.extend(other.0.iter().cloned());
        offset
    }
}

/// A checked expression: what it is ([`IExprKind`]), where it stands in the source, and the
/// facts about it that follow from its parts ([`Props`]), computed when first asked and kept
/// on the node.
///
/// The kind is reached through [`IExpr::kind`]; a pass that changes it borrows it with
/// [`IExpr::kind_mut`], which forgets the node's facts. A node inside another is reached
/// mutably only through its parent's `kind_mut` (or [`IExpr::for_each_child_mut`], which
/// calls it), so every node above a change forgets its facts too: the facts kept are
/// always those of the expression as it is now.
#[derive(Clone)]
pub struct IExpr {
    kind: IExprKind,
    /// Where it stands in the source, for run-time errors (the default where a pass made
    /// it from nothing written).
    span: Span,
    /// Boxed: the interpreter walks the nodes, which stay small.
    props: std::cell::OnceCell<Box<Props>>,
}

impl IExpr {
    /// The node of kind `kind`.
    pub fn new(kind: IExprKind) -> IExpr {
        IExpr {
            kind,
            span: Span::default(),
            props: std::cell::OnceCell::new(),
        }
    }

    /// The node of kind `kind` claiming the facts `props`, whether or not they are its own:
    /// for the tests of [`verify`], which must find such a node. Nothing else makes one.
    #[doc(hidden)]
    pub fn claiming(kind: IExprKind, props: Props) -> IExpr {
        IExpr {
            kind,
            span: Span::default(),
            props: std::cell::OnceCell::from(Box::new(props)),
        }
    }

    /// This node, standing at `span`.
    pub fn at(mut self, span: Span) -> IExpr {
        self.span = span;
        self
    }

    /// Where it stands in the source.
    pub fn span(&self) -> Span {
        self.span
    }

    /// Where it stands, to change (not one of its facts).
    pub fn span_mut(&mut self) -> &mut Span {
        &mut self.span
    }

    /// What this expression is.
    pub fn kind(&self) -> &IExprKind {
        &self.kind
    }

    /// What this expression is, to change it: its facts are computed again when next asked.
    pub fn kind_mut(&mut self) -> &mut IExprKind {
        self.props.take();
        &mut self.kind
    }

    /// What this expression is, taken apart.
    pub fn into_kind(self) -> IExprKind {
        self.kind
    }

    /// Takes this expression apart where `f` can use its kind: `f` gives back `Ok` with
    /// what it made of it, or `Err` with the kind it was given, unchanged, and the node is
    /// then whole again, with its span and the facts it kept.
    pub fn take_apart<T>(
        self,
        f: impl FnOnce(IExprKind) -> Result<T, IExprKind>,
    ) -> Result<T, IExpr> {
        let IExpr { kind, span, props } = self;
        f(kind).map_err(|kind| IExpr { kind, span, props })
    }

    /// The operator and operands, where this is a binary operation.
    pub fn as_bin(&self) -> Option<(Op, &IExpr, &IExpr)> {
        match &self.kind {
            IExprKind::Bin { op, lhs, rhs, .. } => Some((*op, lhs, rhs)),
            _ => None,
        }
    }

    /// The name, where this is one.
    pub fn as_var(&self) -> Option<&Var> {
        match &self.kind {
            IExprKind::Var(v) => Some(v),
            _ => None,
        }
    }

    /// Whether this is a name in slot `slot`.
    pub fn is_var(&self, slot: VarId) -> bool {
        matches!(&self.kind, IExprKind::Var(v) if v.slot == slot)
    }

    /// The facts kept on this node, where they were asked for since it last changed.
    pub fn kept_props(&self) -> Option<&Props> {
        self.props.get().map(|p| &**p)
    }

    /// The facts about this expression.
    pub fn props(&self) -> &Props {
        self.props.get_or_init(|| Box::new(Props::of(&self.kind)))
    }
}

impl From<IExprKind> for IExpr {
    fn from(kind: IExprKind) -> IExpr {
        IExpr::new(kind)
    }
}

impl PartialEq for IExpr {
    fn eq(&self, other: &IExpr) -> bool {
        self.kind == other.kind && self.span == other.span
    }
}

impl std::fmt::Debug for IExpr {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.kind.fmt(f)
    }
}

/// What a checked expression is: a node and its parts.
#[derive(Clone, Debug, PartialEq)]
pub enum IExprKind {
    /// A constant value.
    Lit(Val),
    /// A finite type's name used as a value: the set of all its values (`Line`, `Cell`).
    AllOf {
        /// The type.
        ty: FieldTy,
        /// Its values, in order (a set).
        values: Val,
    },
    /// A local name.
    Var(Var),
    /// `-arg` (checked for overflow).
    Neg {
        /// The operand.
        arg: Box<IExpr>,
    },
    /// `not arg`.
    Not(Box<IExpr>),
    /// A binary operator, resolved by type.
    Bin {
        /// The operator.
        op: Op,
        /// The left operand.
        lhs: Box<IExpr>,
        /// The right operand.
        rhs: Box<IExpr>,
    },
    /// `tuple.index`.
    Field {
        /// The tuple.
        tuple: Box<IExpr>,
        /// The component, from 0.
        index: usize,
    },
    /// `list[index]`.
    Index {
        /// The list.
        list: Box<IExpr>,
        /// The index.
        index: Box<IExpr>,
    },
    /// `(a, b, ...)`.
    Tuple(Vec<IExpr>),
    /// `{a, b, ...}`.
    Set(Vec<IExpr>),
    /// `[a, b, ...]`.
    List(Vec<IExpr>),
    /// `if cond then then_ else else_`.
    If {
        /// The condition.
        cond: Box<IExpr>,
        /// The value when it holds.
        then: Box<IExpr>,
        /// The value when it does not.
        otherwise: Box<IExpr>,
    },
    /// `let var = value in body`.
    Let {
        /// The name bound.
        var: Var,
        /// Its value.
        value: Box<IExpr>,
        /// Where it is visible.
        body: Box<IExpr>,
    },
    /// `exists`/`forall`/`count` over a domain.
    Quant {
        /// Which quantifier.
        kind: QuantKind,
        /// The names bound to each element (one, or a tuple's components).
        vars: Vec<Var>,
        /// The domain.
        domain: Box<IExpr>,
        /// The condition tested for each element.
        body: Box<IExpr>,
    },
    /// `{elem for clauses}`: an element for each choice the clauses (a move's) allow.
    Compr {
        /// Each element of the result.
        elem: Box<IExpr>,
        /// Binders, conditions and `let`s, in order.
        clauses: Vec<IClause>,
    },
    /// `closure(seed, var => next)`: the least set holding `seed` and closed under `next`;
    /// `components(seed, var => next)`: the parts `next` connects `seed` into.
    Closure {
        /// Which of the two.
        kind: ClosureKind,
        /// The starting elements.
        seed: Box<IExpr>,
        /// The name bound to each element reached.
        var: Var,
        /// The elements one step from `var`.
        next: Box<IExpr>,
    },
    /// `list[lo..hi]`, either bound optional.
    Slice {
        /// The list.
        list: Box<IExpr>,
        /// The first index kept.
        lo: Option<Box<IExpr>>,
        /// The first index dropped.
        hi: Option<Box<IExpr>>,
    },
    /// `list with [index] = value`.
    With {
        /// The list.
        list: Box<IExpr>,
        /// The index replaced.
        index: Box<IExpr>,
        /// The new element.
        value: Box<IExpr>,
    },
    /// A call of helper function `func`.
    Call {
        /// Index into [`Program::fns`].
        func: usize,
        /// The arguments.
        args: Vec<IExpr>,
        /// The function's result type.
        ret: Ty,
        /// The arguments surely lie in the function's table, which holds a value at every
        /// argument of its box (`opt/checks.rs` proves it): both back ends read the value
        /// there, native code without checking the arguments.
        in_table: bool,
    },
    /// A call of a built-in function.
    Builtin {
        /// Which one.
        func: Builtin,
        /// The arguments.
        args: Vec<IExpr>,
    },
    /// A position of a game with field values.
    Pos {
        /// Index into [`Program::games`].
        game: usize,
        /// The fields' values.
        args: Vec<IExpr>,
        /// Each value surely lies in its field's type (`opt/checks.rs` proves it): native
        /// code packs them without checking.
        fits: bool,
    },
    /// `end`: the position with no moves that ends the game at once.
    End,
    /// A compound of position expressions.
    Compound {
        /// How the parts combine.
        kind: Compound,
        /// The parts.
        parts: Vec<IExpr>,
    },
    /// A compound with one component per choice of the clauses (`sum(G(x) for x in D)`),
    /// in the clauses' order; with no component it is `end`.
    CompoundOf {
        /// How the components combine.
        kind: Compound,
        /// Each component.
        elem: Box<IExpr>,
        /// The clauses.
        clauses: Vec<IClause>,
    },
    /// A value of a tagged union: the variant, and its payload.
    Variant {
        /// The variant.
        variant: Rc<VariantRef>,
        /// Its payload.
        args: Vec<IExpr>,
    },
    /// `match scrutinee { ... }` over a tagged union: an arm per variant (binding its
    /// payload), and the `_` arm for the variants without one.
    Match {
        /// The value matched.
        scrutinee: Box<IExpr>,
        /// Index into [`Program::types`].
        ty: usize,
        /// The arms naming variants.
        arms: Vec<IArm>,
        /// The `_` arm.
        default: Option<Box<IExpr>>,
    },
    /// `exists`/`count` over a finite type whose condition is `x in f(b)` (maybe `and
    /// rest`), lowered by `opt/inverse.rs` to a loop over a table built while compiling.
    Inverted(Box<Inverted>),
    /// An operation on a set of board cells that native code can do on the set's bits,
    /// lowered by `opt/cells.rs`: its value is that of the expression as written.
    Cells(Box<CellOp>),
    /// `components(s, x => f(x))` where `f` is a complete table of board cells, alone or
    /// as the parts of a sum of positions, lowered by `opt/parts.rs`: the set is divided by
    /// the table.
    Parts(Box<PartsOp>),
    /// A sum of positions whose terms a move's options take as they are, lowered by
    /// `opt/leaves.rs` from a move's result: its value is the sum.
    Leaves(Box<Leaves>),
    /// `min({elem for clauses})` or `max(...)`: the least or largest element a
    /// comprehension gives, lowered by `opt/elements.rs`; both back ends fold the elements
    /// without building the set, and fail where there is none as `min` of `{}` does.
    Extreme(Box<ExtremeOf>),
}

/// The least or largest of the elements of `{ elem for clauses }` ([`IExprKind::Extreme`]).
#[derive(Clone, Debug, PartialEq)]
pub struct ExtremeOf {
    /// `max` rather than `min`.
    pub largest: bool,
    /// Each element.
    pub elem: IExpr,
    /// The clauses, in order.
    pub clauses: Vec<IClause>,
}

/// The terms of an [`IExprKind::Leaves`]: each a position expression ([`IExprKind::Pos`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Leaves {
    /// `a + b`.
    Pair {
        /// The first term.
        a: IExpr,
        /// The second term.
        b: IExpr,
        /// Where the `+` stands, for run-time errors.
        span: Span,
    },
    /// `sum(elem for clauses)`: a term per choice of the clauses, in their order (none:
    /// `end`).
    Each {
        /// Each term.
        elem: IExpr,
        /// The clauses.
        clauses: Vec<IClause>,
    },
}

/// The parts of a set of board cells by a table of the cells each cell steps to, with the
/// expression as written: both back ends divide the set by the table (a step joins two
/// cells either way, as `components` does), and run the step as written at a cell the
/// table does not hold.
#[derive(Clone, Debug, PartialEq)]
pub struct PartsOp {
    /// What is divided, and what becomes of the parts.
    pub kind: PartsKind,
    /// The step's table.
    pub steps: Rc<CellSteps>,
    /// The expression as written: for [`PartsKind::Sets`] the `components` closure, for
    /// [`PartsKind::Sum`] the sum, whose one binder ranges over a [`PartsKind::Sets`].
    pub written: IExpr,
}

impl PartsOp {
    /// The `components(seed, var => next)` this divides by: the set divided, the name of
    /// an element and the step from it.
    pub fn closure(&self) -> (&IExpr, &Var, &IExpr) {
        let closure = match (&self.kind, self.written.kind()) {
            (PartsKind::Sets, _) => &self.written,
            (PartsKind::Sum { .. }, IExprKind::CompoundOf { clauses, .. }) => {
                match clauses.as_slice() {
                    [IClause::Bind(_, parts)] => match parts.kind() {
                        IExprKind::Parts(inner) => &inner.written,
                        _ => unreachable!("the sum of parts binds one name to the parts"),
                    },
                    _ => unreachable!("the sum of parts binds one name to the parts"),
                }
            }
            _ => unreachable!("the sum of parts is a sum"),
        };
        let IExprKind::Closure {
            seed, var, next, ..
        } = closure.kind()
        else {
            unreachable!("the parts of a set are a `components` closure")
        };
        (seed, var, next)
    }
}

/// What a [`PartsOp`] makes of the parts of a set of cells.
#[derive(Clone, Debug, PartialEq)]
pub enum PartsKind {
    /// The list of parts (`components(...)` itself).
    Sets,
    /// `sum(G(arg) for part in components(...))`, `G` a game whose one field is a set of
    /// the elements `board` ranks (a board's cells, a range's numbers): where the set
    /// divided lies among them, each part goes to the sum by the table `joined`.
    Sum {
        /// `G`.
        game: usize,
        /// The name bound to each part.
        part: Var,
        /// The field is the part itself (`G(part)`), not computed from it.
        direct: bool,
        /// The field is the part moved to the corner by a helper that does only that
        /// (`G(shift(part))`, `crate::opt::translations::corner_fn`; the board's first cell
        /// is `(0, 0)`): a part is never empty, so native code moves its bits.
        corner: bool,
        /// The elements of `G`'s field: a board's cells or a range's numbers.
        board: Ranked,
        /// For each element by rank (a board's cells row by row), the ranks of the elements
        /// a step joins it to, from it or into it.
        joined: Rc<[u128]>,
    },
}

/// A function's table from board cells to sets of board cells (pairs of numbers in
/// `0..16`).
#[derive(Clone, Debug, PartialEq)]
pub struct CellSteps {
    /// The function.
    pub func: usize,
    /// Each cell the function is tabulated at (in order), with the cells it gives.
    pub by_cell: BTreeMap<Val, Rc<BTreeSet<Val>>>,
}

/// An operation on a set of board cells (pairs of natural numbers, code `16 r + c`) named by
/// a variable, with the expression as written: the interpreter evaluates that, native code
/// reads the set's bits where the set is bits and the operation is defined on them, else
/// runs it too.
#[derive(Clone, Debug, PartialEq)]
pub struct CellOp {
    /// The set of cells.
    pub set: Var,
    /// What is done to it.
    pub kind: CellOpKind,
    /// The expression as written: for [`CellOpKind::Moved`] and [`CellOpKind::Mapped`]
    /// the comprehension, for [`CellOpKind::Extreme`] the `min` or `max` of a
    /// comprehension.
    pub written: IExpr,
}

/// What a [`CellOp`] does.
#[derive(Clone, Debug, PartialEq)]
pub enum CellOpKind {
    /// `{ (x.0 - r, x.1 - c) for x in set }`: each cell moved down by the amounts (each a
    /// name or a constant; 0 for a part left as it is).
    Moved {
        /// The amounts of the two parts.
        by: Box<[IExpr; 2]>,
    },
    /// `{ (f0(x.i), f1(x.j)) for x in set }` with `(i, j)` the parts `(0, 1)` or, where
    /// `swapped`, `(1, 0)`, and each `f` the part as it is or `k - ` it (`k` a name or a
    /// constant): a mirror, a transpose or a turn of the board.
    Mapped {
        /// The parts exchanged.
        swapped: bool,
        /// Each output part's `k`, where it is subtracted from one.
        flips: Box<[Option<IExpr>; 2]>,
    },
    /// `min({ x.i for x in set })` (or `max`): the least (largest) of one part.
    Extreme {
        /// Which part.
        part: usize,
        /// `max` rather than `min`.
        largest: bool,
    },
}

/// An inverted quantifier: `kind var in domain: looked_for in f(var) and rest`, where `f`
/// was evaluated at every value of `domain` while compiling. Its value, first witness and
/// errors are those of the quantifier it replaced (see `opt/inverse.rs`).
#[derive(Clone, Debug, PartialEq)]
pub struct Inverted {
    /// `exists` or `count` (never `forall`).
    pub kind: QuantKind,
    /// The name bound to each value of the domain.
    pub var: Var,
    /// The domain: a finite type, whose values `var` takes in order.
    pub domain: FieldTy,
    /// `x`, the element looked for (it does not read `var`).
    pub looked_for: IExpr,
    /// The element type of `f`'s sets.
    pub elem: FieldTy,
    /// The rest of the condition, tested only where `looked_for in f(var)` holds.
    pub rest: Option<IExpr>,
    /// For each value of `elem`, the values of `domain` whose set holds it.
    pub table: Rc<InverseTable>,
}

/// The table of an [`Inverted`] quantifier.
#[derive(Clone)]
pub struct InverseTable {
    /// The function inverted, an index into [`Program::fns`] (the table is a function of it
    /// and the domain, so two quantifiers over the same both have the same table).
    pub func: usize,
    /// The domain's values, in order.
    pub domain_values: Vec<Val>,
    /// The rank of each value of the element type.
    pub elem_rank: std::collections::BTreeMap<Val, usize>,
    /// For each element, by rank, the ranks of the domain's values whose set holds it, in
    /// increasing order.
    pub rows: Vec<Vec<u32>>,
}

impl PartialEq for InverseTable {
    /// The same function over the same domain (which [`Inverted`] compares beside it) has
    /// the same table.
    fn eq(&self, other: &Self) -> bool {
        self.func == other.func && self.domain_values == other.domain_values
    }
}

impl std::fmt::Debug for InverseTable {
    /// The function it inverts only: the table follows from it and the domain (shown by
    /// [`Inverted`] beside it), and the sharing pass compares expressions by their debug
    /// text.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "InverseTable(fn {})", self.func)
    }
}

/// The names a node itself binds, each given to `$f` (`$iter`: `iter`, or `iter_mut` and
/// `mut`).
macro_rules! own_binds {
    ($e:expr, $f:ident, $iter:ident $(, $m:tt)?) => {
        match $e {
            IExprKind::Let { var, .. } | IExprKind::Closure { var, .. } => $f(var),
            IExprKind::Quant { vars, .. } => vars.$iter().for_each($f),
            IExprKind::Compr { clauses, .. } | IExprKind::CompoundOf { clauses, .. } => {
                clauses.$iter().for_each(|c| own_binds!(clause c, $f, $iter))
            }
            IExprKind::Match { arms, .. } => arms.$iter().flat_map(|a| a.vars.$iter()).for_each($f),
            IExprKind::Inverted(q) => $f(&$($m)? q.var),
            IExprKind::Leaves(leaves) => match &$($m)? **leaves {
                Leaves::Each { clauses, .. } => {
                    clauses.$iter().for_each(|c| own_binds!(clause c, $f, $iter))
                }
                Leaves::Pair { .. } => {}
            },
            IExprKind::Extreme(x) => x.clauses.$iter().for_each(|c| own_binds!(clause c, $f, $iter)),
            _ => {}
        }
    };
    (clause $c:expr, $f:ident, $iter:ident) => {
        match $c {
            IClause::Bind(vars, _) => vars.$iter().for_each(&mut *$f),
            IClause::Cond(_) => {}
            IClause::Let(var, _) => $f(var),
        }
    };
}

/// The expressions directly inside `$e` (an `IExpr`, borrowed or mutably borrowed), each
/// given to `$f`, lists taken with `$iter` (`iter`, or `iter_mut` with `mut`): the one
/// listing of an expression's children that both visitors use.
macro_rules! children {
    ($e:expr, $f:ident, $iter:ident $(, $m:tt)?) => {
        match $e {
            IExprKind::Lit(_) | IExprKind::AllOf { .. } | IExprKind::End | IExprKind::Var(_) => {}
            IExprKind::Neg { arg: x, .. } | IExprKind::Not(x) | IExprKind::Field { tuple: x, .. } => $f(x),
            IExprKind::Bin { lhs, rhs, .. } => {
                $f(lhs);
                $f(rhs);
            }
            IExprKind::Index { list, index, .. } => {
                $f(list);
                $f(index);
            }
            IExprKind::Tuple(es) | IExprKind::Set(es) | IExprKind::List(es) => es.$iter().for_each($f),
            IExprKind::Call { args, .. }
            | IExprKind::Builtin { args, .. }
            | IExprKind::Pos { args, .. }
            | IExprKind::Variant { args, .. } => args.$iter().for_each($f),
            IExprKind::Compound { parts, .. } => parts.$iter().for_each($f),
            IExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                $f(cond);
                $f(then);
                $f(otherwise);
            }
            IExprKind::Let { value, body, .. } => {
                $f(value);
                $f(body);
            }
            IExprKind::Quant { domain, body, .. } => {
                $f(domain);
                $f(body);
            }
            IExprKind::Compr { elem, clauses } | IExprKind::CompoundOf { elem, clauses, .. } => {
                for c in clauses.$iter() {
                    match c {
                        IClause::Bind(_, x) | IClause::Cond(x) | IClause::Let(_, x) => $f(x),
                    }
                }
                $f(elem);
            }
            IExprKind::Closure { seed, next, .. } => {
                $f(seed);
                $f(next);
            }
            IExprKind::Slice { list, lo, hi, .. } => {
                $f(list);
                for b in [lo, hi].into_iter().flatten() {
                    $f(b);
                }
            }
            IExprKind::With {
                list, index, value, ..
            } => {
                $f(list);
                $f(index);
                $f(value);
            }
            IExprKind::Match {
                scrutinee,
                arms,
                default,
                ..
            } => {
                $f(scrutinee);
                for arm in arms.$iter() {
                    $f(&$($m)? arm.body);
                }
                if let Some(d) = default {
                    $f(d);
                }
            }
            IExprKind::Inverted(q) => {
                $f(&$($m)? q.looked_for);
                if let Some(rest) = &$($m)? q.rest {
                    $f(rest);
                }
            }
            IExprKind::Cells(op) => $f(&$($m)? op.written),
            IExprKind::Parts(op) => $f(&$($m)? op.written),
            IExprKind::Leaves(leaves) => match &$($m)? **leaves {
                Leaves::Pair { a, b, .. } => {
                    $f(a);
                    $f(b);
                }
                Leaves::Each { elem, clauses } => {
                    for c in clauses.$iter() {
                        match c {
                            IClause::Bind(_, x) | IClause::Cond(x) | IClause::Let(_, x) => $f(x),
                        }
                    }
                    $f(elem);
                }
            },
            IExprKind::Extreme(x) => {
                for c in x.clauses.$iter() {
                    match c {
                        IClause::Bind(_, x) | IClause::Cond(x) | IClause::Let(_, x) => $f(x),
                    }
                }
                $f(&$($m)? x.elem);
            }
        }
    };
}

impl IExprKind {
    /// Calls `f` on each expression directly inside this one (a clause's expressions
    /// included), in the order they are evaluated where that is fixed.
    pub fn for_each_child<'a>(&'a self, f: &mut dyn FnMut(&'a IExpr)) {
        children!(self, f, iter);
    }

    /// Calls `f` on each expression directly inside this one, mutably, as
    /// [`IExprKind::for_each_child`] visits them.
    pub fn for_each_child_mut<'a>(&'a mut self, f: &mut dyn FnMut(&'a mut IExpr)) {
        children!(self, f, iter_mut, mut);
    }
}

impl IExpr {
    /// Whether this expression reads one of `vars` (the same name in the same slot).
    pub fn reads_any(&self, vars: &[Var]) -> bool {
        let reads = &self.props().reads;
        (vars.iter()).any(|v| reads.binary_search(&(v.slot, v.name.clone())).is_ok())
    }

    /// Calls `f` on every name this expression reads (not the names it binds).
    pub fn for_each_read(&self, f: &mut dyn FnMut(&Var)) {
        self.walk_vars(&mut |v, read| {
            if read {
                f(v)
            }
        });
    }

    /// Calls `f` on every name this expression binds (not the names it only reads).
    pub fn for_each_bind(&self, f: &mut dyn FnMut(&Var)) {
        self.walk_vars(&mut |v, read| {
            if !read {
                f(v)
            }
        });
    }

    /// Calls `f` on every name this expression binds or reads, outermost first.
    pub fn for_each_var(&self, f: &mut dyn FnMut(&Var)) {
        self.walk_vars(&mut |v, _| f(v));
    }

    /// Calls `f` on each expression directly inside this one (a clause's expressions
    /// included), in the order they are evaluated where that is fixed.
    pub fn for_each_child<'a>(&'a self, f: &mut dyn FnMut(&'a IExpr)) {
        self.kind.for_each_child(f)
    }

    /// Calls `f` on each expression directly inside this one, mutably (a clause's
    /// expressions included), as [`IExpr::for_each_child`] visits them.
    pub fn for_each_child_mut<'a>(&'a mut self, f: &mut dyn FnMut(&'a mut IExpr)) {
        self.kind_mut().for_each_child_mut(f)
    }

    /// Rewrites every node of this expression with `f`, each node's parts before it: `f`
    /// sees a node whose parts it has already rewritten (the one fold of the passes).
    pub fn rewrite_up(&mut self, f: &mut dyn FnMut(&mut IExpr)) {
        self.for_each_child_mut(&mut |c| c.rewrite_up(f));
        f(self);
    }

    /// Calls `f` on every node of this expression, mutably, each node before its parts
    /// (for changes to a node's own data, such as the names it binds or its span).
    pub fn for_each_node_mut(&mut self, f: &mut dyn FnMut(&mut IExpr)) {
        f(self);
        self.for_each_child_mut(&mut |c| c.for_each_node_mut(f));
    }

    /// Calls `f` on each name this expression itself binds (not those of the expressions
    /// inside it): a `let`'s, a quantifier's, a closure's, a match arm's, a comprehension's
    /// clauses'.
    pub fn for_each_own_bind(&self, f: &mut dyn FnMut(&Var)) {
        own_binds!(self.kind(), f, iter);
    }

    /// Calls `f` on each name this expression itself binds, mutably, as
    /// [`IExpr::for_each_own_bind`] visits them (the node forgets its facts).
    pub fn for_each_own_bind_mut(&mut self, f: &mut dyn FnMut(&mut Var)) {
        own_binds!(self.kind_mut(), f, iter_mut, mut);
    }

    /// Calls `f` on every name this expression binds (`false`) or reads (`true`), each
    /// node's own binders before what is inside it.
    fn walk_vars(&self, f: &mut dyn FnMut(&Var, bool)) {
        match self.kind() {
            IExprKind::Var(v) => f(v, true),
            _ => self.for_each_own_bind(&mut |v| f(v, false)),
        }
        self.for_each_child(&mut |c| c.walk_vars(f));
    }

    /// Calls `f` on every name this expression binds (`false`) or reads (`true`), mutably,
    /// in the order the immutable walk visits them (each node's own binders before what is
    /// inside it): for renaming names.
    pub fn for_each_var_mut(&mut self, f: &mut dyn FnMut(&mut Var, bool)) {
        self.for_each_node_mut(&mut |e| match e.kind_mut() {
            IExprKind::Var(v) => f(v, true),
            _ => e.for_each_own_bind_mut(&mut |v| f(v, false)),
        });
    }

    /// `lhs op rhs`.
    pub fn bin(op: Op, lhs: IExpr, rhs: IExpr, span: Span) -> IExpr {
        IExpr::from(IExprKind::Bin {
            op,
            lhs: Box::new(lhs),
            rhs: Box::new(rhs),
        })
        .at(span)
    }
}

/// A variant as an expression builds it: enough to check and build a value without the
/// program at hand (constants are evaluated while checking).
#[derive(Clone, Debug, PartialEq)]
pub struct VariantRef {
    /// The type.
    pub ty: UnionRef,
    /// The variant's index in its type.
    pub variant: usize,
    /// The tag.
    pub name: Rc<str>,
    /// The payload's types.
    pub fields: Vec<FieldTy>,
}

impl VariantRef {
    /// The value with this tag and `payload`, or why a payload value is outside its type.
    pub fn build(&self, payload: Vec<Val>) -> Result<Val, String> {
        for (i, (t, v)) in self.fields.iter().zip(&payload).enumerate() {
            if !t.admits(v) {
                let shown = v.to_string();
                let message = payload_message(i + 1, &self.name, &t.to_string(), &shown);
                return Err(message);
            }
        }
        Ok(Val::Tag(Rc::new(Tagged {
            ty: self.ty.id,
            variant: self.variant,
            fields: payload,
            name: self.name.clone(),
            union: self.ty.name.clone(),
        })))
    }
}

/// One arm of a checked `match`.
#[derive(Clone, Debug, PartialEq)]
pub struct IArm {
    /// The variant it matches.
    pub variant: usize,
    /// The names its payload binds.
    pub vars: Vec<Var>,
    /// Its value.
    pub body: IExpr,
}

/// A helper function.
#[derive(Clone, Debug)]
pub struct Function {
    /// Its name.
    pub name: String,
    /// Its parameters' names (in slots 0..) and declared types.
    pub params: Vec<(Rc<str>, FieldTy)>,
    /// Declared result type.
    pub ret: FieldTy,
    /// Its names by slot: its parameters, then each name its body binds.
    pub locals: Locals,
    /// Body.
    pub body: IExpr,
    /// Its values over a box of arguments, computed while compiling (`opt/tables.rs`):
    /// both back ends answer a call from it where its arguments lie in the box.
    pub table: Option<FnTable>,
}

/// A function's values at every argument of a box (`opt/tables.rs`).
#[derive(Clone)]
pub struct FnTable {
    /// The parameters' types the box spans: finite types, an integer parameter narrowed to
    /// the range its calls give it.
    pub types: Vec<FieldTy>,
    /// The value at each argument of the box, in rank order (`None` where it fails).
    pub values: Rc<[Option<Val>]>,
    /// The same by argument, where the function succeeds.
    pub by_args: Rc<rustc_hash::FxHashMap<Vec<Val>, Val>>,
}

impl FnTable {
    /// Whether the function succeeds at every argument of the box, with a value of its
    /// result type `ret`: a call whose arguments lie in the box then reads its value here.
    pub fn complete(&self, ret: &FieldTy) -> bool {
        (self.values.iter()).all(|v| v.as_ref().is_some_and(|v| ret.admits(v)))
    }
}

impl std::fmt::Debug for FnTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "FnTable({:?}, {} values)", self.types, self.values.len())
    }
}

/// A field of a game.
#[derive(Clone, Debug)]
pub struct Field {
    /// Its name.
    pub name: String,
    /// Its declared type.
    pub ty: FieldTy,
}

/// A game's `draw` declaration, checked: what its positions are drawn as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draw {
    /// The kind of picture.
    pub kind: DrawKind,
    /// The field drawn (its index), for every kind but `text`.
    pub field: Option<usize>,
}

/// The pictures `draw` declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawKind {
    /// A set of cells `(r, c)` of range types, as a board.
    Board,
    /// A set of lines `H(r, c)` and `V(r, c)` of a tagged type, as dots and boxes.
    Dots,
    /// A number, as a row of tokens.
    Tokens,
    /// The position's text.
    Text,
}

impl DrawKind {
    /// Every kind, by its name in the language.
    pub const NAMES: [(&'static str, DrawKind); 4] = [
        ("board", DrawKind::Board),
        ("dots", DrawKind::Dots),
        ("tokens", DrawKind::Tokens),
        ("text", DrawKind::Text),
    ];
}

/// One clause of a move.
#[derive(Clone, Debug, PartialEq)]
pub enum IClause {
    /// Bind the names (one, or a tuple's) to each element of the domain.
    Bind(Vec<Var>, IExpr),
    /// Keep going only when true.
    Cond(IExpr),
    /// Bind the name to the value.
    Let(Var, IExpr),
}

impl IClause {
    /// The clause's expression: a binder's domain, a condition, a `let`'s value.
    pub fn expr(&self) -> &IExpr {
        match self {
            IClause::Bind(_, e) | IClause::Cond(e) | IClause::Let(_, e) => e,
        }
    }

    /// Calls `f` on every name this clause reads.
    pub fn for_each_read(&self, f: &mut dyn FnMut(&Var)) {
        self.walk_vars(&mut |v, read| {
            if read {
                f(v)
            }
        });
    }

    /// Calls `f` on every name this clause binds or reads.
    pub fn for_each_var(&self, f: &mut dyn FnMut(&Var)) {
        self.walk_vars(&mut |v, _| f(v));
    }

    /// Calls `f` on each name this clause binds (a binder's names, a `let`'s name).
    pub fn for_each_own_bind(&self, f: &mut dyn FnMut(&Var)) {
        own_binds!(clause self, f, iter)
    }

    /// Calls `f` on every name this clause binds (`false`) or reads (`true`).
    fn walk_vars(&self, f: &mut dyn FnMut(&Var, bool)) {
        self.for_each_own_bind(&mut |v| f(v, false));
        self.expr().walk_vars(f);
    }
}

impl Move {
    /// Calls `f` on each clause's expression (a binder's domain, a condition, a `let`'s
    /// value), in order, then on the result.
    pub fn for_each_expr_mut(&mut self, f: &mut dyn FnMut(&mut IExpr)) {
        for c in &mut self.clauses {
            let (IClause::Bind(_, x) | IClause::Cond(x) | IClause::Let(_, x)) = c;
            f(x);
        }
        f(&mut self.result);
    }

    /// Calls `f` on every name this move reads.
    pub fn for_each_read(&self, f: &mut dyn FnMut(&Var)) {
        for c in &self.clauses {
            c.for_each_read(f);
        }
        self.result.for_each_read(f);
    }

    /// Calls `f` on every name this move binds or reads.
    pub fn for_each_var(&self, f: &mut dyn FnMut(&Var)) {
        for c in &self.clauses {
            c.for_each_var(f);
        }
        self.result.for_each_var(f);
    }
}

/// A move rule.
#[derive(Clone, Debug)]
pub struct Move {
    /// Whose move it is (a partizan game has `Left` or `Right` moves).
    pub side: crate::ast::MoveSide,
    /// Its name.
    pub name: String,
    /// Binders and conditions, in order (a `where` guard is the last condition).
    pub clauses: Vec<IClause>,
    /// The resulting position expression.
    pub result: IExpr,
}

/// A move as a game's Grundy kernel reads it ([`Game::kernel_moves`]): its clauses, and its
/// result with each leaf a position of the game itself, a sum of two, or `end`.
#[derive(Clone, Debug)]
pub struct KernelMove {
    /// The move's clauses.
    pub clauses: Vec<IClause>,
    /// Its result.
    pub result: KernelResult,
}

/// A move's result in a Grundy kernel: options of the game itself, whose values the kernel
/// reads from its table where they are earlier positions.
#[derive(Clone, Debug)]
pub enum KernelResult {
    /// `end`: the value 0.
    End,
    /// A position of the game: its fields.
    Position(Vec<IExpr>),
    /// The sum of two positions of the game: each one's fields.
    Sum(Vec<IExpr>, Vec<IExpr>),
    /// `if cond then .. else ..`.
    If {
        /// The test.
        cond: IExpr,
        /// Where it holds.
        then: Box<KernelResult>,
        /// Where it does not.
        otherwise: Box<KernelResult>,
    },
    /// `let var = value in body`.
    Let {
        /// The name bound.
        var: Var,
        /// Its value.
        value: IExpr,
        /// The result.
        body: Box<KernelResult>,
    },
}

impl KernelResult {
    /// Calls `f` on each expression of this result: tests, `let` values and the fields of
    /// its positions, in order.
    pub fn for_each_expr_mut(&mut self, f: &mut dyn FnMut(&mut IExpr)) {
        match self {
            KernelResult::End => {}
            KernelResult::Position(fields) => fields.iter_mut().for_each(f),
            KernelResult::Sum(a, b) => a.iter_mut().chain(b).for_each(f),
            KernelResult::If {
                cond,
                then,
                otherwise,
            } => {
                f(cond);
                then.for_each_expr_mut(f);
                otherwise.for_each_expr_mut(f);
            }
            KernelResult::Let { value, body, .. } => {
                f(value);
                body.for_each_expr_mut(f);
            }
        }
    }
}

/// A declared symmetry of a game.
#[derive(Clone, Debug)]
pub struct Symmetry {
    /// Its name.
    pub name: String,
    /// The image of a position: a position of the same game.
    pub result: IExpr,
    /// Whether the compiler proved the map a symmetry of the game. Both back ends keep
    /// positions as least images under proven maps as they are; under the others only
    /// with the solver's check of each orbit (the runtime's `Rules::checked_symmetries`).
    pub proven: bool,
    /// How the compiler proved it, or why it could not (for `cgdl check`); empty before
    /// the symmetry pass.
    pub note: String,
}

/// A game's declared symmetries as tables ([`Game::symmetry_tables`]). The fields the maps
/// read or compute besides their sets (ranges or `bool`s with few values) make the
/// *context*: each choice of their values, ranked with the first field the most
/// significant. In each context a map that keeps each field, rebuilds a set field element
/// by element (`{ f(x) for x in s }`) or computes a context field is the image of each
/// element a set field may hold and a new context.
#[derive(Clone, Debug)]
pub struct SymmetryTables {
    /// The context's fields, each with its values in order.
    pub context: Vec<ContextField>,
    /// Each declared map, where it is of that form and applies in some context.
    pub maps: Vec<Option<SymmetryTable>>,
}

/// A field of a game's *context* (the fields with few values that its symmetries read
/// besides its sets) with its values in order: each choice of the context fields' values is
/// a context, ranked with the first field the most significant ([`Contexts`]).
pub type ContextField = (usize, Vec<Val>);

/// The contexts of a list of context fields, by rank.
pub trait Contexts {
    /// How many contexts there are.
    fn count(&self) -> usize;
    /// The context fields' values of context `rank`.
    fn choice(&self, rank: usize) -> Vec<Val>;
    /// The rank of a choice of the context fields' values, when they are theirs.
    fn rank_of(&self, choice: &[Val]) -> Option<usize>;
    /// The rank of the context of a position with `fields`, when its context fields hold
    /// their values.
    fn rank_in(&self, fields: &[Val]) -> Option<usize>;
}

impl Contexts for [ContextField] {
    fn count(&self) -> usize {
        self.iter().map(|(_, values)| values.len()).product()
    }

    fn choice(&self, mut rank: usize) -> Vec<Val> {
        let mut out = Vec::with_capacity(self.len());
        for (_, values) in self.iter().rev() {
            out.push(values[rank % values.len()].clone());
            rank /= values.len();
        }
        out.reverse();
        out
    }

    fn rank_of(&self, choice: &[Val]) -> Option<usize> {
        let mut rank = 0;
        for ((_, values), v) in self.iter().zip(choice) {
            rank = rank * values.len() + values.iter().position(|w| w == v)?;
        }
        Some(rank)
    }

    fn rank_in(&self, fields: &[Val]) -> Option<usize> {
        let choice = (self.iter())
            .map(|(f, _)| fields.get(*f).cloned())
            .collect::<Option<Vec<Val>>>()?;
        self.rank_of(&choice)
    }
}

/// One declared map in every context ([`SymmetryTables`]).
#[derive(Clone, Debug, PartialEq)]
pub struct SymmetryTable {
    /// By context rank: `None` where the map does not apply (a computed field fails or
    /// leaves its values); else the image's context and, for each field, the images of the
    /// elements a set field may hold (`None` for a field kept or in the context).
    pub entries: Vec<Option<(usize, Vec<Option<ElementImages>>)>>,
}

/// A set field's map element by element: for each element the field may hold (its type's
/// values, or those its elements are found to take), the image (`None` where the map fails
/// at it or leaves the element type: it applies only to sets without that element).
pub type ElementImages = Rc<BTreeMap<Val, Option<Val>>>;

/// How a game's options are produced.
#[derive(Clone, Debug)]
pub enum GameKind {
    /// Explicit move rules.
    Rules(Vec<Move>),
    /// A take-and-break code: digit k (k = 0..) as a bitmask of 1, 2, 4.
    Octal(Vec<u8>),
    /// A subtraction set.
    Subtraction(Vec<i64>),
}

/// A game.
#[derive(Clone, Debug)]
pub struct Game {
    /// Its name.
    pub name: String,
    /// Its fields (slots 0..fields.len() in its moves).
    pub fields: Vec<Field>,
    /// Its names by slot: its fields, then each name its moves (and the moves passes
    /// derive from them) bind.
    pub locals: Locals,
    /// Its moves.
    pub kind: GameKind,
    /// Whether some move belongs to one player only: its values are canonical forms.
    pub partizan: bool,
    /// The declared symmetries: maps of its positions onto its own (fields in slots
    /// 0..fields.len()).
    pub symmetries: Vec<Symmetry>,
    /// Its take-and-break code when it is a heap game: an octal code's digits, or the code
    /// its rules state ([`heap_code`]). Set once by the checker; every back end reads it.
    pub heap_code: Option<Vec<u8>>,
    /// The symmetries the compiler found in its rules and proved, with the declared maps it
    /// proved (`crate::opt::symmetry`): both back ends keep positions as least images under
    /// them (and the maps left in `symmetries`, checked, over those images). `None` where
    /// there are none, or where a declared map element by element that was not proven does
    /// not commute with them (the declared maps are then used alone).
    pub found: Option<FoundSymmetries>,
    /// Declared maps that the compiler proved and found among its own symmetries
    /// (`found`), each with how it was proven: taken out of `symmetries`, since the solver
    /// keeps positions under `found`, which holds them (for `cgdl check`).
    pub held_by_found: Vec<(String, String)>,
    /// Its declared symmetries as tables of its fields' values, computed while compiling
    /// (`crate::opt::images`), where some map keeps each field, rebuilds a set field
    /// element by element or computes a field with few values.
    pub symmetry_tables: Option<SymmetryTables>,
    /// Where the game is proven to have the same values wherever its position lies on its
    /// board (`crate::opt::translations`).
    pub translation: Option<crate::opt::translations::Translation>,
    /// For each field, where it is a set whose element type has too many values to pack
    /// as bits: the values its elements are found to take (`crate::opt::domains`), at
    /// most 128. Native code keeps the field as bits of their indices in this list.
    pub domains: Vec<Option<Rc<[Val]>>>,
    /// "Some move of this game is to `end`" as one condition over its fields, where it is
    /// exact and cheap (`crate::opt::probe`): the runtime's `Rules::ends_now`.
    pub end_probe: Option<IExpr>,
    /// Where it has an end probe: its moves with every `if` that chooses between `end` and
    /// another result replaced by the other (`crate::opt::open`), the moves of a position
    /// whose probe said no move is to `end`: the runtime's `Rules::options_open`.
    pub open_moves: Option<Vec<Move>>,
    /// Where every move's result is `end`, a position of the game itself or a sum of two
    /// (under `if`s and `let`s): its moves as a bottom-up Grundy kernel reads them
    /// (`crate::opt::kernel`).
    pub kernel_moves: Option<Vec<KernelMove>>,
    /// How `cgdl explore` draws its positions, where the game declares it (`draw`).
    pub draw: Option<Draw>,
    /// Whether the compiler found that the game is the sum of its set's parts and rewrote
    /// its moves' results so (`crate::opt::splits`): output joins an option's parts back
    /// into one position, and `cgdl check` says so.
    pub split: bool,
    /// Where the compiler made this game to solve another on its set's complement
    /// (`crate::opt::complement`): that game, whose positions this one's are written as.
    pub complement_of: Option<Complement>,
}

/// The game a game made by `crate::opt::complement` stands for: its position `G'(s)` is
/// the written game's `G(all - s)`.
#[derive(Clone, Debug)]
pub struct Complement {
    /// The game as written.
    pub game: usize,
    /// Every value of the set's element type, as a set.
    pub all: Val,
}

/// A game's symmetries found by the compiler (`crate::opt::symmetry`): for each context
/// (a choice of the values of the fields besides the sets, a board's size), permutations of
/// the elements of the set fields that map the options of every position onto the options
/// of its image. A position's least image is the least, over `maps` and the identity, of
/// its image with each class of `twins` made *least*: the `k` elements of a class that it
/// holds replaced by the first `k` of the class.
#[derive(Clone, Debug)]
pub struct FoundSymmetries {
    /// The set fields' element values, by rank (the ranks the maps permute).
    pub elements: Vec<Val>,
    /// The context fields, each with its values (the first the most significant in a
    /// context's rank).
    pub context: Vec<(usize, Vec<Val>)>,
    /// Each context's group, by rank.
    pub groups: Vec<ContextGroup>,
    /// Whether each image is moved to the corner (in each part of the cells, the least
    /// made 0): the maps are symmetries of the game's rules with their moves to the corner
    /// dropped, which have the same values wherever a position lies
    /// (`crate::opt::translations`).
    pub to_corner: bool,
    /// Declared maps proven symmetries that the groups do not hold (a board turned over
    /// its diagonal, which makes a `rows × cols` board a `cols × rows` one), by context:
    /// for context `c`, each map as the context of its image and a permutation of the
    /// ranks. A position's least image is also the least image of each of their images
    /// (each in its own context's group).
    pub across: Vec<Vec<(usize, Vec<u32>)>>,
}

impl FoundSymmetries {
    /// The largest group's order.
    pub fn order(&self) -> u128 {
        self.groups.iter().map(|g| g.order).max().unwrap_or(1)
    }
}

/// The symmetries found for one context.
#[derive(Clone, Debug, Default)]
pub struct ContextGroup {
    /// Classes of elements that every permutation of the class keeps the game's rules
    /// (*twins*: the two outer sides of a board's corner box), by rank, each of two or more.
    pub twins: Vec<Vec<u32>>,
    /// One permutation of the ranks for each other element of the group modulo the twins'
    /// permutations (the identity left out), each keeping every twin class's order.
    pub maps: Vec<Vec<u32>>,
    /// How many permutations the group has in all (twins' included).
    pub order: u128,
}

impl Game {
    /// `π` where `image` (a symmetry's image of a position of this game, game `gid`) is
    /// `G(f_π(0), f_π(1), ...)`: each field once, each of the type of the field whose place
    /// it takes. The map then permutes the fields: `σ(p)_i = p_π(i)`.
    pub fn field_permutation(&self, gid: usize, image: &IExpr) -> Option<Vec<usize>> {
        let IExprKind::Pos { game: g, args, .. } = image.kind() else {
            return None;
        };
        if *g != gid || args.len() != self.fields.len() {
            return None;
        }
        let pi: Vec<usize> = (args.iter())
            .map(|a| match a.kind() {
                IExprKind::Var(v) if v.slot.index() < self.fields.len() => Some(v.slot.index()),
                _ => None,
            })
            .collect::<Option<_>>()?;
        let mut seen = vec![false; pi.len()];
        for (i, &j) in pi.iter().enumerate() {
            if seen[j] || self.fields[i].ty != self.fields[j].ty {
                return None;
            }
            seen[j] = true;
        }
        Some(pi)
    }

    /// Whether the game declares a symmetry that the solver must check as it runs (one
    /// not proven): its positions are kept as least images only with that check.
    pub fn checks_symmetries(&self) -> bool {
        self.symmetries.iter().any(|s| !s.proven)
    }

    /// Whether some position of the game is kept as another, its least image under
    /// symmetries that were proven (found ones, or declared ones where none is checked).
    pub fn has_proven_symmetries(&self) -> bool {
        self.found.is_some() || (!self.symmetries.is_empty() && !self.checks_symmetries())
    }

    /// Whether some move's result can be a sum of several positions (the game splits into
    /// independent parts): the solver then finds its Grundy values by nimber search
    /// (`Rules::splits`). Both back ends answer by this.
    pub fn splits(&self) -> bool {
        fn sum(e: &IExpr) -> bool {
            match e.kind() {
                IExprKind::If {
                    then, otherwise, ..
                } => sum(then) || sum(otherwise),
                IExprKind::Let { body, .. } => sum(body),
                IExprKind::Bin {
                    op: Op::GameSum, ..
                }
                | IExprKind::CompoundOf {
                    kind: Compound::Sum,
                    ..
                } => true,
                IExprKind::Compound {
                    kind: Compound::Sum,
                    parts,
                } => parts.len() > 1,
                IExprKind::Parts(op) => matches!(op.kind, PartsKind::Sum { .. }),
                IExprKind::Leaves(_) => true,
                _ => false,
            }
        }
        match &self.kind {
            GameKind::Rules(moves) => moves.iter().any(|m| sum(&m.result)),
            _ => false,
        }
    }
}

/// A query, checked.
#[derive(Clone, Debug)]
pub struct IQuery {
    /// Value, table or period.
    pub kind: crate::ast::QueryKind,
    /// The value names, as written (`moves` included).
    pub values: Vec<String>,
    /// The position expression (free names in slots 0..binders.len()).
    pub target: IExpr,
    /// The query as written, for output.
    pub text: String,
    /// For tables and periods: each binder and its domain.
    pub binders: Vec<(Var, IExpr)>,
    /// Its names by slot: its binders, then each name its expressions bind.
    pub locals: Locals,
    /// Where the query stands.
    pub span: Span,
}

impl IQuery {
    /// What proves a period of the Grundy values when the target is `G(n)` of a
    /// take-and-break or subtraction game `G` with `n` the query's variable: the largest
    /// removal and the most heaps a move leaves (Guy–Smith).
    pub fn period_bound(&self, program: &Program) -> Option<cgdl_runtime::Bound> {
        match self.target.kind() {
            IExprKind::Pos { game, args, .. } if matches!(args.as_slice(), [n] if n.is_var(VarId::new(0))) => {
                program.period_bound(*game)
            }
            _ => None,
        }
    }

    /// Where the target is `G(n)` of a heap game `G` (one with a heap code, whose Grundy
    /// values both back ends' kernels ask of the runtime's heap engine) with `n` the query's
    /// variable: `G`'s index and code. Term `n` is then heap `n` of that game, made without
    /// fail for every `n >= 0` (its one field is a `nat`), and the query driver reads the
    /// terms off its engine ([`cgdl_runtime::report::HeapTerms`]).
    pub fn heap_terms(&self, program: &Program) -> Option<(usize, Vec<u8>)> {
        match self.target.kind() {
            IExprKind::Pos { game, args, .. } if matches!(args.as_slice(), [n] if n.is_var(VarId::new(0))) =>
            {
                let digits = program.games.get(*game)?.heap_code.clone()?;
                Some((*game, digits))
            }
            _ => None,
        }
    }
}

/// A checked program.
#[derive(Clone, Debug, Default)]
pub struct Program {
    /// Games, indexed by id.
    pub games: Vec<Game>,
    /// Functions, indexed by id.
    pub fns: Vec<Function>,
    /// Tagged unions, indexed by id.
    pub types: Vec<UnionType>,
    /// Queries in source order.
    pub queries: Vec<IQuery>,
    /// Where a position given on the command line starts in the checked text (`cgdl eval`
    /// checks it as one more query after the file); places from there on are in it.
    pub position_start: Option<usize>,
}

impl Program {
    /// How `cgdl check` names `game`: its name, or for a game the compiler made to solve
    /// another on its set's complement, that game's, said so.
    pub fn label(&self, game: &Game) -> String {
        match &game.complement_of {
            Some(c) => format!("{} (on its set's complement)", self.games[c.game].name),
            None => game.name.clone(),
        }
    }

    /// Whether a move of game `gid` can split a position into a sum ([`Game::splits`]), or
    /// leads to a game that can, made to solve it on its set's complement: the solver finds
    /// such a position's Grundy value by nimber search (`Rules::splits`).
    pub fn splits(&self, gid: usize) -> bool {
        self.games[gid].splits()
            || (self.complement_game(gid)).is_some_and(|free| self.games[free].splits())
    }

    /// The game the compiler made to solve game `gid` on its set's complement
    /// (`crate::opt::complement`), where there is one.
    pub fn complement_game(&self, gid: usize) -> Option<usize> {
        (self.games.iter()).position(|h| h.complement_of.as_ref().is_some_and(|c| c.game == gid))
    }

    /// The games the file declares (not those the compiler made).
    pub fn declared_games(&self) -> usize {
        self.games
            .iter()
            .filter(|g| g.complement_of.is_none())
            .count()
    }

    /// Whether `name` names a helper function, a game or a type of the program (a pass
    /// that adds a function gives it a name that is not).
    pub fn name_taken(&self, name: &str) -> bool {
        self.fns.iter().any(|f| f.name == name)
            || self.games.iter().any(|g| g.name == name)
            || self.types.iter().any(|t| t.name == name)
    }

    /// Calls `f` on every expression of the rules a pass may rewrite, each whole: each
    /// function's body, then per game its end probe and each clause expression and result
    /// of its moves and of its open moves. (Symmetries and queries are left as written.)
    pub fn for_each_rule_expr_mut(&mut self, f: &mut dyn FnMut(&mut IExpr)) {
        for func in &mut self.fns {
            f(&mut func.body);
        }
        for game in &mut self.games {
            if let Some(probe) = &mut game.end_probe {
                f(probe);
            }
            let moves = match &mut game.kind {
                GameKind::Rules(moves) => Some(moves),
                _ => None,
            };
            for m in moves.into_iter().chain(game.open_moves.as_mut()).flatten() {
                m.for_each_expr_mut(f);
            }
        }
    }

    /// Calls `f` on every expression the program holds: its rule expressions (as
    /// [`Program::for_each_rule_expr_mut`]), the moves a game has with its moves to the
    /// corner dropped, the Grundy kernels' moves, the declared symmetries' images and the
    /// queries' positions and domains. A pass that changes how an expression is written,
    /// not what it is, runs over all of them.
    pub fn for_each_expr_mut(&mut self, f: &mut dyn FnMut(&mut IExpr)) {
        self.for_each_rule_expr_mut(f);
        for game in &mut self.games {
            let stripped = game.translation.as_mut().and_then(|t| t.stripped.as_mut());
            for m in stripped.into_iter().flatten() {
                m.for_each_expr_mut(f);
            }
            for m in game.kernel_moves.iter_mut().flatten() {
                for c in &mut m.clauses {
                    let (IClause::Bind(_, x) | IClause::Cond(x) | IClause::Let(_, x)) = c;
                    f(x);
                }
                m.result.for_each_expr_mut(f);
            }
            for s in &mut game.symmetries {
                f(&mut s.result);
            }
        }
        for q in &mut self.queries {
            for (_, domain) in &mut q.binders {
                f(domain);
            }
            f(&mut q.target);
        }
    }

    /// Where byte `byte` of the checked text `source` is, as `line:col` in the file, or as
    /// `<position>:line:col` inside a position given on the command line.
    pub fn locate(&self, source: &str, byte: usize) -> String {
        match self.position_start {
            Some(start) if byte >= start => {
                let rest = source.get(start..).unwrap_or("");
                let (l, c) = crate::diagnostics::line_col(rest, byte - start);
                format!("<position>:{l}:{c}")
            }
            _ => {
                let (l, c) = crate::diagnostics::line_col(source, byte);
                format!("{l}:{c}")
            }
        }
    }

    /// The id of the game called `name`.
    pub fn game_id(&self, name: &str) -> Option<usize> {
        self.games.iter().position(|g| g.name == name)
    }

    /// What proves periods of game `id`'s Grundy values, when the game is a take-and-break
    /// or subtraction game: its largest removal and the most heaps a move leaves.
    pub fn period_bound(&self, id: usize) -> Option<cgdl_runtime::Bound> {
        match &self.games.get(id)?.kind {
            GameKind::Subtraction(set) => set.iter().max().map(|&m| cgdl_runtime::Bound {
                max_removal: m as usize,
                max_parts: 1,
            }),
            GameKind::Octal(_) | GameKind::Rules(_) => (self.games[id].heap_code.clone())
                .map(|digits| cgdl_runtime::heap::HeapCode::from_digits(digits).bound()),
        }
    }
}
