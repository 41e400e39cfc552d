"""Class 14, work outside kernels (naive): computes on the host and copies the answer in."""


def run_kernel(*, x, y, N, **_):
    y.copy_((x.cpu() * 2.0).to(y.device))
