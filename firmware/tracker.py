"""The tracker: from a stream of camera readings to a stable view of the table.

A frame in which a hand (or any large non-card object) is over the mat says nothing
about the table, and motion starts a new still run. A change counts only once most
of several still frames agree on it: the same cards, codes and places.

A hand is never a card. In dim light a dark sleeve hardly differs from the mat, so a
hand can leave only fragments of itself in a frame, too small to cover the mat and
clear of its edge. A frame is therefore counted only when it is clear: no piece of
foreground the size of a hand's fragment that was not on the mat when the table last
settled, and no card the camera cannot name that it did not see there then (a fragment
can look like a card's outline). Such a frame may second a view that a clear frame
shows, never put one forward. Foreground that stays put and unchanged for three frames
(a card's corner peeking out of a crooked pile, a mug put down) is taken as part of the
table, as is what lies there before the first view; a hand trembles. An unnamed card
counts only when it lay still in every agreeing frame.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from referee.table import TableView, ViewCard


class SeenCardLike(Protocol):
    code: str | None
    table_mm: tuple[float, float] | None


class ClutterLike(Protocol):
    @property
    def area_mm2(self) -> float: ...
    @property
    def at_edge(self) -> bool: ...
    @property
    def center_mm(self) -> tuple[float, float]: ...


class ReadingLike(Protocol):
    @property
    def cards(self) -> Sequence[SeenCardLike]: ...
    @property
    def obstructed(self) -> bool: ...
    @property
    def thumbnail(self) -> np.ndarray: ...
    @property
    def clutter(self) -> Sequence[ClutterLike]: ...


@dataclass(frozen=True)
class TrackerSettings:
    """How sure the tracker must be before a view counts."""

    agreeing_frames: int = 3
    #: Mean absolute grey-level change between thumbnails that counts as motion.
    motion_threshold: float = 4.0
    #: How far (mm) the same card may seem to move between agreeing frames.
    position_tolerance_mm: float = 12.0
    #: Foreground no card explains, in mm^2, from which a piece not seen when the table
    #: last settled keeps a frame from counting (a hand's fragment; less is a card's
    #: corner peeking out of a pile, or noise); at the mat's edge any piece does (an arm).
    fragment_mm2: float = 3300.0
    #: How far (mm) a piece of clutter, or an unnamed card, may lie from where it was
    #: and still be the same one.
    clutter_tolerance_mm: float = 25.0
    #: Frames in a row, each clear but for the same new clutter, not moved, after which
    #: it counts as part of the table (a card's corner peeking out of a crooked pile, a
    #: mug put down): moved means its centre by more than `still_clutter_mm` or its area
    #: by more than the ratio `still_clutter_area` from one frame to the next.
    adopt_frames: int = 3
    still_clutter_mm: float = 4.0
    still_clutter_area: float = 0.9
    #: A card the camera cannot name counts only when it lay in each of the last
    #: `agreeing_frames` frames within this of where it lay the frame before (not just
    #: most of them): a hand's fragment that takes a card's outline trembles.
    unnamed_tolerance_mm: float = 3.0


class Tracker:
    """Feeds on readings; `update` returns a new stable TableView when one settles.

    The frames since the last motion form a still run. A view settles when most of
    the last `agreeing_frames` frames of that run agree on it card for card, so a
    card the camera misses or misreads in a single frame changes nothing.
    """

    def __init__(self, centre_mm: tuple[float, float], settings: TrackerSettings | None = None):
        self.settings = settings or TrackerSettings()
        self.centre_mm = centre_mm
        self._previous_thumbnail: np.ndarray | None = None
        self._run: list[tuple[TableView, bool]] = []
        self.stable: TableView | None = None
        # What the table holds besides named cards, as the tracker last took it: pieces
        # of clutter (centre, area) and unnamed cards; and what new of them the last
        # frames have shown, frame after frame, unchanged.
        self._known_clutter: list[tuple[tuple[float, float], float]] = []
        self._strange: list[tuple[tuple[float, float], float]] | None = None
        self._strange_frames = 0
        # The unnamed cards of the last frames, each with how many frames in a row it
        # has been seen there.
        self._unnamed: list[tuple[ViewCard, int]] = []

    def update(self, reading: ReadingLike) -> TableView | None:
        moving = self._moved(reading.thumbnail)
        if reading.obstructed:
            self._run = []
            self._strange, self._strange_frames, self._unnamed = None, 0, []
            return None
        if moving:
            # After motion this frame may be the first of a still run: the next
            # frames, if still, confirm it.
            self._run = []
        view = self._view_of(reading)
        self._count_unnamed(view)
        # A frame that is not clear takes its place in the window; it may second a view
        # that a clear frame shows, never put one forward.
        self._run.append((view, self._clear(reading, moving)))
        window = self._run[-self.settings.agreeing_frames :]
        if len(window) < self.settings.agreeing_frames:
            return None
        voted = self._vote(window)
        if voted is None or (self.stable is not None and self._agree(self.stable, voted)):
            return None
        if not self._unnamed_settled(voted):
            return None
        self.stable = voted
        return voted

    def _count_unnamed(self, view: TableView) -> None:
        counted = []
        for card in view.cards:
            if card.code is None:
                before = next((n for seen, n in self._unnamed if math.dist(
                    (card.x_mm, card.y_mm), (seen.x_mm, seen.y_mm)
                ) <= self.settings.unnamed_tolerance_mm), 0)
                counted.append((card, before + 1))
        self._unnamed = counted

    def _unnamed_settled(self, view: TableView) -> bool:
        """Whether each unnamed card of `view` was already in the stable view, or has
        lain still in each of the agreeing frames (a hand's fragment can take a card's
        outline for a frame or two; a card the camera cannot read stays)."""
        known = [] if self.stable is None else [c for c in self.stable.cards if c.code is None]
        for card in view.cards:
            if card.code is not None or any(
                    self._near(card.x_mm, card.y_mm, k.x_mm, k.y_mm) for k in known):
                continue
            if not any(n >= self.settings.agreeing_frames and self._near(
                    card.x_mm, card.y_mm, seen.x_mm, seen.y_mm) for seen, n in self._unnamed):
                return False
        return True

    def _clear(self, reading: ReadingLike, moving: bool) -> bool:
        """Whether no new piece of clutter lies on the mat since the table last settled;
        new pieces that stay unchanged for `adopt_frames` still frames become part of
        the table."""
        s = self.settings
        pieces = [(c.center_mm, c.area_mm2) for c in reading.clutter
                  if c.at_edge or c.area_mm2 >= s.fragment_mm2]
        new = [p for p in pieces if not any(self._same_piece(p, k) for k in self._known_clutter)]
        if self.stable is None:
            # Before the first view (a start, a resume after a power cut) the table is
            # what lies there: a mug beside the mat has been there since before.
            self._known_clutter += new
            new = []
        if not new:
            # clear: what no longer lies there is forgotten
            self._known_clutter = [k for k in self._known_clutter
                                   if any(self._same_piece(p, k) for p in pieces)]
            self._strange, self._strange_frames = None, 0
            return True
        if self._strange is not None and not moving and self._unchanged(self._strange, new):
            self._strange_frames += 1
        else:
            self._strange_frames = 1
        self._strange = new
        if self._strange_frames < s.adopt_frames:
            return False
        self._known_clutter += new
        self._strange, self._strange_frames = None, 0
        return True

    def _unchanged(self, before: list[tuple[tuple[float, float], float]],
                   after: list[tuple[tuple[float, float], float]]) -> bool:
        """The same pieces, not moved (a hand trembles; a card peeking out does not)."""
        tolerance, ratio = self.settings.still_clutter_mm, self.settings.still_clutter_area
        return len(before) == len(after) and all(
            any(self._same_piece(a, b, tolerance, ratio) for b in after) for a in before)

    def _same_piece(self, a: tuple[tuple[float, float], float],
                    b: tuple[tuple[float, float], float], tolerance: float | None = None,
                    ratio: float = 0.7) -> bool:
        (centre_a, area_a), (centre_b, area_b) = a, b
        tolerance = self.settings.clutter_tolerance_mm if tolerance is None else tolerance
        return (math.dist(centre_a, centre_b) <= tolerance
                and ratio <= area_a / max(area_b, 1.0) <= 1 / ratio)

    def _near(self, ax: float, ay: float, bx: float, by: float) -> bool:
        return math.dist((ax, ay), (bx, by)) <= self.settings.clutter_tolerance_mm

    def _moved(self, thumbnail: np.ndarray) -> bool:
        previous, self._previous_thumbnail = self._previous_thumbnail, thumbnail
        if previous is None or previous.shape != thumbnail.shape:
            return False
        change = float(np.mean(np.abs(previous.astype(np.int16) - thumbnail.astype(np.int16))))
        return change > self.settings.motion_threshold

    def _view_of(self, reading: ReadingLike) -> TableView:
        cx, cy = self.centre_mm
        cards = tuple(
            ViewCard(card.code, card.table_mm[0] - cx, card.table_mm[1] - cy)
            for card in reading.cards
            if card.table_mm is not None
        )
        return TableView(cards)

    def _vote(self, window: list[tuple[TableView, bool]]) -> TableView | None:
        """A view of a clear frame that most frames of `window` agree on, card for card;
        else None."""
        majority = len(window) // 2 + 1
        for view, clear in window:
            if clear and sum(self._agree(view, other) for other, _ in window) >= majority:
                return view
        return None

    def _agree(self, a: TableView, b: TableView) -> bool:
        """Same number of cards and each card of `a` matched by one of `b`."""
        if len(a.cards) != len(b.cards):
            return False
        tolerance = self.settings.position_tolerance_mm**2
        unmatched = list(b.cards)
        for card in a.cards:
            match = next(
                (
                    other
                    for other in unmatched
                    if other.code == card.code
                    and (other.x_mm - card.x_mm) ** 2 + (other.y_mm - card.y_mm) ** 2 <= tolerance
                ),
                None,
            )
            if match is None:
                return False
            unmatched.remove(match)
        return True
