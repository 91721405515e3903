"""The tracker settles a view only after agreeing frames, and ignores hands and motion."""

from __future__ import annotations

import math

import numpy as np

from firmware.tracker import Tracker, TrackerSettings
from tests.firmware.readings import CENTRE, Card, Clutter, Reading


def vizier_at(x: float = 297.0, y: float = 210.0) -> Reading:
    return Reading([Card("vizier", (x, y))])


def test_a_view_counts_after_the_agreeing_frames() -> None:
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=3))
    assert tracker.update(vizier_at()) is None
    assert tracker.update(vizier_at(298, 211)) is None
    view = tracker.update(vizier_at(296, 209))
    assert view is not None
    assert [(c.code, round(c.x_mm), round(c.y_mm)) for c in view.cards] == [("vizier", 0, 0)]


def vizier_turned(degrees: float) -> Reading:
    """A vizier at the mat's centre, its long side `degrees` from the picture's x axis."""
    a = math.radians(degrees)
    along, across = (88 * math.cos(a), 88 * math.sin(a)), (-63 * math.sin(a), 63 * math.cos(a))
    corners = [[0.0, 0.0], [along[0], along[1]],
               [along[0] + across[0], along[1] + across[1]], [across[0], across[1]]]
    return Reading([Card("vizier", CENTRE, corners)])


def test_a_settled_card_lies_as_most_agreeing_frames_have_it_not_as_the_first() -> None:
    # a pile's outline is one of several near-equal ones a degree or two apart: one frame's
    # pick must not decide how the card lies (Deserto compares that with how it came)
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=3))
    assert tracker.update(vizier_turned(92.5)) is None
    assert tracker.update(vizier_turned(90.2)) is None
    view = tracker.update(vizier_turned(90.4))
    assert view is not None and view.cards[0].turn_deg is not None
    assert abs(view.cards[0].turn_deg - 90.4) < 1e-6


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


CARD_AREA = 63 * 88


def hand_fragment(*cards: Card, area_cards: float = 2.0) -> Reading:
    """Cards, and beside them a piece of a hand: too small to cover the mat, clear of its edge."""
    return Reading(list(cards), clutter=[Clutter(area_cards * CARD_AREA, False, (320, 230))])


def test_frames_with_a_hand_fragment_vote_for_nothing() -> None:
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=3))
    vizier, oasis = Card("vizier", (297, 210)), Card("oasis", (360, 210))
    for _ in range(3):
        tracker.update(Reading([vizier, oasis]))
    assert tracker.stable is not None and len(tracker.stable.cards) == 2
    # the hand hides the oasis in two frames out of three, trembling
    assert tracker.update(hand_fragment(vizier)) is None
    assert tracker.update(hand_fragment(vizier, area_cards=1.6)) is None
    assert tracker.update(Reading([vizier, oasis])) is None
    assert len(tracker.stable.cards) == 2


def test_a_card_missed_in_one_frame_leaves_foreground_that_does_not_stop_the_others() -> None:
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=3))
    vizier, oasis = Card("vizier", (297, 210)), Card("oasis", (360, 210))
    assert tracker.update(Reading([vizier, oasis])) is None
    assert tracker.update(hand_fragment(vizier, area_cards=1.0)) is None
    view = tracker.update(Reading([vizier, oasis]))
    assert view is not None and len(view.cards) == 2


def test_foreground_that_stays_put_becomes_part_of_the_table() -> None:
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=3, adopt_frames=3))
    vizier, oasis = Card("vizier", (297, 210)), Card("oasis", (360, 210))
    for _ in range(3):
        tracker.update(Reading([vizier]))
    mug = [Clutter(1.5 * CARD_AREA, False, (450, 300))]  # put down with the oasis
    views = [tracker.update(Reading([vizier, oasis], clutter=mug)) for _ in range(3)]
    # the third still frame adopts it: the two before it second the view it puts forward
    assert views[:2] == [None] * 2
    assert views[2] is not None and len(views[2].cards) == 2


def test_what_lies_on_the_mat_when_the_tracker_starts_is_part_of_the_table() -> None:
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=2))
    mug = [Clutter(1.5 * CARD_AREA, True, (20, 300))]  # over the mat's edge
    assert tracker.update(Reading([Card("vizier", (297, 210))], clutter=mug)) is None
    assert tracker.update(Reading([Card("vizier", (297, 210))], clutter=mug)) is not None


def test_an_unnamed_card_counts_only_when_it_lies_still_in_every_agreeing_frame() -> None:
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=3))
    for x in (297, 302, 297, 303, 298):  # a fragment of a hand taking a card's outline
        assert tracker.update(Reading([Card(None, (x, 210))])) is None
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=3))
    views = [tracker.update(Reading([Card(None, (297 + dx, 210))])) for dx in (0, 1, 0)]
    assert views[2] is not None and [c.code for c in views[2].cards] == [None]


def test_a_card_named_once_in_a_still_run_a_hand_ends_settles_unnamed_not_lost() -> None:
    """A card read weakly (yellow-0 of the foreign UNO session): unnamed, unnamed, then
    named once (too few to take the name), its outline 4 mm off; then the next hand. It
    lay still: as the hand comes it settles unnamed, for the game to ask about, and is
    not lost (the card put on it would be the only one seen, by the wrong seat)."""
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=3))
    for _ in range(3):
        tracker.update(Reading([Card("yellow-draw2", (295, 209))]))
    tracker.update(Reading([], obstructed=True))  # a hand puts the card down
    views = [tracker.update(Reading([Card(code, (x, 208))]))
             for code, x in ((None, 299), (None, 299), ("yellow-0", 303))]
    assert views == [None, None, None]  # more frames might name it
    ended = tracker.update(Reading([], obstructed=True))  # the next hand
    assert ended is not None and [c.code for c in ended.cards] == [None]
    # a fragment of a hand that trembles is no card, even named once
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=3))
    for code, x in ((None, 297), (None, 305), ("yellow-0", 297)):
        tracker.update(Reading([Card(code, (x, 208))]))
    assert tracker.update(Reading([], obstructed=True)) is None


def test_a_card_named_in_some_frames_of_a_still_run_is_that_card_in_the_others() -> None:
    # a crooked joker read in frames 1 and 4, not in 2, 3 and 5: nothing moved between
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=3))
    views = [tracker.update(Reading([Card(code, (297 + dx, 210))]))
             for code, dx in (("joker-25", 0), (None, -1), (None, -1), ("joker-25", 0),
                              (None, -1))]
    settled = [view for view in views if view is not None]
    assert [[c.code for c in view.cards] for view in settled] == [["joker-25"]]


def test_a_card_named_differently_in_a_still_run_stays_unnamed() -> None:
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=3))
    for code in ("red-10", "red-16", None, None, None):
        view = tracker.update(Reading([Card(code, (297, 210))]))
    assert view is not None and [c.code for c in view.cards] == [None]


def test_a_name_from_before_a_hand_does_not_name_the_card_after_it() -> None:
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=3))
    for _ in range(3):
        tracker.update(Reading([Card("red-10", (297, 210))]))
    tracker.update(Reading([], obstructed=True))  # a hand: the card may have been swapped
    views = [tracker.update(Reading([Card(None, (297, 210))])) for _ in range(3)]
    assert views[2] is not None and [c.code for c in views[2].cards] == [None]


def test_a_card_the_camera_failed_to_outline_under_foreground_is_not_gone() -> None:
    # frames 1-2 lack the oasis, with a blob of foreground over it: not gone, not a view
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=3))
    vizier, oasis = Card("vizier", (297, 210)), Card("oasis", (360, 210))
    blob = [Clutter(1.1 * CARD_AREA, False, (340, 210))]
    for _ in range(3):
        tracker.update(Reading([vizier]))
    views = [tracker.update(Reading([vizier], clutter=blob)) for _ in range(2)]
    views.append(tracker.update(Reading([vizier, oasis])))
    assert views[:2] == [None, None]
    assert views[2] is not None and len(views[2].cards) == 2
    # foreground far from the card it lacks seconds nothing
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=3))
    far = [Clutter(1.1 * CARD_AREA, False, (500, 300))]
    for _ in range(3):
        tracker.update(Reading([vizier]))
    views = [tracker.update(Reading([vizier], clutter=far)) for _ in range(2)]
    views.append(tracker.update(Reading([vizier, oasis])))
    assert all(len(view.cards) == 1 for view in views if view is not None)


def test_a_card_of_the_last_view_named_once_in_a_still_run_is_that_card() -> None:
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=3))
    vizier, oasis = Card("vizier", (297, 210)), Card("oasis", (360, 210))
    for _ in range(3):
        tracker.update(Reading([vizier]))
    tracker.update(Reading([], obstructed=True))  # a hand puts the oasis down
    views = [tracker.update(Reading([Card(None, (299, 212)), oasis])),
             tracker.update(Reading([vizier, oasis])),
             tracker.update(Reading([Card(None, (298, 211)), oasis]))]
    assert views[2] is not None
    assert sorted(str(c.code) for c in views[2].cards) == ["oasis", "vizier"]
