"""What the Kanaloa page may enter: the dolphin's step its owner chooses, and which free
ocean card goes, offered only while the referee waits for them; and the race it draws."""

from __future__ import annotations

from referee.board import Board, Note, TrackSpace
from referee.core import PageField, PageMove
from referee.games.kanaloa.state import COLOURS, TRICKS, KanaloaState, lead_colour
from referee.text import Text, t


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


def board(state: KanaloaState, trump: str | None) -> Board:
    """The race for the page: the ring with the boats, the trick's trump and lead colour,
    how far the round is, and each seat's void colours (KAN-FOLLOW: what it has shown it
    lacks this round)."""
    race = state.race
    if race is None:
        return Board()
    track = tuple(
        TrackSpace(space.name, space.colour,
                   tuple(mark for mark, shown in (("island", space.island),
                                                  ("dolphin", space.dolphin)) if shown),
                   tuple(seat for seat, boat in enumerate(race.boats) if boat.place == place),
                   space.card)
        for place, space in enumerate(race.spaces)
    )
    notes = []
    if trump is not None:
        notes.append(Note(t("trump: {colour}", colour=trump), (trump,)))
    lead = lead_colour(state.trick, state.options["special_lead"])
    if lead is not None:
        notes.append(Note(t("lead colour: {colour}", colour=lead), (lead,)))
    if state.phase == "play":
        notes.append(Note(t("round {round}, trick {trick} of {tricks}", round=state.round,
                            trick=state.tricks + 1, tricks=TRICKS)))
    for seat in range(state.seats):
        colours = tuple(colour for colour in COLOURS
                        if any(void.seat == seat and void.colour == colour
                               for void in state.voids))
        if colours:
            notes.append(Note(t("seat {seat} has shown no {colours}", seat=seat,
                                colours=Text.joined(", ", colours)), colours, seat))
    return Board(t("the race"), track, tuple(notes))
