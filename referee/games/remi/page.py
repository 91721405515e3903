"""What the Remi page may enter: the "pe tablă" announcement (spoken, not seen) and the
atu's bonus claim, offered only while they may be made."""

from __future__ import annotations

from referee.core import PageMove
from referee.games.remi.state import RemiState
from referee.text import t


def page_moves(state: RemiState) -> list[PageMove]:
    """REMI-PE-TABLA for the seat that took the row's last tile this turn; REMI-ATU for
    the seats that have not yet taken a tile this round, while nobody has claimed it."""
    if state.phase != "play":
        return []
    offers = []
    taken = state.turn.taken
    seat = state.turn.seat
    if taken is not None and taken.rule == "REMI-RUPERE-LAST" and state.announced[seat] is None:
        offers.append(PageMove("pe-tabla", t("Does seat {seat} announce pe tablă?", seat=seat),
                               (seat,)))
    if state.atu_claimed is None:
        seats = tuple(s for s in range(state.seats) if s not in state.took
                      and not (s == state.starter and s in state.discarded))
        if seats:
            offers.append(PageMove("atu", t("Who shows the tile identical to the atu?"),
                                   seats))
    return offers
