//! Diagnostics: an error code, a message, the culprit's span, and a help line, rendered
//! with ariadne as `file:line:col` with the source line and a caret.

use crate::ast::Span;
use crate::codes::ErrorCode;
use ariadne::{Config, Label, Report, ReportKind, Source};

/// One error found in a source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// A stable code such as `E0101`.
    pub code: ErrorCode,
    /// The headline.
    pub message: String,
    /// The culprit.
    pub span: Span,
    /// What the caret says.
    pub label: String,
    /// How to fix it.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic with a code, headline and culprit; the label repeats the headline.
    pub fn new(code: ErrorCode, message: impl Into<String>, span: Span) -> Diagnostic {
        let message = message.into();
        Diagnostic {
            code,
            label: message.clone(),
            message,
            span,
            help: None,
        }
    }

    /// Sets the text under the caret.
    pub fn label(mut self, label: impl Into<String>) -> Diagnostic {
        self.label = label.into();
        self
    }

    /// Adds a help line.
    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// 1-based line and column of the span's start in `source`.
    pub fn line_col(&self, source: &str) -> (usize, usize) {
        line_col(source, self.span.start)
    }

    /// Renders the diagnostic (no colour) for `file` whose text is `source`.
    pub fn render(&self, file: &str, source: &str) -> String {
        let start = char_offset(source, self.span.start);
        let end = char_offset(source, self.span.end.max(self.span.start)).max(start);
        let (line, col) = self.line_col(source);
        let line_text = source.lines().nth(line - 1).unwrap_or("");
        if line_text.chars().count() > MAX_QUOTED_LINE {
            // A snippet of a very long line would repeat it whole: name the place instead.
            let mut out = format!(
                "[{}] Error: {} ({file}:{line}:{col})\n",
                self.code, self.message
            );
            if let Some(help) = &self.help {
                out.push_str(&format!("  help: {help}\n"));
            }
            return out;
        }
        let mut report = Report::build(ReportKind::Error, (file, start..end))
            .with_config(Config::default().with_color(false))
            .with_code(self.code.as_str())
            .with_message(format!("{} ({file}:{line}:{col})", self.message))
            .with_label(Label::new((file, start..end)).with_message(&self.label));
        if let Some(help) = &self.help {
            report = report.with_help(help);
        }
        let mut out = Vec::new();
        // Control characters are quoted as their pictures (U+2400 to U+2421), one
        // character each, so that the columns stay: a NUL byte is shown `␀`, not written.
        let shown: String = source
            .chars()
            .map(|c| match c {
                '\n' | '\t' | '\r' => c,
                c if (c as u32) < 0x20 => char::from_u32(0x2400 + c as u32).unwrap_or('?'),
                '\u{7f}' => '\u{2421}',
                c => c,
            })
            .collect();
        let written = report
            .finish()
            .write((file, Source::from(shown.as_str())), &mut out);
        match written {
            Ok(()) => String::from_utf8_lossy(&out).into_owned(),
            Err(_) => format!(
                "error[{}]: {}\n  --> {file}:{line}:{col}\n",
                self.code, self.message
            ),
        }
    }
}

/// The most diagnostics [`render_all`] shows; the rest are counted.
pub const MAX_SHOWN: usize = 20;

/// Lines longer than this (in characters) are not quoted in a diagnostic.
pub const MAX_QUOTED_LINE: usize = 240;

/// Renders the first [`MAX_SHOWN`] diagnostics in order, then how many more there are.
pub fn render_all(diags: &[Diagnostic], file: &str, source: &str) -> String {
    let mut out: String = diags
        .iter()
        .take(MAX_SHOWN)
        .map(|d| d.render(file, source))
        .collect();
    if let Some(more) = diags.len().checked_sub(MAX_SHOWN).filter(|&n| n > 0) {
        out.push_str(&format!(
            "... and {more} more error{} in {file}\n",
            if more == 1 { "" } else { "s" }
        ));
    }
    out
}

fn char_offset(source: &str, byte: usize) -> usize {
    let byte = byte.min(source.len());
    source.char_indices().take_while(|(i, _)| *i < byte).count()
}

/// 1-based line and column (in characters) of byte offset `byte`.
pub fn line_col(source: &str, byte: usize) -> (usize, usize) {
    let byte = byte.min(source.len());
    let before = source.get(..byte).unwrap_or(source);
    let line = before.matches('\n').count() + 1;
    let col = before
        .rsplit('\n')
        .next()
        .map(|s| s.chars().count())
        .unwrap_or(0)
        + 1;
    (line, col)
}
