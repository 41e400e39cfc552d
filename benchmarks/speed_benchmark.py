#!/usr/bin/env python3
"""How long kopt takes to give its answer, side by side with the Python toolkit it replaces
(KernelFlow-ops/cuda-optimized-skill, fetched separately: pass its checkout with --toolkit).
Every round runs every case once, in an order that rotates from round to round, so that the
machine's drift hits all of them. Walls are whole commands as a user runs them.

Cases (softmax 4096 x 1024 unless named otherwise):
  toolkit .py           the toolkit's benchmark.py (it compiles every time) with softmax_ref.py
  kopt .py, cold        kopt bench with softmax_ref.py and empty caches
  kopt .py              the same with the compile cache warm, the reference timed in the run
                        (--fresh-reference)
  kopt .py, warm        a re-bench as a loop makes one: through kopt's warm worker (KOPT_WARM=1:
                        the reference's Python was started during the last command,
                        docs/worker.md), the reference's timing kept from the last run
                        (docs/timing.md); its outputs are still made and compared
  kopt .cu              kopt bench of vector_add 16M with its native .cu reference, timed in the run
  kopt .cu, warm        the same, warm as above
  kopt triton           kopt bench of examples/triton_softmax.py with softmax_ref.py, timed in the run
  kopt triton, warm     the same, warm as above (the problem step's Python too)
  kopt profile          kopt profile (one ncu pass) of softmax_block

The reference's timing is kept under $KOPT_CACHE_DIR only where the kernel's process cannot
write: set KOPT_CACHE_DIR outside the temporary folder (every "warm" case says in its result
whether the timing came from the cache).

For kopt the result's phases (phases_s) say where the time went; "fixed" is the wall minus the
time spent sampling (the kernel's and the reference's timing phases; a Python reference's runner
reports its timing apart from its own costs). "outside phases" is the wall minus kopt's top-level
phases: kopt's own start and end, the warm worker's request, printing.

With --min-seconds F every kopt bench case runs twice in each round: as kopt runs it by default and
with sampling's minimum time at F seconds (the case's name then ends in "min F s"), side by side.

Usage (GPU machine, repository root):
  python3 benchmarks/speed_benchmark.py --kopt PATH --toolkit PATH [--rounds N] [--cases "NAME;NAME"]
      [--min-seconds F] [--before KOPT]
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

from kopt_bench_run import kopt_bench, phase_text

SOFTMAX_DIMS = ["--rows=4096", "--cols=1024"]
TOOLKIT_SCRIPT = "skills/optimized-skill/kernel-benchmark/scripts/benchmark.py"


def timed(argv, env=None, cwd=None):
    """(wall seconds, completed process); RuntimeError naming the command when it fails."""
    started = time.perf_counter()
    run = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=cwd)
    wall = time.perf_counter() - started
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)}: exit {run.returncode}: {(run.stderr or run.stdout).strip()[-600:]}")
    return wall, run


def toolkit_case(toolkit, python):
    script = os.path.join(toolkit, TOOLKIT_SCRIPT)
    if not os.path.isfile(script):
        sys.exit(f"speed_benchmark.py: {script} not found: --toolkit is the cuda-optimized-skill checkout")

    def run():
        # The toolkit writes its build beside the source: give it copies in a folder of its own.
        with tempfile.TemporaryDirectory() as folder:
            for name in ("softmax_block.cu", "softmax_ref.py"):
                shutil.copy(os.path.join("examples", name), folder)
            wall, _ = timed([python, script, os.path.join(folder, "softmax_block.cu"), "--ref",
                             os.path.join(folder, "softmax_ref.py"), *SOFTMAX_DIMS])
            return wall, None
    return run


def kopt_bench_case(kopt, case_args, cold_cache=False, warm=False, extra_env=None):
    args = case_args if warm else [*case_args, "--fresh-reference"]

    def run():
        env = dict(os.environ, **(extra_env or {}))
        if warm:
            env["KOPT_WARM"] = "1"  # through this kopt's warm worker (docs/worker.md)
        with tempfile.TemporaryDirectory() as folder:
            if cold_cache:
                env["KOPT_CACHE_DIR"] = os.path.join(folder, "cache")
            result, wall = kopt_bench(kopt, args, env)
            return wall, result
    run.with_args = lambda extra: kopt_bench_case(kopt, [*case_args, *extra], cold_cache, warm, extra_env)
    return run


def with_floor(case, min_seconds):
    """The case and, for a kopt bench case, its twin with `--min-seconds`."""
    name, run = case
    if not hasattr(run, "with_args"):
        return [case]
    return [case, (f"{name}, min {min_seconds:g} s", run.with_args(["--min-seconds", str(min_seconds)]))]


def kopt_profile_case(kopt, args):
    def run():
        with tempfile.TemporaryDirectory() as folder:
            wall, _ = timed([kopt, "profile", *args, "--out", os.path.join(folder, "profile")])
            return wall, profile_result(os.path.join(folder, "profile"))
    return run


def profile_result(folder):
    for root, _, files in os.walk(folder):
        if "profile.json" in files:
            with open(os.path.join(root, "profile.json")) as f:
                return json.load(f)
    return None


def sampling_seconds(result):
    """The kernel's and the reference's timing phases [s] (0 when not reported). A Python
    reference is timed inside its runner, which reports no timing phase of its own: that time
    counts as fixed."""
    phases = (result or {}).get("phases_s") or {}
    total = 0.0
    for side in ("kernel", "reference"):
        steps = phases.get(side) or {}
        total += sum(v for k, v in steps.items() if k == "timing" and isinstance(v, (int, float)))
    return total


def outside_phases(wall, result):
    """[s] of the wall that no top-level phase of the result covers."""
    steps = ((result or {}).get("phases_s") or {}).get("steps") or {}
    return wall - sum(v for v in steps.values() if isinstance(v, (int, float)))


def result_phase_text(result, wall):
    """The result's phases and, for a Python reference, its runner's overheads."""
    text = phase_text((result or {}).get("phases_s") or {})
    if result:
        text += f"; outside phases {outside_phases(wall, result):.2f}"
    runner = ((result or {}).get("reference_runner") or {}).get("overhead_s")
    if runner:
        text += "; runner: " + ", ".join(f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}"
                                         for k, v in runner.items())
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kopt", required=True)
    parser.add_argument("--toolkit", required=True, help="checkout of KernelFlow-ops/cuda-optimized-skill")
    parser.add_argument("--python", default=sys.executable, help="Python with torch, for the toolkit")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cases", help="only these cases, by name, separated by ';' (default: all)")
    parser.add_argument("--min-seconds", type=float,
                        help="also run every kopt bench case with this minimum sampling time [s]")
    parser.add_argument("--before", help="an earlier kopt build: its .py and .cu cases run beside this build's "
                                         "(names starting with 'before:')")
    args = parser.parse_args()

    cases = [
        ("toolkit .py", toolkit_case(args.toolkit, args.python)),
        ("kopt .py, cold", kopt_bench_case(args.kopt, ["examples/softmax_block.cu", "--ref=examples/softmax_ref.py",
                                                       *SOFTMAX_DIMS], cold_cache=True)),
        ("kopt .py", kopt_bench_case(args.kopt, ["examples/softmax_block.cu", "--ref=examples/softmax_ref.py",
                                                 *SOFTMAX_DIMS])),
        ("kopt .py, warm", kopt_bench_case(args.kopt, ["examples/softmax_block.cu", "--ref=examples/softmax_ref.py",
                                                       *SOFTMAX_DIMS], warm=True)),
        ("kopt .py, warm, reference context at its start",
         kopt_bench_case(args.kopt, ["examples/softmax_block.cu", "--ref=examples/softmax_ref.py", *SOFTMAX_DIMS],
                         warm=True, extra_env={"KOPT_REFERENCE_CONTEXT_AHEAD": "0"})),
        ("kopt .cu (vector_add 16M)", kopt_bench_case(args.kopt, ["examples/vector_add.cu",
                                                                  "--ref=examples/vector_add_ref.cu", "--N=16777216"])),
        ("kopt .cu (vector_add 16M), warm", kopt_bench_case(args.kopt, ["examples/vector_add.cu",
                                                                        "--ref=examples/vector_add_ref.cu",
                                                                        "--N=16777216"], warm=True)),
        ("kopt triton", kopt_bench_case(args.kopt, ["examples/triton_softmax.py", "--ref=examples/softmax_ref.py",
                                                    *SOFTMAX_DIMS])),
        ("kopt triton, warm", kopt_bench_case(args.kopt, ["examples/triton_softmax.py",
                                                                 "--ref=examples/softmax_ref.py", *SOFTMAX_DIMS],
                                                     warm=True)),
        ("kopt profile", kopt_profile_case(args.kopt, ["examples/softmax_block.cu", *SOFTMAX_DIMS])),
    ]
    if args.before:
        cases += [
            ("before: kopt .py", kopt_bench_case(args.before, ["examples/softmax_block.cu",
                                                               "--ref=examples/softmax_ref.py", *SOFTMAX_DIMS])),
            ("before: kopt .cu (vector_add 16M)", kopt_bench_case(args.before, [
                "examples/vector_add.cu", "--ref=examples/vector_add_ref.cu", "--N=16777216"])),
        ]
    if args.cases:
        wanted = [name.strip() for name in args.cases.split(";")]
        unknown = [name for name in wanted if name not in dict(cases)]
        if unknown:
            sys.exit(f"speed_benchmark.py: no case named {unknown[0]!r}; the cases: {'; '.join(n for n, _ in cases)}")
        cases = [case for case in cases if case[0] in wanted]
    if args.min_seconds is not None:
        cases = [twin for case in cases for twin in with_floor(case, args.min_seconds)]
    # Warm-up: compile caches and the file system cache, as a user's second command finds them.
    for name, run in cases:
        try:
            run()
        except RuntimeError as e:
            print(f"warm-up of {name} failed: {e}", file=sys.stderr)
    walls = {name: [] for name, _ in cases}
    medians = {name: [] for name, _ in cases}  # the kernel's median [ms] of each round, where timed
    last = {}
    last_wall = {}
    warnings = {name: set() for name, _ in cases}  # every warning a case's results gave, once
    for round_index in range(args.rounds):
        order = cases[round_index % len(cases):] + cases[:round_index % len(cases)]
        for name, run in order:
            try:
                wall, result = run()
            except RuntimeError as e:
                print(f"{name} failed: {e}", file=sys.stderr)
                continue
            walls[name].append(wall)
            kernel_median = ((result or {}).get("kernel") or {}).get("median_ms")
            if isinstance(kernel_median, (int, float)):
                medians[name].append(kernel_median)
            last[name] = result
            last_wall[name] = wall
            warnings[name].update(str(w) for w in (result or {}).get("warnings") or [])
            print(f"round {round_index + 1} {name}: {wall:.2f} s", file=sys.stderr, flush=True)

    toolkit = statistics.median(walls["toolkit .py"]) if walls.get("toolkit .py") else None
    print(f"{args.rounds} rounds; wall median (min-max) s; ratio to the toolkit's median\n")
    print("| case | wall s | / toolkit | sampling s | fixed s (wall - sampling) | kernel median µs (rounds) |")
    print("|---|---|---|---|---|---|")
    for name, _ in cases:
        values = walls[name]
        if not values:
            print(f"| {name} | failed | | | | |")
            continue
        median = statistics.median(values)
        ratio = f"{median / toolkit:.3f}" if toolkit else ""
        sampling = sampling_seconds(last.get(name))
        kernel = " ".join(f"{m * 1000:.2f}" for m in medians[name]) or "-"
        print(f"| {name} | {median:.2f} ({min(values):.2f}-{max(values):.2f}) | {ratio} | "
              f"{sampling:.2f} | {median - sampling:.2f} | {kernel} |")
    print("\nWhere each warm case's reference timing came from (its last run):\n")
    for name, _ in cases:
        cache = (last.get(name) or {}).get("reference_timing_cache")
        if name.endswith("warm") and cache is not None:
            print(f"- {name}: " + ("kept from " + cache.get("measured_at", "?") if cache.get("from_cache")
                                   else "timed now: " + cache.get("why", "stored for the next run")))
    print("\nPhases of each case's last run (s):\n")
    for name, _ in cases:
        if last.get(name):
            print(f"- {name}: {result_phase_text(last[name], last_wall[name])}")
    # A warning (another process on the GPU, a throttled clock) says which figures to distrust.
    subprocess.run([args.kopt, "worker", "stop"], capture_output=True)
    print("\nWarnings in the results:\n")
    for name, _ in cases:
        print(f"- {name}: {'; '.join(sorted(warnings[name])) or 'none'}")


if __name__ == "__main__":
    main()
