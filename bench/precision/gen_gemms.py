#!/usr/bin/env python3
"""Write the precision benchmark's GEMM programs as graph-dialect text, weights
as arguments (nothing large on disk):

    python3 bench/precision/gen_gemms.py OUT_DIR

- `gemm.f16.mlir`: x[M,K] @ w[K,N], f16 (M = N = K = 4096).
- `gemm.int8w.mlir`: x[M,K] f16 @ (cast(wq[K,N] i8) * scale[N]), weight-only int8 with
  per-channel scales: the program `quantize{mode=int8-weight}` makes of a constant
  weight, with the weight passed as an argument.
- `llama_mlp.f16.mlir` / `llama_mlp.int8w.mlir`: Llama's MLP
  `down(silu(gate(x)) * up(x))`, tokens T = 4096, hidden 4096, FFN 14336, in both forms.
- `gemm.int8.mlir`: xq[M,K] i8 @ wq[K,N] i8 -> i32, the bare int8 x int8 GEMM
  (`mma.sync` s8), against `torch._int_mm`.
- `gemm.int8dyn.mlir` / `llama_mlp.int8dyn.mlir`: dynamic int8, the program
  `quantize{mode=int8-dynamic}` makes of constant weights, the i8 weights and
  their f32 per-channel scales passed as arguments: x quantized per row at run
  time (`s = max(max|x_row|, 1e-5) / 127`, round half to even, clamp to
  [-127, 127]), the i8 x i8 -> i32 GEMM, `cast(acc) * s_row * s_col` in f32,
  cast to f16.
- `gemm.fp8.mlir`: xq[M,K] f8E4M3FN @ wq f8E4M3FN -> f32, the bare fp8 GEMM, the
  weight given as wq[N,K] under `transpose_b` (K-major: torch._scaled_mm's
  column-major B; what wgmma e4m3 on sm_90a needs, mma.sync e4m3 elsewhere),
  against `torch._scaled_mm` with unit scales.
- `gemm.fp8dyn.mlir` / `llama_mlp.fp8.mlir`: the program `quantize{mode=fp8}`
  makes of constant weights, the e4m3 weights ([N, K], `transpose_b`, as the
  pass stores them) and their f32 scales (one per-tensor value, repeated per
  channel) passed as arguments: x quantized per
  row at run time (`s = max(max|x_row|, 1e-5) / 448`, clamped to [-448, 448],
  cast to e4m3), the e4m3 x e4m3 -> f32 GEMM, `acc * s_row * s_w`, cast to f16.
- `gemm.sparse24.mlir`: x[M,K] f16 times a 2:4-sparse weight given compressed as
  `sparsify` stores it: `graph.sparse_matmul %x, %v, %m transpose_b` with values
  v[N, K/2] f16 and positions m[N, K/2] i8 (the rows of W^T, mma.sp's A) as
  arguments.
"""
import os
import sys

M = N = K = 4096
T, H, F = 4096, 4096, 14336


def t(shape, e):
    return "tensor<" + "x".join(str(d) for d in shape) + "x" + e + ">"


def weight(name, k, n, int8):
    """Lines dequantizing argument weight `name` ([k, n]) and the value to use."""
    if not int8:
        return [], f"%{name}"
    return [
        f"  %{name}_f = graph.cast %{name}q : ({t([k, n], 'i8')}) -> {t([k, n], 'f16')}",
        f"  %{name}_b = graph.broadcast %{name}s, dims = [1] : ({t([n], 'f16')}) -> {t([k, n], 'f16')}",
        f"  %{name}_w = graph.mul %{name}_f, %{name}_b : {t([k, n], 'f16')}",
    ], f"%{name}_w"


def params(ws, int8):
    out = []
    for name, k, n in ws:
        if int8:
            out += [f"%{name}q: {t([k, n], 'i8')}", f"%{name}s: {t([n], 'f16')}"]
        else:
            out.append(f"%{name}: {t([k, n], 'f16')}")
    return out


def gemm(int8):
    lines, w = weight("w", K, N, int8)
    ps = [f"%x: {t([M, K], 'f16')}"] + params([("w", K, N)], int8)
    body = lines + [f"  %y = graph.matmul %x, {w} : ({t([M, K], 'f16')}, {t([K, N], 'f16')}) -> {t([M, N], 'f16')}"]
    return f"func.func @main({', '.join(ps)}) -> {t([M, N], 'f16')} {{\n" + "\n".join(body) + \
        f"\n  return %y : {t([M, N], 'f16')}\n}}\n"


def mlp(int8):
    ws = [("g", H, F), ("u", H, F), ("d", F, H)]
    ps = [f"%x: {t([T, H], 'f16')}"] + params(ws, int8)
    body, use = [], {}
    for name, k, n in ws:
        lines, use[name] = weight(name, k, n, int8)
        body += lines
    tf, th = t([T, F], 'f16'), t([T, H], 'f16')
    body += [
        f"  %a = graph.matmul %x, {use['g']} : ({th}, {t([H, F], 'f16')}) -> {tf}",
        f"  %b = graph.matmul %x, {use['u']} : ({th}, {t([H, F], 'f16')}) -> {tf}",
        f"  %s = graph.silu %a : {tf}",
        f"  %p = graph.mul %s, %b : {tf}",
        f"  %y = graph.matmul %p, {use['d']} : ({tf}, {t([F, H], 'f16')}) -> {th}",
    ]
    return f"func.func @main({', '.join(ps)}) -> {th} {{\n" + "\n".join(body) + f"\n  return %y : {th}\n}}\n"


def dynamic_linear(x, rows, k, n, w, lines):
    """Lines of the int8-dynamic product of f16 `x` ([rows, k]) by argument
    weight `w` (`%{w}q` [k, n] i8, `%{w}s` [n] f32); gives the f16 result's name."""
    f32, f16 = (lambda s: t(s, "f32")), (lambda s: t(s, "f16"))
    p = f"%{w}_"
    lines += [
        f"  {p}x = graph.cast {x} : ({f16([rows, k])}) -> {f32([rows, k])}",
        f"  {p}abs = graph.abs {p}x : {f32([rows, k])}",
        f"  {p}amax = graph.reduce max {p}abs, axes = [1] : ({f32([rows, k])}) -> {f32([rows])}",
        f"  {p}eps = graph.constant dense<1.0e-05> : {f32([rows])}",
        f"  {p}am = graph.max {p}amax, {p}eps : {f32([rows])}",
        f"  {p}levels = graph.constant dense<127.0> : {f32([rows])}",
        f"  {p}s = graph.div {p}am, {p}levels : {f32([rows])}",
        f"  {p}sb = graph.broadcast {p}s, dims = [0] : ({f32([rows])}) -> {f32([rows, k])}",
        f"  {p}d = graph.div {p}x, {p}sb : {f32([rows, k])}",
        f"  {p}r = graph.round_even {p}d : {f32([rows, k])}",
        f"  {p}lo = graph.constant dense<-127.0> : {f32([rows, k])}",
        f"  {p}hi = graph.constant dense<127.0> : {f32([rows, k])}",
        f"  {p}c1 = graph.max {p}r, {p}lo : {f32([rows, k])}",
        f"  {p}c2 = graph.min {p}c1, {p}hi : {f32([rows, k])}",
        f"  {p}q = graph.cast {p}c2 : ({f32([rows, k])}) -> {t([rows, k], 'i8')}",
        f"  {p}acc = graph.matmul {p}q, %{w}q : ({t([rows, k], 'i8')}, {t([k, n], 'i8')}) -> {t([rows, n], 'i32')}",
        f"  {p}f = graph.cast {p}acc : ({t([rows, n], 'i32')}) -> {f32([rows, n])}",
        f"  {p}br = graph.broadcast {p}s, dims = [0] : ({f32([rows])}) -> {f32([rows, n])}",
        f"  {p}bc = graph.broadcast %{w}s, dims = [1] : ({f32([n])}) -> {f32([rows, n])}",
        f"  {p}m1 = graph.mul {p}f, {p}br : {f32([rows, n])}",
        f"  {p}m2 = graph.mul {p}m1, {p}bc : {f32([rows, n])}",
        f"  {p}y = graph.cast {p}m2 : ({f32([rows, n])}) -> {f16([rows, n])}",
    ]
    return f"{p}y"


def fp8_linear(x, rows, k, n, w, lines):
    """Lines of the fp8 product `quantize{mode=fp8}` makes of f16 `x` ([rows, k])
    by argument weight `w` (`%{w}q` [n, k] f8E4M3FN under transpose_b, `%{w}s` [n] f32, the
    per-tensor scale repeated): x quantized per row at run time
    (`s = max(max|x_row|, 1e-5) / 448`, clamp to [-448, 448], cast to e4m3,
    which rounds to nearest even), the e4m3 x e4m3 -> f32 GEMM, `acc * s_row *
    s_w` in f32, cast to f16; gives the f16 result's name."""
    f32, f16, e4 = (lambda s: t(s, "f32")), (lambda s: t(s, "f16")), (lambda s: t(s, "f8E4M3FN"))
    p = f"%{w}_"
    lines += [
        f"  {p}x = graph.cast {x} : ({f16([rows, k])}) -> {f32([rows, k])}",
        f"  {p}abs = graph.abs {p}x : {f32([rows, k])}",
        f"  {p}amax = graph.reduce max {p}abs, axes = [1] : ({f32([rows, k])}) -> {f32([rows])}",
        f"  {p}eps = graph.constant dense<1.0e-05> : {f32([rows])}",
        f"  {p}am = graph.max {p}amax, {p}eps : {f32([rows])}",
        f"  {p}levels = graph.constant dense<448.0> : {f32([rows])}",
        f"  {p}s = graph.div {p}am, {p}levels : {f32([rows])}",
        f"  {p}sb = graph.broadcast {p}s, dims = [0] : ({f32([rows])}) -> {f32([rows, k])}",
        f"  {p}d = graph.div {p}x, {p}sb : {f32([rows, k])}",
        f"  {p}lo = graph.constant dense<-448.0> : {f32([rows, k])}",
        f"  {p}hi = graph.constant dense<448.0> : {f32([rows, k])}",
        f"  {p}c1 = graph.max {p}d, {p}lo : {f32([rows, k])}",
        f"  {p}c2 = graph.min {p}c1, {p}hi : {f32([rows, k])}",
        f"  {p}q = graph.cast {p}c2 : ({f32([rows, k])}) -> {e4([rows, k])}",
        f"  {p}acc = graph.matmul {p}q, %{w}q transpose_b : ({e4([rows, k])}, {e4([n, k])}) -> {f32([rows, n])}",
        f"  {p}br = graph.broadcast {p}s, dims = [0] : ({f32([rows])}) -> {f32([rows, n])}",
        f"  {p}bc = graph.broadcast %{w}s, dims = [1] : ({f32([n])}) -> {f32([rows, n])}",
        f"  {p}m1 = graph.mul {p}acc, {p}br : {f32([rows, n])}",
        f"  {p}m2 = graph.mul {p}m1, {p}bc : {f32([rows, n])}",
        f"  {p}y = graph.cast {p}m2 : ({f32([rows, n])}) -> {f16([rows, n])}",
    ]
    return f"{p}y"


def fp8_params(ws):
    out = []
    for name, k, n in ws:
        out += [f"%{name}q: {t([n, k], 'f8E4M3FN')}", f"%{name}s: {t([n], 'f32')}"]
    return out


def gemm_fp8():
    a, b, c = t([M, K], "f8E4M3FN"), t([N, K], "f8E4M3FN"), t([M, N], "f32")
    return (f"func.func @main(%xq: {a}, %wq: {b}) -> {c} {{\n"
            f"  %y = graph.matmul %xq, %wq transpose_b : ({a}, {b}) -> {c}\n  return %y : {c}\n}}\n")


def gemm_fp8dyn():
    lines = []
    y = fp8_linear("%x", M, K, N, "w", lines)
    ps = [f"%x: {t([M, K], 'f16')}"] + fp8_params([("w", K, N)])
    return f"func.func @main({', '.join(ps)}) -> {t([M, N], 'f16')} {{\n" + "\n".join(lines) + \
        f"\n  return {y} : {t([M, N], 'f16')}\n}}\n"


def mlp_fp8():
    ws = [("g", H, F), ("u", H, F), ("d", F, H)]
    ps = [f"%x: {t([T, H], 'f16')}"] + fp8_params(ws)
    lines = []
    a = fp8_linear("%x", T, H, F, "g", lines)
    b = fp8_linear("%x", T, H, F, "u", lines)
    tf, th = t([T, F], 'f16'), t([T, H], 'f16')
    lines += [f"  %s = graph.silu {a} : {tf}", f"  %p = graph.mul %s, {b} : {tf}"]
    y = fp8_linear("%p", T, F, H, "d", lines)
    return f"func.func @main({', '.join(ps)}) -> {th} {{\n" + "\n".join(lines) + f"\n  return {y} : {th}\n}}\n"


def dyn_params(ws):
    out = []
    for name, k, n in ws:
        out += [f"%{name}q: {t([k, n], 'i8')}", f"%{name}s: {t([n], 'f32')}"]
    return out


def gemm_int8():
    a, b, c = t([M, K], "i8"), t([K, N], "i8"), t([M, N], "i32")
    return (f"func.func @main(%xq: {a}, %wq: {b}) -> {c} {{\n"
            f"  %y = graph.matmul %xq, %wq : ({a}, {b}) -> {c}\n  return %y : {c}\n}}\n")


def gemm_int8dyn():
    lines = []
    y = dynamic_linear("%x", M, K, N, "w", lines)
    ps = [f"%x: {t([M, K], 'f16')}"] + dyn_params([("w", K, N)])
    return f"func.func @main({', '.join(ps)}) -> {t([M, N], 'f16')} {{\n" + "\n".join(lines) + \
        f"\n  return {y} : {t([M, N], 'f16')}\n}}\n"


def mlp_int8dyn():
    ws = [("g", H, F), ("u", H, F), ("d", F, H)]
    ps = [f"%x: {t([T, H], 'f16')}"] + dyn_params(ws)
    lines = []
    a = dynamic_linear("%x", T, H, F, "g", lines)
    b = dynamic_linear("%x", T, H, F, "u", lines)
    tf, th = t([T, F], 'f16'), t([T, H], 'f16')
    lines += [f"  %s = graph.silu {a} : {tf}", f"  %p = graph.mul %s, {b} : {tf}"]
    y = dynamic_linear("%p", T, F, H, "d", lines)
    return f"func.func @main({', '.join(ps)}) -> {th} {{\n" + "\n".join(lines) + f"\n  return {y} : {th}\n}}\n"


def gemm_sparse24():
    x, v, m, y = t([M, K], "f16"), t([N, K // 2], "f16"), t([N, K // 2], "i8"), t([M, N], "f16")
    return (f"func.func @main(%x: {x}, %v: {v}, %m: {m}) -> {y} {{\n"
            f"  %y = graph.sparse_matmul %x, %v, %m transpose_b : ({x}, {v}, {m}) -> {y}\n"
            f"  return %y : {y}\n}}\n")


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, text in [("gemm.f16", gemm(False)), ("gemm.int8w", gemm(True)),
                       ("llama_mlp.f16", mlp(False)), ("llama_mlp.int8w", mlp(True)),
                       ("gemm.int8", gemm_int8()), ("gemm.int8dyn", gemm_int8dyn()),
                       ("llama_mlp.int8dyn", mlp_int8dyn()), ("gemm.fp8", gemm_fp8()),
                       ("gemm.fp8dyn", gemm_fp8dyn()), ("llama_mlp.fp8", mlp_fp8()),
                       ("gemm.sparse24", gemm_sparse24())]:
        with open(os.path.join(out, name + ".mlir"), "w") as f:
            f.write(text)
        print("wrote", os.path.join(out, name + ".mlir"))


if __name__ == "__main__":
    main()
