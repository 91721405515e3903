"""Remi pe tablă: the tiles, melds and counted racks (`state`), the rules (`rules`), the
row, the melds and the presses read at the table (`table`), a move in words (`words`) and
the announcement and atu claim the page enters (`page`)."""

from referee.games.remi.rules import Remi
from referee.games.remi.state import COLOURS, Meld, RemiState
from referee.games.remi.table import RemiTable

__all__ = ["COLOURS", "Meld", "Remi", "RemiState", "RemiTable"]
