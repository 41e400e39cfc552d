#!/usr/bin/env python3
"""Wall time of one optimization-loop iteration, side by side with the Python toolkit's loop step
(KernelFlow-ops/cuda-optimized-skill, fetched separately: pass its checkout with --toolkit).

Each round starts a fresh run of each tool on the same case (softmax_block.cu 4096 x 1024 with
softmax_ref.py): the first call evaluates v0 (with the machine check), the second v1, the same
kernel with a comment added. The second call is an iteration as an agent's loop pays for it:
  toolkit   optimize_loop.py: benchmark.py (compile, validate, time), a targeted and a full ncu
            report, their text imports, the manifest and summaries;
  kopt      kopt loop: bench (the judge and timing), the comparison in turns with v0 (while ncu
            exports the profile), one full ncu profile, the analysis, the memory, the summaries
            and the next proposal.
  kopt warm the same calls through kopt's warm worker (KOPT_WARM=1, docs/worker.md): the
            reference's Python is loaded during the call before.
The two tools alternate within a round, their order swapping from round to round.

Usage (GPU machine, repository root):
  python3 benchmarks/loop_step_benchmark.py --kopt PATH --toolkit PATH [--rounds N]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

DIMS = ["--rows=4096", "--cols=1024"]
TOOLKIT_LOOP = "skills/optimized-skill/operator-optimize-loop/scripts/optimize_loop.py"


def timed(argv, cwd=None, env=None):
    started = time.perf_counter()
    run = subprocess.run(argv, capture_output=True, text=True, cwd=cwd, env=env)
    wall = time.perf_counter() - started
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: exit {run.returncode}: {(run.stderr or run.stdout).strip()[-800:]}")
    return wall, run


def prepare(folder):
    for name in ("softmax_block.cu", "softmax_ref.py"):
        shutil.copy(os.path.join("examples", name), folder)
    return os.path.join(folder, "softmax_block.cu"), os.path.join(folder, "softmax_ref.py")


def change_comment(kernel):
    with open(kernel, "a") as f:
        f.write("\n// v1: the same kernel, resubmitted\n")


def toolkit_iterations(toolkit, python):
    script = os.path.join(toolkit, TOOLKIT_LOOP)
    with tempfile.TemporaryDirectory() as folder:
        kernel, ref = prepare(folder)
        run_dir = os.path.join(folder, "runs", "run_toolkit")
        common = [python, script, kernel, "--ref", ref, "--max-iterations", "3", "--run-dir", run_dir, *DIMS]
        v0, _ = timed(common)
        change_comment(kernel)
        v1, _ = timed(common)
        return v0, v1, None


def kopt_iterations(kopt, warm=False):
    env = dict(os.environ)
    if warm:
        env["KOPT_WARM"] = "1"
    with tempfile.TemporaryDirectory() as folder:
        kernel, ref = prepare(folder)
        memory_db = os.path.join(folder, "memory.db")
        common = [kopt, "loop", kernel, "--ref", ref, "--max-iterations", "3", "--memory-db", memory_db, *DIMS, "--json"]
        v0, run = timed(common, env=env)
        run_dir = json.loads(run.stdout)["run_dir"]
        change_comment(kernel)
        v1, run = timed(common + ["--run-dir", run_dir], env=env)
        record = json.loads(run.stdout)["iterations"][1]
        return v0, v1, record


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kopt", required=True)
    parser.add_argument("--toolkit", required=True, help="the cuda-optimized-skill checkout")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    if not os.path.isfile(os.path.join(args.toolkit, TOOLKIT_LOOP)):
        sys.exit(f"loop_step_benchmark.py: {TOOLKIT_LOOP} not found under {args.toolkit}")
    kopt = os.path.abspath(args.kopt)
    walls = {"toolkit": [], "kopt": [], "kopt warm": []}
    print("| round | tool | v0 call s | v1 call s (one iteration) | kopt v1: outcome, comparison |")
    print("|---|---|---|---|---|")
    for r in range(args.rounds):
        order = ["toolkit", "kopt", "kopt warm"] if r % 2 == 0 else ["kopt warm", "kopt", "toolkit"]
        for tool in order:
            if tool == "toolkit":
                v0, v1, record = toolkit_iterations(os.path.abspath(args.toolkit), args.python)
                note = ""
            else:
                v0, v1, record = kopt_iterations(kopt, warm=tool == "kopt warm")
                c = record.get("comparison") or {}
                steps = ", ".join(f"{k} {v:.2f}" for k, v in (record.get("step_seconds") or {}).items())
                note = (f"{record['outcome']}, ratio {c.get('ratio', 0):.4f}, {c.get('rounds', 0)} rounds "
                        f"in {c.get('seconds', 0):.2f} s; steps s: {steps}")
            walls[tool].append(v1)
            print(f"| {r + 1} | {tool} | {v0:.1f} | {v1:.1f} | {note} |")
            sys.stdout.flush()
    subprocess.run([kopt, "worker", "stop"], capture_output=True)
    toolkit = statistics.median(walls["toolkit"])
    for tool in ("kopt", "kopt warm"):
        wall = statistics.median(walls[tool])
        print(f"median wall per iteration: toolkit {toolkit:.1f} s, {tool} {wall:.1f} s: {tool}/toolkit = "
              f"{wall / toolkit:.2f} (goal <= 0.35)")


if __name__ == "__main__":
    main()
