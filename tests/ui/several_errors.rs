// Every error is reported, each on its own token.
cgdl::game! {
    game Nim(n: nat) {
        move take(k in 1..=n) => Nim(n - k, 1)
    }
    value grundy of Heap(3)
}

fn main() {}
