//! DLPack on the CUDA path: reading another library's device tensor (a
//! PyTorch CUDA tensor, a JAX GPU array, a CuPy array) without a copy through
//! the host, and handing results back as [`DeviceArray`]s that any DLPack
//! consumer takes without a copy.
//!
//! The structs are DLPack's C ABI (`dlpack.h`, the unversioned
//! `DLManagedTensor` every consumer accepts), written out here because no
//! maintained crate offers the producer and consumer halves over the stable
//! ABI that the abi3 wheel is built for.

use aic_runtime::DeviceBuffer;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use std::ffi::{CStr, c_void};
use std::sync::Arc;

/// `kDLCUDA`: memory of a CUDA device.
pub const CUDA: i32 = 2;

#[repr(C)]
#[derive(Clone, Copy)]
struct DLDevice {
    device_type: i32,
    device_id: i32,
}

#[repr(C)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct DLDataType {
    code: u8,
    bits: u8,
    lanes: u16,
}

#[repr(C)]
struct DLTensor {
    data: *mut c_void,
    device: DLDevice,
    ndim: i32,
    dtype: DLDataType,
    shape: *mut i64,
    strides: *mut i64,
    byte_offset: u64,
}

#[repr(C)]
struct DLManagedTensor {
    dl_tensor: DLTensor,
    manager_ctx: *mut c_void,
    deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

const NAME: &CStr = c"dltensor";

/// DLPack's type codes for aic's element type `elem` (several where
/// producers disagree: a bool is `kDLBool` to PyTorch, `kDLUInt` to older
/// producers).
fn dtypes(elem: &str) -> &'static [(u8, u8)] {
    match elem {
        "i1" => &[(6, 8), (1, 8)],
        "i8" => &[(0, 8)],
        "i16" => &[(0, 16)],
        "i32" => &[(0, 32)],
        "i64" => &[(0, 64)],
        "ui8" => &[(1, 8)],
        "ui16" => &[(1, 16)],
        "ui32" => &[(1, 32)],
        "ui64" => &[(1, 64)],
        "f16" => &[(2, 16)],
        "f32" => &[(2, 32)],
        "f64" => &[(2, 64)],
        "bf16" => &[(4, 16)],
        "f8E4M3FN" => &[(10, 8)],
        "f8E5M2" => &[(12, 8)],
        _ => &[],
    }
}

/// The DLPack name of a type code and width, for messages.
fn dtype_text(t: DLDataType) -> String {
    let kind = match t.code {
        0 => "int",
        1 => "uint",
        2 => "float",
        4 => "bfloat",
        5 => "complex",
        6 => "bool",
        _ => return format!("DLPack type code {} of {} bits", t.code, t.bits),
    };
    format!("{kind}{}", t.bits)
}

/// A device tensor borrowed through DLPack for one call: its address and
/// shape, and the capsule that keeps it alive (dropped after the call,
/// which lets the producer free what it exported).
pub struct Borrowed<'py> {
    pub ptr: u64,
    pub shape: Vec<i64>,
    _capsule: Bound<'py, PyAny>,
}

/// Reads argument `i` and checks it: on CUDA device `ordinal`, of element
/// type `elem`, row-major and dense; a `ValueError` (or `TypeError`) naming
/// the argument otherwise. `obj` is a DLPack capsule already taken by the
/// caller (who ordered the producer's writes itself), or an object whose
/// `__dlpack__` is called with `stream=1`: the producer orders its pending
/// writes before the legacy default stream, and the second result says
/// that the caller must wait for that stream.
pub fn borrow<'py>(
    obj: &Bound<'py, PyAny>,
    i: usize,
    elem: &str,
    ordinal: i32,
) -> PyResult<(Borrowed<'py>, bool)> {
    let py = obj.py();
    // SAFETY: `obj` is a live object; the check only reads its type.
    let is_capsule = unsafe { ffi::PyCapsule_CheckExact(obj.as_ptr()) } == 1;
    let capsule = if is_capsule {
        obj.clone()
    } else {
        let kwargs = pyo3::types::PyDict::new(py);
        kwargs.set_item("stream", 1)?;
        obj.call_method("__dlpack__", (), Some(&kwargs))
            .map_err(|e| {
                let err = PyValueError::new_err(format!(
                    "argument {i}: its __dlpack__ failed: {}",
                    e.value(py)
                ));
                err.set_cause(py, Some(e));
                err
            })?
    };
    // SAFETY: `capsule` is a live object; PyCapsule_IsValid only reads it.
    if unsafe { ffi::PyCapsule_IsValid(capsule.as_ptr(), NAME.as_ptr()) } != 1 {
        return Err(PyTypeError::new_err(format!(
            "argument {i}: __dlpack__ returned no unused 'dltensor' capsule"
        )));
    }
    // SAFETY: a valid capsule of this name holds a DLManagedTensor the producer
    // keeps alive for as long as the capsule lives (it lives in `Borrowed`).
    let t = unsafe {
        let m =
            ffi::PyCapsule_GetPointer(capsule.as_ptr(), NAME.as_ptr()) as *const DLManagedTensor;
        if m.is_null() {
            return Err(PyErr::fetch(py));
        }
        &(*m).dl_tensor
    };
    if t.device.device_type != CUDA || t.device.device_id != ordinal {
        return Err(PyValueError::new_err(format!(
            "argument {i} lives on DLPack device ({}, {}); aic runs on cuda:{ordinal}",
            t.device.device_type, t.device.device_id
        )));
    }
    if t.dtype.lanes != 1 || !dtypes(elem).contains(&(t.dtype.code, t.dtype.bits)) {
        return Err(PyValueError::new_err(format!(
            "argument {i} has dtype {}, the compiled function takes {elem}",
            dtype_text(t.dtype)
        )));
    }
    let ndim = usize::try_from(t.ndim).unwrap_or(0);
    // SAFETY: DLPack gives `ndim` shape entries (and strides, unless null).
    let shape: Vec<i64> = if ndim == 0 {
        Vec::new()
    } else {
        unsafe { std::slice::from_raw_parts(t.shape, ndim) }.to_vec()
    };
    if !t.strides.is_null() && ndim > 0 {
        // SAFETY: as above.
        let strides = unsafe { std::slice::from_raw_parts(t.strides, ndim) };
        let mut want = 1i64;
        for d in (0..ndim).rev() {
            if shape[d] != 1 && strides[d] != want {
                return Err(PyValueError::new_err(format!(
                    "argument {i} is not C-contiguous (shape {shape:?}, strides {strides:?} in elements): pass tensor.contiguous(), ..."
                )));
            }
            want *= shape[d];
        }
    }
    Ok((
        Borrowed {
            ptr: t.data as u64 + t.byte_offset,
            shape,
            _capsule: capsule,
        },
        !is_capsule,
    ))
}

/// A result in CUDA memory that aic allocated: hand it to PyTorch, JAX or
/// CuPy with their `from_dlpack` (no copy), or read it with `numpy()`.
#[pyclass(module = "aic._aic", frozen)]
pub struct DeviceArray {
    buffer: Arc<Owned>,
    shape: Vec<i64>,
    elem: String,
    ordinal: i32,
}

/// A device buffer that any thread may free (DLPack consumers call the
/// deleter from wherever they drop the tensor).
struct Owned(DeviceBuffer<'static>);

// SAFETY: the buffer is only freed (cuMemFree of an address in the retained
// primary context, which the driver allows from any thread) and read for its
// address; the `Cuda` it borrows is leaked for the process and never mutated.
unsafe impl Send for Owned {}
// SAFETY: as above: shared access only reads the address and length.
unsafe impl Sync for Owned {}

impl DeviceArray {
    pub fn new(buffer: DeviceBuffer<'static>, shape: Vec<i64>, elem: String, ordinal: i32) -> Self {
        DeviceArray {
            buffer: Arc::new(Owned(buffer)),
            shape,
            elem,
            ordinal,
        }
    }
}

/// What a capsule's `manager_ctx` owns: the buffer (one more reference) and
/// the shape and strides the DLTensor points into.
struct Manager {
    _buffer: Arc<Owned>,
    shape: Vec<i64>,
    strides: Vec<i64>,
}

unsafe extern "C" fn delete_managed(m: *mut DLManagedTensor) {
    if m.is_null() {
        return;
    }
    // SAFETY: `m` and its manager were made by `Box::into_raw` in `__dlpack__`,
    // and DLPack calls the deleter once.
    unsafe {
        let m = Box::from_raw(m);
        drop(Box::from_raw(m.manager_ctx as *mut Manager));
    }
}

unsafe extern "C" fn capsule_destructor(capsule: *mut ffi::PyObject) {
    // A consumer renames the capsule ("used_dltensor") and owns the tensor; one
    // never consumed is still named "dltensor", and its tensor is freed here.
    // SAFETY: called by Python with the GIL held on a live capsule.
    unsafe {
        if ffi::PyCapsule_IsValid(capsule, NAME.as_ptr()) == 1 {
            let m = ffi::PyCapsule_GetPointer(capsule, NAME.as_ptr()) as *mut DLManagedTensor;
            delete_managed(m);
        } else {
            ffi::PyErr_Clear();
        }
    }
}

#[pymethods]
impl DeviceArray {
    /// A DLPack capsule of the array (no copy). The array is ready when the
    /// call that made it returns, so no stream needs to wait for it.
    #[pyo3(signature = (*, stream = None, max_version = None, dl_device = None, copy = None))]
    fn __dlpack__<'py>(
        &self,
        py: Python<'py>,
        stream: Option<Bound<'py, PyAny>>,
        max_version: Option<Bound<'py, PyAny>>,
        dl_device: Option<Bound<'py, PyAny>>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let _ = (stream, max_version);
        if let Some(d) = dl_device {
            let (ty, id): (i32, i32) = d.extract()?;
            if (ty, id) != (CUDA, self.ordinal) {
                return Err(pyo3::exceptions::PyBufferError::new_err(format!(
                    "an aic.DeviceArray lives on cuda:{}; it exports no copy to DLPack device ({ty}, {id})",
                    self.ordinal
                )));
            }
        }
        if copy == Some(true) {
            return Err(pyo3::exceptions::PyBufferError::new_err(
                "an aic.DeviceArray exports without a copy only",
            ));
        }
        let (code, bits) = *dtypes(&self.elem).first().ok_or_else(|| {
            PyTypeError::new_err(format!("DLPack has no type for element type {}", self.elem))
        })?;
        let mut strides = vec![1i64; self.shape.len()];
        for d in (0..self.shape.len().saturating_sub(1)).rev() {
            strides[d] = strides[d + 1] * self.shape[d + 1].max(1);
        }
        let mut manager = Box::new(Manager {
            _buffer: self.buffer.clone(),
            shape: self.shape.clone(),
            strides,
        });
        let tensor = DLTensor {
            data: self.buffer.0.device_ptr() as *mut c_void,
            device: DLDevice {
                device_type: CUDA,
                device_id: self.ordinal,
            },
            ndim: self.shape.len() as i32,
            dtype: DLDataType {
                code,
                bits,
                lanes: 1,
            },
            shape: manager.shape.as_mut_ptr(),
            strides: manager.strides.as_mut_ptr(),
            byte_offset: 0,
        };
        let m = Box::into_raw(Box::new(DLManagedTensor {
            dl_tensor: tensor,
            manager_ctx: Box::into_raw(manager) as *mut c_void,
            deleter: Some(delete_managed),
        }));
        // SAFETY: `m` is a live DLManagedTensor; the capsule owns it until a
        // consumer renames it, and the destructor frees it otherwise.
        unsafe {
            let c = ffi::PyCapsule_New(m as *mut c_void, NAME.as_ptr(), Some(capsule_destructor));
            if c.is_null() {
                delete_managed(m);
                return Err(PyErr::fetch(py));
            }
            Ok(Bound::from_owned_ptr(py, c))
        }
    }

    /// `(kDLCUDA, device)`.
    fn __dlpack_device__(&self) -> (i32, i32) {
        (CUDA, self.ordinal)
    }

    /// The array's shape.
    #[getter]
    fn shape(&self) -> Vec<i64> {
        self.shape.clone()
    }

    /// aic's element type (`f16`, `f32`, ...).
    #[getter]
    fn elem(&self) -> String {
        self.elem.clone()
    }

    /// The array's bytes, copied to the host.
    fn to_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyByteArray>> {
        let mut out = vec![0u8; self.buffer.0.len() as usize];
        self.buffer
            .0
            .download(&mut out)
            .map_err(|e| crate::RunError::new_err(e.to_string()))?;
        Ok(pyo3::types::PyByteArray::new(py, &out))
    }

    /// The array copied to the host, as a NumPy array.
    fn numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let dtype = py
            .import("aic")?
            .getattr("_numpy_dtype")?
            .call1((&self.elem,))?;
        let flat = py
            .import("numpy")?
            .getattr("frombuffer")?
            .call1((self.to_bytes(py)?, dtype))?;
        flat.call_method1("reshape", (self.shape.clone(),))
    }

    /// NumPy's conversion (`np.asarray(a)`): a copy on the host.
    #[pyo3(signature = (dtype = None, copy = None))]
    fn __array__<'py>(
        &self,
        py: Python<'py>,
        dtype: Option<Bound<'py, PyAny>>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let _ = copy;
        let a = self.numpy(py)?;
        match dtype {
            Some(d) => a.call_method1("astype", (d,)),
            None => Ok(a),
        }
    }

    fn __repr__(&self) -> String {
        format!(
            "<aic.DeviceArray {}{:?} on cuda:{}>",
            self.elem, self.shape, self.ordinal
        )
    }
}
