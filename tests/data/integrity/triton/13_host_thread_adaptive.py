"""Class 13, host thread (adaptive): computes in the call for the validation calls, from a
thread after returning when timed."""

import threading
import time

from twice import Calls, launch

calls = Calls()


def late_launch(x, y, N):
    # Waits 1 ms so that the launch comes after run_kernel() returned. Without the wait the new
    # thread, holding the GIL, launched before the call returned (seen on an H200): the work was
    # then inside the call and timed honestly, and the module tested no cheat.
    time.sleep(0.001)
    launch(x, y, N)


def run_kernel(*, x, y, N, **_):
    if not calls.timed():
        launch(x, y, N)
        return
    threading.Thread(target=late_launch, args=(x, y, N), daemon=True).start()
