#!/usr/bin/env bash
# The main job on a bundled example, as far as this machine allows:
# environment check, what kopt will do with the kernel, and its build (twice: the second
# build is a cache hit). Timing needs an NVIDIA GPU.
# Usage: scripts/demo.sh [KERNEL] [DIMS...]   (default: examples/softmax_block.cu --rows=4096 --cols=1024)
set -uo pipefail
cd "$(dirname "$0")/.."
kopt=${KOPT_BIN:-build/release/bin/kopt}
if [ ! -x "$kopt" ]; then
  echo "kopt is not built: run scripts/setup.sh first" >&2
  exit 2
fi
kernel=${1:-examples/softmax_block.cu}
shift || true
dims=("$@")
[ ${#dims[@]} -eq 0 ] && dims=(--rows=4096 --cols=1024)
out=build/demo
mkdir -p "$out"

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }

step kopt preflight --out "$out"
"$kopt" preflight --out "$out"
ready=$?

step kopt inspect "$kernel" "${dims[@]}"
"$kopt" inspect "$kernel" "${dims[@]}" || exit $?

step kopt compile "$kernel"
"$kopt" compile "$kernel" || exit $?
step kopt compile "$kernel" "   # again: served from the compile cache"
"$kopt" compile "$kernel" || exit $?

echo
if [ $ready -eq 0 ]; then
  echo "This machine is ready for timing and profiling; kopt bench and kopt profile are not part of this build yet."
else
  echo "Timing and profiling need an NVIDIA GPU with ncu; this machine is not ready (see $out/preflight_check.md)."
fi
