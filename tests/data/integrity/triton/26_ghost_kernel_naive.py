"""Class 26, ghost kernel (naive): imports the Triton kernel twice_kernel and never launches
it; all the work goes to cuBLAS (a matrix product by [[2]]). No kernel Triton compiled runs."""

import torch

from twice import launch  # noqa: F401  the kernel its source names, never run


def run_kernel(*, x, y, N, **_):
    two = torch.full((1, 1), 2.0, device=x.device)
    torch.matmul(x.view(-1, 1), two, out=y.view(-1, 1))
