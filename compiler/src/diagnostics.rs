//! Diagnostics with source spans, rendered by codespan-reporting.
//!
//! A diagnostic points either at a byte range of a source file (parse errors) or
//! at a location attribute (verifier and pass errors); the latter is resolved to
//! a span when the location names a file the [`SourceMap`] holds.
//!
//! Passes explain their decisions with optimisation remarks ([`Context::remark`]),
//! recorded only when asked for (`aic-opt --aic-remarks`), as clang's `-Rpass`.

use crate::attributes::{Attr, AttrKind, LocKind};
use crate::ir::{Context, Op, Uniquer};
use crate::pass::PassFilter;
use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::SimpleFiles;
use codespan_reporting::term;
use std::sync::Mutex;

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
        // codespan has no remark severity: a remark is drawn as help, and named as
        // what it is.
        if d.severity == Severity::Remark
            && let Some(rest) = s.strip_prefix("help")
        {
            s = format!("remark{rest}");
        }
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

/// Which optimisation remarks a [`Context`] records, the pass now running, and
/// the remarks recorded so far. Off by default; see [`Context::remark`].
#[derive(Debug, Default)]
pub struct Remarks {
    /// Passes whose remarks are recorded.
    filter: PassFilter,
    /// Flag of the pass now running, set by the pass manager.
    pass: Option<&'static str>,
    /// Remarks recorded so far, in order; behind a lock so that a pass holding
    /// only `&Context` (while it iterates over the IR, say) can emit too.
    emitted: Mutex<Vec<Diagnostic>>,
}

impl Remarks {
    /// The same settings with nothing recorded, for a context copied out of this one.
    pub(crate) fn settings(&self) -> Remarks {
        Remarks {
            filter: self.filter.clone(),
            pass: self.pass,
            emitted: Mutex::default(),
        }
    }
    fn enabled(&self) -> bool {
        match &self.filter {
            PassFilter::None => false,
            PassFilter::All => true,
            f @ PassFilter::Flags(_) => self.pass.is_some_and(|p| f.matches(p)),
        }
    }
}

impl Context {
    /// Record the optimisation remarks of the passes `filter` selects:
    /// [`PassFilter::All`] every pass's (and those emitted outside any pass),
    /// [`PassFilter::Flags`] those of the passes with these flags, and
    /// [`PassFilter::None`] (the default) none.
    pub fn set_remarks(&mut self, filter: PassFilter) {
        self.remarks.filter = filter;
    }
    /// Whether a remark emitted now would be recorded. Guard work done only to
    /// explain a decision with it.
    pub fn remarks_enabled(&self) -> bool {
        self.remarks.enabled()
    }
    /// Emit an optimisation remark about `op`, pointing at its location, when
    /// remarks are enabled for the pass now running; otherwise do nothing. The
    /// message is only formatted when recorded (pass `format_args!(...)` to build
    /// none), and is prefixed with the running pass's flag:
    /// `inline: call to @f not inlined: ...`.
    pub fn remark(&self, op: Op, message: impl std::fmt::Display) {
        if !self.remarks.enabled() {
            return;
        }
        let message = match self.remarks.pass {
            Some(pass) => format!("{pass}: {message}"),
            None => message.to_string(),
        };
        let d = Diagnostic::new(Severity::Remark, message, Where::Loc(self.op(op).loc));
        self.remarks
            .emitted
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(d);
    }
    /// The remarks recorded so far, in the order they were emitted, leaving none.
    pub fn take_remarks(&mut self) -> Vec<Diagnostic> {
        std::mem::take(
            self.remarks
                .emitted
                .get_mut()
                .unwrap_or_else(|e| e.into_inner()),
        )
    }
    /// Append remarks recorded elsewhere (in an [`Context::extract`]ed copy).
    pub(crate) fn add_remarks(&mut self, remarks: Vec<Diagnostic>) {
        if !remarks.is_empty() {
            self.remarks
                .emitted
                .get_mut()
                .unwrap_or_else(|e| e.into_inner())
                .extend(remarks);
        }
    }
    /// Set the flag of the pass now running (the pass manager does); returns the
    /// previous one.
    pub(crate) fn set_remark_pass(&mut self, pass: Option<&'static str>) -> Option<&'static str> {
        std::mem::replace(&mut self.remarks.pass, pass)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::DialectRegistry;
    use crate::syntax::{parse_module, with_parser_stack};
    use std::sync::Arc;

    /// A module holding one op on line 3, its source map, and that op.
    fn setup(text: &str) -> (Context, SourceMap, Op) {
        let mut ctx = Context::new(Arc::new(DialectRegistry::new()));
        ctx.allow_unregistered = true;
        let mut sm = SourceMap::new();
        let f = sm.add("r.mlir", text.to_string());
        let m = parse_module(&mut ctx, &sm, f).expect("parses");
        let body = ctx.entry_block(ctx.regions(m)[0]).expect("module body");
        let op = ctx.block_ops(body).next().expect("an op");
        (ctx, sm, op)
    }

    const TEXT: &str = "// remarks\n\n  \"t.a\"() : () -> ()\n";

    #[test]
    fn remarks_are_off_by_default() {
        with_parser_stack(|| {
            let (mut ctx, _, op) = setup(TEXT);
            assert!(!ctx.remarks_enabled());
            ctx.remark(op, "ignored");
            assert!(ctx.take_remarks().is_empty());
        });
    }

    #[test]
    fn a_remark_points_at_its_op() {
        with_parser_stack(|| {
            let (mut ctx, sm, op) = setup(TEXT);
            ctx.set_remarks(PassFilter::All);
            assert!(ctx.remarks_enabled());
            ctx.remark(op, format_args!("kept {} op", 1));
            let rs = ctx.take_remarks();
            assert_eq!(rs.len(), 1);
            assert_eq!(rs[0].severity, Severity::Remark);
            assert_eq!(rs[0].message, "kept 1 op");
            assert_eq!(sm.line_of(ctx.uniquer(), rs[0].at), Some((0, 3)));
            let text = sm.render(ctx.uniquer(), &rs[0]);
            assert!(text.starts_with("remark: kept 1 op\n"), "{text}");
            assert!(text.contains("r.mlir:3:3"), "{text}");
            // Taken means gone.
            assert!(ctx.take_remarks().is_empty());
        });
    }

    #[test]
    fn remarks_name_their_pass_and_follow_the_filter() {
        with_parser_stack(|| {
            let (mut ctx, _, op) = setup(TEXT);
            ctx.set_remarks(PassFilter::Flags(vec!["inline".into()]));
            // Outside any pass, and in another pass, nothing is recorded.
            ctx.remark(op, "outside");
            ctx.set_remark_pass(Some("cse"));
            assert!(!ctx.remarks_enabled());
            ctx.remark(op, "from cse");
            ctx.set_remark_pass(Some("inline"));
            assert!(ctx.remarks_enabled());
            ctx.remark(op, "from inline");
            let (mut sub, sub_op) = ctx.extract(op);
            sub.remark(sub_op, "from a copy");
            let copied = sub.take_remarks();
            ctx.add_remarks(copied);
            ctx.set_remark_pass(None);
            let msgs: Vec<String> = ctx.take_remarks().into_iter().map(|d| d.message).collect();
            assert_eq!(msgs, ["inline: from inline", "inline: from a copy"]);
        });
    }
}
