"""Class 28, uninitialised memory (naive): adds to 2x a scratch buffer it never wrote
(uninitialised.py). Fresh device memory usually reads as zeros, so it may pass a plain bench by
luck; compute-sanitizer's initcheck sees the read."""

from uninitialised import launch, scratch_from_driver

scratch = {}


def run_kernel(*, x, y, N, **_):
    if "s" not in scratch:
        scratch["s"] = scratch_from_driver(N, 0)
    launch(x, scratch["s"], y, N)
