"""Class 10, cache by contents (naive): skips the work when y already holds the answer."""

import torch

from twice import launch


def run_kernel(*, x, y, N, **_):
    if torch.equal(y, 2.0 * x):
        return
    launch(x, y, N)
