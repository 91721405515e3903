"""What the camera and the buttons tell a game, and what a game makes of it.

Firmware turns camera frames into a stable `TableView` (cards with their position in
millimetres from the centre of the mat) and the panel into `Press` events. A game's
`TableInterpreter` compares them with the referee's state and answers with actions:
a move to play, a take-back of the last move, or a question for the table when the
evidence is not enough to say anything for sure.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass
from typing import Generic, Literal

from referee.core import Move, Ruling, StateT

PressKind = Literal["press", "hold", "double"]


@dataclass(frozen=True)
class ViewCard:
    """A card the camera sees: its code (None when not recognised), centre in mm, and
    the direction of its long side in the camera's picture (degrees modulo 180, None
    when unknown): the same card seen turned is a card put on it, or a nudge."""

    code: str | None
    x_mm: float
    y_mm: float
    turn_deg: float | None = None


def turned_by(a: ViewCard, b: ViewCard) -> float:
    """How far (degrees, 0 to 90) `b` lies turned from `a`; 0 when either is unknown."""
    if a.turn_deg is None or b.turn_deg is None:
        return 0.0
    difference = abs(a.turn_deg - b.turn_deg) % 180.0
    return min(difference, 180.0 - difference)


@dataclass(frozen=True)
class TableView:
    """A stable view of the table: every card in sight, positions from the mat centre."""

    cards: tuple[ViewCard, ...]


@dataclass(frozen=True)
class Press:
    """A seat's button: a short press, a hold, or a double press."""

    seat: int
    kind: PressKind


@dataclass(frozen=True)
class Play:
    """Play this move."""

    move: Move


@dataclass(frozen=True)
class TakeBack:
    """Drop the last move: the table took it back."""

    reason: str


@dataclass(frozen=True)
class AskTable:
    """The evidence does not settle it: ask the table (page, status LED).

    `unread`: the cards of the view the camera could not name that the question is
    about ("which card is this?"). Until the table names them, what the table does
    next waits: a card put on one of them, or anywhere, is not judged against a card
    nobody knows nor given to a seat by a turn order that card may have changed."""

    message: str
    unread: tuple[ViewCard, ...] = ()


Action = Play | TakeBack | AskTable


class TableInterpreter(abc.ABC, Generic[StateT]):
    """Turns view changes and button presses into moves for one game."""

    @abc.abstractmethod
    def on_view(self, state: StateT, view: TableView, last: Ruling | None) -> list[Action]:
        """React to a new stable view of the table; `last` is the last move played."""

    @abc.abstractmethod
    def on_press(self, state: StateT, press: Press, last: Ruling | None) -> list[Action]:
        """React to a seat's button."""
