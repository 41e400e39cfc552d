"""y = 2 * x in Triton behind @triton.autotune, for kopt tune's tests. The second config covers only
the first half of each block (fast because it is wrong); OFFSET is a module-level integer that a
tune may set (anything but 0 is wrong too)."""

# kopt: tune(config, 0, 1) tune(num_warps, 1, 2) tune(OFFSET, 0, 1)
# kopt: restrict(num_warps * 32 <= n)

import torch
import triton
import triton.language as tl

OFFSET = 0

CONFIGS = [
    triton.Config({"BLOCK": 64, "COVER": 64}, num_warps=4),
    triton.Config({"BLOCK": 64, "COVER": 32}, num_warps=4),
]


@triton.autotune(configs=CONFIGS, key=["n"])
@triton.jit
def scale_kernel(x_ptr, y_ptr, n, shift, BLOCK: tl.constexpr, COVER: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, COVER)
    x = tl.load(x_ptr + offsets, mask=offsets < n, other=0.0)
    tl.store(y_ptr + offsets, 2.0 * x + shift, mask=offsets < n)


def setup(*, n, seed=0, **_):
    generator = torch.Generator().manual_seed(seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    x = torch.randn(n, generator=generator).to(device)
    return {"inputs": {"x": x, "y": torch.zeros_like(x), "n": n}, "outputs": ["y"]}


def run_kernel(*, x, y, n, **_):
    scale_kernel[lambda meta: (triton.cdiv(n, meta["BLOCK"]),)](x, y, n, float(OFFSET))
