//! Recognising heap games written as explicit rules: a game of one `nat` field whose every
//! move removes `k` tokens, `k` from a literal range, and leaves one heap or splits the rest
//! in two, is the take-and-break game of an octal code. The code gives the runtime's heap
//! engine (rare/common splits, proven periods) and the largest removal for the Guy–Smith
//! proof. The matcher is deliberately narrow: a rule it does not recognise exactly keeps the
//! general search, so recognition never changes a value.

use super::{Game, GameKind, IClause, IExpr, Move, Op, Program, Val};
use crate::ir::types::FieldTy;

/// The most tokens a recognised move may remove (the code's length).
const MAX_REMOVAL: i64 = 4096;

/// The octal code of game `gid` when its rules are a heap game's, as digits `d0 d1 ...`.
pub fn heap_code(program: &Program, gid: usize) -> Option<Vec<u8>> {
    let game = program.games.get(gid)?;
    match &game.kind {
        GameKind::Octal(digits) => Some(digits.clone()),
        GameKind::Rules(moves) if !moves.is_empty() && is_heap(game) => {
            let mut digits = vec![0u8];
            for m in moves {
                let (removals, bits) = move_code(gid, m)?;
                for k in removals {
                    let k = k as usize;
                    if digits.len() <= k {
                        digits.resize(k + 1, 0);
                    }
                    digits[k] |= bits;
                }
            }
            Some(digits)
        }
        _ => None,
    }
}

fn is_heap(game: &Game) -> bool {
    matches!(game.fields.as_slice(), [f] if f.ty == FieldTy::Nat)
}

/// Whether `e` reads the variable in `slot`.
fn is_var(e: &IExpr, slot: usize) -> bool {
    matches!(e, IExpr::Var(v) if v.slot == slot)
}

fn int(e: &IExpr) -> Option<i64> {
    match e {
        IExpr::Lit(Val::Int(i)) => Some(*i),
        _ => None,
    }
}

/// The removal of a move: a name bound to a literal range, or one literal.
#[derive(Clone, Copy)]
enum Removal {
    Var(usize),
    Lit(i64),
}

impl Removal {
    fn is(self, e: &IExpr) -> bool {
        match self {
            Removal::Var(slot) => is_var(e, slot),
            Removal::Lit(c) => int(e) == Some(c),
        }
    }

    fn slot(self) -> Option<usize> {
        match self {
            Removal::Var(slot) => Some(slot),
            Removal::Lit(_) => None,
        }
    }
}

/// `n - k` (natural or integer subtraction) with `n` in slot 0 and `k` the removal.
fn is_rest(e: &IExpr, k: Removal) -> bool {
    matches!(e, IExpr::Bin { op: Op::NatSub | Op::Sub, lhs, rhs, .. } if is_var(lhs, 0) && k.is(rhs))
}

/// The position `G(arg)` of game `gid`: its argument.
fn heap_of(e: &IExpr, gid: usize) -> Option<&IExpr> {
    match e {
        IExpr::Pos { game, args, .. } if *game == gid && args.len() == 1 => Some(&args[0]),
        _ => None,
    }
}

/// The removals of one move and the digit bits each gets, when the move is one of
///   `move m(k in LO..=HI, k <= n) => G(n - k)`                       (bits 1, 2)
///   `move m(k in LO..=HI, k <= n, a in A..=(n - k) / 2) => G(a) + G(n - k - a)`
/// with `A` 0 (bits 1, 2, 4) or 1 (bit 4), `k < n` for `k <= n` (no bit 1), `n >= k`,
/// `n > k` alike, and `LO >= 1`.
fn move_code(gid: usize, m: &Move) -> Option<(std::ops::RangeInclusive<i64>, u8)> {
    // The removal: `k in LO..=HI` then `k <= n` (or `k < n`); or, for one removal `c`,
    // just `n >= c` (or `n > c`).
    let (k, removals, conds) = match m.clauses.first()? {
        IClause::Bind(vars, IExpr::Bin { op, lhs, rhs, .. }) if vars.len() == 1 => {
            let (lo, hi) = (int(lhs)?, int(rhs)?);
            let hi = match op {
                Op::RangeIncl => hi,
                Op::RangeExcl => hi - 1,
                _ => return None,
            };
            if lo < 1 || hi < lo || hi > MAX_REMOVAL || vars[0].slot == 0 {
                return None;
            }
            (Removal::Var(vars[0].slot), lo..=hi, 1)
        }
        IClause::Cond(IExpr::Bin { lhs, rhs, .. }) => {
            let c = int(lhs).or(int(rhs))?;
            if !(1..=MAX_REMOVAL).contains(&c) {
                return None;
            }
            (Removal::Lit(c), c..=c, 0)
        }
        _ => return None,
    };
    // `k <= n` allows the move that empties the heap; `k < n` does not.
    let empties = match m.clauses.get(conds)? {
        IClause::Cond(IExpr::Bin { op, lhs, rhs, .. }) => match op {
            Op::Le if k.is(lhs) && is_var(rhs, 0) => true,
            Op::Lt if k.is(lhs) && is_var(rhs, 0) => false,
            Op::Ge if is_var(lhs, 0) && k.is(rhs) => true,
            Op::Gt if is_var(lhs, 0) && k.is(rhs) => false,
            _ => return None,
        },
        _ => return None,
    };
    let rest_clauses = &m.clauses[conds + 1..];
    let end_bit = if empties { 1 } else { 0 };
    match rest_clauses.len() {
        0 => {
            // One heap of n - k.
            let arg = heap_of(&m.result, gid)?;
            is_rest(arg, k).then_some((removals, 2 | end_bit))
        }
        1 => {
            let IClause::Bind(
                vars,
                IExpr::Bin {
                    op: Op::RangeIncl,
                    lhs,
                    rhs,
                    ..
                },
            ) = &rest_clauses[0]
            else {
                return None;
            };
            let [a] = vars.as_slice() else {
                return None;
            };
            let a = a.slot;
            if a == 0 || k.slot() == Some(a) {
                return None;
            }
            let from = int(lhs)?;
            let half = matches!(&**rhs, IExpr::Bin { op: Op::Div, lhs, rhs, .. }
                if is_rest(lhs, k) && int(rhs) == Some(2));
            if !half || !(0..=1).contains(&from) {
                return None;
            }
            let IExpr::Bin {
                op: Op::GameSum,
                lhs,
                rhs,
                ..
            } = &m.result
            else {
                return None;
            };
            let (x, y) = (heap_of(lhs, gid)?, heap_of(rhs, gid)?);
            // `n - k - a`, beside `a`, in either order.
            let other = |e: &IExpr| {
                matches!(e, IExpr::Bin { op: Op::NatSub | Op::Sub, lhs, rhs, .. }
                    if is_rest(lhs, k) && is_var(rhs, a))
            };
            if !((is_var(x, a) && other(y)) || (is_var(y, a) && other(x))) {
                return None;
            }
            // With a = 0 the move also leaves the one heap n - k (G(0) is worth 0: no move
            // of a recognised game applies to the empty heap, as every removal is >= 1).
            let bits = if from == 0 { 4 | 2 | end_bit } else { 4 };
            Some((removals, bits))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile_str;

    fn code_of(source: &str) -> Option<Vec<u8>> {
        let program = compile_str(source).expect("a valid program");
        heap_code(&program, 0)
    }

    #[test]
    fn explicit_heap_rules_have_their_octal_codes() {
        // Kayles (0.77), Dawson's Kayles (0.07), subtraction {1, 2, 3} (0.333), 0.156's
        // splits without the empty heap, and k < n (0.6: no move empties the heap).
        let cases: [(&str, &[u8]); 6] = [
            ("game D(n: nat) {\n    move knock(k in 2..=2, k <= n, a in 0..=(n - k) / 2) => D(n - k - a) + D(a)\n}\n", &[0, 0, 7]),
            ("game K(n: nat) {\n    move knock(k in 1..=2, k <= n, left in 0..=(n - k) / 2) => K(left) + K(n - k - left)\n}\n", &[0, 7, 7]),
            ("game D(n: nat) {\n    move knock(n >= 2, a in 0..=(n - 2) / 2) => D(n - 2 - a) + D(a)\n}\n", &[0, 0, 7]),
            ("game S(n: nat) {\n    move take(k in 1..=3, n >= k) => S(n - k)\n}\n", &[0, 3, 3, 3]),
            ("game G(n: nat) {\n    move a(k in 1..2, k <= n) => G(n - k)\n    move b(k in 2..=3, k < n, x in 1..=(n - k) / 2) => G(x) + G(n - k - x)\n}\n", &[0, 3, 4, 4]),
            ("game T(n: nat) {\n    move t(k in 1..=1, k < n) => T(n - k)\n}\n", &[0, 2]),
        ];
        for (source, digits) in cases {
            assert_eq!(code_of(source).as_deref(), Some(digits), "{source}");
        }
    }

    #[test]
    fn other_rules_are_not_heap_games() {
        for source in [
            // Removals that depend on n, a condition beside the removal, two fields.
            "game G(n: nat) {\n    move take(k in 1..=n) => G(n - k)\n}\n",
            "game G(n: nat) {\n    move take(k in 1..=2, k <= n, n % 2 == 0) => G(n - k)\n}\n",
            "game G(n: nat) {\n    move take(k in 1..=2, k <= n) => G(n - k + 1)\n}\n",
            "game G(n: nat) {\n    move take(k in 0..=2, k <= n) => G(n - k)\n}\n",
            "game G(n: nat) {\n    move take(n >= 2) => G(n - 1)\n}\n",
            "game G(n: nat) {\n    move take(n >= 0) => G(n - 0)\n}\n",
            "game G(n: nat) {\n    move s(k in 1..=2, k <= n, a in 0..=(n - k) / 2) => G(a) + G(n - a)\n}\n",
            "game G(a: nat, b: nat) {\n    move take(k in 1..=2, k <= a) => G(a - k, b)\n}\n",
        ] {
            assert_eq!(code_of(source), None, "{source}");
        }
    }
}
