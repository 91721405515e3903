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
def median_of(values: Any, count: int) -> float:  # pragma: no cover
    """np.median of the first `count` (> 0) values, which it reorders: the middle ones found
    by quickselect (numba's np.sort and np.partition are slower, and slow to compile). The
    mean of the middle two is in the values' own precision, then exactly halved."""
    half = count // 2
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
        if half <= j:
            hi = j
        elif half >= i:
            lo = i
        else:
            break  # values[j + 1:i] all equal the pivot
    upper = values[half]
    lower = values[:half].max() if count % 2 == 0 else upper
    return float((lower + upper) / 2)


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
    s0, s1, s2, s3 = values[start], values[start + 1], values[start + 2], values[start + 3]
    s4, s5, s6, s7 = values[start + 4], values[start + 5], values[start + 6], values[start + 7]
    end = start + count - count % 8
    for i in range(start + 8, end, 8):  # (in registers: a copy of eight would be allocated)
        s0 += values[i]
        s1 += values[i + 1]
        s2 += values[i + 2]
        s3 += values[i + 3]
        s4 += values[i + 4]
        s5 += values[i + 5]
        s6 += values[i + 6]
        s7 += values[i + 7]
    total = ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
    for i in range(end, start + count):
        total += values[i]
    return total


@compiled
def pairwise_sum(values: Any, start: int, count: int) -> Any:  # pragma: no cover
    """numpy's sum of values[start:start + count] along a contiguous row, in the values' own
    precision, bit for bit (its pairwise summation), so a mean taken here is numpy's: a run
    longer than 128 is split in two (the first part a multiple of 8 long) and the sums of
    the parts added; shorter runs are `_block_sum`s. The recursion is kept on a stack of
    parts (numba cannot load a recursive function from its cache)."""
    starts = np.empty(64, np.int64)
    counts = np.empty(64, np.int64)
    firsts = np.empty(64, values.dtype)  # the sum of a split part's first half, once known
    second = np.zeros(64, np.bool_)  # whether a split part is summing its second half
    top, starts[0], counts[0] = 0, start, count
    while True:
        if counts[top] > 128:  # split: sum the first half first
            half = counts[top] // 2 - counts[top] // 2 % 8
            second[top] = False
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
        firsts[top], second[top] = total, True
        starts[top + 1], counts[top + 1] = starts[top] + half, counts[top] - half
        top += 1
