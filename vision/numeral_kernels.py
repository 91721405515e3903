"""Compiled loops of the second look at a tile's numeral (vision.numeral_look).

A tile's numeral map and ink colour are one pass over its pixels here instead of a dozen
numpy calls on arrays too large for the cache, and the numeral's windows at every shift
are cut and scaled in one call: with numpy's own steps in float32 and its summation
orders (the pairwise sum of a row; the colour added pixel after pixel, as np.cumsum), so
the same bits as the numpy steps they replace.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from vision.compiled import compiled, pairwise_sum_with


@compiled
def _channel_median(patch: Any, box: Any, channel: int) -> Any:  # pragma: no cover
    """np.median of one channel of a uint8 patch (height, width, 3) over the box (x0, y0,
    x1, y1) in float32: its middle value, or the mean of its middle two, from a count of
    each byte."""
    x0, y0, x1, y1 = box
    counts = np.zeros(256, np.int64)
    for y in range(y0, y1):
        for x in range(x0, x1):
            counts[patch[y, x, channel]] += 1
    total = (y1 - y0) * (x1 - x0)
    low, high = (total - 1) // 2, total // 2
    seen, low_value, high_value = 0, -1, -1
    for value in range(256):
        seen += counts[value]
        if low_value < 0 and seen > low:
            low_value = value
        if seen > high:
            high_value = value
            break
    return (np.float32(low_value) + np.float32(high_value)) / np.float32(2.0)


@compiled
def _centred_unit(row: Any, squares: Any, parts: Any, firsts: Any) -> None:  # pragma: no cover
    """row -= its mean; row /= its length + 1e-6, as numpy's mean and norm give them (one
    loop each way, not array expressions: those make temporaries); `squares`, `parts` and
    `firsts` are scratch (pairwise_sum_with's stack)."""
    count = len(row)
    mean = pairwise_sum_with(row, 0, count, parts, firsts) / np.float32(count)
    end, one = np.uint64(count), np.uint64(1)
    i = np.uint64(0)
    while i < end:  # (unsigned: no check for a negative index on each access)
        centred = row[i] - mean
        row[i] = centred
        squares[i] = centred * centred
        i += one
    length = np.sqrt(pairwise_sum_with(squares, 0, count, parts, firsts)) + np.float32(1e-6)
    i = np.uint64(0)
    while i < end:
        row[i] = row[i] / length
        i += one


@compiled
def numeral_maps(patches: Any, box: Any, margin: int) -> tuple[Any, Any]:  # pragma: no cover
    """Per BGR patch (n, height, width, 3 of uint8): its numeral's ink map over the box grown
    by `margin` (each pixel's largest absorption 1 - (value + 4) / (ground + 4), the ground
    the median of each channel over the box; at least 0), centred and of unit length; and
    its ink's colour before scaling: each channel's absorption (at least 0) weighed by its
    sum over the channels, added up over the box pixel after pixel."""
    x0, y0, x1, y1 = box
    m = margin
    height, width = y1 - y0 + 2 * m, x1 - x0 + 2 * m
    n = patches.shape[0]
    maps = np.empty((n, height * width), np.float32)
    colours = np.zeros((n, 3), np.float32)
    ground = np.empty(3, np.float32)
    squares = np.empty(height * width, np.float32)
    parts, firsts = np.empty((3, 64), np.int64), np.empty(64, np.float32)
    four, one, zero = np.float32(4.0), np.float32(1.0), np.float32(0.0)
    for k in range(n):
        patch, row = patches[k], maps[k]
        for c in range(3):
            ground[c] = _channel_median(patch, box, c) + four
        blue = green = red = zero
        for y in range(height):
            for x in range(width):
                pixel = patch[y0 - m + y, x0 - m + x]
                a0 = one - (np.float32(pixel[0]) + four) / ground[0]
                a1 = one - (np.float32(pixel[1]) + four) / ground[1]
                a2 = one - (np.float32(pixel[2]) + four) / ground[2]
                row[y * width + x] = max(max(max(a0, a1), a2), zero)
                if m <= y < height - m and m <= x < width - m:
                    i0, i1, i2 = max(a0, zero), max(a1, zero), max(a2, zero)
                    weight = (i0 + i1) + i2
                    blue += i0 * weight
                    green += i1 * weight
                    red += i2 * weight
        colours[k, 0], colours[k, 1], colours[k, 2] = blue, green, red
        _centred_unit(row, squares, parts, firsts)
    return maps, colours


@compiled
def shifted_windows(grown: Any, height: int, width: int, shift: int) -> Any:  # pragma: no cover
    """The height x width windows of a map (flat, grown by `shift` pixels each side) at
    every shift either way, by rows of shifts then columns, each centred and of unit
    length: (shifts, height * width)."""
    side, full_width = 2 * shift + 1, width + 2 * shift
    windows = np.empty((side * side, height * width), np.float32)
    squares = np.empty(height * width, np.float32)
    parts, firsts = np.empty((3, 64), np.int64), np.empty(64, np.float32)
    along, one = np.uint64(width), np.uint64(1)
    for dy in range(side):
        for dx in range(side):
            window = windows[dy * side + dx]
            for y in range(height):
                start, at = np.uint64((dy + y) * full_width + dx), np.uint64(y * width)
                x = np.uint64(0)
                while x < along:  # (unsigned: no check for a negative index on each access)
                    window[at + x] = grown[start + x]
                    x += one
            _centred_unit(window, squares, parts, firsts)
    return windows
