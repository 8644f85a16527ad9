//! NCCL, the collective library every multi-GPU framework runs on, loaded at
//! run time like the CUDA driver: nothing links it, so a bundle runs where
//! NCCL is (PyTorch's wheel ships it as `nvidia/nccl/lib/libnccl.so.2`) and
//! builds where it is not. [`Nccl::load`] tries `$AIC_NCCL_LIBRARY`, then
//! `libnccl.so.2` on the loader's path, then the `nvidia/nccl/lib` folder of
//! every `site-packages` it finds under the usual Python prefixes; a missing
//! library is an error that says where it looked.
//!
//! One process drives every device (`ncclCommInitAll`): each collective step
//! of a partitioned plan is one `ncclGroupStart`/`ncclGroupEnd` with one call
//! per device, on that device's stream ([`crate::multi`]).

use std::ffi::{CStr, c_char, c_int, c_void};
use std::fmt;
use std::path::PathBuf;

use crate::collective::Reduction;

type NcclResult = c_int;
/// `ncclComm_t`.
pub(crate) type Comm = *mut c_void;
type Stream = *mut c_void;

type FnGetVersion = unsafe extern "C" fn(*mut c_int) -> NcclResult;
type FnCommInitAll = unsafe extern "C" fn(*mut Comm, c_int, *const c_int) -> NcclResult;
type FnCommDestroy = unsafe extern "C" fn(Comm) -> NcclResult;
type FnGetErrorString = unsafe extern "C" fn(NcclResult) -> *const c_char;
type FnGroup = unsafe extern "C" fn() -> NcclResult;
type FnAllReduce = unsafe extern "C" fn(
    *const c_void,
    *mut c_void,
    usize,
    c_int,
    c_int,
    Comm,
    Stream,
) -> NcclResult;
type FnAllGather =
    unsafe extern "C" fn(*const c_void, *mut c_void, usize, c_int, Comm, Stream) -> NcclResult;
type FnReduceScatter = FnAllReduce;
type FnSend = unsafe extern "C" fn(*const c_void, usize, c_int, c_int, Comm, Stream) -> NcclResult;
type FnRecv = unsafe extern "C" fn(*mut c_void, usize, c_int, c_int, Comm, Stream) -> NcclResult;

/// Why NCCL could not be used.
#[derive(Debug, Clone, PartialEq)]
pub enum NcclError {
    /// No NCCL library could be opened.
    NotFound {
        /// Every place tried, with what the loader said of the first.
        tried: Vec<String>,
        /// The loader's message for the first.
        message: String,
    },
    /// The library lacks an entry point (an NCCL too old).
    MissingSymbol(String),
    /// An NCCL call failed.
    Call {
        /// The call, e.g. `ncclAllReduce`.
        call: &'static str,
        /// NCCL's description of the result.
        message: String,
    },
    /// What was asked does not fit (an element type NCCL lacks, a layout
    /// not supported yet).
    Invalid(String),
}

impl fmt::Display for NcclError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NcclError::NotFound { tried, message } => write!(
                f,
                "NCCL not found: could not open {} ({message}); install NCCL (PyTorch's pip wheel ships it) or set AIC_NCCL_LIBRARY to its libnccl.so.2",
                tried.join(", ")
            ),
            NcclError::MissingSymbol(s) => {
                write!(f, "the NCCL library lacks {s}; NCCL 2.7 or newer is needed")
            }
            NcclError::Call { call, message } => write!(f, "{call} failed: {message}"),
            NcclError::Invalid(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for NcclError {}

/// The places [`Nccl::load`] tries, in order.
pub fn candidates() -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(p) = std::env::var_os("AIC_NCCL_LIBRARY") {
        out.push(PathBuf::from(p));
        return out;
    }
    out.push(PathBuf::from("libnccl.so.2"));
    out.push(PathBuf::from("libnccl.so"));
    let mut prefixes: Vec<PathBuf> = Vec::new();
    for var in ["VIRTUAL_ENV", "CONDA_PREFIX"] {
        if let Some(p) = std::env::var_os(var) {
            prefixes.push(PathBuf::from(p));
        }
    }
    if let Some(home) = std::env::var_os("HOME") {
        prefixes.push(PathBuf::from(&home).join(".local"));
        prefixes.push(PathBuf::from(&home).join(".cache/aic/python-venv"));
    }
    prefixes.extend(["/usr", "/usr/local", "/opt/conda"].map(PathBuf::from));
    for prefix in prefixes {
        for lib in ["lib", "lib64"] {
            let Ok(entries) = std::fs::read_dir(prefix.join(lib)) else {
                continue;
            };
            for e in entries.flatten() {
                let name = e.file_name();
                if !name.to_string_lossy().starts_with("python3") {
                    continue;
                }
                for sp in ["site-packages", "dist-packages"] {
                    let p = e.path().join(sp).join("nvidia/nccl/lib/libnccl.so.2");
                    if p.exists() {
                        out.push(p);
                    }
                }
            }
        }
    }
    out
}

/// NCCL's element type for an element name of a plan (`f32`, `bf16`, ...).
fn dtype(elem: &str) -> Result<c_int, NcclError> {
    Ok(match elem {
        "i8" => 0,
        "i32" => 2,
        "i64" => 4,
        "f16" => 6,
        "f32" => 7,
        "f64" => 8,
        "bf16" => 9,
        _ => {
            return Err(NcclError::Invalid(format!(
                "NCCL has no collectives on {elem} elements"
            )));
        }
    })
}

fn red_op(r: Reduction) -> c_int {
    match r {
        Reduction::Sum => 0,
        Reduction::Max => 2,
        Reduction::Min => 3,
    }
}

struct Api {
    get_error_string: FnGetErrorString,
    comm_init_all: FnCommInitAll,
    comm_destroy: FnCommDestroy,
    group_start: FnGroup,
    group_end: FnGroup,
    all_reduce: FnAllReduce,
    all_gather: FnAllGather,
    reduce_scatter: FnReduceScatter,
    send: FnSend,
    recv: FnRecv,
}

/// The NCCL library, loaded at run time.
pub struct Nccl {
    api: Api,
    /// NCCL's version code (e.g. 22105 for 2.21.5).
    pub version: i32,
    /// Where it was loaded from.
    pub path: String,
    /// Closed after every use of `api`.
    _library: libloading::Library,
}

fn symbol<T: Copy>(lib: &libloading::Library, name: &str) -> Result<T, NcclError> {
    // SAFETY: `T` is the C signature nccl.h declares for `name`; the library
    // stays open as long as the pointer is used (see `Nccl`).
    unsafe { lib.get::<T>(name.as_bytes()) }
        .map(|s| *s)
        .map_err(|e| NcclError::MissingSymbol(format!("{name} ({e})")))
}

impl Nccl {
    /// Opens NCCL from the first of [`candidates`] that loads.
    pub fn load() -> Result<Nccl, NcclError> {
        let tried = candidates();
        let mut first = None;
        for path in &tried {
            // SAFETY: loading NCCL runs only its own initialisers.
            match unsafe { libloading::Library::new(path) } {
                Ok(lib) => return Nccl::from_library(lib, path.display().to_string()),
                Err(e) => {
                    first.get_or_insert(e.to_string());
                }
            }
        }
        Err(NcclError::NotFound {
            tried: tried.iter().map(|p| p.display().to_string()).collect(),
            message: first.unwrap_or_default(),
        })
    }

    fn from_library(lib: libloading::Library, path: String) -> Result<Nccl, NcclError> {
        let get_version: FnGetVersion = symbol(&lib, "ncclGetVersion")?;
        let api = Api {
            get_error_string: symbol(&lib, "ncclGetErrorString")?,
            comm_init_all: symbol(&lib, "ncclCommInitAll")?,
            comm_destroy: symbol(&lib, "ncclCommDestroy")?,
            group_start: symbol(&lib, "ncclGroupStart")?,
            group_end: symbol(&lib, "ncclGroupEnd")?,
            all_reduce: symbol(&lib, "ncclAllReduce")?,
            all_gather: symbol(&lib, "ncclAllGather")?,
            reduce_scatter: symbol(&lib, "ncclReduceScatter")?,
            send: symbol(&lib, "ncclSend")?,
            recv: symbol(&lib, "ncclRecv")?,
        };
        let mut version = 0;
        // SAFETY: NCCL's entry point; `version` is a live local.
        let r = unsafe { get_version(&mut version) };
        let me = Nccl {
            api,
            version,
            path,
            _library: lib,
        };
        me.check("ncclGetVersion", r)?;
        Ok(me)
    }

    fn check(&self, call: &'static str, r: NcclResult) -> Result<(), NcclError> {
        if r == 0 {
            return Ok(());
        }
        // SAFETY: NCCL returns a pointer to a static string.
        let text = unsafe { (self.api.get_error_string)(r) };
        let message = if text.is_null() {
            format!("NCCL error {r}")
        } else {
            // SAFETY: non-null, NUL-terminated, static.
            unsafe { CStr::from_ptr(text) }
                .to_string_lossy()
                .into_owned()
        };
        Err(NcclError::Call { call, message })
    }

    /// One communicator per device of `ordinals` (CUDA device ordinals),
    /// ranks in that order; destroyed with the returned value.
    pub fn comms(&self, ordinals: &[i32]) -> Result<Comms<'_>, NcclError> {
        let mut comms: Vec<Comm> = vec![std::ptr::null_mut(); ordinals.len()];
        // SAFETY: `comms` has room for one communicator per ordinal.
        let r = unsafe {
            (self.api.comm_init_all)(
                comms.as_mut_ptr(),
                ordinals.len() as c_int,
                ordinals.as_ptr(),
            )
        };
        self.check("ncclCommInitAll", r)?;
        Ok(Comms { nccl: self, comms })
    }

    /// Calls `f` between `ncclGroupStart` and `ncclGroupEnd` (how one thread
    /// issues a collective for several devices).
    pub(crate) fn group<T>(
        &self,
        f: impl FnOnce() -> Result<T, NcclError>,
    ) -> Result<T, NcclError> {
        // SAFETY: NCCL's entry points, no arguments.
        self.check("ncclGroupStart", unsafe { (self.api.group_start)() })?;
        let r = f();
        let end = self.check("ncclGroupEnd", unsafe { (self.api.group_end)() });
        let v = r?;
        end?;
        Ok(v)
    }

    /// `ncclAllReduce` of `count` elements.
    ///
    /// # Safety
    /// `send` and `recv` address `count` elements on the communicator's
    /// device; `stream` is a live stream of that device.
    #[allow(clippy::too_many_arguments)]
    pub(crate) unsafe fn all_reduce(
        &self,
        send: u64,
        recv: u64,
        count: usize,
        elem: &str,
        r: Reduction,
        comm: Comm,
        stream: Stream,
    ) -> Result<(), NcclError> {
        let t = dtype(elem)?;
        // SAFETY: the caller's contract.
        let res = unsafe {
            (self.api.all_reduce)(send as _, recv as _, count, t, red_op(r), comm, stream)
        };
        self.check("ncclAllReduce", res)
    }

    /// `ncclAllGather` of `count` elements from each rank.
    ///
    /// # Safety
    /// As [`Nccl::all_reduce`], `recv` holding `count` times the ranks.
    pub(crate) unsafe fn all_gather(
        &self,
        send: u64,
        recv: u64,
        count: usize,
        elem: &str,
        comm: Comm,
        stream: Stream,
    ) -> Result<(), NcclError> {
        let t = dtype(elem)?;
        // SAFETY: the caller's contract.
        let res = unsafe { (self.api.all_gather)(send as _, recv as _, count, t, comm, stream) };
        self.check("ncclAllGather", res)
    }

    /// `ncclReduceScatter`, each rank receiving `count` elements.
    ///
    /// # Safety
    /// As [`Nccl::all_reduce`], `send` holding `count` times the ranks.
    #[allow(clippy::too_many_arguments)]
    pub(crate) unsafe fn reduce_scatter(
        &self,
        send: u64,
        recv: u64,
        count: usize,
        elem: &str,
        r: Reduction,
        comm: Comm,
        stream: Stream,
    ) -> Result<(), NcclError> {
        let t = dtype(elem)?;
        // SAFETY: the caller's contract.
        let res = unsafe {
            (self.api.reduce_scatter)(send as _, recv as _, count, t, red_op(r), comm, stream)
        };
        self.check("ncclReduceScatter", res)
    }

    /// `ncclSend` then nothing else: pair it with [`Nccl::recv`] in a group.
    ///
    /// # Safety
    /// `send` addresses `count` elements on the communicator's device.
    pub(crate) unsafe fn send(
        &self,
        send: u64,
        count: usize,
        elem: &str,
        peer: usize,
        comm: Comm,
        stream: Stream,
    ) -> Result<(), NcclError> {
        let t = dtype(elem)?;
        // SAFETY: the caller's contract.
        let res = unsafe { (self.api.send)(send as _, count, t, peer as c_int, comm, stream) };
        self.check("ncclSend", res)
    }

    /// `ncclRecv`.
    ///
    /// # Safety
    /// `recv` addresses `count` elements on the communicator's device.
    pub(crate) unsafe fn recv(
        &self,
        recv: u64,
        count: usize,
        elem: &str,
        peer: usize,
        comm: Comm,
        stream: Stream,
    ) -> Result<(), NcclError> {
        let t = dtype(elem)?;
        // SAFETY: the caller's contract.
        let res = unsafe { (self.api.recv)(recv as _, count, t, peer as c_int, comm, stream) };
        self.check("ncclRecv", res)
    }
}

/// Communicators of one group of devices, destroyed on drop.
pub struct Comms<'n> {
    nccl: &'n Nccl,
    /// One per device, in rank order.
    pub(crate) comms: Vec<Comm>,
}

impl Drop for Comms<'_> {
    fn drop(&mut self) {
        for c in &self.comms {
            // SAFETY: each came from ncclCommInitAll and is destroyed once.
            unsafe {
                (self.nccl.api.comm_destroy)(*c);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_library_says_where_it_looked() {
        // SAFETY: the test sets a variable no other test of this crate reads.
        unsafe { std::env::set_var("AIC_NCCL_LIBRARY", "/nonexistent/libnccl.so.2") };
        let e = Nccl::load().err().expect("no NCCL there");
        unsafe { std::env::remove_var("AIC_NCCL_LIBRARY") };
        let text = e.to_string();
        assert!(text.contains("/nonexistent/libnccl.so.2"), "{text}");
        assert!(text.contains("AIC_NCCL_LIBRARY"), "{text}");
    }

    #[test]
    fn element_types_map_to_nccl_s() {
        assert_eq!(dtype("f32").unwrap(), 7);
        assert_eq!(dtype("bf16").unwrap(), 9);
        assert!(dtype("i1").is_err());
        assert_eq!(red_op(Reduction::Max), 2);
    }
}
