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


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, text in [("gemm.f16", gemm(False)), ("gemm.int8w", gemm(True)),
                       ("llama_mlp.f16", mlp(False)), ("llama_mlp.int8w", mlp(True))]:
        with open(os.path.join(out, name + ".mlir"), "w") as f:
            f.write(text)
        print("wrote", os.path.join(out, name + ".mlir"))


if __name__ == "__main__":
    main()
