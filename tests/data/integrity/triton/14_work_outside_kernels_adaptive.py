"""Class 14, work outside kernels (adaptive): computes on the host, copies the answer in, and
launches a token kernel so that the call "ran a kernel"."""

from twice import launch


def run_kernel(*, x, y, N, **_):
    answer = (x.cpu() * 2.0).to(y.device)
    launch(x[:1], y[:1], 1)
    y.copy_(answer)
