//! Positions given on their own (`cgdl eval FILE POSITION`): parsed as exactly one
//! expression, then checked as one more query of their file, with every place in them
//! reported inside the position's own text.

use crate::diagnostics::Diagnostic;
use crate::ir::Program;

/// A file checked together with a position expression given on its own.
pub struct WithPosition {
    /// The text that was checked: the file, then a query of the position.
    pub source: String,
    /// The checked program; its last query is `value outcome of POSITION`, and
    /// [`Program::position_start`] marks where the position begins in `source`.
    pub program: Program,
}

/// Checks `position` as one expression over the games of `file` (which must check on its
/// own). Diagnostics point into `position`, never into the file.
pub fn compile_position(file: &str, position: &str) -> Result<WithPosition, Vec<Diagnostic>> {
    // Exactly one expression: `Heap(3) value grundy of Heap(2)` or `Heap(3) game Z() {}`
    // must not become more of the file.
    crate::parser::parse_expr(position).map_err(|d| vec![d])?;
    let prefix = format!("{file}\nvalue outcome of ");
    let start = prefix.len();
    let source = format!("{prefix}{position}\n");
    match crate::compile_str(&source) {
        Ok(mut program) => {
            program.position_start = Some(start);
            Ok(WithPosition { source, program })
        }
        Err(diags) => Err(diags
            .into_iter()
            .map(|mut d| {
                let end = position.len();
                d.span.start = d.span.start.saturating_sub(start).min(end);
                d.span.end = d.span.end.saturating_sub(start).clamp(d.span.start, end);
                d
            })
            .collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NIM: &str = "game Heap(n: nat) {\n    move take(k in 1..=n) => Heap(n - k)\n}\n";

    #[test]
    fn a_position_is_one_expression() {
        for bad in [
            "Heap(3) value grundy of Heap(2)",
            "Heap(3) game Zed() {}",
            "Heap(3) const X = 1",
            "Heap(3)\ntable grundy of Heap(n) for n in 0..3",
            "Heap(3) /*",
            "",
        ] {
            assert!(compile_position(NIM, bad).is_err(), "{bad:?} was accepted");
        }
        let ok = compile_position(NIM, "Heap(3) + Heap(2) // a comment").expect("checks");
        assert_eq!(ok.program.queries.len(), 1);
    }

    #[test]
    fn places_are_inside_the_position() {
        let diags = match compile_position(NIM, "Heap(2) + Hep(1)") {
            Err(d) => d,
            Ok(_) => panic!("an unknown game was accepted"),
        };
        assert_eq!(diags[0].span.start, 10, "{diags:?}");
        let ok = compile_position(NIM, "Heap(1) +\n  Heap(2)").expect("checks");
        let at = ok.source.rfind("Heap(2)").expect("in the text");
        assert_eq!(ok.program.locate(&ok.source, at), "<position>:2:3");
        assert_eq!(ok.program.locate(&ok.source, 4), "1:5");
    }
}
