// A move to a game that is not declared.
cgdl::game! {
    game Kayles(n: nat) {
        move knock(k in 1..=2, k <= n) => Kaylez(n - k)
    }
}

fn main() {}
