"""Card detection in the top-down view of the mat.

Cards are bright, known-size rectangles on a dark mat. `find_cards` separates
what differs from the mat as lit (a learnt `MatModel` of the empty mat, or a local
estimate of the mat light) in brightness or in colour into blobs and explains each
blob as one card, a grid of touching cards (Deserto's 2x2 square), or, for irregular
blobs such as overlapping cards, as the card rectangles whose whole outline is
visible (from the blob's corners and sides and from edge votes, checked against the
mask and edges). The other good outlines of such a blob are offered as `extras`,
each with the found cards it lies on, for the reader to keep if it can name them.
What no card explains is mended and explained once more: a card as dark as the mat shows
only as pieces of its rim and print, which, their gaps closed and what they enclose filled
in, are the card (or several: touching cards mend into one blob); a face darker than the
mat whose light rim does not show is a blob a few mm inside its card, with spurs of rim,
which, cut off, leave the card's middle. What still no card explains is reported as
clutter (a hand, a phone, a mug). A deck whose cards have a dark rim (a black border or
frame, measured at enrolment) is found with `dark_rims`: such a rim hardly differs from
the dark mat in dim light, but is darker than any shadow a card casts; where two such
cards touch, the dark seam stands for their outlines. A deck with faces darker than the
mat and no light rim round them (printed on dark paper, or black wilds inside a rim of the
mat's grey; measured at enrolment too) is found with `dark_faces`: under glare such a
face, lit to the mat's grey, may show only in parts, as a dark rim does.

    >>> scan = find_cards(top_down, px_per_mm=1.5, card_mm=(63, 88))   # doctest: +SKIP
    >>> [q.center_mm for q in scan.cards]                               # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass, field

import cv2
import numpy as np
from numpy.typing import NDArray

from vision import faint_cards, foreground_kernels, outline_kernels, tile_blobs, tile_rows
from vision.calibration import Calibration, Frame
from vision.compiled import dot2, kth_and_next
from vision.identify_kernels import resize_area
from vision.mat import tag_quiet_zone_mm

Vec = NDArray[np.float64]
Mask = NDArray[np.uint8]

MAT_DIFF = 45  # grey levels a pixel must differ from the mat colour to be "something"
MODEL_DIFF = 32  # the same against the learnt mat model, which has no print or light left
CHROMA_DIFF = 24  # or this much in colour alone (channels apart from their mean change)
BACKGROUND_MM = 140  # wider than the 2x2 square's short side, narrower than a lamp's glare
#: The background is never darker than this share of the mat's colour at the grey
#: opening's level (see mat_background).
BACKGROUND_FLOOR = 0.8
#: OpenCV's BGR to grey weights.
GREY_WEIGHTS = np.array([0.114, 0.587, 0.299])
#: a pixel this share of the mat's grey level or darker is something on it (_dark_limit)
DARK_RATIO = 0.48
DARK_MIN = 10  # grey levels darker at least, for such a pixel
SIZE_TOL = 0.09  # relative tolerance on card sides
MEND_MM = 17.0  # gaps in and between unexplained blobs this wide at most are closed (_mended)
MEND_LEAST = 0.03  # the blobs mended make this share of a card at least
MEND_MOST = 3.0  # and a mended blob's hull no larger than this many cards (_hull_cards)
#: a mended blob no larger than this many cards is explained again: a group of touching
#: dark cards shows only as their rims, which mend into one blob
MEND_FIT_MOST = 8.0
MENDED_GROWTH = 1.03  # a blob mended grows by this share at least, or nothing was mended
#: spurs and pieces of rim this wide at most are cut off an unexplained blob (_opened_cards)
OPEN_MM = 5.0
#: and such a blob, opened, is the card it lies in the middle of if it is as much smaller
#: than the card at most (mm each side): the unseen rim and the blur of the face's edge
INSET_MM = 4.0
#: a part of a blob outside the cards found, this share of a card at least, may be a card
#: the fit missed (_Finding._left_cards), once slivers this wide at most (mm) are cut off
LEFT_CARD = 0.6
LEFT_OPEN_MM = 3.0
#: and is fitted only if a disc this share of a card's short side across fits in it (the
#: inner grid of a card on it, 0.9 of its sides, does) and it is this many cards large
#: (the grid's 0.81 of a card at least; larger, it is a hand or glare)
LEFT_CORE = 0.8
LEFT_FIT = (0.8, 12.0)
#: a blob this many cards large at least, with this many cards found in it at least (a
#: heap), may hide a card laid on them that the fit did not take (_Finding._cards_on_top)
ON_TOP_BLOB = 2.0
ON_TOP_FOUND = 3
#: OpenCV's 5 x 5 chamfer distance (the least sum of steps of 1, 1.4 and 2.1969 px along a
#: path) lies between 0.9825 (a 2.1969 step is that share of its length) and 1.0192
#: (x + 0.1969 y over the length of (x, y) at most) times the Euclidean distance: a largest
#: chamfer distance below the first of these times a radius, or at the second or above,
#: answers as the exact transform would (_reaches; a margin kept for rounding). Measured
#: over 3000 random pieces: 0.98248 to 1.01920.
CHAMFER_5_BOUNDS = (0.98, 1.02)
SHARP_EDGE = 6.0  # grey levels per pixel across an outline that makes it an object, not light
HULL_OUTLINE = 0.6  # share of a mended blob's hull along the blob, for a card (_hull_cards)
#: a seam between touching dark-rimmed cards: darker than this share of the mat around,
#: and this wide (mm) at least, wider than one card's rim (_dark_seams)
SEAM_RATIO = 0.6
SEAM_MM = 5.0
#: a blob no card explains this share of a card at least shows part of one: the faint
#: foreground is searched for cards around it (_Finding._faint_cards)
FAINT_EVIDENCE = 0.02
#: the light in which cards may hide so: a mat this dark (its median grey) that a light rim
#: or a face a little darker than it differs by less than MODEL_DIFF (dim light), or, for
#: dark rims or dark faces, glare that lights part of the mat this many times its median,
#: where a black border or face is no longer DARK_RATIO of it (MatModel.hides_cards; a
#: card's gloss lifts a dark face under glare to the mat's grey: 8 of the 11 tempus-tall
#: cards not found in the unseen tables 1000040-119 lay under glare, and 3 of uno-pale's 7
#: black wilds and blanks not found, in a rim of the mat's grey); in any other light
#: the mask shows every card a deck's rim makes: the faint search is not made
DIM_MAT = 48.0
GLARE_RATIO = 2.0
GLARE_PERCENTILE = 99.0  # (of the mat's sample: a glare spot, not a lone bright pixel)
#: the band (mm) along the view's edges (the mat's) where the faint foreground is not looked
#: at (_faint_cards)
EDGE_MM = 5.0
#: a face darker than the mat inside a light rim is this much (mm a side) smaller than its
#: card at most, in the faint difference: the rim, the blur and the face's edge, lightened
#: by that blur, under the threshold (_faces)
FACE_INSET_MM = 7.0
#: a lighter line printed on a dark face this wide at most (a ring round its value) is
#: closed over, where two touching faces' light rims, twice as wide, are not (_faces)
RING_MM = 3.0
#: a card found there lies at most this share in the mask (else the mask showed it whole),
#: and each of its sides is a sharp step for this share of it at least (a patch of light
#: the mat model has not learnt yet, or a shadow, is soft: vision.faint_cards.sharp_sides)
FAINT_SOLID = 0.9
FAINT_SHARP = 0.6
#: in the faint foreground a card shows to its sides (a dark rim darker than the mat by the
#: noise, a light face lighter), so a candidate there shows this far (mm) inside each side
#: along all but RIM_MISSING of it: one of a dark-rimmed deck, whose cover test asks only
#: for its middle (_cover_inset), reaching beyond its faint blob onto bare (glared) mat is
#: none (uno-dark, held-out table 1000015: two cards under glare in dim light lost, the
#: fit's outlines there 4 to 9 mm off them, which the faint checks refused as not sharp)
RIM_MM = 1.5
RIM_MISSING = 0.5
_RIM_ALONG = np.linspace(0.15, 0.85, 8)  # where along each side its rim is looked for
GRID_GAP = 0.5  # mm between the cards of a grid at most, when placing them in the blob
MIN_FILL = 0.9  # blob area / its min-area rectangle, for a card or a grid of cards
MIN_COVER = 0.97  # share of a card hypothesis inside the blob
MIN_OUTLINE = 0.8  # share of a card hypothesis's outline on a blob border or an edge
MAX_OVERLAP = 0.15  # share of a card that may overlap a card already accepted
#: unless it lies beside it as a touching tile does: the fit's outlines of two tiles side
#: by side may each lie a mm or two over the seam between them (a strip this deep, 20 %
#: of a Remi tile), and the rows move both onto their own edges (tile_rows.on_seams)
TOUCHING_MM = 4.0
ALTERNATIVE_OUTLINE = 0.7  # outline share of a rival outline kept as an alternative
EXTRAS = 6  # other outlines per irregular blob offered to the reader
EXTRA_OUTLINE = 0.6  # the outline share they need
RIVALS_CHECKED = 60  # best outlines tried as alternatives to the accepted cards
REFINED = 6  # best candidates per blob fitted to the edges along their outline
REFINED_PER_CARD = 2  # or this many for each card's area in the blob, where that is more
MAX_SIDE_PAIRS = 6  # positions per axis where a card's two sides collect edge votes
VOTED_DIRECTIONS = 3  # a blob's strongest edge directions along which cards are voted for
DIRECTIONS = 5  # and those looked at for a card laid across the others (_Fit.unvoted)
SIDE_SAMPLES = 24  # points per side where an outline is checked
WELL_PLACED = 0.97  # outline share of a candidate that needs no fitting to the edges


@dataclass(frozen=True)
class CardQuad:
    """A card on the mat: corners in mat mm, clockwise from its top-left.

    Corner 0 -> 1 is a short side. Of the two ways up, the one whose long axis
    points down the mat (angle in -90..90 degrees) is chosen, so a card and the same
    card turned 180 degrees give the same quad; identification handles which way up.
    """

    corners_mm: tuple[tuple[float, float], ...]
    center_mm: tuple[float, float]
    angle_deg: float
    #: other outlines found where this card lies, best first: worth naming if it is unknown
    alternatives: tuple[CardQuad, ...] = field(default=(), compare=False, repr=False)
    #: for an extra outline (CardScan.extras): the cards found (indices into CardScan.cards)
    #: that it lies on, by their edges where they overlap
    beneath: tuple[int, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def from_axes(cls, center: Vec | tuple[float, float], long_axis: Vec | tuple[float, float],
                  card_mm: tuple[float, float], alternatives: tuple[CardQuad, ...] = (),
                  beneath: tuple[int, ...] = ()) -> CardQuad:
        """Build a quad from its centre and the direction of its long side (mm)."""
        axis_x, axis_y = float(long_axis[0]), float(long_axis[1])
        length = _length(axis_x, axis_y)
        down_x, down_y = axis_x / length, axis_y / length
        if down_y < 0 or (down_y == 0 and down_x < 0):
            down_x, down_y = -down_x, -down_y
        right_x, right_y = down_y, -down_x
        cx, cy = float(center[0]), float(center[1])
        hw, hh = card_mm[0] / 2, card_mm[1] / 2
        corners = ((cx - right_x * hw - down_x * hh, cy - right_y * hw - down_y * hh),
                   (cx + right_x * hw - down_x * hh, cy + right_y * hw - down_y * hh),
                   (cx + right_x * hw + down_x * hh, cy + right_y * hw + down_y * hh),
                   (cx - right_x * hw + down_x * hh, cy - right_y * hw + down_y * hh))
        return cls(corners_mm=corners, center_mm=(cx, cy),
                   angle_deg=math.degrees(math.atan2(-down_x, down_y)),
                   alternatives=alternatives, beneath=beneath)


@dataclass(frozen=True)
class Clutter:
    """Foreground no card explains (a hand, a phone, a partly hidden card): its area (mm^2),
    whether it reaches the edge of the view (an arm does), and the centre of its blob's
    bounding box (mat mm), by which the tracker knows it again in the next frame."""

    area_mm2: float
    at_edge: bool
    center_mm: tuple[float, float] = (0.0, 0.0)


@dataclass(frozen=True)
class CardScan:
    """The cards found in a top-down view, and what else lies on the mat."""

    cards: list[CardQuad]
    clutter: list[Clutter]
    #: the foreground the cards were found in (what differs from the mat)
    mask: Mask | None = field(default=None, compare=False, repr=False)
    #: other card outlines in irregular blobs (overlapping cards), best first: cards only if
    #: they can be named
    extras: list[CardQuad] = field(default_factory=list, compare=False, repr=False)


def view_mask(calibration: Calibration, px_per_mm: float) -> Mask:
    """The top-down pixels that show the mat itself: inside the frame, off the tags."""
    w, h = calibration.image_size
    seen = calibration.warp_mat(np.full((h, w), 255, np.uint8), px_per_mm, cv2.INTER_NEAREST)
    mask = np.asarray(cv2.erode(seen, np.ones((5, 5), np.uint8)), np.uint8)
    for tag in calibration.mat.tags:
        half = tag_quiet_zone_mm(tag) / 2 + 2.0
        (cx, cy) = tag.center_mm
        p0 = (round((cx - half) * px_per_mm), round((cy - half) * px_per_mm))
        p1 = (round((cx + half) * px_per_mm), round((cy + half) * px_per_mm))
        cv2.rectangle(mask, p0, p1, 0, -1)
    return mask


def mat_colour(top_down: Frame, valid: Mask | None = None) -> NDArray[np.float64]:
    """The mat's BGR colour as lit now: the median of a sparse sample of the view."""
    view = top_down[::8, ::8]
    chosen = np.full(view.shape[:2], 255, np.uint8) if valid is None else valid[::8, ::8]
    return outline_kernels.channel_medians(view, chosen)


def mat_background(top_down: Frame, px_per_mm: float) -> Frame:
    """The mat as lit, without what lies on it: a coarse grey opening of the view.

    Anything bright and narrower than BACKGROUND_MM (cards, the 2x2 square, tag
    surrounds) is removed; broad light fall-off and glare stay, so they are not "things".
    """
    h, w = top_down.shape[:2]
    small = resize_area(top_down[None], (max(1, w // 8), max(1, h // 8)))[0]  # (cv2.resize's)
    k = 2 * round(BACKGROUND_MM * px_per_mm / 16) + 1
    kernel = np.ones((k, k), np.uint8)
    opened = cv2.morphologyEx(small, cv2.MORPH_OPEN, kernel)
    # A saturated card is bright but dark in some channel (a red panel in blue and green):
    # a row of them along the mat's edge pulls that channel's opening far below the mat
    # there. The grey opening is not fooled; the mat's colour at its level is a floor.
    level = cv2.morphologyEx(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), cv2.MORPH_OPEN, kernel)
    colour = np.median(small.reshape(-1, 3), axis=0)
    tint = colour / max(1.0, float(np.dot(colour, GREY_WEIGHTS)))
    floor = level[..., None].astype(np.float32) * (tint * BACKGROUND_FLOOR).astype(np.float32)
    opened = np.maximum(opened, np.clip(floor, 0, 255).astype(np.uint8))
    return np.asarray(cv2.resize(opened, (w, h), interpolation=cv2.INTER_LINEAR), np.uint8)


def foreground_mask(top_down: Frame, px_per_mm: float, valid: Mask | None = None,
                    background: MatModel | None = None, grey: Frame | None = None) -> Mask:
    """Pixels that differ from the mat as lit: by more than MAT_DIFF in a channel, or by
    more than CHROMA_DIFF in colour alone (a dark hand on a dark mat is no brighter but
    redder). The mat is the learnt `background` model if given, else a local estimate.
    Given the view's `grey`, also the pixels much darker than the mat (_dark_limit)."""
    if background is not None:
        mask = background.foreground(top_down, valid, grey)
    else:
        local = mat_background(top_down, px_per_mm)
        diff = np.asarray(cv2.subtract(top_down, local, dtype=cv2.CV_16S), np.int16)
        mask = _threshold(diff, valid, MAT_DIFF, CHROMA_DIFF)
        if grey is not None:
            limit = _dark_limit(np.asarray(cv2.cvtColor(local, cv2.COLOR_BGR2GRAY), np.float32))
            dark = np.asarray(cv2.compare(grey, limit, cv2.CMP_LE), np.uint8)
            if valid is not None:
                dark = np.asarray(cv2.bitwise_and(dark, valid), np.uint8)
            mask = np.asarray(cv2.bitwise_or(mask, dark), np.uint8)
    # bridge one-pixel breaks in a card's border (a dark card face in dim light)
    return np.asarray(cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((3, 3), np.uint8)),
                      np.uint8)


def _dark_limit(mat_grey: NDArray[np.float32]) -> Mask:
    """Per pixel, the grey level at or below which a view is much darker than the mat as
    lit there (`mat_grey`): DARK_RATIO of it, and DARK_MIN levels below it at least (not
    the noise of a very dark mat). A card's black border or frame is that dark (on the
    dark mat, in dim or warm light, no channel differs from the mat by MODEL_DIFF); the
    shadow a card casts is not (the renderer's keep half the light at least)."""
    level = np.minimum(mat_grey * DARK_RATIO, mat_grey - DARK_MIN)
    return np.asarray(np.clip(np.floor(level), 0, 255), np.uint8)


_CHROMA = np.array([[2.0, -1.0, -1.0], [-1.0, 2.0, -1.0], [-1.0, -1.0, 2.0]])


def _threshold(diff: NDArray[np.int16], valid: Mask | None, level: float,
               chroma_level: float) -> Mask:
    """The foreground of a signed BGR difference image (int16): a channel differs by more
    than `level`, or the colour alone by more than `chroma_level` (how far the difference
    is from an even change of all three channels: 3 x a channel minus their sum, against
    3 x chroma_level)."""
    grey = math.floor(level)
    even = cv2.inRange(diff, (-grey, -grey, -grey), (grey, grey, grey))
    limit = math.floor(3 * chroma_level)
    chroma = cv2.transform(diff, _CHROMA)  # 3 x each channel minus their sum (exact)
    same = cv2.inRange(chroma, (-limit, -limit, -limit), (limit, limit, limit))
    out = np.asarray(cv2.bitwise_not(cv2.bitwise_and(even, same)), np.uint8)
    if valid is not None:
        out = np.asarray(cv2.bitwise_and(out, valid), np.uint8)
    return out


class MatModel:
    """The empty mat as this camera sees it (glare, fall-off and the mat print included),
    learnt from a top-down view and kept up to date from the pixels nothing covers.

    Against it, a glare spot or the dark side of the mat is not "something on the mat",
    and a faint object (a dark hand on the dark mat, a card in dim light) still is. A
    change of overall exposure is followed by a gain per channel.
    """

    def __init__(self, top_down: Frame, px_per_mm: float, valid: Mask,
                 covered: Mask | None = None) -> None:
        """Learn from a view; `covered` marks pixels that show no mat (found cards): they
        take the local estimate of the mat light instead."""
        self.px_per_mm = px_per_mm
        self.valid = valid
        model = np.asarray(cv2.blur(top_down, (3, 3)), np.float32)
        if covered is not None and covered.any():
            local = mat_background(top_down, px_per_mm).astype(np.float32)
            model[covered > 0] = local[covered > 0]
        self.model = model
        self._sample = (valid[::8, ::8] > 0)
        self._sample_at = np.flatnonzero(self._sample)  # (the same, as indices: faster)
        # the model where the gain is measured, at hand in one block (kept with the model)
        self._model_sample = np.ascontiguousarray(model[::8, ::8])
        self._gain_held: NDArray[np.float32] | None = None  # the gain views are compared at
        #: the gain held and the model at it as a view would show it (expected_view)
        self._expected: tuple[NDArray[np.float32], Frame] | None = None
        #: the gain held and dark_limit at it
        self._dark_limit: tuple[NDArray[np.float32], Mask] | None = None
        #: the gain held and the model's grey at it
        self._grey: tuple[NDArray[np.float32], NDArray[np.float32]] | None = None
        #: the gain held and whether the mat is dim, and holds glare, at it (hides_cards)
        self._light: tuple[NDArray[np.float32], tuple[bool, bool]] | None = None

    def gain(self, top_down: Frame) -> NDArray[np.float32]:
        """Per channel, how much brighter the view is than the model (median ratio)."""
        return foreground_kernels.exposure_gain(top_down[::8, ::8], self._model_sample,
                                                self._sample)

    def foreground(self, top_down: Frame, valid: Mask | None, grey: Frame | None = None
                   ) -> Mask:
        """The pixels of the view that differ from the model at the view's exposure (as
        _threshold by MODEL_DIFF and CHROMA_DIFF); given the view's `grey`, also those at
        or below dark_limit. The gain is held until it moves by more than 1 % or the model
        learns, so a steady exposure is one steady comparison, against the model scaled
        to it once."""
        g = self.gain(top_down)
        if self._gain_held is None or np.abs(g - self._gain_held).max() > 0.01:
            self._gain_held = g
        if self._expected is None or self._expected[0] is not self._gain_held:
            # (a quarter of the float model's bytes to read each frame the gain holds)
            self._expected = (self._gain_held,
                              foreground_kernels.expected_view(self.model, self._gain_held))
        dark = None if grey is None else (grey, self.dark_limit(top_down))
        return foreground_kernels.view_foreground(top_down, self._expected[1], valid,
                                                  math.floor(MODEL_DIFF),
                                                  math.floor(3 * CHROMA_DIFF), dark)

    def _compared_gain(self, top_down: Frame) -> NDArray[np.float32]:
        """The gain the view is compared at: the one foreground() holds, else the view's."""
        return self._gain_held if self._gain_held is not None else self.gain(top_down)

    def dark_limit(self, top_down: Frame) -> Mask:
        """_dark_limit of the model at the gain the view is compared at (foreground()
        first), made once per gain held."""
        gain, grey = self.grey(top_down)
        if self._dark_limit is None or self._dark_limit[0] is not gain:
            self._dark_limit = (gain, _dark_limit(grey))
        return self._dark_limit[1]

    def grey(self, top_down: Frame) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        """The gain the view is compared at (foreground() first) and the model's grey at
        it (float32, OpenCV's grey weights), made once per gain held."""
        gain = self._compared_gain(top_down)
        if self._grey is None or self._grey[0] is not gain:
            weights = (GREY_WEIGHTS * gain).astype(np.float32).reshape(1, 3)
            grey = np.asarray(cv2.transform(self.model, weights), np.float32)
            self._grey = (gain, grey.reshape(grey.shape[:2]))
        return self._grey

    def hides_cards(self, top_down: Frame, dark_cards: bool) -> bool:
        """Whether the mat is lit so that cards may show only in parts in the foreground
        (DIM_MAT, GLARE_RATIO: only for `dark_cards`, a deck with dark rims or dark faces),
        from the model's sample at the gain the view is compared at (foreground() first);
        weighed once per gain held."""
        gain = self._compared_gain(top_down)
        if self._light is None or self._light[0] is not gain:
            self._light = (gain, self._dim_or_glare(gain))
        dim, glare = self._light[1]
        return dim or (dark_cards and glare)

    def _dim_or_glare(self, gain: NDArray[np.float32]) -> tuple[bool, bool]:
        """Whether the model's sample at this gain is dim (DIM_MAT), and whether it holds
        glare (GLARE_RATIO)."""
        weights = (GREY_WEIGHTS * gain).astype(np.float32)
        grey = np.take(self._model_sample.reshape(-1, 3) @ weights, self._sample_at)
        n = len(grey)
        if not n:
            return False, False
        middle_at, bright_at = n // 2, round(GLARE_PERCENTILE / 100 * (n - 1))
        levels = np.partition(grey, (middle_at, bright_at))  # (two order statistics at once)
        middle = float(levels[middle_at])
        return middle < DIM_MAT, float(levels[bright_at]) >= GLARE_RATIO * middle

    def learn(self, top_down: Frame, valid: Mask, moved: Mask, cards: Mask, rate: float,
              healing: tuple[Frame, NDArray[np.uint8], float, int] | None = None) -> None:
        """Blend the view into the model at `rate` where it shows the mat (`valid`, not
        `moved`, not under `cards`); with `healing` (background view, mat colour, rate,
        level) also where it looks like bare mat (foreground_kernels.learn)."""
        foreground_kernels.learn(top_down, self.model, valid, moved, cards, rate, healing)
        self._model_sample = np.ascontiguousarray(self.model[::8, ::8])
        self._gain_held = None
        self._expected = None
        self._dark_limit = None
        self._grey = None
        self._light = None


def find_cards(top_down: Frame, px_per_mm: float, card_mm: tuple[float, float],
               valid: Mask | None = None, background: MatModel | None = None,
               dark_rims: bool = False, view_grey: Frame | None = None,
               dark_faces: bool = False) -> CardScan:
    """Find the cards in a BGR top-down view of the mat at px_per_mm.

    `valid` marks the pixels that show the mat (not the frame border, not the tags);
    `background` is the learnt empty mat (else the mat light is estimated locally).
    `dark_rims`: the cards' rim is darker than the mat (a black border or frame, as on
    many a commercial deck; the enrolment measures it), so that in dim or warm light only
    their lighter middle differs from the mat by a channel: pixels much darker than the
    mat are then something too (foreground_mask). `view_grey`: the view's grey levels, if
    the caller has made them (else they are made when first needed). `dark_faces`: some
    of the deck's faces are darker than the mat with no light rim round them (measured at
    enrolment: vision.deck_measure.FaceTally): glare may hide them as it hides dark rims
    (_faint_cards). (Their darker pixels are not taken for something as a dark rim's
    are: that lost 2 of tempus-tall's overlapping faces in dim light on the benchmark's
    40 tables for 1 found.)
    """
    grey = view_grey
    if grey is None and dark_rims:
        grey = np.asarray(cv2.cvtColor(top_down, cv2.COLOR_BGR2GRAY), np.uint8)
    mask = foreground_mask(top_down, px_per_mm, valid, background, grey if dark_rims else None)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    finding = _Finding(top_down, grey, px_per_mm, card_mm, mask, dark_rims, background=background,
                       valid=valid, dark_faces=dark_faces)
    unexplained: list[_Blob] = []
    for contour in contours:
        area = cv2.contourArea(contour) / px_per_mm**2
        # too small for a card, but maybe a piece of the rim of one (_Finding.mend)
        blob = (_Blob(np.asarray(contour, np.int32), area, []) if area < 0.05 * finding.card_area
                else finding.explain(np.asarray(contour, np.int32), area))
        if blob is not None:
            unexplained.append(blob)
    finding.mend(unexplained)
    finding.finish()
    return CardScan(cards=finding.cards, clutter=finding.clutter, mask=mask,
                    extras=finding.extras)


@dataclass
class _Blob:
    """A blob of the foreground no card explains (yet): its outline, area (mm^2), and the
    other card outlines _fit_cards found in it."""

    contour: NDArray[np.int32]
    area: float
    extras: list[CardQuad]


@dataclass
class _Finding:
    """The cards and clutter found so far in one view, blob by blob."""

    top_down: Frame
    grey: Frame | None
    px_per_mm: float
    card_mm: tuple[float, float]
    mask: Mask  # the foreground
    dark_rims: bool
    #: a mended blob's hull this much (mm a side) smaller than a card at most may be the
    #: face of one (_hull_cards): in the faint search, a dark face whose light rim does not
    #: show there (FACE_INSET_MM)
    face_inset_mm: float = 0.0
    background: MatModel | None = None  # the learnt mat, against which faint cards show
    valid: Mask | None = None  # the pixels that show the mat
    #: the blobs show a dark-rimmed card's rim (the faint foreground): a candidate must
    #: show there too (_Fit.rims_seen)
    rims_seen: bool = False
    #: with `rims_seen`: where cards found before were cut out of the faint foreground (each
    #: grown 1 mm), along which a card beside them shows no rim of its own in it: its rim
    #: counts as shown there (uno-dark table 1000066: blue-9, touching yellow-4, lost the
    #: corner and the side by it, and no outline of it showed its rim; _Fit.rims_seen)
    beside: Mask | None = None
    dark_faces: bool = False  # some faces dark with no light rim (find_cards)
    cards: list[CardQuad] = field(default_factory=list)
    clutter: list[Clutter] = field(default_factory=list)
    extras: list[CardQuad] = field(default_factory=list)
    #: the blobs, with the area (mm^2) no card explains, that finish() looks at
    rests: list[_Blob] = field(default_factory=list)
    #: the blobs of each mended group in which cards were found, with those cards: those
    #: outside them are no clutter (as before), but may be parts of cards the faint search
    #: finds (_faint_cards)
    leads: list[tuple[list[_Blob], list[CardQuad]]] = field(default_factory=list)

    @property
    def card_area(self) -> float:
        return self.card_mm[0] * self.card_mm[1]

    def _view_grey(self) -> Frame:
        """The view's grey levels, made from it when first needed (a dark-rimmed deck's
        search is given them, made for its mask)."""
        if self.grey is None:
            self.grey = np.asarray(cv2.cvtColor(self.top_down, cv2.COLOR_BGR2GRAY), np.uint8)
        return self.grey

    def explain(self, contour: NDArray[np.int32], area: float, seams: bool = True
                ) -> _Blob | None:
        """Find the cards of one blob (area in mm^2) and keep them and what else it holds
        (with `seams`, touching tiles each on its own edges: vision.tile_rows); a blob with
        no card is given back."""
        pts = contour.reshape(-1, 2).astype(np.float64) / self.px_per_mm
        found = _as_card_or_grid(pts, area, self.card_mm)
        if found is None and seams and tile_rows.are_tiles(self.card_mm):
            found = self._as_rows(contour, area)
        more: list[CardQuad] = []
        on_top: list[CardQuad] = []
        if found is None and area > 0.6 * self.card_area:
            made = _blob_fit(contour, self._view_grey(), self.px_per_mm, self.card_mm,
                             self.dark_rims, self.rims_seen, self.beside)
            found, more = (made[0].solve(made[1], _refined(area, self.card_area)) if made
                           else ([], []))
            if made and found and (area - len(found) * self.card_area
                                   >= LEFT_CARD * self.card_area):
                left, left_extras = self._left_cards(contour, found, self._view_grey(),
                                                     made[0])
                found, more = found + left, more + left_extras
            if (made and len(found) >= ON_TOP_FOUND and area >= ON_TOP_BLOB * self.card_area
                    and not tile_rows.are_tiles(self.card_mm)):  # (tiles lie side by side)
                on_top = self._cards_on_top(found, made[0], area)
        if not found:
            return _Blob(contour, area, more)
        if seams and len(found) > 1 and tile_rows.are_tiles(self.card_mm):
            found = tile_rows.on_seams(self._view_grey(), self.px_per_mm, found, self.mask)
        self.extras.extend(dataclasses.replace(q, beneath=tuple(len(self.cards) + i
                                                                for i in q.beneath))
                           for q in more)
        self.cards.extend(found + on_top)
        # (a card on top lies on cards found: it explains little of the blob they leave, and
        # what they leave may show a faint card beside them: _faint_cards)
        self._left_over(contour, area - len(found) * self.card_area)
        return None

    def _as_rows(self, contour: NDArray[np.int32], area: float) -> list[CardQuad] | None:
        """The tiles of a blob of tiles all turned alike, rows touching rows or loose
        tiles (vision.tile_blobs), where the view says so: read so at a fifth of the cost
        of the outline fit; None leaves the blob to the fit."""
        tiles = tile_blobs.as_rows(contour, self._view_grey(), self.px_per_mm, self.card_mm,
                                   area)
        return None if tiles is None else [CardQuad.from_axes(centre, axis, self.card_mm)
                                           for centre, axis in tiles]

    def _left_cards(self, contour: NDArray[np.int32], found: list[CardQuad], grey: Frame,
                    fit: _Fit) -> tuple[list[CardQuad], list[CardQuad]]:
        """The cards the fit missed in a blob, and other outlines there (extras, each with
        the cards it lies on as indices into the found and these): the parts of the blob
        outside the cards found, slivers LEFT_OPEN_MM wide cut off, explained each as a
        card, a grid of cards, or fitted on its own (on the blob's edges: _Fit.within);
        only outlines that are sharp steps in the view (sharp_outline) are kept. The edge
        votes of a blob take a few side positions per axis, 4 mm apart at least: a tile laid
        2 mm along from the one it touches, or one of many in a blob of several rows, gets
        no candidate of its own, and one 1.5 mm off does not lie on the blob. Nor, where
        several cards of different directions share a blob, does a card a few degrees off
        the blob's main direction; the edges around a piece vote for it, and if it lies on
        cards found (`fit`: the blob's) it is fitted in the whole blob (_on_found)."""
        s = self.px_per_mm
        x, y, bw, bh = cv2.boundingRect(contour)
        rest = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(rest, [contour], -1, 255, -1, offset=(-x, -y))
        for corners in np.round(np.array([q.corners_mm for q in found]) * s - (x, y)
                                ).astype(np.int32):  # (rounded all at once: fewer numpy calls)
            cv2.fillConvexPoly(rest, corners, 0)
        k = 2 * round(LEFT_OPEN_MM * s / 2) + 1
        rest = np.asarray(cv2.morphologyEx(
            rest, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))), np.uint8)
        pieces, _ = cv2.findContours(rest, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE,
                                     offset=(x, y))
        low, high = (share * self.card_area for share in LEFT_FIT)
        cards: list[CardQuad] = []
        extras: list[CardQuad] = []
        for found_piece in pieces:
            piece = np.asarray(found_piece, np.int32)
            area = cv2.contourArea(piece) / s**2
            if area < LEFT_CARD * self.card_area:
                continue
            pts = piece.reshape(-1, 2).astype(np.float64) / s
            grid = _as_card_or_grid(pts, area, self.card_mm)
            if not grid and not (low <= area <= high and self._holds_core(piece, rest, (x, y))):
                continue  # (no card fits in it, or it is a hand or glare: not worth a fit)
            others: list[CardQuad] = []
            on_top: list[CardQuad] = []
            if grid:
                fitted = grid
            else:  # (on the blob's edges: _Fit.within)
                candidates = fit.candidates_around(piece)
                inside = fit.within(piece)
                fitted, others = inside.solve(candidates, _refined(area, self.card_area))
            sharp = [i for i, card in enumerate(fitted) if sharp_outline(card, grey, s)]
            index = {i: len(found) + len(cards) + n for n, i in enumerate(sharp)}
            cards.extend(fitted[i] for i in sharp)
            if not grid:
                on_top = self._on_found(piece, fit, inside.blob, candidates, grey, found + cards)
            extras.extend(dataclasses.replace(e, beneath=tuple(index[i] for i in e.beneath
                                                              if i in index))
                          for e in others if sharp_outline(e, grey, s)
                          and not self._near_any(e, on_top))
            cards.extend(on_top)
        return cards, extras

    def _cards_on_top(self, found: list[CardQuad], fit: _Fit, area: float) -> list[CardQuad]:
        """The cards laid on cards found in a blob (of `area` mm^2; `fit`: its fit) that the
        fit did not take. The edge votes take the blob's VOTED_DIRECTIONS strongest
        directions (_candidate_quads), and in a heap of more a card laid across others at
        another had no candidate (tempus-tall table 1000205: the card beneath took its
        place, its outline running on under the one on top). The edges vote again along
        the directions left out (_Fit.unvoted), away from the cards found (half a card's
        width from their centres); kept are the outlines that lie on the cards they overlap
        (_Fit.on_top: their edges show across those cards, not those cards' across them)
        and are sharp steps. A card beside the others, overlapping none, is not taken so:
        nothing shows it lies on top."""
        if not fit.unvoted:
            return []
        s = self.px_per_mm
        votes = _candidate_quads(fit.edge_x, fit.edge_y, fit.edge_normal.astype(np.float32),
                                 round(area * s * s), s, self.card_mm, list(fit.unvoted))
        if not len(votes):
            return []
        centres = (outline_kernels.centres(votes) + fit.offset) / s
        taken = np.array([q.center_mm for q in found])
        apart = np.hypot(*(centres[:, None] - taken[None]).transpose(2, 0, 1))
        votes = votes[(apart >= min(self.card_mm) / 2).all(axis=1)]
        if not len(votes):
            return []
        cards, _ = fit.solve(votes, REFINED)
        grey = self._view_grey()
        return [card for card in cards if not self._near_any(card, found)
                and fit.on_top(card, found) and sharp_outline(card, grey, s)]

    def _on_found(self, piece: NDArray[np.int32], fit: _Fit, on_piece: Mask, candidates: Vec,
                  grey: Frame, below: list[CardQuad]) -> list[CardQuad]:
        """The cards that the piece's edges vote for lying on cards found in the blob
        (`below`): the piece lacks what such a card covers of them (cut out with them), so
        no fit on the piece weighs it; they are fitted in the whole blob (its `fit`:
        _Fit.lying_on; `on_piece`, the piece drawn in its ROI) and kept if sharp, centred
        in the piece and half a card's width from the cards found (not one of them again)."""
        s = self.px_per_mm
        return [card for card in fit.lying_on(on_piece, candidates, below)
                if cv2.pointPolygonTest(piece, (card.center_mm[0] * s, card.center_mm[1] * s),
                                        False) >= 0
                and not self._near_any(card, below) and sharp_outline(card, grey, s)]

    def _near_any(self, card: CardQuad, others: list[CardQuad]) -> bool:
        """Whether the card's centre lies within half a card's width of one of the others'
        (it is that card again, a little off)."""
        apart = min(self.card_mm) / 2
        return any(math.dist(card.center_mm, other.center_mm) < apart for other in others)

    def _holds_core(self, piece: NDArray[np.int32], rest: Mask, origin: tuple[int, int]
                    ) -> bool:
        """Whether a disc LEFT_CORE of a card's short side across fits in a piece of `rest`
        (a mask whose top-left pixel lies at `origin` in the view): its pixels' distance
        to the piece's border (a distance transform, not an erosion by the disc: the
        disc is many pixels across)."""
        px, py, pw, ph = cv2.boundingRect(piece)
        part = np.zeros((ph + 2, pw + 2), np.uint8)  # (a border of 0s round the piece)
        part[1:-1, 1:-1] = rest[py - origin[1]:py - origin[1] + ph,
                                px - origin[0]:px - origin[0] + pw]
        return _reaches(part, LEFT_CORE * min(self.card_mm) * self.px_per_mm / 2)

    def mend(self, blobs: list[_Blob]) -> None:
        """Explain the blobs no card explained once more with the gaps of a few mm between
        and within them closed and what they enclose filled in (_mended); what is still
        unexplained is clutter. Not when too little is left to make a card's rim."""
        left = blobs
        if blobs and sum(b.area for b in blobs) >= MEND_LEAST * self.card_area:
            left = []
            for group, mended in _mended([b.contour for b in blobs], self.px_per_mm):
                members = [blobs[i] for i in group]
                if mended is not None and (area := cv2.contourArea(mended) / self.px_per_mm**2
                                           ) <= MEND_FIT_MOST * self.card_area:
                    grew = area > MENDED_GROWTH * sum(b.area for b in members)
                    before = len(self.cards)
                    if (grew and area > 0.5 * self.card_area
                            and self.explain(mended, area, seams=False) is None
                            ) or self._hull_cards(mended) or self._opened_cards(
                                [b.contour for b in members if b.area >= 0.6 * self.card_area]):
                        self.leads.append((members, self.cards[before:]))
                        continue
                left.extend(members)
        for blob in left:
            self.extras.extend(blob.extras)
            self._left_over(blob.contour, blob.area)

    def mend_bits(self, pieces: list[_Blob], bits: list[_Blob]) -> None:
        """Mend once more the pieces (mended before) that hold no card yet, with the
        `bits` within MEND_MM of them that hold none either: bits of faint foreground too
        small to lead a search, or holding no part of the mask (a dark rim the glare or
        the dark broke into dashes, its numeral the only piece the mask shows: uno-dark's
        red-2 on tuning table 1000095). Mended with the first pieces, the bits change
        what is found where a card was (green-2 beside it lost)."""
        open_pieces = [_Blob(p.contour, p.area, []) for p in pieces
                       if not _on_any(p.contour, self.cards, self.px_per_mm)]
        near = [b for b in _near(bits, open_pieces, MEND_MM * self.px_per_mm)
                if not _on_any(b.contour, self.cards, self.px_per_mm)]
        if near:
            self.mend(open_pieces + near)

    def finish(self) -> None:
        """Look for faint cards around what no card explains (_faint_cards); the rest that
        is large is clutter."""
        for blob in self._faint_cards(self.rests, self.leads):
            if blob.area <= 0.25 * self.card_area:
                continue
            x, y, bw, bh = cv2.boundingRect(blob.contour)
            s = self.px_per_mm
            self.clutter.append(Clutter(area_mm2=blob.area, at_edge=self._at_edge(blob.contour),
                                        center_mm=((x + bw / 2) / s, (y + bh / 2) / s)))

    def _faint_cards(self, blobs: list[_Blob],
                     leads: list[tuple[list[_Blob], list[CardQuad]]]) -> list[_Blob]:
        """Keep the cards found in the faint foreground (vision.faint_cards) around the
        blobs no card explains and the `leads` (the blobs of a mended group outside the
        cards found in it), which show parts of them: a dark face's print in dim light
        whose light rim and face hardly differ from the mat, a card under glare whose
        black border or dark face is nearly the glared mat's grey. Given back: what of
        each blob these cards do not cover.

        Only with the learnt mat model (its print and light known, so that the faint
        difference is what lies on the mat), and only in a light where cards may hide
        (MatModel.hides_cards: elsewhere the search costs its 2 to 5 ms for nothing);
        only around blobs of some size (the print of a face at least; not noise), and only
        in faint blobs that hold part of one: a shadow is soft and never leads the search.
        An arm (a blob a card large or more, coming in over the edge of the view) leads
        none either and is cut out, and a card the mask shows (nearly) whole was no card to
        the outline checks there: neither is taken for a faint card (a hand's fingers and
        shadow make a faint blob whose sides run straight along the arm for a card's
        length). Every side of a faint card is a sharp step in the difference: the edge of
        a soft patch is none. The other outlines found there that pass the same checks are
        offered as extras, each with the faint cards kept that it lies on: a card lying
        across one whose outline the choice took first is named by the reader, as in the
        mask's blobs."""
        arms = [b for b in blobs if b.area >= self.card_area and self._at_edge(b.contour)]
        least = FAINT_EVIDENCE * self.card_area
        evidence = [b for b in blobs if b.area >= least and not any(b is arm for arm in arms)]
        led = [(b, found) for group, found in leads for b in group if b.area >= least]
        if (self.background is None or not (evidence or led)
                or not self.background.hides_cards(self.top_down,
                                                   self.dark_rims or self.dark_faces)):
            return blobs
        evidence += [b for b, found in led if not _on_any(b.contour, found, self.px_per_mm)]
        if not evidence:
            return blobs
        s = self.px_per_mm
        h, w = self.mask.shape[:2]
        seeds = np.zeros((h, w), np.uint8)
        cv2.drawContours(seeds, [blob.contour for blob in evidence], -1, 255, -1)
        # the whole view: a box round the blobs would cut faint blobs along straight lines
        look = self.valid if self.valid is not None else np.full((h, w), 255, np.uint8)
        grey = self._view_grey()
        _, mat_grey = self.background.grey(self.top_down)
        seen = faint_cards.faint_foreground(grey, mat_grey, look, self.mask)
        # the cards found (and the blur of their edges) and the arms are no faint cards
        beside = _drawn(self.cards, s, 1.0, h, w)
        faint = np.asarray(cv2.subtract(seen.foreground, beside), np.uint8)  # (0s and 255s)
        cv2.subtract(seeds, beside, dst=seeds)
        _clear_edges(faint, s)
        for cut in (faint, seeds):
            cv2.drawContours(cut, [arm.contour for arm in arms], -1, 0, -1)
            cv2.drawContours(cut, [arm.contour for arm in arms], -1, 0, max(3, round(4 * s)))
        found = _Finding(self.top_down, seen.picture, s, self.card_mm, faint, self.dark_rims,
                         FACE_INSET_MM, rims_seen=self.dark_rims, beside=beside)
        contours, _ = cv2.findContours(faint, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        searched = np.zeros((h, w), np.uint8)
        reach = [w, h, 0, 0]  # (the box of the blobs searched: x0, y0, x1, y1)
        # a card's faint face cut across by its print's mat-grey bands, and a whole card's
        # faint blob no card explains, cracked open along such a band: mended together
        pieces: list[_Blob] = []
        strays: list[_Blob] = []  # the faint bits too small to lead (mend_bits)
        for contour in contours:
            outline = np.asarray(contour, np.int32)
            area = cv2.contourArea(outline) / s**2
            if area < FAINT_EVIDENCE * self.card_area or not _leads(outline, seeds):
                if area < 0.6 * self.card_area:
                    strays.append(_Blob(outline, area, []))
                continue
            cv2.drawContours(searched, [outline], -1, 255, -1)
            x, y, bw, bh = cv2.boundingRect(outline)
            reach = [min(reach[0], x), min(reach[1], y), max(reach[2], x + bw),
                     max(reach[3], y + bh)]
            if area < 0.6 * self.card_area:
                pieces.append(_Blob(outline, area, []))
            elif area <= MEND_FIT_MOST * self.card_area and (
                    unexplained := found.explain(outline, area, seams=False)) is not None:
                pieces.append(unexplained)
        found.mend(pieces)
        found.mend_bits(pieces, strays)
        # touching dark faces inside light rims make one faint blob; darker than the mat,
        # each face is a blob of its own, a card's middle (looked for in the box of the
        # blobs searched, where all the darker pixels it looks at lie, and a margin)
        margin = _faces_margin(s)
        x0, y0 = max(0, reach[0] - margin), max(0, reach[1] - margin)
        x1, y1 = min(w, reach[2] + margin), min(h, reach[3] + margin)
        if x0 < x1 and y0 < y1:
            box = (slice(y0, y1), slice(x0, x1))
            darker = np.asarray(cv2.bitwise_and(seen.darker[box], searched[box]), np.uint8)
            _cut_out(darker, found.cards, s, 1.0, (x0, y0))
            found.cards.extend(_faces(darker, s, self.card_mm, (x0, y0)))
        limit = MAX_OVERLAP * self.card_area
        kept_at = [i for i, q in enumerate(found.cards)
                   if all(overlap_mm2(q, c) <= limit for c in self.cards)
                   and self._faint_card(q, seen.picture, seeds)]
        # the other outlines there, each with the faint cards kept that it lies on: a card
        # lying on one whose outline the choice took first (as in the mask's blobs)
        index = {i: len(self.cards) + n for n, i in enumerate(kept_at)}
        self.extras.extend(dataclasses.replace(e, beneath=tuple(index[i] for i in e.beneath
                                                               if i in index))
                           for e in found.extras if self._faint_card(e, seen.picture, seeds))
        new = [found.cards[i] for i in kept_at]
        if not new:
            return blobs
        self.cards.extend(new)
        covered = _drawn(new, s, 0.0, h, w)
        return [_Blob(b.contour, b.area - _share_inside(b.contour, None, covered)
                      * cv2.contourArea(b.contour) / s**2, b.extras) for b in blobs]

    def _faint_card(self, card: CardQuad, picture: Mask, seeds: Mask) -> bool:
        """Whether a card found in the faint foreground is one: part of it shows in the mask
        (FAINT_EVIDENCE of it in the blobs no card explains: where a card lay a while ago,
        the mat model holds a faint ghost of it, with sharp sides, that the mask does not
        show), not (nearly) all of it (FAINT_SOLID), and its sides are sharp (FAINT_SHARP)
        where the view shows the mat (a side along a tag's surround is judged on the rest of
        it: tempus-tall, tables 1000200-1000279, 5 of 20 fully visible cards lost so)."""
        corners = np.array(card.corners_mm) * self.px_per_mm
        outline = np.round(corners).astype(np.int32)
        return (_share_inside(outline, None, seeds) >= FAINT_EVIDENCE
                and _share_inside(outline, None, self.mask) <= FAINT_SOLID
                and faint_cards.sharp_sides(picture, corners, self.valid).min() >= FAINT_SHARP)

    def _at_edge(self, contour: NDArray[np.int32]) -> bool:
        """Whether a blob reaches the edge of the view."""
        h, w = self.mask.shape[:2]
        x, y, bw, bh = cv2.boundingRect(contour)
        return min(x, y) <= 2 or x + bw >= w - 2 or y + bh >= h - 2

    def _hull_cards(self, contour: NDArray[np.int32]) -> bool:
        """Keep the card or grid of cards the convex hull of a mended blob is, if it is one
        and the blob lies along most of its outline: where a rim does not show for a
        stretch (glare across it, or a face as dark as the mat beside it) the blob has a
        notch or a gap too wide to mend. With face_inset_mm, a hull that much smaller than
        a card is the face in its middle."""
        hull = np.asarray(cv2.convexHull(contour), np.int32)
        area = cv2.contourArea(hull) / self.px_per_mm**2
        if not 0.5 * self.card_area <= area <= MEND_MOST * self.card_area:
            return False
        pts = hull.reshape(-1, 2).astype(np.float64) / self.px_per_mm
        found = _as_card_or_grid(pts, area, self.card_mm)
        if not found and self.face_inset_mm:
            found = _inset_card(pts, area, self.card_mm, self.face_inset_mm)
        if not found or _share_along(hull, contour, self.px_per_mm) < HULL_OUTLINE:
            return False
        self.cards.extend(found)
        self._left_over(hull, area - len(found) * self.card_area)
        return True

    def _opened_cards(self, contours: list[NDArray[np.int32]]) -> bool:
        """Keep the cards that these blobs are with their spurs cut off (an opening OPEN_MM
        wide), if any: a face darker than the mat inside a light rim that does not show (1.2 mm
        of grey in dim light hardly differs from the mat) is a blob a few mm inside the
        card, with pieces of the rim stuck to it here and there, too thin to be a card."""
        if not contours:
            return False
        s = self.px_per_mm
        k = 2 * round(OPEN_MM * s / 2) + 1
        x, y, bw, bh = cv2.boundingRect(np.concatenate(contours))
        canvas = np.zeros((bh + 2 * k, bw + 2 * k), np.uint8)
        cv2.drawContours(canvas, contours, -1, 255, -1, offset=(k - x, k - y))
        opened = cv2.morphologyEx(canvas, cv2.MORPH_OPEN,
                                  cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
        outlines, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE,
                                       offset=(x - k, y - k))
        kept = False
        for piece in outlines:
            outline = np.asarray(piece, np.int32)
            area = cv2.contourArea(outline) / s**2
            if not 0.6 * self.card_area <= area <= MEND_MOST * self.card_area:
                continue
            pts = outline.reshape(-1, 2).astype(np.float64) / s
            found = _as_card_or_grid(pts, area, self.card_mm) or _inset_card(pts, area,
                                                                             self.card_mm)
            if found:
                self.cards.extend(found)
                self._left_over(outline, area - len(found) * self.card_area)
                kept = True
        return kept

    def _left_over(self, contour: NDArray[np.int32], rest: float) -> None:
        """Keep the part (mm^2) of a blob no card explains, for finish()."""
        if rest > 0:
            self.rests.append(_Blob(contour, rest, []))


def _on_any(contour: NDArray[np.int32], cards: list[CardQuad], px_per_mm: float) -> bool:
    """Whether the middle of a blob's bounding box lies on any of these cards."""
    x, y, bw, bh = cv2.boundingRect(contour)
    middle = ((x + bw / 2) / px_per_mm, (y + bh / 2) / px_per_mm)
    return any(cv2.pointPolygonTest(np.array(card.corners_mm, np.float32), middle, False) >= 0
               for card in cards)


def _faces(darker: Mask, px_per_mm: float, card_mm: tuple[float, float],
           origin: tuple[int, int] = (0, 0)) -> list[CardQuad]:
    """The cards whose faces, darker than the mat, these pixels are (a mask whose top-left
    pixel lies at `origin` in the view, with _faces_margin px of 0s inside each side that
    is not the view's, so that its cards are those the whole view shows): a lighter ring
    printed on a face closed over (RING_MM), each piece filled in, its spurs and the
    bridges to others cut off (an opening OPEN_MM wide), and the bites a lighter print
    near its edge takes out of it filled in (its hull, along which it lies for most of the
    way): a rectangle up to FACE_INSET_MM a side smaller than its card."""
    s = px_per_mm
    ring, k = _faces_kernels(s)
    darker = np.asarray(cv2.morphologyEx(darker, cv2.MORPH_CLOSE, cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (ring, ring))), np.uint8)
    outlines, _ = cv2.findContours(darker, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(darker)  # a lighter ring printed on the face is no cut in it
    cv2.drawContours(filled, outlines, -1, 255, -1)
    opened = np.asarray(cv2.morphologyEx(filled, cv2.MORPH_OPEN, cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (k, k))), np.uint8)
    pieces, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE,
                                 offset=origin)
    cards: list[CardQuad] = []
    card_area = card_mm[0] * card_mm[1]
    for piece in pieces:
        hull = np.asarray(cv2.convexHull(piece), np.int32)
        area = cv2.contourArea(hull) / s**2
        if not 0.6 * card_area <= area <= (1 + SIZE_TOL) ** 2 * card_area:
            continue
        found = _inset_card(hull.reshape(-1, 2).astype(np.float64) / s, area, card_mm,
                            FACE_INSET_MM)
        if found and _share_along(hull, np.asarray(piece, np.int32), s) >= HULL_OUTLINE:
            cards.extend(found)
    return cards


def _faces_kernels(px_per_mm: float) -> tuple[int, int]:
    """The sizes (px) of _faces' closing (RING_MM) and opening (OPEN_MM)."""
    return 2 * round(RING_MM * px_per_mm / 2) + 1, 2 * round(OPEN_MM * px_per_mm / 2) + 1


def _faces_margin(px_per_mm: float) -> int:
    """The px of 0s round the darker pixels beyond which _faces' closing and opening see
    nothing (their kernels' reach, twice over)."""
    return 2 * sum(_faces_kernels(px_per_mm))


def _reaches(mask: Mask, radius: float) -> bool:
    """Whether a pixel of the mask lies `radius` px or further from its nearest 0 pixel (the
    exact Euclidean distance transform's largest value, as it says): a disc about the
    likeliest such pixel settles most (_disc_inside: 34 of tempus-tall's 38 pieces on tables
    1000000-039, at a third of the time), the 5 x 5 chamfer distance, a third of the exact
    transform's time, all but a mask whose largest distance is within CHAMFER_5_BOUNDS of
    the radius."""
    if _disc_inside(mask, radius):
        return True
    reach = float(cv2.distanceTransform(mask, cv2.DIST_L2, cv2.DIST_MASK_5).max())
    under, over = CHAMFER_5_BOUNDS
    if reach < under * radius or reach >= over * radius:
        return reach >= over * radius
    return float(cv2.distanceTransform(mask, cv2.DIST_L2, cv2.DIST_MASK_PRECISE).max()) >= radius


def _disc_inside(mask: Mask, radius: float) -> bool:
    """Whether every pixel nearer than `radius` px (and a hundredth, for rounding) to one
    pixel of the mask is set: then that pixel lies `radius` or further from every 0. The
    pixel is the middle of the block deepest in the mask shrunk four times (its 4 x 4
    blocks set whole: the largest of their chamfer distance transform)."""
    h, w = mask.shape
    if min(h, w) < 4:
        return False
    shrunk = cv2.resize(mask, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
    blocks = np.zeros((h // 4 + 2, w // 4 + 2), np.uint8)  # (a border of 0s round them)
    blocks[1:-1, 1:-1] = shrunk == 255  # (INTER_AREA's mean is 255 only if all 16 are)
    _, deepest, _, (bx, by) = cv2.minMaxLoc(cv2.distanceTransform(blocks, cv2.DIST_L2,
                                                                   cv2.DIST_MASK_3))
    reach, disc, pixels = _disc(radius)
    x, y = 4 * (bx - 1) + 2, 4 * (by - 1) + 2
    if deepest <= 0 or not (reach <= x < w - reach and reach <= y < h - reach):
        return False
    around = mask[y - reach:y + reach + 1, x - reach:x + reach + 1]
    return cv2.countNonZero(cv2.bitwise_and(around, disc)) == pixels


@functools.cache
def _disc(radius: float) -> tuple[int, Mask, int]:
    """The half-width of the square round a disc of `radius` px (and a hundredth), the
    disc's pixels in it (255), and how many they are."""
    reach = math.ceil(radius + 0.01)
    dy, dx = np.mgrid[-reach:reach + 1, -reach:reach + 1]
    disc = np.where(np.hypot(dx, dy) < radius + 0.01, 255, 0).astype(np.uint8)
    return reach, disc, int(np.count_nonzero(disc))


def _grown(cards: list[CardQuad], mm: float, px_per_mm: float) -> NDArray[np.int32]:
    """The cards' corners (px, rounded; n x 4 x 2) moved out along their diagonals, by `mm`
    or so from each side: all at once, each as numpy's mean and norm give it for one card
    (the norm of a 2-vector is BLAS's dot: dot2)."""
    corners: Vec = np.array([card.corners_mm for card in cards], np.float64).reshape(-1, 4, 2)
    centres = corners.mean(axis=1, keepdims=True)
    reach = corners[:, 0] - centres[:, 0]
    scale = np.array([1 + mm * math.sqrt(2) / math.sqrt(dot2(x, y, x, y))
                      for x, y in reach.tolist()], np.float64)
    grown: Vec = centres + (corners - centres) * scale[:, None, None]
    return np.round(grown * px_per_mm).astype(np.int32)


def _clear_edges(mask: Mask, px_per_mm: float) -> None:
    """Clear a band EDGE_MM wide along the view's edges (the mat's), in place. The mat's
    own edge, where the view the model learnt from and this one may differ by the table
    beyond it a pixel or two off, is a ring round the whole view in the faint foreground:
    one blob that holds every card, none searched (uno-dark, tuning table 1000247)."""
    edge = math.ceil(EDGE_MM * px_per_mm)
    mask[:edge], mask[-edge:], mask[:, :edge], mask[:, -edge:] = 0, 0, 0, 0


def _near(blobs: list[_Blob], to: list[_Blob], reach: float) -> list[_Blob]:
    """The blobs whose bounding box lies within `reach` (px) of the box of one of `to`."""
    if not blobs or not to:
        return []
    boxes = np.array([cv2.boundingRect(b.contour) for b in to], np.float64)
    low, high = boxes[:, :2] - reach, boxes[:, :2] + boxes[:, 2:] + reach
    # (every blob against every box at once: a noisy faint view has hundreds of bits)
    x, y, bw, bh = np.array([cv2.boundingRect(b.contour) for b in blobs], np.float64).T[
        :, :, None]
    hit = ((x + bw >= low[:, 0]) & (x <= high[:, 0]) & (y + bh >= low[:, 1])
           & (y <= high[:, 1])).any(axis=1)
    return [blob for blob, near in zip(blobs, hit.tolist(), strict=True) if near]


def _holds_any(contour: NDArray[np.int32], seeds: Mask) -> bool:
    """Whether a (filled) outline holds any pixel of `seeds`."""
    return _share_inside(contour, seeds, seeds, empty=0.0) > 0


def _leads(outline: NDArray[np.int32], seeds: Mask) -> bool:
    """Whether a faint blob is searched for cards: it holds part of `seeds` (the blobs no
    card explains) or wraps round part of them (its hull holds some). A dark face's faint
    blob is cut apart along the ring where it steps to a lighter print (a zero of the
    difference a pixel wide): tempus-tall's back (tuning table 1000089), its oval nearly
    touching both long sides, is two halves and the oval, and the halves hold none of the
    oval's blob in the mask; a dark-rimmed face, its field the mat's grey, is a rim and a
    numeral's ring round the numeral (uno-dark's green-8, table 1000240)."""
    return _holds_any(np.asarray(cv2.convexHull(outline), np.int32), seeds)


def _share_inside(contour: NDArray[np.int32], chosen: Mask | None, region: Mask,
                  empty: float = 1.0) -> float:
    """The share of the pixels of a (filled) outline in the view (those `chosen` of them)
    that lie in `region`; `empty` for none."""
    h, w = region.shape[:2]
    x, y, bw, bh = cv2.boundingRect(contour)
    x0, y0, x1, y1 = max(0, x), max(0, y), min(w, x + bw), min(h, y + bh)
    if x1 <= x0 or y1 <= y0:
        return empty
    inside = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(inside, [contour], -1, 255, -1, offset=(-x0, -y0))
    if chosen is not None:
        inside = np.asarray(cv2.bitwise_and(inside, chosen[y0:y1, x0:x1]), np.uint8)
    drawn = cv2.countNonZero(inside)
    shared = cv2.countNonZero(cv2.bitwise_and(inside, region[y0:y1, x0:x1]))
    return shared / drawn if drawn else empty


def _cut_out(mask: Mask, cards: list[CardQuad], px_per_mm: float, grown_mm: float,
             origin: tuple[int, int]) -> None:
    """Clear the cards (each `grown_mm` out from its sides, as _drawn draws them) from a
    mask whose top-left pixel lies at `origin` in the view, in place."""
    for corners in _grown(cards, grown_mm, px_per_mm) - np.array(origin, np.int32):
        cv2.fillConvexPoly(mask, corners, 0)


def _drawn(cards: list[CardQuad], px_per_mm: float, grown_mm: float, h: int, w: int) -> Mask:
    """The cards (each `grown_mm` out from its sides) filled in on an h x w mask."""
    out = np.zeros((h, w), np.uint8)
    for corners in _grown(cards, grown_mm, px_per_mm):
        cv2.fillConvexPoly(out, corners, 255)
    return out


#: per side of a card, where its outline is checked (shares of the side) and across it,
#: the pixels stepped through (sharp_outline)
_SHARP_ALONG = np.linspace(0.1, 0.9, 12)
_SHARP_ACROSS = np.arange(-2.0, 2.5, 1.0)
_NEXT_CORNER = [1, 2, 3, 0]  # np.roll(corners, -1, axis=0) without its overhead


def sharp_outline(quad: CardQuad, grey: Frame, px_per_mm: float, on: Mask | None = None
                  ) -> bool:
    """Whether a card's outline is a sharp step in the view: along most of it (the
    median over its sides) the steepest step between neighbouring pixels across it is
    SHARP_EDGE or more. Glare is a soft blob, smooth inside, where the fit may take the
    blob's border for most of an outline and find no edge to say otherwise.

    With `on` (the pixels that show the mat), only the points of the outline where every
    pixel stepped through shows it are judged, if a quarter of them do: a glare spot fitted
    beside a tag or the view's edge takes that edge for a side of its outline, sharp."""
    corners = np.array(quad.corners_mm, np.float64) * px_per_mm
    sides = corners[_NEXT_CORNER] - corners
    normals = np.stack([sides[:, 1], -sides[:, 0]], axis=1) / np.hypot(
        sides[:, 0], sides[:, 1])[:, None]
    points = (corners[:, None, None, :] + _SHARP_ALONG[None, :, None, None] * sides[:, None, None]
              + _SHARP_ACROSS[None, None, :, None] * normals[:, None, None, :])
    h, w = grey.shape[:2]
    rounded = np.rint(points).astype(np.intp)
    pixels = np.minimum(np.maximum(rounded, 0), (w - 1, h - 1))
    # (side, point along it, step across it); whole steps, as exact as in floats
    levels = grey[pixels[..., 1], pixels[..., 0]].astype(np.int16)
    steps = np.abs(np.diff(levels, axis=2)).max(axis=2)
    if on is not None:  # (a pixel off the view shows no mat)
        shown = (rounded == pixels).all(axis=3) & (on[pixels[..., 1], pixels[..., 0]] > 0)
        judged = shown.all(axis=2)
        if 4 * int(judged.sum()) >= judged.size:
            steps = steps[judged]
    return float(np.median(steps)) >= SHARP_EDGE


def _share_along(outline: NDArray[np.int32], blob: NDArray[np.int32], px_per_mm: float
                 ) -> float:
    """The share of an outline's pixels within 2 mm of a (filled) blob."""
    x, y, bw, bh = cv2.boundingRect(outline)
    reach = max(1, round(2 * px_per_mm))
    shift = (reach - x, reach - y)
    size = (bh + 2 * reach, bw + 2 * reach)
    near = np.zeros(size, np.uint8)
    cv2.drawContours(near, [blob], -1, 255, -1, offset=shift)
    near = np.asarray(cv2.dilate(near, np.ones((2 * reach + 1, 2 * reach + 1), np.uint8)),
                      np.uint8)
    line = np.zeros(size, np.uint8)
    cv2.drawContours(line, [outline], -1, 255, 1, offset=shift)
    drawn = cv2.countNonZero(line)
    return cv2.countNonZero(cv2.bitwise_and(line, near)) / drawn if drawn else 0.0


def _mended(contours: list[NDArray[np.int32]], px_per_mm: float
            ) -> list[tuple[list[int], NDArray[np.int32] | None]]:
    """The blobs (outlines) with the gaps up to MEND_MM between and within them closed and
    what they enclose filled in: for each mended blob, which of the blobs it joins and its
    outline (None for blobs lost in the mending). A card whose face hardly differs from the
    mat (a dark face, or one coloured like the mat) shows only as its rim and print, and a
    rim broken here and there (glare, noise, JPEG) leaves pieces, or an outline that runs
    inside the card. Only blobs no card explained are joined: cards a few mm apart stay
    apart."""
    k = 2 * round(MEND_MM * px_per_mm / 2) + 1
    x, y, bw, bh = cv2.boundingRect(np.concatenate(contours))
    origin = (x - k, y - k)
    canvas = np.zeros((bh + 2 * k, bw + 2 * k), np.uint8)
    cv2.drawContours(canvas, contours, -1, 255, -1, offset=(-origin[0], -origin[1]))
    # grown, filled and shrunk back (a closing would not bridge a gap in a thin rim); a
    # square leaves a convex outline as it was, and is fast
    kernel = np.ones((k, k), np.uint8)
    grown = np.asarray(cv2.dilate(canvas, kernel), np.uint8)
    outlines, _ = cv2.findContours(grown, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(grown, outlines, -1, 255, -1)
    closed = np.asarray(cv2.erode(grown, kernel), np.uint8)
    outlines, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE,
                                   offset=origin)
    boxes = [cv2.boundingRect(o) for o in outlines]
    groups: dict[int, list[int]] = {}
    for i, contour in enumerate(contours):
        px, py = contour[0].reshape(2).tolist()
        # (a blob's corner may lie a pixel outside the mended outline, which is simplified)
        label = next((j for j, (ox, oy, ow, oh) in enumerate(boxes)
                      if ox - 2 <= px < ox + ow + 2 and oy - 2 <= py < oy + oh + 2
                      and cv2.pointPolygonTest(outlines[j], (px, py), True) >= -1.5), -1)
        groups.setdefault(label, []).append(i)
    return [(group, np.asarray(outlines[label], np.int32) if label >= 0 else None)
            for label, group in groups.items()]


def _inset_card(pts: Vec, area: float, card_mm: tuple[float, float],
                inset_mm: float = INSET_MM) -> list[CardQuad] | None:
    """The card a rectangular blob up to `inset_mm` a side smaller than it is the middle of."""
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(pts.astype(np.float32))
    if rw * rh <= 0 or area / (rw * rh) < MIN_FILL:
        return None
    (short, long), (card_short, card_long) = sorted((rw, rh)), sorted(card_mm)
    if not (card_short - 2 * inset_mm <= short <= card_short * (1 + SIZE_TOL)
            and card_long - 2 * inset_mm <= long <= card_long * (1 + SIZE_TOL)):
        return None
    theta = math.radians(angle)
    axis = (math.cos(theta), math.sin(theta)) if rw > rh else (-math.sin(theta), math.cos(theta))
    return [CardQuad.from_axes((cx, cy), axis, card_mm)]


def _as_card_or_grid(pts: Vec, area: float, card_mm: tuple[float, float]) -> list[CardQuad] | None:
    """The card, or grid of touching cards, a rectangular blob is; None if it is neither."""
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(pts.astype(np.float32))
    if rw * rh <= 0 or area / (rw * rh) < MIN_FILL:
        return None
    theta = math.radians(angle)
    (wx, wy), (hx, hy) = (math.cos(theta), math.sin(theta)), (-math.sin(theta), math.cos(theta))
    axis_w, axis_h = np.array([wx, wy]), np.array([hx, hy])
    best: tuple[float, list[CardQuad]] | None = None
    for long_along_h in (True, False):
        side_w, side_h = (card_mm[0], card_mm[1]) if long_along_h else (card_mm[1], card_mm[0])
        nx, ny = round(rw / side_w), round(rh / side_h)
        if nx < 1 or ny < 1:
            continue
        err = max(abs(rw - nx * side_w) / (nx * side_w), abs(rh - ny * side_h) / (ny * side_h))
        if err > SIZE_TOL or (best is not None and err >= best[0]):
            continue
        # touching cards lie a card apart (the blob is a little wider by the blur of its edge)
        cell_w, cell_h = min(rw / nx, side_w + GRID_GAP), min(rh / ny, side_h + GRID_GAP)
        ox = cx - wx * cell_w * nx / 2 - hx * cell_h * ny / 2
        oy = cy - wy * cell_w * nx / 2 - hy * cell_h * ny / 2
        long_axis = axis_h if long_along_h else axis_w
        quads = [
            CardQuad.from_axes((ox + wx * cell_w * (i + 0.5) + hx * cell_h * (j + 0.5),
                                oy + wy * cell_w * (i + 0.5) + hy * cell_h * (j + 0.5)),
                               long_axis, card_mm)
            for j in range(ny)
            for i in range(nx)
        ]
        best = (err, quads)
    return None if best is None else best[1]


def _fit_cards(contour: NDArray[np.int32], grey: Frame, px_per_mm: float,
               card_mm: tuple[float, float], dark_rims: bool = False, rims_seen: bool = False,
               beside: Mask | None = None) -> tuple[list[CardQuad], list[CardQuad]]:
    """Card rectangles with a (nearly) whole visible outline inside an irregular blob.

    The sides of every card lie along the blob's dominant edge directions (mod 90 degrees).
    For each such direction the edge pixels whose normal runs along one card axis vote
    for where a side lies on that axis; pairs of votes one card side apart give the
    card's extent along the axis, and the combinations of both axes are the candidate
    rectangles. They are kept if their outline lies on a blob border or an image edge:
    the top card of a pile shows its whole outline, a card beneath it does not.
    """
    made = _blob_fit(contour, grey, px_per_mm, card_mm, dark_rims, rims_seen, beside)
    if made is None:
        return [], []
    fit, candidates = made
    area = cv2.contourArea(contour) / px_per_mm**2
    return fit.solve(candidates, _refined(area, card_mm[0] * card_mm[1]))


def _refined(area: float, card_area: float) -> int:
    """How many of a blob's best candidates (area mm^2) are fitted to the edges along their
    outline: REFINED, or REFINED_PER_CARD for each card's area in it. The strongest lie
    round the cards whose outlines show best, several to a card, and in a heap of seven
    (tempus-framed table 1000097, dim light) the six refined left none to the top card,
    laid a few degrees across three others: its candidate 2.8 mm off showed 0.64 of its
    outline and was no card; the eleventh, refined, shows all of it."""
    return max(REFINED, math.ceil(REFINED_PER_CARD * area / card_area))


def _blob_fit(contour: NDArray[np.int32], grey: Frame, px_per_mm: float,
              card_mm: tuple[float, float], dark_rims: bool = False, rims_seen: bool = False,
              beside: Mask | None = None) -> tuple[_Fit, Vec] | None:
    """The fit of card outlines in a blob (_fit_cards) and the candidates it weighs; None
    where no card may lie on the blob. `rims_seen`: the blob shows the cards' rims
    (_Fit.rims_seen), but where it lies `beside` cards found before (the view's pixels
    cut out for them)."""
    x, y, bw, bh = cv2.boundingRect(contour)
    pad = round(4 * px_per_mm)
    x0, y0 = max(0, x - pad), max(0, y - pad)
    x1, y1 = min(grey.shape[1], x + bw + pad), min(grey.shape[0], y + bh + pad)
    roi = np.ascontiguousarray(grey[y0:y1, x0:x1])  # (filtered faster than a view)
    blob = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.drawContours(blob, [contour], -1, 255, -1, offset=(-x0, -y0))
    if not _may_cover_a_card(blob, px_per_mm, card_mm, _cover_inset(dark_rims)):
        return None  # (what the fit would find: every candidate's scores are 0)
    # edge thresholds follow the contrast, so a dim table still shows the seams between cards
    levels, off_blob = outline_kernels.histograms_split(roi, blob)
    area_px = int(levels.sum())
    low, high = (outline_kernels.percentiles_of_counts(levels, (5, 95)) if area_px
                 else (0.0, 255.0))
    strong = max(20.0, 0.4 * float(high - low))
    gx, gy, canny = _gradients_and_edges(roi, 0.4 * strong, strong)
    offset = np.array([x0, y0], np.float64)
    # the cards that start at the blob's own corners and straight sides, and (below) those
    # the edge votes find, whose outline may run inside the blob (piles a few mm off)
    anchored = outline_kernels.anchored_quads(_outline_mm(contour, px_per_mm), card_mm,
                                              px_per_mm, offset)
    xs, ys, edge_gx, edge_gy = outline_kernels.edge_pixels(canny, gx, gy)
    edge_normal = np.arctan2(edge_gy, edge_gx)
    directions = _directions(edge_normal)
    votes = _candidate_quads(xs, ys, edge_normal, area_px, px_per_mm, card_mm,
                             directions[:VOTED_DIRECTIONS])
    candidates = np.concatenate([votes, anchored])
    if not outline_kernels.cover((candidates + offset) / px_per_mm, offset, px_per_mm, blob,
                                 _GRID_S_FLAT, _GRID_T_FLAT, _GRID_CORNER_INDEX, MIN_COVER,
                                 _cover_inset(dark_rims)).any():
        return None  # (no candidate lies on the blob: each would score 0, as above; a third
        # of the blobs fitted, mended groups and hands among them, end here)
    edges = np.asarray(cv2.dilate(canny, np.ones((3, 3), np.uint8)), np.uint8)
    if dark_rims:  # (the seams' pixels marked as such where no image edge is: the edges
        # are 0 or 255, SEAM_PIXEL below it; two OpenCV passes, not numpy's four)
        seams = _dark_seams(roi, off_blob, px_per_mm, picture=rims_seen)  # (rims are seen
        # so only in the faint search, whose grey is its picture of the difference)
        marked = cv2.threshold(seams, 0, outline_kernels.SEAM_PIXEL, cv2.THRESH_BINARY)[1]
        edges = np.asarray(cv2.max(edges, marked), np.uint8)
    # (the gradient's magnitude made only where it is read: OpenCV's, for a Sobel gradient's
    # whole numbers the same as over the whole ROI)
    ref = max(1.0, 0.5 * _percentile_f32(np.asarray(cv2.magnitude(edge_gx, edge_gy), np.float32
                                                    ).ravel(), 90)) if len(xs) else 1.0
    near = None if beside is None or not rims_seen else np.ascontiguousarray(
        beside[y0:y1, x0:x1])
    fit = _Fit(blob, edges, offset, px_per_mm, card_mm, (gx, gy), ref, xs, ys,
               edge_normal.astype(np.float64), dark_rims, rims_seen,
               None if near is None else np.asarray(cv2.bitwise_or(blob, near), np.uint8),
               near, tuple(directions[VOTED_DIRECTIONS:]))
    return fit, candidates


def _gradients_and_edges(grey: Frame, low: float, high: float
                         ) -> tuple[NDArray[np.int16], NDArray[np.int16], Mask]:
    """The 3 x 3 Sobel gradient of a grey image both ways (the image mirrored at its border:
    cv2.Sobel's) and its Canny edges (cv2.Canny(grey, low, high)), from one pass of the
    gradient: Canny's own (its border pixels repeated), whose border is then mirrored
    (whole numbers all: the same to the bit, and Canny makes no gradient of its own). The
    gradient stays in the whole numbers (int16) OpenCV gives: the kernels read it at a few
    points, and two float32 copies of a blob's whole ROI cost tempus-tall's read (its
    heaps' ROIs 1.6 times uno-classic's) about 0.3 ms."""
    dx, dy = cv2.spatialGradient(grey, borderType=cv2.BORDER_REPLICATE)
    gx, gy = np.asarray(dx, np.int16), np.asarray(dy, np.int16)  # (typed: no copy)
    edges = np.asarray(cv2.Canny(gx, gy, low, high), np.uint8)
    outline_kernels.border_gradient(grey, gx, gy)
    return gx, gy, edges


def _may_cover_a_card(blob: Mask, px_per_mm: float, card_mm: tuple[float, float],
                      inset_mm: float = 0.0) -> bool:
    """Whether a card candidate may lie on the blob (`_outline_scores`' cover test), by
    whether the blob reaches far enough from its ROI's border: a thin blob along the view's
    edge (its bounding box the whole view) would be fitted over the whole view, for nothing.

    A candidate lies on the blob if 48 of its inner grid's 7 x 7 points (MIN_COVER: all but
    one; steps of d or more, a sixth of the card's short side shrunk by 10 % and by
    `inset_mm` (_cover_inset) from each side) are in it, and so are then some
    point q and the four points two steps from q along the grid's axes. One of those
    (perpendicular) axes runs at 45 degrees or less to the normal of the ROI's border
    nearest q; if q's pixel lies t pixels or less from that border, the point two steps
    outward along it lies beyond the border (rounded to a pixel) once d sqrt(2) > t + 1. So
    if no blob pixel lies further in than that, no candidate lies on the blob."""
    step = (0.9 * min(card_mm) - 2 * inset_mm) / 6 * px_per_mm
    reach = max(0, math.ceil(step * math.sqrt(2) - 1 - 0.01))  # the first depth not ruled out
    h, w = blob.shape
    return bool(blob[reach:h - reach, reach:w - reach].any())


def _dark_seams(roi: Frame, mat: NDArray[np.int64], px_per_mm: float,
                picture: bool = False) -> Mask:
    """Where two cards with dark rims touch: the middle of a dark band wider than one rim.
    Their outline there is no edge (black meets black), so these pixels stand for it.
    Dark is darker than SEAM_RATIO of the mat around in the view (`mat`: the histogram of
    the ROI's grey levels off the blob); in the faint search's `picture` of the difference
    (the mat at its mid grey, which no ratio measures from), darker than the mat as the
    faint foreground counts it (faint_cards.DARKER): two rims meeting in dim light, 15 of
    the noise's sigmas darker than the mat, are two thirds of its grey there, and their
    seam was no side of either card."""
    if picture:
        level = float(faint_cards.DARKER)
    else:
        level = (SEAM_RATIO * outline_kernels.percentiles_of_counts(mat, (50,))[0]
                 if mat.any() else 0.0)
    dark = np.asarray(cv2.threshold(roi, level, 255, cv2.THRESH_BINARY_INV)[1], np.uint8)
    k = 2 * round(SEAM_MM * px_per_mm / 2) + 1
    return np.asarray(cv2.erode(dark, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))),
                      np.uint8)


@dataclass
class _Fit:
    """Scores, refines and chooses card candidates (ROI pixels) inside one blob."""

    blob: Mask
    edges: Mask
    offset: Vec
    px_per_mm: float
    card_mm: tuple[float, float]
    grad: tuple[NDArray[np.int16], NDArray[np.int16]]  # the image gradient (x, y)
    ref: float
    edge_x: NDArray[np.intp]  # the edge pixels
    edge_y: NDArray[np.intp]
    edge_normal: Vec  # the gradient's angle on them
    dark_rims: bool  # the cards' rim is darker than the mat (_outline_scores)
    #: the blob shows the cards' rims (the faint foreground): with `dark_rims`, a candidate
    #: whose rim does not lie in it scores nothing (_rims_shown)
    rims_seen: bool = False
    #: where a rim counts as shown (ROI pixels): the blob and the cards found beside it
    #: (_blob_fit's `beside`), or the blob alone (None)
    rims_shown_in: Mask | None = None
    #: with `rims_seen`: the cards found beside the blob (ROI pixels of _blob_fit's `beside`)
    beside: Mask | None = None
    #: the blob's edge directions (degrees mod 90) beyond those voted along (_directions)
    unvoted: tuple[float, ...] = ()

    def solve(self, quads: Vec, refined: int) -> tuple[list[CardQuad], list[CardQuad]]:
        """The cards chosen among the candidates (ROI pixels), and other card outlines in
        the blob, best first."""
        if len(quads) == 0:
            return [], []
        offset, px_per_mm, card_mm = self.offset, self.px_per_mm, self.card_mm
        quads = outline_kernels.distinct(quads, px_per_mm)
        quads_mm = (quads + offset) / px_per_mm
        outline, strength = self._scores(quads_mm)
        # the votes use one direction per group of cards; fit each promising candidate to the
        # edges along its own outline (piles are a few degrees off each other)
        best: list[int] = []
        chosen: list[tuple[float, float]] = []  # their centres
        candidates = outline_kernels.promising(strength, outline, 0.5, WELL_PLACED)
        mids: list[list[float]] = outline_kernels.centres(quads[candidates]).tolist()
        apart = 3 * px_per_mm
        for k, (x, y) in zip(candidates.tolist(), mids, strict=True):
            if len(best) == refined:
                break
            for mx, my in chosen:  # (a loop, not all() of a generator: half the time)
                if not math.hypot(x - mx, y - my) > apart:
                    break
            else:
                best.append(k)
                chosen.append((x, y))
        if best:
            refits = _refine_many(quads[best], self.edge_x, self.edge_y, self.edge_normal,
                                  self.dark_rims)
            refits_mm = (refits + offset) / px_per_mm
            more = self._scores(refits_mm)
            quads_mm = np.concatenate([quads_mm, refits_mm])
            outline = np.concatenate([outline, more[0]])
            strength = np.concatenate([strength, more[1]])
        centres = outline_kernels.centres(quads_mm)
        ranked = np.argsort(-np.where(outline >= MIN_OUTLINE, strength, -1.0), kind="stable")
        # the cards; where each lies, the next best outlines (if the reader cannot name a
        # card, one of these may be the true one: a phantom spanning two cards of a pile
        # reads as none); and the best outlines elsewhere in the blob (cards the greedy
        # choice pushed out: a phantom taken first overlaps them), for the reader to name
        accepted, rivals, extras = outline_kernels.choose(
            quads_mm, centres, outline, ranked, card_mm, MIN_OUTLINE, MAX_OVERLAP,
            ALTERNATIVE_OUTLINE, EXTRA_OUTLINE, RIVALS_CHECKED, EXTRAS, self._touching())
        rival_rows = rivals.tolist()
        wanted = sorted({*accepted.tolist(), *extras.tolist(),
                         *(r for group in rival_rows for r in group if r >= 0)})
        frames = dict(zip(wanted, zip(*(a.tolist() for a in outline_kernels.card_frames(
            quads_mm[wanted], card_mm)), strict=True), strict=True))

        def card(k: int, alternatives: tuple[CardQuad, ...] = (), beneath: tuple[int, ...] = ()
                 ) -> CardQuad:
            corners, centre, angle = frames[k]
            return CardQuad(tuple(map(tuple, corners)), tuple(centre), angle, alternatives,
                            beneath)

        cards = [card(k, tuple(card(r) for r in group if r >= 0))
                 for k, group in zip(accepted.tolist(), rival_rows, strict=True)]
        taken = accepted.tolist()
        centre_of = dict(zip(wanted, centres[wanted].tolist(), strict=True))
        return cards, [card(e, beneath=self._beneath(e, taken, quads_mm, centre_of))
                       for e in extras.tolist()]

    def _scores(self, quads_mm: Vec) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """_outline_scores of the quads (mm) in this blob; 0 for those whose rim does not
        show where the blob shows the rims of a dark-rimmed deck (`rims_seen`)."""
        outline, strength = _outline_scores(quads_mm, self.blob, self.edges, self.offset,
                                            self.px_per_mm, self.grad, self.ref, self.dark_rims)
        if self.dark_rims and self.rims_seen:
            live = np.flatnonzero(outline > 0)
            shown_in = self.blob if self.rims_shown_in is None else self.rims_shown_in
            hidden = live[~_rims_shown(quads_mm[live], shown_in, self.offset, self.px_per_mm)]
            outline[hidden], strength[hidden] = 0.0, 0.0
        return outline, strength

    def _touching(self) -> tuple[float, float]:
        """How deep (mm) and how far turned (degrees) a card's outline may overlap one
        beside it: tiles lie touching in rows, whose seams place them; cards keep the
        outlines their blobs give."""
        return (TOUCHING_MM, tile_rows.TURNED_DEG) if tile_rows.are_tiles(self.card_mm) else (
            0.0, 0.0)

    def _beneath(self, extra: int, accepted: list[int], quads_mm: Vec,
                 centres: dict[int, list[float]]) -> tuple[int, ...]:
        """The cards (indices into `accepted`) that candidate `extra` overlaps and lies on."""
        limit = MAX_OVERLAP * self.card_mm[0] * self.card_mm[1]
        apart = math.hypot(*self.card_mm) + 1.0  # centres further apart: they cannot overlap
        x, y = centres[extra]
        return tuple(j for j, k in enumerate(accepted)
                     if max(abs(x - centres[k][0]), abs(y - centres[k][1])) <= apart
                     and outline_kernels.overlap_area(quads_mm[extra], quads_mm[k]) >= limit
                     and self.lies_on(quads_mm[extra], quads_mm[k]))

    def candidates_around(self, piece: NDArray[np.int32]) -> Vec:
        """The card outlines (ROI pixels) that the blob's edges in and around a piece of it
        vote for (within the margin of a blob's own fit), and the piece's own corners and
        sides: what a fit of the piece alone weighs, from the blob's edges."""
        s, offset = self.px_per_mm, self.offset
        x, y, w, h = cv2.boundingRect(piece)
        pad = round(4 * s)  # (the margin of a blob's own fit)
        x0, y0 = x - pad - offset[0], y - pad - offset[1]
        near = ((self.edge_x >= x0) & (self.edge_x < x0 + w + 2 * pad)
                & (self.edge_y >= y0) & (self.edge_y < y0 + h + 2 * pad))
        votes = _candidate_quads(self.edge_x[near], self.edge_y[near],
                                 self.edge_normal[near].astype(np.float32),
                                 round(cv2.contourArea(piece)), s, self.card_mm)
        anchored = outline_kernels.anchored_quads(_outline_mm(piece, s), self.card_mm, s,
                                                  offset)
        return np.concatenate([votes, anchored])

    def within(self, piece: NDArray[np.int32]) -> _Fit:
        """The fit of a piece of the blob on the blob's edges, gradient and seams: the
        piece's mask in place of the blob's (what a candidate must lie on, and where its
        sides are free). A piece's own Canny pass cost as much as its blob's and mostly
        found no card (the part of a card that others hide lacks a corner)."""
        on_piece = np.zeros_like(self.blob)  # (the piece drawn in the blob's ROI)
        cv2.drawContours(on_piece, [piece], -1, 255, -1,
                         offset=(-round(self.offset[0]), -round(self.offset[1])))
        shown_in = None if self.beside is None else np.asarray(
            cv2.bitwise_or(on_piece, self.beside), np.uint8)
        return dataclasses.replace(self, blob=on_piece, rims_shown_in=shown_in, unvoted=())

    def lying_on(self, on_piece: Mask, candidates: Vec, below: list[CardQuad]
                 ) -> list[CardQuad]:
        """The cards among the `candidates` around a piece of the blob (candidates_around),
        fitted in the whole blob, that the piece alone (`on_piece`: drawn in the ROI, as
        within's fit has it) cannot hold (a fit on it had them to weigh) and that lie on
        cards `below` (on_top)."""
        found, _ = self.solve(candidates, REFINED)
        if not found:
            return []
        s, offset = self.px_per_mm, self.offset
        held = outline_kernels.cover(np.array([card.corners_mm for card in found]), offset, s,
                                     on_piece, _GRID_S_FLAT, _GRID_T_FLAT,
                                     _GRID_CORNER_INDEX, MIN_COVER,
                                     _cover_inset(self.dark_rims))
        return [card for card, in_piece in zip(found, held.tolist(), strict=True)
                if not in_piece and self.on_top(card, below)]

    def on_top(self, card: CardQuad, others: list[CardQuad]) -> bool:
        """Whether the card lies on others: it overlaps one at least by MAX_OVERLAP of a card
        or more (more than cards side by side may), and lies on each it overlaps so."""
        limit = MAX_OVERLAP * self.card_mm[0] * self.card_mm[1]
        upper = np.array(card.corners_mm)
        under = [lower for lower in (np.array(other.corners_mm) for other in others)
                 if outline_kernels.overlap_area(upper, lower) >= limit]
        return bool(under) and all(self.lies_on(upper, lower) for lower in under)

    def lies_on(self, upper: Vec, lower: Vec) -> bool:
        """Whether card `upper` (mm) lies on card `lower` where they overlap: its own outline
        shows as an edge across `lower`, and the outline of `lower` does not across it."""
        shown_upper = self._outline_inside(upper, lower)
        shown_lower = self._outline_inside(lower, upper)
        return shown_upper is not None and shown_upper >= 0.7 and (
            shown_lower is None or shown_lower <= shown_upper - 0.3)

    def _outline_inside(self, quad: Vec, other: Vec) -> float | None:
        """The share of the part of quad's outline well inside `other` on an image edge, and
        there a step across the side itself, not the texture of a card face (a back's
        lattice)."""
        return outline_kernels.outline_inside(quad, other, _INSIDE_STEPS, _ACROSS_SHIFTS_FLAT,
                                              2.0, self.offset, self.px_per_mm, self.edges,
                                              *self.grad)


def _length(x: float, y: float) -> float:
    """np.linalg.norm of a 2-vector (the same BLAS dot product), without numpy's overhead."""
    return math.sqrt(dot2(x, y, x, y))


def _candidate_quads(xs: NDArray[np.intp], ys: NDArray[np.intp], normal: NDArray[np.float32],
                     area_px: int, px_per_mm: float, card_mm: tuple[float, float],
                     angles: list[float] | None = None) -> Vec:
    """Nx4x2 card rectangles (ROI pixels) that the edges of a blob of area_px pixels (edge
    pixels at xs, ys, the angles of their gradient) vote for, along the blob's VOTED_DIRECTIONS
    strongest directions (_directions), or along `angles` (degrees mod 90)."""
    if len(xs) < 10:
        return np.zeros((0, 4, 2))
    if angles is None:
        angles = _directions(normal)[:VOTED_DIRECTIONS]
    area = float(area_px) / px_per_mm**2
    per_axis = min(MAX_SIDE_PAIRS, 2 + math.ceil(area / (card_mm[0] * card_mm[1])))
    thetas = np.array([math.radians(angle) for angle in angles])
    return outline_kernels.candidate_rects(xs, ys, normal, thetas,
                                           (card_mm[0] * px_per_mm, card_mm[1] * px_per_mm),
                                           per_axis)


def _directions(normal: NDArray[np.float32]) -> list[float]:
    """The dominant directions (degrees mod 90) of edge pixels with gradient angles `normal`,
    strongest first, up to DIRECTIONS: at 1 degree, smoothed round the circle, its peaks
    (every bin in turn: the shoulders of two broad peaks, piles of cards a degree or two
    apart, are more than a dozen of the highest bins, and a third card's peak lies below
    them) of 0.3 of the highest or more, 3 degrees from those before."""
    if len(normal) < 10:
        return []
    hist = outline_kernels.direction_histogram(normal)
    kernel = np.array([1.0, 2.0, 3.0, 2.0, 1.0])
    smoothed = np.convolve(np.concatenate([hist[-2:], hist, hist[:2]]), kernel, "valid")
    order: list[int] = np.argsort(-smoothed).tolist()
    smooth: list[float] = smoothed.tolist()
    angles: list[float] = []
    for i in order:
        if smooth[i] < 0.3 * smooth[order[0]]:
            break
        if smooth[i] < max(smooth[(i - 1) % 90], smooth[(i + 1) % 90]):
            continue
        if any(abs((i - a + 45) % 90 - 45) < 3 for a in angles):
            continue
        # refine to a fraction of a degree: a parabola through the peak and its neighbours
        left, mid, right = smooth[(i - 1) % 90], smooth[i], smooth[(i + 1) % 90]
        denom = left - 2 * mid + right
        shift = 0.5 * (left - right) / denom if denom < 0 else 0.0
        angles.append(float(i) + 0.5 + shift)
        if len(angles) == DIRECTIONS:
            break
    return angles


def _refine_many(quads: Vec, xs: NDArray[np.intp], ys: NDArray[np.intp], normal: Vec,
                 dark_rims: bool = False, rounds: int = 2) -> Vec:
    """The quads (Kx4x2, ROI pixels) each turned and moved onto the edge pixels (at xs, ys,
    row by row, with the angles of their gradient) along its own outline; of a dark-rimmed
    deck, onto those where the grey rises outward (its outline's, not its face's)."""
    return outline_kernels.refine(quads, xs.astype(np.float64), ys.astype(np.float64),
                                  np.ascontiguousarray(normal, np.float64), rounds, dark_rims)


def _percentile_f32(values: NDArray[np.float32], percent: float) -> float:
    """np.percentile (linear) of a non-empty float32 array, rounded in float32 as numpy does
    for a plain number `percent`, from the two values it lies between (one quickselect,
    which reorders the values)."""
    n = len(values)
    at = (n - 1) * (percent / 100)
    before = n - 1 if at >= n - 1 else math.floor(at)
    t = at - (-1 if at >= n - 1 else before)  # (numpy's weight when at the last value)
    a, b = (np.float32(v) for v in kth_and_next(values, before))  # (the next value up)
    step = b - a
    value = b - step * np.float32(1 - t) if t >= 0.5 else a + step * np.float32(t)
    return float(value)


def _outline_mm(contour: NDArray[np.int32], px_per_mm: float) -> Vec:
    """A blob's outline (mm) as straight sides within 1.5 mm, turned to a positive oriented
    area (the way round the anchors take it)."""
    poly = cv2.approxPolyDP(contour, 1.5 * px_per_mm, True).reshape(-1, 2).astype(np.float64)
    poly /= px_per_mm
    if cv2.contourArea(poly.astype(np.float32), oriented=True) < 0:
        poly = poly[::-1]
    return poly


_GRID_S, _GRID_T = (g.ravel()[None, :, None] for g in np.meshgrid(np.linspace(0, 1, 7),
                                                                   np.linspace(0, 1, 7)))
_GRID_CORNERS = [0, 6, 42, 48]
_SIDE_STEPS = np.linspace(0.1, 0.9, SIDE_SAMPLES)[None, None, :, None]
_ACROSS_SHIFTS = np.array([-1.0, 0.0, 1.0])[:, None, None]
# the same as plain arrays, for the compiled kernels
_GRID_S_FLAT = np.ascontiguousarray(_GRID_S.ravel())
_GRID_T_FLAT = np.ascontiguousarray(_GRID_T.ravel())
_GRID_CORNER_INDEX = np.array(_GRID_CORNERS, np.intp)
_SIDE_STEPS_FLAT = np.ascontiguousarray(_SIDE_STEPS.ravel())
_ACROSS_SHIFTS_FLAT = np.ascontiguousarray(_ACROSS_SHIFTS.ravel())
_INSIDE_STEPS = np.linspace(0.05, 0.95, 20)  # where an outline is checked across another card


def _outline_scores(quads: Vec, blob: Mask, edges: Mask, offset: Vec, px_per_mm: float,
                    grad: tuple[NDArray[np.int16], NDArray[np.int16]],
                    ref: float, dark_rims: bool = False
                    ) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Per Nx4x2 quad: the share of its outline on a blob border or an image edge, and how
    strongly its outline is a step across the side (1 on a blob border; else the image
    gradient across the side relative to `ref`, at most 1), which ranks rivals: a card's
    own outline is a sharp step, the printed frame a few mm inside it only a thin line.
    A free side (mat beyond it) is the surest outline: a phantom between two cards of a
    pile square reaches into its neighbour and has fewer, so it adds to the strength.

    Both are 0 for a quad that does not lie (almost) wholly inside the blob (of a dark-rimmed
    card, its middle: _cover_inset).
    """
    return outline_kernels.outline_scores(quads, offset, px_per_mm, blob, edges, *grad, ref,
                                          _SIDE_STEPS_FLAT, _ACROSS_SHIFTS_FLAT, _GRID_S_FLAT,
                                          _GRID_T_FLAT, _GRID_CORNER_INDEX, MIN_COVER, dark_rims,
                                          _cover_inset(dark_rims))


def _rims_shown(quads: Vec, blob: Mask, offset: Vec, px_per_mm: float) -> NDArray[np.bool_]:
    """Per Nx4x2 quad (mm), whether the blob (ROI pixels from `offset`) holds it RIM_MM
    inside each of its sides along all but RIM_MISSING of the side (points beyond the ROI
    are not in it)."""
    if not len(quads):
        return np.zeros(0, bool)
    a = quads
    b = np.roll(quads, -1, axis=1)
    along = b - a  # (n, 4, 2): each side
    inward = np.stack([-along[..., 1], along[..., 0]], axis=-1)
    inward /= np.maximum(np.linalg.norm(inward, axis=-1, keepdims=True), 1e-9)
    towards = quads.mean(axis=1, keepdims=True) - (a + b) / 2
    inward *= np.where((inward * towards).sum(axis=-1, keepdims=True) < 0, -1.0, 1.0)
    points = (a[:, :, None] + _RIM_ALONG[None, None, :, None] * along[:, :, None]
              + RIM_MM * inward[:, :, None])  # (n, 4, along, 2)
    px = np.rint(points * px_per_mm - offset).astype(np.intp)
    h, w = blob.shape
    inside = (px[..., 0] >= 0) & (px[..., 0] < w) & (px[..., 1] >= 0) & (px[..., 1] < h)
    held = np.zeros(inside.shape, bool)
    held[inside] = blob[px[..., 1][inside], px[..., 0][inside]] > 0
    out: NDArray[np.bool_] = ((~held).mean(axis=2) <= RIM_MISSING).all(axis=1)
    return out


def _cover_inset(dark_rims: bool) -> float:
    """How far (mm) inside a card's outline the blob must hold it, beyond the margin every
    card has: for a dark-rimmed deck, INSET_MM. Such a rim, blurred, under glare or in dim
    light, is often neither MODEL_DIFF from the mat nor DARK_RATIO of it, and the blob is
    the card's lighter face, up to the rim and the blur of the face's edge smaller than the
    card on the sides where the rim does not show: the true outline of such a card lying
    among others then failed the cover test (uno-dark, held-out tables 1000040-1000119:
    13 of the 30 fully visible cards not found or found with a wrong outline, their
    outlines 0.8 to 0.96 in the blob). A card alone is found anyway (_as_card_or_grid)."""
    return INSET_MM if dark_rims else 0.0


def overlap_mm2(a: CardQuad, b: CardQuad) -> float:
    """The area two card quads share (mm^2)."""
    return outline_kernels.overlap_area(np.array(a.corners_mm), np.array(b.corners_mm))


def warp_patch(frame: Frame, corners_px: Vec, size: tuple[int, int] = (64, 88),
               out: Frame | None = None) -> Frame:
    """The quadrilateral of the frame with these corners (image pixels, clockwise from the
    card's top-left) as an upright (width, height) patch of the frame's channels; written
    into `out` when given (a slot of a batch of patches)."""
    m = cv2.getPerspectiveTransform(corners_px.astype(np.float32), patch_corners(size))
    return np.asarray(cv2.warpPerspective(frame, m, size, dst=out, flags=cv2.INTER_LINEAR),
                      np.uint8)


@functools.cache
def patch_corners(size: tuple[int, int]) -> NDArray[np.float32]:
    """The corners of a (width, height) patch, pixel centres at whole numbers (made once
    per size: a frame's patches are cut by the dozen)."""
    w, h = size
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32) - 0.5
    corners.flags.writeable = False
    return corners
