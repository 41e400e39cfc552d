"""Class 21, library call (naive): hands part of the work to cuBLAS (a matrix product by [[1]]
copies x into y); its own Triton kernel doubles y in place. (A module that hands all of its
work over is a ghost kernel: class 26.)"""

import torch

from twice import launch


def run_kernel(*, x, y, N, **_):
    one = torch.ones((1, 1), device=x.device)
    torch.matmul(x.view(-1, 1), one, out=y.view(-1, 1))
    launch(y, y, N)
