#!/usr/bin/env bash
# The GPU suite split across calls that each have a time limit (a lent GPU machine's 600 s):
# runs scripts/gpu_tests.sh for one entry after another until DEADLINE_S seconds have passed,
# and says which entries did not start, so that the next call on the same machine takes them up.
# One GPU, one program at a time: kopt's checks see other processes on the GPU.
#
# Usage (repository root): scripts/gpu_tests_in_calls.sh DEADLINE_S BUILD_DIR LOG_DIR ENTRY...
#   ENTRY: a test program (bench_gpu_gtest), a part of one (cuda_integrity_gpu_gtest:0/2),
#   `examples`, or PROGRAM=GTEST_FILTER (the tests a cut call left).
# Writes LOG_DIR/summary.txt (per entry: its exit, its wall, each test's result and time) and
# LOG_DIR/logs.tgz (every log, in one file). KOPT_WHEEL and CUTLASS_PATH pass through to
# gpu_tests.sh; KOPT_CACHE_DIR defaults to .carry/cache, so calls on a warm machine share it.
# Exits 0 only when every entry ran and passed.
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 4 ] || { echo "usage: scripts/gpu_tests_in_calls.sh DEADLINE_S BUILD_DIR LOG_DIR ENTRY..." >&2; exit 2; }
deadline=$1 build=$2 out=$3
shift 3
mkdir -p "$out"
export KOPT_CACHE_DIR=${KOPT_CACHE_DIR:-$PWD/.carry/cache}
mkdir -p "$KOPT_CACHE_DIR"
logs=$(mktemp -d)
summary=$out/summary.txt
: >"$summary"
start=$SECONDS
status=0
for entry in "$@"; do
  left=$((deadline - (SECONDS - start)))
  if [ $left -lt 20 ]; then
    echo "== $entry NOT STARTED (deadline)" >>"$summary"
    status=1
    continue
  fi
  name=${entry%%=*}
  tag=$(echo "$name" | tr ':/' '__')
  began=$SECONDS
  if [ "$name" != "$entry" ]; then
    GTEST_FILTER=${entry#*=} KOPT_GPU_TESTS=$name timeout -k 5 $left scripts/gpu_tests.sh "$build" "$logs/$tag" >"$logs/$tag.txt" 2>&1
  else
    KOPT_GPU_TESTS=$name timeout -k 5 $left scripts/gpu_tests.sh "$build" "$logs/$tag" >"$logs/$tag.txt" 2>&1
  fi
  rc=$?
  [ $rc -eq 0 ] || status=1
  {
    echo "== $entry exit $rc after $((SECONDS - began)) s$([ $rc -eq 124 ] && echo ' (cut at the deadline)')"
    grep -E "^(PASS|FAIL)|passed, " "$logs/$tag.txt"
    cat "$logs/$tag"/*.log 2>/dev/null | grep -E "^\[ +(OK|FAILED) +\]|^\[  PASSED  \]" | sort -u
  } >>"$summary"
done
echo "total $((SECONDS - start)) s" >>"$summary"
tar czf "$out/logs.tgz" -C "$logs" .
grep -E "^==|passed, |FAILED  \] [A-Z]|^total" "$summary"
exit $status
