#!/usr/bin/env python3
"""How repeatable kopt bench is, and what it costs.

For each case, five invocations of `kopt bench` (cold protocol, the default):
  - the coefficient of variation of the kernel's median across the five (goal <= 1 %);
  - the spread of the reference's median across the five, (max - min) / median (goal <= 2 %);
  - the wall time of one `kopt bench` with a warm compile cache.
Cases with a native .cu reference and with a Python (torch) reference. Prints a markdown table.

With --min-seconds A,B,... each case is run under each minimum sampling time, the invocations
interleaved (A, B, ..., A, B, ...) so that the machine's drift hits every floor alike, and the
reference timed in every run (--fresh-reference). Each row then also says how far the median of
the kernel's medians moved from the first floor's, the samples taken and why sampling stopped,
and the seconds the two sides spent sampling: what a shorter floor costs in agreement and saves
in time.

Usage (GPU machine, repository root):
  python3 benchmarks/bench_stability.py --kopt PATH [--runs 5] [--only NAME ...] [--min-seconds 0.5,0.1]
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


def bench_once(kopt, source, ref, dims, extra=()):
    try:
        return kopt_bench(kopt, [source, "--ref", ref, *dims, *extra])
    except RuntimeError as e:
        raise RuntimeError(str(e).splitlines()[0]) from None


def runner_seconds(result):
    """(the Python runner's wall, its start-up) [s]; zeros without one. Triton kernels run wholly
    in the Python runner; CUDA kernels only their .py reference."""
    runner_facts = result.get("reference_runner") or result.get("python_runner") or {}
    overhead = runner_facts.get("overhead_s", {})
    # A figure a runner does not have is null.
    return overhead.get("runner_wall_s") or overhead.get("total_s") or 0.0, overhead.get("startup_s") or 0.0


def sampling_seconds(result):
    """The kernel's and the reference's timing phases [s]."""
    phases = result.get("phases_s") or {}
    return sum((phases.get(side) or {}).get("timing", 0.0) for side in ("kernel", "reference"))


def spread(values):
    return (max(values) - min(values)) / statistics.median(values) * 100


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kopt", required=True)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--min-seconds", help="minimum sampling times to compare, comma-separated (default: kopt's)")
    args = parser.parse_args()
    floors = [float(f) for f in args.min_seconds.split(",")] if args.min_seconds else [None]
    extras = {floor: ([] if floor is None else ["--min-seconds", str(floor), "--fresh-reference"]) for floor in floors}
    print("| case | floor s | kernel median µs (runs) | kernel CV | kernel shift | reference median µs (runs) | "
          "reference spread | samples (kernel, reference) | stop | sampling s | wall s per bench | runner s (start-up) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for name, source, ref, dims in CASES:
        if args.only and not any(name.startswith(o) for o in args.only):
            continue
        runs = {floor: [] for floor in floors}
        try:
            bench_once(args.kopt, source, ref, dims)  # warms the compile cache
            for _ in range(args.runs):
                for floor in floors:
                    runs[floor].append(bench_once(args.kopt, source, ref, dims, extras[floor]))
        except RuntimeError as e:
            print(f"| {name} | | error: {e} | | | | | | | | | |")
            continue
        first_kernel_median = None
        for floor in floors:
            results = [r for r, _ in runs[floor]]
            kernel = [r["kernel"]["median_ms"] * 1000 for r in results]
            reference = [r["reference"]["median_ms"] * 1000 for r in results]
            if first_kernel_median is None:
                first_kernel_median = statistics.median(kernel)
            shift = (statistics.median(kernel) / first_kernel_median - 1) * 100
            cv = statistics.stdev(kernel) / statistics.mean(kernel) * 100
            samples = (f"{statistics.median(r['kernel']['sample_count'] for r in results):.0f}, "
                       f"{statistics.median(r['reference']['sample_count'] for r in results):.0f}")
            stops = " ".join(sorted({f"{r['kernel']['stop_reason']}/{r['reference']['stop_reason']}" for r in results}))
            runner = [runner_seconds(r) for r in results]
            runner_text = (f"{statistics.median(r[0] for r in runner):.2f} ({statistics.median(r[1] for r in runner):.2f})"
                           if runner[0][0] else "-")
            print(f"| {name} | {'default' if floor is None else floor} | {' '.join(f'{k:.2f}' for k in kernel)} | "
                  f"{cv:.2f} % | {shift:+.2f} % | {' '.join(f'{r:.2f}' for r in reference)} | "
                  f"{spread(reference):.2f} % | {samples} | {stops} | "
                  f"{statistics.median(sampling_seconds(r) for r in results):.2f} | "
                  f"{statistics.median(w for _, w in runs[floor]):.2f} | {runner_text} |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
