//! Prints the tables of All the King's horses (Lenhardt §3.4, §3.5, §5.3) from
//! `examples/kings_horses.cgdl`, through the typed API that `include_game!` generates.
//!
//! ```text
//! cargo run -p cgdl --example kings_horses_tables
//! ```

use cgdl::runtime::{conjunctive, continued, wtia, Expr, SolveError};

mod horses {
    cgdl::include_game!("../examples/kings_horses.cgdl");
}

use horses::{solver, Horse, Pos};

/// One value of every square as text: row `r` down, column `c` across.
type Grid = Vec<Vec<String>>;

fn grid(cell: &mut dyn FnMut(Horse) -> Result<String, SolveError>) -> Result<Grid, SolveError> {
    (0..8)
        .map(|r| (0..8).map(|c| cell(Horse::new(r, c))).collect())
        .collect()
}

/// Figures 4, 5, 6 and 9 of Lenhardt: outcome, remoteness, suspense, w-numbers.
fn figures() -> Result<Vec<(&'static str, Grid)>, SolveError> {
    let mut s = solver();
    Ok(vec![
        (
            "Figure 4: outcome (P: the player to move loses)",
            grid(&mut |h| Ok(format!("{:?}", s.outcome(h)?)))?,
        ),
        (
            "Figure 5: remoteness",
            grid(&mut |h| Ok(s.remoteness(h)?.to_string()))?,
        ),
        (
            "Figure 6: suspense",
            grid(&mut |h| Ok(s.suspense(h)?.to_string()))?,
        ),
        (
            "Figure 9: w-numbers",
            grid(&mut |h| Ok(s.wnumber(h)?.to_string()))?,
        ),
    ])
}

fn print_grid(title: &str, grid: &Grid) {
    println!("{title}");
    print!("r\\c");
    for c in 0..8 {
        print!("{c:>4}");
    }
    println!();
    for (r, row) in grid.iter().enumerate() {
        print!("{r:>3}");
        for cell in row {
            print!("{cell:>4}");
        }
        println!();
    }
    println!();
}

fn main() -> Result<(), SolveError> {
    for (title, grid) in figures()? {
        print_grid(title, &grid);
    }
    let mut s = solver();
    let three = || -> [Expr<Pos>; 3] {
        [
            Horse::new(7, 7).into(),
            Horse::new(3, 4).into(),
            Horse::new(5, 2).into(),
        ]
    };
    let all = conjunctive(three());
    println!(
        "{}: outcome {:?}, remoteness {}",
        s.display(&all),
        s.outcome(&all)?,
        s.remoteness(&all)?
    );
    let each = continued(three());
    println!(
        "{}: outcome {:?}, suspense {}",
        s.display(&each),
        s.outcome(&each)?,
        s.suspense(&each)?
    );
    let race = wtia(three());
    let moves: Vec<String> = s
        .winning_moves(&race)?
        .iter()
        .map(|m| s.display(m))
        .collect();
    println!(
        "{}: outcome {:?}, w-number {}, winning moves {}",
        s.display(&race),
        s.outcome(&race)?,
        s.wnumber(&race)?,
        if moves.is_empty() {
            "none".to_string()
        } else {
            moves.join("; ")
        }
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    /// The four figures agree with the tables transcribed from the paper.
    #[test]
    fn figures_match_lenhardt() {
        let seeds: serde_json::Value =
            serde_json::from_str(include_str!("../tests/data/seed_tables.json"))
                .expect("seed tables parse");
        let keys = [
            "lenhardt_fig4_horses_outcome",
            "lenhardt_fig5_horses_remoteness",
            "lenhardt_fig6_horses_suspense",
            "lenhardt_fig9_horses_wnumber",
        ];
        let figures = super::figures().expect("the horses solve");
        for (key, (title, grid)) in keys.iter().zip(&figures) {
            let want: Vec<Vec<String>> = seeds[key]
                .as_array()
                .expect("a table")
                .iter()
                .map(|row| {
                    row.as_array()
                        .expect("a row")
                        .iter()
                        .map(|v| v.as_str().map(str::to_string).unwrap_or(v.to_string()))
                        .collect()
                })
                .collect();
            assert_eq!(grid, &want, "{title}");
        }
    }
}
