//! Fuzzing by property test: the parser, checker and interpreter never panic or hang, on
//! arbitrary bytes and text, on token soup, on mutated examples and on programs generated
//! from the grammar; every failure is a diagnostic with a span inside the source, or a
//! run-time error. `CGDL_FUZZ_CASES` sets the number of cases (CI runs more than the
//! default), and every input that ever crashed is kept in `fuzz_corpus/`. `CGDL_FUZZ_LOG`
//! names a file that always holds the input being run (for a run the system killed).

use cgdl_compiler::interp::within_budget;
use cgdl_compiler::{compile_str, queries, Interpreter};
use cgdl_runtime::report::run_plan;
use cgdl_runtime::Solver;
use proptest::prelude::*;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

/// Cases per property: `CGDL_FUZZ_CASES`, else `default`.
fn cases(default: u32) -> u32 {
    std::env::var("CGDL_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The longest any one input may take to check and run (a hang is a failure).
const PATIENCE: Duration = Duration::from_secs(60);

/// The most memory the process may hold while an input runs (its solver stops past it).
const MAX_MEMORY: u64 = 2 << 30;

/// The most steps (loop iterations, elements built) an input's queries may take in all.
const RUN_STEPS: u64 = 20_000_000;

/// The steps an old crash of `tests/fuzz_corpus/` may take: each failed in the checker or
/// within its first positions, or by outlasting [`PATIENCE`], which a budget of any size
/// now bounds. At [`RUN_STEPS`] the corpus took 17 s, 12 of them `cram_33_rows` running
/// until the budget stopped it.
const CORPUS_STEPS: u64 = RUN_STEPS / 10;

/// Checks `source`, then runs its queries with the interpreter under small limits, on a
/// thread that must finish within [`PATIENCE`]: a panic or a hang fails the case.
fn check_and_run(source: String) -> Result<(), TestCaseError> {
    check_and_run_within(source, PATIENCE, RUN_STEPS)
}

/// [`check_and_run`] within `patience`, its queries within `steps`.
fn check_and_run_within(
    source: String,
    patience: Duration,
    steps: u64,
) -> Result<(), TestCaseError> {
    let (done, finished) = mpsc::channel();
    let text = source.clone();
    // Where the system's out-of-memory killer may end the run, the last input is here.
    if let Ok(path) = std::env::var("CGDL_FUZZ_LOG") {
        let _ = std::fs::write(path, &source);
    }
    std::thread::spawn(move || {
        let outcome = std::panic::catch_unwind(|| {
            check_no_panic(&text).map_err(|e| e.to_string())?;
            if let Ok(program) = compile_str(&text) {
                let interp = Interpreter::new(&program, &text);
                let mut solver = Solver::new(&interp);
                solver.set_max_positions(3_000);
                solver.set_max_memory(Some(MAX_MEMORY));
                // The positions are few, but each may be large: the steps of work are
                // bounded too (past them, an evaluation fails as a constant's would).
                within_budget(steps, || {
                    for q in &program.queries {
                        if let Ok(plan) = queries::plan(&interp, q) {
                            let _ = run_plan(&mut solver, plan);
                        }
                    }
                });
            }
            Ok::<(), String>(())
        });
        let _ = done.send(outcome.unwrap_or_else(|_| Err("a panic".to_string())));
    });
    match finished.recv_timeout(patience) {
        Ok(Ok(())) => Ok(()),
        Ok(Err(why)) => Err(TestCaseError::fail(format!("{why} on:\n{source}"))),
        // A thread cannot be stopped: were the case to fail, the hung thread would go on
        // using time and memory beside each shrinking step's. The input is the report.
        Err(_) => {
            // Straight to the process's stderr: the test harness captures `eprintln!`, and
            // would drop it on the exit.
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "no answer within {patience:?} on:\n{source}"
            );
            std::process::exit(101)
        }
    }
}

fn examples() -> Vec<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples");
    let mut out: Vec<String> = std::fs::read_dir(&dir)
        .expect("examples/")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "cgdl"))
        .map(|p| std::fs::read_to_string(p).expect("readable"))
        .collect();
    out.sort();
    out
}

fn check_no_panic(source: &str) -> Result<(), TestCaseError> {
    if let Err(diags) = compile_str(source) {
        prop_assert!(!diags.is_empty());
        for d in &diags {
            prop_assert!(d.span.start <= d.span.end + 1 && d.span.start <= source.len());
            // Rendering must not panic either.
            let _ = d.render("fuzz.cgdl", source);
        }
    }
    Ok(())
}

const TOKENS: &[&str] = &[
    "game",
    "move",
    "left move",
    "right",
    "canonical",
    "symmetry",
    "sum(",
    "where",
    "in",
    "not",
    "and",
    "or",
    "if",
    "then",
    "else",
    "let",
    "end",
    "const",
    "fn",
    "value",
    "table",
    "period",
    "of",
    "for",
    "octal",
    "subtraction",
    "exists",
    "forall",
    "count",
    "closure",
    "with",
    "true",
    "false",
    "nat",
    "int",
    "bool",
    "set",
    "list",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    ";",
    "=>",
    "=",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "..",
    "..=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "|",
    "&",
    "++",
    ".",
    "0",
    "1",
    "7",
    "-3",
    "99999999999999999999",
    "n",
    "k",
    "G",
    "G(n)",
    "\"0.77\"",
    "grundy",
    "outcome",
    "sum",
    "union",
    "wtia",
    "min",
    "len",
    "\n",
    " ",
    "//",
    "/*",
];

/// One edit of a source text.
#[derive(Clone, Debug)]
enum Edit {
    Delete(usize, usize),
    Insert(usize, usize),
    Duplicate(usize, usize),
}

fn apply(source: &str, edits: &[Edit]) -> String {
    let mut s: Vec<char> = source.chars().collect();
    for e in edits {
        let len = s.len().max(1);
        match *e {
            Edit::Delete(at, n) => {
                let at = at % len;
                let end = (at + n % 12).min(s.len());
                s.drain(at.min(s.len())..end);
            }
            Edit::Insert(at, tok) => {
                let at = (at % len).min(s.len());
                let t = TOKENS[tok % TOKENS.len()];
                for (i, c) in t.chars().enumerate() {
                    s.insert(at + i, c);
                }
            }
            Edit::Duplicate(at, n) => {
                let at = (at % len).min(s.len());
                let end = (at + n % 40).min(s.len());
                let piece: Vec<char> = s[at..end].to_vec();
                for (i, c) in piece.into_iter().enumerate() {
                    s.insert(end + i, c);
                }
            }
        }
    }
    s.into_iter().collect()
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), any::<usize>()).prop_map(|(a, n)| Edit::Delete(a, n)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, t)| Edit::Insert(a, t)),
        (any::<usize>(), any::<usize>()).prop_map(|(a, n)| Edit::Duplicate(a, n)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(300), ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text(source in "\\PC{0,200}") {
        check_no_panic(&source)?;
    }

    #[test]
    fn arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        check_no_panic(&String::from_utf8_lossy(&bytes))?;
    }

    #[test]
    fn generated_programs(source in program()) {
        check_and_run(source)?;
    }

    #[test]
    fn token_soup(tokens in proptest::collection::vec(0..TOKENS.len(), 0..60)) {
        let source: Vec<&str> = tokens.iter().map(|&i| TOKENS[i]).collect();
        check_no_panic(&source.join(" "))?;
    }

    #[test]
    fn mutated_examples(which in any::<usize>(), edits in proptest::collection::vec(edit(), 1..6)) {
        let all = examples();
        let source = apply(&all[which % all.len()], &edits);
        check_no_panic(&source)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(80), ..ProptestConfig::default() })]

    /// Mutated programs that still check run without panicking: every failure is an error.
    #[test]
    fn mutated_examples_run(which in any::<usize>(), edits in proptest::collection::vec(edit(), 1..4)) {
        let all = examples();
        check_and_run(apply(&all[which % all.len()], &edits))?;
    }
}

/// Every input that once crashed or hung the checker or the interpreter.
#[test]
fn the_corpus_of_old_crashes_stays_fixed() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz_corpus");
    let mut count = 0;
    for entry in std::fs::read_dir(&dir).expect("tests/fuzz_corpus/") {
        let path = entry.expect("an entry").path();
        if path.extension().is_some_and(|x| x == "cgdl") {
            let source = std::fs::read_to_string(&path).expect("readable");
            if let Err(e) = check_and_run_within(source, PATIENCE, CORPUS_STEPS) {
                panic!("{}: {e}", path.display());
            }
            count += 1;
        }
    }
    assert!(count >= 4, "only {count} inputs in {}", dir.display());
    // Nesting past the parser's limit, of every kind that once overflowed the stack.
    for (open, close) in [
        ("(", ")"),
        ("-", ""),
        ("not ", ""),
        ("if true then ", " else 0"),
        ("let x = 1 in ", ""),
        ("[", "]"),
        ("{", "}"),
    ] {
        let deep = format!("const A = {}1{}\n", open.repeat(5_000), close.repeat(5_000));
        check_and_run(deep).expect("deep nesting is an error, not a crash");
    }
}

/// An integer expression over the names in `names`, with the extreme values.
fn int_expr(names: &'static [&'static str]) -> impl Strategy<Value = String> {
    let leaf = prop_oneof![
        4 => (0i64..20).prop_map(|v| v.to_string()),
        1 => Just("9223372036854775807".to_string()),
        1 => Just("(-9223372036854775807 - 1)".to_string()),
        1 => Just("-1".to_string()),
        3 => proptest::sample::select(names).prop_map(str::to_string),
    ];
    leaf.prop_recursive(4, 24, 3, |inner| {
        prop_oneof![
            (
                inner.clone(),
                proptest::sample::select(&["+", "-", "*", "/", "%"][..]),
                inner.clone()
            )
                .prop_map(|(a, op, b)| format!("({a} {op} {b})")),
            inner.clone().prop_map(|a| format!("abs({a})")),
            inner.clone().prop_map(|a| format!("-{a}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("min({a}, {b})")),
            (inner.clone(), inner.clone(), inner.clone())
                .prop_map(|(a, b, c)| format!("(if {a} < {b} then {c} else {a})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("len({a}..{b})")),
            (inner.clone(), inner.clone())
                .prop_map(|(a, b)| format!("max({{ y * {a} for y in 0..3 where y != {b} }})")),
            (inner.clone(), inner).prop_map(|(a, b)| format!("[{a}, {b}, 7][{b}]")),
        ]
    })
}

/// A boolean expression over the names in `names`.
fn bool_expr(names: &'static [&'static str]) -> impl Strategy<Value = String> {
    (
        int_expr(names),
        proptest::sample::select(&["<", "<=", "==", "!=", ">", ">="][..]),
        int_expr(names),
    )
        .prop_map(|(a, op, b)| format!("{a} {op} {b}"))
        .prop_recursive(2, 6, 2, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} and {b})")),
                (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a} or {b})")),
                inner.prop_map(|a| format!("not ({a})")),
            ]
        })
}

/// A program from the grammar: constants, a function, a heap game whose moves may fail
/// (underflow, division by zero, overflow, an index out of range) or never end, may belong
/// to one player (a partizan game), and queries of each kind.
fn program() -> impl Strategy<Value = String> {
    const CONST: &[&str] = &["3"];
    const FN: &[&str] = &["x", "C"];
    const MOVE: &[&str] = &["n", "k", "C", "f(n)", "f(k)"];
    (
        int_expr(CONST),
        int_expr(FN),
        (1i64..5, bool_expr(MOVE), int_expr(MOVE)),
        (bool_expr(MOVE), int_expr(MOVE), int_expr(MOVE)),
        (
            0i64..12,
            proptest::sample::select(
                &[
                    "grundy",
                    "outcome",
                    "remoteness",
                    "wnumber",
                    "misere_outcome",
                    "suspense",
                    "canonical",
                    "temperature",
                    "left_moves",
                ][..],
            ),
        ),
        proptest::sample::select(&["+", "union", "wtia", "conjunctive"][..]),
        proptest::sample::select(&[("", ""), ("left ", "right "), ("", "right ")][..]),
    )
        .prop_map(
            |(c, body, (most, cond, next), (cond2, left, right), (n, value), join, sides)| {
                // A partizan game (mostly) keeps to what partizan games allow, so that its
                // solves run too: sums, no periods.
                let partizan = !sides.1.is_empty();
                let pair = if join == "+" || (partizan && value != "grundy") {
                    format!("G({left}) + G({right})")
                } else {
                    format!("{join}(G({left}), G({right}))")
                };
                let period = if partizan {
                    String::new()
                } else {
                    format!("period grundy of G(m) for m in 0..{}\n", n + 3)
                };
                format!(
                    "const C = {c}\n\
                 fn f(x: int) -> int = {body}\n\
                 game G(n: nat) {{\n\
                 \x20   {}move take(k in 1..={most}, k <= n, {cond}) => G({next})\n\
                 \x20   {}move split(k in 1..=2, k < n, {cond2}) => {pair}\n\
                 }}\n\
                 value {value} of G({n})\n\
                 table {value} of G(m) for m in 0..{n}\n\
                 {period}",
                    sides.0, sides.1,
                )
            },
        )
}

#[test]
fn every_example_checks() {
    for source in examples() {
        if let Err(d) = compile_str(&source) {
            panic!(
                "{}",
                cgdl_compiler::diagnostics::render_all(&d, "example", &source)
            );
        }
    }
}

/// The largest integer is a literal like any other; past it is an error, also after `-`
/// (which once made `-99999999999999999999` the number -9223372036854775807). Ranges too
/// large to hold are counted, not built, and an error where they would be held.
#[test]
fn literals_reach_the_largest_integer_and_ranges_are_counted() {
    let value = |text: &str| {
        let source = format!(
            "const A = {text}\ngame G(n: nat) {{ move take(k in 1..=n) => G(n - k) }}\n\
             value grundy of G(len({{A}}))\n"
        );
        compile_str(&source)
            .map(|_| ())
            .map_err(|d| d[0].message.clone())
    };
    assert_eq!(value("9223372036854775807"), Ok(()));
    assert_eq!(value("-9223372036854775807"), Ok(()));
    for too_large in ["9223372036854775808", "-99999999999999999999"] {
        let why = value(too_large).expect_err(too_large);
        assert!(why.contains("too large"), "{too_large}: {why}");
    }
    let counted = compile_str(
        "const A = len(0..9223372036854775807)\nconst B = max(-5..9223372036854775807)\nconst C = len(5..2)\n",
    );
    assert!(counted.is_ok(), "{:?}", counted.err());
    let held = compile_str("const S = {0..9223372036854775807}\n").map(|_| ());
    let why = held.expect_err("a set holding a huge range");
    assert!(why[0].message.contains("too large"), "{}", why[0].message);
}

/// One level of nesting of an expression `X`: every bracket and call kind, and postfix
/// chains (issue 36 found parse times that doubled with each level of some of them).
fn nesting() -> impl Strategy<Value = (&'static str, &'static str)> {
    prop::sample::select(vec![
        ("[0, 1][", "]"),
        ("{", "}"),
        ("{ ", " for x in {1} }"),
        ("max(", ", 2)"),
        ("f(", ")"),
        ("sum(G(", ") for x in {1})"),
        ("[[0, 1][", "]]"),
        ("(", ")"),
        ("(", ", 1)"),
        ("if true then ", " else 0"),
        ("let y = ", " in y"),
        ("", "[0]"),
        ("", "[0..]"),
        ("", "[..1]"),
        ("", ".0"),
        ("", " with [0] = 1"),
        ("closure({", "}, v => {v})"),
        ("exists z in {", "}: true"),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(64)))]
    /// Nested constructs up to 40 deep, and chains, in a constant and in a move: each
    /// checked (and run) in a few seconds, never a panic.
    #[test]
    fn nesting_and_chains_answer_at_once(
        levels in prop::collection::vec(nesting(), 0..40),
        chain in 0usize..3_000,
        in_move in any::<bool>(),
    ) {
        let mut e = "1".to_string();
        for (open, close) in &levels {
            e = format!("{open}{e}{close}");
        }
        let e = format!("{e}{}", "[0]".repeat(chain / 100));
        let source = match in_move {
            true => format!("game G(n: 0..3) {{\n    move m(n > 0, {e} == {e}) => G(n - 1)\n}}\nvalue grundy of G(2)\n"),
            false => format!("const X = {e}\nvalue grundy of X\n"),
        };
        check_and_run_within(source, Duration::from_secs(5), RUN_STEPS)?;
    }
}
