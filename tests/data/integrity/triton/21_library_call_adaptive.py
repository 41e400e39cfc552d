"""Class 21, library call (adaptive): computes itself for the validation calls and hands part
of the work to cuBLAS only once it believes it is timed (after kopt's first look at its
libraries): a matrix product by [[1]] copies x into y, its own Triton kernel doubles y."""

import torch

from twice import Calls, launch

calls = Calls()


def run_kernel(*, x, y, N, **_):
    if not calls.timed():
        launch(x, y, N)
        return
    one = torch.ones((1, 1), device=x.device)
    torch.matmul(x.view(-1, 1), one, out=y.view(-1, 1))
    launch(y, y, N)
