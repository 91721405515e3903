"""Deserto: the square and hands (`state`), the rules (`rules`), the square read off the
mat (`table`), a move in words (`words`)."""

from referee.games.deserto.rules import Deserto
from referee.games.deserto.state import CELLS, NEIGHBOURS, OFF, DesertoState
from referee.games.deserto.table import CELL_GAP_MM, DesertoTable

__all__ = ["CELLS", "CELL_GAP_MM", "NEIGHBOURS", "OFF", "Deserto", "DesertoState", "DesertoTable"]
