"""A card's outline told by its edges: each side of a rough box fitted to the card's side
near it, and how much of that side an edge runs along.

A card's side is one long straight step in colour, the same way all along it, with one
even colour just inside (the card's margin) and the table outside. A box side that runs
through a check, wood grain or the card's own picture has no such line: the step comes
and goes, or what lies inside it changes along it. A white margin round a coloured field
makes two such lines; the card's side is the outer one.

    >>> fitted = fit_outline(lab_photo, rough_box, short_side=120.0)   # doctest: +SKIP
    >>> fitted.weakest                                                  # doctest: +SKIP
    0.93
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

Floats = NDArray[np.float32]

STEP = 6.0  # Lab step across a line (a few px apart), the way the side mostly steps, that
# counts as an edge there: a white card on white paper steps little, but the same way
ALONG = np.linspace(0.14, 0.86, 48)  # where a side is looked at (its rounded ends left out)
SEARCH = (-0.2, 0.2)  # how far (share of the box's short side) a side may move in/out
HELD = 0.7  # share of a side an edge must run along to be taken for the card's side
EVEN = 16.0  # Lab spread along a side of a band of one even colour (a card's margin) at most
FAINT = 0.4  # share of a side a faint edge runs along, just beyond a card's even margin
LEAP = 20.0  # Lab distance between a card's margin and the field it surrounds at least
PUSH = 0.12  # share of the short side a side may move out over even margins
MARGIN = 0.04  # share of the short side inside each side where a card's margin lies
RESOLUTION = 0.5  # px between the offsets a side is tried at
FIT_BAND = 3.0  # px either side of the chosen line where its edge points are looked for
_POSITIONS = np.arange(len(ALONG), dtype=np.float64)


@dataclass(frozen=True)
class Outline:
    """Four corners (clockwise, as given) and the share of each side an edge supports."""

    corners: Floats
    support: tuple[float, float, float, float]

    @property
    def weakest(self) -> float:
        return min(self.support)


Line = tuple[Floats, Floats]  # a point on a straight line and its direction


def fit_outline(lab: Floats, box: Floats, short_side: float) -> Outline | None:
    """Each side of `box` (four corners in order) moved to the card's side near it, and
    refitted to that edge's points; None when a side finds none or the sides meet in no
    quadrilateral.

    The card's side is the strong edge line nearest the box's side, or one further out
    when what lies between is one even colour all along (a white margin around a
    coloured field): a check's squares or a table's pattern between are not."""
    return outline_of(fit_sides(lab, box, short_side))


def outline_of(sides: list[tuple[Line, float] | None]) -> Outline | None:
    """The outline four fitted sides (`fit_sides`) make; None when one is missing or the
    sides meet in no quadrilateral."""
    found = [side for side in sides if side is not None]
    if len(found) != 4:
        return None
    corners = meet([line for line, _ in found])
    if corners is None:
        return None
    return Outline(corners, (found[0][1], found[1][1], found[2][1], found[3][1]))


def fit_sides(lab: Floats, box: Floats, short_side: float) -> list[tuple[Line, float] | None]:
    """Each side of `box` fitted to the card's side near it (`fit_outline`) with the share
    of it an edge supports, or None for a side that finds no card side (one that runs
    off the photo: no step can be read beyond it)."""
    centre = box.mean(axis=0)
    reach = max(1, round(max(1.5, short_side / 90) / RESOLUTION))  # to where colours are read
    offsets = np.arange(SEARCH[0] * short_side, SEARCH[1] * short_side,
                        RESOLUTION).astype(np.float32)
    sides: list[tuple[Line, float] | None] = []
    margin = max(2, round(MARGIN * short_side / RESOLUTION))
    push = round(PUSH * short_side / RESOLUTION)
    for i in range(4):
        a, b = box[i], box[(i + 1) % 4]
        direction = (b - a) / max(float(np.linalg.norm(b - a)), 1e-6)
        normal = np.array([direction[1], -direction[0]], np.float32)
        if np.dot(normal, (a + b) / 2 - centre) < 0:
            normal = -normal
        base = a[None] + ALONG[:, None].astype(np.float32) * (b - a)[None]
        colours, seen = _colours(lab, base, normal, offsets, reach)
        steps = _steps(colours, seen, reach)  # (offsets, points)
        held = (steps >= STEP).mean(axis=1)
        side = _side_offset(held, colours, reach, margin, int(np.argmin(np.abs(offsets))), push)
        sides.append(None if side is None
                     else (_fit_line(base, normal, offsets, steps, side[0]), side[1]))
    return sides


def meet(lines: list[Line]) -> Floats | None:
    """The four corners where each line meets the next (clockwise as the lines go), or
    None when two neighbours are nearly parallel."""
    corners = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        matrix = np.array([d1, -d2]).T
        if abs(np.linalg.det(matrix)) < 0.3:  # sides nearly parallel: no corner
            return None
        t = np.linalg.solve(matrix, p2 - p1)
        corners.append(p1 + t[0] * d1)
    return np.array(corners, np.float32)


def _side_offset(held: Floats, colours: Floats, reach: int, margin: int, start: int,
                 push: int) -> tuple[int, float] | None:
    """The offset of the card's side and how strongly a line backs it; None if no line
    here can be the card's side.

    From the strong edge line nearest `start`, the side moves outward (at most `push`)
    over every band of one even colour unlike what it surrounds (a white margin around
    a coloured field) to the next line, even a faint one (that margin against a white
    square of a check), and ends on a line with one even colour just inside it: a card's
    margin, not its picture nor a check's squares."""
    peaks = [j for j in range(1, len(held) - 1)
             if held[j] >= held[j - 1] and held[j] >= held[j + 1]]
    strong = [j for j in peaks if held[j] >= HELD]
    if not strong:
        return None
    first = j = min(strong, key=lambda k: abs(k - start))
    for k in (k for k in peaks if first < k <= first + push and held[k] >= FAINT):
        band = colours[j + 2 * reach:k + 1]
        if not len(band):
            j = k  # the same edge, blurred
            continue
        inside = colours[max(0, j - margin):j + 1].mean(axis=(0, 1))
        if _spread(band) > EVEN or np.linalg.norm(band.mean(axis=(0, 1)) - inside) < LEAP:
            break  # not a margin, or one the colour of what it would surround
        j = k
    if _spread(colours[max(0, j - margin):j + 1]) > EVEN:
        return None
    return j, max(float(held[first]), float(held[j]))


def _spread(band: Floats) -> float:
    """How much a band along a side (offsets, points, colour) changes colour along it,
    beyond a steady drift (the light falling off across a card is one even colour)."""
    if not len(band):
        return 0.0
    along = band.mean(axis=0)  # (points, colour)
    drift = np.polynomial.polynomial.polyval(_POSITIONS, np.polynomial.polynomial.polyfit(
        _POSITIONS, along, 1)).T
    return float(np.linalg.norm((along - drift).std(axis=0)))


def _colours(lab: Floats, base: Floats, normal: Floats, offsets: Floats,
             reach: int) -> tuple[Floats, NDArray[np.bool_]]:
    """The photo's colour at each point along the side moved by each offset (and `reach`
    offsets beyond both ends), and whether that point lies in the photo."""
    h, w = lab.shape[:2]
    pad = np.arange(1, reach + 1, dtype=np.float32) * RESOLUTION
    wide = np.concatenate([offsets[0] - pad[::-1], offsets, offsets[-1] + pad])
    points = base[None, :, :] + wide[:, None, None] * normal[None, None, :]
    xs = np.ascontiguousarray(points[..., 0], np.float32)
    ys = np.ascontiguousarray(points[..., 1], np.float32)
    seen = (xs >= 0) & (xs <= w - 1) & (ys >= 0) & (ys <= h - 1)
    colours = cv2.remap(lab, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(colours, np.float32), seen


def _steps(colours: Floats, seen: NDArray[np.bool_], reach: int) -> Floats:
    """The colour step across the side at each offset and point, measured the way the
    whole side steps (texture steps every way, a card's side one way); 0 where the step
    would be read outside the photo."""
    change = colours[:-2 * reach] - colours[2 * reach:]  # inside minus outside
    trend = change.mean(axis=1, keepdims=True)
    trend /= np.maximum(np.linalg.norm(trend, axis=2, keepdims=True), 1e-6)
    steps = (change * trend).sum(axis=2)
    return np.where(seen[:-2 * reach] & seen[2 * reach:], steps, 0.0).astype(np.float32)


def _fit_line(base: Floats, normal: Floats, offsets: Floats, steps: Floats,
              chosen: int) -> Line:
    """The straight line through the strongest step near the chosen offset at each point
    (a point, a direction)."""
    band = np.flatnonzero(np.abs(offsets - offsets[chosen]) <= FIT_BAND)
    near = steps[band]
    best = near.argmax(axis=0)
    found = near[best, np.arange(near.shape[1])] >= STEP
    if found.sum() < 4:
        return base[0] + offsets[chosen] * normal, _direction(base)
    points = base[found] + offsets[band][best[found]][:, None] * normal[None]
    vx, vy, x0, y0 = cv2.fitLine(points.astype(np.float32), cv2.DIST_HUBER, 0, 0.01,
                                 0.01).ravel()
    return np.array([x0, y0], np.float32), np.array([vx, vy], np.float32)


def _direction(base: Floats) -> Floats:
    d = base[-1] - base[0]
    return np.asarray(d / max(float(np.linalg.norm(d)), 1e-6), np.float32)
