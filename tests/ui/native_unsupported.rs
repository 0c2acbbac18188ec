// A set of unbounded numbers that the moves only take from (it holds what it is given),
// which native code cannot pack: the error names the construct.
cgdl::game! {
    game Marks(xs: set<nat>) {
        move drop(x in xs) => Marks(xs - {x})
    }
}

fn main() {}
