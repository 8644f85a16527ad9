//! Diagnostics with source spans, rendered by codespan-reporting.
//!
//! A diagnostic points either at a byte range of a source file (parse errors) or
//! at a location attribute (verifier and pass errors); the latter is resolved to
//! a span when the location names a file the [`SourceMap`] holds.

use crate::attributes::{Attr, AttrKind, LocKind};
use crate::ir::Uniquer;
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term;

/// How serious a diagnostic is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Severity {
    /// An error: the tool fails.
    Error,
    /// A warning.
    Warning,
    /// Extra information attached to another diagnostic.
    Note,
    /// A remark.
    Remark,
}

impl Severity {
    /// MLIR's word for the severity, as used in `expected-<word>` annotations.
    pub fn word(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Remark => "remark",
        }
    }
}

/// Where a diagnostic points.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Where {
    /// Nowhere in particular.
    Nowhere,
    /// A byte range of a file in the source map.
    Span {
        /// File id in the [`SourceMap`].
        file: usize,
        /// Start byte.
        start: usize,
        /// End byte (exclusive).
        end: usize,
    },
    /// A location attribute.
    Loc(Attr),
}

/// A message for the user, with where it points, notes and an optional hint.
#[derive(Clone, Debug)]
pub struct Diagnostic {
    /// Severity.
    pub severity: Severity,
    /// The message.
    pub message: String,
    /// Where it points.
    pub at: Where,
    /// Attached notes (each may point elsewhere).
    pub notes: Vec<Diagnostic>,
    /// A suggestion for fixing the problem.
    pub hint: Option<String>,
}

impl Diagnostic {
    /// An error with no position yet.
    pub fn error(message: impl Into<String>) -> Self {
        Diagnostic {
            severity: Severity::Error,
            message: message.into(),
            at: Where::Nowhere,
            notes: Vec::new(),
            hint: None,
        }
    }
    /// A diagnostic of any severity.
    pub fn new(severity: Severity, message: impl Into<String>, at: Where) -> Self {
        Diagnostic {
            severity,
            message: message.into(),
            at,
            notes: Vec::new(),
            hint: None,
        }
    }
    /// Point at a byte range.
    pub fn at_span(mut self, file: usize, start: usize, end: usize) -> Self {
        self.at = Where::Span {
            file,
            start,
            end: end.max(start),
        };
        self
    }
    /// Point at a location.
    pub fn at_loc(mut self, loc: Attr) -> Self {
        self.at = Where::Loc(loc);
        self
    }
    /// Attach a note.
    pub fn with_note(mut self, message: impl Into<String>, at: Where) -> Self {
        self.notes
            .push(Diagnostic::new(Severity::Note, message, at));
        self
    }
    /// Attach a hint.
    pub fn with_hint(mut self, hint: impl Into<String>) -> Self {
        self.hint = Some(hint.into());
        self
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.severity.word(), self.message)
    }
}

/// Source files by id and name, for rendering and resolving locations.
#[derive(Default)]
pub struct SourceMap {
    files: SimpleFiles<String, String>,
    names: Vec<String>,
    line_starts: Vec<Vec<usize>>,
}

impl SourceMap {
    /// An empty map.
    pub fn new() -> Self {
        Self::default()
    }
    /// Add a file; returns its id.
    pub fn add(&mut self, name: &str, text: String) -> usize {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        self.line_starts.push(starts);
        self.names.push(name.to_string());
        self.files.add(name.to_string(), text)
    }
    /// The text of a file.
    pub fn text(&self, file: usize) -> &str {
        self.files
            .get(file)
            .map(|f| f.source().as_str())
            .unwrap_or("")
    }
    /// The name of a file.
    pub fn name(&self, file: usize) -> &str {
        self.names.get(file).map(String::as_str).unwrap_or("")
    }
    /// 1-based line and column (in bytes, as MLIR counts) of a byte offset.
    pub fn line_col(&self, file: usize, offset: usize) -> (usize, usize) {
        let starts = &self.line_starts[file];
        let line = starts.partition_point(|&s| s <= offset).max(1) - 1;
        (line + 1, offset - starts[line] + 1)
    }
    /// Byte offset of a 1-based line and column, clamped to the file.
    pub fn offset(&self, file: usize, line: usize, col: usize) -> usize {
        let starts = &self.line_starts[file];
        let len = self.text(file).len();
        let Some(&start) = starts.get(line.saturating_sub(1)) else {
            return len;
        };
        (start + col.saturating_sub(1)).min(len)
    }
    /// Resolve where a diagnostic points to a (file, start, end) span.
    pub fn resolve(&self, uniq: &Uniquer, at: Where) -> Option<(usize, usize, usize)> {
        match at {
            Where::Nowhere => None,
            Where::Span { file, start, end } => Some((file, start, end)),
            Where::Loc(loc) => {
                let (name, line, col) = file_line_col(uniq, loc)?;
                let file = self.names.iter().position(|n| n == name)?;
                let start = self.offset(file, line as usize, col as usize);
                // Underline the token that starts there.
                let text = self.text(file);
                let len = text[start..]
                    .char_indices()
                    .find(|&(_, c)| c.is_whitespace() || (c == '(' || c == ',' || c == ')'))
                    .map_or(text.len() - start, |(i, _)| i)
                    .max(1);
                Some((file, start, (start + len).min(text.len())))
            }
        }
    }
    /// Render a diagnostic with its notes, without colour.
    pub fn render(&self, uniq: &Uniquer, d: &Diagnostic) -> String {
        let mut out = term::termcolor::NoColor::new(Vec::new());
        let config = term::Config {
            chars: term::Chars::ascii(),
            ..Default::default()
        };
        let _ = term::emit(&mut out, &config, &self.files, &self.to_codespan(uniq, d));
        let mut s = String::from_utf8_lossy(&out.into_inner()).into_owned();
        // Notes pointing at other places render as their own snippets.
        for n in &d.notes {
            if matches!(n.at, Where::Nowhere) {
                continue;
            }
            if let Some(cd) = self.resolve(uniq, n.at).map(|_| self.to_codespan(uniq, n)) {
                let mut out = term::termcolor::NoColor::new(Vec::new());
                let _ = term::emit(&mut out, &config, &self.files, &cd);
                s.push_str(&String::from_utf8_lossy(&out.into_inner()));
            }
        }
        s
    }
    fn to_codespan(&self, uniq: &Uniquer, d: &Diagnostic) -> cs::Diagnostic<usize> {
        let sev = match d.severity {
            Severity::Error => cs::Severity::Error,
            Severity::Warning => cs::Severity::Warning,
            Severity::Note => cs::Severity::Note,
            Severity::Remark => cs::Severity::Help,
        };
        let mut cd = cs::Diagnostic::new(sev).with_message(&d.message);
        let mut notes = Vec::new();
        match self.resolve(uniq, d.at) {
            Some((file, start, end)) if self.files.get(file).is_ok() => {
                cd = cd.with_labels(vec![cs::Label::primary(file, start..end)]);
            }
            _ => {
                if let Where::Loc(l) = d.at {
                    notes.push(format!("at {}", crate::printer::location_text(uniq, l)));
                }
            }
        }
        for n in &d.notes {
            if matches!(n.at, Where::Nowhere) || self.resolve(uniq, n.at).is_none() {
                notes.push(format!("note: {}", n.message));
            }
        }
        if let Some(h) = &d.hint {
            notes.push(format!("hint: {h}"));
        }
        cd.with_notes(notes)
    }
    /// The line a diagnostic points at, for `--verify-diagnostics` matching.
    pub fn line_of(&self, uniq: &Uniquer, at: Where) -> Option<(usize, usize)> {
        let (file, start, _) = self.resolve(uniq, at)?;
        Some((file, self.line_col(file, start).0))
    }
}

/// The innermost file:line:col of a location, looking through names, call sites and fusions.
pub fn file_line_col(uniq: &Uniquer, loc: Attr) -> Option<(&str, u32, u32)> {
    let mut cur = loc;
    for _ in 0..64 {
        match uniq.attr_kind(cur) {
            AttrKind::Location(LocKind::FileLineCol {
                file, line, col, ..
            }) => {
                return Some((uniq.str(*file), *line, *col));
            }
            AttrKind::Location(LocKind::Name { child: Some(c), .. }) => cur = *c,
            AttrKind::Location(LocKind::CallSite { callee, .. }) => cur = *callee,
            AttrKind::Location(LocKind::Fused { locs, .. }) => cur = *locs.first()?,
            _ => return None,
        }
    }
    None
}
