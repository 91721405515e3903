"""A blob of tiles all turned alike (rows touching rows or loose tiles) read as rows.

Remi's melds are rows of tiles, and a row touching another row or a loose tile is one
blob on the mat that is no rectangle, so no grid (cards._as_card_or_grid). The general
outline fit of such a blob (Canny, edge votes, a score for each of a hundred candidates)
costs about a millisecond, and most such blobs are only tiles turned alike: this reads
one as that, or says it cannot. The blob is turned onto its main direction (the
directions of its outline's straight stretches), then peeled from one end: the tiles
whose tops lie at the blob's top edge are the runs of foreground along a line just
below it, each a whole number of tiles long, cut where the view shows a seam between
them along that row; they are taken away and the next top edge peeled. The reading is
kept only if it checks out: every tile lies on foreground nothing else took, every cut
is a seam's dip in the view, and nothing left over is large enough to be part of a
tile. Either way up of the tiles is tried, and a blob both read is left to the fit.

    >>> tiles = as_rows(contour, grey, 1.0, (20.0, 30.0), area)   # doctest: +SKIP
"""

from __future__ import annotations

import math

import cv2
import numpy as np
from numpy.typing import NDArray

from vision import tile_blob_kernels
from vision.tile_rows import MIN_DIP  # (a seam's dip at least, as a share of the tiles' grey)

Floats = NDArray[np.float64]
Tile = tuple[tuple[float, float], tuple[float, float]]  # centre, long axis (mat mm)

SCALE = 1.0  # pixels a mm of the blob turned onto its direction (as the mat's view)
SHIFT = 3  # fractional bits of the outline drawn there (cv2.fillPoly's shift)
CORNER_MM = 1.5  # how far a straight stretch of the outline may bend (approxPolyDP)
ANGLE_SPREAD_DEG = 4.0  # stretches this near the main direction set it exactly
LINE_MM = 3.0  # below a top edge, where its runs of foreground are read
GAP_MM = 0.25  # between the tiles of a row, when counting them in a run
RUN_TOL_MM = 3.0  # a run's length off a whole number of tiles at most
INSET_MM = 1.5  # each side of a tile, left out of the test that foreground covers it
COVERED = 0.97  # share of a tile (inset) the foreground nothing else took covers
TAKEN_MM = 1.0  # a tile taken away this much grown (the blur of its edge)
LEFT_MM = 3.0  # foreground left over narrower than this is the edges' blur
LEFT_AREA = 0.1  # share of a tile's area left over at most
SEAM_REACH_MM = 2.5  # either way of an even cut, where the seam's dip may lie
SEAM_SIDE_MM = (3.5, 5.0)  # either way of a seam, where the tiles' grey is read
SEAM_WOBBLE_MM = 0.5  # how far a seam may wander from straight along a row's lines
SEAM_LINES = (0.2, 0.8)  # share of a tile's long side along which the seam is read
MAX_TILES = 40  # a blob explained with more is no table's
MIN_TILES = 1.5  # a blob smaller (in tiles' areas) is one tile or less: the fit's
STRAIGHT = 0.6  # share of the outline's length along the main direction at least


def as_rows(contour: NDArray[np.int32], grey: NDArray[np.uint8], px_per_mm: float,
            card_mm: tuple[float, float], area: float) -> list[Tile] | None:
    """The tiles (centre and long axis, mat mm) of a blob (its outline in view pixels,
    `area` mm^2) of tiles all turned alike, or None where it is not that or the view does
    not say so."""
    if area < MIN_TILES * card_mm[0] * card_mm[1]:
        return None
    points = contour.reshape(-1, 2).astype(np.float64) / px_per_mm
    theta = _main_direction(points)
    if theta is None:
        return None
    c, s = math.cos(theta), math.sin(theta)
    turn = np.array([[c, s], [-s, c]])  # mat mm -> (u, v) along and across the direction
    turned = points @ turn.T
    origin = turned.min(axis=0) - 2.0
    size = np.ceil((turned.max(axis=0) - origin + 2.0) * SCALE).astype(int)
    canvas = np.zeros((int(size[1]), int(size[0])), np.uint8)
    outline = np.round((turned - origin) * SCALE * (1 << SHIFT)).astype(np.int32)
    cv2.fillPoly(canvas, [outline], 255, cv2.LINE_8, SHIFT)
    place = np.array([px_per_mm, *turn.ravel().tolist(), *origin.tolist()])
    readings = [_peeled(canvas, card_mm, place, grey, False),
                _peeled(canvas.T, card_mm, place, grey, True)]
    found = [tiles for tiles in readings if tiles is not None]
    if len(found) != 1:  # neither way up, or both: the fit decides
        return None
    back = turn.T  # (u, v) -> mat mm
    centres = (np.array([centre for centre, _ in found[0]]) + origin) @ back.T
    axes = np.array([axis for _, axis in found[0]]) @ back.T
    return [((x, y), (ax, ay)) for (x, y), (ax, ay) in zip(centres.tolist(), axes.tolist(),
                                                           strict=True)]


def _main_direction(points: Floats) -> float | None:
    """The direction (radians, mod a quarter turn) of the outline's straight stretches,
    weighted by their length; None where less than STRAIGHT of its length runs along
    it (tiles turned other ways, a hand)."""
    corners = cv2.approxPolyDP(points.astype(np.float32), CORNER_MM, True)
    degrees, share = tile_blob_kernels.main_direction(
        corners.reshape(-1, 2).astype(np.float64), ANGLE_SPREAD_DEG)
    return math.radians(degrees) if share >= STRAIGHT else None


def _peeled(canvas: NDArray[np.uint8], card_mm: tuple[float, float], place: Floats,
            grey: NDArray[np.uint8], transposed: bool) -> list[Tile] | None:
    """The tiles (centre and long axis, u v mm of the turned frame) the blob drawn on
    `canvas` is, its tiles' long side along v (along u where `transposed`, the canvas
    then the turned blob's transposed), peeled from its top edge down
    (tile_blob_kernels.peel); None where a step does not check out or what is left over
    is large enough to be part of a tile."""
    short, long = min(card_mm), max(card_mm)
    rest = canvas.copy()
    out = np.empty((MAX_TILES, 2))
    found = tile_blob_kernels.peel(rest, short, long, SCALE, grey, place, transposed,
                                   _LIMITS, out)
    if found < 1:
        return None
    k = 2 * round(LEFT_MM * SCALE / 2) + 1
    left = cv2.erode(rest, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    if cv2.countNonZero(left) > LEFT_AREA * short * long * SCALE * SCALE:
        return None
    axis = (1.0, 0.0) if transposed else (0.0, 1.0)
    return [(((v, u) if transposed else (u, v)), axis) for u, v in out[:found].tolist()]


#: the limits as tile_blob_kernels.peel takes them
_LIMITS = np.array([LINE_MM, GAP_MM, RUN_TOL_MM, INSET_MM, COVERED, TAKEN_MM, SEAM_REACH_MM,
                    *SEAM_SIDE_MM, SEAM_WOBBLE_MM, *SEAM_LINES, MIN_DIP])
