"""Tempus: the sets and hands (`state`), the rules (`rules`), the sets read off the mat
(`table`), a move in words (`words`) and the round-end count the page enters (`page`)."""

from referee.games.tempus.rules import Tempus
from referee.games.tempus.state import BASE_HANDS, SERIES, TempusSet, TempusState
from referee.games.tempus.table import TempusTable

__all__ = ["BASE_HANDS", "SERIES", "Tempus", "TempusSet", "TempusState", "TempusTable"]
