"""Reference for axpy_inout.cu: y = alpha * x + y, in place (y is inout, so it
arrives holding its initial values)."""

atol = 1e-5
rtol = 1e-5


def reference(*, x, y, alpha, N, **_):
    y[:N].add_(x[:N], alpha=alpha)
