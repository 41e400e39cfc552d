"""Class 7, crash (naive): stores far outside any allocation (an illegal address)."""

import triton
import triton.language as tl


@triton.jit
def wild_store(y_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(y_ptr + (offsets.to(tl.int64) + (1 << 40)), 1.0, mask=offsets < n)


def run_kernel(*, x, y, N, **_):
    wild_store[(triton.cdiv(N, 1024),)](y, N, BLOCK=1024)
