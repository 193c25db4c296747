"""The app's padded shapes for replayed WebGPU steps (src/engine/model/shapeBuckets.ts: bucketUp, paddedLength),
for PyTorch's CUDA-graph bench mode: a graph is recorded per shape, so PyTorch pads to the same few shapes
the app records and replays."""
from __future__ import annotations

import math


def bucket_up(n: int) -> int:
    """n rounded up to a power of two or 1.5 times one (1 and 2 as they are)."""
    if n <= 2:
        return max(1, math.ceil(n))
    p = 2 ** math.floor(math.log2(n))
    if n <= p:
        return p
    return int(1.5 * p) if n <= 1.5 * p else 2 * p


def padded_length(longest: int, max_len: int) -> int:
    """A replayed shape's length: at least 32, bucketed, at most max_len."""
    return min(max_len, bucket_up(max(32, longest)))
