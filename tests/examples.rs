//! Every example of examples/ against its literature values, through the language and the
//! reference interpreter.

use crate::common;

use cgdl::runtime::report::Answer;
use cgdl::runtime::Mode;
use common::*;

#[test]
fn kings_horses_figures_4_5_6_9() {
    let answers = run_example("kings_horses.cgdl");
    let seeds = seed_tables();
    for (i, key) in [
        "lenhardt_fig4_horses_outcome",
        "lenhardt_fig5_horses_remoteness",
        "lenhardt_fig6_horses_suspense",
        "lenhardt_fig9_horses_wnumber",
    ]
    .iter()
    .enumerate()
    {
        assert_eq!(grid(&answers[i]), seed_grid(&seeds[key]), "{key}");
    }
    let rem = seed_grid(&seeds["lenhardt_fig5_horses_remoteness"]);
    let sus = seed_grid(&seeds["lenhardt_fig6_horses_suspense"]);
    let num = |s: &str| s.parse::<u32>().expect("number");
    // Horses at (7,7), (3,4), (5,2): conjunctive takes the least remoteness, continued the
    // greatest suspense; winner-takes-all ⊕w's the w-numbers 0, 2, 2.
    let r = [num(&rem[7][7]), num(&rem[3][4]), num(&rem[5][2])];
    let min_r = *r.iter().min().expect("three");
    assert_eq!(value(&answers[4], "remoteness"), min_r.to_string());
    assert_eq!(
        value(&answers[4], "outcome"),
        if min_r % 2 == 0 { "P" } else { "N" }
    );
    let s = [num(&sus[7][7]), num(&sus[3][4]), num(&sus[5][2])];
    let max_s = *s.iter().max().expect("three");
    assert_eq!(value(&answers[5], "suspense"), max_s.to_string());
    assert_eq!(
        value(&answers[5], "outcome"),
        if max_s % 2 == 0 { "P" } else { "N" }
    );
    assert_eq!(value(&answers[6], "wnumber"), "0");
    assert_eq!(value(&answers[6], "moves"), "none");
}

#[test]
fn queens_figure_2_union_selective() {
    let answers = run_example("queens.cgdl");
    let fig2 = seed_grid(&seed_tables()["lenhardt_fig2_queens_grundy"]);
    assert_eq!(grid(&answers[0]), fig2);
    // (1,2), (2,1), (3,5) all have Grundy value 0 in Figure 2: the union is P.
    for (r, c) in [(1, 2), (2, 1), (3, 5)] {
        assert_eq!(fig2[r][c], "0");
    }
    assert_eq!(value(&answers[1], "outcome"), "P");
    assert_eq!(value(&answers[1], "moves"), "none");
    assert_eq!(value(&answers[2], "outcome"), "N");
    // (1,1), (2,0), (0,2) all 2: selective is P; (1,1) = 2 and (3,3) = 6: N, and the
    // winning move brings (3,3) down to a square of value 2.
    assert_eq!([&fig2[1][1], &fig2[2][0], &fig2[0][2]], ["2", "2", "2"]);
    assert_eq!(value(&answers[3], "outcome"), "P");
    assert_eq!(value(&answers[4], "outcome"), "N");
    assert_eq!(
        value(&answers[4], "moves"),
        "selective(Queen(1, 1), Queen(1, 1))"
    );
}

#[test]
fn limited_nim_table_and_example_5_2() {
    let answers = run_example("limited_nim.cgdl");
    let t = &seed_tables()["lenhardt_limited_nim_134"];
    let col =
        |k: &str| -> Vec<String> { t[k].as_array().expect("column").iter().map(shown).collect() };
    assert_eq!(column(&answers[0], 1), col("grundy"));
    assert_eq!(column(&answers[0], 2), col("wnumber"));
    assert_eq!(column(&answers[0], 3), col("misere_wnumber"));
    match &answers[1] {
        Answer::Period {
            preperiod,
            period,
            proven,
            ..
        } => assert_eq!((*preperiod, *period, *proven), (Some(0), Some(7), true)),
        other => panic!("{other:?}"),
    }
    assert_eq!(value(&answers[2], "wnumber"), "1");
    assert_eq!(value(&answers[2], "outcome"), "N");
    assert_eq!(value(&answers[3], "wnumber"), "SW");
}

#[test]
fn subtraction_sugar_equals_its_rule() {
    let source = format!(
        "{}\ntable grundy, wnumber, misere_wnumber of LimitedNim(n) for n in 0..=200\n\
         table grundy, wnumber, misere_wnumber of LimitedNimRule(n) for n in 0..=200\n",
        example("limited_nim.cgdl")
    );
    let answers = run_source(&source, Mode::Fast);
    let n = answers.len();
    assert_eq!(
        answers[n - 2],
        rename(&answers[n - 1], "LimitedNimRule", "LimitedNim")
    );
}

/// The same answer with the query text rewritten (to compare two games' tables).
fn rename(a: &Answer, from: &str, to: &str) -> Answer {
    let mut a = a.clone();
    if let Answer::Table { query, .. } | Answer::Period { query, .. } = &mut a {
        *query = query.replace(from, to);
    }
    a
}

/// Antol, Figure 2.5: rows p = 0..3 of the one-pile (take 1-3) + Nim(1,2,3) table; the
/// printed rows 4..21 repeat them.
const ANTOL_FIG_2_5: [[u32; 14]; 4] = [
    [0, 1, 0, 2, 1, 3, 3, 2, 0, 2, 3, 1, 1, 0],
    [1, 0, 1, 3, 0, 2, 2, 3, 1, 3, 2, 0, 0, 1],
    [2, 3, 2, 0, 3, 1, 1, 0, 2, 0, 1, 3, 3, 2],
    [3, 2, 3, 1, 2, 0, 0, 1, 3, 1, 0, 2, 2, 3],
];

#[test]
fn one_pile_plus_nim_figure_2_5() {
    let answers = run_example("one_pile.cgdl");
    let g = grid(&answers[0]);
    assert_eq!(g.len(), 22);
    for (p, row) in g.iter().enumerate() {
        assert_eq!(row, &strings(&ANTOL_FIG_2_5[p % 4]), "row {p}");
    }
    // Antol's green square: 13 counters and (1, 1, 3) has value 2.
    assert_eq!(g[13][10], "2");
    assert_eq!(value(&answers[1], "outcome"), "N");
}

#[test]
fn wythoff_figure_2_3() {
    let answers = run_example("wythoff.cgdl");
    let want = seed_grid(&seed_tables()["antol_fig2_3_wythoff_grundy_10x10"]["grid"]);
    assert_eq!(grid(&answers[0]), want);
    assert_eq!(value(&answers[1], "outcome"), "P");
    assert_eq!(value(&answers[2], "moves"), "Wythoff(8, 13)");
}

#[test]
fn nim_and_misere_nim() {
    let answers = run_example("nim.cgdl");
    assert_eq!(
        values(&answers[0]),
        [
            ("outcome".into(), "P".into()),
            ("grundy".into(), "0".into())
        ]
    );
    assert_eq!(
        values(&answers[1]),
        [
            ("outcome".into(), "N".into()),
            ("grundy".into(), "2".into())
        ]
    );
    assert_eq!(
        value(&answers[2], "moves"),
        "Heap(25) + Heap(19) + Heap(10)"
    );
    assert_eq!(
        column(&answers[3], 1),
        strings(&[0, 1, 2, 3, 4, 5, 6, 7, 8])
    );
    // Misère Nim's rule (Bouton 1901) on each misère position.
    let misere = ["P", "N", "P", "N"];
    for (i, want) in misere.iter().enumerate() {
        assert_eq!(value(&answers[4 + i], "misere_outcome"), *want);
    }
}

#[test]
fn level_nim_example_5_1() {
    let answers = run_example("level_nim.cgdl");
    // Neither superpile of (3, 7, 2) and (4, 6) has a single pile, so the game reduces to the
    // ordinary sum of (3, 7) and (4) (Lenhardt §5.1): its Grundy value decides.
    let reduced = value(&answers[2], "grundy");
    assert_ne!(reduced, "0");
    assert_eq!(value(&answers[0], "outcome"), "N");
    assert_eq!(value(&answers[1], "wnumber"), "SW");
}

#[test]
fn degenerate_dots_empty_boards() {
    // Theorems 4.1 and 4.2: second player wins iff rows + cols is even.
    let answers = run_example("degenerate_dots.cgdl");
    let want = |r: u32, c: u32| if (r + c).is_multiple_of(2) { "P" } else { "N" };
    let g = grid(&answers[0]);
    for (i, r) in (2..=3).enumerate() {
        for (j, c) in (2..=4).enumerate() {
            assert_eq!(g[i][j], want(r, c), "{r}x{c}");
        }
    }
    assert_eq!(column(&answers[1], 1), [want(4, 2), want(4, 3)], "4x2, 4x3");
    // Two regions as winner-takes-all, and a superwinning box.
    assert_eq!(value(&answers[2], "outcome"), "P");
    assert_eq!(value(&answers[3], "wnumber"), "SW");
}

#[test]
fn dots_with_a_line_type() {
    // The same game with its lines as a tagged union (`type Line = H(..) | V(..)`), a
    // `match` and a `set<Line>` field. Theorems 4.1 and 4.2 on every board from 2x2 to
    // 3x4 dots (the board size is the file's constants).
    let source = example("dots_lines.cgdl");
    for r in 2..=3u32 {
        for c in 2..=4u32 {
            let answers = run_source(&resized(&source, r, c), Mode::Fast);
            let want = if (r + c).is_multiple_of(2) { "P" } else { "N" };
            assert_eq!(value(&answers[0], "outcome"), want, "{r}x{c}");
        }
    }
    let answers = run_example("dots_lines.cgdl");
    // The empty 3x3 board is P: every first line (all 12, H before V) leaves an N position.
    let lines = column(&answers[1], 0);
    assert_eq!(lines.len(), 12);
    assert_eq!(
        (lines[0].as_str(), lines[11].as_str()),
        ("H(0, 0)", "V(1, 2)")
    );
    assert!(column(&answers[1], 1).iter().all(|o| o == "N"));
    // Three sides of a box: superwinning (Lenhardt §4).
    assert_eq!(value(&answers[2], "wnumber"), "SW");
    // Every horizontal line drawn: each vertical line leaves a box to complete, so P.
    assert_eq!(value(&answers[3], "grundy"), "0");
}

#[test]
fn cram_over_tuple_cells() {
    // Cram on boards from 1x1 to 4x4 (the board is the file's constants): even x even is P
    // by central symmetry, even x odd is N (Winning Ways ch. 23).
    let source = example("cram.cgdl");
    for r in 1..=4u32 {
        for c in 1..=4u32 {
            let answers = run_source(&resized(&source, r, c), Mode::Fast);
            let outcome = value(&answers[0], "outcome");
            if r.is_multiple_of(2) && c.is_multiple_of(2) {
                assert_eq!(outcome, "P", "{r}x{c}");
            } else if (r * c).is_multiple_of(2) {
                assert_eq!(outcome, "N", "{r}x{c}");
            }
        }
    }
    let answers = run_example("cram.cgdl");
    // A 1 x n strip is a heap of Dawson's Kayles (0.07); 2 x n boards are P for even n and
    // N for odd n.
    assert_eq!(column(&answers[1], 1), strings(&DAWSON[..5]));
    for (n, g) in column(&answers[2], 1).iter().enumerate() {
        assert_eq!(g == "0", n % 2 == 0, "2x{n}: {g}");
    }
}

/// OEIS A002186 (Kayles), A002187 (Dawson's Kayles, 0.07), A002188 (Grundy's game).
const KAYLES: [u32; 40] = [
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2,
    1, 8, 6, 7, 4, 1, 2, 3,
];
const DAWSON: [u32; 40] = [
    0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3, 0, 1, 1, 3, 0, 2, 1, 1, 0, 4, 5,
    2, 7, 4, 0, 1, 1, 2, 0,
];
const GRUNDY: [u32; 40] = [
    0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3, 0, 4, 3, 0, 4, 3, 0, 4, 1, 2, 3, 1,
    2, 4, 1, 2, 4, 1, 2, 4,
];

#[test]
fn take_and_break_sequences() {
    let kayles = run_example("kayles.cgdl");
    assert_eq!(column(&kayles[0], 1)[..31], strings(&KAYLES[..31]));
    for (i, proven) in [(1, true), (2, true)] {
        match &kayles[i] {
            Answer::Period {
                preperiod,
                period,
                proven: p,
                ..
            } => assert_eq!((*preperiod, *period, *p), (Some(71), Some(12), proven)),
            other => panic!("{other:?}"),
        }
    }
    let dawson = run_example("dawsons_kayles.cgdl");
    assert_eq!(column(&dawson[0], 1)[..40], strings(&DAWSON));
    let grundy = run_example("grundys_game.cgdl");
    assert_eq!(column(&grundy[0], 1)[..40], strings(&GRUNDY));
}

/// Guy–Smith proves periods of Grundy values counted from heap 0 only: a remoteness
/// sequence, or one that starts past 0, may look periodic but is never called proven.
#[test]
fn periods_are_proven_only_for_grundy_values_from_zero() {
    // 0.1: a heap of one may be taken; larger heaps are dead. Every sequence is periodic.
    let source = "game K = octal \"0.1\"\n\
        period grundy of K(n) for n in 0..=30\n\
        period remoteness of K(n) for n in 0..=30\n\
        period grundy of K(n) for n in 1..=30\n";
    let answers = run_source(source, Mode::Fast);
    let proven: Vec<bool> = answers
        .iter()
        .map(|a| match a {
            Answer::Period { proven, period, .. } => {
                assert!(period.is_some(), "{a:?}");
                *proven
            }
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(proven, [true, false, false]);
}

#[test]
fn octal_sugar_equals_explicit_rules_to_200() {
    let source = format!(
        "{}\n{}\ntable grundy of Kayles(n) for n in 0..=200\ntable grundy of KaylesOctal(n) for n in 0..=200\n\
         table grundy of Dawson(n) for n in 0..=200\ntable grundy of DawsonOctal(n) for n in 0..=200\n",
        example("kayles.cgdl"),
        example("dawsons_kayles.cgdl")
    );
    let answers = run_source(&source, Mode::Fast);
    let n = answers.len();
    assert_eq!(
        column(&answers[n - 4], 1),
        column(&answers[n - 3], 1),
        "Kayles vs 0.77"
    );
    assert_eq!(
        column(&answers[n - 2], 1),
        column(&answers[n - 1], 1),
        "Dawson vs 0.07"
    );
    assert_eq!(column(&answers[n - 4], 1)[..40], strings(&KAYLES));
}

#[test]
fn green_hackenbush_pictures() {
    // Antol §2.6: stalk 3; colon principle 1 + (1 xor 2) = 4 and 1 + (1 xor 1) = 1; fusion:
    // triangle on the ground 1, triangle on a stalk 2, square on a stalk 1.
    let answers = run_example("green_hackenbush.cgdl");
    let got: Vec<String> = answers.iter().map(|a| value(a, "grundy")).collect();
    assert_eq!(got, strings(&[3, 4, 1, 1, 2, 1]));
}

#[test]
fn silver_dollar_and_northcott_are_nim() {
    let coins = run_example("silver_dollar.cgdl");
    let heaps = [2u32, 2, 4, 1];
    let xor = heaps.iter().fold(0, |a, h| a ^ h);
    assert_eq!(value(&coins[0], "grundy"), xor.to_string());
    assert_eq!(value(&coins[1], "grundy"), "0");
    assert_eq!(value(&coins[2], "grundy"), "2");
    let rows = run_example("northcott.cgdl");
    assert_eq!(column(&rows[0], 1), strings(&[0, 1, 2, 3, 4, 5, 6]));
    // Gaps 4, 2 and 5: 4 xor 2 xor 5 = 3.
    assert_eq!(value(&rows[1], "grundy"), "3");
}

#[test]
fn exact_search_agrees_on_the_compound_examples() {
    for name in [
        "kings_horses.cgdl",
        "queens.cgdl",
        "level_nim.cgdl",
        "limited_nim.cgdl",
    ] {
        let source = example(name);
        assert_eq!(
            run_source(&source, Mode::Fast),
            run_source(&source, Mode::Exact),
            "{name}"
        );
    }
}

#[test]
fn every_cgdl_block_of_the_reference_checks() {
    let doc = std::fs::read_to_string(root().join("docs/LANGUAGE.md")).expect("reference");
    let mut blocks = 0;
    let mut rest = doc.as_str();
    while let Some(start) = rest.find("```cgdl\n") {
        let body = &rest[start + "```cgdl\n".len()..];
        let end = body.find("```").expect("closed block");
        let source = &body[..end];
        if let Err(d) = cgdl::compiler::compile_str(source) {
            panic!(
                "docs/LANGUAGE.md block {blocks}:\n{}",
                cgdl::compiler::diagnostics::render_all(&d, "LANGUAGE.md", source)
            );
        }
        blocks += 1;
        rest = &body[end + 3..];
    }
    assert!(blocks >= 5, "only {blocks} cgdl blocks");
}

/// Node Kayles: the Petersen graph is 1 (issue 15's value), and on paths it is Dawson's
/// chess, the octal game 0.137 (Winning Ways ch. 4), computed here by the heap engine.
#[test]
fn node_kayles_petersen_and_paths() {
    let answers = run_example("node_kayles.cgdl");
    assert_eq!(value(&answers[0], "grundy"), "1");
    assert_eq!(value(&answers[1], "grundy"), "0");
    let source = example("node_kayles.cgdl");
    let rules: String = (source.lines())
        .filter(|l| !l.starts_with("value") && !l.starts_with("table"))
        .collect::<Vec<_>>()
        .join("\n");
    let mut queries = String::new();
    for n in 1..=10 {
        let edges: Vec<String> = (0..n - 1).map(|i| format!("({i}, {})", i + 1)).collect();
        queries += &format!(
            "value grundy of NodeKayles([{}], 0..{n})\nvalue grundy of DawsonsChess({n})\n",
            edges.join(", ")
        );
    }
    let answers = run_source(&format!("{rules}\n{queries}"), cgdl::runtime::Mode::Fast);
    // Node Kayles on a path of n vertices by the definition: a pick at vertex i leaves
    // paths of i - 1 and n - i - 2 vertices (none where that is negative).
    let mut path = [0u32; 11];
    for n in 1..=10usize {
        let values: Vec<u32> = (0..n)
            .map(|i| path[i.saturating_sub(1)] ^ path[n.saturating_sub(i + 2)])
            .collect();
        path[n] = (0..).find(|g| !values.contains(g)).expect("a mex");
    }
    for (n, pair) in (1..=10).zip(answers.chunks(2)) {
        let expected = path[n].to_string();
        assert_eq!(
            value(&pair[0], "grundy"),
            expected,
            "Node Kayles, path of {n}"
        );
        assert_eq!(value(&pair[1], "grundy"), expected, "Dawson's chess {n}");
    }
}

/// Loopy games: values by Smith's theory and partizan outcomes, each derived in the
/// example's comments, in fast mode (sums by Smith's rule) and exact mode (each sum's own
/// graph).
#[test]
fn loopy_token_and_nim_with_an_added_coin() {
    for mode in [Mode::Fast, Mode::Exact] {
        let answers = run_source(&example("loopy.cgdl"), mode);
        let token = ["1", "0", "0", "∞{0}", "0", "1", "0", "1"];
        assert_eq!(column(&answers[0], 1), token, "{mode:?}");
        assert_eq!(
            column(&answers[0], 2),
            ["N", "P", "P", "N", "P", "N", "P", "N"]
        );
        assert_eq!(
            column(&answers[0], 3),
            ["1", "2", "0", "1", "2", "1", "4", "3"]
        );
        assert_eq!(
            values(&answers[1]),
            pairs(&[("grundy", "0"), ("outcome", "P")])
        );
        assert_eq!(
            values(&answers[2]),
            pairs(&[("grundy", "∞{1}"), ("outcome", "D")])
        );
        assert_eq!(
            values(&answers[3]),
            pairs(&[("grundy", "∞{1}"), ("outcome", "D")])
        );
        assert_eq!(column(&answers[4], 1), ["0", "∞{0}", "∞{0}", "∞{0}"]);
        assert_eq!(column(&answers[4], 2), ["P", "N", "N", "N"]);
        assert_eq!(
            values(&answers[5]),
            pairs(&[("outcome", "D"), ("moves", "none")])
        );
        assert_eq!(
            values(&answers[6]),
            pairs(&[("outcome", "N"), ("moves", "Heap(0) + Heap(0)")])
        );
        assert_eq!(value(&answers[7], "grundy"), "∞");
        assert_eq!(
            values(&answers[8]),
            pairs(&[("grundy", "∞{1}"), ("outcome", "D")])
        );
        let slide = ["R/D", "D", "D", "D/L", "L", "P"];
        assert_eq!(column(&answers[9], 1), slide);
        assert_eq!(value(&answers[10], "outcome"), "D");
    }
}

fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
    items
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect()
}

/// Stoppers' simplest forms: Conway's named stoppers by name, Siegel's irreducible 4-cycle
/// (CGT figure VI.3.2) kept whole from each of its vertices, upon + * = {0, pass|0} (Winning
/// Ways), over + over = over (Left's move to over reverses through over), and dud's draws.
/// Games that are not stoppers by their sides, as CGSuite gives them: dud = on & off, tis =
/// 1 & 0, {0|{dud|},*} = ^ & v*.
#[test]
fn stoppers_have_their_published_forms() {
    for mode in [Mode::Fast, Mode::Exact] {
        let answers = run_source(&example("stoppers.cgdl"), mode);
        let forms = [
            "0",
            "*",
            "on",
            "off",
            "over",
            "under",
            "upon",
            "a{0|{0|{{a|*}|*}}}",
            "a{0|{{{0|a}|*}|*}}",
            "a{{{0|{0|a}}|*}|*}",
            "a{{0|{0|{a|*}}}|*}",
            "dud",
            "1 & 0",
            "0 & -1",
            "^ & v*",
            "on & 0",
        ];
        assert_eq!(column(&answers[0], 1), forms, "{mode:?}");
        let outcomes = [
            "P", "N", "L", "R", "L", "R", "L", "L", "L", "L", "L", "D", "D/L", "R/D", "L/D", "D/L",
        ];
        assert_eq!(column(&answers[0], 2), outcomes);
        assert_eq!(value(&answers[1], "outcome"), "D");
        assert_eq!(value(&answers[2], "canonical"), "{0, pass|0}");
        assert_eq!(value(&answers[3], "canonical"), "over");
        assert_eq!(value(&answers[4], "outcome"), "D");
        assert_eq!(value(&answers[5], "canonical"), "dud");
        assert_eq!(value(&answers[6], "canonical"), "over & under");
    }
}

/// `examples/misere_quotients.cgdl`: subtraction {1, 2}'s misère quotient is Conway's `T2`,
/// `⟨a, b | a² = 1, b³ = b⟩` with P-portion `{a, b²}`, heap `n` being `1`, `a`, `b` as `n`
/// is 0, 1, 2 mod 3 (T. E. Plambeck, *Taming the wild in impartial combinatorial games*,
/// INTEGERS 5 (2005), G05); every misère outcome the example's quotients give is the
/// definition's (an exact search of the sum).
#[test]
fn misere_quotients_of_heap_games() {
    let answers = run_example("misere_quotients.cgdl");
    let Answer::Quotient {
        order,
        generators,
        relations,
        p_portion,
        elements,
        ..
    } = &answers[0]
    else {
        panic!("a quotient: {:?}", answers[0])
    };
    assert_eq!(*order, 6);
    assert_eq!(generators, &[("a".to_string(), 1), ("b".to_string(), 2)]);
    let rel: Vec<String> = relations
        .iter()
        .map(|(l, r)| format!("{l} = {r}"))
        .collect();
    assert_eq!(rel, ["a^2 = 1", "b^3 = b"]);
    assert_eq!(p_portion, &["a", "b^2"]);
    let want: Vec<&str> = (0..=12).map(|n| ["1", "a", "b"][n % 3]).collect();
    assert_eq!(elements, &want);
    // Every misère quotient of impartial games has even order (Plambeck and Siegel, JCTA
    // 115 (2008)).
    for a in &answers[..3] {
        let Answer::Quotient { order, .. } = a else {
            panic!("a quotient")
        };
        assert_eq!(order % 2, 0);
    }
    // Misère canonical forms: *2 + *2 is {*2, *3}, * + * is 0.
    assert_eq!(value(&answers[5], "misere_form"), "{*2, *3}");
    assert_eq!(value(&answers[6], "misere_form"), "0");
    // Small sums: the quotient's outcome is the exact search's.
    let source = example("misere_quotients.cgdl");
    let rules: String = source
        .lines()
        .filter(|l| !l.starts_with("quotient") && !l.starts_with("value"))
        .map(|l| format!("{l}\n"))
        .collect();
    let sums = [
        "Kayles(4) + Kayles(9)",
        "Kayles(5) + Kayles(5) + Kayles(1)",
        "Kayles(13) + Kayles(6) + Kayles(2)",
        "G075(7) + G075(3) + G075(2)",
        "G075(5) + G075(5)",
        "Subtract12(4) + Subtract12(7) + Subtract12(2)",
    ];
    let queries: String = sums
        .iter()
        .map(|s| format!("value misere_outcome of {s}\n"))
        .collect();
    let fast = run_source(&(rules.clone() + &queries), Mode::Fast);
    let exact = run_source(&(rules + &queries), Mode::Exact);
    for (i, sum) in sums.iter().enumerate() {
        assert_eq!(
            value(&fast[i], "misere_outcome"),
            value(&exact[i], "misere_outcome"),
            "{sum}"
        );
    }
}
