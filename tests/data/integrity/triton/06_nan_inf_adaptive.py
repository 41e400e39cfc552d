"""Class 6, NaN / Inf (adaptive): an infinity only once it believes it is timed."""

from twice import Calls, launch

calls = Calls()


def run_kernel(*, x, y, N, **_):
    launch(x, y, N)
    if calls.timed():
        y[7] = float("inf")
