#!/usr/bin/env bash
# Runs kopt's GPU tests on a machine with an NVIDIA GPU, using a build made elsewhere
# (the CPU machine) and carried here. Nothing is skipped: a missing GPU, a missing test
# binary or a failing check fails the run.
#
# Usage (from the repository root): scripts/gpu_tests.sh [BUILD_DIR] [LOG_DIR]
#   BUILD_DIR  default build/release (holds bin/kopt and tests/*_gpu_gtest)
#   LOG_DIR    default $OUT when set, else build/gpu-test-logs
# KOPT_GPU_TESTS="a_gpu_gtest b_gpu_gtest" runs only those programs (to split the suite across
# calls that each have a time limit); every program named must exist. The examples check runs
# then only when the list names `examples`. NAME:I/N runs the I-th of N parts of that program's
# tests (GoogleTest's sharding, I from 0): a program too long for one call is split across
# calls. One call at a time on a GPU: side by side, kopt's checks see each other's processes.
# KOPT_WHEEL=FILE installs that kopt wheel first (pip install --no-index --no-deps into a
# scratch prefix) and tests the kopt it installed instead of BUILD_DIR's (scripts/carry_build.sh
# --wheel makes one).
# CUTLASS headers: $CUTLASS_PATH, else .carry/cutlass (scripts/carry_cutlass.sh makes it, and
# .carry/cutlass.tgz, which is unpacked here when only the tarball travelled).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${1:-build/release}
logs=${2:-${OUT:-build/gpu-test-logs}}
mkdir -p "$logs"
export KOPT_BIN=$root/$build/bin/kopt
export KOPT_SOURCE_DIR=$root
export KOPT_CACHE_DIR=${KOPT_CACHE_DIR:-$(mktemp -d)}
if [ ! -x "$root/$build/bin/kopt" ] && [ -f "$root/.carry/build.txz" ]; then
  # Carried packed (scripts/carry_build.sh); Python's tarfile, since the GPU machine may lack xz.
  python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2], filter="tar")' \
    "$root/.carry/build.txz" "$root/.carry" || exit 1
fi
if [ -n "${KOPT_WHEEL:-}" ]; then
  # --prefix: the system's Python may refuse installs into itself (PEP 668), not into a prefix.
  wheel_prefix=$(mktemp -d)
  python3 -m pip install --no-index --no-deps --quiet --prefix "$wheel_prefix" "$KOPT_WHEEL" || exit 1
  KOPT_BIN=$wheel_prefix/bin/kopt
  echo "testing the kopt installed from $KOPT_WHEEL: $KOPT_BIN"
fi
if [ -z "${CUTLASS_PATH:-}" ] && [ ! -d "$root/.carry/cutlass/include" ] && [ -f "$root/.carry/cutlass.tgz" ]; then
  tar xzf "$root/.carry/cutlass.tgz" -C "$root/.carry"   # carried packed (scripts/carry_cutlass.sh)
fi
if [ -z "${CUTLASS_PATH:-}" ] && [ -d "$root/.carry/cutlass/include" ]; then
  export CUTLASS_PATH=$root/.carry/cutlass
fi

passed=0
failed=0
check() {  # check NAME COMMAND...: runs, logs to $logs/NAME.log, counts
  local name=$1
  shift
  if "$@" >"$logs/$name.log" 2>&1; then
    passed=$((passed + 1))
    echo "PASS $name"
  else
    failed=$((failed + 1))
    echo "FAIL $name (log: $logs/$name.log)"
    tail -n 20 "$logs/$name.log"
  fi
}

check version "$KOPT_BIN" --version
check preflight "$KOPT_BIN" preflight --out "$logs"

if [ -n "${KOPT_GPU_TESTS:-}" ]; then
  gpu_tests=""
  for name in $KOPT_GPU_TESTS; do
    [ "$name" = examples ] || gpu_tests="$gpu_tests $build/tests/$name"
  done
else
  gpu_tests=$(ls "$build"/tests/*_gpu_gtest 2>/dev/null)
fi
run_part() {  # run_part PROGRAM INDEX COUNT: that part of the program's tests
  GTEST_SHARD_INDEX=$2 GTEST_TOTAL_SHARDS=$3 "$1"
}
if [ -z "$gpu_tests" ] && [ "${KOPT_GPU_TESTS:-}" != examples ]; then
  echo "FAIL no GPU test programs in $build/tests"
  failed=$((failed + 1))
fi
for entry in $gpu_tests; do
  test_program=${entry%%:*}
  if [ ! -x "$test_program" ]; then
    echo "FAIL $test_program is missing"
    failed=$((failed + 1))
    continue
  fi
  if [ "$entry" = "$test_program" ]; then
    check "$(basename "$test_program")" "$test_program"
  elif [[ ${entry#*:} =~ ^([0-9]+)/([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -lt "${BASH_REMATCH[2]}" ]; then
    check "$(basename "$test_program")-part${BASH_REMATCH[1]}of${BASH_REMATCH[2]}" \
      run_part "$test_program" "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
  else
    echo "FAIL $entry: a part is written NAME:I/N with 0 <= I < N"
    failed=$((failed + 1))
  fi
done
if [ -n "${KOPT_GPU_TESTS:-}" ] && [[ " $KOPT_GPU_TESTS " != *" examples "* ]]; then
  echo "$passed passed, $failed failed"
  [ $failed -eq 0 ]
  exit
fi

# Every example builds for this GPU and computes what its reference computes.
libs=$(mktemp -d)
compile_example() {  # compile_example SOURCE: builds it with kopt, links the library as $libs/STEM.so
  local stem
  stem=$(basename "$1" .cu)
  "$KOPT_BIN" compile "$1" --json >"$logs/compile_$stem.json" || return 1
  ln -sf "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["library"])' "$logs/compile_$stem.json")" \
    "$libs/$stem.so"
}
for source in examples/*.cu; do
  check "compile_$(basename "$source" .cu)" compile_example "$source"
done
check examples python3 examples/check_examples.py --lib-dir "$libs"

echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
