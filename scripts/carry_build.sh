#!/usr/bin/env bash
# Copies what a GPU machine needs of a build into .carry/build (git-ignored): kopt with its
# companion files (lib/libkopt_harness_abi.so, share/kopt/kopt_runner.py) and the GPU test
# programs, and packs them as .carry/build.tgz (a third of the size): carry that, and
# scripts/gpu_tests.sh unpacks it there when the folder itself did not travel.
# Run scripts/gpu_tests.sh .carry/build there.
# Usage: scripts/carry_build.sh [BUILD_DIR]   (default build/release)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/release}
rm -rf .carry/build
mkdir -p .carry/build/bin .carry/build/lib .carry/build/share .carry/build/tests
cp "$build/bin/kopt" .carry/build/bin/
cp "$build/lib/libkopt_harness_abi.so" .carry/build/lib/
cp -r "$build/share/kopt" .carry/build/share/
cp "$build"/tests/*_gpu_gtest .carry/build/tests/
# Symbols are not needed there, and the copy must stay small enough to travel.
strip --strip-unneeded .carry/build/bin/kopt .carry/build/lib/libkopt_harness_abi.so .carry/build/tests/*
du -sh .carry/build
tar czf .carry/build.tgz -C .carry build
du -sh .carry/build.tgz
