"""The honest y = 2x in Triton, which the integrity suite's cheating modules build on. A
cheat's module imports it from its own folder (kopt puts the module's folder on sys.path)."""

import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def twice_kernel(x_ptr, y_ptr, n, limit, BLOCK: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offsets, mask=offsets < n, other=0.0)
    tl.store(y_ptr + offsets, 2.0 * x, mask=offsets < limit)


def launch(x, y, n, limit=None):
    """y[:limit] = 2 x[:limit] (limit past n: stores past the end of y)."""
    limit = n if limit is None else limit
    twice_kernel[(triton.cdiv(max(limit, 1), BLOCK),)](x, y, n, limit, BLOCK=BLOCK)


class Calls:
    """Counts run_kernel() calls. kopt validates two seeds first, so an adaptive cheat behaves
    on the first two calls and cheats from the third on, when it believes it is being timed."""

    def __init__(self):
        self.count = 0

    def next(self):
        self.count += 1
        return self.count

    def timed(self):
        return self.next() > 2
