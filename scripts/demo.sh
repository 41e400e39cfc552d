#!/usr/bin/env bash
# The main job on a bundled example, as far as this machine allows: environment check, what
# kopt will do with the kernel, its build (twice: the second build is a cache hit), and on a
# machine with an NVIDIA GPU, validation against a reference and timing (kopt bench).
# First it sets up what is missing and installs kopt (scripts/setup.sh: into $KOPT_PREFIX, else
# ~/.local, or /usr/local as root), and runs the kopt installed there.
# Usage: scripts/demo.sh [KERNEL REFERENCE DIMS...]
#   default: examples/softmax_block.cu examples/softmax_ref.py --rows=4096 --cols=1024
#   KOPT_BIN=PATH runs that kopt instead, without setting anything up.
set -uo pipefail
cd "$(dirname "$0")/.."
kopt=${KOPT_BIN:-}
if [ -z "$kopt" ]; then
  # Packages once per version of setup.sh, then an incremental build of kopt alone, installed.
  scripts/setup.sh --if-needed || exit 2
  kopt=$(scripts/setup.sh --print-prefix)/bin/kopt
fi
kernel=${1:-examples/softmax_block.cu}
reference=${2:-examples/softmax_ref.py}
if [ $# -ge 2 ]; then shift 2; else shift $#; fi
dims=("$@")
[ ${#dims[@]} -eq 0 ] && dims=(--rows=4096 --cols=1024)
out=build/demo
mkdir -p "$out"

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

step kopt preflight --out "$out"
"$kopt" preflight --out "$out"

step kopt inspect "$kernel" "${dims[@]}"
"$kopt" inspect "$kernel" "${dims[@]}" || exit $?

step kopt compile "$kernel"
"$kopt" compile "$kernel" || exit $?
step kopt compile "$kernel" "   # again: served from the compile cache"
"$kopt" compile "$kernel" || exit $?

gpu_status=$(python3 -c 'import json,sys; print(next(c["status"] for c in json.load(open(sys.argv[1]))["checks"] if c["name"] == "GPU"))' \
  "$out/preflight_check.json" 2>/dev/null)
if [ "$gpu_status" != "ok" ]; then
  echo
  echo "Timing needs an NVIDIA GPU: this machine has none (see $out/preflight_check.md); inspect and compile ran."
  exit 0
fi

step kopt bench "$kernel" --ref "$reference" "${dims[@]}" --json-out "$out/benchmark_result.json"
"$kopt" bench "$kernel" --ref "$reference" "${dims[@]}" --json-out "$out/benchmark_result.json"
