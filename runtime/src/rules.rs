//! The trait a game universe implements, and the buffer its options are written into.

use crate::expr::Expr;
use crate::kernel::{KernelAnswer, KernelTables};
use std::fmt::{self, Debug};
use std::hash::Hash;

/// A player of a partizan game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Left (Blue, positive values).
    Left,
    /// Right (Red, negative values).
    Right,
}

/// A universe of games: every game of one file (or one hand-written program) shares one
/// packed, `Copy` position key `Pos` (typically a game tag plus the fields' bits).
///
/// Only [`Rules::options`] must be written. Its methods fall in four groups:
///
/// | group | methods | what the default does |
/// |---|---|---|
/// | the game itself | `options`, `is_partizan`, `side_options`, `write_pos` | impartial: each side's options are `options` |
/// | memo layout | `dense_index`, `key`, `wide_key`, `code`, `position_of_code`, `measures` | positions kept in a hash map; no tiered solve |
/// | fast paths | `grundy_kernel`, `heap_of`, `least_image`, `least_image_fixing`, `has_symmetries`, `ends_now`, `options_open`, `splits` | none: every search as the definition goes |
/// | checks and resources | `checked_symmetries`, `symmetry_image`, `symmetry_name`, `has_proven_symmetries`, `forget_positions` | nothing checked; positions are values |
///
/// A fast path never changes a value: each answers as its definition says (the method's
/// documentation), or declines (`None`, [`KernelAnswer::Declined`], `false`) and the
/// solver does what the definition does.
pub trait Rules {
    /// A packed position key of any game of the universe.
    type Pos: Copy + Eq + Ord + Hash + Debug;

    /// Writes the options (the positions one move away) of `pos` into `out`.
    fn options(&self, pos: Self::Pos, out: &mut Options<Self::Pos>) -> Result<(), RuleError>;

    /// A dense index of `pos`, when positions index densely (bounded fields). The solver
    /// then keeps its memo for `pos` in a flat array instead of a hash map. Indices must be
    /// injective; they need not be contiguous.
    fn dense_index(&self, _pos: Self::Pos) -> Option<usize> {
        None
    }

    /// A packing of `pos` into 64 bits, when its game's positions fit (a game tag and
    /// fields of bounded width). The solver then keeps `pos` in a compact memo keyed by
    /// it. Keys must be injective over the positions that have one; a key of `u64::MAX`
    /// counts as none.
    fn key(&self, _pos: Self::Pos) -> Option<u64> {
        None
    }

    /// A packing of `pos` into 128 bits, for positions without a [`Rules::key`] (a set of
    /// 100 board cells): the solver keeps them in a compact memo keyed by it. Keys must be
    /// injective over the positions that have one; a key of `u128::MAX` counts as none.
    fn wide_key(&self, _pos: Self::Pos) -> Option<u128> {
        None
    }

    /// `pos` as a 128-bit code that [`Rules::position_of_code`] reads back: what a tiered
    /// solve exchanges between its workers (`tiered`). Default: [`Rules::key`] below
    /// 2^127, else [`Rules::wide_key`] with bit 127 set where it fits below it.
    fn code(&self, pos: Self::Pos) -> Option<u128> {
        match self.key(pos).filter(|&k| k != u64::MAX) {
            Some(k) => Some(u128::from(k)),
            None => (self.wide_key(pos))
                .filter(|&k| k < 1 << 127)
                .map(|k| k | 1 << 127),
        }
    }

    /// The position whose [`Rules::code`] is `code` (generated rules decode their keys).
    /// Default: none, and a universe without it has no tiered solve.
    fn position_of_code(&self, _code: u128) -> Option<Self::Pos> {
        None
    }

    /// The numbers a tiered solve builds its rank of positions from, written into `out`
    /// (cleared first; the same length for every position of the universe): for generated
    /// rules, the size of each set field and the value of each number field of each game
    /// (0 for another game's). Default: none.
    fn measures(&self, _pos: Self::Pos, out: &mut Vec<i64>) {
        out.clear();
    }

    /// An optional fast path for Grundy values (generated for heap games): computes the
    /// Grundy value of `pos` and of every smaller position of its game bottom up, pushing
    /// each new `(position, value)` to `out` ([`KernelAnswer::Computed`]), or asks a heap
    /// code's engine ([`KernelAnswer::Kept`]); `known` gives values already solved, and
    /// `tables` the values it computed in earlier calls (so each value is computed once).
    /// [`KernelAnswer::Declined`] (having pushed nothing the solver must keep) when it does
    /// not apply: the game is not a heap game, a move does not make the heap smaller, a rule
    /// fails, or more than `budget` new values would be needed; the solver then searches as
    /// usual, so behaviour never depends on the fast path.
    fn grundy_kernel(
        &self,
        _pos: Self::Pos,
        _known: &dyn Fn(Self::Pos) -> Option<u32>,
        _out: &mut Vec<(Self::Pos, u32)>,
        _budget: u64,
        _tables: &mut KernelTables,
    ) -> KernelAnswer {
        KernelAnswer::Declined
    }

    /// Where `pos` is heap `n` of a game given by a take-and-break code ([`crate::heap`]):
    /// the code's digits and `n`. The misère outcome of a sum of heaps of one code is then
    /// read off the code's misère quotient ([`crate::misere`]) rather than searched.
    /// Default: none.
    fn heap_of(&self, _pos: Self::Pos) -> Option<(&[u8], u64)> {
        None
    }

    /// The position the solver keeps `pos`'s values under: for a game with declared
    /// symmetries the least image of `pos` ([`least_image`]), otherwise `pos`. Every image
    /// must have the values of `pos`, and be its own image (the least of an orbit is: the
    /// least over maps that do not make a group need not be, and a solver that meets one
    /// that is not reports an internal error); `Mode::Exact` does not use this.
    fn least_image(&self, pos: Self::Pos) -> Self::Pos {
        pos
    }

    /// [`Rules::least_image`] of `pos`, and the symmetries that map `pos` to itself, as
    /// bits: bit `e` for element `e` of the game's symmetry group (for generated rules whose
    /// maps are bit permutations, every composition of the maps), or for declared map `e`
    /// (otherwise). A search tries first the options that a symmetry fixes, the one it has
    /// found most often to be a winning reply first (a symmetric position is often a
    /// second-player win: the second player copies each move's mirror image). The bits
    /// order the search only: they never change a value. Default: the least image, and no
    /// bits.
    fn least_image_fixing(&self, pos: Self::Pos) -> (Self::Pos, u64) {
        (self.least_image(pos), 0)
    }

    /// Whether some game of the universe declares symmetries: searches ask
    /// [`Rules::least_image_fixing`] only then (a solver asks this once, when it is made).
    /// Default: no.
    fn has_symmetries(&self) -> bool {
        false
    }

    /// Whether some game of the universe keeps a position as another under symmetries
    /// that were proven ([`Rules::proven_least_image_fixing`] is not `pos` itself for
    /// every position): a solver that stops checking the declared maps
    /// ([`Rules::checked_symmetries`]) then still keeps positions as least images.
    /// Default: whether the universe has symmetries at all.
    fn has_proven_symmetries(&self) -> bool {
        self.has_symmetries()
    }

    /// How many declared symmetries of `pos`'s game the solver checks as it runs: those of a
    /// game whose maps the compiler did not prove to be symmetries. For such a game
    /// [`Rules::least_image_fixing`] must be [`checked_least_image_fixing`] over the maps
    /// [`Rules::symmetry_image`] gives, from the position's least image under the
    /// symmetries proven (where it has some: then each map's image is taken to its least
    /// image under them too), and [`Rules::proven_least_image_fixing`] the image under the
    /// proven ones. The solver keeps values under the latter, verifies, at each position
    /// it expands, that the position and each of its images have the same options (each
    /// seen through its least image under all the maps), and then keeps the position's
    /// values for its images too: a map that is not a symmetry stops the solve with an
    /// error naming it, never a different value. Default: none.
    fn checked_symmetries(&self, _pos: Self::Pos) -> usize {
        0
    }

    /// The least image of `pos` under the symmetries the compiler proved, and the bits of
    /// [`Rules::least_image_fixing`] (which are those of the proven symmetries): for a game
    /// whose declared maps the solver checks ([`Rules::checked_symmetries`]), the image
    /// before those maps, which are evaluated as written; for any other,
    /// [`Rules::least_image_fixing`]. A solver keeps values under this image, and keeps a
    /// value found for the other positions of the orbit under the checked maps too, once a
    /// position rather than once an option. Default: [`Rules::least_image_fixing`].
    #[inline]
    fn proven_least_image_fixing(&self, pos: Self::Pos) -> (Self::Pos, u64) {
        self.least_image_fixing(pos)
    }

    /// The image of `pos` under declared symmetry `k` of its game (`k` below
    /// [`Rules::checked_symmetries`]), taken to its least image under the proven
    /// symmetries where the game has some; `None` where the map does not apply (its image
    /// fails).
    fn symmetry_image(&self, _pos: Self::Pos, _k: usize) -> Option<Self::Pos> {
        None
    }

    /// The name of declared symmetry `k` of `pos`'s game, for messages.
    fn symmetry_name(&self, _pos: Self::Pos, k: usize) -> String {
        format!("#{k}")
    }

    /// An optional fast path for normal-play outcomes: whether some move of `pos` ends the
    /// game (such a position is N). It must answer what [`Rules::options`] would, enumerated
    /// up to its first `end`: `true` when it reaches one, the same error when it fails
    /// first. `None` when the rules offer no probe (generated rules have one when it is far
    /// cheaper than the options; see `cgdl-compiler`'s `opt::probe`). An outcome search
    /// asks it of each option before it looks the option up, so a position decided by one
    /// move costs no lookup and no frame; a fast search asks it of each position it expands
    /// (then [`Rules::options_open`] enumerates one without such a move). `Mode::Exact`
    /// does not use it.
    fn ends_now(&self, _pos: Self::Pos) -> Option<Result<bool, RuleError>> {
        None
    }

    /// The options of `pos` once [`Rules::ends_now`] has answered `Some(Ok(false))` for it:
    /// exactly those of [`Rules::options`], found without the tests that decide whether a
    /// move is to `end` (none is). Generated rules skip those tests; the default enumerates
    /// as `options` does. A fast search asks it of each position it expands whose probe
    /// said so.
    fn options_open(&self, pos: Self::Pos, out: &mut Options<Self::Pos>) -> Result<(), RuleError> {
        self.options(pos, out)
    }

    /// Whether a move of `pos`'s game can split it into a sum of several positions. The
    /// solver then finds the Grundy value of such a position by nimber search (see
    /// `solver::nimber`), which decides small values of sums without the exact value of
    /// every position below; for other games the mex of the options' values is cheaper.
    /// Values are the same either way.
    fn splits(&self, _pos: Self::Pos) -> bool {
        false
    }

    /// Whether `pos` is of a partizan game: one whose players have different moves. Its
    /// values are canonical forms ([`crate::partizan`]), and [`Rules::options`] is not
    /// asked for it.
    fn is_partizan(&self, _pos: Self::Pos) -> bool {
        false
    }

    /// Writes the options of `side` from `pos` into `out`: for an impartial game, its
    /// options.
    fn side_options(
        &self,
        pos: Self::Pos,
        _side: Side,
        out: &mut Options<Self::Pos>,
    ) -> Result<(), RuleError> {
        self.options(pos, out)
    }

    /// Forgets every position, where the rules keep positions as handles into a table of
    /// their own (the interpreter interns them): the solver asks when it holds no position
    /// (between a query's rows) and the memory is short, and then forgets every value too.
    /// Returns whether it did. Default: no (positions are values).
    fn forget_positions(&self) -> bool {
        false
    }

    /// The one position the rules as written give for an option of `of` that is the sum of
    /// `parts` (`end` where there are none): where the compiler made `of`'s game's options
    /// sums of the parts of a set (`opt::splits`), the position of the parts' union, for
    /// output that writes options as the rules do. `None` for any other game. Default:
    /// `None`.
    fn rejoin(&self, _of: Self::Pos, _parts: &[Self::Pos]) -> Option<Self::Pos> {
        None
    }

    /// How `pos` is written in messages and output, e.g. `Kayles(7)`.
    fn write_pos(&self, pos: Self::Pos, out: &mut dyn fmt::Write) -> fmt::Result {
        write!(out, "{pos:?}")
    }
}

/// The most positions of one orbit that [`least_image`] looks at (a board's dihedral
/// group has 8 elements).
pub const ORBIT_LIMIT: usize = 16;

/// The least position of the orbit of `pos` under maps `0..maps`, where `image(p, k)` is
/// map `k`'s image of `p` (`None`: not applied to `p`). The maps need not be closed under
/// composition: their images are followed until no new position appears, or until
/// [`ORBIT_LIMIT`] positions were seen (then the least seen; any image keeps the values,
/// so a larger orbit only shares less).
#[inline]
pub fn least_image<P: Copy + Ord>(
    pos: P,
    maps: usize,
    image: impl FnMut(P, usize) -> Option<P>,
) -> P {
    least_image_fixing(pos, maps, image).0
}

/// [`least_image`], and the maps `k` whose image of `pos` itself is `pos`, as bits (bit `k`,
/// for `k < 64`): see [`Rules::least_image_fixing`].
#[inline]
pub fn least_image_fixing<P: Copy + Ord>(
    pos: P,
    maps: usize,
    mut image: impl FnMut(P, usize) -> Option<P>,
) -> (P, u64) {
    let mut orbit = [pos; ORBIT_LIMIT];
    let (mut len, mut next, mut least, mut fixing) = (1, 0, pos, 0u64);
    while next < len {
        let p = orbit[next];
        next += 1;
        for k in 0..maps {
            let Some(q) = image(p, k) else {
                continue;
            };
            if next == 1 && q == pos && k < 64 {
                fixing |= 1 << k;
            }
            if orbit[..len].contains(&q) {
                continue;
            }
            if len == ORBIT_LIMIT {
                return (least, fixing);
            }
            orbit[len] = q;
            len += 1;
            least = least.min(q);
        }
    }
    (least, fixing)
}

/// The orbit of `pos` under maps `0..maps` (`image(p, k)`, `None` where map `k` does not
/// apply to `p`) when the maps permute it: every map applies to every position of the
/// orbit, no two positions have one image under one map, and the orbit has at most
/// [`ORBIT_LIMIT`] positions. Then the orbit is the same from each of its positions, and
/// a solver that keeps every position as the least of its orbit and checks, at that least
/// position, that each position of the orbit has its options ([`Rules::checked_symmetries`])
/// has checked every position it replaced. Each entry is a position, and how it was first
/// reached: the index of the entry it is an image of, and the map (`(0, usize::MAX)` for
/// `pos` itself). `None` where the maps do not permute the orbit.
#[inline]
pub fn permuted_orbit<P: Copy + Ord>(
    pos: P,
    maps: usize,
    mut image: impl FnMut(P, usize) -> Option<P>,
) -> Option<smallvec::SmallVec<[(P, usize, usize); ORBIT_LIMIT]>> {
    let mut orbit = smallvec::SmallVec::<[(P, usize, usize); ORBIT_LIMIT]>::new();
    orbit.push((pos, 0, usize::MAX));
    // Each map's images of the orbit's positions, by position, to find two positions with
    // one image under one map.
    let mut images = smallvec::SmallVec::<[usize; 64]>::new();
    let mut next = 0;
    while next < orbit.len() {
        let p = orbit[next].0;
        for k in 0..maps {
            let q = image(p, k)?;
            let at = match orbit.iter().position(|&(r, _, _)| r == q) {
                Some(at) => at,
                None => {
                    if orbit.len() == ORBIT_LIMIT {
                        return None;
                    }
                    orbit.push((q, next, k));
                    orbit.len() - 1
                }
            };
            images.push(at);
        }
        next += 1;
    }
    // `images[i * maps + k]` is map `k`'s image of position `i`: each map must reach each
    // position once.
    let n = orbit.len();
    for k in 0..maps {
        let mut hit = 0u32;
        for i in 0..n {
            hit |= 1 << images[i * maps + k];
        }
        if hit.count_ones() as usize != n {
            return None;
        }
    }
    Some(orbit)
}

/// [`least_image_fixing`] for maps that the solver checks ([`Rules::checked_symmetries`]):
/// the least position of the orbit where the maps permute it ([`permuted_orbit`]), and the
/// maps that fix `pos`; `pos` itself, and none, elsewhere.
pub fn checked_least_image_fixing<P: Copy + Ord>(
    pos: P,
    maps: usize,
    mut image: impl FnMut(P, usize) -> Option<P>,
) -> (P, u64) {
    let Some(orbit) = permuted_orbit(pos, maps, &mut image) else {
        return (pos, 0);
    };
    let least = orbit.iter().map(|&(p, _, _)| p).min().unwrap_or(pos);
    let mut fixing = 0u64;
    for k in 0..maps.min(64) {
        if image(pos, k) == Some(pos) {
            fixing |= 1 << k;
        }
    }
    (least, fixing)
}

/// The least images of positions under maps the solver checks, kept for one thread: a
/// position's least image ([`checked_least_image_fixing`] over its game's declared maps,
/// each image taken to its least image under the symmetries the compiler proved) is found
/// once per position rather than each time the position is an option of a position
/// checked or of a partizan game, since the declared maps are evaluated as written. A
/// direct-mapped table (a newer entry takes an older one's slot): it only saves work, and
/// never changes an image, since an image is a function of its position (and map).
pub struct ImageCache<K, V = K> {
    slots: Box<[Option<(K, V)>]>,
}

impl<K: Copy + Eq + Hash, V: Copy> Default for ImageCache<K, V> {
    fn default() -> Self {
        ImageCache::new()
    }
}

impl<K: Copy + Eq + Hash, V: Copy> ImageCache<K, V> {
    /// Slots of the table (a power of two).
    const SLOTS: usize = 1 << 16;

    /// An empty cache.
    pub fn new() -> Self {
        ImageCache {
            slots: vec![None; Self::SLOTS].into_boxed_slice(),
        }
    }

    /// The image of `key` kept, or `image(key)`, kept.
    #[inline]
    pub fn image(&mut self, key: K, image: impl FnOnce(K) -> V) -> V {
        use std::hash::BuildHasher;
        let hash = rustc_hash::FxBuildHasher.hash_one(key);
        let slot = &mut self.slots[(hash >> 40) as usize & (Self::SLOTS - 1)];
        match *slot {
            Some((k, v)) if k == key => v,
            _ => {
                let v = image(key);
                *slot = Some((key, v));
                v
            }
        }
    }
}

/// The options of heap `n` of the game with code `digits` (an octal or hexadecimal code: [`crate::heap`]); `heap(k)`
/// is the position of heap `k`. Both back ends call this; it stops with an error past
/// [`MAX_OPTIONS`].
#[inline]
pub fn heap_options<P: Copy + Ord>(
    n: i64,
    digits: &[u8],
    heap: impl Fn(i64) -> P,
    out: &mut Options<P>,
) -> Result<(), RuleError> {
    for (k, &d) in digits.iter().enumerate() {
        let k = k as i64;
        if k > n {
            break;
        }
        let rest = n - k;
        if k > 0 && d & 1 != 0 && rest == 0 {
            out.end();
        }
        if k > 0 && d & 2 != 0 && rest > 0 {
            out.position(heap(rest));
        }
        if d & 4 != 0 {
            for a in 1..=rest / 2 {
                out.sum([heap(a), heap(rest - a)]);
                out.check()?;
            }
        }
        if d & 8 != 0 {
            for a in 1..=rest / 3 {
                for b in a..=(rest - a) / 2 {
                    out.sum([heap(a), heap(b), heap(rest - a - b)]);
                    out.check()?;
                }
            }
        }
    }
    Ok(())
}

/// The nim-sequence of the game with code `code` up to heap `n`, by the definition: the mex
/// of every option's value, the options as [`heap_options`] writes them (the oracle of the
/// heap engine's tests). Stops early past [`MAX_OPTIONS`] options of a heap.
pub fn naive_sequence(code: &crate::heap::HeapCode, n: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(n + 1);
    let mut opts = Options::new();
    for h in 0..=n {
        opts.clear();
        // Positions are heap sizes; a sum's value is the nim-sum of its heaps'.
        if heap_options(h as i64, code.digits(), |k| k as usize, &mut opts).is_err() {
            break;
        }
        let seen: std::collections::HashSet<u32> = (opts.refs.iter())
            .map(|r| match *r {
                OptRef::Leaves { start, len } => {
                    (opts.leaf_slice(start, len).iter()).fold(0, |acc, &k| acc ^ g[k])
                }
                OptRef::End | OptRef::Expr(_) => 0,
            })
            .collect();
        g.push((0..).find(|v| !seen.contains(v)).unwrap_or(0));
    }
    g
}

/// An error raised by a game's rules while enumerating options: for example a move that
/// constructs a field value outside its declared type; or the enumeration's stop at an
/// `end` option, which is none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleError {
    /// A rule failed: a complete, human-readable message.
    Failed(String),
    /// Not an error: the enumeration stopped at an `end` option, as the solver asked (see
    /// [`Options::check`]); it allocates nothing.
    Stopped,
}

impl RuleError {
    /// A rule error with the given message.
    pub fn new(message: impl Into<String>) -> Self {
        RuleError::Failed(message.into())
    }

    /// Whether this is [`RuleError::Stopped`] rather than an error.
    pub fn is_stopped(&self) -> bool {
        matches!(self, RuleError::Stopped)
    }

    /// The message: an error's own, or what a stop is.
    pub fn message(&self) -> &str {
        match self {
            RuleError::Failed(message) => message,
            RuleError::Stopped => "the options stopped at an `end` option (not an error)",
        }
    }
}

/// The error of move `name` from the position written `from()`: how both back ends report
/// an error inside a move. (A stop at `end` passes through, and `from` is not written.)
#[cold]
#[inline(never)]
pub fn move_error(name: &str, from: impl FnOnce() -> String, e: RuleError) -> RuleError {
    if e.is_stopped() {
        return e;
    }
    RuleError::new(format!("move `{name}` from {}: {}", from(), e.message()))
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for RuleError {}

#[cold]
fn too_many_options() -> RuleError {
    RuleError::new(format!(
        "a position has more than {MAX_OPTIONS} options; solving it would exhaust memory"
    ))
}

/// One option as stored in [`Options`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OptRef {
    End,
    /// A sum of `len` leaves starting at `start` in `leaves` (`len == 1`: one position).
    Leaves {
        start: u32,
        len: u32,
    },
    /// A general expression, index into `exprs`.
    Expr(u32),
}

/// The options of one position, written by [`Rules::options`]. Sums of plain positions are
/// stored flat, without allocation per option.
#[derive(Clone, Debug)]
pub struct Options<P> {
    pub(crate) refs: Vec<OptRef>,
    pub(crate) leaves: Vec<P>,
    pub(crate) exprs: Vec<Expr<P>>,
    /// Stop enumerating (`check` fails) once an option is `end`: the solver sets it where
    /// such an option decides the position (a normal-play outcome), so that the rest of the
    /// moves are never evaluated.
    stop_at_end: bool,
    /// An `end` option was added while `stop_at_end` was set.
    stopped: bool,
    /// `check` fails past this many options: [`MAX_OPTIONS`], or 0 once stopped.
    limit: usize,
    /// The memory the process may hold while options are enumerated (the solve's
    /// `--max-memory`), measured every [`MEMORY_CHECK_OPTIONS`] options: a position whose
    /// options alone would exhaust it stops the solve.
    memory_limit: Option<u64>,
    /// The enumeration stopped at the memory limit.
    out_of_memory: bool,
}

/// How often (in options) an enumeration measures the memory the process holds.
pub const MEMORY_CHECK_OPTIONS: usize = 1 << 16;

impl<P> Default for Options<P> {
    fn default() -> Self {
        Options {
            refs: Vec::new(),
            leaves: Vec::new(),
            exprs: Vec::new(),
            stop_at_end: false,
            stopped: false,
            limit: MAX_OPTIONS,
            memory_limit: None,
            out_of_memory: false,
        }
    }
}

/// The most options one position may have: enumerating more would only exhaust memory
/// (each takes 20 to 30 bytes), so rules stop with an error past it.
pub const MAX_OPTIONS: usize = 1 << 22;

impl<P: Copy + Ord> Options<P> {
    /// `Err` once more than [`MAX_OPTIONS`] options were added; generated rules and the
    /// interpreter call it after each option, so that a move domain is never enumerated
    /// past the limit.
    ///
    /// It also fails right after an `end` option when the solver asked to stop there (see
    /// [`Options::stopped_at_end`]).
    #[inline]
    pub fn check(&mut self) -> Result<(), RuleError> {
        if self.refs.len() > self.limit {
            return Err(self.over_limit());
        }
        if self.refs.len().is_multiple_of(MEMORY_CHECK_OPTIONS) && self.memory_limit.is_some() {
            return self.check_memory();
        }
        Ok(())
    }

    /// Fails (and says so: [`Options::out_of_memory`]) where the process holds more than
    /// the memory limit.
    #[cold]
    fn check_memory(&mut self) -> Result<(), RuleError> {
        match (self.memory_limit, crate::memory::resident_bytes()) {
            (Some(limit), Some(held)) if held > limit && !self.refs.is_empty() => {
                self.out_of_memory = true;
                Err(RuleError::new(format!(
                    "the state space is too large: the solve reached its memory limit of {} \
                     (--max-memory) while listing one position's options",
                    crate::memory::show_size(limit)
                )))
            }
            _ => Ok(()),
        }
    }

    /// Sets the memory the process may hold while options are enumerated (the solver sets
    /// its `--max-memory`).
    pub fn set_memory_limit(&mut self, limit: Option<u64>) {
        self.memory_limit = limit;
    }

    /// Whether the last enumeration stopped at the memory limit.
    pub fn out_of_memory(&self) -> bool {
        self.out_of_memory
    }

    #[cold]
    fn over_limit(&self) -> RuleError {
        if self.stopped {
            RuleError::Stopped
        } else {
            too_many_options()
        }
    }

    /// Asks that enumeration stop at the first `end` option (or no longer).
    pub(crate) fn set_stop_at_end(&mut self, on: bool) {
        self.stop_at_end = on;
        self.stopped = false;
        self.limit = MAX_OPTIONS;
        self.out_of_memory = false;
    }

    /// Adds `end`; when asked to stop there, `check` fails from now on.
    fn push_end(&mut self) {
        self.refs.push(OptRef::End);
        if self.stop_at_end {
            self.stopped = true;
            self.limit = 0;
        }
    }

    /// Whether an enumeration that asked to stop at `end` did so (its last option is `end`;
    /// `check` fails right after such an option is added).
    pub fn stopped_at_end(&self) -> bool {
        self.stopped
    }

    /// An empty buffer.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the option `end` (the game is over after this move).
    pub fn end(&mut self) {
        self.push_end();
    }

    /// Adds one position.
    #[inline]
    pub fn position(&mut self, pos: P) {
        self.refs.push(OptRef::Leaves {
            start: self.leaves.len() as u32,
            len: 1,
        });
        self.leaves.push(pos);
    }

    /// Adds a disjunctive sum of positions (which may be of different games).
    pub fn sum(&mut self, positions: impl IntoIterator<Item = P>) {
        let start = self.open_sum();
        self.leaves.extend(positions);
        self.close_sum(start);
    }

    /// Starts a disjunctive sum whose positions are then added one by one
    /// ([`Options::leaf`]) and which [`Options::close_sum`] adds as one option (a sum over a
    /// comprehension, without collecting it first).
    #[inline]
    pub fn open_sum(&self) -> usize {
        self.leaves.len()
    }

    /// Adds a position to the sum begun by [`Options::open_sum`].
    #[inline]
    pub fn leaf(&mut self, pos: P) {
        self.leaves.push(pos);
    }

    /// Adds the sum of the positions added since `start` ([`Options::open_sum`]) as one
    /// option: `end` when there is none.
    #[inline]
    pub fn close_sum(&mut self, start: usize) {
        let len = self.leaves.len() - start;
        if len == 0 {
            self.push_end();
        } else {
            self.refs.push(OptRef::Leaves {
                start: start as u32,
                len: len as u32,
            });
        }
    }

    /// Adds a general position expression (compounds, nested sums); it is put in
    /// canonical form.
    pub fn expr(&mut self, expr: Expr<P>) {
        match expr.canonical() {
            Expr::End => self.end(),
            Expr::Pos(p) => self.position(p),
            other => {
                self.refs.push(OptRef::Expr(self.exprs.len() as u32));
                self.exprs.push(other);
            }
        }
    }

    /// Number of options.
    pub fn len(&self) -> usize {
        self.refs.len()
    }

    /// Whether there are no options (the position is terminal).
    pub fn is_empty(&self) -> bool {
        self.refs.is_empty()
    }

    /// Removes every option, keeping the allocations.
    pub fn clear(&mut self) {
        self.refs.clear();
        self.leaves.clear();
        self.exprs.clear();
        self.set_stop_at_end(false);
    }

    pub(crate) fn leaf_slice(&self, start: u32, len: u32) -> &[P] {
        &self.leaves[start as usize..(start + len) as usize]
    }

    /// Option `i` as an expression (allocates for sums).
    pub fn get(&self, i: usize) -> Expr<P> {
        match self.refs[i] {
            OptRef::End => Expr::End,
            OptRef::Leaves { start, len: 1 } => Expr::Pos(self.leaves[start as usize]),
            OptRef::Leaves { start, len } => {
                Expr::sum_of(self.leaf_slice(start, len).iter().copied())
            }
            OptRef::Expr(k) => self.exprs[k as usize].clone(),
        }
    }

    /// Every option as an expression.
    pub fn to_exprs(&self) -> Vec<Expr<P>> {
        (0..self.len()).map(|i| self.get(i)).collect()
    }
}

/// The options of heap `n` of the subtraction game with subtraction set `set`: remove `s`
/// tokens for each `s <= n` in the set. `heap(k)` is the position of heap `k`. Both back ends
/// call this, so the game means the same in each.
#[inline]
pub fn subtraction_options<P: Copy + Ord>(
    n: i64,
    set: &[i64],
    heap: impl Fn(i64) -> P,
    out: &mut Options<P>,
) {
    for &s in set {
        if s <= n {
            out.position(heap(n - s));
        }
    }
}
