#!/usr/bin/env python3
"""Is ncu's lower figure for the 16M vector add the memory system's state or the instrument?

kopt's cold figure for the example's 16M-element vector add equals the kernel's own span (its
blocks' %globaltimer stamps, benchmarks/probes/l2_state_probe.cu), and ncu's `--cache-control
all` gpu__time_duration has read 5-6 % below it. This runs the probe's variants alone and under
ncu, and sets side by side, for the same launches:
  span alone        the kernel's own span, no profiler
  span under ncu    the kernel's own span while ncu measures it (ncu's flush, its serialisation)
  ncu duration      ncu's gpu__time_duration of that launch
So (span under ncu - span alone) is what ncu's state before the launch changes in the kernel, and
(ncu duration - span under ncu) is what ncu's instrument reads differently from the kernel's own
clock. Medians over the samples; ratios against the span alone.

Usage (GPU machine, repository root):
  python3 benchmarks/ncu_vs_span.py [--samples 100] [--variants 0,1,4] [--ncu ncu] [--arch sm_90a]
"""
import argparse
import csv
import io
import os
import statistics
import subprocess
import sys
import tempfile

PROBE = "benchmarks/probes/l2_state_probe.cu"
# The probe's variants (l2_state_probe.cu, in its order) that matter here.
NAMES = {0: "back to back (warm, dirty C)", 1: "read flush", 3: "fresh inputs + poisoned C (kopt hot)",
         4: "fresh inputs + poison + flush (kopt cold)"}
WARMUP = 20  # the probe's warm-up launches before its samples, which ncu profiles too


def build(arch, folder):
    binary = os.path.join(folder, "l2_state_probe")
    subprocess.run(["nvcc", "-O3", f"-gencode=arch=compute_{arch[3:]},code={arch}", "-o", binary, PROBE], check=True)
    return binary


def spans_of(stdout):
    """The probe's per-sample lines: [span_us]."""
    spans = []
    for line in stdout.splitlines():
        parts = line.split()
        if len(parts) == 6 and parts[0] == "sample" and parts[2] == "span_us":
            spans.append(float(parts[3]))
    return spans


def ncu_durations_us(stdout):
    """gpu__time_duration of each profiled vector_add launch, in launch order [us]."""
    lines = [line for line in stdout.splitlines() if line.startswith('"')]
    durations = []
    for row in csv.DictReader(io.StringIO("\n".join(lines))):
        if row.get("Metric Name") == "gpu__time_duration.sum" and "vector_add" in row.get("Kernel Name", ""):
            durations.append(float(row["Metric Value"].replace(",", "")) / 1000)  # ns -> us
    return durations


def run_variant(binary, ncu, variant, samples, cache_control):
    command = [binary, "--only", str(variant), "--samples", str(samples)]
    if cache_control:
        command = [ncu, "--clock-control", "none", "--cache-control", cache_control, "-k", "regex:vector_add",
                   "--metrics", "gpu__time_duration.sum", "--csv", "--print-units", "base", *command]
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(f"{' '.join(command[:3])}...: exit {run.returncode}: {run.stderr.strip()[-500:]}")
    spans = spans_of(run.stdout)
    if len(spans) != samples:
        raise RuntimeError(f"the probe printed {len(spans)} samples of {samples}")
    durations = ncu_durations_us(run.stdout)[WARMUP:] if cache_control else []
    if cache_control and len(durations) != samples:
        raise RuntimeError(f"ncu measured {len(durations)} sampled launches of {samples}")
    return spans, durations


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=100)
    parser.add_argument("--variants", default="0,1,4", help=f"the probe's variants, of {sorted(NAMES)}")
    parser.add_argument("--ncu", default="ncu")
    parser.add_argument("--arch", default="sm_90a")
    args = parser.parse_args()
    variants = [int(v) for v in args.variants.split(",")]
    print("| state before each launch | span alone us | ncu --cache-control | span under ncu us | ncu duration us | "
          "span under ncu / alone | ncu duration / span under ncu |")
    print("|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        binary = build(args.arch, folder)
        for variant in variants:
            alone, _ = run_variant(binary, args.ncu, variant, args.samples, None)
            alone_us = statistics.median(alone)
            for cache_control in ("all", "none"):
                spans, durations = run_variant(binary, args.ncu, variant, args.samples, cache_control)
                span_us, ncu_us = statistics.median(spans), statistics.median(durations)
                print(f"| {NAMES.get(variant, variant)} | {alone_us:.2f} | {cache_control} | {span_us:.2f} | "
                      f"{ncu_us:.2f} | {span_us / alone_us:.4f} | {ncu_us / span_us:.4f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
