//! Rebuilds the source text of `game! { ... }` from its tokens' lines and columns, and
//! maps byte offsets of that text back to the tokens.

use cgdl_compiler::Diagnostic;
use proc_macro::{Delimiter, Span, TokenStream, TokenTree};

/// The rebuilt text and, for each token, its byte range in it and its span.
pub struct Rebuilt {
    /// The source text, each token at its original line and column (lines counted from
    /// the macro's first token).
    pub text: String,
    tokens: Vec<(usize, usize, Span)>,
    first_line: usize,
    line: usize,
    col: usize,
}

/// Rebuilds the text of `input`.
pub fn rebuild(input: TokenStream) -> Rebuilt {
    let mut r = Rebuilt {
        text: String::new(),
        tokens: Vec::new(),
        first_line: 0,
        line: 1,
        col: 1,
    };
    r.stream(input);
    r
}

impl Rebuilt {
    fn stream(&mut self, input: TokenStream) {
        let mut trees = input.into_iter().peekable();
        while let Some(tree) = trees.next() {
            match tree {
                TokenTree::Group(g) => match g.delimiter() {
                    Delimiter::None => self.stream(g.stream()),
                    d => {
                        let (open, close) = match d {
                            Delimiter::Parenthesis => ("(", ")"),
                            Delimiter::Brace => ("{", "}"),
                            Delimiter::Bracket => ("[", "]"),
                            Delimiter::None => ("", ""),
                        };
                        self.token(open, g.span_open());
                        self.stream(g.stream());
                        self.token(close, g.span_close());
                    }
                },
                TokenTree::Punct(p) => {
                    // A `///` doc comment arrives as `#[doc = "..."]`: skip it like a comment.
                    if p.as_char() == '#' {
                        if let Some(TokenTree::Group(g)) = trees.peek() {
                            if g.delimiter() == Delimiter::Bracket && is_doc(g.stream()) {
                                trees.next();
                                continue;
                            }
                        }
                    }
                    self.token(&p.as_char().to_string(), p.span());
                }
                TokenTree::Ident(i) => self.token(&i.to_string(), i.span()),
                TokenTree::Literal(l) => self.token(&l.to_string(), l.span()),
            }
        }
    }

    /// Appends `text` at the position of `span`.
    fn token(&mut self, text: &str, span: Span) {
        let (line, col) = (span.line(), span.column());
        if self.tokens.is_empty() {
            self.first_line = line;
        }
        let target = line.saturating_sub(self.first_line) + 1;
        while self.line < target {
            self.text.push('\n');
            self.line += 1;
            self.col = 1;
        }
        if self.col < col {
            self.text.push_str(&" ".repeat(col - self.col));
            self.col = col;
        } else if !self.text.is_empty() && !self.text.ends_with(['\n', ' ']) && col < self.col {
            // Tokens out of order (spans from another macro): keep them apart.
            self.text.push(' ');
            self.col += 1;
        }
        let start = self.text.len();
        self.text.push_str(text);
        self.tokens.push((start, self.text.len(), span));
        match text.rfind('\n') {
            Some(i) => {
                self.line += text.matches('\n').count();
                self.col = text[i + 1..].chars().count() + 1;
            }
            None => self.col += text.chars().count(),
        }
    }

    /// The spans of the first and last tokens that `d` covers (the nearest token when it
    /// covers none, the macro call when there are no tokens).
    fn spans_of(&self, d: &Diagnostic) -> (Span, Span) {
        let (start, end) = (d.span.start, d.span.end.max(d.span.start + 1));
        let covered: Vec<Span> = self
            .tokens
            .iter()
            .filter(|(s, e, _)| *s < end && start < *e)
            .map(|t| t.2)
            .collect();
        match (covered.first(), covered.last()) {
            (Some(a), Some(b)) => (*a, *b),
            _ => {
                let near = self
                    .tokens
                    .iter()
                    .find(|(s, _, _)| *s >= start)
                    .or(self.tokens.last())
                    .map(|t| t.2)
                    .unwrap_or_else(Span::call_site);
                (near, near)
            }
        }
    }

    /// A `compile_error!` for `d`, spanning the tokens it points at.
    pub fn error_at(&self, d: &Diagnostic) -> proc_macro2::TokenStream {
        let (first, last) = self.spans_of(d);
        let mut msg = format!("[{}] {}", d.code, d.message);
        if d.label != d.message {
            msg.push_str(&format!("\n= note: {}", d.label));
        }
        if let Some(help) = &d.help {
            msg.push_str(&format!("\n= help: {help}"));
        }
        let tokens: proc_macro2::TokenStream = [
            proc_macro2::TokenTree::Ident(proc_macro2::Ident::new("a", first.into())),
            proc_macro2::TokenTree::Ident(proc_macro2::Ident::new("b", last.into())),
        ]
        .into_iter()
        .collect();
        syn::Error::new_spanned(tokens, msg).to_compile_error()
    }
}

fn is_doc(stream: TokenStream) -> bool {
    matches!(stream.into_iter().next(), Some(TokenTree::Ident(i)) if i.to_string() == "doc")
}
