//! MLIR's textual pass pipelines:
//! `builtin.module(func.func(canonicalize{max-iterations=4 region-simplify=false},cse),symbol-dce)`.
//!
//! ```text
//! pipeline ::= anchor '(' elements? ')'
//! elements ::= element (',' element)*
//! element  ::= anchor '(' elements? ')' | pass-flag options?
//! options  ::= '{' (key ('=' value)?)* '}'   -- whitespace separated; values may be
//!                                             -- quoted or hold balanced {...}
//! ```

use super::{Element, OpPassManager, PassEntry, PassOptions, PassRegistry};

/// Why a pipeline was rejected, in MLIR's words, with the byte offset it refers to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PipelineError {
    /// The message.
    pub message: String,
    /// Byte offset into the pipeline text, when the error has a position.
    pub at: Option<usize>,
}

impl PipelineError {
    /// The message with a caret under the offending place, as MLIR renders it.
    pub fn render(&self, text: &str) -> String {
        match self.at {
            Some(at) => format!(
                "MLIR Textual PassPipeline Parser:1:{}: error: {}\n{text}\n{}^\n",
                at + 1,
                self.message,
                " ".repeat(at)
            ),
            None => self.message.clone(),
        }
    }
}

type R<T> = Result<T, PipelineError>;

fn err<T>(message: impl Into<String>, at: Option<usize>) -> R<T> {
    Err(PipelineError {
        message: message.into(),
        at,
    })
}

/// Parse a whole pipeline; it must be anchored (`builtin.module(...)`).
pub fn parse_pipeline(text: &str, reg: &PassRegistry) -> R<OpPassManager> {
    let mut p = P {
        s: text.as_bytes(),
        text,
        pos: 0,
        reg,
    };
    p.ws();
    let start = p.pos;
    let name = p.name();
    p.ws();
    if name.is_empty() || !p.eat(b'(') || !text.trim_end().ends_with(')') {
        return err(
            "expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'",
            None,
        );
    }
    let _ = start;
    // The managers being filled, outermost first: an explicit stack, so that
    // pipelines nested however deep parse in constant native stack.
    let mut stack = vec![OpPassManager::new(name)];
    // Right after a '(': the list may be empty.
    let mut list_start = true;
    loop {
        p.ws();
        if !list_start || p.s.get(p.pos) != Some(&b')') {
            let at = p.pos;
            let name = p.name();
            if p.eat(b'(') {
                stack.push(OpPassManager::new(name));
                list_start = true;
                continue;
            }
            p.pass(stack.last_mut().expect("a manager is open"), name, at)?;
        }
        // After an element (or an empty list): more, or the end of the manager.
        list_start = false;
        loop {
            if p.eat(b',') {
                break;
            }
            let done = stack.pop().expect("a manager is open");
            let Some(parent) = stack.last_mut() else {
                if !p.eat(b')') {
                    return err("expected ')' to end the pipeline", Some(p.pos));
                }
                p.ws();
                if p.pos != p.s.len() {
                    return err("unexpected text after the pipeline", Some(p.pos));
                }
                return Ok(done);
            };
            if !p.eat(b')') {
                return err(
                    format!("expected ')' to end the '{}' pipeline", done.anchor),
                    Some(p.pos),
                );
            }
            parent.elements.push(Element::Nested(done));
        }
    }
}

/// Add the pass `flag` with `options` (as written inside `{...}`) to `pm`, nesting
/// it implicitly when it is anchored on another op.
pub fn add_pass(pm: &mut OpPassManager, reg: &PassRegistry, flag: &str, options: &str) -> R<()> {
    let Some(info) = reg.get(flag) else {
        return err(
            format!("'{flag}' does not refer to a registered pass or pass pipeline"),
            None,
        );
    };
    let pairs = split_options(options).map_err(|m| PipelineError {
        message: m,
        at: None,
    })?;
    let opts = PassOptions::new(info.options, &pairs).map_err(|m| PipelineError {
        message: format!("{m}\nfailed to add `{flag}` with options `{options}`"),
        at: None,
    })?;
    pm.add_pass(PassEntry {
        pass: (info.create)(&opts),
        options_text: options.to_string(),
    });
    Ok(())
}

/// `a=1 b="x y" c={1,2} d` into pairs (a bare key gets an empty value).
pub fn split_options(text: &str) -> Result<Vec<(String, String)>, String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= b.len() {
            return Ok(out);
        }
        let k0 = i;
        while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'=' {
            i += 1;
        }
        let key = text[k0..i].to_string();
        let mut value = String::new();
        if i < b.len() && b[i] == b'=' {
            i += 1;
            let v0 = i;
            let mut depth = 0i32;
            let mut quote = None;
            while i < b.len() {
                match (quote, b[i]) {
                    (Some(q), c) if c == q => quote = None,
                    (Some(_), _) => {}
                    (None, b'"' | b'\'') => quote = Some(b[i]),
                    (None, b'{') => depth += 1,
                    (None, b'}') => depth -= 1,
                    (None, c) if c.is_ascii_whitespace() && depth == 0 => break,
                    _ => {}
                }
                i += 1;
            }
            if quote.is_some() || depth != 0 {
                return Err(format!(
                    "unbalanced quote or brace in option value of '{key}'"
                ));
            }
            let v = &text[v0..i];
            value = v
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .or_else(|| v.strip_prefix('{').and_then(|v| v.strip_suffix('}')))
                .unwrap_or(v)
                .to_string();
        }
        out.push((key, value));
    }
}

struct P<'a> {
    s: &'a [u8],
    text: &'a str,
    pos: usize,
    reg: &'a PassRegistry,
}

impl<'a> P<'a> {
    fn ws(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }
    fn eat(&mut self, c: u8) -> bool {
        self.ws();
        if self.s.get(self.pos) == Some(&c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn name(&mut self) -> &'a str {
        self.ws();
        let start = self.pos;
        while self.pos < self.s.len()
            && (self.s[self.pos].is_ascii_alphanumeric() || b"_-.$".contains(&self.s[self.pos]))
        {
            self.pos += 1;
        }
        &self.text[start..self.pos]
    }
    /// The pass `name` (written at `at`) with its options, added to `pm`.
    fn pass(&mut self, pm: &mut OpPassManager, name: &str, at: usize) -> R<()> {
        let mut options = "";
        if self.eat(b'{') {
            let o0 = self.pos;
            let mut depth = 1;
            while self.pos < self.s.len() {
                match self.s[self.pos] {
                    b'{' => depth += 1,
                    b'}' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                self.pos += 1;
            }
            if depth != 0 {
                return err(
                    "missing closing '}' while processing pass options",
                    Some(o0),
                );
            }
            options = &self.text[o0..self.pos];
            self.pos += 1;
        }
        if self.reg.get(name).is_none() {
            return err(
                format!("'{name}' does not refer to a registered pass or pass pipeline"),
                Some(at),
            );
        }
        // Inside an explicit pipeline a pass must fit the manager it is written in.
        let info = self.reg.get(name).expect("checked");
        if let Some(a) = info.anchor
            && !pm.accepts(a)
        {
            return err(
                format!(
                    "Can't add pass '{}' restricted to '{a}' on a PassManager intended to run on '{}', did you intend to nest?",
                    info.name, pm.anchor
                ),
                None,
            );
        }
        add_pass(pm, self.reg, name, options)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pass::{OptKind, OptSpec, Pass, PassInfo};

    struct Nop(&'static PassInfo, i64, bool);
    impl Pass for Nop {
        fn info(&self) -> &'static PassInfo {
            self.0
        }
        fn run(&self, _: &mut crate::Context, _: crate::Op) -> Result<bool, crate::Diagnostic> {
            Ok(self.1 > 0 && self.2)
        }
    }

    static OPTS: [OptSpec; 2] = [
        OptSpec {
            name: "max-iterations",
            kind: OptKind::Int,
            default: "10",
            range: None,
            help: "",
        },
        OptSpec {
            name: "region-simplify",
            kind: OptKind::Bool,
            default: "true",
            range: None,
            help: "",
        },
    ];
    static CANON: PassInfo = PassInfo {
        flag: "canon",
        name: "Canon",
        summary: "",
        anchor: None,
        options: &OPTS,
        create: |o| {
            Box::new(Nop(
                &CANON,
                o.int("max-iterations"),
                o.bool("region-simplify"),
            ))
        },
    };
    static FUNC_ONLY: PassInfo = PassInfo {
        flag: "func-only",
        name: "FuncOnly",
        summary: "",
        anchor: Some("func.func"),
        options: &[],
        create: |_| Box::new(Nop(&FUNC_ONLY, 0, false)),
    };

    fn reg() -> PassRegistry {
        let mut r = PassRegistry::new();
        r.register(&CANON);
        r.register(&FUNC_ONLY);
        r
    }

    #[test]
    fn pipelines_round_trip_through_their_text() {
        let r = reg();
        let text = "builtin.module(func.func(canon{max-iterations=4 region-simplify=false},func-only),canon)";
        let pm = parse_pipeline(text, &r).expect("parses");
        assert_eq!(pm.text(), text);
        let spaced = " builtin.module( func.func( canon ) , canon ) ";
        assert_eq!(
            parse_pipeline(spaced, &r).unwrap().text(),
            "builtin.module(func.func(canon),canon)"
        );
    }

    #[test]
    fn options_are_typed() {
        let pairs =
            split_options("max-iterations=4 region-simplify=false s=\"a b\" l={1,2}").unwrap();
        assert_eq!(pairs[2], ("s".into(), "a b".into()));
        assert_eq!(pairs[3], ("l".into(), "1,2".into()));
        let o = PassOptions::new(&OPTS, &pairs[..2]).unwrap();
        assert_eq!(o.int("max-iterations"), 4);
        assert!(!o.bool("region-simplify"));
        let bad = PassOptions::new(&OPTS, &[("max-iterations".into(), "abc".into())]);
        assert_eq!(
            bad.unwrap_err(),
            "for the --max-iterations option: 'abc' value invalid for long argument!"
        );
    }

    #[test]
    fn option_ranges_are_checked_when_parsed() {
        static RANGED: [OptSpec; 1] = [OptSpec {
            name: "threads",
            kind: OptKind::UInt,
            default: "128",
            range: Some((1, 1024)),
            help: "",
        }];
        let opt = |v: &str| PassOptions::new(&RANGED, &[("threads".into(), v.into())]);
        assert_eq!(opt("1024").unwrap().int("threads"), 1024);
        for v in ["0", "99999999", "4294967296", "18446744073709551615"] {
            assert_eq!(
                opt(v).unwrap_err(),
                format!(
                    "for the --threads option: '{v}' value is out of range: expected 1 to 1024"
                )
            );
        }
    }

    #[test]
    fn bad_pipelines_are_diagnosed() {
        let r = reg();
        let msg = |t: &str| parse_pipeline(t, &r).err().expect("rejected").message;
        assert!(msg("builtin.module(canon").contains("wrapped with the anchor"));
        assert!(msg("builtin.module(nope)").contains("'nope' does not refer to a registered pass"));
        assert!(msg("builtin.module(canon{x=1})").contains("no such option x"));
        assert!(msg("builtin.module(canon{max-iterations=1)").contains("missing closing '}'"));
        assert!(msg("builtin.module(func-only)").contains("did you intend to nest?"));
        let e = parse_pipeline("builtin.module(nope)", &r)
            .err()
            .expect("rejected");
        assert_eq!(
            e.render("builtin.module(nope)").lines().nth(2),
            Some("               ^")
        );
    }

    #[test]
    fn deeply_nested_pipelines_parse_print_and_drop() {
        let r = reg();
        for depth in [8_000, 100_000] {
            let text = format!(
                "{}canon{}",
                "builtin.module(".repeat(depth),
                ")".repeat(depth)
            );
            let pm = parse_pipeline(&text, &r).expect("parses");
            assert_eq!(pm.text(), text);
            let e = parse_pipeline(&text[..text.len() - 1], &r)
                .err()
                .expect("rejected");
            assert!(e.message.starts_with("expected ')' to end the"), "{e:?}");
        }
    }

    struct Panics;
    impl Pass for Panics {
        fn info(&self) -> &'static PassInfo {
            &PANICS
        }
        fn run(&self, _: &mut crate::Context, _: crate::Op) -> Result<bool, crate::Diagnostic> {
            panic!("test-only pass panics")
        }
    }
    static PANICS: PassInfo = PassInfo {
        flag: "panics",
        name: "Panics",
        summary: "",
        anchor: None,
        options: &[],
        create: |_| Box::new(Panics),
    };

    #[test]
    fn a_panicking_pass_fails_with_a_diagnostic_and_its_path() {
        use crate::pass::{Instrumentation, PassRunner};
        let mut r = reg();
        r.register(&PANICS);
        let text = "builtin.module(canon,builtin.module(canon,panics,canon),canon)";
        let pm = parse_pipeline(text, &r).unwrap();
        crate::syntax::with_parser_stack(|| {
            let mut ctx = crate::Context::new(std::sync::Arc::new(crate::DialectRegistry::new()));
            ctx.allow_unregistered = true;
            let mut sm = crate::SourceMap::new();
            let f = sm.add("p.mlir", "module {\n  module {\n  }\n}\n".into());
            let outer = crate::syntax::parse_module(&mut ctx, &sm, f).expect("parses");
            let inst = Instrumentation::default();
            let mut sink = std::io::sink();
            let mut runner = PassRunner::new(&inst, &mut sink);
            let e = runner.run(&pm, &mut ctx, outer).expect_err("fails");
            assert_eq!(e.message, "pass 'panics' panicked: test-only pass panics");
            assert_eq!(runner.failure_path(), [1, 1]);
            assert_eq!(
                pm.text_up_to(&runner.failure_path()),
                "builtin.module(builtin.module(canon,panics))"
            );
        });
    }

    #[test]
    fn pass_flags_nest_implicitly() {
        let r = reg();
        let mut pm = OpPassManager::new("builtin.module");
        add_pass(&mut pm, &r, "func-only", "").unwrap();
        add_pass(&mut pm, &r, "func-only", "").unwrap();
        add_pass(&mut pm, &r, "canon", "max-iterations=2").unwrap();
        assert_eq!(
            pm.text(),
            "builtin.module(func.func(func-only,func-only),canon{max-iterations=2})"
        );
    }
}
