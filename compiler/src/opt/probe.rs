//! The probe for a move that ends the game (the runtime's `Rules::ends_now`): one boolean
//! condition per game, "some move's option is `end`", derived from its move rules.
//!
//! An outcome search treats a position with such a move as N at once, and the solver asks
//! the probe before it looks a position up, so a probe is only worth having when it costs
//! far less than enumerating the moves. The condition is the moves' clauses turned into
//! quantifiers, with one rewrite that makes it cheap: a move `l in D` whose `end` needs
//! `exists b in E: A(l, b) and B(b)` becomes `exists b in E: B(b) and exists l in D: A(l, b)`
//! (for degenerate dots: "a box with three sides drawn", a dozen popcounts, instead of a
//! loop over every undrawn line).
//!
//! Exchanging quantifiers changes the order of evaluation, so the probe is generated only
//! when nothing in the game's moves can fail: every part is one that [`Knowledge::sure`] accepts,
//! and the moves have at most `MAX_OPTIONS` options. Then the probe answers exactly what
//! enumerating the options up to the first `end` would, errors included (there are none).
//!
//! The pass stores the condition as the game's [`Game::end_probe`]; the interpreter answers
//! `Rules::ends_now` with it and native code compiles it.

use crate::ast::QuantKind;
use crate::ir::*;
use crate::opt::knowledge::{field_scope, holds_any, Knowledge, Scope};
use cgdl_runtime::rules::MAX_OPTIONS;
use std::rc::Rc;

/// Runs the pass: each game whose moves can end the game outright gets its probe, when the
/// probe is exact.
pub fn run(program: &mut Program, source: &str) {
    let probes: Vec<Option<IExpr>> = {
        let probe = Probe {
            knowledge: Knowledge::new(program, source),
        };
        program.games.iter().map(|g| probe.probe(g)).collect()
    };
    for (game, p) in program.games.iter_mut().zip(probes) {
        game.end_probe = p;
    }
}

/// The pass's view of the program: what it knows of values in scope (and the program).
struct Probe<'p> {
    knowledge: Knowledge<'p>,
}

impl Probe<'_> {
    /// The condition "some move of `game` is to `end`", exchanged and narrowed.
    fn probe(&self, game: &Game) -> Option<IExpr> {
        let GameKind::Rules(moves) = &game.kind else {
            return None;
        };
        if game.partizan || !moves.iter().any(|m| ends_outright(&m.result)) {
            return None;
        }
        let cond = self.ends_condition(game, moves)?;
        Some(narrow(self.exchange(cond, &field_scope(game))))
    }

    /// "Some move of the game is to `end`" as one condition over the fields, when every
    /// move is sure and the moves have at most `MAX_OPTIONS` options together.
    fn ends_condition(&self, game: &Game, moves: &[Move]) -> Option<IExpr> {
        let fields = field_scope(game);
        let mut options = 0usize;
        let mut any: Option<IExpr> = None;
        for m in moves {
            let mut count = 1usize;
            let mut scope = fields.clone();
            for clause in &m.clauses {
                match clause {
                    IClause::Bind(vars, dom) => {
                        count = count.saturating_mul(self.knowledge.domain_size(dom, &scope)?);
                        if !self.knowledge.sure(dom, &scope) {
                            return None;
                        }
                        scope = self.knowledge.with_binder(vars, dom, &scope);
                    }
                    IClause::Cond(c) => {
                        if !self.knowledge.sure(c, &scope) {
                            return None;
                        }
                    }
                    IClause::Let(var, value) => {
                        if !self.knowledge.sure(value, &scope) {
                            return None;
                        }
                        scope = self.knowledge.with_let(var, value, &scope);
                    }
                }
            }
            let ends = self.ends_of(&m.result, &scope)?;
            options = options.saturating_add(count);
            let ends = (m.clauses.iter().rev()).fold(ends, |body, clause| match clause {
                IClause::Bind(vars, dom) => IExpr::from(IExprKind::Quant {
                    kind: QuantKind::Exists,
                    vars: vars.clone(),
                    domain: Box::new(dom.clone()),
                    body: Box::new(body),
                }),
                IClause::Cond(c) => and(c.clone(), body),
                IClause::Let(var, value) => IExpr::from(IExprKind::Let {
                    var: var.clone(),
                    value: Box::new(value.clone()),
                    body: Box::new(body),
                }),
            });
            any = Some(match any {
                None => ends,
                Some(before) => or(before, ends),
            });
        }
        (options <= MAX_OPTIONS).then_some(any).flatten()
    }

    /// "This result is `end`", when every part of the result is sure.
    fn ends_of(&self, result: &IExpr, scope: &Scope) -> Option<IExpr> {
        Some(match result.kind() {
            IExprKind::End => truth(true),
            IExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                if !self.knowledge.sure(cond, scope) {
                    return None;
                }
                let (a, b) = (self.ends_of(then, scope)?, self.ends_of(otherwise, scope)?);
                match (is_truth(&a), is_truth(&b)) {
                    (_, Some(false)) => and((**cond).clone(), a),
                    (Some(false), _) => and(IExpr::from(IExprKind::Not(cond.clone())), b),
                    _ => IExpr::from(IExprKind::If {
                        cond: cond.clone(),
                        then: Box::new(a),
                        otherwise: Box::new(b),
                    }),
                }
            }
            IExprKind::Let { var, value, body } => {
                if !self.knowledge.sure(value, scope) {
                    return None;
                }
                let inner = self.knowledge.with_let(var, value, scope);
                IExpr::from(IExprKind::Let {
                    var: var.clone(),
                    value: value.clone(),
                    body: Box::new(self.ends_of(body, &inner)?),
                })
            }
            IExprKind::Pos { game, args, .. } => {
                let fields = &self.knowledge.program.games[*game].fields;
                let fits = (fields.iter().zip(args)).all(|(f, a)| {
                    self.knowledge.sure(a, scope) && self.knowledge.lies_in(a, &f.ty, scope)
                });
                if !fits {
                    return None;
                }
                truth(false)
            }
            _ => return None,
        })
    }
}

/// Whether a move's result can be `end` itself (through `if` and `let`).
fn ends_outright(result: &IExpr) -> bool {
    match result.kind() {
        IExprKind::End => true,
        IExprKind::If {
            then, otherwise, ..
        } => ends_outright(then) || ends_outright(otherwise),
        IExprKind::Let { body, .. } => ends_outright(body),
        _ => false,
    }
}

fn truth(b: bool) -> IExpr {
    IExpr::from(IExprKind::Lit(Val::Bool(b)))
}

fn is_truth(e: &IExpr) -> Option<bool> {
    match e.kind() {
        IExprKind::Lit(Val::Bool(b)) => Some(*b),
        _ => None,
    }
}

fn bin(op: Op, lhs: IExpr, rhs: IExpr) -> IExpr {
    IExpr::from(IExprKind::Bin {
        op,
        lhs: Box::new(lhs),
        rhs: Box::new(rhs),
    })
}

/// `a and b`, without a `true` operand.
fn and(a: IExpr, b: IExpr) -> IExpr {
    match (is_truth(&a), is_truth(&b)) {
        (Some(true), _) => b,
        (_, Some(true)) => a,
        _ => bin(Op::And, a, b),
    }
}

fn or(a: IExpr, b: IExpr) -> IExpr {
    bin(Op::Or, a, b)
}

/// The operands of a chain of `and`s.
fn conjuncts(e: IExpr, out: &mut Vec<IExpr>) {
    let and = e.take_apart(|kind| match kind {
        IExprKind::Bin {
            op: Op::And,
            lhs,
            rhs,
        } => Ok((lhs, rhs)),
        other => Err(other),
    });
    match and {
        Ok((lhs, rhs)) => {
            conjuncts(*lhs, out);
            conjuncts(*rhs, out);
        }
        Err(other) => out.push(other),
    }
}

fn and_all(parts: Vec<IExpr>) -> IExpr {
    parts.into_iter().reduce(and).unwrap_or_else(|| truth(true))
}

/// The most values the type of a loop added by [`Probe::exchange`] may have: it runs over
/// every value the inner domain's elements can take, so a wide one costs more than it saves.
const EXCHANGE_LIMIT: usize = 256;

impl Probe<'_> {
    /// `exists x in D: P(x) and (exists y in E: A(x, y) and B(y))` →
    /// `exists y in E: B(y) and (exists x in D: P(x) and A(x, y))`, where `E` and `B` do not
    /// read `x`: the test of `B` runs once per `y` instead of once per pair. Where `E` reads
    /// `x` (the boxes of a line, `boxes_of(rows, cols, l)`) but `B` still does not, `y` runs
    /// over a finite type `U` holding every element of `E` (see [`Knowledge::values_of`]):
    /// `exists y in U: B(y) and (exists x in D: P(x) and y in E and A(x, y))`. Applied inside
    /// out. Both are exact only because nothing in the condition can fail (every part is
    /// [sure](Knowledge::sure) over the types in `scope`, `U` included).
    fn exchange(&self, e: IExpr, scope: &Scope) -> IExpr {
        let span = e.span();
        e.take_apart(|kind| match kind {
            IExprKind::Quant {
                kind: QuantKind::Exists,
                vars,
                domain,
                body,
            } => {
                let inner_scope = self.knowledge.with_binder(&vars, &domain, scope);
                let mut parts = Vec::new();
                conjuncts(self.exchange(*body, &inner_scope), &mut parts);
                // The inner quantifier to move out, and the domain it then runs over.
                let candidate = |p: &IExpr| -> Option<IExpr> {
                    let IExprKind::Quant {
                        kind: QuantKind::Exists,
                        vars: inner_vars,
                        domain: inner_domain,
                        body: inner_body,
                    } = p.kind()
                    else {
                        return None;
                    };
                    let mut inner_parts = Vec::new();
                    conjuncts((**inner_body).clone(), &mut inner_parts);
                    if inner_parts.iter().all(|q| q.reads_any(&vars)) {
                        return None;
                    }
                    if !inner_domain.reads_any(&vars) {
                        return Some((**inner_domain).clone());
                    }
                    let [_] = inner_vars.as_slice() else {
                        return None;
                    };
                    let ty = self.knowledge.domain_type(inner_domain, &inner_scope)?;
                    let values = ty.values(&self.knowledge.program.types, EXCHANGE_LIMIT)?;
                    Some(match ty {
                        FieldTy::Range(lo, hi) => bin(
                            Op::RangeIncl,
                            IExprKind::Lit(Val::Int(lo)).into(),
                            IExprKind::Lit(Val::Int(hi)).into(),
                        ),
                        ty => IExpr::from(IExprKind::AllOf {
                            ty,
                            values: Val::Set(Rc::new(values.into_iter().collect())),
                        }),
                    })
                };
                let found = parts
                    .iter()
                    .enumerate()
                    .find_map(|(j, p)| candidate(p).map(|outer| (j, outer)));
                let Some((j, outer_domain)) = found else {
                    return Ok(IExpr::from(IExprKind::Quant {
                        kind: QuantKind::Exists,
                        vars,
                        domain,
                        body: Box::new(and_all(parts)),
                    }));
                };
                let IExprKind::Quant {
                    vars: inner_vars,
                    domain: inner_domain,
                    body: inner_body,
                    ..
                } = parts.remove(j).into_kind()
                else {
                    unreachable!("the candidate is a quantifier")
                };
                let mut inner_parts = Vec::new();
                conjuncts(*inner_body, &mut inner_parts);
                let (with_x, without_x): (Vec<IExpr>, Vec<IExpr>) =
                    inner_parts.into_iter().partition(|q| q.reads_any(&vars));
                if inner_domain.reads_any(&vars) {
                    // `y in E`, tested where `E` is known.
                    let [y] = inner_vars.as_slice() else {
                        unreachable!("the candidate binds one name")
                    };
                    parts.push(bin(
                        Op::In,
                        IExpr::from(IExprKind::Var(y.clone())),
                        *inner_domain,
                    ));
                }
                parts.extend(with_x);
                let moved = IExprKind::Quant {
                    kind: QuantKind::Exists,
                    vars,
                    domain,
                    body: Box::new(and_all(parts)),
                };
                Ok(IExpr::from(IExprKind::Quant {
                    kind: QuantKind::Exists,
                    vars: inner_vars,
                    domain: Box::new(outer_domain),
                    body: Box::new(and(and_all(without_x), IExpr::from(moved))),
                }))
            }
            IExprKind::Bin {
                op: Op::Or,
                lhs,
                rhs,
            } => Ok(IExpr::from(IExprKind::Bin {
                op: Op::Or,
                lhs: Box::new(self.exchange(*lhs, scope)),
                rhs: Box::new(self.exchange(*rhs, scope)),
            })
            .at(span)),
            other => Err(other),
        })
        .unwrap_or_else(|e| e)
    }
}

/// `exists x in D: P(x) and x in S and Q(x)` → `exists x in S: x in D and P(x) and Q(x)`,
/// where `S` does not read `x`: the loop runs over the few elements of `S` (the sides of a
/// box) instead of the whole domain (every line). `x in D` is left out where `D` is the
/// type's every value. Exact in a probe, whose parts cannot fail (the order of evaluation
/// is not observable). Applied everywhere in the condition.
fn narrow(e: IExpr) -> IExpr {
    let span = e.span();
    e.take_apart(|kind| match kind {
        IExprKind::Quant {
            kind: QuantKind::Exists,
            vars,
            domain,
            body,
        } => {
            let mut parts = Vec::new();
            conjuncts(narrow(*body), &mut parts);
            let member = match vars.as_slice() {
                [x] => parts.iter().position(|p| match p.kind() {
                    IExprKind::Bin {
                        op: Op::In,
                        lhs,
                        rhs,
                        ..
                    } => {
                        matches!(lhs.kind(), IExprKind::Var(v) if v.name == x.name)
                            && !rhs.reads_any(&vars)
                    }
                    _ => false,
                }),
                _ => None,
            };
            let Some(j) = member else {
                return Ok(IExpr::from(IExprKind::Quant {
                    kind: QuantKind::Exists,
                    vars,
                    domain,
                    body: Box::new(and_all(parts)),
                }));
            };
            let IExprKind::Bin { lhs, rhs, .. } = parts.remove(j).into_kind() else {
                unreachable!("the position found a membership")
            };
            let whole_type = matches!(domain.kind(), IExprKind::AllOf { ty, .. } if holds_any(ty));
            if !whole_type {
                parts.insert(0, bin(Op::In, *lhs, *domain));
            }
            Ok(IExpr::from(IExprKind::Quant {
                kind: QuantKind::Exists,
                vars,
                domain: rhs,
                body: Box::new(and_all(parts)),
            }))
        }
        IExprKind::Bin {
            op: op @ (Op::Or | Op::And),
            lhs,
            rhs,
        } => Ok(IExpr::from(IExprKind::Bin {
            op,
            lhs: Box::new(narrow(*lhs)),
            rhs: Box::new(narrow(*rhs)),
        })
        .at(span)),
        IExprKind::Let { var, value, body } => Ok(IExpr::from(IExprKind::Let {
            var,
            value,
            body: Box::new(narrow(*body)),
        })),
        IExprKind::If {
            cond,
            then,
            otherwise,
        } => Ok(IExpr::from(IExprKind::If {
            cond,
            then: Box::new(narrow(*then)),
            otherwise: Box::new(narrow(*otherwise)),
        })),
        other => Err(other),
    })
    .unwrap_or_else(|e| e)
}
