//! `--verify-diagnostics`: check the diagnostics a run emits against the
//! `expected-*` annotations in the input, the way mlir-opt does.
//!
//! An annotation is a line containing
//! `expected-(error|note|remark|warning)(-re)? *(@([+-][0-9]+|above|below|unknown))? *{{MSG}}`
//! at its (right-trimmed) end. `MSG` is a substring of the diagnostic's message, or
//! with `-re` a pattern whose `{{...}}` parts are regular expressions and the rest
//! literal text. Without a designator the annotation applies to its own line;
//! `@+N`/`@-N` shift that line, `@above` names the last line that is not an
//! annotation, `@below` the next one, and `@unknown` matches diagnostics that have
//! no file location. Lines that do not have exactly this shape (a malformed
//! designator such as `@+x`, say) are not annotations, as in MLIR.
//!
//! Every emitted diagnostic, and each of its notes on its own, must match an
//! annotation of the same severity on its line; each annotation must be matched
//! by at least one diagnostic. Failures are rendered as LLVM's `SourceMgr` prints
//! them: `file:line:col: error: message`, the source line and a caret line.

use aic::{Attr, AttrKind, Diagnostic, LocKind, Severity, SourceMap, Uniquer, Where};
use regex_lite::Regex;

/// Which diagnostics an annotation applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    /// Diagnostics on this 1-based line (out of range for a dangling offset).
    Line(i64),
    /// Diagnostics without a file location (`@unknown`).
    Unknown,
}

/// One `expected-*` annotation.
#[derive(Debug)]
pub struct Expectation {
    /// The severity it expects.
    pub severity: Severity,
    /// Where the diagnostic must point.
    pub target: Target,
    /// Byte offset of `expected-` in the file.
    pub offset: usize,
    /// The text between the outer `{{` and `}}`.
    pub text: String,
    /// The compiled pattern of an `-re` annotation.
    pub regex: Option<Regex>,
}

impl Expectation {
    /// Whether a diagnostic message satisfies this annotation (severity aside).
    pub fn matches(&self, message: &str) -> bool {
        match &self.regex {
            Some(re) => re.is_match(message),
            None => message.contains(&self.text),
        }
    }
}

/// A problem with an annotation itself, at `offset` spanning `len` bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnnotationError {
    /// Byte offset of `expected-`.
    pub offset: usize,
    /// Length of the underlined range (that of the annotation's text, as MLIR does).
    pub len: usize,
    /// The message.
    pub message: String,
}

/// The shape of an annotation found on a line (offsets relative to the line).
struct RawAnnotation<'a> {
    start: usize,
    severity: Severity,
    is_regex: bool,
    designator: Option<&'a str>,
    text: &'a str,
}

/// Match a right-trimmed line against the annotation grammar, leftmost first.
fn match_line(line: &str) -> Option<RawAnnotation<'_>> {
    const SEVERITIES: [(&str, Severity); 4] = [
        ("error", Severity::Error),
        ("note", Severity::Note),
        ("remark", Severity::Remark),
        ("warning", Severity::Warning),
    ];
    'starts: for (start, _) in line.match_indices("expected-") {
        let rest = &line[start + "expected-".len()..];
        let Some((rest, severity)) = SEVERITIES
            .iter()
            .find_map(|&(w, s)| rest.strip_prefix(w).map(|r| (r, s)))
        else {
            continue;
        };
        let (rest, is_regex) = match rest.strip_prefix("-re") {
            Some(r) => (r, true),
            None => (rest, false),
        };
        let mut rest = rest.trim_start_matches(' ');
        let mut designator = None;
        if let Some(r) = rest.strip_prefix('@') {
            let len = if let Some(d) = r.strip_prefix(['+', '-']) {
                let digits = d.bytes().take_while(u8::is_ascii_digit).count();
                if digits == 0 {
                    continue 'starts;
                }
                1 + digits
            } else if let Some(w) = ["above", "below", "unknown"]
                .into_iter()
                .find(|w| r.starts_with(w))
            {
                w.len()
            } else {
                continue 'starts;
            };
            designator = Some(&r[..len]);
            rest = r[len..].trim_start_matches(' ');
        }
        if rest.len() >= 4 && rest.starts_with("{{") && rest.ends_with("}}") {
            return Some(RawAnnotation {
                start,
                severity,
                is_regex,
                designator,
                text: &rest[2..rest.len() - 2],
            });
        }
    }
    None
}

/// Parse a line offset as LLVM's `getAsInteger` with radix 0 reads decimal digits:
/// a leading `0` means octal. Returns `None` where LLVM fails (bad octal, overflow).
fn parse_offset(digits: &str) -> Option<i64> {
    let radix = if digits.len() > 1 && digits.starts_with('0') {
        8
    } else {
        10
    };
    i32::from_str_radix(digits, radix).ok().map(i64::from)
}

/// Build the pattern of an `-re` annotation: `{{...}}` parts are regexes, the rest literal.
fn compile_regex(text: &str) -> Result<Regex, String> {
    let mut pattern = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        let Some(open) = rest.find("{{") else {
            pattern.push_str(&regex_lite::escape(rest));
            break;
        };
        pattern.push_str(&regex_lite::escape(&rest[..open]));
        rest = &rest[open + 2..];
        let Some(close) = rest.find("}}") else {
            return Err("found start of regex with no end '}}'".into());
        };
        let part = &rest[..close];
        if let Err(e) = Regex::new(part) {
            return Err(format!("invalid regex: {}", first_line(&e.to_string())));
        }
        pattern.push('(');
        pattern.push_str(part);
        pattern.push(')');
        rest = &rest[close + 2..];
    }
    Regex::new(&pattern).map_err(|e| format!("invalid regex: {}", first_line(&e.to_string())))
}

fn first_line(s: &str) -> &str {
    s.lines().last().unwrap_or(s).trim()
}

/// Find the `expected-*` annotations of a file's text, in order, with the errors
/// found in malformed `-re` patterns (those annotations are dropped, as in MLIR).
pub fn parse_annotations(text: &str) -> (Vec<Expectation>, Vec<AnnotationError>) {
    let mut expected: Vec<Expectation> = Vec::new();
    let mut errors = Vec::new();
    let lines: Vec<&str> = text.split('\n').collect();
    let mut last_plain_line = 0usize;
    let mut for_next_line: Vec<usize> = Vec::new();
    let mut line_start = 0usize;
    for (idx, line) in lines.iter().enumerate() {
        let this_start = line_start;
        line_start += line.len() + 1;
        let trimmed = line.trim_end_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
        let Some(raw) = match_line(trimmed) else {
            for i in for_next_line.drain(..) {
                expected[i].target = Target::Line(idx as i64 + 1);
            }
            last_plain_line = idx;
            continue;
        };
        let offset = this_start + raw.start;
        let regex = if raw.is_regex {
            match compile_regex(raw.text) {
                Ok(r) => Some(r),
                Err(message) => {
                    errors.push(AnnotationError {
                        offset,
                        len: raw.text.len(),
                        message,
                    });
                    continue;
                }
            }
        } else {
            None
        };
        let own_line = idx as i64 + 1;
        let target = match raw.designator {
            None => Target::Line(own_line),
            Some("unknown") => Target::Unknown,
            Some("above") => Target::Line(last_plain_line as i64 + 1),
            Some("below") => {
                for_next_line.push(expected.len());
                // Where it stays if no plain line follows.
                Target::Line(lines.len() as i64)
            }
            Some(d) => {
                let n = parse_offset(&d[1..]).unwrap_or(0);
                Target::Line(if d.starts_with('+') {
                    own_line + n
                } else {
                    own_line - n
                })
            }
        };
        expected.push(Expectation {
            severity: raw.severity,
            target,
            offset,
            text: raw.text.to_string(),
            regex,
        });
    }
    (expected, errors)
}

/// The first file:line:col of a location, searching nested locations in order
/// (MLIR's `findInstanceOf<FileLineColLoc>`).
fn find_file_line_col(uniq: &Uniquer, loc: Attr, depth: usize) -> Option<(&str, u32, u32)> {
    if depth > 64 {
        return None;
    }
    match uniq.attr_kind(loc) {
        AttrKind::Location(LocKind::FileLineCol {
            file, line, col, ..
        }) => Some((uniq.str(*file), *line, *col)),
        AttrKind::Location(LocKind::Name { child, .. }) => {
            find_file_line_col(uniq, (*child)?, depth + 1)
        }
        AttrKind::Location(LocKind::CallSite { callee, caller }) => {
            find_file_line_col(uniq, *callee, depth + 1)
                .or_else(|| find_file_line_col(uniq, *caller, depth + 1))
        }
        AttrKind::Location(LocKind::Fused { locs, .. }) => locs
            .iter()
            .find_map(|&l| find_file_line_col(uniq, l, depth + 1)),
        _ => None,
    }
}

/// Where an emitted diagnostic points, as the verifier sees it.
enum Resolved<'a> {
    /// No file location.
    Unknown,
    /// A byte offset in a file of the source map.
    Offset { file: usize, offset: usize },
    /// A file location that the source map cannot show (other file, line or
    /// column 0, out of range).
    Plain { name: &'a str, line: u32, col: u32 },
}

/// Byte offset of a 1-based line and column, if it lies within that line
/// (LLVM's `FindLocForLineAndColumn`, with MLIR's rejection of 0).
fn offset_of(sm: &SourceMap, file: usize, line: u32, col: u32) -> Option<usize> {
    if line == 0 || col == 0 {
        return None;
    }
    let text = sm.text(file);
    let start = if line == 1 {
        0
    } else {
        text.match_indices('\n').nth(line as usize - 2)?.0 + 1
    };
    let end = start + (col as usize - 1);
    if end > text.len() || text[start..end].contains(['\n', '\r']) {
        return None;
    }
    Some(end)
}

/// Render a message as LLVM's `SourceMgr::PrintMessage` does for an error at a
/// byte offset: `name:line:col: error: msg`, the source line, then a caret line
/// with `~` under the `len` bytes starting there.
pub fn render_at(sm: &SourceMap, file: usize, offset: usize, len: usize, message: &str) -> String {
    let text = sm.text(file);
    let offset = offset.min(text.len());
    let line_start = text[..offset].rfind(['\n', '\r']).map_or(0, |i| i + 1);
    let line_end = text[offset..]
        .find(['\n', '\r'])
        .map_or(text.len(), |i| offset + i);
    let line_text = &text[line_start..line_end];
    let col = offset - line_start;
    let line_no = text[..offset].matches('\n').count() + 1;
    let mut caret: Vec<u8> = vec![b' '; line_text.len() + 1];
    let tilde_end = (offset + len).min(line_end) - line_start;
    for c in &mut caret[col..tilde_end.max(col)] {
        *c = b'~';
    }
    caret[col.min(line_text.len())] = b'^';
    while caret.last() == Some(&b' ') {
        caret.pop();
    }
    // Expand tabs to 8-column stops in both lines, keeping them aligned.
    let mut src_out = String::new();
    let mut caret_out = String::new();
    let src_bytes = line_text.as_bytes();
    for (i, ch) in line_text.char_indices() {
        if ch == '\t' {
            let mut n = 0;
            loop {
                src_out.push(' ');
                n += 1;
                if src_out.len().is_multiple_of(8) {
                    break;
                }
            }
            if let Some(&c) = caret.get(i) {
                caret_out.extend(std::iter::repeat_n(c as char, n));
            }
        } else {
            src_out.push(ch);
            for j in i..i + ch.len_utf8() {
                if let Some(&c) = caret.get(j) {
                    caret_out.push(c as char);
                }
            }
        }
    }
    for &c in caret.iter().skip(src_bytes.len()) {
        caret_out.push(c as char);
    }
    let caret_out = caret_out.trim_end();
    format!(
        "{}:{}:{}: error: {message}\n{src_out}\n{caret_out}\n",
        display_name(sm.name(file)),
        line_no,
        col + 1
    )
}

/// An error with no location, as LLVM prints one.
fn render_unknown(message: &str) -> String {
    format!("<unknown>:0: error: {message}\n")
}

fn display_name(name: &str) -> &str {
    if name == "-" { "<stdin>" } else { name }
}

/// Resolve where a diagnostic points; file locations are shown with their source
/// line only when they name `file`.
fn resolve<'a>(sm: &SourceMap, uniq: &'a Uniquer, file: usize, at: Where) -> Resolved<'a> {
    match at {
        Where::Nowhere => Resolved::Unknown,
        Where::Span { file, start, .. } => Resolved::Offset {
            file,
            offset: start,
        },
        Where::Loc(loc) => match find_file_line_col(uniq, loc, 0) {
            None => Resolved::Unknown,
            Some((name, line, col)) => match offset_of(sm, file, line, col) {
                Some(offset) if name == sm.name(file) => Resolved::Offset { file, offset },
                _ => Resolved::Plain { name, line, col },
            },
        },
    }
}

/// The rendered failures of a check, by kind, each in the order found.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Report {
    /// Malformed `-re` annotations.
    pub bad_annotations: Vec<String>,
    /// Diagnostics that no annotation expects (or near misses).
    pub unexpected: Vec<String>,
    /// Annotations of the file that nothing produced.
    pub not_produced: Vec<String>,
    /// `@unknown` annotations that nothing produced.
    pub not_produced_unknown: Vec<String>,
}

impl Report {
    /// Whether everything matched.
    pub fn is_ok(&self) -> bool {
        self.bad_annotations.is_empty()
            && self.unexpected.is_empty()
            && self.not_produced.is_empty()
            && self.not_produced_unknown.is_empty()
    }
    /// Append another report's failures, kind by kind.
    pub fn merge(&mut self, other: Report) {
        self.bad_annotations.extend(other.bad_annotations);
        self.unexpected.extend(other.unexpected);
        self.not_produced.extend(other.not_produced);
        self.not_produced_unknown.extend(other.not_produced_unknown);
    }
    /// All failures in mlir-opt's order: malformed annotations, unexpected
    /// diagnostics, annotations not produced, then `@unknown` ones not produced.
    /// mlir-opt checks a split file with one handler, so merging the reports of
    /// its chunks before this gives mlir-opt's order for the whole file.
    pub fn messages(self) -> Vec<String> {
        let mut v = self.bad_annotations;
        v.extend(self.unexpected);
        v.extend(self.not_produced);
        v.extend(self.not_produced_unknown);
        v
    }
}

/// Check emitted diagnostics against the annotations of `file`: the rendered
/// failures in mlir-opt's order, empty on success.
pub fn check(sm: &SourceMap, uniq: &Uniquer, file: usize, emitted: &[Diagnostic]) -> Vec<String> {
    check_report(sm, uniq, file, emitted).messages()
}

/// [`check`], with the failures kept apart by kind.
pub fn check_report(sm: &SourceMap, uniq: &Uniquer, file: usize, emitted: &[Diagnostic]) -> Report {
    let mut report = Report::default();
    let (expected, errors) = parse_annotations(sm.text(file));
    let mut matched = vec![false; expected.len()];
    report.bad_annotations = errors
        .iter()
        .map(|e| render_at(sm, file, e.offset, e.len, &e.message))
        .collect();
    let out = &mut report.unexpected;
    let mut queue: Vec<&Diagnostic> = emitted.iter().rev().collect();
    while let Some(d) = queue.pop() {
        // Notes are checked one by one, right after the diagnostic they belong to.
        queue.extend(d.notes.iter().rev());
        let resolved = resolve(sm, uniq, file, d.at);
        let wanted = match resolved {
            Resolved::Unknown => Some(Target::Unknown),
            Resolved::Offset { file: f, offset } if f == file => {
                Some(Target::Line(sm.line_col(f, offset).0 as i64))
            }
            Resolved::Plain { name, line, .. } if name == sm.name(file) => {
                Some(Target::Line(i64::from(line)))
            }
            _ => None,
        };
        let mut near_miss = None;
        let mut found = false;
        for (i, e) in expected.iter().enumerate() {
            if Some(e.target) != wanted || !e.matches(&d.message) {
                continue;
            }
            if e.severity == d.severity {
                matched[i] = true;
                found = true;
                break;
            }
            near_miss = Some(e);
        }
        if found {
            continue;
        }
        if let Some(e) = near_miss {
            let msg = format!(
                "'{}' diagnostic emitted when expecting a '{}'",
                d.severity.word(),
                e.severity.word()
            );
            out.push(render_at(sm, file, e.offset, 0, &msg));
            continue;
        }
        let msg = format!("unexpected {}: {}", d.severity.word(), d.message);
        out.push(match resolved {
            Resolved::Offset { file, offset } => render_at(sm, file, offset, 0, &msg),
            Resolved::Plain { name, line, col } => {
                format!("{}:{line}:{col}: error: {msg}\n", display_name(name))
            }
            Resolved::Unknown => match d.at {
                Where::Loc(l)
                    if !matches!(uniq.attr_kind(l), AttrKind::Location(LocKind::Unknown)) =>
                {
                    render_unknown(&format!("{}: {msg}", aic::printer::location_text(uniq, l)))
                }
                _ => render_unknown(&msg),
            },
        });
    }
    // Annotations of the file first, then those for unknown locations.
    let not_produced = |e: &Expectation| {
        format!(
            "expected {} \"{}\" was not produced",
            e.severity.word(),
            e.text
        )
    };
    for (e, _) in expected
        .iter()
        .zip(&matched)
        .filter(|(e, m)| !**m && e.target != Target::Unknown)
    {
        report.not_produced.push(render_at(
            sm,
            file,
            e.offset,
            e.text.len(),
            &not_produced(e),
        ));
    }
    for (e, _) in expected
        .iter()
        .zip(&matched)
        .filter(|(e, m)| !**m && e.target == Target::Unknown)
    {
        report
            .not_produced_unknown
            .push(render_unknown(&not_produced(e)));
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;

    fn targets(text: &str) -> Vec<(Severity, Target, String)> {
        let (e, errs) = parse_annotations(text);
        assert!(errs.is_empty(), "{errs:?}");
        e.into_iter()
            .map(|e| (e.severity, e.target, e.text))
            .collect()
    }

    #[test]
    fn annotation_forms() {
        let text = "a\n\
                    b // expected-error {{same line}}\n\
                    // expected-warning@+2 {{plus}}\n\
                    // expected-remark @-1 {{minus}}\n\
                    // expected-note@above {{above}}\n\
                    // expected-error@below {{below}}\n\
                    c\n\
                    // expected-error@unknown {{unknown}}\n\
                    // expected-error@+010 {{octal}}\n\
                    // expected-error@below {{dangling}}";
        use Severity::*;
        let t = |l| Target::Line(l);
        assert_eq!(
            targets(text),
            vec![
                (Error, t(2), "same line".into()),
                (Warning, t(5), "plus".into()),
                (Remark, t(3), "minus".into()),
                (Note, t(1), "above".into()),
                (Error, t(7), "below".into()),
                (Error, Target::Unknown, "unknown".into()),
                (Error, t(17), "octal".into()),
                (Error, t(10), "dangling".into()),
            ]
        );
    }

    #[test]
    fn malformed_lines_are_no_annotations() {
        for line in [
            "// expected-error@+x {{m}}",
            "// expected-error@ {{m}}",
            "// expected-error {{m}} trailing",
            "// expected-fatal {{m}}",
            "// expected-error {{}",
            "// expected-error m",
        ] {
            assert!(targets(line).is_empty(), "{line}");
        }
        // The first well-formed occurrence counts, even inside another word.
        assert_eq!(
            targets("unexpected-error {{a}} {{b}}  "),
            vec![(Severity::Error, Target::Line(1), "a}} {{b".into())]
        );
        // A malformed annotation is a plain line for @above.
        assert_eq!(
            targets("x\n// expected-error@+x {{m}}\n// expected-error@above {{n}}")[0].1,
            Target::Line(2)
        );
    }

    #[test]
    fn regex_annotations() {
        let (e, errs) = parse_annotations("// expected-error-re {{a.b {{[0-9]+}}$}}");
        assert!(errs.is_empty());
        assert!(e[0].matches("xa.b 42$y"));
        assert!(!e[0].matches("axb 42$"));
        assert!(!e[0].matches("a.b x$"));
        let (e, errs) = parse_annotations(
            "x\n  // expected-error-re {{a {{b}}\n// expected-error-re {{{{[}}}}",
        );
        assert!(e.is_empty());
        assert_eq!(
            errs.iter().map(|e| (e.offset, e.len)).collect::<Vec<_>>(),
            vec![(7, 5), (38, 5)]
        );
        assert_eq!(errs[0].message, "found start of regex with no end '}}'");
        assert!(errs[1].message.starts_with("invalid regex: "));
    }

    fn setup(text: &str) -> (SourceMap, Uniquer, usize) {
        let mut sm = SourceMap::new();
        let f = sm.add("t.mlir", text.to_string());
        (sm, Uniquer::default(), f)
    }

    fn at(sm: &SourceMap, f: usize, needle: &str) -> Where {
        let start = sm.text(f).find(needle).unwrap();
        Where::Span {
            file: f,
            start,
            end: start + needle.len(),
        }
    }

    #[test]
    fn all_matched() {
        let text = "%x = foo // expected-error {{bad foo}}\n\
                    // expected-note@unknown {{see}}\n\
                    // expected-note@-2 {{here}}\n";
        let (sm, u, f) = setup(text);
        let d = Diagnostic::new(Severity::Error, "a bad foo", at(&sm, f, "foo"))
            .with_note("see this", Where::Nowhere)
            .with_note("here it is", at(&sm, f, "%x"));
        assert_eq!(check(&sm, &u, f, &[d]), Vec::<String>::new());
    }

    #[test]
    fn unexpected_and_not_produced() {
        let text =
            "%x = foo\n  // expected-warning@-1 {{bad foo}}\n// expected-remark@unknown {{r}}\n";
        let (sm, u, f) = setup(text);
        let d = Diagnostic::new(Severity::Error, "other", at(&sm, f, "foo"))
            .with_note("a note", Where::Nowhere);
        assert_eq!(
            check(&sm, &u, f, &[d]),
            vec![
                "t.mlir:1:6: error: unexpected error: other\n%x = foo\n     ^\n".to_string(),
                "<unknown>:0: error: unexpected note: a note\n".to_string(),
                "t.mlir:2:6: error: expected warning \"bad foo\" was not produced\n  \
                 // expected-warning@-1 {{bad foo}}\n     ^~~~~~~\n"
                    .to_string(),
                "<unknown>:0: error: expected remark \"r\" was not produced\n".to_string(),
            ]
        );
    }

    #[test]
    fn near_miss_reports_the_annotation() {
        let text = "foo // expected-warning {{bad}}\n";
        let (sm, u, f) = setup(text);
        let d = Diagnostic::new(Severity::Error, "bad", at(&sm, f, "foo"));
        let out = check(&sm, &u, f, &[d]);
        assert_eq!(out.len(), 2);
        assert!(out[0].starts_with(
            "t.mlir:1:8: error: 'error' diagnostic emitted when expecting a 'warning'\n"
        ));
        assert!(out[1].contains("expected warning \"bad\" was not produced"));
    }

    #[test]
    fn one_diagnostic_satisfies_one_annotation() {
        let text = "foo // expected-error {{bad}}\n// expected-error@-1 {{bad}}\n";
        let (sm, u, f) = setup(text);
        let d = Diagnostic::new(Severity::Error, "bad", at(&sm, f, "foo"));
        let out = check(&sm, &u, f, &[d.clone(), d.clone()]);
        assert_eq!(out.len(), 1);
        assert!(out[0].starts_with("t.mlir:2:4: error: expected error \"bad\""));
    }

    #[test]
    fn location_attributes() {
        let text = "a\nfoo // expected-error {{bad}}\n";
        let (sm, u, f) = setup(text);
        let file = u.ident("t.mlir");
        let loc = |line, col| {
            u.attr(AttrKind::Location(LocKind::FileLineCol {
                file,
                line,
                col,
                end: None,
            }))
        };
        let name = u.ident("n");
        let named = u.attr(AttrKind::Location(LocKind::Name {
            name,
            child: Some(loc(2, 1)),
        }));
        let ok = Diagnostic::new(Severity::Error, "bad", Where::Loc(named));
        assert!(check(&sm, &u, f, &[ok]).is_empty());
        let far = Diagnostic::new(Severity::Error, "bad", Where::Loc(loc(9, 3)));
        let out = check(&sm, &u, f, &[far]);
        assert_eq!(out[0], "t.mlir:9:3: error: unexpected error: bad\n");
        let unknown = Diagnostic::new(Severity::Error, "bad", Where::Loc(u.unknown_loc()));
        let out = check(&sm, &u, f, &[unknown]);
        assert_eq!(out[0], "<unknown>:0: error: unexpected error: bad\n");
    }

    #[test]
    fn render_expands_tabs() {
        let (sm, _, f) = setup("\tab\tcd\n");
        assert_eq!(
            render_at(&sm, f, 4, 2, "m"),
            "t.mlir:1:5: error: m\n        ab      cd\n                ^~\n"
        );
    }
}
