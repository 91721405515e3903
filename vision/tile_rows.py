"""Tiles touching side by side (Remi's in a row), each placed on its own outline.

Remi tiles lie edge to edge in melds and in the discard row, and such a row is one blob
on the mat. Split by the tile's size, or fitted to the edge votes of the whole blob, a
tile's outline drifts off its real edges by the small gaps between tiles, and a patch
straddling two tiles names neither. So each tile that has a neighbour is moved, along
each of its axes, onto the edges the view shows near its own: the seam towards a
neighbour is a line darker than the tiles on both sides of it (their rims, the gap,
their rounded corners) all along the side, where a numeral darkens only the tile's
middle, so the median brightness along the side dips there; a side with the mat beyond
it is where the brightness is halfway between the tile's and the mat's. A tile the
outlines left out between two others in a row is added where the view shows one.

    >>> tiles = on_seams(grey_view, 1.0, found_in_one_blob)   # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import math
from typing import TYPE_CHECKING

import cv2
import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:  # cards.py calls this module: the quads come from it
    from vision.cards import CardQuad

Floats = NDArray[np.float64]

TILE_MAX_MM = 30.0  # a tile's short side at most (Remi's: 20 mm; playing cards: 56 and more)
STEP_MM = 0.25  # between the points of a profile across a card
ALONG = 0.8  # share of a side along which a profile takes its median
BEYOND_MM = 4.0  # how far a profile reaches past the search (to read the mat there)
SEARCH_MM = 3.0  # how far an edge may lie off where the outline put it (gaps add up)
VALLEY_MM = 2.5  # each side of a seam, where the brightness of the cards beside it is read
MIN_DIP = 0.08  # depth of a seam's dip at least, as a share of the card's brightness
RIM = 0.85  # share of the card's brightness it keeps right up to an edge (no dark frame)
RIM_MM = (1.0, 3.0)  # where, inside an edge, that brightness is read
MIN_RISE = 10.0  # grey levels a card is brighter than the mat beyond a free side at least
NEIGHBOUR = (0.8, 1.25)  # a neighbour's centre lies this many sides away along an axis
ASKEW = 0.3  # and at most this share of the other side off the axis
TURNED_DEG = 8.0  # and at most this much turned from the card


def are_tiles(card_mm: tuple[float, float]) -> bool:
    """Whether cards this size are tiles, which lie in rows (the card decks keep the
    outlines their blobs give: their art near the edges, in dim light, can look like a
    seam a few mm in, and their touching cards lie in a 2x2 square, not in rows)."""
    return min(card_mm) <= TILE_MAX_MM


def on_seams(grey: NDArray[np.uint8], px_per_mm: float, quads: list[CardQuad],
             mask: NDArray[np.uint8] | None = None) -> list[CardQuad]:
    """The cards of one blob (mat mm), each that has a neighbour beside it moved onto the
    seams and free sides the view (grey, px_per_mm) shows near its outline; a card
    stays where no edge shows clearly along an axis. Given the foreground `mask`, a
    card missing from a row (a gap one card wide between two cards in line, wholly
    foreground and as bright as they are) is added after them."""
    if mask is not None:
        quads = quads + _gaps_filled(grey, mask, px_per_mm, quads)
    centres = np.array([q.center_mm for q in quads], np.float64)
    out = []
    for i, quad in enumerate(quads):
        corners = np.array(quad.corners_mm, np.float64)
        axes = (corners[1] - corners[0], corners[3] - corners[0])  # short side, long side
        sides = [float(np.linalg.norm(a)) for a in axes]
        units = [a / s for a, s in zip(axes, sides, strict=True)]
        near = [_neighbours(i, quads, centres, units[k], units[1 - k], sides[k], sides[1 - k])
                for k in range(2)]
        if not any(near[0]) and not any(near[1]):
            out.append(quad)
            continue
        centre = centres[i].copy()
        for k in range(2):
            profile = _profile(grey, px_per_mm, centres[i], units[k], units[1 - k], sides[k],
                               sides[1 - k])
            centre += units[k] * _shift(profile, sides[k], near[k])
        out.append(_moved(quad, (float(centre[0]), float(centre[1]))))
    return out


def _gaps_filled(grey: NDArray[np.uint8], mask: NDArray[np.uint8], px_per_mm: float,
                 quads: list[CardQuad]) -> list[CardQuad]:
    """Cards for the gaps one card wide between two cards in line along their short sides
    (the edge votes of a blob of many tiles miss a tile now and then), where the mask
    covers the gap wholly and the view there is as bright as the two cards."""
    added: list[CardQuad] = []
    centres = [np.array(q.center_mm, np.float64) for q in quads]
    for i, a in enumerate(quads):
        corners = np.array(a.corners_mm, np.float64)
        short = corners[1] - corners[0]
        side = float(np.linalg.norm(short))
        long_side = float(np.linalg.norm(corners[3] - corners[0]))
        unit, other = short / side, (corners[3] - corners[0]) / long_side
        for j in range(i + 1, len(quads)):
            apart = centres[j] - centres[i]
            along, off = float(apart @ unit) / side, abs(float(apart @ other)) / long_side
            if not (2 * NEIGHBOUR[0] <= abs(along) <= 2 * NEIGHBOUR[1] and off <= ASKEW
                    and _turn(a, quads[j]) <= TURNED_DEG):
                continue
            middle = (centres[i] + centres[j]) / 2
            taken = [np.array(q.center_mm) for q in (*quads, *added)]
            if any(float(np.linalg.norm(c - middle)) < NEIGHBOUR[0] * side for c in taken):
                continue
            gap = dataclasses.replace(_moved(a, (float(middle[0]), float(middle[1]))),
                                      alternatives=(), beneath=())
            if _covered(gap, mask, px_per_mm) and _as_bright(gap, (a, quads[j]), grey,
                                                             px_per_mm):
                added.append(gap)
    return added


def _turn(a: CardQuad, b: CardQuad) -> float:
    """How far two cards are turned from each other (degrees, a half turn is none)."""
    return abs((a.angle_deg - b.angle_deg + 90) % 180 - 90)


def _inner_points(quad: CardQuad, px_per_mm: float) -> NDArray[np.intp]:
    """View pixels (x, y) on a 7 x 7 grid over the card, a tenth of it in from its sides."""
    corners = np.array(quad.corners_mm, np.float64)
    s, t = (g.ravel()[:, None] for g in np.meshgrid(np.linspace(0.1, 0.9, 7),
                                                     np.linspace(0.1, 0.9, 7)))
    points = corners[0] + s * (corners[1] - corners[0]) + t * (corners[3] - corners[0])
    return np.asarray(np.round(points * px_per_mm), np.intp)


def _sample(image: NDArray[np.uint8], points: NDArray[np.intp]) -> NDArray[np.uint8]:
    h, w = image.shape[:2]
    xs, ys = np.clip(points[:, 0], 0, w - 1), np.clip(points[:, 1], 0, h - 1)
    return image[ys, xs]


def _covered(quad: CardQuad, mask: NDArray[np.uint8], px_per_mm: float) -> bool:
    """Whether the foreground covers the card's inside wholly."""
    return bool((_sample(mask, _inner_points(quad, px_per_mm)) > 0).all())


def _as_bright(quad: CardQuad, beside: tuple[CardQuad, CardQuad], grey: NDArray[np.uint8],
               px_per_mm: float) -> bool:
    """Whether the view inside the card is about as bright as inside the cards beside it
    (a tile, not a hand or the gap between two rows)."""
    levels = [float(np.median(_sample(grey, _inner_points(q, px_per_mm))))
              for q in (quad, *beside)]
    return levels[0] >= RIM * min(levels[1:])


def _neighbours(i: int, quads: list[CardQuad], centres: Floats, unit: Floats, other: Floats,
                side: float, other_side: float) -> tuple[bool, bool]:
    """Whether a card lies beside card i before it and after it along `unit` (its side
    `side` long), touching it edge to edge."""
    before = after = False
    for j, quad in enumerate(quads):
        if j == i or _turn(quad, quads[i]) > TURNED_DEG:
            continue
        apart = centres[j] - centres[i]
        along, off = float(apart @ unit) / side, abs(float(apart @ other)) / other_side
        if off <= ASKEW and NEIGHBOUR[0] <= abs(along) <= NEIGHBOUR[1]:
            before, after = before or along < 0, after or along > 0
    return before, after


def _profile(grey: NDArray[np.uint8], px_per_mm: float, centre: Floats, unit: Floats,
             other: Floats, side: float, other_side: float) -> Floats:
    """The median grey level along the middle ALONG of the other side, every STEP_MM
    across the card along `unit`, from -reach to +reach mm about its centre (`_reach`)."""
    reach = _reach(side)
    t = np.arange(-reach, reach + STEP_MM / 2, STEP_MM)
    rows = max(3, round(ALONG * other_side * px_per_mm))
    s = np.linspace(-ALONG * other_side / 2, ALONG * other_side / 2, rows)
    points = (centre[None, None, :] + t[None, :, None] * unit[None, None, :]
              + s[:, None, None] * other[None, None, :]) * px_per_mm
    xs = np.ascontiguousarray(points[..., 0], np.float32)
    ys = np.ascontiguousarray(points[..., 1], np.float32)
    strip = cv2.remap(grey, xs, ys, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(np.median(np.asarray(strip, np.float64), axis=0), np.float64)


def _reach(side: float) -> float:
    """How far from a card's centre its profile across `side` reaches (mm)."""
    return side / 2 + SEARCH_MM + BEYOND_MM


def _shift(profile: Floats, side: float, near: tuple[bool, bool]) -> float:
    """How far (mm) the card's centre moves along the profile's axis: to the middle of
    the two edges found, or by the one edge found; 0 if none is."""
    middle = len(profile) // 2
    half = side / 2 / STEP_MM
    level = float(np.median(profile[round(middle - 0.6 * half):round(middle + 0.6 * half) + 1]))
    found = [_edge(profile, middle + sign * half, SEARCH_MM / STEP_MM, level, sign, beside)
             for sign, beside in ((-1, near[0]), (1, near[1]))]
    (low, high) = found
    if low is not None and high is not None:
        return ((low + high) / 2 - middle) * STEP_MM
    if low is not None:
        return (low + half - middle) * STEP_MM
    if high is not None:
        return (high - half - middle) * STEP_MM
    return 0.0


def _edge(profile: Floats, expected: float, window: float, level: float, sign: int,
          seam: bool) -> float | None:
    """Where the card's edge on one side (sign -1 before, +1 after its centre) lies in the
    profile (samples) near `expected`: the deepest dip of a seam, or where a free side
    falls halfway to the mat; None if the profile shows no such edge, or if the card is
    darker just inside it (a black frame, whose inner line is no card's edge)."""
    low = max(1, math.floor(expected - window))
    high = min(len(profile) - 2, math.ceil(expected + window))
    if seam:
        depth = _dip_depth(profile, max(1, round(VALLEY_MM / STEP_MM)))
        k = low + int(np.argmax(depth[low:high + 1]))
        beside = depth[k] + profile[k]  # the lesser of the cards' brightness beside it
        if depth[k] < MIN_DIP * level or beside < RIM * level or k in (low, high):
            return None
        return k + _vertex(-profile[k - 1], -profile[k], -profile[k + 1])
    outside = profile[:low] if sign < 0 else profile[high + 1:]
    if not len(outside) or level - float(np.median(outside)) < MIN_RISE:
        return None
    halfway = (level + float(np.median(outside))) / 2
    part = profile[low:high + 1]
    bright = part >= halfway
    steps = np.flatnonzero(bright[1:] != bright[:-1])
    steps = steps[bright[steps + 1] == (sign < 0)]  # into the card before it, out after it
    if not len(steps):
        return None
    j = int(steps[np.argmin(np.abs(steps + low + 0.5 - expected))])
    a, b = float(part[j]), float(part[j + 1])
    at = low + j + (halfway - a) / (b - a)
    inside = [at - sign * mm / STEP_MM for mm in RIM_MM]
    rim = profile[max(0, round(min(inside))):round(max(inside)) + 1]
    return at if len(rim) and float(np.median(rim)) >= RIM * level else None


def _dip_depth(profile: Floats, valley: int) -> Floats:
    """Per sample, how much darker it is than both sides: the lesser of the brightest
    levels within `valley` samples before it and after it."""
    padded = np.pad(profile, valley, mode="edge")
    windows = np.lib.stride_tricks.sliding_window_view(padded, valley + 1)
    left = windows[: len(profile)].max(axis=1)
    right = windows[valley:].max(axis=1)
    return np.asarray(np.minimum(left, right) - profile, np.float64)


def _vertex(a: float, b: float, c: float) -> float:
    """The offset (-0.5..0.5) of the top of the parabola through three samples."""
    denom = a - 2 * b + c
    return 0.0 if denom >= 0 else max(-0.5, min(0.5, 0.5 * (a - c) / denom))


def _moved(quad: CardQuad, centre: tuple[float, float]) -> CardQuad:
    """The same outline with its centre at `centre` (mm)."""
    dx, dy = centre[0] - quad.center_mm[0], centre[1] - quad.center_mm[1]
    corners = tuple((x + dx, y + dy) for x, y in quad.corners_mm)
    return dataclasses.replace(quad, corners_mm=corners, center_mm=centre)
