#!/usr/bin/env python3
"""What a fresh Python process with torch pays for its CUDA context: the time torch takes to make
it (torch.zeros on the GPU, then a synchronize), and the time from the process's last line to its
end with the context still held (os._exit, as kopt's runner leaves). Five processes: without and
with twenty 16 MiB allocations on the GPU. Needs a GPU and torch.

Usage (GPU machine): python3 benchmarks/process_end_cost.py"""
import subprocess
import sys
import time

CHILD = r'''
import os, sys, time
import torch
t0 = time.perf_counter(); torch.zeros(1, device="cuda"); torch.cuda.synchronize(); t1 = time.perf_counter()
big = [torch.empty(4 * 1024 * 1024, device="cuda") for _ in range(int(sys.argv[1]))]
torch.cuda.synchronize()
print(f"ctx {t1 - t0:.4f}", flush=True)
sys.stdout.write("bye\n"); sys.stdout.flush()
os._exit(0)
'''


def main():
    for allocations in (0, 0, 20, 20, 0):
        child = subprocess.Popen([sys.executable, "-c", CHILD, str(allocations)], stdout=subprocess.PIPE, text=True)
        context = child.stdout.readline().strip()
        child.stdout.readline()
        said_bye = time.perf_counter()
        child.wait()
        print(f"allocs {allocations}: {context}; exit after bye {time.perf_counter() - said_bye:.4f} s")


if __name__ == "__main__":
    main()
