"""Reading the table: calibrate once, then per frame find the cards and name them.

    >>> reader = TableReader(default_mat(), identifier, card_mm=(63, 88))   # doctest: +SKIP
    >>> reading = reader.read(frame)                                        # doctest: +SKIP
    >>> [c.to_json() for c in reading.cards], reading.obstructed            # doctest: +SKIP

A camera with a second, larger stream of the same instant (a Pi camera's full frame)
passes it too, `reader.read(frame, full=full)`: cards are found on the small frame and
cut for naming from the large one, where a small card or a tile has its detail.

A table lies still for seconds between moves: once FULL_READS frames in a row have been
read in full alike, each naming every card with nothing covering the mat, a frame whose
pixels are those of the last of them, within the camera's noise (vision.still), gets that
frame's reading again (`repeated`). Only then are frames compared: a frame of a table that
changes is read with no comparison's cost.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from vision.calibration import (
    BadFrame,
    Calibration,
    Frame,
    TableNotFound,
    calibrate,
    check_frame,
)
from vision.cards import (
    MAT_DIFF,
    MAX_OVERLAP,
    SHARP_EDGE,
    CardQuad,
    CardScan,
    Clutter,
    Mask,
    MatModel,
    find_cards,
    foreground_mask,
    mat_background,
    mat_colour,
    overlap_mm2,
    patch_corners,
    sharp_outline,
    view_mask,
    warp_patch,
)
from vision.compiled import box_means, grid_medians
from vision.identify import PATCH_SIZE, Identifier
from vision.mat import MAT_BGR, MatSpec, TagPlacement
from vision.rim_faces import face_outline
from vision.still import StillTest

DETECT_PX_PER_MM = 1.0
THUMBNAIL_PX_PER_MM = 0.5
OBSTRUCTED_CARD_AREAS = 2.5  # a non-card blob this large (in card areas) is a hand or alike
REACHING_CARD_AREAS = 1.0  # or this large and coming in over the mat's edge: an arm
LEARN_EVERY = 4  # frames between updates of the mat model
LEARN_RATE = 0.3  # share of the view an update blends in where the mat shows
HEAL_RATE = 0.5  # the same where the model no longer fits but the view looks like bare mat
LIGHT_STEP = 6.0  # mm between the mat model's samples under a card (_lights)
COVER_GROWTH = 1.5  # mm by which another outline's part of a card grows (its rim, blurred)
MIN_COVERED = 0.05  # share of a card below which a cover takes too little from its shape to
# have left it unknown (held-out tempus-framed tables 1000000-1000039: of 11 cards retried
# covered less, none named; of 16 covered 5-20 %, 8, each right)
MAX_COVERED = 0.2  # share of a card beyond which its uncovered part is too little to name
SAME_SHAPE = 0.01  # how far a full frame's aspect ratio may differ from the small frame's
FULL_READS = 3  # frames of a still table read in full, alike, before its reading is repeated:
# a tracker's agreeing frames (firmware.tracker, 3) each read the table anew (a card's outline
# in a pile is one of candidates a degree apart, the angle it settles with their median), and
# a frame that missed a card the others found does not stand for the frames after it
ALIKE_MM = 2.0  # how far a card may lie from where the frame before had it, the readings alike


@dataclass
class SeenCard:
    """One card as seen: its code (None if not recognised), confidence and where it lies."""

    code: str | None
    confidence: float
    corners_px: list[list[float]]  # four [x, y] image pixels, clockwise from its top-left
    table_mm: tuple[float, float] | None = None  # its centre on the mat

    def to_json(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "confidence": self.confidence,
            "corners": [[x, y] for x, y in self.corners_px],
            "table_mm": None if self.table_mm is None else [self.table_mm[0], self.table_mm[1]],
        }


@dataclass
class TableReading:
    """What one frame shows: the cards, whether something covers the mat, a small top view,
    and what else lies on the mat (foreground no card explains: a hand's fragments)."""

    cards: list[SeenCard]
    obstructed: bool
    thumbnail: NDArray[np.uint8] = field(repr=False)
    clutter: list[Clutter] = field(default_factory=list)
    #: The frame showed the table as the last frame read in full did, within the camera's
    #: noise: this is that frame's reading again (its thumbnail too), nothing found anew.
    repeated: bool = False


@dataclass
class _LastRead:
    """The last frame read in full, while its reading may be given again: how frames are
    compared with it, its picture (once FULL_READS frames in a row were read alike), the
    reading, the shape of its full frame if any, and how many frames in a row were read
    in full alike (this one too)."""

    still: StillTest
    picture: NDArray[np.uint8] | None = field(repr=False)
    reading: TableReading = field(repr=False)
    full_shape: tuple[int, ...] | None
    read_in_full: int
    #: the frame's top-down view and what was found on it: a frame given this reading again
    #: that falls due to teach the mat model (LEARN_EVERY) teaches it these
    view: tuple[Frame, CardScan] = field(repr=False)

    def shown_again(self, image: Frame, full: Frame | None, calibration: Calibration | None
                    ) -> bool:
        """Whether a frame (with its full twin, and a calibration if one is given) shows the
        table as this frame did; False too where it is not compared (no picture of this
        frame, another calibration, another shape of frame or full frame)."""
        if (self.picture is None
                or (calibration is not None and calibration is not self.still.calibration)
                or self.full_shape != (None if full is None else full.shape)):
            return False
        return self.still.same(self.picture, image)


@dataclass
class TopDownWarp:
    """How frames of one size become the top-down view of the mat under one calibration.

    The view is warped from the frame halved first (cheaper, and less aliased) when the
    camera sees the mat at twice the view's resolution or more. OpenCV warps a 4-channel
    image about twice as fast as a 3-channel one, so the part of the frame the view reads
    (`box`) is first copied as BGRA into a frame-sized buffer; the view has the same pixels.
    """

    calibration: Calibration
    frame_shape: tuple[int, ...]
    homography: NDArray[np.float64]  # (halved) frame pixels -> view pixels
    halve: bool
    size: tuple[int, int]  # (width, height) of the view
    box: tuple[int, int, int, int]  # x0, y0, x1, y1 of the (halved) frame pixels it reads
    buffer: NDArray[np.uint8] = field(repr=False)  # BGRA, as large as the (halved) frame

    @classmethod
    def plan(cls, cal: Calibration, frame_shape: tuple[int, ...],
             px_per_mm: float) -> TopDownWarp:
        mat = cal.mat
        h = cal.mat_to_warp_h(px_per_mm)
        corners = cal.mat_to_image(np.array([[0.0, 0.0], [mat.width_mm, 0.0]]))
        seen_px_per_mm = float(np.linalg.norm(corners[1] - corners[0])) / mat.width_mm
        halve = seen_px_per_mm >= 2 * px_per_mm
        source = frame_shape[:2]
        if halve:
            source = (frame_shape[0] // 2, frame_shape[1] // 2)
            # a pixel of the halved frame is the mean of 2x2, centred at 2 q + 0.5
            h = h @ np.array([[2.0, 0.0, 0.5], [0.0, 2.0, 0.5], [0.0, 0.0, 1.0]])
        size = (round(mat.width_mm * px_per_mm), round(mat.height_mm * px_per_mm))
        # the view's corner pixels in the source: the view reads within a pixel of their box
        view_corners = np.array([[0.0, 0.0], [size[0] - 1, 0.0], [size[0] - 1, size[1] - 1],
                                 [0.0, size[1] - 1]]).reshape(-1, 1, 2)
        seen = cv2.perspectiveTransform(view_corners, np.linalg.inv(h)).reshape(-1, 2)
        (x0, y0), (x1, y1) = np.floor(seen.min(axis=0)) - 3, np.ceil(seen.max(axis=0)) + 4
        box = (int(max(x0, 0)), int(max(y0, 0)), int(min(x1, source[1])), int(min(y1, source[0])))
        return cls(cal, frame_shape, h, halve, size, box,
                   np.zeros((source[0], source[1], 4), np.uint8))

    def warp(self, image: Frame) -> Frame:
        if self.halve:
            half = (image.shape[1] // 2, image.shape[0] // 2)
            image = np.asarray(cv2.resize(image, half, interpolation=cv2.INTER_AREA), np.uint8)
        x0, y0, x1, y1 = self.box
        if x1 > x0 and y1 > y0:
            cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2BGRA, dst=self.buffer[y0:y1, x0:x1])
        view = cv2.warpPerspective(self.buffer, self.homography, self.size,
                                   flags=cv2.INTER_LINEAR)
        return np.asarray(cv2.cvtColor(view, cv2.COLOR_BGRA2BGR), np.uint8)

    def holds(self, quads_px: NDArray[np.float64]) -> NDArray[np.bool_]:
        """Whether the buffer holds the last frame's pixels around each quadrilateral
        (n, 4, 2 frame pixels), all at once (a frame's patches are cut by the dozen)."""
        x0, y0, x1, y1 = self.box
        low, high = quads_px.min(axis=1), quads_px.max(axis=1)
        inside: NDArray[np.bool_] = ((low >= (x0 + 2, y0 + 2))
                                     & (high <= (x1 - 3, y1 - 3))).all(axis=1)
        return inside & (not self.halve)


def _tag_band_spans(tag: TagPlacement) -> list[tuple[float, float]]:
    """Bands across a tag (mm below its centre): the white surround above and below it,
    then its black border at the top and the bottom."""
    half = tag.size_mm / 2
    return [(-half - 5, -half - 1), (half + 1, half + 5), (-half + 2, -half + 6),
            (half - 6, half - 2)]


class TableReader:
    """Reads frames of one mat: calibrates on the first frame and keeps that calibration.

    It calibrates again when asked (`recalibrate()`), when the frame size changes, or
    when the mat tags no longer show where the calibration expects them.

    With `reuse_still` (the default), a frame of a still table gets the reading of the
    last frame read in full again (see the module's note); a benchmark that times the
    same frame read again turns it off.
    """

    def __init__(self, mat: MatSpec, identifier: Identifier,
                 card_mm: tuple[float, float], px_per_mm: float = DETECT_PX_PER_MM,
                 dark_rims: bool = False, dark_faces: bool = False,
                 reuse_still: bool = True) -> None:
        self.mat = mat
        self.identifier = identifier
        self.card_mm = card_mm
        self.dark_rims = dark_rims  # the cards' rim is darker than the mat (find_cards)
        self.dark_faces = dark_faces  # some faces dark with no light rim (find_cards)
        self.px_per_mm = px_per_mm
        self._calibration: Calibration | None = None
        self._valid: Mask | None = None
        self._model: MatModel | None = None  # the empty mat, learnt after each calibration
        self._top_down: TopDownWarp | None = None
        self._sharp: SharpCut | None = None  # cuts from the full frames
        self._frames = 0  # frames read since the model was learnt
        self._tag_bands: NDArray[np.int64] | None = None  # view boxes of _tag_band_spans
        self.reuse_still = reuse_still
        self._last: _LastRead | None = None  # the last frame read in full, if reusable
        self._still: StillTest | None = None  # planned once per calibration and frame size

    @property
    def calibration(self) -> Calibration | None:
        return self._calibration

    def recalibrate(self) -> None:
        """Forget the calibration; the next frame calibrates again."""
        self._last = None
        self._calibration = None
        self._valid = None
        self._model = None

    def read(self, frame: object, calibration: Calibration | None = None, *,
             full: object = None) -> TableReading:
        """Read one frame; raises BadFrame, or TableNotFound if the mat was never found.

        `full`, when given, is the same instant at a higher resolution (the camera's
        full frame): the cards found on `frame` are cut from it for naming."""
        image = _bgr(check_frame(frame))
        source = NamingSource(image) if full is None else NamingSource.of(image, full)
        last, self._last = self._last, None
        if last is not None and last.shown_again(image, source.full, calibration):
            self._last = last
            self._frames += 1
            if self._frames % LEARN_EVERY == 0:
                # the model learns on the frames it always did (frames read in full alone
                # would shift which frames it learns from, and what it later finds)
                self._learn(*last.view, self._current()[1])
            reading = last.reading
            return dataclasses.replace(reading, cards=list(reading.cards),
                                       clutter=list(reading.clutter), repeated=True)
        if source.full is not None:  # planned on the frame that calibrates, a one-off
            self._sharp_cut(source.full.shape)
        if calibration is not None:
            self._use(calibration)
        elif self._calibration is None or self._calibration.image_size != (
                image.shape[1], image.shape[0]):
            self._use(calibrate(image, self.mat))
        cal, valid = self._current()
        top = self._warp(image, cal)
        covered = False
        if not self._tags_in_place(top, valid):
            try:
                fresh = calibrate(image, self.mat, previous=cal)
            except TableNotFound:
                fresh = cal
            # the same calibration back: too few tags show and those still agree with it,
            # most likely a hand over the others: keep it
            covered = fresh is cal
            if not covered:
                self._use(fresh)
                cal, valid = self._current()
                top = self._warp(image, cal)
        # the view's grey levels, made once: the cards' fit and the thumbnail read them
        grey = np.asarray(cv2.cvtColor(top, cv2.COLOR_BGR2GRAY), np.uint8)
        if self._model is None:
            first = find_cards(top, self.px_per_mm, self.card_mm, valid,
                               dark_rims=self.dark_rims, view_grey=grey,
                               dark_faces=self.dark_faces)
            self._model = MatModel(top, self.px_per_mm, valid,
                                   self._not_mat(top, grey, first, valid))
            self._frames = 0
        scan = find_cards(top, self.px_per_mm, self.card_mm, valid, self._model,
                          self.dark_rims, grey, self.dark_faces)
        self._frames += 1
        if self._frames % LEARN_EVERY == 0:
            self._learn(top, scan, valid)
        quads, named = self._name_cards(source, cal, scan, grey)
        # every card's corners in the frame at once
        corners_px = np.zeros((0, 4, 2))
        if quads:
            corners_px = cal.mat_to_image(np.array([q.corners_mm for q in quads]).reshape(-1, 2))
            corners_px = corners_px.round(1).reshape(-1, 4, 2)
        cards = [
            SeenCard(code=code, confidence=conf, corners_px=corners,
                     table_mm=(round(quad.center_mm[0], 1), round(quad.center_mm[1], 1)))
            for quad, (code, conf), corners in zip(quads, named, corners_px.tolist(), strict=True)
        ]
        card_area = self.card_mm[0] * self.card_mm[1]
        obstructed = covered or any(
            c.area_mm2 >= (REACHING_CARD_AREAS if c.at_edge else OBSTRUCTED_CARD_AREAS) * card_area
            for c in scan.clutter)
        reading = TableReading(cards=cards, obstructed=obstructed,
                               thumbnail=self._thumbnail(grey), clutter=scan.clutter)
        if self.reuse_still and not obstructed and all(c.code is not None for c in cards):
            # (an unknown card is read again in full: each frame is another chance to name it)
            test = self._still_test(cal, image.shape)
            # alike: the reading says what the last said, and no comparison found the pixels
            # changed (the last had a picture: this frame was compared with it and is read in
            # full, so it changed; a card nudged reads alike, and FULL_READS of it are read)
            alike = (last is not None and test is last.still and last.picture is None
                     and _alike(last.reading, reading))
            read_in_full = last.read_in_full + 1 if last is not None and alike else 1
            # (no frame is compared with one of the first FULL_READS - 1: no picture of it)
            picture = test.picture(image) if read_in_full >= FULL_READS else None
            self._last = _LastRead(test, picture, reading,
                                   None if source.full is None else source.full.shape,
                                   read_in_full, (top, scan))
        return reading

    def _name_cards(self, source: NamingSource, cal: Calibration, scan: CardScan, grey: Frame
                    ) -> tuple[list[CardQuad], list[tuple[str | None, float]]]:
        """The card outlines to report and (code or None, confidence) of each (`grey`: the
        view's grey levels)."""
        quads = list(scan.cards)
        named = self._name(source, cal, quads)
        self._name_unknown(source, cal, grey, quads, named)
        return self._name_extras(source, cal, scan, quads, named)

    def _name_unknown(self, source: NamingSource, cal: Calibration, grey: Frame,
                      quads: list[CardQuad], named: list[tuple[str | None, float]]) -> None:
        """Name again each card left unknown, in place, by three more looks in turn: its
        rival outlines (an unknown outline may be a phantom: the first rival named wins),
        then the outline its light face gives it (a dark-rimmed deck: _face_taken), then
        its patch with the part other outlines cover filled (_covers). What each look cuts
        follows from the first naming, so the three are named in one batch (a batch costs
        about a card's naming besides its cards; tempus-framed's looks took 1.05 batches a
        read, in 25 of 40 reads): a card an earlier look names takes no later look's
        answer, and where a rival or a face replaced an outline, the covers are made again
        as the outlines then lie and one that differs is cut and named again."""
        unknown = [i for i, (code, _) in enumerate(named) if code is None]
        rivals = [(i, alt) for i in unknown for alt in quads[i].alternatives]
        faces = [(i, face) for i in unknown if self.dark_rims and (
            face := face_outline(grey, quads[i], self.card_mm, self.px_per_mm)) is not None]
        covers = self._covers(quads, unknown)
        if not (rivals or faces or covers):
            return
        answers = self._name(source, cal, [alt for _, alt in rivals] + [f for _, f in faces]
                             + [quads[i] for i in covers],
                             [None] * (len(rivals) + len(faces)) + list(covers.values()))
        before = list(quads)
        for (i, alt), answer in zip(rivals, answers[:len(rivals)], strict=True):
            if answer[0] is not None and named[i][0] is None:
                quads[i], named[i] = alt, answer
        for (i, face), answer in zip(faces, answers[len(rivals):len(rivals) + len(faces)],
                                     strict=True):
            if named[i][0] is None and self._face_taken(face, answer, quads, named):
                quads[i], named[i] = face, answer
        covered = dict(zip(covers, answers[len(rivals) + len(faces):], strict=True))
        left = [i for i in unknown if named[i][0] is None]
        if any(quad is not old for quad, old in zip(quads, before, strict=True)):
            now = self._covers(quads, left)
            again = {i: cover for i, cover in now.items()
                     if i not in covers or not np.array_equal(cover, covers[i])}
            covered.update(zip(again, self._name(source, cal, [quads[i] for i in again],
                                                 list(again.values())), strict=True))
            covers = now
        for i in left:
            if i in covers and covered[i][0] is not None:
                named[i] = covered[i]

    def _face_taken(self, face: CardQuad, answer: tuple[str | None, float],
                    quads: list[CardQuad], named: list[tuple[str | None, float]]) -> bool:
        """Whether an unknown card of a dark-rimmed deck is named at the outline its light
        face gives it (vision.rim_faces: on others of its deck, its outer edge shows none):
        where that names it, unless another card named lies there already."""
        apart = min(self.card_mm) / 2
        return answer[0] is not None and not any(
            math.dist(face.center_mm, q.center_mm) < apart
            for q, (other, _) in zip(quads, named, strict=True) if other is not None)

    def _covers(self, quads: list[CardQuad], cards: list[int]) -> dict[int, Mask]:
        """The part of each of these cards (indices into `quads`) that the other outlines
        cover (_cover), where it is worth naming the card again with that part filled with
        its own field (the median of the rest of it): card -> mask; none unless the
        identifier names such patches (reads_covered). A card's corner laid on another
        hides a few per cent of it, but its rim and print, dark on the card's light field,
        took its correlation with its own face from above 0.9 to 0.74-0.79 (held-out
        tempus-framed tables 1000040-1000119: 6 of the 13 fully visible cards left
        unknown). Which card lies on top is not known: the part is left out either way."""
        if not self.identifier.reads_covered:
            return {}
        out = {}
        for i in cards:
            cover = self._cover(quads[i], [q for j, q in enumerate(quads) if j != i])
            if cover is not None:
                out[i] = cover
        return out

    def _cover(self, quad: CardQuad, others: list[CardQuad]) -> Mask | None:
        """The pixels of the card's patch (PATCH_SIZE) that other outlines cover, each grown
        by COVER_GROWTH; None where they cover less than MIN_COVERED of it or more than
        MAX_COVERED."""
        w, h = PATCH_SIZE
        near = [o for o in others if math.dist(o.center_mm, quad.center_mm)
                < _radius(o) + _radius(quad) + COVER_GROWTH]
        if not near:
            return None
        to_patch = cv2.getPerspectiveTransform(np.array(quad.corners_mm, np.float32),
                                               patch_corners(PATCH_SIZE))
        cover = np.zeros((h, w), np.uint8)
        for other in near:
            grown = _grown(other, COVER_GROWTH)
            poly = cv2.perspectiveTransform(grown.reshape(1, -1, 2), to_patch)[0]
            cv2.fillPoly(cover, [np.round(poly).astype(np.int32)], 1)
        share = float(cover.mean())
        if not MIN_COVERED <= share <= MAX_COVERED:
            return None
        return cover.astype(bool)

    def _name_extras(self, source: NamingSource, cal: Calibration, scan: CardScan,
                     quads: list[CardQuad], named: list[tuple[str | None, float]]
                     ) -> tuple[list[CardQuad], list[tuple[str | None, float]]]:
        """Add the other outlines of overlapping cards that can be named and lie clear of
        the named cards; drop the unnamed outlines (phantoms) they overlap."""
        limit = MAX_OVERLAP * self.card_mm[0] * self.card_mm[1]
        # the named cards, by their index in scan.cards; an extra outline that lies on one
        # of them (its edges show across it) may take its place
        known = {i: q for i, (q, (code, _)) in enumerate(zip(quads, named, strict=True))
                 if code is not None}

        radius = {i: _radius(k) for i, k in known.items()}  # (each tried against many)

        def blocked(quad: CardQuad) -> list[int]:
            own = _radius(quad)
            return [i for i, k in known.items() if _overlapping(quad, k, limit, own + radius[i])]

        tries = [q for q in scan.extras if set(blocked(q)) <= set(q.beneath)]
        if not tries:
            return quads, named
        found: list[tuple[CardQuad, tuple[str | None, float]]] = []
        removed: set[int] = set()
        for quad, result in zip(tries, self._name(source, cal, tries), strict=True):
            if result[0] is None:
                continue
            under = blocked(quad)
            if not set(under) <= set(quad.beneath) or any(
                    _overlapping(quad, f, limit) for f, _ in found):
                continue
            for i in under:
                removed.add(i)
                del known[i]
            found.append((quad, result))
        if not found:
            return quads, named
        kept = [(q, n) for i, (q, n) in enumerate(zip(quads, named, strict=True))
                if i not in removed and (n[0] is not None
                                         or not any(_overlapping(q, f, limit) for f, _ in found))]
        kept.extend(found)
        return [q for q, _ in kept], [n for _, n in kept]

    def _use(self, calibration: Calibration) -> None:
        if calibration is not self._calibration:
            self._calibration = calibration
            self._valid = view_mask(calibration, self.px_per_mm)
            self._model = None

    def _name(self, source: NamingSource, cal: Calibration, quads: list[CardQuad],
              covers: list[Mask | None] | None = None) -> list[tuple[str | None, float]]:
        """(code or None, confidence) of each card outline; `covers`, where given, the part
        of each card's patch (or None) to fill with its own field before (fill_covered)."""
        if not quads:
            return []
        filled = [] if covers is None else [(k, c) for k, c in enumerate(covers) if c is not None]
        lights = self._lights(quads) if self.identifier.reads_light or filled else None
        patches = self._cut(source, cal, quads)
        for k, cover in filled:
            fill_covered(patches[k], cover)
        return self.identifier.identify_batch(patches, lights)

    def _lights(self, quads: list[CardQuad]) -> NDArray[np.float32] | None:
        """The light on each card, (n, 3): each channel's gain on the mat where it lies, the
        mat model there (the felt as lit, learnt where no card lay) over the felt as
        printed (MAT_BGR). A median over a grid of LIGHT_STEP around the card's centre, a
        square of its width (the card turned any way lies over it), so a printed line or
        label under it does not count. What tells a card's white clipped by a bright lamp
        from its colour (TemplateIdentifier.identify_batch)."""
        if self._model is None:
            return None
        model = self._model.model
        h, w = model.shape[:2]
        half = min(self.card_mm) * self.px_per_mm / 2
        offsets = np.arange(-half, half, LIGHT_STEP * self.px_per_mm)
        centres = np.array([q.center_mm for q in quads]).reshape(-1, 2) * self.px_per_mm
        xs = np.clip((centres[:, :1] + offsets).astype(np.intp), 0, w - 1)
        ys = np.clip((centres[:, 1:] + offsets).astype(np.intp), 0, h - 1)
        out: NDArray[np.float32] = grid_medians(model, ys, xs) / np.array(MAT_BGR, np.float32)
        return out

    def _cut(self, source: NamingSource, cal: Calibration, quads: list[CardQuad]) -> Frame:
        """The cards' upright BGR patches, one (n, height, width, 3) array. From a full
        frame where there is one (SharpCut); else each is cut from the BGRA copy of the
        frame the view was warped from where it holds the card (OpenCV warps 4 channels
        faster; the same patch; all made BGR in one call), else from the frame."""
        w, h = PATCH_SIZE
        corners = cal.mat_to_image(np.array([q.corners_mm for q in quads]).reshape(-1, 2))
        if source.full is not None:
            return self._sharp_cut(source.full.shape).cut(
                source.full, source.to_full(corners).reshape(-1, 4, 2), PATCH_SIZE)
        image = source.image
        plan = self._top_down
        quads_px = corners.reshape(-1, 4, 2)
        bgra = np.empty((len(quads), h, w, 4), np.uint8)
        held = [False] * len(quads_px)
        if plan is not None:
            held = plan.holds(quads_px).tolist()
            for i, corners_px in enumerate(quads_px):
                if held[i]:
                    warp_patch(plan.buffer, corners_px, PATCH_SIZE, out=bgra[i])
        patches = cv2.cvtColor(bgra.reshape(-1, w, 4), cv2.COLOR_BGRA2BGR).reshape(-1, h, w, 3)
        for i, corners_px in enumerate(quads_px):
            if not held[i]:
                warp_patch(image, corners_px, PATCH_SIZE, out=patches[i])
        return np.asarray(patches, np.uint8)

    def _sharp_cut(self, frame_shape: tuple[int, ...]) -> SharpCut:
        """How patches are cut from full frames of this shape (planned once per shape)."""
        if self._sharp is None or self._sharp.frame_shape != frame_shape:
            self._sharp = SharpCut.for_frames(frame_shape)
        return self._sharp

    def _still_test(self, cal: Calibration, frame_shape: tuple[int, ...]) -> StillTest:
        """How frames are compared with the last one read in full (planned once per
        calibration and frame size)."""
        if (self._still is None or self._still.calibration is not cal
                or self._still.frame_shape != frame_shape):
            self._still = StillTest.plan(cal, frame_shape)
        return self._still

    def _warp(self, image: Frame, cal: Calibration) -> Frame:
        """The top-down view of the frame (planned once per calibration and frame size)."""
        plan = self._top_down
        if plan is None or plan.calibration is not cal or plan.frame_shape != image.shape:
            plan = self._top_down = TopDownWarp.plan(cal, image.shape, self.px_per_mm)
        return plan.warp(image)

    def _card_pixels(self, top: Frame, scan: CardScan) -> Mask:
        """The top-down pixels under (or just around) the cards found."""
        mask = np.zeros(top.shape[:2], np.uint8)
        for quad in scan.cards:
            centre = np.array(quad.center_mm)
            corners = np.array(quad.corners_mm)
            # 2 mm out from each side: the blur of its edge, not the mat print beyond it
            grown = centre + (corners - centre) * (1 + 2 * np.sqrt(2) / np.linalg.norm(
                corners[0] - corners[2]))
            cv2.fillConvexPoly(mask, np.round(grown * self.px_per_mm).astype(np.int32), 255)
        return mask

    def _not_mat(self, top: Frame, grey: Frame, scan: CardScan, valid: Mask) -> Mask:
        """What the mat model must not learn from a view: the cards found, and anything
        else with a sharp outline (a hand, a phone). Glare and light fall-off are soft and
        stay: they are how this mat looks. So does a card found in glare whose outline is
        no sharp step (a lamp's spot on the bare mat may be as large as a big card and be
        fitted as one): learnt from the local estimate instead, the glare would differ from
        the model as a card-shaped blob in every frame that follows. A spot beside a tag or
        the view's edge takes their edge for a side: an outline is judged where the mat
        shows."""
        sharp = [q for q in scan.cards if sharp_outline(q, grey, self.px_per_mm, valid)]
        covered = self._card_pixels(top, dataclasses.replace(scan, cards=sharp))
        blurred = cv2.GaussianBlur(grey, (3, 3), 0)
        gx = cv2.Sobel(blurred, cv2.CV_32F, 1, 0, ksize=3) / 8
        gy = cv2.Sobel(blurred, cv2.CV_32F, 0, 1, ksize=3) / 8
        sharpness = cv2.magnitude(gx, gy)
        fg = foreground_mask(top, self.px_per_mm, valid)
        contours, _ = cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        for contour in contours:
            if cv2.contourArea(contour) < 100 * self.px_per_mm**2:
                continue
            pts = contour.reshape(-1, 2)
            if float(np.median(sharpness[pts[:, 1], pts[:, 0]])) >= SHARP_EDGE:
                cv2.drawContours(covered, [contour], -1, 255, -1)
                cv2.drawContours(covered, [contour], -1, 255, max(3, round(4 * self.px_per_mm)))
        return covered

    def _learn(self, top: Frame, scan: CardScan, valid: Mask) -> None:
        """Follow slow light changes where the mat shows; where the model no longer fits
        but the view looks like bare mat locally (a hand there when it was learnt has
        gone), heal it faster. Never learn the pixels of a card."""
        assert self._model is not None and scan.mask is not None
        cards = self._card_pixels(top, scan)
        moved = np.asarray(cv2.dilate(scan.mask, np.ones((7, 7), np.uint8)), np.uint8)
        card_area = self.card_mm[0] * self.card_mm[1]
        healing = None
        if any(c.area_mm2 >= REACHING_CARD_AREAS * card_area for c in scan.clutter):
            # bare mat: like the mat's own colour (no card is), and smooth around
            colour = np.clip(mat_colour(top, valid).round(), 0, 255).astype(np.uint8)
            healing = (mat_background(top, self.px_per_mm), colour, HEAL_RATE, MAT_DIFF // 2)
        self._model.learn(top, valid, moved, cards, LEARN_RATE, healing)

    def _current(self) -> tuple[Calibration, Mask]:
        assert self._calibration is not None and self._valid is not None
        return self._calibration, self._valid

    def _tags_in_place(self, top: Frame, valid: Mask) -> bool:
        """Whether at least 3 tags show, where the calibration puts them, a white surround
        around a black border (a hand over a tag is bright but not both)."""
        mat_level = float(mat_colour(top, valid).mean())
        if self._tag_bands is None:
            self._tag_bands = np.array([
                self._band(top.shape, tag, y0, y1) for tag in self.mat.tags
                for y0, y1 in _tag_band_spans(tag)], np.int64)
        seen = 0
        for before, after, border_top, border_bottom in box_means(
                top, self._tag_bands).reshape(-1, 4).tolist():
            surround, border = min(before, after), max(border_top, border_bottom)
            if surround > mat_level + MAT_DIFF / 2 and surround - border > MAT_DIFF:
                seen += 1
        return seen >= 3

    def _band(self, shape: tuple[int, ...], tag: TagPlacement, y0: float, y1: float
              ) -> tuple[int, int, int, int]:
        """The box (x0, y0, x1, y1 pixels of the view) of a band across a tag, from y0 to y1
        mm below its centre, clipped as slicing the view would."""
        s = self.px_per_mm
        (cx, cy), half = tag.center_mm, tag.size_mm / 2
        top, bottom, _ = slice(round((cy + y0) * s), round((cy + y1) * s)).indices(shape[0])
        left, right, _ = slice(round((cx - half) * s), round((cx + half) * s)).indices(shape[1])
        return left, top, right, bottom

    def _thumbnail(self, grey: Frame) -> NDArray[np.uint8]:
        """The view's grey levels at THUMBNAIL_PX_PER_MM."""
        size = (round(self.mat.width_mm * THUMBNAIL_PX_PER_MM),
                round(self.mat.height_mm * THUMBNAIL_PX_PER_MM))
        return np.asarray(cv2.resize(grey, size, interpolation=cv2.INTER_AREA), np.uint8)


@dataclass(frozen=True)
class NamingSource:
    """Where the cards of one frame are cut for naming: the frame itself, or the same
    instant at a higher resolution (`full`, `scale` of its pixels to the frame's)."""

    image: Frame
    full: Frame | None = None
    scale: tuple[float, float] = (1.0, 1.0)

    @classmethod
    def of(cls, image: Frame, full: object) -> NamingSource:
        """The frame with its full-resolution twin; BadFrame if it is no such twin."""
        big = _bgr(check_frame(full))
        (h, w), (big_h, big_w) = image.shape[:2], big.shape[:2]
        if big_w < w or big_h < h or abs(big_w / big_h - w / h) > SAME_SHAPE * w / h:
            raise BadFrame(f"the full frame ({big_w}x{big_h}) is not a larger view of the "
                           f"frame ({w}x{h}): check the camera's two streams", "two_streams")
        return cls(image, big, (big_w / w, big_h / h))

    def to_full(self, points_px: NDArray[np.float64]) -> NDArray[np.float64]:
        """Frame pixels as full-frame pixels (pixel centres at whole numbers in both)."""
        return np.asarray((points_px + 0.5) * np.array(self.scale) - 0.5, np.float64)


@dataclass
class SharpCut:
    """Cutting patches (cut_sharp's) from full frames of one size. A patch no shrinking
    needs (a tile at 1 to 2 full-frame pixels a patch pixel) is warped from a BGRA copy of
    the part of the frame under it, made in a frame-sized buffer at the frame's own
    coordinates: OpenCV warps 4 channels about twice as fast as 3, and the pixels are
    the same (all made BGR in one call at the end)."""

    frame_shape: tuple[int, ...]
    buffer: NDArray[np.uint8] = field(repr=False)  # BGRA, as large as the frame

    @classmethod
    def for_frames(cls, frame_shape: tuple[int, ...]) -> SharpCut:
        # filled, not the OS's lazy zero pages: the first frame cut would fault them in
        return cls(frame_shape, np.full((frame_shape[0], frame_shape[1], 4), 0, np.uint8))

    def cut(self, image: Frame, corners_px: NDArray[np.float64], size: tuple[int, int]
            ) -> Frame:
        """The patches of the quadrilaterals (n, 4, 2 frame pixels) as cut_sharp cuts
        them, one (n, height, width, 3) array."""
        w, h = size
        factors = _shrink_factors(corners_px, size)
        bgra = np.empty((len(corners_px), h, w, 4), np.uint8)
        # the pixels a patch's warp reads: within a pixel of its corners' box
        low = np.maximum(np.floor(corners_px.min(axis=1)) - 2, 0).astype(np.int64)
        high = np.ceil(corners_px.max(axis=1)) + 3
        high = np.minimum(high, (image.shape[1], image.shape[0])).astype(np.int64)
        # (as Python ints: slicing with numpy's costs about a microsecond more a patch)
        lows, highs = low.tolist(), high.tolist()
        for i in np.flatnonzero(factors < 2).tolist():
            (x0, y0), (x1, y1) = lows[i], highs[i]
            if x1 > x0 and y1 > y0:
                cv2.cvtColor(image[y0:y1, x0:x1], cv2.COLOR_BGR2BGRA,
                             dst=self.buffer[y0:y1, x0:x1])
            warp_patch(self.buffer, corners_px[i], size, out=bgra[i])
        patches = cv2.cvtColor(bgra.reshape(-1, w, 4), cv2.COLOR_BGRA2BGR).reshape(-1, h, w, 3)
        for i in np.flatnonzero(factors >= 2).tolist():
            patches[i] = cut_sharp(image, corners_px[i], size)
        return np.asarray(patches, np.uint8)


def _shrink_factors(corners_px: NDArray[np.float64], size: tuple[int, int]
                    ) -> NDArray[np.int64]:
    """By how many image pixels to one the part around each quadrilateral (n, 4, 2) is
    shrunk before it is warped to a patch of `size` (below 2: not at all)."""
    w, h = size
    sides = np.linalg.norm(corners_px - np.roll(corners_px, -1, axis=1), axis=2)
    across, down = (sides[:, 0] + sides[:, 2]) / (2 * w), (sides[:, 1] + sides[:, 3]) / (2 * h)
    factors: NDArray[np.int64] = np.minimum(across, down).astype(np.int64)
    return factors


def cut_sharp(image: Frame, corners_px: NDArray[np.float64], size: tuple[int, int]) -> Frame:
    """The quadrilateral as an upright patch of `size`, its pixels each the mean of the
    image pixels under it: where the card spans several image pixels a patch pixel, the
    part around it is first shrunk by a whole factor (area averaged), not sampled."""
    factor = int(_shrink_factors(corners_px[None], size)[0])
    if factor < 2:
        return warp_patch(image, corners_px, size)
    (x0, y0), (x1, y1) = np.floor(corners_px.min(axis=0)) - factor, np.ceil(
        corners_px.max(axis=0)) + factor
    x0, y0 = max(int(x0) // factor * factor, 0), max(int(y0) // factor * factor, 0)
    x1 = min(int(x1), image.shape[1]) // factor * factor
    y1 = min(int(y1), image.shape[0]) // factor * factor
    if x1 <= x0 or y1 <= y0:
        return warp_patch(image, corners_px, size)
    part = cv2.resize(image[y0:y1, x0:x1], ((x1 - x0) // factor, (y1 - y0) // factor),
                      interpolation=cv2.INTER_AREA)
    # a pixel of the shrunk part is the mean of factor x factor, centred at f q + (f - 1) / 2
    return warp_patch(np.asarray(part, np.uint8),
                      (corners_px - (x0, y0) - (factor - 1) / 2) / factor, size)


def _alike(a: TableReading, b: TableReading) -> bool:
    """Whether two readings say the same: the same cards, each within ALIKE_MM of where the
    other has it, and as much clutter."""
    if len(a.cards) != len(b.cards) or len(a.clutter) != len(b.clutter):
        return False
    left = list(b.cards)
    for card in a.cards:
        match = next((o for o in left if o.code == card.code and o.table_mm is not None
                      and card.table_mm is not None
                      and math.dist(o.table_mm, card.table_mm) <= ALIKE_MM), None)
        if match is None:
            return False
        left.remove(match)
    return True


def _bgr(image: Frame) -> Frame:
    if image.ndim == 2 or image.shape[2] == 1:
        return np.asarray(cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), np.uint8)
    return image


def fill_covered(patch: Frame, cover: Mask) -> None:
    """Fill the part of a card's patch that `cover` marks with the median colour of the
    rest, in place: mostly the card's field, which correlates with no shape."""
    patch[cover] = np.median(patch[~cover], axis=0).astype(np.uint8)


def _grown(quad: CardQuad, mm: float) -> NDArray[np.float32]:
    """The outline's corners moved `mm` outward along both its sides, (4, 2) float32."""
    corners = np.array(quad.corners_mm, np.float64)
    across = corners[1] - corners[0]
    down = corners[3] - corners[0]
    across /= np.linalg.norm(across)
    down /= np.linalg.norm(down)
    signs = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float64)
    out: NDArray[np.float32] = (corners + mm * (signs[:, :1] * across + signs[:, 1:] * down)
                                ).astype(np.float32)
    return out


def _radius(quad: CardQuad) -> float:
    """How far the outline's farthest corner lies from its centre (mm)."""
    return max(math.dist(quad.center_mm, c) for c in quad.corners_mm)


def _overlapping(a: CardQuad, b: CardQuad, limit: float, reach: float | None = None) -> bool:
    """Whether two outlines share `limit` mm^2 (> 0) or more. Most pairs lie too far apart
    to touch (each lies within its _radius of its centre; `reach`, their sum, when known):
    their shared area is not computed."""
    if reach is None:
        reach = _radius(a) + _radius(b)
    return math.dist(a.center_mm, b.center_mm) < reach and overlap_mm2(a, b) >= limit
