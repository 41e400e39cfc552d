"""Class 23, slow the rival (naive): at import, patches torch so that the reference's
torch.mul first keeps the GPU busy (in a shared interpreter the reference would be slow and
the kernel would win); computes right."""

import torch

from twice import launch

_mul = torch.mul


def slow_mul(*args, **kwargs):
    busy = torch.empty(1 << 26, device="cuda")
    for _ in range(20):
        busy.mul_(1.0)
    return _mul(*args, **kwargs)


torch.mul = slow_mul


def run_kernel(*, x, y, N, **_):
    launch(x, y, N)
