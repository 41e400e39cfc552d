"""Class 2, partial write (adaptive): the whole of y for the validation calls, then half."""

from twice import Calls, launch

calls = Calls()


def run_kernel(*, x, y, N, **_):
    launch(x, y, N, limit=N // 2 if calls.timed() else N)
