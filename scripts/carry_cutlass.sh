#!/usr/bin/env bash
# Copies the CUTLASS headers kopt compiles against (from the nvidia-cutlass package) into
# .carry/cutlass, laid out like a CUTLASS checkout, so they can travel to a GPU machine
# that has no package registry. scripts/gpu_tests.sh picks them up.
set -euo pipefail
cd "$(dirname "$0")/.."
python=${KOPT_PYTHON:-python3}
source_dir=$("$python" -c 'import importlib.util as u; print(list(u.find_spec("cutlass_library").submodule_search_locations)[0])')/source
rm -rf .carry/cutlass
mkdir -p .carry/cutlass/tools/util
cp -r "$source_dir/include" .carry/cutlass/include
cp -r "$source_dir/tools/util/include" .carry/cutlass/tools/util/include
du -sh .carry/cutlass
