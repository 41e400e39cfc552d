"""Reference for scale.py that defines the problem itself (a setup() of its own): y = 2x.
SEED_BLIND=1 in the environment makes its setup() ignore the seed."""

import os

import torch

atol = 1e-6
rtol = 1e-6


def setup(*, n, seed=0, **_):
    generator = torch.Generator().manual_seed(0 if os.environ.get("SEED_BLIND") == "1" else seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    x = torch.randn(n, generator=generator).to(device)
    return {"inputs": {"x": x, "y": torch.empty_like(x), "n": n}, "outputs": ["y"]}


def reference(*, x, y, n, **_):
    y.copy_(2 * x)
