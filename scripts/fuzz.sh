#!/usr/bin/env bash
# Fuzz with cargo-fuzz (libFuzzer) for the given number of seconds (default 600),
# split between two targets: `roundtrip` (parser, verifier and printer) and
# `interpret` (the reference interpreter on every argument-free function). The corpus is seeded from the lit tests and the
# examples, split at `// -----`. Needs the nightly toolchain (rustup toolchain
# install nightly); installs cargo-fuzz when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-600}"
command -v cargo-fuzz >/dev/null 2>&1 || cargo install cargo-fuzz --locked
corpus=fuzz/corpus/roundtrip
mkdir -p "$corpus"
python3 - "$corpus" <<'PY'
import hashlib, pathlib, sys
out = pathlib.Path(sys.argv[1])
for f in [p for d in ("lit_tests", "examples", "tools/tests/fixtures") for p in pathlib.Path(d).rglob("*.mlir")]:
    for chunk in f.read_text().split("// -----"):
        data = chunk.encode()
        (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
PY
# -rss_limit_mb: the parser thread reserves a large (untouched) stack.
for target in roundtrip interpret; do
    cargo +nightly fuzz run "$target" "$corpus" -- \
        -max_total_time="$((secs / 2))" -timeout=10 -rss_limit_mb=4096 -dict=fuzz/mlir.dict
done
