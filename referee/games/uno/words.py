"""UNO in words: a move as a player says it, the cards of one play in a sentence, and
the round's news a verdict ends with."""

from __future__ import annotations

from referee.core import Move
from referee.games.uno.state import HAND_SIZE, UnoState
from referee.text import Text, t


def describe(move: Move) -> Text:
    """`move` after the seat's name ("plays red-7 and red-7"), read from the move alone."""
    kind = move.kind
    if kind == "deal":
        return t("deals {count} cards each", count=HAND_SIZE)
    if kind == "colour":
        return t("names {colour} for the wild", colour=move.get("colour"))
    if kind == "draw":
        seen = move.get("cards") or []
        if seen:
            return t("draws {count}, seen: {cards}",
                     count=move.get("count"), cards=Text.joined(", ", seen))
        return t("draws {count}", count=move.get("count"))
    if kind == "uno":
        return t("calls UNO")
    if kind == "catch":
        return t("catches seat {target} without UNO", target=move.get("target"))
    if kind == "challenge":
        return t("challenges the wild draw 4")
    if kind == "reveal":
        shown = move.get("cards")
        return t("shows {cards}", cards=Text.joined(", ", shown)) if shown else t(
            "shows no card")
    if kind == "turn-up":
        said = t("turns up {card}", card=move.get("card"))
    else:
        said = t("plays {cards}", cards=listed(move.get("cards")))
    if "colour" in move.fields:
        colour = move.get("colour")
        said = (t("{play}, a colour named (not seen)", play=said) if colour is None
                else t("{play}, {colour} named", play=said, colour=colour))
    if "swap" in move.fields:
        said = t("{play}, swaps hands with seat {seat}", play=said, seat=move.get("swap"))
    return said


def listed(codes: list[str]) -> str:
    """The cards of one play in a sentence: "red-7", "red-7 and red-7"."""
    if len(codes) == 1:
        return codes[0]
    return t("{first} and {second}", first=codes[0], second=listed(codes[1:]))


def round_news(before: UnoState, after: UnoState, message: str) -> str:
    """`message`, followed by '; round 1 ends ...' when the move scores a round or ends
    the game."""
    if after.phase == "over" and before.phase != "over":
        return t("{move}; round {round} scored: the game is over",
                 move=message, round=before.round)
    if after.round > before.round:
        totals = ", ".join(str(total) for total in after.totals)
        return t("{move}; round {round} scored (totals {totals}): seat {dealer} deals",
                 move=message, round=before.round, totals=totals, dealer=after.dealer)
    if after.phase == "reveal" and before.phase == "play":
        return t("{move}; seat {seat} goes out: round {round} ends, the others show",
                 move=message, seat=after.out, round=before.round)
    return message
