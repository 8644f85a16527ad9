//! The compiled-artifact format: one self-contained file per compiled module.
//!
//! A bundle carries a binary (PTX text, an AMDGPU HSACO code object or a host object
//! file) together with a JSON manifest that says what is in it and how to run it: the
//! kernels with their launch geometry and arguments, and the host-side launch sequence.
//!
//! # Byte layout
//!
//! ```text
//! offset      size  contents
//! 0           8     magic, the ASCII bytes "AICBNDL1"
//! 8           8     L: length of the manifest in bytes, unsigned 64-bit little-endian
//! 16          L     the manifest: UTF-8 JSON, one object (see [`Manifest`])
//! 16+L        8     B: length of the binary in bytes, unsigned 64-bit little-endian
//! 24+L        B     the binary: PTX text, an HSACO code object, or a host object file
//! 24+L+B            end of file (nothing may follow)
//! ```
//!
//! The layout is meant to be read just as easily from Python:
//!
//! ```python
//! import json, struct
//! data = open(path, "rb").read()
//! assert data[:8] == b"AICBNDL1"
//! (l,) = struct.unpack_from("<Q", data, 8)
//! manifest = json.loads(data[16:16 + l])
//! (b,) = struct.unpack_from("<Q", data, 16 + l)
//! binary = data[24 + l:24 + l + b]
//! ```
//!
//! (`bench/gpu/aic_bundle.py` is that reader with error checks.)
//!
//! # Manifest
//!
//! ```json
//! {"version": 1, "target": "nvptx", "arch": "sm_90",
//!  "kernels": [{"name": "k0", "grid": [4, 1, 1], "block": [128, 1, 1], "shared_bytes": 0,
//!               "params": [{"elem": "f32", "shape": [512], "bytes": 2048, "output": false},
//!                          {"elem": "f32", "shape": [512], "bytes": 2048, "output": true}]}],
//!  "host": "func.func @main(...) { ... }",
//!  "launches": [{"func": "main", "kernel": "k0", "inputs": ["%arg0"], "outputs": ["%0"]}],
//!  "plans": [{"kind": "planned", "func": "main", "arena_bytes": 4096, "tensor_bytes": 4096,
//!             "buffers": [{"offset": 0, "bytes": 2048, "elem": "f32", "shape": [512],
//!                          "source": {"kind": "input", "arg": 0, "kept": false}},
//!                         {"offset": 2048, "bytes": 2048, "elem": "f32", "shape": [512],
//!                          "source": {"kind": "step"}}],
//!             "steps": [{"kind": "launch", "kernel": "k0", "args": [0, 1]}],
//!             "inputs": [0], "outputs": [1]}]}
//! ```
//!
//! Version 2 added `plans` (see [`crate::plan`]) and the kernels' optional `kind` and
//! `flops`; a version-1 manifest reads as one without plans.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::plan::FuncPlan;

/// The eight bytes every bundle starts with; the trailing `1` is the layout version.
pub const MAGIC: &[u8; 8] = b"AICBNDL1";

/// The manifest version this runtime writes; it reads this one and version 1 (which has
/// no plans).
pub const MANIFEST_VERSION: u32 = 2;

/// What a bundle holds and how to run it: the JSON half of a bundle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// Manifest format version; [`MANIFEST_VERSION`] (2) today.
    pub version: u32,
    /// The code the binary holds: `"nvptx"`, `"amdgpu"` or `"host"`.
    pub target: String,
    /// The processor the binary was compiled for: `"sm_90"`, `"sm_80"`, `"gfx942"`,
    /// `"gfx90a"`, `"x86-64"`, ...
    pub arch: String,
    /// The kernels in the binary, each with its launch geometry and arguments.
    pub kernels: Vec<KernelInfo>,
    /// MLIR text of the host-side program: the funcs whose `gpu.launch` ops name the
    /// kernels, i.e. the launch sequence with its data flow.
    pub host: String,
    /// The same launch sequence flattened for simple readers: one entry per launch, in
    /// program order.
    pub launches: Vec<Launch>,
    /// The module the bundle was compiled from, as given (any level), so that a run can
    /// check the kernels against the reference interpreter; empty when not kept.
    #[serde(default)]
    pub source: String,
    /// One entry per host function: its executable plan, or the ops that keep it in the
    /// interpreter (none in a version-1 manifest).
    #[serde(default)]
    pub plans: Vec<FuncPlan>,
}

/// One kernel in the binary: its symbol, launch geometry and arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KernelInfo {
    /// The kernel's symbol in the binary (the `.entry` name in PTX).
    pub name: String,
    /// Grid size in blocks, x/y/z.
    pub grid: [u32; 3],
    /// Block size in threads, x/y/z.
    pub block: [u32; 3],
    /// Dynamic shared memory per block, in bytes.
    pub shared_bytes: u32,
    /// The kernel's arguments in order; each is passed as one device pointer.
    pub params: Vec<Param>,
    /// What kind of kernel it is (`gemm`, `attention`, `rows`, ...), from the kernel's
    /// `aic.kind` attribute when the compiler set one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    /// The floating-point operations one launch performs, from the kernel's `aic.flops`
    /// attribute when the compiler set one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flops: Option<u64>,
    /// The tuning-cache key its tile sizes come from (`aic-tune` varies and times
    /// kernels by it), from the kernel's `aic.tune` attribute.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tune: Option<String>,
    /// The TMA tensor maps the kernel takes after its buffers, each passed
    /// by value (a 128-byte `CUtensorMap` the runtime encodes for the
    /// buffer it names at launch); none for most kernels.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tensor_maps: Vec<TensorMapInfo>,
}

/// A TMA tensor map of a 2-D tensor in one of a kernel's buffers, boxes
/// of `box_shape` (rows, columns; columns contiguous).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TensorMapInfo {
    /// The kernel argument holding the tensor.
    pub buffer: u32,
    /// The tensor's rows and columns.
    pub shape: [u64; 2],
    /// Elements from one row to the next.
    pub row_stride: u64,
    /// Bytes per element.
    pub elem_bytes: u32,
    /// The box's rows and columns.
    pub box_shape: [u32; 2],
    /// The swizzle of the box's rows in shared memory, in bytes (0: none).
    pub swizzle: u32,
}

/// One kernel argument: a buffer in device memory, passed as a pointer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// Element type: `"f32"`, `"f16"`, `"bf16"`, `"f64"`, `"i1"`, `"i8"`, `"i16"`,
    /// `"i32"` or `"i64"`.
    pub elem: String,
    /// The tensor's shape (row-major); empty for a scalar.
    pub shape: Vec<i64>,
    /// The buffer's size in bytes.
    pub bytes: u64,
    /// Whether the kernel writes this buffer (an output) rather than only reading it.
    pub output: bool,
}

/// One kernel launch of the host program, for readers that do not parse the MLIR text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Launch {
    /// The host function the launch is in.
    pub func: String,
    /// The kernel launched (a [`KernelInfo::name`]).
    pub kernel: String,
    /// The values read, as SSA or argument names; informational only.
    pub inputs: Vec<String>,
    /// The values written, as SSA names; informational only.
    pub outputs: Vec<String>,
}

/// A compiled module: its manifest and its binary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Bundle {
    /// What the binary holds and how to run it.
    pub manifest: Manifest,
    /// PTX text, an HSACO code object or a host object file, as `manifest.target` says.
    pub binary: Vec<u8>,
}

/// Why a bundle could not be read or written.
#[derive(Debug)]
pub enum BundleError {
    /// The input does not start with [`MAGIC`].
    BadMagic,
    /// The input ends before a part its header announced.
    Truncated {
        /// The part being read (`"manifest length"`, `"manifest"`, ...).
        what: &'static str,
        /// Bytes that part needs.
        needed: u64,
        /// Bytes left in the input.
        available: u64,
    },
    /// Bytes follow the binary; a bundle ends with its binary.
    TrailingBytes(u64),
    /// The manifest is not valid JSON or does not have the manifest's fields.
    BadJson(serde_json::Error),
    /// The manifest's version is not one this runtime reads.
    UnsupportedVersion(u32),
    /// A plan of the manifest does not fit its kernels or its arena.
    BadPlan(String),
    /// Reading or writing the file failed.
    Io {
        /// The bundle file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
}

impl fmt::Display for BundleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BundleError::BadMagic => write!(f, "not an aic bundle (bad magic)"),
            BundleError::Truncated {
                what,
                needed,
                available,
            } => write!(
                f,
                "truncated aic bundle: the {what} needs {needed} bytes but only {available} remain"
            ),
            BundleError::TrailingBytes(n) => {
                write!(
                    f,
                    "malformed aic bundle: {n} unexpected bytes after the binary"
                )
            }
            BundleError::BadJson(e) => write!(f, "aic bundle has a malformed manifest: {e}"),
            BundleError::UnsupportedVersion(v) => write!(
                f,
                "aic bundle manifest version {v} is not supported (this runtime reads versions 1 to {MANIFEST_VERSION})"
            ),
            BundleError::BadPlan(e) => write!(f, "aic bundle has a malformed {e}"),
            BundleError::Io { path, source } => write!(f, "{}: {source}", path.display()),
        }
    }
}

impl std::error::Error for BundleError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            BundleError::BadJson(e) => Some(e),
            BundleError::Io { source, .. } => Some(source),
            _ => None,
        }
    }
}

impl Param {
    /// Bytes one element of type `elem` occupies in a buffer, or `None` for an unknown
    /// element type. `i1` is stored as one byte per element.
    pub fn elem_bytes(elem: &str) -> Option<u64> {
        Some(match elem {
            "i1" | "i8" | "f8E4M3FN" | "f8E5M2" => 1,
            "f16" | "bf16" | "i16" => 2,
            "f32" | "i32" => 4,
            "f64" | "i64" => 8,
            _ => return None,
        })
    }

    /// Bytes a dense row-major buffer of this param's element type and shape occupies,
    /// or `None` when the element type is unknown, a dimension is negative (dynamic) or
    /// the size overflows. Writers use it to fill [`Param::bytes`]; readers to check it.
    pub fn dense_bytes(&self) -> Option<u64> {
        self.shape
            .iter()
            .try_fold(Self::elem_bytes(&self.elem)?, |acc, &d| {
                acc.checked_mul(u64::try_from(d).ok()?)
            })
    }
}

impl Manifest {
    /// The kernel named `name`, if the bundle has one.
    pub fn kernel(&self, name: &str) -> Option<&KernelInfo> {
        self.kernels.iter().find(|k| k.name == name)
    }

    /// What the manifest says of host function `func`: its plan, or why it has none
    /// (`None`: the manifest says nothing, as a version-1 manifest never does).
    pub fn plan(&self, func: &str) -> Option<&FuncPlan> {
        self.plans.iter().find(|p| p.func() == func)
    }

    /// Checks every plan against the kernels (see [`crate::plan::Plan::validate`]).
    pub fn validate_plans(&self) -> Result<(), String> {
        for p in &self.plans {
            if let FuncPlan::Planned(p) = p {
                p.validate(&self.kernels)?;
            }
        }
        Ok(())
    }
}

/// A cursor over the input that turns every short read into [`BundleError::Truncated`].
struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: u64, what: &'static str) -> Result<&'a [u8], BundleError> {
        let available = self.rest.len() as u64;
        // Compare in u64 first: a corrupt length may not fit in usize on 32-bit hosts.
        if n > available {
            return Err(BundleError::Truncated {
                what,
                needed: n,
                available,
            });
        }
        let (head, tail) = self.rest.split_at(n as usize);
        self.rest = tail;
        Ok(head)
    }

    fn u64(&mut self, what: &'static str) -> Result<u64, BundleError> {
        let bytes = self.take(8, what)?;
        let mut le = [0u8; 8];
        le.copy_from_slice(bytes);
        Ok(u64::from_le_bytes(le))
    }
}

impl Bundle {
    /// The bundle as bytes, in the layout the module docs describe.
    pub fn to_bytes(&self) -> Vec<u8> {
        // Serializing plain strings, numbers and vectors cannot fail.
        let manifest =
            serde_json::to_vec(&self.manifest).expect("a manifest always serializes to JSON");
        let mut out = Vec::with_capacity(24 + manifest.len() + self.binary.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&(manifest.len() as u64).to_le_bytes());
        out.extend_from_slice(&manifest);
        out.extend_from_slice(&(self.binary.len() as u64).to_le_bytes());
        out.extend_from_slice(&self.binary);
        out
    }

    /// Parses a bundle from bytes, checking the magic, every length, the manifest's JSON
    /// and its version, and that nothing follows the binary.
    pub fn from_bytes(b: &[u8]) -> Result<Bundle, BundleError> {
        // Check the magic before any length so that a file of another kind (even a
        // short one) is reported as such rather than as a truncated bundle.
        if !b.starts_with(MAGIC) {
            return Err(BundleError::BadMagic);
        }
        let mut r = Reader {
            rest: &b[MAGIC.len()..],
        };
        let manifest_len = r.u64("manifest length")?;
        let manifest = r.take(manifest_len, "manifest")?;
        let binary_len = r.u64("binary length")?;
        let binary = r.take(binary_len, "binary")?;
        if !r.rest.is_empty() {
            return Err(BundleError::TrailingBytes(r.rest.len() as u64));
        }
        let manifest: Manifest = serde_json::from_slice(manifest).map_err(BundleError::BadJson)?;
        if !(1..=MANIFEST_VERSION).contains(&manifest.version) {
            return Err(BundleError::UnsupportedVersion(manifest.version));
        }
        manifest.validate_plans().map_err(BundleError::BadPlan)?;
        Ok(Bundle {
            manifest,
            binary: binary.to_vec(),
        })
    }

    /// Writes the bundle to `path`, replacing any file there.
    pub fn write(&self, path: &Path) -> Result<(), BundleError> {
        std::fs::write(path, self.to_bytes()).map_err(|source| BundleError::Io {
            path: path.to_path_buf(),
            source,
        })
    }

    /// Reads and parses the bundle at `path`.
    pub fn read(path: &Path) -> Result<Bundle, BundleError> {
        let bytes = std::fs::read(path).map_err(|source| BundleError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Bundle::from_bytes(&bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::{Buffer, Plan, Source, Step};

    fn buffer(source: Source) -> Buffer {
        Buffer {
            offset: 0,
            bytes: 2048,
            elem: "f32".into(),
            shape: vec![512],
            source,
        }
    }

    fn sample() -> Bundle {
        Bundle {
            manifest: Manifest {
                version: MANIFEST_VERSION,
                target: "nvptx".into(),
                arch: "sm_90".into(),
                kernels: vec![KernelInfo {
                    name: "add_k0".into(),
                    grid: [4, 1, 1],
                    block: [128, 1, 1],
                    shared_bytes: 0,
                    params: vec![
                        Param {
                            elem: "f32".into(),
                            shape: vec![512],
                            bytes: 2048,
                            output: false,
                        },
                        Param {
                            elem: "f32".into(),
                            shape: vec![512],
                            bytes: 2048,
                            output: true,
                        },
                    ],
                    kind: Some("elementwise".into()),
                    flops: Some(512),
                    tune: Some("h100/sm_90/gemm/0x4x4x4/f32".into()),
                    tensor_maps: Vec::new(),
                }],
                host: "func.func @main() { return }".into(),
                launches: vec![Launch {
                    func: "main".into(),
                    kernel: "add_k0".into(),
                    inputs: vec!["%arg0".into()],
                    outputs: vec!["%0".into()],
                }],
                source: "func.func @main() { return }".into(),
                plans: vec![FuncPlan::Planned(
                    Plan::new(
                        "main".into(),
                        vec![
                            buffer(Source::Input {
                                arg: 0,
                                kept: false,
                            }),
                            buffer(Source::Step),
                        ],
                        vec![Step::Launch {
                            kernel: "add_k0".into(),
                            args: vec![0, 1],
                        }],
                        vec![0],
                        vec![1],
                    )
                    .unwrap(),
                )],
            },
            binary: b".version 8.0\n.target sm_90\n".to_vec(),
        }
    }

    #[test]
    fn round_trip() {
        let b = sample();
        let bytes = b.to_bytes();
        assert_eq!(&bytes[..8], MAGIC);
        assert_eq!(Bundle::from_bytes(&bytes).unwrap(), b);
    }

    #[test]
    fn round_trip_through_a_file() {
        let b = sample();
        let path =
            std::env::temp_dir().join(format!("aic-bundle-test-{}.aicb", std::process::id()));
        b.write(&path).unwrap();
        let back = Bundle::read(&path);
        let _ = std::fs::remove_file(&path);
        assert_eq!(back.unwrap(), b);
    }

    #[test]
    fn layout_is_as_documented() {
        let b = sample();
        let bytes = b.to_bytes();
        let l = u64::from_le_bytes(bytes[8..16].try_into().unwrap()) as usize;
        let json: serde_json::Value = serde_json::from_slice(&bytes[16..16 + l]).unwrap();
        assert_eq!(json["kernels"][0]["params"][1]["output"], true);
        let n = u64::from_le_bytes(bytes[16 + l..24 + l].try_into().unwrap()) as usize;
        assert_eq!(&bytes[24 + l..], &b.binary[..]);
        assert_eq!(bytes.len(), 24 + l + n);
    }

    #[test]
    fn every_truncation_is_an_error() {
        let bytes = sample().to_bytes();
        for cut in 0..bytes.len() {
            let err = Bundle::from_bytes(&bytes[..cut]).unwrap_err();
            let msg = err.to_string();
            if cut < 8 {
                assert!(matches!(err, BundleError::BadMagic), "cut {cut}: {msg}");
            } else {
                assert!(
                    matches!(err, BundleError::Truncated { .. }),
                    "cut {cut}: {msg}"
                );
                assert!(msg.starts_with("truncated aic bundle"), "{msg}");
            }
        }
    }

    #[test]
    fn bad_magic() {
        let mut bytes = sample().to_bytes();
        bytes[0] = b'X';
        let err = Bundle::from_bytes(&bytes).unwrap_err();
        assert_eq!(err.to_string(), "not an aic bundle (bad magic)");
        assert!(matches!(
            Bundle::from_bytes(b"\x7fELF").unwrap_err(),
            BundleError::BadMagic
        ));
    }

    #[test]
    fn huge_length_is_truncation_not_a_panic() {
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&u64::MAX.to_le_bytes());
        let err = Bundle::from_bytes(&bytes).unwrap_err();
        assert!(
            matches!(
                err,
                BundleError::Truncated {
                    what: "manifest",
                    ..
                }
            ),
            "{err}"
        );
    }

    #[test]
    fn trailing_bytes() {
        let mut bytes = sample().to_bytes();
        bytes.push(0);
        let err = Bundle::from_bytes(&bytes).unwrap_err();
        assert!(matches!(err, BundleError::TrailingBytes(1)), "{err}");
    }

    #[test]
    fn bad_json_carries_serde_message() {
        let mut bytes = MAGIC.to_vec();
        let json = br#"{"version": 1}"#;
        bytes.extend_from_slice(&(json.len() as u64).to_le_bytes());
        bytes.extend_from_slice(json);
        bytes.extend_from_slice(&0u64.to_le_bytes());
        let msg = Bundle::from_bytes(&bytes).unwrap_err().to_string();
        assert!(
            msg.contains("malformed manifest") && msg.contains("missing field"),
            "{msg}"
        );
    }

    #[test]
    fn unsupported_version() {
        let mut b = sample();
        b.manifest.version = 3;
        let err = Bundle::from_bytes(&b.to_bytes()).unwrap_err();
        assert!(matches!(err, BundleError::UnsupportedVersion(3)), "{err}");
    }

    #[test]
    fn version_1_reads_without_plans_and_kernel_kinds() {
        let mut json = serde_json::to_value(&sample().manifest).unwrap();
        json["version"] = 1.into();
        let obj = json.as_object_mut().unwrap();
        obj.remove("plans");
        for k in obj["kernels"].as_array_mut().unwrap() {
            let k = k.as_object_mut().unwrap();
            k.remove("kind");
            k.remove("flops");
        }
        let text = serde_json::to_vec(&json).unwrap();
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&(text.len() as u64).to_le_bytes());
        bytes.extend_from_slice(&text);
        bytes.extend_from_slice(&0u64.to_le_bytes());
        let m = Bundle::from_bytes(&bytes).unwrap().manifest;
        assert_eq!(m.version, 1);
        assert!(m.plans.is_empty() && m.plan("main").is_none());
        assert_eq!(m.kernels[0].kind, None);
    }

    #[test]
    fn a_plan_that_does_not_fit_its_kernels_is_rejected() {
        let mut b = sample();
        if let FuncPlan::Planned(p) = &mut b.manifest.plans[0] {
            p.buffers[1].offset = p.arena_bytes;
        }
        let err = Bundle::from_bytes(&b.to_bytes()).unwrap_err();
        assert!(matches!(err, BundleError::BadPlan(_)), "{err}");
        assert!(err.to_string().contains("outside the"), "{err}");
    }

    #[test]
    fn missing_file_names_the_path() {
        let path = Path::new("/nonexistent/dir/x.aicb");
        let msg = Bundle::read(path).unwrap_err().to_string();
        assert!(msg.starts_with("/nonexistent/dir/x.aicb: "), "{msg}");
    }

    #[test]
    fn element_sizes() {
        assert_eq!(Param::elem_bytes("i1"), Some(1));
        assert_eq!(Param::elem_bytes("bf16"), Some(2));
        assert_eq!(Param::elem_bytes("f64"), Some(8));
        assert_eq!(Param::elem_bytes("f8"), None);
        assert_eq!(Param::elem_bytes("f8E4M3FN"), Some(1));
        assert_eq!(Param::elem_bytes("f8E5M2"), Some(1));
        let p = &sample().manifest.kernels[0].params[0];
        assert_eq!(p.dense_bytes(), Some(p.bytes));
        let dynamic = Param {
            shape: vec![-1, 4],
            ..p.clone()
        };
        assert_eq!(dynamic.dense_bytes(), None);
        assert_eq!(
            sample().manifest.kernel("add_k0").map(|k| k.grid),
            Some([4, 1, 1])
        );
    }
}
