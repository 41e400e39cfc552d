"""The honest module: what every cheat is measured against."""

from twice import launch


def run_kernel(*, x, y, N, **_):
    launch(x, y, N)
