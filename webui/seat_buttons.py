"""What a seat's buttons on the page do now, said in words ("I draw", not "Hold").

The meanings are docs/buttons.md's, per game: a gesture is offered to the seats it
means something for at this moment (the seat to play, the seat that made the last move,
or anyone), labelled `button.<game>.<gesture>` in the page's language. A game without
such labels gets the three gestures by their names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from webui.i18n import Catalogue

Who = Literal["to_play", "last", "anyone"]

#: (game, gesture) -> which seats it means something for (docs/buttons.md).
MEANINGS: dict[tuple[str, str], Who] = {
    ("deserto", "hold"): "to_play",
    ("deserto", "double"): "last",
    ("tempus", "press"): "to_play",
    ("tempus", "double"): "last",
    ("uno", "press"): "anyone",
    ("uno", "hold"): "anyone",
    ("uno", "double"): "last",
    ("kanaloa", "press"): "anyone",
    ("kanaloa", "double"): "last",
    ("remi", "press"): "to_play",
    ("remi", "hold"): "to_play",
    ("remi", "double"): "last",
}
#: While a boat may take a dolphin's step, its owner's press takes it and a hold lets it
#: go (docs/buttons.md, Kanaloa): gesture -> label key.
DOLPHIN = {"press": "button.kanaloa.step", "hold": "button.kanaloa.no_step"}
GESTURES = ("press", "double", "hold")


def offered(snapshot: Mapping[str, Any], words: Catalogue) -> dict[int, list[tuple[str, str]]]:
    """Seat -> [(gesture, what it does)] for the seats that have no button of their own."""
    game = str(snapshot.get("game") or "")
    seats = snapshot.get("seats") or []
    to_play = next((int(s["seat"]) for s in seats if s.get("to_play")), None)
    verdicts = snapshot.get("verdicts") or []
    last = int(verdicts[-1]["seat"]) if verdicts else None
    known = any(g == game for g, _ in MEANINGS)
    dolphin = {int(seat) for offer in snapshot.get("page_moves") or []
               if offer.get("move") == "dolphin" for seat in offer.get("seats") or []}
    out: dict[int, list[tuple[str, str]]] = {}
    for seat in seats:
        if seat.get("button") is not False:
            continue
        number = int(seat["seat"])
        if not known:
            out[number] = [(kind, words.say(f"button.{kind}")) for kind in GESTURES]
            continue
        if game == "kanaloa" and number in dolphin:
            out[number] = [(kind, words.say(DOLPHIN[kind])) for kind in GESTURES
                           if kind in DOLPHIN]
            continue
        out[number] = [
            (kind, words.say(f"button.{game}.{kind}"))
            for kind in GESTURES
            if (who := MEANINGS.get((game, kind))) is not None
            and (who == "anyone" or (who == "to_play" and number == to_play)
                 or (who == "last" and number == last))
        ]
    return out
