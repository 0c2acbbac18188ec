//! The optimizer: the passes that run on a checked program before either back end reads
//! it, in the order [`optimize`] lists them. Each pass is a file; each keeps every value
//! and every error of the program as written (each has tests holding it to that).

pub mod automorphism;
pub mod cells;
pub mod checks;
pub mod complement;
pub mod domains;
pub mod elements;
pub mod elementwise;
pub mod evaluate;
pub mod fields;
pub mod images;
pub mod inverse;
pub mod kernel;
pub mod knowledge;
pub mod leaves;
pub mod masks;
pub mod members;
pub mod open;
pub mod parts;
pub mod probe;
pub mod regions;
pub mod splits;
pub mod structure;
pub mod symmetry;
pub mod tables;
pub mod translations;

use crate::ir::Program;

/// Runs every pass on `program` (checked from `source`), in order:
///
/// 1. [`complement`]: a game on a set's complement (the filled cells, tested `not in`)
///    gets a game of the free cells beside it that its moves go to (the first: every
///    later pass reads that game as one written on the free cells);
/// 2. [`members`]: a binder over a type followed by a test that its element lies in a set
///    field binds the set's elements (translations and sums of parts read such binders);
/// 3. [`regions`]: a sum over representatives of closures becomes a sum over
///    `components` (which the symmetry pass and the region fast path understand);
/// 4. [`translations`]: proves that a game on a board has the same values wherever its
///    position lies (and keeps its rules without their moves to the corner);
/// 5. [`symmetry`]: finds each game's symmetries from its rules (or from those without
///    moves to the corner), and proves declared ones;
/// 6. [`splits`]: a game on a set whose every move looks at a few of its elements and
///    takes some away becomes a sum over the parts its moves join (after the symmetry pass,
///    which reads the moves as written; before the passes that divide `components`);
/// 7. [`masks`]: conditions on an element of a set field become intersections with
///    tables of masks (after the symmetry pass, which reads the conditions);
/// 8. [`probe`]: "some move is to `end`" as one cheap condition over the fields, where it
///    is exact (it reads the quantifiers as written: before [`inverse`]);
/// 9. [`inverse`]: `exists`/`count` over a finite type testing `x in f(b)` becomes a loop
///    over a table of `f`'s inverse (after the symmetry pass, which reads the quantifiers
///    as written);
/// 10. [`crate::ir::share`]: computes costly work once (common subexpressions, work that
///     leaves loops);
/// 11. [`cells`]: a set of board cells moved to the corner, mirrored, transposed or
///     turned, or the least of one part of its cells, marked for native code to do on the
///     set's bits (after sharing, which names the sets, and the symmetry pass, which reads
///     the declared maps as written);
/// 12. [`open`]: a game with a probe gets its moves without their tests for `end`, for the
///     positions whose probe said no move is to `end`;
/// 13. [`domains`]: the few values the elements of a set field of a large type take (an
///     analysis: native code packs the field by it);
/// 14. [`tables`]: each helper function's values over a box of at most 1,024 arguments,
///     computed now (after the passes that add and rewrite functions);
/// 15. [`parts`]: `components` by a function of board cells with a complete table is a
///     division by the table, and a sum of positions over the parts of a board's cells
///     gets the board's table too (after the tables it reads, and the open moves it
///     rewrites as well);
/// 16. [`kernel`]: an impartial game whose moves' results are `end`, positions of the game
///     itself or sums of two gets its moves as a bottom-up Grundy kernel reads them (after
///     the passes that rewrite moves: it copies their final form);
/// 17. [`images`]: each declared symmetry that keeps, rebuilds element by element or
///     computes each field, as tables of its fields' values in each context (after the
///     domains pass, whose values it maps too);
/// 18. [`leaves`]: a move's result that is a sum of positions goes to the options term by
///     term (no later pass reads the node it makes);
/// 19. [`elements`]: `s | {x}` and `s - {x}` become operators on one element, `min` and
///     `max` of a comprehension a fold (the last: the passes before it read them as
///     written).
pub fn optimize(program: &mut Program, source: &str) {
    verified(program, "the checker");
    for (name, run) in PASSES {
        run(program, source);
        verified(program, name);
    }
}

/// A pass: rewrites (or annotates) a program checked from the source text it is given.
pub type Pass = fn(&mut Program, &str);

/// The passes [`optimize`] runs, in order, each with its name.
pub const PASSES: &[(&str, Pass)] = &[
    ("complement", complement::run),
    ("members", members::run),
    ("regions", regions::run),
    ("translations", translations::run),
    ("symmetry", symmetry::run),
    ("splits", splits::run),
    ("masks", masks::run),
    ("probe", probe::run),
    ("inverse", inverse::run),
    ("share", |program, _| crate::ir::share::share(program)),
    ("cells", cells::run),
    ("open", open::run),
    ("domains", domains::run),
    ("tables", tables::run),
    ("parts", parts::run),
    ("kernel", kernel::run),
    ("images", images::run),
    ("leaves", leaves::run),
    ("elements", elements::run),
    ("checks", checks::run),
];

/// In debug builds (the tests), that `program` is well formed after `stage`
/// ([`crate::ir::verify`]); a pass that breaks it is a compiler bug, named here.
fn verified(program: &Program, stage: &str) {
    if cfg!(debug_assertions) {
        if let Err(e) = crate::ir::verify(program) {
            panic!("internal error: the program after {stage} is not well formed: {e}");
        }
    }
}
