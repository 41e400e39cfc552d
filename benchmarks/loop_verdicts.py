#!/usr/bin/env python3
"""How often the loop's comparison is wrong. The loop compares a version with its parent as
`kopt compare` does: both held open in their own measuring processes and timed in turns until the
interval of the median ratio settles it. Here, per kernel:
  A/A: the same kernel against itself, `--rounds` times: a positive or negative verdict is a false
       alarm (goal <= 5 %), and an inconclusive one a comparison the default budget could not
       settle (goal <= 10 %);
  3 % slower: the kernel made slower by a knob, against the kernel: it must come out negative
       (goal >= 95 %). The knob is calibrated first, until three comparisons find the slowed kernel
       2.6-3.4 % slower on average. CUDA vector add: a spin at the end of its last block, in SM
       cycles (a spin in one block is partly hidden by the other blocks' tail, so cycles alone do
       not make a 3 % slower kernel). Triton softmax: extra programs that compute rows again
       (row = program id mod rows), writing the same values, so it does more of the same work.
Each comparison is its own `kopt compare` process; A/A and slower alternate so that drift hits both.

Usage (GPU machine, repository root):
  python3 benchmarks/loop_verdicts.py --kopt PATH [--rounds N] [--case NAME] [--minutes M] [--keep DIR]
                                      [--kinds both|aa|slower] [--gpus-too SPEC]
--minutes ends a case's comparisons M minutes after its start, calibration included (the table
counts those done); --keep writes
every comparison's whole record (round ratios, samples) to DIR.
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

SM_CLOCK_GHZ = 1.98  # H200 boost clock: the spin is set in SM cycles; the ratio it gives is measured
BODY = "        C[i] = A[i] + B[i];\n    }\n"
SOFTMAX_ROWS, SOFTMAX_COLS = 4096, 1024


def delayed_vector_add(cycles):
    """examples/vector_add.cu whose last block's first thread spins `cycles` SM cycles after its sum."""
    with open("examples/vector_add.cu") as f:
        text = f.read()
    spin = (BODY + f"    if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) {{\n"
            f"        const long long start = clock64();\n"
            f"        while (clock64() - start < {cycles}LL) {{}}\n    }}\n")
    if BODY not in text:
        raise SystemExit("examples/vector_add.cu changed: update the delay's insertion point")
    return text.replace(BODY, spin, 1)


def softmax_with_extra_rows(extra):
    """examples/triton_softmax.py launching `extra` more programs, each computing a row again."""
    with open("examples/triton_softmax.py") as f:
        text = f.read()
    edits = (("    row = tl.program_id(0)\n", f"    row = tl.program_id(0) % {SOFTMAX_ROWS}\n"),
             ("softmax_rows[(rows,)](", f"softmax_rows[(rows + {extra},)]("))
    for old, new in edits:
        if old not in text:
            raise SystemExit("examples/triton_softmax.py changed: update the extra rows' edits")
        text = text.replace(old, new, 1)
    return text


class Case:
    def __init__(self, name, kernel, dims, slowed, first_knob, unit):
        self.name, self.kernel, self.dims = name, kernel, dims
        self.slowed = slowed          # knob -> the slowed kernel's source
        self.first_knob = first_knob  # the median [ms] -> a first guess of the knob
        self.unit = unit
        self.suffix = os.path.splitext(kernel)[1]


def vector_add_case(n, name):
    return Case(name, "examples/vector_add.cu", [f"--N={n}"], delayed_vector_add,
                lambda median_ms: int(TARGET_SLOWDOWN * median_ms * 1e6 * SM_CLOCK_GHZ), "cycles")


CASES = {
    "1M": vector_add_case("1048576", "vector_add 1M (~5 us)"),
    "100M": vector_add_case("100000000", "vector_add 100M (~380 us)"),
    "triton": Case(f"triton_softmax {SOFTMAX_ROWS}x{SOFTMAX_COLS} (~10 us)", "examples/triton_softmax.py",
                   [f"--rows={SOFTMAX_ROWS}", f"--cols={SOFTMAX_COLS}"], softmax_with_extra_rows,
                   lambda _median_ms: int(TARGET_SLOWDOWN * SOFTMAX_ROWS), "extra rows"),
}


def compare(kopt, baseline, candidate, dims, keep=None, extra=()):
    """`kopt compare BASELINE CANDIDATE DIMS... EXTRA... --json`: (document, wall seconds)."""
    command = [kopt, "compare", baseline, candidate, *dims, *extra, "--json"]
    if keep:
        command += ["--json-out", keep]
    started = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True)
    wall = time.perf_counter() - started
    if run.returncode != 0:
        raise RuntimeError(run.stderr.strip() or f"exit {run.returncode}")
    return json.loads(run.stdout), wall


CALIBRATION_RUNS = 3
TARGET_SLOWDOWN = 0.03
CALIBRATION_TOLERANCE = 0.004  # a delay making it 2.6-3.4 % slower is taken


def calibrate_slowdown(kopt, case, slow_file, knob):
    """Finds the knob that makes the kernel 3 % slower: (knob, the mean ratio of
    CALIBRATION_RUNS comparisons at it). The first steps scale the knob; once two values are
    measured it interpolates between the two nearest, as the slowdown need not be proportional
    to it (a spin in one block is partly hidden by the other blocks' tail). Gives the closest
    value measured after six tries."""
    measured = []  # (knob, slowdown)
    for _ in range(6):
        with open(slow_file, "w") as f:
            f.write(case.slowed(knob))
        slowdown = statistics.mean(
            compare(kopt, case.kernel, slow_file, case.dims)[0]["ratio"] for _ in range(CALIBRATION_RUNS)) - 1
        measured.append((knob, slowdown))
        print(f"  calibration: {knob} {case.unit} -> {1 + slowdown:.4f}x", file=sys.stderr, flush=True)
        if abs(slowdown - TARGET_SLOWDOWN) <= CALIBRATION_TOLERANCE:
            break
        nearest = sorted(measured, key=lambda m: abs(m[1] - TARGET_SLOWDOWN))[:2]
        if len(nearest) == 2 and nearest[0][1] != nearest[1][1]:
            (c1, s1), (c2, s2) = nearest
            guess = c1 + (TARGET_SLOWDOWN - s1) * (c2 - c1) / (s2 - s1)
        else:
            guess = knob * min(4.0, TARGET_SLOWDOWN / max(slowdown, TARGET_SLOWDOWN / 4))
        knob = max(1, int(round(guess)))
    best_knob, best_slowdown = min(measured, key=lambda m: abs(m[1] - TARGET_SLOWDOWN))
    if best_knob != measured[-1][0]:
        with open(slow_file, "w") as f:
            f.write(case.slowed(best_knob))
    return best_knob, 1 + best_slowdown


def placement_spread(document):
    """Per version, (slowest - fastest) / mean of its placements' mean block estimates: how much of
    a steady difference between two processes their buffer sets could explain (None if unknown)."""
    spreads = {}
    for version in ("candidate", "incumbent"):
        by_placement = {}
        for block in document.get("blocks", []):
            if block["version"] == version and block["placement"] is not None:
                by_placement.setdefault(block["placement"], []).append(block["estimate_ms"])
        means = [statistics.mean(v) for v in by_placement.values()]
        spreads[version] = (max(means) - min(means)) / statistics.mean(means) if len(means) > 1 else None
    return spreads


def wilson(hits, n):
    """95 % Wilson interval of a rate."""
    if n == 0:
        return (0.0, 1.0)
    z = 1.96
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate(documents, wanted):
    hits = sum(1 for d in documents if d["outcome"] in wanted)
    low, high = wilson(hits, len(documents))
    return f"{hits}/{len(documents)} = {hits / max(1, len(documents)):.0%} [{low:.0%}, {high:.0%}]"


def run_case(kopt, case, rounds, work, minutes, keep, kinds, tag, variants):
    deadline = time.monotonic() + minutes * 60  # the calibration counts too
    kernel = os.path.abspath(case.kernel)
    name = case.name
    first, _ = compare(kopt, kernel, kernel, case.dims)
    median_ms = first["incumbent_median_ms"]
    slow_file = os.path.join(work, f"{tag}_slowed{case.suffix}")
    knob, achieved = calibrate_slowdown(kopt, case, slow_file, case.first_knob(median_ms))
    print(f"{name}: {knob} {case.unit} make it {achieved:.4f}x as slow (mean of {CALIBRATION_RUNS} comparisons)",
          file=sys.stderr, flush=True)
    # Each variant of the command (plain, and spread with --gpus) takes its turn in every round,
    # so that drift hits all of them alike.
    results = {label: ([], [], []) for label, _ in variants}  # label -> (A/A, slower, walls)
    for i in range(rounds):
        if time.monotonic() > deadline:
            print(f"{name}: --minutes {minutes} reached after {i} rounds", file=sys.stderr, flush=True)
            break
        for label, extra in variants:
            aa, slower, walls = results[label]
            for kind, candidate, documents in (("A/A", kernel, aa), ("slower", slow_file, slower)):
                if kind not in kinds:
                    continue
                record = (os.path.join(keep, f"{tag}{label.replace(' ', '_')}_{i + 1}_"
                                       f"{'aa' if kind == 'A/A' else 'slower'}.json") if keep else None)
                document, wall = compare(kopt, kernel, candidate, case.dims, record, extra)
                documents.append(document)
                walls.append(wall)
                # One line per comparison on stderr: what a run cut short still leaves.
                spread = placement_spread(document)
                shown = " ".join(f"{v[0]} {spread[v] * 100:.2f} %" for v in spread if spread[v] is not None)
                print(f"{name}{label} {i + 1} {kind}: {document['outcome']} ratio {document['ratio']:.4f} "
                      f"[{document['ratio_ci95'][0]:.4f}, {document['ratio_ci95'][1]:.4f}] "
                      f"{document['rounds']} rounds, wall {wall:.2f} s, placement spread {shown or 'n/a'}",
                      file=sys.stderr, flush=True)
    for label, _ in variants:
        print_row(f"{name}{label}", median_ms, knob, case.unit, achieved, *results[label])


def print_row(name, median_ms, knob, unit, achieved, aa, slower, walls):
    aa_ratios = sorted(d["ratio"] for d in aa) or [math.nan]
    slow_ratios = sorted(d["ratio"] for d in slower) or [math.nan]
    rounds_used = sorted(d["rounds"] for d in aa + slower)
    print(f"| {name} | {median_ms * 1000:.2f} | {len(aa)} / {len(slower)} | {rate(aa, ('positive', 'negative'))} | "
          f"{rate(aa, ('inconclusive',))} | {aa_ratios[0]:.4f}-{aa_ratios[-1]:.4f} | "
          f"{knob} {unit} ({achieved:.4f}x when calibrated): median ratio {statistics.median(slow_ratios):.4f} "
          f"(min {slow_ratios[0]:.4f}) | "
          f"{rate(slower, ('negative',))} | {(aa + slower)[0]['margin'] * 100:.2f} % | "
          f"{statistics.median(rounds_used)} ({rounds_used[0]}-{rounds_used[-1]}) | {statistics.median(walls):.2f} s |")
    outcomes = {}
    for d in aa:
        outcomes[d["outcome"]] = outcomes.get(d["outcome"], 0) + 1
    print(f"  A/A outcomes: {outcomes}; warnings seen: {sorted({w for d in aa + slower for w in d['warnings']})}")
    spreads = [x for d in aa + slower for x in placement_spread(d).values() if x is not None]
    if spreads:
        print(f"  placement spread within one process (slowest - fastest buffer set): median "
              f"{statistics.median(spreads) * 100:.2f} %, max {max(spreads) * 100:.2f} %")
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kopt", required=True)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--case", choices=sorted(CASES), action="append", help="only these cases (default: all)")
    parser.add_argument("--minutes", type=float, default=float("inf"), help="time per case, at most")
    parser.add_argument("--keep", help="a folder for every comparison's whole record")
    parser.add_argument("--kinds", choices=["both", "aa", "slower"], default="both",
                        help="which comparisons to run (default both, alternating)")
    parser.add_argument("--gpus-too", metavar="SPEC",
                        help="also run every comparison spread with --gpus SPEC, alternating with the plain one, "
                             "and give each its row")
    args = parser.parse_args()
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    print("| case | median us | comparisons (A/A / slower) | A/A false verdicts [95 % interval] | A/A inconclusive | "
          "A/A ratio range | 3 % delay | 3 % slower found negative | margin | rounds per comparison | "
          "wall per comparison |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for key in args.case or sorted(CASES):
            kinds = {"both": ("A/A", "slower"), "aa": ("A/A",), "slower": ("slower",)}[args.kinds]
            variants = [("", [])] + ([(f" --gpus {args.gpus_too}", ["--gpus", args.gpus_too])] if args.gpus_too else [])
            run_case(args.kopt, CASES[key], args.rounds, work, args.minutes, args.keep, kinds, key, variants)


if __name__ == "__main__":
    main()
