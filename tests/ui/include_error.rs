// A game file with an error: the message names the file, line and column.
cgdl::include_game!("games/broken.cgdl");

fn main() {}
