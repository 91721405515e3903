"""Kanaloa: the race and the trick (`state`), the rules (`rules`), the trick and the ring
read off the table (`table`), a move in words (`words`) and the dolphin's step and the
removal the page enters (`page`)."""

from referee.games.kanaloa.rules import Kanaloa
from referee.games.kanaloa.state import COLOURS, KanaloaState, Race
from referee.games.kanaloa.table import KanaloaTable

__all__ = ["COLOURS", "Kanaloa", "KanaloaState", "KanaloaTable", "Race"]
