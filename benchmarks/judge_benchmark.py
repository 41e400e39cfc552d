#!/usr/bin/env python3
"""What the judge's checks cost: bench wall time of kopt built before them (--before) and
after (--after), alternating, on the same cases, with the kernel medians of both builds beside
(they must agree within noise) and the samples, stop reason and checked calls of each run.
Goal for a .cu kernel with a .cu reference: under 10 % more wall time.

Usage (GPU machine, repository root):
  python3 benchmarks/judge_benchmark.py --after PATH --before PATH [--rounds N]
"""
import argparse
import json
import statistics
import sys

from kopt_bench_run import kopt_bench, phase_text

COST_CASES = [
    ("vector_add 16M, .cu reference", ["examples/vector_add.cu", "--ref=examples/vector_add_ref.cu", "--N=16777216"]),
    ("softmax_block, .py reference", ["examples/softmax_block.cu", "--ref=examples/softmax_ref.py", "--rows=4096",
                                      "--cols=1024"]),
    ("triton_softmax, .py reference", ["examples/triton_softmax.py", "--ref=examples/softmax_ref.py", "--rows=4096",
                                       "--cols=1024"]),
]


def per_call_row(name, label, result):
    """One run's per-call host figures: where bench's wall time goes, call by call."""
    kernel = result["kernel"]
    steps = kernel.get("kopt_host_ms_per_call", {})
    reference = result.get("reference") or {}
    overhead = (result.get("reference_runner") or {}).get("overhead_s")
    return (f"| {name} | {label} | {kernel['sample_count']} + {kernel['warmup_calls']} | "
            f"{kernel['host_end_to_end_median_ms'] * 1000:.1f} | "
            f"{reference.get('host_end_to_end_median_ms', 0) * 1000:.1f} | "
            f"{', '.join(f'{k} {v:.3f}' for k, v in sorted(steps.items())) or '(not reported)'} | "
            f"{'' if overhead is None else json.dumps(overhead)} |")


def judge_cost(before, after, rounds):
    per_call = []
    phases = []
    print("| case | build | wall s (each round) | median wall s | kernel median µs (each round) | samples, stop | checked calls |")
    print("|---|---|---|---|---|---|---|")
    for name, args in COST_CASES:
        walls = {"before": [], "after": []}
        medians = {"before": [], "after": []}
        checked = []
        samples = {"before": [], "after": []}
        for _ in range(rounds):
            for label, kopt in (("before", before), ("after", after)):
                try:
                    result, wall = kopt_bench(kopt, args)
                except RuntimeError as e:
                    print(f"| {name} | {label} | error: {e.args[0].splitlines()[0]} | | | | |")
                    break
                walls[label].append(wall)
                per_call.append(per_call_row(name, label, result))
                medians[label].append(result["kernel"]["median_ms"] * 1000)
                samples[label].append(f'{result["kernel"]["sample_count"]} {result["kernel"]["stop_reason"]}')
                if label == "after" and result.get("timed_call_checks"):
                    checked.append(result["timed_call_checks"]["checked"])
                if label == "after" and result.get("phases_s"):
                    phases.append(f"| {name} | {phase_text(result['phases_s'])} |")
        for label in ("before", "after"):
            if not walls[label]:
                continue
            print(f"| {name} | {label} | {', '.join(f'{w:.2f}' for w in walls[label])} | "
                  f"{statistics.median(walls[label]):.2f} | {', '.join(f'{m:.2f}' for m in medians[label])} | "
                  f"{'; '.join(samples[label])} | {', '.join(map(str, checked)) if label == 'after' else ''} |")
        if walls["before"] and walls["after"]:
            print(f"| {name} | after/before | | {statistics.median(walls['after']) / statistics.median(walls['before']):.3f} "
                  f"| {statistics.median(medians['after']) / statistics.median(medians['before']):.3f} | | |")
        sys.stdout.flush()
    print()
    print("Per call, each run: samples + warm-up calls, host time of one call with its synchronisation (kernel, "
          "reference), kopt's own host time around each kernel call by step (median ms), the Python runner's "
          "overhead.")
    print()
    print("| case | build | calls | kernel host µs | reference host µs | kopt ms per call, by step | runner s |")
    print("|---|---|---|---|---|---|---|")
    for row in per_call:
        print(row)
    print()
    print("Where the wall time of each run after went (s): the parent's steps, and each measuring process's own.")
    print()
    print("| case | phases |")
    print("|---|---|")
    for row in phases:
        print(row)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--after", required=True, help="kopt with the judge's checks")
    parser.add_argument("--before", required=True, help="kopt built before them")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    judge_cost(args.before, args.after, args.rounds)


if __name__ == "__main__":
    main()
