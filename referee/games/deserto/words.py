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


#: Each rule a verdict can name, in words (shared/rules/deserto.md, §3.5).
RULE_NAMES = {
    "DES-ONE-CARD": t("One card a turn"),
    "DES-FORM": t("The square's shape"),
    "DES-STACK-FULL": t("No stacking before the square is full"),
    "DES-NO-BRIGAND-BY-VIZIER": t("No brigand next to a vizier"),
    "DES-NO-TREASURE-BY-BRIGAND": t("No treasure next to a brigand"),
    "DES-NO-SAME-ON-SAME": t("Same card on same card"),
    "DES-STUCK": t("A stuck player gives a card"),
    "DES-END": t("The end of the game"),
}
