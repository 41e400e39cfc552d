"""Class 28, uninitialised memory (adaptive): looks careful, zeroing its scratch buffer once,
but with a count of elements passed as bytes: only the first quarter is written, the rest is
read unwritten, and fresh device memory's zeros hide it in a plain bench. The buffer comes from
the driver (cuMemAlloc), as in the naive module, so that torch never wrote it first."""

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
        driver = ctypes.CDLL("libcuda.so.1")
        address = ctypes.c_uint64()
        driver.cuMemAlloc_v2(ctypes.byref(address), ctypes.c_size_t(4 * N))
        driver.cuMemsetD8_v2(ctypes.c_uint64(address.value), ctypes.c_ubyte(0), ctypes.c_size_t(N))
        scratch["s"] = DeviceBuffer(address.value)
    twice_plus[(triton.cdiv(N, BLOCK),)](x, scratch["s"], y, N, BLOCK=BLOCK)
