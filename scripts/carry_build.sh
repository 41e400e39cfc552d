#!/usr/bin/env bash
# Copies what a GPU machine needs of a build into .carry/build (git-ignored): kopt with its
# companion files (lib/libkopt_harness_abi.so, share/kopt/, share/doc/kopt/) and the GPU test
# programs, and packs them as .carry/build.txz: carry that, and scripts/gpu_tests.sh unpacks it
# there when the folder itself did not travel. xz with a dictionary larger than one program:
# the test programs are mostly the same kopt libraries linked in again, so the archive holds them
# about once (101 MB of programs in 10 MB, where gzip's 32 KiB window left 42 MB).
# Run scripts/gpu_tests.sh .carry/build there.
# With --wheel it also makes kopt's wheel of that build (installed with cmake --install, then
# packed by the backend of `pip install .`, wheel/kopt_wheel_backend.py) into .carry/, so that
# the GPU tests run against a pip-installed kopt built with them:
#   KOPT_WHEEL=.carry/kopt-*.whl scripts/gpu_tests.sh .carry/build
# Usage: scripts/carry_build.sh [--wheel] [BUILD_DIR]   (default build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
wheel=0
if [ "${1:-}" = "--wheel" ]; then
  wheel=1
  shift
fi
build=${1:-build/release}
rm -rf .carry/build
mkdir -p .carry/build/bin .carry/build/lib .carry/build/share .carry/build/tests
cp "$build/bin/kopt" .carry/build/bin/
cp "$build/lib/libkopt_harness_abi.so" .carry/build/lib/
cp -r "$build/share/kopt" "$build/share/doc" .carry/build/share/
cp "$build"/tests/*_gpu_gtest .carry/build/tests/
# Symbols are not needed there, and the copy must stay small enough to travel.
strip --strip-unneeded .carry/build/bin/kopt .carry/build/lib/libkopt_harness_abi.so .carry/build/tests/*
du -sh .carry/build
rm -f .carry/build.tgz
tar cf - -C .carry build | xz -T0 -9 --lzma2=preset=9,dict=192MiB >.carry/build.txz
du -sh .carry/build.txz
if [ $wheel -eq 1 ]; then
  rm -f .carry/kopt-*.whl
  staging=$(mktemp -d)
  cmake --install "$build" --prefix "$staging" --strip >/dev/null
  PYTHONPATH=wheel python3 -c 'import sys, kopt_wheel_backend as b; print(b.wheel_from_prefix(sys.argv[1], ".carry"))' \
    "$staging" >/dev/null
  rm -rf "$staging"
  ls -sh .carry/kopt-*.whl
  du -ch .carry/build.txz .carry/kopt-*.whl | tail -n 1   # what travels; must stay under 64 MiB
fi
