"""Class 18, precision downgrade (naive): computes through bfloat16."""

import torch


def run_kernel(*, x, y, N, **_):
    y.copy_((x.to(torch.bfloat16) * 2).float())
