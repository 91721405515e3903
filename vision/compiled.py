"""Compiling vision's inner loops with numba (nopython, cached on disk, typed as before), and
the compiled helpers the kernels share.

The first call of a process compiles a kernel or loads it from numba's disk cache; the
kernels do no floating-point reassociation (no fast-math).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba
import numpy as np
from llvmlite import ir
from numba.core import types
from numba.extending import intrinsic

F = TypeVar("F", bound=Callable[..., Any])


def compiled(function: F) -> F:
    """Compile with numba (nopython, cached on disk), keeping the function's type."""
    # (a numba Dispatcher is called like the function it compiles)
    return cast(F, numba.njit(cache=True, nogil=True)(function))


def inlined(function: F) -> F:
    """compiled, for a small helper the kernels call point by point: numba inlines it into
    each kernel that calls it (a compiled call is not inlined, and costs more than the
    helper's own work)."""
    return cast(F, numba.njit(cache=True, nogil=True, inline="always")(function))


@intrinsic
def _fma(typing_context: Any, a: Any, b: Any, c: Any) -> Any:  # pragma: no cover
    """a * b + c rounded once (LLVM's fma), in float32 or float64, for kernels that must
    give the results of BLAS or OpenCV, which round so."""
    if not (a == b == c and a in (types.float32, types.float64)):
        return None
    signature = a(a, b, c)

    def build(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        kind = args[0].type
        fma = builder.module.declare_intrinsic("llvm.fma", [kind],
                                               ir.FunctionType(kind, [kind] * 3))
        return builder.call(fma, args)

    return signature, build


#: (typed as compiled code calls it)
fused_multiply_add = cast(Callable[[Any, Any, Any], Any], _fma)


@compiled
def dot2(ax: float, ay: float, bx: float, by: float) -> float:  # pragma: no cover
    """The dot product of two 2-vectors as numpy's BLAS gives it (ddot: ay * by added to
    ax * bx in one rounding), so a compiled side length is the one numpy computed."""
    return float(fused_multiply_add(ay, by, ax * bx))


@compiled
def select(values: Any, count: int, k: int) -> None:  # pragma: no cover
    """Reorder the first `count` values so that values[k] is the k-th smallest of them (from 0)
    and none before it is larger, none after it smaller: quickselect (numba's np.sort and
    np.partition are slower, and slow to compile)."""
    lo, hi = 0, count - 1
    while lo < hi:  # values[:lo] <= values[lo:hi + 1] <= values[hi + 1:count]
        pivot = values[(lo + hi) // 2]
        i, j = lo, hi
        while i <= j:
            while values[i] < pivot:
                i += 1
            while values[j] > pivot:
                j -= 1
            if i <= j:
                values[i], values[j] = values[j], values[i]
                i += 1
                j -= 1
        if k <= j:
            hi = j
        elif k >= i:
            lo = i
        else:
            break  # values[j + 1:i] all equal the pivot


#: values from which median_of first narrows them down to those near a sample's middle
NARROWED_MEDIAN = 1024
#: how many values the sample takes, and how many of its own ranks either side of its middle
#: bound the values kept (about 3 standard deviations of where the middle falls in it)
MEDIAN_SAMPLE, MEDIAN_MARGIN = 128, 16


@compiled
def median_of(values: Any, count: int) -> float:  # pragma: no cover
    """np.median of the first `count` (> 0) values, which it may reorder (select). The mean
    of the middle two is in the values' own precision, then exactly halved."""
    half = count // 2
    if count >= NARROWED_MEDIAN:
        found, lower, upper = _narrowed_middle(values, count, half)
        if found:
            return float((lower + upper) / 2)
    select(values, count, half)
    upper = values[half]
    lower = values[:half].max() if count % 2 == 0 else upper
    return float((lower + upper) / 2)


@compiled
def _narrowed_middle(values: Any, count: int, half: int) -> Any:  # pragma: no cover
    """The median's middle values (lower, upper: values[half - 1], values[half] sorted, or
    values[half] twice for an odd count) found among the few values between two ranks of an
    evenly spaced sample: one pass that keeps those (and counts the ones below them) and a
    select of them, where a select of all costs about four passes of mispredicted branches.
    found is False where the middle lies outside them (or a value is NaN): then select all."""
    step = count // MEDIAN_SAMPLE
    sample = np.empty(MEDIAN_SAMPLE, values.dtype)
    for i in range(MEDIAN_SAMPLE):
        sample[i] = values[i * step]
    middle = MEDIAN_SAMPLE // 2
    select(sample, MEDIAN_SAMPLE, middle - MEDIAN_MARGIN)
    low = sample[middle - MEDIAN_MARGIN]
    select(sample, MEDIAN_SAMPLE, middle + MEDIAN_MARGIN)
    high = sample[middle + MEDIAN_MARGIN]
    kept = np.empty(count, values.dtype)
    below, n, nan = 0, 0, 0
    for i in range(count):  # (no branch)
        v = values[i]
        below += v < low
        nan += v != v
        kept[n] = v
        n += (v >= low) & (v <= high)
    odd = count % 2
    # the kept values hold the global ranks below .. below + n - 1, in order
    if nan or below > half - 1 + odd or below + n <= half:
        return False, values[0], values[0]
    at = half - below
    select(kept, n, at)
    upper = kept[at]
    lower = upper if odd else kept[:at].max()
    return True, lower, upper


@compiled
def kth_and_next(values: Any, k: int) -> Any:  # pragma: no cover
    """The k-th smallest value (from 0) and the next one up (itself for the largest), in the
    values' own type: np.partition's, from a quickselect that reorders the values."""
    count = len(values)
    select(values, count, k)
    return values[k], values[k + 1:].min() if k + 1 < count else values[k]


@compiled
def grid_medians(image: Any, ys: Any, xs: Any) -> Any:  # pragma: no cover
    """Per row i of ys and xs (n, k each) and per channel of a float32 (h, w, channels)
    image, np.median of the channel at the k x k grid of pixels (ys[i, a], xs[i, b]): what
    np.median(image[ys[:, :, None], xs[:, None, :]].reshape(n, k * k, -1), axis=1) gives,
    (n, channels) float32, without that gathered copy and numpy's median's overhead."""
    n, k, channels = ys.shape[0], ys.shape[1], image.shape[2]
    out = np.empty((n, channels), np.float32)
    values = np.empty(k * k, np.float32)
    for i in range(n):
        for c in range(channels):
            m = 0
            for a in range(k):
                for b in range(k):
                    values[m] = image[ys[i, a], xs[i, b], c]
                    m += 1
            out[i, c] = np.float32(median_of(values, k * k))
    return out


@compiled
def box_means(image: Any, boxes: Any) -> Any:  # pragma: no cover
    """The mean value (over every channel) of an image's pixels in each box (rows of x0, y0,
    x1, y1; clipped to the image); 0 for an empty box. Exactly the numpy mean of each slice
    of a uint8 image (its sum is an exact integer), in one call for many boxes."""
    h, w = image.shape[0], image.shape[1]
    channels = image.size // max(h * w, 1)
    flat = image.reshape(h, w * channels)
    out = np.zeros(len(boxes))
    for b in range(len(boxes)):
        x0, y0 = min(max(boxes[b, 0], 0), w), min(max(boxes[b, 1], 0), h)
        x1, y1 = min(max(boxes[b, 2], x0), w), min(max(boxes[b, 3], y0), h)
        total = np.int64(0)  # (numba's int() of a uint8 is unsigned: kept signed here)
        for y in range(y0, y1):
            for j in range(x0 * channels, x1 * channels):
                total += np.int64(flat[y, j])
        count = (y1 - y0) * (x1 - x0) * channels
        if count:
            out[b] = total / count
    return out


@compiled
def _block_sum(values: Any, start: int, count: int) -> Any:  # pragma: no cover
    """numpy's sum of at most 128 values of a row: eight running sums (below 8 values one,
    from 0), added pairwise, then the values left over one by one."""
    if count < 8:
        total = np.zeros(1, values.dtype)[0]
        for i in range(start, start + count):
            total += values[i]
        return total
    # unsigned indices (and offsets: an int added to one is signed again): numba then
    # drops its check for a negative index on every load, which made this loop 2.4 times
    # slower (the sums are the same)
    u1, u2, u3, u4 = np.uint64(1), np.uint64(2), np.uint64(3), np.uint64(4)
    u5, u6, u7, u8 = np.uint64(5), np.uint64(6), np.uint64(7), np.uint64(8)
    at = np.uint64(start)
    s0, s1, s2, s3 = values[at], values[at + u1], values[at + u2], values[at + u3]
    s4, s5, s6, s7 = values[at + u4], values[at + u5], values[at + u6], values[at + u7]
    end = np.uint64(start + count - count % 8)
    at += u8
    while at < end:  # (in registers: a copy of eight would be allocated)
        s0 += values[at]
        s1 += values[at + u1]
        s2 += values[at + u2]
        s3 += values[at + u3]
        s4 += values[at + u4]
        s5 += values[at + u5]
        s6 += values[at + u6]
        s7 += values[at + u7]
        at += u8
    total = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
    for i in range(start + count - count % 8, start + count):
        total += values[i]
    return total


@compiled
def pairwise_sum(values: Any, start: int, count: int) -> Any:  # pragma: no cover
    """numpy's sum of values[start:start + count] along a contiguous row, in the values' own
    precision, bit for bit (its pairwise summation), so a mean taken here is numpy's: a run
    longer than 128 is split in two (the first part a multiple of 8 long) and the sums of
    the parts added; shorter runs are `_block_sum`s. A kernel that sums many long rows
    passes a stack of its own to `pairwise_sum_with` (one allocation, not one per sum)."""
    if count <= 128:  # (one block: no stack)
        return _block_sum(values, start, count)
    return pairwise_sum_with(values, start, count, np.empty((3, 64), np.int64),
                             np.empty(64, values.dtype))


@compiled
def pairwise_sum_with(values: Any, start: int, count: int, parts: Any,
                      firsts: Any) -> Any:  # pragma: no cover
    """pairwise_sum, its recursion kept on a stack of parts (numba cannot load a recursive
    function from its cache): `parts` (3, 64 of int64: each part's start, count and
    whether it is summing its second half) and `firsts` (64 of the values' type: the sum
    of a split part's first half, once known), scratch the caller may reuse."""
    starts, counts, second = parts[0], parts[1], parts[2]
    top, starts[0], counts[0] = 0, start, count
    while True:
        if counts[top] > 128:  # split: sum the first half first
            half = counts[top] // 2 - counts[top] // 2 % 8
            second[top] = 0
            starts[top + 1], counts[top + 1] = starts[top], half
            top += 1
            continue
        total = _block_sum(values, starts[top], counts[top])
        top -= 1
        while top >= 0 and second[top]:  # a second half: its part is summed
            total = firsts[top] + total
            top -= 1
        if top < 0:
            return total
        half = counts[top] // 2 - counts[top] // 2 % 8  # a first half: now the second
        firsts[top], second[top] = total, 1
        starts[top + 1], counts[top + 1] = starts[top] + half, counts[top] - half
        top += 1
