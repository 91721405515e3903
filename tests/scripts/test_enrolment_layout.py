"""scripts/fixtures/enrolment.untidiness: how far off the page's places a rendered table
lays the cards it enrols. Cards of the recorded enrolments' sizes keep the 6 mm and 6
degrees they were drawn with; 70 x 120 mm cards, 10 mm apart on the page's grid, are laid
closer to their places so that neighbours stay apart, as a table told so keeps them."""

from __future__ import annotations

import math

import pytest

from scripts.fixtures.enrolment import APART_MM, untidiness
from vision.enrolment import GRID_PITCH_MM


@pytest.mark.parametrize("card_mm", [(57.0, 89.0), (59.0, 91.0), (63.0, 88.0)])
def test_the_recorded_enrolments_sizes_keep_their_untidiness(
        card_mm: tuple[float, float]) -> None:
    shift, turn = untidiness(card_mm)
    assert shift.tolist() == [6.0, 6.0] and turn == 6.0


@pytest.mark.parametrize("card_mm", [(57.0, 89.0), (63.0, 88.0), (70.0, 120.0)])
def test_neighbours_laid_off_toward_each_other_stay_apart(
        card_mm: tuple[float, float]) -> None:
    shift, turn = untidiness(card_mm)
    for axis in (0, 1):
        # each card's edge: half its side, moved by its offset and turned out
        edge = (card_mm[axis] / 2 + shift[axis]
                + card_mm[1 - axis] / 2 * math.sin(math.radians(turn)))
        assert GRID_PITCH_MM[axis] - 2 * edge >= APART_MM - 1e-9
