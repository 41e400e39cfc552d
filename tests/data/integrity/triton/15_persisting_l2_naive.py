"""Class 15, persisting L2 (naive): every call reserves the largest persisting L2 carve-out and
pins x in it with an access-policy window on its stream, so that a cache flush between samples
misses x; computes right (through the driver, with ctypes)."""

import ctypes

import torch

from twice import launch

cuda = ctypes.CDLL("libcuda.so.1")


class AccessPolicyWindow(ctypes.Structure):
    _fields_ = [("base_ptr", ctypes.c_void_p), ("num_bytes", ctypes.c_size_t), ("hitRatio", ctypes.c_float),
                ("hitProp", ctypes.c_int), ("missProp", ctypes.c_int)]


class StreamAttribute(ctypes.Union):
    _fields_ = [("accessPolicyWindow", AccessPolicyWindow), ("pad", ctypes.c_char * 64)]


def pin(x, stream):
    device = ctypes.c_int()
    cuda.cuCtxGetDevice(ctypes.byref(device))
    largest, window = ctypes.c_int(), ctypes.c_int()
    cuda.cuDeviceGetAttribute(ctypes.byref(largest), 108, device)  # MAX_PERSISTING_L2_CACHE_SIZE
    cuda.cuDeviceGetAttribute(ctypes.byref(window), 109, device)   # MAX_ACCESS_POLICY_WINDOW_SIZE
    cuda.cuCtxSetLimit(0x06, ctypes.c_size_t(largest.value))        # PERSISTING_L2_CACHE_SIZE
    value = StreamAttribute()
    value.accessPolicyWindow = AccessPolicyWindow(x.data_ptr(), min(x.numel() * 4, window.value), 1.0, 2, 1)
    cuda.cuStreamSetAttribute(ctypes.c_void_p(stream.cuda_stream), 1, ctypes.byref(value))  # ACCESS_POLICY_WINDOW


stream = None


def run_kernel(*, x, y, N, **_):
    global stream
    if stream is None:
        stream = torch.cuda.Stream()
    pin(x, stream)
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        launch(x, y, N)
    # Joined back into the current stream: this file tests the L2 pinning, not class 12.
    torch.cuda.current_stream().wait_stream(stream)
