"""A card in an ordinary photo: where it lies, cut out upright.

A table that enrols its deck from phone photos takes one card at a time on whatever
table it has (wood, paper, dark cloth, a busy check). Rough boxes where the card may lie
come from colour (what is unlike the photo's border, the table: piece by piece and
gathered, since a card's white parts may look like a white table) and from the regions
the photo's edges close in. Each box's sides are then fitted to the card's own edges
(`vision.card_edges`): a box whose sides find none, that is not card-shaped, or that runs
off the photo is dropped, and of the rest the outermost outline is the card. When no box
holds, the answer is None: a wrong box would become a wrong name later.

A card touching or running off the photo's edge still shows three sides, and once the
deck's proportions are known (`find_cards` learns them from a deck's other photos) its
fourth side lies where they put it: the card is cut whole, the part beyond the photo
drawn out from its edge (`seen` says which part is real). Never a box of other
proportions (two cards side by side), nor one mostly outside the photo.

    >>> corners = find_card(photo)                     # doctest: +SKIP
    >>> upright = cut_card(photo, corners, (224, 348)) # doctest: +SKIP
    >>> every = find_cards(photos_of_a_deck)           # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.card_edges import Line, fit_sides, meet, outline_of

Image8 = NDArray[np.uint8]
Corners = NDArray[np.float32]  # four (x, y) image points, clockwise from the card's top-left

TABLE_COLOURS = 10  # clusters of the photo border's colours that make "the table"
MIN_PIECE = 0.003  # share of the photo a piece of the card covers at least
SOLID = 0.04  # share of the photo's side: what is thinner than this is not part of a card
GATHER = 0.2  # pieces this close (share of the longer side of their box) make one card
MAX_COVER = 0.85  # share of the photo beyond which a "card" is the table itself
CARD_ASPECTS = (0.5, 0.85)  # short side over long side of anything taken for a card
CLEAR = 0.01  # share of the card's short side between it and the photo's edge at least
MIN_CARD = 0.01  # share of the photo a card (or its field) covers at least
FILLED = 0.9  # share of its rotated box the hull of a card-like piece fills at least
OUTERMOST = 0.8  # share of the largest outline's area an outline has to be the card
PIECES = 8  # the largest pieces of each mask looked at
MIN_SEEN = 0.8  # share of a card running off the photo that must lie inside it
NEAR_EDGE = 0.1  # share of a box's short side within which its side lies at the photo's edge
ASPECT = 0.06  # relative difference from the deck's proportions of a whole card's outline
BORDER_BINS = 64  # stretches the photo's border is read in, for where a colour meets it
STRETCH = 0.15  # share of the border a card running off the photo meets at most
STRIP = 6  # px beyond (and within) a card's side where the table (its rim) is looked at
BAR_SPREAD = 1.0  # grey spread of a row or column of a letterbox bar at most (a bar is flat)
BAR_MARGIN = 2  # px beyond a bar where the photo may still be smeared into it


def find_card(photo: Image8, aspect: float | None = None) -> Corners | None:
    """The corners of the card in a photo of one card, portrait, clockwise from top-left;
    None when nothing card-shaped stands out from the table, or when it is not sure.

    Given the deck's `aspect` (short side over long), a card that runs off the photo or
    touches its edge is found too when its other three sides show: its fourth side lies
    where the card's proportions put it, at or beyond the photo's edge (`seen` tells which
    part of its cut is real)."""
    if photo.ndim != 3 or min(photo.shape[:2]) < 32:
        return None
    x0, y0, x1, y1 = _framed(photo)
    inner = np.ascontiguousarray(photo[y0:y1, x0:x1])
    lab = cv2.cvtColor(cv2.GaussianBlur(inner, (3, 3), 0), cv2.COLOR_BGR2Lab).astype(np.float32)
    found: list[tuple[float, float, Corners]] = []  # area, how well edges back it, corners
    running_off: list[tuple[float, float, Corners]] = []
    at_edges: list[Corners] = []  # outlines at the photo's edge, where no aspect says more
    for box in _candidates(inner, aspect is not None):
        short = float(min(np.linalg.norm(box[1] - box[0]), np.linalg.norm(box[2] - box[1])))
        if short < 12:
            continue
        sides = fit_sides(lab, box, short)
        outline = outline_of(sides)
        if aspect is not None and (outline is None
                                   or _near_edge(outline.corners, short, inner.shape[:2])):
            running_off += _at_the_edge(lab, box, sides, short, aspect)
        elif (outline is not None and _card_shaped(portrait(outline.corners), inner.shape[:2])
              and (aspect is None or _proportioned(portrait(outline.corners), aspect))):
            corners = portrait(outline.corners)
            backing = outline.weakest + float(np.mean(outline.support)) / 4
            found.append((float(cv2.contourArea(corners)), backing, corners))
        elif _runs_to_edge(box, sides, short, inner.shape[:2]):
            at_edges.append(box if outline is None else outline.corners)
    # A card's picture may hold card-shaped things (a "+2"'s two little cards): the card
    # is the outermost outline, the best backed of those about its size, whether it
    # shows whole or at the photo's edge.
    found += running_off
    if not found:
        return None
    largest = max(area for area, _, _ in found)
    area, _, corners = max((f for f in found if f[0] >= OUTERMOST * largest),
                           key=lambda f: f[1])
    if any(_holds(outline, corners, area) for outline in at_edges):
        return None  # what was found may be the picture on a card that reaches the edge
    return corners + np.array([x0, y0], np.float32)


def find_cards(photos: Sequence[Image8],
               whole: Sequence[Corners | None] | None = None) -> list[Corners | None]:
    """The card in each photo of one deck's cards (`find_card`, or `whole` when already
    known); a card touching or running off its photo's edge is looked for again once
    the deck's proportions are known from the cards found whole (their median)."""
    found = list(whole) if whole is not None else [find_card(photo) for photo in photos]
    aspects = [aspect_of(corners) for corners in found if corners is not None]
    if not aspects:
        return found
    aspect = float(np.median(aspects))
    return [find_card(photo, aspect) if corners is None else corners
            for photo, corners in zip(photos, found, strict=True)]


def _runs_to_edge(box: Corners, sides: list[tuple[Line, float] | None], short: float,
                  shape: tuple[int, ...]) -> bool:
    """Whether the box's fitted sides make an outline with a side at the photo's edge, or
    find the card's side everywhere but along the edge (a card running off the photo)."""
    outline = outline_of(sides)
    if outline is not None:
        return _near_edge(outline.corners, short, shape)
    h, w = shape[:2]
    missing = [i for i, side in enumerate(sides) if side is None]
    return len(missing) == 1 and _inside_by(
        (box[missing[0]] + box[(missing[0] + 1) % 4]) / 2, w, h) <= NEAR_EDGE * short


def _holds(outline: Corners, corners: Corners, area: float) -> bool:
    """Whether a convex outline holds the middle of `corners` and is far larger."""
    centre = corners.mean(axis=0)
    return bool(cv2.isContourConvex(outline)
                and cv2.pointPolygonTest(outline, (float(centre[0]), float(centre[1])), False) > 0
                and OUTERMOST * cv2.contourArea(outline) > area)


def _at_the_edge(lab: NDArray[np.float32], box: Corners, sides: list[tuple[Line, float] | None],
                 short: float, aspect: float) -> list[tuple[float, float, Corners]]:
    """The card at the photo's edge that a box's fitted sides show, as (area, backing,
    corners), or nothing.

    A side lies at the edge when it is the box's side that finds no card side there
    (the card runs off the photo) or the outline's side near the edge. An outline of the
    deck's proportions is the whole card touching the edge, unless what lies between it
    and the edge is unlike the table (the card's margin, cut by the edge). Otherwise
    the one side at the edge is put where the proportions say (`_extended`)."""
    h, w = lab.shape[:2]
    outline = outline_of(sides)
    ends = outline.corners if outline is not None else box
    near = [i for i in range(4)
            if _inside_by((ends[i] + ends[(i + 1) % 4]) / 2, w, h) <= NEAR_EDGE * short]
    missing = [i for i, side in enumerate(sides) if side is None]
    unseen = missing or near
    if not unseen or not set(unseen) <= set(near):
        return []
    extended = _extended(box, sides, unseen[0], aspect, w, h) if len(unseen) == 1 else []
    if outline is None:
        return extended
    corners = portrait(outline.corners)
    whole = (_proportioned(corners, aspect)
             and _seen_share(corners, w, h) >= 1 - ASPECT)
    if not whole or (extended and _card_beyond(lab, outline.corners, unseen[0])):
        return extended
    backing = outline.weakest + float(np.mean(outline.support)) / 4
    return [(float(cv2.contourArea(corners)), backing, corners)]


def _extended(box: Corners, sides: list[tuple[Line, float] | None], m: int, aspect: float,
              w: int, h: int) -> list[tuple[float, float, Corners]]:
    """The card of the deck's proportions whose side m (at the photo's edge) is put where
    the other three fitted sides say: taken when that lies beyond the photo's edge, or a
    little inside it (the side then goes out to the edge, which the card reaches), and
    most of the card is inside the photo."""
    lines = [side[0] if side is not None and i != m else (box[i], box[(i + 1) % 4] - box[i])
             for i, side in enumerate(sides)]
    support = [side[1] for i, side in enumerate(sides) if side is not None and i != m]
    (po, do), (pa, da), (pb, _) = lines[(m + 2) % 4], lines[(m + 1) % 4], lines[(m + 3) % 4]
    across = _distance(pa, da, pb)  # between the two sides beside the unseen one
    normal = np.array([-do[1], do[0]], np.float32) / max(float(np.linalg.norm(do)), 1e-6)
    if np.dot(normal, box.mean(axis=0) - po) < 0:
        normal = -normal
    out = []
    for depth in (across / aspect, across * aspect):  # the unseen side a short one, or long
        lines[m] = (po + normal * np.float32(depth), do)
        met = meet(lines)
        if met is None:
            continue
        # the card reaches the edge: a side the proportions put a little inside it goes
        # out to the edge (a card a little longer than the deck's median, or tilted)
        inside = _inside_by((met[m] + met[(m + 1) % 4]) / 2, w, h)
        if inside > ASPECT * depth:
            continue
        lines[m] = (po + normal * np.float32(depth + max(inside, 0.0)), do)
        met = meet(lines)
        if met is not None and cv2.isContourConvex(met) and _seen_share(met, w, h) >= MIN_SEEN:
            out.append((float(cv2.contourArea(met)),
                        min(support) + float(np.mean(support)) / 4, portrait(met)))
    return out


def _card_beyond(lab: NDArray[np.float32], corners: Corners, m: int) -> bool:
    """Whether the strip between an outline's side m and the photo's edge looks more like
    the card's rim (just inside its other sides) than the table just outside them: the
    card goes on to the edge, and an inner line of its own was taken for its side.
    False when the strip is too thin to tell."""
    h, w = lab.shape[:2]
    centre = corners.mean(axis=0)
    along = np.linspace(0.2, 0.8, 16, dtype=np.float32)[:, None]

    def outside(i: int, offsets: NDArray[np.float32]) -> NDArray[np.float32]:
        a, b = corners[i], corners[(i + 1) % 4]
        d = (b - a) / max(float(np.linalg.norm(b - a)), 1e-6)
        normal = np.array([d[1], -d[0]], np.float32)
        if np.dot(normal, (a + b) / 2 - centre) < 0:
            normal = -normal
        points = (a + along * (b - a))[None] + offsets[:, None, None] * normal
        points = points.reshape(-1, 2)
        inside = ((points[:, 0] >= 0) & (points[:, 0] <= w - 1)
                  & (points[:, 1] >= 0) & (points[:, 1] <= h - 1))
        xy = np.round(points[inside]).astype(np.intp)
        return np.asarray(lab[xy[:, 1], xy[:, 0]], np.float32)

    strip = outside(m, np.arange(2, STRIP + 2, dtype=np.float32))
    if len(strip) < 2 * len(along):
        return False
    others = [i for i in range(4) if i != m]
    table = np.concatenate([outside(i, np.arange(4, STRIP + 4, dtype=np.float32))
                            for i in others])
    rim = np.concatenate([outside(i, -np.arange(2, STRIP + 2, dtype=np.float32))
                          for i in others])
    colour = np.median(strip, axis=0)
    return bool(np.linalg.norm(colour - np.median(rim, axis=0))
                < np.linalg.norm(colour - np.median(table, axis=0)))


def _proportioned(corners: Corners, aspect: float) -> bool:
    """Whether an outline has the deck's proportions (within ASPECT)."""
    return abs(aspect_of(corners) / aspect - 1) <= ASPECT


def aspect_of(corners: Corners) -> float:
    """A card's short sides over its long ones, from its corners (portrait)."""
    sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
    return float((sides[0] + sides[2]) / max(float(sides[1] + sides[3]), 1e-6))


def _near_edge(corners: Corners, short: float, shape: tuple[int, ...]) -> bool:
    """Whether a side of the outline lies at the photo's edge (NEAR_EDGE)."""
    h, w = shape[:2]
    return any(_inside_by((corners[i] + corners[(i + 1) % 4]) / 2, w, h) <= NEAR_EDGE * short
               for i in range(4))


def _inside_by(point: NDArray[np.float32], w: int, h: int) -> float:
    """How far a point lies inside a w x h photo from its nearest edge (< 0: outside)."""
    return float(min(point[0], point[1], w - 1 - point[0], h - 1 - point[1]))


def _distance(p: NDArray[np.float32], d: NDArray[np.float32], q: NDArray[np.float32]) -> float:
    """How far point q lies from the line through p along d."""
    d = d / max(float(np.linalg.norm(d)), 1e-6)
    r = q - p
    return float(abs(r[0] * d[1] - r[1] * d[0]))


def _seen_share(corners: Corners, w: int, h: int) -> float:
    """The share of the quadrilateral that lies inside a w x h photo."""
    frame = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], np.float32)
    inside, _ = cv2.intersectConvexConvex(corners.astype(np.float32), frame)
    return float(inside) / max(float(cv2.contourArea(corners)), 1e-6)


def _card_shaped(corners: Corners, shape: tuple[int, ...]) -> bool:
    """A convex four-sided outline of a card's proportions, clear of the photo's edges
    and not the photo itself."""
    h, w = shape[:2]
    sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
    aspects = (sides[0] / max(sides[1], 1e-6), sides[2] / max(sides[3], 1e-6))
    clear = CLEAR * min(sides)  # a card this near the photo's edge may run off it
    inside = bool((corners[:, 0] >= clear).all() and (corners[:, 0] <= w - 1 - clear).all()
                  and (corners[:, 1] >= clear).all() and (corners[:, 1] <= h - 1 - clear).all())
    return bool(inside and max(sides) >= 16
                and all(CARD_ASPECTS[0] <= a <= CARD_ASPECTS[1] for a in aspects)
                and cv2.contourArea(corners) <= MAX_COVER * h * w
                and cv2.isContourConvex(corners.astype(np.float32)))


def _candidates(photo: Image8, may_run_off: bool = False) -> list[Corners]:
    """Rough boxes where the card may lie: what differs from the table, gathered or piece
    by piece, and the regions the photo's edges close in."""
    unlike = _unlike_table(photo, may_run_off)
    boxes = []
    gathered = _gathered_box(unlike)
    if gathered is not None:
        boxes.append(gathered)
    boxes += _piece_boxes(_solid(unlike))
    enclosed = _piece_boxes(_enclosed(photo))
    return boxes + enclosed + _paired(enclosed)


def _paired(boxes: list[Corners]) -> list[Corners]:
    """The box around each two boxes that together are card-shaped (a card's field
    that its oval cuts in two halves)."""
    out = []
    for i, first in enumerate(boxes):
        for second in boxes[i + 1:]:
            (_, _), (a, b), _ = rect = cv2.minAreaRect(np.concatenate([first, second]))
            if min(a, b) and CARD_ASPECTS[0] <= min(a, b) / max(a, b) <= CARD_ASPECTS[1]:
                out.append(portrait(np.asarray(cv2.boxPoints(rect), np.float32)))
    return out


def cut_card(photo: Image8, corners: Corners, size: tuple[int, int]) -> Image8:
    """The card within `corners` as an upright (width, height) image; a part that runs
    off the photo holds the photo's edge drawn out (`seen` says where)."""
    flags = cv2.INTER_AREA if _side(corners) > size[1] else cv2.INTER_LINEAR
    return np.asarray(cv2.warpPerspective(photo, _upright(corners, size), size, flags=flags,
                                          borderMode=cv2.BORDER_REPLICATE), np.uint8)


def seen(photo_shape: tuple[int, ...], corners: Corners, size: tuple[int, int]) -> Image8:
    """Which pixels of `cut_card`'s image show the photo (255) and which lie beyond its
    edge (0)."""
    inside = np.full(photo_shape[:2], 255, np.uint8)
    return np.asarray(cv2.warpPerspective(inside, _upright(corners, size), size,
                                          flags=cv2.INTER_NEAREST), np.uint8)


def _upright(corners: Corners, size: tuple[int, int]) -> NDArray[np.float64]:
    w, h = size
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) - 0.5
    return np.asarray(cv2.getPerspectiveTransform(corners.astype(np.float32), dst))


def portrait(points: NDArray[np.floating]) -> Corners:
    """Four corners in clockwise order from the top-left of a portrait card (the first
    side is a short one)."""
    pts = np.asarray(points, np.float32).reshape(4, 2)
    centre = pts.mean(axis=0)
    pts = pts[np.argsort(np.arctan2(pts[:, 1] - centre[1], pts[:, 0] - centre[0]))]
    pts = np.roll(pts, -int(np.argmin(pts.sum(axis=1))), axis=0)
    if np.linalg.norm(pts[1] - pts[0]) > np.linalg.norm(pts[2] - pts[1]):
        pts = np.roll(pts, -1, axis=0)
    return pts


def _side(corners: Corners) -> float:
    return float(np.linalg.norm(corners[2] - corners[1]))


def _unlike_table(photo: Image8, may_run_off: bool = False) -> Image8:
    """Where the photo is unlike its own border (the table), as a 0/255 mask. When the
    card `may_run_off` the photo, a colour that meets the border along one short stretch
    only is the card's, not the table's."""
    lab = cv2.cvtColor(cv2.GaussianBlur(photo, (5, 5), 0), cv2.COLOR_BGR2Lab).astype(np.float32)
    h, w = lab.shape[:2]
    b = max(4, min(h, w) // 60)
    border = np.concatenate([lab[:b].reshape(-1, 3), lab[-b:].reshape(-1, 3),
                             lab[:, :b].reshape(-1, 3), lab[:, -b:].reshape(-1, 3)])
    # where round the border (clockwise from the top-left corner) each of its points lies
    x, y = np.arange(w), np.arange(h)[:, None]
    along = np.concatenate([np.broadcast_to(x, (b, w)).ravel(),
                            np.broadcast_to(2 * w + h - 1 - x, (b, w)).ravel(),
                            np.broadcast_to(2 * w + 2 * h - 1 - y, (h, b)).ravel(),
                            np.broadcast_to(w + y, (h, b)).ravel()])
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(0)  # k-means' start: the same photo always gives the same outline
    _, labels, centres = cv2.kmeans(np.ascontiguousarray(border, np.float32), TABLE_COLOURS,
                                    np.zeros((len(border), 1), np.int32), criteria, 3,
                                    cv2.KMEANS_PP_CENTERS)
    if may_run_off:
        table = [c for i, c in enumerate(centres)
                 if not _one_stretch(along[labels.ravel() == i] / (2 * (w + h)))]
        centres = np.array(table) if table else centres
    distance = np.full(lab.shape[:2], np.inf, np.float32)
    for centre in centres:
        distance = np.minimum(distance, np.linalg.norm(lab - centre, axis=2))
    levels = np.clip(distance * 4, 0, 255).astype(np.uint8)
    _, mask = cv2.threshold(levels, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    return np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)),
                      np.uint8)


def _one_stretch(places: NDArray[np.floating]) -> bool:
    """Whether points along the border (0..1 round it) all lie within one stretch of at
    most STRETCH of its length, as the colours of a card running off the photo do."""
    bins = np.bincount((places * BORDER_BINS).astype(np.intp) % BORDER_BINS,
                       minlength=BORDER_BINS)
    held = np.flatnonzero(bins >= max(1.0, 0.02 * len(places)))
    if not len(held):
        return False
    gaps = np.diff(np.concatenate([held, [held[0] + BORDER_BINS]]))  # round the border
    return bool(BORDER_BINS - int(gaps.max()) + 1 <= STRETCH * BORDER_BINS)


def _gathered_box(mask: Image8) -> Corners | None:
    """The smallest rotated box around the biggest central piece of the mask and the
    pieces near it."""
    h, w = mask.shape
    n, labels, stats, centres = cv2.connectedComponentsWithStats(_solid(mask))
    pieces = [i for i in range(1, n) if stats[i, cv2.CC_STAT_AREA] >= MIN_PIECE * h * w]
    if not pieces:
        return None

    def weight(i: int) -> float:
        cx, cy = centres[i]
        off_centre = abs(cx / w - 0.5) + abs(cy / h - 0.5)
        return float(stats[i, cv2.CC_STAT_AREA]) * float(1.0 - 0.5 * off_centre)

    chosen = {max(pieces, key=weight)}
    while True:
        x0 = min(stats[i, 0] for i in chosen)
        y0 = min(stats[i, 1] for i in chosen)
        x1 = max(stats[i, 0] + stats[i, 2] for i in chosen)
        y1 = max(stats[i, 1] + stats[i, 3] for i in chosen)
        mx = my = GATHER * max(x1 - x0, y1 - y0)
        near = {i for i in pieces if i not in chosen
                and stats[i, 0] <= x1 + mx and stats[i, 0] + stats[i, 2] >= x0 - mx
                and stats[i, 1] <= y1 + my and stats[i, 1] + stats[i, 3] >= y0 - my}
        if not near:
            break
        chosen |= near
    points = cv2.findNonZero(np.isin(labels, sorted(chosen)).astype(np.uint8))
    box = cv2.boxPoints(cv2.minAreaRect(cv2.convexHull(points)))
    return portrait(np.asarray(box, np.float32))


def _solid(mask: Image8) -> Image8:
    """The mask without what is thinner than a card's part could be (a check's squares)."""
    size = max(5, round(SOLID * min(mask.shape)))
    return np.asarray(cv2.morphologyEx(
        mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))),
        np.uint8)


def _enclosed(photo: Image8) -> Image8:
    """The regions the photo's edges close in, as a 0/255 mask (a card's field, its
    whole face), whatever their colour."""
    grey = cv2.GaussianBlur(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), (5, 5), 0)
    high, _ = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    edges = cv2.Canny(grey, 0.4 * high, high)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    return np.asarray(cv2.bitwise_not(edges), np.uint8)


def _piece_boxes(mask: Image8) -> list[Corners]:
    """The rotated box around each large outline in the mask whose hull nearly fills
    that box (a card's margin and oval, a field cut by the oval), largest first."""
    h, w = mask.shape
    contours, _ = cv2.findContours(mask, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    sized = [(cv2.contourArea(c), c) for c in contours]
    sized = sorted((s for s in sized if MIN_CARD * h * w <= s[0] <= MAX_COVER * h * w),
                   key=lambda s: -s[0])
    boxes = []
    for _, contour in sized[:PIECES]:
        rect = cv2.minAreaRect(contour)
        if cv2.contourArea(cv2.convexHull(contour)) >= FILLED * rect[1][0] * rect[1][1]:
            boxes.append(portrait(np.asarray(cv2.boxPoints(rect), np.float32)))
    return boxes


def _framed(photo: Image8) -> tuple[int, int, int, int]:
    """The part of the photo inside any uniform bars along its sides (a phone's
    letterbox), as x0, y0, x1, y1: a bar's straight edge is not a card's side."""
    grey = cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY).astype(np.float32)

    def bars(spread: NDArray[np.floating]) -> int:
        uniform = spread < BAR_SPREAD
        count = int(np.argmin(uniform)) if not uniform.all() else len(uniform)
        return count + BAR_MARGIN if count else 0

    columns, rows = grey.std(axis=0), grey.std(axis=1)
    h, w = grey.shape
    x0, x1 = bars(columns), w - bars(columns[::-1])
    y0, y1 = bars(rows), h - bars(rows[::-1])
    if x1 - x0 < w // 4 or y1 - y0 < h // 4:
        return 0, 0, w, h
    return x0, y0, x1, y1
