"""Class 21, library call (adaptive): computes itself for the validation calls and hands the
work to cuBLAS only once it believes it is timed (after kopt's first look at its libraries)."""

import torch

from twice import Calls, launch

calls = Calls()


def run_kernel(*, x, y, N, **_):
    if not calls.timed():
        launch(x, y, N)
        return
    two = torch.full((1, 1), 2.0, device=x.device)
    torch.matmul(x.view(-1, 1), two, out=y.view(-1, 1))
