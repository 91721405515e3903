"""Tempus's sets, hands and piles, and what the rules and the table both ask of them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from referee.seats import TurnOrder
from referee.text import Text, t

HOLDERS = 3
SERIES = ("plus", "minus")
SIGN = {"plus": "+", "minus": "-"}
PLAYER_COUNTS = (2, 3, 4, 5)
#: The base rule (tempus.md §1.3, §1.6): 7 dealt, 5 drawn with two players, else 6 and 4;
#: a round ends when every hand is down to 2. Five players use the base rule until the
#: rulebook's five-player variant is known (§1.7).
BASE_HANDS = {n: (7, 5, 2) if n == 2 else (6, 4, 2) for n in PLAYER_COUNTS}

Card = str | None
Breach = tuple[str, str]


class CardFace(NamedTuple):
    """What the rules read off a playing card."""

    colour: str
    value: int
    hourglasses: int


@dataclass(frozen=True)
class TempusSet:
    """A holder in play: its number, who has it in front of them, its series face, and
    its cards from the bottom up (None: a card nobody saw, usually one fed face down)."""

    number: int
    owner: int
    series: str
    cards: tuple[Card, ...]

    @property
    def top(self) -> Card:
        return self.cards[-1]


@dataclass(frozen=True)
class TempusState:
    """The sets on the table, the hidden hands (as counts), the draw pile, the scoring piles."""

    sets: tuple[TempusSet, ...]
    hands: tuple[int, ...]
    pile: int
    #: Each seat's scoring pile: the cards of the sets it kept at round ends.
    won: tuple[tuple[Card, ...], ...]
    turn: TurnOrder
    #: Who started this round: the next round starts with the seat after them.
    starter: int
    round: int
    options: Mapping[str, Any]
    #: Cards drawn at each round end, and the hand that ends a round, for this table.
    refill: int
    round_end_hand: int
    #: Cards put out of play: buried on a table pile (TEMPUS-DEADLOCK as "table_pile").
    buried: int = 0
    #: Cards played onto a set that was not on the table (illegal, left lying there).
    strays: int = 0
    #: Cards fed under an opponent's set when the table did not say which set: at the
    #: round end they go to an unknown scoring pile (they count for nobody).
    fed_unknown: int = 0
    fed_unknown_before_round: int = 0
    #: What each seat took at the last round end, and how many cards fed under an
    #: unknown set that round may belong to any of them: a table's count is checked
    #: against these.
    round_won: tuple[int, ...] = ()
    round_unplaced: int = 0
    #: Seats whose count the page still offers: every seat at a round end, until it has
    #: counted or play goes on. A count checks the log and changes nothing in the game, so
    #: states that differ only here are the same position.
    uncounted: tuple[int, ...] = field(default=(), compare=False)
    last_mover: int | None = None
    over: bool = False

    def find(self, number: int) -> TempusSet | None:
        return next((s for s in self.sets if s.number == number), None)

def free_number(state: TempusState) -> int:
    """The lowest set number not in play: holders 1, 2, 3; 4 only for a set opened
    with no holder free (illegal, but it lies on the table all the same)."""
    taken = {held.number for held in state.sets}
    return next(n for n in range(1, len(taken) + 2) if n not in taken)


def is_deadlocked(state: TempusState, seat: int) -> bool:
    """TEMPUS-DEADLOCK: no holder free and every set in front of `seat`."""
    return len(state.sets) >= HOLDERS and all(held.owner == seat for held in state.sets)


def where_played(state: TempusState, card: str) -> Text | None:
    """Where a card already played lies ('in set 2', "in seat 1's scoring pile"), or None."""
    for held in state.sets:
        if card in held.cards:
            return t("in set {number}", number=held.number)
    for seat, pile in enumerate(state.won):
        if card in pile:
            return t("in seat {seat}'s scoring pile", seat=seat)
    return None


def skip_waiting(turn: TurnOrder, hands: list[int], round_end_hand: int) -> TurnOrder:
    """A seat already down to the round-end hand waits for the others."""
    for _ in range(turn.count):
        if hands[turn.current] > round_end_hand:
            return turn
        turn = turn.advance()
    return turn
