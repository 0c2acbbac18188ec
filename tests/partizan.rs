//! Partizan games through the language: the literature's values (Antol; Winning Ways;
//! Berlekamp's sign expansion), Domineering rectangles against `cgt`, and the CLI in both
//! back ends.

use crate::common;

use common::{
    both_back_ends, example, grid, run_example, run_program, run_source, stdout, temp_file, value,
};
use proptest::prelude::*;

/// Canonical forms of Domineering rectangles, rows × columns (Left plays down), as the Rust
/// crate `cgt` 0.11 (`cgt-py`, `Domineering('..|..').canonical_form`) computes them; its
/// 1×2, 2×1, 2×2 and 2×3 are Winning Ways' -1, 1, {1|-1} and {2|-1/2}.
const CGT_RECTANGLES: [[&str; 4]; 4] = [
    ["0", "-1", "-1", "-2"],
    ["1", "{1|-1}", "{2|-1/2}", "{{2|0}|0}"],
    ["1", "{1/2|-2}", "{1|-1}", "-3/2"],
    [
        "2",
        "{0|{0|-2}}",
        "3/2",
        "{0, {{2|0}, {2|{2|0}}|{2|0}, {{2|0}|0}}|0, {{0|-2}, {0|{0|-2}}|{0|-2}, {{0|-2}|-2}}}",
    ],
];

/// A canonical form with each brace's options in one order, so that two printings of one
/// form compare equal whatever order their options were listed in.
fn normalised(form: &str) -> String {
    fn parse(s: &[u8], i: &mut usize) -> String {
        if s[*i] != b'{' {
            let start = *i;
            while *i < s.len() && !matches!(s[*i], b',' | b'|' | b'}') {
                *i += 1;
            }
            return String::from_utf8_lossy(&s[start..*i]).trim().to_string();
        }
        *i += 1;
        let mut sides = [Vec::new(), Vec::new()];
        let mut side = 0;
        loop {
            while s[*i] == b' ' {
                *i += 1;
            }
            match s[*i] {
                b'}' => {
                    *i += 1;
                    break;
                }
                b'|' => {
                    side = 1;
                    *i += 1;
                }
                b',' => *i += 1,
                _ => sides[side].push(parse(s, i)),
            }
        }
        for options in &mut sides {
            options.sort();
        }
        format!("{{{}|{}}}", sides[0].join(", "), sides[1].join(", "))
    }
    parse(form.as_bytes(), &mut 0)
}

#[test]
fn domineering_rectangles_agree_with_cgt() {
    let source = example("domineering.cgdl").replace(
        "table canonical of Domineering(rect(r, c)) for r in 1..=3, c in 1..=4",
        "table canonical of Domineering(rect(r, c)) for r in 1..=4, c in 1..=4",
    );
    let answers = run_source(&source, cgdl::runtime::Mode::Fast);
    let table = grid(&answers[0]);
    for (r, row) in CGT_RECTANGLES.iter().enumerate() {
        for (c, &expected) in row.iter().enumerate() {
            assert_eq!(
                normalised(&table[r][c]),
                normalised(expected),
                "{}×{}",
                r + 1,
                c + 1
            );
        }
    }
}

#[test]
fn domineering_example_values() {
    let answers = run_example("domineering.cgdl");
    // Antol, Figure 3.7: {2|-1/2} = 3/4 ± 5/4.
    let v = |name| value(&answers[1], name);
    assert_eq!(v("canonical"), "{2|-1/2}");
    assert_eq!((v("mean"), v("temperature")), ("3/4".into(), "5/4".into()));
    assert_eq!(
        (v("left_stop"), v("right_stop")),
        ("2".into(), "-1/2".into())
    );
    assert_eq!(v("outcome"), "N");
    // {1|-1}: Left wins moving first by either column, Right by either row.
    assert_eq!(value(&answers[2], "outcome"), "N");
    assert_eq!(
        value(&answers[2], "left_moves"),
        "Domineering({(0, 1), (1, 1)}); Domineering({(0, 0), (1, 0)})"
    );
    // {1|-1} + (-1) = {0|-2}: Left moving first reaches 0 and wins, Right moving first
    // wins too: fuzzy.
    assert_eq!(value(&answers[3], "canonical"), "{0|-2}");
    assert_eq!(value(&answers[3], "outcome"), "N");
}

/// Antol §3.1–3.2: Blue-Red(-Green) Hackenbush stalks and their values.
#[test]
fn hackenbush_values_of_the_seed() {
    let answers = run_example("hackenbush.cgdl");
    let forms: Vec<String> = answers.iter().map(|a| value(a, "canonical")).collect();
    assert_eq!(forms, ["1/4", "3/2", "*", "1*", "*", "1*"]);
    assert_eq!(value(&answers[4], "outcome"), "N");
}

/// Antol, §3.1 (Figures 3.1 and 3.2): one blue edge is 1, a blue and a red stalk side by
/// side 0, red on blue 1/2, two reds on blue 1/4, three 1/8, two blues on red -1/4, and
/// red on blue beside a red edge -1/2.
#[test]
fn hackenbush_figures_of_antol() {
    let cases = [
        ("[(0, 1, Blue)], {0}", "1"),
        ("[(0, 1, Blue), (0, 2, Red)], {0, 1}", "0"),
        ("[(0, 1, Blue), (1, 2, Red)], {0, 1}", "1/2"),
        ("[(0, 1, Blue), (1, 2, Red), (2, 3, Red)], {0, 1, 2}", "1/4"),
        (
            "[(0, 1, Blue), (1, 2, Red), (2, 3, Red), (3, 4, Red)], {0, 1, 2, 3}",
            "1/8",
        ),
        (
            "[(0, 1, Red), (1, 2, Blue), (2, 3, Blue)], {0, 1, 2}",
            "-1/4",
        ),
        (
            "[(0, 1, Blue), (1, 2, Red), (0, 3, Red)], {0, 1, 2}",
            "-1/2",
        ),
    ];
    let queries: String = (cases.iter())
        .map(|(picture, _)| format!("value canonical of Hackenbush({picture})\n"))
        .collect();
    let answers = run_source(
        &format!("{HACKENBUSH_RULES}{queries}"),
        cgdl::runtime::Mode::Fast,
    );
    for ((picture, expected), answer) in cases.iter().zip(&answers) {
        assert_eq!(value(answer, "canonical"), *expected, "{picture}");
    }
}

/// The value of a Blue-Red Hackenbush stalk by Berlekamp's sign expansion: the first run
/// of one colour counts ±1 an edge, then each edge ±1/2, ±1/4, ... (blue +, red -), as
/// numerator over 2^places.
fn sign_expansion(stalk: &[bool]) -> String {
    let first = stalk[0];
    let run = stalk.iter().take_while(|&&b| b == first).count();
    let places = (stalk.len() - run) as u32;
    let unit = 1i64 << places;
    let sign = |blue: bool| if blue { 1 } else { -1 };
    let mut num = sign(first) * run as i64 * unit;
    for (k, &blue) in stalk[run..].iter().enumerate() {
        num += sign(blue) * (unit >> (k + 1));
    }
    let (mut num, mut den) = (num, unit);
    while den > 1 && num % 2 == 0 {
        num /= 2;
        den /= 2;
    }
    if den == 1 {
        num.to_string()
    } else {
        format!("{num}/{den}")
    }
}

const HACKENBUSH_RULES: &str = "
type Colour = Blue | Red | Green
type Edge = (0..16, 0..16, Colour)
fn grounded(edges: list<Edge>, rest: set<0..16>) -> set<0..16> =
    let reached = closure({0}, v =>
        { if edges[i].0 == v then edges[i].1 else edges[i].0
          for i in rest where edges[i].0 == v or edges[i].1 == v }) in
    { i for i in rest where edges[i].0 in reached }
game Hackenbush(edges: list<Edge>, alive: set<0..16>) {
    left move blue(e in alive, edges[e].2 != Red) => Hackenbush(edges, grounded(edges, alive - {e}))
    right move red(e in alive, edges[e].2 != Blue) => Hackenbush(edges, grounded(edges, alive - {e}))
}
";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]
    /// Blue-Red stalks: the canonical form is the sign expansion's number, a sum of two
    /// stalks their numbers' sum, and the outcome its sign.
    #[test]
    fn hackenbush_stalks_follow_the_sign_expansion(
        stalk in prop::collection::vec(any::<bool>(), 1..8),
        other in prop::collection::vec(any::<bool>(), 1..4),
    ) {
        let picture = |s: &[bool], base: usize| {
            let edges: Vec<String> = (s.iter().enumerate())
                .map(|(i, &blue)| {
                    let from = if i == 0 { 0 } else { base + i };
                    let colour = if blue { "Blue" } else { "Red" };
                    format!("({from}, {}, {colour})", base + i + 1)
                })
                .collect();
            (edges, (0..s.len()).map(|i| i.to_string()).collect::<Vec<_>>())
        };
        let (edges, alive) = picture(&stalk, 0);
        let one = format!("Hackenbush([{}], {{{}}})", edges.join(", "), alive.join(", "));
        let (edges, alive) = picture(&other, 8);
        let two = format!("Hackenbush([{}], {{{}}})", edges.join(", "), alive.join(", "));
        let source = format!(
            "{HACKENBUSH_RULES}\nvalue canonical, outcome of {one}\nvalue canonical of {one} + {two}\n"
        );
        let answers = run_source(&source, cgdl::runtime::Mode::Fast);
        let expected = sign_expansion(&stalk);
        prop_assert_eq!(value(&answers[0], "canonical"), expected);
        let class = if stalk[0] { "L" } else { "R" };
        prop_assert_eq!(value(&answers[0], "outcome"), class);
        // The sum of two stalks: a number, the sum of the two numbers.
        let both: f64 = [&stalk[..], &other[..]]
            .iter()
            .map(|s| {
                let text = sign_expansion(s);
                match text.split_once('/') {
                    Some((n, d)) => n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap(),
                    None => text.parse::<f64>().unwrap(),
                }
            })
            .sum();
        let shown = value(&answers[1], "canonical");
        let got = match shown.split_once('/') {
            Some((n, d)) => n.parse::<f64>().unwrap() / d.parse::<f64>().unwrap(),
            None => shown.parse::<f64>().unwrap(),
        };
        prop_assert_eq!(got, both);
    }
}

/// Snort on small graphs, against `cgt` 0.11 (`Graph(n, edges).snort.canonical_form`).
#[test]
fn snort_agrees_with_cgt() {
    let answers = run_example("snort.cgdl");
    let forms: Vec<String> = answers.iter().map(|a| value(a, "canonical")).collect();
    assert_eq!(
        forms,
        ["*", "{1|-1}", "{2|-2}", "{{2|1}|{-1|-2}}", "{2|-2}"]
    );
    // {1|-1} has temperature 1; {2|-2} 2; {{2|1}|{-1|-2}} 3/2 (Winning Ways ch. 6).
    let temps: Vec<String> = answers[1..4]
        .iter()
        .map(|a| value(a, "temperature"))
        .collect();
    assert_eq!(temps, ["1", "2", "3/2"]);
}

/// Toads and Frogs: the outcome class of every position reachable from the example's
/// starts, against a search of the game's rules written here in Rust.
#[test]
fn toads_and_frogs_outcomes_follow_the_rules() {
    fn moves(row: &[u8], toad: bool) -> Vec<Vec<u8>> {
        let (me, other, step): (u8, u8, isize) = if toad {
            (b'T', b'F', 1)
        } else {
            (b'F', b'T', -1)
        };
        let mut out = Vec::new();
        for i in 0..row.len() as isize {
            if row[i as usize] != me {
                continue;
            }
            let at = |k: isize| {
                (0..row.len() as isize)
                    .contains(&k)
                    .then(|| row[k as usize])
            };
            for (target, over) in [(i + step, None), (i + 2 * step, Some(i + step))] {
                if at(target) == Some(b'E') && over.is_none_or(|o| at(o) == Some(other)) {
                    let mut next = row.to_vec();
                    next[i as usize] = b'E';
                    next[target as usize] = me;
                    out.push(next);
                }
            }
        }
        out
    }
    fn first_wins(row: &[u8], toad: bool) -> bool {
        moves(row, toad).iter().any(|next| !first_wins(next, !toad))
    }
    for start in ["TEF", "TTEF", "TEFF", "TTEFF", "TTETFF", "TETEFF"] {
        let cells: Vec<String> = start.chars().map(|c| c.to_string()).collect();
        let source = example("toads_frogs.cgdl")
            .lines()
            .filter(|l| !l.starts_with("value"))
            .collect::<Vec<_>>()
            .join("\n")
            + &format!("\nvalue outcome of ToadsFrogs([{}])\n", cells.join(", "));
        let answers = run_source(&source, cgdl::runtime::Mode::Fast);
        let row = start.as_bytes();
        let expected = match (first_wins(row, true), first_wins(row, false)) {
            (true, true) => "N",
            (true, false) => "L",
            (false, true) => "R",
            (false, false) => "P",
        };
        assert_eq!(value(&answers[0], "outcome"), expected, "{start}");
    }
}

#[test]
fn impartial_games_have_nimbers_for_canonical_forms() {
    let source = "game Heap(n: nat) { move take(k in 1..=n) => Heap(n - k) }\n\
                  value canonical, outcome, temperature, birthday of Heap(3)\n\
                  value canonical of Heap(3) + Heap(2)\n";
    let answers = run_source(source, cgdl::runtime::Mode::Fast);
    assert_eq!(value(&answers[0], "canonical"), "*3");
    assert_eq!(value(&answers[0], "outcome"), "N");
    assert_eq!(value(&answers[0], "temperature"), "0");
    assert_eq!(value(&answers[0], "birthday"), "3");
    assert_eq!(value(&answers[1], "canonical"), "*");
}

#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn eval_prints_canonical_form_class_and_temperature_in_both_back_ends() {
    let path = common::root().join("examples/domineering.cgdl");
    let path = path.to_str().expect("a UTF-8 path");
    let outs = both_back_ends(&[
        "eval",
        path,
        "Domineering(rect(4, 4))",
        "--value",
        "canonical,outcome,temperature",
    ]);
    for out in &outs {
        assert!(out.status.success(), "{}", common::stderr(out));
        let text = stdout(out);
        let canonical = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("canonical"))
            .expect("a canonical line")
            .trim()
            .to_string();
        assert_eq!(normalised(&canonical), normalised(CGT_RECTANGLES[3][3]));
        assert!(text.contains("outcome N"), "{text}");
        assert!(text.contains("temperature 0"), "{text}");
    }
}

#[test]
fn impartial_only_values_of_partizan_positions_are_compile_errors() {
    let source = example("domineering.cgdl");
    for (query, expected) in [
        (
            "value grundy of Domineering(rect(2, 2))",
            "`grundy` is defined for impartial games",
        ),
        (
            "value moves of Domineering(rect(2, 2))",
            "`moves` is defined for impartial games",
        ),
        (
            "value misere_form of Domineering(rect(2, 2))",
            "`misere_form` is defined for impartial games",
        ),
        (
            "value outcome of union(Domineering(rect(2, 2)), Domineering(rect(1, 2)))",
            "`union` combines impartial games",
        ),
    ] {
        let path = temp_file("partizan_errors.cgdl", &format!("{source}\n{query}\n"));
        let out = common::cgdl(&["check", path.to_str().expect("a UTF-8 path")]);
        assert_eq!(out.status.code(), Some(1), "{query}");
        let err = common::stderr(&out);
        assert!(
            err.contains("E0801") && err.contains(expected),
            "{query}: {err}"
        );
    }
    let source =
        "game D() { left move l => end }\ngame H() { move m => D() }\nvalue outcome of H()\n";
    let path = temp_file("partizan_leak.cgdl", source);
    let out = common::cgdl(&["check", path.to_str().expect("a UTF-8 path")]);
    assert!(
        common::stderr(&out).contains("leads to a partizan position"),
        "{}",
        common::stderr(&out)
    );
}

#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn partizan_solves_stop_with_clear_errors() {
    // A loopy game where only Left moves in circles is a stopper: {pass|0}, under.
    let stopper = temp_file(
        "partizan_stopper.cgdl",
        "game L(n: 0..=1) {\n    left move a => L(1 - n)\n    right move b => end\n}\nvalue canonical of L(0)\n",
    );
    for out in both_back_ends(&["run", stopper.to_str().expect("a UTF-8 path")]) {
        assert!(
            stdout(&out).contains("canonical  under"),
            "{}{}",
            stdout(&out),
            common::stderr(&out)
        );
    }
    // Where both move in turn forever it is not: its value is its onside and offside, here
    // on & off, dud.
    let loopy = temp_file(
        "partizan_loopy.cgdl",
        "game L(n: 0..=1) {\n    left move a => L(1 - n)\n    right move b => L(1 - n)\n}\nvalue canonical of L(0)\n",
    );
    for out in both_back_ends(&["run", loopy.to_str().expect("a UTF-8 path")]) {
        assert!(stdout(&out).contains("canonical  dud"), "{}", stdout(&out));
    }
    // Bach's carousel (Winning Ways) a{0,{1|1,{*,{1+*|1+*,a}|*}}|0}: its sides are not
    // stoppers, so its form is an error naming a cycle of alternating play.
    let bach = temp_file(
        "partizan_bach.cgdl",
        "const LEFT = [[4, 1], [5], [6, 3], [7], [], [4], [4], [5]]\n\
         const RIGHT = [[4], [5, 2], [6], [7, 0], [], [], [4], [5]]\n\
         game B(v: 0..8) {\n    left move l(w in LEFT[v]) => B(w)\n    right move r(w in RIGHT[v]) => B(w)\n}\n\
         value canonical of B(0)\n",
    );
    common::both_back_ends_fail_with(
        &["run", bach.to_str().expect("a UTF-8 path")],
        "the game is loopy and not a stopper: Left and Right can move in turn forever (B(0) -> B(1) -> B(2) -> B(3) -> B(0)); cgdl finds no stopper equal to its onside",
    );
    let path = common::root().join("examples/domineering.cgdl");
    let path = path.to_str().expect("a UTF-8 path");
    let board = "Domineering(rect(4, 5))";
    common::both_back_ends_fail_with(
        &[
            "eval",
            path,
            board,
            "--value",
            "canonical",
            "--max-positions",
            "1000",
        ],
        "more than 1000 positions would be solved",
    );
    common::both_back_ends_fail_with(
        &[
            "eval",
            path,
            board,
            "--value",
            "temperature",
            "--max-memory",
            "1MB",
        ],
        "reached its memory limit of 1.0 MiB",
    );
}

/// Options of a partizan game that the compiler solves as sums of parts (`opt::splits`)
/// are written as the rules write them: one position, not the sum of its parts; an option
/// of a sum written in the query keeps the sum's parts in their order, the one that moved
/// in its place.
#[test]
fn partizan_options_are_written_as_the_rules_write_them() {
    let source = "const R = 3
const C = 3
type Cell = (0..R, 0..C)
game Domineering(free: set<Cell>) {
    left move down(a in free, a.0 + 1 < R, (a.0 + 1, a.1) in free) =>
        Domineering(free - {a, (a.0 + 1, a.1)})
    right move across(a in free, a.1 + 1 < C, (a.0, a.1 + 1) in free) =>
        Domineering(free - {a, (a.0, a.1 + 1)})
}
value left_moves, options of Domineering({(0, 0), (1, 0), (2, 0), (0, 2), (1, 2)})
value left_moves of Domineering({(0, 0), (1, 0), (0, 1), (1, 1)}) + Domineering({(0, 0), (0, 1)})
";
    let program = cgdl::compiler::compile_str(source).expect("the file checks");
    assert!(
        program.games[0].split,
        "the game is solved as sums of parts"
    );
    // The program as written, not split, is the reference: its options are whole
    // positions, valued by searching them whole.
    let file = cgdl::compiler::parser::parse_file(source).expect("parses");
    let written = cgdl::compiler::check_as_written(&file, source).expect("checks");
    assert!(!written.games[0].split);
    let answers = run_program(&program, source, cgdl::runtime::Mode::Fast);
    let expected = run_program(&written, source, cgdl::runtime::Mode::Exact);
    for (i, name) in [(0, "left_moves"), (0, "options"), (1, "left_moves")] {
        assert_eq!(
            value(&answers[i], name),
            value(&expected[i], name),
            "query {i}, {name}"
        );
    }
    // Not vacuous: the first position has three winning moves for Left, each one position.
    assert_eq!(
        value(&answers[0], "left_moves")
            .matches("Domineering")
            .count(),
        3
    );
    assert_eq!(value(&answers[1], "left_moves").matches(" + ").count(), 2);
}
