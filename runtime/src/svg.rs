//! Heat maps of two-name tables (`cgdl run FILE --svg DIR`, feature `svg`): one picture
//! per value of a grid query, as in Lenhardt's figures: a cell per position, coloured by
//! its value and labelled with it, the axes named after the query's free names, and a
//! legend of the colours.

use crate::report::{cell_text, Answer};
use std::path::{Path, PathBuf};
use svg::node::element::{Group, Rectangle, Text, Title};
use svg::Document;

/// A cell's side, in pixels.
const CELL: u32 = 30;
/// Room for the row name and labels on the left.
const LEFT: u32 = 70;
/// Room for the title and the column name and labels above.
const TOP: u32 = 80;
/// The legend's width, right of the grid.
const LEGEND: u32 = 150;
/// The most legend entries: past it, every k-th value is shown.
const LEGEND_ROWS: usize = 24;

/// Viridis, sampled: dark purple (the smallest value) through green to yellow.
const STOPS: [(u8, u8, u8); 6] = [
    (68, 1, 84),
    (65, 68, 135),
    (42, 120, 142),
    (34, 168, 132),
    (122, 209, 81),
    (253, 231, 37),
];

/// The colour of value number `i` of `n` (in order), and whether text on it should be
/// white.
fn colour(i: usize, n: usize) -> (String, bool) {
    let t = if n <= 1 {
        0.0
    } else {
        i as f64 / (n - 1) as f64
    };
    let x = t * (STOPS.len() - 1) as f64;
    let k = (x.floor() as usize).min(STOPS.len() - 2);
    let f = x - k as f64;
    let mix = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * f).round() as u8;
    let (a, b) = (STOPS[k], STOPS[k + 1]);
    let (r, g, bl) = (mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2));
    let luminance = 0.299 * r as f64 + 0.587 * g as f64 + 0.114 * bl as f64;
    (format!("#{r:02x}{g:02x}{bl:02x}"), luminance < 140.0)
}

/// The order of the values in a picture: numbers by size, then the rest (`P`, `N`, `SL`,
/// `SW`) by text.
fn order(texts: &[String]) -> Vec<String> {
    let mut distinct: Vec<String> = texts.to_vec();
    distinct.sort_by(|a, b| match (a.parse::<i64>(), b.parse::<i64>()) {
        (Ok(x), Ok(y)) => x.cmp(&y),
        (Ok(_), Err(_)) => std::cmp::Ordering::Greater,
        (Err(_), Ok(_)) => std::cmp::Ordering::Less,
        (Err(_), Err(_)) => a.cmp(b),
    });
    distinct.dedup();
    distinct
}

fn text(x: u32, y: u32, content: &str) -> Text {
    Text::new(content)
        .set("x", x)
        .set("y", y)
        .set("text-anchor", "middle")
        .set("dominant-baseline", "central")
}

/// The heat map of one value (`value`, with its cells row by row) of a two-name table.
pub fn heat_map(
    query: &str,
    vars: (&str, &str),
    row_labels: &[String],
    col_labels: &[String],
    value: &str,
    cells: &[Vec<serde_json::Value>],
) -> String {
    // A row whose columns depend on it has no cell (`null`) in the others.
    let texts: Vec<Vec<Option<String>>> = cells
        .iter()
        .map(|row| {
            row.iter()
                .map(|v| (!v.is_null()).then(|| cell_text(v)))
                .collect()
        })
        .collect();
    let present: Vec<String> = texts.iter().flatten().flatten().cloned().collect();
    let values = order(&present);
    let index = |t: &str| values.iter().position(|v| v == t).unwrap_or(0);
    let (rows, cols) = (row_labels.len() as u32, col_labels.len() as u32);
    let legend_rows = values.len().min(LEGEND_ROWS) as u32;
    let width = LEFT + cols * CELL + LEGEND;
    let height = TOP + (rows * CELL).max(legend_rows * 22 + 30) + 20;
    let mut grid = Group::new().set("class", "cells");
    for (r, row) in texts.iter().enumerate() {
        for (c, t) in row.iter().enumerate() {
            let Some(t) = t else {
                continue;
            };
            let (fill, light_text) = colour(index(t), values.len());
            let (x, y) = (LEFT + c as u32 * CELL, TOP + r as u32 * CELL);
            let tip = format!(
                "{} = {}, {} = {}: {value} {t}",
                vars.0, row_labels[r], vars.1, col_labels[c]
            );
            grid = grid
                .add(
                    Rectangle::new()
                        .set("x", x)
                        .set("y", y)
                        .set("width", CELL)
                        .set("height", CELL)
                        .set("fill", fill)
                        .set("stroke", "#ffffff")
                        .add(Title::new(tip)),
                )
                .add(
                    text(x + CELL / 2, y + CELL / 2, t)
                        .set("fill", if light_text { "#ffffff" } else { "#000000" }),
                );
        }
    }
    let mut axes = Group::new()
        .set("class", "axes")
        .set("font-size", 12)
        .add(text(LEFT + cols * CELL / 2, TOP - 36, vars.1).set("font-weight", "bold"))
        .add(
            text(LEFT - 50, TOP + rows * CELL / 2, vars.0)
                .set("font-weight", "bold")
                .set(
                    "transform",
                    format!("rotate(-90 {} {})", LEFT - 50, TOP + rows * CELL / 2),
                ),
        );
    for (c, label) in col_labels.iter().enumerate() {
        axes = axes.add(text(LEFT + c as u32 * CELL + CELL / 2, TOP - 14, label));
    }
    for (r, label) in row_labels.iter().enumerate() {
        axes = axes.add(text(LEFT - 18, TOP + r as u32 * CELL + CELL / 2, label));
    }
    let mut legend = Group::new()
        .set("class", "legend")
        .add(text(LEFT + cols * CELL + 60, TOP - 14, value).set("font-weight", "bold"));
    let step = values.len().div_ceil(LEGEND_ROWS).max(1);
    for (k, v) in values.iter().enumerate().step_by(step) {
        let y = TOP + (k / step) as u32 * 22;
        let x = LEFT + cols * CELL + 30;
        let (fill, _) = colour(k, values.len());
        legend = legend
            .add(
                Rectangle::new()
                    .set("x", x)
                    .set("y", y)
                    .set("width", 18)
                    .set("height", 18)
                    .set("fill", fill),
            )
            .add(
                Text::new(v.as_str())
                    .set("x", x + 26)
                    .set("y", y + 9)
                    .set("dominant-baseline", "central"),
            );
    }
    let document = Document::new()
        .set("width", width)
        .set("height", height)
        .set("viewBox", (0, 0, width, height))
        .set("font-family", "sans-serif")
        .set("font-size", 11)
        .add(Title::new(query))
        .add(text(width / 2, 18, query).set("font-size", 13))
        .add(axes)
        .add(grid)
        .add(legend);
    format!("{document}\n")
}

/// Writes a heat map of each value of `answer` (if it is a two-name table, query number
/// `number` of its file) into `dir`, as `q{number}-{value}.svg`; returns the files written.
pub fn write_grid(dir: &Path, number: usize, answer: &Answer) -> Result<Vec<PathBuf>, String> {
    let Answer::Grid {
        query,
        vars,
        row_labels,
        col_labels,
        grids,
    } = answer
    else {
        return Ok(Vec::new());
    };
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let mut written = Vec::new();
    for (value, cells) in grids {
        let picture = heat_map(
            query,
            (&vars.0, &vars.1),
            row_labels,
            col_labels,
            value,
            cells,
        );
        let path = dir.join(format!("q{number}-{value}.svg"));
        std::fs::write(&path, picture)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        written.push(path);
    }
    Ok(written)
}

/// A thermograph drawn as Winning Ways draws it: temperature up, values with Left's
/// (positive) on the left; the left wall blue, the right wall red, the mast above the
/// temperature dashed, and the axes labelled.
pub fn thermograph(title: &str, th: &crate::partizan::Thermograph) -> String {
    let (left, right) = (th.left.corners(), th.right.corners());
    let temperature = th.temperature.to_f64();
    let top = temperature.max(0.0) + 1.5;
    let values = left.iter().chain(&right).map(|&(_, v)| v.to_f64());
    let (lo, hi) = values.fold((th.mast.to_f64(), th.mast.to_f64()), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    let (lo, hi) = (lo - 1.0, hi + 1.0);
    let (width, height, margin) = (360.0_f64, 260.0_f64, 40.0_f64);
    // Left's values on the left: x grows as the value falls.
    let x = |v: f64| margin + (hi - v) / (hi - lo) * (width - 2.0 * margin);
    let y = |t: f64| height - margin - (t + 1.0) / (top + 1.0) * (height - 2.0 * margin);
    // A wall is continuous and linear between its corners, the last at the temperature.
    let wall = |corners: &[(crate::partizan::Dyadic, crate::partizan::Dyadic)]| {
        (corners.iter())
            .map(|&(t, v)| format!("{:.1},{:.1}", x(v.to_f64()), y(t.to_f64())))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mast_x = x(th.mast.to_f64());
    let axis_y = y(0.0);
    let esc = |s: &str| {
        s.replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
    };
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" class=\"thermograph\">\
         <title>thermograph of {t}</title>\
         <text x=\"{cx}\" y=\"16\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"13\">thermograph: mean {mean}, temperature {temp}</text>\
         <line x1=\"{margin}\" y1=\"{axis_y:.1}\" x2=\"{xr}\" y2=\"{axis_y:.1}\" stroke=\"#999\"/>\
         <polyline class=\"left-wall\" points=\"{lw}\" fill=\"none\" stroke=\"#1f4e79\" stroke-width=\"2.5\"/>\
         <polyline class=\"right-wall\" points=\"{rw}\" fill=\"none\" stroke=\"#c0392b\" stroke-width=\"2.5\"/>\
         <line class=\"mast\" x1=\"{mast_x:.1}\" y1=\"{my:.1}\" x2=\"{mast_x:.1}\" y2=\"{mtop:.1}\" stroke=\"#555\" stroke-width=\"2\" stroke-dasharray=\"5,3\"/>\
         <text x=\"{mast_x:.1}\" y=\"{label_y:.1}\" text-anchor=\"middle\" font-family=\"sans-serif\" font-size=\"11\">{mean}</text>\
         </svg>",
        t = esc(title),
        cx = width / 2.0,
        mean = th.mast,
        temp = th.temperature,
        xr = width - margin,
        lw = wall(&left),
        rw = wall(&right),
        my = y(temperature),
        mtop = y(top),
        label_y = height - margin / 3.0,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_ordered_and_coloured_from_dark_to_light() {
        let texts = ["10", "2", "P", "2", "SL", "N"].map(String::from);
        assert_eq!(order(&texts), ["N", "P", "SL", "2", "10"]);
        assert_eq!(colour(0, 5), ("#440154".to_string(), true));
        assert_eq!(colour(4, 5), ("#fde725".to_string(), false));
        assert_eq!(colour(0, 1).0, "#440154");
    }
}
