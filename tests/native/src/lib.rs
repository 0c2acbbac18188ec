//! The examples compiled to native solvers by `build.rs`, one module each.

macro_rules! native_example {
    ($($name:ident),* $(,)?) => {
        $(
            #[allow(missing_docs)]
            pub mod $name {
                include!(concat!(env!("OUT_DIR"), "/", stringify!($name), ".rs"));
            }
        )*
        /// Runs every query of an example natively: its name, then each answer.
        pub fn run_native(name: &str) -> Option<Result<Vec<cgdl_runtime::report::Answer>, String>> {
            match name {
                $(stringify!($name) => Some(run(&$name::Universe, $name::plans())),)*
                _ => None,
            }
        }
        /// The examples compiled natively.
        pub const EXAMPLES: &[&str] = &[$(stringify!($name)),*];
    };
}

native_example!(
    degenerate_dots,
    dawsons_kayles,
    grundys_game,
    kayles,
    kings_horses,
    limited_nim,
    nim,
    northcott,
    queens,
    wythoff,
);

fn run<R: cgdl_runtime::Rules>(
    rules: &R,
    plans: Result<Vec<cgdl_runtime::report::Plan<R::Pos>>, cgdl_runtime::RuleError>,
) -> Result<Vec<cgdl_runtime::report::Answer>, String> {
    let plans = plans.map_err(|e| e.to_string())?;
    let mut solver = cgdl_runtime::Solver::new(rules);
    plans
        .iter()
        .map(|p| cgdl_runtime::report::run_plan(&mut solver, p).map_err(|e| e.to_string()))
        .collect()
}
