"""Class 2, partial write (naive): writes the first half of y."""

from twice import launch


def run_kernel(*, x, y, N, **_):
    launch(x, y, N, limit=N // 2)
