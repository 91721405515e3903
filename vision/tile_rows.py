"""Tiles touching side by side (Remi's in a row), each placed on its own outline.

Remi tiles lie edge to edge in melds and in the discard row, and such a row is one blob
on the mat. Split by the tile's size, or fitted to the edge votes of the whole blob, a
tile's outline drifts off its real edges by the small gaps between tiles, and a patch
straddling two tiles names neither. So each tile of such a blob is moved, along
each of its axes, onto the edges the view shows near its own: the seam towards a
neighbour is a line darker than the tiles on both sides of it (their rims, the gap,
their rounded corners) all along the side, where a numeral darkens only the tile's
middle, so the median brightness along the side dips there; a side with the mat beyond
it is where the brightness is halfway between the tile's and the mat's. A tile the
outlines left out between two others in a row is added where the view shows one. Two
rows touching along their long sides (a meld laid under another) are first cut again
into rows at the seam that runs straight along the whole block, then each row into
tiles (the blob's grid may be turned the wrong way up, or no grid when the rows are
staggered).

    >>> tiles = on_seams(grey_view, 1.0, found_in_one_blob)   # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import functools
import math
from typing import TYPE_CHECKING

import cv2
import numpy as np
from numpy.typing import NDArray

from vision import outline_kernels, seam_kernels
from vision.compiled import dot2, median_of

if TYPE_CHECKING:  # cards.py calls this module: the quads come from it
    from vision.cards import CardQuad

Floats = NDArray[np.float64]

TILE_MAX_MM = 30.0  # a tile's short side at most (Remi's: 20 mm; playing cards: 56 and more)
STEP_MM = 0.5  # between the points of a profile across a card
ROW_MM = 2.0  # between the lines along a side whose median a profile takes
ALONG = 0.8  # share of a side along which a profile takes its median
BEYOND_MM = 4.0  # how far a profile reaches past the search (to read the mat there)
SEARCH_MM = 3.0  # how far an edge may lie off where the outline put it (gaps add up)
VALLEY_MM = 2.5  # each side of a seam, where the brightness of the cards beside it is read
MIN_DIP = 0.08  # depth of a seam's dip at least, as a share of the card's brightness
RIM = 0.85  # share of the card's brightness it keeps right up to an edge (no dark frame)
RIM_MM = (1.0, 3.0)  # where, inside an edge, that brightness is read
MIN_RISE = 10.0  # grey levels a card is brighter than the mat beyond a free side at least
_RIM_STEPS = -np.arange(RIM_MM[0], RIM_MM[1] + STEP_MM / 2, STEP_MM) / STEP_MM  # inwards
_VALLEY = max(1, round(VALLEY_MM / STEP_MM))  # samples
_LIMITS = np.array([MIN_DIP, RIM, MIN_RISE])  # as seam_kernels.shifts takes them
NEIGHBOUR = (0.8, 1.25)  # a neighbour's centre lies this many sides away along an axis
ASKEW = 0.3  # and at most this share of the other side off the axis
TURNED_DEG = 8.0  # and at most this much turned from the card
_NEIGHBOUR_LIMITS = np.array([*NEIGHBOUR, ASKEW, TURNED_DEG])  # as seam_kernels.neighbours
MAX_GAP = 2  # cards missing from a row between two found that are added
GAP_OVERLAP = 0.1  # share of such a card that may lie under a card found
STAGGER = 0.5  # share of a tile's short side two rows may lie apart along their length
FULL_SEAM = 0.75  # share of a line along a block that is as dark as a seam between its rows
ROW_GAP_MM = 0.25  # between the tiles of a row, when counting them in its length
ROW_TOL = 0.09  # relative tolerance on a row's length, as whole tiles
HOLE_MARGIN_MM = 4.0  # around a blob's cards, where holes in its foreground are filled


def are_tiles(card_mm: tuple[float, float]) -> bool:
    """Whether cards this size are tiles, which lie in rows (the card decks keep the
    outlines their blobs give: their art near the edges, in dim light, can look like a
    seam a few mm in, and their touching cards lie in a 2x2 square, not in rows)."""
    return min(card_mm) <= TILE_MAX_MM


def on_seams(grey: NDArray[np.uint8], px_per_mm: float, quads: list[CardQuad],
             mask: NDArray[np.uint8] | None = None) -> list[CardQuad]:
    """The cards of one blob (mat mm), each moved onto the seams and free sides the view
    (grey, px_per_mm) shows near its outline: a tile beside its neighbours in a row, and
    one with none beside it (laid across others, where the blob's edge votes fit it a mm
    or two off); a card stays where no edge shows clearly along an axis. Given the
    foreground `mask`, a card missing from a row (a gap one or two cards wide between two
    cards in line, wholly foreground, holes filled, and as bright as they are) is added
    after them, and an outline turned a quarter across a row's seam or at its end gives
    way to the row's tiles."""
    if not quads:
        return quads
    layout = _layout(quads)
    solid = None if mask is None else _SolidMask(mask, quads, px_per_mm)
    if solid is not None and len(quads) > 1:
        recut = _recut_block(grey, solid, px_per_mm, quads, layout)
        if recut is not quads:
            quads, layout = recut, _layout(recut)
    if solid is not None and (kept := _without_quarter_phantoms(grey, solid, px_per_mm, quads,
                                                                 layout)) is not quads:
        quads, layout = kept, _layout(kept)
    if solid is not None and (kept := _row_end_for_quarter_phantom(grey, solid, px_per_mm,
                                                                    quads, layout)) is not quads:
        quads, layout = kept, _layout(kept)
    if solid is not None and (added := _gaps_filled(grey, solid, px_per_mm, quads, layout)):
        quads = quads + added
        layout = _layout(quads)
    if len(quads) < 2:
        return quads
    centres, units, sides = layout.centres, layout.units, layout.sides
    moves = np.zeros((len(quads), 2))
    for k, profiles in enumerate(_profiles(grey, px_per_mm, layout)):
        near = _neighbours(*layout.apart[k], layout.turned)
        moves += units[k] * _shifts(profiles, sides[k], near)[:, None]
    return [_moved(quad, (x, y))
            for quad, (x, y) in zip(quads, (centres + moves).tolist(), strict=True)]


class _SolidMask:
    """A blob's foreground with its holes filled (_holes_filled around the cards it was
    made for), filled when first looked at: most blobs' rows are whole and no step of
    on_seams looks at it (35 of 49 blobs over 16 Remi tables)."""

    def __init__(self, mask: NDArray[np.uint8], quads: list[CardQuad], px_per_mm: float
                 ) -> None:
        self._mask, self._quads, self._px_per_mm = mask, quads, px_per_mm

    @functools.cached_property
    def pixels(self) -> NDArray[np.uint8]:
        return _holes_filled(self._mask, self._quads, self._px_per_mm)


def _holes_filled(mask: NDArray[np.uint8], quads: list[CardQuad], px_per_mm: float
                  ) -> NDArray[np.uint8]:
    """A copy of the foreground with the holes in it filled around the cards (their box,
    HOLE_MARGIN_MM more each way): a tile's dark numeral (a black 13) differs from the
    dark mat too little and is a hole in the foreground, though the tile is whole."""
    corners = np.array([q.corners_mm for q in quads], np.float64).reshape(-1, 2) * px_per_mm
    margin = HOLE_MARGIN_MM * px_per_mm
    (x0, y0), (x1, y1) = np.floor(corners.min(axis=0) - margin), np.ceil(
        corners.max(axis=0) + margin)
    h, w = mask.shape[:2]
    x0, y0, x1, y1 = max(int(x0), 0), max(int(y0), 0), min(int(x1), w), min(int(y1), h)
    solid = mask.copy()
    if x1 > x0 and y1 > y0:
        part = solid[y0:y1, x0:x1]
        outlines, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        cv2.drawContours(part, outlines, -1, 255, -1)
    return solid


def _recut_block(grey: NDArray[np.uint8], mask: _SolidMask, px_per_mm: float,
                 quads: list[CardQuad], layout: _Layout) -> list[CardQuad]:
    """The tiles of a block (rows touching along their long sides) cut again along the
    seams the view shows, if the outlines given put them elsewhere. A block's rectangle
    splits into a grid both ways up when its sides are whole tiles both ways (three tiles
    by two rows is 60 x 60 mm), two rows laid a few mm apart along their length are no
    grid at all; but the seam between two rows runs straight along the whole block,
    where a line across tiles in the wrong cut does not. Only cards all turned alike are
    cut again (a card turned across them may lie on the rows), and the new cut is kept
    only if every card given lies on one of its tiles; of its tiles, one not wholly on
    the foreground is the given card alike it, if any (a tile laid out of line)."""
    sides = layout.sides
    (along, off), turned = layout.apart[1], layout.turned
    rows_touch = (NEIGHBOUR[0] <= np.abs(along)) & (np.abs(along) <= NEIGHBOUR[1]) & (
        off <= STAGGER)  # tiles of two rows, along their long sides
    if not rows_touch.any() or (turned > TURNED_DEG).any():
        return quads
    corners = np.array([q.corners_mm for q in quads], np.float32).reshape(-1, 2)
    (cx, cy), (width, height), angle = cv2.minAreaRect(corners)
    theta = math.radians(angle)
    a, b = np.array([math.cos(theta), math.sin(theta)]), np.array([-math.sin(theta),
                                                                    math.cos(theta)])
    centre = np.array([cx, cy], np.float64)
    ways = ((b, height, a, width), (a, width, b, height))  # (across rows, along rows)
    cuts = [_row_seams(grey, px_per_mm, centre, across, length, lines, span, sides[1])
            for across, length, lines, span in ways]
    found = [(seams, way) for seams, way in zip(cuts, ways, strict=True) if seams]
    if len(found) != 1:  # no seam shows, or the view does not say which way the rows run
        return quads
    seams, (across, _, lines, span) = found[0]
    recut = _rows_cut(quads[0], mask, px_per_mm, centre, (lines, across), span, seams, sides)
    if recut is None or _same_tiles(recut, quads):
        return quads
    # every card given must lie on a tile of the new cut (else the blob holds more than
    # the block: keep what its outlines found)
    if not all(any(_inside(q.center_mm, tile) for tile in recut) for q in quads):
        return quads
    # a tile the cut puts partly on the mat is one laid out of line with its row: where
    # its own outline was given, that says where it lies
    return [tile if _covered(tile, mask, px_per_mm)
            else _given_alike(tile, quads, lines, sides) or tile for tile in recut]


def _inside(point: tuple[float, float], quad: CardQuad) -> bool:
    """Whether a point (mm) lies on the card."""
    outline = np.array(quad.corners_mm, np.float32)
    return cv2.pointPolygonTest(outline, point, False) >= 0


def _row_seams(grey: NDArray[np.uint8], px_per_mm: float, centre: Floats, across: Floats,
               length: float, lines: Floats, width: float, long: float
               ) -> list[float] | None:
    """Where (mm from the block's centre along `across`) the seams between its rows lie,
    the rows `long` (a tile's long side) deep across it; None if one is missing. A seam
    is a dip in the grey level of lines along the block (`lines`, `width` long) that are
    dark nearly all along (FULL_SEAM of each line)."""
    rows = round(length / long)
    if rows < 2:
        return None
    reach = length / 2 + SEARCH_MM + 1
    t = np.arange(-reach, reach + STEP_MM / 2, STEP_MM)
    s = np.arange(-width / 2, width / 2 + STEP_MM / 2, 2 * STEP_MM)
    xs, ys = seam_kernels.line_points(centre, across, lines, t, s, px_per_mm)
    strip = np.asarray(cv2.remap(grey, xs, ys, cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE), np.uint8)
    profile: Floats = seam_kernels.column_quantiles(strip, FULL_SEAM)
    inner = profile[np.abs(t) <= length / 2]
    level = median_of(inner, len(inner))  # (np.median)
    window = SEARCH_MM / STEP_MM
    seams = []
    for k in range(1, rows):
        expected = (-length / 2 + k * length / rows + reach) / STEP_MM
        low, high = max(1, math.floor(expected - window)), min(len(t) - 2,
                                                               math.ceil(expected + window))
        at = seam_kernels.seam_in(profile, low, high, level, _VALLEY, MIN_DIP, RIM)
        if np.isnan(at):
            return None
        seams.append(float(at) * STEP_MM - reach)
    return seams


def _rows_cut(like: CardQuad, mask: _SolidMask, px_per_mm: float, centre: Floats,
              axes: tuple[Floats, Floats], length: float, seams: list[float],
              sides: tuple[float, float]) -> list[CardQuad] | None:
    """The tiles of each row of a block (`axes`: along its rows, across them; `length`
    of the block along them), the rows either side of the `seams` (mm across from `centre`),
    each row cut into tiles evenly over the stretches the foreground covers along it;
    None where a stretch is no whole number of tiles long."""
    lines, across = axes
    middles = [seams[0] - sides[1] / 2,
               *((a + b) / 2 for a, b in zip(seams[:-1], seams[1:], strict=True)),
               seams[-1] + sides[1] / 2]
    reach = length / 2 + 2 * STEP_MM
    t = np.arange(-reach, reach + STEP_MM / 2, STEP_MM)
    tiles: list[CardQuad] = []
    for middle in middles:
        s = np.array([-sides[1] / 4, 0.0, sides[1] / 4]) + middle
        xs, ys = ((centre[c] + t[:, None] * lines[c] + s[None, :] * across[c]) * px_per_mm
                  for c in (0, 1))
        points = np.stack([xs.ravel(), ys.ravel()], axis=1)
        covered = (_sample(mask.pixels, np.asarray(np.round(points), np.intp)) > 0).reshape(
            xs.shape)
        for start, stop in _runs(np.asarray(covered.all(axis=1), np.bool_)):
            span = (stop - start) * STEP_MM
            count = round(span / (sides[0] + ROW_GAP_MM))
            if count < 1:
                continue
            if abs(span - count * sides[0]) > ROW_TOL * count * sides[0]:
                return None
            first = t[start] - STEP_MM / 2
            for i in range(count):
                at = centre + lines * (first + span * (i + 0.5) / count) + across * middle
                tiles.append(type(like).from_axes(at, across, sides))
    return tiles


def _runs(flags: NDArray[np.bool_]) -> list[tuple[int, int]]:
    """The stretches (start, stop) where `flags` holds."""
    edges = np.diff(np.concatenate([[0], flags.astype(np.int8), [0]]))
    return list(zip(np.flatnonzero(edges == 1).tolist(), np.flatnonzero(edges == -1).tolist(),
                    strict=True))


def _same_tiles(ours: list[CardQuad], given: list[CardQuad]) -> bool:
    """Whether two cuts give as many tiles, each within SEARCH_MM of one the other gives
    and turned alike (the seams then move the given ones onto their edges)."""
    if len(ours) != len(given):
        return False
    return all(any(math.dist(q.center_mm, g.center_mm) <= SEARCH_MM
                   and abs((q.angle_deg - g.angle_deg + 90) % 180 - 90) <= TURNED_DEG
                   for g in given) for q in ours)


def _given_alike(tile: CardQuad, given: list[CardQuad], lines: Floats,
                 sides: tuple[float, float]) -> CardQuad | None:
    """The card given that is this tile of the cut (rows along `lines`), if any: turned
    alike, within SEARCH_MM of it along the row and within ASKEW of its long side across
    it. The cut puts a row's tiles on one line, but a tile laid a few mm out of line with
    its neighbours (touching them along part of its long side) lies where its own outline
    says; the seams then move it onto its edges."""
    for card in given:
        dx, dy = card.center_mm[0] - tile.center_mm[0], card.center_mm[1] - tile.center_mm[1]
        along = abs(dx * lines[0] + dy * lines[1])
        across = abs(dx * lines[1] - dy * lines[0])
        if (along <= SEARCH_MM and across <= ASKEW * sides[1]
                and abs((card.angle_deg - tile.angle_deg + 90) % 180 - 90) <= TURNED_DEG):
            return card
    return None


def _gaps_filled(grey: NDArray[np.uint8], mask: _SolidMask, px_per_mm: float,
                 quads: list[CardQuad], layout: _Layout) -> list[CardQuad]:
    """Cards for the gaps one or two cards wide between two cards in line along their
    short sides (the edge votes of a blob of many tiles miss a tile now and then, and in a
    long row two side by side), where the mask covers each missing card wholly and the
    view there is as bright as the two cards; of a gap two cards wide, only where neither
    lies under a card found (_clear_of), else none: the row is not what it seems there."""
    centres, sides = layout.centres.tolist(), layout.sides
    added: list[CardQuad] = []
    taken = [q.center_mm for q in quads]
    for i, j, missing in _gap_pairs(layout):
        gaps = []
        (xi, yi), (xj, yj), parts = centres[i], centres[j], missing + 1
        for k in range(1, missing + 1):
            mx = (xi * (parts - k) + xj * k) / parts
            my = (yi * (parts - k) + yj * k) / parts
            if _any_within(taken, (mx, my), NEIGHBOUR[0] * sides[0]):
                break
            gap = _moved(quads[i], (mx, my), bare=True)
            if not (_covered(gap, mask, px_per_mm)
                    and (missing == 1 or _clear_of(gap, quads, sides))
                    and _as_bright(gap, (quads[i], quads[j]), grey, px_per_mm)):
                break
            gaps.append(gap)
        if len(gaps) == missing:  # every missing card shows, or none is added
            added.extend(gaps)
            taken.extend(gap.center_mm for gap in gaps)
    return added


def _gap_pairs(layout: _Layout) -> list[tuple[int, int, int]]:
    """The pairs (i, j) of cards in line along their short sides with a gap between them
    as many cards wide as the third number (1 to MAX_GAP), in the order of (i, j): all
    the pairs tested in one compiled pass (numpy's steps cost 10 us a blob). Two to MAX_GAP + 1
    sides on, within NEIGHBOUR of a whole number of sides: only j after i (each pair once)."""
    (along, off), turned = layout.apart[0], layout.turned
    pairs: list[tuple[int, int, int]] = seam_kernels.gap_pairs(along, off, turned, MAX_GAP,
                                                               _NEIGHBOUR_LIMITS)
    return pairs


def _any_within(points: list[tuple[float, float]], point: tuple[float, float], reach: float
                ) -> bool:
    """Whether any of the points lies nearer than `reach` to `point` (by _distance); one
    farther along either axis is not measured (its distance is that or more)."""
    x, y = point
    return any(_distance(px - x, py - y) < reach for px, py in points
               if abs(px - x) < reach and abs(py - y) < reach)


def _without_quarter_phantoms(grey: NDArray[np.uint8], mask: _SolidMask,
                              px_per_mm: float, quads: list[CardQuad], layout: _Layout
                              ) -> list[CardQuad]:
    """The cards without those that are a phantom across a row: an outline turned a
    quarter against the row, in line with it between two of its cards, where the row's
    own tiles fill the gap (_gaps_filled) and cover most of it. The edge votes of a row
    fit a tile turned a quarter across the seam between two tiles now and then (its long
    sides on their short sides, its short sides on the row's long ones); a tile really
    laid turned in a row is 10 mm narrower than the row, so the row's tiles there would
    lie partly on the mat and are not added."""
    if not layout.quarter.any():  # (most blobs: nothing to look at)
        return quads
    area = layout.sides[0] * layout.sides[1]
    for k in _quarter_between(layout):
        rest = quads[:k] + quads[k + 1:]
        added = _gaps_filled(grey, mask, px_per_mm, rest, _layout(rest))
        if sum(_overlap_mm2(quads[k], tile) for tile in added) > 0.5 * area:
            return rest
    return quads


def _quarter_between(layout: _Layout) -> list[int]:
    """The cards k turned a quarter against a card i and in line between it and a card
    j in line with i two or three sides on, in the order of (i, j, k): all the pairs
    and cards compared at once (a row's loop over its pairs cost a few us a pair)."""
    (along, off), turned = layout.apart[0], layout.turned
    in_line = (2 * NEIGHBOUR[0] <= along) & (along <= (MAX_GAP + 1) * NEIGHBOUR[1]) & (
        off <= ASKEW) & (turned <= TURNED_DEG)
    quarter = layout.quarter & (along > 0) & (off <= ASKEW)
    between = in_line[:, :, None] & quarter[:, None, :] & (along[:, None, :] < along[:, :, None])
    cards: list[int] = np.argwhere(between)[:, 2].tolist()
    return cards


def _row_end_for_quarter_phantom(grey: NDArray[np.uint8], mask: _SolidMask,
                                 px_per_mm: float, quads: list[CardQuad], layout: _Layout
                                 ) -> list[CardQuad]:
    """The cards with an outline turned a quarter beside the end of a row, in line with
    it, replaced by the row's next tile where the view shows one there (wholly foreground,
    as bright as the row's tile, clear of the other cards) and it covers most of that
    outline: the phantom of _without_quarter_phantoms where no tile of the row was found
    beyond it (one laid across the row's next tile hides that tile's far side)."""
    if not layout.quarter.any():  # (most blobs: nothing to look at)
        return quads
    along, off = layout.apart[0]
    beside = layout.quarter & (off <= ASKEW) & (
        NEIGHBOUR[0] <= np.abs(along)) & (np.abs(along) <= 2 * NEIGHBOUR[0])
    area = layout.sides[0] * layout.sides[1]
    for i, k in np.argwhere(beside).tolist():
        step = layout.units[0][i] * layout.sides[0] * math.copysign(1.0, float(along[i, k]))
        x, y = (layout.centres[i] + step).tolist()
        tile = _moved(quads[i], (x, y), bare=True)
        rest = quads[:k] + quads[k + 1:]
        if (_overlap_mm2(quads[k], tile) > 0.5 * area and _covered(tile, mask, px_per_mm)
                and _clear_of(tile, rest, layout.sides)
                and _as_bright(tile, (quads[i], quads[i]), grey, px_per_mm)):
            return [*rest, tile]
    return quads


def _clear_of(quad: CardQuad, others: list[CardQuad], sides: tuple[float, float]) -> bool:
    """Whether a card (of these sides, mm) added in a gap shares at most GAP_OVERLAP of
    its area with each card found: a tile laid crooked across a row covers the gap, and
    the row's tile under it, partly hidden, is not to be named from a patch of both."""
    limit = GAP_OVERLAP * sides[0] * sides[1]
    return all(_overlap_mm2(quad, other) <= limit for other in others
               if math.dist(quad.center_mm, other.center_mm) < sides[0] + sides[1])


def _overlap_mm2(a: CardQuad, b: CardQuad) -> float:
    """The area two outlines share (mm^2), by the project's one measure of it
    (outline_kernels.overlap_area, as cards.overlap_mm2; cards.py calls this module)."""
    return outline_kernels.overlap_area(np.array(a.corners_mm), np.array(b.corners_mm))


def _distance(dx: float, dy: float) -> float:
    """np.linalg.norm of (dx, dy) (the same BLAS dot product), without numpy's overhead."""
    return math.sqrt(dot2(dx, dy, dx, dy))


@dataclasses.dataclass(frozen=True)
class _Layout:
    """How the cards of a blob lie: their centres, the unit vectors along their short and
    long sides (a row per card), the lengths of those sides (every card is the same
    size), per axis (short, long) for each card i (rows) and card j (columns) how many
    sides card j lies from card i along i's axis and how many of its other side off that
    axis (unsigned), how far (degrees) each two cards are turned from each other, and
    whether that is a quarter turn."""

    centres: Floats
    units: tuple[Floats, Floats]
    sides: tuple[float, float]
    apart: tuple[tuple[Floats, Floats], tuple[Floats, Floats]]
    turned: Floats
    quarter: NDArray[np.bool_]


def _layout(quads: list[CardQuad]) -> _Layout:
    """The layout of (one or more) cards."""
    corners = np.array([q.corners_mm for q in quads], np.float64)
    short, long = corners[:, 1] - corners[:, 0], corners[:, 3] - corners[:, 0]
    sides = (_distance(*short[0].tolist()), _distance(*long[0].tolist()))
    centres, units = outline_kernels.centres(corners), (short / sides[0], long / sides[1])
    angles = np.array([q.angle_deg for q in quads])
    along_short, along_long, turned, quarter = seam_kernels.layout_matrices(
        centres, units[0], units[1], sides[0], sides[1], angles, TURNED_DEG)
    return _Layout(centres, units, sides, ((along_short, np.abs(along_long)),
                                           (along_long, np.abs(along_short))), turned, quarter)


#: a 7 x 7 grid over a card (shares of its sides), a tenth of it in from its sides
_INNER_GRID = tuple(g.ravel()[:, None] for g in np.meshgrid(np.linspace(0.1, 0.9, 7),
                                                             np.linspace(0.1, 0.9, 7)))


def _inner_points(quads: list[CardQuad], px_per_mm: float) -> NDArray[np.intp]:
    """View pixels (x, y) on _INNER_GRID over each card (a row of points a card)."""
    corners = np.array([q.corners_mm for q in quads], np.float64)[:, None]
    s, t = _INNER_GRID
    points = corners[..., 0, :] + s * (corners[..., 1, :] - corners[..., 0, :]) + t * (
        corners[..., 3, :] - corners[..., 0, :])
    return np.asarray(np.round(points * px_per_mm), np.intp)


def _sample(image: NDArray[np.uint8], points: NDArray[np.intp]) -> NDArray[np.uint8]:
    h, w = image.shape[:2]
    xs = np.minimum(np.maximum(points[..., 0], 0), w - 1)
    ys = np.minimum(np.maximum(points[..., 1], 0), h - 1)
    return np.asarray(image[ys, xs], np.uint8)


def _covered(quad: CardQuad, mask: _SolidMask, px_per_mm: float) -> bool:
    """Whether the foreground covers the card's inside wholly."""
    return bool((_sample(mask.pixels, _inner_points([quad], px_per_mm)) > 0).all())


def _as_bright(quad: CardQuad, beside: tuple[CardQuad, CardQuad], grey: NDArray[np.uint8],
               px_per_mm: float) -> bool:
    """Whether the view inside the card is about as bright as inside the cards beside it
    (a tile, not a hand or the gap between two rows)."""
    levels = np.median(_sample(grey, _inner_points([quad, *beside], px_per_mm)), axis=1)
    return bool(levels[0] >= RIM * min(levels[1:].tolist()))


def _neighbours(along: Floats, off: Floats, turned: Floats) -> NDArray[np.bool_]:
    """Per card (rows of a `_Layout.apart` pair), whether another lies beside it before it
    and after it along the axis, touching it edge to edge (two columns)."""
    near: NDArray[np.bool_] = seam_kernels.neighbours(along, off, turned, _NEIGHBOUR_LIMITS)
    return near


def _profiles(grey: NDArray[np.uint8], px_per_mm: float, layout: _Layout
              ) -> tuple[Floats, Floats]:
    """Per card (a row each), its profiles across its short sides and across its long
    ones: the median grey level along the middle ALONG of its other side, every STEP_MM
    along the axis, from -reach to +reach mm about its centre (`_reach`). Both made in
    one pass, remapped a card a row (OpenCV's remap pays per row of its map: a dozen
    samples a row took it 1.6 times as long; a pixel is the same either way)."""
    sides = layout.sides
    reaches = np.array([_reach(sides[0]), _reach(sides[1])])
    spans = np.array([ALONG * sides[1] / 2, ALONG * sides[0] / 2])
    rows = np.array([max(3, round(ALONG * sides[1] / ROW_MM)) | 1,  # odd: a middle one
                     max(3, round(ALONG * sides[0] / ROW_MM)) | 1])
    xs, ys, *samples = seam_kernels.profile_points(
        layout.centres, layout.units[0], layout.units[1], reaches, spans, rows, STEP_MM,
        px_per_mm)
    strip = np.asarray(cv2.remap(grey, xs, ys, cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_REPLICATE), np.uint8)
    profiles: tuple[Floats, Floats] = seam_kernels.profile_medians(strip, np.array(samples),
                                                                   rows)
    return profiles


def _reach(side: float) -> float:
    """How far from a card's centre its profile across `side` reaches (mm)."""
    return side / 2 + SEARCH_MM + BEYOND_MM


def _shifts(profiles: Floats, side: float, near: NDArray[np.bool_]) -> Floats:
    """Per card (a row of `profiles`), how far (mm) its centre moves along the profiles'
    axis: to the middle of the two edges found, or by the one edge found; 0 if none is.
    `near`: whether a neighbour lies before it and after it. Each edge is looked for
    within SEARCH_MM of where the outline puts it: where a neighbour lies, the deepest dip
    (with the cards' brightness on both sides of it, VALLEY_MM away); else where the free
    side falls halfway to the mat beyond it; none if the profile shows no such edge, or if
    the card is darker just inside it (a black frame, whose inner line is no card's edge).
    The brightness of a card is the median of the middle of its profile."""
    moves: Floats = seam_kernels.shifts(
        np.ascontiguousarray(profiles, np.float64), np.ascontiguousarray(near, np.bool_),
        side, STEP_MM, SEARCH_MM, _VALLEY, _LIMITS, _RIM_STEPS)
    return moves


def _moved(quad: CardQuad, centre: tuple[float, float], bare: bool = False) -> CardQuad:
    """The same outline with its centre at `centre` (mm); `bare`: without the quad's
    alternatives and the cards it lies on (a tile added where none was found). Built
    directly: dataclasses.replace costs several us, and tiles are moved by the dozen."""
    dx, dy = centre[0] - quad.center_mm[0], centre[1] - quad.center_mm[1]
    corners = tuple((x + dx, y + dy) for x, y in quad.corners_mm)
    if bare:
        return type(quad)(corners, centre, quad.angle_deg)
    return type(quad)(corners, centre, quad.angle_deg, quad.alternatives, quad.beneath)
