// Two games with one name.
cgdl::game! {
    game Nim(n: nat) {
        move take(k in 1..=n) => Nim(n - k)
    }
    game Nim(n: nat) {
        move take(k in 1..=2, k <= n) => Nim(n - k)
    }
}

fn main() {}
