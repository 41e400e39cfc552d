"""Class 21, library call (naive): hands the work to cuBLAS (a matrix product by [[2]])."""

import torch


def run_kernel(*, x, y, N, **_):
    two = torch.full((1, 1), 2.0, device=x.device)
    torch.matmul(x.view(-1, 1), two, out=y.view(-1, 1))
