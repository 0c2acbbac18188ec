// A helper function that calls itself.
cgdl::game! {
    fn down(n: nat) -> nat = if n == 0 then 0 else down(n - 1)
    game Nim(n: nat) {
        move take(k in 1..=n) => Nim(down(n - k))
    }
}

fn main() {}
