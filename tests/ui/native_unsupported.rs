// A list field, which native code does not support yet: the error names the construct.
cgdl::game! {
    game Coins(gaps: list<nat>) {
        move slide(i in 0..len(gaps), k in 1..=gaps[i]) => Coins(gaps with [i] = gaps[i] - k)
    }
}

fn main() {}
