// Kayles written inline: Grundy values, sums with `+`, compounds, winning moves.
cgdl::game! {
    // Knock down one pin or two adjacent pins; the row may split in two.
    game Kayles(n: nat) {
        move knock(k in 1..=2, k <= n, left in 0..=(n - k) / 2) =>
            Kayles(left) + Kayles(n - k - left)
    }
}

fn main() {
    let mut solver = solver();
    // Kayles' nim-sequence (Guy and Smith 1956; OEIS A002186).
    let expected = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7];
    for (n, g) in expected.iter().enumerate() {
        assert_eq!(solver.grundy(Kayles::new(n as i64)).unwrap(), *g, "Kayles({n})");
    }
    let game = Kayles::new(3) + Kayles::new(4);
    assert_eq!(solver.grundy(game.clone()).unwrap(), 3 ^ 1);
    assert_eq!(
        solver.outcome(Kayles::new(3) + Kayles::new(4) + Kayles::new(2)).unwrap(),
        cgdl::runtime::Outcome::P
    );
    let moves: Vec<String> = solver
        .winning_moves(&game)
        .unwrap()
        .iter()
        .map(|m| solver.display(m))
        .collect();
    assert_eq!(
        moves,
        [
            "Kayles(0) + Kayles(1) + Kayles(4)",
            "Kayles(0) + Kayles(3) + Kayles(3)",
            "Kayles(1) + Kayles(2) + Kayles(3)",
        ]
    );
    // A game, a reference to one, an `Expr` and a reference to one all work.
    let seven = Kayles::new(7);
    assert_eq!(solver.grundy(&seven).unwrap(), 2);
    assert_eq!(solver.grundy(seven).unwrap(), 2);
    assert_eq!(solver.grundy(&game).unwrap(), 3 ^ 1);
    // Winner takes it all: the fast rule (XOR of w-numbers) agrees with an exact search.
    let both = || cgdl::runtime::wtia([Kayles::new(2).into(), Kayles::new(5).into()]);
    let mut exact = cgdl::runtime::Solver::with_mode(&Universe, cgdl::runtime::Mode::Exact);
    assert_eq!(
        solver.wnumber(both()).unwrap(),
        exact.wnumber(both()).unwrap()
    );
    assert_eq!(Kayles::new(7).n(), 7);
    assert_eq!(Kayles::new(7).to_string(), "Kayles(7)");
    let err = Kayles::try_new(-1).unwrap_err();
    assert_eq!(err.to_string(), "field `n` of Kayles would be -1, outside its type nat");
}
