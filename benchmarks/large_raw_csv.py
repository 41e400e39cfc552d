#!/usr/bin/env python3
"""How kopt analyze copes with a whole program's raw page: the vector add's H200 raw CSV
(tests/data/ncu/h200/vector_add_raw.csv, one launch of the full set's ~7,800 metrics) with its
launch row repeated until the file is about --megabytes large, analysed by each kopt given;
prints the wall time, the peak memory and the analysis files' sizes side by side.

  python3 benchmarks/large_raw_csv.py --kopt NEW/bin/kopt --kopt OLD/bin/kopt [--megabytes 100]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "tests", "data", "ncu", "h200", "vector_add_raw.csv")


def big_raw_csv(folder, megabytes):
    with open(FIXTURE, encoding="utf-8") as f:
        lines = f.read().splitlines(keepends=True)
    header, units, row = lines[0], lines[1], lines[2]
    first_cell_end = row.index('",') + 2  # the ID cell: "0",
    copies = max(1, megabytes * 1_000_000 // len(row))
    path = os.path.join(folder, "program_raw.csv")
    with open(path, "w", encoding="utf-8") as out:
        out.write(header)
        out.write(units)
        for i in range(copies):
            out.write(f'"{i}",' + row[first_cell_end:])
    return path, copies


PEAK = """
import resource, subprocess, sys
run = subprocess.run(sys.argv[1:], capture_output=True, text=True)
sys.stderr.write(run.stderr)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
sys.exit(run.returncode)
"""


def measure(kopt, raw):
    # Through a Python of its own: the peak it reports is this kopt's alone.
    started = time.perf_counter()
    run = subprocess.run([sys.executable, "-c", PEAK, kopt, "analyze", raw], capture_output=True, text=True)
    wall = time.perf_counter() - started
    peak_kib = int(run.stdout.strip().splitlines()[-1])
    folder = os.path.dirname(raw)
    sizes = {name: os.path.getsize(os.path.join(folder, name)) for name in os.listdir(folder) if "analysis" in name}
    for name in sizes:
        os.remove(os.path.join(folder, name))
    return run.returncode, wall, peak_kib, sizes, run.stderr.strip().splitlines()[:1]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kopt", action="append", required=True, help="a kopt binary (repeatable)")
    parser.add_argument("--megabytes", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        raw, launches = big_raw_csv(folder, args.megabytes)
        print(f"{raw}: {os.path.getsize(raw) / 1e6:.1f} MB, {launches} launches")
        print("| kopt | exit | wall s | peak memory MB | analysis files MB |")
        print("|---|---|---|---|---|")
        for kopt in args.kopt:
            # Each kopt in a process of its own, so that the peak is its own.
            code, wall, peak_kib, sizes, error = measure(kopt, raw)
            total = sum(sizes.values()) / 1e6
            print(f"| {kopt} | {code} | {wall:.1f} | {peak_kib / 1024:.0f} | {total:.1f} |" + (f" {error[0]}" if code else ""))


if __name__ == "__main__":
    main()
