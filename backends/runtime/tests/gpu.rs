//! The CUDA runtime against a real driver, with hand-written PTX kernels.
//!
//! On a machine without an NVIDIA driver every test returns early (so `cargo test` stays
//! green everywhere); set `AIC_REQUIRE_GPU=1` to make a missing driver a failure, as the
//! GPU machine's runs should.

use aic_runtime::{Bundle, Cuda, CudaError, KernelInfo, Manifest, Param};

/// `c[i] = a[i] + b[i]` over f32, one element per thread.
const VADD: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry vadd(.param .u64 pa, .param .u64 pb, .param .u64 pc)
{
    .reg .b32 %r<5>;
    .reg .b64 %rd<8>;
    .reg .f32 %f<4>;
    ld.param.u64 %rd1, [pa];
    ld.param.u64 %rd2, [pb];
    ld.param.u64 %rd3, [pc];
    cvta.to.global.u64 %rd1, %rd1;
    cvta.to.global.u64 %rd2, %rd2;
    cvta.to.global.u64 %rd3, %rd3;
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mad.lo.s32 %r4, %r1, %r2, %r3;
    mul.wide.s32 %rd4, %r4, 4;
    add.s64 %rd5, %rd1, %rd4;
    add.s64 %rd6, %rd2, %rd4;
    add.s64 %rd7, %rd3, %rd4;
    ld.global.f32 %f1, [%rd5];
    ld.global.f32 %f2, [%rd6];
    add.f32 %f3, %f1, %f2;
    st.global.f32 [%rd7], %f3;
    ret;
}
"#;

/// `c[tid] = a[tid]` through dynamic shared memory at offset 64 KiB, so it only runs
/// when the launch opted in to more than the default 48 KiB.
const SHCOPY: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.extern .shared .align 16 .b8 smem[];

.visible .entry shcopy(.param .u64 pa, .param .u64 pc)
{
    .reg .b32 %r<5>;
    .reg .b64 %rd<7>;
    .reg .f32 %f<3>;
    ld.param.u64 %rd1, [pa];
    ld.param.u64 %rd2, [pc];
    cvta.to.global.u64 %rd1, %rd1;
    cvta.to.global.u64 %rd2, %rd2;
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.f32 %f1, [%rd4];
    mov.u32 %r2, smem;
    shl.b32 %r3, %r1, 2;
    add.u32 %r2, %r2, %r3;
    add.u32 %r2, %r2, 65536;
    st.shared.f32 [%r2], %f1;
    bar.sync 0;
    ld.shared.f32 %f2, [%r2];
    add.s64 %rd5, %rd2, %rd3;
    st.global.f32 [%rd5], %f2;
    ret;
}
"#;

/// The driver, or `None` (test skipped) where there is none and none is required.
fn cuda() -> Option<Cuda> {
    match Cuda::load() {
        Ok(cuda) => Some(cuda),
        Err(e @ CudaError::DriverNotFound { .. })
            if std::env::var_os("AIC_REQUIRE_GPU").is_none() =>
        {
            eprintln!("skipped: {e}");
            None
        }
        Err(e) => panic!("{e}"),
    }
}

fn f32_param(n: i64, output: bool) -> Param {
    Param {
        elem: "f32".into(),
        shape: vec![n],
        bytes: n as u64 * 4,
        output,
    }
}

fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn to_bytes(values: &[f32]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn vadd_kernel(n: u32) -> KernelInfo {
    KernelInfo {
        name: "vadd".into(),
        grid: [n / 128, 1, 1],
        block: [128, 1, 1],
        shared_bytes: 0,
        params: vec![
            f32_param(n.into(), false),
            f32_param(n.into(), false),
            f32_param(n.into(), true),
        ],
        kind: None,
        flops: None,
        tune: None,
        tensor_maps: Vec::new(),
    }
}

#[test]
fn device_facts() {
    let Some(cuda) = cuda() else { return };
    let name = cuda.device_name().unwrap();
    let (major, minor) = cuda.compute_capability().unwrap();
    let shared = cuda.max_shared_per_block_optin().unwrap();
    eprintln!("{name}: sm_{major}{minor}, {shared} bytes of opt-in shared memory");
    assert!(!name.is_empty() && major >= 7 && shared >= 48 * 1024);
}

#[test]
fn run_vadd_from_a_bundle() {
    let Some(cuda) = cuda() else { return };
    let n = 1024u32;
    let bundle = Bundle {
        manifest: Manifest {
            version: 1,
            target: "nvptx".into(),
            arch: "sm_70".into(),
            kernels: vec![vadd_kernel(n)],
            host: String::new(),
            launches: vec![],
            source: String::new(),
            plans: vec![],
        },
        binary: VADD.as_bytes().to_vec(),
    };
    let bundle = Bundle::from_bytes(&bundle.to_bytes()).unwrap();
    let module = cuda.load_module(&bundle.binary).unwrap();
    let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..n).map(|i| 0.5 * i as f32).collect();
    let mut buffers = vec![to_bytes(&a), to_bytes(&b), Vec::new()];
    let k = bundle.manifest.kernel("vadd").unwrap();
    cuda.run_kernel(&module, k, &mut buffers).unwrap();
    let c = floats(&buffers[2]);
    assert_eq!(c.len(), n as usize);
    for i in 0..n as usize {
        assert_eq!(c[i], a[i] + b[i], "element {i}");
    }
}

#[test]
fn time_vadd() {
    let Some(cuda) = cuda() else { return };
    let n = 1 << 20;
    let k = vadd_kernel(n);
    let module = cuda.load_module(VADD.as_bytes()).unwrap();
    let bufs: Vec<_> = k
        .params
        .iter()
        .map(|p| cuda.alloc(p.bytes).unwrap())
        .collect();
    for b in &bufs {
        b.zero().unwrap();
    }
    let args: Vec<_> = bufs.iter().collect();
    let ms = cuda.time_kernel(&module, &k, &args, 3, 11).unwrap();
    eprintln!("vadd over {n} floats: {ms:.4} ms");
    assert!(ms > 0.0 && ms < 100.0, "{ms}");
}

#[test]
fn large_dynamic_shared_memory_opts_in() {
    let Some(cuda) = cuda() else { return };
    let module = cuda.load_module(SHCOPY.as_bytes()).unwrap();
    let mut k = KernelInfo {
        name: "shcopy".into(),
        grid: [1, 1, 1],
        block: [128, 1, 1],
        shared_bytes: 100 * 1024,
        params: vec![f32_param(128, false), f32_param(128, true)],
        kind: None,
        flops: None,
        tune: None,
        tensor_maps: Vec::new(),
    };
    let a: Vec<f32> = (0..128).map(|i| i as f32 * 3.0).collect();
    let mut buffers = vec![to_bytes(&a), Vec::new()];
    cuda.run_kernel(&module, &k, &mut buffers).unwrap();
    assert_eq!(floats(&buffers[1]), a);

    k.shared_bytes = 4 << 20;
    let msg = cuda
        .run_kernel(&module, &k, &mut buffers)
        .unwrap_err()
        .to_string();
    assert!(
        msg.starts_with("kernel shcopy needs 4194304 bytes of shared memory but "),
        "{msg}"
    );
}

#[test]
fn ptx_errors_carry_the_jit_log() {
    let Some(cuda) = cuda() else { return };
    let bad = ".version 7.0\n.target sm_70\n.address_size 64\n\
               .visible .entry bad() { frobnicate.u32 %r1; ret; }\n";
    let e = cuda.load_module(bad.as_bytes()).unwrap_err();
    let msg = e.to_string();
    eprintln!("{msg}");
    assert!(msg.starts_with("cuModuleLoadDataEx: CUDA_ERROR_"), "{msg}");
    assert!(
        matches!(&e, CudaError::Call { log: Some(log), .. } if !log.is_empty()),
        "{msg}"
    );
}

#[test]
fn launch_errors_are_reported() {
    let Some(cuda) = cuda() else { return };
    let module = cuda.load_module(VADD.as_bytes()).unwrap();
    let mut k = vadd_kernel(1024);
    let bufs: Vec<_> = k
        .params
        .iter()
        .map(|p| cuda.alloc(p.bytes).unwrap())
        .collect();
    let args: Vec<_> = bufs.iter().collect();

    // Wrong argument count, caught before the driver sees it.
    let msg = cuda
        .launch(&module, &k, &args[..2])
        .unwrap_err()
        .to_string();
    assert_eq!(
        msg,
        "kernel vadd takes 3 arguments but 2 buffers were given"
    );

    // A block larger than the hardware allows: the driver refuses the launch.
    k.block = [4096, 1, 1];
    let msg = cuda.launch(&module, &k, &args).unwrap_err().to_string();
    assert!(
        msg.starts_with("cuLaunchKernel: CUDA_ERROR_INVALID_VALUE"),
        "{msg}"
    );

    // A kernel the module does not have.
    k.name = "nope".into();
    let msg = cuda.launch(&module, &k, &args).unwrap_err().to_string();
    assert!(
        msg.starts_with("cuModuleGetFunction: CUDA_ERROR_NOT_FOUND"),
        "{msg}"
    );

    // The context is still usable after refused launches.
    let k = vadd_kernel(1024);
    cuda.launch(&module, &k, &args).unwrap();
}

#[test]
fn empty_buffers_are_allocated() {
    let Some(cuda) = cuda() else { return };
    let b = cuda.alloc(0).unwrap();
    assert!(b.is_empty() && b.device_ptr() != 0);
    b.upload(&[]).unwrap();
    b.download(&mut []).unwrap();
    b.zero().unwrap();
    let msg = b.upload(&[1, 2]).unwrap_err().to_string();
    assert_eq!(msg, "cannot upload 2 bytes: the device buffer has 0 bytes");
}

/// A plan of two launches (c = a + b; d = c + a) runs as a captured graph, its
/// intermediate in the arena, and a kept input stays in place across runs.
#[test]
fn run_a_plan_as_a_graph() {
    use aic_runtime::DevicePlan;
    use aic_runtime::plan::{Buffer, Plan, Source, Step};
    let Some(cuda) = cuda() else { return };
    let n = 1024u32;
    let module = cuda.load_module(VADD.as_bytes()).unwrap();
    let k = vadd_kernel(n);
    let buf = |source| Buffer {
        offset: 0,
        bytes: u64::from(n) * 4,
        elem: "f32".into(),
        shape: vec![n.into()],
        source,
    };
    let plan = Plan::new(
        "main".into(),
        vec![
            buf(Source::Input {
                arg: 0,
                kept: false,
            }),
            buf(Source::Input { arg: 1, kept: true }),
            buf(Source::Step),
            buf(Source::Step),
        ],
        vec![
            Step::Launch {
                kernel: "vadd".into(),
                args: vec![0, 1, 2],
            },
            Step::Launch {
                kernel: "vadd".into(),
                args: vec![2, 0, 3],
            },
        ],
        vec![0, 1],
        vec![3],
    )
    .unwrap();
    let mut dp = DevicePlan::new(&cuda, &module, &plan, std::slice::from_ref(&k)).unwrap();
    let a: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..n).map(|i| 0.5 * i as f32).collect();
    let (ab, bb) = (to_bytes(&a), to_bytes(&b));
    dp.upload(&[&ab, &bb], true).unwrap();
    dp.run().unwrap();
    let d = floats(&dp.outputs().unwrap()[0]);
    assert!(d.iter().enumerate().all(|(i, v)| *v == 2.5 * i as f32));
    // A second call passes only `a`; `b` is kept.
    let a2: Vec<f32> = (0..n).map(|_| 1.0).collect();
    let a2b = to_bytes(&a2);
    dp.upload(&[&a2b, &bb], false).unwrap();
    dp.run().unwrap();
    let d = floats(&dp.outputs().unwrap()[0]);
    assert!(
        d.iter()
            .enumerate()
            .all(|(i, v)| *v == 2.0 + 0.5 * i as f32)
    );
    let t = dp.bench(&[&a2b, &bb], 1, 3).unwrap();
    assert_eq!((t.runs.len(), t.launches.len(), t.trace.len()), (3, 2, 2));
}

/// `vadd` and two one-thread `i32` kernels: `ilt` (`c = a < b`) and `iinc`
/// (`c = a + 1`), for plans with loops.
const LOOP_KERNELS: &str = r#"
.version 7.0
.target sm_70
.address_size 64

.visible .entry vadd(.param .u64 pa, .param .u64 pb, .param .u64 pc)
{
    .reg .b32 %r<5>;
    .reg .b64 %rd<8>;
    .reg .f32 %f<4>;
    ld.param.u64 %rd1, [pa];
    ld.param.u64 %rd2, [pb];
    ld.param.u64 %rd3, [pc];
    cvta.to.global.u64 %rd1, %rd1;
    cvta.to.global.u64 %rd2, %rd2;
    cvta.to.global.u64 %rd3, %rd3;
    mov.u32 %r1, %ctaid.x;
    mov.u32 %r2, %ntid.x;
    mov.u32 %r3, %tid.x;
    mad.lo.s32 %r4, %r1, %r2, %r3;
    mul.wide.s32 %rd4, %r4, 4;
    add.s64 %rd5, %rd1, %rd4;
    add.s64 %rd6, %rd2, %rd4;
    add.s64 %rd7, %rd3, %rd4;
    ld.global.f32 %f1, [%rd5];
    ld.global.f32 %f2, [%rd6];
    add.f32 %f3, %f1, %f2;
    st.global.f32 [%rd7], %f3;
    ret;
}

.visible .entry ilt(.param .u64 pa, .param .u64 pb, .param .u64 pc)
{
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [pa];
    ld.param.u64 %rd2, [pb];
    ld.param.u64 %rd3, [pc];
    cvta.to.global.u64 %rd1, %rd1;
    cvta.to.global.u64 %rd2, %rd2;
    cvta.to.global.u64 %rd3, %rd3;
    ld.global.u32 %r1, [%rd1];
    ld.global.u32 %r2, [%rd2];
    setp.lt.s32 %p1, %r1, %r2;
    selp.b32 %r3, 1, 0, %p1;
    st.global.u32 [%rd3], %r3;
    ret;
}

.visible .entry iinc(.param .u64 pa, .param .u64 pc)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [pa];
    ld.param.u64 %rd2, [pc];
    cvta.to.global.u64 %rd1, %rd1;
    cvta.to.global.u64 %rd2, %rd2;
    ld.global.u32 %r1, [%rd1];
    add.s32 %r2, %r1, 1;
    st.global.u32 [%rd2], %r2;
    ret;
}
"#;

/// A one-thread kernel of `ins` `i32` inputs and one `i32` output.
fn i32_kernel(name: &str, ins: usize) -> KernelInfo {
    let int = |output| Param {
        elem: "i32".into(),
        shape: Vec::new(),
        bytes: 4,
        output,
    };
    let mut params = vec![int(false); ins];
    params.push(int(true));
    KernelInfo {
        name: name.into(),
        grid: [1, 1, 1],
        block: [1, 1, 1],
        shared_bytes: 0,
        params,
        kind: None,
        flops: None,
        tune: None,
        tensor_maps: Vec::new(),
    }
}

#[test]
fn run_a_plan_with_a_loop_and_a_choice() {
    // acc = x; for _ in 0..count { acc = acc + x }; then by `count` (0:
    // branch 0, else the last, as an out-of-range case index):
    // chosen = acc + acc or acc + x. Segments replayed as graphs, the loop
    // test and the branch number read back on the host.
    use aic_runtime::DevicePlan;
    use aic_runtime::plan::{Buffer, Plan, Source, Step};
    let Some(cuda) = cuda() else { return };
    let n = 256u32;
    let module = cuda.load_module(LOOP_KERNELS.as_bytes()).unwrap();
    let kernels = [vadd_kernel(n), i32_kernel("ilt", 2), i32_kernel("iinc", 1)];
    let floats_buf = |source| Buffer {
        offset: 0,
        bytes: u64::from(n) * 4,
        elem: "f32".into(),
        shape: vec![n.into()],
        source,
    };
    let int_buf = |source| Buffer {
        offset: 0,
        bytes: 4,
        elem: "i32".into(),
        shape: Vec::new(),
        source,
    };
    let launch = |kernel: &str, args: &[u32]| Step::Launch {
        kernel: kernel.into(),
        args: args.to_vec(),
    };
    let plan = Plan::new(
        "main".into(),
        vec![
            floats_buf(Source::Input {
                arg: 0,
                kept: false,
            }),
            int_buf(Source::Input {
                arg: 1,
                kept: false,
            }),
            int_buf(Source::Constant {
                hex: "00000000".into(),
            }),
            int_buf(Source::Step),
            floats_buf(Source::Step),
            int_buf(Source::Step),
            int_buf(Source::Step),
            floats_buf(Source::Step),
            floats_buf(Source::Step),
            floats_buf(Source::Step),
            floats_buf(Source::Step),
        ],
        vec![
            Step::Copy { from: 2, to: 3 },
            Step::Copy { from: 0, to: 4 },
            Step::While {
                cond: vec![launch("ilt", &[3, 1, 5])],
                pred: 5,
                body: vec![
                    launch("iinc", &[3, 6]),
                    launch("vadd", &[4, 0, 7]),
                    Step::Copy { from: 6, to: 3 },
                    Step::Copy { from: 7, to: 4 },
                ],
            },
            Step::Case {
                index: 1,
                branches: vec![
                    vec![launch("vadd", &[4, 4, 8]), Step::Copy { from: 8, to: 9 }],
                    vec![launch("vadd", &[4, 0, 10]), Step::Copy { from: 10, to: 9 }],
                ],
            },
        ],
        vec![0, 1],
        vec![4, 3, 9],
    )
    .unwrap();
    let mut dp = DevicePlan::new(&cuda, &module, &plan, &kernels).unwrap();
    let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let xb = to_bytes(&x);
    for count in [3i32, 0, 1, -2, 5] {
        let cb = count.to_le_bytes();
        dp.upload(&[&xb, &cb], true).unwrap();
        dp.run().unwrap();
        let outs = dp.outputs().unwrap();
        let trips = count.max(0);
        let acc = floats(&outs[0]);
        assert!(
            acc.iter()
                .enumerate()
                .all(|(i, v)| *v == (trips + 1) as f32 * i as f32),
            "count {count}"
        );
        assert_eq!(i32::from_le_bytes(outs[1][..4].try_into().unwrap()), trips);
        let chosen = floats(&outs[2]);
        let want = |i: usize| {
            let a = (trips + 1) as f32 * i as f32;
            if count == 0 { a + a } else { a + i as f32 }
        };
        assert!(
            chosen.iter().enumerate().all(|(i, v)| *v == want(i)),
            "count {count}"
        );
    }
    // Timing follows the control flow: every launch of the plan has a time.
    let cb = 2i32.to_le_bytes();
    let t = dp.bench(&[&xb, &cb], 1, 3).unwrap();
    assert_eq!((t.runs.len(), t.launches.len(), t.trace.len()), (3, 5, 5));
}
