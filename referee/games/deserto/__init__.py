"""Deserto: the rules (`rules`), the square read off the mat (`table`), a move in words
(`words`)."""

from referee.games.deserto.rules import (
    CELL_GAP_MM,
    CELLS,
    NEIGHBOURS,
    OFF,
    Deserto,
    DesertoState,
    DesertoTable,
)

__all__ = ["CELLS", "CELL_GAP_MM", "NEIGHBOURS", "OFF", "Deserto", "DesertoState", "DesertoTable"]
