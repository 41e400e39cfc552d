#!/usr/bin/env python3
"""Nothing measured moves: two kopt builds, before and after a change, measured interleaved on one
GPU. Each round measures both builds, in an order that alternates from round to round, so that the
machine's drift hits both alike:
  fidelity    kopt's hot estimate of softmax_block 4096 x 1024 over Nsight Compute's
              gpu__time_duration of the same calls (kopt_vs_ncu.py's method);
  wall        the wall of `kopt bench` of softmax_block with softmax_ref.py (--fresh-reference)
              over the Python toolkit's benchmark.py on the same files, run next to it (with
              --toolkit only);
  A/A         `kopt compare` of vector_add 1M with itself: a positive or negative verdict is a
              false alarm;
  3 % slower  vector_add 1M with a spin that makes it about 3 % slower (calibrated once, with the
              after build, as loop_verdicts.py does) against vector_add: it must come out negative.
Every measurement is appended to --records as a JSON line, so the rounds of one pair of builds can
be spread over several runs (a GPU call is short). --measures takes a part of them for the rounds of
one run: the verdicts need 20 comparisons of each kind, where a few rounds of the slower fidelity
and walls settle their intervals. --report reads the records and writes the table:
per build, each ratio's mean with its 95 % t-interval and each rate with its Wilson interval, and
whether the two builds' intervals overlap.

Usage (GPU machine, repository root):
  python3 benchmarks/before_after.py --before KOPT --after KOPT --records FILE [--toolkit DIR]
                                     [--python PY] [--rounds N] [--minutes M] [--calls N]
                                     [--measures fidelity,wall,aa,slower]
  python3 benchmarks/before_after.py --records FILE --report OUT.md [--title TEXT]
"""

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from loop_verdicts import wilson  # noqa: E402  (the same interval as the verdict benchmark's)

FIDELITY_CASE = ("examples/softmax_block.cu", ["--rows=4096", "--cols=1024"])
VERDICT_CASE = "1M"  # loop_verdicts.py's 1M-element vector add, and its calibrated spin
WANTED = {"aa": ("neutral", "inconclusive"), "slower": ("negative",)}
MEASURES = ("fidelity", "aa", "slower", "wall")
# Two-sided 95 % quantiles of Student's t by degrees of freedom; beyond the table, the normal's.
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
       2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
       2.045, 2.042]


def mean_interval(values):
    """(mean, low, high): the 95 % t-interval of the mean; None for fewer than two values."""
    if len(values) < 2:
        return None
    mean = statistics.mean(values)
    df = len(values) - 1
    half = (T95[df - 1] if df <= len(T95) else 1.96) * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def overlap(a, b):
    return a[0] <= b[1] and b[0] <= a[1]


def read_records(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def report(records, title):
    """The markdown table of `records` (what measure() appended)."""
    builds = {}
    for r in records:
        if r.get("kind") == "build":
            builds[r["build"]] = r
    lines = [f"# {title}", ""]
    for name in ("before", "after"):
        if name in builds:
            lines.append(f"- {name}: `{builds[name]['kopt']}` ({builds[name]['version']})")
    lines += ["", "| measure | before | after | 95 % intervals overlap |", "|---|---|---|---|"]
    verdict_ok = True
    for metric, label in (("fidelity", "kopt hot / ncu"), ("wall", "kopt wall / toolkit wall")):
        shown, intervals = [], []
        for name in ("before", "after"):
            values = [r["value"] for r in records if r.get("kind") == metric and r["build"] == name]
            found = mean_interval(values)
            intervals.append(found and found[1:])
            shown.append("not measured" if not found else
                         f"{found[0]:.4f} [{found[1]:.4f}, {found[2]:.4f}] (n={len(values)})")
        both = all(intervals)
        verdict_ok = verdict_ok and (not both or overlap(*intervals))
        lines.append(f"| {label} | {shown[0]} | {shown[1]} | "
                     f"{('yes' if overlap(*intervals) else '**no**') if both else '-'} |")
    for kind, label in (("aa", "A/A: neutral or inconclusive"), ("slower", "3 % slower: negative")):
        shown, intervals = [], []
        for name in ("before", "after"):
            outcomes = [r["outcome"] for r in records if r.get("kind") == kind and r["build"] == name]
            hits = sum(1 for o in outcomes if o in WANTED[kind])
            low, high = wilson(hits, len(outcomes))
            intervals.append((low, high) if outcomes else None)
            shown.append(f"{hits}/{len(outcomes)} [{low:.0%}, {high:.0%}]" if outcomes else "not measured")
        both = all(intervals)
        verdict_ok = verdict_ok and (not both or overlap(*intervals))
        lines.append(f"| {label} | {shown[0]} | {shown[1]} | "
                     f"{('yes' if overlap(*intervals) else '**no**') if both else '-'} |")
    failures = [r for r in records if r.get("kind") == "failure"]
    if failures:
        lines += ["", "Failed measurements:"]
        lines += [f"- {r['build']} {r['measure']}: {r['error']}" for r in failures]
    lines += ["", "Every pair of intervals overlaps." if verdict_ok else "**A pair of intervals does not overlap.**"]
    return "\n".join(lines) + "\n", verdict_ok


def append(path, record):
    with open(path, "a") as f:
        f.write(json.dumps(record) + "\n")
        f.flush()


def measure(args):
    # Imported here: they need the GPU machine's tools only when measuring.
    from kopt_bench_run import kopt_bench
    from kopt_vs_ncu import kopt_median_us, ncu_call_us
    from loop_verdicts import CASES, calibrate_slowdown, compare
    from speed_benchmark import toolkit_case

    kopts = {"before": os.path.abspath(args.before), "after": os.path.abspath(args.after)}
    previous = read_records(args.records) if os.path.exists(args.records) else []
    for name, kopt in kopts.items():
        known = [r for r in previous if r.get("kind") == "build" and r["build"] == name]
        version = subprocess.run([kopt, "--version"], capture_output=True, text=True).stdout.strip()
        if known and known[0]["version"] != version:
            sys.exit(f"before_after.py: {args.records} holds rounds of another {name} build ({known[0]['version']})")
        if not known:
            # Relative to where it runs (the repository root): the report names no folder of one machine.
            append(args.records, {"kind": "build", "build": name, "kopt": os.path.relpath(kopt), "version": version})
    work = tempfile.mkdtemp(prefix="kopt-before-after-")
    slow_file = os.path.join(work, "vector_add_slower.cu")
    calibration = [r for r in previous if r.get("kind") == "calibration"]
    verdicts = CASES[VERDICT_CASE]
    if calibration:
        cycles = calibration[0]["cycles"]
        with open(slow_file, "w") as f:
            f.write(verdicts.slowed(cycles))
    else:
        cycles, ratio = calibrate_slowdown(kopts["after"], verdicts, slow_file, 2000)
        append(args.records, {"kind": "calibration", "cycles": cycles, "ratio": ratio})
    toolkit = toolkit_case(args.toolkit, args.python) if args.toolkit and "wall" in args.measures else None
    source, dims = FIDELITY_CASE
    started = time.time()
    done = sum(1 for r in previous if r.get("kind") == "round")
    for round_index in range(done, done + args.rounds):
        if time.time() - started > args.minutes * 60:
            break
        order = ["before", "after"] if round_index % 2 == 0 else ["after", "before"]
        for name in order:
            kopt = kopts[name]
            steps = [
                ("fidelity", lambda: kopt_median_us(kopt, source, dims, True)[0] /
                 ncu_call_us(kopt, source, dims, "none", args.calls)[0]),
                ("aa", lambda: compare(kopt, verdicts.kernel, verdicts.kernel, verdicts.dims)[0]),
                ("slower", lambda: compare(kopt, verdicts.kernel, slow_file, verdicts.dims)[0]),
            ]
            if toolkit:
                def wall_ratio():
                    _, kopt_wall = kopt_bench(kopt, [source, "--ref", "examples/softmax_ref.py", *dims,
                                                     "--fresh-reference"])
                    return kopt_wall / toolkit()[0]
                steps.append(("wall", wall_ratio))
            for kind, step in steps:
                if kind not in args.measures:
                    continue
                try:
                    value = step()
                except RuntimeError as e:
                    append(args.records, {"kind": "failure", "build": name, "measure": kind, "error": str(e)[-300:]})
                    continue
                if kind in WANTED:
                    append(args.records, {"kind": kind, "build": name, "round": round_index,
                                          "outcome": value["outcome"], "ratio": value.get("ratio")})
                else:
                    append(args.records, {"kind": kind, "build": name, "round": round_index, "value": value})
        append(args.records, {"kind": "round", "round": round_index})
        print(f"round {round_index + 1} done ({time.time() - started:.0f} s)", file=sys.stderr, flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--records", required=True, help="the JSON lines file the rounds are appended to")
    parser.add_argument("--before", help="the kopt binary before the change")
    parser.add_argument("--after", help="the kopt binary after the change")
    parser.add_argument("--toolkit", help="checkout of KernelFlow-ops/cuda-optimized-skill (for the walls)")
    parser.add_argument("--python", default=sys.executable, help="Python with torch, for the toolkit")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--minutes", type=float, default=float("inf"), help="start no round after this long")
    parser.add_argument("--calls", type=int, default=20, help="calls in ncu's window")
    parser.add_argument("--measures", default=",".join(MEASURES),
                        type=lambda text: [m for m in text.split(",") if m],
                        help=f"which measures the rounds take, of {','.join(MEASURES)} (default all)")
    parser.add_argument("--report", help="write the table of --records here and stop")
    parser.add_argument("--title", default="Before and after, interleaved")
    args = parser.parse_args()
    if args.report:
        text, overlapping = report(read_records(args.records), args.title)
        with open(args.report, "w") as f:
            f.write(text)
        print(text)
        sys.exit(0 if overlapping else 1)
    if not (args.before and args.after):
        parser.error("give --before and --after (or --report)")
    unknown = sorted(set(args.measures) - set(MEASURES))
    if unknown or not args.measures:
        parser.error(f"--measures: {','.join(unknown) or 'nothing'} is not among {','.join(MEASURES)}")
    measure(args)


if __name__ == "__main__":
    main()
