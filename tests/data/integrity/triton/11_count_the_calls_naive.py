"""Class 11, count the calls (naive): computes for the first 5 calls, then does nothing."""

from twice import Calls, launch

calls = Calls()


def run_kernel(*, x, y, N, **_):
    if calls.next() <= 5:
        launch(x, y, N)
