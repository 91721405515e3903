"""Deserto in words: each card with its article, and a move as a player says it."""

from __future__ import annotations

from referee.core import Move
from referee.games.deserto.state import OFF
from referee.text import Text, t

#: Each card with its article, as a sentence names it (a language may give them genders).
A_CARD = {
    "vizier": t("a vizier"),
    "brigand": t("a brigand"),
    "treasure": t("a treasure"),
    "oasis": t("an oasis"),
}


def describe(move: Move) -> Text:
    """`move` after the seat's name ("puts a vizier on nw"), read from the move alone."""
    if move.kind == "stuck":
        return t("cannot play and gives a card to the previous player")
    card = move.get("card")
    named = t("an unread card") if card is None else A_CARD[card]
    if move.get("cell") == OFF:
        return t("puts {card} beside the square", card=named)
    return t("puts {card} on {cell}", card=named, cell=move.get("cell"))

