#!/usr/bin/env python3
"""Wall time of one optimization-loop iteration, side by side with the Python toolkit's loop step
(KernelFlow-ops/cuda-optimized-skill, fetched separately: pass its checkout with --toolkit).

Each round starts fresh runs of each tool on two cases (4096 x 1024 with softmax_ref.py): the first
call evaluates v0 (with the machine check), the second v1. The second call is an iteration as an
agent's loop pays for it, in its two kinds:
  losing    v0 softmax_block.cu, v1 the same kernel with a comment added: kopt finds it no faster
            and skips its profile;
  winning   v0 softmax_naive.cu, v1 softmax_block.cu: v1 becomes the best and is profiled in full.
What each tool does in an iteration:
  toolkit   optimize_loop.py: benchmark.py (compile, validate, time), a targeted and a full ncu
            report, their text imports, the manifest and summaries;
  kopt      kopt loop: bench (the judge and timing), the comparison in turns with v0 (while ncu
            exports the profile), one full ncu profile, the analysis, the memory, the summaries
            and the next proposal.
  kopt warm the same calls through kopt's warm worker (KOPT_WARM=1, docs/worker.md): the
            reference's Python is loaded during the call before.
The two tools alternate within a round, their order swapping from round to round.

Usage (GPU machine, repository root):
  python3 benchmarks/loop_step_benchmark.py --kopt PATH --toolkit PATH [--rounds N] [--cases losing,winning]
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


# Each case: v0's example file, and v1's (None: v0 with a comment added).
CASES = {"losing": ("softmax_block.cu", None), "winning": ("softmax_naive.cu", "softmax_block.cu")}


def prepare(folder, case):
    kernel = os.path.join(folder, "softmax.cu")
    shutil.copy(os.path.join("examples", CASES[case][0]), kernel)
    shutil.copy(os.path.join("examples", "softmax_ref.py"), folder)
    return kernel, os.path.join(folder, "softmax_ref.py")


def write_v1(kernel, case):
    v1 = CASES[case][1]
    if v1 is None:
        with open(kernel, "a") as f:
            f.write("\n// v1: the same kernel, resubmitted\n")
    else:
        shutil.copy(os.path.join("examples", v1), kernel)


def toolkit_iterations(toolkit, python, case):
    script = os.path.join(toolkit, TOOLKIT_LOOP)
    with tempfile.TemporaryDirectory() as folder:
        kernel, ref = prepare(folder, case)
        run_dir = os.path.join(folder, "runs", "run_toolkit")
        common = [python, script, kernel, "--ref", ref, "--max-iterations", "3", "--run-dir", run_dir, *DIMS]
        v0, _ = timed(common)
        write_v1(kernel, case)
        v1, _ = timed(common)
        return v0, v1, None


def kopt_iterations(kopt, case, warm=False):
    env = dict(os.environ)
    if warm:
        env["KOPT_WARM"] = "1"
    with tempfile.TemporaryDirectory() as folder:
        kernel, ref = prepare(folder, case)
        memory_db = os.path.join(folder, "memory.db")
        common = [kopt, "loop", kernel, "--ref", ref, "--max-iterations", "3", "--memory-db", memory_db, *DIMS, "--json"]
        v0, run = timed(common, env=env)
        run_dir = json.loads(run.stdout)["run_dir"]
        write_v1(kernel, case)
        v1, run = timed(common + ["--run-dir", run_dir], env=env)
        record = json.loads(run.stdout)["iterations"][1]
        return v0, v1, record


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kopt", required=True)
    parser.add_argument("--toolkit", required=True, help="the cuda-optimized-skill checkout")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--cases", default="losing,winning", help=f"of {', '.join(CASES)}")
    args = parser.parse_args()
    if not os.path.isfile(os.path.join(args.toolkit, TOOLKIT_LOOP)):
        sys.exit(f"loop_step_benchmark.py: {TOOLKIT_LOOP} not found under {args.toolkit}")
    cases = args.cases.split(",")
    if not set(cases) <= set(CASES):
        sys.exit(f"loop_step_benchmark.py: --cases takes {', '.join(CASES)}")
    kopt = os.path.abspath(args.kopt)
    walls = {(case, tool): [] for case in cases for tool in ("toolkit", "kopt", "kopt warm")}
    print("| round | case | tool | v0 call s | v1 call s (one iteration) | kopt v1: outcome, comparison |")
    print("|---|---|---|---|---|---|")
    for r in range(args.rounds):
        order = ["toolkit", "kopt", "kopt warm"] if r % 2 == 0 else ["kopt warm", "kopt", "toolkit"]
        for case in cases:
            for tool in order:
                if tool == "toolkit":
                    v0, v1, record = toolkit_iterations(os.path.abspath(args.toolkit), args.python, case)
                    note = ""
                else:
                    v0, v1, record = kopt_iterations(kopt, case, warm=tool == "kopt warm")
                    c = record.get("comparison") or {}
                    steps = ", ".join(f"{k} {v:.2f}" for k, v in (record.get("step_seconds") or {}).items())
                    note = (f"{record['outcome']}, ratio {c.get('ratio', 0):.4f}, {c.get('rounds', 0)} rounds "
                            f"in {c.get('seconds', 0):.2f} s; steps s: {steps}")
                walls[(case, tool)].append(v1)
                print(f"| {r + 1} | {case} | {tool} | {v0:.1f} | {v1:.1f} | {note} |")
                sys.stdout.flush()
    subprocess.run([kopt, "worker", "stop"], capture_output=True)
    goals = {"losing": "", "winning": " (goal <= 0.2)"}
    for case in cases:
        toolkit = statistics.median(walls[(case, "toolkit")])
        for tool in ("kopt", "kopt warm"):
            wall = statistics.median(walls[(case, tool)])
            print(f"{case} iteration, median wall: toolkit {toolkit:.1f} s, {tool} {wall:.1f} s: "
                  f"{tool}/toolkit = {wall / toolkit:.2f}{goals[case]}")


if __name__ == "__main__":
    main()
