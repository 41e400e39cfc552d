#!/usr/bin/env python3
"""kopt's GPU time against Nsight Compute's gpu__time_duration and a CUDA-graph arbiter,
per example kernel.

For each case: `kopt bench --hot` against ncu with --cache-control none, and `kopt bench`
(cold: L2 flushed by reading) against --cache-control all; both ncu runs with
--clock-control none and --profile-from-start off over `kopt bench --profile-mode`, so ncu
sees exactly the calls inside kopt's profiler window. kopt's figure is its headline
(`estimate_ms`: the median, or the trimmed mean for calls under 200 timer steps). Where the
case's solve() takes pointers and ints only, the arbiter (arbiter/graph_arbiter.cu: 100 calls
back to back in one CUDA graph, timed by events; the solve()'s own synchronisation compiled
out by arbiter/no_sync.h) gives a third figure for the hot case.
Prints a markdown table.

Usage (GPU machine, repository root): python3 benchmarks/kopt_vs_ncu.py --kopt PATH [--calls N]
"""
import argparse
import csv
import io
import statistics
import json
import os
import subprocess
import sys
import tempfile

from kopt_bench_run import kopt_bench

def f32(n):
    return f"f32:{n}"


# solve()'s arguments for the graph arbiter, in order (None: no arbiter for the case).
SOFTMAX_4096 = [f32(4096 * 1024), f32(4096 * 1024), "int:4096", "int:1024"]
CASES = [
    ("vector_add", "examples/vector_add.cu", ["--N=16777216"], [f32(1 << 24)] * 3 + [f"int:{1 << 24}"]),
    ("softmax_block", "examples/softmax_block.cu", ["--rows=4096", "--cols=1024"], SOFTMAX_4096),
    ("softmax_naive", "examples/softmax_naive.cu", ["--rows=4096", "--cols=1024"], SOFTMAX_4096),
    ("matmul_naive 1024", "examples/matmul_naive.cu", ["--M=1024", "--N=1024", "--K=1024"],
     [f32(1 << 20)] * 3 + ["int:1024"] * 3),
    ("cutlass_gemm 4096", "examples/cutlass_gemm.cu", ["--M=4096", "--N=4096", "--K=4096"], None),
    ("axpy_inout", "examples/axpy_inout.cu", ["--N=16777216", "--alpha=2.5"], None),
    ("histogram", "examples/histogram.cu", ["--N=16777216", "--num_bins=256"],
     [f"i32:{1 << 24}:256", "i32:256:1", f"int:{1 << 24}", "int:256"]),
    ("triton_softmax", "examples/triton_softmax.py", ["--rows=4096", "--cols=1024"], None),
    ("triton_matmul 4096", "examples/triton_matmul.py", ["--M=4096", "--N=4096", "--K=4096"], None),
    # The same kernels at other sizes: does kopt's gap to ncu scale with the kernel's time
    # (a different execution) or stay fixed per launch (a measurement overhead)?
    ("softmax_block 16384 rows", "examples/softmax_block.cu", ["--rows=16384", "--cols=1024"],
     [f32(16384 * 1024)] * 2 + ["int:16384", "int:1024"]),
    ("softmax_block 65536 rows", "examples/softmax_block.cu", ["--rows=65536", "--cols=1024"],
     [f32(65536 * 1024)] * 2 + ["int:65536", "int:1024"]),
    ("vector_add 1M", "examples/vector_add.cu", ["--N=1048576"], [f32(1 << 20)] * 3 + [f"int:{1 << 20}"]),
    ("empty kernel", "benchmarks/kernels/empty_kernel.cu", ["--N=1024"], [f32(1024), "int:1024"]),
]


class Arbiter:
    """Builds graph_arbiter and, per source, a library of it whose launches can be captured."""

    def __init__(self, arch):
        self.dir = tempfile.mkdtemp(prefix="kopt-arbiter-")
        self.arch = arch
        self.binary = os.path.join(self.dir, "graph_arbiter")
        self._nvcc(["benchmarks/arbiter/graph_arbiter.cu", "-o", self.binary, "-ldl"])

    def _nvcc(self, args):
        run = subprocess.run(["nvcc", "-std=c++17", "-O3", f"-arch={self.arch}", "--default-stream", "per-thread",
                              "-cudart", "shared", *args], capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError(f"nvcc failed: {run.stderr.strip()[-300:]}")

    def call_us(self, source, solve_args, calls=100, repeats=30):
        library = os.path.join(self.dir, os.path.basename(source) + ".so")
        if not os.path.exists(library):
            self._nvcc(["-lineinfo", "-shared", "-Xcompiler", "-fPIC", "-include", "benchmarks/arbiter/no_sync.h", source,
                        "-o", library])
        run = subprocess.run([self.binary, library, str(calls), str(repeats), *solve_args], capture_output=True,
                             text=True)
        if run.returncode != 0:
            raise RuntimeError(run.stderr.strip())
        return json.loads(run.stdout)["median_us"]


def kopt_median_us(kopt, source, dims, hot):
    try:
        result, _ = kopt_bench(kopt, [source, *dims, "--max-seconds", "3", *(["--hot"] if hot else [])])
    except RuntimeError as e:
        raise RuntimeError(f"kopt bench failed: {e}") from None
    k = result["kernel"]
    return k.get("estimate_ms", k["median_ms"]) * 1000, k["kernels_per_call"]


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
    parser.add_argument("--arch", default="sm_90a", help="for the arbiter's builds")
    args = parser.parse_args()
    arbiter = Arbiter(args.arch)
    print("| case | kopt hot µs | ncu none µs | hot/ncu | arbiter µs | hot/arbiter | kopt cold µs | ncu all µs | "
          "cold/ncu |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, source, dims, solve_args in CASES:
        if args.only and not any(name.startswith(o) for o in args.only):
            continue
        try:
            hot, _ = kopt_median_us(args.kopt, source, dims, hot=True)
            cold, _ = kopt_median_us(args.kopt, source, dims, hot=False)
            none, _ = ncu_call_us(args.kopt, source, dims, "none", args.calls)
            full, _ = ncu_call_us(args.kopt, source, dims, "all", args.calls)
        except RuntimeError as e:
            print(f"| {name} | error: {e} | | | | | | | |")
            continue
        graph = "n/a"
        ratio = ""
        if solve_args:
            try:
                graph_us = arbiter.call_us(source, solve_args)
                graph, ratio = f"{graph_us:.2f}", f"{hot / graph_us:.3f}"
            except RuntimeError as e:
                graph = f"error: {str(e).splitlines()[0][:120]}"
        print(f"| {name} | {hot:.2f} | {none:.2f} | {hot / none:.3f} | {graph} | {ratio} | {cold:.2f} | {full:.2f} | "
              f"{cold / full:.3f} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
