"""A tensor's copy inside one allocation with guard regions on both sides, as the CUDA harness
allocates every buffer: the guards hold the canary byte, so a write past either end shows.
Outputs are filled with the poison of their element type before each run."""

from . import torch_support


def span_elements(tensor):
    """Elements of storage the tensor's view reaches, from its first element."""
    if tensor.numel() == 0:
        return 0
    return 1 + sum((size - 1) * stride for size, stride in zip(tensor.shape, tensor.stride()))


def overlaps_itself(tensor):
    return any(stride == 0 and size > 1 for size, stride in zip(tensor.shape, tensor.stride()))


class GuardedTensor:
    def __init__(self, torch, source, conventions):
        self.torch = torch
        self.guard = conventions["guard_bytes"]
        self.canary = conventions["canary_byte"]
        element = source.element_size()
        self.body_bytes = span_elements(source) * element
        self.raw = torch.full((2 * self.guard + self.body_bytes,), self.canary, dtype=torch.uint8,
                              device=source.device)
        body = self.raw[self.guard:self.guard + self.body_bytes].view(source.dtype)
        self.view = body.as_strided(source.shape, source.stride())
        self.view.copy_(source)

    def poison(self, pattern):
        """Fills every byte of the view's span with the element pattern (bytes of one element)."""
        if self.body_bytes == 0:
            return
        body = self.raw[self.guard:self.guard + self.body_bytes].view(-1, len(pattern))
        body.copy_(self.torch.tensor(list(pattern), dtype=self.torch.uint8, device=self.raw.device).expand_as(body))

    def damaged_guard(self):
        """"before" / "after" for the first guard that lost its canary, else None."""
        if not bool((self.raw[:self.guard] == self.canary).all()):
            return "before"
        if not bool((self.raw[self.guard + self.body_bytes:] == self.canary).all()):
            return "after"
        return None

    def bytes_written_past_end(self):
        tail = self.raw[self.guard + self.body_bytes:]
        damaged = (tail != self.canary).nonzero()
        return int(damaged[-1]) + 1 if damaged.numel() else 0


def guarded_copy(torch, source, conventions):
    """A GuardedTensor of `source`, or None when its view overlaps itself (an expanded tensor
    cannot be copied into; it is passed as setup() made it)."""
    if overlaps_itself(source):
        return None
    return GuardedTensor(torch, source, conventions)


def poison_pattern(tensor, conventions):
    name = torch_support.element_type_of(tensor.dtype, conventions["poison"])
    return conventions["poison"][name] if name else None


class GuardedSet:
    """One set of tensors (kernel's or reference's): guarded copies of setup()'s tensors, the
    outputs poisoned unless they are inout."""

    def __init__(self, torch, inputs, outputs, inout, conventions):
        self.kwargs, self.guarded = {}, {}
        for name, value in inputs.items():
            copy = guarded_copy(torch, value, conventions) if isinstance(value, torch.Tensor) else None
            if copy is not None:
                self.guarded[name] = copy
                self.kwargs[name] = copy.view
            else:
                self.kwargs[name] = value
        for name in outputs:
            pattern = poison_pattern(inputs[name], conventions)
            if name not in inout and name in self.guarded and pattern is not None:
                self.guarded[name].poison(pattern)
