// A partizan game inline: Left and Right have different moves; canonical forms, outcome
// classes and the thermograph's temperature from Rust.
use cgdl::runtime::partizan::Class;

cgdl::game! {
    // Domineering on a 2 × 3 board: Left places dominoes down, Right across.
    type Cell = (0..2, 0..3)
    game Domineering(free: set<Cell>) {
        left move down(a in free, a.0 + 1 < 2, (a.0 + 1, a.1) in free) =>
            Domineering(free - {a, (a.0 + 1, a.1)})
        right move across(a in free, a.1 + 1 < 3, (a.0, a.1 + 1) in free) =>
            Domineering(free - {a, (a.0, a.1 + 1)})
    }
}

fn main() {
    let mut solver = solver();
    let cells = |r: i64, c: i64| {
        let mut set = std::collections::BTreeSet::new();
        for i in 0..r {
            for j in 0..c {
                set.insert((i, j));
            }
        }
        set
    };
    // Winning Ways: the 2 × 3 board is {2|-1/2}, the 2 × 2 square {1|-1}.
    let board = Domineering::new(cells(2, 3));
    assert_eq!(solver.canonical(&board).unwrap(), "{2|-1/2}");
    assert_eq!(solver.canonical(Domineering::new(cells(2, 2))).unwrap(), "{1|-1}");
    let p = solver.partizan();
    let g = p.value(&board.into()).unwrap();
    assert_eq!(p.class(g), Class::N);
    assert_eq!(p.forms().temperature(g).to_string(), "5/4");
    assert_eq!(p.forms().mean(g).to_string(), "3/4");
}
