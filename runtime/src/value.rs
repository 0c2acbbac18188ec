//! Value kinds and the values a solver returns.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A value that the solver can compute for any position expression.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ValueKind {
    /// Normal-play outcome: P (player to move loses) or N.
    Outcome,
    /// Misère-play outcome.
    MisereOutcome,
    /// Grundy (nim) value.
    Grundy,
    /// Lenhardt's w-number (SL, SW or a number).
    WNumber,
    /// Misère w-number (SW or a number).
    MisereWNumber,
    /// Smith's remoteness.
    Remoteness,
    /// Smith's suspense.
    Suspense,
}

impl ValueKind {
    /// Every kind, in a fixed order (also the memo-table order).
    pub const ALL: [ValueKind; 7] = [
        ValueKind::Outcome,
        ValueKind::MisereOutcome,
        ValueKind::Grundy,
        ValueKind::WNumber,
        ValueKind::MisereWNumber,
        ValueKind::Remoteness,
        ValueKind::Suspense,
    ];

    /// The name used in the language and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            ValueKind::Outcome => "outcome",
            ValueKind::MisereOutcome => "misere_outcome",
            ValueKind::Grundy => "grundy",
            ValueKind::WNumber => "wnumber",
            ValueKind::MisereWNumber => "misere_wnumber",
            ValueKind::Remoteness => "remoteness",
            ValueKind::Suspense => "suspense",
        }
    }

    /// Parses a value name as written in the language.
    pub fn from_name(name: &str) -> Option<ValueKind> {
        ValueKind::ALL.into_iter().find(|k| k.name() == name)
    }

    pub(crate) fn slot(self) -> usize {
        self as usize
    }

    /// The encoded value of a terminal position (no options).
    pub(crate) fn terminal(self) -> u32 {
        match self {
            ValueKind::Outcome => OUTCOME_P,
            ValueKind::MisereOutcome => OUTCOME_N,
            ValueKind::Grundy | ValueKind::Remoteness | ValueKind::Suspense => 0,
            ValueKind::WNumber => W_SL,
            ValueKind::MisereWNumber => W_SW,
        }
    }

    /// Decodes a memo entry of this kind.
    pub(crate) fn decode(self, raw: u32) -> Value {
        match self {
            ValueKind::Outcome | ValueKind::MisereOutcome => Value::Outcome(if raw == OUTCOME_P {
                Outcome::P
            } else {
                Outcome::N
            }),
            ValueKind::Grundy | ValueKind::Remoteness | ValueKind::Suspense => Value::Number(raw),
            ValueKind::WNumber | ValueKind::MisereWNumber => Value::W(WNumber::decode(raw)),
        }
    }
}

impl fmt::Display for ValueKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

pub(crate) const OUTCOME_P: u32 = 0;
pub(crate) const OUTCOME_N: u32 = 1;
/// Encoded "superlosing" w-number.
pub(crate) const W_SL: u32 = u32::MAX - 3;
/// Encoded "superwinning" w-number.
pub(crate) const W_SW: u32 = u32::MAX - 2;
/// Memo sentinel: being computed (on the stack).
pub(crate) const IN_PROGRESS: u32 = u32::MAX - 1;
/// Memo sentinel: not computed.
pub(crate) const UNKNOWN: u32 = u32::MAX;

/// Who wins with perfect play. An impartial game's outcome is `P` or `N`; a partizan
/// game's may also be `L` or `R`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// The previous player (the one who just moved) wins.
    P,
    /// The next player (the one to move) wins.
    N,
    /// Left wins whoever moves first (a partizan game `G > 0`).
    L,
    /// Right wins whoever moves first (a partizan game `G < 0`).
    R,
    /// Neither player can force a win: play goes on forever (a loopy game's draw).
    D,
    /// A loopy partizan position where a draw is the result with one player moving first
    /// and not with the other: who wins with Left moving first, and with Right moving
    /// first. Written `L/D`, `D/R`, ... (the other pairs are `L`, `R`, `N`, `P` and `D`).
    Split(Winner, Winner),
}

/// Who wins a line of play with perfect play: Left, Right, or neither (a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Winner {
    /// Left wins.
    Left,
    /// Right wins.
    Right,
    /// Play goes on forever.
    Draw,
}

impl Outcome {
    /// The outcome of a partizan position from who wins with Left moving first and with
    /// Right moving first.
    pub fn of_winners(left_first: Winner, right_first: Winner) -> Outcome {
        match (left_first, right_first) {
            (Winner::Left, Winner::Left) => Outcome::L,
            (Winner::Right, Winner::Right) => Outcome::R,
            (Winner::Left, Winner::Right) => Outcome::N,
            (Winner::Right, Winner::Left) => Outcome::P,
            (Winner::Draw, Winner::Draw) => Outcome::D,
            (a, b) => Outcome::Split(a, b),
        }
    }
}

impl fmt::Display for Winner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Winner::Left => "L",
            Winner::Right => "R",
            Winner::Draw => "D",
        })
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::P => "P",
            Outcome::N => "N",
            Outcome::L => "L",
            Outcome::R => "R",
            Outcome::D => "D",
            Outcome::Split(a, b) => return write!(f, "{a}/{b}"),
        })
    }
}

/// A w-number (Lenhardt §5): superlosing, superwinning, or a number.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum WNumber {
    /// Superlosing: the position is terminal.
    SL,
    /// Superwinning: the player to move finishes a component now.
    SW,
    /// An ordinary w-number.
    Num(u32),
}

impl WNumber {
    pub(crate) fn decode(raw: u32) -> WNumber {
        match raw {
            W_SL => WNumber::SL,
            W_SW => WNumber::SW,
            n => WNumber::Num(n),
        }
    }

    /// Lenhardt's ⊕w: SL absorbs, then SW, else xor.
    pub fn combine(self, other: WNumber) -> WNumber {
        match (self, other) {
            (WNumber::SL, _) | (_, WNumber::SL) => WNumber::SL,
            (WNumber::SW, _) | (_, WNumber::SW) => WNumber::SW,
            (WNumber::Num(a), WNumber::Num(b)) => WNumber::Num(a ^ b),
        }
    }
}

impl fmt::Display for WNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WNumber::SL => f.write_str("SL"),
            WNumber::SW => f.write_str("SW"),
            WNumber::Num(n) => write!(f, "{n}"),
        }
    }
}

/// A computed value.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    /// An outcome (normal or misère); a loopy position's remoteness when it is a draw.
    Outcome(Outcome),
    /// A Grundy value, remoteness or suspense.
    Number(u32),
    /// A w-number or misère w-number.
    W(WNumber),
    /// A loopy position's generalized Grundy value `∞(K)` ([`crate::loopy`]).
    Infinite(Infinite),
}

/// The generalized Grundy value `∞(K)` of a loopy position: `K` is the set of its options'
/// finite values. Written `∞{0,2}` (`∞` when `K` is empty); in JSON `{"infinite": [0, 2]}`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Infinite {
    /// `K`, ascending.
    pub infinite: Vec<u32>,
}

impl fmt::Display for Infinite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("∞")?;
        if !self.infinite.is_empty() {
            let k: Vec<String> = self.infinite.iter().map(u32::to_string).collect();
            write!(f, "{{{}}}", k.join(","))?;
        }
        Ok(())
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Outcome(o) => o.fmt(f),
            Value::Number(n) => n.fmt(f),
            Value::W(w) => w.fmt(f),
            Value::Infinite(k) => k.fmt(f),
        }
    }
}

/// Minimum excludant of a list of values.
#[inline]
pub(crate) fn mex(values: &[u32]) -> u32 {
    // The values below 256 in a bitmap on the stack: a Grundy search takes a mex at every
    // position, and its values are small. The least value missing from the bitmap is the
    // mex, whatever the larger values; only where all of 0..256 are there does the mex need
    // the rest.
    let mut seen = [0u64; 4];
    for &v in values {
        if v < 256 {
            seen[(v / 64) as usize] |= 1 << (v % 64);
        }
    }
    match seen.iter().position(|&word| word != u64::MAX) {
        Some(w) => w as u32 * 64 + (!seen[w]).trailing_zeros(),
        None => mex_by_table(values),
    }
}

/// Minimum excludant of a list of values, by a table of the values up to their count.
fn mex_by_table(values: &[u32]) -> u32 {
    let mut seen = vec![false; values.len() + 1];
    for &v in values {
        if (v as usize) < seen.len() {
            seen[v as usize] = true;
        }
    }
    seen.iter().position(|s| !s).unwrap_or(values.len()) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The mex by its definition: the least value not in the list.
    fn least_missing(values: &[u32]) -> u32 {
        (0..).find(|m| !values.contains(m)).unwrap_or(0)
    }

    proptest! {
        /// Small values, values around the bitmap's end (256) and large ones; lists that
        /// hold every value below 256 take the table's path.
        #[test]
        fn mex_is_the_least_missing_value(
            mut values in proptest::collection::vec(
                prop_oneof![0u32..8, 250u32..262, any::<u32>()], 0..40),
            full in any::<bool>(),
        ) {
            if full {
                values.extend(0..256);
            }
            prop_assert_eq!(mex(&values), least_missing(&values));
        }
    }
}
