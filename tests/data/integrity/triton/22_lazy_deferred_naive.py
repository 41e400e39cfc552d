"""Class 22, lazy / deferred (naive): returns at once and does each call's work at the start
of the next call."""

from twice import launch

pending = []


def run_kernel(*, x, y, N, **_):
    while pending:
        launch(*pending.pop())
    pending.append((x, y, N))
