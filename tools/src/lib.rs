//! Shared pieces of aic's command-line tools.

pub mod bench;
pub mod compile;
pub mod nki_python;
pub mod npy;
pub mod output;
pub mod plan;
pub mod reproducer;
#[cfg(feature = "llvm")]
pub mod translate;
pub mod tune;
pub mod verify_diagnostics;

/// Command-line arguments read one at a time, as the tools take them:
/// `--flag=value`, `--flag value`, or a plain argument.
pub struct Args<I> {
    it: I,
}

impl<I: Iterator<Item = String>> Args<I> {
    /// Reads `it` (the arguments after the program's name).
    pub fn new(it: I) -> Self {
        Args { it }
    }

    /// The next argument: a flag with the value written after its `=`, or a
    /// plain argument (with `None`).
    pub fn next_arg(&mut self) -> Option<(String, Option<String>)> {
        let a = self.it.next()?;
        Some(match a.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (a, None),
        })
    }

    /// The value of flag `name`: the one written after `=`, or the next
    /// argument.
    pub fn value(&mut self, name: &str, inline: Option<String>) -> Result<String, String> {
        inline
            .or_else(|| self.it.next())
            .ok_or_else(|| format!("missing value for {name}"))
    }
}

/// The integer value `v` of flag `name`, which must lie in `lo..=hi`.
pub fn int_flag(name: &str, v: &str, lo: i64, hi: i64) -> Result<i64, String> {
    v.parse::<i64>()
        .ok()
        .filter(|n| (lo..=hi).contains(n))
        .ok_or_else(|| format!("{name}: expected {lo} to {hi}, got '{v}'"))
}

/// The value `v` of the tool flag `--<option>`, which feeds the option of that
/// name of pass `info` (`--threads` feeds tile-to-gpu's `threads`): an integer
/// in the option's range.
pub fn pass_option_flag(info: &aic::pass::PassInfo, option: &str, v: &str) -> Result<i64, String> {
    let spec = info
        .options
        .iter()
        .find(|s| s.name == option)
        .unwrap_or_else(|| panic!("'{}' has no option '{option}'", info.flag));
    let (lo, hi) = spec.range.unwrap_or((i64::MIN, i64::MAX));
    int_flag(&format!("--{option}"), v, lo, hi)
}

/// The options of `--threads` and `--warp`, as the tools take them.
pub const THREADS_HELP: &str = "  --threads=<n>             Threads a block (default: the target's; on the host, threads run as OS threads)
  --warp=<n>                Threads of a warp, across which reductions shuffle (default: the target's; 0: none)
";

/// The bytes of the file at `path`, or of standard input for `-`; an error
/// names the file (`<stdin>` for standard input).
pub fn read_bytes(path: &str) -> Result<Vec<u8>, String> {
    if path == "-" {
        let mut b = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut b)
            .map(|_| b)
            .map_err(|e| format!("<stdin>: {e}"))
    } else {
        std::fs::read(path).map_err(|e| format!("{path}: {e}"))
    }
}

/// The text of the file at `path` (see [`read_bytes`]), which must be UTF-8.
pub fn read_text(path: &str) -> Result<String, String> {
    String::from_utf8(read_bytes(path)?).map_err(|_| format!("{path}: not UTF-8 text"))
}

/// Split a file at `// -----` markers, as mlir-opt 22's `--split-input-file` does: the
/// marker splits wherever it stands, even mid-line, and the rest of its line starts the
/// next chunk. Each chunk comes with the number of lines before it and its starting
/// column (0-based); it is indented with spaces to that column, so that diagnostics keep
/// the original line and column numbers once the caller pads it with that many newlines.
pub fn split_input(text: &str) -> Vec<(usize, usize, String)> {
    const MARKER: &str = "// -----";
    let mut chunks = Vec::new();
    let mut start = 0;
    let mut prefix = (0, 0);
    let mut line = 0;
    let mut line_start = 0;
    for (m, _) in text.match_indices(MARKER) {
        let piece = &text[start..m];
        let (lines, col) = prefix;
        chunks.push((lines, col, format!("{}{piece}", " ".repeat(col))));
        for (i, _) in text[start..m].match_indices('\n') {
            line += 1;
            line_start = start + i + 1;
        }
        start = m + MARKER.len();
        prefix = (line, start - line_start);
    }
    let (lines, col) = prefix;
    chunks.push((lines, col, format!("{}{}", " ".repeat(col), &text[start..])));
    chunks
}

#[cfg(test)]
mod tests {
    #[test]
    fn split_keeps_line_offsets() {
        let chunks = super::split_input("a\n// -----\nb\nc\n// -----\n");
        let pad = " ".repeat(8);
        assert_eq!(
            chunks,
            vec![
                (0, 0, "a\n".into()),
                (1, 8, format!("{pad}\nb\nc\n")),
                (4, 8, format!("{pad}\n")),
            ]
        );
    }

    #[test]
    fn split_mid_line_keeps_columns() {
        let chunks = super::split_input("x // ----- y\nz");
        assert_eq!(
            chunks,
            vec![
                (0, 0, "x ".into()),
                (0, 10, format!("{} y\nz", " ".repeat(10)))
            ]
        );
    }
}
