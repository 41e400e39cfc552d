#!/usr/bin/env bash
# Builds kopt with AddressSanitizer and UndefinedBehaviorSanitizer (preset debug-asan) and runs
# every test that needs no GPU under them. Python children (references, Triton) are not
# instrumented but load kopt's instrumented harness library, so the sanitizer runtime is
# preloaded for them and leak checks are left to the instrumented programs.
# Usage: scripts/sanitize_tests.sh [ctest arguments...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --no-build --if-needed
if [ -z "${KOPT_PYTHON:-}" ] && [ -x .venv/bin/python ]; then export KOPT_PYTHON=$PWD/.venv/bin/python; fi
cmake --preset debug-asan >/dev/null
cmake --build --preset debug-asan
runtime=$(${CXX:-c++} -print-file-name=libasan.so)
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The reference's process gets a clean environment; these two pass through it on request.
export KOPT_REFERENCE_KEEP_ENV=LD_PRELOAD,ASAN_OPTIONS,UBSAN_OPTIONS
LD_PRELOAD=$runtime ctest --test-dir build/debug-asan -LE gpu -j "$(nproc)" --output-on-failure "$@"
