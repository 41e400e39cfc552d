#!/usr/bin/env bash
# Copies the CUTLASS headers kopt compiles against (from the nvidia-cutlass package) into
# .carry/cutlass, laid out like a CUTLASS checkout, so they can travel to a GPU machine
# that has no package registry. scripts/gpu_tests.sh picks them up. Also packs them as
# .carry/cutlass.tgz (2.4 MiB instead of 28): carry that and unpack it there with
# `tar xzf .carry/cutlass.tgz -C .carry` when the folder would not fit the carry limit.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${KOPT_PYTHON:-python3}
source_dir=$("$python" -c 'import importlib.util as u; print(list(u.find_spec("cutlass_library").submodule_search_locations)[0])')/source
rm -rf .carry/cutlass
mkdir -p .carry/cutlass/tools/util
cp -r "$source_dir/include" .carry/cutlass/include
cp -r "$source_dir/tools/util/include" .carry/cutlass/tools/util/include
tar czf .carry/cutlass.tgz -C .carry cutlass
du -sh .carry/cutlass .carry/cutlass.tgz
