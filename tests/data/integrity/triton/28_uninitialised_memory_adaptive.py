"""Class 28, uninitialised memory (adaptive): looks careful, zeroing its scratch buffer once,
but with a count of elements passed as bytes: only the first quarter is written, the rest is
read unwritten (uninitialised.py), and fresh device memory's zeros hide it in a plain bench."""

from uninitialised import launch, scratch_from_driver

scratch = {}


def run_kernel(*, x, y, N, **_):
    if "s" not in scratch:
        scratch["s"] = scratch_from_driver(N, N)
    launch(x, scratch["s"], y, N)
