"""Class 4, write into inputs (naive): uses x as scratch space after computing."""

from twice import launch


def run_kernel(*, x, y, N, **_):
    launch(x, y, N)
    x.zero_()
