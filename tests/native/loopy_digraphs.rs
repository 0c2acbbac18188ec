//! Random loopy digraphs as one program (`loopy_digraphs.cgdl`, written and compiled by
//! build.rs; checked by tests/loopy_digraphs.rs): game `G{i}` slides a token along the
//! edges of graph `i`.

/// How many graphs.
pub const GRAPHS: usize = 12;

/// Graph `i`: each vertex's followers (a few vertices have none; cycles are common).
pub fn graph(i: usize) -> Vec<Vec<u32>> {
    let mut x = 0x9e37_79b9_7f4a_7c15u64 ^ (i as u64).wrapping_mul(0x2545_f491_4f6c_dd1d);
    let mut next = move |n: u64| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x % n
    };
    let n = 3 + next(7) as usize;
    (0..n as u64)
        .map(|v| {
            let degree = if v == 0 || next(6) == 0 {
                0
            } else {
                1 + next(3)
            };
            // Most edges lead down (values like a game that ends), some anywhere (cycles).
            let mut followers: Vec<u32> = (0..degree)
                .map(|_| match next(4) {
                    0 => next(n as u64) as u32,
                    _ => next(v) as u32,
                })
                .collect();
            followers.sort_unstable();
            followers.dedup();
            followers
        })
        .collect()
}

/// A partizan graph: Left's edges are graph `i`'s (most lead down), Right's those of graph
/// `i + GRAPHS` turned upside down (most lead up) and cut to its vertices, so that lines of
/// play that never end are common.
pub fn partizan(i: usize) -> (Vec<Vec<u32>>, Vec<Vec<u32>>) {
    let left = graph(i);
    let n = left.len();
    let other = graph(i + GRAPHS);
    let right = (0..n)
        .map(|v| match other.get(n - 1 - v) {
            Some(followers) => (followers.iter())
                .filter(|&&w| (w as usize) < n)
                .map(|&w| (n - 1 - w as usize) as u32)
                .collect(),
            None => Vec::new(),
        })
        .collect();
    (left, right)
}

/// A graph's edges as a constant of the language: `[[1, 2], [], [0]]`.
fn list(rows: &[Vec<u32>]) -> String {
    let rows: Vec<String> = rows
        .iter()
        .map(|f| {
            format!(
                "[{}]",
                f.iter().map(u32::to_string).collect::<Vec<_>>().join(", ")
            )
        })
        .collect();
    format!("[{}]", rows.join(", "))
}

/// The program: every graph as a game, a table of each one's values, and a grid of the
/// values of the sums of each graph's positions with the next graph's; then the partizan
/// graphs, a table of each one's outcomes, and a grid of the outcomes of sums of two of
/// its positions.
pub fn source() -> String {
    let mut out = String::new();
    for i in 0..GRAPHS {
        let (left, right) = partizan(i);
        out += &format!(
            "const L{i} = {}\nconst R{i} = {}\n",
            list(&left),
            list(&right)
        );
        out += &format!(
            "game P{i}(v: 0..{n}) {{\n    left move l(w in L{i}[v]) => P{i}(w)\n    \
             right move r(w in R{i}[v]) => P{i}(w)\n}}\n",
            n = left.len()
        );
    }
    for i in 0..GRAPHS {
        let g = graph(i);
        out += &format!("const E{i} = {}\n", list(&g));
        out += &format!(
            "game G{i}(v: 0..{n}) {{\n    move slide(w in E{i}[v]) => G{i}(w)\n}}\n",
            n = g.len()
        );
    }
    for i in 0..GRAPHS {
        let n = graph(i).len();
        out += &format!("table grundy, outcome, remoteness of G{i}(v) for v in 0..{n}\n");
        let (j, m) = ((i + 1) % GRAPHS, graph((i + 1) % GRAPHS).len());
        out +=
            &format!("table grundy, outcome of G{i}(a) + G{j}(b) for a in 0..{n}, b in 0..{m}\n");
    }
    for i in 0..GRAPHS {
        let n = graph(i).len();
        out += &format!("table outcome of P{i}(v) for v in 0..{n}\n");
        out += &format!("table outcome of P{i}(a) + P{i}(b) for a in 0..{n}, b in 0..{n}\n");
    }
    out
}
