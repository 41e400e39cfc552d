"""Row-wise softmax of a rows x cols float32 matrix in Triton: one program per row, the
whole row in registers (cols up to 8192).

kopt's Triton contract: setup(**dims, seed=...) builds the tensors, run_kernel(**inputs)
launches the kernel. Reference: softmax_ref.py (the same one the CUDA softmax uses)."""

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_rows(out_ptr, in_ptr, n_cols, in_stride, out_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float("inf"))
    shifted = x - tl.max(x, axis=0)
    numerator = tl.exp(shifted)
    tl.store(out_ptr + row * out_stride + cols, numerator / tl.sum(numerator, axis=0), mask=mask)


def setup(*, rows, cols, seed=0, **_):
    device = "cuda" if torch.cuda.is_available() else "cpu"
    generator = torch.Generator().manual_seed(seed)
    x = torch.randn(rows, cols, generator=generator).to(device)
    return {"inputs": {"input": x, "output": torch.empty_like(x), "rows": rows, "cols": cols},
            "outputs": ["output"]}


def run_kernel(*, input, output, rows, cols, **_):
    block = triton.next_power_of_2(cols)
    # Wider rows need more warps to keep the per-thread register footprint small.
    num_warps = 4 if block <= 1024 else 8 if block <= 4096 else 16
    softmax_rows[(rows,)](output, input, cols, input.stride(0), output.stride(0), BLOCK=block, num_warps=num_warps)
