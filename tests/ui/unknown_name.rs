// A name that is neither a field nor a binder.
cgdl::game! {
    game Nim(n: nat) {
        move take(k in 1..=m) => Nim(n - k)
    }
}

fn main() {}
