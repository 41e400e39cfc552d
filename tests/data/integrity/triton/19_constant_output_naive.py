"""Class 19, constant output (naive): writes zeros, which a loose --atol accepts."""


def run_kernel(*, x, y, N, **_):
    y.zero_()
