"""For the class-28 modules (uninitialised memory): y = 2x + s, with s a scratch buffer taken
from the driver (cuMemAlloc: a block of torch's caching allocator may have been written by
torch before), of which the module writes only `written_bytes` (0: none)."""

import ctypes

import torch
import triton
import triton.language as tl

BLOCK = 1024


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


def scratch_from_driver(n, written_bytes):
    driver = ctypes.CDLL("libcuda.so.1")
    address = ctypes.c_uint64()
    driver.cuMemAlloc_v2(ctypes.byref(address), ctypes.c_size_t(4 * n))
    if written_bytes:
        driver.cuMemsetD8_v2(ctypes.c_uint64(address.value), ctypes.c_ubyte(0), ctypes.c_size_t(written_bytes))
    return DeviceBuffer(address.value)


def launch(x, scratch, y, n):
    twice_plus[(triton.cdiv(n, BLOCK),)](x, scratch, y, n, BLOCK=BLOCK)
