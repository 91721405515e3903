"""How the buttons see a Remi table, until the camera reads the tiles.

The racks face their owners and a draw from the wall is a reach the camera cannot tell
from another, so the seat to play presses its button when it draws; a hold by the seat
that just took the row's last tile announces "pe tablă"; a double press takes back the
seat's last move. Camera views give nothing yet: the row and the melds are entered in
the log (docs/notation.md) until the tile vision comes.
"""

from __future__ import annotations

from referee.core import Move, Ruling
from referee.games.remi.state import RemiState
from referee.table import Action, Play, Press, TableInterpreter, TableView, TakeBack
from referee.text import t


class RemiTable(TableInterpreter[RemiState]):
    """Presses only: a draw from the wall, a "pe tablă" announcement, a take-back."""

    def __init__(self, seats: int) -> None:
        self._seats = seats

    def on_view(self, state: RemiState, view: TableView, last: Ruling | None) -> list[Action]:
        return []

    def on_press(self, state: RemiState, press: Press, last: Ruling | None) -> list[Action]:
        if press.kind == "double" and last is not None and last.move.seat == press.seat:
            return [TakeBack(t("seat {seat} took back its move", seat=press.seat))]
        if state.phase != "play" or press.seat != state.turn.seat:
            return []
        taken = state.turn.taken
        if press.kind == "hold" and taken is not None and taken.rule == "REMI-RUPERE-LAST":
            return [Play(Move(press.seat, "pe-tabla"))]
        if press.kind == "press" and not state.turn.drew:
            return [Play(Move(press.seat, "draw"))]
        return []
