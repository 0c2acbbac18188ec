//! Recognising heap games written as explicit rules: a game of one `nat` field whose every
//! move removes `k` tokens, `k` from a literal range or set, and takes the whole heap,
//! leaves one heap or splits the rest in two or three, is the take-and-break game of an
//! octal (or hexadecimal) code. The code gives the runtime's heap engine (rare/common
//! splits, proven periods) and the largest removal for the Guy–Smith proof. The matcher is
//! deliberately narrow: a rule it does not recognise exactly keeps the general search, so
//! recognition never changes a value.

use super::{Game, GameKind, IClause, IExpr, IExprKind, Move, Op, Val, VarId};
use crate::ir::types::FieldTy;

/// The most tokens a recognised move may remove (the code's length).
const MAX_REMOVAL: i64 = 4096;

/// The code of `game` (game number `gid`) when it is a heap game, as digits `d0 d1 ...`:
/// an octal code's own, or the one its rules state. The checker stores it in
/// [`Game::heap_code`], which is what the back ends read.
pub fn heap_code(gid: usize, game: &Game) -> Option<Vec<u8>> {
    if game.partizan {
        return None;
    }
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
fn is_var(e: &IExpr, slot: VarId) -> bool {
    matches!(e.kind(), IExprKind::Var(v) if v.slot == slot)
}

fn int(e: &IExpr) -> Option<i64> {
    match e.kind() {
        IExprKind::Lit(Val::Int(i)) => Some(*i),
        _ => None,
    }
}

/// The heap's size: the game's only field, in the first slot.
const HEAP: VarId = VarId::new(0);

/// The removal of a move: a name bound to a literal range, or one literal.
#[derive(Clone, Copy)]
enum Removal {
    Var(VarId),
    Lit(i64),
}

impl Removal {
    fn is(self, e: &IExpr) -> bool {
        match self {
            Removal::Var(slot) => is_var(e, slot),
            Removal::Lit(c) => int(e) == Some(c),
        }
    }

    fn slot(self) -> Option<VarId> {
        match self {
            Removal::Var(slot) => Some(slot),
            Removal::Lit(_) => None,
        }
    }
}

/// `n - k` (natural or integer subtraction) with `n` in slot 0 and `k` the removal.
fn is_rest(e: &IExpr, k: Removal) -> bool {
    matches!(e.kind(), IExprKind::Bin { op: Op::NatSub | Op::Sub, lhs, rhs, .. } if is_var(lhs, HEAP) && k.is(rhs))
}

/// The position `G(arg)` of game `gid`: its argument.
fn heap_of(e: &IExpr, gid: usize) -> Option<&IExpr> {
    match e.kind() {
        IExprKind::Pos { game, args, .. } if *game == gid && args.len() == 1 => Some(&args[0]),
        _ => None,
    }
}

/// The removals a binder's domain states: a literal range (`1..=3`, `1..4`) or a set of
/// literals (`{1, 3}`, or a constant's value), each in `1..=MAX_REMOVAL`.
fn removals_of(domain: &IExpr) -> Option<Vec<i64>> {
    let ks: Vec<i64> = match domain.kind() {
        IExprKind::Bin { op, lhs, rhs, .. } => {
            let (lo, hi) = (int(lhs)?, int(rhs)?);
            let hi = match op {
                Op::RangeIncl => hi,
                Op::RangeExcl => hi - 1,
                _ => return None,
            };
            if lo < 1 || hi > MAX_REMOVAL {
                return None;
            }
            (lo..=hi).collect()
        }
        IExprKind::Lit(Val::Range(lo, hi)) if *lo >= 1 && *hi <= MAX_REMOVAL => {
            (*lo..=*hi).collect()
        }
        IExprKind::Set(elems) => elems.iter().map(int).collect::<Option<_>>()?,
        IExprKind::Lit(Val::Set(elems)) => (elems.iter())
            .map(|v| match v {
                Val::Int(i) => Some(*i),
                _ => None,
            })
            .collect::<Option<_>>()?,
        _ => return None,
    };
    let ok = !ks.is_empty() && ks.iter().all(|k| (1..=MAX_REMOVAL).contains(k));
    ok.then_some(ks)
}

/// How a move's guard relates its removal `k` to the heap `n`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Guard {
    /// `k <= n` (or `n >= k`): the move may empty the heap.
    AtMost,
    /// `k < n` (or `n > k`): something is left.
    Below,
    /// `k == n` (or `n == k`): the move takes the whole heap.
    All,
}

fn guard_of(clause: &IClause, k: Removal) -> Option<Guard> {
    let IClause::Cond(cond) = clause else {
        return None;
    };
    let (op, lhs, rhs) = cond.as_bin()?;
    let k_n = k.is(lhs) && is_var(rhs, HEAP);
    let n_k = is_var(lhs, HEAP) && k.is(rhs);
    match op {
        Op::Le if k_n => Some(Guard::AtMost),
        Op::Lt if k_n => Some(Guard::Below),
        Op::Ge if n_k => Some(Guard::AtMost),
        Op::Gt if n_k => Some(Guard::Below),
        Op::Eq if k_n || n_k => Some(Guard::All),
        _ => None,
    }
}

/// The removals of one move and the digit bits each gets, when the move is one of
///   `move m(k in K, k <= n) => G(n - k)`                                   (bits 1, 2)
///   `move m(k in K, k <= n, a in A..=(n - k) / 2) => G(a) + G(n - k - a)`
///   `move m(k in K, k == n) => end`            (or `G(0)`, `G(n - k)`: bit 1)
/// with `K` a literal range or set of removals `>= 1`, `A` 0 (bits 1, 2, 4) or 1 (bit 4),
/// `k < n` for `k <= n` (no bit 1), `n >= k`, `n > k`, `n == k` alike; or one of these
/// for a single removal `c` with the guard `n >= c` (`n > c`, `n == c`) and no binder.
fn move_code(gid: usize, m: &Move) -> Option<(Vec<i64>, u8)> {
    // The removal, and the clauses from its guard on.
    let (k, removals, from_guard) = match m.clauses.first()? {
        IClause::Bind(vars, domain) if vars.len() == 1 && vars[0].slot != HEAP => (
            Removal::Var(vars[0].slot),
            removals_of(domain)?,
            &m.clauses[1..],
        ),
        IClause::Cond(cond) if cond.as_bin().is_some() => {
            let (_, lhs, rhs) = cond.as_bin()?;
            let c = int(lhs).or(int(rhs))?;
            if !(1..=MAX_REMOVAL).contains(&c) {
                return None;
            }
            (Removal::Lit(c), vec![c], &m.clauses[..])
        }
        _ => return None,
    };
    let (guard, rest_clauses) = from_guard.split_first()?;
    let guard = guard_of(guard, k)?;
    if guard == Guard::All {
        // Taking the whole heap leaves the empty heap, written any of three ways.
        let empty = match m.result.kind() {
            IExprKind::End => true,
            _ => heap_of(&m.result, gid).is_some_and(|arg| int(arg) == Some(0) || is_rest(arg, k)),
        };
        return (empty && rest_clauses.is_empty()).then_some((removals, 1));
    }
    let end_bit = if guard == Guard::AtMost { 1 } else { 0 };
    match rest_clauses.len() {
        0 => {
            // One heap of n - k.
            let arg = heap_of(&m.result, gid)?;
            is_rest(arg, k).then_some((removals, 2 | end_bit))
        }
        1 => two_heaps(gid, m, k, &rest_clauses[0], end_bit).map(|bits| (removals, bits)),
        2 => three_heaps(gid, m, k, rest_clauses, end_bit).map(|bits| (removals, bits)),
        _ => None,
    }
}

/// The binder `v in LO..=HI` of a clause: `v`'s slot, `LO` and `HI`.
fn range_binder(clause: &IClause) -> Option<(VarId, &IExpr, &IExpr)> {
    match clause {
        IClause::Bind(vars, domain) if vars.len() == 1 => match domain.as_bin()? {
            (Op::RangeIncl, lhs, rhs) => Some((vars[0].slot, lhs, rhs)),
            _ => None,
        },
        _ => None,
    }
}

/// `e / d` for the literal `d`: `e`.
fn halved(e: &IExpr, d: i64) -> Option<&IExpr> {
    match e.kind() {
        IExprKind::Bin {
            op: Op::Div,
            lhs,
            rhs,
            ..
        } if int(rhs) == Some(d) => Some(lhs),
        _ => None,
    }
}

/// `lhs - v` (natural or integer) for the variable in `slot`: `lhs`.
fn minus_var(e: &IExpr, slot: VarId) -> Option<&IExpr> {
    match e.kind() {
        IExprKind::Bin {
            op: Op::NatSub | Op::Sub,
            lhs,
            rhs,
            ..
        } if is_var(rhs, slot) => Some(lhs),
        _ => None,
    }
}

/// The leaves of a sum `x + y + ...`.
fn summands(e: &IExpr) -> Vec<&IExpr> {
    match e.kind() {
        IExprKind::Bin {
            op: Op::GameSum,
            lhs,
            rhs,
            ..
        } => {
            let mut out = summands(lhs);
            out.extend(summands(rhs));
            out
        }
        _ => vec![e],
    }
}

/// The digit bits of a split into two heaps,
///   `a in A..=(n - k) / 2 => G(a) + G(n - k - a)` (the heaps in either order):
/// with `A` 1 two non-empty heaps (bit 4); with `A` 0 the split may also leave one heap, or
/// (under `k <= n`) none (bits 4, 2 and `end_bit`; `G(0)` is worth 0, since no move of a
/// recognised game applies to the empty heap, every removal being at least 1).
fn two_heaps(gid: usize, m: &Move, k: Removal, clause: &IClause, end_bit: u8) -> Option<u8> {
    let (a, a_lo, a_hi) = range_binder(clause)?;
    if a == HEAP || k.slot() == Some(a) {
        return None;
    }
    let from = int(a_lo)?;
    if !(0..=1).contains(&from) || !halved(a_hi, 2).is_some_and(|r| is_rest(r, k)) {
        return None;
    }
    let heaps: Vec<&IExpr> = (summands(&m.result).into_iter())
        .map(|e| heap_of(e, gid))
        .collect::<Option<_>>()?;
    let [x, y] = heaps.as_slice() else {
        return None;
    };
    // `a`, and `n - k - a`, in either order.
    let other = |e: &IExpr| minus_var(e, a).is_some_and(|e| is_rest(e, k));
    if !((is_var(x, a) && other(y)) || (is_var(y, a) && other(x))) {
        return None;
    }
    Some(if from == 0 { 4 | 2 | end_bit } else { 4 })
}

/// The digit bits of a split into three heaps,
///   `a in A..=(n - k) / 3, b in a..=(n - k - a) / 2 => G(a) + G(b) + G(n - k - a - b)`
/// (the heaps in any order): each multiset `a <= b <= c` once. With `A` 1 the heaps are
/// non-empty (bit 8); with `A` 0 a split may also leave two heaps, one, or (under `k <= n`)
/// none (bits 8, 4, 2 and `end_bit`).
fn three_heaps(gid: usize, m: &Move, k: Removal, clauses: &[IClause], end_bit: u8) -> Option<u8> {
    let (a, a_lo, a_hi) = range_binder(&clauses[0])?;
    let (b, b_lo, b_hi) = range_binder(&clauses[1])?;
    if a == HEAP || b == HEAP || a == b || k.slot() == Some(a) || k.slot() == Some(b) {
        return None;
    }
    let from = int(a_lo)?;
    let a_ok = (0..=1).contains(&from) && halved(a_hi, 3).is_some_and(|r| is_rest(r, k));
    let b_ok = is_var(b_lo, a)
        && halved(b_hi, 2)
            .and_then(|r| minus_var(r, a))
            .is_some_and(|r| is_rest(r, k));
    if !a_ok || !b_ok {
        return None;
    }
    let heaps: Vec<&IExpr> = (summands(&m.result).into_iter())
        .map(|e| heap_of(e, gid))
        .collect::<Option<_>>()?;
    let [x, y, z] = heaps.as_slice() else {
        return None;
    };
    let third = |e: &IExpr| {
        minus_var(e, b)
            .and_then(|e| minus_var(e, a))
            .is_some_and(|e| is_rest(e, k))
    };
    // Which of the three is `a`, `b` and the rest: each exactly once.
    let roles = [x, y, z].map(|e| (is_var(e, a), is_var(e, b), third(e)));
    let count = |f: fn(&(bool, bool, bool)) -> bool| roles.iter().filter(|r| f(r)).count();
    if count(|r| r.0) != 1 || count(|r| r.1) != 1 || count(|r| r.2) != 1 {
        return None;
    }
    Some(if from == 0 { 8 | 4 | 2 | end_bit } else { 8 })
}
