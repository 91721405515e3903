"""Enrolment: the table's own cards, laid out on the mat in a grid, found and cut upright.

A commercial deck is not our print-and-play size, so nothing here assumes a card size:
cards are found by their outline alone (a bright or coloured rectangle of 40-100 mm
sides on the mat, or pieces that make one: a face whose print meets a rim of the mat's
own colour shows in pieces), measured in mm through the mat's calibration; the deck's own size
(and rims) is measured by vision.deck_measure, as the benchmark measures it. Each card
is cut from the frame at as many pixels per mm as the camera gives it (at most
ENROL_PX_PER_MM), and the cuts are given to the faces the table was asked to lay out by
their place in the grid: row by row, from the mat's top edge, left to right.

    >>> found = find_laid_cards(frame, calibration)                 # doctest: +SKIP
    >>> crops = [cut_card(frame, calibration, card, size) for card in found.cards]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration, Frame
from vision.card_photo import Corners, find_card, find_cards
from vision.card_photo import cut_card as cut_photo_card
from vision.cards import CardQuad, view_mask, warp_patch
from vision.identify import ViewRanges, camera_view
from vision.mat import MatSpec, render_mat

Image8 = NDArray[np.uint8]

FIND_PX_PER_MM = 2.0  # the top-down view cards are found and measured in
LIGHT_MM = 40.0  # the scale (Gaussian sigma) over which the mat's light may change
SIDE_RANGE_MM = (15.0, 135.0)  # a card's or a tile's sides, whatever the deck
ASPECT_RANGE = (1.2, 1.9)  # long side over short side
MIN_FILL = 0.88  # blob area over its min-area rectangle: a card, not a hand
MIN_BLOB_MM2 = 150.0  # smaller blobs are specks, not things on the mat (a tile: 600)
JOIN_MM = 3.0  # pieces of one card lie this close at most (the line where print meets rim)
PRINT_DIFF = 30.0  # grey levels (the print's) a pixel differs from the mat's print: something
PRINT_CHROMA = 24.0  # or this much in colour alone (channels apart from their mean change)
PRINT_BLUR_MM = 0.6  # the camera's softness on the mat's print
LIGHT_FIT_TOL = (0.5, 0.3, 0.2, 0.15)  # log ratio off the light's fit: mat, fit after fit
LIGHT_GROW_TOL = 0.08  # log ratio a mat pixel is off its neighbours' light at most
LIGHT_GROW_STEPS = 60  # steps of growing the light out over the mat (4 mm a step)
EDGE_STEP_LOG = 0.3  # a step in the log of view over print this sharp is an edge
ENROL_PX_PER_MM = 7.0  # crops are cut at most this fine (more adds nothing but bytes)
SIZE_TOL = 0.045  # a card this much off the deck's median side is of another deck
BORDER_MM = (0.8, 2.4)  # the band inside a card's outline whose colour a deck shares
BORDER_TOL = 45.0  # Lab distance from the deck's border colour that another deck shows
BLUR_PX = 3.4  # an outline's step wider than this (pixels): the frame is blurred
STILL_MM = 2.0  # a card moved less than this between two frames lies still
GRID_COLUMNS = 4
LABEL_SCALES = (0.45, 0.4, 0.35)  # the contact sheet's type sizes (OpenCV's font scale)
GRID_PITCH_MM = (105.0, 130.0)  # where the page draws the grid's places (centre to centre)
PHOTO_CROPPED_SHARE = 0.6  # a card outline this large (or none): the photo is already
# cropped to the card (inside a cropped card, its printed field is such an outline)


@dataclass(frozen=True)
class LaidCard:
    """A card found on the mat: its outline as measured (mat mm) and its size."""

    center_mm: tuple[float, float]
    long_axis: tuple[float, float]  # unit vector along its long side, pointing down the mat
    size_mm: tuple[float, float]  # (short, long) side as measured
    edge_mm: float = 0.0  # how wide its outline's step is: the blur (mm)

    def quad(self, card_mm: tuple[float, float] | None = None) -> CardQuad:
        """Its outline at `card_mm` (default: as measured), clockwise from its top-left."""
        return CardQuad.from_axes(self.center_mm, self.long_axis, card_mm or self.size_mm)


@dataclass(frozen=True)
class LaidOut:
    """What lies on the mat: the cards, and how much else (mm^2 of blobs no card explains:
    a hand, two cards touching)."""

    cards: list[LaidCard]
    other_mm2: float


def find_laid_cards(frame: Frame, calibration: Calibration,
                    px_per_mm: float = FIND_PX_PER_MM) -> LaidOut:
    """The cards lying apart on the mat, whatever their size (SIDE_RANGE_MM)."""
    top = calibration.warp_mat(frame, px_per_mm)
    valid = view_mask(calibration, px_per_mm)
    grey, chroma = off_print(top, calibration, px_per_mm, valid)
    laid = np.asarray(((grey > PRINT_DIFF) | (chroma > PRINT_CHROMA)) & (valid > 0), np.uint8)
    # lines printed on the mat (the play square) are thin: they must not join two cards
    thin = max(3, 2 * round(1.2 * px_per_mm) + 1)
    mask = np.asarray(cv2.morphologyEx(laid * 255, cv2.MORPH_OPEN,
                                       np.ones((thin, thin), np.uint8)), np.uint8)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    cards: list[LaidCard] = []
    parts: list[tuple[NDArray[np.int32], float]] = []  # blobs no card alone: (contour, mm^2)
    for contour in contours:
        area = cv2.contourArea(contour) / px_per_mm**2
        card = _as_card(contour.reshape(-1, 2).astype(np.float32) / px_per_mm, area)
        if card is not None and area >= MIN_BLOB_MM2:
            cards.append(_on_edges(grey, px_per_mm, card))
        else:
            parts.append((np.asarray(contour, np.int32), area))
    joined, other = _joined_parts(parts, grey, px_per_mm, deck_size(cards) if cards else None)
    return LaidOut(cards=cards + joined, other_mm2=other)


def _joined_parts(parts: Sequence[tuple[NDArray[np.int32], float]], grey: NDArray[np.float32],
                  px_per_mm: float, card_mm: tuple[float, float] | None
                  ) -> tuple[list[LaidCard], float]:
    """The cards that lie in pieces (where a face's print meets a rim of the mat's own
    colour, the card is cut in two), and the mm^2 of blobs left that no card explains.
    Pieces JOIN_MM apart at most are one group; a group is a card if together they make
    one (`_as_card`, its fill counted with the joins between the pieces filled) and, when
    whole cards lie beside it, of their size (`card_mm`). A card found whole is never
    joined with anything: its outline stays as it was found."""
    drawn = np.zeros(grey.shape, np.int32)
    for k, (contour, _) in enumerate(parts):
        cv2.drawContours(drawn, [contour], 0, k + 1, cv2.FILLED)
    reach = 2 * round(JOIN_MM * px_per_mm / 2) + 1
    near = np.ones((reach, reach), np.uint8)
    _, groups = cv2.connectedComponents(cv2.dilate((drawn > 0).astype(np.uint8), near))
    members: dict[int, list[int]] = {}
    for k, (contour, _) in enumerate(parts):
        x, y = contour[0, 0]
        members.setdefault(int(groups[y, x]), []).append(k)
    cards: list[LaidCard] = []
    other = 0.0
    for group in members.values():
        pieces = [k for k in group if parts[k][1] >= MIN_BLOB_MM2]
        if not pieces:
            continue  # specks alone
        card = _joined(drawn, [parts[k][0] for k in group], np.array(group) + 1, near,
                       px_per_mm) if len(group) > 1 else None
        if card is not None:
            card = _on_edges(grey, px_per_mm, card)
        if card is not None and (card_mm is None or not off_size(card, card_mm)):
            cards.append(card)
        else:
            other += sum(parts[k][1] for k in pieces)
    return cards, other


def _joined(drawn: NDArray[np.int32], contours: Sequence[NDArray[np.int32]],
            labels: NDArray[np.int64], near: NDArray[np.uint8], px_per_mm: float
            ) -> LaidCard | None:
    """The card that these blobs (`labels` in `drawn`) make together, if they make one."""
    points = np.concatenate([c.reshape(-1, 2) for c in contours])
    x, y, w, h = cv2.boundingRect(points)
    pad = near.shape[0]
    x0, y0 = max(0, x - pad), max(0, y - pad)
    window = drawn[y0:y + h + pad, x0:x + w + pad]
    filled = cv2.morphologyEx(np.isin(window, labels).astype(np.uint8), cv2.MORPH_CLOSE, near)
    return _as_card(points.astype(np.float32) / px_per_mm,
                    float(np.count_nonzero(filled)) / px_per_mm**2)


def off_print(top: Frame, calibration: Calibration, px_per_mm: float, valid: NDArray[np.uint8]
              ) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
    """How far each pixel of a top-down view is from the mat as printed, in the print's
    grey levels: in any channel, and in colour alone (channels apart from their mean).
    The mat's print is known (vision.mat.render_mat), so its lines and labels are no
    card; the light is the view over the print where the view looks like mat (`mat_light`),
    so a lamp's fall-off or glare is no card, and a dim room's cards differ from the mat
    as much as a bright one's. Off the view (`valid`), nothing differs."""
    printed = printed_mat(calibration.mat, px_per_mm)
    view = top.astype(np.float32)
    diff = view / mat_light(view, printed, valid, px_per_mm) - printed
    diff[valid == 0] = 0.0
    grey = np.abs(diff).max(axis=2)
    chroma = np.abs(diff - diff.mean(axis=2, keepdims=True)).max(axis=2)
    return np.asarray(grey, np.float32), np.asarray(chroma, np.float32)


@lru_cache(maxsize=4)
def printed_mat(mat: MatSpec, px_per_mm: float) -> NDArray[np.float32]:
    """The mat as printed, as soft as a camera sees it (its weave is finer than the view)."""
    image = render_mat(mat, px_per_mm).astype(np.float32)
    blurred_print = cv2.GaussianBlur(image, (0, 0), PRINT_BLUR_MM * px_per_mm)
    return np.maximum(np.asarray(blurred_print, np.float32), 1.0)


def mat_light(view: NDArray[np.float32], printed: NDArray[np.float32], valid: NDArray[np.uint8],
              px_per_mm: float) -> NDArray[np.float32]:
    """The light on the mat (per pixel and channel: the view over the print). Found on an
    eighth of the view: a smooth surface through the log ratio, refitted on the pixels
    close to it (cards are far from it, however many); then grown out from those pixels
    to their neighbours that continue it, never across an edge (a card's outline), so a
    glare's smooth ramp is light and a card is not; under the cards, the light around."""
    h, w = view.shape[:2]
    small = (max(1, w // 8), max(1, h // 8))
    full_ratio = np.log(np.maximum(view, 1.0) / printed)
    ratio = np.asarray(cv2.resize(full_ratio, small, interpolation=cv2.INTER_AREA), np.float32)
    seen = cv2.resize(valid, small, interpolation=cv2.INTER_NEAREST) > 0
    smooth = cv2.GaussianBlur(full_ratio.mean(axis=2), (0, 0), 1.0)
    steps = cv2.morphologyEx(smooth, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    edges = cv2.dilate((steps > EDGE_STEP_LOG).astype(np.uint8), np.ones((9, 9), np.uint8))
    open_mat = seen & (cv2.resize(edges, small, interpolation=cv2.INTER_AREA) == 0)
    ys, xs = np.mgrid[0:small[1], 0:small[0]].astype(np.float64)
    xs, ys = xs / small[0] - 0.5, ys / small[1] - 0.5
    terms = np.stack([np.ones_like(xs), xs, ys, xs * xs, xs * ys, ys * ys], axis=-1)
    fit = np.broadcast_to(np.median(ratio[seen], axis=0) if seen.any() else np.zeros(3),
                          ratio.shape).astype(np.float64)
    bare = seen
    for tolerance in LIGHT_FIT_TOL:
        bare = seen & (np.abs(ratio - fit).max(axis=2) < tolerance)
        if bare.sum() < 4 * terms.shape[-1]:
            break
        coef, *_ = np.linalg.lstsq(terms[bare], ratio[bare].astype(np.float64), rcond=None)
        fit = terms @ coef
    bare &= open_mat
    near = np.ones((3, 3), np.float32)
    for _ in range(LIGHT_GROW_STEPS):
        weight = cv2.filter2D(bare.astype(np.float32), -1, near)
        around = cv2.filter2D(ratio * bare[..., None], -1, near) / np.maximum(weight, 1)[..., None]
        grown = open_mat & (weight > 0) & (np.abs(ratio - around).max(axis=2) < LIGHT_GROW_TOL)
        if not (grown & ~bare).any():
            break
        bare |= grown
    sigma = LIGHT_MM * px_per_mm / 8
    weight = cv2.GaussianBlur(bare.astype(np.float32), (0, 0), sigma)
    local = cv2.GaussianBlur(ratio * bare[..., None], (0, 0), sigma)
    light = np.where((weight > 0.02)[..., None], local / np.maximum(weight, 1e-3)[..., None], fit)
    fine = cv2.GaussianBlur(bare.astype(np.float32), (0, 0), 1.0)
    near_light = cv2.GaussianBlur(ratio * bare[..., None], (0, 0), 1.0)
    light = np.where((fine > 0.3)[..., None], near_light / np.maximum(fine, 1e-3)[..., None],
                     light)
    light = np.exp(light).astype(np.float32)
    return np.asarray(cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)


def _as_card(points_mm: NDArray[np.float32], area_mm2: float) -> LaidCard | None:
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(points_mm)
    short, long = sorted((rw, rh))
    if short * long <= 0 or area_mm2 / (short * long) < MIN_FILL:
        return None
    low, high = SIDE_RANGE_MM
    if not (low <= short and long <= high and ASPECT_RANGE[0] <= long / short <= ASPECT_RANGE[1]):
        return None
    theta = math.radians(angle)
    axis = (math.cos(theta), math.sin(theta)) if rw >= rh else (-math.sin(theta), math.cos(theta))
    if axis[1] < 0 or (axis[1] == 0 and axis[0] < 0):
        axis = (-axis[0], -axis[1])
    return LaidCard(center_mm=(float(cx), float(cy)), long_axis=axis,
                    size_mm=(float(short), float(long)))


EDGE_SEARCH_MM = 4.0  # how far in and out of a blob's side the card's edge is looked for
EDGE_STEP_MM = 0.25
EDGE_WINDOW_MM = 1.5  # the rim's fall is looked for this far inside where the mat begins


def _on_edges(grey: NDArray[np.float32], px_per_mm: float, card: LaidCard) -> LaidCard:
    """The card with each side moved onto the card's outer edge: along the side, where the
    view's difference from the mat (`off_print`) across it last steps down from the card
    to the mat (the mask's outline lies where the blurred edge crosses a threshold, a
    little out; a face inside a margin may step down too, further in; a dark rim steps
    down as a white one does). Also how wide (mm) that step is: the blur."""
    (cx, cy), (ax, ay) = card.center_mm, card.long_axis
    across = np.array([ay, -ax])  # along the short side
    down = np.array([ax, ay])
    half = np.array(card.size_mm) / 2
    offsets = np.arange(-EDGE_SEARCH_MM, EDGE_SEARCH_MM + 1e-9, EDGE_STEP_MM)
    along = np.linspace(-0.8, 0.8, 17)
    moves, widths = [], []
    for normal, tangent, reach, length in ((across, down, half[0], half[1]),
                                           (-across, down, half[0], half[1]),
                                           (down, across, half[1], half[0]),
                                           (-down, across, half[1], half[0])):
        base = np.array([cx, cy]) + normal * reach
        points = (base[None, None, :] + tangent[None, None, :] * (along[None, :, None] * length)
                  + normal[None, None, :] * offsets[:, None, None])
        maps = (points * px_per_mm).astype(np.float32)
        samples = cv2.remap(grey, maps[..., 0], maps[..., 1], cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE)  # (offset, sample): in to out
        found = [_edge(np.asarray(samples[:, j], np.float32)) for j in range(samples.shape[1])]
        seen = [f for f in found if f is not None]
        if len(seen) < len(found) // 2:
            moves.append(0.0)
            continue
        moves.append(float(np.median([offsets[0] + k * EDGE_STEP_MM for k, _ in seen])))
        widths.append(float(np.median([w for _, w in seen])) * EDGE_STEP_MM)
    right, left, bottom, top = moves
    short = card.size_mm[0] + right + left
    long = card.size_mm[1] + bottom + top
    centre = (np.array([cx, cy]) + across * (right - left) / 2 + down * (bottom - top) / 2)
    edge = float(np.median(widths)) if widths else float("inf")
    if not (SIDE_RANGE_MM[0] <= short <= long <= SIDE_RANGE_MM[1]):
        return replace(card, edge_mm=edge)
    return LaidCard(center_mm=(float(centre[0]), float(centre[1])), long_axis=card.long_axis,
                    size_mm=(float(short), float(long)), edge_mm=edge)


def _edge(profile: NDArray[np.float32]) -> tuple[float, float] | None:
    """Where (in steps, between samples) a profile of the difference from the mat running
    from inside a card out to the mat falls onto the mat for good (the steepest fall just
    inside where it stays below PRINT_DIFF: a rim's, not a face's inside the rim), and how
    wide (steps) that fall is: its height over its steepest slope. None if it has no
    clear fall."""
    smooth = np.convolve(profile, np.ones(3) / 3, mode="same")
    fall = smooth[:-1] - smooth[1:]
    high = np.flatnonzero(smooth[1:-1] >= PRINT_DIFF)
    if len(high) == 0:
        return None
    out = int(high[-1]) + 2  # the first sample of the mat for good
    if out >= len(smooth) - 1:
        return None
    reach = round(EDGE_WINDOW_MM / EDGE_STEP_MM)
    low = max(1, out - 1 - reach)
    window = fall[low:min(len(fall) - 1, out + reach // 2)]
    if len(window) == 0 or float(window.max()) < 4.0:
        return None
    k = low + int(np.argmax(window))
    # the fall's extent: out to where it has flattened on both sides
    a, b = k, k
    while a > 0 and fall[a - 1] > 0.2 * fall[k]:
        a -= 1
    while b + 1 < len(fall) and fall[b + 1] > 0.2 * fall[k]:
        b += 1
    height = float(smooth[a] - smooth[b + 1])
    return k + 0.5, height / max(float(fall[k]), 1e-6)


def deck_size(cards: Sequence[LaidCard]) -> tuple[float, float]:
    """The median size of the cards found (short, long mm): what another card of the
    deck is compared with (`off_size`), outlined the same way."""
    if not cards:
        raise ValueError("no cards measured")
    sizes = np.array([c.size_mm for c in cards])
    return (round(float(np.median(sizes[:, 0])), 1), round(float(np.median(sizes[:, 1])), 1))


def off_size(card: LaidCard, card_mm: tuple[float, float]) -> bool:
    """Whether a card is not of the deck's size (more than SIZE_TOL off on a side)."""
    return any(abs(seen - want) > SIZE_TOL * want
               for seen, want in zip(card.size_mm, card_mm, strict=True))


def seen_px_per_mm(calibration: Calibration, card: LaidCard, scale: float = 1.0) -> float:
    """How many frame pixels per mm the camera gives this card (`scale`: of the image cut
    from, relative to the frame calibrated on)."""
    corners = calibration.mat_to_image(np.array(card.quad().corners_mm)) * scale
    sides = np.linalg.norm(corners - np.roll(corners, -1, axis=0), axis=1)
    short, long = card.size_mm
    return float((sides[0] + sides[2]) / (2 * short) + (sides[1] + sides[3]) / (2 * long)) / 2


def cut_card(image: Frame, calibration: Calibration, card: LaidCard,
             card_mm: tuple[float, float], scale: float = 1.0,
             max_px_per_mm: float = ENROL_PX_PER_MM) -> Image8:
    """The card cut upright (as it lies on the mat, its top towards the mat's top) at the
    deck's size, at the camera's own resolution there (at most max_px_per_mm). `image`
    may be a finer picture of the same instant than the one calibrated on (`scale` times
    its width)."""
    ppm = min(max_px_per_mm, max(1.0, seen_px_per_mm(calibration, card, scale)))
    corners = calibration.mat_to_image(np.array(card.quad(card_mm).corners_mm)) * scale
    size = (round(card_mm[0] * ppm), round(card_mm[1] * ppm))
    return warp_patch(image, corners, size)


def blurred(card: LaidCard, px_per_mm: float) -> bool:
    """Whether the card's outline is too soft to enrol from (a moving hand, a camera out
    of focus): its step wider than BLUR_PX pixels of the frame (`px_per_mm` there), or of
    the view it was measured in if that is coarser."""
    return card.edge_mm * min(px_per_mm, FIND_PX_PER_MM) > BLUR_PX


#: an enrolled view as play may see the card later (play_view): cut up to 2 % and 1.5 degrees
#: off its outline, 1.2 px softer at most, one view in six under a glare of 0.2 to 0.6, a
#: cast of 15 % a channel, gamma 0.85 to 1.2, noise of 1.5 % at most, JPEG 60 to 95 for
#: half the views: the ranges of the held-out play scenes of benchmarks/vision_bench.py
PLAY_VIEWS = ViewRanges(turn=1.5, scale=(1 - 0.02, 1 + 0.02), shift=0.02, surround=(60, 140),
                        blur=1.2, glare=(1 / 6, (0.1, 0.25), (0.2, 0.6)), gamma=(0.85, 1.2),
                        cast=(1 - 0.15, 1 + 0.15), brightness=(0.6, 1.2), fog=0.0,
                        noise=0.015, jpeg=60)


def play_view(view: Image8, rng: np.random.Generator) -> Image8:
    """An enrolled view as play may see the card later (PLAY_VIEWS): cut a little off its
    outline, a little softer, in another light, now and then under a glare, noisy. Not the
    harsher views an identifier is trained on (vision.identify.augment: a glare on the card
    in two views of five, twice the blur): tried against an enrolled deck, those left 38 %
    of a pale UNO deck's views unknown (its 0s and 8s nearly all) where play left 8 of its
    566 cards so (docs/measurements.md)."""
    return camera_view(view, rng, PLAY_VIEWS)


def border_colour(crop: Image8) -> NDArray[np.float64]:
    """The CIE Lab colour of the band just inside a card's outline (BORDER_MM), which the
    faces of one deck share (a white margin, a black frame)."""
    h, w = crop.shape[:2]
    ppm = w / 60.0  # near enough: the band's width, not the card size, matters
    outer, inner = (max(1, round(mm * ppm)) for mm in BORDER_MM)
    band = np.zeros((h, w), np.uint8)
    band[outer:h - outer, outer:w - outer] = 255
    band[inner:h - inner, inner:w - inner] = 0
    lab = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB).astype(np.float64)
    return np.asarray(np.median(lab[band > 0], axis=0), np.float64)


def odd_borders(crops: Sequence[Image8],
                known: Sequence[NDArray[np.float64]] = ()) -> list[int]:
    """Indices of the crops whose border colour is far from the others' median, and from
    every border in `known` (border_colour of faces already kept as this deck's): a card
    of another deck's design among them."""
    if len(crops) < 3:
        return []
    colours = np.array([border_colour(c) for c in crops])
    median = np.median(colours, axis=0)
    far = np.linalg.norm(colours - median, axis=1) > BORDER_TOL
    if len(known):
        near = np.linalg.norm(colours[:, None] - np.array(known)[None], axis=2) <= BORDER_TOL
        far &= ~near.any(axis=1)
    return np.flatnonzero(far).tolist()


def moved(before: Sequence[LaidCard], after: Sequence[LaidCard]) -> bool:
    """Whether the layout changed between two frames (a card added, taken or moved): each
    card has one within STILL_MM in the other frame, both ways (cards lie a card apart,
    so that pairs them one to one). Centres sorted and paired in order did not: cards laid
    in a column lie at nearly the same x, and a tenth of a millimetre's jitter swapped
    their order, so a still layout seemed moved 125 mm."""
    if len(before) != len(after):
        return True
    return not (_each_near(before, after) and _each_near(after, before))


def _each_near(cards: Sequence[LaidCard], others: Sequence[LaidCard]) -> bool:
    return all(any(math.dist(card.center_mm, other.center_mm) <= STILL_MM for other in others)
               for card in cards)


def grid_rows(count: int, columns: int = GRID_COLUMNS) -> list[int]:
    """How many cards each row of a layout of `count` holds: full rows, then the rest."""
    return [min(columns, count - start) for start in range(0, count, columns)]


def grid_places_mm(center_mm: tuple[float, float], count: int,
                   columns: int = GRID_COLUMNS) -> list[tuple[float, float]]:
    """Where the page draws the places of a layout of `count` cards (mat mm), row by row."""
    rows = grid_rows(count, columns)
    pitch_x, pitch_y = GRID_PITCH_MM
    places: list[tuple[float, float]] = []
    for r, n in enumerate(rows):
        y = center_mm[1] + (r - (len(rows) - 1) / 2) * pitch_y
        places.extend((center_mm[0] + (c - (n - 1) / 2) * pitch_x, y) for c in range(n))
    return places


def in_grid_order(cards: Sequence[LaidCard], columns: int = GRID_COLUMNS) -> list[LaidCard]:
    """The cards in reading order of the grid they lie in: rows from the mat's top (split
    where the cards' centres leave the largest gaps), each left to right."""
    ordered = sorted(cards, key=lambda c: c.center_mm[1])
    rows = len(grid_rows(len(ordered), columns))
    if rows > 1:
        gaps = np.diff([c.center_mm[1] for c in ordered])
        cuts = sorted(np.argsort(-gaps, kind="stable")[: rows - 1].tolist())
        bounds = [0] + [k + 1 for k in cuts] + [len(ordered)]
        groups = [ordered[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]
    else:
        groups = [ordered]
    return [card for group in groups for card in sorted(group, key=lambda c: c.center_mm[0])]


def contact_sheet(crops: Sequence[Image8], labels: Sequence[str], columns: int = GRID_COLUMNS,
                  card_px: tuple[int, int] = (112, 174)) -> Image8:
    """The crops side by side in the layout's grid, each numbered and named below, for the
    table to check at a glance."""
    if not crops:
        return np.full((40, 200, 3), 255, np.uint8)
    w, h = card_px
    label_h, pad = 22, 8
    rows = math.ceil(len(crops) / columns)
    cols = min(columns, len(crops))
    sheet = np.full((rows * (h + label_h + pad) + pad, cols * (w + pad) + pad, 3), 255, np.uint8)
    for i, (crop, label) in enumerate(zip(crops, labels, strict=True)):
        r, c = divmod(i, columns)
        x, y = pad + c * (w + pad), pad + r * (h + label_h + pad)
        sheet[y:y + h, x:x + w] = cv2.resize(crop, (w, h), interpolation=cv2.INTER_AREA)
        cv2.rectangle(sheet, (x - 1, y - 1), (x + w, y + h), (80, 80, 80), 1)
        text, scale = _fitted(f"{i + 1} {label}", w)
        cv2.putText(sheet, text, (x, y + h + 16), cv2.FONT_HERSHEY_SIMPLEX, scale,
                    (20, 20, 20), 1, cv2.LINE_AA)
    return sheet


def _fitted(text: str, width: int) -> tuple[str, float]:
    """The label and the largest of the contact sheet's type sizes it fits `width` pixels
    at ("1 1st: yellow-reverse" did not at the first, and cut to 18 letters read as
    yellow-reve); cut short only where even the smallest does not fit."""
    for scale in LABEL_SCALES:
        if cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)[0][0] <= width:
            return text, scale
    smallest = LABEL_SCALES[-1]
    while text and cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, smallest, 1)[0][0] > width:
        text = text[:-1]
    return text, smallest


def find_card_in_photo(photo: Image8) -> Image8:
    """The card in an ordinary photo (a card on a table, not cropped), cut out upright
    (portrait) at the photo's own resolution (`vision.card_photo` finds it). The photo
    itself if it is already cropped to the card (the outline found is most of it) or if
    no card outline shows in it."""
    return _cut_out(photo, find_card(photo))


def cards_in_photos(photos: Sequence[Image8]) -> list[Image8]:
    """The card in each ordinary photo of one deck's faces, cut out as
    `find_card_in_photo` does; a card touching or running off its photo's edge is found
    too, once the others have shown the deck's proportions."""
    return [_cut_out(photo, corners)
            for photo, corners in zip(photos, find_cards(photos), strict=True)]


def _cut_out(photo: Image8, corners: Corners | None) -> Image8:
    h, w = photo.shape[:2]
    if corners is None or cv2.contourArea(corners) >= PHOTO_CROPPED_SHARE * h * w:
        return photo if h >= w else np.ascontiguousarray(np.rot90(photo))
    across = float(np.linalg.norm(corners[1] - corners[0]))
    down = float(np.linalg.norm(corners[2] - corners[1]))
    return cut_photo_card(photo, corners, (max(8, round(across)), max(8, round(down))))
