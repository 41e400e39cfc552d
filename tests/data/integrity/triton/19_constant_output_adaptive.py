"""Class 19, constant output (adaptive): writes the output's expected mean (a constant) instead."""


def run_kernel(*, x, y, N, **_):
    y.fill_(0.001)
