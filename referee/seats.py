"""Seats and turn order, shared by every game.

Seats are numbered 0..n-1 clockwise around the table. The direction says which way
play goes: +1 is clockwise, -1 counter-clockwise (UNO's reverse flips it).

    >>> order = TurnOrder(count=4, current=0)
    >>> order.advance().current
    1
    >>> order.reversed().advance().current
    3
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee.core import Option

CLOCKWISE = 1
COUNTER_CLOCKWISE = -1
#: The direction option's values, as a match header writes them.
DIRECTIONS = {"clockwise": CLOCKWISE, "counterclockwise": COUNTER_CLOCKWISE}


def direction_option(doc: str) -> Option:
    """The house option every game with a play direction has; `doc` says its default's basis."""
    return Option("direction", "clockwise", tuple(DIRECTIONS), doc)


@dataclass(frozen=True)
class TurnOrder:
    """Whose turn it is, among how many seats, and which way play goes."""

    count: int
    current: int
    direction: int = CLOCKWISE

    def __post_init__(self) -> None:
        if self.count < 1:
            raise ValueError("a table needs at least one seat")
        if not 0 <= self.current < self.count:
            raise ValueError(f"seat {self.current} is not one of the {self.count} seats")
        if self.direction not in (CLOCKWISE, COUNTER_CLOCKWISE):
            raise ValueError("direction must be +1 (clockwise) or -1 (counter-clockwise)")

    def after(self, seat: int, steps: int = 1) -> int:
        """The seat `steps` turns after `seat` in the current direction."""
        return (seat + steps * self.direction) % self.count

    def before(self, seat: int) -> int:
        """The seat that plays just before `seat` (the 'previous player')."""
        return self.after(seat, -1)

    def advance(self, steps: int = 1) -> TurnOrder:
        """The order once the current seat has played (steps=2 skips a seat)."""
        return replace(self, current=self.after(self.current, steps))

    def reversed(self) -> TurnOrder:
        return replace(self, direction=-self.direction)

    def at(self, seat: int) -> TurnOrder:
        """The same order with `seat` to play."""
        return replace(self, current=seat % self.count)
