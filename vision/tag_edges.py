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


def refine_square(grey: NDArray[np.uint8], quad: Points, dark_inside: bool = True
                  ) -> Points | None:
    """The corners (clockwise like quad) of the square whose sides run near quad's,
    from lines through the strongest edges along them; None if a side has no clear
    straight edge (covered, or out of the frame)."""
    pad = REACH_PX + 3
    h, w = grey.shape
    x0, y0 = np.floor(quad.min(axis=0) - pad).astype(int)
    x1, y1 = np.ceil(quad.max(axis=0) + pad).astype(int)
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return None
    roi = grey[y0:y1, x0:x1].astype(np.float32)
    if not dark_inside:
        roi = 255 - roi
    gradients = (np.asarray(cv2.Sobel(roi, cv2.CV_32F, 1, 0, ksize=3), np.float32),
                 np.asarray(cv2.Sobel(roi, cv2.CV_32F, 0, 1, ksize=3), np.float32))
    local = quad - [x0, y0]
    centre = local.mean(axis=0)
    lines = []
    for k in range(4):
        line = _side_line(gradients, local[k], local[(k + 1) % 4], centre)
        if line is None:
            return None
        lines.append(line)
    corners = []
    for k in range(4):
        (p1, d1), (p2, d2) = lines[k - 1], lines[k]
        system = np.column_stack([d1, -d2])
        if abs(float(np.linalg.det(system))) < 1e-3:
            return None
        s = np.linalg.solve(system, p2 - p1)
        corners.append(p1 + s[0] * d1)
    out = np.array(corners, np.float64)
    if float(np.abs(out - local).max()) > 2 * REACH_PX:
        return None
    moved: Points = out + [x0, y0]
    return moved


def _side_line(gradients: tuple[NDArray[np.float32], NDArray[np.float32]], a: Points,
               b: Points, centre: Points) -> tuple[Points, Points] | None:
    """(a point on, the direction of) the line along the dark-to-bright edge (going
    outwards) between a and b."""
    along = (b - a) / max(float(np.linalg.norm(b - a)), 1e-9)
    normal = np.array([along[1], -along[0]])
    if float(np.dot(normal, (a + b) / 2 - centre)) < 0:
        normal = -normal
    steps = np.linspace(-REACH_PX, REACH_PX, int(4 * REACH_PX) + 1)
    t = np.linspace(0.1, 0.9, SAMPLES)
    base = a + t[:, None] * (b - a)
    pts = (base[:, None, :] + steps[None, :, None] * normal).astype(np.float32)
    gx = cv2.remap(gradients[0], pts[..., 0], pts[..., 1], cv2.INTER_LINEAR)
    gy = cv2.remap(gradients[1], pts[..., 0], pts[..., 1], cv2.INTER_LINEAR)
    rise = gx * np.float32(normal[0]) + gy * np.float32(normal[1])
    j = np.clip(rise.argmax(axis=1), 1, len(steps) - 2)
    rows = np.arange(SAMPLES)
    y0, y1, y2 = rise[rows, j - 1], rise[rows, j], rise[rows, j + 1]
    curve = y0 - 2 * y1 + y2
    safe = np.where(curve < -1e-6, curve, -1.0)
    sub = np.clip(np.where(curve < -1e-6, 0.5 * (y0 - y2) / safe, 0.0), -0.5, 0.5)
    offset = steps[j] + sub * (steps[1] - steps[0])
    # offset = c0 + c1 t, from the median on (sides lie within a few degrees of ArUco's)
    fit = (float(np.sort(offset)[SAMPLES // 2]), 0.0)
    for _ in range(3):
        miss = np.abs(offset - (fit[0] + fit[1] * t))
        keep = miss <= max(LINE_TOLERANCE_PX, 2.5 * float(np.sort(miss)[SAMPLES // 2]))
        if keep.sum() < MIN_ON_LINE * SAMPLES:
            return None
        fit = _line_fit(t[keep], offset[keep])
    miss = np.abs(offset - (fit[0] + fit[1] * t))
    if (miss <= LINE_TOLERANCE_PX).sum() < MIN_ON_LINE * SAMPLES:
        return None
    point = a + 0.5 * (b - a) + (fit[0] + 0.5 * fit[1]) * normal
    direction = (b - a) + fit[1] * normal
    return point, direction / float(np.linalg.norm(direction))


def _line_fit(x: NDArray[np.float64], y: NDArray[np.float64]) -> tuple[float, float]:
    """(intercept, slope) of the least-squares line y = c0 + c1 x."""
    xm, ym = float(x.mean()), float(y.mean())
    spread = float(((x - xm) ** 2).sum())
    slope = float(((x - xm) * (y - ym)).sum()) / spread if spread > 0 else 0.0
    return ym - slope * xm, slope
