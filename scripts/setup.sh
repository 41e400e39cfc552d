#!/usr/bin/env bash
# Sets up everything kopt needs on a Debian or Ubuntu machine, then builds it.
#   - build tools and libraries from the distribution (CLI11, nlohmann-json, fmt, OpenSSL,
#     SQLite, libffi, GoogleTest), all linked statically or header-only into kopt;
#   - CUTLASS headers from PyPI (nvidia-cutlass) into the current Python environment;
#   - checks that the CUDA toolkit (nvcc) is present: it is not installed by this script.
# Usage: scripts/setup.sh [--no-build]
set -euo pipefail
cd "$(dirname "$0")/.."

CUTLASS_VERSION=4.2.0.0   # headers for CUTLASS kernels; the GPU test script carries the same

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

echo "== system packages"
as_root apt-get update -qq
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  cmake ninja-build g++ pkg-config python3 python3-pip \
  libcli11-dev nlohmann-json3-dev libfmt-dev libssl-dev libsqlite3-dev libgtest-dev libffi-dev >/dev/null

echo "== CUDA toolkit"
if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
  nvcc_bin=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
  "$nvcc_bin" --version | tail -n 2
else
  echo "nvcc not found: install the CUDA toolkit (12.x or 13.x) and put its bin folder on PATH;" >&2
  echo "kopt builds without it, but compiling kernels needs it." >&2
fi

echo "== Python packages (CUTLASS headers)"
python=${KOPT_PYTHON:-python3}
if ! "$python" -m pip install -q --disable-pip-version-check "nvidia-cutlass==${CUTLASS_VERSION}" 2>/tmp/kopt-pip.log; then
  if grep -q externally-managed /tmp/kopt-pip.log; then
    echo "this Python is managed by the system; installing into .venv instead"
    "$python" -m venv .venv
    .venv/bin/python -m pip install -q --disable-pip-version-check "nvidia-cutlass==${CUTLASS_VERSION}"
    echo "export KOPT_PYTHON=$PWD/.venv/bin/python so that kopt finds CUTLASS there"
  else
    cat /tmp/kopt-pip.log >&2
    exit 1
  fi
fi

if [ "${1:-}" != "--no-build" ]; then
  echo "== build (preset release)"
  cmake --preset release >/dev/null
  cmake --build --preset release
  echo "kopt is at build/release/bin/kopt"
fi
