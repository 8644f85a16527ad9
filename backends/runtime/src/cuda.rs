//! The CUDA driver API, opened at run time.
//!
//! Nothing here links CUDA: [`Cuda::load`] opens `libcuda.so.1` with `libloading` and
//! resolves the handful of driver entry points the runtime needs, declared below with
//! their C signatures. A machine without an NVIDIA driver gets a clear error instead of
//! a loader failure at start-up, so one binary serves GPU and GPU-less machines alike.
//!
//! The runtime works in device 0's (or a chosen device's) *primary context*, the one the
//! CUDA runtime and PyTorch also use, made current on the calling thread. A [`Cuda`] is
//! neither `Send` nor `Sync` (it holds raw driver handles): it is meant to be used from
//! the thread that loaded it. [`Module`]s and [`DeviceBuffer`]s borrow it, so they are
//! always released before the context is.
//!
//! Plans run on one [`Stream`], their launch sequence captured once as a [`Graph`] and
//! replayed (see [`crate::device`]). These bindings stay hand-written rather than move
//! to `cudarc`: the runtime needs some twenty entry points, all resolved here by name
//! with `_v2` fallbacks and errors that name the call (and carry the PTX JIT's log),
//! while cudarc ties its dynamic loading to one `cuda-version` feature chosen at build
//! time and would roughly double what this crate (built on GPU-less machines and carried
//! as a binary to a GPU machine without a toolkit) compiles.

use std::ffi::{CStr, CString, c_char, c_int, c_uint, c_void};
use std::fmt;

use crate::bundle::KernelInfo;

/// The driver's status code; 0 is `CUDA_SUCCESS`.
type CuResult = c_int;
/// A device ordinal as the driver names it.
type CuDevice = c_int;
/// An address in device memory.
type CuDevicePtr = u64;
/// An opaque driver handle (context, module, function, stream, event).
pub(crate) type Handle = *mut c_void;

// The driver's C entry points, as declared in cuda.h. `size_t` is `usize` on every
// platform the driver ships for.
type FnInit = unsafe extern "C" fn(c_uint) -> CuResult;
type FnDeviceGet = unsafe extern "C" fn(*mut CuDevice, c_int) -> CuResult;
type FnDeviceGetName = unsafe extern "C" fn(*mut c_char, c_int, CuDevice) -> CuResult;
type FnDeviceGetAttribute = unsafe extern "C" fn(*mut c_int, c_int, CuDevice) -> CuResult;
type FnPrimaryCtxRetain = unsafe extern "C" fn(*mut Handle, CuDevice) -> CuResult;
type FnPrimaryCtxRelease = unsafe extern "C" fn(CuDevice) -> CuResult;
type FnCtxSetCurrent = unsafe extern "C" fn(Handle) -> CuResult;
type FnCtxSynchronize = unsafe extern "C" fn() -> CuResult;
type FnMemAlloc = unsafe extern "C" fn(*mut CuDevicePtr, usize) -> CuResult;
type FnMemFree = unsafe extern "C" fn(CuDevicePtr) -> CuResult;
type FnMemcpyHtoD = unsafe extern "C" fn(CuDevicePtr, *const c_void, usize) -> CuResult;
type FnMemcpyDtoH = unsafe extern "C" fn(*mut c_void, CuDevicePtr, usize) -> CuResult;
type FnMemsetD8 = unsafe extern "C" fn(CuDevicePtr, u8, usize) -> CuResult;
type FnModuleLoadDataEx = unsafe extern "C" fn(
    *mut Handle,
    *const c_void,
    c_uint,
    *mut c_int,
    *mut *mut c_void,
) -> CuResult;
type FnModuleUnload = unsafe extern "C" fn(Handle) -> CuResult;
type FnModuleGetFunction = unsafe extern "C" fn(*mut Handle, Handle, *const c_char) -> CuResult;
type FnFuncSetAttribute = unsafe extern "C" fn(Handle, c_int, c_int) -> CuResult;
#[allow(clippy::type_complexity)] // cuLaunchKernel's signature is what it is
type FnLaunchKernel = unsafe extern "C" fn(
    Handle,
    c_uint,
    c_uint,
    c_uint,
    c_uint,
    c_uint,
    c_uint,
    c_uint,
    Handle,
    *mut *mut c_void,
    *mut *mut c_void,
) -> CuResult;
type FnEventCreate = unsafe extern "C" fn(*mut Handle, c_uint) -> CuResult;
type FnEventRecord = unsafe extern "C" fn(Handle, Handle) -> CuResult;
type FnEventSynchronize = unsafe extern "C" fn(Handle) -> CuResult;
type FnEventElapsedTime = unsafe extern "C" fn(*mut f32, Handle, Handle) -> CuResult;
type FnEventDestroy = unsafe extern "C" fn(Handle) -> CuResult;
type FnGetErrorString = unsafe extern "C" fn(CuResult, *mut *const c_char) -> CuResult;
type FnMemGetInfo = unsafe extern "C" fn(*mut usize, *mut usize) -> CuResult;
type FnMemcpyHtoDAsync =
    unsafe extern "C" fn(CuDevicePtr, *const c_void, usize, Handle) -> CuResult;
type FnMemcpyDtoHAsync = unsafe extern "C" fn(*mut c_void, CuDevicePtr, usize, Handle) -> CuResult;
type FnMemcpyDtoDAsync = unsafe extern "C" fn(CuDevicePtr, CuDevicePtr, usize, Handle) -> CuResult;
type FnMemsetD8Async = unsafe extern "C" fn(CuDevicePtr, u8, usize, Handle) -> CuResult;
type FnStreamWaitEvent = unsafe extern "C" fn(Handle, Handle, u32) -> CuResult;
type FnStreamCreate = unsafe extern "C" fn(*mut Handle, c_uint) -> CuResult;
type FnHandle = unsafe extern "C" fn(Handle) -> CuResult;
type FnStreamBeginCapture = unsafe extern "C" fn(Handle, c_int) -> CuResult;
type FnStreamEndCapture = unsafe extern "C" fn(Handle, *mut Handle) -> CuResult;
type FnGraphInstantiateWithFlags = unsafe extern "C" fn(*mut Handle, Handle, u64) -> CuResult;
type FnGraphLaunch = unsafe extern "C" fn(Handle, Handle) -> CuResult;
#[allow(clippy::type_complexity)] // cuTensorMapEncodeTiled's signature is what it is
type FnTensorMapEncodeTiled = unsafe extern "C" fn(
    *mut TensorMap,
    c_int,
    c_uint,
    *mut c_void,
    *const u64,
    *const u64,
    *const c_uint,
    *const c_uint,
    c_int,
    c_int,
    c_int,
    c_int,
) -> CuResult;

/// A `CUtensorMap`: 128 opaque bytes, 64-byte aligned, that the driver
/// encodes and a kernel takes by value.
#[repr(C, align(64))]
#[derive(Clone, Copy)]
pub(crate) struct TensorMap([u64; 16]);

/// `CU_TENSOR_MAP_L2_PROMOTION_L2_128B`.
const CU_TENSOR_MAP_L2_PROMOTION_L2_128B: c_int = 2;

// Enumerators from cuda.h that the runtime passes.
const CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: c_int = 75;
const CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: c_int = 76;
const CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: c_int = 97;
const CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: c_int = 8;
const CU_JIT_ERROR_LOG_BUFFER: c_int = 5;
const CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES: c_int = 6;
const CU_EVENT_DEFAULT: c_uint = 0;
/// `CU_EVENT_DISABLE_TIMING`: an event only for ordering work.
const CU_EVENT_DISABLE_TIMING: c_uint = 2;
const CU_STREAM_NON_BLOCKING: c_uint = 1;
/// Capture only this thread's work into the graph.
const CU_STREAM_CAPTURE_MODE_THREAD_LOCAL: c_int = 1;
/// Dynamic shared memory a kernel may use without opting in.
const DEFAULT_SHARED_LIMIT: u32 = 48 * 1024;
/// Room for the PTX JIT's error log; its messages are a few lines per error.
const JIT_LOG_BYTES: usize = 64 * 1024;

/// The names the driver library goes by, tried in order.
#[cfg(windows)]
const LIBRARY_NAMES: &[&str] = &["nvcuda.dll"];
#[cfg(not(windows))]
const LIBRARY_NAMES: &[&str] = &["libcuda.so.1", "libcuda.so"];

/// Why a CUDA operation failed.
#[derive(Debug, Clone, PartialEq)]
pub enum CudaError {
    /// The driver library could not be opened (no NVIDIA driver on this machine).
    DriverNotFound {
        /// The library tried first.
        library: String,
        /// What the dynamic loader said.
        message: String,
    },
    /// The driver library lacks an entry point the runtime needs (a driver too old).
    MissingSymbol {
        /// The entry point.
        symbol: String,
        /// What the dynamic loader said.
        message: String,
    },
    /// A driver call returned an error.
    Call {
        /// The driver function called, e.g. `"cuModuleLoadData"`.
        call: &'static str,
        /// The `CUresult` it returned.
        code: i32,
        /// The driver's name and description of the code, e.g.
        /// `"CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)"`.
        message: String,
        /// The PTX JIT's error log, when the call compiled PTX and the JIT said something.
        log: Option<String>,
    },
    /// The request does not fit the kernel or the device (wrong argument count, buffer
    /// sizes, too much shared memory, ...).
    Invalid(String),
}

impl fmt::Display for CudaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CudaError::DriverNotFound { library, message } => write!(
                f,
                "CUDA driver not found: could not open {library} ({message}); aic-run --target=cuda needs an NVIDIA driver"
            ),
            CudaError::MissingSymbol { symbol, message } => write!(
                f,
                "the CUDA driver lacks {symbol} ({message}); the NVIDIA driver is probably too old"
            ),
            CudaError::Call {
                call, message, log, ..
            } => {
                write!(f, "{call}: {message}")?;
                match log {
                    Some(log) => write!(f, "\nJIT log:\n{log}"),
                    None => Ok(()),
                }
            }
            CudaError::Invalid(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for CudaError {}

/// The resolved driver entry points. The function pointers stay valid as long as the
/// `Library` they came from is open, which [`Cuda`] guarantees by owning both.
struct Api {
    /// Absent from drivers before CUDA 12: only TMA kernels need it.
    tensor_map_encode_tiled: Option<FnTensorMapEncodeTiled>,
    device_get_name: FnDeviceGetName,
    device_get_attribute: FnDeviceGetAttribute,
    primary_ctx_release: FnPrimaryCtxRelease,
    ctx_set_current: FnCtxSetCurrent,
    ctx_synchronize: FnCtxSynchronize,
    mem_alloc: FnMemAlloc,
    mem_free: FnMemFree,
    memcpy_htod: FnMemcpyHtoD,
    memcpy_dtoh: FnMemcpyDtoH,
    memset_d8: FnMemsetD8,
    module_load_data_ex: FnModuleLoadDataEx,
    module_unload: FnModuleUnload,
    module_get_function: FnModuleGetFunction,
    func_set_attribute: FnFuncSetAttribute,
    launch_kernel: FnLaunchKernel,
    event_create: FnEventCreate,
    event_record: FnEventRecord,
    event_synchronize: FnEventSynchronize,
    event_elapsed_time: FnEventElapsedTime,
    event_destroy: FnEventDestroy,
    get_error_string: FnGetErrorString,
    get_error_name: FnGetErrorString,
    mem_get_info: FnMemGetInfo,
    memcpy_htod_async: FnMemcpyHtoDAsync,
    memcpy_dtoh_async: FnMemcpyDtoHAsync,
    memcpy_dtod_async: FnMemcpyDtoDAsync,
    memset_d8_async: FnMemsetD8Async,
    stream_wait_event: FnStreamWaitEvent,
    stream_create: FnStreamCreate,
    stream_destroy: FnHandle,
    stream_synchronize: FnHandle,
    stream_begin_capture: FnStreamBeginCapture,
    stream_end_capture: FnStreamEndCapture,
    graph_instantiate: FnGraphInstantiateWithFlags,
    graph_launch: FnGraphLaunch,
    graph_destroy: FnHandle,
    graph_exec_destroy: FnHandle,
}

/// Resolves the first of `names` the library exports. Later names are fallbacks: the
/// `_v2` entry points come first because the unsuffixed ones keep their old (32-bit
/// size) ABI for binary compatibility.
fn symbol<T: Copy>(lib: &libloading::Library, names: &[&str]) -> Result<T, CudaError> {
    let mut first_error = None;
    for name in names {
        // SAFETY: `T` is the C signature cuda.h declares for `name`; the caller keeps
        // `lib` open for as long as it uses the returned pointer.
        match unsafe { lib.get::<T>(name.as_bytes()) } {
            Ok(sym) => return Ok(*sym),
            Err(e) => {
                first_error.get_or_insert(e.to_string());
            }
        }
    }
    Err(CudaError::MissingSymbol {
        symbol: names[0].to_string(),
        message: first_error.unwrap_or_default(),
    })
}

/// The CUDA driver, loaded at run time, with one device's primary context current on the
/// loading thread.
pub struct Cuda {
    api: Api,
    device: CuDevice,
    /// Kept so `Drop` can say which context it releases; the driver owns it.
    _context: Handle,
    /// Declared last so it is closed after every use of `api` (fields drop in order,
    /// after `Drop::drop`).
    _library: libloading::Library,
}

impl fmt::Debug for Cuda {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Cuda")
            .field("device", &self.device)
            .finish_non_exhaustive()
    }
}

impl Cuda {
    /// Opens the driver and makes device 0's primary context current on this thread.
    pub fn load() -> Result<Cuda, CudaError> {
        Cuda::load_device(0)
    }

    /// Opens the driver and makes device `ordinal`'s primary context current on this
    /// thread (`CUDA_VISIBLE_DEVICES` applies, as for any CUDA program).
    pub fn load_device(ordinal: i32) -> Result<Cuda, CudaError> {
        let library = open_driver()?;
        let init: FnInit = symbol(&library, &["cuInit"])?;
        let device_get: FnDeviceGet = symbol(&library, &["cuDeviceGet"])?;
        let primary_ctx_retain: FnPrimaryCtxRetain =
            symbol(&library, &["cuDevicePrimaryCtxRetain"])?;
        let api = Api {
            tensor_map_encode_tiled: symbol(&library, &["cuTensorMapEncodeTiled"]).ok(),
            device_get_name: symbol(&library, &["cuDeviceGetName"])?,
            device_get_attribute: symbol(&library, &["cuDeviceGetAttribute"])?,
            primary_ctx_release: symbol(
                &library,
                &["cuDevicePrimaryCtxRelease_v2", "cuDevicePrimaryCtxRelease"],
            )?,
            ctx_set_current: symbol(&library, &["cuCtxSetCurrent"])?,
            ctx_synchronize: symbol(&library, &["cuCtxSynchronize"])?,
            mem_alloc: symbol(&library, &["cuMemAlloc_v2"])?,
            mem_free: symbol(&library, &["cuMemFree_v2"])?,
            memcpy_htod: symbol(&library, &["cuMemcpyHtoD_v2"])?,
            memcpy_dtoh: symbol(&library, &["cuMemcpyDtoH_v2"])?,
            memset_d8: symbol(&library, &["cuMemsetD8_v2"])?,
            module_load_data_ex: symbol(&library, &["cuModuleLoadDataEx"])?,
            module_unload: symbol(&library, &["cuModuleUnload"])?,
            module_get_function: symbol(&library, &["cuModuleGetFunction"])?,
            func_set_attribute: symbol(&library, &["cuFuncSetAttribute"])?,
            launch_kernel: symbol(&library, &["cuLaunchKernel"])?,
            event_create: symbol(&library, &["cuEventCreate"])?,
            event_record: symbol(&library, &["cuEventRecord"])?,
            event_synchronize: symbol(&library, &["cuEventSynchronize"])?,
            event_elapsed_time: symbol(&library, &["cuEventElapsedTime"])?,
            event_destroy: symbol(&library, &["cuEventDestroy_v2", "cuEventDestroy"])?,
            get_error_string: symbol(&library, &["cuGetErrorString"])?,
            get_error_name: symbol(&library, &["cuGetErrorName"])?,
            mem_get_info: symbol(&library, &["cuMemGetInfo_v2"])?,
            memcpy_htod_async: symbol(&library, &["cuMemcpyHtoDAsync_v2"])?,
            memcpy_dtoh_async: symbol(&library, &["cuMemcpyDtoHAsync_v2"])?,
            memcpy_dtod_async: symbol(&library, &["cuMemcpyDtoDAsync_v2"])?,
            memset_d8_async: symbol(&library, &["cuMemsetD8Async"])?,
            stream_wait_event: symbol(&library, &["cuStreamWaitEvent"])?,
            stream_create: symbol(&library, &["cuStreamCreate"])?,
            stream_destroy: symbol(&library, &["cuStreamDestroy_v2", "cuStreamDestroy"])?,
            stream_synchronize: symbol(&library, &["cuStreamSynchronize"])?,
            stream_begin_capture: symbol(&library, &["cuStreamBeginCapture_v2"])?,
            stream_end_capture: symbol(&library, &["cuStreamEndCapture"])?,
            graph_instantiate: symbol(&library, &["cuGraphInstantiateWithFlags"])?,
            graph_launch: symbol(&library, &["cuGraphLaunch"])?,
            graph_destroy: symbol(&library, &["cuGraphDestroy"])?,
            graph_exec_destroy: symbol(&library, &["cuGraphExecDestroy"])?,
        };

        // Errors before the context exists are reported with the same wording as later
        // ones; `check` needs only the error-string entry points.
        let check = |call: &'static str, code: CuResult| check_with(&api, call, code);
        // SAFETY: the pointers are the driver's own entry points with cuda.h's signatures;
        // out-pointers point at live locals.
        unsafe {
            check("cuInit", init(0))?;
            let mut device: CuDevice = 0;
            check("cuDeviceGet", device_get(&mut device, ordinal))?;
            let mut context: Handle = std::ptr::null_mut();
            check(
                "cuDevicePrimaryCtxRetain",
                primary_ctx_retain(&mut context, device),
            )?;
            if let Err(e) = check("cuCtxSetCurrent", (api.ctx_set_current)(context)) {
                (api.primary_ctx_release)(device);
                return Err(e);
            }
            Ok(Cuda {
                api,
                device,
                _context: context,
                _library: library,
            })
        }
    }

    /// Makes this device's primary context current on the calling thread (a
    /// thread driving several devices calls it before each device's work).
    pub fn make_current(&self) -> Result<(), CudaError> {
        // SAFETY: the context is retained for as long as `self` lives.
        self.check("cuCtxSetCurrent", unsafe {
            (self.api.ctx_set_current)(self._context)
        })
    }

    /// Turns a driver status into a `Result`, naming the call.
    fn check(&self, call: &'static str, code: CuResult) -> Result<(), CudaError> {
        check_with(&self.api, call, code)
    }

    /// The device's name, e.g. `"NVIDIA H100 80GB HBM3"`.
    pub fn device_name(&self) -> Result<String, CudaError> {
        let mut buf = [0 as c_char; 256];
        // SAFETY: the driver writes at most `len` bytes, NUL-terminated, into `buf`.
        self.check("cuDeviceGetName", unsafe {
            (self.api.device_get_name)(buf.as_mut_ptr(), buf.len() as c_int, self.device)
        })?;
        // SAFETY: the driver NUL-terminated the name within the buffer.
        let name = unsafe { CStr::from_ptr(buf.as_ptr()) };
        Ok(name.to_string_lossy().into_owned())
    }

    /// One integer device attribute (`CU_DEVICE_ATTRIBUTE_*`).
    fn attribute(&self, attribute: c_int) -> Result<i32, CudaError> {
        let mut value: c_int = 0;
        // SAFETY: `value` is a live out-pointer.
        self.check("cuDeviceGetAttribute", unsafe {
            (self.api.device_get_attribute)(&mut value, attribute, self.device)
        })?;
        Ok(value)
    }

    /// The device's compute capability as (major, minor), e.g. (9, 0) for an H100.
    pub fn compute_capability(&self) -> Result<(i32, i32), CudaError> {
        Ok((
            self.attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR)?,
            self.attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)?,
        ))
    }

    /// The most dynamic shared memory per block a kernel may opt in to, in bytes
    /// (227 KiB on an H100).
    pub fn max_shared_per_block_optin(&self) -> Result<u32, CudaError> {
        let v = self.attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)?;
        Ok(u32::try_from(v).unwrap_or(0))
    }

    /// Loads a module from an image: PTX text (JIT-compiled for this device), or a cubin
    /// or fatbin. The JIT's error log is part of the error when compilation fails.
    pub fn load_module(&self, image: &[u8]) -> Result<Module<'_>, CudaError> {
        // The driver reads PTX as a C string: hand it a NUL-terminated copy unless the
        // image already ends in NUL. A trailing NUL is harmless for binary images.
        let owned;
        let image = if image.last() == Some(&0) {
            image
        } else {
            owned = [image, &[0u8]].concat();
            &owned
        };
        let mut log = vec![0u8; JIT_LOG_BYTES];
        let mut options = [CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES];
        // Option values are pointer-sized: the buffer's address, and the buffer's size
        // passed *as* a pointer value (cuda.h's convention for integer options).
        let mut values = [
            log.as_mut_ptr().cast::<c_void>(),
            JIT_LOG_BYTES as *mut c_void,
        ];
        let mut module: Handle = std::ptr::null_mut();
        // SAFETY: `image` is NUL-terminated; `options`/`values` have two entries each and
        // the log buffer outlives the call.
        let code = unsafe {
            (self.api.module_load_data_ex)(
                &mut module,
                image.as_ptr().cast(),
                options.len() as c_uint,
                options.as_mut_ptr(),
                values.as_mut_ptr(),
            )
        };
        if let Err(mut e) = self.check("cuModuleLoadDataEx", code) {
            let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
            let text = String::from_utf8_lossy(&log[..end]).trim().to_string();
            if let CudaError::Call { log, .. } = &mut e
                && !text.is_empty()
            {
                *log = Some(text);
            }
            return Err(e);
        }
        Ok(Module { cuda: self, module })
    }

    /// Allocates `bytes` of device memory (at least one byte, so even an empty buffer
    /// has a valid address). The contents are undefined until written.
    pub fn alloc(&self, bytes: u64) -> Result<DeviceBuffer<'_>, CudaError> {
        let size = usize::try_from(bytes.max(1)).map_err(|_| {
            CudaError::Invalid(format!("cannot allocate {bytes} bytes on this host"))
        })?;
        let mut ptr: CuDevicePtr = 0;
        // SAFETY: `ptr` is a live out-pointer.
        self.check("cuMemAlloc", unsafe {
            (self.api.mem_alloc)(&mut ptr, size)
        })
        .map_err(|e| with_context(e, &format!("while allocating {bytes} bytes")))?;
        Ok(DeviceBuffer {
            cuda: self,
            ptr,
            len: bytes,
        })
    }

    /// The kernel's function handle in module `m`.
    fn function(&self, m: &Module<'_>, name: &str) -> Result<Handle, CudaError> {
        let cname = CString::new(name)
            .map_err(|_| CudaError::Invalid(format!("kernel name {name:?} contains a NUL byte")))?;
        let mut function: Handle = std::ptr::null_mut();
        // SAFETY: `cname` is NUL-terminated and `function` is a live out-pointer.
        let code =
            unsafe { (self.api.module_get_function)(&mut function, m.module, cname.as_ptr()) };
        self.check("cuModuleGetFunction", code)
            .map_err(|e| match e {
                CudaError::Call { code, message, .. } => CudaError::Call {
                    call: "cuModuleGetFunction",
                    code,
                    message: format!("{message}: no kernel named {name:?} in the module"),
                    log: None,
                },
                other => other,
            })?;
        Ok(function)
    }

    /// Checks the arguments against the kernel's params, opts in to large shared memory,
    /// and enqueues the launch on the default stream without waiting for it.
    fn enqueue(
        &self,
        m: &Module<'_>,
        k: &KernelInfo,
        args: &[&DeviceBuffer<'_>],
    ) -> Result<(), CudaError> {
        if args.len() != k.params.len() {
            return Err(CudaError::Invalid(format!(
                "kernel {} takes {} arguments but {} buffers were given",
                k.name,
                k.params.len(),
                args.len()
            )));
        }
        for (i, (arg, param)) in args.iter().zip(&k.params).enumerate() {
            // A smaller buffer would let the kernel read or write past its end.
            if arg.len < param.bytes {
                return Err(CudaError::Invalid(format!(
                    "argument {i} of kernel {} needs {} bytes but its buffer has {}",
                    k.name, param.bytes, arg.len
                )));
            }
        }
        let function = self.kernel_function(m, k)?;
        let pointers: Vec<CuDevicePtr> = args.iter().map(|a| a.ptr).collect();
        // SAFETY: every pointer is a live buffer at least as large as its param.
        unsafe { self.launch_on(function, k, &pointers, None) }
    }

    /// Kernel `k`'s function in module `m`, opted in to the dynamic shared memory it
    /// needs.
    pub(crate) fn kernel_function(
        &self,
        m: &Module<'_>,
        k: &KernelInfo,
    ) -> Result<Function, CudaError> {
        let function = self.function(m, &k.name)?;
        if k.shared_bytes > DEFAULT_SHARED_LIMIT {
            let limit = self.max_shared_per_block_optin()?;
            if k.shared_bytes > limit {
                return Err(CudaError::Invalid(format!(
                    "kernel {} needs {} bytes of shared memory but {} allows {limit}",
                    k.name,
                    k.shared_bytes,
                    self.device_name()?
                )));
            }
            // SAFETY: `function` is a live handle from this context.
            self.check("cuFuncSetAttribute", unsafe {
                (self.api.func_set_attribute)(
                    function,
                    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                    k.shared_bytes as c_int,
                )
            })?;
        }
        Ok(Function(function))
    }

    /// Enqueues kernel `k` on `stream` (the default stream for `None`) with device
    /// addresses `pointers`, one per param.
    ///
    /// # Safety
    /// Each pointer must address live device memory of at least its param's bytes.
    pub(crate) unsafe fn launch_on(
        &self,
        function: Function,
        k: &KernelInfo,
        pointers: &[CuDevicePtr],
        stream: Option<&Stream<'_>>,
    ) -> Result<(), CudaError> {
        let function = function.0;
        // kernelParams is an array of pointers to each argument's value; every argument
        // is a device pointer, so each entry points at one CUdeviceptr.
        let mut pointers = pointers.to_vec();
        let mut maps = self.tensor_maps(k, &pointers)?;
        let mut params: Vec<*mut c_void> = pointers
            .iter_mut()
            .map(|p| (p as *mut CuDevicePtr).cast())
            .collect();
        // Then the tensor maps, each passed by value (128 bytes).
        params.extend(
            maps.iter_mut()
                .map(|m| (m as *mut TensorMap).cast::<c_void>()),
        );
        let [gx, gy, gz] = k.grid;
        let [bx, by, bz] = k.block;
        // SAFETY: `params` has one entry per kernel parameter, each pointing at a live
        // u64; the driver copies them before returning.
        self.check("cuLaunchKernel", unsafe {
            (self.api.launch_kernel)(
                function,
                gx,
                gy,
                gz,
                bx,
                by,
                bz,
                k.shared_bytes,
                stream.map_or(std::ptr::null_mut(), |s| s.0),
                params.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        })
        .map_err(|e| with_context(e, &format!("in kernel {}", k.name)))
    }

    /// The tensor maps kernel `k` takes after its buffers, encoded for
    /// the buffers at `pointers` (see [`crate::bundle::TensorMapInfo`]).
    fn tensor_maps(
        &self,
        k: &KernelInfo,
        pointers: &[CuDevicePtr],
    ) -> Result<Vec<TensorMap>, CudaError> {
        if k.tensor_maps.is_empty() {
            return Ok(Vec::new());
        }
        let encode = self.api.tensor_map_encode_tiled.ok_or_else(|| {
            CudaError::Invalid(format!(
                "kernel {} copies with TMA, but this driver has no cuTensorMapEncodeTiled (CUDA 12 or later)",
                k.name
            ))
        })?;
        let mut out = Vec::with_capacity(k.tensor_maps.len());
        for (j, t) in k.tensor_maps.iter().enumerate() {
            let bad =
                |m: &str| CudaError::Invalid(format!("tensor map {j} of kernel {}: {m}", k.name));
            let ptr = *pointers
                .get(t.buffer as usize)
                .ok_or_else(|| bad("names no buffer of the kernel"))?;
            let data_type = match t.elem_bytes {
                1 => 0, // UINT8
                2 => 1, // UINT16
                4 => 2, // UINT32
                8 => 4, // UINT64
                _ => return Err(bad("elements of 1, 2, 4 or 8 bytes only")),
            };
            let swizzle = match t.swizzle {
                0 => 0,
                32 => 1,
                64 => 2,
                128 => 3,
                _ => return Err(bad("swizzle 0, 32, 64 or 128 bytes only")),
            };
            let dims = [t.shape[1], t.shape[0]];
            let strides = [t.row_stride * u64::from(t.elem_bytes)];
            let boxes = [t.box_shape[1], t.box_shape[0]];
            let steps = [1 as c_uint, 1];
            let mut map = TensorMap([0; 16]);
            // SAFETY: every array has the rank's entries (strides one fewer),
            // `map` is a live 64-byte-aligned CUtensorMap, and `ptr` is a live
            // device buffer holding the tensor (the compiler checked its extent).
            self.check("cuTensorMapEncodeTiled", unsafe {
                encode(
                    &mut map,
                    data_type,
                    2,
                    ptr as *mut c_void,
                    dims.as_ptr(),
                    strides.as_ptr(),
                    boxes.as_ptr(),
                    steps.as_ptr(),
                    0,
                    swizzle,
                    CU_TENSOR_MAP_L2_PROMOTION_L2_128B,
                    0,
                )
            })
            .map_err(|e| with_context(e, &format!("tensor map {j} of kernel {}", k.name)))?;
            out.push(map);
        }
        Ok(out)
    }

    /// Device memory (free, total) in bytes.
    pub fn mem_info(&self) -> Result<(u64, u64), CudaError> {
        let (mut free, mut total) = (0usize, 0usize);
        // SAFETY: both are live out-pointers.
        self.check("cuMemGetInfo", unsafe {
            (self.api.mem_get_info)(&mut free, &mut total)
        })?;
        Ok((free as u64, total as u64))
    }

    /// A new non-blocking stream, destroyed on drop.
    pub fn stream(&self) -> Result<Stream<'_>, CudaError> {
        let mut stream: Handle = std::ptr::null_mut();
        // SAFETY: `stream` is a live out-pointer.
        self.check("cuStreamCreate", unsafe {
            (self.api.stream_create)(&mut stream, CU_STREAM_NON_BLOCKING)
        })?;
        Ok(Stream(stream, self))
    }

    /// Copies `data` to device address `ptr` in stream order.
    ///
    /// # Safety
    /// `ptr` must address at least `data.len()` bytes of live device memory, and `data`
    /// must stay alive until the stream has run the copy.
    pub(crate) unsafe fn upload_async(
        &self,
        ptr: CuDevicePtr,
        data: &[u8],
        stream: &Stream<'_>,
    ) -> Result<(), CudaError> {
        if data.is_empty() {
            return Ok(());
        }
        // SAFETY: the caller guarantees both ranges.
        self.check("cuMemcpyHtoDAsync", unsafe {
            (self.api.memcpy_htod_async)(ptr, data.as_ptr().cast(), data.len(), stream.0)
        })
    }

    /// Copies device bytes at `ptr` into `out` in stream order.
    ///
    /// # Safety
    /// `ptr` must address at least `out.len()` bytes of live device memory, and the
    /// stream must be synchronized before `out` is read or dropped.
    pub(crate) unsafe fn download_async(
        &self,
        ptr: CuDevicePtr,
        out: &mut [u8],
        stream: &Stream<'_>,
    ) -> Result<(), CudaError> {
        if out.is_empty() {
            return Ok(());
        }
        // SAFETY: the caller guarantees both ranges.
        self.check("cuMemcpyDtoHAsync", unsafe {
            (self.api.memcpy_dtoh_async)(out.as_mut_ptr().cast(), ptr, out.len(), stream.0)
        })
    }

    /// Copies `bytes` device bytes from `src` to `dst` in stream order (a
    /// copy node when the stream is capturing).
    ///
    /// # Safety
    /// Both addresses must start `bytes` bytes of live device memory, the
    /// ranges not overlapping.
    pub(crate) unsafe fn copy_async(
        &self,
        dst: CuDevicePtr,
        src: CuDevicePtr,
        bytes: u64,
        stream: &Stream<'_>,
    ) -> Result<(), CudaError> {
        if bytes == 0 {
            return Ok(());
        }
        // SAFETY: the caller guarantees both ranges.
        self.check("cuMemcpyDtoDAsync", unsafe {
            (self.api.memcpy_dtod_async)(dst, src, bytes as usize, stream.0)
        })
    }

    /// Sets `bytes` device bytes at `ptr` to zero in stream order.
    ///
    /// # Safety
    /// `ptr` must start `bytes` bytes of live device memory.
    pub(crate) unsafe fn zero_async(
        &self,
        ptr: CuDevicePtr,
        bytes: u64,
        stream: &Stream<'_>,
    ) -> Result<(), CudaError> {
        if bytes == 0 {
            return Ok(());
        }
        // SAFETY: the caller guarantees the range.
        self.check("cuMemsetD8Async", unsafe {
            (self.api.memset_d8_async)(ptr, 0, bytes as usize, stream.0)
        })
    }

    /// Starts capturing `stream`'s work into a graph instead of running it.
    pub(crate) fn begin_capture(&self, stream: &Stream<'_>) -> Result<(), CudaError> {
        // SAFETY: the stream is live.
        self.check("cuStreamBeginCapture", unsafe {
            (self.api.stream_begin_capture)(stream.0, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL)
        })
    }

    /// Ends the capture `begin_capture` started and instantiates the graph.
    pub(crate) fn end_capture(&self, stream: &Stream<'_>) -> Result<Graph<'_>, CudaError> {
        let mut graph: Handle = std::ptr::null_mut();
        // SAFETY: the stream is capturing; `graph` is a live out-pointer.
        self.check("cuStreamEndCapture", unsafe {
            (self.api.stream_end_capture)(stream.0, &mut graph)
        })?;
        let mut exec: Handle = std::ptr::null_mut();
        // SAFETY: `graph` is the captured graph; `exec` is a live out-pointer.
        let r = self.check("cuGraphInstantiate", unsafe {
            (self.api.graph_instantiate)(&mut exec, graph, 0)
        });
        // SAFETY: the executable graph does not need the graph it came from.
        unsafe { (self.api.graph_destroy)(graph) };
        r?;
        Ok(Graph(exec, self))
    }

    /// Enqueues one replay of `graph` on `stream`.
    pub(crate) fn replay(&self, graph: &Graph<'_>, stream: &Stream<'_>) -> Result<(), CudaError> {
        // SAFETY: both handles are live.
        self.check("cuGraphLaunch", unsafe {
            (self.api.graph_launch)(graph.0, stream.0)
        })
    }

    /// Waits for everything enqueued on `stream`.
    pub(crate) fn sync(&self, stream: &Stream<'_>) -> Result<(), CudaError> {
        // SAFETY: the stream is live.
        self.check("cuStreamSynchronize", unsafe {
            (self.api.stream_synchronize)(stream.0)
        })
    }

    /// Records `event` on `stream`.
    pub(crate) fn record(&self, event: &Event<'_>, stream: &Stream<'_>) -> Result<(), CudaError> {
        // SAFETY: both handles are live.
        self.check("cuEventRecord", unsafe {
            (self.api.event_record)(event.0, stream.0)
        })
    }

    /// Milliseconds between two recorded events (the later one must have completed).
    pub(crate) fn elapsed(&self, start: &Event<'_>, stop: &Event<'_>) -> Result<f64, CudaError> {
        let mut ms: f32 = 0.0;
        // SAFETY: both events are live; `ms` is a live out-pointer.
        self.check("cuEventElapsedTime", unsafe {
            (self.api.event_elapsed_time)(&mut ms, start.0, stop.0)
        })?;
        Ok(f64::from(ms))
    }

    /// Waits for all work in the context, reporting errors from earlier launches.
    pub(crate) fn synchronize(&self) -> Result<(), CudaError> {
        // SAFETY: no arguments; the context is current.
        self.check("cuCtxSynchronize", unsafe { (self.api.ctx_synchronize)() })
    }

    /// Launches kernel `k` of module `m` with `args` (one buffer per param, in order)
    /// and waits for it, so that a fault in the kernel is reported here.
    pub fn launch(
        &self,
        m: &Module<'_>,
        k: &KernelInfo,
        args: &[&DeviceBuffer<'_>],
    ) -> Result<(), CudaError> {
        self.enqueue(m, k, args)?;
        self.synchronize()
            .map_err(|e| with_context(e, &format!("in kernel {}", k.name)))
    }

    /// Runs kernel `k` once on host data: `buffers[i]` holds param `i`'s input bytes
    /// (for params with `output == false`) and receives its output bytes (for params with
    /// `output == true`; resized to the param's size). Outputs start zeroed.
    pub fn run_kernel(
        &self,
        m: &Module<'_>,
        k: &KernelInfo,
        buffers: &mut [Vec<u8>],
    ) -> Result<(), CudaError> {
        if buffers.len() != k.params.len() {
            return Err(CudaError::Invalid(format!(
                "kernel {} takes {} arguments but {} host buffers were given",
                k.name,
                k.params.len(),
                buffers.len()
            )));
        }
        let mut device = Vec::with_capacity(buffers.len());
        for (i, (host, param)) in buffers.iter().zip(&k.params).enumerate() {
            let buffer = self.alloc(param.bytes)?;
            if param.output {
                buffer.zero()?;
            } else {
                if host.len() as u64 != param.bytes {
                    return Err(CudaError::Invalid(format!(
                        "input {i} of kernel {} ({}{:?}) is {} bytes but {} were given",
                        k.name,
                        param.elem,
                        param.shape,
                        param.bytes,
                        host.len()
                    )));
                }
                buffer.upload(host)?;
            }
            device.push(buffer);
        }
        let args: Vec<&DeviceBuffer<'_>> = device.iter().collect();
        self.launch(m, k, &args)?;
        for ((host, param), buffer) in buffers.iter_mut().zip(&k.params).zip(&device) {
            if param.output {
                // `alloc` succeeded for this size, so it fits in usize.
                host.resize(param.bytes as usize, 0);
                buffer.download(host)?;
            }
        }
        Ok(())
    }

    /// Times kernel `k`: `warmup` untimed launches, then `reps` launches each bracketed
    /// by CUDA events. Returns the median milliseconds per launch.
    pub fn time_kernel(
        &self,
        m: &Module<'_>,
        k: &KernelInfo,
        args: &[&DeviceBuffer<'_>],
        warmup: u32,
        reps: u32,
    ) -> Result<f64, CudaError> {
        if reps == 0 {
            return Err(CudaError::Invalid(
                "timing a kernel needs at least one repetition".into(),
            ));
        }
        for _ in 0..warmup {
            self.enqueue(m, k, args)?;
        }
        self.synchronize()
            .map_err(|e| with_context(e, &format!("in kernel {}", k.name)))?;
        let start = self.event()?;
        let stop = self.event()?;
        let mut times = Vec::with_capacity(reps as usize);
        for _ in 0..reps {
            // SAFETY (all four calls): the events are live handles of this context and
            // the null stream is the default stream.
            self.check("cuEventRecord", unsafe {
                (self.api.event_record)(start.0, std::ptr::null_mut())
            })?;
            self.enqueue(m, k, args)?;
            self.check("cuEventRecord", unsafe {
                (self.api.event_record)(stop.0, std::ptr::null_mut())
            })?;
            self.check("cuEventSynchronize", unsafe {
                (self.api.event_synchronize)(stop.0)
            })
            .map_err(|e| with_context(e, &format!("in kernel {}", k.name)))?;
            let mut ms: f32 = 0.0;
            self.check("cuEventElapsedTime", unsafe {
                (self.api.event_elapsed_time)(&mut ms, start.0, stop.0)
            })?;
            times.push(f64::from(ms));
        }
        Ok(median(&mut times))
    }

    /// A new event, destroyed when the guard drops.
    pub(crate) fn event(&self) -> Result<Event<'_>, CudaError> {
        self.event_with(CU_EVENT_DEFAULT)
    }

    fn event_with(&self, flags: u32) -> Result<Event<'_>, CudaError> {
        let mut event: Handle = std::ptr::null_mut();
        // SAFETY: `event` is a live out-pointer.
        self.check("cuEventCreate", unsafe {
            (self.api.event_create)(&mut event, flags)
        })?;
        Ok(Event(event, self))
    }

    /// An event for ordering streams only (no timing, which makes it cheaper).
    pub(crate) fn order_event(&self) -> Result<Event<'_>, CudaError> {
        self.event_with(CU_EVENT_DISABLE_TIMING)
    }

    /// Makes `stream`'s later work wait for the work enqueued so far on
    /// `other` (a `CUstream` handle of this context; 0: the legacy default
    /// stream), through `event`, recorded there, without blocking the host.
    ///
    /// # Safety
    /// `other` must be 0 or a live stream of this context.
    pub(crate) unsafe fn follow_stream(
        &self,
        stream: &Stream<'_>,
        other: u64,
        event: &Event<'_>,
    ) -> Result<(), CudaError> {
        // SAFETY: the event and stream are live; the caller vouches for `other`.
        self.check("cuEventRecord", unsafe {
            (self.api.event_record)(event.0, other as Handle)
        })?;
        // SAFETY: as above.
        self.check("cuStreamWaitEvent", unsafe {
            (self.api.stream_wait_event)(stream.0, event.0, 0)
        })
    }
}

impl Drop for Cuda {
    fn drop(&mut self) {
        // Errors are ignored: nothing can be done about them while dropping, and the
        // process's exit releases the context anyway.
        // SAFETY: this `Cuda` retained the device's primary context once in `load_device`;
        // every module and buffer borrowing it has been dropped already.
        unsafe {
            (self.api.primary_ctx_release)(self.device);
        }
    }
}

/// A loaded module (PTX, cubin or fatbin); unloaded on drop.
pub struct Module<'c> {
    cuda: &'c Cuda,
    module: Handle,
}

impl fmt::Debug for Module<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Module")
            .field("module", &self.module)
            .finish()
    }
}

impl Drop for Module<'_> {
    fn drop(&mut self) {
        // SAFETY: the handle came from cuModuleLoadDataEx in the (still retained) context.
        unsafe {
            (self.cuda.api.module_unload)(self.module);
        }
    }
}

/// A buffer in device memory; freed on drop.
pub struct DeviceBuffer<'c> {
    cuda: &'c Cuda,
    ptr: CuDevicePtr,
    len: u64,
}

impl fmt::Debug for DeviceBuffer<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DeviceBuffer")
            .field("ptr", &format_args!("{:#x}", self.ptr))
            .field("len", &self.len)
            .finish()
    }
}

impl DeviceBuffer<'_> {
    /// The buffer's size in bytes, as requested from [`Cuda::alloc`].
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether the buffer holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The buffer's device address, for passing to other CUDA code.
    pub fn device_ptr(&self) -> u64 {
        self.ptr
    }

    /// Checks that a host slice is exactly as long as the buffer.
    fn same_len(&self, what: &str, host: usize) -> Result<usize, CudaError> {
        if host as u64 != self.len {
            return Err(CudaError::Invalid(format!(
                "cannot {what} {host} bytes: the device buffer has {} bytes",
                self.len
            )));
        }
        Ok(host)
    }

    /// Copies `data` (exactly [`len`](Self::len) bytes) to the buffer, waiting for the copy.
    pub fn upload(&self, data: &[u8]) -> Result<(), CudaError> {
        let n = self.same_len("upload", data.len())?;
        if n == 0 {
            return Ok(());
        }
        // SAFETY: both ranges are `n` bytes long and live.
        self.cuda.check("cuMemcpyHtoD", unsafe {
            (self.cuda.api.memcpy_htod)(self.ptr, data.as_ptr().cast(), n)
        })
    }

    /// Copies the buffer into `out` (exactly [`len`](Self::len) bytes), waiting for the
    /// copy (and so for the kernels that write the buffer).
    pub fn download(&self, out: &mut [u8]) -> Result<(), CudaError> {
        let n = self.same_len("download", out.len())?;
        if n == 0 {
            return Ok(());
        }
        // SAFETY: both ranges are `n` bytes long and live.
        self.cuda.check("cuMemcpyDtoH", unsafe {
            (self.cuda.api.memcpy_dtoh)(out.as_mut_ptr().cast(), self.ptr, n)
        })
    }

    /// Sets every byte of the buffer to zero.
    pub fn zero(&self) -> Result<(), CudaError> {
        // SAFETY: the allocation is at least max(len, 1) bytes.
        self.cuda.check("cuMemsetD8", unsafe {
            (self.cuda.api.memset_d8)(self.ptr, 0, self.len.max(1) as usize)
        })
    }
}

impl Drop for DeviceBuffer<'_> {
    fn drop(&mut self) {
        // SAFETY: the pointer came from cuMemAlloc in the (still retained) context.
        unsafe {
            (self.cuda.api.mem_free)(self.ptr);
        }
    }
}

/// A CUDA event, destroyed on drop.
pub(crate) struct Event<'c>(Handle, &'c Cuda);

/// A kernel's function handle; it lives as long as its module.
#[derive(Clone, Copy)]
pub(crate) struct Function(Handle);

/// A CUDA stream, destroyed on drop (after the work on it completes).
pub struct Stream<'c>(Handle, &'c Cuda);

impl Stream<'_> {
    /// The `CUstream` handle (what NCCL takes as its `cudaStream_t`).
    pub(crate) fn raw(&self) -> Handle {
        self.0
    }
}

impl Drop for Stream<'_> {
    fn drop(&mut self) {
        // SAFETY: the handle came from cuStreamCreate in the (still retained) context.
        unsafe {
            (self.1.api.stream_destroy)(self.0);
        }
    }
}

/// An instantiated CUDA graph (a captured launch sequence), destroyed on drop.
pub struct Graph<'c>(Handle, &'c Cuda);

impl Drop for Graph<'_> {
    fn drop(&mut self) {
        // SAFETY: the handle came from cuGraphInstantiate in the (still retained) context.
        unsafe {
            (self.1.api.graph_exec_destroy)(self.0);
        }
    }
}

impl Drop for Event<'_> {
    fn drop(&mut self) {
        // SAFETY: the handle came from cuEventCreate in the (still retained) context.
        unsafe {
            (self.1.api.event_destroy)(self.0);
        }
    }
}

/// How many CUDA devices this process sees (`CUDA_VISIBLE_DEVICES` applies).
pub fn device_count() -> Result<i32, CudaError> {
    type FnDeviceGetCount = unsafe extern "C" fn(*mut c_int) -> CuResult;
    let library = open_driver()?;
    let init: FnInit = symbol(&library, &["cuInit"])?;
    let count: FnDeviceGetCount = symbol(&library, &["cuDeviceGetCount"])?;
    let mut n: c_int = 0;
    // SAFETY: the driver's entry points with cuda.h's signatures; `n` is a live local.
    let (a, b) = unsafe { (init(0), count(&mut n)) };
    if a != 0 || b != 0 {
        return Err(CudaError::Invalid(format!(
            "the CUDA driver could not count the devices (cuInit {a}, cuDeviceGetCount {b})"
        )));
    }
    Ok(n)
}

/// Opens the driver library under the first name that works.
fn open_driver() -> Result<libloading::Library, CudaError> {
    let mut first_error = None;
    for name in LIBRARY_NAMES {
        // SAFETY: loading the NVIDIA driver runs only its own initialisers.
        match unsafe { libloading::Library::new(name) } {
            Ok(lib) => return Ok(lib),
            Err(e) => {
                first_error.get_or_insert((name, e.to_string()));
            }
        }
    }
    let (library, message) = first_error.unwrap_or((&LIBRARY_NAMES[0], String::new()));
    Err(CudaError::DriverNotFound {
        library: library.to_string(),
        message,
    })
}

/// Turns a driver status into a `Result`: an error names the call and carries the
/// driver's name and description of the code.
fn check_with(api: &Api, call: &'static str, code: CuResult) -> Result<(), CudaError> {
    if code == 0 {
        return Ok(());
    }
    let describe = |f: FnGetErrorString| {
        let mut text: *const c_char = std::ptr::null();
        // SAFETY: the driver stores a pointer to a static string, or fails for an
        // unknown code and leaves it null.
        let ok = unsafe { f(code, &mut text) } == 0 && !text.is_null();
        // SAFETY: on success `text` points at a NUL-terminated static string.
        ok.then(|| {
            unsafe { CStr::from_ptr(text) }
                .to_string_lossy()
                .into_owned()
        })
    };
    let message = match (describe(api.get_error_name), describe(api.get_error_string)) {
        (Some(name), Some(text)) => format!("{name} ({text})"),
        (Some(name), None) => name,
        (None, Some(text)) => format!("error {code} ({text})"),
        (None, None) => format!("unknown CUDA error {code}"),
    };
    Err(CudaError::Call {
        call,
        code,
        message,
        log: None,
    })
}

/// A driver error with `context` (what was being done: the kernel launched,
/// the bytes allocated) after its message.
fn with_context(e: CudaError, context: &str) -> CudaError {
    match e {
        CudaError::Call {
            call,
            code,
            message,
            log,
        } => CudaError::Call {
            call,
            code,
            message: format!("{message} {context}"),
            log,
        },
        other => other,
    }
}

/// The median of `values` (the mean of the middle two for an even count); `values` is
/// sorted in place and must not be empty.
pub fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn load_reports_a_missing_driver_clearly() {
        match Cuda::load() {
            Ok(cuda) => {
                let name = cuda.device_name().unwrap();
                assert!(!name.is_empty());
                let (major, _) = cuda.compute_capability().unwrap();
                assert!(major > 0);
            }
            Err(e @ CudaError::DriverNotFound { .. }) => {
                let msg = e.to_string();
                assert!(msg.contains("libcuda") || msg.contains("nvcuda"), "{msg}");
                assert!(msg.starts_with("CUDA driver not found"), "{msg}");
            }
            // A driver without a usable GPU (e.g. a container without devices) fails in
            // cuInit; the message must still name the call.
            Err(e) => {
                let msg = e.to_string();
                assert!(msg.starts_with("cu"), "{msg}");
            }
        }
    }

    #[test]
    fn call_errors_name_the_call_and_show_the_jit_log() {
        let e = CudaError::Call {
            call: "cuModuleLoadData",
            code: 218,
            message: "CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)".into(),
            log: Some("ptxas application ptx input, line 3; error".into()),
        };
        assert_eq!(
            e.to_string(),
            "cuModuleLoadData: CUDA_ERROR_INVALID_PTX (a PTX JIT compilation failed)\n\
             JIT log:\nptxas application ptx input, line 3; error"
        );
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 3.0, 2.0]), 2.5);
        assert_eq!(median(&mut [7.0]), 7.0);
    }
}
