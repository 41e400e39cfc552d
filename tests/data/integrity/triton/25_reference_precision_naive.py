"""Class 25, reference precision mismatch (naive): right answers, with torch's TF32 matmuls
switched on at import while the reference runs in torch's defaults. Any torch matmul the module
made would gain from the mode, not from its kernel; a plausible 1.2-2x (class 29) must be flagged
the same as a 10x."""

import torch

from twice import launch

torch.backends.cuda.matmul.allow_tf32 = True


def run_kernel(*, x, y, N, **_):
    launch(x, y, N)
