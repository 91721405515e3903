"""What lies on the mat but hardly differs from it: the view against the learnt mat model in
grey, smoothed, measured against its own noise.

The foreground mask (vision.cards) needs a channel MODEL_DIFF grey levels off the mat
model. In dim light a dark card inside a thin light rim is only 4 to 16 levels off a mat
of about 26; under a lamp's glare a black border is 0.9 of the glared mat's grey. Against
the model the mat's print, glare and fall-off are gone: what is left is the camera's
noise and what lies on the mat, and smoothed a little, a card's face, rim or border stands
many of that noise's sigmas out of it. A shadow does too, but only as a soft patch: the
cards are found in this faint foreground by the same outline checks as in the mask, on a
picture of the difference (`picture`), where a card's side is a sharp step and the mat's
print is no edge at all.

    >>> faint = faint_foreground(grey, mat_grey, look, mask)   # doctest: +SKIP
    >>> faint.foreground, faint.darker, faint.picture         # doctest: +SKIP
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

Mask = NDArray[np.uint8]
Floats = NDArray[np.float32]

SMOOTH_PX = 3  # the box (px) the view is smoothed in, as the model is: the noise, not a rim
NOISE_SIGMAS = 4.0  # a pixel this many sigmas of the smoothed noise off the mat is something
FAINT_FLOOR = 3.0  # and this many grey levels at least
#: the picture of the difference shows one sigma of the smoothed noise as this many levels
#: (a dim card's sides step some ten sigmas, as sharp as a card in good light), at most
#: PICTURE_GAIN times the difference
PICTURE_SIGMA = 3.0
PICTURE_GAIN = 4.0
MID_GREY = 128  # the mat in the picture
NOISE_SAMPLE = 4  # every this many pixels (each way) measure the noise
#: below this level the picture shows a pixel the faint foreground counts darker than the
#: mat (by NOISE_SIGMAS of the noise, FAINT_FLOOR levels where the gain is capped)
DARKER = MID_GREY - NOISE_SIGMAS * PICTURE_SIGMA


@dataclass(frozen=True)
class Faint:
    """The faint foreground of a view (`faint_foreground`), the part of it darker than the
    mat, and the picture of the difference."""

    foreground: Mask
    darker: Mask
    picture: Mask


def faint_foreground(grey: Mask, mat_grey: Floats, look: Mask, mask: Mask) -> Faint:
    """Within `look`, the pixels of a grey view that differ from the mat's grey (the model's
    at the view's gain) by NOISE_SIGMAS of the smoothed difference's noise (measured on the
    pixels of `look` outside the foreground `mask`), and those of `mask`; and the picture of
    that difference (MID_GREY where the view is the mat, the mat's print gone, and outside
    `look`: a tag the model learnt is no edge under a hand), uint8, the view's size."""
    h, w = grey.shape
    x, y, bw, bh = cv2.boundingRect(look)
    if bw == 0 or bh == 0:
        return _nothing(h, w)
    box = (slice(y, y + bh), slice(x, x + bw))
    # the view smoothed as the model was learnt (vision.cards.MatModel): its print cancels
    view = np.asarray(cv2.boxFilter(grey[box], cv2.CV_32F, (SMOOTH_PX, SMOOTH_PX)), np.float32)
    smooth = np.asarray(cv2.subtract(view, mat_grey[box]), np.float32)
    inside = look[box]
    # (the noise's pixels chosen on the sample's grid alone)
    step = (slice(None, None, NOISE_SAMPLE),) * 2
    chosen = (inside[step] > 0) & (mask[box][step] == 0)
    sample = smooth[step][chosen]
    if not len(sample):
        return _nothing(h, w)
    centre = _median(sample)
    sigma = max(0.25, 1.4826 * _median(np.abs(sample - np.float32(centre))))
    limit = max(FAINT_FLOOR, NOISE_SIGMAS * sigma)
    smooth -= np.float32(centre)
    # (cv2.threshold's tests of the float32 difference, uint8 at once; each limit a 1 x 1
    # array, a scalar to OpenCV)
    below = np.asarray(cv2.compare(smooth, np.array([-limit]), cv2.CMP_LE), np.uint8)
    above = np.asarray(cv2.compare(smooth, np.array([limit]), cv2.CMP_GT), np.uint8)
    faint = np.zeros((h, w), np.uint8)  # (their boxes written in place)
    darker = np.zeros((h, w), np.uint8)
    picture = np.full((h, w), MID_GREY, np.uint8)
    off = cv2.bitwise_or(above, below)
    cv2.bitwise_and(cv2.bitwise_or(off, mask[box], dst=off), inside, dst=faint[box])
    cv2.bitwise_and(below, inside, dst=darker[box])
    gain = min(PICTURE_GAIN, PICTURE_SIGMA / sigma)
    shown = cv2.addWeighted(smooth, gain, smooth, 0.0, MID_GREY, dtype=cv2.CV_8U)
    cv2.copyTo(shown, inside, picture[box])
    return Faint(faint, darker, picture)


def _median(values: Floats) -> float:
    """np.median of some (finite) float32 values, without its overhead (two more partition
    points, one for NaNs, and a mean): one partition at the middle, below which the
    largest is the lower middle value; the middle two added in float32 and halved."""
    half = len(values) // 2
    ordered = np.partition(values, half)
    upper = ordered[half]
    if len(values) % 2:
        return float(upper)
    return float((ordered[:half].max() + upper) / np.float32(2))


def _nothing(h: int, w: int) -> Faint:
    """No faint foreground in an h x w view, and a picture of the bare mat."""
    return Faint(np.zeros((h, w), np.uint8), np.zeros((h, w), np.uint8),
                 np.full((h, w), MID_GREY, np.uint8))


#: where along each side of a card its step is read (its rounded corners left out)
ALONG = np.linspace(0.1, 0.9, 24)
ACROSS_PX = 1.5  # px either side of the outline where the step across it is read
SHIFTS_PX = np.arange(-3.0, 3.5, 1.0)  # the outline may lie this far off the card's side
SHARP_STEP = 4.0  # a step of this many sigmas of the picture's noise is a card's side
JUDGED = 0.25  # share of a side that must lie where the picture shows the mat, to judge it


def sharp_sides(picture: Mask, corners_px: NDArray[np.floating[Any]],
                look: Mask | None = None) -> Floats:
    """Per side of a card outline (4 x 2 corners, px, in order), the share of it along
    which the picture steps sharply across it (by SHARP_STEP sigmas of its noise within
    2 x ACROSS_PX, the side where it lies within SHIFTS_PX): a card's side does, and
    the soft edge of a shadow or of a patch of light the mat model has not learnt yet
    does not. With `look` (the pixels the picture shows, faint_foreground's), a point
    whose inner side lies outside it (a tag's surround, where the picture is MID_GREY)
    is no evidence either way: a side's share is of its other points, and a side with
    fewer than JUDGED of them shows as sharp (its card is judged by its other sides)."""
    corners = corners_px.astype(np.float32)
    centre = corners.mean(axis=0)
    alongs = corners[[1, 2, 3, 0]] - corners  # (side, 2)
    normals = np.empty((4, 2), np.float32)
    for i in range(4):  # (each as numpy's norm and dot give it for one side)
        a, b, along = corners[i], corners[(i + 1) % 4], alongs[i]
        normal = np.array([along[1], -along[0]], np.float32) / max(
            float(np.linalg.norm(along)), 1e-6)
        normals[i] = -normal if float(np.dot(normal, (a + b) / 2 - centre)) < 0 else normal
    # every side's points at once (side, point, 2), and read at every shift in one remap
    # each way (side, shift, point, 2)
    base = corners[:, None] + ALONG[None, :, None].astype(np.float32) * alongs[:, None]
    shift = SHIFTS_PX.astype(np.float32)[None, :, None, None] * normals[:, None, None]
    across = ACROSS_PX * normals[:, None, None]
    inner = base[:, None] + shift - across
    outer = base[:, None] + shift + across
    shape = (4 * len(SHIFTS_PX), len(ALONG))
    values = [cv2.remap(picture, np.ascontiguousarray(p[..., 0].reshape(shape)),
                        np.ascontiguousarray(p[..., 1].reshape(shape)), cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
              for p in (inner, outer)]
    steps = np.abs(values[0] - values[1]).reshape(4, len(SHIFTS_PX), len(ALONG))
    sharp = steps.max(axis=1) >= SHARP_STEP * PICTURE_SIGMA
    shares: Floats = sharp.mean(axis=1).astype(np.float32)
    if look is None or shares.min() == 1.0:  # (a side sharp all along is judged so anyway)
        return shares
    inner_side = base - ACROSS_PX * normals[:, None]  # each point's inner side
    inside_x = np.ascontiguousarray(inner_side[..., 0])
    inside_y = np.ascontiguousarray(inner_side[..., 1])
    # (a point off the picture reads 0: no mat shows there either)
    judged = cv2.remap(look, inside_x, inside_y, cv2.INTER_NEAREST,
                       borderMode=cv2.BORDER_CONSTANT, borderValue=0) > 0  # (4 sides, points)
    counted = judged.sum(axis=1).tolist()
    hits = (sharp & judged).sum(axis=1).tolist()
    shares = np.array([hit / n if n >= JUDGED * len(ALONG) else 1.0
                       for hit, n in zip(hits, counted, strict=True)], np.float32)
    return shares
