// A game file that does not exist.
cgdl::include_game!("games/no_such_game.cgdl");

fn main() {}
