#!/usr/bin/env bash
# Sets up everything kopt needs on a Debian or Ubuntu machine, then builds kopt and installs it.
#   - build tools and libraries from the distribution (CLI11, nlohmann-json, Boost's headers, fmt, OpenSSL,
#     SQLite, libffi, GoogleTest), all linked statically or header-only into kopt, and Chromium,
#     whose headless mode renders kopt report's page in the tests; libpq's header (kopt loads
#     libpq itself only for a postgresql:// memory) and the PostgreSQL 15 server, which
#     scripts/postgres_server.sh starts for the memory's tests;
#   - CUTLASS headers (nvidia-cutlass), torch and triton from PyPI into the current Python
#     environment (pinned to the GPU machine's versions; torch with its CUDA libraries is large),
#     the MCP SDK (mcp) whose client tests kopt mcp, and Optuna and scipy for kopt tune's
#     model-based strategies;
#   - checks that the CUDA toolkit (nvcc) is present: it is not installed by this script;
#   - builds the `install` preset (kopt and its companion files, no tests; ccache when present)
#     and installs it with `cmake --install` into PREFIX: bin/kopt, lib/, share/kopt/,
#     share/doc/kopt/. kopt finds its companions beside itself, so the prefix can be anywhere.
# Packages already present are not installed again (nor is the package list fetched).
# Usage: scripts/setup.sh [--no-build] [--if-needed] [--prefix DIR] [--print-prefix]
#   --prefix DIR    where kopt is installed (default $KOPT_PREFIX, else ~/.local, or /usr/local as root)
#   --print-prefix  print that folder and stop (scripts/demo.sh runs the kopt installed there)
#   --no-build      packages only (scripts/test.sh builds its own preset)
#   --if-needed     skip the packages when this version of the script already installed them here
#                   (scripts/demo.sh and scripts/test.sh call it so)
set -euo pipefail
cd "$(dirname "$0")/.."

no_build=0
if_needed=0
print_prefix=0
if [ "$(id -u)" -eq 0 ]; then prefix=${KOPT_PREFIX:-/usr/local}; else prefix=${KOPT_PREFIX:-$HOME/.local}; fi
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) no_build=1 ;;
    --if-needed) if_needed=1 ;;
    --print-prefix) print_prefix=1 ;;
    --prefix)
      [ $# -ge 2 ] || { echo "setup.sh: --prefix needs a folder" >&2; exit 2; }
      prefix=$2
      shift ;;
    *) echo "setup.sh: unknown option $1 (use --no-build, --if-needed, --prefix DIR, --print-prefix)" >&2; exit 2 ;;
  esac
  shift
done
prefix=$(realpath -m "$prefix")
if [ $print_prefix -eq 1 ]; then
  echo "$prefix"
  exit 0
fi
# The packages are installed once per version of this script; the stamp says which.
stamp=build/.setup-stamp
script_hash=$(sha1sum "$0" | cut -d' ' -f1)

CUTLASS_VERSION=4.2.0.0   # headers for CUTLASS kernels; the GPU test script carries the same
# The versions on the GPU machine, so that what CI checks is what runs there: Python references
# and Triton kernels run in kopt's Python runner with these.
TORCH_VERSION=2.11.0
TRITON_VERSION=3.6.0
MCP_VERSION=2.3.0          # the official MCP SDK, whose stdio client tests kopt mcp
# kopt tune's model-based strategies: the packages and versions its requirements file pins.
mapfile -t TUNE_PACKAGES < <(grep -v '^#' python/tune_requirements.txt)
SYSTEM_PACKAGES=(cmake ninja-build g++ pkg-config python3 python3-pip
                 libcli11-dev nlohmann-json3-dev libboost1.81-dev libfmt-dev libssl-dev libsqlite3-dev libgtest-dev libffi-dev chromium
                 libpq-dev postgresql-15)

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# Whether every package is installed (a fresh clone on a set-up machine needs no network).
system_packages_present() {
  local installed
  installed=$(dpkg-query -W -f='${Status}\n' "${SYSTEM_PACKAGES[@]}" 2>/dev/null | grep -c "install ok installed")
  [ "$installed" -eq ${#SYSTEM_PACKAGES[@]} ]
}

# Whether PYTHON has every NAME==VERSION (a local label such as torch's +cu130 matches, as in pip).
python_packages_present() {
  local python=$1
  shift
  "$python" - "$@" 2>/dev/null <<'PY'
import sys
from importlib.metadata import PackageNotFoundError, version
try:
    sys.exit(0 if all(version(n).split("+")[0] == v for n, v in (a.split("==") for a in sys.argv[1:])) else 1)
except PackageNotFoundError:
    sys.exit(1)
PY
}

install_packages() {
  echo "== system packages"
  if system_packages_present; then
    echo "all present"
  else
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
      "${SYSTEM_PACKAGES[@]}" >/dev/null
  fi

  echo "== CUDA toolkit"
  if command -v nvcc >/dev/null 2>&1 || [ -x /usr/local/cuda/bin/nvcc ]; then
    nvcc_bin=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
    "$nvcc_bin" --version | tail -n 2
  else
    echo "nvcc not found: install the CUDA toolkit (12.x or 13.x) and put its bin folder on PATH;" >&2
    echo "kopt builds without it, but compiling kernels needs it." >&2
  fi

  echo "== Python packages (CUTLASS headers, torch ${TORCH_VERSION}, triton ${TRITON_VERSION}, mcp ${MCP_VERSION}, ${TUNE_PACKAGES[*]})"
  python=${KOPT_PYTHON:-python3}
  packages=("nvidia-cutlass==${CUTLASS_VERSION}" "torch==${TORCH_VERSION}" "triton==${TRITON_VERSION}"
            "mcp==${MCP_VERSION}" "${TUNE_PACKAGES[@]}")
  if python_packages_present "$python" "${packages[@]}" ||
     { [ -x .venv/bin/python ] && python_packages_present .venv/bin/python "${packages[@]}"; }; then
    echo "all present"
  elif ! "$python" -m pip install -q --disable-pip-version-check "${packages[@]}" 2>/tmp/kopt-pip.log; then
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
  echo "== build (preset install: kopt and its companion files, no tests)"
  launcher=()
  if command -v ccache >/dev/null 2>&1 && [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  cmake --preset install "${launcher[@]}" >/dev/null
  cmake --build --preset install
  echo "== install into $prefix"
  if mkdir -p "$prefix" 2>/dev/null && [ -w "$prefix" ]; then
    cmake --install build/install --prefix "$prefix" --strip >/dev/null
  else
    as_root cmake --install build/install --prefix "$prefix" --strip >/dev/null
  fi
  echo "kopt is at $prefix/bin/kopt ($("$prefix/bin/kopt" --version))"
  case ":$PATH:" in
    *":$prefix/bin:"*) ;;
    *) echo "to run it as kopt, add its folder to PATH (in ~/.bashrc or ~/.profile too):"
       echo "  export PATH=\"$prefix/bin:\$PATH\"" ;;
  esac
fi
