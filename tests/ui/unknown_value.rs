// A query for a value the language does not have.
cgdl::game! {
    game Nim(n: nat) {
        move take(k in 1..=n) => Nim(n - k)
    }
    value grundy, nimber of Nim(3)
}

fn main() {}
