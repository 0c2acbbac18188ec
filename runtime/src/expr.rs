//! Position expressions: leaves, `end`, and nested compounds in canonical form.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The ways games combine (Lenhardt §3 and §5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Compound {
    /// Ordinary (disjunctive) sum: move in exactly one component.
    Sum,
    /// Union: move in one or more components.
    Union,
    /// Selective compound: move in at least one component, not all.
    Selective,
    /// Conjunctive compound: move in every component; over when any is terminal.
    Conjunctive,
    /// Continued conjunctive: move in every component that can.
    Continued,
    /// Winner takes it all: move in one; a terminal component ends the game.
    Wtia,
}

impl Compound {
    /// Every compound kind.
    pub const ALL: [Compound; 6] = [
        Compound::Sum,
        Compound::Union,
        Compound::Selective,
        Compound::Conjunctive,
        Compound::Continued,
        Compound::Wtia,
    ];

    /// The name used in the language (`sum`, `union`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Compound::Sum => "sum",
            Compound::Union => "union",
            Compound::Selective => "selective",
            Compound::Conjunctive => "conjunctive",
            Compound::Continued => "continued",
            Compound::Wtia => "wtia",
        }
    }

    /// Parses a compound name as written in the language.
    pub fn from_name(name: &str) -> Option<Compound> {
        Compound::ALL.into_iter().find(|c| c.name() == name)
    }

    /// Whether `k(a, k(b, c)) == k(a, b, c)` as games.
    fn is_associative(self) -> bool {
        !matches!(self, Compound::Selective)
    }
}

/// A position expression over leaf positions `P`. Build it with [`Expr::compound`] (or
/// [`Expr::sum`]) to get the canonical form, which the solver's memo relies on.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Expr<P> {
    /// The finished game: no moves.
    End,
    /// One position of one game.
    Pos(P),
    /// A compound of two or more components, in canonical order.
    Compound(Compound, Box<[Expr<P>]>),
}

impl<P: Clone + Ord> Expr<P> {
    /// The disjunctive sum of `parts`, canonical.
    pub fn sum(parts: impl IntoIterator<Item = Expr<P>>) -> Expr<P> {
        Expr::compound(Compound::Sum, parts)
    }

    /// The sum of leaf positions, canonical.
    pub fn sum_of(positions: impl IntoIterator<Item = P>) -> Expr<P> {
        Expr::sum(positions.into_iter().map(Expr::Pos))
    }

    /// A compound of `kind` over `parts`, in canonical form: nested compounds of the same
    /// associative kind are flattened, components are sorted, and `end` components are
    /// dropped where the kind allows (sum, union, continued), make the whole compound
    /// terminal where they must (conjunctive, winner-takes-all), and are kept once in a
    /// selective compound (where one terminal component lifts the "not all" restriction).
    /// A one-component compound is its component, except that a one-component selective
    /// compound has no move and is `end`.
    pub fn compound(kind: Compound, parts: impl IntoIterator<Item = Expr<P>>) -> Expr<P> {
        Self::build(kind, parts, true)
    }

    /// Like [`Expr::compound`] but keeps the components in the order given (for display:
    /// the solver canonicalises whatever it is asked about).
    pub fn compound_in_order(kind: Compound, parts: impl IntoIterator<Item = Expr<P>>) -> Expr<P> {
        Self::build(kind, parts, false)
    }

    fn build(kind: Compound, parts: impl IntoIterator<Item = Expr<P>>, sort: bool) -> Expr<P> {
        let mut children: Vec<Expr<P>> = Vec::new();
        let mut saw_end = false;
        let mut stack: Vec<Expr<P>> = parts.into_iter().collect();
        stack.reverse();
        while let Some(part) = stack.pop() {
            match part {
                Expr::End => saw_end = true,
                Expr::Compound(k, inner) if k == kind && kind.is_associative() => {
                    stack.extend(inner.into_vec().into_iter().rev());
                }
                other => children.push(other),
            }
        }
        match kind {
            Compound::Conjunctive | Compound::Wtia if saw_end => return Expr::End,
            Compound::Selective if saw_end => children.push(Expr::End),
            _ => {}
        }
        if sort {
            children.sort();
        }
        match (kind, children.len()) {
            (_, 0) => Expr::End,
            (Compound::Selective, 1) => Expr::End,
            (_, 1) => children.pop().unwrap_or(Expr::End),
            _ => Expr::Compound(kind, children.into_boxed_slice()),
        }
    }

    /// Rebuilds the expression bottom-up with [`Expr::compound`], so that any expression
    /// (however it was built) is in canonical form.
    pub fn canonical(self) -> Expr<P> {
        match self {
            Expr::Compound(kind, cs) => {
                Expr::compound(kind, cs.into_vec().into_iter().map(Expr::canonical))
            }
            leaf => leaf,
        }
    }

    /// The expression with each leaf position `p` replaced by `f(p)`, canonical.
    pub fn map_leaves(self, f: &mut impl FnMut(P) -> P) -> Expr<P> {
        match self {
            Expr::End => Expr::End,
            Expr::Pos(p) => Expr::Pos(f(p)),
            Expr::Compound(kind, cs) => {
                let parts: Vec<Expr<P>> =
                    cs.into_vec().into_iter().map(|c| c.map_leaves(f)).collect();
                Expr::compound(kind, parts)
            }
        }
    }

    /// How many positions (and `end`s) this expression holds.
    pub fn leaf_count(&self) -> usize {
        match self {
            Expr::End | Expr::Pos(_) => 1,
            Expr::Compound(_, cs) => cs.iter().map(Expr::leaf_count).sum(),
        }
    }

    /// The leaf positions in this expression, left to right.
    pub fn leaves(&self) -> Vec<&P> {
        let mut out = Vec::new();
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            match e {
                Expr::End => {}
                Expr::Pos(p) => out.push(p),
                Expr::Compound(_, cs) => stack.extend(cs.iter().rev()),
            }
        }
        out
    }

    /// Writes the expression with `leaf` formatting each position, components in their
    /// stored order.
    pub fn write_with(
        &self,
        f: &mut dyn fmt::Write,
        leaf: &dyn Fn(&P, &mut dyn fmt::Write) -> fmt::Result,
    ) -> fmt::Result {
        self.write_components(f, leaf, false)
    }

    /// Like [`Expr::write_with`], but the components of every compound (all of them
    /// commutative) in the order of their text: the same expression reads the same
    /// whatever order the position type sorts in (interned ids in the interpreter, packed
    /// keys in native code).
    pub fn write_sorted(
        &self,
        f: &mut dyn fmt::Write,
        leaf: &dyn Fn(&P, &mut dyn fmt::Write) -> fmt::Result,
    ) -> fmt::Result {
        self.write_components(f, leaf, true)
    }

    fn write_components(
        &self,
        f: &mut dyn fmt::Write,
        leaf: &dyn Fn(&P, &mut dyn fmt::Write) -> fmt::Result,
        sorted: bool,
    ) -> fmt::Result {
        let (kind, cs) = match self {
            Expr::End => return f.write_str("end"),
            Expr::Pos(p) => return leaf(p, f),
            Expr::Compound(kind, cs) => (*kind, cs),
        };
        let mut parts = Vec::with_capacity(cs.len());
        for c in cs {
            let mut part = String::new();
            let paren = kind == Compound::Sum && matches!(c, Expr::Compound(Compound::Sum, _));
            if paren {
                part.push('(');
            }
            c.write_components(&mut part, leaf, sorted)?;
            if paren {
                part.push(')');
            }
            parts.push(part);
        }
        if sorted {
            parts.sort();
        }
        if kind == Compound::Sum {
            f.write_str(&parts.join(" + "))
        } else {
            write!(f, "{}({})", kind.name(), parts.join(", "))
        }
    }
}

impl<P: Clone + Ord + fmt::Debug> fmt::Display for Expr<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::new();
        self.write_with(&mut s, &|p, w| write!(w, "{p:?}"))?;
        f.write_str(&s)
    }
}

impl<P> From<P> for Expr<P> {
    fn from(p: P) -> Self {
        Expr::Pos(p)
    }
}

/// Anything that stands for a position expression: an [`Expr`], a reference to one, a leaf
/// position, or a generated game type (`Kayles::new(7)`). The [`Solver`](crate::Solver)'s
/// value methods take any of them.
pub trait IntoExpr<P> {
    /// The expression.
    fn into_expr(self) -> Expr<P>;
}

impl<P, T: Into<Expr<P>>> IntoExpr<P> for T {
    fn into_expr(self) -> Expr<P> {
        self.into()
    }
}

impl<P: Clone> IntoExpr<P> for &Expr<P> {
    fn into_expr(self) -> Expr<P> {
        self.clone()
    }
}

/// `a + b` is the disjunctive sum, components kept in the order written.
impl<P: Clone + Ord, T: IntoExpr<P>> std::ops::Add<T> for Expr<P> {
    type Output = Expr<P>;

    fn add(self, rhs: T) -> Expr<P> {
        Expr::compound_in_order(Compound::Sum, [self, rhs.into_expr()])
    }
}

macro_rules! compound_fns {
    ($($(#[$doc:meta])* $name:ident => $kind:ident;)*) => {
        $(
            $(#[$doc])*
            pub fn $name<P: Clone + Ord>(parts: impl IntoIterator<Item = Expr<P>>) -> Expr<P> {
                Expr::compound_in_order(Compound::$kind, parts)
            }
        )*
    };
}

compound_fns! {
    /// `sum(A, B, ...)`: the disjunctive sum (also `a + b`).
    sum => Sum;
    /// `union(A, B, ...)`: move in one or more components.
    union => Union;
    /// `selective(A, B, ...)`: move in at least one component, not all.
    selective => Selective;
    /// `conjunctive(A, B, ...)`: move in every component; over when one is terminal.
    conjunctive => Conjunctive;
    /// `continued(A, B, ...)`: move in every component that can.
    continued => Continued;
    /// `wtia(A, B, ...)`: winner takes it all.
    wtia => Wtia;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_forms() {
        let a = || Expr::Pos(1u32);
        let b = || Expr::Pos(2u32);
        assert_eq!(
            Expr::sum([b(), Expr::sum([a(), Expr::End])]),
            Expr::Compound(Compound::Sum, vec![a(), b()].into())
        );
        assert_eq!(Expr::sum([Expr::End, a()]), a());
        assert_eq!(Expr::<u32>::sum([]), Expr::End);
        assert_eq!(
            Expr::compound(Compound::Conjunctive, [a(), Expr::End]),
            Expr::End
        );
        assert_eq!(Expr::compound(Compound::Wtia, [Expr::End, b()]), Expr::End);
        assert_eq!(Expr::compound(Compound::Selective, [a()]), Expr::End);
        assert_eq!(
            Expr::compound(Compound::Selective, [Expr::End, a(), Expr::End]),
            Expr::Compound(Compound::Selective, vec![Expr::End, a()].into())
        );
        // Selective is not associative: the inner compound stays.
        let inner = Expr::compound(Compound::Selective, [a(), b()]);
        let outer = Expr::compound(Compound::Selective, [inner.clone(), a()]);
        assert_eq!(
            outer,
            Expr::Compound(Compound::Selective, vec![a(), inner].into())
        );
        assert_eq!(Expr::compound(Compound::Union, [a(), Expr::End]), a());
    }
}
