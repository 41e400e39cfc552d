"""Class 22, lazy / deferred (adaptive): in time for the validation calls, deferred to the next
call once it believes it is timed."""

from twice import Calls, launch

calls = Calls()
pending = []


def run_kernel(*, x, y, N, **_):
    while pending:
        launch(*pending.pop())
    if calls.timed():
        pending.append((x, y, N))
    else:
        launch(x, y, N)
