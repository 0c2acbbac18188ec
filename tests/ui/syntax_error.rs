// A move without `=>` before its result.
cgdl::game! {
    game Nim(n: nat) {
        move take(k in 1..=n) Nim(n - k)
    }
}

fn main() {}
