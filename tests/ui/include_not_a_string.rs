// include_game! takes a string literal.
cgdl::include_game!(games / kayles);

fn main() {}
