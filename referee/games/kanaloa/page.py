"""What the Kanaloa page may enter: the dolphin's step its owner chooses, and which free
ocean card goes, offered only while the referee waits for them."""

from __future__ import annotations

from referee.core import PageField, PageMove
from referee.games.kanaloa.state import KanaloaState
from referee.text import t


def page_moves(state: KanaloaState, free: tuple[str, ...]) -> list[PageMove]:
    """KAN-DOLPHIN's choice, and the card KAN-OCTOPUS or KAN-ROUND-REMOVE takes away."""
    offers = []
    if state.dolphin is not None:
        offers.append(PageMove(
            "dolphin",
            t("Does seat {seat}'s boat take the dolphin's step?", seat=state.dolphin),
            (state.dolphin,),
            (PageField("step", t("step"), (True, False)),),
        ))
    if state.removal is not None and free:
        offers.append(PageMove(
            "remove",
            t("Which ocean card does seat {seat} remove?", seat=state.removal.seat),
            (state.removal.seat,),
            (PageField("card", t("ocean card"), free),),
        ))
    return offers
