// A game named like the generated position type.
cgdl::game! {
    game Pos(n: nat) {
        move take(k in 1..=n) => Pos(n - k)
    }
}

fn main() {}
