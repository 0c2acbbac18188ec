//! Threads answer as one thread: every example and every generated program (the property
//! test's random programs, see `programs.rs`), natively, with its tables and heap engines on
//! two and three threads and its searches shared with helpers woken at once (so that even
//! the shortest search is shared), give the answers and the error messages of one thread.

use cgdl_native_tests::{generated, run_native, EXAMPLES};

#[test]
fn every_example_answers_on_threads_as_on_one() {
    for name in EXAMPLES {
        let one = run_native(name, 1).expect("compiled");
        assert!(one.is_ok(), "{name}: {one:?}");
        for threads in [2, 3] {
            let many = run_native(name, threads).expect("compiled");
            assert_eq!(many, one, "{name} on {threads} threads");
        }
    }
}

/// The generated programs whose index is `part` modulo `of` answer on two and three
/// threads as on one; how many answers they have (not errors). The programs are
/// parted among tests so that the test threads share them.
fn generated_programs_answer_on_threads_as_on_one(part: usize, of: usize) -> usize {
    let mut answers = 0;
    for i in (part..generated::COUNT).step_by(of) {
        let (source, one) = generated::run(i, 1).expect("every program is compiled");
        for threads in [2, 3] {
            let (_, many) = generated::run(i, threads).expect("every program is compiled");
            assert_eq!(many, one, "program {i} on {threads} threads:\n{source}");
        }
        answers += one.iter().filter(|r| r.is_ok()).count();
    }
    answers
}

// The programs have real answers to compare, not only errors (each half has about 120).
#[test]
fn generated_programs_answer_on_threads_as_on_one_1_of_2() {
    let answers = generated_programs_answer_on_threads_as_on_one(0, 2);
    assert!(answers >= 30, "only {answers} answers");
}

#[test]
fn generated_programs_answer_on_threads_as_on_one_2_of_2() {
    let answers = generated_programs_answer_on_threads_as_on_one(1, 2);
    assert!(answers >= 30, "only {answers} answers");
}
