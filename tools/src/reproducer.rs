//! MLIR's pass pipeline reproducers: the IR a failing pass saw, followed by the
//! pipeline that reproduces the failure in a file metadata trailer (which the
//! parser skips):
//!
//! ```text
//! {-#
//!   external_resources: {
//!     mlir_reproducer: {
//!       pipeline: "builtin.module(func.func(canonicalize{max-iterations=4}))",
//!       disable_threading: true,
//!       verify_each: true
//!     }
//!   }
//! #-}
//! ```
//!
//! `aic-opt --run-reproducer FILE` (as `mlir-opt --run-reproducer`) reads the
//! pipeline back and runs it.

/// How a reproducer runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// The textual pipeline.
    pub pipeline: String,
    /// Run nested pipelines on one thread.
    pub disable_threading: bool,
    /// Verify the IR after every pass.
    pub verify_each: bool,
}

/// The trailer that follows the IR in a reproducer.
pub fn trailer(c: &Config) -> String {
    let quoted = c.pipeline.replace('\\', "\\\\").replace('"', "\\\"");
    format!(
        "{{-#\n  external_resources: {{\n    mlir_reproducer: {{\n      pipeline: \"{quoted}\",\n      disable_threading: {},\n      verify_each: {}\n    }}\n  }}\n#-}}\n",
        c.disable_threading, c.verify_each
    )
}

/// The configuration in the reproducer trailer of `text`.
pub fn parse(text: &str) -> Result<Config, String> {
    let meta = text
        .rfind("{-#")
        .map(|i| &text[i..])
        .ok_or("no '{-# ... #-}' file metadata with a reproducer")?;
    let meta = &meta[..meta.find("#-}").ok_or("unterminated file metadata '{-#'")?];
    let body = meta
        .find("mlir_reproducer")
        .map(|i| &meta[i..])
        .ok_or("the file metadata holds no 'mlir_reproducer' resource")?;
    // `key: value`, the value up to ',' or '}' (a string: up to its closing quote).
    let value = |key: &str| -> Option<String> {
        let at = body.find(&format!("{key}:"))? + key.len() + 1;
        let rest = body[at..].trim_start();
        if let Some(s) = rest.strip_prefix('"') {
            let mut out = String::new();
            let mut chars = s.chars();
            while let Some(c) = chars.next() {
                match c {
                    '"' => return Some(out),
                    '\\' => out.push(chars.next()?),
                    c => out.push(c),
                }
            }
            None
        } else {
            let end = rest.find([',', '}', '\n']).unwrap_or(rest.len());
            Some(rest[..end].trim().to_string())
        }
    };
    let flag = |key: &str| -> Result<bool, String> {
        match value(key).as_deref() {
            None | Some("false") => Ok(false),
            Some("true") => Ok(true),
            Some(v) => Err(format!(
                "mlir_reproducer: '{key}' must be true or false, not '{v}'"
            )),
        }
    };
    Ok(Config {
        pipeline: value("pipeline").ok_or("mlir_reproducer: no 'pipeline' string")?,
        disable_threading: flag("disable_threading")?,
        verify_each: flag("verify_each")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailers_round_trip() {
        let c = Config {
            pipeline: "builtin.module(p{s=\"a \\\\ b\"})".into(),
            disable_threading: true,
            verify_each: false,
        };
        let text = format!("module {{\n}}\n{}", trailer(&c));
        assert_eq!(parse(&text).unwrap(), c);
        assert!(parse("module {}").is_err());
    }
}
