//! Heap games written as explicit rules: for random octal and hexadecimal codes, rules that state each
//! digit's moves (in the forms the recogniser knows, with their syntax varied at random)
//! are recognised as that code, and give the code's Grundy values both through the heap
//! engine and through the search by the definition.

use cgdl_compiler::{compile_str, queries, Interpreter};
use cgdl_runtime::report::{run_plan, Answer};
use cgdl_runtime::{Mode, Solver};
use proptest::prelude::*;

/// One move rule of game `E`, for the removals `ks`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Kind {
    /// Leaves `n - k` (one heap); `empties` when it may take the whole heap.
    Take { empties: bool },
    /// Splits `n - k` in two; `from` is the least part (0 also leaves one heap).
    Split { empties: bool, from: u8 },
    /// Takes the whole heap of `k`.
    All,
    /// Splits `n - k` in three; `from` is the least part (0 also leaves fewer heaps).
    Three { empties: bool, from: u8 },
}

/// The moves that state digit `d`, as kinds (each bit covered once at least).
fn kinds(d: u8, choice: u8) -> Vec<Kind> {
    let mut out = Vec::new();
    let (empty, one, two) = (d & 1 != 0, d & 2 != 0, d & 4 != 0);
    let mut covered = (false, false);
    if d & 8 != 0 {
        if one && two {
            // Least part 0: also one heap, two heaps and (with `k <= n`) none.
            out.push(Kind::Three {
                empties: empty,
                from: 0,
            });
            return out;
        }
        out.push(Kind::Three {
            empties: choice & 2 != 0,
            from: 1,
        });
    }
    if two {
        let from = if one { 0 } else { 1 };
        // With the least part 1, the guard is either (no n = k move can split).
        let empties = if from == 0 { empty } else { choice & 1 != 0 };
        out.push(Kind::Split { empties, from });
        covered = (from == 0 && empty, from == 0);
    }
    if one && !covered.1 {
        out.push(Kind::Take { empties: empty });
        covered.0 |= empty;
    }
    if empty && !covered.0 {
        out.push(Kind::All);
    }
    out
}

/// The removals `ks` as a binder's domain, or `None` for the literal form.
fn domain(ks: &[usize], choice: u8) -> Option<String> {
    let contiguous = ks.windows(2).all(|w| w[1] == w[0] + 1);
    let (lo, hi) = (ks[0], ks[ks.len() - 1]);
    match choice % 4 {
        0 if ks.len() == 1 => None,
        1 if contiguous => Some(format!("{lo}..={hi}")),
        2 if contiguous => Some(format!("{lo}..{}", hi + 1)),
        _ => Some(format!(
            "{{{}}}",
            ks.iter()
                .map(|k| k.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// Game `E` stating code `0.d1 d2 ...` move by move.
fn rules(digits: &[u8], choices: &[u8]) -> String {
    let choice = |i: usize| choices[i % choices.len()];
    // Removals grouped by the kind of move, so that sets and ranges state several.
    let mut groups: std::collections::BTreeMap<Kind, Vec<usize>> = Default::default();
    for (i, &d) in digits.iter().enumerate() {
        for kind in kinds(d, choice(i)) {
            groups.entry(kind).or_default().push(i + 1);
        }
    }
    let mut moves = Vec::new();
    for (m, (kind, ks)) in groups.into_iter().enumerate() {
        // Past one removal a group may also be split into a move per removal.
        let parts: Vec<Vec<usize>> = if choice(m + 7) & 4 != 0 {
            ks.iter().map(|&k| vec![k]).collect()
        } else {
            vec![ks]
        };
        for (p, ks) in parts.into_iter().enumerate() {
            let c = choice(m * 3 + p + 11);
            let (head, k) = match domain(&ks, c) {
                Some(d) => (format!("k in {d}, "), "k".to_string()),
                None => (String::new(), ks[0].to_string()),
            };
            let flip = c & 8 != 0;
            let guard = |op: &str, rev: &str| {
                if flip {
                    format!("n {rev} {k}")
                } else {
                    format!("{k} {op} n")
                }
            };
            let name = format!("m{m}_{p}");
            let limit = |empties: bool| {
                if empties {
                    guard("<=", ">=")
                } else {
                    guard("<", ">")
                }
            };
            // The heaps of a split, in the order written or with the rest first.
            let sum = |heaps: &[String]| {
                let mut heaps = heaps.to_vec();
                if c & 16 == 0 {
                    heaps.rotate_right(1);
                }
                heaps.join(" + ")
            };
            let rule = match kind {
                Kind::Take { empties } => {
                    format!("move {name}({head}{}) => E(n - {k})", limit(empties))
                }
                Kind::Split { empties, from } => format!(
                    "move {name}({head}{}, a in {from}..=(n - {k}) / 2) => {}",
                    limit(empties),
                    sum(&["E(a)".into(), format!("E(n - {k} - a)")])
                ),
                Kind::Three { empties, from } => format!(
                    "move {name}({head}{}, a in {from}..=(n - {k}) / 3, \
                     b in a..=(n - {k} - a) / 2) => {}",
                    limit(empties),
                    sum(&["E(a)".into(), "E(b)".into(), format!("E(n - {k} - a - b)")])
                ),
                Kind::All => {
                    let result =
                        ["end", "E(0)", &format!("E(n - {k})")][(c as usize / 16) % 3].to_string();
                    format!("move {name}({head}{}) => {result}", guard("==", "=="))
                }
            };
            moves.push(rule);
        }
    }
    // The order of the moves does not matter.
    let rotate = choice(3) as usize % moves.len();
    moves.rotate_left(rotate);
    format!("game E(n: nat) {{\n    {}\n}}\n", moves.join("\n    "))
}

/// The Grundy values of heaps 0..=`top` of `E` and `O`, in `mode`.
fn tables(source: &str, mode: Mode) -> Vec<String> {
    let program = compile_str(source).unwrap_or_else(|d| panic!("{d:?}\n{source}"));
    let interp = Interpreter::new(&program, source);
    let mut solver = Solver::with_mode(&interp, mode);
    (program.queries.iter())
        .map(|q| {
            let plan = queries::plan(&interp, q).expect("plan");
            match run_plan(&mut solver, plan).expect("solve") {
                Answer::Table { rows, .. } => (rows.iter())
                    .map(|r| r[1].to_string())
                    .collect::<Vec<_>>()
                    .join(" "),
                other => panic!("not a table: {other:?}"),
            }
        })
        .collect()
}

/// Rules stating `digits` (with syntax chosen by `choices`) are recognised as the code
/// `0.digits`, and give its values to heap `top` through the heap engine, and to heap
/// `searched` by the search by the definition.
fn check_code(
    digits: &[u8],
    choices: &[u8],
    top: usize,
    searched: usize,
) -> Result<(), TestCaseError> {
    let code: String = digits.iter().map(|d| format!("{d:x}")).collect();
    let source = format!(
        "{}game O = octal \"0.{code}\"\n\
         table grundy of E(n) for n in 0..={top}\ntable grundy of O(n) for n in 0..={top}\n",
        rules(digits, choices)
    );
    let program = compile_str(&source).unwrap_or_else(|d| panic!("{d:?}\n{source}"));
    let mut expected = vec![0u8];
    expected.extend(digits);
    while expected.last() == Some(&0) {
        expected.pop();
    }
    prop_assert_eq!(&program.games[0].heap_code, &Some(expected), "{}", source);
    let fast = tables(&source, Mode::Fast);
    prop_assert_eq!(&fast[0], &fast[1], "rules vs code\n{}", source);
    let search = format!(
        "{}table grundy of E(n) for n in 0..={searched}\n",
        rules(digits, choices)
    );
    let exact = tables(&search, Mode::Exact);
    let first: Vec<&str> = fast[1].split(' ').take(searched + 1).collect();
    prop_assert_eq!(
        exact[0].clone(),
        first.join(" "),
        "search vs code\n{}",
        source
    );
    Ok(())
}

/// Every octal code of two digits, in two spellings each, to heap 24.
#[test]
fn every_two_digit_octal_code_as_rules() {
    for d1 in 0..=7u8 {
        for d2 in 0..=7u8 {
            if d1 | d2 == 0 {
                continue;
            }
            for choices in [[0u8], [0xff]] {
                check_code(&[d1, d2], &choices, 24, 24)
                    .unwrap_or_else(|e| panic!("0.{d1}{d2}: {e}"));
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn explicit_rules_are_their_octal_codes(
        digits in prop::collection::vec(0u8..=15, 1..=4),
        choices in prop::collection::vec(any::<u8>(), 1..=12),
    ) {
        prop_assume!(digits.iter().any(|&d| d != 0));
        // The search on fewer heaps: sums of three heaps are many.
        check_code(&digits, &choices, 22, 16)?;
    }
}
