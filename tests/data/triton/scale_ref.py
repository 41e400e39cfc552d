"""Reference for scale.py: y = 2x (y = 2 * (x + y / 2) = 2x + y for the inout variant)."""

import os

atol = 1e-6
rtol = 1e-6


def reference(*, x, y, n, **_):
    if os.environ.get("KOPT_TEST_VARIANT") == "inout":
        y.copy_(2 * x + y)
    else:
        y.copy_(2 * x)
