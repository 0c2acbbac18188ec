//! Games with declared symmetries that are mostly wrong: map `k` of each game is involution
//! `k` of a 3 × 3 board's cells (the first four are the board's true symmetries for Cram,
//! the rest drawn at random), so that one native program, and one interpreted file, holds
//! every map, a position's `k` choosing it. Shared by build.rs and
//! tests/checked_symmetries.rs.

/// How many maps each game declares (through `k`).
pub const MAPS: usize = 128;
/// The board's cells.
pub const CELLS: usize = 9;

/// Involution `k` of the cells `0..9` (cell `(r, c)` is `3 r + c`).
pub fn involution(k: usize) -> [usize; CELLS] {
    let rank = |r: usize, c: usize| 3 * r + c;
    let mut p = [0; CELLS];
    for r in 0..3 {
        for c in 0..3 {
            p[rank(r, c)] = match k {
                0 => rank(r, c),     // the identity
                1 => rank(2 - r, c), // rows mirrored
                2 => rank(r, 2 - c), // columns mirrored
                3 => rank(c, r),     // the diagonal
                _ => rank(r, c),
            };
        }
    }
    if k >= 4 {
        // Random transpositions, disjoint (a linear congruential generator seeded by `k`).
        let mut state = (k as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = move || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (state >> 33) as usize
        };
        for _ in 0..1 + next() % 4 {
            let (a, b) = (next() % CELLS, next() % CELLS);
            if p[a] == a && p[b] == b {
                p.swap(a, b);
            }
        }
    }
    p
}

/// The games and a query per map and game: Cram (impartial, Grundy values), Cram split into
/// regions (nimber search) and Domineering (partizan, canonical forms), each on the full
/// 3 × 3 board and on the board without its centre.
pub fn source() -> String {
    let table: Vec<String> = (0..MAPS)
        .map(|k| {
            let p = involution(k);
            format!("[{}]", p.map(|x| x.to_string()).join(", "))
        })
        .collect();
    let mut s = format!(
        "type Cell = (0..3, 0..3)\n\
         const MAPS = [{}]\n\
         fn image(k: 0..{MAPS}, x: Cell) -> Cell = let i = MAPS[k][3 * x.0 + x.1] in (i / 3, i % 3)\n\
         fn neighbours(x: Cell) -> set<Cell> = {{ y for y in Cell where abs(y.0 - x.0) + abs(y.1 - x.1) == 1 }}\n\
         game Cram(k: 0..{MAPS}, empty: set<Cell>) {{\n\
             move across((r, c) in empty, (r, c + 1) in empty) => Cram(k, empty - {{(r, c), (r, c + 1)}})\n\
             move down((r, c) in empty, (r + 1, c) in empty) => Cram(k, empty - {{(r, c), (r + 1, c)}})\n\
             symmetry s => Cram(k, {{ image(k, x) for x in empty }})\n\
         }}\n\
         game Regions(k: 0..{MAPS}, empty: set<Cell>) {{\n\
             move across((r, c) in empty, (r, c + 1) in empty) =>\n\
                 sum(Regions(k, part) for part in components(empty - {{(r, c), (r, c + 1)}}, x => neighbours(x)))\n\
             move down((r, c) in empty, (r + 1, c) in empty) =>\n\
                 sum(Regions(k, part) for part in components(empty - {{(r, c), (r + 1, c)}}, x => neighbours(x)))\n\
             symmetry s => Regions(k, {{ image(k, x) for x in empty }})\n\
         }}\n\
         game Domineering(k: 0..{MAPS}, free: set<Cell>) {{\n\
             left move down((r, c) in free, (r + 1, c) in free) => Domineering(k, free - {{(r, c), (r + 1, c)}})\n\
             right move across((r, c) in free, (r, c + 1) in free) => Domineering(k, free - {{(r, c), (r, c + 1)}})\n\
             symmetry s => Domineering(k, {{ image(k, x) for x in free }})\n\
         }}\n",
        table.join(", ")
    );
    for k in 0..MAPS {
        for board in ["Cell", "Cell - {(1, 1)}"] {
            s.push_str(&format!("value grundy of Cram({k}, {board})\n"));
            s.push_str(&format!("value grundy of Regions({k}, {board})\n"));
            s.push_str(&format!("value canonical of Domineering({k}, {board})\n"));
        }
    }
    s
}

/// How many games `corner_source` declares a wrong map for.
pub const CORNER_GAMES: usize = 8;

/// Games of Cram on a 3 × 4 board written as the corpus's variant (regions as closures,
/// each moved to the corner by `fn shift`), each declaring a map moved to the corner too:
/// `W0` to `W7` a wrong one (a cyclic turn of the columns or of the rows, or a swap of two
/// cells drawn at random), odd ones beside a correct mirror; `Right` the board's two mirrors
/// and its half turn, each moved to the corner (all proven). Shared by build.rs and
/// tests/checked_symmetries.rs.
pub fn corner_source() -> String {
    let mut s = String::from(
        "const R = 3\nconst C = 4\ntype Cell = (0..R, 0..C)\n\
         fn next_to(x: Cell, y: Cell) -> bool = abs(x.0 - y.0) + abs(x.1 - y.1) == 1\n\
         fn region(cells: set<Cell>, x: Cell) -> set<Cell> =\n    \
             closure({x}, v => { y for y in cells where next_to(v, y) })\n\
         fn shift(cells: set<Cell>) -> set<Cell> =\n    \
             let r0 = min({ x.0 for x in cells }) in\n    \
             let c0 = min({ x.1 for x in cells }) in\n    \
             { (x.0 - r0, x.1 - c0) for x in cells }\n",
    );
    let rules = |g: &str| {
        format!(
            "game {g}(cells: set<Cell>) {{\n    \
             move place(a in cells, b in cells, next_to(a, b), a < b) =>\n        \
             let rest = cells - {{a, b}} in\n        \
             sum({g}(shift(region(rest, x))) for x in rest where x == min(region(rest, x)))\n"
        )
    };
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (state >> 33) as usize
    };
    for k in 0..CORNER_GAMES {
        let image = match k {
            0 => "(x.0, (x.1 + 1) % C)".to_string(),
            1 => "((x.0 + 1) % R, x.1)".to_string(),
            _ => {
                let a = next() % 12;
                let b = (a + 1 + next() % 11) % 12;
                let cell = |i: usize| format!("({}, {})", i / 4, i % 4);
                format!(
                    "if x == {} then {} else if x == {} then {} else x",
                    cell(a),
                    cell(b),
                    cell(b),
                    cell(a)
                )
            }
        };
        s.push_str(&rules(&format!("W{k}")));
        s.push_str(&format!(
            "    symmetry s => W{k}(shift({{ {image} for x in cells }}))\n"
        ));
        if k % 2 == 1 {
            s.push_str(&format!(
                "    symmetry mirror => W{k}(shift({{ (R - 1 - x.0, x.1) for x in cells }}))\n"
            ));
        }
        s.push_str("}\n");
    }
    s.push_str(&rules("Right"));
    s.push_str(
        "    symmetry rows => Right(shift({ (R - 1 - x.0, x.1) for x in cells }))\n    \
         symmetry columns => Right(shift({ (x.0, C - 1 - x.1) for x in cells }))\n    \
         symmetry turn => Right(shift({ (R - 1 - x.0, C - 1 - x.1) for x in cells }))\n}\n",
    );
    // Correct maps the compiler cannot prove (each image joined with the empty set), so
    // checked: a mirror, a turn and a transpose (which fails where a region does not fit
    // the board turned, and is then no map there), each done on the set's bits natively.
    s.push_str(&rules("Checked"));
    s.push_str(
        "    symmetry rows => Checked(shift({ (R - 1 - x.0, x.1) for x in cells } | {}))\n    \
         symmetry turn => Checked(shift({ (R - 1 - x.0, C - 1 - x.1) for x in cells } | {}))\n    \
         symmetry transpose => Checked(shift({ (x.1, x.0) for x in cells } | {}))\n}\n",
    );
    for g in (0..CORNER_GAMES)
        .map(|k| format!("W{k}"))
        .chain(["Right".to_string(), "Checked".to_string()])
    {
        for board in ["Cell", "Cell - {(1, 1)}", "Cell - {(0, 0), (2, 3)}"] {
            s.push_str(&format!("value grundy of {g}({board})\n"));
        }
    }
    s
}
