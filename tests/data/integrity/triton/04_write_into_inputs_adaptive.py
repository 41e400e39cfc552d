"""Class 4, write into inputs (adaptive): uses x as scratch only once it believes it is timed."""

from twice import Calls, launch

calls = Calls()


def run_kernel(*, x, y, N, **_):
    launch(x, y, N)
    if calls.timed():
        x.mul_(0.5)
