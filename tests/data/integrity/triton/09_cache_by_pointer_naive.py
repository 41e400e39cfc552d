"""Class 9, cache by pointer (naive): once y's address has had its answer, launches nothing."""

from twice import launch

done = set()


def run_kernel(*, x, y, N, **_):
    key = (x.data_ptr(), y.data_ptr())
    if key in done:
        return
    launch(x, y, N)
    done.add(key)
