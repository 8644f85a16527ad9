//! aic-llvm's tests, all in one binary (it links libLLVM): host JIT runs
//! against the reference interpreter, PTX and AMDGPU code objects checked
//! with LLVM 22's own tools, and the errors users see.

use aic::float::FloatKind;
use aic::interp::{Elem, Interp, Tensor};
use aic::syntax::parse_module;
use aic::verifier::verify;
use aic::{Context, Op, SourceMap, Type};
use aic_llvm::{Emit, HostModule, Target, compile};
use std::path::Path;
use std::process::Command;
use std::sync::Arc;

const LLVM_BIN: &str = "/usr/lib/llvm-22/bin";

/// The doubling kernel of lit_tests/gpu/ops.mlir: two blocks of one thread,
/// each doubling its half through shared memory.
const DOUBLE: &str = r#"
gpu.kernel @double grid = [2, 1, 1] block = [1, 1, 1] shared = 16 {
^bb0(%x: memref<8xf32>, %y: memref<8xf32>):
  %b = gpu.block_id x
  %t = gpu.thread_id x
  %s = gpu.shared offset = 0 : memref<4xf32, #gpu.address_space<workgroup>>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %base = arith.muli %b, %c4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %at = arith.addi %base, %i : index
    %v = memref.load %x[%at] : memref<8xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %s[%i] : memref<4xf32, #gpu.address_space<workgroup>>
  }
  gpu.barrier
  scf.for %i = %c0 to %c4 step %c1 {
    %at = arith.addi %base, %i : index
    %v = memref.load %s[%i] : memref<4xf32, #gpu.address_space<workgroup>>
    memref.store %v, %y[%at] : memref<8xf32>
  }
  gpu.return
}
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {
  %r = gpu.launch @double(%a) : (tensor<8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}
"#;

/// Four threads per block: each puts its element in shared memory, and after
/// the barrier takes its right neighbour's ((t + 1) % 4).
const ROTATE: &str = r#"
gpu.kernel @rotate grid = [3, 1, 1] block = [4, 1, 1] shared = 16 {
^bb0(%x: memref<12xf32>, %y: memref<12xf32>):
  %b = gpu.block_id x
  %t = gpu.thread_id x
  %s = gpu.shared offset = 0 : memref<4xf32, #gpu.address_space<workgroup>>
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %base = arith.muli %b, %c4 : index
  %at = arith.addi %base, %t : index
  %v = memref.load %x[%at] : memref<12xf32>
  memref.store %v, %s[%t] : memref<4xf32, #gpu.address_space<workgroup>>
  gpu.barrier
  %t1 = arith.addi %t, %c1 : index
  %n = arith.remui %t1, %c4 : index
  %w = memref.load %s[%n] : memref<4xf32, #gpu.address_space<workgroup>>
  memref.store %w, %y[%at] : memref<12xf32>
  gpu.return
}
"#;

/// A bit of everything, one thread per block (so the interpreter runs it):
/// per row, a sum over scf.for with iter_args of an scf.if with results,
/// f16 in and out, math functions, a private array, integer ops and i1.
const MIXED: &str = r#"
gpu.kernel @mixed grid = [4, 1, 1] block = [1, 1, 1] shared = 0 {
^bb0(%x: memref<32xf16>, %y: memref<32xf32>, %n: memref<4xi32>, %o: memref<32xf16>, %s: memref<4xf32>, %s2: memref<4xf32>, %c: memref<4xi32>, %flag: memref<4xi1>):
  %row = gpu.block_id x
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 1.5 : f32
  %base = arith.muli %row, %c8 : index
  %acc = memref.alloca() : memref<8xf32>
  %sum = scf.for %i = %c0 to %c8 step %c1 iter_args(%a = %zero) -> (f32) {
    %at = arith.addi %base, %i : index
    %h = memref.load %x[%at] : memref<32xf16>
    %v = arith.extf %h : f16 to f32
    %w = memref.load %y[%at] : memref<32xf32>
    %pos = arith.cmpf ogt, %v, %zero : f32
    %r = scf.if %pos -> (f32) {
      %e = math.exp %v : f32
      %t = math.tanh %w : f32
      %m = arith.mulf %e, %t : f32
      scf.yield %m : f32
    } else {
      %er = math.erf %v : f32
      %aw = math.absf %w : f32
      %sq = math.sqrt %aw : f32
      %m = arith.addf %er, %sq : f32
      scf.yield %m : f32
    }
    memref.store %r, %acc[%i] : memref<8xf32>
    %rh = arith.truncf %r : f32 to f16
    memref.store %rh, %o[%at] : memref<32xf16>
    %a2 = arith.addf %a, %r : f32
    scf.yield %a2 : f32
  }
  memref.store %sum, %s[%row] : memref<4xf32>
  %first = memref.load %acc[%c0] : memref<8xf32>
  %abs = math.absf %sum : f32
  %l1 = arith.addf %abs, %one : f32
  %lg = math.log %l1 : f32
  %p = math.powf %l1, %half : f32
  %q = arith.divf %p, %lg : f32
  %q2 = arith.subf %q, %first : f32
  memref.store %q2, %s2[%row] : memref<4xf32>
  %nv = memref.load %n[%row] : memref<4xi32>
  %i3 = arith.constant 3 : i32
  %i0 = arith.constant 0 : i32
  %i2 = arith.constant 2 : i32
  %dq = arith.divsi %nv, %i3 : i32
  %rm = arith.remsi %nv, %i3 : i32
  %sh = arith.shli %dq, %i2 : i32
  %big = arith.cmpi sgt, %nv, %i0 : i32
  %sel = arith.select %big, %sh, %rm : i32
  %mx = arith.maxsi %sel, %rm : i32
  %xo = arith.xori %mx, %nv : i32
  %ix = arith.index_cast %xo : i32 to index
  %ix2 = arith.addi %ix, %row : index
  %back = arith.index_cast %ix2 : index to i32
  %fl = arith.sitofp %back : i32 to f32
  %fl2 = arith.mulf %fl, %half : f32
  %fi = arith.fptosi %fl2 : f32 to i32
  memref.store %fi, %c[%row] : memref<4xi32>
  %neg = arith.cmpf olt, %sum, %zero : f32
  %odd = arith.trunci %nv : i32 to i1
  %both = arith.xori %neg, %odd : i1
  memref.store %both, %flag[%row] : memref<4xi1>
  gpu.return
}
func.func @main(%x: tensor<32xf16>, %y: tensor<32xf32>, %n: tensor<4xi32>) -> (tensor<32xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi1>) {
  %o, %s, %s2, %c, %f = gpu.launch @mixed(%x, %y, %n) : (tensor<32xf16>, tensor<32xf32>, tensor<4xi32>) -> (tensor<32xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi1>)
  return %o, %s, %s2, %c, %f : tensor<32xf16>, tensor<4xf32>, tensor<4xf32>, tensor<4xi32>, tensor<4xi1>
}
"#;

/// A kernel of the math functions on GPUs, for the PTX and code-object checks.
const MATH: &str = r#"
gpu.kernel @math_fns grid = [2, 1, 1] block = [64, 1, 1] shared = 0 {
^bb0(%x: memref<128xf32>, %h: memref<128xbf16>, %y: memref<128xf32>):
  %b = gpu.block_id x
  %t = gpu.thread_id x
  %c64 = arith.constant 64 : index
  %base = arith.muli %b, %c64 : index
  %at = arith.addi %base, %t : index
  %v = memref.load %x[%at] : memref<128xf32>
  %hv = memref.load %h[%at] : memref<128xbf16>
  %e = math.exp %v : f32
  %e2 = math.exp2 %v : f32
  %l = math.log %e : f32
  %l2 = math.log2 %e2 : f32
  %l10 = math.log10 %e : f32
  %lp = math.log1p %v : f32
  %em = math.expm1 %v : f32
  %th = math.tanh %v : f32
  %er = math.erf %v : f32
  %pw = math.powf %e, %v : f32
  %sn = math.sin %v : f32
  %cs = math.cos %v : f32
  %rs = math.rsqrt %e : f32
  %fm = math.fma %v, %v, %e : f32
  %hb = math.tanh %hv : bf16
  %hf = arith.extf %hb : bf16 to f32
  %a1 = arith.addf %e, %e2 : f32
  %a2 = arith.addf %a1, %l : f32
  %a3 = arith.addf %a2, %l2 : f32
  %a4 = arith.addf %a3, %l10 : f32
  %a5 = arith.addf %a4, %lp : f32
  %a6 = arith.addf %a5, %em : f32
  %a7 = arith.addf %a6, %th : f32
  %a8 = arith.addf %a7, %er : f32
  %a9 = arith.addf %a8, %pw : f32
  %a10 = arith.addf %a9, %sn : f32
  %a11 = arith.addf %a10, %cs : f32
  %a12 = arith.addf %a11, %rs : f32
  %a13 = arith.addf %a12, %fm : f32
  %a14 = arith.maximumf %a13, %hf : f32
  memref.store %a14, %y[%at] : memref<128xf32>
  gpu.return
}
"#;

fn parse(text: &str) -> (Context, Op) {
    let mut ctx = Context::new(Arc::new(aic_dialects::all_dialects()));
    ctx.allow_unregistered = true;
    let mut sm = SourceMap::new();
    let f = sm.add("test.mlir", text.to_string());
    let m = match parse_module(&mut ctx, &sm, f).and_then(|m| verify(&ctx, m).map(|()| m)) {
        Ok(m) => m,
        Err(d) => panic!("{}", sm.render(ctx.uniquer(), &d)),
    };
    (ctx, m)
}

fn func(ctx: &Context, m: Op, name: &str) -> Op {
    let body = ctx.entry_block(ctx.regions(m)[0]).expect("module body");
    ctx.block_ops(body)
        .find(|o| aic::symbol::symbol_name(ctx, *o) == Some(name))
        .unwrap_or_else(|| panic!("no @{name}"))
}

fn arg_types(ctx: &Context, f: Op) -> Vec<Type> {
    aic_dialects::func::function_type(ctx, f).expect("a func").0
}

/// Runs `@main` of the module in the reference interpreter.
/// Runs `@main` in the interpreter on `inputs` (element values, stored as
/// each argument's element type).
fn interpret(ctx: &Context, m: Op, inputs: Vec<Vec<f64>>) -> Vec<Tensor> {
    let f = func(ctx, m, "main");
    let args = arg_types(ctx, f)
        .into_iter()
        .zip(inputs)
        .map(|(t, d)| match Elem::of(ctx.uniquer(), t) {
            Some(Elem::Float(_)) => Tensor::from_f64s(ctx.uniquer(), t, d),
            _ => Tensor::from_i64s(ctx.uniquer(), t, d.into_iter().map(|v| v as i64)),
        })
        .collect();
    Interp::new(ctx)
        .call(f, args)
        .unwrap_or_else(|e| panic!("interpreter: {}", e.message))
}

fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

fn bytes_f32(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// A small deterministic generator (xorshift64*): the tests need no crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn uniform(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()) + 1e-30 || (a.is_nan() && b.is_nan())
}

#[test]
fn double_on_the_host_matches_the_interpreter() {
    let (ctx, m) = parse(DOUBLE);
    let input: Vec<f32> = (1..=8).map(|i| i as f32).collect();
    let hm = HostModule::new(&ctx, m).expect("compiles for the host");
    let mut x = f32_bytes(&input);
    let mut y = vec![0u8; 32];
    hm.run("double", &mut [&mut x, &mut y]).expect("runs");
    let got = bytes_f32(&y);
    let want: Vec<f32> = input.iter().map(|v| v * 2.0).collect();
    assert_eq!(got, want);
    let r = interpret(&ctx, m, vec![input.iter().map(|v| f64::from(*v)).collect()]);
    let interp: Vec<f32> = r[0].to_f64s().iter().map(|v| *v as f32).collect();
    assert_eq!(got, interp);
    let k: Vec<_> = hm.kernels().collect();
    assert_eq!(k.len(), 1);
    assert_eq!(
        (k[0].grid, k[0].block, k[0].shared),
        ([2, 1, 1], [1, 1, 1], 16)
    );
}

/// Runs kernel `entry` of `src` (one input and one output of `n` f32)
/// on `rounds` inputs, element `i` of round `r` being `x(i, r)`, and
/// checks each output against `want` of its input.
fn check_rounds(
    src: &str,
    entry: &str,
    n: usize,
    rounds: usize,
    x: impl Fn(usize, usize) -> f32,
    want: impl Fn(&[f32]) -> Vec<f32>,
) {
    let (ctx, m) = parse(src);
    let hm = HostModule::new(&ctx, m).expect("compiles for the host");
    for round in 0..rounds {
        let input: Vec<f32> = (0..n).map(|i| x(i, round)).collect();
        let mut xb = f32_bytes(&input);
        let mut y = vec![0u8; 4 * n];
        hm.run(entry, &mut [&mut xb, &mut y]).expect("runs");
        assert_eq!(bytes_f32(&y), want(&input), "round {round}");
    }
}

#[test]
fn threads_of_a_block_meet_at_barriers_on_the_host() {
    check_rounds(
        ROTATE,
        "rotate",
        12,
        20,
        |i, r| (i * 10 + r) as f32,
        |input| {
            (0..12)
                .map(|i| input[i / 4 * 4 + (i % 4 + 1) % 4])
                .collect()
        },
    );
}

/// lit_tests/nvvm/warp_specialization.mlir's kernel: its first warpgroup
/// reverses x through shared memory between named-barrier meetings; its
/// second gives its registers back and ends before the block barrier.
const WARP_SPECIALIZED: &str = include_str!("../../../lit_tests/nvvm/warp_specialization.mlir");

#[test]
fn named_barriers_and_ended_threads_on_the_host() {
    check_rounds(
        WARP_SPECIALIZED,
        "ws",
        128,
        10,
        |i, r| (i * 3 + r) as f32,
        |input| input.iter().rev().copied().collect(),
    );
}

/// Two warpgroups taking turns through named barriers, one arriving
/// without waiting (`nvvm.barrier.arrive`), the other waiting: the second
/// reads what the first wrote before its arrival.
#[test]
fn named_barrier_arrivals_order_warpgroups_on_the_host() {
    check_rounds(
        WARP_SPECIALIZED,
        "turns",
        128,
        10,
        |i, r| (i * 5 + r) as f32,
        |input| input.iter().map(|v| v + 7.0).collect(),
    );
}

#[test]
fn host_run_checks_its_buffers() {
    let (ctx, m) = parse(ROTATE);
    let hm = HostModule::new(&ctx, m).expect("compiles for the host");
    let mut x = vec![0u8; 48];
    let mut small = vec![0u8; 47];
    let e = hm.run("rotate", &mut [&mut x, &mut small]).unwrap_err();
    assert!(e.contains("buffer 1 has 47 bytes but needs 48"), "{e}");
    let e = hm.run("rotate", &mut [&mut x]).unwrap_err();
    assert!(e.contains("takes 2 buffers, 1 given"), "{e}");
    let e = hm.run("nope", &mut []).unwrap_err();
    assert!(e.contains("no kernel @nope") && e.contains("rotate"), "{e}");
}

#[test]
fn mixed_kernel_on_the_host_matches_the_interpreter() {
    let (ctx, m) = parse(MIXED);
    let hm = HostModule::new(&ctx, m).expect("compiles for the host");
    let f16 = FloatKind::F16;
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..8 {
        let xs: Vec<f64> = (0..32)
            .map(|_| f16.to_f64(f16.from_f64(rng.uniform(-2.0, 2.0))))
            .collect();
        let ys: Vec<f32> = (0..32).map(|_| rng.uniform(-3.0, 3.0) as f32).collect();
        let ns: Vec<i32> = (0..4).map(|_| (rng.next() % 101) as i32 - 50).collect();
        let mut xb: Vec<u8> = xs
            .iter()
            .flat_map(|v| (f16.from_f64(*v) as u16).to_le_bytes())
            .collect();
        let mut yb = f32_bytes(&ys);
        let mut nb: Vec<u8> = ns.iter().flat_map(|v| v.to_le_bytes()).collect();
        let (mut o, mut s, mut s2, mut c, mut flag) = (
            vec![0u8; 64],
            vec![0u8; 16],
            vec![0u8; 16],
            vec![0u8; 16],
            vec![0u8; 4],
        );
        hm.run(
            "mixed",
            &mut [
                &mut xb, &mut yb, &mut nb, &mut o, &mut s, &mut s2, &mut c, &mut flag,
            ],
        )
        .expect("runs");
        let want = interpret(
            &ctx,
            m,
            vec![
                xs.clone(),
                ys.iter().map(|v| f64::from(*v)).collect(),
                ns.iter().map(|v| f64::from(*v)).collect(),
            ],
        );
        let o: Vec<f64> = o
            .chunks_exact(2)
            .map(|b| f16.to_f64(u128::from(u16::from_le_bytes([b[0], b[1]]))))
            .collect();
        for (i, (g, w)) in o.iter().zip(want[0].to_f64s()).enumerate() {
            // One f16 unit apart at most: the f32 values may differ in the last bit.
            assert!(
                close(*g, w, 1e-3),
                "round {round}: o[{i}] = {g}, interpreter {w}"
            );
        }
        for (name, got, w) in [("s", &s, &want[1]), ("s2", &s2, &want[2])] {
            for (i, (g, w)) in bytes_f32(got).iter().zip(w.to_f64s()).enumerate() {
                assert!(
                    close(f64::from(*g), w, 1e-5),
                    "round {round}: {name}[{i}] = {g}, interpreter {w}"
                );
            }
        }
        let c: Vec<i64> = c
            .chunks_exact(4)
            .map(|b| i64::from(i32::from_le_bytes(b.try_into().unwrap())))
            .collect();
        assert_eq!(c, want[3].to_i64s(), "round {round}: c");
        // The interpreter holds i1 true as -1; buffers hold a byte 0 or 1.
        let flags: Vec<i64> = flag.iter().map(|b| i64::from(*b)).collect();
        let want_flags: Vec<i64> = want[4]
            .to_i64s()
            .iter()
            .map(|v| i64::from(*v != 0))
            .collect();
        assert_eq!(flags, want_flags, "round {round}: flag");
    }
}

fn tmp(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("aic-llvm-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).expect("temp dir");
    d.join(name)
}

#[test]
fn nvptx_emits_ptx_that_llc_accepts() {
    for arch in ["sm_80", "sm_90"] {
        let target = Target::parse("nvptx", Some(arch)).expect("a known arch");
        for (text, name) in [
            (DOUBLE, "double"),
            (ROTATE, "rotate"),
            (MIXED, "mixed"),
            (MATH, "math_fns"),
        ] {
            let (ctx, m) = parse(text);
            let ptx = compile(&ctx, m, &target, Emit::Asm)
                .unwrap_or_else(|e| panic!("{name} for {arch}: {e}"));
            let ptx = String::from_utf8(ptx).expect("PTX is text");
            assert!(ptx.contains(&format!(".entry {name}")), "{name}: {ptx}");
            assert!(ptx.contains(&format!(".target {arch}")), "{ptx}");
            if name == "double" || name == "rotate" {
                assert!(
                    ptx.contains(".extern .shared .align 1024 .b8 aic_shared[]"),
                    "{ptx}"
                );
            }
            if name == "rotate" {
                assert!(ptx.contains("bar.sync") || ptx.contains("barrier"), "{ptx}");
                assert!(ptx.contains(".reqntid 4, 1, 1"), "{ptx}");
            }
            let ir = compile(&ctx, m, &target, Emit::LlvmIr).expect("LLVM IR");
            let ll = tmp(&format!("{name}-{arch}.ll"));
            std::fs::write(&ll, &ir).expect("write IR");
            let llc = Path::new(LLVM_BIN).join("llc");
            if llc.is_file() {
                let out = Command::new(&llc)
                    .args(["-march=nvptx64", "-mcpu=sm_90", "-o", "/dev/null"])
                    .arg(&ll)
                    .output()
                    .expect("llc runs");
                assert!(
                    out.status.success(),
                    "llc rejects {name}: {}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
        }
    }
}

#[test]
fn nvptx_has_no_object_output() {
    let (ctx, m) = parse(DOUBLE);
    let t = Target::parse("nvptx", None).expect("default arch");
    assert_eq!(t.arch(), "sm_90");
    let e = compile(&ctx, m, &t, Emit::Obj).unwrap_err();
    assert!(e.contains("nvptx has no object output"), "{e}");
}

#[test]
fn amdgpu_code_objects_list_their_kernels() {
    let readelf = Path::new(LLVM_BIN).join("llvm-readelf");
    for arch in ["gfx90a", "gfx942"] {
        let target = Target::parse("amdgpu", Some(arch)).expect("a known arch");
        for (text, name, lds) in [
            (DOUBLE, "double", None),
            (ROTATE, "rotate", Some(16)),
            (MIXED, "mixed", None),
            (MATH, "math_fns", None),
        ] {
            let (ctx, m) = parse(text);
            let hsaco = compile(&ctx, m, &target, Emit::Obj)
                .unwrap_or_else(|e| panic!("{name} for {arch}: {e}"));
            assert_eq!(&hsaco[..4], b"\x7fELF");
            if !readelf.is_file() {
                continue;
            }
            let path = tmp(&format!("{name}-{arch}.hsaco"));
            std::fs::write(&path, &hsaco).expect("write code object");
            let out = Command::new(&readelf)
                .arg("--notes")
                .arg(&path)
                .output()
                .expect("llvm-readelf runs");
            let notes = String::from_utf8_lossy(&out.stdout);
            assert!(notes.contains("amdhsa.kernels"), "{notes}");
            assert!(
                notes.contains(&format!(".name:           {name}")),
                "{notes}"
            );
            assert!(
                notes.contains(&format!("amdgcn-amd-amdhsa--{arch}")),
                "{notes}"
            );
            if let Some(lds) = lds {
                assert!(
                    notes.contains(&format!(".group_segment_fixed_size: {lds}")),
                    "{notes}"
                );
            }
        }
        // A workgroup of one wavefront needs no s_barrier (LLVM drops it for
        // ROTATE's 4 threads); two wavefronts do.
        let (ctx, m) = parse(&ROTATE.replace("block = [4, 1, 1]", "block = [128, 1, 1]"));
        let asm = compile(&ctx, m, &target, Emit::Asm).expect("assembly");
        let asm = String::from_utf8_lossy(&asm);
        assert!(asm.contains("s_barrier"), "{asm}");
    }
}

#[test]
fn host_emits_assembly_objects_and_ir() {
    let (ctx, m) = parse(ROTATE);
    let ir = compile(&ctx, m, &Target::Host, Emit::LlvmIr).expect("IR");
    let ir = String::from_utf8(ir).expect("text");
    assert!(ir.contains("define void @rotate.grid(ptr"), "{ir}");
    assert!(ir.contains("@aic_host_barrier"), "{ir}");
    let obj = compile(&ctx, m, &Target::Host, Emit::Obj).expect("object");
    assert!(!obj.is_empty());
    let asm = compile(&ctx, m, &Target::Host, Emit::Asm).expect("assembly");
    assert!(String::from_utf8_lossy(&asm).contains("rotate.grid"));
}

#[test]
fn targets_parse_or_say_what_is_supported() {
    assert_eq!(
        Target::parse("amdgpu", None),
        Ok(Target::Amdgpu {
            arch: "gfx942".into()
        })
    );
    assert_eq!(Target::parse("host", Some("native")), Ok(Target::Host));
    assert_eq!(
        Target::parse("nvptx", Some("sm_10")).unwrap_err(),
        "unsupported arch 'sm_10' for nvptx: expected one of sm_80, sm_86, sm_89, sm_90, sm_90a"
    );
    assert_eq!(
        Target::parse("amdgpu", Some("gfx1100")).unwrap_err(),
        "unsupported arch 'gfx1100' for amdgpu: expected one of gfx90a, gfx942"
    );
    assert_eq!(
        Target::parse("tpu", None).unwrap_err(),
        "unsupported target 'tpu': expected one of nvptx, amdgpu, host"
    );
    let t = Target::parse("nvptx", Some("sm_80")).unwrap();
    assert_eq!(
        (t.name(), t.arch(), t.max_shared_bytes()),
        ("nvptx", "sm_80", 166_912)
    );
    assert_eq!(
        Target::parse("nvptx", Some("sm_90a"))
            .unwrap()
            .max_shared_bytes(),
        232_448
    );
    assert_eq!(
        Target::parse("amdgpu", None).unwrap().max_shared_bytes(),
        65_536
    );
}

#[test]
fn unknown_ops_and_unsupported_kernels_are_errors() {
    let text = r#"
gpu.kernel @odd grid = [1, 1, 1] block = [1, 1, 1] shared = 0 {
^bb0(%x: memref<4xf32>):
  %v = "test.unknown"() : () -> f32
  gpu.return
}
"#;
    let (ctx, m) = parse(text);
    for t in [
        Target::Host,
        Target::parse("nvptx", None).unwrap(),
        Target::parse("amdgpu", None).unwrap(),
    ] {
        let e = compile(&ctx, m, &t, Emit::LlvmIr).unwrap_err();
        assert!(
            e.starts_with(
                "aic-llvm: cannot translate 'test.unknown' in kernel @odd (at test.mlir:4:"
            ),
            "{e}"
        );
    }
    let e = HostModule::new(&ctx, m).err().expect("an error");
    assert!(e.contains("cannot translate 'test.unknown'"), "{e}");

    let big = DOUBLE.replace("shared = 16", "shared = 70000");
    let (ctx, m) = parse(&big);
    let e = compile(&ctx, m, &Target::parse("amdgpu", None).unwrap(), Emit::Obj).unwrap_err();
    assert!(
        e.contains(
            "kernel @double: needs 70000 bytes of shared memory but gfx942 allows at most 65536"
        ),
        "{e}"
    );

    let wide = ROTATE.replace("block = [4, 1, 1]", "block = [2, 2, 1]");
    let (ctx, m) = parse(&wide);
    let e = HostModule::new(&ctx, m).err().expect("an error");
    assert!(
        e.contains("the host runs blocks of threads along x only"),
        "{e}"
    );

    let f64_exp = r#"
gpu.kernel @dexp grid = [1, 1, 1] block = [1, 1, 1] shared = 0 {
^bb0(%x: memref<4xf64>):
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<4xf64>
  %e = math.exp %v : f64
  memref.store %e, %x[%c0] : memref<4xf64>
  gpu.return
}
"#;
    let (ctx, m) = parse(f64_exp);
    let e = compile(&ctx, m, &Target::parse("nvptx", None).unwrap(), Emit::Asm).unwrap_err();
    assert!(
        e.contains("math.exp on f64 is not supported for nvptx"),
        "{e}"
    );
    // The host has the C library.
    let hm = HostModule::new(&ctx, m).expect("f64 exp on the host");
    let mut x: Vec<u8> = [1.0f64, 0.0, 0.0, 0.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    hm.run("dexp", &mut [&mut x]).expect("runs");
    assert_eq!(
        f64::from_le_bytes(x[..8].try_into().unwrap()),
        std::f64::consts::E
    );
}

/// The emission table: one row per op, each naming an op the dialects
/// register, with an op of each translating module among them.
#[test]
fn emission_table_rows_name_registered_ops_once() {
    let reg = aic_dialects::all_dialects();
    let names = aic_llvm::translated_ops();
    let mut seen = std::collections::HashSet::new();
    for n in &names {
        assert!(reg.op(n).is_some(), "row for unregistered op '{n}'");
        assert!(seen.insert(*n), "two rows for '{n}'");
    }
    for n in [
        "arith.addi",
        "arith.cmpf",
        "math.powf",
        "gpu.shuffle",
        "amdgpu.mfma",
    ] {
        assert!(seen.contains(n), "no row for '{n}'");
    }
}

/// Every byte of fp8 format `t`: decoded to f32 and to f16/bf16 (`d`, `h`,
/// `g`), re-encoded from the f32 and from the bf16 (`r`, `rb`); and `n` f32
/// values encoded (`e`).
fn fp8_kernel(t: &str, n: usize) -> String {
    format!(
        r#"
gpu.kernel @bytes grid = [1, 1, 1] block = [1, 1, 1] shared = 0 {{
^bb0(%x: memref<256x{t}>, %d: memref<256xf32>, %h: memref<256xf16>, %g: memref<256xbf16>, %r: memref<256x{t}>, %rb: memref<256x{t}>):
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  scf.for %i = %c0 to %c256 step %c1 {{
    %v = memref.load %x[%i] : memref<256x{t}>
    %f = arith.extf %v : {t} to f32
    %vh = arith.extf %v : {t} to f16
    %vg = arith.extf %v : {t} to bf16
    %back = arith.truncf %f : f32 to {t}
    %backg = arith.truncf %vg : bf16 to {t}
    memref.store %f, %d[%i] : memref<256xf32>
    memref.store %vh, %h[%i] : memref<256xf16>
    memref.store %vg, %g[%i] : memref<256xbf16>
    memref.store %back, %r[%i] : memref<256x{t}>
    memref.store %backg, %rb[%i] : memref<256x{t}>
  }}
  gpu.return
}}
gpu.kernel @encode grid = [1, 1, 1] block = [1, 1, 1] shared = 0 {{
^bb0(%x: memref<{n}xf32>, %e: memref<{n}x{t}>):
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant {n} : index
  scf.for %i = %c0 to %cn step %c1 {{
    %v = memref.load %x[%i] : memref<{n}xf32>
    %q = arith.truncf %v : f32 to {t}
    memref.store %q, %e[%i] : memref<{n}x{t}>
  }}
  gpu.return
}}
"#
    )
}

#[test]
fn fp8_conversions_on_the_host_match_the_float_module_bit_for_bit() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    for (name, kind) in [
        ("f8E4M3FN", FloatKind::F8E4M3FN),
        ("f8E5M2", FloatKind::F8E5M2),
    ] {
        // Edge f32 values: every byte's value and the midpoints between
        // neighbours (ties to even), a hair either side of them, overflow,
        // the subnormal range, infinities, NaNs, f32 subnormals; then random.
        let mut xs: Vec<f32> = Vec::new();
        let finite: Vec<f64> = (0..=255u128)
            .map(|b| kind.to_f64(b))
            .filter(|v| v.is_finite())
            .collect();
        let mut sorted = finite.clone();
        sorted.sort_by(f64::total_cmp);
        for w in sorted.windows(2) {
            let mid = ((w[0] + w[1]) / 2.0) as f32;
            xs.extend([
                mid,
                f32::from_bits(mid.to_bits() + 1),
                f32::from_bits(mid.to_bits().wrapping_sub(1)),
            ]);
        }
        xs.extend(finite.iter().map(|v| *v as f32));
        xs.extend([
            448.0,
            464.0,
            464.001,
            480.0,
            500.0,
            57344.0,
            61439.0,
            61440.0,
            65536.0,
            1e30,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
            f32::from_bits(0x7fa0_0000),
            f32::from_bits(0x7fe0_0000),
            f32::from_bits(0xff80_0001),
            1e-40,
            -1e-45,
            0.0,
            -0.0,
            2f32.powi(-10),
            2f32.powi(-17),
            3.0 * 2f32.powi(-11),
        ]);
        while xs.len() < 4096 {
            let e = rng.uniform(-22.0, 18.0);
            let s = if rng.next().is_multiple_of(2) {
                1.0
            } else {
                -1.0
            };
            xs.push((s * 2f64.powf(e)) as f32);
        }
        let n = xs.len();
        let (ctx, m) = parse(&fp8_kernel(name, n));
        let hm = HostModule::new(&ctx, m).expect("compiles for the host");
        let mut x: Vec<u8> = (0..=255).collect();
        let (mut d, mut h, mut g, mut r, mut rb) = (
            vec![0u8; 1024],
            vec![0u8; 512],
            vec![0u8; 512],
            vec![0u8; 256],
            vec![0u8; 256],
        );
        hm.run(
            "bytes",
            &mut [&mut x, &mut d, &mut h, &mut g, &mut r, &mut rb],
        )
        .expect("runs");
        let d = bytes_f32(&d);
        for byte in 0..=255u8 {
            let i = usize::from(byte);
            let want = kind.to_f64(u128::from(byte));
            let got = f64::from(d[i]);
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "{name} {byte:#04x}: decoded {got}, float module {want}"
            );
            for (fmt, buf) in [(FloatKind::F16, &h), (FloatKind::BF16, &g)] {
                let got = fmt.to_f64(u128::from(u16::from_le_bytes([buf[2 * i], buf[2 * i + 1]])));
                assert!(
                    got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                    "{name} {byte:#04x}: as {fmt:?} {got}, float module {want}"
                );
            }
            // NaNs stay NaN (the float module's `to_f64` does not keep
            // their sign; the kernel does); everything else is the same byte.
            if want.is_nan() {
                assert!(kind.is_nan(u128::from(r[i])) && kind.is_nan(u128::from(rb[i])));
                assert_eq!(r[i] & 0x80, byte & 0x80, "{name} {byte:#04x}: NaN sign");
                continue;
            }
            let again = kind.from_f64(want) as u8;
            assert_eq!(r[i], again, "{name} {byte:#04x}: re-encoded from f32");
            assert_eq!(r[i], byte, "{name} {byte:#04x}: round trip");
            assert_eq!(rb[i], again, "{name} {byte:#04x}: re-encoded from bf16");
        }
        let mut xb = f32_bytes(&xs);
        let mut e = vec![0u8; n];
        hm.run("encode", &mut [&mut xb, &mut e]).expect("runs");
        for (v, got) in xs.iter().zip(&e) {
            let want = kind.from_f64(f64::from(*v)) as u8;
            assert_eq!(*got, want, "{name}: {v:e} ({:#010x}) encoded", v.to_bits());
        }
        // The interpreter agrees (it is the float module's too).
        // The interpreter agrees (NaN signs aside: its tensors read back
        // through `to_f64`, which does not keep them).
        let interp = interpret_kernel_bytes(name, &xs);
        for (i, (w, g)) in interp.iter().zip(&e).enumerate() {
            let nan = kind.is_nan(u128::from(*w)) && kind.is_nan(u128::from(*g));
            assert!(
                nan || w == g,
                "{name}: x[{i}] = {:e}: interpreter {w:#04x}, host {g:#04x}",
                xs[i]
            );
        }
    }
}

/// `@encode` run by the reference interpreter through a launching function.
fn interpret_kernel_bytes(name: &str, xs: &[f32]) -> Vec<u8> {
    let n = xs.len();
    let text = format!(
        "{}\nfunc.func @main(%x: tensor<{n}xf32>) -> tensor<{n}x{name}> {{\n  %e = gpu.launch @encode(%x) : (tensor<{n}xf32>) -> tensor<{n}x{name}>\n  return %e : tensor<{n}x{name}>\n}}\n",
        fp8_kernel(name, n)
    );
    let (ctx, m) = parse(&text);
    let r = interpret(&ctx, m, vec![xs.iter().map(|v| f64::from(*v)).collect()]);
    let kind = FloatKind::from_keyword(name).unwrap();
    r[0].to_f64s()
        .iter()
        .map(|v| kind.from_f64(*v) as u8)
        .collect()
}

/// A kernel of one warp running `nvgpu.mma.sp.sync` on the lanes' fragments
/// read from buffers (A's eight kept values and B's eight per lane, as f32
/// truncated to `elem`; the metadata word per lane; C's four) and storing
/// D's four.
fn mma_sp_kernel(elem: &str) -> String {
    let mut body = String::new();
    for (name, buf) in [("a", "%ga"), ("b", "%gb")] {
        for i in 0..8 {
            body += &format!(
                "  %{name}i{i} = arith.addi %base8, %c{i} : index\n  %{name}f{i} = memref.load {buf}[%{name}i{i}] : memref<256xf32>\n  %{name}{i} = arith.truncf %{name}f{i} : f32 to {elem}\n"
            );
        }
        let xs: Vec<String> = (0..8).map(|i| format!("%{name}{i}")).collect();
        body += &format!(
            "  %{name} = vector.from_elements {} : vector<4x2x{elem}>\n",
            xs.join(", ")
        );
    }
    let consts: String = (0..9)
        .map(|i| format!("  %c{i} = arith.constant {i} : index\n"))
        .collect();
    let mut out = String::new();
    for (i, (r, c)) in [(0, 0), (0, 1), (1, 0), (1, 1)].iter().enumerate() {
        out += &format!(
            "  %d{i} = vector.extract %d[{r}, {c}] : f32 from vector<2x2xf32>\n  %o{i} = arith.addi %base4, %c{i} : index\n  memref.store %d{i}, %gd[%o{i}] : memref<128xf32>\n"
        );
    }
    let mut cin = String::new();
    for i in 0..4 {
        cin += &format!(
            "  %ci{i} = arith.addi %base4, %c{i} : index\n  %x{i} = memref.load %gc[%ci{i}] : memref<128xf32>\n"
        );
    }
    format!(
        r#"gpu.kernel @sp grid = [1, 1, 1] block = [32, 1, 1] shared = 0 {{
^bb0(%ga: memref<256xf32>, %gb: memref<256xf32>, %ge: memref<32xi32>, %gc: memref<128xf32>, %gd: memref<128xf32>):
  %t = gpu.thread_id x
{consts}  %base8 = arith.muli %t, %c8 : index
  %base4 = arith.muli %t, %c4 : index
{body}  %e = memref.load %ge[%t] : memref<32xi32>
{cin}  %c = vector.from_elements %x0, %x1, %x2, %x3 : vector<2x2xf32>
  %d = nvgpu.mma.sp.sync(%a, %b, %c) metadata(%e) {{mmaShape = [16, 8, 32]}} : (vector<4x2x{elem}>, vector<4x2x{elem}>, vector<2x2xf32>) -> vector<2x2xf32>
{out}  gpu.return
}}
"#
    )
}

/// `nvgpu.mma.sp.sync`'s host emulation on random 2:4 tiles (f16 and bf16,
/// small integers: exact in both and in f32) equals the dense product
/// A·B + C, with A's values, B and C given to the lanes by the PTX ISA's
/// fragment tables and the metadata packed as the ISA lays it out
/// (`aic_dialects::nvgpu::sparse`).
#[test]
fn mma_sp_on_the_host_is_the_dense_product() {
    use aic_dialects::nvgpu::fragments::S32_C;
    use aic_dialects::nvgpu::sparse::{SP_A, SP_B, pack_metadata};
    for (round, elem) in ["f16", "bf16", "f16"].into_iter().enumerate() {
        let (ctx, m) = parse(&mma_sp_kernel(elem));
        let hm = HostModule::new(&ctx, m).expect("compiles for the host");
        let mut r = Rng(0x5eed + round as u64);
        let mut dense = [[0.0f32; 32]; 16];
        let mut vals = [[0.0f32; 16]; 16];
        let mut pos = [[(0u32, 1u32); 8]; 16];
        for row in 0..16 {
            for g in 0..8 {
                let i0 = (r.next() % 3) as u32;
                let i1 = i0 + 1 + (r.next() % u64::from(3 - i0)) as u32;
                pos[row][g] = (i0, i1);
                for (j, p) in [i0, i1].into_iter().enumerate() {
                    let v = (r.next() % 15) as f32 - 7.0;
                    vals[row][2 * g + j] = v;
                    dense[row][4 * g + p as usize] = v;
                }
            }
        }
        let bm: Vec<Vec<f32>> = (0..32)
            .map(|_| (0..8).map(|_| (r.next() % 9) as f32 - 4.0).collect())
            .collect();
        let (mut a, mut b, mut c) = (vec![0.0f32; 256], vec![0.0f32; 256], vec![0.0f32; 128]);
        for l in 0..32 {
            for i in 0..8 {
                let (row, k) = SP_A.at(l, i);
                a[l as usize * 8 + i] = vals[row as usize][k as usize];
                let (k, n) = SP_B.at(l, i);
                b[l as usize * 8 + i] = bm[k as usize][n as usize];
            }
            for i in 0..4 {
                c[l as usize * 4 + i] = (r.next() % 5) as f32;
            }
        }
        let meta = pack_metadata(&pos).expect("valid positions");
        let mut e: Vec<u8> = meta.iter().flat_map(|w| w.to_le_bytes()).collect();
        let (mut ga, mut gb, mut gc) = (f32_bytes(&a), f32_bytes(&b), f32_bytes(&c));
        let mut gd = vec![0u8; 512];
        hm.run("sp", &mut [&mut ga, &mut gb, &mut e, &mut gc, &mut gd])
            .expect("runs");
        let d = bytes_f32(&gd);
        for l in 0..32i64 {
            for i in 0..4 {
                let (row, n) = S32_C.at(l, i);
                let want = c[l as usize * 4 + i]
                    + (0..32)
                        .map(|k| dense[row as usize][k] * bm[k][n as usize])
                        .sum::<f32>();
                assert_eq!(d[l as usize * 4 + i], want, "{elem}: lane {l} element {i}");
            }
        }
    }
}
