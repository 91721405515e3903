"""Tempus in words: a move as a player says it, and what a legal move did."""

from __future__ import annotations

from referee.core import Move
from referee.games.tempus.state import SIGN, TempusState, free_number
from referee.text import Text, t


def describe(move: Move) -> Text:
    """`move` after the seat's name ("captures set 1 with red-3"), read from the move alone."""
    kind, card = move.kind, move.get("card")
    if kind == "count":
        return t("counts {cards} cards won", cards=move.get("cards"))
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


def said(state: TempusState, move: Move) -> Text:
    """What a legal move did, in the words of the table."""
    seat, kind = move.seat, move.kind
    card = move.get("card") or t("a card")
    if kind == "open":
        return t("seat {seat} opens set {number} ('{sign}') with {card}",
                 seat=seat, number=free_number(state), sign=SIGN[move.get("series")],
                 card=card)
    if kind == "capture":
        target = state.find(move.get("set"))
        assert target is not None, "judge flags a capture of a set that is not there"
        return t("{card} on set {number}: seat {seat} takes it from seat {owner}",
                 card=card, number=target.number, seat=seat, owner=target.owner)
    if kind == "feed" and move.get("set") is None:
        return t("{card} slid under an opponent's set (which one the page may say)",
                 card=card)
    if kind == "feed":
        return t("{card} slid under set {number}", card=card, number=move.get("set"))
    return t("all three sets are seat {seat}'s: {card} goes {pile}",
             seat=seat, card=card, pile=pile_name(state))


def pile_name(state: TempusState) -> Text:
    """Where TEMPUS-DEADLOCK puts the card, as the house plays it."""
    return (
        t("under the draw pile")
        if state.options["deadlock_pile"] == "draw_pile"
        else t("onto the table pile")
    )

