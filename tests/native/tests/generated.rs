//! Property test: random small programs (see `programs.rs`; COUNT of them, from fixed seeds,
//! compiled by build.rs) give the same answers and the same error messages natively as in
//! the reference interpreter, query by query.

use cgdl_compiler::ir::Program;
use cgdl_compiler::{check_as_written, compile_str, parser, queries, Interpreter};
use cgdl_native_tests::generated;
use cgdl_runtime::report::{run_plan, Answer};
use cgdl_runtime::Solver;

/// Each query's answer or error message, interpreted, with a fresh solver per query.
fn interpret(source: &str) -> Vec<Result<Answer, String>> {
    let program = compile_str(source).expect("generated programs check");
    interpret_program(&program, source)
}

fn interpret_program(program: &Program, source: &str) -> Vec<Result<Answer, String>> {
    let interp = Interpreter::new(program, source);
    program
        .queries
        .iter()
        .map(|q| {
            let plan = queries::plan(&interp, q).map_err(|e| interp.error_text(&e))?;
            let mut solver = Solver::new(&interp);
            run_plan(&mut solver, plan).map_err(|e| e.to_string())
        })
        .collect()
}

#[test]
fn generated_programs_run_the_same_natively_and_interpreted() {
    const { assert!(generated::COUNT >= 20) };
    let mut answers = 0;
    let mut errors = 0;
    for i in 0..generated::COUNT {
        let (source, native) = generated::run(i, 1).expect("every program is compiled");
        let interpreted = interpret(source);
        assert_eq!(native, interpreted, "program {i}:\n{source}");
        answers += native.iter().filter(|r| r.is_ok()).count();
        errors += native.iter().filter(|r| r.is_err()).count();
    }
    // The programs exercise both paths: real answers, and run-time errors.
    assert!(answers >= 60, "only {answers} answers");
    assert!(errors >= 1, "no program hit a run-time error");
}

/// Program `i` as written, then after each pass of the optimizer in turn
/// (`cgdl_compiler::opt::PASSES`, in order), checked well formed after each
/// (`cgdl_compiler::ir::verify`). `changed` is called with `"as written"` and the program as
/// checked, then with the pass's name and the program after each pass that changed it.
fn through_each_pass(i: usize, mut changed: impl FnMut(&str, &Program)) {
    let source = generated::source(i).expect("every program is compiled");
    let file = parser::parse_file(source).expect("generated programs parse");
    let mut program = check_as_written(&file, source).expect("generated programs check");
    changed("as written", &program);
    for (name, run) in cgdl_compiler::opt::PASSES {
        let before = format!("{program:?}");
        run(&mut program, source);
        assert_eq!(
            cgdl_compiler::ir::verify(&program),
            Ok(()),
            "program {i} after {name}"
        );
        if format!("{program:?}") != before {
            changed(name, &program);
        }
    }
}

/// Each pass of the optimizer keeps every answer: each program whose index is `part` modulo
/// `of` has the answers and errors it has as written after each pass that changed it
/// ([`through_each_pass`]). The programs are parted among tests so that the test threads
/// share them.
fn each_pass_keeps_every_answer(part: usize, of: usize) {
    for i in (part..generated::COUNT).step_by(of) {
        let source = generated::source(i).expect("every program is compiled");
        let mut written = None;
        through_each_pass(i, |name, program| {
            let answers = interpret_program(program, source);
            match &written {
                None => written = Some(answers),
                Some(want) => assert_eq!(&answers, want, "program {i} after {name}:\n{source}"),
            }
        });
    }
}

#[test]
fn each_pass_keeps_every_answer_1_of_4() {
    each_pass_keeps_every_answer(0, 4);
}

#[test]
fn each_pass_keeps_every_answer_2_of_4() {
    each_pass_keeps_every_answer(1, 4);
}

#[test]
fn each_pass_keeps_every_answer_3_of_4() {
    each_pass_keeps_every_answer(2, 4);
}

#[test]
fn each_pass_keeps_every_answer_4_of_4() {
    each_pass_keeps_every_answer(3, 4);
}

/// The programs exercise the passes that rewrite their kind of rules (some moves compute
/// `spread(s)` twice in a condition, or `s - {e}` in every step of a loop; count boxes
/// holding a cell; call functions of small boxes), so that the tests above compare answers
/// across each.
#[test]
fn the_programs_exercise_the_rewriting_passes() {
    let mut changed = std::collections::BTreeMap::<String, usize>::new();
    for i in 0..generated::COUNT {
        through_each_pass(i, |name, _| {
            *changed.entry(name.to_string()).or_default() += 1
        });
    }
    for pass in ["share", "inverse", "tables"] {
        assert!(
            changed.get(pass).copied().unwrap_or(0) >= 3,
            "{pass} changed only {changed:?}"
        );
    }
}

/// Symmetries found by the compiler (`cgdl_compiler::opt::symmetry`) keep every answer:
/// each program's queries interpreted with them and by an exact search (which uses none)
/// agree, and fail together. (Natively the same as interpreted: the test above.)
#[test]
fn found_symmetries_keep_every_answer() {
    let (mut symmetric, mut compared) = (0, 0);
    for i in 0..generated::COUNT {
        let source = generated::source(i).expect("every program is compiled");
        let program = compile_str(source).expect("generated programs check");
        let found = program.games.iter().any(|g| g.found.is_some());
        symmetric += usize::from(found);
        let interp = Interpreter::new(&program, source);
        for q in &program.queries {
            let solve = |mode| {
                let plan = queries::plan(&interp, q).map_err(|e| interp.error_text(&e))?;
                let mut solver = Solver::with_mode(&interp, mode);
                // An exact search of a large compound takes long: such queries are left out.
                solver.set_max_positions(20_000);
                solver.set_max_memory(Some(1 << 30));
                run_plan(&mut solver, plan).map_err(|e| e.to_string())
            };
            let (fast, exact) = (
                solve(cgdl_runtime::Mode::Fast),
                solve(cgdl_runtime::Mode::Exact),
            );
            // The memory limit is the process's: other tests running beside this one
            // count in it, and a heap engine's refusal says it in other words.
            let limited = |r: &Result<Answer, String>| {
                r.as_ref().is_err_and(|e| {
                    e.contains("state space is too large") || e.contains("(--max-memory)")
                })
            };
            if limited(&fast) || limited(&exact) {
                continue;
            }
            compared += usize::from(found);
            match (&fast, &exact) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "program {i}, {}:\n{source}", q.text),
                (Err(_), Err(_)) => {}
                _ => panic!(
                    "program {i}, {}: {fast:?} against {exact:?}\n{source}",
                    q.text
                ),
            }
        }
    }
    assert!(
        symmetric >= 3,
        "only {symmetric} programs have symmetries found"
    );
    assert!(compared >= 40, "only {compared} queries of those compared");
}

/// Issue 38: a tiered solve (every position a query reaches, tier by tier, on two
/// workers) gives each of the query's positions the ordinary solver's Grundy value, in every
/// query it takes (the others it refuses with an error: positions without codes, as heaps
/// of any size have; partizan games; a rule error; no rank that every move raises).
#[test]
fn tiered_solves_agree_with_the_solver() {
    let (mut agreed, mut positions, mut refused) = (0, 0, 0);
    for i in 0..generated::COUNT {
        let checks = generated::tiered(i).expect("every program is compiled");
        for (q, check) in checks.into_iter().enumerate() {
            match check {
                Ok(n) => {
                    agreed += 1;
                    positions += n;
                }
                Err(e) => {
                    assert!(!e.contains("internal error"), "program {i}, query {q}: {e}");
                    refused += 1;
                }
            }
        }
    }
    assert!(
        agreed >= 20 && positions >= 100,
        "{agreed} queries ({positions} positions) agreed, {refused} refused"
    );
}
