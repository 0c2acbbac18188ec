//! The `cgdl` command-line tool.

use cgdl::compiler::{self, interp::Interpreter, ir::Val, Diagnostic};
use cgdl::runtime::report::{render_text, run_plan, Answer, Ask, Plan};
use cgdl::runtime::{Mode, Rules, Solver};
use clap::{Parser, Subcommand, ValueEnum};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "cgdl",
    version,
    about = "Exact solvers for impartial combinatorial games described in CGDL"
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
        /// Output format (the JSON schema is in docs/LANGUAGE.md).
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        #[command(flatten)]
        solve: SolveArgs,
    },
    /// Print values of one position expression, one `NAME VALUE` line each.
    Eval {
        /// The .cgdl file that declares the games.
        file: PathBuf,
        /// A position expression, e.g. 'Kayles(7) + Kayles(3)'.
        position: String,
        /// Values to print, comma-separated: outcome, misere_outcome, grundy, wnumber,
        /// misere_wnumber, remoteness, suspense, moves.
        #[arg(long, value_delimiter = ',', default_value = "outcome")]
        value: Vec<String>,
        #[command(flatten)]
        solve: SolveArgs,
    },
    /// Analyse a simple loony dots-and-boxes endgame: value, opening, optimal play.
    Loony(LoonyArgs),
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
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Steps of the line of play shown in text output.
    #[arg(long, default_value_t = 40)]
    steps: usize,
}

#[derive(clap::Args)]
struct SolveArgs {
    /// Use the reference interpreter (in this version the only back end).
    #[arg(long)]
    interp: bool,
    /// Search every compound's own positions instead of using the fast rules.
    #[arg(long)]
    exact: bool,
    /// Give up (with an error) after solving this many positions.
    #[arg(long, default_value_t = cgdl::runtime::DEFAULT_MAX_POSITIONS)]
    max_positions: u64,
}

impl SolveArgs {
    fn solver<'r, R: Rules>(&self, rules: &'r R) -> Solver<'r, R> {
        let _ = self.interp;
        let mode = if self.exact { Mode::Exact } else { Mode::Fast };
        let mut solver = Solver::with_mode(rules, mode);
        solver.set_max_positions(self.max_positions);
        if std::io::stderr().is_terminal() {
            let bar = indicatif::ProgressBar::new_spinner();
            solver.set_progress(move |n| {
                bar.set_message(format!("solving: {n} positions"));
                bar.tick();
            });
        }
        solver
    }
}

/// An error already explained to the user on stderr.
struct Reported;

fn read(file: &Path) -> Result<String, Reported> {
    std::fs::read_to_string(file).map_err(|e| {
        eprintln!("error: cannot read {}: {e}", file.display());
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

fn load(file: &Path) -> Result<(String, compiler::ir::Program), Reported> {
    let source = read(file)?;
    match compiler::compile_str(&source) {
        Ok(p) => Ok((source, p)),
        Err(diags) => {
            report(&diags, &file.display().to_string(), &source);
            Err(Reported)
        }
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn cmd_check(file: &Path) -> Result<(), Reported> {
    let (_, program) = load(file)?;
    println!(
        "{}: ok ({}, {})",
        file.display(),
        plural(program.games.len(), "game", "games"),
        plural(program.queries.len(), "query", "queries")
    );
    Ok(())
}

fn cmd_run(file: &Path, format: Format, args: &SolveArgs) -> Result<(), Reported> {
    let (source, program) = load(file)?;
    let interp = Interpreter::new(&program, &source);
    let mut solver = args.solver(&interp);
    let mut answers: Vec<Answer> = Vec::new();
    for (i, q) in program.queries.iter().enumerate() {
        let fail = |msg: String| {
            let (l, c) = compiler::diagnostics::line_col(&source, q.span.start);
            eprintln!("error: {}:{l}:{c}: in `{}`: {msg}", file.display(), q.text);
            Reported
        };
        let plan = compiler::queries::plan(&interp, q).map_err(|e| {
            let at = e
                .span
                .map(|s| format!(" (at {})", interp.locate(s)))
                .unwrap_or_default();
            fail(format!("{}{at}", e.message))
        })?;
        let answer = run_plan(&mut solver, &plan).map_err(|e| fail(e.to_string()))?;
        if format == Format::Text {
            if i > 0 {
                println!();
            }
            print!("{}", render_text(&answer));
        }
        answers.push(answer);
    }
    if format == Format::Json {
        let doc = serde_json::json!({ "file": file.display().to_string(), "queries": answers });
        match serde_json::to_string_pretty(&doc) {
            Ok(text) => println!("{text}"),
            Err(e) => {
                eprintln!("error: cannot write JSON: {e}");
                return Err(Reported);
            }
        }
    }
    if program.queries.is_empty() {
        eprintln!("{}: no queries to run", file.display());
    }
    Ok(())
}

fn cmd_eval(
    file: &Path,
    position: &str,
    values: &[String],
    args: &SolveArgs,
) -> Result<(), Reported> {
    let mut asks = Vec::new();
    for v in values {
        match Ask::parse(v.trim()) {
            Some(a) => asks.push(a),
            None => {
                eprintln!(
                    "error: unknown value `{v}` (values: outcome, misere_outcome, grundy, \
                     wnumber, misere_wnumber, remoteness, suspense, moves)"
                );
                return Err(Reported);
            }
        }
    }
    let (source, _) = load(file)?;
    // The position is checked as one more query of the file, so that it sees its games.
    let prefix = format!("{source}\nvalue outcome of ");
    let combined = format!("{prefix}{position}\n");
    let program = match compiler::compile_str(&combined) {
        Ok(p) => p,
        Err(diags) => {
            let offset = prefix.len();
            let shifted: Vec<Diagnostic> = diags
                .into_iter()
                .map(|mut d| {
                    d.span.start = d.span.start.saturating_sub(offset).min(position.len());
                    d.span.end = d
                        .span
                        .end
                        .saturating_sub(offset)
                        .clamp(d.span.start, position.len());
                    d
                })
                .collect();
            report(&shifted, "<position>", position);
            return Err(Reported);
        }
    };
    let interp = Interpreter::new(&program, &combined);
    let Some(q) = program.queries.last() else {
        eprintln!("error: no position given");
        return Err(Reported);
    };
    let mut env = vec![Val::Int(0); q.frame];
    let target = match interp.eval(&q.target, &mut env) {
        Ok(Val::Game(g)) => (*g).clone(),
        Ok(other) => {
            eprintln!("error: `{position}` is {other}, not a position");
            return Err(Reported);
        }
        Err(e) => {
            eprintln!("error: in position `{position}`: {}", e.message);
            return Err(Reported);
        }
    };
    let mut solver = args.solver(&interp);
    let plan = Plan::Value {
        query: position.to_string(),
        target,
        asks,
    };
    match run_plan(&mut solver, &plan) {
        Ok(Answer::Value { values, .. }) => {
            for (name, v) in values {
                println!("{name} {}", cgdl::runtime::report::cell_text(&v));
            }
            Ok(())
        }
        Ok(_) => Err(Reported),
        Err(e) => {
            eprintln!("error: {e}");
            Err(Reported)
        }
    }
}

fn cmd_loony(args: &LoonyArgs) -> Result<(), Reported> {
    use cgdl::runtime::board::Board;
    use cgdl::runtime::loony::{analyse, render, Endgame, Method};
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
    let analysis = analyse(&endgame, method).map_err(|e| fail(e.to_string()))?;
    match args.format {
        Format::Json => match serde_json::to_string_pretty(&analysis) {
            Ok(text) => println!("{text}"),
            Err(e) => return Err(fail(format!("cannot write JSON: {e}"))),
        },
        Format::Text => {
            let mut shown = analysis.clone();
            let hidden = shown.line.len().saturating_sub(args.steps);
            shown.line.truncate(args.steps);
            print!("{}", render(&shown));
            if hidden > 0 {
                println!("  ... {hidden} more steps (--steps N shows more)");
            }
        }
    }
    Ok(())
}

fn cmd_compile(file: &Path, output: Option<&Path>, runtime_path: &str) -> Result<(), Reported> {
    let (source, program) = load(file)?;
    let options = compiler::codegen::CodegenOptions {
        runtime_path: runtime_path.to_string(),
    };
    let code = compiler::codegen::generate_source(&program, &source, &options).map_err(|e| {
        eprintln!("error: {}: {e}", file.display());
        Reported
    })?;
    match output {
        Some(path) => std::fs::write(path, code).map_err(|e| {
            eprintln!("error: cannot write {}: {e}", path.display());
            Reported
        }),
        None => {
            print!("{code}");
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Check { file } => cmd_check(file),
        Command::Run {
            file,
            format,
            solve,
        } => cmd_run(file, *format, solve),
        Command::Eval {
            file,
            position,
            value,
            solve,
        } => cmd_eval(file, position, value, solve),
        Command::Loony(args) => cmd_loony(args),
        Command::Compile {
            file,
            output,
            runtime_path,
        } => cmd_compile(file, output.as_deref(), runtime_path),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Reported) => ExitCode::FAILURE,
    }
}
