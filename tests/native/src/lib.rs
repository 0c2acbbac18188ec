//! The examples compiled to native solvers by `build.rs`, one module each.

macro_rules! native_example {
    ($($name:ident),* $(,)?) => {
        $(
            #[allow(missing_docs)]
            pub mod $name {
                include!(concat!(env!("OUT_DIR"), "/", stringify!($name), ".rs"));
            }
        )*
        /// Runs every query of the example `name` natively on `threads` threads ([`run`]):
        /// each answer.
        pub fn run_native(
            name: &str,
            threads: usize,
        ) -> Option<Result<Vec<cgdl_runtime::report::Answer>, String>> {
            match name {
                $(stringify!($name) => Some(run(&$name::Universe, $name::plans(), threads)),)*
                _ => None,
            }
        }
        /// The examples compiled natively.
        pub const EXAMPLES: &[&str] = &[$(stringify!($name)),*];
    };
}

// Every `examples/*.cgdl`, listed by build.rs.
include!(concat!(env!("OUT_DIR"), "/examples.rs"));

/// `memo_keys.cgdl`: games with fields of every kind that packs into a memo key.
#[allow(missing_docs)]
pub mod memo_keys {
    include!(concat!(env!("OUT_DIR"), "/memo_keys.rs"));
}

/// `names.cgdl`: names that native code renames.
#[allow(missing_docs)]
pub mod names {
    include!(concat!(env!("OUT_DIR"), "/names.rs"));
}

/// `natural.cgdl`: games whose symmetries the compiler finds.
#[allow(missing_docs)]
pub mod natural {
    include!(concat!(env!("OUT_DIR"), "/natural.rs"));
}

/// `permuted.cgdl`: games whose declared symmetries permute their fields.
#[allow(missing_docs)]
pub mod permuted {
    include!(concat!(env!("OUT_DIR"), "/permuted.rs"));
}

/// `checked.cgdl`: declared maps checked as the solver runs, on games large enough that
/// the checks' budget is spent.
#[allow(missing_docs)]
pub mod checked {
    include!(concat!(env!("OUT_DIR"), "/checked.rs"));
    /// The file's source text.
    pub const SOURCE: &str = include_str!("../checked.cgdl");
}

/// `wrong_symmetries.cgdl` (written by build.rs from `wrong_symmetries.rs`): declared
/// symmetries, most of them wrong.
#[allow(missing_docs)]
pub mod wrong_symmetries {
    include!(concat!(env!("OUT_DIR"), "/wrong_symmetries.rs"));
    /// The file's source text.
    pub const SOURCE: &str = include_str!(concat!(env!("OUT_DIR"), "/wrong_symmetries.cgdl"));
}

/// `wrong_corner.cgdl` (written by build.rs from `wrong_symmetries.rs`): declared maps
/// moved to the corner, wrong and right.
#[allow(missing_docs)]
pub mod wrong_corner {
    include!(concat!(env!("OUT_DIR"), "/wrong_corner.rs"));
    /// The file's source text.
    pub const SOURCE: &str = include_str!(concat!(env!("OUT_DIR"), "/wrong_corner.cgdl"));
}

/// `loopy_digraphs.cgdl` (written by build.rs from `loopy_digraphs.rs`): random loopy
/// digraphs.
#[allow(missing_docs)]
pub mod loopy_digraphs {
    include!(concat!(env!("OUT_DIR"), "/loopy_digraphs.rs"));
    /// The file's source text.
    pub const SOURCE: &str = include_str!(concat!(env!("OUT_DIR"), "/loopy_digraphs.cgdl"));
}

/// Runs every query of a generated module natively on `threads` threads: the solver's
/// tables and heap engines on `threads` threads, and its searches shared with `threads - 1`
/// helpers woken at once (every search is shared, however short). One thread is the
/// solver alone.
pub fn run<R>(
    rules: &R,
    plans: Result<Vec<cgdl_runtime::report::Plan<'static, R::Pos>>, cgdl_runtime::RuleError>,
    threads: usize,
) -> Result<Vec<cgdl_runtime::report::Answer>, String>
where
    R: cgdl_runtime::Rules + Sync,
    R::Pos: Send + Sync,
{
    let plans = plans.map_err(|e| e.to_string())?;
    on_threads(rules, threads, |solver| {
        plans
            .into_iter()
            .map(|p| cgdl_runtime::report::run_plan(solver, p).map_err(|e| e.to_string()))
            .collect()
    })
}

/// Runs `work` on a new solver of `rules` with `threads` threads ([`run`]).
fn on_threads<'r, R, T>(
    rules: &'r R,
    threads: usize,
    work: impl FnOnce(&mut cgdl_runtime::Solver<'r, R>) -> T,
) -> T
where
    R: cgdl_runtime::Rules + Sync,
    R::Pos: Send + Sync,
{
    use cgdl_runtime::solver::shared::{search_with_helpers, Helpers};
    let mut solver = cgdl_runtime::Solver::new(rules);
    solver.set_threads(threads);
    let eager = Helpers {
        threads,
        wake_after: 0,
    };
    search_with_helpers(&mut solver, eager, work)
}

/// The generated programs of the property test (see `programs.rs`), compiled by build.rs:
/// `COUNT`, `source(i)`, `run(i, threads)`, which runs every query of program `i` natively
/// on `threads` threads with a fresh solver per query, and `tiered(i)`.
pub mod generated {
    macro_rules! generated_program {
        ($name:ident, $i:expr, $path:expr) => {
            #[allow(missing_docs, dead_code)]
            pub mod $name {
                include!(concat!($path, ".rs"));
                /// The program's source text.
                pub const SOURCE: &str = include_str!(concat!($path, ".cgdl"));
            }
        };
    }

    include!(concat!(env!("OUT_DIR"), "/generated.rs"));

    /// What the tiered solves of a program's queries' positions (on two workers) did: how
    /// many positions each query had whose value agreed with the ordinary solver's, or the
    /// error it refused with (no codes, a partizan game, a rule error, no rank).
    pub type TieredCheck = Vec<Result<usize, String>>;

    /// The tiered solve of the positions of each query of a program, each value checked
    /// against the ordinary solver's Grundy value (a position the ordinary solver fails on,
    /// a declared symmetry it finds wrong say, is not compared).
    fn tiered_agrees<R>(
        rules: &R,
        count: usize,
        plan: fn(
            usize,
        )
            -> Result<cgdl_runtime::report::Plan<'static, R::Pos>, cgdl_runtime::RuleError>,
    ) -> TieredCheck
    where
        R: cgdl_runtime::Rules + Clone + Send + Sync + 'static,
        R::Pos: Send + 'static,
    {
        use cgdl_runtime::tiered::{solve, RulesGraph, TierConfig};
        let config = TierConfig {
            workers: 2,
            ..TierConfig::default()
        };
        (0..count)
            .map(|i| {
                let roots = plan(i)
                    .map_err(|e| e.to_string())
                    .and_then(|p| p.positions())?;
                let graph = RulesGraph(rules.clone());
                let codes =
                    (roots.iter().map(|&p| graph.code(p))).collect::<Result<Vec<_>, _>>()?;
                let report = solve(std::sync::Arc::new(graph), codes, &config)?
                    .expect("worker 0 runs in this process");
                let mut solver = cgdl_runtime::Solver::new(rules);
                let mut compared = 0;
                for (&root, &value) in roots.iter().zip(&report.values) {
                    if let Ok(grundy) = solver.grundy(root) {
                        assert_eq!(grundy, value, "the Grundy value of {root:?}");
                        compared += 1;
                    }
                }
                Ok(compared)
            })
            .collect()
    }

    /// Each query of a program on `threads` threads ([`super::run`]), with a fresh solver
    /// per query.
    fn each_query<R>(
        rules: &R,
        count: usize,
        plan: fn(
            usize,
        )
            -> Result<cgdl_runtime::report::Plan<'static, R::Pos>, cgdl_runtime::RuleError>,
        threads: usize,
    ) -> Vec<Result<cgdl_runtime::report::Answer, String>>
    where
        R: cgdl_runtime::Rules + Sync,
        R::Pos: Send + Sync,
    {
        (0..count)
            .map(|i| {
                let plan = plan(i).map_err(|e| e.to_string())?;
                super::on_threads(rules, threads, |solver| {
                    cgdl_runtime::report::run_plan(solver, plan).map_err(|e| e.to_string())
                })
            })
            .collect()
    }
}
