#!/usr/bin/env bash
# Builds aic's Python package (python/: a PyO3 extension built by maturin, in the
# workspace's debug profile so that it reuses what `cargo build` built) into a
# virtualenv and runs its pytest suite on the host target. scripts/test.sh calls it.
#
# The virtualenv is kept between runs ($AIC_PYTHON_VENV, default
# ~/.cache/aic/python-venv): pip installs only what is missing. PyTorch (for the
# DLPack tests) is PyPI's wheel, which brings NVIDIA's libraries (several GB);
# AIC_PYTHON_TORCH=0 skips installing it, and where it cannot be installed its
# tests skip and say why.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${AIC_PYTHON_VENV:-${HOME:-/root}/.cache/aic/python-venv}
if [ ! -x "$VENV/bin/python" ]; then
    mkdir -p "$(dirname "$VENV")"
    # Debian's own python3 makes virtualenvs only with python3-venv installed.
    if ! python3 -m venv "$VENV"; then
        rm -rf "$VENV"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
        python3 -m venv "$VENV"
    fi
fi
PY="$VENV/bin/python"
"$PY" -m pip install -q --disable-pip-version-check "maturin>=1.5,<2" pytest numpy "jax[cpu]"
if [ "${AIC_PYTHON_TORCH:-1}" != 0 ] && ! "$PY" -c "import torch" >/dev/null 2>&1; then
    "$PY" -m pip install -q --disable-pip-version-check torch \
        || echo "python.sh: PyTorch could not be installed: its tests skip" >&2
fi
(cd python && VIRTUAL_ENV="$VENV" PATH="$VENV/bin:$PATH" maturin develop -q)
"$PY" -m pytest -q -rs python/tests
