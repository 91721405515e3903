"""Deserto's square, hands and piles: what the rules and the table both read.

Cells are `nw`, `ne`, `sw`, `se` of the square printed on the mat; `off` is a card put
down beside the square. A card is None when the camera could not recognise it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.seats import TurnOrder

CELLS = ("nw", "ne", "sw", "se")
OFF = "off"
NEIGHBOURS = {"nw": ("ne", "sw"), "ne": ("nw", "se"), "sw": ("nw", "se"), "se": ("ne", "sw")}
HAND_SIZE = 3
#: What each capturing card takes when placed next to it.
PREY = {"vizier": "brigand", "brigand": "treasure"}

Stack = tuple[str | None, ...]


@dataclass(frozen=True)
class DesertoState:
    """The square, the hidden hands (as counts), the draw pile and the won piles."""

    stacks: Mapping[str, Stack]
    hands: tuple[int, ...]
    pile: int
    won: tuple[int, ...]
    turn: TurnOrder
    #: The house options of the match header.
    options: Mapping[str, Any]
    #: Cards put down outside the square (illegal, DES-FORM) and not taken back.
    strays: int = 0
    #: For an empty cell, the top card of the pile last captured from it: the camera
    #: may still see that pile until a player has picked it up.
    captured_tops: Mapping[str, str | None] = ()  # type: ignore[assignment]
    last_capturer: int | None = None
    #: The seat that made the last move: the "previous player" of DES-STUCK.
    last_mover: int | None = None

    def top(self, cell: str) -> str | None:
        stack = self.stacks[cell]
        return stack[-1] if stack else None

    @property
    def occupied(self) -> list[str]:
        return [cell for cell in CELLS if self.stacks[cell]]


