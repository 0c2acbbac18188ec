// A game file included at compile time, in a module of its own beside an inline game.
mod kayles {
    cgdl::include_game!("games/kayles.cgdl");
}

mod nim {
    cgdl::game! {
        game Heap(n: nat) {
            move take(k in 1..=n) => Heap(n - k)
        }
    }
}

fn main() {
    let mut k = kayles::solver();
    assert_eq!(k.grundy(kayles::Kayles::new(11)).unwrap(), 6);
    let mut n = nim::solver();
    // Nim (1, 2, 3) is a second-player win, (7, 4, 1) a first-player win.
    let heap = nim::Heap::new;
    assert_eq!(n.outcome(heap(1) + heap(2) + heap(3)).unwrap(), cgdl::runtime::Outcome::P);
    assert_eq!(n.outcome(heap(7) + heap(4) + heap(1)).unwrap(), cgdl::runtime::Outcome::N);
}
