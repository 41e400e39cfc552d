#!/usr/bin/env bash
# Records a real 3-version run of `kopt loop` on a GPU machine, for the report's fixture
# (tests/data/report/): a scripted agent takes the softmax example from one thread per row
# (examples/softmax_naive.cu) to one block per row with scalar loads, then to float4 loads
# (examples/softmax_block.cu). The run folder is packed without the .ncu-rep files (the
# report reads the exported pages and the analysis, not the binary report).
# Usage: scripts/record_loop_run.sh KOPT OUT.tgz
set -euo pipefail
kopt=$(realpath "$1")
out=$(realpath -m "$2")
cd "$(dirname "$0")/.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp examples/softmax_naive.cu "$work/softmax.cu"
cp examples/softmax_ref.py "$work/softmax_ref.py"
mkdir "$work/versions"
sed 's/if (cols % 4 == 0 \&\& aligned) {/if (false \&\& aligned) {/' examples/softmax_block.cu >"$work/versions/v1.cu"
grep -q 'if (false && aligned) {' "$work/versions/v1.cu"   # the scalar version really differs
cp examples/softmax_block.cu "$work/versions/v2.cu"
printf -- '- one_block_per_row\n- warp_shuffle_reduction\n' >"$work/versions/v1.tags"
printf -- '- vectorized_float4_io\n' >"$work/versions/v2.tags"
cat >"$work/agent.sh" <<'AGENT'
#!/bin/sh
set -e
d=$(dirname "$0")/versions
cp "$d/v$KOPT_NEXT_ITERATION.cu" "$KOPT_KERNEL"
cat "$d/v$KOPT_NEXT_ITERATION.tags" >>"$KOPT_PROPOSAL"
AGENT
(cd "$work" && "$kopt" loop softmax.cu --ref softmax_ref.py --rows=4096 --cols=1024 --max-iterations 2 \
  --agent "sh agent.sh" --memory-db memory.db --run-dir optimize_runs/run_h200 --new-run --json >loop.json)
tar czf "$out" -C "$work/optimize_runs" --exclude='*.ncu-rep' run_h200 -C "$work" memory.db loop.json
echo "recorded $(tar tzf "$out" | wc -l) files into $out"
