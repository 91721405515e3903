"""The tracker: from a stream of camera readings to a stable view of the table.

A frame in which something moves, or in which a hand (or any large non-card object)
is over the mat, says nothing about the table. A change counts only once several
frames in a row agree on it: the same cards, with the same codes, in the same places.
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
    """Feeds on readings; `update` returns a new stable TableView when one settles."""

    def __init__(self, centre_mm: tuple[float, float], settings: TrackerSettings | None = None):
        self.settings = settings or TrackerSettings()
        self._centre = centre_mm
        self._previous_thumbnail: np.ndarray | None = None
        self._candidate: TableView | None = None
        self._agreeing = 0
        self.stable: TableView | None = None

    def update(self, reading: ReadingLike) -> TableView | None:
        moving = self._moved(reading.thumbnail)
        if reading.obstructed:
            self._candidate, self._agreeing = None, 0
            return None
        view = self._view_of(reading)
        if not moving and self._candidate is not None and self._agree(self._candidate, view):
            self._agreeing += 1
        else:
            # After motion, this frame may be the first of a still run: the next
            # frames, if still and agreeing, confirm it.
            self._candidate, self._agreeing = view, 1
        if self._agreeing < self.settings.agreeing_frames:
            return None
        if self.stable is not None and self._agree(self.stable, view):
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
        cx, cy = self._centre
        cards = tuple(
            ViewCard(card.code, card.table_mm[0] - cx, card.table_mm[1] - cy)
            for card in reading.cards
            if card.table_mm is not None
        )
        return TableView(cards)

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
