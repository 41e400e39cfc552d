#!/usr/bin/env bash
# Sets up what is missing, builds with warnings as errors and runs every test that needs no GPU.
# (GPU tests carry the ctest label `gpu`; scripts/gpu_tests.sh runs them on a GPU machine.)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --no-build --if-needed   # packages, once per version of setup.sh
# setup.sh falls back to .venv where the system Python refuses packages.
if [ -z "${KOPT_PYTHON:-}" ] && [ -x .venv/bin/python ]; then export KOPT_PYTHON=$PWD/.venv/bin/python; fi
cmake --preset ci >/dev/null
cmake --build --preset ci
ctest --preset ci -j "$(nproc)"
