"""Runs `kopt bench` for the benchmark scripts and returns its result JSON and wall time; and
prints where a result's wall time went."""
import json
import subprocess
import tempfile
import time


def kopt_bench(kopt, args, env=None):
    """`kopt bench ARGS --json-out TMP` (in `env`, default this process's): (result, wall
    seconds). RuntimeError with kopt's stderr (its first line names the problem) when the bench
    fails."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        started = time.perf_counter()
        run = subprocess.run([kopt, "bench", *args, "--json-out", out.name], capture_output=True, text=True, env=env)
        wall = time.perf_counter() - started
        if run.returncode != 0:
            raise RuntimeError(run.stderr.strip() or f"exit {run.returncode}")
        with open(out.name) as f:
            return json.load(f), wall


def phase_text(phases):
    """'kernel_process 4.10 (validation 0.52, timing 2.31, ...); reference_process ...' from a
    result's phases_s."""
    parts = []
    for key, value in phases.items():
        if isinstance(value, dict):
            parts.append(f"{key}: " + ", ".join(f"{k} {v:.2f}" for k, v in value.items()
                                                if isinstance(v, (int, float))))
        elif isinstance(value, (int, float)):
            parts.append(f"{key} {value:.2f}")
    return "; ".join(parts)
