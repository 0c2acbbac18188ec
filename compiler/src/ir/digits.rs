//! The mixed-radix index of a game whose fields are all ranges or `bool`s, by which both
//! back ends lay a game's positions out densely (the interpreter's Grundy kernel, native
//! code's tables and memo): field `i` is a digit `value - lo` of radix `hi - lo + 1` (a
//! `bool` is a digit of radix 2, `true` the 1), the first field least significant.

use super::*;

/// The digits of a game's positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Digits {
    /// Each field's `(lo, hi)`, or `None` for a `bool`.
    pub fields: Vec<Option<(i64, i64)>>,
    /// The number of positions (the product of the radices, saturated).
    pub size: u128,
}

impl Digits {
    /// The digits of `game`, when every field is a range or a `bool`.
    pub fn of(game: &Game) -> Option<Digits> {
        let fields = (game.fields.iter())
            .map(|f| match f.ty {
                FieldTy::Range(lo, hi) => Some(Some((lo, hi))),
                FieldTy::Bool => Some(None),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        let size = (fields.iter()).fold(1u128, |n, f| n.saturating_mul(Digits::radix(f)));
        Some(Digits { fields, size })
    }

    /// The radix of a field's digit: its number of values.
    pub fn radix(field: &Option<(i64, i64)>) -> u128 {
        match field {
            Some((lo, hi)) => (*hi as i128 - *lo as i128) as u128 + 1,
            None => 2,
        }
    }

    /// Each field with its place value (saturated at `usize::MAX`).
    pub fn places(&self) -> impl Iterator<Item = (&Option<(i64, i64)>, u128)> + '_ {
        self.fields.iter().scan(1u128, |scale, f| {
            let this = *scale;
            *scale = scale.saturating_mul(Digits::radix(f));
            Some((f, this.min(usize::MAX as u128)))
        })
    }

    /// The index of the position whose fields are `values`, when each lies in its field.
    pub fn index_of(&self, values: &[Val]) -> Option<usize> {
        let mut index = 0u128;
        // Horner's rule from the most significant field (the last).
        for (f, v) in self.fields.iter().zip(values).rev() {
            let digit = match (f, v) {
                (Some((lo, hi)), Val::Int(x)) if (lo..=hi).contains(&x) => {
                    (*x as i128 - *lo as i128) as u128
                }
                (None, Val::Bool(b)) => u128::from(*b),
                _ => return None,
            };
            index = index.checked_mul(Digits::radix(f))?.checked_add(digit)?;
        }
        usize::try_from(index).ok()
    }

    /// The fields of the position with index `index` (below [`Digits::size`]).
    pub fn values_at(&self, mut index: usize) -> Vec<Val> {
        (self.fields.iter())
            .map(|f| {
                let radix = Digits::radix(f) as usize;
                let digit = index % radix;
                index /= radix;
                match f {
                    Some((lo, _)) => Val::Int(lo + digit as i64),
                    None => Val::Bool(digit == 1),
                }
            })
            .collect()
    }
}
