"""Compiled per-pixel loops of the foreground mask against the learnt mat model (vision.cards).

The model scaled to the view's exposure (expected_view, made once per gain held) and one
pass over the view do what scaling the model, subtracting it and thresholding the
difference did in five passes over whole images each frame (the same float32 rounding of
the model, the same integer differences and limits), so the mask is the same; the
exposure gain is numpy's float32 median of the same ratios, without gathering them into a
strided array first.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import NDArray

from vision.compiled import compiled, fused_multiply_add, inlined, median_of

Mask = NDArray[np.uint8]


@compiled
def _expected_view(model: Any, gain: Any) -> Any:  # pragma: no cover
    h, w = model.shape[0], model.shape[1]
    model_rows = model.reshape(h, 3 * w)
    gain_row = np.empty(3 * w, np.float32)  # the gain of each channel along a row
    for j in range(3 * w):
        gain_row[j] = gain[j % 3]
    out = np.empty((h, 3 * w), np.uint8)
    half, black, white = np.float32(0.5), np.float32(0.0), np.float32(255.0)
    for y in range(h):
        learnt, row = model_rows[y], out[y]
        for j in range(3 * w):
            row[j] = np.uint8(np.int32(min(max(learnt[j] * gain_row[j] + half, black), white)))
    return out.reshape(h, w, 3)


def expected_view(model: NDArray[np.float32], gain: NDArray[np.float32]) -> Mask:
    """The mat model (float32 BGR) as a view at this exposure would show it: scaled by
    `gain` per channel, rounded and clipped to uint8 (as float32 arithmetic rounds it)."""
    out: Mask = _expected_view(model, np.asarray(gain, np.float32))
    return out


@inlined
def _differs(b: Any, g: Any, r: Any, level: Any, chroma_limit: Any) -> Any:  # pragma: no cover
    """Whether a pixel's difference from the mat (b, g, r, whole numbers in float32: exact)
    passes a channel's `level` or the colour's `chroma_limit` (no branch: `|`, not `or`)."""
    total = b + g + r
    three = np.float32(3.0)
    most = max(abs(b), abs(g), abs(r))
    chroma = max(abs(three * b - total), abs(three * g - total), abs(three * r - total))
    return (most > level) | (chroma > chroma_limit)


@compiled
def _view_foreground(top: Any, expected: Any, valid: Any, level: int, chroma_limit: int,
                     grey: Any, dark_limit: Any, dark: bool) -> Any:  # pragma: no cover
    h, w = valid.shape
    view_rows = top.reshape(h, 3 * w)
    expected_rows = expected.reshape(h, 3 * w)
    # float32, not numba's int64 for integer arithmetic: twice the values a vector holds
    diff = np.empty(3 * w, np.float32)
    limit, chroma = np.float32(level), np.float32(chroma_limit)
    out = np.empty((h, w), np.uint8)
    for y in range(h):
        view, mat, row, shows = view_rows[y], expected_rows[y], out[y], valid[y]
        for j in range(3 * w):
            diff[j] = np.float32(view[j]) - np.float32(mat[j])
        if dark:  # (a loop for each case, each with no test of it inside)
            grey_row, dark_row = grey[y], dark_limit[y]
            for x in range(w):
                seen = (_differs(diff[3 * x], diff[3 * x + 1], diff[3 * x + 2], limit, chroma)
                        | (grey_row[x] <= dark_row[x]))
                row[x] = shows[x] if seen else 0
        else:
            for x in range(w):
                seen = _differs(diff[3 * x], diff[3 * x + 1], diff[3 * x + 2], limit, chroma)
                row[x] = shows[x] if seen else 0
    return out


_NO_GREY = np.zeros((1, 1), np.uint8)


def view_foreground(top_down: Mask, expected: Mask, valid: Mask | None, level: int,
                    chroma_limit: int, dark: tuple[Mask, Mask] | None = None) -> Mask:
    """Where a BGR view differs from the mat as expected at its exposure (expected_view):
    a channel by more than `level`, or 3 x a channel minus the sum of the three by more
    than `chroma_limit` (the colour alone); 255 there and in `valid`. With `dark` = (the
    view's grey, a limit per pixel), also where the grey is at or below the limit (the
    same pass: what comparing, masking and or-ing them after took three)."""
    if valid is None:
        valid = np.full(top_down.shape[:2], 255, np.uint8)
    grey, limit = dark if dark is not None else (_NO_GREY, _NO_GREY)
    out: Mask = _view_foreground(np.ascontiguousarray(top_down), expected, valid, int(level),
                                 int(chroma_limit), grey, limit, dark is not None)
    return out


@compiled
def _exposure_gain(view: Any, model: Any, chosen: Any) -> Any:  # pragma: no cover
    gain = np.ones(3, np.float32)
    n = np.count_nonzero(chosen)
    if n == 0:
        return gain
    one = np.float32(1.0)
    ratios = np.empty((3, n), np.float32)
    k = 0
    for y in range(chosen.shape[0]):
        for x in range(chosen.shape[1]):
            if chosen[y, x]:
                for c in range(3):
                    ratios[c, k] = (np.float32(view[y, x, c]) + one) / (model[y, x, c] + one)
                k += 1
    for c in range(3):
        gain[c] = min(max(median_of(ratios[c], k), 0.25), 4.0)
    return gain


def exposure_gain(view: Mask, model: NDArray[np.float32],
                  chosen: NDArray[np.bool_]) -> NDArray[np.float32]:
    """Per channel, the median ratio (view + 1) / (model + 1) over the pixels `chosen` in
    a BGR view and the float32 model of the same pixels, within 0.25..4; 1 without any."""
    gain: NDArray[np.float32] = _exposure_gain(view, model, chosen)
    return gain


@compiled
def _learn(top: Any, model: Any, valid: Any, moved: Any, cards: Any, rate: float,
           background: Any, colour: Any, heal_rate: float, bare_level: int,
           heal: bool) -> None:  # pragma: no cover
    h, w = valid.shape
    view_rows = top.reshape(h, 3 * w)
    model_rows = model.reshape(h, 3 * w)
    back_rows = background.reshape(background.shape[0], -1)
    a, heal_a = np.float32(rate), np.float32(heal_rate)
    b, heal_b = np.float32(1.0) - a, np.float32(1.0) - heal_a
    shows = np.empty(3 * w, np.bool_)  # per value of a row: whether it is blended
    far = np.empty(3 * w, np.int32)
    colour_row = np.empty(3 * w, np.int32)  # the mat's colour along a row
    for j in range(3 * w):
        colour_row[j] = np.int32(colour[j % 3])
    for y in range(h):
        view, learnt = view_rows[y], model_rows[y]
        for x in range(w):
            mat = valid[y, x] != 0 and cards[y, x] == 0 and moved[y, x] == 0
            shows[3 * x], shows[3 * x + 1], shows[3 * x + 2] = mat, mat, mat
        for j in range(3 * w):  # a blend and a choice per value, in vector registers
            blended = fused_multiply_add(np.float32(view[j]), a, learnt[j] * b)
            learnt[j] = blended if shows[j] else learnt[j]
        if not heal:
            continue
        back = back_rows[y]
        for j in range(3 * w):  # how far each value lies from the background or the colour
            v = np.int32(view[j])
            far[j] = max(abs(v - np.int32(back[j])), abs(v - colour_row[j]))
        for x in range(w):
            j = 3 * x
            bare = (valid[y, x] != 0 and cards[y, x] == 0
                    and max(far[j], far[j + 1], far[j + 2]) <= bare_level)
            shows[j], shows[j + 1], shows[j + 2] = bare, bare, bare
        for j in range(3 * w):
            healed = fused_multiply_add(np.float32(view[j]), heal_a, learnt[j] * heal_b)
            learnt[j] = healed if shows[j] else learnt[j]


#: no background view (a learn without healing): a BGR view of one pixel, so that both
#: kinds of learn call the one compiled _learn (a second signature was loaded, a one-off
#: of some ms, on the first frame that healed)
_NO_BACKGROUND = np.zeros((1, 1, 3), np.uint8)


def learn(top_down: Mask, model: NDArray[np.float32], valid: Mask, moved: Mask, cards: Mask,
          rate: float, healing: tuple[Mask, Mask, float, int] | None = None) -> None:
    """Blend a BGR view into the float32 mat model in place, as OpenCV's accumulateWeighted
    does (the same roundings): at `rate` where the view shows the mat (`valid`, not `moved`,
    not under `cards`); with `healing` = (background view, mat colour, rate, level), then
    at that rate where the view looks like bare mat (every channel within `level` of both
    the background and the colour), moved or not, but never under the cards."""
    background, colour, heal_rate, level = (
        healing if healing is not None else (_NO_BACKGROUND, _NO_BACKGROUND[0, 0], 0.0, -1))
    _learn(np.ascontiguousarray(top_down), model, valid, moved, cards, float(rate),
           np.ascontiguousarray(background), np.ascontiguousarray(colour), float(heal_rate),
           int(level), healing is not None)
