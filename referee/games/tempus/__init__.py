"""Tempus: the state (`state`), the rules (`rules`), the sets read off the mat (`table`),
a move in words (`words`) and the counts the page enters (`page`)."""

from referee.games.tempus.rules import (
    BASE_HANDS,
    SERIES,
    Tempus,
    TempusSet,
    TempusState,
    TempusTable,
)

__all__ = ["BASE_HANDS", "SERIES", "Tempus", "TempusSet", "TempusState", "TempusTable"]
