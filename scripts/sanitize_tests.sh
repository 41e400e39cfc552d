#!/usr/bin/env bash
# Builds kopt with AddressSanitizer and UndefinedBehaviorSanitizer (preset debug-asan) and runs
# every test that needs no GPU under them. Python children (references, Triton) are not
# instrumented but load kopt's instrumented harness library, so they run through a wrapper that
# preloads the sanitizer runtime into Python alone: preloading it into every program would break
# nvcc and change how a crashing child ends. Leak checks are left to the instrumented programs.
# Usage: scripts/sanitize_tests.sh [ctest arguments...]
#        scripts/sanitize_tests.sh --inputs   (CI: only the test programs of what reads user input)
set -euo pipefail
# What reads files and flags from users and agents: the front end, the ncu readers, the memory
# database, the MCP server, the command line, the warm worker's socket, the fuzz driver over
# all of them (a bounded pass: at most 60 s a reader) and the whole-program reproducers of what
# broke them (hostile_input_test). These fit in CI's time under the sanitizers; the rest (mostly
# nvcc builds) runs here in full. scripts/fuzz_campaign.sh runs the long campaign.
input_tests=(fuzz_gtest hostile_input_test kernel_gtest analyze_gtest profile_gtest core_gtest memory_gtest mcp_gtest
             cli_gtest inspect_test analyze_cli_test worker_gtest)
only_inputs=false
if [ "${1:-}" = --inputs ]; then only_inputs=true; shift; fi
cd "$(dirname "$0")/.."
scripts/setup.sh --no-build --if-needed
python=${KOPT_PYTHON:-}
if [ -z "$python" ] && [ -x .venv/bin/python ]; then python=$PWD/.venv/bin/python; fi
python=${python:-$(command -v python3)}
cmake --preset debug-asan >/dev/null
if $only_inputs; then
  cmake --build --preset debug-asan --target "${input_tests[@]}"
else
  cmake --build --preset debug-asan
fi
# libstdc++ goes in with the runtime: Python does not link it, and without it at start-up the
# runtime cannot find the real __cxa_throw when the harness library throws.
runtime="$(${CXX:-c++} -print-file-name=libasan.so) $(${CXX:-c++} -print-file-name=libstdc++.so)"
wrapper=$PWD/build/debug-asan/python-with-asan
printf '#!/bin/sh\nLD_PRELOAD="%s" exec %s "$@"\n' "$runtime" "$python" >"$wrapper"
chmod +x "$wrapper"
export KOPT_PYTHON=$wrapper
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# The reference's process gets a clean environment; these pass through it on request.
export KOPT_REFERENCE_KEEP_ENV=ASAN_OPTIONS,UBSAN_OPTIONS
if $only_inputs; then
  # The memory's tests run against PostgreSQL too (ctest starts the server for them; run
  # directly, they are given one here).
  scripts/postgres_server.sh start build/debug-asan/postgres
  trap 'scripts/postgres_server.sh stop build/debug-asan/postgres' EXIT
  export KOPT_TEST_POSTGRESQL_FILE=$PWD/build/debug-asan/postgres/url
  for test in "${input_tests[@]}"; do
    echo "== $test under ASan and UBSan"
    "build/debug-asan/tests/$test" --gtest_brief=1
  done
else
  ctest --test-dir build/debug-asan -LE gpu -j "$(nproc)" --output-on-failure "$@"
fi
