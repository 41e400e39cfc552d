"""Class 17, seed blindness (naive): its setup() (the problem, its reference having none)
ignores the seed: every seed gets the same, easy inputs (zeros), and it writes zeros."""

import torch


def setup(*, N, seed=0, **_):
    x = torch.zeros(N, device="cuda")
    return {"inputs": {"x": x, "y": torch.empty_like(x), "N": N}, "outputs": ["y"]}


def run_kernel(*, x, y, N, **_):
    y.zero_()
