//! The text of a descriptor, as `#coord.desc<...>` holds it: printing and
//! reading.

use super::{Desc, Step, Transform};
use std::fmt;

fn list(v: &[impl fmt::Display]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for Desc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", list(&self.upper))?;
        for stage in &self.stages {
            f.write_str(" |")?;
            for (i, s) in stage.iter().enumerate() {
                f.write_str(if i == 0 { " " } else { ", " })?;
                f.write_str(s.t.name())?;
                let params: Vec<String> = match &s.t {
                    Transform::Pad { lo, hi } => vec![lo.to_string(), hi.to_string()],
                    Transform::Slice { begin, len } => vec![begin.to_string(), len.to_string()],
                    Transform::Embed {
                        len,
                        strides,
                        offset,
                    } => {
                        let mut p: Vec<String> = strides.iter().map(|x| x.to_string()).collect();
                        match p.first_mut() {
                            Some(first) => *first = format!("{len}: {first}"),
                            None => p.push(format!("{len}:")),
                        }
                        if *offset != 0 {
                            p.push(format!("+{offset}"));
                        }
                        p
                    }
                    Transform::Merge { lens } => lens.iter().map(|x| x.to_string()).collect(),
                    Transform::Vectorize { width } => vec![width.to_string()],
                    Transform::Freeze { value, len } => vec![value.to_string(), len.to_string()],
                    _ => Vec::new(),
                };
                if !params.is_empty() {
                    write!(f, "<{}>", params.join(", "))?;
                }
                write!(f, " [{}] -> [{}]", list(&s.upper), list(&s.lower))?;
            }
        }
        Ok(())
    }
}

/// A small reader over descriptor text.
struct Reader<'a> {
    s: &'a str,
    at: usize,
}

impl Reader<'_> {
    fn ws(&mut self) {
        while self.s[self.at..].starts_with(char::is_whitespace) {
            self.at += self.s[self.at..].chars().next().map_or(1, char::len_utf8);
        }
    }
    fn eat(&mut self, t: &str) -> bool {
        self.ws();
        if self.s[self.at..].starts_with(t) {
            self.at += t.len();
            true
        } else {
            false
        }
    }
    fn expect(&mut self, t: &str) -> Result<(), String> {
        if self.eat(t) {
            Ok(())
        } else {
            Err(format!("expected '{t}' at column {}", self.at + 1))
        }
    }
    fn word(&mut self) -> &str {
        self.ws();
        let start = self.at;
        while self.s[self.at..].starts_with(|c: char| c.is_ascii_alphabetic()) {
            self.at += 1;
        }
        &self.s[start..self.at]
    }
    fn int(&mut self) -> Result<i64, String> {
        self.ws();
        let start = self.at;
        if self.s[self.at..].starts_with(['-', '+']) {
            self.at += 1;
        }
        while self.s[self.at..].starts_with(|c: char| c.is_ascii_digit()) {
            self.at += 1;
        }
        self.s[start..self.at]
            .parse()
            .map_err(|_| format!("expected an integer at column {}", start + 1))
    }
    fn ints(&mut self, open: &str, close: &str) -> Result<Vec<i64>, String> {
        self.expect(open)?;
        let mut out = Vec::new();
        if self.eat(close) {
            return Ok(out);
        }
        loop {
            out.push(self.int()?);
            if self.eat(close) {
                return Ok(out);
            }
            self.expect(",")?;
        }
    }
    fn dims(&mut self) -> Result<Vec<usize>, String> {
        self.ints("[", "]")?
            .into_iter()
            .map(|d| usize::try_from(d).map_err(|_| format!("dim {d} is negative")))
            .collect()
    }
}

impl std::str::FromStr for Desc {
    type Err = String;

    /// Read a descriptor's text (see the module docs); the lengths are not
    /// checked here (see [`Desc::lens`]).
    fn from_str(s: &str) -> Result<Desc, String> {
        let mut r = Reader { s, at: 0 };
        let upper = r.ints("[", "]")?;
        let mut stages = Vec::new();
        while r.eat("|") {
            let mut stage = Vec::new();
            loop {
                let name = r.word().to_string();
                // `embed<len: strides.., +offset>` has its lower length first.
                let mut embed_len = None;
                let params = if r.s[r.at..].trim_start().starts_with('<') {
                    if name == "embed" {
                        r.expect("<")?;
                        embed_len = Some(r.int()?);
                        r.expect(":")?;
                        let mut v = Vec::new();
                        if !r.eat(">") {
                            v.push(r.int()?);
                            while r.eat(",") {
                                v.push(r.int()?);
                            }
                            r.expect(">")?;
                        }
                        v
                    } else {
                        r.ints("<", ">")?
                    }
                } else {
                    Vec::new()
                };
                let upper_dims = r.dims()?;
                r.expect("->")?;
                let lower_dims = r.dims()?;
                let n = params.len();
                let need = |k: usize| -> Result<(), String> {
                    if n == k {
                        Ok(())
                    } else {
                        Err(format!("{name} takes {k} parameters, not {n}"))
                    }
                };
                let t = match name.as_str() {
                    "pass" => need(0).map(|_| Transform::Pass)?,
                    "pad" => need(2).map(|_| Transform::Pad {
                        lo: params[0],
                        hi: params[1],
                    })?,
                    "slice" => need(2).map(|_| Transform::Slice {
                        begin: params[0],
                        len: params[1],
                    })?,
                    "embed" => {
                        let len = embed_len.ok_or("embed takes <len: strides>")?;
                        // A trailing parameter written `+k` is the offset.
                        let text = &r.s[..r.at];
                        let has_offset = text.rfind('<').is_some_and(|i| text[i..].contains('+'));
                        let (strides, offset) = if has_offset && n > 1 {
                            (params[..n - 1].to_vec(), params[n - 1])
                        } else {
                            (params.clone(), 0)
                        };
                        Transform::Embed {
                            len,
                            strides,
                            offset,
                        }
                    }
                    "merge" => Transform::Merge { lens: params },
                    "unmerge" => need(0).map(|_| Transform::Unmerge)?,
                    "vectorize" => need(1).map(|_| Transform::Vectorize { width: params[0] })?,
                    "freeze" => need(2).map(|_| Transform::Freeze {
                        value: params[0],
                        len: params[1],
                    })?,
                    "broadcast" => need(0).map(|_| Transform::Broadcast)?,
                    "" => return Err(format!("expected a transform at column {}", r.at + 1)),
                    other => {
                        return Err(format!(
                            "unknown transform '{other}' (pass, pad, slice, embed, merge, unmerge, vectorize, freeze, broadcast)"
                        ));
                    }
                };
                stage.push(Step {
                    t,
                    upper: upper_dims,
                    lower: lower_dims,
                });
                if !r.eat(",") {
                    break;
                }
            }
            stages.push(stage);
        }
        r.ws();
        if r.at != s.len() {
            return Err(format!(
                "unexpected '{}' at column {}",
                &s[r.at..],
                r.at + 1
            ));
        }
        Ok(Desc { upper, stages })
    }
}
