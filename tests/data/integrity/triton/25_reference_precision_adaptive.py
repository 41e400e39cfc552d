"""Class 25, reference precision mismatch (adaptive): switches TF32 matmuls and a lower float32
matmul precision on only in the calls it takes for timed ones, and back off before returning,
so that its settings read the same as the reference's before and after every call."""

import torch

from twice import Calls, launch

calls = Calls()


def run_kernel(*, x, y, N, **_):
    timed = calls.timed()
    if timed:
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.set_float32_matmul_precision("medium")
    launch(x, y, N)
    if timed:
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.set_float32_matmul_precision("highest")
