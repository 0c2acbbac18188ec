//! Source text → AST, with pest and a Pratt parser for operators.

use crate::ast::*;
use crate::codes::ErrorCode;
use crate::diagnostics::Diagnostic;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser as _;
use std::sync::OnceLock;

mod grammar {
    //! The pest-generated parser (its `Rule` enum stays private to the crate).
    #![allow(missing_docs)]
    #[derive(pest_derive::Parser)]
    #[grammar = "cgdl.pest"]
    pub struct Grammar;
}
use grammar::{Grammar, Rule};

fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: OnceLock<PrattParser<Rule>> = OnceLock::new();
    PRATT.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::or_op, Assoc::Left))
            .op(Op::infix(Rule::and_op, Assoc::Left))
            .op(Op::prefix(Rule::not_op))
            .op(Op::infix(Rule::eq, Assoc::Left)
                | Op::infix(Rule::ne, Assoc::Left)
                | Op::infix(Rule::lt, Assoc::Left)
                | Op::infix(Rule::le, Assoc::Left)
                | Op::infix(Rule::gt, Assoc::Left)
                | Op::infix(Rule::ge, Assoc::Left)
                | Op::infix(Rule::in_op, Assoc::Left)
                | Op::infix(Rule::not_in, Assoc::Left))
            .op(Op::infix(Rule::range_incl, Assoc::Left) | Op::infix(Rule::range_excl, Assoc::Left))
            .op(Op::infix(Rule::bor, Assoc::Left))
            .op(Op::infix(Rule::band, Assoc::Left))
            .op(Op::infix(Rule::add, Assoc::Left)
                | Op::infix(Rule::sub, Assoc::Left)
                | Op::infix(Rule::concat, Assoc::Left))
            .op(Op::infix(Rule::mul, Assoc::Left)
                | Op::infix(Rule::div, Assoc::Left)
                | Op::infix(Rule::rem, Assoc::Left))
            .op(Op::prefix(Rule::neg))
            .op(Op::postfix(Rule::field) | Op::postfix(Rule::bracket) | Op::postfix(Rule::update))
    })
}

fn span(p: &Pair<Rule>) -> Span {
    let s = p.as_span();
    Span::new(s.start(), s.start() + trimmed_len(p.as_str()))
}

/// The length of `text` without trailing whitespace and comments (pest may include the
/// trivia it skipped while trying further repetitions).
fn trimmed_len(text: &str) -> usize {
    let mut t = text;
    loop {
        let before = t.len();
        t = t.trim_end();
        if let Some(open) = t.strip_suffix("*/").and_then(|body| body.rfind("/*")) {
            t = &t[..open];
        }
        let line_start = t.rfind('\n').map_or(0, |i| i + 1);
        if let Some(i) = t[line_start..].find("//") {
            t = &t[..line_start + i];
        }
        if t.len() == before {
            return t.len();
        }
    }
}

fn describe(rule: &Rule) -> &'static str {
    match rule {
        Rule::ident => "a name",
        Rule::int => "a number",
        Rule::expr | Rule::expr_no_in => "an expression",
        Rule::item
        | Rule::const_decl
        | Rule::type_decl
        | Rule::fn_decl
        | Rule::game_decl
        | Rule::query => "`game`, `type`, `const`, `fn` or a query",
        Rule::variant => "a variant `Tag` or `Tag(T, ...)`",
        Rule::match_arm | Rule::variant_pattern | Rule::wildcard => {
            "a match arm `Tag(x, ...) => e`"
        }
        Rule::move_decl | Rule::move_side => "`move`",
        Rule::symmetry_decl | Rule::symmetry_kw => "`symmetry`",
        Rule::draw_decl | Rule::draw_kw => "`draw`",
        Rule::ty | Rule::type_alias => "a type",
        Rule::EOI => "the end of the file",
        Rule::string => "a quoted string",
        Rule::pattern => "a name or a tuple of names",
        Rule::value_names => "a value name",
        Rule::arrow => "`=>`",
        Rule::of_kw => "`of`",
        Rule::for_kw | Rule::for_word => "`for`",
        Rule::where_clause => "`where`",
        Rule::clauses | Rule::clause => "a clause",
        _ => "",
    }
}

fn syntax_error(e: pest::error::Error<Rule>, source: &str) -> Diagnostic {
    use pest::error::{ErrorVariant, InputLocation};
    let (start, end) = match e.location {
        InputLocation::Pos(p) => (p, p),
        InputLocation::Span((s, e)) => (s, e),
    };
    let expected = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<&str> = positives
                .iter()
                .map(describe)
                .filter(|s| !s.is_empty())
                .collect();
            names.sort();
            names.dedup();
            names
        }
        ErrorVariant::CustomError { .. } => Vec::new(),
    };
    // At the very end, point at the last character so the line shown is the last line.
    let at_eof = start >= source.len();
    let (start, end) = if at_eof && !source.is_empty() {
        let last = source.len() - source.chars().last().map_or(1, char::len_utf8);
        (last, last)
    } else {
        (start, end)
    };
    let rest = source.get(start..).unwrap_or("");
    let token: String = match rest.chars().next() {
        None => String::new(),
        Some(c) if c.is_alphanumeric() || c == '_' => rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect(),
        Some(c) => c.to_string(),
    };
    let found = if token.chars().any(char::is_control) && !at_eof {
        // A control character (a NUL byte, say) is named, not written.
        format!("the control character {}", token.escape_default())
    } else if token.trim().is_empty() || at_eof {
        "the end of the file".to_string()
    } else {
        format!("`{token}`")
    };
    let message = if expected.is_empty() {
        format!("syntax error: unexpected {found}")
    } else {
        format!(
            "syntax error: expected {}, found {found}",
            expected.join(" or ")
        )
    };
    let end = if end > start {
        end
    } else {
        start + token.len()
    };
    Diagnostic::new(ErrorCode::Syntax, message, Span::new(start, end))
        .label("unexpected here")
        .help("see docs/LANGUAGE.md for the grammar of declarations, moves and queries")
}

/// The deepest an expression may nest: brackets, `if`/`let`/quantifiers and operators
/// (a chain of `n` operators, `.0`s or indexes nests `n` deep) count one level each. The parser, the checker
/// and both back ends recurse over expressions, so deeper input is refused before parsing.
pub const MAX_NESTING: usize = 512;

/// Refuses `source` where its expressions may nest deeper than [`MAX_NESTING`]. A lexical
/// estimate that never undercounts: every bracket, operator character and nesting keyword
/// since the enclosing bracket's last `,` or `;` (or declaration keyword) counts one level.
fn check_nesting(source: &str) -> Result<(), Diagnostic> {
    const NESTING_WORDS: &[&str] = &[
        "if", "let", "exists", "forall", "count", "not", "and", "or", "in", "closure", "match",
        "with",
    ];
    const RESETTING_WORDS: &[&str] = &[
        "move", "game", "const", "fn", "type", "value", "table", "period",
    ];
    let bytes = source.as_bytes();
    // Per open bracket: the levels counted since its last reset.
    let mut levels: Vec<usize> = vec![0];
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        i += 1;
        let mut opened = 0;
        match c {
            b'/' if bytes.get(i) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            // A block comment counts nothing (an unclosed one is the parser's error).
            b'/' if bytes.get(i) == Some(&b'*') => {
                i = match source[i + 1..].find("*/") {
                    Some(end) => i + 1 + end + 2,
                    None => bytes.len(),
                };
            }
            b'"' => {
                while i < bytes.len() && bytes[i] != b'"' {
                    i += 1 + usize::from(bytes[i] == b'\\');
                }
                i += 1;
            }
            b'(' | b'[' | b'{' => {
                // An index after a value (`xs[0][1]`) also nests the value it indexes: a
                // chain of `n` indexes nests `n` deep, as a chain of `.0` does.
                let before = source[..start].trim_end().as_bytes().last().copied();
                let postfix = c == b'['
                    && before.is_some_and(|b| {
                        b == b']' || b == b')' || b.is_ascii_alphanumeric() || b == b'_'
                    });
                if postfix {
                    *levels.last_mut().expect("a level") += 1;
                    depth += 1;
                }
                depth += 1;
                levels.push(0);
            }
            b')' | b']' | b'}' if levels.len() > 1 => {
                depth -= 1 + levels.pop().unwrap_or(0);
            }
            b',' | b';' => {
                let top = levels.last_mut().expect("a level");
                depth -= *top;
                *top = 0;
            }
            b'+' | b'-' | b'*' | b'/' | b'%' | b'<' | b'>' | b'=' | b'!' | b'&' | b'|' | b'.'
            | b'^' => {
                // Each character counts: `- - -1` and `---1` nest alike.
                while i < bytes.len() && b"+-*/%<>=!&|.^".contains(&bytes[i]) {
                    i += 1;
                }
                opened = i - start;
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                    i += 1;
                }
                let word = &source[start..i];
                if NESTING_WORDS.contains(&word) {
                    opened = 1;
                } else if RESETTING_WORDS.contains(&word) {
                    let top = levels.last_mut().expect("a level");
                    depth -= *top;
                    *top = 0;
                }
            }
            _ => {}
        }
        if opened > 0 {
            *levels.last_mut().expect("a level") += opened;
            depth += opened;
        }
        if depth > MAX_NESTING {
            let end = start + source[start..].chars().next().map_or(1, char::len_utf8);
            return Err(Diagnostic::new(
                ErrorCode::TooDeep,
                format!("expression nested too deeply (more than {MAX_NESTING} levels)"),
                Span::new(start, end),
            )
            .label("too deep here")
            .help(
                "brackets, operators, `if`, `let` and quantifiers each nest one level; \
                 name parts of the expression with `let`, `const` or `fn`",
            ));
        }
    }
    Ok(())
}

/// Parses a whole file.
pub fn parse_file(source: &str) -> Result<File, Diagnostic> {
    check_nesting(source)?;
    let mut pairs = Grammar::parse(Rule::file, source).map_err(|e| syntax_error(e, source))?;
    let file = pairs.next().expect("file rule");
    let mut items = Vec::new();
    for item in file.into_inner() {
        match item.as_rule() {
            Rule::const_decl => {
                let mut it = item.into_inner();
                let name = ident(it.next().expect("name"));
                let value = expr(it.next().expect("value"));
                items.push(Item::Const(name, value));
            }
            Rule::type_decl => {
                let mut it = item.into_inner();
                let name = ident(it.next().expect("type name"));
                if it.peek().map(|p| p.as_rule()) == Some(Rule::type_alias) {
                    let alias = it.next().expect("alias");
                    let alias = ty_inner(alias.into_inner().next().expect("type"));
                    items.push(Item::Type(TypeDecl {
                        name,
                        variants: Vec::new(),
                        alias: Some(alias),
                    }));
                    continue;
                }
                let variants = it
                    .map(|v| {
                        let mut parts = v.into_inner();
                        let name = ident(parts.next().expect("tag"));
                        VariantDecl {
                            name,
                            fields: parts.map(ty).collect(),
                        }
                    })
                    .collect();
                items.push(Item::Type(TypeDecl {
                    name,
                    variants,
                    alias: None,
                }));
            }
            Rule::fn_decl => items.push(Item::Fn(fn_decl(item))),
            Rule::game_decl => items.push(Item::Game(game_decl(item))),
            Rule::query => items.push(Item::Query(query(item))),
            Rule::EOI => {}
            other => unreachable!("unexpected item {other:?}"),
        }
    }
    Ok(File { items })
}

/// Parses a position expression given on its own (the command line).
pub fn parse_expr(source: &str) -> Result<Expr, Diagnostic> {
    check_nesting(source)?;
    let mut pairs = Grammar::parse(Rule::position_input, source).map_err(|e| {
        let mut d = syntax_error(e, source);
        d.message = d
            .message
            .replace("the end of the file", "the end of the position");
        d.help("a position is one expression, such as `Heap(3) + Heap(5)`")
    })?;
    let input = pairs.next().expect("position_input");
    let e = input.into_inner().next().expect("expr");
    Ok(expr(e))
}

fn ident(p: Pair<Rule>) -> Ident {
    Ident {
        name: p.as_str().to_string(),
        span: span(&p),
    }
}

fn params(p: Option<Pair<Rule>>) -> Vec<Param> {
    let Some(p) = p else { return Vec::new() };
    p.into_inner()
        .map(|param| {
            let mut it = param.into_inner();
            let name = ident(it.next().expect("param name"));
            let ty = ty(it.next().expect("param type"));
            Param { name, ty }
        })
        .collect()
}

fn fn_decl(p: Pair<Rule>) -> FnDecl {
    let mut it = p.into_inner().peekable();
    let name = ident(it.next().expect("fn name"));
    let ps = if it.peek().map(|p| p.as_rule()) == Some(Rule::params) {
        it.next()
    } else {
        None
    };
    let ret = ty(it.next().expect("fn type"));
    let body = expr(it.next().expect("fn body"));
    FnDecl {
        name,
        params: params(ps),
        ret,
        body,
    }
}

fn ty(p: Pair<Rule>) -> TypeExpr {
    ty_inner(p.into_inner().next().expect("type"))
}

/// A type from one of `ty`'s alternatives.
fn ty_inner(inner: Pair<Rule>) -> TypeExpr {
    let sp = span(&inner);
    match inner.as_rule() {
        Rule::ty_name => TypeExpr::Named(ident(inner.into_inner().next().expect("name"))),
        Rule::ty_set => TypeExpr::Set(Box::new(ty(inner.into_inner().next().expect("ty"))), sp),
        Rule::ty_list => TypeExpr::List(Box::new(ty(inner.into_inner().next().expect("ty"))), sp),
        Rule::ty_tuple => TypeExpr::Tuple(inner.into_inner().map(ty).collect(), sp),
        Rule::ty_range => {
            let mut it = inner.into_inner();
            let lo = range_bound(it.next().expect("lo"));
            let op = it.next().expect("op");
            let hi = range_bound(it.next().expect("hi"));
            TypeExpr::Range {
                lo: Box::new(lo),
                hi: Box::new(hi),
                inclusive: op.as_rule() == Rule::range_incl,
                span: sp,
            }
        }
        other => unreachable!("type {other:?}"),
    }
}

fn range_bound(p: Pair<Rule>) -> Expr {
    let inner = p.into_inner().next().expect("bound");
    match inner.as_rule() {
        Rule::neg_int => {
            let sp = span(&inner);
            Expr {
                kind: int_kind(inner.as_str()),
                span: sp,
            }
        }
        Rule::int => Expr {
            kind: int_kind(inner.as_str()),
            span: span(&inner),
        },
        Rule::ident => Expr {
            kind: ExprKind::Name(inner.as_str().to_string()),
            span: span(&inner),
        },
        _ => expr(inner),
    }
}

fn int_kind(text: &str) -> ExprKind {
    match text.parse::<i64>() {
        Ok(n) => ExprKind::Int(n),
        // Too large: the checker reports it.
        Err(_) => ExprKind::IntTooLarge,
    }
}

fn game_decl(p: Pair<Rule>) -> GameDecl {
    let mut it = p.into_inner();
    let name = ident(it.next().expect("game name"));
    let body = it.next().expect("game body");
    let body = match body.as_rule() {
        Rule::game_sugar => {
            let sugar = body.into_inner().next().expect("sugar");
            let sp = span(&sugar);
            match sugar.as_rule() {
                Rule::octal => {
                    let s = sugar.into_inner().next().expect("string");
                    let text = s.into_inner().next().map(|i| i.as_str()).unwrap_or("");
                    GameBody::Octal(text.to_string(), sp)
                }
                _ => {
                    let set = sugar.into_inner().next().expect("set");
                    let elems = set
                        .into_inner()
                        .next()
                        .map(|a| a.into_inner().map(expr).collect())
                        .unwrap_or_default();
                    GameBody::Subtraction(elems, sp)
                }
            }
        }
        _ => {
            let mut it = body.into_inner().peekable();
            let ps = if it.peek().map(|p| p.as_rule()) == Some(Rule::params) {
                it.next()
            } else {
                None
            };
            let (mut moves, mut symmetries, mut draws) = (Vec::new(), Vec::new(), Vec::new());
            for item in it {
                if item.as_rule() == Rule::draw_decl {
                    let sp = span(&item);
                    let mut parts = item.into_inner().skip(1);
                    let kind = ident(parts.next().expect("a drawing's kind"));
                    let field = parts.next().map(ident);
                    draws.push(DrawDecl {
                        kind,
                        field,
                        span: sp,
                    });
                } else if item.as_rule() == Rule::symmetry_decl {
                    let sp = span(&item);
                    let mut parts = item.into_inner().skip(1);
                    let name = ident(parts.next().expect("symmetry name"));
                    let result = expr(parts.nth(1).expect("symmetry image"));
                    symmetries.push(SymmetryDecl {
                        name,
                        result,
                        span: sp,
                    });
                } else {
                    moves.push(move_decl(item));
                }
            }
            GameBody::Rules {
                params: params(ps),
                moves,
                symmetries,
                draws,
            }
        }
    };
    GameDecl { name, body }
}

fn move_decl(p: Pair<Rule>) -> MoveDecl {
    let sp = span(&p);
    let mut it = p.into_inner().peekable();
    let side = match it.next_if(|q| q.as_rule() == Rule::move_side) {
        Some(q) if q.as_str() == "left" => MoveSide::Left,
        Some(_) => MoveSide::Right,
        None => MoveSide::Both,
    };
    let name = ident(it.next().expect("move name"));
    let mut clauses_out = Vec::new();
    let mut guard = None;
    let mut result = None;
    for part in it {
        match part.as_rule() {
            Rule::clauses => clauses_out = part.into_inner().map(clause).collect(),
            Rule::where_clause => guard = Some(expr(part.into_inner().next().expect("cond"))),
            Rule::arrow => {}
            _ => result = Some(expr(part)),
        }
    }
    MoveDecl {
        side,
        name,
        clauses: clauses_out,
        guard,
        result: result.expect("move result"),
        span: sp,
    }
}

/// The element and clauses of a comprehension (a `where` is its last condition).
/// A comprehension's element and clauses (a `compr_tail`: `for` clauses, `where` guard).
fn comprehension_parts(elem: Expr, tail: Pair<Rule>) -> (Expr, Vec<Clause>) {
    let mut it = tail.into_inner().filter(|p| p.as_rule() != Rule::for_word);
    let mut clauses: Vec<Clause> = (it.next().expect("clauses").into_inner())
        .map(clause)
        .collect();
    if let Some(guard) = it.next() {
        clauses.push(Clause::Cond(expr(guard.into_inner().next().expect("cond"))));
    }
    (elem, clauses)
}

/// The expressions of a list: `first` and those of `more_args`.
fn listed(first: Pair<Rule>, more: Option<Pair<Rule>>) -> Vec<Expr> {
    let mut out = vec![expr(first)];
    if let Some(more) = more {
        out.extend(more.into_inner().map(expr));
    }
    out
}

fn clause(p: Pair<Rule>) -> Clause {
    let inner = p.into_inner().next().expect("clause");
    match inner.as_rule() {
        Rule::binder => {
            let (pat, dom) = binder(inner);
            Clause::Bind(pat, dom)
        }
        Rule::let_clause => {
            let mut it = inner.into_inner();
            let name = pattern(it.next().expect("let pattern"));
            Clause::Let(name, expr(it.next().expect("let value")))
        }
        _ => Clause::Cond(expr(inner)),
    }
}

fn binder(p: Pair<Rule>) -> (Pattern, Expr) {
    let mut it = p.into_inner();
    let pat = pattern(it.next().expect("pattern"));
    let dom = expr(it.next().expect("domain"));
    (pat, dom)
}

fn pattern(p: Pair<Rule>) -> Pattern {
    let sp = span(&p);
    let mut parts = p.into_inner().peekable();
    let kind = match parts.peek().map(|q| q.as_rule()) {
        Some(Rule::ident) => PatternKind::Name(ident(parts.next().expect("name"))),
        _ => PatternKind::Tuple(parts.map(pattern).collect()),
    };
    Pattern { kind, span: sp }
}

fn query(p: Pair<Rule>) -> Query {
    let sp = span(&p);
    let inner = p.into_inner().next().expect("query");
    let kind = match inner.as_rule() {
        Rule::value_query => QueryKind::Value,
        Rule::table_query => QueryKind::Table,
        Rule::quotient_query => QueryKind::Quotient,
        _ => QueryKind::Period,
    };
    let mut it = inner
        .into_inner()
        .filter(|p| !matches!(p.as_rule(), Rule::of_kw | Rule::for_kw | Rule::quotient_kw));
    let values = match kind {
        QueryKind::Quotient => Vec::new(),
        _ => it.next().expect("values").into_inner().map(ident).collect(),
    };
    let target = expr(it.next().expect("target"));
    let binders = it.map(binder).collect();
    Query {
        kind,
        values,
        target,
        binders,
        span: sp,
    }
}

fn args(p: Option<Pair<Rule>>) -> Vec<Expr> {
    p.map(|a| a.into_inner().map(expr).collect())
        .unwrap_or_default()
}

fn expr(p: Pair<Rule>) -> Expr {
    pratt_expr(p.into_inner())
}

fn pratt_expr(pairs: Pairs<Rule>) -> Expr {
    pratt()
        .map_primary(primary)
        .map_prefix(|op, rhs| {
            let sp = Span::new(span(&op).start, rhs.span.end);
            let op = if op.as_rule() == Rule::neg {
                UnOp::Neg
            } else {
                UnOp::Not
            };
            // Fold `-literal` into a literal.
            if let (UnOp::Neg, ExprKind::Int(n)) = (op, &rhs.kind) {
                return Expr {
                    kind: ExprKind::Int(-n),
                    span: sp,
                };
            }
            Expr {
                kind: ExprKind::Unary(op, Box::new(rhs)),
                span: sp,
            }
        })
        .map_postfix(|lhs, op| {
            let sp = Span::new(lhs.span.start, span(&op).end);
            let kind = match op.as_rule() {
                Rule::field => {
                    let n = op.into_inner().next().expect("int");
                    ExprKind::Field(Box::new(lhs), n.as_str().parse().unwrap_or(usize::MAX))
                }
                Rule::bracket => {
                    let mut parts = op.into_inner();
                    let first = parts.next().expect("an index or a slice");
                    let bound = |p: Pair<Rule>| {
                        (p.into_inner().next())
                            .map(|hi| Box::new(expr(hi.into_inner().next().expect("bound"))))
                    };
                    match first.as_rule() {
                        Rule::slice_to => ExprKind::Slice(Box::new(lhs), None, bound(first)),
                        _ => {
                            let at = expr(first);
                            match parts.next() {
                                Some(from) => {
                                    ExprKind::Slice(Box::new(lhs), Some(Box::new(at)), bound(from))
                                }
                                None => ExprKind::Index(Box::new(lhs), Box::new(at)),
                            }
                        }
                    }
                }
                Rule::update => {
                    let mut it = op.into_inner().map(expr);
                    let i = it.next().expect("index");
                    let v = it.next().expect("value");
                    ExprKind::With(Box::new(lhs), Box::new(i), Box::new(v))
                }
                other => unreachable!("postfix {other:?}"),
            };
            Expr { kind, span: sp }
        })
        .map_infix(|lhs, op, rhs| {
            let sp = Span::new(lhs.span.start, rhs.span.end);
            let op = match op.as_rule() {
                Rule::or_op => BinOp::Or,
                Rule::and_op => BinOp::And,
                Rule::eq => BinOp::Eq,
                Rule::ne => BinOp::Ne,
                Rule::lt => BinOp::Lt,
                Rule::le => BinOp::Le,
                Rule::gt => BinOp::Gt,
                Rule::ge => BinOp::Ge,
                Rule::in_op => BinOp::In,
                Rule::not_in => BinOp::NotIn,
                Rule::range_incl => BinOp::RangeIncl,
                Rule::range_excl => BinOp::RangeExcl,
                Rule::concat => BinOp::Concat,
                Rule::add => BinOp::Add,
                Rule::sub => BinOp::Sub,
                Rule::mul => BinOp::Mul,
                Rule::div => BinOp::Div,
                Rule::rem => BinOp::Rem,
                Rule::bor => BinOp::Union,
                Rule::band => BinOp::Inter,
                other => unreachable!("operator {other:?}"),
            };
            Expr {
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                span: sp,
            }
        })
        .parse(pairs)
}

fn primary(p: Pair<Rule>) -> Expr {
    let sp = span(&p);
    let kind = match p.as_rule() {
        Rule::int => int_kind(p.as_str()),
        Rule::bool_lit => ExprKind::Bool(p.as_str().starts_with("true")),
        Rule::end_lit => ExprKind::End,
        Rule::ident => ExprKind::Name(p.as_str().to_string()),
        Rule::expr | Rule::expr_no_in => return expr(p),
        Rule::paren => {
            let mut items: Vec<Expr> = p.into_inner().map(expr).collect();
            if items.len() == 1 {
                let mut only = items.pop().expect("one item");
                only.span = sp;
                return only;
            }
            ExprKind::Tuple(items)
        }
        Rule::brace => {
            let mut it = p.into_inner();
            match (it.next(), it.next()) {
                (Some(first), Some(tail)) if tail.as_rule() == Rule::compr_tail => {
                    let (elem, clauses) = comprehension_parts(expr(first), tail);
                    ExprKind::Compr(Box::new(elem), clauses)
                }
                (Some(first), tail) => ExprKind::Set(listed(first, tail)),
                (None, _) => ExprKind::Set(Vec::new()),
            }
        }
        Rule::list_lit => ExprKind::List(args(p.into_inner().next())),
        Rule::call => {
            let mut it = p.into_inner();
            let name = ident(it.next().expect("callee"));
            match (it.next(), it.next()) {
                (Some(first), Some(tail)) if tail.as_rule() == Rule::compr_tail => {
                    let (elem, clauses) = comprehension_parts(expr(first), tail);
                    ExprKind::CompoundCompr(name, Box::new(elem), clauses)
                }
                (Some(first), tail) => ExprKind::Call(name, listed(first, tail)),
                (None, _) => ExprKind::Call(name, Vec::new()),
            }
        }
        Rule::if_expr => {
            let mut it = p.into_inner().map(expr);
            let c = it.next().expect("cond");
            let a = it.next().expect("then");
            let b = it.next().expect("else");
            ExprKind::If(Box::new(c), Box::new(a), Box::new(b))
        }
        Rule::match_expr => {
            let mut it = p.into_inner();
            let scrutinee = expr(it.next().expect("scrutinee"));
            let arms = it
                .map(|arm| {
                    let mut parts = arm.into_inner();
                    let pat = parts.next().expect("pattern");
                    let span = span(&pat);
                    let pattern = (pat.as_rule() == Rule::variant_pattern).then(|| {
                        let mut parts = pat.into_inner();
                        let tag = ident(parts.next().expect("tag"));
                        (tag, parts.map(pattern).collect())
                    });
                    MatchArm {
                        pattern,
                        span,
                        body: expr(parts.next().expect("arm body")),
                    }
                })
                .collect();
            ExprKind::Match(Box::new(scrutinee), arms)
        }
        Rule::let_expr => {
            let mut it = p.into_inner();
            let name = pattern(it.next().expect("pattern"));
            let value = expr(it.next().expect("value"));
            let body = expr(it.next().expect("body"));
            ExprKind::Let(name, Box::new(value), Box::new(body))
        }
        Rule::quantifier => {
            let mut it = p.into_inner();
            let kind = match it.next().expect("kind").as_str() {
                "exists" => QuantKind::Exists,
                "forall" => QuantKind::Forall,
                _ => QuantKind::Count,
            };
            let pat = pattern(it.next().expect("pattern"));
            let dom = expr(it.next().expect("domain"));
            let body = expr(it.next().expect("body"));
            ExprKind::Quant(kind, pat, Box::new(dom), Box::new(body))
        }
        Rule::closure => {
            let mut it = p.into_inner();
            let kind = match it.next().expect("kind").as_str() {
                "closure" => ClosureKind::Reach,
                _ => ClosureKind::Components,
            };
            let seed = expr(it.next().expect("seed"));
            let var = ident(it.next().expect("variable"));
            let next = expr(it.next().expect("next"));
            ExprKind::Closure(kind, Box::new(seed), var, Box::new(next))
        }
        other => unreachable!("primary {other:?}"),
    };
    Expr { kind, span: sp }
}
