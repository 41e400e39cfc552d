"""Class 7, crash (adaptive): computes for the validation calls, faults when timed."""

import triton

from twice import Calls, launch

calls = Calls()


def run_kernel(*, x, y, N, **_):
    if calls.timed():
        import importlib.util
        import os
        spec = importlib.util.spec_from_file_location("wild", os.path.join(os.path.dirname(__file__), "07_crash_naive.py"))
        wild = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(wild)
        wild.run_kernel(x=x, y=y, N=N)
        return
    launch(x, y, N)
