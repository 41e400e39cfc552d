"""Class 18, precision downgrade (adaptive): through float16, whose error stays inside
float32's default tolerance: it passes, but its error is reported."""

import torch


def run_kernel(*, x, y, N, **_):
    y.copy_((x.half() * 2).float())
