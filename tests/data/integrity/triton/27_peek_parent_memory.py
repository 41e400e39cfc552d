"""Class 27, peeking at the grader (the parent's memory and environment, from Python): tries to
read kopt's /proc/PPID/maps, mem and environ. A judge it can read is one it could search for
answers, so when any read succeeds it computes y honestly and the run passes: the test wants the
run to fail (it writes nothing when every read is refused)."""

import os

from twice import launch


def parent_readable():
    parent = f"/proc/{os.getppid()}"
    try:
        with open(f"{parent}/environ", "rb") as f:
            if f.read(1):
                return True
    except OSError:
        pass
    try:
        with open(f"{parent}/maps") as maps, open(f"{parent}/mem", "rb") as mem:
            start = int(maps.readline().split("-")[0], 16)
            mem.seek(start)
            return len(mem.read(64)) > 0
    except (OSError, ValueError):
        return False


OPEN = parent_readable()


def run_kernel(*, x, y, N, **_):
    if OPEN:
        launch(x, y, N)
