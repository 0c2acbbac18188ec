// A position given two field values where the game has one field.
cgdl::game! {
    game Nim(n: nat) {
        move take(k in 1..=n) => Nim(n - k, k)
    }
}

fn main() {}
