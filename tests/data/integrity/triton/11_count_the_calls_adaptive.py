"""Class 11, count the calls (adaptive): skips a call that comes less than 2 ms after the
previous one (a timing loop, it guesses), computes otherwise."""

import time

from twice import launch

last = [0.0]


def run_kernel(*, x, y, N, **_):
    now = time.perf_counter()
    quick = now - last[0] < 0.002
    last[0] = now
    if not quick:
        launch(x, y, N)
