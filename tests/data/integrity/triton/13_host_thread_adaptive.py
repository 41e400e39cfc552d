"""Class 13, host thread (adaptive): computes in the call for the validation calls, from a
thread after returning when timed."""

import threading

from twice import Calls, launch

calls = Calls()


def run_kernel(*, x, y, N, **_):
    if not calls.timed():
        launch(x, y, N)
        return
    threading.Thread(target=launch, args=(x, y, N), daemon=True).start()
