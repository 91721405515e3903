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
counts only when it lay still in every agreeing frame; one that other frames of the same
still run name, all alike, takes their name. A card read too weakly to be named lies
there all the same: when a hand or motion ends a still run whose last frames agreed on a
view but for an unnamed card that lay still only with a frame that named it once (the
name not sure enough to take), that view settles as the run ends, the card unnamed, for
the game to ask about; else the card put on it next would be the only one seen. A frame
that is not clear may lack a card where its foreground lies (the camera failed to outline
it there). The same cards, one of them turned after a hand came, are a new view: a card
put on an identical one looks so (the game decides what it means; a nudge looks the same).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from referee.table import TableView, ViewCard, turned_by


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
    #: A card unnamed in some frames of a still run takes the name that the others give
    #: the card lying within this of it, when they all give the same and either at least
    #: `agreeing_frames - 1` of them do or it is the card the last view had there (a
    #: crooked card, the top of a crooked pile, read in some frames and not in others).
    naming_tolerance_mm: float = 12.0
    #: A frame that is not clear seconds a clear frame's view also when the cards it
    #: lacks each lie within this of a piece of its foreground no card explains (the
    #: size of a fragment): the camera failed to outline them there, they are not gone.
    cover_reach_mm: float = 55.0
    #: The same cards as the last view, but one turned by this much (degrees) in every
    #: agreeing frame after a hand came, is a new view: a card put on an identical one
    #: (the game decides; the camera cannot tell it from a nudge).
    turn_deg: float = 2.0


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
        # The still run: each frame's view, whether it was clear, and where its pieces of
        # foreground no card explains lay (mm from the centre).
        self._run: list[tuple[TableView, bool, list[tuple[float, float]]]] = []
        self.stable: TableView | None = None
        #: Whether a hand or motion came since the stable view settled.
        self._stirred = False
        # What the table holds besides named cards, as the tracker last took it: pieces
        # of clutter (centre, area) and unnamed cards; and what new of them the last
        # frames have shown, frame after frame, unchanged.
        self._known_clutter: list[tuple[tuple[float, float], float]] = []
        self._strange: list[tuple[tuple[float, float], float]] | None = None
        self._strange_frames = 0
        # The unnamed cards of the last frames, each with how many frames in a row it
        # has been seen there; and every card, named or not, likewise.
        self._unnamed: list[tuple[ViewCard, int]] = []
        self._still: list[tuple[ViewCard, int]] = []
        # The view the last frames of this still run agreed on but for an unnamed card
        # that lay still only with a frame naming it: it settles if the run ends so.
        self._undecided: TableView | None = None

    def update(self, reading: ReadingLike) -> TableView | None:
        moving = self._moved(reading.thumbnail)
        ended = self._run_ended() if reading.obstructed or moving else None
        if reading.obstructed:
            self._run, self._stirred = [], True
            self._strange, self._strange_frames, self._unnamed = None, 0, []
            self._still = []
            return ended
        if moving:
            # After motion this frame may be the first of a still run: the next
            # frames, if still, confirm it.
            self._run, self._stirred = [], True
        view = self._view_of(reading)
        self._count_unnamed(view)
        self._count_still(view)
        return self._settle(view, reading, moving) or ended

    def _settle(self, view: TableView, reading: ReadingLike, moving: bool) -> TableView | None:
        # A frame that is not clear takes its place in the window; it may second a view
        # that a clear frame shows, never put one forward.
        self._run.append((view, self._clear(reading, moving), self._pieces(reading)))
        window = [(self._named_in_run(seen), clear, pieces)
                  for seen, clear, pieces in self._run[-self.settings.agreeing_frames :]]
        if len(window) < self.settings.agreeing_frames:
            return None
        voted = self._vote(window)
        self._undecided = None
        if voted is None:
            return None
        voted = self._steadied(voted, window)
        if not self._unnamed_settled(voted):
            if self._unnamed_settled(voted, self._still):
                self._undecided = voted
            return None
        if self.stable is not None and self._agree(self.stable, voted) and not (
                self._stirred and self._turned(self.stable, window)):
            return None
        self.stable, self._stirred = voted, False
        return voted

    def _turned(self, stable: TableView,
                window: list[tuple[TableView, bool, list[tuple[float, float]]]]) -> bool:
        """Whether a named card of `stable` lies turned by `turn_deg` or more in every
        frame of `window`."""
        limit = self.settings.turn_deg
        return any(
            card.code is not None and all(
                any(self._same_card(card, other) and turned_by(card, other) >= limit
                    for other in view.cards)
                for view, _, _ in window)
            for card in stable.cards)

    def _steadied(self, voted: TableView,
                  window: list[tuple[TableView, bool, list[tuple[float, float]]]]) -> TableView:
        """`voted` with each card lying as the median of the frames of `window` that show it
        (the same code, the nearest within `position_tolerance_mm`) has it. One frame's
        outline of a card in a pile is one of several near-equal candidates a degree or two
        apart; the game compares how a card lies with how it lay when it came (a card put
        on an identical one), to a degree or two: one frame's pick would decide that."""
        tolerance = self.settings.position_tolerance_mm
        cards = []
        for card in voted.cards:
            if card.turn_deg is None:
                cards.append(card)
                continue
            offsets = []  # from card's own direction, in -90..90 (directions are mod 180)
            for view, _, _ in window:
                seen = [(math.dist((card.x_mm, card.y_mm), (o.x_mm, o.y_mm)), o.turn_deg)
                        for o in view.cards if o.code == card.code and o.turn_deg is not None]
                near = min(seen, default=None)
                if near is not None and near[0] <= tolerance:
                    offsets.append((near[1] - card.turn_deg + 90.0) % 180.0 - 90.0)
            turn = (card.turn_deg + float(np.median(offsets))) % 180.0 if offsets else card.turn_deg
            cards.append(ViewCard(card.code, card.x_mm, card.y_mm, turn))
        return TableView(tuple(cards))

    def _named_in_run(self, view: TableView) -> TableView:
        """`view` with each unnamed card named as the other frames of this still run name
        the card lying there, when none differs and enough of them do (or one does, and
        the last view had that card there): nothing moved in between (motion or a hand
        would have ended the run), so it is the same card."""
        s = self.settings
        cards = []
        for card in view.cards:
            if card.code is None:
                names = [other.code for seen, _, _ in self._run for other in seen.cards
                         if other.code is not None and math.dist(
                             (card.x_mm, card.y_mm), (other.x_mm, other.y_mm)
                         ) <= s.naming_tolerance_mm]
                if len(set(names)) == 1 and (len(names) >= s.agreeing_frames - 1
                                             or self._was_there(names[0], card)):
                    card = ViewCard(names[0], card.x_mm, card.y_mm, card.turn_deg)
            cards.append(card)
        return TableView(tuple(cards))

    def _was_there(self, code: str | None, card: ViewCard) -> bool:
        """Whether the stable view had a card `code` where `card` lies."""
        return self.stable is not None and any(
            self._same_card(ViewCard(code, card.x_mm, card.y_mm), seen)
            for seen in self.stable.cards)

    def _run_ended(self) -> TableView | None:
        """A hand or motion ends the still run: the view it agreed on but for an unnamed
        card that lay still only with a frame naming it settles now (a card read weakly
        is not a hand's fragment, and is not lost)."""
        undecided, self._undecided = self._undecided, None
        if undecided is None or (self.stable is not None and self._agree(self.stable, undecided)):
            return None
        self.stable, self._stirred = undecided, False
        return undecided

    def _count_still(self, view: TableView) -> None:
        """Count, for each card of `view`, named or not, the frames in a row a card has
        lain there: within `unnamed_tolerance_mm` of an unnamed one, and of a named one
        within `position_tolerance_mm` (a named card is a card; its outline may differ
        from the unnamed one's by a few mm)."""
        s = self.settings
        counted = []
        for card in view.cards:
            before = next((n for seen, n in self._still if math.dist(
                (card.x_mm, card.y_mm), (seen.x_mm, seen.y_mm)
            ) <= (s.unnamed_tolerance_mm if card.code is None and seen.code is None
                  else s.position_tolerance_mm)), 0)
            counted.append((card, before + 1))
        self._still = counted

    def _count_unnamed(self, view: TableView) -> None:
        counted = []
        for card in view.cards:
            if card.code is None:
                before = next((n for seen, n in self._unnamed if math.dist(
                    (card.x_mm, card.y_mm), (seen.x_mm, seen.y_mm)
                ) <= self.settings.unnamed_tolerance_mm), 0)
                counted.append((card, before + 1))
        self._unnamed = counted

    def _unnamed_settled(self, view: TableView,
                         counts: list[tuple[ViewCard, int]] | None = None) -> bool:
        """Whether each unnamed card of `view` was already in the stable view, or has
        lain still in each of the agreeing frames (a hand's fragment can take a card's
        outline for a frame or two; a card the camera cannot read stays), as `counts`
        has it (the unnamed cards' frames in a row, by default)."""
        counts = self._unnamed if counts is None else counts
        known = [] if self.stable is None else [c for c in self.stable.cards if c.code is None]
        for card in view.cards:
            if card.code is not None or any(
                    self._near(card.x_mm, card.y_mm, k.x_mm, k.y_mm) for k in known):
                continue
            if not any(n >= self.settings.agreeing_frames and self._near(
                    card.x_mm, card.y_mm, seen.x_mm, seen.y_mm) for seen, n in counts):
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
            ViewCard(card.code, card.table_mm[0] - cx, card.table_mm[1] - cy,
                     _long_side_deg(getattr(card, "corners_px", None)))
            for card in reading.cards
            if card.table_mm is not None
        )
        return TableView(cards)

    def _pieces(self, reading: ReadingLike) -> list[tuple[float, float]]:
        """Where the pieces of foreground of a fragment's size lie, mm from the centre."""
        cx, cy = self.centre_mm
        return [(c.center_mm[0] - cx, c.center_mm[1] - cy) for c in reading.clutter
                if c.area_mm2 >= self.settings.fragment_mm2]

    def _vote(self, window: list[tuple[TableView, bool, list[tuple[float, float]]]]
              ) -> TableView | None:
        """A view of a clear frame that most frames of `window` agree on, card for card
        (a frame that is not clear may lack cards where its foreground lies); else None."""
        majority = len(window) // 2 + 1
        for view, clear, _ in window:
            if clear and sum(
                self._agree(view, other) or (not other_clear and self._covered(view, other, pieces))
                for other, other_clear, pieces in window
            ) >= majority:
                return view
        return None

    def _covered(self, view: TableView, other: TableView,
                 pieces: list[tuple[float, float]]) -> bool:
        """Whether `other` shows the cards of `view` but for some that lie each by one of
        `pieces` (foreground where the camera outlined no card), and nothing else."""
        if not pieces:
            return False
        lacking = list(view.cards)
        for card in other.cards:
            match = next((seen for seen in lacking if self._same_card(seen, card)), None)
            if match is None:
                return False
            lacking.remove(match)
        reach = self.settings.cover_reach_mm
        return all(any(math.dist((card.x_mm, card.y_mm), piece) <= reach for piece in pieces)
                   for card in lacking)

    def _same_card(self, a: ViewCard, b: ViewCard) -> bool:
        return a.code == b.code and math.dist(
            (a.x_mm, a.y_mm), (b.x_mm, b.y_mm)) <= self.settings.position_tolerance_mm

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


def _long_side_deg(corners: Sequence[Sequence[float]] | None) -> float | None:
    """The direction of a card's long side in the picture (degrees modulo 180)."""
    if corners is None or len(corners) != 4:
        return None
    (x0, y0), (x1, y1), (x2, y2) = corners[0][:2], corners[1][:2], corners[2][:2]
    first, second = (x1 - x0, y1 - y0), (x2 - x1, y2 - y1)
    dx, dy = first if math.hypot(*first) >= math.hypot(*second) else second
    return math.degrees(math.atan2(dy, dx)) % 180.0
