"""Reference for softmax_naive.cu and softmax_block.cu: row-wise softmax of a
rows x cols row-major float32 matrix."""

import torch

atol = 1e-6
rtol = 1e-3


def reference(*, input, output, rows, cols, **_):
    n = rows * cols
    x = input[:n].view(rows, cols)
    output[:n].view(rows, cols).copy_(torch.softmax(x, dim=1))
