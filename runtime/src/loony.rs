//! Simple loony dots-and-boxes endgames (Buzzard & Ciere; Allcock): a multiset of isolated
//! chains (length >= 3) and loops (even length >= 4). The player to move must open a
//! component; the other player (the controller) then takes all of it, or keeps control by
//! declining the last 2 boxes of a chain (4 of a loop). Values are the controller's net
//! score under optimal play. Formulas: K. Buzzard and M. Ciere, "Playing simple loony dots and
//! boxes endgames optimally" (2014), and D. Allcock, "Best play in Dots and Boxes endgames"
//! (2019).

use rustc_hash::FxHashMap;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// One component of an endgame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub enum Component {
    /// A chain of this many boxes (at least 3).
    Chain(u32),
    /// A loop of this many boxes (even, at least 4).
    Loop(u32),
}

impl Component {
    /// Number of boxes.
    pub fn len(self) -> u32 {
        match self {
            Component::Chain(n) | Component::Loop(n) => n,
        }
    }

    /// Always false: components have at least 3 boxes.
    pub fn is_empty(self) -> bool {
        false
    }

    /// Boxes the controller declines to keep control: 2 for a chain, 4 for a loop.
    pub fn declined(self) -> i64 {
        match self {
            Component::Chain(_) => 2,
            Component::Loop(_) => 4,
        }
    }

    /// The controller's net score for this component when the rest is worth `rest`
    /// (to whoever controls it): the better of taking all and keeping control.
    pub fn net(self, rest: i64) -> i64 {
        let n = i64::from(self.len());
        let d = self.declined();
        n - d + (d - rest).abs()
    }

    /// Whether the controller should keep control when this is opened and the rest is worth
    /// `rest`: `Some(true)` keep, `Some(false)` take all, `None` either is optimal.
    pub fn keep_control(self, rest: i64) -> Option<bool> {
        let d = self.declined();
        match rest.cmp(&d) {
            std::cmp::Ordering::Greater => Some(true),
            std::cmp::Ordering::Less => Some(false),
            std::cmp::Ordering::Equal => None,
        }
    }
}

impl fmt::Display for Component {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Component::Chain(n) => write!(f, "{n}"),
            Component::Loop(n) => write!(f, "L{n}"),
        }
    }
}

/// Why an endgame description was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoonyError(pub String);

impl fmt::Display for LoonyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LoonyError {}

/// A simple loony endgame: a multiset of components, kept as sorted (component, count)
/// pairs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Endgame {
    groups: Vec<(Component, u64)>,
}

/// The most components an endgame may have.
pub const MAX_COMPONENTS: u64 = 1 << 40;

impl Endgame {
    /// The empty endgame.
    pub fn new() -> Endgame {
        Endgame::default()
    }

    /// An endgame from components, validating each.
    pub fn from_components(
        components: impl IntoIterator<Item = Component>,
    ) -> Result<Endgame, LoonyError> {
        let mut g = Endgame::new();
        for c in components {
            g.add(c, 1)?;
        }
        Ok(g)
    }

    /// Adds `count` copies of `c`.
    pub fn add(&mut self, c: Component, count: u64) -> Result<(), LoonyError> {
        validate(c)?;
        if count == 0 {
            return Ok(());
        }
        if self.component_count().saturating_add(count) > MAX_COMPONENTS {
            return Err(LoonyError(format!(
                "too many components (more than {MAX_COMPONENTS})"
            )));
        }
        match self.groups.binary_search_by(|(x, _)| x.cmp(&c)) {
            Ok(i) => self.groups[i].1 += count,
            Err(i) => self.groups.insert(i, (c, count)),
        }
        Ok(())
    }

    /// The distinct components and their counts, sorted (chains before loops, shortest
    /// first).
    pub fn groups(&self) -> &[(Component, u64)] {
        &self.groups
    }

    /// Whether there are no components.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// Number of components.
    pub fn component_count(&self) -> u64 {
        self.groups.iter().map(|(_, k)| k).sum()
    }

    /// Total number of boxes.
    pub fn size(&self) -> i64 {
        self.groups
            .iter()
            .map(|(c, k)| i64::from(c.len()) * *k as i64)
            .sum()
    }

    /// The endgame without one copy of `c` (which must be present).
    pub fn without(&self, c: Component) -> Endgame {
        let mut g = self.clone();
        if let Ok(i) = g.groups.binary_search_by(|(x, _)| x.cmp(&c)) {
            g.groups[i].1 -= 1;
            if g.groups[i].1 == 0 {
                g.groups.remove(i);
            }
        }
        g
    }

    fn count(&self, c: Component) -> u64 {
        self.groups
            .binary_search_by(|(x, _)| x.cmp(&c))
            .map(|i| self.groups[i].1)
            .unwrap_or(0)
    }

    fn chains(&self) -> impl Iterator<Item = (u32, u64)> + '_ {
        self.groups.iter().filter_map(|&(c, k)| match c {
            Component::Chain(n) => Some((n, k)),
            Component::Loop(_) => None,
        })
    }

    fn has_loops(&self) -> bool {
        self.groups
            .iter()
            .any(|(c, _)| matches!(c, Component::Loop(_)))
    }

    /// Fully controlled value: sum over chains of (len - 4) plus over loops of (len - 8).
    pub fn fully_controlled_value(&self) -> i64 {
        self.groups
            .iter()
            .map(|&(c, k)| {
                let n = i64::from(c.len());
                (n - 2 * c.declined()) * k as i64
            })
            .sum()
    }

    /// Terminal bonus: 0 if empty; 8 if only loops; 6 if it has loops and every chain is a
    /// 3-chain; otherwise 4.
    pub fn terminal_bonus(&self) -> i64 {
        if self.is_empty() {
            0
        } else if self.chains().next().is_none() {
            8
        } else if self.has_loops() && self.chains().all(|(n, _)| n == 3) {
            6
        } else {
            4
        }
    }

    /// Controlled value cv = fcv + tb.
    pub fn controlled_value(&self) -> i64 {
        self.fully_controlled_value() + self.terminal_bonus()
    }

    /// The value by the closed form (Buzzard & Ciere; Allcock).
    pub fn value(&self) -> i64 {
        if self.is_empty() {
            return 0;
        }
        let c = self.controlled_value();
        let t = self.count(Component::Chain(3)) as i64;
        let f = self.count(Component::Loop(4)) as i64;
        let s = self.size();
        let only_3_and_l4 = self
            .groups
            .iter()
            .all(|(x, _)| matches!(x, Component::Chain(3) | Component::Loop(4)));
        if c >= 2 {
            c
        } else if f >= 1 && !only_3_and_l4 && c >= -2 {
            c.abs()
        } else if t == 0 {
            w38(c, f)
        } else if t == 1 && s.rem_euclid(4) == 3 {
            w310(c, f)
        } else if s % 2 == 0 {
            2
        } else {
            1
        }
    }

    /// The component to open (Allcock, Theorem 1.1). `None` when empty.
    pub fn opening(&self) -> Option<Component> {
        let shortest_loop = self
            .groups
            .iter()
            .map(|(x, _)| *x)
            .find(|x| matches!(x, Component::Loop(_)));
        let shortest_chain = self
            .groups
            .iter()
            .map(|(x, _)| *x)
            .find(|x| matches!(x, Component::Chain(_)));
        let c = self.controlled_value();
        let t = self.count(Component::Chain(3));
        let f = self.count(Component::Loop(4));
        let one_three_chain_plus_loops =
            t == 1 && self.chains().count() == 1 && shortest_loop.is_some();
        let rule_ii = (-1..=1).contains(&c) && f >= 1 && {
            let rest = self.without(Component::Loop(4));
            rest.groups != [(Component::Chain(3), 3)]
        };
        let rule_iii = c <= -2 && f >= 1 && t >= 1 && {
            let rest = self
                .without(Component::Loop(4))
                .without(Component::Chain(3));
            rest.size().rem_euclid(4) == 0 && rest.count(Component::Chain(3)) == 0
        };
        if (c >= 2 && one_three_chain_plus_loops) || rule_ii || rule_iii {
            return shortest_loop;
        }
        if t >= 1 {
            return Some(Component::Chain(3));
        }
        shortest_loop.or(shortest_chain)
    }
}

fn validate(c: Component) -> Result<(), LoonyError> {
    match c {
        Component::Chain(n) if n < 3 => Err(LoonyError(format!(
            "a chain of length {n} is too short: chains in a simple loony endgame have at least 3 boxes"
        ))),
        Component::Loop(n) if n < 4 => Err(LoonyError(format!(
            "a loop of length {n} is too short: loops have at least 4 boxes"
        ))),
        Component::Loop(n) if n % 2 == 1 => Err(LoonyError(format!(
            "a loop of length {n} is impossible: loops on a board have even length"
        ))),
        _ => Ok(()),
    }
}

fn w10(c: i64) -> i64 {
    match c.rem_euclid(8) {
        0 => 0,
        1 | 7 => 1,
        2 | 6 => 2,
        3 | 5 => 3,
        _ => 4,
    }
}

fn w11(c: i64, f: i64) -> i64 {
    if c.rem_euclid(4) == 2 {
        2
    } else if f % 2 == 1 {
        if c % 2 == 0 {
            0
        } else {
            1
        }
    } else if c % 2 == 0 {
        4
    } else {
        3
    }
}

fn w38(c: i64, f: i64) -> i64 {
    if c + 4 * f >= 2 {
        w10(c)
    } else {
        w11(c, f)
    }
}

fn w13(c: i64) -> i64 {
    if matches!(c.rem_euclid(8), 1 | 7) {
        1
    } else {
        3
    }
}

fn w14(f: i64) -> i64 {
    if f % 2 == 1 {
        1
    } else {
        3
    }
}

fn w310(c: i64, f: i64) -> i64 {
    if c + 4 * f >= 2 {
        w13(c)
    } else {
        w14(f)
    }
}

impl FromStr for Endgame {
    type Err = LoonyError;

    /// Parses `3 3 4 L6 L4x100`: chains by length, loops with `L`, `xK` for K copies;
    /// separators are spaces, commas or `+`.
    fn from_str(text: &str) -> Result<Endgame, LoonyError> {
        let mut g = Endgame::new();
        for token in text
            .split(|c: char| c.is_whitespace() || c == ',' || c == '+')
            .filter(|t| !t.is_empty())
        {
            let bad = || {
                LoonyError(format!(
                    "`{token}` is not a component: write a chain as its length (`3`), a loop with L (`L6`), and repeats with x (`L4x100`)"
                ))
            };
            let (body, count) = match token.split_once(['x', 'X', '*']) {
                Some((b, k)) => (b, k.parse::<u64>().map_err(|_| bad())?),
                None => (token, 1),
            };
            let component = match body.strip_prefix(['L', 'l']) {
                Some(n) => Component::Loop(n.parse().map_err(|_| bad())?),
                None => Component::Chain(body.parse().map_err(|_| bad())?),
            };
            if count == 0 || count > MAX_REPEAT {
                return Err(LoonyError(format!(
                    "`{token}`: a repeat count must be between 1 and {MAX_REPEAT}"
                )));
            }
            g.add(component, count)?;
        }
        Ok(g)
    }
}

impl fmt::Display for Endgame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("(empty)");
        }
        let mut first = true;
        for (c, k) in &self.groups {
            if !first {
                f.write_str(" ")?;
            }
            first = false;
            if *k > 3 {
                write!(f, "{c}x{k}")?;
            } else {
                for i in 0..*k {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{c}")?;
                }
            }
        }
        Ok(())
    }
}

/// The definition, memoized over sub-multisets: v(empty) = 0; v(G) = min over components X
/// of X.net(v(G - X)). Iterative (no recursion), with a bound on the states it may visit.
pub struct ExactSolver {
    kinds: Vec<Component>,
    memo: FxHashMap<Vec<u64>, i64>,
    max_states: usize,
}

impl ExactSolver {
    /// A solver for sub-multisets of `whole`, giving up past `max_states` sub-multisets.
    pub fn new(whole: &Endgame, max_states: usize) -> ExactSolver {
        ExactSolver {
            kinds: whole.groups.iter().map(|(c, _)| *c).collect(),
            memo: FxHashMap::default(),
            max_states,
        }
    }

    /// The number of sub-multisets of `g`: the states the recursion may need.
    pub fn state_count(g: &Endgame) -> f64 {
        g.groups.iter().map(|(_, k)| *k as f64 + 1.0).product()
    }

    /// States memoized so far.
    pub fn states(&self) -> usize {
        self.memo.len()
    }

    fn counts(&self, g: &Endgame) -> Vec<u64> {
        self.kinds.iter().map(|&c| g.count(c)).collect()
    }

    /// v(g) by the definition. `g` must be a sub-multiset of the endgame this solver was
    /// made for.
    pub fn value(&mut self, g: &Endgame) -> Result<i64, LoonyError> {
        let start = self.counts(g);
        let mut stack = vec![start.clone()];
        while let Some(top) = stack.last().cloned() {
            if self.memo.contains_key(&top) {
                stack.pop();
                continue;
            }
            let mut best: Option<i64> = None;
            let mut missing = false;
            for (i, &k) in top.iter().enumerate() {
                if k == 0 {
                    continue;
                }
                let mut child = top.clone();
                child[i] -= 1;
                let rest = if child.iter().all(|&x| x == 0) {
                    Some(0)
                } else {
                    self.memo.get(&child).copied()
                };
                match rest {
                    Some(w) => {
                        let v = self.kinds[i].net(w);
                        best = Some(best.map_or(v, |b| b.min(v)));
                    }
                    None => {
                        missing = true;
                        stack.push(child);
                    }
                }
            }
            if !missing {
                if self.memo.len() >= self.max_states {
                    return Err(LoonyError(format!(
                        "the exact recursion needs more than {} states here; use the closed form",
                        self.max_states
                    )));
                }
                self.memo.insert(top, best.unwrap_or(0));
                stack.pop();
            }
        }
        Ok(if start.iter().all(|&x| x == 0) {
            0
        } else {
            self.memo[&start]
        })
    }
}

/// Which way values are computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// The closed form.
    ClosedForm,
    /// The memoized definition, with a state bound.
    Exact(usize),
}

/// The controller's decision for one distinct component.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KeepControl {
    /// The component.
    pub component: String,
    /// v(G - component).
    pub rest_value: i64,
    /// `keep`, `take all` or `either`.
    pub decision: &'static str,
    /// The controller's net score if the opener opens this component.
    pub net: i64,
}

/// One step of an optimal line of play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// Who opens: `A` or `B`.
    pub opener: char,
    /// The component opened.
    pub component: String,
    /// Who answers (the controller).
    pub controller: char,
    /// Whether the controller keeps control.
    pub keeps_control: bool,
    /// Boxes to A and to B in this step.
    pub boxes: (i64, i64),
}

/// A full analysis of an endgame.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Analysis {
    /// The endgame as written back.
    pub endgame: String,
    /// Number of components.
    pub components: u64,
    /// Total boxes.
    pub boxes: i64,
    /// Net score of the controller (the player not to move).
    pub value: i64,
    /// The controlled value cv.
    pub controlled_value: i64,
    /// Final boxes (controller, opener).
    pub split: (i64, i64),
    /// The component to open (absent when empty).
    pub open: Option<String>,
    /// For each distinct component, what the controller should do when it is opened.
    pub keep_control: Vec<KeepControl>,
    /// One optimal line of play: A is the controller at the start, B moves first (its first
    /// steps, when [`analyse_with`] was given fewer steps than the endgame has components).
    pub line: Vec<Step>,
    /// Steps of the line left out after `line` (one per component).
    pub line_omitted: u64,
}

/// The most copies of one component an endgame may have.
pub const MAX_REPEAT: u64 = 1_000_000_000;

fn evaluate(
    g: &Endgame,
    method: Method,
    exact: &mut Option<ExactSolver>,
) -> Result<i64, LoonyError> {
    match method {
        Method::ClosedForm => Ok(g.value()),
        Method::Exact(_) => exact
            .as_mut()
            .expect("an exact solver for the exact method")
            .value(g),
    }
}

/// Analyses an endgame: value, controlled value, split, opening, decisions and a line of
/// play (which may be long: one step per component).
pub fn analyse(g: &Endgame, method: Method) -> Result<Analysis, LoonyError> {
    analyse_with(g, method, usize::MAX)
}

/// [`analyse`], with the line of play cut after `max_steps` steps (the rest is counted in
/// [`Analysis::line_omitted`], not computed). The exact method refuses, before any work, an
/// endgame with more sub-endgames than its state limit.
pub fn analyse_with(g: &Endgame, method: Method, max_steps: usize) -> Result<Analysis, LoonyError> {
    let mut exact = match method {
        Method::Exact(max) => {
            let states = ExactSolver::state_count(g);
            if states > max as f64 {
                return Err(LoonyError(format!(
                    "the exact recursion needs {states:.0} states here, more than the limit of \
                     {max}; use the closed form"
                )));
            }
            Some(ExactSolver::new(g, max))
        }
        Method::ClosedForm => None,
    };
    let value = evaluate(g, method, &mut exact)?;
    let mut keep_control = Vec::new();
    for &(c, _) in g.groups() {
        let rest = evaluate(&g.without(c), method, &mut exact)?;
        keep_control.push(KeepControl {
            component: c.to_string(),
            rest_value: rest,
            decision: match c.keep_control(rest) {
                Some(true) => "keep control",
                Some(false) => "take all",
                None => "either",
            },
            net: c.net(rest),
        });
    }
    // Play it out: the opener opens by Allcock's rule; the controller answers optimally.
    let mut line = Vec::new();
    let mut state = g.clone();
    let (mut controller, mut opener) = ('A', 'B');
    while let Some(x) = state.opening() {
        if line.len() >= max_steps {
            break;
        }
        let rest_g = state.without(x);
        let rest = evaluate(&rest_g, method, &mut exact)?;
        let keeps = x.keep_control(rest).unwrap_or(false);
        let n = i64::from(x.len());
        let (to_controller, to_opener) = if keeps {
            (n - x.declined(), x.declined())
        } else {
            (n, 0)
        };
        let boxes = if controller == 'A' {
            (to_controller, to_opener)
        } else {
            (to_opener, to_controller)
        };
        line.push(Step {
            opener,
            component: x.to_string(),
            controller,
            keeps_control: keeps,
            boxes,
        });
        if !keeps {
            std::mem::swap(&mut controller, &mut opener);
        }
        state = rest_g;
    }
    let size = g.size();
    Ok(Analysis {
        endgame: g.to_string(),
        components: g.component_count(),
        boxes: size,
        value,
        controlled_value: g.controlled_value(),
        split: ((size + value) / 2, (size - value) / 2),
        open: g.opening().map(|c| c.to_string()),
        line_omitted: g.component_count() - line.len() as u64,
        keep_control,
        line,
    })
}

/// Renders an analysis as text.
pub fn render(a: &Analysis) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "endgame           {}  ({} components, {} boxes)\n",
        a.endgame, a.components, a.boxes
    ));
    out.push_str(&format!(
        "value             {}  (net score of the controller, the player not to move)\n",
        a.value
    ));
    out.push_str(&format!("controlled value  {}\n", a.controlled_value));
    out.push_str(&format!(
        "final split       controller {}, opener {}\n",
        a.split.0, a.split.1
    ));
    match &a.open {
        Some(c) => out.push_str(&format!("open              {c}\n")),
        None => out.push_str("open              nothing: the endgame is over\n"),
    }
    if !a.keep_control.is_empty() {
        out.push_str("when opened       (value of the rest, controller's net, decision)\n");
        for k in &a.keep_control {
            out.push_str(&format!(
                "  {:<6}  rest {:>4}  net {:>4}  {}\n",
                k.component, k.rest_value, k.net, k.decision
            ));
        }
    }
    if !a.line.is_empty() {
        out.push_str("optimal play      (A controls at the start; B moves first)\n");
        let (mut sa, mut sb) = (0, 0);
        for (i, s) in a.line.iter().enumerate() {
            sa += s.boxes.0;
            sb += s.boxes.1;
            let action = if s.keeps_control {
                "keeps control"
            } else {
                "takes all"
            };
            out.push_str(&format!(
                "  {:>3}. {} opens {:<5} {} {:<13}  A {sa}, B {sb}\n",
                i + 1,
                s.opener,
                s.component,
                s.controller,
                action
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(s: &str) -> Endgame {
        s.parse().expect("valid endgame")
    }

    #[test]
    fn worked_values() {
        assert_eq!(g("3 3 4 L6").value(), 2);
        assert_eq!(g("3 4 L4x100 L6x100").value(), 3);
        assert_eq!(g("L6 L6 L6").value(), 2);
        assert_eq!(g("").value(), 0);
    }

    #[test]
    fn parse_errors() {
        for bad in ["2", "L5", "L2", "3x", "x3", "L", "abc", "3x0", "4 -1"] {
            assert!(bad.parse::<Endgame>().is_err(), "{bad}");
        }
        assert_eq!(g("3, 3 + L4x2").to_string(), "3 3 L4 L4");
        assert_eq!(g("L4x100").component_count(), 100);
    }
}
