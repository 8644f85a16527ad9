//! Output files that are never lost: every file a tool writes goes through
//! [`Output`].
//!
//! - `-` (and `/dev/stdout`) is standard output.
//! - A regular file (or a path that does not exist yet) is written to a temporary
//!   file beside it (same directory, unique name) that is renamed over it only when
//!   the writer [commits](Output::commit); a failed or panicking run removes the
//!   temporary file and leaves the target as it was. Through a symbolic link, the
//!   file the link resolves to is replaced and the link is kept.
//! - Anything else (a character or block device such as `/dev/null`, a FIFO, a
//!   terminal) is opened and written in place: it is never truncated, replaced or
//!   deleted.

use std::fs::{self, File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Where the bytes go.
enum Dest {
    Stdout(io::Stdout),
    File(File),
}

impl Write for Dest {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Dest::Stdout(s) => s.write(buf),
            Dest::File(f) => f.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Dest::Stdout(s) => s.flush(),
            Dest::File(f) => f.flush(),
        }
    }
}

/// A temporary file waiting to replace `target`.
struct Pending {
    tmp: PathBuf,
    target: PathBuf,
}

/// An output being written: stream into it (it is buffered), then
/// [`commit`](Output::commit). Dropped without a commit, a regular file's target
/// is left untouched.
pub struct Output {
    w: BufWriter<Dest>,
    pending: Option<Pending>,
}

/// The path `path` names once every symbolic link along it (the last component,
/// repeatedly) is followed; a dangling link resolves to the file it would create.
fn resolve(path: &Path) -> io::Result<PathBuf> {
    let mut p = path.to_path_buf();
    for _ in 0..40 {
        match fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let t = fs::read_link(&p)?;
                p = match p.parent() {
                    Some(dir) if t.is_relative() => dir.join(t),
                    _ => t,
                };
            }
            _ => return Ok(p),
        }
    }
    Err(io::Error::other("too many levels of symbolic links"))
}

/// Tells apart the temporary files of one process.
static NEXT: AtomicUsize = AtomicUsize::new(0);

/// A file in `dir` that did not exist before, named `name(pid, n)` for the first
/// `n` this process has not used that is free.
fn create_new_in(dir: &Path, name: impl Fn(u32, usize) -> String) -> io::Result<(File, PathBuf)> {
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(name(std::process::id(), n));
        match OpenOptions::new().write(true).create_new(true).open(&path) {
            Ok(f) => return Ok((f, path)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// A new, empty file beside `target`: `.<name>.aic-tmp-<pid>-<n>`.
fn temp_beside(target: &Path) -> io::Result<(File, PathBuf)> {
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = target
        .file_name()
        .ok_or_else(|| io::Error::other("not a file name"))?
        .to_string_lossy();
    create_new_in(dir, |pid, n| format!(".{name}.aic-tmp-{pid}-{n}"))
}

/// Writes `bytes` to a file of `dir` that did not exist before, named by
/// `name(pid, n)` (never replacing one), and returns its path; an error names
/// the directory or the file.
pub fn write_new_file(
    dir: &Path,
    name: impl Fn(u32, usize) -> String,
    bytes: &[u8],
) -> Result<String, String> {
    let (mut f, path) = create_new_in(dir, name).map_err(|e| format!("{}: {e}", dir.display()))?;
    let shown = path.display().to_string();
    if let Err(e) = f.write_all(bytes).and_then(|()| f.sync_all()) {
        drop(f);
        let _ = fs::remove_file(&path);
        return Err(format!("{shown}: {e}"));
    }
    Ok(shown)
}

impl Output {
    /// Starts writing `path` (`-` for standard output). Nothing at `path` changes
    /// before [`commit`](Output::commit).
    pub fn create(path: &str) -> io::Result<Output> {
        let buffered = |d| BufWriter::with_capacity(1 << 16, d);
        if path == "-" || path == "/dev/stdout" {
            return Ok(Output {
                w: buffered(Dest::Stdout(io::stdout())),
                pending: None,
            });
        }
        let path = Path::new(path);
        let target = resolve(path)?;
        match fs::metadata(path) {
            Ok(m) if m.is_dir() => return Err(io::Error::other("is a directory")),
            // Devices, FIFOs, and files reached through /proc (as /dev/fd/N is):
            // written where they are, never replaced.
            Ok(m) if !m.is_file() || target.starts_with("/proc") => {
                let f = OpenOptions::new().write(true).open(path)?;
                return Ok(Output {
                    w: buffered(Dest::File(f)),
                    pending: None,
                });
            }
            _ => {}
        }
        let (f, tmp) = temp_beside(&target)?;
        let pending = Pending { tmp, target };
        // The replacement keeps the permissions of the file it replaces.
        if let Ok(m) = fs::metadata(&pending.target) {
            fs::set_permissions(&pending.tmp, m.permissions()).inspect_err(|_| {
                let _ = fs::remove_file(&pending.tmp);
            })?;
        }
        Ok(Output {
            w: buffered(Dest::File(f)),
            pending: Some(pending),
        })
    }

    /// Finishes the output: flushes it and, for a regular file, renames the
    /// temporary file over the target.
    pub fn commit(mut self) -> io::Result<()> {
        self.w.flush()?;
        if let Some(p) = &self.pending {
            if let Dest::File(f) = self.w.get_ref() {
                f.sync_all()?;
            }
            fs::rename(&p.tmp, &p.target)?;
            self.pending = None;
        }
        Ok(())
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.w.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.w.write_all(buf)
    }
    fn flush(&mut self) -> io::Result<()> {
        self.w.flush()
    }
}

impl Drop for Output {
    /// An output that was not committed leaves no temporary file behind.
    fn drop(&mut self) {
        if let Some(p) = self.pending.take() {
            let _ = fs::remove_file(&p.tmp);
        }
    }
}

/// Writes `bytes` to `path` (see [`Output`]); an error names the path.
pub fn write_file(path: &str, bytes: &[u8]) -> Result<(), String> {
    write_files(&[(path, bytes)])
}

/// Writes every `(path, bytes)`, all or none as far as the file system allows:
/// every file is written to its temporary file first, and only when all succeeded
/// are they renamed over their targets. An error names the path.
pub fn write_files(files: &[(&str, &[u8])]) -> Result<(), String> {
    let mut outs = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        let mut o = Output::create(path).map_err(|e| format!("{path}: {e}"))?;
        o.write_all(bytes)
            .and_then(|()| o.flush())
            .map_err(|e| format!("{path}: {e}"))?;
        outs.push((path, o));
    }
    for (path, o) in outs {
        o.commit().map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::FileTypeExt;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("aic-output-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&d);
        fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn uncommitted_output_leaves_the_file_and_no_temporary() {
        let d = dir("uncommitted");
        let f = d.join("out.txt");
        fs::write(&f, "old").unwrap();
        let mut o = Output::create(f.to_str().unwrap()).unwrap();
        o.write_all(b"new").unwrap();
        drop(o);
        assert_eq!(fs::read_to_string(&f).unwrap(), "old");
        assert_eq!(fs::read_dir(&d).unwrap().count(), 1);
        let mut o = Output::create(f.to_str().unwrap()).unwrap();
        o.write_all(b"new").unwrap();
        o.commit().unwrap();
        assert_eq!(fs::read_to_string(&f).unwrap(), "new");
        assert_eq!(fs::read_dir(&d).unwrap().count(), 1);
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn a_dangling_link_gets_its_file_created() {
        let d = dir("dangling");
        std::os::unix::fs::symlink("target.txt", d.join("link")).unwrap();
        write_file(d.join("link").to_str().unwrap(), b"x").unwrap();
        assert!(fs::symlink_metadata(d.join("link")).unwrap().is_symlink());
        assert_eq!(fs::read_to_string(d.join("target.txt")).unwrap(), "x");
        fs::remove_dir_all(&d).unwrap();
    }

    #[test]
    fn devices_are_written_in_place() {
        write_file("/dev/null", b"x").unwrap();
        assert!(
            fs::metadata("/dev/null")
                .unwrap()
                .file_type()
                .is_char_device()
        );
    }
}
