"""What the UNO page may enter: what the camera cannot see or hear, offered only while
the referee would judge it legal."""

from __future__ import annotations

from referee.core import PageField, PageMove
from referee.games.uno.state import COLOURS, UnoState, debt_of
from referee.text import t


def page_moves(state: UnoState) -> list[PageMove]:
    """A wild's colour, a challenge, a catch, the UNO call."""
    return [
        *colour_offer(state),
        *challenge_offer(state),
        *catch_offer(state),
        *uno_offer(state),
    ]


def colour_offer(state: UnoState) -> list[PageMove]:
    """The colour named for the wild on top, while the camera has not seen it and a
    card may still go on it; the seat that names it enters it."""
    wild = state.top_wild
    if state.phase != "play" or wild is None or state.colour is not None:
        return []
    if wild.turned_up:
        title = t("{card} turned up: which colour does seat {seat} name?",
                  card=state.top, seat=wild.seat)
    else:
        title = t("Which colour did seat {seat} name for the {card}?",
                  seat=wild.seat, card=state.top)
    colour = PageField("colour", t("colour"), COLOURS)
    return [PageMove("colour", title, (wild.seat,), (colour,))]


def challenge_offer(state: UnoState) -> list[PageMove]:
    """UNO-CHALLENGE: the target of the wild draw 4 just played, until a card is played
    or drawn (a colour named, a call or a catch leave it open), and only when a shown
    hand can settle it: the referee knew the colour it went on (else what would have
    forbidden it is not known, and the challenger would draw 6 on a guess)."""
    wd4 = state.wd4
    if (
        wd4 is None
        or state.phase != "play"
        or not state.options["challenge"]
        or state.challenge is not None
    ):
        return []
    if not wd4.guilty and not any(s.index == wd4.index for s in state.suspicions):
        return []
    target = state.turn.current
    title = t("Does seat {seat} challenge the wild draw 4 of seat {accused}?",
              seat=target, accused=wd4.seat)
    return [PageMove("challenge", title, (target,))]


def catch_offer(state: UnoState) -> list[PageMove]:
    """UNO-CALL: a seat down to one card without calling UNO, until the next player
    starts a turn; any other seat catches it."""
    target = state.exposed
    if (
        target is None
        or state.phase != "play"
        or not state.options["uno_call"]
        or state.hands[target] != 1
    ):
        return []
    catchers = tuple(seat for seat in range(state.seats) if seat != target)
    title = t("Seat {seat} is down to one card without calling UNO: who caught it?",
              seat=target)
    return [PageMove("catch", title, catchers, (), {"target": target})]


def uno_offer(state: UnoState) -> list[PageMove]:
    """UNO-CALL: a seat with one card, or two (about to play its next-to-last), that has
    not called yet, unless it owes cards (caught, it draws them first)."""
    if state.phase != "play" or not state.options["uno_call"]:
        return []
    callers = tuple(
        seat for seat in range(state.seats)
        if 0 < state.hands[seat] <= 2
        and seat not in state.called
        and debt_of(state, seat) is None
    )
    if not callers:
        return []
    return [PageMove("uno", t("Who called UNO?"), callers)]
