"""TurnOrder: whose turn, which way play goes, and the seat before and after."""

from __future__ import annotations

import pytest

from referee.seats import CLOCKWISE, COUNTER_CLOCKWISE, TurnOrder


def test_advance_goes_round_the_table_clockwise() -> None:
    order = TurnOrder(count=3, current=0)
    seen = []
    for _ in range(4):
        seen.append(order.current)
        order = order.advance()
    assert seen == [0, 1, 2, 0]


def test_advance_counter_clockwise_goes_the_other_way() -> None:
    order = TurnOrder(count=3, current=0, direction=COUNTER_CLOCKWISE)
    assert [order.advance(n).current for n in range(4)] == [0, 2, 1, 0]


def test_advance_two_steps_skips_a_seat() -> None:
    assert TurnOrder(count=4, current=3).advance(2).current == 1


def test_advance_returns_a_new_order_and_leaves_the_old_one() -> None:
    order = TurnOrder(count=4, current=1)
    moved = order.advance()
    assert (order.current, moved.current) == (1, 2)
    assert moved.count == 4 and moved.direction == CLOCKWISE


@pytest.mark.parametrize(
    ("direction", "seat", "before", "after"),
    [
        (CLOCKWISE, 0, 3, 1),
        (CLOCKWISE, 3, 2, 0),
        (COUNTER_CLOCKWISE, 0, 1, 3),
        (COUNTER_CLOCKWISE, 3, 0, 2),
    ],
    ids=["cw-seat0", "cw-seat3", "ccw-seat0", "ccw-seat3"],
)
def test_before_and_after_follow_the_direction(
    direction: int, seat: int, before: int, after: int
) -> None:
    order = TurnOrder(count=4, current=0, direction=direction)
    assert order.before(seat) == before
    assert order.after(seat) == after


def test_before_undoes_after() -> None:
    for direction in (CLOCKWISE, COUNTER_CLOCKWISE):
        order = TurnOrder(count=5, current=2, direction=direction)
        assert all(order.before(order.after(seat)) == seat for seat in range(5))


def test_after_with_steps() -> None:
    order = TurnOrder(count=4, current=0)
    assert order.after(1, steps=2) == 3
    assert order.after(1, steps=4) == 1


def test_reversed_flips_the_direction_and_keeps_the_seat() -> None:
    order = TurnOrder(count=4, current=2)
    flipped = order.reversed()
    assert flipped.current == 2
    assert flipped.direction == COUNTER_CLOCKWISE
    assert flipped.advance().current == 1
    assert flipped.reversed() == order


def test_at_puts_a_seat_to_play_and_wraps() -> None:
    order = TurnOrder(count=3, current=0, direction=COUNTER_CLOCKWISE)
    assert order.at(2) == TurnOrder(count=3, current=2, direction=COUNTER_CLOCKWISE)
    assert order.at(4).current == 1


def test_a_single_seat_plays_every_turn() -> None:
    order = TurnOrder(count=1, current=0)
    assert order.advance().current == 0
    assert order.before(0) == 0


@pytest.mark.parametrize(
    ("count", "current", "direction", "message"),
    [
        (0, 0, CLOCKWISE, "at least one seat"),
        (3, 3, CLOCKWISE, "seat 3 is not one of the 3 seats"),
        (3, -1, CLOCKWISE, "seat -1 is not one of the 3 seats"),
        (3, 0, 2, "direction must be"),
        (3, 0, 0, "direction must be"),
    ],
    ids=["no-seats", "seat-too-high", "seat-negative", "direction-2", "direction-0"],
)
def test_bad_values_are_refused(count: int, current: int, direction: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        TurnOrder(count=count, current=current, direction=direction)
