//! What a solve has done so far, and the callback told so a few times a second: the
//! solver and the partizan solver share one. A leaf module (the terminal's progress line,
//! feature `progress`, is one such callback).

/// How often a solve reports its progress.
pub const PROGRESS_EVERY: std::time::Duration = std::time::Duration::from_millis(250);

/// What a solve has done so far, for a progress display.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Positions solved (each value kind's solve of a position counts once).
    pub solved: u64,
    /// Memory the process holds, where the system says (the memo, mostly).
    pub memory: Option<u64>,
    /// Time since the progress display was set.
    pub elapsed: std::time::Duration,
    /// How often the memo forgot its oldest values to stay under the memory limit (see
    /// [`crate::Solver::set_max_memory`]).
    pub cleared: u64,
}

/// A progress display: called with what a solve has done, a few times a second.
pub type ProgressReport<'r> = Box<dyn FnMut(&Progress) + 'r>;

/// A progress callback and when it last ran.
pub(crate) struct Reporter<'r> {
    report: ProgressReport<'r>,
    started: std::time::Instant,
    last: std::time::Instant,
}

impl<'r> Reporter<'r> {
    /// Reports to `report`, counting time from now.
    pub(crate) fn new(report: ProgressReport<'r>) -> Self {
        let now = std::time::Instant::now();
        Reporter {
            report,
            started: now,
            last: now,
        }
    }

    /// Reports `solved` positions if [`PROGRESS_EVERY`] has passed since the last report.
    pub(crate) fn tick(&mut self, solved: u64, cleared: u64) {
        let now = std::time::Instant::now();
        if now.duration_since(self.last) < PROGRESS_EVERY {
            return;
        }
        self.last = now;
        (self.report)(&Progress {
            solved,
            memory: crate::memory::resident_bytes(),
            elapsed: now.duration_since(self.started),
            cleared,
        });
    }
}

/// A progress display shared by a solver and its partizan solver.
pub(crate) type SharedReporter<'r> = std::rc::Rc<std::cell::RefCell<Reporter<'r>>>;
