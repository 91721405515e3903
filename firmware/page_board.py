"""A game's board (`referee.board`) as the live snapshot carries it: every sentence and
word in every language, so the page draws any game's track and notes the same way; the track's
spaces in runs of the card they are printed on."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby
from typing import Any

from referee.board import Board
from referee.text import in_every_language


def board_json(board: Board, names: Sequence[str]) -> dict[str, Any] | None:
    """The snapshot's "board" (documented in webui/control.py); None for a game without."""
    if board.title is None and not board.track and not board.notes:
        return None

    def word(value: str) -> dict[str, Any]:
        return {"word": value, "texts": in_every_language(value, names)}

    return {
        "title": word(board.title or ""),
        "track": [
            {"card": word(card), "spaces": [
                {"space": space.name, "name": word(space.name), "colour": word(space.colour),
                 "marks": [word(mark) for mark in space.marks], "seats": list(space.seats)}
                for space in spaces]}
            for card, spaces in groupby(board.track, key=lambda space: space.card)
        ],
        "notes": [
            {"text": word(note.text), "colours": [word(colour) for colour in note.colours],
             "seat": note.seat}
            for note in board.notes
        ],
    }
