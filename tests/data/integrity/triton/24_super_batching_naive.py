"""Class 24, super-batching (naive): honest on the validation calls; afterwards every call's
work is left running on a stream of the module's own (in_flight.py) and the call returns at
once: timed, it would take microseconds, and its outputs are right a moment later."""

from in_flight import leave_in_flight
from twice import Calls, launch

calls = Calls()


def run_kernel(*, x, y, N, **_):
    if not calls.timed():
        launch(x, y, N)
        return
    leave_in_flight(lambda: launch(x, y, N))
