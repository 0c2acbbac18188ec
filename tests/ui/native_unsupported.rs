// A set of unbounded numbers, which native code cannot pack yet: the error names the construct.
cgdl::game! {
    game Marks(xs: set<nat>) {
        move drop(x in xs) => Marks(xs - {x})
    }
}

fn main() {}
