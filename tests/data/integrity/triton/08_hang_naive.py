"""Class 8, hang (naive): a kernel that never ends."""

import triton
import triton.language as tl


@triton.jit
def spin(x_ptr):
    flag = tl.load(x_ptr, volatile=True)
    while flag == flag:
        flag = tl.load(x_ptr, volatile=True)


def run_kernel(*, x, y, N, **_):
    spin[(1,)](x)
