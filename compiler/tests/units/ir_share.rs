//! Tests of `cgdl_compiler::ir::share`.

use crate::passes::answers;
use cgdl_compiler::ir::share::*;
use cgdl_compiler::ir::*;
use cgdl_compiler::{check_as_written, parser};
use proptest::prelude::*;

/// The program as written and shared, after checking that both answer alike.
fn both(source: &str) -> (Program, Program) {
    let file = parser::parse_file(source).expect("the test's source parses");
    let written = check_as_written(&file, source).expect("the test's source checks");
    let mut shared = written.clone();
    share(&mut shared);
    assert_eq!(answers(&written, source), answers(&shared, source));
    (written, shared)
}

/// A move as text (enough of the language for these tests).
fn show_move(p: &Program, m: &Move) -> String {
    let clauses: Vec<String> = m.clauses.iter().map(|c| show_clause(p, c)).collect();
    format!(
        "{}({}) => {}",
        m.name,
        clauses.join(", "),
        show(p, &m.result)
    )
}

fn show_clause(p: &Program, c: &IClause) -> String {
    match c {
        IClause::Bind(vars, d) => format!("{} in {}", vars[0].name, show(p, d)),
        IClause::Cond(e) => show(p, e),
        IClause::Let(v, e) => format!("let {} = {}", v.name, show(p, e)),
    }
}

fn show(p: &Program, e: &IExpr) -> String {
    let list = |es: &[IExpr]| es.iter().map(|x| show(p, x)).collect::<Vec<_>>().join(", ");
    match e.kind() {
        IExprKind::Lit(v) => v.to_string(),
        IExprKind::Var(v) => v.name.to_string(),
        IExprKind::Bin { op, lhs, rhs, .. } => {
            let op = match op {
                Op::Or => "or",
                Op::And => "and",
                Op::Eq => "==",
                Op::Lt => "<",
                Op::Gt => ">",
                Op::Ge => ">=",
                Op::Add => "+",
                Op::SetUnion => "|",
                Op::SetInter => "&",
                Op::SetDiff => "-",
                Op::GameSum => "+",
                other => panic!("{other:?} in a test"),
            };
            format!("({} {op} {})", show(p, lhs), show(p, rhs))
        }
        IExprKind::Field { tuple, index } => format!("{}.{index}", show(p, tuple)),
        IExprKind::Set(es) => format!("{{{}}}", list(es)),
        IExprKind::If {
            cond,
            then,
            otherwise,
        } => format!(
            "if {} then {} else {}",
            show(p, cond),
            show(p, then),
            show(p, otherwise)
        ),
        IExprKind::Let { var, value, body } => {
            format!("let {} = {} in {}", var.name, show(p, value), show(p, body))
        }
        IExprKind::Quant {
            kind,
            vars,
            domain,
            body,
        } => format!(
            "{kind:?} {} in {}: {}",
            vars[0].name,
            show(p, domain),
            show(p, body)
        ),
        IExprKind::Call { func, args, .. } => format!("{}({})", p.fns[*func].name, list(args)),
        IExprKind::Builtin { func, args, .. } => format!("{func:?}({})", list(args)),
        IExprKind::Pos { game, args, .. } => format!("{}({})", p.games[*game].name, list(args)),
        IExprKind::End => "end".into(),
        IExprKind::CompoundOf {
            kind,
            elem,
            clauses,
        } => {
            let clauses: Vec<String> = clauses.iter().map(|c| show_clause(p, c)).collect();
            format!("{kind:?}({} for {})", show(p, elem), clauses.join(", "))
        }
        IExprKind::Compr { elem, clauses } => {
            let clauses: Vec<String> = clauses.iter().map(|c| show_clause(p, c)).collect();
            format!("{{{} for {}}}", show(p, elem), clauses.join(", "))
        }
        IExprKind::Closure {
            kind,
            seed,
            var,
            next,
        } => format!(
            "{kind:?}({}, {} => {})",
            show(p, seed),
            var.name,
            show(p, next)
        ),
        other => panic!("{other:?} in a test"),
    }
}

/// The program's first game's moves.
fn rules(p: &Program) -> &[Move] {
    let GameKind::Rules(moves) = &p.games[0].kind else {
        panic!("the test's game has rules")
    };
    moves
}

/// The program's first game's moves as text.
fn moves(p: &Program) -> Vec<String> {
    rules(p).iter().map(|m| show_move(p, m)).collect()
}

const TWICE: &str = "fn top(s: set<0..9>) -> nat = max(s)
    game G(s: set<0..9>) {
        move m(e in s) => if top(s) > 6 then G(s - {e}) else if top(s) > 3 then end else G(s - {e})
    }
    table outcome of G(0..n) for n in 0..=9";

#[test]
fn a_call_computed_twice_is_computed_once() {
    let (written, shared) = both(TWICE);
    // `top(s)` reads only the field but can fail (on `{}`, which has no `e`): it stays
    // after the binder. `s - {e}` stays in its branches: the one that ends the game
    // does not compute it.
    assert_eq!(
        moves(&shared),
        ["m(e in s) => let shared_1 = top(s) in \
          if (shared_1 > 6) then G((s - {e})) else if (shared_1 > 3) then end else G((s - {e}))"]
    );
    assert_eq!(
        shared.games[0].locals.len(),
        written.games[0].locals.len() + 1
    );
}

const SIDE_BY_SIDE: &str = "game G(s: set<0..9>) {
        move m(e in s) =>
            if len({x for x in s where x > 2}) > 1 then G({x for x in s where x > 2} - {e})
            else G(s - {e})
    }
    table grundy of G(0..n) for n in 0..=7";

#[test]
fn an_expression_binding_its_own_names_is_shared() {
    // The two comprehensions bind `x` in two slots (each binding has its own); they
    // compute the same set, computed once (before the binder: it reads only the field).
    let (written, shared) = both(SIDE_BY_SIDE);
    let slots = |p: &Program| {
        let mut slots = Vec::new();
        rules(p)[0]
            .result
            .for_each_bind(&mut |v| slots.push(v.slot));
        slots
    };
    assert_eq!(slots(&written).len(), 2);
    assert_ne!(slots(&written)[0], slots(&written)[1]);
    assert_eq!(
        moves(&shared),
        [
            "m(let shared_2 = {x for x in s, (x > 2)}, let shared_1 = (Len(shared_2) > 1), \
          e in s) => if shared_1 then G((shared_2 - {e})) else G((s - {e}))"
        ]
    );
}

const LOOP: &str = "game G(s: set<0..9>) {
        move m(e in s, exists f in s: len(s & {e, 1, 2}) > f) => G(s - {e})
    }
    table grundy of G(0..n) for n in 0..=7";

#[test]
fn work_that_cannot_fail_leaves_its_loop() {
    let (_, shared) = both(LOOP);
    assert_eq!(
        moves(&shared),
        ["m(e in s, let shared_1 = Len((s & {e, 1, 2})) in Exists f in s: (shared_1 > f)) => G((s - {e}))"]
    );
}

const FAILING_LOOP: &str = "fn top(s: set<0..9>) -> nat = max(s)
    game G(s: set<0..9>) {
        move m(e in s, exists f in s - {e}: top(s - {e}) >= f + 1) => G(s - {e})
    }
    table outcome of G({e}) for e in 0..3
    table grundy of G(0..n) for n in 0..=6";

#[test]
fn work_that_can_fail_stays_in_its_loop() {
    // `top` of an empty set fails: with `s == {e}` the loop never runs, so neither does
    // `top`. (`s - {e}`, which cannot fail, is shared: it stands three times.)
    let (_, shared) = both(FAILING_LOOP);
    assert_eq!(
        moves(&shared),
        ["m(e in s, let shared_1 = (s - {e}), Exists f in shared_1: (top(shared_1) >= (f + 1))) \
          => G(shared_1)"]
    );
}

const GUARDED: &str = "fn top(s: set<0..9>) -> nat = max(s)
    game G(s: set<0..9>) {
        move m(e in s) =>
            if len(s) > 1 and top(s - {e}) > 4 then G(s - {e})
            else if len(s) > 1 and top(s - {e}) < 2 then end
            else G(s - {e})
    }
    table outcome of G({e}) for e in 0..3
    table grundy of G(0..n) for n in 0..=6";

#[test]
fn work_is_not_computed_before_its_guard() {
    // Each `top(s - {e})` stands behind `len(s) > 1`: computed first, it would fail on
    // the one-element sets. (Nor is `s - {e}` shared: the branch to `end` after a
    // short `len(s) > 1` does not compute it.)
    let (written, shared) = both(GUARDED);
    assert_eq!(format!("{shared:?}"), format!("{written:?}"));
}

const APART: &str = "game G(s: set<0..9>) {
        move m(e in s, len((let x = {e} in s - x)) > len((let x = {e, 1} in s - x))) => G(s - {e})
    }
    table grundy of G(0..n) for n in 0..=7";

#[test]
fn names_bound_apart_are_not_one_value() {
    // The same text under two binders of `x`: two values.
    let (written, shared) = both(APART);
    assert_eq!(format!("{shared:?}"), format!("{written:?}"));
}

const CHEAP: &str = "type Cell = (0..3, 0..3)
    fn around(x: Cell) -> set<Cell> = { y for y in Cell where y.0 == x.0 }
    game G(s: set<Cell>) {
        move m(x in s, len(around(x) & s) > 1 and len(around(x) & s) < 3) => G(s - around(x))
        move n(x in s, x.0 + 1 > 1 and x.0 + 1 < 3) => G(s - {x}) + G(s - {x})
    }
    value grundy of G(Cell)";

#[test]
fn cheap_and_position_expressions_stay() {
    // `len(around(x) & s)` is costly for its `&` and shared; `around(x)` (a table of a
    // cell) is not on its own; `x.0 + 1` is cheap; `G(s - {x})` is a position, and only
    // its set is shared.
    let (_, shared) = both(CHEAP);
    assert_eq!(
        moves(&shared),
        [
            "m(x in s, let shared_1 = Len((around(x) & s)) in ((shared_1 > 1) and (shared_1 < 3))) \
             => G((s - around(x)))",
            "n(x in s, (((x.0 + 1) > 1) and ((x.0 + 1) < 3))) => \
             let shared_2 = (s - {x}) in (G(shared_2) + G(shared_2))"
        ]
    );
}

const MOVE_LOOP: &str = "fn spread(x: set<0..9>) -> set<nat> = { e * 3 for e in x }
    game G(s: set<0..9>) {
        move m(e in s, exists x in s: len(s - {x}) > 2) => G(s - {e})
        move n(e in s, len(spread(s - {e})) > 2) =>
            if len(spread(s - {e})) > 4 then end else G(s - {e})
    }
    table outcome of G(0..n) for n in 0..=6";

#[test]
fn moves_share_across_their_clauses_and_leave_their_binders() {
    // A move's binder is a loop: a condition on the field alone is computed once; a
    // value its condition and its result both compute becomes a `let` clause.
    let (_, shared) = both(MOVE_LOOP);
    assert_eq!(
        moves(&shared),
        [
            "m(let shared_1 = Exists x in s: (Len((s - {x})) > 2), e in s, shared_1) \
             => G((s - {e}))",
            "n(e in s, let shared_3 = (s - {e}), let shared_2 = Len(spread(shared_3)), \
             (shared_2 > 2)) => if (shared_2 > 4) then end else G(shared_3)"
        ]
    );
}

#[test]
fn the_language_reference_example() {
    // docs/LANGUAGE.md, "Constants and functions".
    let source = "fn top(s: set<0..9>) -> nat = max(s)
        game G(s: set<0..9>) {
            move m(e in s) => if top(s - {e}) > 6 then end else if top(s - {e}) > 3 then G(s - {e}) else end
        }
        table outcome of G(0..n) for n in 0..=9";
    let (_, shared) = both(source);
    assert_eq!(
        moves(&shared),
        [
            "m(e in s) => let shared_2 = (s - {e}) in let shared_1 = top(shared_2) in \
          if (shared_1 > 6) then end else if (shared_1 > 3) then G(shared_2) else end"
        ]
    );
}

#[test]
fn comprehension_sums_keep_their_clauses() {
    // `s - {x}` twice, in the parts' seed and in each part: a `let` around the sum, so
    // that the sum keeps its one clause (native code reads that shape).
    let source = "type Cell = (0..2, 0..3)
        fn near(x: Cell) -> set<Cell> = { y for y in Cell where abs(y.0 - x.0) + abs(y.1 - x.1) == 1 }
        game G(s: set<Cell>) {
            move m(x in s) => sum(G(part & (s - {x})) for part in components(s - {x}, y => near(y)))
        }
        value grundy of G(Cell)";
    let (_, shared) = both(source);
    assert_eq!(
        moves(&shared),
        ["m(x in s) => let shared_1 = (s - {x}) in \
          Sum(G((part & shared_1)) for part in Components(shared_1, y => near(y)))"]
    );
}

/// Random moves over a set field, built from a few set and number expressions that
/// they use more than once, in conditions, guards, loops and results; `top` and
/// `least` fail on the empty set (with two messages), `low` cannot fail.
mod random {
    use proptest::prelude::*;

    fn set_expr() -> impl Strategy<Value = String> {
        let leaf = prop_oneof![
            Just("s".to_string()),
            Just("(s - {e})".to_string()),
            (0..7i64).prop_map(|k| format!("(s & {{{k}, {}}})", (k + 3) % 7)),
            (0..7i64).prop_map(|k| format!("(s | {{{k}}})")),
        ];
        leaf.prop_recursive(2, 8, 2, |inner| {
            prop_oneof![
                inner.clone().prop_map(|a| format!("low({a})")),
                (inner.clone(), 0..5i64)
                    .prop_map(|(a, k)| format!("{{ f for f in {a} where f > {k} }}")),
                (inner.clone(), inner).prop_map(|(a, b)| format!("({a} - {b})")),
            ]
        })
    }

    fn number(sets: Vec<String>) -> impl Strategy<Value = String> {
        let pick = proptest::sample::select(sets);
        prop_oneof![
            pick.clone().prop_map(|a| format!("len({a})")),
            pick.clone().prop_map(|a| format!("top({a})")),
            pick.clone().prop_map(|a| format!("least({a})")),
            (pick, 0..5i64).prop_map(|(a, k)| format!("(count g in {a}: g > {k})")),
            (0..6i64).prop_map(|k| k.to_string()),
        ]
    }

    fn condition(sets: Vec<String>) -> impl Strategy<Value = String> {
        let n = || number(sets.clone());
        let pick = proptest::sample::select(sets.clone());
        let leaf = prop_oneof![
            (n(), n()).prop_map(|(a, b)| format!("{a} > {b}")),
            (n(), 0..4i64).prop_map(|(a, k)| format!("{a} == {k}")),
            (pick, n()).prop_map(|(a, b)| format!("(exists h in {a}: {b} > h)")),
            Just("len(s) > 1".to_string()),
        ];
        leaf.prop_recursive(2, 6, 2, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} and {b})")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} or {b})")),
                inner.prop_map(|a| format!("not ({a})")),
            ]
        })
    }

    fn game_move(i: usize) -> impl Strategy<Value = String> {
        proptest::collection::vec(set_expr(), 1..=3).prop_flat_map(move |sets| {
            let c = || condition(sets.clone());
            (c(), c(), c(), 0..3usize).prop_map(move |(guard, a, b, shape)| {
                let result = match shape {
                    0 => "H(s - {e})".to_string(),
                    1 => format!("if {a} then end else H(s - {{e}})"),
                    _ => format!("if {a} then H(s - {{e}}) else if {b} then end else H(s - {{e}})"),
                };
                format!("    move m{i}(e in s, {guard}) => {result}\n")
            })
        })
    }

    pub(super) fn program() -> impl Strategy<Value = String> {
        (game_move(0), game_move(1)).prop_map(|(a, b)| {
            format!(
                "fn top(x: set<0..6>) -> nat = max(x)\n\
                 fn least(x: set<0..6>) -> nat = min(x)\n\
                 fn low(x: set<0..6>) -> set<0..6> = {{ y for y in x where y < 4 }}\n\
                 game H(s: set<0..6>) {{\n{a}{b}}}\n\
                 table outcome, grundy of H(0..n) for n in 0..=6\n\
                 table outcome of H({{e}}) for e in 0..4\n\
                 table outcome of H({{e, e + 2}}) for e in 0..5\n"
            )
        })
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The pass keeps every answer and every error message (`both` compares them).
    #[test]
    fn sharing_keeps_answers_and_errors(source in random::program()) {
        both(&source);
    }
}

#[test]
fn work_a_condition_skips_stays_behind_it() {
    // `len(s - {e})` inside the loop is behind `f > 2`, and `s - {e}` stands in two
    // of three branches: neither moves. (Moved, each would be computed
    // where the rule as written skips it.)
    let source = "game G(s: set<0..9>) {
            move m(e in s, exists f in s: f > 2 and len(s - {e}) > f) => G(s - {e})
            move n(e in s) => if len(s) > 3 then G(s - {e}) else if len(s) > 1 then end else G(s - {e})
        }
        table outcome of G(0..n) for n in 0..=7";
    let (written, shared) = both(source);
    assert_eq!(format!("{shared:?}"), format!("{written:?}"));
}

#[test]
fn a_value_in_a_loop_and_a_branch_leaves_the_loop_then_is_shared() {
    // `s - {e}` in the loop's body and in the `else`: not computed on every path, so
    // not shared where it stands; out of the loop first, it is computed whenever the
    // condition is, and then shared (no alias of one name for another is left).
    let source = "game G(s: set<0..9>) {
            move m(e in s) => if exists f in s: len(s - {e}) > f + 4 then end else G(s - {e})
        }
        table outcome of G(0..n) for n in 0..=8";
    let (_, shared) = both(source);
    assert_eq!(
        moves(&shared),
        ["m(e in s) => let shared_2 = (s - {e}) in \
          if let shared_1 = Len(shared_2) in Exists f in s: (shared_1 > (f + 4)) \
          then end else G(shared_2)"]
    );
}

#[test]
fn a_value_that_can_fail_keeps_a_sum_of_parts_whole() {
    // `cut(s - {x})` can fail (its `+`), stands in the parts' seed, computed first,
    // and in each part: a `let` around the sum, not a clause inside it, as for a value
    // that cannot fail (`comprehension_sums_keep_their_clauses`).
    let source = "type Cell = (0..2, 0..3)
        fn near(x: Cell) -> set<Cell> = { y for y in Cell where abs(y.0 - x.0) + abs(y.1 - x.1) == 1 }
        fn cut(x: set<Cell>) -> set<Cell> = { y for y in x where y.0 + 1 > 0 }
        game G(s: set<Cell>) {
            move m(x in s) => sum(G(part & cut(s - {x})) for part in components(cut(s - {x}), y => near(y)))
        }
        value grundy of G(Cell)";
    let (_, shared) = both(source);
    assert_eq!(
        moves(&shared),
        ["m(x in s) => let shared_1 = cut((s - {x})) in \
          Sum(G((part & shared_1)) for part in Components(shared_1, y => near(y)))"]
    );
}
