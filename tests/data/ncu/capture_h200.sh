#!/usr/bin/env bash
# Captures the Nsight Compute fixtures in tests/data/ncu/h200/ from the example kernels, on a
# GPU machine: one `--set full` pass per case, gated by the profiler window of kopt's profile
# mode (or of triton_profile_window.py), then the raw CSV in base units, the details CSV with
# every rule, and the source page with its per-line counters.
# Usage: tests/data/ncu/capture_h200.sh OUT_DIR     (KOPT_BIN: the kopt to run; default the build's)
set -uo pipefail
cd "$(dirname "$0")/../../.."
out=${1:?usage: capture_h200.sh OUT_DIR}
mkdir -p "$out"
kopt=${KOPT_BIN:-build/release/bin/kopt}
python=${KOPT_PYTHON:-python3}
# Metrics the analysis needs that --set full lacks (../shared/NCU.md).
extra=dram__throughput.avg.pct_of_peak_sustained_elapsed
for op in fadd fmul ffma dadd dmul dfma hfma; do
  extra+=",smsp__sass_thread_inst_executed_op_${op}_pred_on.sum"
done
extra+=",breakdown:gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"

profile() {
  local name=$1; shift
  echo "== $name: $*"
  ncu --profile-from-start off --clock-control none --set full --import-source yes --metrics "$extra" \
      -f -o "$out/$name" "$@" >"$out/$name.log" 2>&1 || echo "ncu failed for $name (see $name.log)"
  ncu -i "$out/$name.ncu-rep" --csv --page raw --print-units base >"$out/${name}_raw.csv"
  ncu -i "$out/$name.ncu-rep" --csv --page details --print-details all >"$out/${name}_details.csv"
  ncu -i "$out/$name.ncu-rep" --csv --page source --print-source cuda,sass >"$out/${name}_source.csv" 2>&1 || true
}

profile softmax_naive "$kopt" bench examples/softmax_naive.cu --rows=4096 --cols=1024 --profile-mode
profile softmax_block "$kopt" bench examples/softmax_block.cu --rows=4096 --cols=1024 --profile-mode
profile vector_add "$kopt" bench examples/vector_add.cu --N=16777216 --profile-mode
profile matmul_naive "$kopt" bench examples/matmul_naive.cu --M=1024 --N=1024 --K=1024 --profile-mode
profile cutlass_gemm "$kopt" bench examples/cutlass_gemm.cu --M=4096 --N=4096 --K=4096 --profile-mode
profile histogram "$kopt" bench examples/histogram.cu --N=16777216 --num_bins=256 --profile-mode
profile triton_softmax "$python" tests/data/ncu/triton_profile_window.py examples/triton_softmax.py rows=4096 cols=1024
