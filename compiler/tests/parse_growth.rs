//! Parsing is linear in the input, however deep it nests (issue 36): the grammar decides
//! each alternative by its first tokens, so that nothing is parsed twice. Measured without
//! a clock: pest counts the rule calls a parse makes, and each input below, at depth 20 and
//! at depth 40, parses within a fixed number of calls per byte (an input that backtracked
//! would need twice as many calls per level of depth, and hit the limit at once).
//!
//! (The only test of its file: pest's call limit is global to the process.)

use cgdl_compiler::parser::parse_file;

#[test]
fn parsing_takes_a_bounded_number_of_steps_per_byte() {
    for depth in [20, 40] {
        let cases = [
            (
                "indexes of a list",
                format!(
                    "const X = {}0{}\n",
                    "[0, 1][".repeat(depth),
                    "]".repeat(depth)
                ),
            ),
            (
                "braces",
                format!("const X = {}1{}\n", "{".repeat(depth), "}".repeat(depth)),
            ),
            (
                "calls of max",
                format!(
                    "const X = {}1{}\n",
                    "max(".repeat(depth),
                    ", 2)".repeat(depth)
                ),
            ),
            (
                "lists of indexes",
                format!(
                    "const X = {}0{}\n",
                    "[[0, 1][".repeat(depth),
                    "]]".repeat(depth)
                ),
            ),
            (
                "unknown calls",
                format!("const X = {}1{}\n", "f(".repeat(depth), ")".repeat(depth)),
            ),
            (
                "comprehensions",
                format!(
                    "const X = {}1{}\n",
                    "{ x for x in ".repeat(depth),
                    "}".repeat(depth)
                ),
            ),
            (
                "compounds",
                format!(
                    "const X = {}1{}\n",
                    "sum(G(".repeat(depth),
                    ") for x in {1})".repeat(depth)
                ),
            ),
            (
                "slices",
                format!(
                    "const X = {}0{}\n",
                    "[0][".repeat(depth),
                    "..]".repeat(depth)
                ),
            ),
        ];
        for (name, source) in cases {
            let limit = 400 * source.len();
            pest::set_call_limit(std::num::NonZeroUsize::new(limit));
            let parsed = parse_file(&source);
            pest::set_call_limit(None);
            // Each input is valid: a parse that fails ran out of calls.
            assert!(
                parsed.is_ok(),
                "{name} at depth {depth}: more than {limit} rule calls"
            );
        }
    }
}
