// Binding over `nat`, which has no end.
cgdl::game! {
    game Nim(n: nat) {
        move take(k in nat, k <= n) => Nim(n - k)
    }
}

fn main() {}
