#!/usr/bin/env python3
"""Ground truth for the timing core: calls examples/vector_add.cu's solve() on 16M floats,
`--calls` times, so that ncu can measure each launch's gpu__time_duration.

Usage (GPU machine):
  ncu --metrics gpu__time_duration.sum --clock-control none --cache-control none \
      --csv --print-units base python3 benchmarks/ncu_vector_add.py LIB.so
"""
import argparse
import ctypes

import torch


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("library", help="vector_add built by kopt compile")
    parser.add_argument("--calls", type=int, default=20)
    args = parser.parse_args()
    n = 1 << 24
    solve = ctypes.CDLL(args.library).solve
    solve.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int]
    a = torch.rand(n, device="cuda") * 2 - 1
    b = torch.rand(n, device="cuda") * 2 - 1
    c = torch.empty(n, device="cuda")
    for _ in range(args.calls):
        solve(a.data_ptr(), b.data_ptr(), c.data_ptr(), n)
    torch.cuda.synchronize()
    assert torch.equal(c, a + b), "vector_add computed the wrong result"


if __name__ == "__main__":
    main()
