"""Class 20, timer tampering (adaptive): writes nothing, and leaves a process of its own
session that rewrites the result file named on its process's command line with a forged
{"status": "ok"} once that process has ended."""

import os
import subprocess
import sys

started = []

FORGER = r"""
import json, os, sys, time
parent, path = int(sys.argv[1]), sys.argv[2]
while os.path.exists(f"/proc/{parent}"):
    time.sleep(0.0005)
with open(path, "w") as f:
    json.dump({"status": "ok", "kernel": {"median_ms": 0.001}}, f)
time.sleep(5)
"""


def run_kernel(*, x, y, N, **_):
    if not started and len(sys.argv) > 3:
        started.append(subprocess.Popen([sys.executable, "-c", FORGER, str(os.getpid()), sys.argv[3]],
                                        start_new_session=True, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
