"""A card in an ordinary photo: where it lies, cut out upright.

A table that enrols its deck from phone photos takes one card at a time on whatever
table it has (wood, paper, cloth). The card is told from the table by colour: the table
is what the photo's border shows, the card is the biggest central thing unlike it (its
pieces gathered, since a card's white parts may look like a white table). The outline of
that is then pushed out, side by side, to the outermost straight edge just beyond it: a
card's white margin on a white table still casts a thin edge.

    >>> corners = find_card(photo)                     # doctest: +SKIP
    >>> upright = cut_card(photo, corners, (224, 348)) # doctest: +SKIP
"""

from __future__ import annotations

import cv2
import numpy as np
from numpy.typing import NDArray

Image8 = NDArray[np.uint8]
Corners = NDArray[np.float32]  # four (x, y) image points, clockwise from the card's top-left

TABLE_COLOURS = 10  # clusters of the photo border's colours that make "the table"
MIN_PIECE = 0.003  # share of the photo a piece of the card covers at least
SOLID = 0.04  # share of the photo's side: what is thinner than this is not part of a card
GATHER = 0.2  # pieces this close (share of the longer side of their box) make one card
EDGE_SEARCH = (-0.04, 0.12)  # how far (share of the card's short side) a side may move
EDGE_SHARE = 0.4  # an edge at least this strong (share of the strongest) may be the outline
MAX_COVER = 0.85  # share of the photo beyond which a "card" is the table itself
CARD_ASPECTS = (0.5, 0.85)  # short side over long side of anything taken for a card


def find_card(photo: Image8) -> Corners | None:
    """The corners of the card in a photo of one card, portrait, clockwise from top-left;
    None when nothing card-shaped stands out from the table."""
    if photo.ndim != 3 or min(photo.shape[:2]) < 32:
        return None
    box = _gathered_box(_unlike_table(photo))
    if box is None or cv2.contourArea(box) > MAX_COVER * photo.shape[0] * photo.shape[1]:
        return None  # nothing stands out, or all of it does: the card is not told apart
    corners = _push_out(photo, box)
    sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
    short, long_ = min(sides[0], sides[1]), max(sides[0], sides[1])
    if long_ < 16 or not CARD_ASPECTS[0] <= short / long_ <= CARD_ASPECTS[1]:
        return None
    return corners


def cut_card(photo: Image8, corners: Corners, size: tuple[int, int]) -> Image8:
    """The card within `corners` as an upright (width, height) image."""
    w, h = size
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) - 0.5
    m = cv2.getPerspectiveTransform(corners.astype(np.float32), dst)
    flags = cv2.INTER_AREA if _side(corners) > h else cv2.INTER_LINEAR
    return np.asarray(cv2.warpPerspective(photo, m, size, flags=flags), np.uint8)


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


def _unlike_table(photo: Image8) -> Image8:
    """Where the photo is unlike its own border (the table), as a 0/255 mask."""
    lab = cv2.cvtColor(cv2.GaussianBlur(photo, (5, 5), 0), cv2.COLOR_BGR2Lab).astype(np.float32)
    b = max(4, min(lab.shape[:2]) // 60)
    border = np.concatenate([lab[:b].reshape(-1, 3), lab[-b:].reshape(-1, 3),
                             lab[:, :b].reshape(-1, 3), lab[:, -b:].reshape(-1, 3)])
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    cv2.setRNGSeed(0)  # k-means' start: the same photo always gives the same outline
    _, _, centres = cv2.kmeans(np.ascontiguousarray(border, np.float32), TABLE_COLOURS,
                               np.zeros((len(border), 1), np.int32), criteria, 3,
                               cv2.KMEANS_PP_CENTERS)
    distance = np.full(lab.shape[:2], np.inf, np.float32)
    for centre in centres:
        distance = np.minimum(distance, np.linalg.norm(lab - centre, axis=2))
    levels = np.clip(distance * 4, 0, 255).astype(np.uint8)
    _, mask = cv2.threshold(levels, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((9, 9), np.uint8))
    return np.asarray(cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8)),
                      np.uint8)


def _gathered_box(mask: Image8) -> Corners | None:
    """The smallest rotated box around the biggest central piece of the mask and the
    pieces near it."""
    h, w = mask.shape
    size = max(5, round(SOLID * min(h, w)))  # a checked cloth's squares go, a card stays
    solid = cv2.morphologyEx(mask, cv2.MORPH_OPEN,
                             cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
    n, labels, stats, centres = cv2.connectedComponentsWithStats(solid)
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


def _push_out(photo: Image8, box: Corners) -> Corners:
    """Each side of the box moved to the outermost strong straight edge near it."""
    grey = cv2.GaussianBlur(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3) / 8
    h, w = grey.shape
    centre = box.mean(axis=0)
    short = min(np.linalg.norm(box[1] - box[0]), np.linalg.norm(box[2] - box[1]))
    offsets = np.arange(EDGE_SEARCH[0] * short, EDGE_SEARCH[1] * short, 0.5)
    along = np.linspace(0.15, 0.85, 40)
    lines = []
    for i in range(4):
        a, b = box[i], box[(i + 1) % 4]
        direction = (b - a) / np.linalg.norm(b - a)
        normal = np.array([direction[1], -direction[0]])
        if np.dot(normal, (a + b) / 2 - centre) < 0:
            normal = -normal
        base = a[None] + along[:, None] * (b - a)[None]
        strength = np.zeros(len(offsets))
        for j, offset in enumerate(offsets):
            p = base + offset * normal[None]
            inside = (p[:, 0] >= 0) & (p[:, 0] < w - 1) & (p[:, 1] >= 0) & (p[:, 1] < h - 1)
            if inside.mean() < 0.6:
                continue
            xs, ys = p[inside, 0].astype(np.float32)[None], p[inside, 1].astype(np.float32)[None]
            across = (cv2.remap(gx, xs, ys, cv2.INTER_LINEAR)[0] * normal[0]
                      + cv2.remap(gy, xs, ys, cv2.INTER_LINEAR)[0] * normal[1])
            strength[j] = float(np.median(np.abs(across)))
        shift = 0.0
        if strength.max() > 2.0:
            floor = max(EDGE_SHARE * strength.max(), 2.0)
            peaks = [j for j in range(1, len(offsets) - 1) if strength[j] >= floor
                     and strength[j] >= strength[j - 1] and strength[j] >= strength[j + 1]]
            shift = float(offsets[peaks[-1]] if peaks else offsets[int(strength.argmax())])
        lines.append((a + shift * normal, direction))
    corners = []
    for i in range(4):
        (p1, d1), (p2, d2) = lines[i - 1], lines[i]
        t = np.linalg.solve(np.array([d1, -d2]).T, p2 - p1)
        corners.append(p1 + t[0] * d1)
    return portrait(np.array(corners))
