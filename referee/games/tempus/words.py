"""Tempus in words: a move as a player says it, and what a legal move did."""

from __future__ import annotations

from referee.core import Move
from referee.games.tempus.state import SIGN, TempusState, free_number
from referee.text import Text, t, tn


def describe(move: Move) -> Text:
    """`move` after the seat's name ("captures set 1 with red-3"), read from the move alone."""
    kind, card = move.kind, move.get("card")
    if kind == "count":
        return tn("counts {count} cards won", "counts 1 card won", count=move.get("cards"))
    if kind in ("open", "capture"):
        # A card played face up that the camera could not read.
        played = t("an unread card") if card is None else card
        if kind == "open":
            return t("opens a set on the '{sign}' side with {card}",
                     sign=SIGN[move.get("series")], card=played)
        if "series" in move.fields:
            return t("captures set {number} with {card}, leaving it on '{sign}'",
                     number=move.get("set"), card=played, sign=SIGN[move.get("series")])
        return t("captures set {number} with {card}", number=move.get("set"), card=played)
    # Fed and buried cards go face down: an unnamed one is the usual case.
    hidden = t("a card") if card is None else card
    if kind == "feed" and move.get("set") is None:
        return t("slides {card} under an opponent's set", card=hidden)
    if kind == "feed":
        return t("slides {card} under set {number}", card=hidden, number=move.get("set"))
    return t("buries {card}, holding all three sets", card=hidden)


def said(state: TempusState, move: Move) -> Text | None:
    """What a legal move did beyond itself (the move says which card went where): the
    set's number, whose set was taken, where a buried card goes. None for a feed."""
    kind = move.kind
    if kind == "open":
        return t("as set {number}", number=free_number(state))
    if kind == "capture":
        target = state.find(move.get("set"))
        assert target is not None, "judge flags a capture of a set that is not there"
        return t("and takes it from seat {owner}", owner=target.owner)
    if kind == "feed":
        return None
    return t("and it goes {pile}", pile=pile_name(state))


def pile_name(state: TempusState) -> Text:
    """Where TEMPUS-DEADLOCK puts the card, as the house plays it."""
    return (
        t("under the draw pile")
        if state.options["deadlock_pile"] == "draw_pile"
        else t("onto the table pile")
    )


#: Each rule a verdict can name, in words (shared/rules/tempus.md).
RULE_NAMES = {
    "TEMPUS-ONE-CARD": t("One card a turn"),
    "TEMPUS-FIRST-OPENS": t("The first player opens a set"),
    "TEMPUS-HOLDER-FREE": t("A free holder to open a set"),
    "TEMPUS-SERIES-CHOICE": t("A set keeps its side"),
    "TEMPUS-NOT-OWN": t("Only an opponent's set"),
    "TEMPUS-COLOUR": t("The set's colour"),
    "TEMPUS-ORDER": t("Up or down the series"),
    "TEMPUS-UNDER-ANY": t("Any card under a set"),
    "TEMPUS-DEADLOCK": t("All three sets in front of you"),
}
