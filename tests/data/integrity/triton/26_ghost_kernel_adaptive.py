"""Class 26, ghost kernel (adaptive): runs its own Triton kernel for the validation calls and
hands all the work to cuBLAS once it believes it is timed: then no kernel Triton compiled runs."""

import torch

from twice import Calls, launch

calls = Calls()


def run_kernel(*, x, y, N, **_):
    if not calls.timed():
        launch(x, y, N)
        return
    two = torch.full((1, 1), 2.0, device=x.device)
    torch.matmul(x.view(-1, 1), two, out=y.view(-1, 1))
