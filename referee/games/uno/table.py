"""How the camera and the buttons see an UNO table: the discard pile in the middle,
hands laid out at a round end or a challenge, and the presses for the rest."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from referee.core import Move, Ruling
from referee.games.uno.state import WILDS, UnoState, debt_of, returned, seats_from, unshown
from referee.table import (
    Action,
    AskTable,
    Play,
    Press,
    TableInterpreter,
    TableView,
    TakeBack,
    ViewCard,
)
from referee.text import Text, t, tn

if TYPE_CHECKING:
    from referee.games.uno.rules import Uno


def turn_up(state: UnoState, code: str) -> Move:
    """The dealer's turn-up the camera saw; a wild that stays (UNO-FIRST-CARD, official)
    has its colour named by the first player, unseen."""
    fields: dict[str, Any] = {"card": code}
    if code in WILDS and not returned(state, code):
        fields["colour"] = None
    return Move(state.dealer, "turn-up", fields)


def uncovered(state: UnoState, codes: set[str | None], played: int) -> bool:
    """Does the pile show the card that lay under its last `played` cards, and not its top?"""
    if len(state.discard) <= played:
        return False
    return state.discard[-1 - played] in codes and state.top not in codes


#: The code vision gives a card lying face down (the draw pile): ignored.
BACK = "back"


class UnoTable(TableInterpreter[UnoState]):
    """Reads an UNO table: the discard pile in the middle, the buttons for the rest.

    The discard pile lies within `DISCARD_MM` of the mat centre, the draw pile face down
    beside it (backs are ignored), the hands off the mat. The camera sees the top card:
    in phase "deal" the first card there means the dealer dealt and turned it up; in
    "turn-up" (the last one went back) a new card is the next turn-up; in "play" a new
    top is a play by the seat to play (after a draw, the drawer keeps its card and the
    next seat plays). A wild's named colour is not seen: it is recorded as null, and the
    page names it with a `colour` move; seen after it, that move is no card and no play,
    and a flagged wild picked up again goes back with its colour.

    A card identical to the top cannot be seen going down, so the buttons say it: a press
    is "I put down a card identical to the top" (a jump-in out of turn; a double by the
    seat that just played it; else a plain play), a hold is "I draw" (the pending
    penalty, a debt, else 1), a double press by the last mover takes its move back.

    At the round end each other seat lays its hand face up before its place: seats sit
    evenly on an ellipse inside the mat edge (`seat_place`); so does the accused of a
    challenged wild draw 4 while the challenge waits. Moves entered on the page between
    a play and what the camera sees next (`ASIDES`) are looked past: a flagged card
    picked up again, or a second identical card, undoes them first (a call is made
    again, a catch or challenge of that play is void). Anything the view does not
    settle (two new cards at once, an unreadable top, a change the referee cannot
    explain) is a question for the table, never a guess: a false "illegal" is worse
    than a question.
    """

    #: Cards within this distance of the mat centre are the discard pile.
    DISCARD_MM = 80.0
    #: The seats' ellipse (semi-axes, mm): inside the A2 mat's 297 x 210 mm half-sizes.
    SEAT_RX, SEAT_RY = 250.0, 170.0

    def __init__(self, game: Uno) -> None:
        self._game = game
        #: Whether the discard pile was seen empty since the round's deal was due: the
        #: last round's pile lies there until the table gathers it.
        self._cleared = False

    @classmethod
    def seat_place(cls, seat: int, seats: int) -> tuple[float, float]:
        """Where `seat` sits, mm from the mat centre: seat 0 at the bottom of the image,
        then clockwise (90 + 360 * seat / seats degrees, image y down)."""
        angle = math.radians(90.0 + 360.0 * seat / seats)
        return (cls.SEAT_RX * math.cos(angle), cls.SEAT_RY * math.sin(angle))

    def on_view(self, state: UnoState, view: TableView, last: Ruling | None) -> list[Action]:
        cards = [card for card in view.cards if card.code != BACK]
        pile = [card for card in cards if math.hypot(card.x_mm, card.y_mm) <= self.DISCARD_MM]
        if state.phase != "deal":
            self._cleared = False
        elif not pile:
            self._cleared = True
        hands = [card for card in cards if card not in pile]
        if state.phase == "reveal":
            return self._reveals(state, hands)
        if state.phase == "over" or (state.phase == "deal" and not self._cleared):
            return []
        if state.challenge is not None:
            shown = self._challenged_hand(state, hands)
            if shown:
                return shown
        codes = {card.code for card in pile}
        if not codes:
            if state.phase == "play":
                return [AskTable(t("the camera does not see the discard pile: is it covered?"))]
            return []
        if None in codes:
            # What goes on it waits for its name: judged against it, by the seat after.
            return [AskTable(
                t("the camera cannot read the top of the discard pile: which is it?"),
                tuple(card for card in pile if card.code is None),
            )]
        if state.asides:
            gone = self._play_gone(state, codes)
            if gone:
                return gone
        if last is not None and self._taken_back(state, codes, last):
            return [TakeBack(t("seat {seat} took the flagged card back", seat=last.move.seat))]
        new = sorted(str(code) for code in codes if code != state.top)
        if not new:
            return []
        if len(new) > 1:
            return [AskTable(t("{count} new cards on the discard pile ({cards}): one at a time",
                               count=len(new), cards=Text.joined(", ", new)))]
        return self._new_top(state, new[0], last)

    def _new_top(self, state: UnoState, code: str, last: Ruling | None) -> list[Action]:
        dealer = state.dealer
        if state.phase == "deal":
            return [Play(Move(dealer, "deal")), Play(turn_up(state, code))]
        if state.phase == "turn-up":
            if last is not None and last.move.kind == "turn-up" and last.move.get("card") == code:
                return []  # the card that goes back is still there
            return [Play(turn_up(state, code))]
        copies = self._game.deck.face(code).copies
        if state.discard.count(code) >= copies:
            return [AskTable(t("{card} on the discard pile, but all {copies} are there already",
                               card=code, copies=copies))]
        if state.debts:
            debt = state.debts[0]
            return [AskTable(t("{card} on the discard pile, but seat {seat} first draws {count}: "
                               "who played it?", card=code, seat=debt.seat, count=debt.count))]
        seat = state.turn.current
        if state.drawer == seat:
            seat = state.turn.after(seat)
        fields: dict[str, Any] = {"cards": [code]}
        if code in WILDS:
            fields["colour"] = None
        return [Play(Move(seat, "play", fields))]

    @staticmethod
    def _taken_back(state: UnoState, codes: set[str | None], last: Ruling) -> bool:
        """Does the pile show its top from before the flagged play again, or another
        card in the flagged one's place (taken back and replaced in one reach: the view
        is read again after the take-back, and that card is the seat's play)?"""
        if last.verdict.ok or last.move.kind != "play":
            return False
        if uncovered(state, codes, len(last.move.get("cards"))):
            return True
        return len(codes) == 1 and state.top not in codes

    def _play_gone(self, state: UnoState, codes: set[str | None]) -> list[Action]:
        """Moves entered on the page since the last play (`ASIDES`), and the pile shows
        the card under that play again: the play left the pile. A flagged play is taken
        back, after those moves (the calls are made again: a call stands); a legal wild
        whose colour was named is asked about rather than taken for a new play."""
        played = state.played
        if played is None or not uncovered(state, codes, len(played.move.get("cards"))):
            return []
        seat = played.move.seat
        if played.flagged:
            return [
                *_undo_asides(state, double=False),
                TakeBack(t("seat {seat} took the flagged card back", seat=seat)),
                *_calls_again(state),
            ]
        if state.top not in WILDS or all(move.kind != "colour" for move in state.asides):
            return []
        if len(state.asides) == 1:
            return [AskTable(t("the {card} left the discard pile: if seat {seat} took it back, it "
                               "double-presses twice (the colour, then the card)",
                               card=state.top, seat=seat))]
        return [AskTable(t("the {card} left the discard pile: if seat {seat} took it back, take "
                           "back the last {count} moves on the page (those entered since, then "
                           "the card)", card=state.top, seat=seat, count=len(state.asides) + 1))]

    def _laid(self, state: UnoState, cards: list[ViewCard]) -> dict[int, list[str | None]]:
        """The cards off the discard pile by the seat whose place each lies nearest."""
        near: dict[int, list[str | None]] = {}
        for card in cards:
            seat = min(
                range(state.seats),
                key=lambda s: math.dist((card.x_mm, card.y_mm), self.seat_place(s, state.seats)),
            )
            near.setdefault(seat, []).append(card.code)
        return near

    def _reveals(self, state: UnoState, cards: list[ViewCard]) -> list[Action]:
        """The hands laid before unshown seats' places: one reveal each."""
        near = self._laid(state, cards)
        actions: list[Action] = []
        for seat in seats_from(state, state.turn.current):
            shown = near.get(seat)
            if not shown or not unshown(state, seat):
                continue
            debt = debt_of(state, seat)
            if debt is not None:
                actions.append(AskTable(t("seat {seat} first draws the {count} cards it owes: "
                                          "hold its button", seat=seat, count=debt.count)))
            elif None in shown:
                actions.append(_unreadable(seat))
            elif len(shown) < state.hands[seat]:
                # A card the camera missed would score the hand short: wait for all of them.
                actions.append(_seen_short(seat, len(shown), state.hands[seat]))
            else:
                codes = sorted(str(code) for code in shown)
                actions.append(Play(Move(seat, "reveal", {"cards": codes})))
        return actions

    def _challenged_hand(self, state: UnoState, cards: list[ViewCard]) -> list[Action]:
        """UNO-CHALLENGE: the accused lays its hand face up before its place, as at the
        round end. Its reveal settles the challenge, so it is played only when the camera
        reads exactly as many cards as the seat holds; anything else is asked."""
        assert state.challenge is not None
        seat = state.challenge.accused
        shown = self._laid(state, cards).get(seat)
        if not shown:
            return []
        held = state.hands[seat]
        if None in shown:
            return [_unreadable(seat)]
        if len(shown) < held:
            return [_seen_short(seat, len(shown), held)]
        if len(shown) > held:
            return [AskTable(t("the camera sees {seen} cards before seat {seat}, which holds "
                               "{count}: the challenge waits for its hand alone",
                               seen=len(shown), seat=seat, count=held))]
        return [Play(Move(seat, "reveal", {"cards": sorted(str(code) for code in shown)}))]

    def on_press(self, state: UnoState, press: Press, last: Ruling | None) -> list[Action]:
        seat = press.seat
        if press.kind == "double":
            if last is not None and last.move.seat == seat:
                return [TakeBack(t("seat {seat} took back its move", seat=seat))]
            return []
        debt = debt_of(state, seat)
        if press.kind == "hold":
            if debt is not None:
                return [Play(Move(seat, "draw", {"count": debt.count}))]
            if state.phase != "play":
                return [AskTable(t("seat {seat} held its button: there is nothing to draw now",
                                   seat=seat))]
            count = state.stack if state.stack and seat == state.turn.current else 1
            return [Play(Move(seat, "draw", {"count": count}))]
        top = state.top
        if state.phase != "play" or top is None:
            return [AskTable(t("seat {seat} pressed: there is no card to match yet", seat=seat))]
        played = state.played
        if played is not None and played.move.seat == seat and played.move.get("cards") == [top]:
            # A second card identical to the one it just played: a double. Moves entered
            # on the page since (a wild's colour goes with the double) are undone first.
            fields = {**played.move.fields, "cards": [top, top]}
            if top in WILDS and fields.get("colour") is None:
                fields["colour"] = state.colour
            return [
                *_undo_asides(state, double=True),
                TakeBack(t("seat {seat} put down a second {card}: a double", seat=seat, card=top)),
                Play(Move(seat, "play", fields)),
                # A seat that goes out with the double has nothing left to call.
                *_calls_again(state, out=seat if state.hands[seat] == 1 else None),
            ]
        fields = {"cards": [top]}
        if top in WILDS:
            fields["colour"] = None
        return [Play(Move(seat, "play", fields))]


def _undo_asides(state: UnoState, double: bool) -> list[Action]:
    """Take back the moves entered since the last play, the last first, before that play
    is taken back (`double`: or replaced by a double): a colour goes with its wild, a
    catch or a challenge was about that play; a call is made again after."""
    top = state.top
    undone: list[Action] = []
    for move in reversed(state.asides):
        if move.kind == "colour" and double:
            reason = t("the colour named for the {card} goes with the double", card=top)
        elif move.kind == "colour":
            reason = t("the {card} left the discard pile: the colour named for it goes too",
                       card=top)
        elif move.kind == "uno":
            reason = t("seat {seat}'s UNO call is taken back for now: it is made again after",
                       seat=move.seat)
        elif move.kind == "catch":
            reason = t("seat {seat}'s catch of seat {target} no longer holds: the play it "
                       "caught changed", seat=move.seat, target=move.get("target"))
        else:
            reason = t("seat {seat}'s challenge no longer holds: the wild draw 4 changed",
                       seat=move.seat)
        undone.append(TakeBack(reason))
    return undone


def _calls_again(state: UnoState, out: int | None = None) -> list[Action]:
    """The UNO calls among the moves undone by `_undo_asides`, made again (but the call
    of `out`, a seat that went out): a call stands whatever happened to the card, and is
    never flagged while the table plays the call."""
    if not state.options["uno_call"]:
        return []
    return [
        Play(Move(move.seat, "uno"))
        for move in state.asides
        if move.kind == "uno" and move.seat != out
    ]


def _unreadable(seat: int) -> AskTable:
    return AskTable(t("the camera cannot read every card of seat {seat}'s hand: lay them apart",
                      seat=seat))


def _seen_short(seat: int, seen: int, held: int) -> AskTable:
    return AskTable(tn("the camera sees {seen} of seat {seat}'s {count} cards: lay them apart",
                       "the camera sees {seen} of seat {seat}'s 1 card: lay it out",
                       seen=seen, seat=seat, count=held))
