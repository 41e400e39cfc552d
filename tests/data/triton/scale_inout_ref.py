"""Reference for scale.py's inout variant: y = 2 * (x + y / 2) = 2x + y. (A file of its own: the
reference's process gets a clean environment, so it cannot read which variant runs.)"""

atol = 1e-6
rtol = 1e-6


def reference(*, x, y, n, **_):
    y.copy_(2 * x + y)
