#!/usr/bin/env python3
"""How often the loop's comparison is wrong. The loop compares a version with its parent as
`kopt compare` does: both held open in their own measuring processes and timed in turns until the
interval of the median ratio settles it. Here, per kernel:
  A/A: the same kernel against itself, `--rounds` times: a positive or negative verdict is a false
       alarm (goal <= 5 %), and an inconclusive one a comparison the default budget could not
       settle (goal <= 10 %);
  3 % slower: the kernel with a spin of 3 % of its time added at the end of its last block, against
       the kernel: it must come out negative (goal >= 95 %).
Each comparison is its own `kopt compare` process; A/A and slower alternate so that drift hits both.

Usage (GPU machine, repository root):
  python3 benchmarks/loop_verdicts.py --kopt PATH [--rounds N] [--case NAME]
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

CASES = {
    "1M": ("vector_add 1M (~5 us)", "1048576"),
    "100M": ("vector_add 100M (~380 us)", "100000000"),
}
SM_CLOCK_GHZ = 1.98  # H200 boost clock: the spin is set in SM cycles; the ratio it gives is measured
BODY = "        C[i] = A[i] + B[i];\n    }\n"


def delayed_source(cycles):
    """examples/vector_add.cu whose last block's first thread spins `cycles` SM cycles after its sum."""
    with open("examples/vector_add.cu") as f:
        text = f.read()
    spin = (BODY + f"    if (blockIdx.x == gridDim.x - 1 && threadIdx.x == 0) {{\n"
            f"        const long long start = clock64();\n"
            f"        while (clock64() - start < {cycles}LL) {{}}\n    }}\n")
    if BODY not in text:
        raise SystemExit("examples/vector_add.cu changed: update the delay's insertion point")
    return text.replace(BODY, spin, 1)


def compare(kopt, baseline, candidate, n):
    """`kopt compare BASELINE CANDIDATE --N=n --json`: (document, wall seconds)."""
    started = time.perf_counter()
    run = subprocess.run([kopt, "compare", baseline, candidate, f"--N={n}", "--json"], capture_output=True, text=True)
    wall = time.perf_counter() - started
    if run.returncode != 0:
        raise RuntimeError(run.stderr.strip() or f"exit {run.returncode}")
    return json.loads(run.stdout), wall


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


def run_case(kopt, name, n, rounds, work):
    kernel = os.path.abspath("examples/vector_add.cu")
    first, _ = compare(kopt, kernel, kernel, n)
    median_ms = first["incumbent_median_ms"]
    cycles = int(0.03 * median_ms * 1e6 * SM_CLOCK_GHZ)
    slow_file = os.path.join(work, f"vector_add_delayed_{n}.cu")
    with open(slow_file, "w") as f:
        f.write(delayed_source(cycles))
    aa, slower, walls = [], [], []
    for i in range(rounds):
        for kind, candidate, documents in (("A/A", kernel, aa), ("slower", slow_file, slower)):
            document, wall = compare(kopt, kernel, candidate, n)
            documents.append(document)
            walls.append(wall)
            # One line per comparison on stderr: what a run cut short still leaves.
            print(f"{name} {i + 1} {kind}: {document['outcome']} ratio {document['ratio']:.4f} "
                  f"[{document['ratio_ci95'][0]:.4f}, {document['ratio_ci95'][1]:.4f}] {document['rounds']} rounds, "
                  f"wall {wall:.2f} s", file=sys.stderr, flush=True)
    aa_ratios = sorted(d["ratio"] for d in aa)
    slow_ratios = sorted(d["ratio"] for d in slower)
    rounds_used = sorted(d["rounds"] for d in aa + slower)
    print(f"| {name} | {median_ms * 1000:.2f} | {rounds} | {rate(aa, ('positive', 'negative'))} | "
          f"{rate(aa, ('inconclusive',))} | {aa_ratios[0]:.4f}-{aa_ratios[-1]:.4f} | "
          f"{cycles} cycles: median ratio {statistics.median(slow_ratios):.4f} (min {slow_ratios[0]:.4f}) | "
          f"{rate(slower, ('negative',))} | {aa[0]['margin'] * 100:.2f} % | "
          f"{statistics.median(rounds_used)} ({rounds_used[0]}-{rounds_used[-1]}) | {statistics.median(walls):.2f} s |")
    outcomes = {}
    for d in aa:
        outcomes[d["outcome"]] = outcomes.get(d["outcome"], 0) + 1
    print(f"  A/A outcomes: {outcomes}; warnings seen: {sorted({w for d in aa + slower for w in d['warnings']})}")
    sys.stdout.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kopt", required=True)
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--case", choices=sorted(CASES), action="append", help="only these cases (default: all)")
    args = parser.parse_args()
    print("| case | median us | comparisons | A/A false verdicts [95 % interval] | A/A inconclusive | "
          "A/A ratio range | 3 % delay | 3 % slower found negative | margin | rounds per comparison | "
          "wall per comparison |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for key in args.case or sorted(CASES):
            name, n = CASES[key]
            run_case(args.kopt, name, n, args.rounds, work)


if __name__ == "__main__":
    main()
