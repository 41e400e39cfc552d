#!/usr/bin/env python3
"""The time of a fresh clone's first `scripts/demo.sh`, before and after a change, side by side.

Each run clones the repository at one revision into a scratch folder, gives the compiler cache
an empty folder of its own (CCACHE_DIR; the compiler launcher stays as the caller's
environment sets it), installs into a scratch prefix (KOPT_PREFIX), and times scripts/demo.sh
from start to end: the set-up (packages already installed on the machine), the build, the
installation and the main job. Rounds alternate which revision goes first, so that a change in
the machine's load hits both alike. Besides the wall time it reports the CPU time of everything
the demo ran (less sensitive to other work on a shared machine), and the load average around
each run.

Usage: benchmarks/first_demo.py [--before REV] [--after REV] [--rounds N] [--out FILE.md]
  --before  default: main        --after  default: HEAD        --rounds  default: 3
Writes a markdown table (and FILE.json beside it when --out is given).
"""

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def commit_of(revision):
    return subprocess.run(["git", "-C", REPO, "rev-parse", "--short=12", revision], capture_output=True, text=True,
                          check=True).stdout.strip()


def children_cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def one_run(label, revision, scratch):
    """Clones `revision` into `scratch` and times its first demo."""
    clone = os.path.join(scratch, "clone")
    subprocess.run(["git", "clone", "--quiet", "--no-checkout", REPO, clone], check=True)
    subprocess.run(["git", "-C", clone, "checkout", "--quiet", revision], check=True)
    env = dict(os.environ, CCACHE_DIR=os.path.join(scratch, "ccache"), KOPT_PREFIX=os.path.join(scratch, "prefix"))
    env.pop("KOPT_BIN", None)
    log_path = os.path.join(scratch, "demo.log")
    load_before = os.getloadavg()[0]
    cpu_before = children_cpu_seconds()
    start = time.monotonic()
    with open(log_path, "w") as log:
        exit_code = subprocess.run(["scripts/demo.sh"], cwd=clone, env=env, stdout=log, stderr=subprocess.STDOUT).returncode
    wall = time.monotonic() - start
    result = {"label": label, "revision": revision, "exit_code": exit_code, "wall_s": round(wall, 1),
              "cpu_s": round(children_cpu_seconds() - cpu_before, 1), "load_before": round(load_before, 2),
              "load_after": round(os.getloadavg()[0], 2)}
    if exit_code != 0:
        with open(log_path) as log:
            result["log_tail"] = log.read()[-3000:]
    print(json.dumps(result), flush=True)
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="main")
    parser.add_argument("--after", default="HEAD")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--out")
    args = parser.parse_args()
    sides = [("before", commit_of(args.before)), ("after", commit_of(args.after))]
    runs = []
    for round_number in range(args.rounds):
        order = sides if round_number % 2 == 0 else sides[::-1]
        for label, revision in order:
            scratch = tempfile.mkdtemp(prefix=f"kopt-first-demo-{label}-")
            try:
                runs.append(dict(one_run(label, revision, scratch), round=round_number + 1))
            finally:
                shutil.rmtree(scratch, ignore_errors=True)

    lines = [f"First `scripts/demo.sh` of a fresh clone, {os.cpu_count()} CPUs, empty compiler cache "
             f"(before {sides[0][1]}, after {sides[1][1]})", "",
             "| round | revision | exit | wall [s] | CPU [s] | load (start → end) |", "|---|---|---|---|---|---|"]
    for r in runs:
        lines.append(f"| {r['round']} | {r['label']} {r['revision']} | {r['exit_code']} | {r['wall_s']} | {r['cpu_s']} "
                     f"| {r['load_before']} → {r['load_after']} |")
    for label, _ in sides:
        walls = sorted(r["wall_s"] for r in runs if r["label"] == label)
        lines.append(f"\n{label}: median wall {walls[len(walls) // 2]} s over {len(walls)} run(s)")
    report = "\n".join(lines) + "\n"
    print(report)
    if args.out:
        with open(args.out, "w") as f:
            f.write(report)
        with open(os.path.splitext(args.out)[0] + ".json", "w") as f:
            json.dump({"before": sides[0][1], "after": sides[1][1], "cpus": os.cpu_count(), "runs": runs}, f, indent=2)
    return 0 if all(r["exit_code"] == 0 for r in runs) else 1


if __name__ == "__main__":
    sys.exit(main())
