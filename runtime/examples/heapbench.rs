//! Times the heap engine alone on one code: `cargo run --release -p cgdl-runtime --example
//! heapbench -- 0.156 4000000 [THREADS]` computes every value up to heap 4,000,000 (with
//! THREADS threads, default 1) and prints the last value, the number of rare heaps, the time
//! and the work done (splits looked at, by way).

use cgdl_runtime::heap::{HeapCode, HeapEngine};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(code), Some(n)) = (args.get(1), args.get(2)) else {
        eprintln!("usage: heapbench CODE N [THREADS]");
        std::process::exit(2);
    };
    let code = match HeapCode::parse(code) {
        Ok(code) => code,
        Err(why) => {
            eprintln!("invalid code: {why}");
            std::process::exit(2);
        }
    };
    let Ok(n) = n.parse::<usize>() else {
        eprintln!("N must be a number");
        std::process::exit(2);
    };
    let Ok(threads) = args.get(3).map_or(Ok(1), |t| t.parse::<usize>()) else {
        eprintln!("THREADS must be a number");
        std::process::exit(2);
    };
    let start = std::time::Instant::now();
    let mut engine = HeapEngine::new(code.clone());
    engine.set_threads(threads);
    engine.extend_to(n);
    println!(
        "{code} to {n}: g({n}) = {:?}, {} rare heaps, {:.3?}, {:?}",
        engine.get(n),
        engine.rare_heaps(),
        start.elapsed(),
        engine.stats()
    );
}
