"""Seed corpora for scripts/fuzz.sh from the repository: MLIR chunks, pass
pipelines from the lit tests' RUN lines, rule files, tuning caches, and small
bundles and .npy files written here. Usage: python3 scripts/fuzz_seeds.py DIR"""
import hashlib
import json
import pathlib
import re
import struct
import sys

out = pathlib.Path(sys.argv[1])


def seed(target, data):
    d = out / target
    d.mkdir(parents=True, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    (d / hashlib.sha1(data).hexdigest()).write_bytes(data)


mlir = [p for d in ("lit_tests", "examples", "tools/tests/fixtures") for p in pathlib.Path(d).rglob("*.mlir")]
for f in mlir:
    text = f.read_text()
    for chunk in text.split("// -----"):
        seed("roundtrip", chunk)
        seed("interpret", chunk)
    for m in re.finditer(r"pass-pipeline=['\"]([^'\"]+)['\"]", text):
        seed("pipeline", m.group(1))
    flags = re.findall(r"RUN:.*?aic-opt((?: --?[a-z][a-z0-9-]*(?:=\S+)?)+)", text)
    for fl in flags:
        names = [a.lstrip("-") for a in fl.split() if not a.startswith("--mlir") and not a.startswith("--split")]
        if names:
            seed("pipeline", "builtin.module(" + ",".join(names) + ")")
for p in ("builtin.module(func.func(canonicalize{max-iterations=4 region-simplify=false},cse),symbol-dce)",
          "builtin.module(inline,eqsat-fusion{rules=algebraic},fusion-to-tile,tile-to-gpu{threads=64})",
          "builtin.module(builtin.module(builtin.module(cse)))"):
    seed("pipeline", p)
for f in pathlib.Path("passes").rglob("*.rules"):
    text = f.read_text()
    seed("rules", text)
    for line in text.splitlines():
        if line.strip() and not line.startswith("#"):
            seed("rules", line)
seed("tuning", json.dumps({"h100/gemm/64x64x32": {"bm": 64, "bn": 64, "bk": 32, "stages": 3, "threads": 128}}))
seed("tuning", '{"cpu/gemm/8x8x8": {"bm": 8, "bn": 8, "bk": 8}}')
seed("tuning", "{}")
manifest = {
    "version": 1, "target": "nvptx", "arch": "sm_90",
    "kernels": [{"name": "k", "grid": [1, 1, 1], "block": [128, 1, 1], "shared_bytes": 0,
                 "params": [{"elem": "f32", "shape": [4], "bytes": 16, "output": True}]}],
    "host": "func.func @main() { return }", "launches": [{"func": "main", "kernel": "k", "inputs": [], "outputs": ["%0"]}],
    "source": "",
}
for m, binary in ((manifest, b".version 8.0\n"), (dict(manifest, kernels=[], launches=[]), b"")):
    js = json.dumps(m).encode()
    seed("bundle", b"AICBNDL1" + struct.pack("<Q", len(js)) + js + struct.pack("<Q", len(binary)) + binary)


def npy(descr, shape, payload):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join(f"{d}, " for d in shape) if len(shape) != 1 else f"{shape[0]},")
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + payload


# The first byte picks the argument type in the npy target (see its TYPES).
seed("npy", b"\x00" + npy("<f4", (2, 3), struct.pack("<6f", *range(6))))
seed("npy", b"\x01" + npy("<f2", (4,), b"\x00\x3c" * 4))
seed("npy", b"\x03" + npy("|i1", (2, 2), b"\x01\x02\x03\xff"))
seed("npy", b"\x04" + npy("|b1", (5,), b"\x01\x00\x01\x00\x01"))
seed("npy", b"\x06" + npy("<i8", (), struct.pack("<q", -7)))
seed("npy", b"\x07" + npy("<f8", (0, 3), b""))
