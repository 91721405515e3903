"""The deck's card size and rims, measured from the frames of its enrolment.

`tableref enrol` and the benchmark both measure a deck here, so the benchmark's figures
are the product's. Seen from above, every thing that changed from the bare mat as lit (a
shadow, which only darkens the mat evenly, left out) is a card (the bare mat: a frame of
the empty mat where there is one, as the benchmark renders; else, as `tableref enrol`
sees none, estimated from the frame itself where it looks like the mat): the smallest rectangle
around it, its sides moved onto the strongest edges near them (blur widens the
rectangle), and the median over the cards. A faint change counts, so a black border on
the dark mat in dim light is measured too.

Whether the rims are dark (the band just inside the outline darker than the mat) tells
the reader how to find these cards (`vision.cards.find_cards(dark_rims=...)`), and so
does whether some faces are dark without a light rim round them (`find_cards(dark_faces=
...)`, which a glare may hide): most cards' middle darker than the mat (its median grey: a
deck printed on dark paper), or a card's rim band darker though most are not (a black
wild inside a rim of the mat's grey, as the benchmark's pale deck's wilds and blank). A
black face inside a white rim (a commercial UNO deck's wilds) is neither: its rim outlines
it under glare too (the search made for such faces cost the benchmark's classic deck a
green-6 named yellow-6, 7 % under a yellow card, on unseen table 1000109).

A rim of the mat's own grey (a pale deck's dark-grey border) shows no edge: only the
printed inside is measured, as the reader finds it too. Its hue still differs from the
felt's, but a frame of the whole mat gives such a rim 2 to 3 pixels and its colour is
smeared over twice that (JPEG keeps colour at half the resolution), so its outer edge
is not measured, nor even told apart (the benchmark's pale deck, a 1.5 mm rim: its
colour fades out 1.1 to 1.5 mm beyond the edge seen in four lights; a white rim's, 0.75
to 1.25 mm; what darkens beyond it is mostly the card's blurred shadow). Nor would it pay:
read at its printed size with dark rims, the pale deck names 6 fewer of 1,373 cards over
200 tables (docs/measurements.md, "uno-pale measured to its outer edge").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import Calibration, Frame
from vision.cards import view_mask
from vision.tag_edges import refine_square

PX_PER_MM = 4.0  # the top-down view the cards are measured in
CHANGE = 14  # grey levels a pixel must change from the bare mat to be a card's
SHADOW_RATIO = 0.45  # a shadow keeps this share of the mat's light at least
MIN_SIDE_MM = 30.0  # a thing narrower than this is no card
MAX_SIDE_MM = 150.0  # nor one longer (the mat's print, blurred, joined into one)
MIN_FILL = 0.8  # a card fills its smallest rectangle (rounded corners, a blurred edge)
RING_MM = 2.0  # the band inside the outline whose grey says whether the rim is dark
EDGE_REACH_MM = 2.5  # how far from the rectangle's sides their edges are looked for
LIGHT_MM = 40.0  # the scale over which the mat's light may change
MAT_LIKE = 45  # grey levels within which a pixel looks like the mat
MAT_HUE = 10.0  # and chromaticity (x 255) within which: a dark card of another hue is no mat


@dataclass(frozen=True)
class FaceTally:
    """Of the cards the frames showed: how many, how many with a middle darker than the mat
    (its median grey), and how many with a rim darker than it (the band just inside the
    outline). Tallies of several layouts add up (`tableref enrol` measures each)."""

    cards: int = 0
    dark_middles: int = 0
    dark_rims: int = 0

    def __add__(self, other: FaceTally) -> FaceTally:
        return FaceTally(self.cards + other.cards, self.dark_middles + other.dark_middles,
                         self.dark_rims + other.dark_rims)

    @property
    def dark_faces(self) -> bool:
        """Whether some faces are dark without a light rim round them (a glare may hide
        them): most cards' middles (dark paper), or some cards' rims, though not most (a
        deck with dark rims is looked for as such)."""
        most_rims = 2 * self.dark_rims > self.cards
        return 2 * self.dark_middles > self.cards or (self.dark_rims > 0 and not most_rims)


@dataclass(frozen=True)
class DeckMeasure:
    """What the enrolment frames show of the deck: the card's size (short, long mm) as
    the reader finds it, whether its rim is darker than the mat (most cards'), and how
    many faces are dark (`faces`: whether a glare may hide some)."""

    card_mm: tuple[float, float]
    dark_rims: bool
    faces: FaceTally = FaceTally()

    @property
    def dark_faces(self) -> bool:
        return self.faces.dark_faces


@dataclass(frozen=True)
class _Card:
    sides_mm: tuple[float, float]
    dark: bool  # its rim
    dark_face: bool  # its middle


def measure_deck(calibration: Calibration, frames: Sequence[Frame],
                 bare: Frame | None = None) -> DeckMeasure:
    """The deck measured from its enrolment frames (each with cards apart on the mat),
    against `bare` (a frame of the empty mat in the same light and pose), else against
    the mat as lit estimated from each frame where it looks like the mat (`tableref
    enrol` sees no empty mat). ValueError if no card shows in any frame."""
    valid = view_mask(calibration, PX_PER_MM)
    empty = None if bare is None else calibration.warp_mat(bare, PX_PER_MM)
    cards: list[_Card] = []
    for frame in frames:
        top = calibration.warp_mat(frame, PX_PER_MM)
        cards += _measure_frame(top, mat_as_lit(top, valid) if empty is None else empty,
                                valid)
    if not cards:
        raise ValueError("no card found in the enrolment frames")
    sides = np.array([c.sides_mm for c in cards])
    short, long = np.median(sides, axis=0)
    faces = FaceTally(len(cards), sum(c.dark_face for c in cards), sum(c.dark for c in cards))
    return DeckMeasure((round(float(short), 1), round(float(long), 1)),
                       2 * faces.dark_rims > len(cards), faces)  # (most cards' rims)


def mat_as_lit(top: Frame, valid: NDArray[np.uint8]) -> Frame:
    """The bare mat as lit, estimated from a view with cards on it: the smooth mean of
    the pixels that look like the mat (within MAT_LIKE of its median colour, and of its
    hue: a light's fall-off keeps the hue, a card of another hue does not), found on an
    eighth of the view (the light is smooth) and brought back up."""
    view = top.astype(np.float32)
    seen = valid > 0
    colour = np.median(view[seen], axis=0) if seen.any() else np.zeros(3, np.float32)
    hue = np.linalg.norm(_chromaticity(view) - _chromaticity(colour), axis=-1)
    bare = ((np.abs(view - colour).max(axis=2) < MAT_LIKE) & (hue < MAT_HUE)
            & seen).astype(np.float32)
    h, w = bare.shape
    small = (max(1, w // 8), max(1, h // 8))
    sigma = LIGHT_MM * PX_PER_MM / 8
    weight = cv2.GaussianBlur(cv2.resize(bare, small, interpolation=cv2.INTER_AREA), (0, 0),
                              sigma)
    lit = cv2.GaussianBlur(cv2.resize(view * bare[..., None], small,
                                      interpolation=cv2.INTER_AREA), (0, 0), sigma)
    light = lit / np.maximum(weight, 1e-3)[..., None]
    light[weight < 1e-3] = colour
    return np.asarray(np.clip(cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR),
                              0, 255), np.uint8)


def _changed(top: Frame, empty: Frame, valid: NDArray[np.uint8]) -> NDArray[np.uint8]:
    """What changed from the bare mat (`empty`, the same view of it): by more than CHANGE
    grey levels in a channel, unless it only darkens the mat evenly (a shadow)."""
    change = cv2.absdiff(top, empty).max(axis=2) > CHANGE
    ratio = (top.astype(np.float32) + 1) / (empty.astype(np.float32) + 1)
    low, high = ratio.min(axis=2), ratio.max(axis=2)
    shadow = (high <= 1.05) & (low >= SHADOW_RATIO) & (high - low <= 0.15)
    return np.asarray(cv2.bitwise_and((change & ~shadow).astype(np.uint8) * 255, valid),
                      np.uint8)


def _measure_frame(top: Frame, empty: Frame, valid: NDArray[np.uint8]) -> list[_Card]:
    s = PX_PER_MM
    grey = np.asarray(cv2.cvtColor(top, cv2.COLOR_BGR2GRAY), np.uint8)
    mat_level = float(cv2.cvtColor(empty, cv2.COLOR_BGR2GRAY)[valid > 0].mean())
    mask = cv2.morphologyEx(_changed(top, empty, valid), cv2.MORPH_OPEN,
                            np.ones((5, 5), np.uint8))
    # every blob's outline, one inside another's hole too (a line around the whole view)
    contours, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    outlines = [c for c, h in zip(contours, hierarchy[0] if hierarchy is not None else [],
                                  strict=True) if h[3] < 0]
    cards = []
    for contour in outlines:
        rect = cv2.minAreaRect(contour)
        short, long = sorted(rect[1])
        if (short < MIN_SIDE_MM * s or long > MAX_SIDE_MM * s
                or cv2.contourArea(contour) < MIN_FILL * short * long):
            continue
        box = np.asarray(cv2.boxPoints(rect), np.float64)
        ring = 2 * RING_MM * s
        inner = np.asarray(cv2.boxPoints((rect[0], (rect[1][0] - ring, rect[1][1] - ring),
                                          rect[2])), np.float64)
        band = cv2.fillConvexPoly(np.zeros_like(grey), box.round().astype(np.int32), 255)
        cv2.fillConvexPoly(band, inner.round().astype(np.int32), 0)
        dark = float(grey[band > 0].mean()) <= mat_level
        middle = cv2.fillConvexPoly(np.zeros_like(grey), inner.round().astype(np.int32), 255)
        dark_face = float(np.median(grey[middle > 0])) < mat_level
        edges = refine_square(grey, box, dark_inside=dark, reach_px=EDGE_REACH_MM * s,
                              tolerance_px=0.5 * s)
        quad = box if edges is None else edges
        lengths = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1) / s
        sides = sorted(((lengths[0] + lengths[2]) / 2, (lengths[1] + lengths[3]) / 2))
        cards.append(_Card((float(sides[0]), float(sides[1])), dark, dark_face))
    return cards


def _chromaticity(bgr: NDArray[np.float32]) -> NDArray[np.float32]:
    """The colour with its brightness divided out (x 255): what a shadow or a light's
    fall-off does not change (damped near black, where noise is all there is)."""
    return np.asarray(255 * bgr / (bgr.sum(axis=-1, keepdims=True) + 30.0), np.float32)
