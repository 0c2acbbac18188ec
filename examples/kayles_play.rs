//! Play Kayles against a perfect opponent on the terminal.
//!
//! ```text
//! cargo run -p cgdl --example kayles_play -- [PINS] [--computer-first]
//! ```
//!
//! A row of pins stands; on your turn knock down one pin, or two pins standing next to each
//! other. Whoever knocks down the last pin wins. The rules are the `.cgdl` text below; the
//! program only draws the row and reads your moves.

use std::io::{BufRead, Write};

cgdl::game! {
    // Kayles (Zielonka §7): knock down one pin or two adjacent pins; the row may split.
    game Kayles(n: nat) {
        move knock(k in 1..=2, k <= n, left in 0..=(n - k) / 2) =>
            Kayles(left) + Kayles(n - k - left)
    }
}

/// The row: `true` where a pin stands.
struct Row(Vec<bool>);

impl Row {
    /// The lengths of the runs of standing pins: the Kayles heaps.
    fn heaps(&self) -> Vec<i64> {
        self.0
            .split(|standing| !standing)
            .map(|run| run.len() as i64)
            .filter(|&n| n > 0)
            .collect()
    }

    /// The position as a sum of Kayles heaps.
    fn game(&self) -> cgdl::runtime::Expr<Pos> {
        cgdl::runtime::sum(self.heaps().into_iter().map(|n| Kayles::new(n).into()))
    }

    /// Every legal move: one standing pin, or two standing neighbours (0-based).
    fn moves(&self) -> Vec<Vec<usize>> {
        let pins = &self.0;
        let mut moves = Vec::new();
        for i in 0..pins.len() {
            if pins[i] {
                moves.push(vec![i]);
                if i + 1 < pins.len() && pins[i + 1] {
                    moves.push(vec![i, i + 1]);
                }
            }
        }
        moves
    }

    fn after(&self, knocked: &[usize]) -> Row {
        let mut pins = self.0.clone();
        for &i in knocked {
            pins[i] = false;
        }
        Row(pins)
    }

    fn draw(&self) -> String {
        let pins: String = self
            .0
            .iter()
            .map(|&s| if s { " I" } else { " ." })
            .collect();
        let numbers: String = (1..=self.0.len())
            .map(|i| format!("{:>2}", i % 100))
            .collect();
        format!("{pins}\n{numbers}")
    }
}

/// Sorted non-empty heap sizes of a position expression's leaves.
fn heap_sizes(game: &cgdl::runtime::Expr<Pos>) -> Vec<i64> {
    let mut sizes: Vec<i64> = game
        .leaves()
        .into_iter()
        .filter_map(|pos| Kayles::from_pos(*pos))
        .map(Kayles::n)
        .filter(|&n| n > 0)
        .collect();
    sizes.sort_unstable();
    sizes
}

/// The computer's move: one that leaves a P-position when there is one (the solver's
/// winning moves, matched back to pins), else knocking down the first standing pin.
fn computer_move(
    solver: &mut cgdl::runtime::Solver<'static, Universe>,
    row: &Row,
) -> Result<Vec<usize>, cgdl::runtime::SolveError> {
    let moves = row.moves();
    let wins = solver.winning_moves(row.game())?;
    for win in &wins {
        let target = heap_sizes(win);
        for m in &moves {
            let mut sizes = row.after(m).heaps();
            sizes.sort_unstable();
            if sizes == target {
                return Ok(m.clone());
            }
        }
    }
    Ok(moves[0].clone())
}

/// Reads the person's move: one pin number, or two neighbouring pin numbers.
fn read_move(
    lines: &mut impl Iterator<Item = std::io::Result<String>>,
    row: &Row,
) -> Option<Vec<usize>> {
    loop {
        print!("your move (a pin, or two neighbouring pins): ");
        std::io::stdout().flush().ok()?;
        let line = lines.next()?.ok()?;
        let numbers: Result<Vec<usize>, _> =
            line.split_whitespace().map(str::parse::<usize>).collect();
        let mut pins = match numbers {
            Ok(n) if (1..=2).contains(&n.len()) => n,
            _ => {
                println!("type one or two pin numbers, e.g. `4` or `4 5`");
                continue;
            }
        };
        pins.sort_unstable();
        let knocked: Vec<usize> = pins.iter().map(|p| p.wrapping_sub(1)).collect();
        if row.moves().contains(&knocked) {
            return Some(knocked);
        }
        println!("not a legal move: pins must be standing, and two pins must be neighbours");
    }
}

fn main() {
    let mut pins = 13usize;
    let mut computer_turn = false;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--computer-first" => computer_turn = true,
            n => match n.parse::<usize>() {
                Ok(n) if (1..=60).contains(&n) => pins = n,
                _ => {
                    eprintln!("usage: kayles_play [PINS (1..=60)] [--computer-first]");
                    std::process::exit(2);
                }
            },
        }
    }
    let mut solver = solver();
    let mut row = Row(vec![true; pins]);
    let mut lines = std::io::stdin().lock().lines();
    println!("Kayles: knock down one pin or two neighbouring pins; the last pin wins.");
    loop {
        println!("\n{}", row.draw());
        if row.moves().is_empty() {
            // The player to move has no move: the previous player knocked the last pin.
            println!(
                "{}",
                if computer_turn {
                    "You knocked down the last pin: you win!"
                } else {
                    "I knocked down the last pin: I win."
                }
            );
            return;
        }
        if computer_turn {
            let knocked = match computer_move(&mut solver, &row) {
                Ok(m) => m,
                Err(e) => {
                    eprintln!("error: {e}");
                    std::process::exit(1);
                }
            };
            let shown: Vec<String> = knocked.iter().map(|i| (i + 1).to_string()).collect();
            println!("I knock down {}.", shown.join(" and "));
            row = row.after(&knocked);
        } else {
            match read_move(&mut lines, &row) {
                Some(knocked) => row = row.after(&knocked),
                None => {
                    println!("\nbye");
                    return;
                }
            }
        }
        computer_turn = !computer_turn;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether the player to move wins on the row `mask` of `width` pins, by the definition
    /// (some move leaves a losing row), without the solver.
    fn wins(mask: u32, width: usize, memo: &mut Vec<Option<bool>>) -> bool {
        if let Some(w) = memo[mask as usize] {
            return w;
        }
        let mut result = false;
        for i in 0..width {
            if mask >> i & 1 == 1 {
                let one = mask & !(1 << i);
                let two =
                    (i + 1 < width && mask >> (i + 1) & 1 == 1).then(|| one & !(1 << (i + 1)));
                if !wins(one, width, memo) || two.is_some_and(|t| !wins(t, width, memo)) {
                    result = true;
                    break;
                }
            }
        }
        memo[mask as usize] = Some(result);
        result
    }

    fn row_of(mask: u32, width: usize) -> Row {
        Row((0..width).map(|i| mask >> i & 1 == 1).collect())
    }

    fn mask_of(row: &Row) -> u32 {
        row.0
            .iter()
            .enumerate()
            .map(|(i, &s)| (s as u32) << i)
            .sum()
    }

    /// From every winning row of up to 10 pins, the computer's move leaves a losing row.
    #[test]
    fn computer_moves_to_a_losing_row_whenever_it_can() {
        let mut solver = solver();
        for width in 1..=10 {
            let mut memo = vec![None; 1 << width];
            for mask in 1u32..(1 << width) {
                if !wins(mask, width, &mut memo) {
                    continue;
                }
                let row = row_of(mask, width);
                let knocked = computer_move(&mut solver, &row).expect("solves");
                let after = mask_of(&row.after(&knocked));
                assert!(!wins(after, width, &mut memo), "row {mask:b}: {knocked:?}");
            }
        }
    }

    /// Moving first on 1 to 8 pins (all first-player wins), the computer beats every
    /// sequence of replies.
    #[test]
    fn computer_beats_every_strategy() {
        fn computer_to_move(
            solver: &mut cgdl::runtime::Solver<'static, Universe>,
            row: &Row,
        ) -> bool {
            if row.moves().is_empty() {
                return false;
            }
            let knocked = computer_move(solver, row).expect("solves");
            let row = row.after(&knocked);
            row.moves()
                .iter()
                .all(|m| computer_to_move(solver, &row.after(m)))
        }
        let mut solver = solver();
        for pins in 1..=8 {
            assert!(
                computer_to_move(&mut solver, &Row(vec![true; pins])),
                "{pins} pins"
            );
        }
    }
}
