#!/usr/bin/env bash
# The bad-input paths of a Triton kernel through `kopt bench`, as a user meets them, on a
# machine with a GPU (each case prints kopt's exit status and first lines of stderr).
# Usage (repository root): scripts/triton_error_paths.sh [KOPT_BIN]   (default build/release/bin/kopt)
set -u
K=${1:-$PWD/build/release/bin/kopt}
export KOPT_CACHE_DIR=$(mktemp -d)
d=$(mktemp -d)
head='import torch, triton\n\ndef run_kernel(**_):\n    pass\n\n'
printf "import torch\n" > $d/no_functions.py
printf "${head}def setup(*, n, seed=0):\n    return [torch.zeros(n, device='cuda')]\n" > $d/wrong_shape.py
printf "${head}def setup(*, n, seed=0):\n    return {'inputs': {'x': torch.zeros(n, device='cuda')}, 'outputs': ['y']}\n" > $d/output_not_input.py
printf "${head}def setup(*, n, seed=0):\n    return {'inputs': {'x': torch.zeros(n, device='cuda'), 'n': n}, 'outputs': ['n']}\n" > $d/output_not_tensor.py
mkdir -p $d/hide/triton; printf "raise ImportError('No module named triton')\n" > $d/hide/triton/__init__.py
run() {  # run LABEL ENV... -- ARGS...
  local label=$1; shift
  local envs=(); while [ "$1" != "--" ]; do envs+=("$1"); shift; done; shift
  env "${envs[@]}" timeout 120 $K bench "$@" > $d/out.txt 2> $d/err.txt
  echo "## $label: exit $?"; head -c 600 $d/err.txt; echo
}
run "no setup/run_kernel" X=1 -- $d/no_functions.py --n=16
run "setup returns a list" X=1 -- $d/wrong_shape.py --n=16
run "output not among inputs" X=1 -- $d/output_not_input.py --n=16
run "output not a tensor" X=1 -- $d/output_not_tensor.py --n=16
run "run_kernel raises" KOPT_TEST_VARIANT=raises -- tests/data/triton/scale.py --ref tests/data/triton/scale_ref.py --n=1000
run "triton not installed" PYTHONPATH=$d/hide -- examples/triton_softmax.py --rows=64 --cols=64
run ".cu with --backend=triton" X=1 -- examples/vector_add.cu --backend=triton --N=16
run "missing dimension" X=1 -- examples/triton_softmax.py --rows=64
