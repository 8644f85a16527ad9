//! Shared pieces of aic's command-line tools.

pub mod verify_diagnostics;

/// Split a file at `// -----` lines, as `--split-input-file` does: returns each chunk
/// with the number of lines before it, so diagnostics keep the original line numbers.
pub fn split_input(text: &str) -> Vec<(usize, String)> {
    let mut chunks = Vec::new();
    let mut cur = String::new();
    let mut start_line = 0;
    for (i, line) in text.split_inclusive('\n').enumerate() {
        if line.trim_end() == "// -----" {
            chunks.push((start_line, std::mem::take(&mut cur)));
            start_line = i + 1;
        } else {
            cur.push_str(line);
        }
    }
    chunks.push((start_line, cur));
    chunks
}

#[cfg(test)]
mod tests {
    #[test]
    fn split_keeps_line_offsets() {
        let chunks = super::split_input("a\n// -----\nb\nc\n// -----\n");
        assert_eq!(
            chunks,
            vec![(0, "a\n".into()), (2, "b\nc\n".into()), (5, String::new())]
        );
    }
}
