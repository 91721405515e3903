"""scripts/fixtures/tempus.places: where a rendered Tempus table lays its sets, from the
cards' size. The recorded sessions (tests/fixtures/tempus) were drawn at our cards' size:
their places must not move; bigger cards must lie apart and off the mat's tags."""

from __future__ import annotations

import itertools

import pytest

from scripts.fixtures.camera import MAT, on_a_tag
from scripts.fixtures.tempus import places


def test_our_cards_keep_the_places_of_the_recorded_sessions() -> None:
    laid = places((63.0, 88.0))
    assert laid.slots == ((-150.0, 140.0), (0.0, 140.0), (150.0, 140.0), (-210.0, 0.0),
                          (210.0, 0.0), (-150.0, -140.0), (0.0, -140.0), (150.0, -140.0))
    assert laid.middle == ((-75.0, 0.0), (0.0, 0.0), (75.0, 0.0))
    assert (laid.series_offset, laid.pile_offset) == (-36.0, 36.0)


@pytest.mark.parametrize("card_mm", [(63.0, 88.0), (70.0, 120.0)])
def test_every_card_lies_apart_on_the_mat_and_off_its_tags(
        card_mm: tuple[float, float]) -> None:
    laid = places(card_mm)
    cards = [*laid.middle, *((x + offset, y) for x, y in laid.slots
                             for offset in (laid.series_offset, laid.pile_offset))]
    width, height = card_mm
    for (x1, y1), (x2, y2) in itertools.combinations(cards, 2):
        assert abs(x1 - x2) >= width + 5.0 or abs(y1 - y2) >= height + 5.0
    for x, y in cards:
        assert abs(x) + width / 2 < MAT.width_mm / 2 and abs(y) + height / 2 < MAT.height_mm / 2
        assert not on_a_tag((x, y), card_mm)


def test_70_by_120_cards_leave_two_sets_a_row_and_one_a_side() -> None:
    assert places((70.0, 120.0)).slots == ((-82.0, 140.0), (82.0, 140.0), (-210.0, 0.0),
                                           (210.0, 0.0), (-82.0, -140.0), (82.0, -140.0))


def test_cards_too_tall_for_three_rows_are_refused() -> None:
    with pytest.raises(ValueError, match="do not fit"):
        places((80.0, 150.0))
