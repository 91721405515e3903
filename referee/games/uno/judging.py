"""How UNO judges each kind of move: the rules a move breaks in a state, and what it
does when it breaks none. `Uno.judge` turns these into a verdict."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.core import TURN_RULE, Move
from referee.games.uno.state import (
    UNO_PENALTY,
    WILDS,
    Breach,
    Debt,
    UnoCard,
    UnoState,
    debt_of,
    in_turn,
    jumps_in,
    returned,
    unshown,
)
from referee.text import Text, t, tn

if TYPE_CHECKING:
    from referee.games.uno.rules import Uno


def breaches_of(game: Uno, state: UnoState, move: Move) -> tuple[list[Breach], str]:
    """The rules `move` breaks in `state`, and what it does if it breaks none."""
    if state.phase == "over":
        return [("UNO-GAME-END", t("the game is over: no more moves"))], ""
    judges = {
        "deal": judge_deal,
        "turn-up": judge_turn_up,
        "play": judge_play,
        "colour": judge_colour,
        "draw": judge_draw,
        "uno": judge_uno,
        "catch": judge_catch,
        "challenge": judge_challenge,
        "reveal": judge_reveal,
    }
    breaches, message = judges[move.kind](game, state, move)
    waiting = state.challenge
    # Naming a wild's colour, calling and catching are no turn: they wait for nothing.
    if waiting is not None and move.kind not in ("reveal", "uno", "catch", "colour"):
        breaches.insert(0, ("UNO-CHALLENGE", t(
            "seat {accused} first shows its hand to seat {challenger}",
            accused=waiting.accused, challenger=waiting.challenger,
        )))
    return breaches, message

def judge_deal(game: Uno, state: UnoState, move: Move) -> tuple[list[Breach], str]:
    if state.phase == "reveal":
        missing = Text.joined(", ", [t("seat {seat}", seat=s) for s in range(state.seats)
                                     if unshown(state, s)])
        return [("UNO-SCORE", t("the round is not scored: {seats} show their hands first",
                                seats=missing))], ""
    if state.phase != "deal":
        return [(TURN_RULE, t("the round is under way: no deal now"))], ""
    if move.seat != state.dealer:
        return [(TURN_RULE, t("seat {dealer} deals round {round}",
                              dealer=state.dealer, round=state.round))], ""
    return [], t("for round {round}", round=state.round)

def judge_turn_up(game: Uno, state: UnoState, move: Move) -> tuple[list[Breach], str]:
    code = move.get("card")
    if state.phase != "turn-up":
        return [("UNO-FIRST-CARD", t("the first card is turned up once, after the deal"))], ""
    breaches: list[Breach] = []
    if move.seat != state.dealer:
        breaches.append((TURN_RULE, t("seat {dealer}, the dealer, turns up the card",
                                      dealer=state.dealer)))
    if returned(state, code):
        return breaches, t("and it goes back into the pile: turn up another")
    if code == "wild" and "colour" not in move.fields:
        breaches.append(first_names(state.turn.after(state.dealer)))
    return breaches, ""

def judge_play(game: Uno, state: UnoState, move: Move) -> tuple[list[Breach], str]:
    seat, codes = move.seat, move.get("cards")
    if state.phase == "deal":
        return [(TURN_RULE, t("seat {dealer} deals first", dealer=state.dealer))], ""
    if state.phase == "turn-up":
        return [("UNO-FIRST-CARD",
                 t("the dealer turns up the first card before any play"))], ""
    if state.phase == "reveal":
        return [("UNO-SCORE",
                 t("the round is over: the other hands are shown and scored"))], ""
    cards = [game.card(code) for code in codes]
    breaches: list[Breach] = []
    breaches += debt_breaches(state, seat)
    jump = jumps_in(state, move)
    if not jump and not in_turn(state, seat):
        breaches.append(not_your_turn(state, seat))
        if state.options["jump_in"]:
            breaches.append(
                ("UNO-JUMP-IN", t("out of turn only a card identical to {top}", top=state.top))
            )
    if len(cards) > 1:
        breaches += double_breaches(state, codes)
    if state.drawer == seat and not jump:
        breaches += play_drawn_breaches(state, codes)
    if not jump:
        breaches += game.match_breaches(state, cards[0], move)
    breaches += zero_breaches(state, move, cards)
    # The move says the cards and the colour named; the verdict what they went on.
    return breaches, (t("on {top}, jumping in", top=state.top) if jump
                      else t("on {top}", top=state.top))

def debt_breaches(state: UnoState, seat: int) -> list[Breach]:
    debt = debt_of(state, seat)
    if debt is None:
        return []
    return [(debt.rule, owes(seat, debt))]

def double_breaches(state: UnoState, codes: list[str]) -> list[Breach]:
    if not state.options["doubles"]:
        return [("UNO-DOUBLE", t("one card at a time: this table plays without doubles"))]
    if len(codes) > 2 or codes[0] != codes[1]:
        return [("UNO-DOUBLE", t("only two identical cards go down together"))]
    return []
def zero_breaches(state: UnoState, move: Move, cards: list[UnoCard]) -> list[Breach]:
    zero = state.options["zero"]
    swap = move.get("swap")
    if cards[0].value != 0:
        return [("UNO-ZERO", t("only a 0 swaps hands"))] if "swap" in move.fields else []
    chosen = isinstance(swap, int) and 0 <= swap < state.seats and swap != move.seat
    if zero == "swap_one" and not chosen:
        return [("UNO-ZERO",
                 t("a 0 swaps hands with one other seat: say which (\"swap\")"))]
    if zero != "swap_one" and "swap" in move.fields:
        return [("UNO-ZERO", t("this table's 0 does not swap with one chosen seat"))]
    return []

def judge_colour(game: Uno, state: UnoState, move: Move) -> tuple[list[Breach], str]:
    """The colour named for the wild on top that went down with its colour unseen:
    named by the seat that played it (the first player for a wild turned up)."""
    top, wild = state.top, state.top_wild
    if top is None:
        return [("UNO-FIRST-CARD",
                 t("no card is turned up yet: there is no colour to name"))], ""
    if top not in WILDS:
        return [("UNO-MATCH", t("the top card is {card}, not a wild: the colour is {colour}",
                                card=top, colour=state.colour))], ""
    if state.colour is not None:
        return [("UNO-MATCH", t("the colour named for the {card} is {colour} already",
                                card=top, colour=state.colour))], ""
    if wild is not None and move.seat != wild.seat:
        if wild.turned_up:
            return [first_names(wild.seat)], ""
        return [(TURN_RULE, t("seat {seat} played the {card}: it names the colour",
                              seat=wild.seat, card=top))], ""
    return [], ""

def judge_draw(game: Uno, state: UnoState, move: Move) -> tuple[list[Breach], str]:
    seat, count = move.seat, move.get("count")
    if state.phase in ("deal", "turn-up"):
        return [(TURN_RULE, t("the round starts with the deal and the first card"))], ""
    debt = debt_of(state, seat)
    if debt is not None:
        if count != debt.count:
            return [(debt.rule, t("seat {seat} owes {owed} cards, not {count}",
                                  seat=seat, owed=debt.count, count=count))], ""
        return [], t("as owed")
    if state.phase == "reveal":
        return [("UNO-SCORE", t("the round is over: no more draws"))], ""
    if not in_turn(state, seat):
        return [not_your_turn(state, seat)], ""
    left = state.pile + max(0, len(state.discard) - 1)
    if count > left:
        return [("UNO-RESHUFFLE", tn("only {count} cards are left to draw, with the discards",
                                     "only 1 card is left to draw, with the discards",
                                     count=left))], ""
    if state.stack and seat == state.turn.current:
        if count != state.stack:
            return [("UNO-STACK", t("the penalty is {penalty} cards, not {count}",
                                    penalty=state.stack, count=count))], ""
        return [], t("as the penalty, and loses the turn")
    if state.drawer == seat:
        return [("UNO-DRAW", t("one card drawn a turn: play it or keep it"))], ""
    if count != 1:
        return [("UNO-DRAW", t("a player who does not play draws 1 card, not {count}",
                               count=count))], ""
    return [], ""

def judge_uno(game: Uno, state: UnoState, move: Move) -> tuple[list[Breach], str]:
    if not state.options["uno_call"]:
        return [("UNO-CALL", t("this table plays without the UNO call"))], ""
    held = state.hands[move.seat]
    if held > 2:
        return [], tn("with {count} cards: nothing to call yet",
                      "with 1 card: nothing to call yet", count=held)
    return [], ""

def judge_catch(game: Uno, state: UnoState, move: Move) -> tuple[list[Breach], str]:
    target = move.get("target")
    if not state.options["uno_call"]:
        return [("UNO-CALL", t("this table plays without the UNO call"))], ""
    if not 0 <= target < state.seats or target == move.seat:
        return [("UNO-CALL", t("seat {seat} cannot catch seat {target}",
                               seat=move.seat, target=target))], ""
    if state.exposed != target:
        if state.hands[target] != 1:
            why = t("seat {seat} holds {held} cards", seat=target, held=state.hands[target])
        elif target in state.called:
            why = t("seat {seat} called UNO", seat=target)
        else:
            why = t("too late: the next player has started a turn")
        return [("UNO-CALL", why)], ""
    return [], t("and seat {target} draws {count}", target=target, count=UNO_PENALTY)

def judge_challenge(game: Uno, state: UnoState, move: Move) -> tuple[list[Breach], str]:
    if not state.options["challenge"]:
        return [("UNO-CHALLENGE", t("this table plays without challenges"))], ""
    if state.wd4 is None or state.phase != "play":
        return [("UNO-CHALLENGE", t("only a wild draw 4 just played may be challenged"))], ""
    if move.seat != state.turn.current:
        return [("UNO-CHALLENGE", t("only seat {seat}, its target, may challenge",
                                    seat=state.turn.current))], ""
    return [], t("and seat {accused} shows its hand", accused=state.wd4.seat)

def judge_reveal(game: Uno, state: UnoState, move: Move) -> tuple[list[Breach], str]:
    seat = move.seat
    waiting = state.challenge
    if waiting is not None and seat == waiting.accused:
        [owed] = game.apply(state, move).debts[len(state.debts) :]
        if owed.seat == seat:
            return [], t("so the wild draw 4 was illegal, and seat {drawer} draws {count}",
                         drawer=owed.seat, count=owed.count)
        return [], t("so the wild draw 4 was legal, and seat {drawer} draws {count}",
                     drawer=owed.seat, count=owed.count)
    if state.phase == "reveal" and seat in state.revealed:
        return [("UNO-SCORE", t("seat {seat} has already shown its hand", seat=seat))], ""
    if state.phase == "reveal" and seat == state.out:
        return [("UNO-SCORE", t("seat {seat} went out: no hand to show", seat=seat))], ""
    debt = debt_of(state, seat)
    if debt is not None:
        return [(debt.rule, owes(seat, debt))], ""
    points = game.points(state, move.get("cards"))
    return [], tn("worth {count} points", "worth 1 point", count=points)


def not_your_turn(state: UnoState, seat: int) -> Breach:
    return (TURN_RULE, t("it is seat {current}'s turn, not {seat}'s",
                         current=state.turn.current, seat=seat))


def owes(seat: int, debt: Debt) -> Text:
    return t("seat {seat} first draws the {count} cards it owes", seat=seat, count=debt.count)


def first_names(seat: int) -> Breach:
    """UNO-FIRST-CARD (official): on a wild turned up, the first player names the colour."""
    return ("UNO-FIRST-CARD", t("a wild turned up: seat {first} names the colour", first=seat))


def defence_breaches(state: UnoState, card: UnoCard) -> list[Breach]:
    """UNO-STACK: what may go on a pending penalty."""
    if not state.options["stacking"]:
        return [("UNO-STACK", t("no stacking: seat {seat} draws {penalty}",
                                seat=state.turn.current, penalty=state.stack))]
    top = str(state.top)
    if card.code == "wild":
        return [("UNO-WILD-RESTRICT", t("no wild while a penalty of {penalty} is pending",
                                        penalty=state.stack))]
    if top == "wild-draw4":
        if card.code == "wild-draw4" or (card.action == "draw2" and card.colour == state.colour):
            return []
        return [("UNO-STACK", t("on a +4 only a +4 or a +2 of {colour}, or draw {penalty}",
                                colour=state.colour, penalty=state.stack))]
    if card.action == "draw2" or card.code == "wild-draw4":
        return []
    return [("UNO-STACK", t("on a +2 only a +2 or a +4, or draw {penalty}", penalty=state.stack))]


def play_drawn_breaches(state: UnoState, codes: list[str]) -> list[Breach]:
    """UNO-DRAW: after drawing, only the drawn card may be played."""
    if len(codes) > 1:
        return [("UNO-DRAW", t("after drawing, only the drawn card may be played"))]
    if state.drawn is not None and codes[0] != state.drawn:
        return [("UNO-DRAW", t("after drawing, only the drawn card ({card}) may be played",
                               card=state.drawn))]
    return []
