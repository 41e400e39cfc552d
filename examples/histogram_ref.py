"""Reference for histogram.cu: histogram[b] = number of i with input[i] == b,
for b in [0, num_bins). Integer output: compared exactly."""

import torch


def reference(*, input, histogram, N, num_bins, **_):
    counts = torch.bincount(input[:N].long(), minlength=num_bins)[:num_bins]
    histogram[:num_bins].copy_(counts.to(histogram.dtype))
