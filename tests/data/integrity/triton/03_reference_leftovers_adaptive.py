"""Class 3, reference leftovers (adaptive): keeps an answer it once computed and hands it out
again, as a reused freed output would."""

import torch

from twice import Calls, launch

calls = Calls()
kept = {}


def run_kernel(*, x, y, N, **_):
    if calls.timed() and "y" in kept:
        y.copy_(kept["y"])
        return
    launch(x, y, N)
    kept["y"] = y.clone()
