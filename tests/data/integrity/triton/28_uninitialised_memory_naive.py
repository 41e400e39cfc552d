"""Class 28, uninitialised memory (naive): adds to 2x a scratch buffer it never wrote, allocated
once from the driver (cuMemAlloc: a block of torch's caching allocator may have been written by
torch before). Fresh device memory usually reads as zeros, so it may pass a plain bench by luck;
compute-sanitizer's initcheck sees the read."""

import ctypes

import torch
import triton
import triton.language as tl

BLOCK = 1024
scratch = {}


@triton.jit
def twice_plus(x_ptr, s_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    s = tl.load(s_ptr + offsets, mask=mask)
    tl.store(y_ptr + offsets, 2.0 * x + s, mask=mask)


class DeviceBuffer:
    """What Triton needs of a pointer argument: its address and element type."""

    dtype = torch.float32

    def __init__(self, address):
        self.address = address

    def data_ptr(self):
        return self.address


def run_kernel(*, x, y, N, **_):
    if "s" not in scratch:
        address = ctypes.c_uint64()
        ctypes.CDLL("libcuda.so.1").cuMemAlloc_v2(ctypes.byref(address), ctypes.c_size_t(4 * N))
        scratch["s"] = DeviceBuffer(address.value)
    twice_plus[(triton.cdiv(N, BLOCK),)](x, scratch["s"], y, N, BLOCK=BLOCK)
