"""Tag corners to a fifth of a millimetre: lines fitted to the edges of a tag's square.

ArUco's corners are refined in a small window around each corner, where a blurred
frame mixes the two sides that meet there; they are off by about 0.4 mm on a frame
that sees the mat at 1.7 px/mm. Two tags alone then map the far side of the mat only to
within a centimetre. Each side of a square is instead found along its whole length
(the strongest edge across it, to a sub-pixel) and fitted by a line, robustly, so a
card or a finger over part of a side does not pull it; the corners are where the lines
meet. The tag's black square and the white square printed around it give eight corners.
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

Points = NDArray[np.float64]
SAMPLES = 24  # points per side where the edge is looked for
REACH_PX = 3.0  # how far across the side (pixels, either way) the edge is looked for
MIN_ON_LINE = 0.5  # share of a side's points that must lie on its line
LINE_TOLERANCE_PX = 0.6  # distance from the line at which a point is a stray


def refine_square(grey: NDArray[np.uint8], quad: Points, dark_inside: bool = True,
                  reach_px: float = REACH_PX, tolerance_px: float = LINE_TOLERANCE_PX
                  ) -> Points | None:
    """The corners (clockwise like quad) of the square (or any quadrilateral) whose sides
    run within reach_px of quad's, from lines through the strongest edges along them;
    None if a side has no clear straight edge (covered, or out of the frame): half its
    edge points within tolerance_px of one line."""
    pad = reach_px + 3
    h, w = grey.shape
    x0, y0 = np.floor(quad.min(axis=0) - pad).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0) + pad).astype(int)
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return None
    roi = grey[y0:y1, x0:x1].astype(np.float32)
    if not dark_inside:
        roi = 255 - roi
    local = quad - [x0, y0]
    lines = _side_lines(roi, local, reach_px, tolerance_px)
    if lines is None:
        return None
    points, directions = lines
    # corner k is where side k - 1 meets side k: p + s d on the first
    p1, d1 = np.roll(points, 1, axis=0), np.roll(directions, 1, axis=0)
    cross = d1[:, 0] * directions[:, 1] - d1[:, 1] * directions[:, 0]
    if float(np.abs(cross).min()) < 1e-3:
        return None
    gap = points - p1
    along = (gap[:, 0] * directions[:, 1] - gap[:, 1] * directions[:, 0]) / cross
    corners = p1 + along[:, None] * d1
    if float(np.abs(corners - local).max()) > 2 * reach_px:
        return None
    out: Points = corners + [x0, y0]
    return out


def _side_lines(roi: NDArray[np.float32], quad: Points, reach_px: float, tolerance_px: float
                ) -> tuple[Points, Points] | None:
    """(a point on, the direction of) the line along the dark-to-bright edge (going
    outwards) near each side of quad, one row per side; None if a side has none."""
    a, b = quad, np.roll(quad, -1, axis=0)
    along = (b - a) / np.maximum(np.linalg.norm(b - a, axis=1, keepdims=True), 1e-9)
    normal = np.column_stack([along[:, 1], -along[:, 0]])
    outwards = ((a + b) / 2 - quad.mean(axis=0)) * normal
    normal[outwards.sum(axis=1) < 0] *= -1
    steps = np.linspace(-reach_px, reach_px, int(4 * reach_px) + 1)
    t = np.linspace(0.1, 0.9, SAMPLES)
    base = a[:, None, :] + t[None, :, None] * (b - a)[:, None, :]  # side, sample, xy
    pts = (base[:, :, None, :] + steps[None, None, :, None] * normal[:, None, None, :])
    pts = pts.reshape(4 * SAMPLES, len(steps), 2).astype(np.float32)
    rise = np.zeros((4 * SAMPLES, len(steps)), np.float32)
    for axis, kernel in ((0, (1, 0)), (1, (0, 1))):
        gradient = cv2.Sobel(roi, cv2.CV_32F, *kernel, ksize=3)
        sampled = cv2.remap(gradient, pts[..., 0], pts[..., 1], cv2.INTER_LINEAR)
        rise += sampled * np.repeat(normal[:, axis], SAMPLES)[:, None].astype(np.float32)
    j = np.clip(rise.argmax(axis=1), 1, len(steps) - 2)
    rows = np.arange(len(j))
    y0, y1, y2 = rise[rows, j - 1], rise[rows, j], rise[rows, j + 1]
    curve = y0 - 2 * y1 + y2
    peaked = curve < -1e-6
    sub = np.clip(np.where(peaked, 0.5 * (y0 - y2) / np.where(peaked, curve, -1.0), 0.0),
                  -0.5, 0.5)
    offset = (steps[j] + sub * (steps[1] - steps[0])).reshape(4, SAMPLES)
    # offset = c0 + c1 t per side, from the median on (sides lie near ArUco's)
    c0, c1 = np.sort(offset, axis=1)[:, SAMPLES // 2], np.zeros(4)
    for _ in range(3):
        miss = np.abs(offset - (c0[:, None] + c1[:, None] * t))
        limit = np.maximum(tolerance_px, 2.5 * np.sort(miss, axis=1)[:, SAMPLES // 2])
        keep = (miss <= limit[:, None]).astype(np.float64)
        if float(keep.sum(axis=1).min()) < MIN_ON_LINE * SAMPLES:
            return None
        c0, c1 = _line_fits(t, offset, keep)
    miss = np.abs(offset - (c0[:, None] + c1[:, None] * t))
    if int((miss <= tolerance_px).sum(axis=1).min()) < MIN_ON_LINE * SAMPLES:
        return None
    points = a + 0.5 * (b - a) + (c0 + 0.5 * c1)[:, None] * normal
    directions = (b - a) + c1[:, None] * normal
    return points, directions / np.linalg.norm(directions, axis=1, keepdims=True)


def _line_fits(x: NDArray[np.float64], y: NDArray[np.float64], weight: NDArray[np.float64]
               ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Per row of y (and of the 0/1 weights), (intercept, slope) of the least-squares line
    y = c0 + c1 x through the points weighted 1."""
    n = weight.sum(axis=1)
    xm, ym = (weight * x).sum(axis=1) / n, (weight * y).sum(axis=1) / n
    dx = x[None, :] - xm[:, None]
    spread = (weight * dx * dx).sum(axis=1)
    slope = np.where(spread > 0, (weight * dx * (y - ym[:, None])).sum(axis=1)
                     / np.where(spread > 0, spread, 1.0), 0.0)
    return ym - slope * xm, slope
