"""Class 15, persisting L2 (adaptive): pins x only once it believes it is timed."""

import importlib.util
import os

import torch

from twice import Calls, launch

spec = importlib.util.spec_from_file_location("naive15", os.path.join(os.path.dirname(__file__), "15_persisting_l2_naive.py"))
naive = importlib.util.module_from_spec(spec)
spec.loader.exec_module(naive)
calls = Calls()


def run_kernel(*, x, y, N, **_):
    if calls.timed():
        naive.run_kernel(x=x, y=y, N=N)
    else:
        launch(x, y, N)
