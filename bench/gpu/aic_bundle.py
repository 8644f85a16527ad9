"""Read aic bundles (the compiler's artifact files) from Python.

A bundle is one file per compiled module:

    offset  size  contents
    0       8     magic b"AICBNDL1"
    8       8     L, the manifest's length in bytes (unsigned 64-bit little-endian)
    16      L     the manifest: UTF-8 JSON (version, target, arch, kernels, host, launches)
    16+L    8     B, the binary's length in bytes (unsigned 64-bit little-endian)
    24+L    B     the binary: PTX text, an AMDGPU HSACO code object, or a host object

and nothing after it. The Rust side is backends/runtime/src/bundle.rs (aic_runtime::Bundle).

    manifest, binary = aic_bundle.read("model.aicb")
    for k in manifest["kernels"]:
        print(k["name"], k["grid"], k["block"], k["shared_bytes"], k["params"])
"""

import json
import struct
import sys

MAGIC = b"AICBNDL1"
# Manifest versions read here: 2 added `plans` and the kernels' optional `kind` and
# `flops`, which this reader passes through untouched.
SUPPORTED = (1, 2)


def from_bytes(data):
    """Parse a bundle's bytes into (manifest dict, binary bytes); ValueError if malformed."""
    if data[:8] != MAGIC:
        raise ValueError("not an aic bundle (bad magic)")
    pos = 8

    def take(n, what):
        nonlocal pos
        if n > len(data) - pos:
            raise ValueError(
                f"truncated aic bundle: the {what} needs {n} bytes but only {len(data) - pos} remain"
            )
        chunk = data[pos:pos + n]
        pos += n
        return chunk

    (manifest_len,) = struct.unpack("<Q", take(8, "manifest length"))
    manifest = json.loads(take(manifest_len, "manifest").decode("utf-8"))
    (binary_len,) = struct.unpack("<Q", take(8, "binary length"))
    binary = take(binary_len, "binary")
    if pos != len(data):
        raise ValueError(f"malformed aic bundle: {len(data) - pos} unexpected bytes after the binary")
    if manifest.get("version") not in SUPPORTED:
        raise ValueError(f"aic bundle manifest version {manifest.get('version')} is not supported"
                         f" (this reader reads versions {min(SUPPORTED)} to {max(SUPPORTED)})")
    return manifest, bytes(binary)


def read(path):
    """Read the bundle at `path`: returns (manifest dict, binary bytes)."""
    with open(path, "rb") as f:
        return from_bytes(f.read())


if __name__ == "__main__":
    # Print a summary of each bundle named on the command line.
    for p in sys.argv[1:]:
        m, b = read(p)
        print(f"{p}: {m['target']} {m['arch']}, {len(b)} bytes of binary")
        for k in m["kernels"]:
            print(f"  {k['name']} grid={k['grid']} block={k['block']} shared={k['shared_bytes']}"
                  f" params={[(q['elem'], q['shape'], 'out' if q['output'] else 'in') for q in k['params']]}")
