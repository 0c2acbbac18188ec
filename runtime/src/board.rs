//! Dots-and-boxes boards in a plain text format, and the extraction of simple loony
//! endgames from them (docs/LOONY.md).
//!
//! ```text
//! +--+--+
//! |     |
//! +  +--+
//! ```
//! Even lines are rows of dots `+` every three columns, with `--` for a drawn horizontal
//! line between two dots and blanks for an undrawn one. Odd lines hold `|` (drawn) or a
//! blank (undrawn) under each dot; the two characters between are the box's inside and are
//! ignored. Lines starting with `#` are comments; trailing blanks may be omitted.

use crate::loony::{Component, Endgame, LoonyError};

/// A board: which lines are drawn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// Rows of boxes.
    pub rows: usize,
    /// Columns of boxes.
    pub cols: usize,
    /// `horizontal[r][c]`: the line from dot (r, c) to dot (r, c + 1); r in 0..=rows.
    pub horizontal: Vec<Vec<bool>>,
    /// `vertical[r][c]`: the line from dot (r, c) to dot (r + 1, c); c in 0..=cols.
    pub vertical: Vec<Vec<bool>>,
}

fn err(line: usize, col: usize, msg: impl std::fmt::Display) -> LoonyError {
    LoonyError(format!("board line {line}, column {col}: {msg}"))
}

impl std::str::FromStr for Board {
    type Err = LoonyError;

    fn from_str(text: &str) -> Result<Board, LoonyError> {
        // Keep (line number, text) of the non-comment lines, without trailing blank lines.
        let mut lines: Vec<(usize, Vec<char>)> = text
            .lines()
            .enumerate()
            .filter(|(_, l)| !l.trim_start().starts_with('#'))
            .map(|(i, l)| (i + 1, l.trim_end().chars().collect()))
            .collect();
        while lines.first().is_some_and(|(_, l)| l.is_empty()) {
            lines.remove(0);
        }
        while lines.last().is_some_and(|(_, l)| l.is_empty()) {
            lines.pop();
        }
        if lines.len() < 3 || lines.len().is_multiple_of(2) {
            return Err(LoonyError(
                "a board needs rows of dots alternating with rows of boxes, starting and ending with dots (at least 2 rows of dots)".into(),
            ));
        }
        let (first_no, first) = &lines[0];
        let dots = first.iter().filter(|&&c| c == '+').count();
        if dots < 2 {
            return Err(err(*first_no, 1, "a row of dots needs at least two `+`"));
        }
        let cols = dots - 1;
        let width = 3 * cols + 1;
        let rows = lines.len() / 2;
        let mut horizontal = vec![vec![false; cols]; rows + 1];
        let mut vertical = vec![vec![false; cols + 1]; rows];
        for (k, (no, line)) in lines.iter().enumerate() {
            if line.len() > width {
                return Err(err(*no, width + 1, "text beyond the last dot"));
            }
            let at = |i: usize| line.get(i).copied().unwrap_or(' ');
            if k % 2 == 0 {
                for c in 0..=cols {
                    if at(3 * c) != '+' {
                        return Err(err(
                            *no,
                            3 * c + 1,
                            format!("expected a dot `+`, found `{}`", at(3 * c)),
                        ));
                    }
                }
                for (c, drawn) in horizontal[k / 2].iter_mut().enumerate() {
                    *drawn = match [at(3 * c + 1), at(3 * c + 2)] {
                        [' ', ' '] => false,
                        ['-', '-'] | ['-', ' '] | [' ', '-'] => true,
                        _ => {
                            return Err(err(
                                *no,
                                3 * c + 2,
                                "between two dots write `--` (drawn) or two blanks (undrawn)",
                            ))
                        }
                    };
                }
            } else {
                for (c, line_drawn) in vertical[k / 2].iter_mut().enumerate() {
                    *line_drawn = match at(3 * c) {
                        '|' => true,
                        ' ' => false,
                        other => {
                            return Err(err(
                                *no,
                                3 * c + 1,
                                format!("expected `|` or a blank under a dot, found `{other}`"),
                            ))
                        }
                    };
                }
            }
        }
        Ok(Board {
            rows,
            cols,
            horizontal,
            vertical,
        })
    }
}

/// Where an undrawn side of a box leads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    Ground,
    Box(usize, usize),
}

impl Board {
    fn sides_drawn(&self, r: usize, c: usize) -> usize {
        [
            self.horizontal[r][c],
            self.horizontal[r + 1][c],
            self.vertical[r][c],
            self.vertical[r][c + 1],
        ]
        .iter()
        .filter(|&&d| d)
        .count()
    }

    /// The places the undrawn sides of box (r, c) lead to.
    fn exits(&self, r: usize, c: usize) -> Vec<Next> {
        let mut out = Vec::new();
        let mut side = |drawn: bool, inside: bool, to: (usize, usize)| {
            if !drawn {
                out.push(if inside {
                    Next::Box(to.0, to.1)
                } else {
                    Next::Ground
                });
            }
        };
        side(self.horizontal[r][c], r > 0, (r.wrapping_sub(1), c));
        side(self.horizontal[r + 1][c], r + 1 < self.rows, (r + 1, c));
        side(self.vertical[r][c], c > 0, (r, c.wrapping_sub(1)));
        side(self.vertical[r][c + 1], c + 1 < self.cols, (r, c + 1));
        out
    }

    /// The chains and loops of the position, when it is a simple loony endgame: every box
    /// not yet taken has exactly two sides drawn, chains have at least 3 boxes. Otherwise
    /// every reason why not (boxes are named by row and column, from 1).
    pub fn endgame(&self) -> Result<Endgame, Vec<String>> {
        let mut problems = Vec::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                match self.sides_drawn(r, c) {
                    3 => problems.push(format!(
                        "box ({}, {}) has three sides drawn: it can be captured now",
                        r + 1,
                        c + 1
                    )),
                    d @ (0 | 1) => problems.push(format!(
                        "box ({}, {}) has only {d} side{} drawn: it is part of a branching region, not a chain or loop",
                        r + 1,
                        c + 1,
                        if d == 1 { "" } else { "s" }
                    )),
                    _ => {}
                }
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        let mut seen = vec![vec![false; self.cols]; self.rows];
        let mut components = Vec::new();
        for r in 0..self.rows {
            for c in 0..self.cols {
                if seen[r][c] || self.sides_drawn(r, c) == 4 {
                    continue;
                }
                seen[r][c] = true;
                let mut boxes = vec![(r, c)];
                let mut ends_at_ground = 0;
                // Walk out of each of the two exits.
                for first in self.exits(r, c) {
                    let (mut prev, mut next) = ((r, c), first);
                    while let Next::Box(nr, nc) = next {
                        if (nr, nc) == (r, c) {
                            break; // back at the start: a loop
                        }
                        if seen[nr][nc] {
                            break;
                        }
                        seen[nr][nc] = true;
                        boxes.push((nr, nc));
                        let step = self
                            .exits(nr, nc)
                            .into_iter()
                            .find(|e| *e != Next::Box(prev.0, prev.1))
                            .unwrap_or(Next::Ground);
                        prev = (nr, nc);
                        next = step;
                    }
                    if next == Next::Ground {
                        ends_at_ground += 1;
                    }
                }
                let n = boxes.len() as u32;
                if ends_at_ground == 0 {
                    components.push(Component::Loop(n));
                } else if n < 3 {
                    let names: Vec<String> = boxes
                        .iter()
                        .map(|(r, c)| format!("({}, {})", r + 1, c + 1))
                        .collect();
                    problems.push(format!(
                        "a chain of {n} box{} at {}: chains shorter than 3 are not part of a simple loony endgame",
                        if n == 1 { "" } else { "es" },
                        names.join(", ")
                    ));
                } else {
                    components.push(Component::Chain(n));
                }
            }
        }
        if !problems.is_empty() {
            return Err(problems);
        }
        Endgame::from_components(components).map_err(|e| vec![e.0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_board() {
        let text = include_str!("../../examples/loony_board.txt");
        let board: Board = text.parse().expect("valid board");
        assert_eq!((board.rows, board.cols), (4, 5));
        assert_eq!(board.endgame().expect("loony").to_string(), "3 7 L4 L6");
    }

    #[test]
    fn reasons_for_not_loony() {
        let capturable = "+--+--+\n|  |  |\n+--+  +\n";
        let b: Board = capturable.parse().expect("valid");
        let why = b.endgame().unwrap_err();
        assert_eq!(
            why,
            ["box (1, 2) has three sides drawn: it can be captured now"]
        );
        let open = "+  +  +\n      \n+  +  +\n";
        let why = open.parse::<Board>().expect("valid").endgame().unwrap_err();
        assert!(why[0].contains("branching region"), "{why:?}");
        let short = "+--+--+\n\n+--+--+\n";
        let why = short
            .parse::<Board>()
            .expect("valid")
            .endgame()
            .unwrap_err();
        assert!(
            why[0].contains("a chain of 2 boxes at (1, 1), (1, 2)"),
            "{why:?}"
        );
    }

    #[test]
    fn malformed_boards() {
        for bad in [
            "",
            "+--+\n",
            "+--+\n|  |\n",
            "+--+\n|  |\n+-x+\n",
            "+--+\n|  X\n+--+\n",
            "+--x\n|  |\n+--+\n",
        ] {
            assert!(bad.parse::<Board>().is_err(), "{bad:?}");
        }
    }
}
