"""The tracker: from a stream of camera readings to a stable view of the table.

A frame in which a hand (or any large non-card object) is over the mat says nothing
about the table, and motion starts a new still run. A change counts only once most
of several still frames agree on it: the same cards, codes and places.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from referee.table import TableView, ViewCard


class SeenCardLike(Protocol):
    code: str | None
    table_mm: tuple[float, float] | None


class ReadingLike(Protocol):
    @property
    def cards(self) -> Sequence[SeenCardLike]: ...
    @property
    def obstructed(self) -> bool: ...
    @property
    def thumbnail(self) -> np.ndarray: ...


@dataclass(frozen=True)
class TrackerSettings:
    """How sure the tracker must be before a view counts."""

    agreeing_frames: int = 3
    #: Mean absolute grey-level change between thumbnails that counts as motion.
    motion_threshold: float = 4.0
    #: How far (mm) the same card may seem to move between agreeing frames.
    position_tolerance_mm: float = 12.0


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
        self._run: list[TableView] = []
        self.stable: TableView | None = None

    def update(self, reading: ReadingLike) -> TableView | None:
        moving = self._moved(reading.thumbnail)
        if reading.obstructed:
            self._run = []
            return None
        if moving:
            # After motion this frame may be the first of a still run: the next
            # frames, if still, confirm it.
            self._run = []
        self._run.append(self._view_of(reading))
        window = self._run[-self.settings.agreeing_frames :]
        if len(window) < self.settings.agreeing_frames:
            return None
        view = self._vote(window)
        if view is None or (self.stable is not None and self._agree(self.stable, view)):
            return None
        self.stable = view
        return view

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

    def _vote(self, window: list[TableView]) -> TableView | None:
        """A view that most frames of `window` agree on, card for card; else None."""
        majority = len(window) // 2 + 1
        for view in window:
            if sum(self._agree(view, other) for other in window) >= majority:
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
