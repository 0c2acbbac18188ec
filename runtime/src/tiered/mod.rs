//! Tiered solving (feature `tiered`): the Grundy value of every position reachable from some
//! roots, found tier by tier by workers that may be threads, processes or hosts, on the
//! timely dataflow engine.
//!
//! A tier is the positions of one *rank*, a number that every move strictly increases. The
//! rank is a signed sum of the universe's measures ([`Rules::measures`]: set sizes and
//! numbers), its signs learned from the moves seen from the roots (a sample of
//! [`SAMPLE_POSITIONS`] positions): each measure counts up where those moves only raise it,
//! down where they only lower it, not at all otherwise; where that rank is not raised by
//! every move seen, the first choice of signs that is (a row and a column that fall
//! together while each may rise). The solve then checks, at every move of every position, that the
//! option's rank is greater than its position's: a move that breaks it stops the solve with
//! an error naming it, never a value.
//!
//! The solve runs in rounds that every worker takes together (each round one exchange of
//! messages, a position sent to the worker that owns it by a hash of its code):
//!
//! 1. **Reach**: from the roots, each worker lists the options of the positions it was sent
//!    and sends each option's positions to their owners, until no worker sends any.
//! 2. **Solve**, tier by tier from the highest rank down: each worker lists the options of
//!    its positions of the tier, asks the owner of each option's position for its value (in
//!    a higher tier, so solved), and takes the mex of the options' values (a sum's value is
//!    the nim-sum of its positions').
//! 3. The roots' values go to worker 0.
//!
//! Values are those of the definition (normal play, no shortcut). [`RulesGraph`] keeps each
//! position as its least image under its game's proven symmetries, whose images have its
//! values; a position owned by the asking worker is read without a message.

mod store;

use crate::rules::{OptRef, Options, Rules};
use rustc_hash::{FxHashMap, FxHashSet};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::hash::{BuildHasher, BuildHasherDefault};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;
use store::{Store, UNSOLVED};
use timely::communication::AllocatorBuilder;
use timely::container::CapacityContainerBuilder;
use timely::dataflow::operators::{Exchange, Input, Inspect, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};
use timely::worker::Worker;

/// How many positions the rank's signs are learned from (breadth first from the roots).
pub const SAMPLE_POSITIONS: usize = 4096;

/// What a tiered solve asks of a universe, its positions given as 128-bit codes (so that
/// workers in other processes can exchange them). [`RulesGraph`] makes one of any
/// [`Rules`] with codes.
pub trait TierGraph: Send + Sync {
    /// Writes the options of the position `code` into `out` (cleared first), each option's
    /// positions with their measures.
    fn options(&self, code: u128, out: &mut TierOptions) -> Result<(), String>;
    /// Writes the position's measures ([`Rules::measures`]) into `out`.
    fn measures(&self, code: u128, out: &mut Vec<i64>) -> Result<(), String>;
    /// The position as messages show it.
    fn show(&self, code: u128) -> String;
}

/// The options of one position: each the positions of a sum (none: `end`), each position
/// as its code and its measures.
#[derive(Default)]
pub struct TierOptions {
    codes: Vec<u128>,
    /// Each position's measures, `width` of them a position.
    measures: Vec<i64>,
    width: usize,
    /// Where each option's positions end in `codes`.
    ends: Vec<usize>,
    /// Whether the graph may leave out the positions' measures (the solve pass reads none).
    no_measures: bool,
    /// What the graph keeps between calls (its own buffer of options).
    scratch: Option<Box<dyn std::any::Any + Send>>,
}

impl TierOptions {
    /// Options whose positions' measures are wanted (`true`, the default) or not: a graph
    /// may then add positions with no measures.
    pub fn want_measures(&mut self, wanted: bool) {
        self.no_measures = !wanted;
    }

    /// Whether the positions' measures are wanted ([`TierOptions::want_measures`]).
    pub fn wants_measures(&self) -> bool {
        !self.no_measures
    }

    /// Removes every option.
    pub fn clear(&mut self) {
        self.codes.clear();
        self.measures.clear();
        self.ends.clear();
    }

    /// Adds a position, with its measures, to the option being written.
    pub fn position(&mut self, code: u128, measures: &[i64]) {
        if self.codes.is_empty() {
            self.width = measures.len();
        }
        self.codes.push(code);
        let width = self.width;
        self.measures.extend(
            measures
                .iter()
                .copied()
                .chain(std::iter::repeat(0))
                .take(width),
        );
    }

    /// Ends the option being written: the sum of the positions added since the last one
    /// (`end` when none).
    pub fn close(&mut self) {
        self.ends.push(self.codes.len());
    }

    /// How many options.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Option `i`'s positions, as indices `j` of [`TierOptions::code`].
    pub fn option(&self, i: usize) -> std::ops::Range<usize> {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        start..self.ends[i]
    }

    /// Every option's positions' codes, in order.
    pub fn codes(&self) -> &[u128] {
        &self.codes
    }

    /// Position `j`'s code.
    pub fn code(&self, j: usize) -> u128 {
        self.codes[j]
    }

    /// Position `j`'s measures.
    pub fn measures(&self, j: usize) -> &[i64] {
        &self.measures[j * self.width..(j + 1) * self.width]
    }
}

/// A [`TierGraph`] of rules whose positions have codes ([`Rules::code`] and
/// [`Rules::position_of_code`]): each code read back is checked to encode to itself (the
/// codes are the memo's keys, one to one as the memo needs them).
#[derive(Clone, Debug)]
pub struct RulesGraph<R>(pub R);

impl<R: Rules> RulesGraph<R> {
    fn position(&self, code: u128) -> Result<R::Pos, String> {
        match self.0.position_of_code(code) {
            Some(pos) if self.0.code(pos) == Some(code) => Ok(pos),
            _ => Err(format!(
                "position code {code:#x} does not read back: the rules' codes are not one to one"
            )),
        }
    }

    /// The position a tiered solve keeps for `pos`: its least image under its game's
    /// symmetries where the compiler proved them ([`Rules::least_image`]: every image has
    /// the same values), else `pos` itself (symmetries the solver checks as it runs are not
    /// used: the tiered solve does not check them).
    fn kept(&self, pos: R::Pos) -> R::Pos {
        if self.0.checked_symmetries(pos) == 0 {
            self.0.least_image(pos)
        } else {
            pos
        }
    }

    /// The code of the position a tiered solve keeps for `pos` (its least image under
    /// proven symmetries), or an error naming it.
    pub fn code(&self, pos: R::Pos) -> Result<u128, String> {
        let kept = self.kept(pos);
        (self.0.code(kept))
            .filter(|&c| self.0.position_of_code(c) == Some(kept))
            .ok_or_else(|| self.no_code(pos))
    }

    #[cold]
    fn no_code(&self, pos: R::Pos) -> String {
        format!(
            "{} has no position code: tiered solving needs positions of at most 127 bits \
             (sets of bounded elements, bounded numbers)",
            self.show_pos(pos)
        )
    }

    fn show_pos(&self, pos: R::Pos) -> String {
        let mut s = String::new();
        let _ = self.0.write_pos(pos, &mut s);
        s
    }
}

impl<R: Rules + Send + Sync> TierGraph for RulesGraph<R>
where
    R::Pos: Send + 'static,
{
    fn options(&self, code: u128, out: &mut TierOptions) -> Result<(), String> {
        out.clear();
        let pos = self.position(code)?;
        if self.0.is_partizan(pos) {
            return Err(format!(
                "{} is a position of a partizan game: a tiered solve finds Grundy values of \
                 impartial games",
                self.show_pos(pos)
            ));
        }
        // The rules' buffers, kept in `out` between calls.
        type Kept<P> = (Options<P>, Vec<i64>);
        let mut scratch = out.scratch.take();
        let kept = scratch
            .get_or_insert_with(|| Box::new((Options::<R::Pos>::new(), Vec::<i64>::new())))
            .downcast_mut::<Kept<R::Pos>>()
            .ok_or("internal error: a tiered solve's buffers changed type")?;
        let (options, measures) = kept;
        options.clear();
        let listed = self
            .0
            .options(pos, options)
            .map_err(|e| e.message().to_string());
        let written = listed.and_then(|()| {
            for r in &options.refs {
                match *r {
                    OptRef::End => {}
                    OptRef::Leaves { start, len } => {
                        for &leaf in options.leaf_slice(start, len) {
                            let leaf = self.kept(leaf);
                            let code = self.0.code(leaf).ok_or_else(|| self.no_code(leaf))?;
                            measures.clear();
                            if out.wants_measures() {
                                self.0.measures(leaf, measures);
                            }
                            out.position(code, measures);
                        }
                    }
                    OptRef::Expr(k) => {
                        return Err(format!(
                            "{} has an option that is a compound ({:?}): a tiered solve takes \
                             options that are positions and sums of positions",
                            self.show_pos(pos),
                            options.exprs[k as usize]
                        ))
                    }
                }
                out.close();
            }
            Ok(())
        });
        out.scratch = scratch;
        written
    }

    fn measures(&self, code: u128, out: &mut Vec<i64>) -> Result<(), String> {
        let pos = self.position(code)?;
        self.0.measures(pos, out);
        Ok(())
    }

    fn show(&self, code: u128) -> String {
        match self.0.position_of_code(code) {
            Some(pos) => self.show_pos(pos),
            None => format!("the position of code {code:#x}"),
        }
    }
}

/// Where a tiered solve's workers run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TierConfig {
    /// Worker threads of this process.
    pub workers: usize,
    /// Processes in all (each with `workers` threads).
    pub processes: usize,
    /// This process's number, from 0.
    pub process: usize,
    /// A file of `host:port` lines, one a process in order (`None`: localhost, ports from
    /// 2101).
    pub hostfile: Option<std::path::PathBuf>,
    /// How long a process waits for the others to connect before it gives up.
    pub connect_timeout: std::time::Duration,
    /// A folder to spill the positions into: each worker keeps its positions, their ranks
    /// and values in a key-value store on disk there (a new folder of its own, removed when
    /// it ends) instead of memory (`None`).
    pub spill: Option<PathBuf>,
}

impl Default for TierConfig {
    fn default() -> Self {
        TierConfig {
            workers: 1,
            processes: 1,
            process: 0,
            hostfile: None,
            connect_timeout: std::time::Duration::from_secs(120),
            spill: None,
        }
    }
}

/// One tier's cost, as worker 0 saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct TierCost {
    /// The tier's rank.
    pub rank: i64,
    /// Its positions, over every worker.
    pub positions: u64,
    /// Their options' positions (the values read), over every worker.
    pub reads: u64,
    /// Of those, the ones asked of another worker (two messages each).
    pub remote_reads: u64,
    /// Wall-clock seconds of the tier.
    pub seconds: f64,
}

/// What a tiered solve found (on the process of worker 0).
#[derive(Clone, Debug, PartialEq)]
pub struct TierReport {
    /// The roots' Grundy values, in order.
    pub values: Vec<u32>,
    /// The positions reached, over every worker.
    pub positions: u64,
    /// The sign of each measure in the rank.
    pub signs: Vec<i64>,
    /// Seconds spent reaching every position.
    pub reach_seconds: f64,
    /// Each tier's cost, from the highest rank down.
    pub tiers: Vec<TierCost>,
    /// Workers in all.
    pub workers: usize,
}

/// The messages workers exchange.
#[derive(Clone, Copy, Debug, Serialize, Deserialize)]
enum Msg {
    /// A position reached, to its owner.
    Reach(u128),
    /// Each round, to every worker: how much work the sender has left (the `Reach`
    /// messages it sent; the positions of the tier it has not solved), and whether it failed.
    Status { left: u64, failed: bool },
    /// A rank the sender holds positions of, to every worker.
    Rank(i64),
    /// The value of `code` is asked by worker `from`.
    Ask { code: u128, from: u32 },
    /// The value of `code`, to the worker that asked.
    Answer { code: u128, value: u32 },
    /// Root `index`'s value is asked by worker 0.
    RootAsk { code: u128, index: u32 },
    /// Root `index`'s value, to worker 0.
    RootAnswer { index: u32, value: u32 },
    /// One tier's counts, to worker 0: positions, reads, remote reads.
    Counts {
        positions: u64,
        reads: u64,
        remote: u64,
    },
}

/// Solves every position reachable from `roots` on the workers `config` describes (this
/// process's part of them). Returns the report on the process of worker 0, `None` on the
/// others; an error (a rule's, a move that does not raise the rank, a worker that could
/// not start) on every process that saw it.
pub fn solve(
    graph: Arc<dyn TierGraph>,
    roots: Vec<u128>,
    config: &TierConfig,
) -> Result<Option<TierReport>, String> {
    // timely stops a process whose connection to another breaks (that process ended) by
    // panicking in its threads: said here as an error, without their backtraces.
    let broken: Arc<std::sync::Mutex<Option<String>>> = Arc::default();
    let previous: Arc<dyn Fn(&std::panic::PanicHookInfo<'_>) + Send + Sync> =
        Arc::from(std::panic::take_hook());
    {
        let (broken, previous) = (broken.clone(), previous.clone());
        std::panic::set_hook(Box::new(move |info| {
            let in_timely = info.location().is_some_and(|l| l.file().contains("timely"));
            if !in_timely {
                return previous(info);
            }
            let message = (info.payload().downcast_ref::<String>().cloned())
                .or_else(|| info.payload().downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            if let Ok(mut first) = broken.lock() {
                first.get_or_insert(message);
            }
        }));
    }
    let solved = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        solve_on_timely(graph, roots, config)
    }));
    std::panic::set_hook(Box::new(move |info| previous(info)));
    solved.unwrap_or_else(|_| {
        let why = broken
            .lock()
            .ok()
            .and_then(|b| b.clone())
            .unwrap_or_default();
        Err(format!(
            "the tiered solve stopped: {why}: another process ended or its connection broke; \
             start every process again"
        ))
    })
}

/// [`solve`] on timely's workers.
fn solve_on_timely(
    graph: Arc<dyn TierGraph>,
    roots: Vec<u128>,
    config: &TierConfig,
) -> Result<Option<TierReport>, String> {
    let timely_config = timely_config(config)?;
    let (builders, others) = connect(timely_config.communication, config)?;
    let roots = Arc::new(roots);
    let spill = config.spill.clone();
    let guards =
        timely::execute::execute_from(builders, others, timely_config.worker, move |worker| {
            work(worker, &*graph, &roots, spill.as_deref())
        })
        .map_err(|e| format!("the tiered solve's workers could not start: {e}"))?;
    let mut report = None;
    let mut error: Option<String> = None;
    for result in guards.join() {
        match result {
            Ok(Ok(Some(r))) => report = Some(r),
            Ok(Ok(None)) => {}
            Ok(Err(e)) | Err(e) => {
                // A worker's own error says more than another's "a worker failed".
                if error
                    .as_ref()
                    .is_none_or(|old| old.starts_with(OTHER_FAILED))
                {
                    error = Some(e);
                }
            }
        }
    }
    match error {
        Some(e) => Err(e),
        None => Ok(report),
    }
}

/// The allocators of this process's workers, once every process is connected (timely's
/// networking, which says how it connects on standard output: sent to standard error here,
/// since standard output holds the answers). A process waits at most
/// [`TierConfig::connect_timeout`] for the others.
fn connect(
    communication: timely::CommunicationConfig,
    config: &TierConfig,
) -> Result<(Vec<AllocatorBuilder>, Box<dyn std::any::Any + Send>), String> {
    if config.processes == 1 {
        return communication.try_build();
    }
    let _redirect = StdoutToStderr::new();
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(communication.try_build());
    });
    let (process, processes) = (config.process, config.processes);
    match receive.recv_timeout(config.connect_timeout) {
        Ok(built) => built.map_err(|e| {
            format!("process {process} of the tiered solve could not connect to the others: {e}")
        }),
        Err(_) => Err(format!(
            "process {process} of the tiered solve: the other processes did not connect within \
             {} s; start every process, 0 to {}, each with its --process (and, on several \
             hosts, one --hostfile listing each process's host:port)",
            config.connect_timeout.as_secs(),
            processes - 1
        )),
    }
}

/// While it lives, the process's standard output goes to standard error.
struct StdoutToStderr {
    #[cfg(target_os = "linux")]
    saved: libc::c_int,
}

impl StdoutToStderr {
    fn new() -> Self {
        use std::io::Write as _;
        let _ = std::io::stdout().flush();
        #[cfg(target_os = "linux")]
        {
            // SAFETY: dup and dup2 on the standard descriptors; a failed dup leaves them.
            let saved = unsafe { libc::dup(1) };
            if saved >= 0 {
                unsafe { libc::dup2(2, 1) };
            }
            StdoutToStderr { saved }
        }
        #[cfg(not(target_os = "linux"))]
        StdoutToStderr {}
    }
}

impl Drop for StdoutToStderr {
    fn drop(&mut self) {
        use std::io::Write as _;
        let _ = std::io::stdout().flush();
        #[cfg(target_os = "linux")]
        if self.saved >= 0 {
            // SAFETY: puts back the descriptor saved in `new`.
            unsafe {
                libc::dup2(self.saved, 1);
                libc::close(self.saved);
            }
        }
    }
}

/// The message of a worker that stops because another failed.
const OTHER_FAILED: &str = "another worker of the tiered solve failed";

/// timely's configuration for `config`.
fn timely_config(config: &TierConfig) -> Result<timely::Config, String> {
    let workers = 1..=crate::kernel::MAX_THREADS;
    if !workers.contains(&config.workers)
        || config.processes == 0
        || config.process >= config.processes
    {
        return Err(format!(
            "a tiered solve needs at least one worker and one process, at most {} workers a \
             process, and a process number below the processes (got {} workers, {} \
             processes, process {})",
            crate::kernel::MAX_THREADS,
            config.workers,
            config.processes,
            config.process
        ));
    }
    let mut args = vec![
        "-w".to_string(),
        config.workers.to_string(),
        "-n".to_string(),
        config.processes.to_string(),
        "-p".to_string(),
        config.process.to_string(),
    ];
    if let Some(hosts) = &config.hostfile {
        let text = std::fs::read_to_string(hosts)
            .map_err(|e| format!("cannot read the hostfile {}: {e}", hosts.display()))?;
        let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
        if lines < config.processes {
            return Err(format!(
                "the hostfile {} has {lines} host:port lines for {} processes (one a process)",
                hosts.display(),
                config.processes
            ));
        }
        args.push("-h".to_string());
        args.push(hosts.display().to_string());
    }
    timely::Config::from_args(args.into_iter())
}

/// The owner of a position: a hash of its code over the workers.
fn owner(code: u128, peers: u64) -> u64 {
    let hash = BuildHasherDefault::<rustc_hash::FxHasher>::default().hash_one(code);
    // The high bits mix best.
    ((hash as u128 * peers as u128) >> 64) as u64
}

/// A message as sent: the worker it goes to, its round, and itself.
type Addressed = (u64, u64, Msg);

/// One worker's channel to the others: a round sends its messages and returns those sent
/// to it, once every worker has sent its own.
struct Rounds {
    input: InputHandle<u64, CapacityContainerBuilder<Vec<Addressed>>>,
    probe: ProbeHandle<u64>,
    /// The messages received, each with its round: a worker may receive the next round's
    /// messages from a quicker worker while it waits for the end of this one.
    inbox: Rc<RefCell<Vec<(u64, Msg)>>>,
    me: u64,
    peers: u64,
}

impl Rounds {
    fn new(worker: &mut Worker) -> Rounds {
        let mut input = InputHandle::new();
        let probe = ProbeHandle::new();
        let inbox = Rc::new(RefCell::new(Vec::new()));
        let sink = inbox.clone();
        worker.dataflow::<u64, _, _>(|scope| {
            scope
                .input_from(&mut input)
                .container::<Vec<_>>()
                .exchange(|m: &Addressed| m.0)
                .inspect(move |m: &Addressed| sink.borrow_mut().push((m.1, m.2)))
                .probe_with(&probe);
        });
        Rounds {
            input,
            probe,
            inbox,
            me: worker.index() as u64,
            peers: worker.peers() as u64,
        }
    }

    /// Sends `out` (each message to its worker; those to this worker without the engine)
    /// and returns what this worker was sent, once every worker has taken the round.
    fn round(&mut self, worker: &mut Worker, out: &mut Vec<(u64, Msg)>) -> Vec<Msg> {
        let round = *self.input.time();
        let mut mine = Vec::new();
        for (to, m) in out.drain(..) {
            if to == self.me {
                mine.push(m);
            } else {
                self.input.send((to, round, m));
            }
        }
        self.input.advance_to(round + 1);
        while self.probe.less_than(self.input.time()) {
            worker.step();
        }
        let mut inbox = self.inbox.borrow_mut();
        mine.extend(inbox.iter().filter(|(r, _)| *r == round).map(|(_, m)| *m));
        inbox.retain(|(r, _)| *r != round);
        mine
    }

    /// Sends every worker `Status` (the work this worker has `left`, whether it `failed`)
    /// with the other messages of the round; returns the round's messages but the
    /// statuses, the work left in all, and whether any worker failed.
    fn round_with_status(
        &mut self,
        worker: &mut Worker,
        out: &mut Vec<(u64, Msg)>,
        left: u64,
        failed: bool,
    ) -> (Vec<Msg>, u64, bool) {
        for w in 0..self.peers {
            out.push((w, Msg::Status { left, failed }));
        }
        let got = self.round(worker, out);
        let (mut left, mut failed) = (0, false);
        let mut rest = Vec::with_capacity(got.len());
        for m in got {
            match m {
                Msg::Status { left: l, failed: f } => {
                    left += l;
                    failed |= f;
                }
                other => rest.push(other),
            }
        }
        (rest, left, failed)
    }
}

/// The rank of `code` under `signs`.
fn rank_of(
    graph: &dyn TierGraph,
    code: u128,
    signs: &[i64],
    scratch: &mut Vec<i64>,
) -> Result<i64, String> {
    graph.measures(code, scratch)?;
    Ok(signed_sum(scratch, signs))
}

/// The rank of measures (or of their changes) under `signs`.
fn signed_sum(measures: &[i64], signs: &[i64]) -> i64 {
    measures.iter().zip(signs).map(|(m, s)| m * s).sum()
}

/// The rank's signs, learned from the moves of the first [`SAMPLE_POSITIONS`] positions
/// reached breadth first from `roots`: each measure counts up where those moves only raise
/// it, down where they only lower it, not at all otherwise; where that rank is not raised by
/// every move seen, the first signs (each -1, 0 or 1, of at most [`SIGN_SEARCH_MEASURES`]
/// measures) that are, such as a row and a column that fall together while each may rise.
fn learn_signs(graph: &dyn TierGraph, roots: &[u128]) -> Result<Vec<i64>, String> {
    // The moves' changes of the measures, each once.
    let mut changes: FxHashSet<Vec<i64>> = FxHashSet::default();
    let mut seen: FxHashSet<u128> = roots.iter().copied().collect();
    let mut queue: std::collections::VecDeque<u128> = roots.iter().copied().collect();
    let (mut options, mut here) = (TierOptions::default(), Vec::new());
    let mut expanded = 0;
    let mut width = 0;
    while let Some(code) = queue.pop_front() {
        if expanded == SAMPLE_POSITIONS {
            break;
        }
        expanded += 1;
        graph.options(code, &mut options)?;
        graph.measures(code, &mut here)?;
        for (j, &leaf) in options.codes().iter().enumerate() {
            let there = options.measures(j);
            width = width.max(here.len()).max(there.len());
            let at = |m: &[i64], i: usize| m.get(i).copied().unwrap_or(0);
            changes.insert((0..width).map(|i| at(there, i) - at(&here, i)).collect());
            if seen.insert(leaf) {
                queue.push_back(leaf);
            }
        }
    }
    let changes: Vec<Vec<i64>> = changes.into_iter().collect();
    let raises = |signs: &[i64]| (changes.iter()).all(|change| signed_sum(change, signs) > 0);
    let each: Vec<i64> = (0..width)
        .map(|i| {
            let grew = changes.iter().any(|c| c.get(i).is_some_and(|&d| d > 0));
            let fell = changes.iter().any(|c| c.get(i).is_some_and(|&d| d < 0));
            match (grew, fell) {
                (true, false) => 1,
                (false, true) => -1,
                _ => 0,
            }
        })
        .collect();
    if raises(&each) || width > SIGN_SEARCH_MEASURES {
        return Ok(each);
    }
    // Every choice of signs, fewest measures first.
    let mut choices: Vec<Vec<i64>> = (0..3usize.pow(width as u32))
        .map(|mut n| {
            (0..width)
                .map(|_| {
                    let s = [0, -1, 1][n % 3];
                    n /= 3;
                    s
                })
                .collect()
        })
        .collect();
    choices.sort_by_key(|signs: &Vec<i64>| signs.iter().filter(|&&s| s != 0).count());
    Ok(choices
        .into_iter()
        .find(|signs| raises(signs))
        .unwrap_or(each))
}

/// The most measures whose every choice of signs a tiered solve tries (3^8 choices).
pub const SIGN_SEARCH_MEASURES: usize = 8;

/// A move that does not raise the rank: the error every such move gives.
fn rank_error(graph: &dyn TierGraph, from: u128, to: u128, signs: &[i64]) -> String {
    format!(
        "a tiered solve needs a rank that every move raises, and none was found: the move \
         from {} to {} does not raise the rank learned from the roots' moves (measure signs \
         {signs:?}; the measures are each set field's size and each number field's value)",
        graph.show(from),
        graph.show(to)
    )
}

/// Takes `code` as reached: holds it with its rank unless it is held already. Its rank
/// where it is new.
fn hold(
    graph: &dyn TierGraph,
    code: u128,
    signs: &[i64],
    held: &mut Store,
    measures: &mut Vec<i64>,
) -> Result<Option<i64>, String> {
    if held.contains(code)? {
        return Ok(None);
    }
    let rank = rank_of(graph, code, signs, measures)?;
    held.insert(code, rank)?;
    Ok(Some(rank))
}

/// Sends each of the options' positions of `code` (of rank `rank`) not sent this round to
/// its owner, each checked to raise the rank.
#[allow(clippy::too_many_arguments)]
fn expand(
    graph: &dyn TierGraph,
    code: u128,
    rank: i64,
    signs: &[i64],
    peers: u64,
    sent_now: &mut FxHashSet<u128>,
    options: &mut TierOptions,
    out: &mut Vec<(u64, Msg)>,
) -> Result<(), String> {
    graph.options(code, options)?;
    for (j, &leaf) in options.codes().iter().enumerate() {
        if signed_sum(options.measures(j), signs) <= rank {
            return Err(rank_error(graph, code, leaf, signs));
        }
        if sent_now.insert(leaf) {
            out.push((owner(leaf, peers), Msg::Reach(leaf)));
        }
    }
    Ok(())
}

/// The most positions whose options a worker sends in one round of the reach (so that a
/// round's messages stay few: about 31 options each for Cram).
pub const REACH_CHUNK: usize = 1 << 14;

/// The most positions of a tier a worker solves in one round.
pub const TIER_CHUNK: usize = 1 << 16;

/// The most positions a worker reaches or solves in one round where its positions are
/// spilled to disk (memory is short: a round's messages are a few megabytes).
pub const SPILLED_CHUNK: usize = 1 << 12;

/// The positions of a tier a worker solves in one round: each one's options, as slots (an
/// option's nim-sum), and the reads still to make.
#[derive(Default)]
struct Chunk {
    /// Each position, and its slots' range.
    spans: Vec<(u128, usize, usize)>,
    /// Each option's nim-sum of the values read so far.
    slots: Vec<u32>,
    /// The remote positions each slot still needs: (position, slot).
    pending: Vec<(u128, u32)>,
    /// Their values, as answered.
    answered: FxHashMap<u128, u32>,
    /// The values read, local and remote.
    reads: u64,
    /// Mex buffer.
    values: Vec<u32>,
}

impl Chunk {
    fn clear(&mut self) {
        self.spans.clear();
        self.slots.clear();
        self.pending.clear();
        self.reads = 0;
    }

    /// Takes `code`, whose options are `options`: reads the values its worker holds, and
    /// notes the others to ask for.
    fn ask(
        &mut self,
        code: u128,
        options: &TierOptions,
        held: &Store,
        me: u64,
        peers: u64,
    ) -> Result<(), String> {
        let first = self.slots.len();
        for i in 0..options.len() {
            let slot = self.slots.len();
            self.slots.push(0);
            for j in options.option(i) {
                let leaf = options.code(j);
                self.reads += 1;
                if owner(leaf, peers) == me {
                    match held.value(leaf)? {
                        Some(value) => self.slots[slot] ^= value,
                        None => {
                            return Err(format!(
                                "internal error: {leaf:#x} was read before it was solved"
                            ))
                        }
                    }
                } else {
                    self.pending.push((leaf, slot as u32));
                }
            }
        }
        self.spans.push((code, first, self.slots.len()));
        Ok(())
    }

    /// Each position's value, once the remote values are answered.
    fn solve(&mut self) -> Vec<(u128, u32)> {
        for &(leaf, slot) in &self.pending {
            self.slots[slot as usize] ^= self.answered.get(&leaf).copied().unwrap_or(0);
        }
        let mut solved = Vec::with_capacity(self.spans.len());
        for &(code, first, end) in &self.spans {
            self.values.clear();
            self.values.extend_from_slice(&self.slots[first..end]);
            solved.push((code, mex(&mut self.values)));
        }
        solved
    }
}

/// The error of a value asked for before it was solved (a rank that the moves do raise
/// cannot give it: an internal error).
#[cold]
fn unsolved(graph: &dyn TierGraph, code: u128) -> String {
    format!(
        "internal error: {} was asked for before it was solved",
        graph.show(code)
    )
}

/// Worker 0's progress line on a terminal (standard error), once the solve has run a
/// second: how many positions it has reached, then which tier it solves; cleared when the
/// solve ends, however it ends.
struct Progress {
    started: Instant,
    on: bool,
    shown: bool,
}

impl Progress {
    fn new(worker_zero: bool) -> Progress {
        let on = worker_zero && std::io::IsTerminal::is_terminal(&std::io::stderr());
        Progress {
            started: Instant::now(),
            on,
            shown: false,
        }
    }

    fn say(&mut self, text: impl FnOnce() -> String) {
        if self.on && self.started.elapsed().as_secs() >= 1 {
            eprint!("\r\x1b[K{}", text());
            self.shown = true;
        }
    }

    fn clear(&mut self) {
        if std::mem::take(&mut self.shown) {
            eprint!("\r\x1b[K");
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.clear();
    }
}

/// The mex of `values`.
fn mex(values: &mut [u32]) -> u32 {
    values.sort_unstable();
    let mut m = 0;
    for &v in values.iter() {
        if v == m {
            m += 1;
        } else if v > m {
            break;
        }
    }
    m
}

/// One worker's part of [`solve`].
fn work(
    worker: &mut Worker,
    graph: &dyn TierGraph,
    roots: &[u128],
    spill: Option<&Path>,
) -> Result<Option<TierReport>, String> {
    let mut rounds = Rounds::new(worker);
    let (me, peers) = (rounds.me, rounds.peers);
    // Every worker learns the same signs from the same sample; a failure there is every
    // worker's, so each stops at once with the same error.
    let signs = learn_signs(graph, roots)?;
    let mut failure: Option<String> = None;
    // A store that cannot be made is this worker's failure, said in the first round (as
    // the others wait for it there).
    let mut held = match spill {
        Some(dir) => Store::disk(dir, &format!("cgdl-tiers-worker-{me}")).unwrap_or_else(|e| {
            failure = Some(e);
            Store::memory()
        }),
        None => Store::memory(),
    };
    let mut options = TierOptions::default();
    let mut out: Vec<(u64, Msg)> = Vec::new();

    // 1. Reach every position.
    let started = Instant::now();
    let mut progress = Progress::new(me == 0);
    let mut reach_rounds = 0u64;
    if me == 0 {
        for &root in roots {
            out.push((owner(root, peers), Msg::Reach(root)));
        }
    }
    // Positions held whose options are not sent yet, with their ranks.
    let mut frontier: Vec<(u128, i64)> = Vec::new();
    let mut measures = Vec::new();
    loop {
        let left = (out.len() + frontier.len()) as u64;
        let (got, left, failed) =
            rounds.round_with_status(worker, &mut out, left, failure.is_some());
        reach_rounds += 1;
        progress.say(|| {
            format!("tiered: reaching positions, round {reach_rounds}: {left} sent or waiting")
        });
        if failed {
            return Err(failure.unwrap_or_else(|| OTHER_FAILED.to_string()));
        }
        if left == 0 {
            break;
        }
        let mut reached: Vec<u128> = (got.into_iter())
            .filter_map(|m| match m {
                Msg::Reach(code) => Some(code),
                _ => None,
            })
            .collect();
        if held.on_disk() {
            // Each position looked up once a round, in the store's order.
            reached.sort_unstable();
            reached.dedup();
        }
        for code in reached {
            if failure.is_some() {
                break;
            }
            match hold(graph, code, &signs, &mut held, &mut measures) {
                Ok(Some(rank)) => frontier.push((code, rank)),
                Ok(None) => {}
                Err(e) => failure = Some(e),
            }
        }
        let mut sent_now: FxHashSet<u128> = FxHashSet::default();
        let from = (frontier.len()).saturating_sub(match held.on_disk() {
            true => SPILLED_CHUNK,
            false => REACH_CHUNK,
        });
        for (code, rank) in frontier.drain(from..) {
            if failure.is_some() {
                continue;
            }
            let expanded = expand(
                graph,
                code,
                rank,
                &signs,
                peers,
                &mut sent_now,
                &mut options,
                &mut out,
            );
            if let Err(e) = expanded {
                failure = Some(e);
            }
        }
        if failure.is_some() {
            out.clear();
            frontier.clear();
        }
    }
    let reach_seconds = started.elapsed().as_secs_f64();

    // Every worker learns every rank.
    held.reached();
    for w in 0..peers {
        for rank in held.ranks() {
            out.push((w, Msg::Rank(rank)));
        }
    }
    let mut ranks: Vec<i64> = (rounds.round(worker, &mut out).into_iter())
        .filter_map(|m| match m {
            Msg::Rank(r) => Some(r),
            _ => None,
        })
        .collect();
    ranks.sort_unstable();
    ranks.dedup();

    // 2. Solve the tiers from the highest rank down, each in rounds of at most
    // `TIER_CHUNK` positions a worker (so that its messages stay few; fewer still where
    // the positions are spilled to disk, since memory is short).
    let chunk_positions = if held.on_disk() {
        SPILLED_CHUNK
    } else {
        TIER_CHUNK
    };
    let mut tiers = Vec::new();
    let mut chunk = Chunk::default();
    // Ranks are known: the options' measures are not read again.
    options.want_measures(false);
    for (done, &rank) in ranks.iter().rev().enumerate() {
        let started = Instant::now();
        progress.say(|| {
            format!(
                "tiered: solving tier {} of {} (rank {rank})",
                done + 1,
                ranks.len()
            )
        });
        let tier = match held.tier(rank) {
            Ok(tier) => tier,
            Err(e) => {
                failure.get_or_insert(e);
                Vec::new()
            }
        };
        let (mut reads, mut remote) = (0u64, 0u64);
        let mut next = 0;
        loop {
            let end = tier.len().min(next + chunk_positions);
            chunk.clear();
            for &code in &tier[next..end] {
                if failure.is_some() {
                    break;
                }
                let listed = graph.options(code, &mut options);
                if let Err(e) = listed.and_then(|()| chunk.ask(code, &options, &held, me, peers)) {
                    failure = Some(e);
                }
            }
            next = end;
            reads += chunk.reads;
            // Each distinct remote position once, to its owner.
            chunk.pending.sort_unstable();
            let mut asked = 0u64;
            let mut last = None;
            for &(code, _) in &chunk.pending {
                if last != Some(code) {
                    last = Some(code);
                    asked += 1;
                    if failure.is_none() {
                        out.push((
                            owner(code, peers),
                            Msg::Ask {
                                code,
                                from: me as u32,
                            },
                        ));
                    }
                }
            }
            remote += asked;
            let left = (tier.len() - next) as u64;
            let (asks, left, failed) =
                rounds.round_with_status(worker, &mut out, left, failure.is_some());
            if failed {
                return Err(failure.unwrap_or_else(|| OTHER_FAILED.to_string()));
            }
            for m in asks {
                if let Msg::Ask { code, from } = m {
                    let value = match held.value(code) {
                        Ok(Some(value)) => value,
                        Ok(None) => {
                            failure = Some(unsolved(graph, code));
                            0
                        }
                        Err(e) => {
                            failure = Some(e);
                            0
                        }
                    };
                    out.push((u64::from(from), Msg::Answer { code, value }));
                }
            }
            if failure.is_some() {
                out.clear();
            }
            let (answers, _, failed) =
                rounds.round_with_status(worker, &mut out, 0, failure.is_some());
            if failed {
                return Err(failure.unwrap_or_else(|| OTHER_FAILED.to_string()));
            }
            chunk.answered.clear();
            chunk
                .answered
                .extend(answers.into_iter().filter_map(|m| match m {
                    Msg::Answer { code, value } => Some((code, value)),
                    _ => None,
                }));
            for (code, value) in chunk.solve() {
                if let Err(e) = held.solved(code, rank, value) {
                    failure.get_or_insert(e);
                }
            }
            if left == 0 {
                break;
            }
        }
        // Worker 0 learns the tier's counts.
        let counts = Msg::Counts {
            positions: tier.len() as u64,
            reads,
            remote,
        };
        out.push((0, counts));
        let mut cost = TierCost {
            rank,
            positions: 0,
            reads: 0,
            remote_reads: 0,
            seconds: 0.0,
        };
        for m in rounds.round(worker, &mut out) {
            if let Msg::Counts {
                positions,
                reads,
                remote,
            } = m
            {
                cost.positions += positions;
                cost.reads += reads;
                cost.remote_reads += remote;
            }
        }
        cost.seconds = started.elapsed().as_secs_f64();
        tiers.push(cost);
    }

    progress.clear();

    // 3. The roots' values, to worker 0.
    if me == 0 {
        for (index, &code) in roots.iter().enumerate() {
            let index = index as u32;
            out.push((owner(code, peers), Msg::RootAsk { code, index }));
        }
    }
    for m in rounds.round(worker, &mut out) {
        if let Msg::RootAsk { code, index } = m {
            let value = held.value(code).ok().flatten().unwrap_or(UNSOLVED);
            out.push((0, Msg::RootAnswer { index, value }));
        }
    }
    let mut root_values = vec![UNSOLVED; roots.len()];
    for m in rounds.round(worker, &mut out) {
        if let Msg::RootAnswer { index, value } = m {
            root_values[index as usize] = value;
        }
    }
    if me != 0 {
        return Ok(None);
    }
    if let Some(i) = root_values.iter().position(|&v| v == UNSOLVED) {
        return Err(format!(
            "internal error: the tiered solve found no value of {}",
            graph.show(roots[i])
        ));
    }
    Ok(Some(TierReport {
        values: root_values,
        positions: tiers.iter().map(|t| t.positions).sum(),
        signs,
        reach_seconds,
        tiers,
        workers: peers as usize,
    }))
}

/// A folder of the tests' own under the system's temporary folder, removed on drop (also
/// when a test fails).
#[cfg(test)]
struct TempDir(PathBuf);

#[cfg(test)]
impl TempDir {
    fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("cgdl-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        TempDir(dir)
    }
}

#[cfg(test)]
impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleError;
    use crate::Solver;
    use proptest::prelude::*;

    /// Cram on a board of at most 8 × 8 cells: a position is the set of empty cells; a
    /// move fills two empty neighbours. Its measure is the number of empty cells.
    #[derive(Clone, Copy)]
    struct Cram {
        cols: u32,
        /// Whether the rules keep a board as the least of it and its mirror image.
        mirror: bool,
    }

    impl Cram {
        fn mirrored(&self, empty: u64) -> u64 {
            (0..64)
                .filter(|&cell| empty >> cell & 1 != 0)
                .map(|cell| {
                    let (r, c) = (cell / self.cols, cell % self.cols);
                    1 << (r * self.cols + self.cols - 1 - c)
                })
                .sum()
        }
    }

    impl Rules for Cram {
        type Pos = u64;
        fn options(&self, empty: u64, out: &mut Options<u64>) -> Result<(), RuleError> {
            for cell in 0..64 {
                if empty >> cell & 1 == 0 {
                    continue;
                }
                let right = cell + 1;
                if right % self.cols != 0 && right < 64 && empty >> right & 1 != 0 {
                    out.position(empty & !(1 << cell) & !(1 << right));
                }
                let down = cell + self.cols;
                if down < 64 && empty >> down & 1 != 0 {
                    out.position(empty & !(1 << cell) & !(1 << down));
                }
            }
            Ok(())
        }
        fn key(&self, pos: u64) -> Option<u64> {
            Some(pos)
        }
        fn position_of_code(&self, code: u128) -> Option<u64> {
            u64::try_from(code).ok()
        }
        fn measures(&self, pos: u64, out: &mut Vec<i64>) {
            out.clear();
            out.push(i64::from(pos.count_ones()));
        }
        fn least_image(&self, pos: u64) -> u64 {
            match self.mirror {
                true => pos.min(self.mirrored(pos)),
                false => pos,
            }
        }
    }

    /// Kayles (octal 0.77) heaps as positions: a move splits a heap into a sum of two.
    /// Its measure is the heap's size; `flat` gives no measure, so that no rank exists.
    #[derive(Clone, Copy)]
    struct Kayles {
        flat: bool,
    }

    impl Rules for Kayles {
        type Pos = u64;
        fn options(&self, n: u64, out: &mut Options<u64>) -> Result<(), RuleError> {
            let code = crate::heap::HeapCode::parse("0.77").map_err(RuleError::new)?;
            crate::rules::heap_options(n as i64, code.digits(), |k| k as u64, out)
        }
        fn key(&self, pos: u64) -> Option<u64> {
            Some(pos)
        }
        fn position_of_code(&self, code: u128) -> Option<u64> {
            u64::try_from(code).ok()
        }
        fn measures(&self, pos: u64, out: &mut Vec<i64>) {
            out.clear();
            if !self.flat {
                out.push(pos as i64);
            }
        }
    }

    fn tiered<R: Rules + Send + Sync + Clone + 'static>(
        rules: &R,
        roots: &[R::Pos],
        workers: usize,
    ) -> Result<TierReport, String>
    where
        R::Pos: Send,
    {
        tiered_with(rules, roots, workers, None)
    }

    /// [`tiered`], spilling into `spill` where given.
    fn tiered_with<R: Rules + Send + Sync + Clone + 'static>(
        rules: &R,
        roots: &[R::Pos],
        workers: usize,
        spill: Option<&Path>,
    ) -> Result<TierReport, String>
    where
        R::Pos: Send,
    {
        let graph = RulesGraph(rules.clone());
        let codes = roots
            .iter()
            .map(|&p| graph.code(p))
            .collect::<Result<Vec<_>, _>>()?;
        let config = TierConfig {
            workers,
            spill: spill.map(Path::to_path_buf),
            ..TierConfig::default()
        };
        Ok(solve(Arc::new(graph), codes, &config)?.expect("worker 0 is in this process"))
    }

    /// Positions spilled to disk give the values and counts of positions held in memory,
    /// on one worker and on three; each worker's folder is gone when the solve ends.
    #[test]
    fn a_solve_spilled_to_disk_answers_as_one_in_memory() {
        let dir = TempDir::new("spill-test");
        let rules = Cram {
            cols: 4,
            mirror: true,
        };
        let board = (1u64 << 16) - 1;
        let roots = [board, board & !0b1001_0000_0110, board >> 3];
        let in_memory = tiered(&rules, &roots, 2).unwrap();
        for workers in [1, 3] {
            let spilled = tiered_with(&rules, &roots, workers, Some(&dir.0)).unwrap();
            assert_eq!(spilled.values, in_memory.values);
            assert_eq!(spilled.positions, in_memory.positions);
            let ranks = |r: &TierReport| {
                r.tiers
                    .iter()
                    .map(|t| (t.rank, t.positions))
                    .collect::<Vec<_>>()
            };
            assert_eq!(ranks(&spilled), ranks(&in_memory));
            let left = std::fs::read_dir(&dir.0).unwrap().count();
            assert_eq!(left, 0, "the workers' folders are removed");
        }
        let mut solver = Solver::new(&rules);
        for (i, &root) in roots.iter().enumerate() {
            assert_eq!(in_memory.values[i], solver.grundy(root).unwrap());
        }
    }

    /// A folder to spill into that is a file or does not exist is an error, on every
    /// worker's solve (none is made).
    #[test]
    fn a_spill_folder_that_is_not_one_is_an_error() {
        let dir = TempDir::new("spill-file");
        let file = dir.0.join("a-file");
        std::fs::write(&file, "not a folder").unwrap();
        let missing = dir.0.join("missing");
        let rules = Cram {
            cols: 3,
            mirror: false,
        };
        for workers in [1, 2] {
            for spill in [&file, &missing] {
                let err = tiered_with(&rules, &[(1 << 9) - 1], workers, Some(spill)).unwrap_err();
                assert!(err.contains("cannot spill the tiered solve into"), "{err}");
            }
        }
        assert!(!missing.exists());
    }

    #[test]
    fn kayles_heaps_have_the_sequence_of_the_definition() {
        let code = crate::heap::HeapCode::parse("0.77").unwrap();
        let sequence = crate::rules::naive_sequence(&code, 40);
        let roots: Vec<u64> = (0..=40).collect();
        for workers in [1, 2, 3] {
            let report = tiered(&Kayles { flat: false }, &roots, workers).unwrap();
            assert_eq!(report.values, sequence, "{workers} workers");
            assert_eq!(report.positions, 41);
            assert_eq!(report.signs, vec![-1]);
            assert_eq!(report.workers, workers);
        }
    }

    /// The king's horses (Lenhardt): a horse on an 8 × 8 board jumps like a knight to the
    /// four squares that lower its row plus column; row and column each may rise.
    #[derive(Clone, Copy)]
    struct Horse;

    impl Rules for Horse {
        type Pos = (i64, i64);
        fn options(
            &self,
            (r, c): (i64, i64),
            out: &mut Options<(i64, i64)>,
        ) -> Result<(), RuleError> {
            for (dr, dc) in [(-2, 1), (-2, -1), (1, -2), (-1, -2)] {
                let (r, c) = (r + dr, c + dc);
                if (0..8).contains(&r) && (0..8).contains(&c) {
                    out.position((r, c));
                }
            }
            Ok(())
        }
        fn key(&self, (r, c): (i64, i64)) -> Option<u64> {
            Some((r * 8 + c) as u64)
        }
        fn position_of_code(&self, code: u128) -> Option<(i64, i64)> {
            (code < 64).then_some((code as i64 / 8, code as i64 % 8))
        }
        fn measures(&self, (r, c): (i64, i64), out: &mut Vec<i64>) {
            out.clear();
            out.extend([r, c]);
        }
    }

    #[test]
    fn a_rank_of_measures_that_fall_together_is_found() {
        let roots: Vec<(i64, i64)> = (0..64).map(|k| (k / 8, k % 8)).collect();
        let report = tiered(&Horse, &roots, 2).unwrap();
        assert_eq!(report.signs, vec![-1, -1]);
        let mut solver = Solver::new(&Horse);
        for (i, &root) in roots.iter().enumerate() {
            assert_eq!(report.values[i], solver.grundy(root).unwrap(), "{root:?}");
        }
    }

    #[test]
    fn a_move_that_keeps_the_rank_is_an_error() {
        let error = tiered(&Kayles { flat: true }, &[6], 2).unwrap_err();
        assert!(error.contains("does not raise the rank"), "{error}");
    }

    #[test]
    fn a_position_without_a_code_is_an_error() {
        #[derive(Clone, Copy)]
        struct NoCodes;
        impl Rules for NoCodes {
            type Pos = u64;
            fn options(&self, _: u64, _: &mut Options<u64>) -> Result<(), RuleError> {
                Ok(())
            }
        }
        let error = tiered(&NoCodes, &[1], 1).unwrap_err();
        assert!(error.contains("has no position code"), "{error}");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// Cram boards of up to 4 × 4 with some cells filled: every worker count gives the
        /// ordinary solver's values.
        #[test]
        fn cram_boards_have_the_solvers_values(
            rows in 1u32..=4,
            cols in 1u32..=4,
            holes in any::<u64>(),
            workers in 1usize..=3,
        ) {
            let cells = rows * cols;
            let board = (1u64 << cells) - 1;
            let roots = [board, board & !(holes & (holes >> 7))];
            let rules = Cram { cols, mirror: false };
            let report = tiered(&rules, &roots, workers).unwrap();
            let mut solver = Solver::new(&rules);
            for (i, &root) in roots.iter().enumerate() {
                prop_assert_eq!(report.values[i], solver.grundy(root).unwrap());
            }
            let tiers: u64 = report.tiers.iter().map(|t| t.positions).sum();
            prop_assert_eq!(tiers, report.positions);
            // Kept as the least of each board and its mirror image: the same values, from
            // fewer positions.
            let mirrored = tiered(&Cram { cols, mirror: true }, &roots, workers).unwrap();
            prop_assert_eq!(&mirrored.values, &report.values);
            prop_assert!(mirrored.positions <= report.positions);
            if cols >= 2 && rows >= 2 {
                prop_assert!(mirrored.positions < report.positions);
            }
        }
    }
}

#[cfg(test)]
mod connect_tests {
    use super::*;

    #[test]
    fn a_process_whose_partners_never_come_gives_up_with_an_error() {
        // Process 1 of 2 connects to process 0, which nothing runs.
        let dir = TempDir::new("tiered");
        let hosts = dir.0.join("hosts");
        std::fs::write(&hosts, "127.0.0.1:1\n127.0.0.1:0\n").unwrap();
        let config = TierConfig {
            processes: 2,
            process: 1,
            hostfile: Some(hosts),
            connect_timeout: std::time::Duration::from_millis(300),
            ..TierConfig::default()
        };
        #[derive(Clone, Copy)]
        struct Nothing;
        impl TierGraph for Nothing {
            fn options(&self, _: u128, out: &mut TierOptions) -> Result<(), String> {
                out.clear();
                Ok(())
            }
            fn measures(&self, _: u128, out: &mut Vec<i64>) -> Result<(), String> {
                out.clear();
                Ok(())
            }
            fn show(&self, code: u128) -> String {
                code.to_string()
            }
        }
        let error = solve(Arc::new(Nothing), vec![0], &config).unwrap_err();
        assert!(error.contains("did not connect within"), "{error}");
    }

    #[test]
    fn bad_placements_are_errors() {
        let too_many = crate::kernel::MAX_THREADS + 1;
        for (workers, processes, process) in [(0, 1, 0), (1, 0, 0), (1, 2, 2), (too_many, 1, 0)] {
            let config = TierConfig {
                workers,
                processes,
                process,
                ..TierConfig::default()
            };
            let error = timely_config(&config).unwrap_err();
            assert!(error.contains("at least one worker"), "{error}");
        }
        let dir = TempDir::new("tiered-hosts");
        let hosts = dir.0.join("hosts");
        std::fs::write(&hosts, "127.0.0.1:2101\n").unwrap();
        let placed = |hostfile| TierConfig {
            processes: 2,
            hostfile: Some(hostfile),
            ..TierConfig::default()
        };
        let error = timely_config(&placed(hosts.clone())).unwrap_err();
        assert!(
            error.contains("has 1 host:port lines for 2 processes"),
            "{error}"
        );
        let error = timely_config(&placed(dir.0.join("missing"))).unwrap_err();
        assert!(error.contains("cannot read the hostfile"), "{error}");
    }
}
