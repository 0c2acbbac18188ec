//! `cgdl explore FILE [POSITION]`: a page on 127.0.0.1 to see a game and play it. The
//! position is drawn (`picture`), every option is listed with its value, a click moves,
//! the perfect opponent answers, and back and forward walk the moves made. Values come
//! from the reference interpreter, whose memo lasts as long as the page is served.
//!
//! The page (`explore.html`) asks the server for JSON: `GET /state`, and `POST /move?i=K`,
//! `/reply`, `/back`, `/forward`, `/restart`, each answered with the new state; `GET
//! /tables` gives the heat maps of the file's two-name tables.

use cgdl::compiler::ir::{FieldTy, Program, Val};
use cgdl::compiler::Interpreter;
use cgdl::runtime::partizan::Side;
use cgdl::runtime::{Expr, Outcome, Solver, Value, ValueKind, Winner};
use serde_json::{json, Value as Json};
use std::fmt::Write as _;

/// The page the server gives for `/`.
const PAGE: &str = include_str!("explore.html");

/// What the page shows: the moves made from the start, and where it stands among them.
pub struct Explorer<'p> {
    program: &'p Program,
    interp: &'p Interpreter<'p>,
    solver: Solver<'p, Interpreter<'p>>,
    /// The positions played through, the start first.
    line: Vec<Expr<u32>>,
    /// The position shown: `line[at]`.
    at: usize,
    partizan: bool,
}

/// An error to show on the page.
type Failure = String;

impl<'p> Explorer<'p> {
    /// An explorer of `start`, a position of `program`'s games.
    pub fn new(program: &'p Program, interp: &'p Interpreter<'p>, start: Expr<u32>) -> Self {
        let partizan = cgdl::runtime::partizan::is_partizan(interp, &start);
        Explorer {
            program,
            interp,
            solver: Solver::new(interp),
            line: vec![start],
            at: 0,
            partizan,
        }
    }

    fn here(&self) -> &Expr<u32> {
        &self.line[self.at]
    }

    /// Whose move it is in a partizan game: Left at the start, then in turn.
    fn side(&self) -> Side {
        match self.at % 2 {
            0 => Side::Left,
            _ => Side::Right,
        }
    }

    /// The options of the position shown, as positions and as written.
    fn options(&mut self) -> Result<Vec<(Expr<u32>, String)>, Failure> {
        let here = self.here().clone();
        if self.partizan {
            let side = self.side();
            let options =
                (self.solver.partizan().options(&here, side)).map_err(|e| e.to_string())?;
            Ok(options
                .into_iter()
                .map(|o| {
                    let text = self.solver.display(&o);
                    (o, text)
                })
                .collect())
        } else {
            self.solver
                .options_as_written(here)
                .map_err(|e| e.to_string())
        }
    }

    /// The value of `expr` as the page shows it, and whether moving to it wins (for the
    /// player who moves there).
    fn value(&mut self, expr: &Expr<u32>, side: Side) -> Result<(String, bool), Failure> {
        if self.partizan {
            let class = (self.solver.outcome(expr.clone())).map_err(|e| e.to_string())?;
            // Who wins with Left moving first, and with Right moving first.
            let (left_first, right_first) = match class {
                Outcome::L => (Winner::Left, Winner::Left),
                Outcome::R => (Winner::Right, Winner::Right),
                Outcome::P => (Winner::Right, Winner::Left),
                Outcome::N => (Winner::Left, Winner::Right),
                Outcome::D => (Winner::Draw, Winner::Draw),
                Outcome::Split(a, b) => (a, b),
            };
            // After Left's move Right moves first, and the other way round.
            let wins = match side {
                Side::Left => right_first == Winner::Left,
                Side::Right => left_first == Winner::Right,
            };
            // A loopy game whose sides are not found has no form here: its outcome says it all.
            let text = match self.solver.canonical(expr.clone()) {
                Ok(form) => form,
                Err(_) => format!("outcome {class}"),
            };
            return Ok((text, wins));
        }
        let grundy =
            (self.solver.value(ValueKind::Grundy, expr.clone())).map_err(|e| e.to_string())?;
        let outcome =
            (self.solver.value(ValueKind::Outcome, expr.clone())).map_err(|e| e.to_string())?;
        let wins = matches!(outcome, Value::Outcome(Outcome::P));
        Ok((format!("{outcome}, grundy {grundy}"), wins))
    }

    /// The state the page draws.
    pub fn state(&mut self) -> Json {
        match self.try_state() {
            Ok(state) => state,
            Err(e) => json!({ "error": e, "position": self.solver.display(self.here()) }),
        }
    }

    fn try_state(&mut self) -> Result<Json, Failure> {
        let here = self.here().clone();
        let side = self.side();
        let (value, _) = self.value(&here, side)?;
        let mut options = Vec::new();
        for (i, (o, text)) in self.options()?.into_iter().enumerate() {
            let (v, wins) = self.value(&o, side)?;
            options.push(json!({ "i": i, "move": text, "value": v, "wins": wins }));
        }
        let to_move = match (self.partizan, side) {
            (false, _) => "either player",
            (true, Side::Left) => "Left",
            (true, Side::Right) => "Right",
        };
        let thermograph = match self.partizan {
            true => self.thermograph(&here),
            false => None,
        };
        Ok(json!({
            "thermograph": thermograph,
            "position": self.solver.display(&here),
            "value": value,
            "to_move": to_move,
            "over": options.is_empty(),
            "options": options,
            "picture": picture(self.program, self.interp, &here),
            "moves": self.at,
            "back": self.at > 0,
            "forward": self.at + 1 < self.line.len(),
        }))
    }

    /// The thermograph of a partizan position whose canonical form is short, as SVG.
    fn thermograph(&mut self, expr: &Expr<u32>) -> Option<String> {
        let title = self.solver.display(expr);
        let p = self.solver.partizan();
        let g = p.value(expr).ok()?;
        let th = p.forms().thermograph(g);
        Some(cgdl::runtime::svg::thermograph(&title, &th))
    }

    /// The heat map of each value of each two-name table of the file (solved when first
    /// asked for), as SVG; or why a table could not be solved.
    pub fn tables(&mut self) -> Json {
        let mut maps = Vec::new();
        for query in &self.program.queries {
            let plan = match cgdl::compiler::queries::plan(self.interp, query) {
                Ok(plan @ cgdl::runtime::report::Plan::Grid { .. }) => plan,
                Ok(_) => continue,
                Err(e) => {
                    maps.push(json!({ "error": self.interp.error_text(&e) }));
                    continue;
                }
            };
            match cgdl::runtime::report::run_plan(&mut self.solver, plan) {
                Ok(cgdl::runtime::report::Answer::Grid {
                    query,
                    vars,
                    row_labels,
                    col_labels,
                    grids,
                }) => {
                    for (value, cells) in &grids {
                        maps.push(json!({ "svg": cgdl::runtime::svg::heat_map(
                            &query,
                            (&vars.0, &vars.1),
                            &row_labels,
                            &col_labels,
                            value,
                            cells,
                        ) }));
                    }
                }
                Ok(_) => {}
                Err(e) => maps.push(json!({ "error": e.to_string() })),
            }
        }
        json!({ "tables": maps })
    }

    /// Moves to option `i` of the position shown (the moves after it are forgotten).
    pub fn play(&mut self, i: usize) -> Result<(), Failure> {
        let options = self.options()?;
        let Some((o, _)) = options.into_iter().nth(i) else {
            return Err(format!("there is no option {i}"));
        };
        self.push(o);
        Ok(())
    }

    /// Moves to `o`, dropping the moves ahead of the one shown.
    fn push(&mut self, o: Expr<u32>) {
        self.line.truncate(self.at + 1);
        self.line.push(o);
        self.at += 1;
    }

    /// The perfect opponent's move: a winning one where there is one, else the first.
    pub fn reply(&mut self) -> Result<(), Failure> {
        let options = self.options()?;
        let side = self.side();
        let mut choice = 0;
        for (i, (o, _)) in options.iter().enumerate() {
            if self.value(o, side)?.1 {
                choice = i;
                break;
            }
        }
        match options.into_iter().nth(choice) {
            Some((o, _)) => {
                self.push(o);
                Ok(())
            }
            None => Err("the game is over: no move".to_string()),
        }
    }

    /// One move back.
    pub fn back(&mut self) {
        self.at = self.at.saturating_sub(1);
    }

    /// One move forward again.
    pub fn forward(&mut self) {
        if self.at + 1 < self.line.len() {
            self.at += 1;
        }
    }

    /// Back to the start.
    pub fn restart(&mut self) {
        self.at = 0;
    }
}

/// Serves the explorer on `127.0.0.1:port` (0: a free port), printing its address, until
/// the process is stopped.
pub fn serve(explorer: &mut Explorer<'_>, port: u16) -> Result<(), String> {
    let server = tiny_http::Server::http(("127.0.0.1", port)).map_err(|e| e.to_string())?;
    let address = server
        .server_addr()
        .to_ip()
        .map(|a| a.to_string())
        .unwrap_or_else(|| format!("127.0.0.1:{port}"));
    println!("cgdl explore: http://{address}/ (Ctrl-C stops)");
    let _ = std::io::Write::flush(&mut std::io::stdout());
    for request in server.incoming_requests() {
        let url = request.url().to_string();
        let (path, query) = url.split_once('?').unwrap_or((&url, ""));
        let post = *request.method() == tiny_http::Method::Post;
        let answer = match (post, path) {
            (false, "/") => Answer::Page,
            (false, "/state") => Answer::State(Ok(())),
            (false, "/tables") => Answer::Json(explorer.tables()),
            (true, "/move") => {
                let i = query
                    .split('&')
                    .find_map(|kv| kv.strip_prefix("i="))
                    .and_then(|i| i.parse().ok());
                Answer::State(match i {
                    Some(i) => explorer.play(i),
                    None => Err("a move needs i=K".to_string()),
                })
            }
            (true, "/reply") => Answer::State(explorer.reply()),
            (true, "/back") => {
                explorer.back();
                Answer::State(Ok(()))
            }
            (true, "/forward") => {
                explorer.forward();
                Answer::State(Ok(()))
            }
            (true, "/restart") => {
                explorer.restart();
                Answer::State(Ok(()))
            }
            _ => Answer::NotFound,
        };
        let response = match answer {
            Answer::Page => tiny_http::Response::from_string(PAGE).with_header(header("text/html")),
            Answer::State(done) => {
                let mut state = explorer.state();
                if let (Err(e), Some(map)) = (done, state.as_object_mut()) {
                    map.insert("error".to_string(), json!(e));
                }
                tiny_http::Response::from_string(state.to_string())
                    .with_header(header("application/json"))
            }
            Answer::Json(value) => tiny_http::Response::from_string(value.to_string())
                .with_header(header("application/json")),
            Answer::NotFound => tiny_http::Response::from_string("not found").with_status_code(404),
        };
        // A page that went away before its answer is no reason to stop.
        let _ = request.respond(response);
    }
    Ok(())
}

enum Answer {
    Page,
    State(Result<(), Failure>),
    Json(Json),
    NotFound,
}

fn header(content_type: &str) -> tiny_http::Header {
    tiny_http::Header::from_bytes("Content-Type", format!("{content_type}; charset=utf-8"))
        .expect("a valid header")
}

/// The position drawn as SVG: a set of cells `(r, c)` as a board, a set of lines `H(r, c)`
/// and `V(r, c)` as dots and boxes, a heap as a row of tokens, a sum part by part, and
/// anything else as its text.
pub fn picture(program: &Program, interp: &Interpreter<'_>, expr: &Expr<u32>) -> String {
    let mut parts = Vec::new();
    collect_parts(expr, &mut parts);
    let mut x = 10.0;
    let mut body = String::new();
    let mut height: f64 = 40.0;
    for part in parts {
        let (w, h, svg) = match part {
            Expr::Pos(id) => draw_position(program, interp, *id),
            _ => text_box("end"),
        };
        let _ = write!(body, "<g transform=\"translate({x},10)\">{svg}</g>");
        x += w + 20.0;
        height = height.max(h + 20.0);
    }
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{x}\" height=\"{height}\" \
         class=\"picture\">{body}</svg>"
    )
}

fn collect_parts<'e>(expr: &'e Expr<u32>, out: &mut Vec<&'e Expr<u32>>) {
    match expr {
        Expr::Compound(_, parts) => parts.iter().for_each(|p| collect_parts(p, out)),
        other => out.push(other),
    }
}

/// Width, height and SVG of one position.
fn draw_position(program: &Program, interp: &Interpreter<'_>, id: u32) -> (f64, f64, String) {
    let (game, fields) = interp.position_as_written(id);
    let decl = &program.games[game];
    let text = {
        let mut s = String::new();
        let _ = cgdl::runtime::Rules::write_pos(interp, id, &mut s);
        s
    };
    // What the game's `draw` declares, else the first field that has a picture.
    if let Some(draw) = decl.draw {
        let declared = draw
            .field
            .and_then(|i| draw_field(program, &decl.fields[i].ty, &fields[i]));
        return declared.unwrap_or_else(|| text_box(&text));
    }
    for (field, value) in decl.fields.iter().zip(fields.iter()) {
        if let Some(drawn) = draw_field(program, &field.ty, value) {
            return drawn;
        }
    }
    text_box(&text)
}

const CELL: f64 = 28.0;

fn draw_field(program: &Program, ty: &FieldTy, value: &Val) -> Option<(f64, f64, String)> {
    match (ty, value) {
        (FieldTy::Nat | FieldTy::Range(..), Val::Int(n)) if (0..=60).contains(n) => {
            let mut svg = String::new();
            for i in 0..*n {
                let _ = write!(
                    svg,
                    "<circle class=\"token\" cx=\"{}\" cy=\"12\" r=\"9\" fill=\"#c0392b\"/>",
                    12.0 + 22.0 * i as f64
                );
            }
            Some(((22.0 * *n as f64).max(24.0), 24.0, svg))
        }
        (FieldTy::Set(elem), Val::Set(items)) => match elem.as_ref() {
            FieldTy::Tuple(parts) if parts.len() == 2 => {
                let bounds = |t: &FieldTy| match t {
                    FieldTy::Range(lo, hi) if *lo >= 0 && *hi < 64 => Some(*hi + 1),
                    _ => None,
                };
                let (rows, cols) = (bounds(&parts[0])?, bounds(&parts[1])?);
                Some(board(rows, cols, items.iter()))
            }
            FieldTy::Union(u) => dots(program, u.id, items.iter()),
            _ => None,
        },
        _ => None,
    }
}

/// A board of `rows × cols` cells, the cells in `items` light and the others dark.
fn board<'v>(rows: i64, cols: i64, items: impl IntoIterator<Item = &'v Val>) -> (f64, f64, String) {
    let on: std::collections::HashSet<(i64, i64)> = items
        .into_iter()
        .filter_map(|v| match v {
            Val::Tuple(p) => match (p.first(), p.get(1)) {
                (Some(Val::Int(r)), Some(Val::Int(c))) => Some((*r, *c)),
                _ => None,
            },
            _ => None,
        })
        .collect();
    let mut svg = String::new();
    for r in 0..rows {
        for c in 0..cols {
            let fill = if on.contains(&(r, c)) {
                "#f4e4bc"
            } else {
                "#5d4037"
            };
            let _ = write!(
                svg,
                "<rect class=\"cell\" x=\"{}\" y=\"{}\" width=\"{CELL}\" height=\"{CELL}\" \
                 fill=\"{fill}\" stroke=\"#333\"/>",
                c as f64 * CELL,
                r as f64 * CELL
            );
        }
    }
    (cols as f64 * CELL, rows as f64 * CELL, svg)
}

/// Lines `H(r, c)` (from dot (r, c) to (r, c + 1)) and `V(r, c)` (to (r + 1, c)) as dots
/// and boxes.
fn dots<'v>(
    program: &Program,
    union: usize,
    items: impl IntoIterator<Item = &'v Val>,
) -> Option<(f64, f64, String)> {
    let ty = &program.types[union];
    let names: Vec<&str> = ty.variants.iter().map(|v| v.name.as_ref()).collect();
    let (h, v) = (
        names.iter().position(|n| *n == "H")?,
        names.iter().position(|n| *n == "V")?,
    );
    // The board: dots (0..=R, 0..=C) where `H(0..=R, 0..C)`, else as far as lines reach.
    let upper = |t: &FieldTy| match t {
        FieldTy::Range(lo, hi) if *lo >= 0 && *hi < 64 => Some(*hi),
        _ => None,
    };
    let declared = match ty.variants[h].fields.as_slice() {
        [r, c] => upper(r).zip(upper(c)).map(|(r, c)| (r + 1, c + 2)),
        _ => None,
    };
    let mut lines = Vec::new();
    let (mut rows, mut cols) = declared.unwrap_or((1, 1));
    for item in items {
        let Val::Tag(t) = item else { return None };
        let (Some(Val::Int(r)), Some(Val::Int(c))) = (t.fields.first(), t.fields.get(1)) else {
            return None;
        };
        let horizontal = if t.variant == h {
            true
        } else if t.variant == v {
            false
        } else {
            return None;
        };
        rows = rows.max(r + 1 + i64::from(!horizontal));
        cols = cols.max(c + 1 + i64::from(horizontal));
        lines.push((horizontal, *r, *c));
    }
    let mut svg = String::new();
    for (horizontal, r, c) in &lines {
        let (x1, y1) = (*c as f64 * CELL + 6.0, *r as f64 * CELL + 6.0);
        let (x2, y2) = match horizontal {
            true => (x1 + CELL, y1),
            false => (x1, y1 + CELL),
        };
        let _ = write!(
            svg,
            "<line class=\"line\" x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"#1f4e79\" stroke-width=\"4\"/>"
        );
    }
    for r in 0..rows {
        for c in 0..cols {
            let _ = write!(
                svg,
                "<circle class=\"dot\" cx=\"{}\" cy=\"{}\" r=\"4\" fill=\"#222\"/>",
                c as f64 * CELL + 6.0,
                r as f64 * CELL + 6.0
            );
        }
    }
    Some((
        (cols - 1) as f64 * CELL + 12.0,
        (rows - 1) as f64 * CELL + 12.0,
        svg,
    ))
}

fn text_box(text: &str) -> (f64, f64, String) {
    let escaped = text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let width = 9.0 * text.chars().count() as f64 + 10.0;
    (
        width,
        24.0,
        format!("<text class=\"text\" x=\"0\" y=\"18\" font-family=\"monospace\" font-size=\"15\">{escaped}</text>"),
    )
}
