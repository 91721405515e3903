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


def round_news(before: UnoState, after: UnoState, message: str, checked: bool = True) -> str:
    """`message`, followed by 'round 1 scored ...' when the move scores a round or ends
    the game (after "and" when the move itself needs no words). The seat that goes out
    is the one that played: "plays red 5 on red 3 and goes out", named again only after
    an unchecked move's warning."""
    if after.phase == "over" and before.phase != "over":
        news = t("round {round} scored: the game is over", round=before.round)
    elif after.round > before.round:
        totals = ", ".join(str(total) for total in after.totals)
        news = t("round {round} scored (totals {totals}): seat {dealer} deals",
                 round=before.round, totals=totals, dealer=after.dealer)
    elif after.phase == "reveal" and before.phase == "play" and message and not checked:
        news = t("seat {seat} goes out: round {round} ends, the others show",
                 seat=after.out, round=before.round)
    elif after.phase == "reveal" and before.phase == "play":
        gone = t("and goes out: round {round} ends, the others show", round=before.round)
        return Text.joined(" ", [message, gone]) if message else gone
    else:
        return message
    return Text.joined("; ", [message, news]) if message else t("and {news}", news=news)


#: Each rule a verdict can name, in words (shared/rules/uno.md).
RULE_NAMES = {
    "UNO-MATCH": t("Match the colour or the number"),
    "UNO-FIRST-CARD": t("The first card"),
    "UNO-DRAW": t("Drawing a card"),
    "UNO-SKIP": t("Skip"),
    "UNO-REVERSE": t("Reverse"),
    "UNO-WILD-RESTRICT": t("When a wild may be played"),
    "UNO-WD4-RESTRICT": t("When a wild draw 4 may be played"),
    "UNO-STACK": t("Passing a penalty on"),
    "UNO-JUMP-IN": t("Jumping in"),
    "UNO-DOUBLE": t("Two cards together"),
    "UNO-ZERO": t("Playing a 0"),
    "UNO-CALL": t("Calling UNO"),
    "UNO-CHALLENGE": t("Challenging a wild draw 4"),
    "UNO-RESHUFFLE": t("Reshuffling the discards"),
    "UNO-SCORE": t("Scoring a round"),
    "UNO-GAME-END": t("The end of the game"),
}
