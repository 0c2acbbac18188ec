//! Positions given on their own (`cgdl eval FILE POSITION`): parsed as exactly one
//! expression, then checked as one more query of their file, with every place in them
//! reported inside the position's own text.

use crate::diagnostics::Diagnostic;
use crate::interp::Interpreter;
use crate::ir::{Program, Val};
use cgdl_runtime::native::{Datum, PositionDatum};
use cgdl_runtime::Expr;

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

/// The most elements a range in a field may have to be passed to a native solver.
const MAX_RANGE: i64 = 1 << 20;

/// The position expression `target` (of interned positions of `interp`) as the data a
/// native solver of the same file reads (`SOLVER --eval VALUES --position -`).
pub fn position_datum(interp: &Interpreter, target: &Expr<u32>) -> Result<PositionDatum, String> {
    Ok(match target {
        Expr::End => PositionDatum::End,
        Expr::Pos(id) => {
            let (game, fields) = interp.position(*id);
            let fields = fields.iter().map(datum).collect::<Result<_, _>>()?;
            PositionDatum::Game(game, fields)
        }
        Expr::Compound(kind, parts) => PositionDatum::Compound(
            *kind,
            (parts.iter().map(|p| position_datum(interp, p))).collect::<Result<_, _>>()?,
        ),
    })
}

/// A field's value as a native solver reads it.
fn datum(v: &Val) -> Result<Datum, String> {
    let all = |vs: &mut dyn Iterator<Item = &Val>| vs.map(datum).collect::<Result<Vec<_>, _>>();
    Ok(match v {
        Val::Bool(b) => Datum::Bool(*b),
        Val::Int(n) => Datum::Int(*n),
        Val::Tuple(vs) => Datum::Tuple(all(&mut vs.iter())?),
        Val::Set(vs) => Datum::Set(all(&mut vs.iter())?),
        Val::List(vs) => Datum::List(all(&mut vs.iter())?),
        Val::Range(lo, hi) => {
            if hi.saturating_sub(*lo) >= MAX_RANGE {
                return Err(format!(
                    "the range {lo}..={hi} is too large to pass to a native solver (--interp runs the interpreter)"
                ));
            }
            Datum::Set((*lo..=*hi).map(Datum::Int).collect())
        }
        Val::Tag(t) => Datum::Variant(t.variant, all(&mut t.fields.iter())?),
        Val::Game(_) => return Err("a position cannot be a field's value".into()),
    })
}
