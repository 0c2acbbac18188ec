//! The `cgdl` binary: output formats, exit codes and run-time errors. The cases that build
//! native solvers (a release build of each file's solver: minutes from a fresh clone) are
//! `--ignored`; `.ci/run` runs them (`cargo test -p cgdl --test integration -- --ignored cli::`).

use crate::common;

use common::{
    assert_fails_with, both_back_ends, both_back_ends_fail_with, cgdl, stats_positions, stderr,
    stderr_without_build_note, stdout, temp_file,
};
use std::path::PathBuf;
use std::process::{Command, Output};

fn run_file(name: &str, source: &str) -> Output {
    let path = temp_file(name, source);
    cgdl(&["run", path.to_str().expect("utf-8 path")])
}

#[test]
fn check_reports_ok_and_errors() {
    let ok = cgdl(&["check", "examples/nim.cgdl"]);
    assert!(ok.status.success());
    assert_eq!(stdout(&ok), "examples/nim.cgdl: ok (1 game, 8 queries)\n");

    let path = temp_file(
        "bad.cgdl",
        "game G(n: nat) {\n    move m(k in 1..=q) => G(n - k)\n}\n",
    );
    let bad = cgdl(&["check", path.to_str().expect("path")]);
    assert_eq!(bad.status.code(), Some(1));
    let err = stderr(&bad);
    assert!(err.contains("E0101"), "{err}");
    assert!(err.contains("bad.cgdl:2:21"), "{err}");
    assert!(err.contains("error: 1 error in"), "{err}");
}

#[test]
fn eval_help_names_every_value_the_parser_accepts() {
    let out = cgdl(&["eval", "--help"]);
    assert!(out.status.success());
    let help = stdout(&out);
    for ask in cgdl::runtime::report::Ask::all() {
        assert!(
            help.contains(ask.name()),
            "`{}` missing from:\n{help}",
            ask.name()
        );
    }
}

#[test]
fn unreadable_file_is_an_error() {
    let out = cgdl(&["run", "examples/no_such_game.cgdl"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).starts_with("error: cannot read examples/no_such_game.cgdl"));
}

#[test]
fn bad_arguments_exit_with_usage() {
    let out = cgdl(&["run"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("Usage"));
    let out = cgdl(&["frobnicate"]);
    assert_eq!(out.status.code(), Some(2));
    // More threads than a process can start (their stacks) are refused, not attempted.
    for threads in ["0", "1025", "100000"] {
        let out = cgdl(&["run", "--interp", "examples/nim.cgdl", "--threads", threads]);
        assert_eq!(out.status.code(), Some(2), "--threads {threads}");
        assert!(
            stderr(&out).contains(&format!("{threads} is not in 1..=1024")),
            "{}",
            stderr(&out)
        );
    }
}

#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn eval_prints_name_value_lines() {
    let out = cgdl(&[
        "eval",
        "examples/nim.cgdl",
        "Heap(1) + Heap(2) + Heap(3)",
        "--value",
        "outcome,grundy,moves",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "outcome P\ngrundy 0\nmoves none\n");

    let out = cgdl(&[
        "eval",
        "examples/limited_nim.cgdl",
        "wtia(LimitedNim(4), LimitedNim(6), LimitedNim(11))",
        "--value",
        "wnumber,outcome",
    ]);
    assert_eq!(stdout(&out), "wnumber SW\noutcome N\n");

    let out = cgdl(&[
        "eval",
        "examples/limited_nim.cgdl",
        "LimitedNim(0)",
        "--value",
        "wnumber,misere_wnumber",
    ]);
    assert_eq!(stdout(&out), "wnumber SL\nmisere_wnumber SW\n");
}

/// `--stats` writes how many positions were solved, in how long, to stderr, in both back
/// ends and for `run` and `eval` alike; the output is unchanged.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn stats_are_written_to_stderr() {
    let path = temp_file(
        "stats.cgdl",
        "game Walk(n: 0..=9) { move step(k in 1..=2, k <= n) => Walk(n - k) }\n\
         value grundy of Walk(9)\n",
    );
    let path = path.to_str().expect("utf-8 path");
    for args in [
        vec!["run", path],
        vec!["eval", path, "Walk(7)", "--value", "grundy"],
    ] {
        let plain = both_back_ends(&args);
        let mut with = args.clone();
        with.extend(["--stats", "--threads", "2"]);
        for (out, plain) in both_back_ends(&with).iter().zip(&plain) {
            assert!(out.status.success(), "{}", stderr(out));
            assert_eq!(stdout(out), stdout(plain));
            let err = stderr_without_build_note(out);
            let line = err.lines().last().expect("a stats line");
            let solved = stats_positions(out);
            // Walk(9) and its smaller walks, each solved once.
            assert!((1..=10).contains(&solved), "{line}");
            assert!(line.contains(" positions solved in "), "{line}");
            // The processor time of all the threads, and how many there were.
            #[cfg(target_os = "linux")]
            assert!(
                line.contains(" s of processor time on 2 threads)"),
                "{line}"
            );
        }
    }
}

#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn eval_rejects_bad_values_and_positions() {
    let out = cgdl(&["eval", "examples/nim.cgdl", "Heap(3)", "--value", "nimber"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("unknown value `nimber`"));
    assert!(stdout(&out).is_empty());

    let out = cgdl(&["eval", "examples/nim.cgdl", "Heep(3)"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("E0102") && err.contains("did you mean `Heap`?"),
        "{err}"
    );
    assert!(err.contains("<position>:1:1"), "{err}");

    // Issue 19: a position is one expression, never more of the file.
    for bad in ["Heap(3) value grundy of Heap(2)", "Heap(3) game Zed() {}"] {
        let out = cgdl(&["eval", "examples/nim.cgdl", bad, "--value", "grundy"]);
        assert_eq!(out.status.code(), Some(1), "{bad}");
        assert!(stdout(&out).is_empty(), "{bad}");
        let err = stderr(&out);
        assert!(
            err.contains("<position>:1:9") && err.contains("expected the end of the position"),
            "{err}"
        );
    }
    // Errors while building the position name its place in it, not past the file's end.
    let path = temp_file(
        "position.cgdl",
        "fn f(x: nat) -> nat = x - 2\ngame Heap(n: nat) {\n    move take(k in 1..=n) => Heap(n - k)\n}\n",
    );
    both_back_ends_fail_with(
        &[
            "eval",
            path.to_str().expect("path"),
            "Heap(1) +\n  Heap(3 - 5)",
        ],
        "(at <position>:2:8)",
    );
}

#[test]
fn tuple_indices_too_large_are_named_as_written() {
    let path = temp_file(
        "index.cgdl",
        "game G(n: nat) { move m(k in 1..=n) => G(n - k) }\nvalue grundy of G((1, 2).99999999999999999999)\n",
    );
    let out = cgdl(&["check", path.to_str().expect("path")]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("`.99999999999999999999` is too large to be a tuple field"),
        "{err}"
    );
}

#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn run_time_errors_name_the_move_position_and_value() {
    let out = run_file(
        "range.cgdl",
        "game H(r: 0..8) {\n    move up(k in 1..=3) => H(r + k)\n}\nvalue grundy of H(6)\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(
            "move `up` from H(6): field `r` of H would be 8, outside its type 0..=7 (at 2:28)"
        ),
        "{err}"
    );

    let out = run_file(
        "underflow.cgdl",
        "game G(n: nat) {\n    move take(k in 1..=2) => G(n - k)\n}\nvalue grundy of G(1)\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("move `take` from G(1): natural underflow: 1 - 2 is negative"),
        "{err}"
    );

    let out = run_file(
        "loopy_wnumber.cgdl",
        "game L(n: 0..3) {\n    move step() => L((n + 1) % 3)\n}\nvalue wnumber of L(0)\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains(
            "the game is loopy: a position can repeat (L(0) -> L(1) -> L(2) -> L(0)); a loopy \
             game's values are its outcome, an impartial one's grundy and remoteness, and a \
             partizan one's canonical form (a stopper's, or its sides)"
        ),
        "{err}"
    );

    let out = run_file(
        "variant.cgdl",
        "type Cell = At(0..3)\ngame G(c: Cell) {\n    move right() => match c { At(i) => G(At(i + 1)) }\n}\nvalue grundy of G(At(0))\n",
    );
    assert_fails_with(
        &out,
        "move `right` from G(At(2)): value 1 of At would be 3, outside its type 0..=2 (at 3:42)",
    );

    let out = run_file(
        "divide.cgdl",
        "game G(n: nat) {\n    move half(n > 0) => G(n / (n - 1))\n}\nvalue grundy of G(1)\n",
    );
    assert_fails_with(&out, "division by zero: 1 / 0");
}

/// Tuple patterns in `let` (clauses and expressions) and in match arms' payloads, in both
/// back ends: a rook that moves left any distance or up one square, against the definition.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn tuple_patterns_in_lets_and_match_arms() {
    let source = "type Sq = (0..4, 0..4)\n\
        type Piece = Rook(Sq) | Pawn((0..4, 0..4), bool)\n\
        fn at(p: Piece) -> Sq = match p { Rook((r, c)) => (r, c), Pawn((r, c), moved) => (r, c) }\n\
        game G(p: Piece) {\n\
        \x20   move left(let (r, c) = at(p), k in 1..=c) => match p {\n\
        \x20       Rook((r2, c2)) => G(Rook((r2, c2 - k))),\n\
        \x20       Pawn(sq, m) => let (a, b) = sq in G(Pawn((a, b - k), true)),\n\
        \x20   }\n\
        \x20   move up(let (r, c) = at(p), r > 0) => G(Rook((r - 1, c)))\n}\n\
        table grundy of G(Rook(s)) for s in Sq\n";
    let path = temp_file("tuple_patterns.cgdl", source);
    let outs = both_back_ends(&["run", path.to_str().expect("path"), "--format", "json"]);
    assert!(outs[0].status.success(), "{}", stderr(&outs[0]));
    assert_eq!(stdout(&outs[0]), stdout(&outs[1]));
    let mut grundy = [[0u64; 4]; 4];
    for r in 0..4 {
        for c in 0..4 {
            let mut options: Vec<u64> = (0..c).map(|c2| grundy[r][c2]).collect();
            if r > 0 {
                options.push(grundy[r - 1][c]);
            }
            grundy[r][c] = (0..).find(|g| !options.contains(g)).expect("a mex");
        }
    }
    let json: serde_json::Value = serde_json::from_str(&stdout(&outs[0])).expect("JSON");
    let rows = json["queries"][0]["rows"].as_array().expect("rows");
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(
            row[1],
            grundy[i / 4][i % 4],
            "Rook(({}, {})): {row}",
            i / 4,
            i % 4
        );
    }
    let path = temp_file(
        "tuple_pattern_mismatch.cgdl",
        "game G(n: nat) {\n    move m(let (a, b) = n, a > 0) => G(a - 1)\n}\n",
    );
    let out = cgdl(&["check", path.to_str().expect("path")]);
    assert_fails_with(
        &out,
        "a pattern of 2 parts needs 2-tuples, found elements of type nat",
    );
}

/// An `int` may stand for a range inside a tuple that fills a field or a payload, checked
/// where the value is built: a king stepping towards the corner (P exactly where both of
/// its coordinates are even), and a step off the board as an error, in both back ends.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn ints_fill_ranges_inside_tuples() {
    let source = "type Sq = (0..5, 0..5)\ntype Piece = King(Sq) | Gone\n\
        game G(p: Piece) {\n\
        \x20   move step(dr in {-1, 0}, dc in {-1, 0}, dr != 0 or dc != 0) => match p {\n\
        \x20       King(x) => if x.0 + dr >= 0 and x.1 + dc >= 0 then G(King((x.0 + dr, x.1 + dc))) else G(Gone),\n\
        \x20       Gone => end,\n\
        \x20   }\n}\n\
        table outcome of G(King(s)) for s in Sq\n\
        game H(s: Sq) {\n    move up(dr in {-1}) => H((s.0 + dr, s.1))\n}\n";
    let path = temp_file("int_tuple.cgdl", source);
    let outs = both_back_ends(&["run", path.to_str().expect("path"), "--format", "json"]);
    assert!(outs[0].status.success(), "{}", stderr(&outs[0]));
    assert_eq!(stdout(&outs[0]), stdout(&outs[1]));
    // By the definition: Gone's one option is `end` (N); a king's options are the kings a
    // step nearer the corner, and Gone for a step off the board.
    let mut next_wins = [[false; 5]; 5];
    for r in 0..5 {
        for c in 0..5 {
            let mut wins = false;
            for (dr, dc) in [(-1, 0), (0, -1), (-1, -1)] {
                let (a, b) = (r as i64 + dr, c as i64 + dc);
                // Gone is N: a step to it loses.
                wins |= a >= 0 && b >= 0 && !next_wins[a as usize][b as usize];
            }
            next_wins[r][c] = wins;
        }
    }
    let json: serde_json::Value = serde_json::from_str(&stdout(&outs[0])).expect("JSON");
    let rows = json["queries"][0]["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 25);
    for (i, row) in rows.iter().enumerate() {
        let (r, c) = (i / 5, i % 5);
        let want = if next_wins[r][c] { "N" } else { "P" };
        assert_eq!(row[1], want, "King(({r}, {c})): {row}");
    }
    let path = temp_file(
        "int_tuple_off.cgdl",
        &format!("{source}value outcome of H((0, 2))\n"),
    );
    both_back_ends_fail_with(
        &["run", path.to_str().expect("path")],
        "field `s` of H would be (-1, 2), outside its type (0..=4, 0..=4)",
    );
}

/// A function's argument outside its parameter's type is an error in both back ends, and a
/// constant one is a diagnostic.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn function_arguments_are_checked_against_their_types() {
    let source = "fn f(x: 0..3) -> nat = x * 2\n\
                  game G(n: nat) {\n    move m(k in 1..=n) => G(f(n - k))\n}\n\
                  value grundy of G(4)\n";
    let path = temp_file("argument.cgdl", source);
    both_back_ends_fail_with(
        &["run", path.to_str().expect("path")],
        "argument `x` of `f` would be 3, outside its type 0..=2",
    );
    let path = temp_file(
        "constant_argument.cgdl",
        "fn f(x: 0..3) -> nat = x * 2\ngame G(n: nat) {\n    move m(n > 0) => G(f(7))\n}\n",
    );
    let out = cgdl(&["check", path.to_str().expect("path")]);
    assert_fails_with(&out, "7 is out of range for an argument of `f` (0..=2)");
    assert!(stderr(&out).contains("E0203"), "{}", stderr(&out));
}

#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn huge_state_spaces_stop_with_a_message() {
    let path = temp_file(
        "huge.cgdl",
        "game Chain(n: nat) {\n    move down(n > 0) => Chain(n - 1)\n}\nvalue grundy of Chain(100000)\n",
    );
    let out = cgdl(&[
        "run",
        path.to_str().expect("path"),
        "--max-positions",
        "1000",
    ]);
    assert_fails_with(&out, "more than 1000 positions");
}

#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn run_json_follows_the_schema() {
    let out = cgdl(&["run", "examples/limited_nim.cgdl", "--format", "json"]);
    assert!(out.status.success());
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    let queries = doc["queries"].as_array().expect("queries");
    assert_eq!(queries.len(), 4);
    assert_eq!(queries[0]["kind"], "table");
    assert_eq!(
        queries[0]["columns"],
        serde_json::json!(["n", "grundy", "wnumber", "misere_wnumber"])
    );
    assert_eq!(
        queries[0]["rows"][0],
        serde_json::json!(["0", 0, "SL", "SW"])
    );
    assert_eq!(queries[1]["kind"], "period");
    assert_eq!(queries[1]["period"], 7);
    assert_eq!(queries[1]["proven"], true);
    assert_eq!(queries[2]["kind"], "value");
    assert_eq!(
        queries[2]["values"],
        serde_json::json!([["outcome", "N"], ["wnumber", 1]])
    );
}

/// JSON has one line per query by default; `--pretty` indents the same document, on `run`
/// and on `eval`, natively and interpreted.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn json_is_compact_by_default_and_pretty_on_request() {
    let run = "run examples/limited_nim.cgdl --format json";
    let [compacts, prettys] = [vec![], vec!["--pretty"]].map(|extra| {
        let mut args: Vec<&str> = run.split(' ').collect();
        args.extend(extra);
        both_back_ends(&args).map(|out| {
            assert!(out.status.success(), "{}", stderr(&out));
            stdout(&out)
        })
    });
    let evals = both_back_ends(&[
        "eval",
        "examples/nim.cgdl",
        "Heap(3) + Heap(5)",
        "--value",
        "outcome,grundy",
        "--format",
        "json",
    ]);
    for ((compact, pretty), out) in compacts.iter().zip(&prettys).zip(&evals) {
        let lines: Vec<&str> = compact.lines().collect();
        assert_eq!(lines.len(), 4 + 2, "{compact}");
        assert!(lines[0].starts_with(r#"{"file":"examples/limited_nim.cgdl","queries":["#));
        assert!(lines[1].starts_with(r#"{"kind":"table""#), "{}", lines[1]);
        assert!(pretty.lines().count() > 100);
        let a: serde_json::Value = serde_json::from_str(compact).expect("JSON");
        let b: serde_json::Value = serde_json::from_str(pretty).expect("JSON");
        assert_eq!(a, b);
        assert!(pretty.starts_with("{\n  \"file\": \"examples/limited_nim.cgdl\",\n"));

        assert!(out.status.success(), "{}", stderr(out));
        assert_eq!(
            stdout(out),
            "{\"file\":\"examples/nim.cgdl\",\"position\":\"Heap(3) + Heap(5)\",\
             \"values\":[[\"outcome\",\"N\"],[\"grundy\",6]]}\n"
        );
    }
}

/// The interpreter's table of a heap game stays under a small memory limit: it keeps the
/// positions it has solved only as its memo does, which forgets them under `--max-memory`
/// (300,000 rows of this game take about 60 MB where nothing is forgotten). Its values are
/// the game's by definition. (A cheaper cousin of `tests/slow.rs`'s three million rows,
/// in the default suite: an interpreter that held every position stopped at the limit.)
#[test]
fn the_interpreters_long_table_stays_under_a_small_memory_limit() {
    let path = temp_file(
        "interp_rows.cgdl",
        "game Q(n: nat) { move half(n > 0) => Q(n / 2)\n\
                          move third(n > 2) => Q(n / 3) }\n\
         table grundy of Q(n) for n in 0..300000\n",
    );
    let out = cgdl(&[
        "run",
        "--interp",
        path.to_str().expect("path"),
        "--max-memory",
        "30M",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut grundy = vec![0u32; 300_000];
    for n in 1..grundy.len() {
        let options = [Some(grundy[n / 2]), (n > 2).then(|| grundy[n / 3])];
        grundy[n] = (0..).find(|v| !options.contains(&Some(*v))).expect("a mex");
    }
    let text = stdout(&out);
    let rows: Vec<Vec<&str>> = (text.lines().skip(2))
        .map(|line| line.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), grundy.len());
    for (n, row) in rows.iter().enumerate() {
        assert_eq!(*row, [n.to_string(), grundy[n].to_string()], "row {n}");
    }
}

/// Runs `cgdl run FLAG` on a table of a hundred million rows, reads its first lines and
/// closes the pipe, as `cgdl run f.cgdl | head` does: the run stops (it would take hours to
/// the end) with success and no error.
fn a_closed_pipe_stops_the_run(flag: &str) {
    use std::io::BufRead;
    let path = temp_file(
        &format!("closed_pipe{flag}.cgdl"),
        "game S = subtraction {1, 2}\ntable grundy of S(n) for n in 0..100000000\n",
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_cgdl"))
        .args(["run", flag, path.to_str().expect("path")])
        .env(
            "CGDL_CACHE_DIR",
            common::root().join("target/cgdl-test-cache"),
        )
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the cgdl binary runs");
    let mut reader = std::io::BufReader::new(child.stdout.take().expect("a pipe"));
    let mut lines = Vec::new();
    for _ in 0..3 {
        let mut line = String::new();
        reader.read_line(&mut line).expect("a line");
        lines.push(line);
    }
    assert_eq!(lines[2].split_whitespace().collect::<Vec<_>>(), ["0", "0"]);
    drop(reader);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().expect("a status") {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("`cgdl run {flag}` kept solving after its output was closed");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let out = child.wait_with_output().expect("its stderr");
    assert!(status.success(), "{status}: {}", stderr(&out));
    assert!(!stderr(&out).contains("error"), "{}", stderr(&out));
}

#[test]
fn a_closed_pipe_stops_the_interpreter() {
    a_closed_pipe_stops_the_run("--interp");
}

/// Output that cannot be written (a full disk, here `/dev/full`) is an error with status 1.
#[test]
#[cfg(target_os = "linux")]
fn output_that_cannot_be_written_is_an_error() {
    let path = temp_file(
        "full.cgdl",
        "game S = subtraction {1, 2}\nvalue grundy of S(4)\n",
    );
    let path = path.to_str().expect("path");
    for args in [vec!["check", path], vec!["run", "--interp", path]] {
        let out = Command::new(env!("CARGO_BIN_EXE_cgdl"))
            .args(&args)
            .stdout(std::fs::File::create("/dev/full").expect("/dev/full"))
            .output()
            .expect("the cgdl binary runs");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            stderr(&out).starts_with("error: cannot write the output: "),
            "{args:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn a_closed_pipe_stops_a_native_solver() {
    a_closed_pipe_stops_the_run("--native");
}

/// A long table is printed while it is solved, never held whole: three million rows of
/// subtraction {1, 2} (Grundy value n mod 3) within 100 MB, aligned in blocks.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn long_tables_stream_within_a_small_memory_limit() {
    let path = temp_file(
        "long.cgdl",
        "game S = subtraction {1, 2}\ntable grundy of S(n) for n in 0..3000000\n",
    );
    let out = cgdl(&["run", path.to_str().expect("path"), "--max-memory", "100M"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("table grundy of S(n) for n in 0..3000000")
    );
    assert_eq!(lines.next(), Some("    n  grundy"));
    let mut count = 0;
    for (n, line) in lines.enumerate() {
        let cells: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(cells, [n.to_string(), (n % 3).to_string()], "{line}");
        count += 1;
    }
    assert_eq!(count, 3_000_000);
}

/// Moves that grow without end, with more options at each step, are stopped by the work
/// limit along one line of play (natively here; tests/slow.rs runs both back ends).
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn growing_move_domains_stop_natively() {
    let path = temp_file(
        "grow.cgdl",
        "game G(n: int) { move take(k in -1..=n, k != 0) => G(n - k) }\nvalue grundy of G(5)\n",
    );
    let out = cgdl(&[
        "run",
        path.to_str().expect("path"),
        "--max-positions",
        "20000",
    ]);
    // Each G(m) has the m + 1 options G(m + 1), G(m - 1), ..., G(0): the 10,000 positions
    // G(5) ... G(10004) on the line and G(10005) enumerate 6 + 7 + ... + 10006 = 50,065,006.
    assert_fails_with(
        &out,
        "a line of play went 10000 moves without ending (G(5) -> G(6) -> G(7) -> ... -> \
             G(10003) -> G(10004)); 50065006 options were enumerated along it",
    );
}

/// A heap game's bottom-up kernel respects --max-memory: a heap of 10^8 does not fit in
/// 300 MB, and the solve says so instead of growing past the limit.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn heap_kernels_respect_the_memory_limit() {
    let path = temp_file(
        "kernel_memory.cgdl",
        "game H(n: nat) { move take(k in 1..=2, k <= n, n != 5) => H(n - k) }\n\
         value grundy of H(100000000)\n",
    );
    let out = cgdl(&["run", path.to_str().expect("path"), "--max-memory", "300M"]);
    assert_fails_with(&out, "reached its memory limit of 300.0 MiB (--max-memory)");
    // Without the extra condition the rule is the heap game 0.33: its engine keeps a byte
    // per value, and a heap past the budget is read off the proven period.
    let path = temp_file(
        "kernel_memory_heap.cgdl",
        "game H(n: nat) { move take(k in 1..=2, k <= n) => H(n - k) }\n\
         value grundy of H(100000000)\n",
    );
    let out = cgdl(&["run", path.to_str().expect("path"), "--max-memory", "300M"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("grundy  1 (periodic from 0, period 3)"),
        "{}",
        stdout(&out)
    );
}

/// A heap game asked for while the process already holds more than `--max-memory` says
/// that the limit is reached, not that the heap is too large to compute.
#[test]
fn a_heap_kernel_without_room_names_the_memory_limit() {
    let out = cgdl(&[
        "eval",
        "examples/dawsons_kayles.cgdl",
        "Dawson(100000000)",
        "--value",
        "grundy",
        "--interp",
        "--max-memory",
        "1M",
    ]);
    assert_fails_with(&out, "reached its memory limit of 1.0 MiB (--max-memory)");
    assert!(
        !stderr(&out).contains("too large to compute"),
        "{}",
        stderr(&out)
    );
}

#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn kings_horses_text_output() {
    let out = cgdl(&["run", "examples/kings_horses.cgdl"]);
    assert!(out.status.success());
    insta::assert_snapshot!("kings_horses_run", stdout(&out));
}

#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn absurd_query_domains_are_refused() {
    let out = run_file(
        "domain.cgdl",
        "game S = subtraction {1, 2}\ntable grundy of S(n) for n in 0..=1000000000000\n",
    );
    assert_fails_with(
        &out,
        "the domain has 1000000000001 elements; a table may have at most 100000000 rows",
    );
}

#[test]
fn loony_worked_values_and_json() {
    let out = cgdl(&["loony", "3", "3", "4", "L6", "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["value"], 2);
    assert_eq!(doc["controlled_value"], 0);
    assert_eq!(doc["open"], "3");
    assert_eq!(doc["split"], serde_json::json!([9, 7]));

    let out = cgdl(&["loony", "3", "4", "L4x100", "L6x100", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["value"], 3);
    assert_eq!(doc["line"].as_array().map(Vec::len), Some(202));

    let out = cgdl(&["loony", "L6,L6,L6", "--exact"]);
    assert!(
        stdout(&out).contains("value             2 "),
        "{}",
        stdout(&out)
    );
}

#[test]
fn loony_board_file() {
    let out = cgdl(&["loony", "--board", "examples/loony_board.txt"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).starts_with("endgame           3 7 L4 L6  (4 components, 20 boxes)\n"));

    let path = temp_file("capturable.txt", "+--+--+\n|  |  |\n+--+  +\n");
    let out = cgdl(&["loony", "--board", path.to_str().expect("path")]);
    assert_fails_with(&out, "box (1, 2) has three sides drawn");

    let path = temp_file("malformed.txt", "+--+\n|  |\n+-x+\n");
    let out = cgdl(&["loony", "--board", path.to_str().expect("path")]);
    assert_fails_with(&out, "board line 3, column 2");
}

#[test]
fn loony_bad_input() {
    for (args, message) in [
        (vec!["loony", "3", "L5"], "a loop of length 5 is impossible"),
        (vec!["loony", "2", "3"], "a chain of length 2 is too short"),
        (vec!["loony", "L2"], "a loop of length 2 is too short"),
        (vec!["loony", "3", "chain"], "`chain` is not a component"),
        (vec!["loony"], "give the components"),
    ] {
        let out = cgdl(&args);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
    }
}

#[test]
fn compile_writes_a_module_or_says_what_is_unsupported() {
    let out = cgdl(&["compile", "examples/kayles.cgdl"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let code = stdout(&out);
    assert!(code.starts_with("// Generated by cgdl"));
    assert!(code.contains("impl ::cgdl_runtime::Rules for Universe"));
    assert!(code.contains("pub fn plans()"));

    // List fields are interned: the module builds them through a `ListInterner`.
    let out = cgdl(&["compile", "examples/level_nim.cgdl"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("ListInterner<i64>"));

    // A set of unbounded numbers is packed by the values its moves add (and its queries
    // give).
    let path = temp_file(
        "unbounded_set.cgdl",
        "game S(xs: set<nat>) {\n    move add(x in {1, 2}, x not in xs) => S(xs | {x})\n}\n\
         value grundy of S({7})\n",
    );
    let out = cgdl(&["compile", &path.to_string_lossy()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("static DOMAIN_S_0: [i64; 3usize] = [1i64, 2i64, 7i64];"));
    // Not where the moves add nothing (the set holds what it is given), nor where they add
    // computed values: then it has no packed form.
    let path = temp_file(
        "given_set.cgdl",
        "game S(xs: set<nat>) {\n    move drop(x in xs) => S(xs - {x})\n}\nvalue grundy of S({1, 2})\n",
    );
    let out = cgdl(&["compile", &path.to_string_lossy()]);
    assert_fails_with(&out, "native code does not support the set field of `S`");
    let path = temp_file(
        "growing_set.cgdl",
        "game S(xs: set<nat>) {\n    move grow(len(xs) < 3) => S(xs | {len(xs) + 100})\n}\n\
         value grundy of S({1, 2})\n",
    );
    let out = cgdl(&["compile", &path.to_string_lossy()]);
    assert_fails_with(&out, "native code does not support the set field of `S`");
}

/// stderr without the one-time "building the native solver" line.
/// Games, types, fields and functions named like what Rust or the generated code uses.
const NAMES: &str = "type Fn = QUERIES | Main(0..3) | Self
type Fn_ = Vec | Ok(0..2)
game T(Ok: nat, Err: 0..3, None: bool, s1: nat, make_g0: nat) {
    move m(k in 1..=Ok) => T(Ok - k, Err, None, s1, make_g0)
}
game Universe(QUERIES: Fn, Some: Fn_) {
    move m(Some == Vec) => Universe(Main(2), Ok(1))
    move n() => T(2, 1, true, 0, 0)
}
game T_(n: nat) { move m(k in 1..=n) => T_(n - k) + T(1, 0, false, 0, 0) }
game Pos() { move m() => T_(2) }
game match_(self_: nat) { move m() => Pos() }
fn Err(x: nat) -> nat = x + 1
value grundy, moves of T(Err(2), 0, false, 0, 0) + Universe(QUERIES, Vec)
value grundy, remoteness of T_(3) + match_(1)
";

/// A game whose end probe needs the values of a `nat` helper (`i in 0..reach(k)` lies in
/// `0..8`), so native code has a probe, open options and unchecked positions for it; its
/// second move is never `end` (the open options call its one function).
const PROBE: &str = "fn reach(n: nat) -> nat = n + 3
game G(k: 0..5, s: set<0..8>) {
    move m(i in 0..reach(k), i not in s) => if i in {1, 4} and len(s) >= 2 then end else G(k, s | {i})
    move skip(k > 0) => G(0, s)
}
table outcome, grundy, wnumber of G(k, {}) for k in 0..5
value outcome, grundy of G(4, {0, 2})
";

/// [`PROBE`] with a helper that fails where `k` is 0 (`nat` underflow) or 1 (division by
/// zero).
const NO_PROBE: &str = "fn reach(n: nat) -> nat = 12 / (n - 1)
game G(k: 0..5, s: set<0..12>) {
    move m(i in 0..min(reach(k), 8), i not in s) => if i in {1, 4} and len(s) >= 2 then end else G(k, s | {i})
}
value outcome, wnumber of G(3, {})
value outcome of G(1, {})
";

#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn native_and_interpreter_agree_on_output_and_errors() {
    let mut files: Vec<PathBuf> = [
        ("range.cgdl", "game H(r: 0..8) {\n    move up(k in 1..=3) => H(r + k)\n}\nvalue grundy of H(6)\n"),
        ("underflow.cgdl", "game G(n: nat) {\n    move take(k in 1..=2) => G(n - k)\n}\nvalue grundy of G(1)\n"),
        ("loopy.cgdl", "game L(n: 0..3) {\n    move step() => L((n + 1) % 3)\n}\nvalue outcome of L(0)\n"),
        ("index.cgdl", "const XS = [1, 2]\ngame G(n: nat) {\n    move m(n < 5) => G(n + XS[n])\n}\nvalue grundy of G(0)\n"),
        ("variant.cgdl", "type Cell = At(0..3)\ngame G(c: Cell) {\n    move right() => match c { At(i) => G(At(i + 1)) }\n}\nvalue grundy of G(At(0))\n"),
        // The probe for a move to `end` over a `nat` helper (sure: it succeeds at every
        // value of `k`), and the same where the helper fails at some (no probe; the same
        // error from both back ends).
        ("probe.cgdl", PROBE),
        ("no_probe.cgdl", NO_PROBE),
    ]
    .iter()
    .map(|(name, source)| temp_file(name, source))
    .collect();
    // Issue 19: ranges reaching i64::MAX (the interpreter overflowed, native code dropped
    // the last element), grids without rows, and a grid past the cell limit.
    files.push(temp_file(
        "edges.cgdl",
        "const MAX = 4611686018427387903 * 2 + 1\n\
         const MIN = -MAX - 1\n\
         game G(n: nat) { move m(k in MAX - 2..=MAX, n > 0) => G(n - 1) }\n\
         game H() { move m(k in MIN..MIN) => end }\n\
         value outcome, grundy, remoteness of G(4)\n\
         value outcome of H()\n\
         value grundy of G(count x in MAX - 2..=MAX: true)\n\
         value grundy of G(max(MAX - 1..=MAX) - MAX + len(MAX - 2..=MAX))\n\
         table grundy of G(MAX - x) for x in MAX - 2..=MAX\n\
         table grundy of G(r + c) for r in 0..0, c in 0..3\n\
         table grundy of G(r + c) for r in 0..2, c in 0..0\n\
         table grundy of G(x) for x in 0..2000, y in 0..2001\n",
    ));
    let edges = files.len() - 1;
    // Issue 19: names that Rust or the generated module use (they broke the native build).
    files.push(temp_file("names.cgdl", NAMES));
    files.push(common::root().join("examples/queens.cgdl"));
    files.push(common::root().join("examples/northcott.cgdl"));
    for file in &files {
        let path = file.to_str().expect("path");
        for format in ["text", "json"] {
            let [native, interp] = both_back_ends(&["run", path, "--format", format]);
            assert_eq!(stdout(&native), stdout(&interp), "{path} {format}");
            assert_eq!(
                stderr_without_build_note(&native),
                stderr(&interp),
                "{path} {format}"
            );
            assert_eq!(native.status.code(), interp.status.code(), "{path}");
        }
    }
    // The edges by the definition: G(n)'s only option is G(n - 1) (each of the 3 values of
    // `k` gives it), so its Grundy value is n mod 2 and its remoteness n; H() has no move.
    let out = cgdl(&["run", files[edges].to_str().expect("path"), "--interp"]);
    let text = stdout(&out);
    for expected in [
        "  outcome     P\n  grundy      0\n  remoteness  4\n",
        "value outcome of H()\n  outcome  P\n",
        "value grundy of G(count x in MAX - 2..=MAX: true)\n  grundy  1\n",
        "MAX - x) for x in MAX - 2..=MAX\n                  x  grundy\n\
         9223372036854775805       0\n9223372036854775806       1\n9223372036854775807       0\n",
        "for r in 0..0, c in 0..3\ngrundy (rows r, columns c):\nr\\c\n\n",
        "for r in 0..2, c in 0..0\ngrundy (rows r, columns c):\nr\\c\n  0\n  1\n",
    ] {
        assert!(text.contains(expected), "{expected:?} in\n{text}");
    }
    assert!(stderr(&out).contains("the grid has 2000 × 2001 = 4002000 cells"));
}

#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn build_writes_a_standalone_solver() {
    let bin = std::env::temp_dir().join(format!("cgdl-nim-solver-{}", std::process::id()));
    let out = cgdl(&[
        "build",
        "examples/nim.cgdl",
        "-o",
        bin.to_str().expect("path"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let solver = Command::new(&bin).output().expect("the solver runs");
    assert!(solver.status.success());
    let interp = cgdl(&["run", "examples/nim.cgdl", "--interp"]);
    assert_eq!(stdout(&solver), stdout(&interp));
    let _ = std::fs::remove_file(bin);
}

/// A bounded game's table filled by two threads (rows of 130, 16,900 positions, past the
/// 16,384 that make it worth threads) answers as one thread and as the interpreter, with a
/// column of positions that hand back to the general solver (an option that is not
/// earlier, past 15,600 values filled);
/// `--threads 0` is refused.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn threads_answer_as_one_thread_and_the_interpreter() {
    let path = temp_file(
        "threads.cgdl",
        "game Q(r: 0..130, c: 0..130) {\n    move west(k in 1..=c) => Q(r, c - k)\n    \
         move north(k in 1..=r) => Q(r - k, c)\n    \
         move northwest(k in 1..=min(r, c)) => Q(r - k, c - k)\n    \
         move south(c == 120 and r < 129) => Q(r + 1, c)\n}\n\
         value grundy of Q(129, 129)\n\
         table grundy of Q(r, c) for r in 0..4, c in 118..123\n\
         value grundy of Q(3, 5)\n",
    );
    let run = |extra: &[&str]| {
        let mut args = vec!["run", path.to_str().expect("path")];
        args.extend(extra);
        let out = cgdl(&args);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let one = run(&["--threads", "1"]);
    assert_eq!(one, run(&["--threads", "2"]));
    assert_eq!(one, run(&["--interp"]));
    // (3, 5) is a P-position of Wythoff's game, which the queen's moves make.
    assert!(
        one.ends_with("value grundy of Q(3, 5)\n  grundy  0\n"),
        "{one}"
    );
    let out = cgdl(&["run", "examples/nim.cgdl", "--threads", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--threads"), "{}", stderr(&out));
}

/// The outcome search of a game that does not split, long enough (natural dots on 3 × 10
/// dots without its symmetry lines, 1.5 million positions: past the
/// `OUTCOME_WAKE_AFTER` after which it wakes its helpers, as the test checks) to be
/// searched by two threads at once, answers as one thread: N, as Lenhardt's Theorem 4.2
/// says where R + C is odd.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn an_outcome_search_on_two_threads_answers_as_one() {
    let example =
        std::fs::read_to_string(common::root().join("examples/dots_lines.cgdl")).expect("example");
    let mut text: String = example
        .lines()
        .filter(|l| {
            !l.trim_start().starts_with("symmetry")
                && !l.starts_with("value")
                && !l.starts_with("table")
        })
        .map(|l| match l {
            "const C = 3" => "const C = 10\n".to_string(),
            _ => format!("{l}\n"),
        })
        .collect();
    assert!(text.contains("const R = 3\n") && text.contains("const C = 10\n"));
    text.push_str("value outcome of Dots({})\n");
    let path = temp_file("dots_plain.cgdl", &text);
    let run = |threads: &str| {
        let file = path.to_str().expect("path");
        let out = cgdl(&["run", "--native", file, "--threads", threads, "--stats"]);
        assert!(out.status.success(), "{}", stderr(&out));
        (stdout(&out), stats_positions(&out))
    };
    let (one, solved) = run("1");
    assert!(
        one.ends_with("value outcome of Dots({})\n  outcome  N\n"),
        "{one}"
    );
    // Else the helpers never wake, and the test would compare one thread with itself.
    let wake = cgdl::runtime::solver::OUTCOME_WAKE_AFTER;
    assert!(
        solved > wake + wake / 20,
        "{solved} positions: too few to share"
    );
    assert_eq!(one, run("2").0);
}

/// Canonical forms computed by two threads (Domineering on 4 × 5: past the 2,048 positions
/// after which the asking thread wakes its helpers) answer as one thread: the whole board
/// is 1 (the example's note), and a sum's form is the same text.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn canonical_forms_on_two_threads_answer_as_one() {
    let example =
        std::fs::read_to_string(common::root().join("examples/domineering.cgdl")).expect("example");
    let mut text: String = example
        .lines()
        .filter(|l| !l.starts_with("value") && !l.starts_with("table"))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(text.contains("const R = 4\n") && text.contains("const C = 5\n"));
    text.push_str(
        "value canonical, outcome, temperature of Domineering(rect(4, 5))\n\
         value canonical of Domineering(rect(4, 4)) + Domineering(rect(3, 3))\n",
    );
    let path = temp_file("domineering_threads.cgdl", &text);
    let run = |threads: &str| {
        let file = path.to_str().expect("path");
        let out = cgdl(&["run", "--native", file, "--threads", threads]);
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let one = run("1");
    assert!(
        one.contains("  canonical    1\n  outcome      L\n"),
        "{one}"
    );
    assert_eq!(one, run("2"));
}

/// Runs `args` natively and interpreted; both must fail alike with `expected` in stderr.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn memory_limit_stops_a_solve_with_its_name() {
    let path = temp_file(
        "grid.cgdl",
        "game H(n: nat, m: nat) {\n    move a(n > 0) => H(n - 1, m)\n    move b(m > 0) => H(n, m - 1)\n}\nvalue grundy of H(3000, 3000)\n",
    );
    both_back_ends_fail_with(
        &["run", path.to_str().expect("path"), "--max-memory", "40M"],
        "the solve reached its memory limit of 40.0 MiB (--max-memory)",
    );
    let out = cgdl(&["run", "examples/nim.cgdl", "--max-memory", "lots"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("`lots` is not a size"),
        "{}",
        stderr(&out)
    );
}

/// A loopy game whose compound holds the game again grows by a component with each move,
/// and each component multiplies the options: its graph stops at the position limit as
/// the positions are found, not after listing each one's options (which took a minute
/// before it stopped on a compound of 3 million options).
#[test]
fn a_compound_growing_with_each_move_stops_at_the_position_limit() {
    let path = temp_file(
        "growing_compound.cgdl",
        "game G(n: nat) {
    move take(k in 1..=2, k <= n, n < 50) => G(n - k)
    move back(n == 100) => G(12)
    move split(k in 1..=2, k < n, n < 50) => conjunctive(G(k + 6), G(100))
    move grow(k in 1..=2, n == 100) => conjunctive(G(k + 6), G(100))
}
value outcome of G(4)
",
    );
    let path = path.to_str().expect("path");
    let out = cgdl(&["run", "--interp", path, "--max-positions", "3000"]);
    assert_fails_with(&out, "more than 3000 positions would be solved");
}

#[test]
fn constants_too_large_to_evaluate_are_refused_quickly() {
    for constant in [
        "closure({0}, v => {v + 1})",
        "count x in 0..4000000000: true",
        "len({ x for x in 0..4000000000 })",
    ] {
        let path = temp_file(
            "constant.cgdl",
            &format!("const Q = {constant}\ngame G(n: nat) {{ move m(k in 1..=n) => G(n - k) }}\n"),
        );
        let out = cgdl(&["check", path.to_str().expect("path")]);
        assert_eq!(out.status.code(), Some(1), "{constant}");
        assert!(
            stderr(&out).contains("constant too large to evaluate at compile time"),
            "{constant}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn input_files_bom_non_utf8_and_many_errors() {
    let path = temp_file(
        "bom.cgdl",
        "\u{feff}game G(n: nat) { move m(k in 1..=n) => G(n - k) }\nvalue grundy of G(3)\n",
    );
    let out = cgdl(&["run", path.to_str().expect("path"), "--interp"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "value grundy of G(3)\n  grundy  3\n");

    let path = temp_file("latin1.cgdl", "");
    std::fs::write(&path, b"game G() {}\n// caf\xe9\n").expect("write");
    let out = cgdl(&["check", path.to_str().expect("path")]);
    assert_fails_with(&out, "is not UTF-8 text: byte 18 (");
    assert!(stderr(&out).contains(":2:7)"), "{}", stderr(&out));

    // 3,000 bad lines: 20 errors shown, the rest counted, long lines not quoted.
    let long = format!("const X = {}\n", "1 + ".repeat(100) + "q");
    let source = long + &"let a = 1\n".repeat(3000);
    let path = temp_file("many.cgdl", &source);
    let out = cgdl(&["check", path.to_str().expect("path")]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.len() < 20_000, "{} bytes of errors", err.len());
    assert!(!err.contains(&"1 + ".repeat(100)), "a long line was quoted");
}

#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn build_refuses_to_overwrite_its_source_and_solvers_check_arguments() {
    let source = temp_file("self.cgdl", "game G() {}\nvalue outcome of G()\n");
    let out = cgdl(&[
        "build",
        source.to_str().expect("path"),
        "-o",
        source.to_str().expect("path"),
    ]);
    assert_fails_with(&out, "would overwrite the source file");
    assert_eq!(
        std::fs::read_to_string(&source).expect("still text"),
        "game G() {}\nvalue outcome of G()\n"
    );

    let bin = std::env::temp_dir().join(format!("cgdl-args-solver-{}", std::process::id()));
    let out = cgdl(&[
        "build",
        "examples/nim.cgdl",
        "-o",
        bin.to_str().expect("path"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let help = Command::new(&bin).arg("--help").output().expect("runs");
    assert!(help.status.success());
    assert!(stdout(&help).contains("--max-memory"), "{}", stdout(&help));
    let bad = Command::new(&bin)
        .args(["--format", "yaml"])
        .output()
        .expect("runs");
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        stderr(&bad).contains("invalid value 'yaml' for '--format <text|json>'"),
        "{}",
        stderr(&bad)
    );
    let many = Command::new(&bin)
        .args(["--threads", "100000"])
        .output()
        .expect("runs");
    assert_eq!(many.status.code(), Some(2));
    assert!(
        stderr(&many).contains("100000 is not in 1..=1024"),
        "{}",
        stderr(&many)
    );
    let json = Command::new(&bin)
        .args(["--format", "json"])
        .output()
        .expect("runs");
    let doc: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(doc["file"], "examples/nim.cgdl");
    let _ = std::fs::remove_file(bin);
}

#[test]
fn setup_problems_are_named_as_such() {
    let path = temp_file("setup.cgdl", "game S() {}\nvalue outcome of S()\n");
    let cache = std::env::temp_dir().join(format!("cgdl-setup-cache-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_cgdl"))
        .args(["run", "--native", path.to_str().expect("path")])
        .env("CGDL_CACHE_DIR", &cache)
        .env("CARGO", "/bin/false")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("cannot build the native solver"), "{err}");
    assert!(!err.contains("bug in the cgdl compiler"), "{err}");

    let out = Command::new(env!("CARGO_BIN_EXE_cgdl"))
        .args(["run", "--native", path.to_str().expect("path")])
        .env("CGDL_RUNTIME_PATH", std::env::temp_dir())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("native code needs the cgdl-runtime sources"));
    let _ = std::fs::remove_dir_all(cache);
}

/// A number from the clock, below 1,000,000,007: a constant no other run's file has, so
/// that a file written with it gets a solver of its own in the tests' shared cache.
fn salt() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_nanos()
        % 1_000_000_007
}

/// The key of the solver in the test cache `cache` whose generated source holds `salt` (a
/// game of its own gets a solver of its own; `solvers/KEY/src/main.rs` names it).
fn salted_solver_key(cache: &std::path::Path, salt: u128) -> String {
    std::fs::read_dir(cache.join("solvers"))
        .expect("the solvers' sources")
        .flatten()
        .find(|dir| {
            std::fs::read_to_string(dir.path().join("src/main.rs"))
                .is_ok_and(|code| code.contains(&salt.to_string()))
        })
        .expect("this file's solver")
        .file_name()
        .to_string_lossy()
        .into_owned()
}

#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn a_damaged_cached_solver_is_rebuilt() {
    // A game of its own (a constant no other test uses) gets a solver of its own in the
    // tests' shared cache; its generated source (`solvers/KEY/src/main.rs`) names it.
    let salt = salt() + 1_000_000_007;
    let path = temp_file(
        "damaged.cgdl",
        &format!(
            "game Heap(n: nat) {{\n    move take(k in 1..=n, n != {salt}) => Heap(n - k)\n}}\n"
        ),
    );
    let file = path.to_str().expect("path");
    let run = || cgdl(&["eval", file, "Heap(5) + Heap(3)", "--value", "grundy"]);
    assert_eq!(stdout(&run()), "grundy 6\n");
    let cache = common::root().join("target/cgdl-test-cache");
    let key = salted_solver_key(&cache, salt);
    let binary = cache
        .join("target/release")
        .join(format!("cgdl-solver-{key}"));
    std::fs::write(&binary, b"#!/bin/sh\nkill -SEGV $$\n").expect("damage");
    let again = run();
    assert_eq!(stdout(&again), "grundy 6\n", "{}", stderr(&again));
    assert!(stderr(&again).contains("building"), "{}", stderr(&again));
}

/// A file run before by the same `cgdl` starts its solver without being checked again (its
/// record in the cache names the solver), but never a stale one: a changed file is checked
/// (its errors said), and a damaged solver is rebuilt.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn a_file_run_again_starts_its_own_solver() {
    let salt = salt() + 2_000_000_014;
    let source = format!(
        "game Heap(n: nat) {{\n    move take(k in 1..=n, n != {salt}) => Heap(n - k)\n}}\n\
         value grundy of Heap(5) + Heap(3)\n"
    );
    let path = temp_file("again.cgdl", &source);
    let file = path.to_str().expect("path");
    let first = cgdl(&["run", file]);
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(stdout(&first).contains("grundy  6"), "{}", stdout(&first));
    let cache = common::root().join("target/cgdl-test-cache");
    let key = salted_solver_key(&cache, salt);
    let recorded = std::fs::read_dir(cache.join("sources"))
        .expect("the sources' records")
        .flatten()
        .filter(|r| std::fs::read_to_string(r.path()).is_ok_and(|k| k == key))
        .count();
    assert_eq!(recorded, 1, "one record names the solver");

    let again = cgdl(&["run", file]);
    assert_eq!(stdout(&again), stdout(&first));
    assert!(!stderr(&again).contains("building"), "{}", stderr(&again));
    // `eval` takes the recorded solver too, and still checks its position.
    let eval = cgdl(&["eval", file, "Heap(6) + Heap(3)", "--value", "grundy"]);
    assert_eq!(stdout(&eval), "grundy 5\n", "{}", stderr(&eval));
    assert!(!stderr(&eval).contains("building"), "{}", stderr(&eval));
    let bad = cgdl(&["eval", file, "Hep(6)", "--value", "grundy"]);
    assert_eq!(bad.status.code(), Some(1));
    assert!(stderr(&bad).contains("<position>:1:1"), "{}", stderr(&bad));

    // Changed: checked again, its error said; changed back: its solver again.
    std::fs::write(&path, source.replace("+ Heap(3)", "+ Hep(3)")).expect("edit");
    let wrong = cgdl(&["run", file]);
    assert_eq!(wrong.status.code(), Some(1));
    assert!(stderr(&wrong).contains("Hep"), "{}", stderr(&wrong));
    std::fs::write(&path, &source).expect("edit back");
    let back = cgdl(&["run", file]);
    assert_eq!(stdout(&back), stdout(&first));
    assert!(!stderr(&back).contains("building"), "{}", stderr(&back));

    let binary = cache
        .join("target/release")
        .join(format!("cgdl-solver-{key}"));
    std::fs::write(&binary, b"#!/bin/sh\nkill -SEGV $$\n").expect("damage");
    let rebuilt = cgdl(&["run", file]);
    assert_eq!(stdout(&rebuilt), stdout(&first), "{}", stderr(&rebuilt));
    assert!(
        stderr(&rebuilt).contains("building"),
        "{}",
        stderr(&rebuilt)
    );
}

/// Issue 37: a file's first `run` answers with the interpreter while its native solver
/// builds, and the solver takes over when ready: from the query being solved when nothing
/// of it is printed (JSON, one slow query: it takes over at the first), else from the next.
/// Either way the output is the solver's own, as a second (cached) run prints it.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn a_first_run_answers_at_once_and_hands_over() {
    let salt = salt() + 1_000;
    // Cram on 5 × 5 takes the interpreter tens of seconds, its solver a moment. (The guard
    // reads the whole set: the compiler does not make the game a sum of regions, which the
    // interpreter would solve before the solver is built.)
    let cram = "type Cell = (0..5, 0..5)\n\
        game Cram(empty: set<Cell>) {\n\
        move across((r, c) in empty, len(empty) > 1, (r, c + 1) in empty) => Cram(empty - {(r, c), (r, c + 1)})\n\
        move down((r, c) in empty, (r + 1, c) in empty) => Cram(empty - {(r, c), (r + 1, c)})\n\
        }\n";
    let salted =
        |n: u128| format!("game Salt(n: 0..={n}) {{\n    move down(n > 0) => Salt(n - 1)\n}}\n");
    let first = |name: &str, source: String, format: &str| {
        let path = temp_file(name, &source);
        let path = path.to_str().expect("path").to_string();
        let run = |native: bool| {
            let mut cmd = Command::new(env!("CARGO_BIN_EXE_cgdl"));
            cmd.args(["run", &path, "--format", format]);
            if native {
                cmd.arg("--native");
            }
            cmd.env(
                "CGDL_CACHE_DIR",
                common::root().join("target/cgdl-test-cache"),
            )
            .output()
            .expect("cgdl runs")
        };
        let raced = run(false);
        assert!(raced.status.success(), "{}", stderr(&raced));
        // The build is done (the solver took over): a second run is the solver's own.
        let native = run(true);
        assert!(!stderr(&native).contains("building"), "{}", stderr(&native));
        assert_eq!(stdout(&raced), stdout(&native));
        stderr(&raced)
    };
    let text = first(
        "race_text.cgdl",
        format!(
            "{cram}{}value outcome of Salt(1)\nvalue grundy of Cram(Cell)\n\
             value grundy of Cram(Cell - {{(0, 0)}})\n",
            salted(salt)
        ),
        "text",
    );
    assert!(
        text.contains("the native solver is ready: it answers from query"),
        "{text}"
    );
    let json = first(
        "race_json.cgdl",
        format!("{cram}{}value grundy of Cram(Cell)\n", salted(salt + 1)),
        "json",
    );
    assert!(
        json.contains("the native solver is ready: it answers from query 1 on"),
        "{json}"
    );
}

#[test]
fn loony_limits_apply_before_the_work() {
    let out = cgdl(&["loony", "3x100000000", "--steps", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("... 99999998 more steps"),
        "{}",
        stdout(&out)
    );

    let out = cgdl(&["loony", "3x1000", "4x1000", "5x1000", "--exact"]);
    assert_fails_with(
        &out,
        "needs 1003003001 states here, more than the limit of 20000000",
    );

    let out = cgdl(&["loony", "3x1099511627776"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("a repeat count must be between 1 and 1000000000"));

    let out = cgdl(&["loony", "3x300000", "--format", "json"]);
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(doc["line"].as_array().map(Vec::len), Some(100_000));
    assert_eq!(doc["line_omitted"], 200_000);
}

/// Issue 18: expressions nested past the limit are an error, not a stack overflow, however
/// they nest; just under it, both back ends run them.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn deep_nesting_is_refused_and_shallower_runs() {
    let deep = 100_000;
    for (name, expr) in [
        (
            "parens",
            format!("{}1{}", "(".repeat(deep), ")".repeat(deep)),
        ),
        ("sum", format!("1{}", " + 1".repeat(deep))),
        ("neg", format!("{}1", "-".repeat(deep))),
        (
            "ifs",
            format!(
                "{}1{}",
                "if true then ".repeat(deep),
                " else 1".repeat(deep)
            ),
        ),
        ("lets", format!("{}1", "let x = 1 in ".repeat(deep))),
    ] {
        let path = temp_file(&format!("deep_{name}.cgdl"), &format!("const A = {expr}\n"));
        let out = cgdl(&["check", path.to_str().expect("path")]);
        assert_fails_with(
            &out,
            "[E0002] Error: expression nested too deeply (more than 512 levels)",
        );
    }
    let n = 490;
    for (name, body) in [
        ("parens", format!("{}n{}", "(".repeat(n), ")".repeat(n))),
        ("neg", format!("{}n", "- ".repeat(n - 10))),
        (
            "ifs",
            format!(
                "{}n{}",
                "if n > 100 then ".repeat(n / 2),
                " else n".repeat(n / 2)
            ),
        ),
        (
            "sum",
            format!("{} - {} * n", vec!["n"; n].join(" + "), n - 1),
        ),
    ] {
        let path = temp_file(
            &format!("shallow_{name}.cgdl"),
            &format!(
                "fn f(n: int) -> int = {body}\n\
                 game G(n: nat) {{ move m(k in 1..=n) => G(f(n) - k) }}\n\
                 table grundy of G(n) for n in 0..5\n"
            ),
        );
        for out in both_back_ends(&["run", path.to_str().expect("path")]) {
            assert!(out.status.success(), "{name}: {}", stderr(&out));
            assert!(
                stdout(&out).ends_with("4       4\n"),
                "{name}: {}",
                stdout(&out)
            );
        }
    }
}

/// Issue 18: `i64::MIN / -1` is an overflow error and `i64::MIN % -1` is 0, in constants
/// and in both back ends (it panicked).
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn division_overflow_is_an_error_not_a_panic() {
    let path = temp_file(
        "div_const.cgdl",
        "const A = -9223372036854775807 - 1\nconst B = A / -1\n",
    );
    let out = cgdl(&["check", path.to_str().expect("path")]);
    assert_fails_with(&out, "cannot evaluate constant `B`: integer overflow");
    let path = temp_file(
        "div_run.cgdl",
        "const A = -9223372036854775807 - 1\n\
         game G(n: int) { move m(k in 1..=1, n > 0) => G(n - k) }\n\
         value grundy of G(A % -1 + 2)\n\
         value grundy of G(A / -1)\n",
    );
    let outs = both_back_ends_fail_with(&["run", path.to_str().expect("path")], "integer overflow");
    for out in outs {
        // G(0 + 2): one move to G(1), one more to G(0); Grundy 0.
        assert_eq!(stdout(&out), "value grundy of G(A % -1 + 2)\n  grundy  0\n");
    }
}

/// Issue 18: an error still exits with status 1 when stderr cannot be written (it was 101,
/// a panic in printing), from the CLI and from a built solver.
#[cfg(target_os = "linux")]
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn errors_exit_1_when_stderr_is_full() {
    let full = || std::fs::File::create("/dev/full").expect("/dev/full");
    let path = temp_file("full.cgdl", "game G(n: nat) { move m() => Zed(n) }\n");
    let out = Command::new(env!("CARGO_BIN_EXE_cgdl"))
        .args(["check", path.to_str().expect("path")])
        .stderr(full())
        .output()
        .expect("cgdl runs");
    assert_eq!(out.status.code(), Some(1));
    let path = temp_file(
        "full_run.cgdl",
        "game G(n: int) { move m(k in 1..=1, n > 0) => G(n - k) }\n\
         value grundy of G(1 / 0)\n",
    );
    for back_end in [&["--native"][..], &["--interp"][..]] {
        let out = Command::new(env!("CARGO_BIN_EXE_cgdl"))
            .arg("run")
            .arg(&path)
            .args(back_end)
            .env(
                "CGDL_CACHE_DIR",
                common::root().join("target/cgdl-test-cache"),
            )
            .stderr(full())
            .output()
            .expect("cgdl runs");
        assert_eq!(out.status.code(), Some(1), "{back_end:?}");
    }
    // Notes (the native build's) are not errors: a run that succeeds still does.
    let out = Command::new(env!("CARGO_BIN_EXE_cgdl"))
        .args(["run", "--native", "examples/nim.cgdl"])
        .current_dir(common::root())
        .env(
            "CGDL_CACHE_DIR",
            common::root().join("target/cgdl-test-cache"),
        )
        .stderr(full())
        .output()
        .expect("cgdl runs");
    assert!(out.status.success());
    assert!(stdout(&out).contains("value outcome, grundy of Heap(1) + Heap(2) + Heap(3)"));
}

/// Issue 18: a game without fields and a move without binders leave out their parentheses
/// (`game Start { move up => Middle }`), and the bare name is the position.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn fieldless_games_and_moves_need_no_parentheses() {
    let path = temp_file(
        "no_parens.cgdl",
        "game Start { move up => Middle; move across => end }\n\
         game Middle { move down => end }\n\
         value outcome, grundy of Start\n\
         value grundy of Start + Middle\n",
    );
    for out in both_back_ends(&["run", path.to_str().expect("path")]) {
        assert!(out.status.success(), "{}", stderr(&out));
        // Middle has one option, `end` (0): Grundy 1. Start: mex{1, 0} = 2; 2 xor 1 = 3.
        assert_eq!(
            stdout(&out),
            "value outcome, grundy of Start\n  outcome  N\n  grundy   2\n\n\
             value grundy of Start + Middle\n  grundy  3\n"
        );
    }
}

/// Issue 18: `let name = value` as a move clause names a value for the later clauses and
/// the result. A game written with `let`s equals the same game written out: every sum
/// A(n) + B(n) is a second-player win (Grundy 0), natively and interpreted.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn let_clauses_name_values_in_moves() {
    let path = temp_file(
        "let_clause.cgdl",
        "game A(n: nat) {\n\
         \x20   move take(k in 1..=2, k <= n, let rest = n - k) => A(rest)\n\
         \x20   move split(k in 1..=2, k <= n, let rest = n - k, rest >= 2, a in 1..=rest / 2) => A(a) + A(rest - a)\n\
         \x20   move half(let h = n / 3, n % 3 == 1, let x = 1 in x > 0) => A(h)\n\
         }\n\
         game B(n: nat) {\n\
         \x20   move take(k in 1..=2, k <= n) => B(n - k)\n\
         \x20   move split(k in 1..=2, k <= n, n - k >= 2, a in 1..=(n - k) / 2) => B(a) + B(n - k - a)\n\
         \x20   move half(n % 3 == 1) => B(n / 3)\n\
         }\n\
         table grundy of A(n) + B(n) for n in 0..60\n\
         table grundy of A(n) for n in 0..60\n",
    );
    let outs = both_back_ends(&["run", path.to_str().expect("path")]);
    for out in &outs {
        assert!(out.status.success(), "{}", stderr(out));
        let text = stdout(out);
        let mut tables = text.split("\n\n");
        let sums = tables.next().expect("first table");
        for row in sums.lines().skip(2) {
            assert_eq!(row.split_whitespace().nth(1), Some("0"), "{row}");
        }
        let values: Vec<&str> = tables
            .next()
            .expect("second table")
            .lines()
            .skip(2)
            .filter_map(|r| r.split_whitespace().nth(1))
            .collect();
        assert_eq!(values.len(), 60);
        assert!(values.iter().any(|v| *v != "0" && *v != "1"), "{values:?}");
    }
    assert_eq!(stdout(&outs[0]), stdout(&outs[1]));
}

/// Issue 18: `run --svg DIR` draws each two-name table (Lenhardt's Figures 4, 5, 6 and 9
/// for Horse) as a heat map: an SVG document with a cell per position holding the value the
/// text table shows, axes named after the free names, and a legend of every value; both
/// back ends draw the same pictures.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn grid_tables_are_drawn_as_svg_heat_maps() {
    let dirs: Vec<PathBuf> = ["native", "interp"]
        .iter()
        .map(|b| std::env::temp_dir().join(format!("cgdl-svg-{b}-{}", std::process::id())))
        .collect();
    let outs: Vec<Output> = dirs
        .iter()
        .zip([false, true])
        .map(|(dir, interp)| {
            let mut args = vec!["run", "examples/kings_horses.cgdl", "--svg"];
            args.push(dir.to_str().expect("path"));
            if interp {
                args.push("--interp");
            }
            cgdl(&args)
        })
        .collect();
    for out in &outs {
        assert!(out.status.success(), "{}", stderr(out));
    }
    let text = stdout(&outs[0]);
    for (number, value) in ["outcome", "remoteness", "suspense", "wnumber"]
        .iter()
        .enumerate()
    {
        let name = format!("q{}-{value}.svg", number + 1);
        let picture = std::fs::read_to_string(dirs[0].join(&name)).expect("a picture");
        let same = std::fs::read_to_string(dirs[1].join(&name)).expect("a picture");
        assert_eq!(picture, same, "{name}: the back ends draw alike");
        let doc = roxmltree::Document::parse(&picture).expect("well-formed SVG");
        assert_eq!(doc.root_element().tag_name().name(), "svg");
        let group = |class: &str| {
            doc.descendants()
                .find(|n| n.attribute("class") == Some(class))
                .unwrap_or_else(|| panic!("{name}: no {class}"))
        };
        let texts = |node: roxmltree::Node| -> Vec<String> {
            node.children()
                .filter(|n| n.has_tag_name("text"))
                .map(|n| n.text().unwrap_or("").trim().to_string())
                .collect()
        };
        let cells = group("cells");
        assert_eq!(
            cells.children().filter(|n| n.has_tag_name("rect")).count(),
            64
        );
        // The cells read row by row as the text table does.
        let table: Vec<String> = text
            .split("\n\n")
            .find(|t| t.starts_with(&format!("table {value} ")))
            .expect("the text table")
            .lines()
            .skip(3)
            .flat_map(|row| {
                row.split_whitespace()
                    .skip(1)
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(texts(cells), table, "{name}");
        let axes = texts(group("axes"));
        assert!(
            axes.contains(&"r".to_string()) && axes.contains(&"c".to_string()),
            "{axes:?}"
        );
        let legend = texts(group("legend"));
        for v in &table {
            assert!(
                legend.contains(v),
                "{name}: {v} not in the legend {legend:?}"
            );
        }
    }
    for dir in dirs {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Issue 18: two moves to one position are one winning move. In `conjunctive(Heap(9),
/// Heap(5))` every move takes from both heaps, and a heap left empty ends the game (P);
/// (9 → 0, 5 → 4) and (9 → 4, 5 → 0) reach the same position, so the winning moves are the
/// nine positions with an empty heap and another of 0 to 8 tokens, each once.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn winning_moves_to_one_position_are_one() {
    let outs = both_back_ends(&[
        "eval",
        "examples/nim.cgdl",
        "conjunctive(Heap(9), Heap(5))",
        "--value",
        "moves",
    ]);
    for out in &outs {
        assert!(out.status.success(), "{}", stderr(out));
        let text = stdout(out);
        let moves: Vec<&str> = (text.trim().strip_prefix("moves ").expect("moves line"))
            .split("; ")
            .collect();
        let mut sorted = moves.clone();
        sorted.sort_by_key(|m| m.len() * 100 + m.as_bytes()[m.len() - 3] as usize);
        let expected: Vec<String> = (0..=8)
            .map(|x| format!("conjunctive(Heap(0), Heap({x}))"))
            .collect();
        assert_eq!(sorted, expected, "{text}");
    }
    assert_eq!(stdout(&outs[0]), stdout(&outs[1]));
}

/// Issue 18: `eval` builds a file's native solver once; a second position (and `run` of the
/// same file) uses it without building, with the interpreter's values and errors.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn eval_builds_once_per_file() {
    // A constant no other test uses makes this file's solver new to the cache.
    let salt = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_nanos()
        % 1_000_000_007;
    let path = temp_file(
        "once.cgdl",
        &format!(
            "type Cell = (0..2, 0..3)\n\
             type Mark = X(0..3) | O\n\
             game Heap(n: nat, marks: set<Mark>) {{\n\
             \x20   move take(k in 1..=n, n != {salt}) => Heap(n - k, marks)\n\
             \x20   move mark(m in marks) => Heap(n, marks - {{m}})\n\
             }}\n\
             game Cram(free: set<Cell>) {{\n\
             \x20   move across((r, c) in free, (r, c + 1) in free) => Cram(free - {{(r, c), (r, c + 1)}})\n\
             \x20   move down((r, c) in free, (r + 1, c) in free) => Cram(free - {{(r, c), (r + 1, c)}})\n\
             }}\n\
             value grundy of Heap(3, {{}})\n"
        ),
    );
    let file = path.to_str().expect("path");
    let eval = |position: &str, back: &[&str]| {
        let mut args = vec!["eval", file, position, "--value", "grundy,outcome"];
        args.extend(back);
        cgdl(&args)
    };
    let first = eval("Heap(5, {O, X(2)})", &[]);
    assert!(first.status.success(), "{}", stderr(&first));
    assert!(stderr(&first).contains("building"), "{}", stderr(&first));
    // Nim's 5, and two marks taken one at a time (0).
    assert_eq!(stdout(&first), "grundy 5\noutcome N\n");
    for (position, expected) in [
        ("Heap(5, {O}) + Cram(Cell)", "grundy 5\noutcome N\n"),
        // Cram 2x3 less a corner is 0 (brute force), four marks are 0.
        (
            "Cram(Cell - {(0, 0)}) + Heap(2, Mark)",
            "grundy 2\noutcome N\n",
        ),
        ("conjunctive(Heap(1, {}), end)", "grundy 0\noutcome P\n"),
    ] {
        let native = eval(position, &[]);
        assert!(native.status.success(), "{}", stderr(&native));
        assert_eq!(stderr(&native), "", "no build for {position}");
        assert_eq!(stdout(&native), expected, "{position}");
        assert_eq!(
            stdout(&eval(position, &["--interp"])),
            expected,
            "{position}"
        );
    }
    let bad = eval("Heap(5, {X(4)})", &[]);
    let interpreted = eval("Heap(5, {X(4)})", &["--interp"]);
    assert_eq!(bad.status.code(), Some(1));
    assert_eq!(stderr(&bad), stderr(&interpreted));
    assert!(stderr(&bad).contains("X(4)"), "{}", stderr(&bad));
    let run = cgdl(&["run", file]);
    assert_eq!(stderr(&run), "", "`run` uses the solver `eval` built");
    assert_eq!(stdout(&run), "value grundy of Heap(3, {})\n  grundy  3\n");
}

/// Issue 18: comprehensions take several clauses, patterns nest, and a set operator after
/// a range applies to the range (`1..N - {3}`), in both back ends. A heap of Nim shows
/// each count as its Grundy value.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn comprehensions_take_clauses_and_patterns_nest() {
    let path = temp_file(
        "clauses.cgdl",
        "const N = 8\n\
         type Cell = (0..2, 0..3)\n\
         const DOMINOES = { ((r, c), (r, c + 1)) for r in 0..2, c in 0..2 } | { ((0, c), (1, c)) for c in 0..3 }\n\
         game Heap(n: nat) { move take(k in 1..=n) => Heap(n - k) }\n\
         game Cram(free: set<Cell>) {\n\
         \x20   move place(((r1, c1), (r2, c2)) in DOMINOES, ((r1, c1) in free), ((r2, c2) in free)) => Cram(free - {(r1, c1), (r2, c2)})\n\
         }\n\
         game Plain(free: set<Cell>) {\n\
         \x20   move across((r, c) in free, (r, c + 1) in free) => Plain(free - {(r, c), (r, c + 1)})\n\
         \x20   move down((r, c) in free, (r + 1, c) in free) => Plain(free - {(r, c), (r + 1, c)})\n\
         }\n\
         value grundy of Heap(len({ (i, j) for i in 0..4, j in i..4 }))\n\
         value grundy of Heap(len({ (i, j) for i in 0..4, let k = i + 1, j in k..4 where i + j != 3 }))\n\
         value grundy of Heap(len(1..N - {3}) * 10 + len(0..=N | {20}))\n\
         value grundy of Heap(max({ a * 8 + b * 4 + c * 2 + d for ((a, b), (c, d)) in {((1, 0), (1, 1)), ((0, 1), (0, 0))} }))\n\
         value grundy of Heap(count ((a, b), c) in {((1, 2), 3), ((2, 2), 4), ((0, 0), 0)}: a + b == c)\n\
         value grundy of Cram(Cell) + Plain(Cell)\n\
         value grundy of Cram(Cell - {(0, 0)}) + Plain(Cell - {(0, 0)})\n\
         value grundy of Cram(Cell)\n",
    );
    let outs = both_back_ends(&["run", path.to_str().expect("path")]);
    for out in &outs {
        assert!(out.status.success(), "{}", stderr(out));
        let values: Vec<String> = (stdout(out).lines())
            .filter_map(|l| l.strip_prefix("  grundy  ").map(str::to_string))
            .collect();
        // 10 pairs i <= j; 6 pairs i < j, less (0, 3) and (1, 2); 6 and 10 elements;
        // 1011 is 11; all three; the dominoes by pattern and by moves give equal values
        // (so their sums are 0); Cram 2x3 is 1.
        assert_eq!(values, ["10", "4", "70", "11", "3", "0", "0", "1"]);
    }
    assert_eq!(stdout(&outs[0]), stdout(&outs[1]));
}

/// Issue 18: a difference of natural numbers used as an `int` (inside `abs`, in a
/// comparison) is `int` arithmetic, so `abs(a.0 - b.0)` no longer fails with an underflow;
/// where a `nat` is required (a field), underflow stays an error.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn differences_used_as_ints_do_not_underflow() {
    let path = temp_file(
        "abs.cgdl",
        "game K(a: (0..5, 0..5), b: (0..5, 0..5)) {\n\
         \x20   move step(d in 1..=2, abs(a.0 - b.0) + abs(a.1 - b.1) > d, a.0 - b.0 >= 0 - 4) => end\n\
         }\n\
         game H(n: nat) { move down(k in 1..=2) => H(n - k) }\n\
         value grundy of K((0, 0), (3, 4))\n\
         value grundy of K((1, 1), (1, 2))\n\
         value grundy of H(1)\n",
    );
    let outs = both_back_ends_fail_with(&["run", path.to_str().expect("path")], "underflow");
    for out in outs {
        // Distance 7 > 1 and > 2: two moves to `end`, Grundy 1; distance 1: no move.
        assert_eq!(
            stdout(&out),
            "value grundy of K((0, 0), (3, 4))\n  grundy  1\n\n\
             value grundy of K((1, 1), (1, 2))\n  grundy  0\n"
        );
    }
}

/// A heap too large to compute is read off a proven period, and the answer says so; codes
/// with a d0 digit and hexadecimal digits are accepted.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn huge_heaps_are_answered_from_proven_periods() {
    let file = temp_file(
        "huge_heaps.cgdl",
        "game K = octal \"0.77\"\ngame D = octal \"4.07\"\ngame H = octal \"0.8f\"\n\
         value grundy of D(30) + H(20)\n",
    );
    let path = file.to_str().expect("a path");
    for out in both_back_ends(&[
        "eval",
        path,
        "K(1000000000000000000) + K(3)",
        "--value",
        "grundy,outcome",
    ]) {
        assert_eq!(
            stdout(&out),
            "grundy 2 (periodic from 71, period 12)\noutcome N (periodic from 71, period 12)\n",
            "{}",
            stderr(&out)
        );
    }
    for out in both_back_ends(&[
        "eval",
        path,
        "K(1000000000000000000)",
        "--value",
        "grundy",
        "--format",
        "json",
    ]) {
        let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
        assert_eq!(
            doc["periodic"],
            serde_json::json!({"from": 71, "period": 12})
        );
        assert_eq!(doc["values"], serde_json::json!([["grundy", 1]]));
    }
    // A heap small enough to compute carries no note.
    for out in both_back_ends(&["eval", path, "K(1000)", "--value", "grundy"]) {
        assert_eq!(stdout(&out), "grundy 1\n");
    }
    let [native, interp] = both_back_ends(&["run", path]);
    assert!(native.status.success(), "{}", stderr(&native));
    assert_eq!(stdout(&native), stdout(&interp));
}

#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn huge_heaps_without_a_proven_period_are_refused() {
    // 0.007 has no known period: within 2000 positions none is proven, and the heap is far
    // too large to compute, so the answer is an error that says why, not a search.
    let file = temp_file("no_period.cgdl", "game G = octal \"0.007\"\n");
    let path = file.to_str().expect("a path");
    both_back_ends_fail_with(
        &[
            "eval",
            path,
            "G(1000000000000000000)",
            "--max-positions",
            "2000",
        ],
        "heap 1000000000000000000 is too large to compute (past 2^32, the largest heap \
         computed), and no period was proven",
    );
    // A heap below 2^32: the message names the limit that stopped it (issue 36).
    both_back_ends_fail_with(
        &["eval", path, "G(100000000)", "--max-positions", "2000"],
        "heap 100000000 is too large to compute (past the position limit, 2000 \
         (--max-positions)), and no period was proven",
    );
}

/// Issue 37: a grid whose column domain reads the row's name has rows of their own
/// lengths. `H(n)` is a heap of Nim, so each cell is `a xor b`; the rows are checked
/// against that definition in text, JSON and the SVG pictures, in both back ends alike.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn grids_whose_columns_depend_on_the_row_are_ragged() {
    let source = "game H(n: nat) { move take(k in 1..=n) => H(n - k) }\n\
                  table grundy of H(a) + H(b) for a in 1..=4, b in 1..=a\n\
                  table grundy of H(a) + H(b) for a in 1..=3, b in a..=3\n\
                  table grundy of H(a) + H(b) for a in 0..=2, b in {a, a + 5}\n";
    let path = temp_file("ragged.cgdl", source);
    let path = path.to_str().expect("path");
    let dirs: Vec<PathBuf> = ["native", "interp"]
        .iter()
        .map(|b| std::env::temp_dir().join(format!("cgdl-ragged-{b}-{}", std::process::id())))
        .collect();
    let runs = |extra: &[&str]| {
        let mut args = vec!["run", path];
        args.extend(extra);
        both_back_ends(&args)
    };
    let [native, interp] = runs(&["--format", "json"]);
    assert!(native.status.success(), "{}", stderr(&native));
    assert_eq!(stdout(&native), stdout(&interp));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&native)).expect("JSON");
    let queries = doc["queries"].as_array().expect("queries");
    // The column labels, and each row's label and columns.
    type Rows = Vec<(i64, Vec<i64>)>;
    let expected: [(Vec<i64>, Rows); 3] = [
        (
            vec![1, 2, 3, 4],
            (1..=4).map(|a| (a, (1..=a).collect())).collect(),
        ),
        (
            vec![1, 2, 3],
            (1..=3).map(|a| (a, (a..=3).collect())).collect(),
        ),
        (
            vec![0, 1, 2, 5, 6, 7],
            (0..=2).map(|a| (a, vec![a, a + 5])).collect(),
        ),
    ];
    for (q, (cols, rows)) in queries.iter().zip(&expected) {
        let labels: Vec<String> = cols.iter().map(i64::to_string).collect();
        assert_eq!(q["col_labels"], serde_json::json!(labels), "{q}");
        let grid = q["grids"][0][1].as_array().expect("cells");
        assert_eq!(grid.len(), rows.len());
        for (row, (a, bs)) in grid.iter().zip(rows) {
            let last = cols.iter().position(|c| c == bs.last().expect("a column"));
            let want: Vec<serde_json::Value> = cols[..=last.expect("a column")]
                .iter()
                .map(|b| match bs.contains(b) {
                    true => serde_json::json!(a ^ b),
                    false => serde_json::Value::Null,
                })
                .collect();
            assert_eq!(row, &serde_json::json!(want), "row {a} of {q}");
        }
    }
    let [native, interp] = runs(&[]);
    assert_eq!(stdout(&native), stdout(&interp));
    let text = stdout(&native);
    assert!(
        text.contains("a\\b  1  2  3  4\n  1  0\n  2  3  0\n  3  2  1  0\n  4  5  6  7  0\n"),
        "{text}"
    );
    assert!(
        text.contains("a\\b  1  2  3\n  1  0  3  2\n  2     0  1\n  3        0\n"),
        "{text}"
    );
    for (dir, interp) in dirs.iter().zip([false, true]) {
        let mut args = vec!["run", path, "--svg", dir.to_str().expect("path")];
        if interp {
            args.push("--interp");
        }
        let out = cgdl(&args);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    for number in 1..=3 {
        let name = format!("q{number}-grundy.svg");
        let picture = std::fs::read_to_string(dirs[0].join(&name)).expect("a picture");
        let same = std::fs::read_to_string(dirs[1].join(&name)).expect("a picture");
        assert_eq!(picture, same, "{name}: the back ends draw alike");
        let doc = roxmltree::Document::parse(&picture).expect("well-formed SVG");
        let cells = doc
            .descendants()
            .find(|n| n.attribute("class") == Some("cells"))
            .expect("cells");
        let drawn = cells.children().filter(|n| n.has_tag_name("rect")).count();
        let want: usize = expected[number - 1].1.iter().map(|(_, bs)| bs.len()).sum();
        assert_eq!(drawn, want, "{name}: one square a cell");
    }
    for dir in dirs {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Issue 37: `--value options` lists every option with its value (for debugging rules),
/// in both back ends alike, and `--pretty` without JSON says it does nothing.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn eval_lists_options_with_their_values() {
    let [native, interp] = both_back_ends(&[
        "eval",
        "examples/nim.cgdl",
        "Heap(2) + Heap(1)",
        "--value",
        "options",
    ]);
    assert!(native.status.success(), "{}", stderr(&native));
    assert_eq!(stdout(&native), stdout(&interp));
    // Each option of a two-heap Nim position, with its Grundy value a xor b, in the order
    // of the rules and with the sum's components in the order written.
    let text = stdout(&native);
    let listed = text.strip_prefix("options ").expect("one line").trim_end();
    let options: Vec<&str> = listed.split("; ").collect();
    assert_eq!(
        options,
        [
            "Heap(1) + Heap(1) = 0",
            "Heap(0) + Heap(1) = 1",
            "Heap(2) + Heap(0) = 2"
        ]
    );
    // Winning moves keep the components in the order written, the moved one in its place.
    let [native, interp] = both_back_ends(&[
        "eval",
        "examples/nim.cgdl",
        "sum(Heap(9), Heap(3), Heap(1))",
        "--value",
        "moves",
    ]);
    assert_eq!(stdout(&native), stdout(&interp));
    assert_eq!(stdout(&native), "moves Heap(2) + Heap(3) + Heap(1)\n");
    let [native, _] = both_back_ends(&[
        "eval",
        "examples/domineering.cgdl",
        "Domineering(rect(2, 2))",
        "--value",
        "options",
    ]);
    let text = stdout(&native);
    assert!(
        text.contains("left: Domineering({(0, 1), (1, 1)}) = 1"),
        "{text}"
    );
    assert!(
        text.contains("right: Domineering({(1, 0), (1, 1)}) = -1"),
        "{text}"
    );
    let out = cgdl(&["run", "examples/nim.cgdl", "--pretty", "--interp"]);
    assert!(
        stderr(&out).contains("--pretty indents JSON output"),
        "{}",
        stderr(&out)
    );
}

/// A served explorer (`cgdl explore`), stopped when dropped.
struct Explorer {
    child: std::process::Child,
    address: String,
}

impl Explorer {
    fn start(file: &str, position: &str) -> Explorer {
        use std::io::BufRead;
        let mut child = Command::new(env!("CARGO_BIN_EXE_cgdl"))
            .args(["explore", file, position, "--port", "0"])
            .current_dir(env!("CARGO_MANIFEST_DIR").to_string() + "/..")
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("start cgdl explore");
        let mut line = String::new();
        let out = child.stdout.take().expect("its output");
        std::io::BufReader::new(out)
            .read_line(&mut line)
            .expect("the address line");
        let address = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Explorer { child, address }
    }

    /// `METHOD PATH` answered as JSON (or the page's text as a JSON string).
    fn ask(&self, method: &str, path: &str) -> serde_json::Value {
        let body = http_text(&self.address, method, path, "");
        serde_json::from_str(&body).unwrap_or(serde_json::Value::String(body))
    }
}

impl Drop for Explorer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Plays perfect moves from the explorer's position to the end; the states seen.
fn play_out(explorer: &Explorer) -> Vec<serde_json::Value> {
    let mut states = vec![explorer.ask("GET", "/state")];
    while states.last().is_some_and(|s| s["over"] == false) {
        assert!(states.len() < 200, "a game of Nim or Cram ends");
        states.push(explorer.ask("POST", "/reply"));
    }
    states
}

/// Issue 37: `cgdl explore` serves a page, lists every option with its value, moves, and
/// its perfect opponent wins a game of Nim and of Cram from an N position: each of the
/// winner's moves goes to a P position, and the winner makes the last move.
#[test]
fn the_explorer_plays_nim_and_cram_to_the_end() {
    let nim = Explorer::start("examples/nim.cgdl", "Heap(3) + Heap(5) + Heap(7)");
    let page = nim.ask("GET", "/");
    assert!(page.as_str().is_some_and(|p| p.contains("cgdl explore")));
    let first = nim.ask("GET", "/state");
    assert_eq!(first["value"], "N, grundy 1");
    // Every option of 3 + 5 + 7 with its value: 15 moves, and the winning ones are P.
    let options = first["options"].as_array().expect("options");
    assert_eq!(options.len(), 15);
    for o in options {
        let p = o["value"].as_str().expect("a value").starts_with("P");
        assert_eq!(o["wins"], p, "{o}");
    }
    assert!(first["picture"]
        .as_str()
        .expect("a picture")
        .contains("token"));
    // A move, back and forward.
    let moved = nim.ask("POST", "/move?i=0");
    assert_eq!(
        (moved["moves"].as_u64(), moved["back"].as_bool()),
        (Some(1), Some(true))
    );
    let back = nim.ask("POST", "/back");
    assert_eq!(
        (back["moves"].as_u64(), back["forward"].as_bool()),
        (Some(0), Some(true))
    );
    assert_eq!(nim.ask("POST", "/forward")["position"], moved["position"]);
    nim.ask("POST", "/restart");
    // The file's two-name tables as heat maps: none in Nim's, four in Kings and Horses'.
    assert_eq!(nim.ask("GET", "/tables")["tables"], serde_json::json!([]));
    let kings = Explorer::start("examples/kings_horses.cgdl", "Horse(1, 2)");
    let maps = kings.ask("GET", "/tables");
    let maps = maps["tables"].as_array().expect("tables");
    assert!(maps.len() >= 2, "{maps:?}");
    assert!(maps
        .iter()
        .all(|m| m["svg"].as_str().is_some_and(|s| s.contains("<rect"))));
    drop(kings);
    // A partizan position: its thermograph, and Left to move.
    let domineering = Explorer::start("examples/domineering.cgdl", "Domineering(rect(2, 3))");
    let state = domineering.ask("GET", "/state");
    assert_eq!(
        (state["value"].as_str(), state["to_move"].as_str()),
        (Some("{2|-1/2}"), Some("Left"))
    );
    let thermograph = state["thermograph"].as_str().expect("a thermograph");
    assert!(
        thermograph.contains("left-wall") && thermograph.contains("mean 3/4"),
        "{thermograph}"
    );
    drop(domineering);
    // `cgdl eval --svg` draws a position as the explorer does.
    let out_svg = std::env::temp_dir().join(format!("cgdl-eval-{}.svg", std::process::id()));
    let out = cgdl(&[
        "eval",
        "examples/cram.cgdl",
        "Cram(Cell)",
        "--interp",
        "--svg",
        out_svg.to_str().expect("a UTF-8 path"),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let drawn = std::fs::read_to_string(&out_svg).expect("the picture is written");
    assert_eq!(drawn.matches("class=\"cell\"").count(), 12);
    let _ = std::fs::remove_file(&out_svg);
    // A game's `draw` declaration: the loopy token is a vertex, drawn as text.
    let token = Explorer::start("examples/loopy.cgdl", "Token(3)");
    let picture = token.ask("GET", "/state")["picture"].to_string();
    assert!(
        picture.contains("Token(3)") && !picture.contains("token"),
        "{picture}"
    );
    drop(token);
    for (game, explorer) in [
        ("nim", nim),
        ("cram", Explorer::start("examples/cram.cgdl", "Cram(Cell)")),
    ] {
        let states = play_out(&explorer);
        assert!(states.len() >= 3, "{game}: {states:?}");
        let values: Vec<&str> = states
            .iter()
            .map(|s| s["value"].as_str().unwrap_or("?"))
            .collect();
        for (i, v) in values.iter().enumerate() {
            let expected = if i % 2 == 0 { "N" } else { "P" };
            assert!(v.starts_with(expected), "{game}, move {i}: {values:?}");
        }
        // The last position is P with no move: the winner moved last.
        assert_eq!(values.len() % 2, 0, "{game}: {values:?}");
        if game == "cram" {
            let picture = states[0]["picture"].as_str().expect("a picture");
            assert_eq!(
                picture.matches("class=\"cell\"").count(),
                12,
                "a 3 × 4 board"
            );
        }
    }
}

/// An HTTP/1.1 exchange with a local server: the answer's body as JSON. The body is read
/// by its length (a server may keep the connection open).
fn http_json(address: &str, method: &str, path: &str, body: &str) -> serde_json::Value {
    serde_json::from_str(&http_text(address, method, path, body)).unwrap_or(serde_json::Value::Null)
}

/// An HTTP/1.1 exchange with a local server: the answer's body.
fn http_text(address: &str, method: &str, path: &str, body: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(address).expect("connect");
    stream
        .set_read_timeout(Some(std::time::Duration::from_secs(60)))
        .expect("a timeout");
    write!(
        stream,
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .expect("send");
    let mut answer: Vec<u8> = Vec::new();
    let mut buf = [0u8; 65536];
    loop {
        let text = String::from_utf8_lossy(&answer).to_string();
        if let Some((head, rest)) = text.split_once("\r\n\r\n") {
            let head = head.to_ascii_lowercase();
            let length = (head.lines())
                .find_map(|l| l.strip_prefix("content-length:"))
                .and_then(|n| n.trim().parse::<usize>().ok());
            let body = match length {
                Some(n) if rest.len() >= n => Some(rest[..n].to_string()),
                None if head.contains("transfer-encoding: chunked")
                    && rest.ends_with("0\r\n\r\n") =>
                {
                    let mut body = String::new();
                    let mut rest = rest;
                    while let Some((size, tail)) = rest.split_once("\r\n") {
                        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
                        if n == 0 || tail.len() < n {
                            break;
                        }
                        body.push_str(&tail[..n]);
                        rest = tail[n..].trim_start_matches("\r\n");
                    }
                    Some(body)
                }
                _ => None,
            };
            if let Some(body) = body {
                return body;
            }
        }
        match stream.read(&mut buf) {
            Ok(0) | Err(_) => {
                let (_, rest) = text.split_once("\r\n\r\n").unwrap_or(("", ""));
                return rest.to_string();
            }
            Ok(n) => answer.extend_from_slice(&buf[..n]),
        }
    }
}

/// Standard base64, decoded (for WebDriver's screenshots).
fn base64_decode(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => Some(c - b'A'),
        b'a'..=b'z' => Some(c - b'a' + 26),
        b'0'..=b'9' => Some(c - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    };
    let digits: Vec<u8> = text.bytes().filter_map(value).collect();
    digits
        .chunks(4)
        .flat_map(|c| {
            let n = c.iter().fold(0u32, |n, &d| n << 6 | u32::from(d)) << (6 * (4 - c.len()));
            let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
            bytes.into_iter().take(c.len().saturating_sub(1))
        })
        .collect()
}

/// A PNG's width and height (from its header).
fn png_size(png: &[u8]) -> (u32, u32) {
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG");
    let word = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().expect("4 bytes"));
    (word(16), word(20))
}

/// A headless Chromium driven through chromedriver (WebDriver), stopped when dropped.
struct Browser {
    driver: std::process::Child,
    address: String,
    session: String,
}

impl Browser {
    fn start() -> Browser {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let driver = Command::new("chromedriver")
            .arg(format!("--port={port}"))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("chromedriver (Debian's chromium-driver) is installed");
        let address = format!("127.0.0.1:{port}");
        for _ in 0..100 {
            if std::net::TcpStream::connect(&address).is_ok() {
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        let capabilities = serde_json::json!({ "capabilities": { "alwaysMatch": {
            "goog:chromeOptions": { "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                "--disable-dev-shm-usage", "--window-size=1000,1200"] } } } });
        let answer = http_json(&address, "POST", "/session", &capabilities.to_string());
        let session = answer["value"]["sessionId"]
            .as_str()
            .unwrap_or_else(|| panic!("a WebDriver session: {answer}"))
            .to_string();
        Browser {
            driver,
            address,
            session,
        }
    }

    fn call(&self, method: &str, path: &str, body: serde_json::Value) -> serde_json::Value {
        let path = format!("/session/{}{path}", self.session);
        let body = if method == "GET" {
            String::new()
        } else {
            body.to_string()
        };
        http_json(&self.address, method, &path, &body)["value"].clone()
    }

    fn elements(&self, css: &str) -> Vec<String> {
        let found = self.call(
            "POST",
            "/elements",
            serde_json::json!({ "using": "css selector", "value": css }),
        );
        (found.as_array().into_iter().flatten())
            .filter_map(|e| e.as_object()?.values().next()?.as_str().map(String::from))
            .collect()
    }

    /// The elements matching `css`, once there are some (the page fetches its state).
    fn wait_for(&self, css: &str) -> Vec<String> {
        for _ in 0..100 {
            let found = self.elements(css);
            if !found.is_empty() {
                return found;
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!("no {css} on the page");
    }

    fn text(&self, css: &str) -> String {
        let id = self.wait_for(css).remove(0);
        let text = self.call(
            "GET",
            &format!("/element/{id}/text"),
            serde_json::Value::Null,
        );
        text.as_str().unwrap_or_default().to_string()
    }

    fn click(&self, element: &str) {
        self.call(
            "POST",
            &format!("/element/{element}/click"),
            serde_json::json!({}),
        );
    }

    fn screenshot(&self, css: &str) -> (u32, u32) {
        let id = self.wait_for(css).remove(0);
        let shot = self.call(
            "GET",
            &format!("/element/{id}/screenshot"),
            serde_json::Value::Null,
        );
        png_size(&base64_decode(shot.as_str().expect("a screenshot")))
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = http_json(
            &self.address,
            "DELETE",
            &format!("/session/{}", self.session),
            "",
        );
        let _ = self.driver.kill();
        let _ = self.driver.wait();
    }
}

/// Issue 37: the explorer's page in a real headless browser (Debian's Chromium): the board
/// and the option list are drawn (screenshots of each), and a game of Nim and of Cram is
/// played to the end by clicking, the perfect opponent answering each move.
#[test]
#[ignore = "needs Chromium and chromedriver (Debian's chromium, chromium-driver): .ci/run installs them"]
fn the_explorer_page_plays_in_a_browser() {
    let browser = Browser::start();
    for (file, position, cells) in [
        ("examples/nim.cgdl", "Heap(3) + Heap(5) + Heap(7)", 0),
        ("examples/cram.cgdl", "Cram(Cell)", 12),
    ] {
        let explorer = Explorer::start(file, position);
        let url = format!("http://{}/", explorer.address);
        browser.call("POST", "/url", serde_json::json!({ "url": url }));
        let options = browser.wait_for("button.option");
        assert!(!options.is_empty());
        let (w, h) = browser.screenshot("#picture svg");
        assert!(w >= 60 && h >= 20, "{file}: the picture is {w} × {h}");
        let (w, h) = browser.screenshot("#options");
        assert!(
            w >= 100 && h >= 20 * 3,
            "{file}: the option list is {w} × {h}"
        );
        assert_eq!(
            browser.elements("#picture svg .cell").len(),
            cells,
            "{file}: the board's cells"
        );
        // The perfect opponent answers each move; we take the first option each time.
        let auto = browser.wait_for("#auto").remove(0);
        browser.click(&auto);
        let mut moves = 0;
        while browser.text("#over").is_empty() {
            moves += 1;
            assert!(moves < 100, "{file}: the game ends");
            let first = browser.wait_for("button.option").remove(0);
            browser.click(&first);
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        assert!(browser.text("#over").contains("game is over"), "{file}");
        // We started at an N position and lost: the last move was the opponent's.
        assert!(browser.text("#value").contains('P'), "{file}");
        let state = explorer.ask("GET", "/state");
        assert_eq!(state["over"], true, "{file}: {state}");
    }
}

/// The Grundy values of octal game 0.007 (remove 3 tokens, leaving none, one or two heaps)
/// by its definition.
fn grundy_0007(last: usize) -> Vec<u64> {
    let mut g: Vec<u64> = Vec::new();
    for n in 0..=last {
        let options: std::collections::HashSet<u64> = match n.checked_sub(3) {
            Some(rest) => (0..=rest).map(|a| g[a] ^ g[rest - a]).collect(),
            None => std::collections::HashSet::new(),
        };
        g.push((0..).find(|v| !options.contains(v)).unwrap_or(0));
    }
    g
}

/// A period query over the heaps of a heap game reads its terms off the game's engine:
/// the same sequence as a table that asks each heap through the search, and as the
/// definition, from any first index; where a position limit stops the engine, the rest
/// is answered term by term as before (read off a proven period, or refused).
fn period_terms_read_off_heap_engines(back_end: &str) {
    let file = temp_file(
        &format!("heap_terms{back_end}.cgdl"),
        "game G = octal \"0.007\"\n\
         game H(n: nat) { move take(k in 1..=3, k <= n) => H(n - k) }\n\
         period grundy of G(n) for n in 0..=300\n\
         table grundy of G(n) for n in 0..=300\n\
         period grundy of G(n) for n in 7..=300\n\
         period grundy of H(n) for n in 0..=100\n\
         table grundy of H(n) for n in 0..=100\n\
         value grundy of G(400)\n",
    );
    let path = file.to_str().expect("a path");
    // Each heap's value is computed once, however it is asked: heaps 0..=400 of G and
    // 0..=100 of H.
    let out = cgdl(&["run", path, back_end, "--stats"]);
    let stats = stderr_without_build_note(&out);
    assert!(
        stats
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("stats: 502 positions solved")),
        "{stats}"
    );
    let out = cgdl(&["run", path, back_end, "--format", "json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let q = &doc["queries"];
    let sequence = |i: usize| -> Vec<u64> {
        (q[i]["sequence"].as_array().expect("a sequence").iter())
            .map(|v| v.as_u64().expect("a number"))
            .collect()
    };
    let column = |i: usize| -> Vec<u64> {
        (q[i]["rows"].as_array().expect("rows").iter())
            .map(|r| r[1].as_u64().expect("a number"))
            .collect()
    };
    let defined = grundy_0007(300);
    assert_eq!(sequence(0), defined);
    assert_eq!(column(1), defined);
    assert_eq!(sequence(2), defined[7..]);
    let mod4: Vec<u64> = (0..=100).map(|n| n % 4).collect();
    assert_eq!(sequence(3), mod4);
    assert_eq!(column(4), mod4);
    assert_eq!(
        (q[3]["preperiod"].as_u64(), q[3]["period"].as_u64()),
        (Some(0), Some(4))
    );
    // 100 positions: the engine stops at heap 99; 0.33's period (n mod 3) is proven within
    // them and answers the rest; 0.007's is not, and the query is refused.
    let file = temp_file(
        &format!("heap_terms_limited{back_end}.cgdl"),
        "game E = octal \"0.33\"\nperiod grundy of E(n) for n in 0..=1000\n",
    );
    let path = file.to_str().expect("a path");
    let out = cgdl(&[
        "run",
        path,
        back_end,
        "--format",
        "json",
        "--max-positions",
        "100",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    let mod3: Vec<u64> = (0..=1000).map(|n| n % 3).collect();
    assert_eq!(doc["queries"][0]["sequence"], serde_json::json!(mod3));
    let file = temp_file(
        &format!("heap_terms_refused{back_end}.cgdl"),
        "game G = octal \"0.007\"\nperiod grundy of G(n) for n in 0..=1000\n",
    );
    let path = file.to_str().expect("a path");
    let out = cgdl(&["run", path, back_end, "--max-positions", "100"]);
    assert_fails_with(
        &out,
        "heap 100 is too large to compute (past the position limit, 100 (--max-positions)), \
         and no period was proven",
    );
    // No position at all: not even heap 0 is computed.
    let out = cgdl(&["run", path, back_end, "--max-positions", "0"]);
    assert_fails_with(
        &out,
        "heap 0 is too large to compute (past the position limit, 0 (--max-positions)), \
         and no period was proven in the 0 values computed",
    );
}

#[test]
fn period_terms_read_off_heap_engines_interpreted() {
    period_terms_read_off_heap_engines("--interp");
}

#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn period_terms_read_off_heap_engines_natively() {
    period_terms_read_off_heap_engines("--native");
}

/// `cgdl run ARGS` started without waiting (the environment of [`cgdl`]).
fn spawn_cgdl(args: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_cgdl"))
        .args(args)
        .env(
            "CGDL_CACHE_DIR",
            common::root().join("target/cgdl-test-cache"),
        )
        .current_dir(common::root())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the cgdl binary runs")
}

/// Two ports of localhost that nothing listens on now.
fn free_ports() -> [u16; 2] {
    let listeners = [0, 1].map(|_| std::net::TcpListener::bind("127.0.0.1:0").expect("a port"));
    listeners.map(|l| l.local_addr().expect("an address").port())
}

/// Issue 38: a tiered solve (every position the queries reach, tier by tier) answers as the
/// ordinary solver, on one worker, on two threads, and as two processes on localhost (process
/// 0 prints; process 1 prints nothing); its failures are errors.
#[test]
#[ignore = "builds native solvers: .ci/run runs it"]
fn tiered_solves_answer_as_the_ordinary_solver() {
    // Cram's regions are sums; dots' lines a set of tagged cells; a number that only falls.
    let cram = common::resized(&common::example("cram.cgdl"), 3, 5);
    let files = [
        temp_file("tiered_cram.cgdl", &cram),
        PathBuf::from("examples/dots_lines.cgdl"),
        PathBuf::from("examples/kings_horses.cgdl"),
    ];
    for path in &files {
        let file = path.to_str().expect("path");
        let ordinary = cgdl(&["run", file]);
        assert!(ordinary.status.success(), "{}", stderr(&ordinary));
        for threads in ["1", "2"] {
            let out = cgdl(&["run", file, "--tiered", "--threads", threads]);
            assert!(out.status.success(), "{file}: {}", stderr(&out));
            assert_eq!(
                stdout(&out),
                stdout(&ordinary),
                "{file} on {threads} threads"
            );
        }
        // Positions spilled to a key-value store on disk: the same answers, and the
        // workers' folders removed.
        let spill = temp_file("tiered_spill_note", "").with_file_name("tiered_spill");
        std::fs::create_dir_all(&spill).expect("a folder to spill into");
        let spill_dir = spill.to_str().expect("path");
        let out = cgdl(&[
            "run",
            file,
            "--tiered",
            "--threads",
            "2",
            "--spill",
            spill_dir,
        ]);
        assert!(out.status.success(), "{file}: {}", stderr(&out));
        assert_eq!(stdout(&out), stdout(&ordinary), "{file} spilled to disk");
        let left = std::fs::read_dir(&spill).expect("the folder").count();
        assert_eq!(left, 0, "{file}: the workers' folders are removed");
        let hosts = temp_file(
            "tiered_hosts",
            &(free_ports().map(|p| format!("127.0.0.1:{p}\n")).concat()),
        );
        let hosts = hosts.to_str().expect("path");
        let process = |i: &str| {
            let args = ["run", "--native", file, "--tiered", "--threads", "1"];
            spawn_cgdl(
                &[
                    &args[..],
                    &["--processes", "2", "--process", i, "--hostfile", hosts],
                ]
                .concat(),
            )
        };
        let (first, second) = (process("0"), process("1"));
        let (first, second) = (
            first.wait_with_output().expect("process 0 ends"),
            second.wait_with_output().expect("process 1 ends"),
        );
        assert!(first.status.success(), "{file}: {}", stderr(&first));
        assert!(second.status.success(), "{file}: {}", stderr(&second));
        assert_eq!(stdout(&first), stdout(&ordinary), "{file} as two processes");
        assert_eq!(stdout(&second), "", "{file}: process 1 prints nothing");
    }
    // A move that does not raise any rank; a partizan game; a heap of any size.
    let flat = temp_file(
        "tiered_flat.cgdl",
        "game G(n: 0..=4, flag: bool) {\n    move flip(not flag) => G(n, true)\n    \
         move down(n > 0) => G(n - 1, flag)\n}\nvalue grundy of G(4, false)\n",
    );
    let out = cgdl(&["run", flat.to_str().expect("path"), "--tiered"]);
    assert_fails_with(&out, "does not raise the rank");
    let out = cgdl(&["run", "examples/domineering.cgdl", "--tiered"]);
    assert_fails_with(&out, "partizan game");
    let out = cgdl(&["run", "examples/kayles.cgdl", "--tiered"]);
    assert_fails_with(&out, "has no position code");
    let out = cgdl(&["run", "examples/nim.cgdl", "--processes", "2"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--tiered"), "{}", stderr(&out));
    let out = cgdl(&["run", "examples/nim.cgdl", "--spill", "/tmp"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("--tiered"), "{}", stderr(&out));
}
