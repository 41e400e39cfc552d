"""The integrity suite's reference: it defines the problem (setup(), so a cheating module's
own setup() cannot) and computes y = 2x with torch."""

import torch


def setup(*, N, seed=0, **_):
    generator = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(N, generator=generator, device="cuda")
    return {"inputs": {"x": x, "y": torch.empty_like(x), "N": N}, "outputs": ["y"]}


def reference(*, x, y, N, **_):
    torch.mul(x, 2.0, out=y)
