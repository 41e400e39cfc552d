"""Class 23, slow the rival (adaptive): right answers, but leaves process-wide settings behind
for whoever would run next in its process: TF32 on and a persisting-L2 carve-out reserved (the
reference runs in a process of its own, so neither reaches it)."""

import ctypes

import torch

from twice import launch


def run_kernel(*, x, y, N, **_):
    launch(x, y, N)
    torch.backends.cuda.matmul.allow_tf32 = True
    torch.backends.cudnn.allow_tf32 = True
    ctypes.CDLL("libcuda.so.1").cuCtxSetLimit(0x06, ctypes.c_size_t(1 << 20))
