#!/usr/bin/env python3
"""kopt's GPU time against Nsight Compute's gpu__time_duration, per example kernel.

For each case: `kopt bench --hot` against ncu with --cache-control none, and `kopt bench`
(cold: L2 flushed by reading) against --cache-control all; both ncu runs with
--clock-control none and --profile-from-start off over `kopt bench --profile-mode`, so ncu
sees exactly the calls inside kopt's profiler window. Prints a markdown table.

Usage (GPU machine, repository root): python3 benchmarks/kopt_vs_ncu.py --kopt PATH [--calls N]
"""
import argparse
import csv
import io
import statistics
import subprocess
import sys

from kopt_bench_run import kopt_bench

CASES = [
    ("vector_add", "examples/vector_add.cu", ["--N=16777216"]),
    ("softmax_block", "examples/softmax_block.cu", ["--rows=4096", "--cols=1024"]),
    ("softmax_naive", "examples/softmax_naive.cu", ["--rows=4096", "--cols=1024"]),
    ("matmul_naive 1024", "examples/matmul_naive.cu", ["--M=1024", "--N=1024", "--K=1024"]),
    ("cutlass_gemm 4096", "examples/cutlass_gemm.cu", ["--M=4096", "--N=4096", "--K=4096"]),
    ("axpy_inout", "examples/axpy_inout.cu", ["--N=16777216", "--alpha=2.5"]),
    ("histogram", "examples/histogram.cu", ["--N=16777216", "--num_bins=256"]),
    ("triton_softmax", "examples/triton_softmax.py", ["--rows=4096", "--cols=1024"]),
    ("triton_matmul 4096", "examples/triton_matmul.py", ["--M=4096", "--N=4096", "--K=4096"]),
    # The same kernels at other sizes: does kopt's gap to ncu scale with the kernel's time
    # (a different execution) or stay fixed per launch (a measurement overhead)?
    ("softmax_block 16384 rows", "examples/softmax_block.cu", ["--rows=16384", "--cols=1024"]),
    ("softmax_block 65536 rows", "examples/softmax_block.cu", ["--rows=65536", "--cols=1024"]),
    ("vector_add 1M", "examples/vector_add.cu", ["--N=1048576"]),
    ("empty kernel", "benchmarks/kernels/empty_kernel.cu", ["--N=1024"]),
]


def kopt_median_us(kopt, source, dims, hot):
    try:
        result, _ = kopt_bench(kopt, [source, *dims, "--max-seconds", "3", *(["--hot"] if hot else [])])
    except RuntimeError as e:
        raise RuntimeError(f"kopt bench failed: {e}") from None
    k = result["kernel"]
    return k["median_ms"] * 1000, k["kernels_per_call"]


def ncu_call_us(kopt, source, dims, cache_control, calls):
    args = ["ncu", "--profile-from-start", "off", "--clock-control", "none", "--cache-control", cache_control,
            "--metrics", "gpu__time_duration.sum", "--csv", "--print-units", "base",
            kopt, "bench", source, *dims, "--profile-mode", "--profile-calls", str(calls)]
    run = subprocess.run(args, capture_output=True, text=True)
    rows = [r for r in csv.reader(io.StringIO(run.stdout)) if len(r) > 12 and r[12] == "gpu__time_duration.sum"]
    if not rows:
        raise RuntimeError(f"ncu produced no durations: {run.stderr.strip()[-500:]}")
    durations = [float(r[14].replace(",", "")) / 1000 for r in rows]
    per_call = len(durations) // calls
    sums = [sum(durations[i * per_call:(i + 1) * per_call]) for i in range(calls)]
    return statistics.median(sums), per_call


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kopt", required=True)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    print("| case | kopt hot µs | ncu none µs | hot/ncu | kopt cold µs | ncu all µs | cold/ncu |")
    print("|---|---|---|---|---|---|---|")
    for name, source, dims in CASES:
        if args.only and not any(name.startswith(o) for o in args.only):
            continue
        try:
            hot, _ = kopt_median_us(args.kopt, source, dims, hot=True)
            cold, _ = kopt_median_us(args.kopt, source, dims, hot=False)
            none, _ = ncu_call_us(args.kopt, source, dims, "none", args.calls)
            full, _ = ncu_call_us(args.kopt, source, dims, "all", args.calls)
        except RuntimeError as e:
            print(f"| {name} | error: {e} | | | | | |")
            continue
        print(f"| {name} | {hot:.2f} | {none:.2f} | {hot / none:.3f} | {cold:.2f} | {full:.2f} | {cold / full:.3f} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
