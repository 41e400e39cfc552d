#!/usr/bin/env bash
# Sets up everything kopt needs on a Debian or Ubuntu machine, then builds it.
#   - build tools and libraries from the distribution (CLI11, nlohmann-json, Boost's headers, fmt, OpenSSL,
#     SQLite, libffi, GoogleTest), all linked statically or header-only into kopt, and Chromium,
#     whose headless mode renders kopt report's page in the tests;
#   - CUTLASS headers (nvidia-cutlass), torch and triton from PyPI into the current Python
#     environment (pinned to the GPU machine's versions; torch with its CUDA libraries is large),
#     and the MCP SDK (mcp) whose client tests kopt mcp;
#   - checks that the CUDA toolkit (nvcc) is present: it is not installed by this script.
# Usage: scripts/setup.sh [--no-build] [--if-needed]
#   --if-needed  skip the packages when this version of the script already installed them here
#                (scripts/demo.sh and scripts/test.sh call it so)
set -euo pipefail
cd "$(dirname "$0")/.."

no_build=0
if_needed=0
for arg in "$@"; do
  case "$arg" in
    --no-build) no_build=1 ;;
    --if-needed) if_needed=1 ;;
    *) echo "setup.sh: unknown option $arg (use --no-build, --if-needed)" >&2; exit 2 ;;
  esac
done
# The packages are installed once per version of this script; the stamp says which.
stamp=build/.setup-stamp
script_hash=$(sha1sum "$0" | cut -d' ' -f1)

CUTLASS_VERSION=4.2.0.0   # headers for CUTLASS kernels; the GPU test script carries the same
# The versions on the GPU machine, so that what CI checks is what runs there: Python references
# and Triton kernels run in kopt's Python runner with these.
TORCH_VERSION=2.11.0
TRITON_VERSION=3.6.0
MCP_VERSION=2.3.0          # the official MCP SDK, whose stdio client tests kopt mcp

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

install_packages() {
  echo "== system packages"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    cmake ninja-build g++ pkg-config python3 python3-pip \
    libcli11-dev nlohmann-json3-dev libboost1.81-dev libfmt-dev libssl-dev libsqlite3-dev libgtest-dev libffi-dev chromium >/dev/null

  echo "== CUDA toolkit"
  if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
    nvcc_bin=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    "$nvcc_bin" --version | tail -n 2
  else
    echo "nvcc not found: install the CUDA toolkit (12.x or 13.x) and put its bin folder on PATH;" >&2
    echo "kopt builds without it, but compiling kernels needs it." >&2
  fi

  echo "== Python packages (CUTLASS headers, torch ${TORCH_VERSION}, triton ${TRITON_VERSION}, mcp ${MCP_VERSION})"
  python=${KOPT_PYTHON:-python3}
  packages=("nvidia-cutlass==${CUTLASS_VERSION}" "torch==${TORCH_VERSION}" "triton==${TRITON_VERSION}"
            "mcp==${MCP_VERSION}")
  if ! "$python" -m pip install -q --disable-pip-version-check "${packages[@]}" 2>/tmp/kopt-pip.log; then
    if grep -q externally-managed /tmp/kopt-pip.log; then
      echo "this Python is managed by the system; installing into .venv instead"
      "$python" -m venv .venv
      .venv/bin/python -m pip install -q --disable-pip-version-check "${packages[@]}"
      echo "export KOPT_PYTHON=$PWD/.venv/bin/python so that kopt uses the packages there (scripts/test.sh does)"
    else
      cat /tmp/kopt-pip.log >&2
      exit 1
    fi
  fi
}

if [ $if_needed -eq 1 ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$script_hash" ]; then
  echo "== packages: already set up by this version of scripts/setup.sh"
else
  install_packages
  mkdir -p build
  echo "$script_hash" >"$stamp"
fi

if [ $no_build -eq 0 ]; then
  echo "== build (preset release)"
  cmake --preset release >/dev/null
  cmake --build --preset release
  echo "kopt is at build/release/bin/kopt"
fi
