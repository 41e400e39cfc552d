"""Runs `kopt bench` for the benchmark scripts and returns its result JSON and wall time."""
import json
import subprocess
import tempfile
import time


def kopt_bench(kopt, args):
    """`kopt bench ARGS --json-out TMP`: (result, wall seconds). RuntimeError with kopt's
    stderr (its first line names the problem) when the bench fails."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        started = time.perf_counter()
        run = subprocess.run([kopt, "bench", *args, "--json-out", out.name], capture_output=True, text=True)
        wall = time.perf_counter() - started
        if run.returncode != 0:
            raise RuntimeError(run.stderr.strip() or f"exit {run.returncode}")
        with open(out.name) as f:
            return json.load(f), wall
