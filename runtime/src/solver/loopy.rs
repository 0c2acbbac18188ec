//! The values of loopy impartial games, where the ordinary search meets a position that
//! repeats: the position's reachable graph is enumerated (every option of every position
//! met, within the position and memory limits), then labelled at once by
//! [`crate::loopy::gsg`] (generalized Grundy values, hence outcomes) and
//! [`crate::loopy::retrograde`] (remoteness), and every position of it is kept; a loopy
//! partizan game's outcome comes from its graph of both sides' options by
//! [`crate::loopy::partizan_retrograde`]. A sum's
//! Grundy value and outcome come from its parts' by Smith's rule (fast mode); any other
//! compound, and any value in exact mode, from the compound's own graph.
//!
//! A game whose moves make compounds that hold it again (`G -> G + G`) has no finite graph:
//! its enumeration stops where a compound has more than [`MAX_GRAPH_COMPONENTS`] parts.
//!
//! Values the ordinary search finished before it met the cycle stay right: a finished
//! position's followers all finished, so nothing below it repeats, and its value is the
//! same in the loopy theory.

use super::*;
use crate::loopy::{gsg, partizan_retrograde, retrograde, Gsg};
use crate::partizan::sides::{self, Sided};
use crate::partizan::{stopper, Side};

/// A loopy partizan game's positions (its first the one asked about) and their graph.
type PartizanGraph<P> = (Vec<Expr<P>>, stopper::Graph);

/// A position's values in a loopy game.
pub(super) struct Entry {
    grundy: Gsg,
    remoteness: Option<u32>,
}

/// The value kinds a loopy game has.
fn has_loopy_values(kind: ValueKind) -> bool {
    matches!(
        kind,
        ValueKind::Grundy | ValueKind::Outcome | ValueKind::Remoteness
    )
}

impl Entry {
    fn value(&self, kind: ValueKind) -> Value {
        match kind {
            ValueKind::Grundy => self.grundy.to_value(),
            ValueKind::Outcome => Value::Outcome(self.grundy.outcome()),
            _ => match self.remoteness {
                Some(r) => Value::Number(r),
                None => Value::Outcome(Outcome::D),
            },
        }
    }
}

impl<'r, R: Rules> Solver<'r, R> {
    /// The value of a position of a loopy game's graph already solved.
    pub(super) fn known_loopy(&self, kind: ValueKind, expr: &Expr<Pos<R>>) -> Option<Value> {
        match self.loopy.is_empty() || !has_loopy_values(kind) {
            true => None,
            false => self.loopy.get(expr).map(|e| e.value(kind)),
        }
    }

    /// The value `kind` of `expr`, whose search met the repetition `cycle`.
    pub(super) fn loopy_value(
        &mut self,
        kind: ValueKind,
        expr: &Expr<Pos<R>>,
        cycle: Vec<String>,
    ) -> Result<Value, SolveError> {
        if !has_loopy_values(kind) || crate::partizan::is_partizan(self.rules, expr) {
            return Err(SolveError::Cycle { positions: cycle });
        }
        if let (Mode::Fast, Expr::Compound(Compound::Sum, parts), false) =
            (self.mode, expr, kind == ValueKind::Remoteness)
        {
            let mut total = Gsg::Finite(0);
            for part in parts.iter() {
                total = total.add(&match self.value(ValueKind::Grundy, part)? {
                    Value::Number(n) => Gsg::Finite(n),
                    Value::Infinite(k) => Gsg::Infinite(k.infinite),
                    other => unreachable!("a Grundy value is a number or ∞, not {other}"),
                });
            }
            return Ok(match kind {
                ValueKind::Grundy => total.to_value(),
                _ => Value::Outcome(total.outcome()),
            });
        }
        self.solve_graph(expr)?;
        match self.known_loopy(kind, expr) {
            Some(value) => Ok(value),
            None => unreachable!("the graph's first position is `expr`"),
        }
    }

    /// The outcome of a position of a loopy partizan game (`expr` canonical).
    pub(super) fn loopy_partizan_outcome(
        &mut self,
        expr: &Expr<Pos<R>>,
    ) -> Result<Outcome, SolveError> {
        self.partizan_graph(expr)?;
        Ok(self.loopy_partizan[expr])
    }

    /// The graph of a loopy partizan position (`expr` canonical, vertex 0): every position
    /// reachable by either side's moves, each side's edges, and each position's outcome,
    /// which is kept.
    fn partizan_graph(&mut self, expr: &Expr<Pos<R>>) -> Result<PartizanGraph<Pos<R>>, SolveError> {
        let (nodes, sides) = self.graph(expr, 2, |solver, here, side| {
            let side = [Side::Left, Side::Right][side];
            solver.partizan().options(here, side)
        })?;
        let [left, right] = <[Vec<Vec<u32>>; 2]>::try_from(sides).expect("two sides");
        for (node, (a, b)) in nodes.iter().zip(partizan_retrograde(&left, &right)) {
            self.loopy_partizan
                .insert(node.clone(), Outcome::of_winners(a, b));
        }
        Ok((nodes, stopper::Graph { left, right }))
    }

    /// The simplest form of a loopy partizan position (`expr` canonical) that is a stopper,
    /// written as CGSuite writes it; its graph's outcomes are kept too.
    pub(super) fn loopy_canonical(&mut self, expr: &Expr<Pos<R>>) -> Result<String, SolveError> {
        if let Some(known) = self.loopy_forms.get(expr) {
            return known.clone();
        }
        let (nodes, graph) = self.partizan_graph(expr)?;
        let form = match stopper::simplest(&graph, 0) {
            Ok(simple) => Ok(stopper::write(&simple, self.partizan().forms())),
            Err(stopper::FormError::NotAStopper(_)) => self.sided_form(&nodes, &graph),
            Err(stopper::FormError::TooLarge(positions)) => Err(SolveError::LargeStopper {
                positions,
                limit: crate::partizan::stopper::MAX_ORDER_VERTICES / 2,
            }),
            Err(stopper::FormError::Unverified) => Err(SolveError::Unverified {
                what: "a stopper's simplest form equals the game".to_string(),
            }),
        };
        self.loopy_forms.insert(expr.clone(), form.clone());
        form
    }

    /// The value of a loopy partizan position that is not a stopper (`graph`'s vertex 0):
    /// its onside and offside, each a stopper's simplest form, written `S & T`.
    fn sided_form(
        &mut self,
        nodes: &[Expr<Pos<R>>],
        graph: &stopper::Graph,
    ) -> Result<String, SolveError> {
        let mut found = Vec::new();
        for (sided, name) in [(Sided::On, "onside"), (Sided::Off, "offside")] {
            match sides::side(graph, 0, sided) {
                Ok(form) => found.push(form),
                Err(sides::SideError::NotFound(cycle)) => {
                    return Err(SolveError::NotAStopper {
                        side: name,
                        positions: cycle
                            .iter()
                            .map(|&v| self.display(&nodes[v as usize]))
                            .collect(),
                    })
                }
                Err(sides::SideError::TooLarge(positions)) => {
                    return Err(SolveError::LargeStopper {
                        positions,
                        limit: sides::MAX_SIDED_VERTICES,
                    })
                }
                Err(sides::SideError::Unverified) => {
                    return Err(SolveError::Unverified {
                        what: format!("a loopy game's {name} equals the stopper found"),
                    })
                }
            }
        }
        Ok(sides::write(&found[0], &found[1], self.partizan().forms()))
    }

    /// Enumerates every position reachable from `root`, labels them all, and keeps them.
    fn solve_graph(&mut self, root: &Expr<Pos<R>>) -> Result<(), SolveError> {
        let (nodes, mut succ) = self.graph(root, 1, |solver, here, _| {
            solver.expr_options(here, true).map_err(Self::no_cycle)
        })?;
        let succ = succ.pop().expect("one kind of move");
        let values = gsg(&succ);
        let remoteness = retrograde(&succ);
        for ((node, grundy), (_, remoteness)) in nodes.into_iter().zip(values).zip(remoteness) {
            self.loopy.insert(node, Entry { grundy, remoteness });
        }
        Ok(())
    }

    /// Every position reachable from `root` by `kinds` kinds of move (`options(solver, at,
    /// kind)`), in the order found (`root` first), and each kind's edges by index: within the
    /// position and memory limits, and the compound limit of a graph.
    #[allow(clippy::type_complexity)]
    fn graph(
        &mut self,
        root: &Expr<Pos<R>>,
        kinds: usize,
        mut options: impl FnMut(
            &mut Self,
            &Expr<Pos<R>>,
            usize,
        ) -> Result<Vec<Expr<Pos<R>>>, SolveError>,
    ) -> Result<(Vec<Expr<Pos<R>>>, Vec<Vec<Vec<u32>>>), SolveError> {
        let root = root.clone().canonical();
        let mut nodes = vec![root.clone()];
        let mut index: FxHashMap<Expr<Pos<R>>, u32> = FxHashMap::default();
        index.insert(root, 0);
        let mut succ: Vec<Vec<Vec<u32>>> = vec![Vec::new(); kinds];
        let mut done = 0;
        while done < nodes.len() {
            let here = nodes[done].clone();
            // A move that makes a compound holding the game again has no finite graph.
            let components = here.leaf_count();
            if components > MAX_GRAPH_COMPONENTS {
                return Err(SolveError::LargeCompound {
                    components,
                    limit: MAX_GRAPH_COMPONENTS,
                });
            }
            for (kind, edges) in succ.iter_mut().enumerate() {
                let mut followers = Vec::new();
                for option in options(self, &here, kind)? {
                    let option = option.canonical();
                    let id = match index.get(&option) {
                        Some(&id) => id,
                        None => {
                            // Every position found is solved with the graph: past the limit,
                            // stop before listing more (a compound that grows with each move
                            // has more options at each step).
                            if self.budget.solved + (nodes.len() - done) as u64
                                > self.budget.max_positions
                            {
                                return Err(SolveError::TooManyPositions {
                                    limit: self.budget.max_positions,
                                });
                            }
                            let id = nodes.len() as u32;
                            index.insert(option.clone(), id);
                            nodes.push(option);
                            id
                        }
                    };
                    followers.push(id);
                }
                edges.push(followers);
            }
            done += 1;
            self.budget.solved += 1;
            if self.budget.solved > self.budget.max_positions {
                return Err(SolveError::TooManyPositions {
                    limit: self.budget.max_positions,
                });
            }
            if done.is_multiple_of(4096) {
                self.check_memory()?;
                self.report_progress();
            }
        }
        Ok((nodes, succ))
    }
}
