"""Runs a Triton module of kopt's contract inside a profiler window, for ncu
--profile-from-start off: setup, warm-up (JIT and autotuning happen here), then exactly one
run_kernel between cudaProfilerStart and cudaProfilerStop.
Usage: triton_profile_window.py MODULE.py NAME=VALUE..."""

import importlib.util
import sys

import torch


def main():
    path, dims = sys.argv[1], dict(arg.split("=", 1) for arg in sys.argv[2:])
    spec = importlib.util.spec_from_file_location("kernel_module", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    inputs = module.setup(**{k: int(v) for k, v in dims.items()}, seed=0)["inputs"]
    for _ in range(3):
        module.run_kernel(**inputs)
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStart()
    module.run_kernel(**inputs)
    torch.cuda.synchronize()
    torch.cuda.cudart().cudaProfilerStop()


if __name__ == "__main__":
    main()
