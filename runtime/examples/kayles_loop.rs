//! A hand-written Kayles Grundy loop: the baseline native code is measured against.
//! `cargo run --release -p cgdl-runtime --example kayles_loop -- 100000`

fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let mut g = vec![0u32; n + 1];
    let mut seen = Vec::new();
    for m in 1..=n {
        seen.clear();
        seen.resize(m + 2, false);
        for k in 1..=2.min(m) {
            for left in 0..=(m - k) / 2 {
                let v = (g[left] ^ g[m - k - left]) as usize;
                if v < seen.len() {
                    seen[v] = true;
                }
            }
        }
        g[m] = seen.iter().position(|s| !s).unwrap_or(seen.len()) as u32;
    }
    println!("grundy of Kayles({n}) = {}", g[n]);
}
