// A game named like the generated position type: its Rust type is `Pos_` (issue 19: every
// name that `check` accepts builds).
cgdl::game! {
    game Pos(n: nat) {
        move take(k in 1..=n) => Pos(n - k)
    }
    game Fn(Ok: nat) {
        move m(k in 1..=Ok) => Fn(Ok - k)
    }
}

fn main() {
    let mut solver = solver();
    assert_eq!(solver.grundy(Pos_::new(3)).unwrap(), 3);
    assert_eq!(solver.grundy(Fn_::new(5) + Pos_::new(3)).unwrap(), 5 ^ 3);
    assert_eq!(Fn_::new(5).Ok(), 5);
}
