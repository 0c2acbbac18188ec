//! The query driver both back ends share: run a file's queries in order, print each answer
//! (text or JSON), and report the first failure with the query's location. The `cgdl`
//! command uses it with the interpreter; generated native solvers use it from `main`.

use crate::expr::Expr;
use crate::native::Datum;
use crate::report::{
    cell_text, json_text, run_plan, solve_plan, Answer, Ask, Document, JsonDoc, Part, Plan, TextDoc,
};
use crate::rules::{RuleError, Rules};
use crate::solver::shared::{search_with_helpers, Helpers};
use crate::solver::{Mode, ProgressReport, Solver, DEFAULT_MAX_POSITIONS};
use std::io::Write;
use std::ops::ControlFlow;

/// Why standard output takes no more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutputGone {
    /// Its reader went away (a closed pipe, as in `cgdl run f.cgdl | head`): it asked for
    /// no more, so the program stops with success.
    Closed,
    /// Writing failed (a full disk, say); the error is written to stderr.
    Failed,
}

impl OutputGone {
    /// The status a program ends with when its output has gone.
    pub fn exit_code(self) -> std::process::ExitCode {
        match self {
            OutputGone::Closed => std::process::ExitCode::SUCCESS,
            OutputGone::Failed => std::process::ExitCode::FAILURE,
        }
    }
}

/// Writes `text` to standard output. Where the reader has gone away, or writing fails
/// (said on stderr), says so: the caller stops writing, and solving.
pub fn print_out(text: &str) -> Result<(), OutputGone> {
    let written = around_progress(|| {
        let mut out = std::io::stdout().lock();
        out.write_all(text.as_bytes()).and_then(|()| out.flush())
    });
    match written {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Err(OutputGone::Closed),
        Err(e) => {
            error_line(&format!("error: cannot write the output: {e}"));
            Err(OutputGone::Failed)
        }
    }
}

/// Writes an informational line to stderr; a stderr that cannot be written is no reason
/// to stop, so a failure is ignored.
pub fn note(text: &str) {
    around_progress(|| {
        let _ = writeln!(std::io::stderr(), "{text}");
    })
}

/// Writes an error line to stderr, around the progress line.
fn error_line(text: &str) {
    around_progress(|| eprintln!("{text}"))
}

/// Runs `f`, which writes to the terminal, with the progress line (if shown) out of its way.
fn around_progress<T>(f: impl FnOnce() -> T) -> T {
    #[cfg(feature = "progress")]
    {
        crate::progress::suspend(f)
    }
    #[cfg(not(feature = "progress"))]
    {
        f()
    }
}

/// Whether a panic's payload is the standard library's failure to write to stderr.
fn is_print_failure(payload: &(dyn std::any::Any + Send)) -> bool {
    let message = payload
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| payload.downcast_ref::<&str>().copied());
    message.is_some_and(|m| m.starts_with("failed printing to stderr"))
}

/// Runs a program's `main`, so that a failure to write an error message (stderr on a full
/// disk) ends it with status 1, as the error would have, instead of a panic's 101. Every
/// other panic is left as it was.
pub fn exit_status_survives_stderr(
    main: impl FnOnce() -> std::process::ExitCode,
) -> std::process::ExitCode {
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !is_print_failure(info.payload()) {
            report(info);
        }
    }));
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(main)) {
        Ok(code) => code,
        Err(payload) if is_print_failure(&*payload) => std::process::ExitCode::FAILURE,
        Err(payload) => std::panic::resume_unwind(payload),
    }
}

/// How to run and print.
#[derive(Clone, Debug)]
pub struct DriverOptions {
    /// The file name, for messages and JSON.
    pub file: String,
    /// JSON instead of text.
    pub json: bool,
    /// Indented JSON instead of one line per query.
    pub pretty: bool,
    /// Exact search instead of fast rules.
    pub exact: bool,
    /// Position bound.
    pub max_positions: u64,
    /// Memory bound in bytes (`None`: the solver's default, three quarters of the machine).
    pub max_memory: Option<u64>,
    /// Threads to solve with (`None`: the solver's default, every core).
    pub threads: Option<usize>,
    /// Eval mode: print `NAME VALUE` lines (with `json`, one object of the file, the
    /// position and `[name, value]` pairs) for the last query's target, with these values.
    pub eval: Option<Vec<Ask>>,
    /// Write a heat map of each value of each two-name table into this folder (feature
    /// `svg`).
    pub svg: Option<std::path::PathBuf>,
    /// At the end, write to stderr how many positions were solved, in how long, and the
    /// memory held.
    pub stats: bool,
    /// Start at this query: the document's opening and the answers of the queries before it
    /// were written by another run (the interpreter that handed over, see [`Handoff`]).
    pub from_query: usize,
    /// Hand the rest of the run over when this says the native solver is ready.
    pub handoff: Option<Handoff>,
    /// Solve every position the queries reach tier by tier first (`--tiered`, a solver
    /// built with the runtime's feature `tiered`), on `threads` workers in this process.
    pub tiered: Option<TieredRun>,
}

/// Where a tiered solve's processes run (`--tiered`; see the runtime's `tiered` module).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TieredRun {
    /// Processes in all, each with the run's threads as workers.
    pub processes: usize,
    /// This process's number, from 0: process 0 prints the answers, the others only
    /// solve their part.
    pub process: usize,
    /// A file of `host:port` lines, one a process (default: localhost, ports from 2101).
    pub hostfile: Option<std::path::PathBuf>,
    /// A folder each worker spills its positions into (a key-value store on disk) instead
    /// of holding them in memory.
    pub spill: Option<std::path::PathBuf>,
}

impl Default for TieredRun {
    fn default() -> Self {
        TieredRun {
            processes: 1,
            process: 0,
            hostfile: None,
            spill: None,
        }
    }
}

/// The state of a run that the interpreter answers while the native solver builds
/// (`cgdl run` of a file not built yet), shared with the thread that builds it. When the
/// solver is ready, the run hands over at once if the query being solved has printed
/// nothing (the interpreter stops it: [`Handoff::stop_now`]), else after that query.
#[derive(Clone, Debug, Default)]
pub struct Handoff(std::sync::Arc<std::sync::atomic::AtomicU8>);

/// [`Handoff`]'s states: solving; solving a query that has printed part of its answer; the
/// native solver ready (stop now); ready, with the query printed in part (finish it).
const SOLVING: u8 = 0;
const PINNED: u8 = 1;
const READY: u8 = 2;
const READY_PINNED: u8 = 3;

impl Handoff {
    /// A run still solving, its native solver not ready.
    pub fn new() -> Handoff {
        Handoff::default()
    }

    fn update(&self, f: impl Fn(u8) -> u8) {
        use std::sync::atomic::Ordering::SeqCst;
        let _ = self.0.fetch_update(SeqCst, SeqCst, |s| Some(f(s)));
    }

    fn state(&self) -> u8 {
        self.0.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// The native solver is ready (called by the thread that built it).
    pub fn ready(&self) {
        self.update(|s| if s == PINNED { READY_PINNED } else { READY });
    }

    /// Whether the interpreter should stop the query it is solving: the native solver is
    /// ready and the query has printed nothing.
    pub fn stop_now(&self) -> bool {
        self.state() == READY
    }

    /// A part of the current query's answer is being printed: it must finish where it
    /// started.
    fn pin(&self) {
        self.update(|s| match s {
            SOLVING => PINNED,
            READY => READY_PINNED,
            other => other,
        });
    }

    /// Between queries: whether to hand over now (the native solver is ready).
    fn hand_over(&self) -> bool {
        match self.state() {
            READY | READY_PINNED => true,
            _ => {
                self.update(|s| if s == PINNED { SOLVING } else { s });
                false
            }
        }
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RunEnd {
    /// Every query ran (`true`), or one failed (`false`, its error printed).
    Finished(bool),
    /// The native solver is ready: it runs the queries from this one on (with
    /// [`DriverOptions::from_query`]); the output so far is written.
    HandOver(usize),
    /// Standard output took no more, and the run stopped there.
    OutputGone(OutputGone),
}

impl RunEnd {
    /// The status a program ends with after this run: success where every query ran, or
    /// the run was handed over, or its reader went away.
    pub fn exit_code(self) -> std::process::ExitCode {
        match self {
            RunEnd::Finished(true) | RunEnd::HandOver(_) => std::process::ExitCode::SUCCESS,
            RunEnd::Finished(false) => std::process::ExitCode::FAILURE,
            RunEnd::OutputGone(gone) => gone.exit_code(),
        }
    }
}

impl Default for DriverOptions {
    fn default() -> Self {
        DriverOptions {
            file: String::new(),
            json: false,
            pretty: false,
            exact: false,
            max_positions: DEFAULT_MAX_POSITIONS,
            max_memory: None,
            threads: None,
            eval: None,
            svg: None,
            stats: false,
            from_query: 0,
            handoff: None,
            tiered: None,
        }
    }
}

/// A query's text and its `line:col` in the file.
#[derive(Clone, Debug)]
pub struct QueryInfo {
    /// The query as written.
    pub text: String,
    /// Where it stands, `line:col`.
    pub location: String,
}

/// Runs the queries; prints answers to stdout and the first error to stderr. With
/// [`DriverOptions::handoff`] it may stop between queries (or within one that has printed
/// nothing) to hand the rest of the run over; otherwise it always finishes.
pub fn run_queries<'r, R: Rules>(
    rules: &'r R,
    queries: &[QueryInfo],
    plan: &mut dyn FnMut(usize) -> Result<Plan<'r, R::Pos>, String>,
    options: &DriverOptions,
    progress: Option<ProgressReport<'r>>,
) -> RunEnd {
    run_timed(rules, options, progress, |solver| {
        run_with(solver, queries, plan, options)
    })
}

/// [`run_queries`] with the solver's threads ([`DriverOptions::threads`], default every
/// core) sharing its nimber searches ([`crate::solver::shared`]), for rules that threads
/// can share.
pub fn run_queries_on_threads<'r, R>(
    rules: &'r R,
    queries: &[QueryInfo],
    plan: &mut dyn FnMut(usize) -> Result<Plan<'r, R::Pos>, String>,
    options: &DriverOptions,
    progress: Option<ProgressReport<'r>>,
) -> RunEnd
where
    R: Rules + Sync,
    R::Pos: Send + Sync,
{
    run_queries_knowing(rules, queries, plan, options, progress, &[])
}

/// [`run_queries_on_threads`] with the Grundy values of some positions known (found by a
/// tiered solve: [`Solver::know_grundy`]).
pub fn run_queries_knowing<'r, R>(
    rules: &'r R,
    queries: &[QueryInfo],
    plan: &mut dyn FnMut(usize) -> Result<Plan<'r, R::Pos>, String>,
    options: &DriverOptions,
    progress: Option<ProgressReport<'r>>,
    known: &[(R::Pos, u32)],
) -> RunEnd
where
    R: Rules + Sync,
    R::Pos: Send + Sync,
{
    run_timed(rules, options, progress, |solver| {
        for &(pos, value) in known {
            solver.know_grundy(pos, value);
        }
        with_helpers(solver, |solver| run_with(solver, queries, plan, options))
    })
}

/// Runs `run` on a new solver, and writes `--stats` after a run that finished.
fn run_timed<'r, R: Rules>(
    rules: &'r R,
    options: &DriverOptions,
    progress: Option<ProgressReport<'r>>,
    run: impl FnOnce(&mut Solver<'r, R>) -> RunEnd,
) -> RunEnd {
    let started = Started::now();
    let mut solver = new_solver(rules, options, progress);
    let end = run(&mut solver);
    if options.stats && matches!(end, RunEnd::Finished(_)) {
        note(&stats_line(&solver, &started));
    }
    end
}

/// Runs `work` with the solver's threads sharing its nimber searches.
fn with_helpers<'r, R, T>(
    solver: &mut Solver<'r, R>,
    work: impl FnOnce(&mut Solver<'r, R>) -> T,
) -> T
where
    R: Rules + Sync,
    R::Pos: Send + Sync,
{
    let helpers = Helpers::new(solver.threads());
    search_with_helpers(solver, helpers, work)
}

/// When a solve began, by the clock and by the processor time of the process's threads
/// ([`processor_seconds`]): `--stats` shows both spent since, over the same span.
struct Started {
    at: std::time::Instant,
    processor: Option<f64>,
}

impl Started {
    fn now() -> Started {
        Started {
            at: std::time::Instant::now(),
            processor: processor_seconds(),
        }
    }
}

/// The statistics `--stats` writes: positions solved, time, the processor time of all the
/// process's threads (beside the time, it shows what threads cost and gave), memory.
fn stats_line<R: Rules>(solver: &Solver<'_, R>, started: &Started) -> String {
    let memory = crate::memory::resident_bytes()
        .map(|b| format!(", {} held", crate::memory::show_size(b)))
        .unwrap_or_default();
    let spent = processor_seconds()
        .zip(started.processor)
        .map(|(now, then)| now - then);
    let processor = match (spent, solver.threads()) {
        (Some(cpu), 1) => format!(" ({cpu:.2} s of processor time)"),
        (Some(cpu), n) => format!(" ({cpu:.2} s of processor time on {n} threads)"),
        (None, _) => String::new(),
    };
    let dropped = solver
        .checked_maps_dropped()
        .map(|n| {
            format!(
                "; the checked symmetries were checked for {n} positions, then dropped \
                 (checking a position costs what solving it does)"
            )
        })
        .unwrap_or_default();
    format!(
        "stats: {} positions solved in {:.2} s{processor}{memory}{dropped}",
        solver.positions_solved(),
        started.at.elapsed().as_secs_f64()
    )
}

/// The processor time all this process's threads have used so far (user and system), where
/// the system says.
fn processor_seconds() -> Option<f64> {
    #[cfg(target_os = "linux")]
    {
        let mut usage = std::mem::MaybeUninit::<libc::rusage>::zeroed();
        // SAFETY: `getrusage` writes a `rusage` into the pointer it is given, which points
        // to one; the value is read only where the call succeeded.
        let usage = unsafe {
            if libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) != 0 {
                return None;
            }
            usage.assume_init()
        };
        let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
        Some(seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

/// [`run_queries`] with its solver.
fn run_with<'r, R: Rules>(
    solver: &mut Solver<'r, R>,
    queries: &[QueryInfo],
    plan: &mut dyn FnMut(usize) -> Result<Plan<'r, R::Pos>, String>,
    options: &DriverOptions,
) -> RunEnd {
    answer_queries(solver, queries, plan, options).unwrap_or_else(RunEnd::OutputGone)
}

/// [`run_with`], which stops where standard output takes no more.
fn answer_queries<'r, R: Rules>(
    solver: &mut Solver<'r, R>,
    queries: &[QueryInfo],
    plan: &mut dyn FnMut(usize) -> Result<Plan<'r, R::Pos>, String>,
    options: &DriverOptions,
) -> Result<RunEnd, OutputGone> {
    let fail = |i: usize, msg: String| {
        let q = &queries[i];
        error_line(&format!(
            "error: {}:{}: in `{}`: {msg}",
            options.file, q.location, q.text
        ));
        Ok(RunEnd::Finished(false))
    };
    if options.eval.is_some() {
        let Some(last) = queries.len().checked_sub(1) else {
            eprintln!("error: no position given");
            return Ok(RunEnd::Finished(false));
        };
        let target = match plan(last) {
            Ok(Plan::Value { target, .. }) => target,
            Ok(_) => return fail(last, "not a position".into()),
            Err(e) => {
                eprintln!("error: in the position: {e}");
                return Ok(RunEnd::Finished(false));
            }
        };
        let succeeded = eval_position(solver, &queries[last].text, target, options)?;
        return Ok(RunEnd::Finished(succeeded));
    }
    let mut out = Output::default();
    // A run that continues another's (`from_query`) writes no opening, and goes on from its
    // answers (a blank line or a comma before the next).
    let continuing = options.from_query;
    let mut doc: Box<dyn Document> = if options.json {
        let (doc, opening) = JsonDoc::start(&options.file, options.pretty);
        if continuing == 0 {
            out.push(&opening)?;
        }
        Box::new(doc.after(continuing))
    } else {
        // Slow rows are printed as they come to a terminal; elsewhere (a file, a pipe) the
        // text does not depend on timing.
        let live = std::io::IsTerminal::is_terminal(&std::io::stdout());
        Box::new(TextDoc::new(live).after(continuing))
    };
    for i in continuing..queries.len() {
        if options.handoff.as_ref().is_some_and(Handoff::hand_over) {
            return hand_over(out, i);
        }
        let p = match plan(i) {
            Ok(p) => p,
            Err(e) => {
                out.flush()?;
                return fail(i, e);
            }
        };
        let mut pictures = Ok(());
        let mut gone = None;
        let solved = solve_plan(solver, p, &mut |part| {
            if let Some(handoff) = &options.handoff {
                handoff.pin();
            }
            if let (Some(dir), Part::Answer(answer)) = (&options.svg, &part) {
                pictures = pictures.clone().and(write_pictures(dir, i + 1, answer));
            }
            match out.push(&doc.part(&part)) {
                Ok(()) => ControlFlow::Continue(()),
                Err(g) => {
                    gone = Some(g);
                    ControlFlow::Break(())
                }
            }
        });
        if let Some(g) = gone {
            return Err(g);
        }
        if let Err(e) = solved {
            // Stopped for the native solver, with nothing of this query printed.
            if options.handoff.as_ref().is_some_and(Handoff::stop_now) {
                return hand_over(out, i);
            }
            out.push(&doc.cut())?;
            out.flush()?;
            return fail(i, e.to_string());
        }
        out.flush()?;
        if let Err(e) = pictures {
            return fail(i, e);
        }
    }
    out.push(&doc.finish())?;
    out.flush()?;
    if queries.is_empty() {
        note(&format!("{}: no queries to run", options.file));
    }
    match solver.memo_clears() {
        0 => {}
        n => note(&format!(
            "note: the memo forgot its oldest values {n} time{} to stay under --max-memory: the values are \
             exact, the solve took longer (a larger --max-memory avoids it)",
            if n == 1 { "" } else { "s" }
        )),
    }
    Ok(RunEnd::Finished(true))
}

/// Hands the run over at query `i`: the answers so far are written, with the document's
/// opening; before the first query nothing is (the solver that takes over writes it all).
fn hand_over(mut out: Output, i: usize) -> Result<RunEnd, OutputGone> {
    match i {
        0 => out.buf.clear(),
        _ => out.flush()?,
    }
    Ok(RunEnd::HandOver(i))
}

/// The progress display of a solve on a terminal (with the feature `progress`).
pub fn terminal_progress<'r>() -> Option<ProgressReport<'r>> {
    #[cfg(feature = "progress")]
    {
        crate::progress::on_terminal()
    }
    #[cfg(not(feature = "progress"))]
    {
        None
    }
}

/// Writes the heat maps of `answer` (query number `number`) into `dir` if it is a
/// two-name table, with a note naming each file.
fn write_pictures(dir: &std::path::Path, number: usize, answer: &Answer) -> Result<(), String> {
    #[cfg(feature = "svg")]
    {
        for path in crate::svg::write_grid(dir, number, answer)? {
            note(&format!("wrote {}", path.display()));
        }
        Ok(())
    }
    #[cfg(not(feature = "svg"))]
    {
        let _ = (dir, number, answer);
        Err("this solver was built without pictures (the runtime's feature `svg`)".into())
    }
}

/// A solver with the options' mode and limits.
fn new_solver<'r, R: Rules>(
    rules: &'r R,
    options: &DriverOptions,
    progress: Option<ProgressReport<'r>>,
) -> Solver<'r, R> {
    let mode = if options.exact {
        Mode::Exact
    } else {
        Mode::Fast
    };
    let mut solver = Solver::with_mode(rules, mode);
    solver.set_max_positions(options.max_positions);
    if let Some(bytes) = options.max_memory {
        solver.set_max_memory(Some(bytes));
    }
    if let Some(threads) = options.threads {
        solver.set_threads(threads);
    }
    if let Some(p) = progress {
        solver.set_progress(p);
    }
    solver
}

/// `cgdl eval`: prints the values `options.eval` asks for of one position, as `NAME
/// VALUE` lines (with `json`, one object of the file, the position and `[name, value]`
/// pairs). `text` is the query the position came from. Whether it succeeded (an error is
/// written to stderr), or that standard output took no more.
fn eval_position<R: Rules>(
    solver: &mut Solver<'_, R>,
    text: &str,
    target: Expr<R::Pos>,
    options: &DriverOptions,
) -> Result<bool, OutputGone> {
    let value_plan = Plan::Value {
        query: text.to_string(),
        target,
        asks: options.eval.clone().unwrap_or_default(),
    };
    match run_plan(solver, value_plan) {
        Ok(Answer::Value {
            position,
            values,
            periodic,
            ..
        }) if options.json => {
            let mut doc = serde_json::json!({
                "file": options.file,
                "position": position,
                "values": values,
            });
            if let Some(p) = periodic {
                doc["periodic"] = serde_json::json!(p);
            }
            print_out(&format!("{}\n", json_text(&doc, options.pretty)))?;
            Ok(true)
        }
        Ok(Answer::Value {
            values, periodic, ..
        }) => {
            for (name, v) in values {
                let note = periodic
                    .filter(|_| crate::report::Periodic::applies_to(&name))
                    .map(|p| format!(" {}", p.note()))
                    .unwrap_or_default();
                print_out(&format!("{name} {}{note}\n", cell_text(&v)))?;
            }
            Ok(true)
        }
        Ok(_) => Ok(false),
        Err(e) => {
            error_line(&format!("error: {e}"));
            Ok(false)
        }
    }
}

/// Standard output, buffered: written out past 64 KiB and at the end of each query.
#[derive(Default)]
struct Output {
    buf: String,
}

impl Output {
    fn push(&mut self, text: &str) -> Result<(), OutputGone> {
        self.buf.push_str(text);
        if self.buf.len() >= 1 << 16 {
            self.flush()?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Result<(), OutputGone> {
        if !self.buf.is_empty() {
            print_out(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }
}

/// What a generated solver's `--help` prints.
#[cfg(feature = "cli")]
/// A generated solver's command line (clap's builder: no derive macros in every solver's
/// build).
fn native_command() -> clap::Command {
    use crate::kernel::MAX_THREADS;
    use clap::{value_parser, Arg, ArgAction, Command};
    let flag = |name: &'static str, help: &'static str| {
        Arg::new(name)
            .long(name)
            .action(ArgAction::SetTrue)
            .help(help)
    };
    Command::new("SOLVER")
        .about("Runs the queries of the .cgdl file this solver was built from.")
        .arg(
            Arg::new("format")
                .long("format")
                .value_name("text|json")
                .value_parser(["text", "json"])
                .default_value("text")
                .help("output format"),
        )
        .arg(flag("pretty", "indent JSON output (default: one line per query)"))
        .arg(flag(
            "exact",
            "search every compound's own positions instead of the fast rules",
        ))
        .arg(
            Arg::new("max-positions")
                .long("max-positions")
                .value_name("N")
                .value_parser(value_parser!(u64))
                .help("give up (with an error) after solving N positions"),
        )
        .arg(
            Arg::new("max-memory")
                .long("max-memory")
                .value_name("SIZE")
                .value_parser(crate::memory::parse_size)
                .help(
                    "hold at most this much memory (e.g. 8G): the memo forgets its oldest \
                     values rather than grow past it; give up (with an error) past it \
                     [default: three quarters of the machine's memory]",
                ),
        )
        .arg(
            Arg::new("threads")
                .long("threads")
                .value_name("N")
                .value_parser(value_parser!(u32).range(1..=MAX_THREADS as i64))
                .help(
                    "solve with N threads, at most 1024 (the answers do not depend on it) \
                     [default: every core]",
                ),
        )
        .arg(
            Arg::new("file")
                .long("file")
                .value_name("NAME")
                .help("the file name shown in errors and JSON"),
        )
        .arg(
            Arg::new("eval")
                .long("eval")
                .value_name("VALUES")
                .value_delimiter(',')
                .value_parser(parse_ask)
                .help("print NAME VALUE lines of the last query's position, or of the --position given"),
        )
        .arg(
            Arg::new("position")
                .long("position")
                .value_name("JSON|-")
                .requires("eval")
                .help(
                    "with --eval: the position (as `cgdl eval` writes it; `-` reads it from \
                     standard input)",
                ),
        )
        .arg(
            Arg::new("svg")
                .long("svg")
                .value_name("DIR")
                .value_parser(value_parser!(std::path::PathBuf))
                .help("write a heat map of each two-name table into DIR"),
        )
        .arg(flag(
            "stats",
            "at the end, write to stderr the positions solved, the time and the memory held",
        ))
        .arg(flag(
            "tiered",
            "first solve every position the queries reach, tier by tier (a rank every move \
             raises), on --threads workers and --processes processes; then answer from it",
        ))
        .arg(
            Arg::new("processes")
                .long("processes")
                .value_name("N")
                .requires("tiered")
                .value_parser(value_parser!(u32).range(1..))
                .help("with --tiered: the processes that share the solve [default: 1]"),
        )
        .arg(
            Arg::new("process")
                .long("process")
                .value_name("I")
                .requires("tiered")
                .value_parser(value_parser!(u32))
                .help(
                    "with --tiered: this process's number, from 0 (process 0 prints the \
                     answers) [default: 0]",
                ),
        )
        .arg(
            Arg::new("hostfile")
                .long("hostfile")
                .value_name("FILE")
                .requires("tiered")
                .value_parser(value_parser!(std::path::PathBuf))
                .help(
                    "with --tiered: `host:port` lines, one a process in order [default: \
                     localhost, ports from 2101]",
                ),
        )
        .arg(
            Arg::new("spill")
                .long("spill")
                .value_name("DIR")
                .requires("tiered")
                .value_parser(value_parser!(std::path::PathBuf))
                .help(
                    "with --tiered: keep each worker's positions in a key-value store on disk in \
                     DIR (a folder of its own, removed at the end) instead of memory",
                ),
        )
        .arg(
            Arg::new("from-query")
                .long("from-query")
                .value_name("K")
                .value_parser(value_parser!(usize))
                .help(
                    "run the queries from the K-th (counted from 0) on, continuing a document \
                     whose opening and earlier answers are written",
                ),
        )
}

#[cfg(feature = "cli")]
/// One value name of `--eval` (clap splits the list at commas), as `cgdl eval` reads them.
fn parse_ask(name: &str) -> Result<Ask, String> {
    Ask::parse(name.trim())
        .ok_or_else(|| format!("unknown value `{name}` (values: {})", Ask::names()))
}

#[cfg(feature = "cli")]
/// A generated solver's options from its command line `args` (the program's name first),
/// and the `--position` given; clap's error (or help) where they are not options.
fn native_options(
    args: impl IntoIterator<Item = std::ffi::OsString>,
    file: &str,
) -> Result<(DriverOptions, Option<String>), clap::Error> {
    let m = native_command().try_get_matches_from(args)?;
    let options = DriverOptions {
        file: (m.get_one::<String>("file").cloned()).unwrap_or_else(|| file.to_string()),
        json: m.get_one::<String>("format").is_some_and(|f| f == "json"),
        pretty: m.get_flag("pretty"),
        exact: m.get_flag("exact"),
        max_positions: (m.get_one::<u64>("max-positions").copied())
            .unwrap_or(DEFAULT_MAX_POSITIONS),
        max_memory: m.get_one::<u64>("max-memory").copied(),
        threads: m.get_one::<u32>("threads").map(|&n| n as usize),
        eval: m
            .get_many::<Ask>("eval")
            .map(|asks| asks.copied().collect()),
        svg: m.get_one::<std::path::PathBuf>("svg").cloned(),
        stats: m.get_flag("stats"),
        from_query: m.get_one::<usize>("from-query").copied().unwrap_or(0),
        tiered: m.get_flag("tiered").then(|| TieredRun {
            processes: m.get_one::<u32>("processes").map_or(1, |&n| n as usize),
            process: m.get_one::<u32>("process").map_or(0, |&n| n as usize),
            hostfile: m.get_one::<std::path::PathBuf>("hostfile").cloned(),
            spill: m.get_one::<std::path::PathBuf>("spill").cloned(),
        }),
        ..DriverOptions::default()
    };
    Ok((options, m.get_one::<String>("position").cloned()))
}

/// Makes a game's position from its field values (a generated solver's
/// `position_from_datum`).
pub type PositionFromDatum<P> = fn(usize, &[Datum]) -> Result<P, RuleError>;

#[cfg(feature = "cli")]
/// `main` of a generated native solver: `SOLVER [--file NAME] [--format json] [--exact]
/// [--max-positions N] [--eval VALUES [--position JSON]]`. `file` names the source in
/// errors and JSON unless `--file` says otherwise.
pub fn native_main<R>(
    rules: &R,
    queries: &[(&str, &str)],
    plan: fn(usize) -> Result<Plan<'static, R::Pos>, RuleError>,
    position: PositionFromDatum<R::Pos>,
    file: &str,
) -> std::process::ExitCode
where
    R: Rules + Clone + Send + Sync + 'static,
    R::Pos: Send + Sync,
{
    exit_status_survives_stderr(|| solver_main(rules, queries, plan, position, file))
}

#[cfg(feature = "cli")]
/// The position `--position` gives: its JSON text, or `-` for standard input.
fn read_position<P: Clone + Ord>(
    arg: &str,
    position: PositionFromDatum<P>,
) -> Result<Expr<P>, String> {
    let text = if arg == "-" {
        std::io::read_to_string(std::io::stdin())
            .map_err(|e| format!("cannot read the position from standard input: {e}"))?
    } else {
        arg.to_string()
    };
    let datum: crate::native::PositionDatum = serde_json::from_str(&text)
        .map_err(|e| format!("--position is not a position as `cgdl eval` writes it: {e}"))?;
    datum
        .to_expr(&position)
        .map_err(|e| format!("in the position: {e}"))
}

#[cfg(feature = "cli")]
fn solver_main<R>(
    rules: &R,
    queries: &[(&str, &str)],
    plan: fn(usize) -> Result<Plan<'static, R::Pos>, RuleError>,
    position: PositionFromDatum<R::Pos>,
    file: &str,
) -> std::process::ExitCode
where
    R: Rules + Clone + Send + Sync + 'static,
    R::Pos: Send + Sync,
{
    let (options, given) = match native_options(std::env::args_os(), file) {
        Ok(parsed) => parsed,
        Err(e) => {
            // Help goes to standard output with status 0; a bad argument to stderr with 2.
            let _ = e.print();
            return std::process::ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2));
        }
    };
    if let Some(arg) = given {
        let target = match read_position(&arg, position) {
            Ok(target) => target,
            Err(e) => {
                eprintln!("error: {e}");
                return std::process::ExitCode::FAILURE;
            }
        };
        let known = match &options.tiered {
            Some(run) => match solve_tiers(
                rules,
                target.leaves().into_iter().copied().collect(),
                &options,
                run,
            ) {
                Ok(Some(known)) => known,
                Ok(None) => return std::process::ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("error: {e}");
                    return std::process::ExitCode::FAILURE;
                }
            },
            None => Vec::new(),
        };
        let started = Started::now();
        let mut solver = new_solver(rules, &options, terminal_progress());
        for &(pos, value) in &known {
            solver.know_grundy(pos, value);
        }
        let evaluated = with_helpers(&mut solver, |solver| {
            eval_position(solver, "eval", target, &options)
        });
        if options.stats {
            note(&stats_line(&solver, &started));
        }
        return match evaluated {
            Ok(true) => std::process::ExitCode::SUCCESS,
            Ok(false) => std::process::ExitCode::FAILURE,
            Err(gone) => gone.exit_code(),
        };
    }
    let infos: Vec<QueryInfo> = queries
        .iter()
        .map(|(text, location)| QueryInfo {
            text: text.to_string(),
            location: location.to_string(),
        })
        .collect();
    let mut plan_fn = |i: usize| plan(i).map_err(|e| e.to_string());
    let mut known = Vec::new();
    if let Some(run) = &options.tiered {
        let mut roots = Vec::new();
        for (i, q) in infos.iter().enumerate().skip(options.from_query) {
            match plan_fn(i).and_then(Plan::positions) {
                Ok(positions) => roots.extend(positions),
                Err(e) => {
                    error_line(&format!(
                        "error: {}:{}: in `{}`: {e}",
                        options.file, q.location, q.text
                    ));
                    return std::process::ExitCode::FAILURE;
                }
            }
        }
        roots.sort_unstable();
        roots.dedup();
        known = match solve_tiers(rules, roots, &options, run) {
            Ok(Some(known)) => known,
            // Another process prints the answers.
            Ok(None) => return std::process::ExitCode::SUCCESS,
            Err(e) => {
                error_line(&format!("error: {}: {e}", options.file));
                return std::process::ExitCode::FAILURE;
            }
        };
    }
    let end = run_queries_knowing(
        rules,
        &infos,
        &mut plan_fn,
        &options,
        terminal_progress(),
        &known,
    );
    end.exit_code()
}

/// Positions with their Grundy values, found before the queries run.
#[cfg(feature = "cli")]
type Known<P> = Vec<(P, u32)>;

#[cfg(feature = "cli")]
/// `--tiered`: the Grundy value of each of `roots`, found by a tiered solve over every
/// position they reach (`None` on a process other than 0, which prints nothing).
fn solve_tiers<R>(
    rules: &R,
    roots: Vec<R::Pos>,
    options: &DriverOptions,
    run: &TieredRun,
) -> Result<Option<Known<R::Pos>>, String>
where
    R: Rules + Clone + Send + Sync + 'static,
    R::Pos: Send,
{
    #[cfg(feature = "tiered")]
    {
        use crate::tiered::{RulesGraph, TierConfig};
        let graph = RulesGraph(rules.clone());
        let codes = (roots.iter())
            .map(|&p| graph.code(p))
            .collect::<Result<Vec<_>, _>>()?;
        let workers = (options.threads).unwrap_or_else(crate::kernel::default_threads);
        let config = TierConfig {
            workers,
            processes: run.processes,
            process: run.process,
            hostfile: run.hostfile.clone(),
            spill: run.spill.clone(),
            ..TierConfig::default()
        };
        let started = std::time::Instant::now();
        let Some(report) = crate::tiered::solve(std::sync::Arc::new(graph), codes, &config)? else {
            return Ok(None);
        };
        if options.stats {
            let remote: u64 = report.tiers.iter().map(|t| t.remote_reads).sum();
            let reads: u64 = report.tiers.iter().map(|t| t.reads).sum();
            note(&format!(
                "stats: tiered: {} positions in {} tiers on {} workers in {:.2} s (reaching them \
                 {:.2} s); {reads} values read, {remote} of them from another worker",
                report.positions,
                report.tiers.len(),
                report.workers,
                started.elapsed().as_secs_f64(),
                report.reach_seconds,
            ));
            for t in &report.tiers {
                note(&format!(
                    "stats: tier {}: {} positions, {} reads ({} remote), {:.3} s",
                    t.rank, t.positions, t.reads, t.remote_reads, t.seconds
                ));
            }
        }
        Ok(Some(roots.into_iter().zip(report.values).collect()))
    }
    #[cfg(not(feature = "tiered"))]
    {
        let _ = (rules, roots, options, run);
        Err("this solver was built without tiered solving (the runtime's feature `tiered`)".into())
    }
}

#[cfg(all(test, feature = "cli"))]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<(DriverOptions, Option<String>), clap::Error> {
        native_options(
            std::iter::once("solver")
                .chain(args.iter().copied())
                .map(Into::into),
            "f.cgdl",
        )
    }

    #[test]
    fn a_solvers_arguments_become_its_options() {
        let (o, given) = parse(&[]).expect("no arguments");
        assert_eq!(
            (o.file.as_str(), o.json, o.pretty, o.exact),
            ("f.cgdl", false, false, false)
        );
        assert_eq!(
            (o.max_positions, o.max_memory, o.from_query),
            (DEFAULT_MAX_POSITIONS, None, 0)
        );
        assert!(o.eval.is_none() && o.svg.is_none() && !o.stats && given.is_none());
        let (o, given) = parse(&[
            "--format",
            "json",
            "--pretty",
            "--exact",
            "--max-positions",
            "1000",
            "--max-memory",
            "2G",
            "--file",
            "g.cgdl",
            "--eval",
            "grundy, outcome",
            "--position",
            "-",
            "--svg",
            "pictures",
            "--stats",
            "--from-query",
            "3",
        ])
        .expect("every option");
        assert_eq!(
            (o.file.as_str(), o.json, o.pretty, o.exact),
            ("g.cgdl", true, true, true)
        );
        assert_eq!(
            (o.max_positions, o.max_memory, o.from_query),
            (1000, Some(2 << 30), 3)
        );
        let names: Vec<&str> = o.eval.iter().flatten().map(|a| a.name()).collect();
        assert_eq!(names, ["grundy", "outcome"]);
        assert_eq!(o.svg, Some("pictures".into()));
        assert!(o.stats);
        assert_eq!(given.as_deref(), Some("-"));
    }

    #[test]
    fn each_options_help_is_one_run_of_words() {
        // A string continued over lines without `\` keeps the next line's indent.
        for arg in native_command().get_arguments() {
            let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
            assert!(!help.is_empty(), "--{} has no help", arg.get_id());
            assert!(!help.contains("  "), "--{}'s help: {help:?}", arg.get_id());
        }
    }

    #[test]
    fn bad_arguments_are_errors_and_help_is_not() {
        use clap::error::ErrorKind;
        let kind = |args: &[&str]| parse(args).err().map(|e| (e.kind(), e.exit_code()));
        assert_eq!(kind(&["--help"]), Some((ErrorKind::DisplayHelp, 0)));
        for bad in [
            &["--format", "yaml"][..],
            &["--max-positions", "many"],
            &["--max-memory", "12Q"],
            &["--eval", "grundy,bogus"],
            &["--position", "{}"],
            &["--from-query"],
            &["--max-positoins", "3"],
        ] {
            assert!(
                matches!(kind(bad), Some((k, 2)) if k != ErrorKind::DisplayHelp),
                "{bad:?}"
            );
        }
    }
}
