//! Queries: value names, free names and their domains, and the period query's domain.

use super::*;
use cgdl_runtime::report::Ask;

impl Checker<'_> {
    pub(super) fn query(&mut self, q: &ast::Query) {
        let mut values = Vec::new();
        for v in &q.values {
            if Ask::parse(&v.name).is_none() {
                let names = Ask::all().into_iter().map(Ask::name);
                let help =
                    suggest(&v.name, names).unwrap_or_else(|| format!("values: {}", Ask::names()));
                self.error(
                    Diagnostic::new(
                        ErrorCode::UnknownValue,
                        format!("unknown value `{}`", v.name),
                        v.span,
                    )
                    .label("not a value")
                    .help(help),
                );
            }
            values.push(v.name.clone());
        }
        let mut scope = Scope::new();
        let mut binders = Vec::new();
        for (pat, dom) in &q.binders {
            if let ast::PatternKind::Tuple(_) = pat.kind {
                self.error(
                    Diagnostic::new(
                        ErrorCode::BadQuery,
                        "a query binds plain names, not tuples",
                        pat.span,
                    )
                    .help("write `for r in 0..8, c in 0..8`"),
                );
            }
            let mut bound = self.binder(pat, dom, &mut scope);
            binders.push((bound.vars.swap_remove(0), bound.domain));
        }
        match q.kind {
            QueryKind::Table if !(1..=2).contains(&q.binders.len()) => self.error(
                Diagnostic::new(
                    ErrorCode::BadQuery,
                    "a table has one or two free names",
                    q.span,
                )
                .help("one name gives rows; two names give a grid"),
            ),
            QueryKind::Quotient if q.binders.len() != 1 => self.error(
                Diagnostic::new(
                    ErrorCode::BadQuery,
                    "a quotient query has exactly one free name: the heap",
                    q.span,
                )
                .help("write `quotient of G(n) for n in 0..=60`"),
            ),
            QueryKind::Period => {
                if q.binders.len() != 1 {
                    self.error(
                        Diagnostic::new(
                            ErrorCode::BadQuery,
                            "a period query has exactly one free name",
                            q.span,
                        )
                        .help("write `period grundy of G(n) for n in 0..=2000`"),
                    );
                }
                if let (Some((_, dom)), Some((_, ir))) = (q.binders.first(), binders.first()) {
                    if let Some(gap) = period_domain_gap(ir) {
                        self.error(
                            Diagnostic::new(
                                ErrorCode::BadQuery,
                                format!(
                                    "a period query ranges over consecutive numbers, but {gap}"
                                ),
                                dom.span,
                            )
                            .label("not consecutive")
                            .help("write a range, such as `for n in 0..=2000`"),
                        );
                    }
                }
                let numeric = ["grundy", "remoteness", "suspense"];
                if q.values.len() != 1 || !numeric.contains(&q.values[0].name.as_str()) {
                    self.error(
                        Diagnostic::new(
                            ErrorCode::BadQuery,
                            "a period query asks for one numeric value",
                            q.values.first().map(|v| v.span).unwrap_or(q.span),
                        )
                        .help("ask for grundy, remoteness or suspense"),
                    );
                }
            }
            _ => {}
        }
        let target = self.expect(&q.target, &Ty::Game, &mut scope, "a query's target");
        if self.mentions_partizan(&target) {
            for v in &q.values {
                let impartial_only =
                    matches!(Ask::parse(&v.name), Some(Ask::Moves | Ask::MisereForm))
                        || ValueKind::from_name(&v.name).is_some_and(|k| k != ValueKind::Outcome);
                if impartial_only {
                    let help = match v.name.as_str() {
                        "moves" => "ask for left_moves or right_moves".to_string(),
                        "grundy" => "ask for canonical: an impartial game's canonical form is its nimber".to_string(),
                        _ => "partizan values: canonical, outcome, temperature, mean, left_stop, right_stop, birthday, left_moves, right_moves".to_string(),
                    };
                    self.error(
                        Diagnostic::new(
                            ErrorCode::Partizan,
                            format!(
                                "`{}` is defined for impartial games, and this position is partizan",
                                v.name
                            ),
                            v.span,
                        )
                        .label("an impartial value")
                        .help(help),
                    );
                }
            }
        }
        let text = strip_comments(self.text(q.span))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        self.program.queries.push(IQuery {
            kind: q.kind,
            values,
            target,
            text,
            binders,
            locals: scope.into_locals(),
            span: q.span,
        });
        let asked = self.program.queries.last();
        if q.kind == QueryKind::Quotient
            && q.binders.len() == 1
            && asked.is_some_and(|a| a.heap_terms(&self.program).is_none())
        {
            self.error(
                Diagnostic::new(
                    ErrorCode::BadQuery,
                    "a quotient query asks of the heaps of a game given by a take-and-break code",
                    q.target.span,
                )
                .label("not `G(n)` of such a game")
                .help(
                    "write `quotient of G(n) for n in 0..=60`, where `G` is an octal code \
                     (`game G = octal \"0.77\"`) or rules recognised as one",
                ),
            );
        }
    }
}

/// Where a period query's domain, when it is written out (a set or list of numbers, or a
/// constant), skips a number: `Some("5 follows 1")`. Ranges are consecutive; other domains
/// are checked when the query runs.
fn period_domain_gap(dom: &IExpr) -> Option<String> {
    let int = |v: &Val| match v {
        Val::Int(n) => Some(*n),
        _ => None,
    };
    let lit = |e: &IExpr| match e.kind() {
        IExprKind::Lit(v) => int(v),
        _ => None,
    };
    let (mut ns, sorted): (Vec<i64>, bool) = match dom.kind() {
        IExprKind::Lit(Val::Set(s)) => (s.iter().map(int).collect::<Option<_>>()?, true),
        IExprKind::Lit(Val::List(l)) => (l.iter().map(int).collect::<Option<_>>()?, false),
        IExprKind::Set(items) => (items.iter().map(lit).collect::<Option<_>>()?, true),
        IExprKind::List(items) => (items.iter().map(lit).collect::<Option<_>>()?, false),
        _ => return None,
    };
    if sorted {
        ns.sort_unstable();
        ns.dedup();
    }
    ns.windows(2)
        .find(|w| w[0].checked_add(1) != Some(w[1]))
        .map(|w| format!("{} follows {}", w[1], w[0]))
}

/// The text with `//` and `/* */` comments removed (for echoing a query as written).
fn strip_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(after) = rest.strip_prefix("//") {
            rest = after.find('\n').map(|i| &after[i..]).unwrap_or("");
        } else if let Some(after) = rest.strip_prefix("/*") {
            rest = after.find("*/").map(|i| &after[i + 2..]).unwrap_or("");
        } else if rest.starts_with('"') {
            let end = rest[1..].find('"').map(|i| i + 2).unwrap_or(rest.len());
            out.push_str(&rest[..end]);
            rest = &rest[end..];
        } else {
            let ch = rest.chars().next().unwrap_or(' ');
            out.push(ch);
            rest = &rest[ch.len_utf8()..];
        }
    }
    out
}
