"""Reference for scale.py: y = 2x."""

atol = 1e-6
rtol = 1e-6


def reference(*, x, y, n, **_):
    y.copy_(2 * x)
