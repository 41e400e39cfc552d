#!/usr/bin/env bash
# The long fuzz campaign, under AddressSanitizer and UndefinedBehaviorSanitizer (preset
# debug-asan): structure-aware mutants of every reader of untrusted input (the memory import in
# both formats, the run folder, the comparison records, the reference-timing cache, ncu's pages)
# through the kopt binary with --json where a command reads them, and sessions of mutated MCP
# requests through `kopt mcp` (tests/fuzz/fuzz_campaign.cpp). Prints a table of counts per
# reader and the number of findings (a signal, a hang, stdout that is not JSON, a refusal that is
# not one line, a sanitizer's report, an unanswered request), keeps each finding's input under
# the work folder, and exits 1 when there is one. CI runs the bounded pass instead (fuzz_gtest,
# scripts/sanitize_tests.sh --inputs).
# Usage: scripts/fuzz_campaign.sh [--mutants 5000] [--mcp-requests 2000] [--jobs 2] [--seed S] [--work DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
work=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --work) work=$2; shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done
scripts/setup.sh --no-build --if-needed
cmake --preset debug-asan >/dev/null
cmake --build --preset debug-asan --target kopt fuzz_campaign
# Every report ends the program at once, as a signal the campaign counts.
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:abort_on_error=1
if [ -z "$work" ]; then work=$(mktemp -d "${TMPDIR:-/tmp}/kopt-fuzz-campaign-XXXXXX"); fi
echo "fuzz campaign: $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD), work folder $work"
build/debug-asan/tests/fuzz_campaign --kopt "$PWD/build/debug-asan/bin/kopt" --work "$work" "${args[@]}"
