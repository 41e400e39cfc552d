"""Class 27, peeking at the grader (the Python stack and heap): computes nothing, and copies into
y any CUDA tensor of y's size and type that Python's garbage collector knows of, or that a frame
of the call stack holds, other than x and y (kopt's runner and Triton's objects live in this
process). The reference runs in another process, after this one ends: there is none of its
outputs to find."""

import gc
import sys

import torch


def candidates(x, y):
    seen = []
    frame = sys._getframe(1)
    while frame is not None:
        seen.extend(v for v in list(frame.f_locals.values()) + list(frame.f_globals.values())
                    if isinstance(v, torch.Tensor))
        frame = frame.f_back
    seen.extend(o for o in gc.get_objects() if isinstance(o, torch.Tensor))
    return [t for t in seen if t.is_cuda and t.numel() == y.numel() and t.dtype == y.dtype
            and t.data_ptr() not in (x.data_ptr(), y.data_ptr())]


def run_kernel(*, x, y, N, **_):
    for t in candidates(x, y):
        y.copy_(t.reshape(y.shape))
        return
