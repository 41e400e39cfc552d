"""Class 18, precision downgrade (adaptive): through float16, whose error stays inside
float32's default tolerance: it passes, but its error is reported."""

import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def twice_in_half(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets, mask=offsets < n, other=0.0).to(tl.float16)
    tl.store(y_ptr + offsets, (x * 2.0).to(tl.float32), mask=offsets < n)


def run_kernel(*, x, y, N, **_):
    twice_in_half[(triton.cdiv(N, BLOCK),)](x, y, N, BLOCK=BLOCK)
