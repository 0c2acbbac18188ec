//! The `cgdl` command-line tool.

use cgdl::compiler::{self, interp::Interpreter, ir::Program, Diagnostic};
use cgdl::runtime::driver::{
    print_out, run_queries, DriverOptions, OutputGone, QueryInfo, RunEnd, TieredRun,
};
use cgdl::runtime::report::{Ask, Plan};
use clap::{Parser, Subcommand, ValueEnum};

mod explore;
mod native;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "cgdl",
    version,
    about = "Exact solvers for combinatorial games (impartial, partizan, loopy) described in CGDL"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Copy, Clone, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// Check a file and report every error.
    Check {
        /// The .cgdl file.
        file: PathBuf,
    },
    /// Run a file's queries.
    Run {
        /// The .cgdl file.
        file: PathBuf,
        #[command(flatten)]
        output: OutputArgs,
        #[command(flatten)]
        solve: SolveArgs,
        /// Also write a heat map (SVG) of each value of each two-name table into this
        /// folder, as q<N>-<value>.svg.
        #[arg(long, value_name = "DIR")]
        svg: Option<PathBuf>,
    },
    /// Print values of one position expression, one `NAME VALUE` line each.
    Eval {
        /// The .cgdl file that declares the games.
        file: PathBuf,
        /// A position expression, e.g. 'Kayles(7) + Kayles(3)'.
        position: String,
        #[arg(long, value_delimiter = ',', default_value = "outcome", help = value_help())]
        value: Vec<String>,
        /// Also draw the position into this SVG file, as `cgdl explore` draws it.
        #[arg(long)]
        svg: Option<PathBuf>,
        #[command(flatten)]
        output: OutputArgs,
        #[command(flatten)]
        solve: SolveArgs,
    },
    /// Analyse a simple loony dots-and-boxes endgame: value, opening, optimal play.
    Loony(LoonyArgs),
    /// Serve a page on 127.0.0.1 to see a position and play it: every option with its
    /// value, click to move, the perfect opponent, back and forward (the interpreter
    /// computes the values).
    Explore {
        /// The .cgdl file.
        file: PathBuf,
        /// The position to start from, e.g. 'Heap(3) + Heap(5)' [default: the target of
        /// the file's first `value` query].
        position: Option<String>,
        /// The port (0: any free one; the address is printed).
        #[arg(long, default_value_t = 0)]
        port: u16,
    },
    /// Build a standalone native solver that runs the file's queries (accepts
    /// `--format json`, `--pretty`, `--exact`, `--max-positions N`, `--max-memory SIZE`).
    Build {
        /// The .cgdl file.
        file: PathBuf,
        /// Where to put the executable.
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Compile a file to a Rust module (a `Universe` implementing the runtime's `Rules`,
    /// and `plans()` for its queries).
    Compile {
        /// The .cgdl file.
        file: PathBuf,
        /// Where to write the module (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
        /// How the module names the runtime crate.
        #[arg(long, default_value = "::cgdl_runtime")]
        runtime_path: String,
    },
}

/// The most steps of a loony line of play in JSON output.
const JSON_LINE_STEPS: usize = 100_000;

/// `cgdl loony`: a simple loony dots-and-boxes endgame.
#[derive(clap::Args)]
struct LoonyArgs {
    /// Components: chain lengths (`3`), loops (`L6`), repeats (`L4x100`).
    components: Vec<String>,
    /// Read a dots-and-boxes board (docs/LOONY.md) instead of components.
    #[arg(long, conflicts_with = "components")]
    board: Option<PathBuf>,
    /// Use the definition (memoized recursion) instead of the closed form.
    #[arg(long)]
    exact: bool,
    /// With --exact: give up past this many sub-endgames.
    #[arg(long, default_value_t = 20_000_000)]
    max_states: usize,
    #[command(flatten)]
    output: OutputArgs,
    /// Steps of the line of play shown in text output.
    #[arg(long, default_value_t = 40)]
    steps: usize,
}

/// How answers are printed.
#[derive(clap::Args)]
struct OutputArgs {
    /// Output format (the JSON schema is in docs/LANGUAGE.md).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Indent JSON output (by default it has one line per query).
    #[arg(long)]
    pretty: bool,
}

impl OutputArgs {
    fn json(&self) -> bool {
        self.format == Format::Json
    }

    /// Says so where `--pretty` is given without `--format json`, which it does nothing to.
    fn note_unused(&self) {
        if self.pretty && !self.json() {
            cgdl::runtime::driver::note(
                "note: --pretty indents JSON output; without --format json it does nothing",
            );
        }
    }
}

#[derive(clap::Args)]
struct SolveArgs {
    /// Use the reference interpreter instead of compiling a native solver.
    #[arg(long, conflicts_with = "native")]
    interp: bool,
    /// Wait for the native solver to build rather than answer with the interpreter
    /// meanwhile (a file's first `run`).
    #[arg(long)]
    native: bool,
    /// Search every compound's own positions instead of using the fast rules.
    #[arg(long)]
    exact: bool,
    /// Give up (with an error) after solving this many positions.
    #[arg(long, default_value_t = cgdl::runtime::DEFAULT_MAX_POSITIONS)]
    max_positions: u64,
    /// Hold at most this much memory, e.g. `8G` or `512M`: the memo forgets its oldest values
    /// rather than grow past it, and the solve gives up (with an error) if it still holds more
    /// [default: three quarters of the machine's memory].
    #[arg(long, value_parser = cgdl::runtime::memory::parse_size)]
    max_memory: Option<u64>,
    /// Solve with this many threads, at most 1024; the answers do not depend on it [default:
    /// every core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=cgdl::runtime::kernel::MAX_THREADS as i64))]
    threads: Option<u32>,
    /// At the end, write to stderr how many positions were solved, in how long, and the
    /// memory held.
    #[arg(long)]
    stats: bool,
    /// First solve every position the queries reach, tier by tier (a rank every move
    /// raises), on --threads workers in each of --processes processes; then answer from
    /// those values (native solvers; docs/SCALE.md).
    #[arg(long, conflicts_with = "interp")]
    tiered: bool,
    /// With --tiered: the processes that share the solve, each started with its own
    /// --process [default: 1].
    #[arg(long, value_name = "N", requires = "tiered", value_parser = clap::value_parser!(u32).range(1..))]
    processes: Option<u32>,
    /// With --tiered: this process's number, from 0; process 0 prints the answers
    /// [default: 0].
    #[arg(long, value_name = "I", requires = "tiered")]
    process: Option<u32>,
    /// With --tiered: a file of `host:port` lines, one a process in order [default:
    /// localhost, ports from 2101].
    #[arg(long, value_name = "FILE", requires = "tiered")]
    hostfile: Option<PathBuf>,
    /// With --tiered: keep each worker's positions in a key-value store on disk in DIR (a
    /// folder of its own, removed at the end) instead of memory.
    #[arg(long, value_name = "DIR", requires = "tiered")]
    spill: Option<PathBuf>,
}

/// Why a command stopped before its end.
enum Stopped {
    /// An error, already explained to the user on stderr.
    Reported,
    /// Standard output's reader went away (`cgdl run f.cgdl | head`): it wants no more, so
    /// the command ends with success.
    OutputClosed,
}
use Stopped::Reported;

impl From<OutputGone> for Stopped {
    fn from(gone: OutputGone) -> Stopped {
        match gone {
            OutputGone::Closed => Stopped::OutputClosed,
            // Said on stderr by `print_out`.
            OutputGone::Failed => Reported,
        }
    }
}

impl Stopped {
    /// The end of a run of queries as a command's result.
    fn from_run(end: RunEnd) -> Result<(), Stopped> {
        match end {
            RunEnd::Finished(true) | RunEnd::HandOver(_) => Ok(()),
            RunEnd::Finished(false) => Err(Reported),
            RunEnd::OutputGone(gone) => Err(gone.into()),
        }
    }
}

fn read(file: &Path) -> Result<String, Stopped> {
    let bytes = std::fs::read(file).map_err(|e| {
        eprintln!("error: cannot read {}: {e}", file.display());
        Reported
    })?;
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let (line, col) = compiler::diagnostics::line_col(
            std::str::from_utf8(&e.as_bytes()[..at]).unwrap_or(""),
            at,
        );
        eprintln!(
            "error: {} is not UTF-8 text: byte {at} ({}:{line}:{col}) is not valid UTF-8",
            file.display(),
            file.display()
        );
        Reported
    })
}

fn report(diags: &[Diagnostic], name: &str, source: &str) {
    eprint!("{}", compiler::diagnostics::render_all(diags, name, source));
    eprintln!(
        "error: {} error{} in {name}",
        diags.len(),
        if diags.len() == 1 { "" } else { "s" }
    );
}

fn load(file: &Path) -> Result<(String, compiler::ir::Program), Stopped> {
    let source = read(file)?;
    let program = compile(file, &source)?;
    Ok((source, program))
}

/// The checked program of `source` (read from `file`), or its errors reported.
fn compile(file: &Path, source: &str) -> Result<compiler::ir::Program, Stopped> {
    compiler::compile_str(source).map_err(|diags| {
        report(&diags, &file.display().to_string(), source);
        Reported
    })
}

/// The help of `eval --value`: every value name, from the list the parser reads.
fn value_help() -> String {
    let (partizan, others): (Vec<Ask>, Vec<Ask>) =
        (Ask::all().into_iter()).partition(|a| matches!(a, Ask::Partizan(_)));
    let names = |asks: Vec<Ask>| {
        asks.into_iter()
            .map(Ask::name)
            .collect::<Vec<_>>()
            .join(", ")
    };
    format!(
        "Values to print, comma-separated: {} (`options`: every option with its value); of \
         partizan games {}",
        names(others),
        names(partizan)
    )
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn cmd_check(file: &Path) -> Result<(), Stopped> {
    let (_, program) = load(file)?;
    print_out(&format!(
        "{}: ok ({}, {})\n",
        file.display(),
        plural(program.declared_games(), "game", "games"),
        plural(program.queries.len(), "query", "queries")
    ))?;
    let described = compiler::opt::complement::describe(&program)
        .into_iter()
        .chain(compiler::opt::symmetry::describe(&program))
        .chain(compiler::opt::splits::describe(&program));
    for line in described {
        print_out(&format!("  {line}\n"))?;
    }
    Ok(())
}

/// Driver options from the command line.
fn driver_options(file: &str, output: &OutputArgs, args: &SolveArgs) -> DriverOptions {
    DriverOptions {
        file: file.to_string(),
        json: output.json(),
        pretty: output.pretty,
        exact: args.exact,
        max_positions: args.max_positions,
        max_memory: args.max_memory,
        threads: args.threads.map(|n| n as usize),
        eval: None,
        svg: None,
        stats: args.stats,
        from_query: 0,
        handoff: None,
        tiered: args.tiered.then(|| TieredRun {
            processes: args.processes.map_or(1, |n| n as usize),
            process: args.process.map_or(0, |n| n as usize),
            hostfile: args.hostfile.clone(),
            spill: args.spill.clone(),
        }),
    }
}

/// Where a file has no native solver: its queries by the interpreter, or an error where
/// `--tiered` asks for the native solver's tiered solve.
fn interpret_untiered(
    source: &str,
    program: &Program,
    options: &DriverOptions,
) -> Result<(), Stopped> {
    if options.tiered.is_some() {
        eprintln!("error: --tiered needs the file's native solver, which it does not have");
        return Err(Reported);
    }
    interpret(source, program, options)
}

/// Runs `source`'s queries with the interpreter through the shared driver.
fn interpret(source: &str, program: &Program, options: &DriverOptions) -> Result<(), Stopped> {
    Stopped::from_run(interpret_until_handover(source, program, options))
}

/// [`interpret`], which hands over where `options.handoff` says.
fn interpret_until_handover(source: &str, program: &Program, options: &DriverOptions) -> RunEnd {
    let mut interp = Interpreter::new(program, source);
    if let Some(handoff) = &options.handoff {
        interp.hand_over_with(handoff.clone());
    }
    let infos: Vec<QueryInfo> = program
        .queries
        .iter()
        .map(|q| {
            let (l, c) = compiler::diagnostics::line_col(source, q.span.start);
            QueryInfo {
                text: q.text.clone(),
                location: format!("{l}:{c}"),
            }
        })
        .collect();
    let mut plan = |i: usize| {
        compiler::queries::plan(&interp, &program.queries[i]).map_err(|e| interp.error_text(&e))
    };
    let progress = cgdl::runtime::driver::terminal_progress();
    run_queries(&interp, &infos, &mut plan, options, progress)
}

/// Runs `source`'s queries natively (building the solver once), or with the interpreter
/// when `--interp` is given or the file uses what native code does not support yet.
fn execute(
    label: &str,
    source: &str,
    program: &Program,
    options: &DriverOptions,
    args: &SolveArgs,
) -> Result<(), Stopped> {
    if args.interp {
        return interpret(source, program, options);
    }
    let Some(code) = native_code(source, program) else {
        return interpret_untiered(source, program, options);
    };
    let binary = match args.native || options.tiered.is_some() {
        true => Some(build_native(&code, label)?),
        false => native::cached_solver(&code, None),
    };
    match binary {
        Some(binary) => {
            native::remember_solver(source, &binary);
            run_solver(&binary, options, None)
        }
        None => answer_while_building(code, label, source, program, options),
    }
}

/// A file's first run: the interpreter answers at once while the native solver builds on
/// another thread; when it is ready, it takes over from the query being solved (if nothing
/// of it is printed yet) or the next. Where the interpreter finishes first, the build goes
/// on without this process (cargo finishes it, and the next run uses it).
fn answer_while_building(
    code: String,
    label: &str,
    source: &str,
    program: &Program,
    options: &DriverOptions,
) -> Result<(), Stopped> {
    let handoff = cgdl::runtime::driver::Handoff::new();
    let builder = {
        let (handoff, label) = (handoff.clone(), label.to_string());
        std::thread::spawn(move || {
            let built = native::solver_binary(&code, &label, None, native::Quiet::Yes);
            if built.is_ok() {
                handoff.ready();
            }
            built
        })
    };
    let mut racing = options.clone();
    racing.handoff = Some(handoff);
    match interpret_until_handover(source, program, &racing) {
        end @ (RunEnd::Finished(_) | RunEnd::OutputGone(_)) => {
            // A build that failed (a compiler bug, a broken toolchain) is said, once known.
            if builder.is_finished() {
                if let Ok(Err(e)) = builder.join() {
                    cgdl::runtime::driver::note(&format!(
                        "note: the native solver did not build: {e}"
                    ));
                }
            }
            Stopped::from_run(end)
        }
        RunEnd::HandOver(from) => {
            let binary = match builder.join() {
                Ok(Ok(binary)) => binary,
                // Ready is said only of a built solver.
                _ => unreachable!("handed over to a solver that did not build"),
            };
            native::remember_solver(source, &binary);
            cgdl::runtime::driver::note(&format!(
                "cgdl: the native solver is ready: it answers from query {} on",
                from + 1
            ));
            let mut rest = options.clone();
            rest.from_query = from;
            run_solver(&binary, &rest, None)
        }
    }
}

/// The generated Rust of a file's native solver, or `None` (with a note) when native code
/// does not support what the file uses yet.
fn native_code(source: &str, program: &Program) -> Option<String> {
    match compiler::codegen::generate_source(
        program,
        source,
        &compiler::codegen::CodegenOptions::default(),
    ) {
        Ok(code) => Some(code),
        Err(e) => {
            cgdl::runtime::driver::note(&format!("note: {e}; using the interpreter"));
            None
        }
    }
}

/// The built (or cached) native solver of `code`, waiting for its build.
fn build_native(code: &str, label: &str) -> Result<PathBuf, Stopped> {
    native::solver_binary(code, label, None, native::Quiet::No).map_err(|e| {
        eprintln!("error: {e}");
        Reported
    })
}

/// The built (or cached) native solver of a file, or `None` (with a note) when native
/// code does not support what the file uses yet.
fn native_binary(label: &str, source: &str, program: &Program) -> Result<Option<PathBuf>, Stopped> {
    match native_code(source, program) {
        Some(code) => build_native(&code, label).map(Some),
        None => Ok(None),
    }
}

/// Runs a native solver with the options; `position` (JSON) goes to its standard input
/// for `eval`.
fn run_solver(
    binary: &Path,
    options: &DriverOptions,
    position: Option<&str>,
) -> Result<(), Stopped> {
    let mut cmd = std::process::Command::new(binary);
    cmd.arg("--file").arg(&options.file);
    cmd.arg("--max-positions")
        .arg(options.max_positions.to_string());
    if let Some(bytes) = options.max_memory {
        cmd.arg("--max-memory").arg(bytes.to_string());
    }
    if let Some(threads) = options.threads {
        cmd.arg("--threads").arg(threads.to_string());
    }
    if options.json {
        cmd.args(["--format", "json"]);
    }
    if options.pretty {
        cmd.arg("--pretty");
    }
    if options.exact {
        cmd.arg("--exact");
    }
    if let Some(dir) = &options.svg {
        cmd.arg("--svg").arg(dir);
    }
    if options.stats {
        cmd.arg("--stats");
    }
    if options.from_query > 0 {
        cmd.arg("--from-query").arg(options.from_query.to_string());
    }
    if let Some(run) = &options.tiered {
        cmd.arg("--tiered");
        cmd.arg("--processes").arg(run.processes.to_string());
        cmd.arg("--process").arg(run.process.to_string());
        if let Some(hosts) = &run.hostfile {
            cmd.arg("--hostfile").arg(hosts);
        }
        if let Some(dir) = &run.spill {
            cmd.arg("--spill").arg(dir);
        }
    }
    if let Some(asks) = &options.eval {
        let names: Vec<&str> = asks.iter().map(|a| a.name()).collect();
        cmd.arg("--eval").arg(names.join(","));
    }
    if position.is_some() {
        cmd.args(["--position", "-"]);
        cmd.stdin(std::process::Stdio::piped());
    }
    dies_with_parent(&mut cmd);
    let status = cmd.spawn().and_then(|mut child| {
        if let (Some(text), Some(mut stdin)) = (position, child.stdin.take()) {
            use std::io::Write as _;
            // A solver that stops early (a bad argument) closes its input: its own
            // message and status tell why.
            let _ = stdin.write_all(text.as_bytes());
        }
        child.wait()
    });
    match status {
        Ok(status) if status.success() => Ok(()),
        // The solver's own errors (it printed them) and bad arguments.
        Ok(status) if matches!(status.code(), Some(1 | 2)) => Err(Reported),
        Ok(status) => {
            eprintln!(
                "error: the native solver {} stopped abnormally ({}): out of memory, a crash, \
                 or a killed process; --interp runs the reference interpreter",
                binary.display(),
                describe_exit(status),
            );
            Err(Reported)
        }
        Err(e) => {
            eprintln!(
                "error: cannot run the native solver {}: {e}",
                binary.display()
            );
            Err(Reported)
        }
    }
}

/// Makes the solver `cmd` starts end with this process: on Linux it is killed when its
/// parent dies (whatever signal ended it, `SIGKILL` included), and it takes the default
/// action on Ctrl-C even where it was started with `SIGINT` ignored (so that Ctrl-C stops
/// both at once: the terminal signals both).
fn dies_with_parent(cmd: &mut std::process::Command) {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        let parent = std::process::id() as libc::pid_t;
        // SAFETY: between fork and exec the closure calls only async-signal-safe functions
        // (prctl, signal, getppid, _exit) and allocates nothing.
        unsafe {
            cmd.pre_exec(move || {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                libc::signal(libc::SIGINT, libc::SIG_DFL);
                // The parent may have died before the request took effect.
                if libc::getppid() != parent {
                    libc::_exit(1);
                }
                Ok(())
            });
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = cmd;
}

/// Ctrl-C (`SIGINT`) ends this process even where it was started with the signal ignored
/// (a command started in the background by a script inherits that): a solve is stopped at
/// once, and its native solver with it.
fn interrupt_ends_the_run() {
    #[cfg(unix)]
    // SAFETY: restoring a signal's default action has no preconditions.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_DFL);
    }
}

/// How a process ended: its signal by name, or its exit code.
fn describe_exit(status: std::process::ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(signal) = status.signal() {
            let name = match signal {
                4 => "SIGILL",
                6 => "SIGABRT",
                7 => "SIGBUS",
                8 => "SIGFPE",
                9 => "SIGKILL, as the out-of-memory killer sends",
                11 => "SIGSEGV",
                15 => "SIGTERM",
                _ => "",
            };
            return if name.is_empty() {
                format!("killed by signal {signal}")
            } else {
                format!("killed by signal {signal}, {name}")
            };
        }
    }
    match status.code() {
        Some(101) => "exit code 101: a panic".to_string(),
        Some(code) => format!("exit code {code}"),
        None => "no exit code".to_string(),
    }
}

fn cmd_run(
    file: &Path,
    output: &OutputArgs,
    args: &SolveArgs,
    svg: Option<&Path>,
) -> Result<(), Stopped> {
    let source = read(file)?;
    let name = file.display().to_string();
    let mut options = driver_options(&name, output, args);
    options.svg = svg.map(Path::to_path_buf);
    if !args.interp {
        // A file run before by this compiler: its solver at once.
        if let Some(binary) = native::remembered_solver(&source) {
            return run_solver(&binary, &options, None);
        }
    }
    let program = compile(file, &source)?;
    execute(&name, &source, &program, &options, args)
}

fn cmd_eval(
    file: &Path,
    position: &str,
    values: &[String],
    svg: Option<&Path>,
    output: &OutputArgs,
    args: &SolveArgs,
) -> Result<(), Stopped> {
    let mut asks = Vec::new();
    for v in values {
        match Ask::parse(v.trim()) {
            Some(a) => asks.push(a),
            None => {
                eprintln!("error: unknown value `{v}` (values: {})", Ask::names());
                return Err(Reported);
            }
        }
    }
    let source = read(file)?;
    // A file recorded with its solver had no errors and needs no code generated; another is
    // checked first, so that its errors are said as the file's.
    let recorded = match args.interp {
        true => None,
        false => native::remembered_solver(&source),
    };
    let program = match recorded {
        Some(_) => None,
        None => Some(compile(file, &source)?),
    };
    let checked = compiler::compile_position(&source, position).map_err(|diags| {
        report(&diags, "<position>", position);
        Reported
    })?;
    let name = file.display().to_string();
    let mut options = driver_options(&name, output, args);
    options.eval = Some(asks);
    if let Some(path) = svg {
        let interp = Interpreter::new(&checked.program, &checked.source);
        let target = position_target(&interp, &checked.program)?;
        let picture = explore::picture(&checked.program, &interp, &target);
        std::fs::write(path, picture).map_err(|e| {
            eprintln!("error: cannot write {}: {e}", path.display());
            Reported
        })?;
    }
    if args.interp {
        return interpret(&checked.source, &checked.program, &options);
    }
    // The file's own solver (one build serves every position; the one recorded for the
    // file, else its code generated and built): the interpreter computes the position, and
    // the solver reads it.
    let binary = match (recorded, program) {
        (Some(binary), _) => binary,
        (None, Some(program)) => match native_binary(&name, &source, &program)? {
            Some(binary) => {
                native::remember_solver(&source, &binary);
                binary
            }
            None => return interpret_untiered(&checked.source, &checked.program, &options),
        },
        (None, None) => unreachable!("a file without a recorded solver is checked above"),
    };
    let interp = Interpreter::new(&checked.program, &checked.source);
    let target = position_target(&interp, &checked.program)?;
    let datum = compiler::position::position_datum(&interp, &target).map_err(|e| {
        eprintln!("error: {e}");
        Reported
    })?;
    let json = serde_json::to_string(&datum).map_err(|e| {
        eprintln!("error: cannot write the position: {e}");
        Reported
    })?;
    run_solver(&binary, &options, Some(&json))
}

/// The position of a file checked with a position (`compile_position`): its last query's
/// target.
fn position_target(
    interp: &Interpreter<'_>,
    program: &Program,
) -> Result<cgdl::runtime::Expr<u32>, Stopped> {
    let query = program.queries.last().ok_or(Reported)?;
    match compiler::queries::plan(interp, query) {
        Ok(Plan::Value { target, .. }) => Ok(target),
        Ok(_) => {
            eprintln!("error: the position is not a position");
            Err(Reported)
        }
        Err(e) => {
            eprintln!("error: in the position: {}", interp.error_text(&e));
            Err(Reported)
        }
    }
}

fn cmd_explore(file: &Path, position: Option<&str>, port: u16) -> Result<(), Stopped> {
    let (source, program) = load(file)?;
    let checked = match position {
        Some(p) => Some(compiler::compile_position(&source, p).map_err(|diags| {
            report(&diags, "<position>", p);
            Reported
        })?),
        None => None,
    };
    let (program, source) = match &checked {
        Some(c) => (&c.program, c.source.as_str()),
        None => (&program, source.as_str()),
    };
    let interp = Interpreter::new(program, source);
    // The position given (the last query), or the first `value` query's.
    let queries: Vec<_> = match position {
        Some(_) => program.queries.iter().rev().take(1).collect(),
        None => program.queries.iter().collect(),
    };
    let mut start = None;
    for query in queries {
        match compiler::queries::plan(&interp, query) {
            Ok(Plan::Value { target, .. }) => {
                start = Some(target);
                break;
            }
            Ok(_) => {}
            Err(e) => {
                eprintln!("error: {}", interp.error_text(&e));
                return Err(Reported);
            }
        }
    }
    let Some(start) = start else {
        eprintln!(
            "error: {} has no `value` query to start from: give a position, e.g. `cgdl explore {} 'Game(...)'`",
            file.display(),
            file.display()
        );
        return Err(Reported);
    };
    let mut explorer = explore::Explorer::new(program, &interp, start);
    explore::serve(&mut explorer, port).map_err(|e| {
        eprintln!("error: cannot serve the page: {e}");
        Reported
    })
}

fn cmd_loony(args: &LoonyArgs) -> Result<(), Stopped> {
    use cgdl::runtime::board::Board;
    use cgdl::runtime::loony::{analyse_with, render, Endgame, Method};
    let fail = |msg: String| {
        eprintln!("error: {msg}");
        Reported
    };
    let endgame: Endgame = match &args.board {
        Some(path) => {
            let text = read(path)?;
            let board: Board = text
                .parse()
                .map_err(|e| fail(format!("{}: {e}", path.display())))?;
            board.endgame().map_err(|why| {
                eprintln!("error: {} is not a simple loony endgame:", path.display());
                for w in why {
                    eprintln!("  - {w}");
                }
                Reported
            })?
        }
        None => {
            if args.components.is_empty() {
                return Err(fail(
                    "give the components (e.g. `cgdl loony 3 3 4 L6`) or --board FILE".into(),
                ));
            }
            args.components
                .join(" ")
                .parse()
                .map_err(|e| fail(format!("{e}")))?
        }
    };
    let method = if args.exact {
        Method::Exact(args.max_states)
    } else {
        Method::ClosedForm
    };
    let steps = match args.output.format {
        Format::Json => JSON_LINE_STEPS,
        Format::Text => args.steps,
    };
    let analysis = analyse_with(&endgame, method, steps).map_err(|e| fail(e.to_string()))?;
    match args.output.format {
        Format::Json => print_out(&format!(
            "{}\n",
            cgdl::runtime::report::json_text(&analysis, args.output.pretty)
        ))?,
        Format::Text => {
            print_out(&render(&analysis))?;
            let hidden = analysis.line_omitted;
            if hidden > 0 {
                print_out(&format!(
                    "  ... {hidden} more steps (--steps N shows more)\n"
                ))?;
            }
        }
    }
    Ok(())
}

/// The checked `program` of `file` as Rust source, or the error printed.
fn native_source(
    file: &Path,
    source: &str,
    program: &Program,
    options: &compiler::codegen::CodegenOptions,
) -> Result<String, Stopped> {
    compiler::codegen::generate_source(program, source, options).map_err(|e| {
        eprintln!("error: {}: {e}", file.display());
        Reported
    })
}

fn cmd_compile(file: &Path, output: Option<&Path>, runtime_path: &str) -> Result<(), Stopped> {
    let (source, program) = load(file)?;
    let options = compiler::codegen::CodegenOptions {
        runtime_path: runtime_path.to_string(),
    };
    let code = native_source(file, &source, &program, &options)?;
    match output {
        Some(path) => std::fs::write(path, code).map_err(|e| {
            eprintln!("error: cannot write {}: {e}", path.display());
            Reported
        }),
        None => Ok(print_out(&code)?),
    }
}

/// Whether `a` and `b` name the same file (`b` need not exist).
fn same_file(a: &Path, b: &Path) -> bool {
    let canonical = |p: &Path| -> Option<PathBuf> {
        if let Ok(c) = p.canonicalize() {
            return Some(c);
        }
        let parent = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.canonicalize().ok()?,
            _ => std::env::current_dir().ok()?,
        };
        Some(parent.join(p.file_name()?))
    };
    matches!((canonical(a), canonical(b)), (Some(x), Some(y)) if x == y)
}

fn cmd_build(file: &Path, output: &Path) -> Result<(), Stopped> {
    if same_file(file, output) {
        eprintln!(
            "error: -o {} would overwrite the source file with the solver; choose another path",
            output.display()
        );
        return Err(Reported);
    }
    let (source, program) = load(file)?;
    let code = native_source(file, &source, &program, &Default::default())?;
    let name = file.display().to_string();
    let binary =
        native::solver_binary(&code, &name, Some(&name), native::Quiet::No).map_err(|e| {
            eprintln!("error: {e}");
            Reported
        })?;
    std::fs::copy(&binary, output).map_err(|e| {
        eprintln!("error: cannot write {}: {e}", output.display());
        Reported
    })?;
    Ok(())
}

fn main() -> ExitCode {
    cgdl::runtime::driver::exit_status_survives_stderr(run)
}

fn run() -> ExitCode {
    interrupt_ends_the_run();
    let cli = Cli::parse();
    match &cli.command {
        Command::Run { output, .. } | Command::Eval { output, .. } => output.note_unused(),
        Command::Loony(args) => args.output.note_unused(),
        _ => {}
    }
    let result = match &cli.command {
        Command::Check { file } => cmd_check(file),
        Command::Run {
            file,
            output,
            solve,
            svg,
        } => cmd_run(file, output, solve, svg.as_deref()),
        Command::Eval {
            file,
            position,
            value,
            svg,
            output,
            solve,
        } => cmd_eval(file, position, value, svg.as_deref(), output, solve),
        Command::Loony(args) => cmd_loony(args),
        Command::Explore {
            file,
            position,
            port,
        } => cmd_explore(file, position.as_deref(), *port),
        Command::Build { file, output } => cmd_build(file, output),
        Command::Compile {
            file,
            output,
            runtime_path,
        } => cmd_compile(file, output.as_deref(), runtime_path),
    };
    match result {
        Ok(()) | Err(Stopped::OutputClosed) => ExitCode::SUCCESS,
        Err(Reported) => ExitCode::FAILURE,
    }
}

#[cfg(test)]
mod tests {
    use super::describe_exit;

    /// clap's own checks of the commands pass, and each option's help is one run of words
    /// (doc comments wrapped in the source read as prose).
    #[test]
    fn the_commands_and_their_help_are_well_formed() {
        use clap::CommandFactory;
        let cli = super::Cli::command();
        cli.clone().debug_assert();
        for command in std::iter::once(&cli).chain(cli.get_subcommands()) {
            for arg in command.get_arguments() {
                let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
                let name = format!("{} --{}", command.get_name(), arg.get_id());
                assert!(!help.contains("  "), "{name}'s help: {help:?}");
            }
        }
    }

    /// A solver that dies shows how: its signal by name, or its exit code.
    #[cfg(unix)]
    #[test]
    fn abnormal_exits_are_described() {
        use std::os::unix::process::ExitStatusExt;
        let status = |raw| std::process::ExitStatus::from_raw(raw);
        assert_eq!(describe_exit(status(11)), "killed by signal 11, SIGSEGV");
        assert_eq!(
            describe_exit(status(9)),
            "killed by signal 9, SIGKILL, as the out-of-memory killer sends"
        );
        assert_eq!(describe_exit(status(101 << 8)), "exit code 101: a panic");
        assert_eq!(describe_exit(status(3 << 8)), "exit code 3");
    }
}
