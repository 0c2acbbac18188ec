//! A progress line on the terminal during long solves (feature `progress`): positions
//! solved, positions per second, the memory the memo holds, and the time elapsed. Shown only
//! when standard error is a terminal, from one second into a solve, and cleared at its end.

use crate::reporter::{Progress, ProgressReport};
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Duration;

/// How long a solve runs before its progress shows.
const QUIET_FOR: Duration = Duration::from_secs(1);

/// The progress line on screen, if any: output clears it first ([`suspend`]).
static SHOWN: Mutex<Option<indicatif::ProgressBar>> = Mutex::new(None);

/// Runs `f` (which writes to the terminal) with the progress line, if one is shown,
/// cleared; the next report draws it again.
pub fn suspend<T>(f: impl FnOnce() -> T) -> T {
    let shown = SHOWN.lock().ok().and_then(|mut bar| bar.take());
    if let Some(bar) = shown {
        bar.finish_and_clear();
    }
    f()
}

/// A progress display for [`crate::Solver::set_progress`], or `None` when standard error is
/// not a terminal (a pipe, a file, a test).
pub fn on_terminal<'r>() -> Option<ProgressReport<'r>> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let mut display = Display(None);
    Some(Box::new(move |p: &Progress| {
        if p.elapsed >= QUIET_FOR {
            display.show(&line(p));
        }
    }))
}

/// The line a solve draws (none yet, or cleared by output).
struct Display(Option<indicatif::ProgressBar>);

impl Display {
    fn show(&mut self, text: &str) {
        let bar = match &self.0 {
            Some(bar) if !bar.is_finished() => bar,
            _ => {
                let bar = indicatif::ProgressBar::new_spinner();
                if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg}") {
                    bar.set_style(style);
                }
                if let Ok(mut shown) = SHOWN.lock() {
                    *shown = Some(bar.clone());
                }
                self.0.insert(bar)
            }
        };
        bar.set_message(text.to_string());
    }
}

impl Drop for Display {
    fn drop(&mut self) {
        if let Ok(mut shown) = SHOWN.lock() {
            *shown = None;
        }
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// The progress line: `solving: 12,345,678 positions (1,234,567/s), memory 1.4 GiB, 0:00:10`.
pub fn line(p: &Progress) -> String {
    let seconds = p.elapsed.as_secs_f64().max(1e-3);
    let rate = (p.solved as f64 / seconds) as u64;
    let memory = p
        .memory
        .map(|b| format!(", memory {}", indicatif::BinaryBytes(b)))
        .unwrap_or_default();
    let cleared = match p.cleared {
        0 => String::new(),
        1 => ", memo thinned once to stay under --max-memory".to_string(),
        n => format!(", memo thinned {n} times to stay under --max-memory"),
    };
    let t = p.elapsed.as_secs();
    format!(
        "solving: {} positions ({}/s){memory}, {}:{:02}:{:02}{cleared}",
        indicatif::HumanCount(p.solved),
        indicatif::HumanCount(rate),
        t / 3600,
        t / 60 % 60,
        t % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_names_positions_rate_memory_and_time() {
        let p = Progress {
            solved: 12_345_678,
            memory: Some(3 << 29),
            elapsed: Duration::from_secs(3671),
            cleared: 0,
        };
        assert_eq!(
            line(&p),
            "solving: 12,345,678 positions (3,363/s), memory 1.50 GiB, 1:01:11"
        );
        let none = Progress { memory: None, ..p };
        assert!(!line(&none).contains("memory"));
        let cleared = Progress { cleared: 2, ..p };
        assert!(
            line(&cleared).ends_with(", 1:01:11, memo thinned 2 times to stay under --max-memory")
        );
    }
}
