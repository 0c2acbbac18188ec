// A move binder that reuses a field's name.
cgdl::game! {
    game Nim(n: nat) {
        move take(n in 1..=3) => Nim(n - 1)
    }
}

fn main() {}
