#!/usr/bin/env python3
"""How often the loop's verdict is wrong: the same kernel submitted again (A/A) must come out
neutral (a positive or negative verdict is a false alarm; goal <= 5 %, with inconclusive ones
<= 10 %), and a version 3 % slower (an added delay kernel) must come out negative (goal >= 95 %).
Each submission is its own `kopt bench` process, as each loop iteration is, and each verdict is
the loop's own comparison of two bench results (bench_verdicts, built from loop::compare_bench_results).
Runs alternate A, slower, A, slower, ... so that drift hits both.

Usage (GPU machine, repository root):
  python3 benchmarks/loop_verdicts.py --kopt PATH --verdicts PATH [--rounds N]
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

from kopt_bench_run import kopt_bench

CASES = [
    ("vector_add 1M (~5 us)", "1048576"),
    ("vector_add 100M (~260 us)", "100000000"),
]
LAUNCH = "vector_add_kernel<<<blocks, threads>>>(A, B, C, N);"
SM_CLOCK_GHZ = 1.98  # H200 boost clock: the delay is calibrated in SM cycles, and its effect measured


def delayed_source(cycles):
    """examples/vector_add.cu with a one-warp spin kernel of `cycles` SM cycles after its own."""
    with open("examples/vector_add.cu") as f:
        text = f.read()
    delay = ("__global__ void added_delay(long long cycles) {\n"
             "  const long long start = clock64();\n"
             "  while (clock64() - start < cycles) {}\n}\n\n")
    text = text.replace('extern "C" void solve', delay + 'extern "C" void solve', 1)
    return text.replace(LAUNCH, LAUNCH + f"\n    added_delay<<<1, 32>>>({cycles}LL);", 1)


def verdict(tool, candidate, incumbent):
    run = subprocess.run([tool, candidate, incumbent], capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def wilson(hits, n):
    """95 % Wilson interval of a rate."""
    if n == 0:
        return (0.0, 1.0)
    z = 1.96
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def rate(label, verdicts, wanted):
    hits = sum(1 for v in verdicts if v["verdict"] in wanted)
    low, high = wilson(hits, len(verdicts))
    return f"{label} {hits}/{len(verdicts)} = {hits / max(1, len(verdicts)):.0%} [{low:.0%}, {high:.0%}]"


def run_case(kopt, tool, name, n, rounds, work):
    common = ["--ref=examples/vector_add_ref.cu", f"--N={n}"]
    first, _ = kopt_bench(kopt, ["examples/vector_add.cu", *common])
    median_ms = first["kernel"]["median_ms"]
    cycles = int(0.03 * median_ms * 1e6 * SM_CLOCK_GHZ)
    slow_file = os.path.join(work, f"vector_add_delayed_{n}.cu")
    with open(slow_file, "w") as f:
        f.write(delayed_source(cycles))
    previous = os.path.join(work, f"a_{n}_0.json")
    with open(previous, "w") as f:
        json.dump(first, f)
    aa, slower, ratios, delay_ratios = [], [], [], []
    for i in range(1, rounds + 1):
        a_result, _ = kopt_bench(kopt, ["examples/vector_add.cu", *common])
        s_result, _ = kopt_bench(kopt, [slow_file, *common])
        a_file, s_file = os.path.join(work, f"a_{n}_{i}.json"), os.path.join(work, f"s_{n}_{i}.json")
        for path, result in ((a_file, a_result), (s_file, s_result)):
            with open(path, "w") as f:
                json.dump(result, f)
        aa.append(verdict(tool, a_file, previous))
        slower.append(verdict(tool, s_file, a_file))
        ratios.append(aa[-1]["ratio"])
        delay_ratios.append(slower[-1]["ratio"])
        previous = a_file
    print(f"| {name} | {median_ms * 1000:.2f} | {rounds} | "
          f"{rate('false', aa, ('positive', 'negative'))}; {rate('inconclusive', aa, ('inconclusive',))} | "
          f"{min(ratios):.4f}-{max(ratios):.4f} | {cycles} cycles, ratio {sorted(delay_ratios)[len(delay_ratios) // 2]:.4f} | "
          f"{rate('negative', slower, ('negative',))} | margin {aa[0]['margin'] * 100:.2f} % |")
    sys.stdout.flush()
    return aa, slower


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--kopt", required=True)
    parser.add_argument("--verdicts", required=True, help="the bench_verdicts helper (build/benchmarks/bench_verdicts)")
    parser.add_argument("--rounds", type=int, default=20)
    args = parser.parse_args()
    print("| case | A median us | rounds | A/A: false verdicts; inconclusive [95 % interval] | A/A ratio range | "
          "3 % delay (median ratio) | 3 % slower found negative | margin |")
    print("|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as work:
        for name, n in CASES:
            run_case(args.kopt, args.verdicts, name, n, args.rounds, work)


if __name__ == "__main__":
    main()
