//! Property test: the parser and checker never panic, on arbitrary text or on mutated
//! examples; every failure is a diagnostic with a span inside the source.

use cgdl_compiler::{compile_str, queries, Interpreter};
use cgdl_runtime::report::run_plan;
use cgdl_runtime::Solver;
use proptest::prelude::*;
use std::path::Path;

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
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text(source in "\\PC{0,200}") {
        check_no_panic(&source)?;
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
    #![proptest_config(ProptestConfig { cases: 80, ..ProptestConfig::default() })]

    /// Mutated programs that still check run without panicking: every failure is an error.
    #[test]
    fn mutated_examples_run(which in any::<usize>(), edits in proptest::collection::vec(edit(), 1..4)) {
        let all = examples();
        let source = apply(&all[which % all.len()], &edits);
        if let Ok(program) = compile_str(&source) {
            let interp = Interpreter::new(&program, &source);
            let mut solver = Solver::new(&interp);
            solver.set_max_positions(3_000);
            for q in &program.queries {
                if let Ok(plan) = queries::plan(&interp, q) {
                    let _ = run_plan(&mut solver, plan);
                }
            }
        }
    }
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
