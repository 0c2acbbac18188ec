// A field value outside the field's declared range.
cgdl::game! {
    game Horse(r: 0..=7, c: 0..=7) {
        move step(d in {(2, 1), (1, 2)}, r + d.0 <= 7, c + d.1 <= 7) => Horse(r + d.0, c + d.1)
    }
    value outcome of Horse(9, 0)
}

fn main() {}
