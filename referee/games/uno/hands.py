"""What the referee knows of UNO's hidden hands: cards drawn, played, passed and shown,
and the suspicions on a wild that later shown cards turn into deferred verdicts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING

from referee.core import Move, Verdict
from referee.games.uno.state import WILDS, Suspicion, UnoState, colour_unknown
from referee.text import Text, t

if TYPE_CHECKING:
    from referee.games.uno.rules import Uno


def without(cards: tuple[str, ...], gone: Iterable[str]) -> tuple[str, ...]:
    """`cards` less one copy of each of `gone` that is there."""
    left = Counter(cards)
    left.subtract(gone)
    return tuple(sorted(left.elements()))


def take(state: UnoState, seat: int, count: int, seen: tuple[str, ...]) -> UnoState:
    """`seat` draws `count` cards (`seen` of them face up), reshuffling the discard pile
    under its top card when the pile runs out (UNO-RESHUFFLE)."""
    pile, discard = state.pile, state.discard
    if count > pile and len(discard) > 1:
        pile, discard = pile + len(discard) - 1, discard[-1:]
    count = min(count, pile)
    hands = list(state.hands)
    hands[seat] += count
    hand = state.hand_of[seat]
    known = list(state.known)
    known[hand] = tuple(sorted((*known[hand], *seen)))
    suspicions = tuple(
        replace(s, unknown_in=s.unknown_in + count - len(seen), known_in=(*s.known_in, *seen))
        if s.hand == hand
        else s
        for s in state.suspicions
    )
    return replace(
        state,
        pile=pile - count,
        discard=discard,
        hands=tuple(hands),
        known=tuple(known),
        suspicions=suspicions,
        called=state.called - {seat} if hands[seat] > 2 else state.called,
    )


def show(state: UnoState, hand: int, codes: list[str]) -> UnoState:
    """Cards played from `hand` count as shown for the suspicions on it."""
    suspicions = tuple(
        replace(s, shown=(*s.shown, *(c for c in codes if c in s.forbidding)))
        if s.hand == hand
        else s
        for s in state.suspicions
    )
    return prove(replace(state, suspicions=suspicions), hand, ())


def prove(state: UnoState, hand: int, revealed: tuple[str, ...]) -> UnoState:
    """Turn the suspicions on `hand` that the shown cards prove into deferred verdicts."""
    proven: list[Verdict] = []
    kept: list[Suspicion] = []
    for suspicion in state.suspicions:
        shown = suspicion.proof(revealed) if suspicion.hand == hand else ()
        if not shown:
            kept.append(suspicion)
            continue
        proven.append(
            Verdict(
                ok=False,
                rules=(suspicion.rule,),
                message=t(
                    "seat {seat} held {cards} when it played {wild} at move {index}: more than "
                    "it can have drawn since",
                    seat=suspicion.offender, cards=Text.joined(", ", sorted(set(shown))),
                    wild=suspicion.why, index=suspicion.index + 1,  # said from 1
                ),
                severity="illegal",
                concerns=suspicion.index,
            )
        )
    return replace(state, suspicions=tuple(kept), proven=(*state.proven, *proven))


def pass_hands(state: UnoState, seat: int, swap: int | None) -> UnoState:
    """UNO-ZERO: every hand to the next seat, or `seat` swaps with `swap`."""
    zero = state.options["zero"]
    seats = state.seats
    if zero == "none":
        return state
    moves = {s: state.turn.after(s) for s in range(seats)}
    if zero == "swap_one":
        if swap is None or not 0 <= swap < seats or swap == seat:
            return state
        moves = {s: s for s in range(seats)} | {seat: swap, swap: seat}
    hands, hand_of = [0] * seats, [0] * seats
    for giver, taker in moves.items():
        hands[taker] = state.hands[giver]
        hand_of[taker] = state.hand_of[giver]
    # A hand that called UNO has called it wherever it goes; passing is not playing,
    # so nobody is caught for the card counts a pass leaves.
    called = frozenset(moves[s] for s in state.called)
    return replace(
        state, hands=tuple(hands), hand_of=tuple(hand_of), called=called, exposed=None
    )


def wild_suspicion(game: Uno, state: UnoState, move: Move) -> Suspicion | None:
    """A wild whose legality hangs on hidden cards: remember what would prove it."""
    code = move.get("cards")[0]
    if state.stack or code not in WILDS:
        return None
    rule = "UNO-WILD-RESTRICT" if code == "wild" else "UNO-WD4-RESTRICT"
    if colour_unknown(state):
        return None
    if rule == "UNO-WILD-RESTRICT" and state.options["wild"] == "official":
        return None
    if game.known_breaches(state, move.seat, rule):
        return None
    what = t("a wild") if code == "wild" else t("a wild draw 4")
    why = t("{wild} on {top} ({colour})", wild=what, top=state.top, colour=state.colour)
    return Suspicion(
        state.index, move.seat, state.hand_of[move.seat], rule, game.forbidding(state, rule),
        why,
    )
