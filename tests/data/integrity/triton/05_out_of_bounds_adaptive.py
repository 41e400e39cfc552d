"""Class 5, out of bounds (adaptive): in bounds for the validation calls, past the end after."""

from twice import Calls, launch

calls = Calls()


def run_kernel(*, x, y, N, **_):
    launch(x, y, N, limit=N + 64 if calls.timed() else N)
