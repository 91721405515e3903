"""The tracker settles a view only after agreeing frames, and ignores hands and motion."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from firmware.tracker import Tracker, TrackerSettings

CENTRE = (297.0, 210.0)


@dataclass
class Card:
    code: str | None
    table_mm: tuple[float, float] | None


@dataclass
class Reading:
    cards: list[Card]
    obstructed: bool = False
    thumbnail: np.ndarray = field(default_factory=lambda: np.full((30, 40), 100, np.uint8))


def vizier_at(x: float = 297.0, y: float = 210.0) -> Reading:
    return Reading([Card("vizier", (x, y))])


def test_a_view_counts_after_the_agreeing_frames() -> None:
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=3))
    assert tracker.update(vizier_at()) is None
    assert tracker.update(vizier_at(298, 211)) is None
    view = tracker.update(vizier_at(296, 209))
    assert view is not None
    assert [(c.code, round(c.x_mm), round(c.y_mm)) for c in view.cards] == [("vizier", 0, 0)]


def test_the_same_view_is_not_reported_twice() -> None:
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=2))
    assert tracker.update(vizier_at()) is None
    assert tracker.update(vizier_at()) is not None
    assert tracker.update(vizier_at()) is None
    assert tracker.update(vizier_at()) is None


def test_a_hand_over_the_mat_resets_the_count() -> None:
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=2))
    assert tracker.update(vizier_at()) is None
    assert tracker.update(Reading([], obstructed=True)) is None
    assert tracker.update(vizier_at()) is None
    assert tracker.update(vizier_at()) is not None


def test_motion_between_frames_starts_the_count_again() -> None:
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=3, motion_threshold=4.0))
    assert tracker.update(vizier_at()) is None
    assert tracker.update(vizier_at()) is None
    moved = vizier_at()
    moved.thumbnail = np.full((30, 40), 160, np.uint8)
    assert tracker.update(moved) is None  # would have been the third agreeing frame
    still = vizier_at()
    still.thumbnail = np.full((30, 40), 160, np.uint8)
    assert tracker.update(still) is None
    assert tracker.update(still) is not None


def test_disagreeing_codes_or_places_do_not_settle() -> None:
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=3))
    assert tracker.update(vizier_at()) is None
    assert tracker.update(Reading([Card("oasis", (297, 210))])) is None
    assert tracker.update(vizier_at(360, 210)) is None
    assert tracker.update(vizier_at(360, 210)) is not None


def test_one_frame_that_misses_or_misreads_a_card_changes_nothing() -> None:
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=3))
    two = Reading([Card("vizier", (297, 210)), Card("oasis", (360, 210))])
    missed = Reading([Card("vizier", (297, 210))])
    misread = Reading([Card("vizier", (297, 210)), Card("brigand", (360, 210))])
    assert tracker.update(two) is None
    assert tracker.update(missed) is None
    view = tracker.update(two)
    assert view is not None and sorted(str(c.code) for c in view.cards) == ["oasis", "vizier"]
    assert tracker.update(misread) is None
    assert tracker.update(two) is None


def test_cards_without_a_table_position_are_left_out() -> None:
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=1))
    view = tracker.update(Reading([Card("vizier", None), Card(None, (297, 210))]))
    assert view is not None
    assert [c.code for c in view.cards] == [None]
