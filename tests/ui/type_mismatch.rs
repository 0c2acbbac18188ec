// A bool where a nat field is expected.
cgdl::game! {
    game Nim(n: nat) {
        move take(k in 1..=n) => Nim(n - k)
    }
    value grundy of Nim(true)
}

fn main() {}
