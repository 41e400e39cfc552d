#!/usr/bin/env python3
"""How repeatable kopt bench is, and what it costs.

For each case, five invocations of `kopt bench` (cold protocol, the default):
  - the coefficient of variation of the kernel's median across the five (goal <= 1 %);
  - the spread of the reference's median across the five, (max - min) / median (goal <= 2 %);
  - the wall time of one `kopt bench` with a warm compile cache.
Cases with a native .cu reference and with a Python (torch) reference. Prints a markdown table.

Usage (GPU machine, repository root): python3 benchmarks/bench_stability.py --kopt PATH [--runs 5]
"""
import argparse
import statistics
import sys

from kopt_bench_run import kopt_bench

CASES = [
    ("vector_add, .cu ref", "examples/vector_add.cu", "examples/vector_add_ref.cu", ["--N=16777216"]),
    ("vector_add, .py ref", "examples/vector_add.cu", "examples/vector_add_ref.py", ["--N=16777216"]),
    ("softmax_block, .py ref", "examples/softmax_block.cu", "examples/softmax_ref.py", ["--rows=4096", "--cols=1024"]),
    ("softmax_naive, .py ref", "examples/softmax_naive.cu", "examples/softmax_ref.py", ["--rows=4096", "--cols=1024"]),
    ("matmul_naive, .py ref", "examples/matmul_naive.cu", "examples/matmul_ref.py", ["--M=1024", "--N=1024", "--K=1024"]),
    ("cutlass_gemm, .py ref", "examples/cutlass_gemm.cu", "examples/cutlass_gemm_ref.py",
     ["--M=4096", "--N=4096", "--K=4096"]),
    ("axpy_inout, .py ref", "examples/axpy_inout.cu", "examples/axpy_inout_ref.py", ["--N=16777216", "--alpha=2.5"]),
    ("histogram, .py ref", "examples/histogram.cu", "examples/histogram_ref.py", ["--N=16777216", "--num_bins=256"]),
    ("triton_softmax, .py ref", "examples/triton_softmax.py", "examples/softmax_ref.py", ["--rows=4096", "--cols=1024"]),
    ("triton_matmul, .py ref", "examples/triton_matmul.py", "examples/triton_matmul_ref.py",
     ["--M=4096", "--N=4096", "--K=4096"]),
]


def bench_once(kopt, source, ref, dims):
    try:
        return kopt_bench(kopt, [source, "--ref", ref, *dims])
    except RuntimeError as e:
        raise RuntimeError(str(e).splitlines()[0]) from None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kopt", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    print("| case | kernel median µs (5 runs) | kernel CV | reference median µs (5 runs) | reference spread | "
          "wall s per bench | runner s (start-up) |")
    print("|---|---|---|---|---|---|---|")
    for name, source, ref, dims in CASES:
        if args.only and not any(name.startswith(o) for o in args.only):
            continue
        try:
            bench_once(args.kopt, source, ref, dims)  # warms the compile cache
            kernel, reference, walls, runner = [], [], [], []
            for _ in range(args.runs):
                result, wall = bench_once(args.kopt, source, ref, dims)
                kernel.append(result["kernel"]["median_ms"] * 1000)
                reference.append(result["reference"]["median_ms"] * 1000)
                walls.append(wall)
                # Triton kernels run wholly in the Python runner; CUDA kernels only their .py reference.
                runner_facts = result.get("reference_runner") or result.get("python_runner") or {}
                overhead = runner_facts.get("overhead_s", {})
                runner.append((overhead.get("runner_wall_s", overhead.get("total_s", 0.0)), overhead.get("startup_s", 0.0)))
        except RuntimeError as e:
            print(f"| {name} | error: {e} | | | | | |")
            continue
        cv = statistics.stdev(kernel) / statistics.mean(kernel) * 100
        spread = (max(reference) - min(reference)) / statistics.median(reference) * 100
        runner_text = (f"{statistics.median(r[0] for r in runner):.2f} ({statistics.median(r[1] for r in runner):.2f})"
                       if runner[0][0] else "-")
        print(f"| {name} | {' '.join(f'{k:.2f}' for k in kernel)} | {cv:.2f} % | "
              f"{' '.join(f'{r:.2f}' for r in reference)} | {spread:.2f} % | {statistics.median(walls):.2f} | "
              f"{runner_text} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
