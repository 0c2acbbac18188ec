//! Checks too slow for the default suite. Run with
//! `cargo test --release -p cgdl --test slow -- --ignored` (CI does).

mod common;

/// The outcome line of `cgdl eval` on a position of the degenerate dots example.
fn eval_dots(position: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "eval",
        "examples/degenerate_dots.cgdl",
        position,
        "--value",
        "outcome",
    ];
    args.extend(extra);
    let out = common::cgdl(&args);
    assert!(out.status.success(), "{}", common::stderr(&out));
    common::stdout(&out)
}

/// Lenhardt, Theorem 4.1: on the empty 4×4-dot board the second player wins.
#[test]
#[ignore = "a moment natively, about a minute with the interpreter (release mode)"]
fn degenerate_dots_4x4_empty_board() {
    assert_eq!(eval_dots("Dots(4, 4, {})", &[]), "outcome P\n");
    assert_eq!(eval_dots("Dots(4, 4, {})", &["--interp"]), "outcome P\n");
}

/// Lenhardt, Theorems 4.1 and 4.2: the second player wins an empty board iff rows + columns
/// is even, so the first player wins on 4×5 and 5×4 dots (issue 4's benchmark (d),
/// natively), and the second on 5×5 (40 lines: "about a year" by plain search, Lenhardt
/// §6; a second or two with the example's symmetries, issue 15).
#[test]
#[ignore = "a few seconds natively (release mode), with the build of the solver"]
fn degenerate_dots_larger_empty_boards() {
    assert_eq!(eval_dots("Dots(4, 5, {})", &[]), "outcome N\n");
    assert_eq!(eval_dots("Dots(5, 4, {})", &[]), "outcome N\n");
    assert_eq!(eval_dots("Dots(5, 5, {})", &[]), "outcome P\n");
}

/// Runs `cgdl run SOURCE ARGS` natively and interpreted: both fail alike with `expected`.
fn both_back_ends_fail_with(name: &str, source: &str, args: &[&str], expected: &str) {
    let path = common::temp_file(name, source);
    let mut run = vec!["run", path.to_str().expect("path")];
    run.extend(args);
    common::both_back_ends_fail_with(&run, expected);
}

/// Issue 19: a move domain of 4·10⁹ values stops at the option limit, not in an abort.
#[test]
#[ignore]
fn huge_move_domains_stop_at_the_option_limit() {
    both_back_ends_fail_with(
        "take_all.cgdl",
        "game H(n: nat) { move take(k in 1..=n) => H(n - k) }\nvalue grundy of H(4000000000)\n",
        &[],
        "move `take` from H(4000000000): a position has more than 4194304 options",
    );
}

/// Issue 19: moves that grow without end are reported with their line of play.
#[test]
#[ignore]
fn unending_games_are_reported_with_their_line() {
    both_back_ends_fail_with(
        "up.cgdl",
        "game H(n: nat) { move up() => H(n + 1) }\nvalue outcome of H(0)\n",
        &[],
        "a line of play went 2000000 moves without ending (H(0) -> H(1) -> H(2) -> ... -> H(1999998) -> H(1999999))",
    );
}

/// Issue 19: moves that grow without end, each position with more options than the last
/// (so reaching the depth limit would take hours), stop once the options enumerated along
/// one line of play pass four per position of --max-positions.
#[test]
#[ignore = "about 25 seconds interpreted"]
fn growing_move_domains_are_reported_with_their_line() {
    both_back_ends_fail_with(
        "grow.cgdl",
        "game G(n: int) { move take(k in -1..=n, k != 0) => G(n - k) }\nvalue grundy of G(5)\n",
        &["--max-positions", "20000"],
        "the game is not well-founded, or too deep to solve: a line of play went 10000 moves \
         without ending (G(5) -> G(6) -> G(7) -> ... -> G(10003) -> G(10004)); 50065006 options \
         were enumerated along it without a position finished",
    );
}

/// The Grundy values of Cram's empty r × c boards, r to 5, c to 6, by Beling's igsolve
/// (`igsolve cram -r R -c C`).
const IGSOLVE: [[&str; 6]; 5] = [
    ["0", "1", "1", "2", "0", "3"],
    ["1", "0", "1", "0", "1", "0"],
    ["1", "1", "0", "1", "1", "4"],
    ["2", "0", "1", "0", "2", "0"],
    ["0", "1", "1", "2", "0", "2"],
];

/// Cram's values on every board up to 5 × 6 from `examples/cram.cgdl` (its regions split
/// into sums by `components`, and its mirror symmetries), natively: the nimbers Beling's igsolve 0.1.2 computes (`igsolve cram -r R
/// -c C`); 3×5 = 1, 4×5 = 2, 5×5 = 0 and 5×6 = 2 as issue 15 lists them, the first row
/// Dawson's Kayles (0.07), and every even × even board 0 by the symmetric strategy.
#[test]
#[ignore = "about 10 seconds natively, with the build (release mode)"]
fn cram_boards_up_to_5x6() {
    let source = common::resized(&common::example("cram.cgdl"), 5, 6)
        + "\ntable grundy of Cram({ (i, j) for i in 0..r, j in 0..c }) for r in 1..=5, c in 1..=6\n";
    let path = common::temp_file("cram_5x6.cgdl", &source);
    let out = common::cgdl(&["run", path.to_str().expect("path"), "--format", "json"]);
    assert!(out.status.success(), "{}", common::stderr(&out));
    let json: serde_json::Value =
        serde_json::from_str(&common::stdout(&out)).expect("the run's JSON");
    let grid = &json["queries"]
        .as_array()
        .expect("queries")
        .last()
        .expect("the table")["grids"][0][1];
    for (r, row) in IGSOLVE.iter().enumerate() {
        for (c, expected) in row.iter().enumerate() {
            assert_eq!(grid[r][c].to_string(), *expected, "{}×{}", r + 1, c + 1);
        }
    }
}

/// Cram as issue 34 words it (regions as closures, one term per region by its least cell,
/// each region moved to the corner, `a < b` on cells), and sets of cells moved and measured
/// by their parts: the native solver reads these on the sets' bits (a translation as a
/// shift, a part's least or largest off the bits), and agrees with the interpreter, with
/// igsolve's values, and on the error of a move that would take a cell below row 0.
#[test]
#[ignore = "a native build (release mode)"]
fn cells_moved_and_measured_on_bits_as_interpreted() {
    const RULES: &str = "const R = 4\n\
         const C = 5\n\
         type Cell = (0..R, 0..C)\n\
         fn next_to(x: Cell, y: Cell) -> bool = abs(x.0 - y.0) + abs(x.1 - y.1) == 1\n\
         fn region(cells: set<Cell>, x: Cell) -> set<Cell> =\n\
             closure({x}, v => { y for y in cells where next_to(v, y) })\n\
         fn corner(s: set<Cell>) -> set<Cell> =\n\
             let r0 = min({ x.0 for x in s }) in\n\
             let c0 = min({ c for (r, c) in s }) in\n\
             { (r - r0, c - c0) for (r, c) in s }\n\
         game Cram(cells: set<Cell>) {\n\
             move place(a in cells, b in cells, next_to(a, b), a < b) =>\n\
                 let rest = cells - {a, b} in\n\
                 sum(Cram(corner(region(rest, x))) for x in rest where x == min(region(rest, x)))\n\
         }\n\
         fn reach(s: set<Cell>) -> nat = max({ x.0 for x in s }) * C + max({ c for (r, c) in s })\n\
         game Spots(cells: set<Cell>) {\n\
             move take(x in cells, reach(cells) >= 2, cells != {x}) => Spots(corner(cells - {x}))\n\
         }\n\
         game Slide(cells: set<Cell>) {\n\
             move up(cells != {}) => Slide({ (x.0 - 1, x.1) for x in cells })\n\
         }\n\
         ";
    let source = format!(
        "{RULES}table grundy of Cram({{ (i, j) for i in 0..r, j in 0..c }}) for r in 1..=4, c in 1..=5\n\
         table grundy, remoteness of Spots({{ (i, j) for i in 0..2, j in 0..n }}) for n in 1..=4\n"
    );
    let path = common::temp_file("cram_corner.cgdl", &source);
    let path = path.to_str().expect("path");
    let [native, interp] = common::both_back_ends(&["run", path, "--format", "json"]);
    assert!(native.status.success(), "{}", common::stderr(&native));
    assert_eq!(common::stdout(&native), common::stdout(&interp));
    let json: serde_json::Value =
        serde_json::from_str(&common::stdout(&native)).expect("the run's JSON");
    let grid = &json["queries"][0]["grids"][0][1];
    for (r, row) in IGSOLVE.iter().take(4).enumerate() {
        for (c, expected) in row.iter().take(5).enumerate() {
            assert_eq!(grid[r][c].to_string(), *expected, "{}×{}", r + 1, c + 1);
        }
    }
    both_back_ends_fail_with(
        "slide.cgdl",
        &format!("{RULES}value grundy of Slide({{ (2, 1), (1, 3) }})\n"),
        &[],
        "move `up` from Slide({(0, 3), (1, 1)}): natural underflow: 0 - 1 is negative",
    );
}

/// The children of process `pid` (from /proc).
#[cfg(target_os = "linux")]
fn children(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc").expect("/proc").flatten() {
        let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else {
            continue;
        };
        // `pid (name) state ppid ...`: the fields after the name's closing parenthesis.
        let fields: Vec<&str> = stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        if fields.get(1).and_then(|p| p.parse::<u32>().ok()) == Some(pid) && fields[0] != "Z" {
            out.push(child);
        }
    }
    out
}

/// Whether process `pid` is gone (or a zombie).
#[cfg(target_os = "linux")]
fn gone(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(stat) => {
            stat.rsplit(')')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .next()
                == Some("Z")
        }
        Err(_) => true,
    }
}

/// Issue 36: no native solver outlives `cgdl` by more than a second, whatever signal ends
/// it (`SIGKILL` too), and Ctrl-C (`SIGINT`) stops both even where the run was started with
/// the signal ignored (as a background command of a script is).
#[test]
#[cfg(target_os = "linux")]
#[ignore = "a native build and four long solves stopped by signals"]
fn the_native_solver_dies_with_cgdl() {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let path = common::temp_file(
        "long_solve.cgdl",
        "game G(n: nat) { move m(k in 1..=n, k != 2) => G(n - k) }\n\
         value remoteness of G(100000)\n",
    );
    let path = path.to_str().expect("path");
    // Build the solver first.
    let built = common::cgdl(&["run", path, "--max-positions", "10"]);
    assert!(common::stderr(&built).contains("state space is too large"));
    for signal in ["TERM", "HUP", "KILL", "INT"] {
        let mut cgdl = Command::new("sh")
            .arg("-c")
            // `trap '' INT`: the run starts with SIGINT ignored.
            .arg(format!(
                "trap '' INT; exec {} run {path}",
                env!("CARGO_BIN_EXE_cgdl")
            ))
            .env(
                "CGDL_CACHE_DIR",
                common::root().join("target/cgdl-test-cache"),
            )
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("cgdl runs");
        let parent = cgdl.id();
        let start = Instant::now();
        let solver = loop {
            if let Some(&child) = children(parent).first() {
                break child;
            }
            assert!(
                start.elapsed() < Duration::from_secs(30),
                "no solver started"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        std::thread::sleep(Duration::from_millis(300));
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), &parent.to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success());
        let _ = cgdl.wait();
        let stopped = Instant::now();
        while !gone(solver) {
            assert!(
                stopped.elapsed() < Duration::from_secs(1),
                "SIG{signal}: the solver {solver} outlived cgdl"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Issue 36: the memory limit holds in both back ends alike. Listing one position's
/// 5,000,000 options (a split of 10^7 into two heaps) stops at the limit with its message,
/// in the interpreter too (it held 2 GB under a 100 MB limit before); and a table of
/// 3,000,000 rows runs to its end under a 32 MB limit in both (the interpreter forgets the
/// positions it keeps in a table between rows, as native code forgets values; it holds
/// about 390 MB without the limit, and the process itself about 10 MB before it solves,
/// so a limit nearer that is a measure of the allocator, not of forgetting).
#[test]
#[ignore = "a few seconds natively, about ten with the interpreter"]
fn the_memory_limit_holds_in_both_back_ends() {
    let split = common::temp_file(
        "split_limit.cgdl",
        "game Gr(n: nat) { move split(a in 1..=(n - 1) / 2) => Gr(a) + Gr(n - a) }\n\
         value grundy of Gr(10000000)\n",
    );
    let split = split.to_str().expect("path");
    common::both_back_ends_fail_with(
        &["run", split, "--max-memory", "100M"],
        "the state space is too large: the solve reached its memory limit of 100.0 MiB",
    );
    let rows = common::temp_file(
        "long_table.cgdl",
        "game Q(n: nat) { move half(n > 0) => Q(n / 2)\n\
                          move third(n > 2) => Q(n / 3) }\n\
         table grundy of Q(n) for n in 0..3000000\n",
    );
    let rows = rows.to_str().expect("path");
    let [native, interp] = common::both_back_ends(&["run", rows, "--max-memory", "32M"]);
    assert!(native.status.success(), "{}", common::stderr(&native));
    assert!(interp.status.success(), "{}", common::stderr(&interp));
    assert_eq!(common::stdout(&native), common::stdout(&interp));
    assert_eq!(common::stdout(&native).lines().count(), 3_000_002);
}
