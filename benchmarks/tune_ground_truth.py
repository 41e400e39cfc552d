#!/usr/bin/env python3
"""Exhaustive ground truth of a tunable kernel's space, for replaying tune strategies on the CPU.

Runs `kopt tune KERNEL --strategy exhaustive` until every allowed configuration is measured or
the time is up. kopt's tune cache (--cache, kept between calls) makes it resumable: a call that
runs out of time leaves what it measured, and the next call measures the rest. Writes the
measured space as JSON (--out): every configuration with its status and median, the GPU, the
date and kopt's version, and whether the space is complete.

Usage:
  tune_ground_truth.py --kopt KOPT --kernel K.cu --ref REF --cache DIR --out FILE.json
                       [--minutes M] [--chunk N] -- --M=2048 --N=2048 ...
"""

import argparse
import datetime
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time


def gpu_name():
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=30).stdout
        return out.strip().splitlines()[0]
    except (OSError, subprocess.SubprocessError, IndexError):
        return "unknown"


def one_chunk(args, dims, runs, seconds_left):
    """One kopt tune call of at most --chunk new configurations; its tune_result, or None."""
    command = [args.kopt, "tune", args.kernel, "--ref", args.ref, "--strategy", "exhaustive",
               "--budget", str(args.chunk), "--compare-seconds", "2", "--out", str(runs), "--json"] + dims
    env = dict(os.environ, KOPT_CACHE_DIR=str(args.cache))
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=seconds_left)
    except subprocess.TimeoutExpired:
        print("the time ran out inside a chunk; what it measured is in the cache", file=sys.stderr)
        return None
    if done.returncode not in (0, 1):
        sys.exit(f"kopt tune failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
    return json.loads(done.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kopt", required=True)
    parser.add_argument("--kernel", required=True)
    parser.add_argument("--ref", required=True)
    parser.add_argument("--cache", required=True, type=pathlib.Path)
    parser.add_argument("--out", required=True, type=pathlib.Path)
    parser.add_argument("--minutes", type=float, default=8.0)
    parser.add_argument("--chunk", type=int, default=20)
    parser.add_argument("dims", nargs="*")
    args = parser.parse_args()
    deadline = time.monotonic() + args.minutes * 60
    result = None
    began = time.monotonic()
    with tempfile.TemporaryDirectory() as runs:
        while time.monotonic() < deadline:
            chunk = one_chunk(args, args.dims, runs, deadline - time.monotonic())
            if chunk is None:
                break
            result = chunk
            if len(result["measured"]) >= result["allowed"]:
                break
    if result is None:
        sys.exit("no chunk finished: give more --minutes")
    complete = len(result["measured"]) >= result["allowed"]
    truth = {
        "kernel": pathlib.Path(args.kernel).name,
        "reference": pathlib.Path(args.ref).name,
        "dimensions": result["dimensions"],
        "gpu": gpu_name(),
        "date": datetime.date.today().isoformat(),
        "kopt": subprocess.run([args.kopt, "--version"], capture_output=True, text=True).stdout.strip(),
        "configurations": result["configurations"],
        "allowed": result["allowed"],
        "complete": complete,
        "measured": [{k: m[k] for k in ("configuration", "status", "reason", "median_ms", "median_ci95_ms")}
                     for m in result["measured"]],
        "winner": result.get("winner"),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(truth, indent=1) + "\n")
    passed = [m for m in truth["measured"] if m["status"] == "ok"]
    print(f"{truth['kernel']} {' '.join(truth['dimensions'])} on {truth['gpu']}: "
          f"{len(truth['measured'])} of {truth['allowed']} measured ({'complete' if complete else 'partial'}), "
          f"{len(passed)} passed, {time.monotonic() - began:.0f} s")
    if passed:
        medians = sorted(m["median_ms"] for m in passed)
        print(f"best {medians[0] * 1000:.1f} us, median configuration {medians[len(medians) // 2] * 1000:.1f} us "
              f"({medians[len(medians) // 2] / medians[0]:.2f}x the best)")


if __name__ == "__main__":
    main()
