//! Positions given to a native solver when it runs (`SOLVER --eval VALUES --position -`):
//! the position's games and field values as JSON, which the solver turns into its own Rust
//! values, checking each against its declared type as a move's result is checked. One
//! build of a file's solver then answers every position of its games.

use super::{Elem, Set};
use crate::expr::{Compound, Expr};
use crate::rules::RuleError;
use serde::{Deserialize, Serialize};

/// A value of a field: what the interpreter computed, in a form every solver reads.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Datum {
    /// An integer (of `nat`, `int` or a range).
    Int(i64),
    /// A boolean.
    Bool(bool),
    /// A tuple's parts.
    Tuple(Vec<Datum>),
    /// A set's elements.
    Set(Vec<Datum>),
    /// A list's items.
    List(Vec<Datum>),
    /// A value of a tagged type: the variant's index in its type, and its payload.
    Variant(usize, Vec<Datum>),
}

/// A position expression: `end`, a game's position (the game's index in its file, and
/// its field values), or a compound.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PositionDatum {
    /// The finished game.
    End,
    /// A position of the file's game number `.0`, with these field values.
    Game(usize, Vec<Datum>),
    /// A compound of positions.
    Compound(Compound, Vec<PositionDatum>),
}

impl PositionDatum {
    /// The position expression, with each game's position made by `leaf` (a generated
    /// solver's `position_from_datum`), its compounds' parts in the order given (as the
    /// interpreter keeps them: winning moves list them in that order).
    pub fn to_expr<P, F>(&self, leaf: &F) -> Result<Expr<P>, RuleError>
    where
        P: Clone + Ord,
        F: Fn(usize, &[Datum]) -> Result<P, RuleError>,
    {
        Ok(match self {
            PositionDatum::End => Expr::End,
            PositionDatum::Game(game, fields) => Expr::Pos(leaf(*game, fields)?),
            PositionDatum::Compound(kind, parts) => Expr::compound_in_order(
                *kind,
                (parts.iter().map(|p| p.to_expr(leaf))).collect::<Result<Vec<_>, _>>()?,
            ),
        })
    }
}

/// Why a datum is not a value of the type that was expected (a solver given a position
/// of another file's games).
#[cold]
pub fn datum_error(expected: &str, found: &Datum) -> RuleError {
    RuleError::new(format!(
        "the position does not fit this solver: expected {expected}, found {found:?}"
    ))
}

/// A Rust value made from a [`Datum`].
pub trait FromDatum: Sized {
    /// The value, or why `d` is not one.
    fn from_datum(d: &Datum) -> Result<Self, RuleError>;
}

impl FromDatum for i64 {
    fn from_datum(d: &Datum) -> Result<i64, RuleError> {
        match d {
            Datum::Int(n) => Ok(*n),
            other => Err(datum_error("an integer", other)),
        }
    }
}

impl FromDatum for bool {
    fn from_datum(d: &Datum) -> Result<bool, RuleError> {
        match d {
            Datum::Bool(b) => Ok(*b),
            other => Err(datum_error("a boolean", other)),
        }
    }
}

impl<T: FromDatum> FromDatum for Vec<T> {
    fn from_datum(d: &Datum) -> Result<Vec<T>, RuleError> {
        match d {
            Datum::List(items) => items.iter().map(T::from_datum).collect(),
            other => Err(datum_error("a list", other)),
        }
    }
}

impl<T: FromDatum + Elem> FromDatum for Set<T> {
    fn from_datum(d: &Datum) -> Result<Set<T>, RuleError> {
        match d {
            Datum::Set(items) => items.iter().map(T::from_datum).collect(),
            other => Err(datum_error("a set", other)),
        }
    }
}

macro_rules! tuple_from_datum {
    ($n:literal: $($t:ident $i:tt),+) => {
        impl<$($t: FromDatum),+> FromDatum for ($($t,)+) {
            fn from_datum(d: &Datum) -> Result<Self, RuleError> {
                match d {
                    Datum::Tuple(parts) if parts.len() == $n => {
                        Ok(($($t::from_datum(&parts[$i])?,)+))
                    }
                    other => Err(datum_error(concat!("a tuple of ", $n), other)),
                }
            }
        }
    };
}

tuple_from_datum!(1: A 0);
tuple_from_datum!(2: A 0, B 1);
tuple_from_datum!(3: A 0, B 1, C 2);
tuple_from_datum!(4: A 0, B 1, C 2, D 3);
tuple_from_datum!(5: A 0, B 1, C 2, D 3, E 4);
tuple_from_datum!(6: A 0, B 1, C 2, D 3, E 4, F 5);
tuple_from_datum!(7: A 0, B 1, C 2, D 3, E 4, F 5, G 6);
tuple_from_datum!(8: A 0, B 1, C 2, D 3, E 4, F 5, G 6, H 7);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_round_trip_through_json_and_convert() {
        let d = Datum::Set(vec![
            Datum::Tuple(vec![Datum::Int(0), Datum::Int(2)]),
            Datum::Tuple(vec![Datum::Int(1), Datum::Int(0)]),
        ]);
        let text = serde_json::to_string(&d).expect("json");
        let back: Datum = serde_json::from_str(&text).expect("parse");
        assert_eq!(back, d);
        let set = Set::<(i64, i64)>::from_datum(&back).expect("a set of pairs");
        assert_eq!(set.iter().collect::<Vec<_>>(), [(0, 2), (1, 0)]);
        assert!(Set::<i64>::from_datum(&back).is_err());
        assert!(<(i64, bool)>::from_datum(&Datum::Tuple(vec![Datum::Int(1)])).is_err());
    }

    #[test]
    fn compounds_keep_their_order() {
        let p = PositionDatum::Compound(
            Compound::Sum,
            vec![
                PositionDatum::Game(0, vec![Datum::Int(5)]),
                PositionDatum::End,
                PositionDatum::Game(0, vec![Datum::Int(3)]),
            ],
        );
        let leaf = |_: usize, f: &[Datum]| i64::from_datum(&f[0]);
        let e = p.to_expr(&leaf).expect("positions");
        assert_eq!(
            e,
            Expr::compound_in_order(Compound::Sum, [Expr::Pos(5), Expr::Pos(3)])
        );
        assert_eq!(e.canonical(), Expr::sum([Expr::Pos(3), Expr::Pos(5)]));
    }
}
