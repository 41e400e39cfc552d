"""Class 1, no write (naive): leaves y untouched."""


def run_kernel(*, x, y, N, **_):
    pass
