"""Class 12, side stream (adaptive): on the current stream for the validation calls, on a
stream of its own (not waited for) when timed."""

import torch

from twice import Calls, launch

calls = Calls()
stream = None


def run_kernel(*, x, y, N, **_):
    global stream
    if not calls.timed():
        launch(x, y, N)
        return
    if stream is None:
        stream = torch.cuda.Stream()
    stream.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(stream):
        launch(x, y, N)
