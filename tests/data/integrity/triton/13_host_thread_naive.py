"""Class 13, host thread (naive): returns at once and launches the work from a thread."""

import threading
import time

from twice import launch


def run_kernel(*, x, y, N, **_):
    def later():
        time.sleep(0.0005)
        launch(x, y, N)
    threading.Thread(target=later, daemon=True).start()
