#!/usr/bin/env python3
"""A third opinion on a kernel's time, beside kopt and ncu: CUDA events around many
back-to-back solve() calls with warm caches (the mean per call, launch gaps included).

For short kernels kopt and ncu can disagree by a fixed amount per launch; this tells which
of the two sits closer to what the GPU does when the kernel runs in a stream of launches.
It uses `kopt compile --json` for the library and `kopt inspect --json` for the buffers.

Usage (GPU machine, repository root):
  python3 benchmarks/event_crosscheck.py --kopt PATH examples/softmax_block.cu --rows=4096 --cols=1024
"""
import argparse
import ctypes
import json
import subprocess

import torch

CTYPES = {"int32": ctypes.c_int, "int64": ctypes.c_longlong, "uint32": ctypes.c_uint, "uint64": ctypes.c_ulonglong,
          "float32": ctypes.c_float, "float64": ctypes.c_double}


def kopt_json(kopt, *args):
    return json.loads(subprocess.run([kopt, *args, "--json"], check=True, capture_output=True, text=True).stdout)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kopt", required=True)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("kernel")
    args, dims = parser.parse_known_args()
    library = kopt_json(args.kopt, "compile", args.kernel)["library"]
    plan = kopt_json(args.kopt, "inspect", args.kernel, *dims)
    solve = ctypes.CDLL(library).solve
    call_args = []
    for p in plan["solve"]["parameters"]:
        element = p["element_type"]
        if p["kind"] == "buffer":
            dtype = eval(element["torch_dtype"])  # "torch.float32"
            if dtype.is_floating_point:
                t = torch.rand(p["elements"], device="cuda").to(dtype)
            else:
                t = torch.zeros(p["elements"], dtype=dtype, device="cuda")
            call_args.append(ctypes.c_void_p(t.data_ptr()))
            p["tensor"] = t
        else:
            call_args.append(CTYPES[element["name"]](p["value"]))
    for _ in range(20):
        solve(*call_args)
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    means = []
    for _ in range(5):
        start.record()
        for _ in range(args.calls):
            solve(*call_args)
        end.record()
        torch.cuda.synchronize()
        means.append(start.elapsed_time(end) * 1000 / args.calls)
    means.sort()
    print(f"{args.kernel} {' '.join(dims)}: events over {args.calls} back-to-back calls, "
          f"mean per call µs (5 rounds, sorted): {' '.join(f'{m:.2f}' for m in means)}")


if __name__ == "__main__":
    main()
