"""UNO with the Romanian house rules of seed 003 (jump-in, doubles, stacked draws, hands
passed on a 0, restricted wilds, own-hand scoring to 500 where the lowest total wins);
Mattel's official rules are options. Rule ids and [INF] choices: shared/rules/uno.md.

Notation (see docs/notation.md):

    {"seat": 3, "move": "deal"}
    {"seat": 3, "move": "turn-up", "card": "red-7"}
    {"seat": 0, "move": "play", "cards": ["red-3"]}
    {"seat": 1, "move": "play", "cards": ["wild"], "colour": "blue"}
    {"seat": 1, "move": "colour", "colour": "blue"}
    {"seat": 2, "move": "draw", "count": 1}
    {"seat": 2, "move": "uno"}
    {"seat": 0, "move": "catch", "target": 2}
    {"seat": 3, "move": "challenge"}
    {"seat": 1, "move": "reveal", "cards": ["red-2", "wild"]}

A play out of turn is a jump-in when the rules accept it. A wild the camera saw is
played with `"colour": null`; the page then offers its player a `colour` move that names
it (`Uno.page_moves`), as it offers what the camera cannot hear: the UNO call, a catch
and the challenge of a wild draw 4 (the accused then lays its hand out for the camera),
each only while the referee would judge it legal. Hands are hidden: the referee keeps
how many cards each seat holds and what is known of them. A wild played while its seat
held a card that forbade it is flagged only once a later play or reveal proves that the
seat held such a card at the time (a deferred verdict).

Every sentence a player sees is a `referee.text.Text` (its Romanian is in
`referee/locales/ro/uno.json`); errors in a written log stay plain English.

Here: the options, the notation, setup and how each move changes the state. Each kind of
move is judged in `judging`; the cards and the state are in `state`, hidden hands and
their proofs in `hands`, the camera's reading in `table`, words in `words`, the page's
offers in `page`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from referee.core import Game, Header, Move, Option, PageMove, RefereeError, Verdict
from referee.games.uno.hands import pass_hands, prove, show, take, wild_suspicion, without
from referee.games.uno.judging import breaches_of, defence_breaches
from referee.games.uno.page import page_moves
from referee.games.uno.state import (
    ASIDES,
    CHALLENGE_EXTRA,
    COLOURS,
    HAND_SIZE,
    PENALTY,
    UNO_PENALTY,
    WILDS,
    Breach,
    Challenge,
    Debt,
    Played,
    TopWild,
    UnoCard,
    UnoState,
    Wd4,
    debt_of,
    fresh_round,
    game_ends,
    jumps_in,
    returned,
    round_start,
    seats_from,
    unseen_colour_matters,
    unshown,
)
from referee.games.uno.table import UnoTable
from referee.games.uno.words import RULE_NAMES, describe, round_news
from referee.seats import TurnOrder
from referee.text import Text, t, tn


class Uno(Game[UnoState]):
    """UNO for 2 to 10 players: the seed's house rules by default, Mattel's as options."""

    name = "uno"
    rule_names = RULE_NAMES
    title = "UNO"
    min_seats = 2
    max_seats = 10
    options = (
        Option(
            "first_card",
            "house",
            ("house", "official"),
            "UNO-FIRST-CARD: a turned-up wild of either kind goes back (house); official: "
            "only a wild draw 4 goes back, on a wild the first player names the colour.",
        ),
        Option(
            "turned_up_reverse",
            "dealer_played",
            ("dealer_played", "dealer_first"),
            "UNO-FIRST-CARD, a reverse turned up: it counts as played by the dealer, so the "
            "dealer's right plays first (the sheet: 'as if the dealer had played it'); "
            "dealer_first: the dealer plays first, then play goes the other way (Mattel).",
        ),
        Option(
            "wild",
            "house",
            ("house", "official"),
            "UNO-WILD-RESTRICT: a wild only without a card of the colour or number (house); "
            "official: at any time.",
        ),
        Option(
            "wild_draw4",
            "house",
            ("house", "official"),
            "UNO-WD4-RESTRICT: only without any other playable card, or as a defence "
            "(house); official: only without a card of the current colour.",
        ),
        Option(
            "draw2_on_draw2",
            False,
            (False, True),
            "UNO-MATCH: the seed lets a +2 go only on its colour or as a defence; true: on "
            "any +2 (official symbol matching).",
        ),
        Option("stacking", True, (True, False), "UNO-STACK: +2 and +4 may be passed on."),
        Option("jump_in", True, (True, False), "UNO-JUMP-IN: an identical card out of turn."),
        Option("doubles", True, (True, False), "UNO-DOUBLE: two identical cards at once."),
        Option(
            "zero",
            "pass_all",
            ("pass_all", "swap_one", "none"),
            "UNO-ZERO: every hand passes on (house), the player swaps with one seat (the "
            "seed's variant), or nothing (official).",
        ),
        Option(
            "two_player_reverse",
            "skip",
            ("skip", "turn"),
            "UNO-REVERSE with two players: it acts as a skip [INF, official]; turn: it only "
            "changes the direction, so the other player plays.",
        ),
        Option("uno_call", True, (True, False), "UNO-CALL: caught without calling, draw 2."),
        Option(
            "challenge", True, (True, False), "UNO-CHALLENGE: a wild draw 4 may be challenged."
        ),
        Option(
            "scoring",
            "house",
            ("house", "official"),
            "UNO-SCORE and UNO-GAME-END: each player scores their own hand (actions 25) and "
            "the lowest total wins (house); official: the winner scores every other hand "
            "(actions 20) and wins at the target.",
        ),
        Option("target", 500, (100, 200, 250, 300, 500, 1000), "UNO-GAME-END: the total."),
        Option(
            "ties",
            "shared",
            ("shared", "play_on"),
            "UNO-GAME-END: equal lowest totals share the win, or another round is played [INF].",
        ),
    )

    def __init__(self) -> None:
        self._cards = {
            face.code: UnoCard(
                face.code,
                face.attrs["colour"],
                face.attrs.get("value"),
                face.attrs.get("action"),
                int(face.attrs["points"]),
                int(face.attrs["points_official"]),
            )
            for face in self.deck.faces
            if face.attrs.get("in_play", True)
        }
        self.playing_cards = sum(
            face.copies for face in self.deck.faces if face.code in self._cards
        )

    def card(self, code: str) -> UnoCard:
        return self._cards[code]

    def points(self, state: UnoState, cards: Iterable[str]) -> int:
        """What the cards of a hand score under the table's scoring (UNO-SCORE)."""
        official = state.options["scoring"] == "official"
        return sum(
            self._cards[c].points_official if official else self._cards[c].points for c in cards
        )

    # -- notation ---------------------------------------------------------------

    def parse_move(self, seat: int, kind: str, fields: Mapping[str, Any]) -> Move:
        shapes: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
            "deal": ((), ()),
            "turn-up": (("card",), ("colour",)),
            "play": (("cards",), ("colour", "swap")),
            "colour": (("colour",), ()),
            "draw": (("count",), ("cards",)),
            "uno": ((), ()),
            "catch": (("target",), ()),
            "challenge": ((), ()),
            "reveal": (("cards",), ()),
        }
        if kind not in shapes:
            raise RefereeError(
                f"unknown move {kind!r}; UNO has deal, turn-up, play, colour, draw, uno, "
                "catch, challenge and reveal"
            )
        required, optional = shapes[kind]
        extra = sorted(set(fields) - set(required) - set(optional))
        if extra:
            raise RefereeError(f"a {kind} move has no field {extra[0]!r}")
        missing = [name for name in required if name not in fields]
        if missing:
            raise RefereeError(f'a {kind} move needs "{missing[0]}"')
        if "card" in fields:
            self._check_code(fields["card"], "card")
        if "cards" in fields:
            cards = fields["cards"]
            if not isinstance(cards, list) or (kind == "play" and not cards):
                raise RefereeError("cards must be a list of card codes such as [\"red-7\"]")
            for code in cards:
                self._check_code(code, "each card")
        if kind == "colour" and fields["colour"] not in COLOURS:
            raise RefereeError(
                f"a colour move names one of {', '.join(COLOURS)}, not {fields['colour']!r}"
            )
        shown = fields.get("cards", [fields.get("card")])
        wild = kind in ("play", "turn-up") and any(code in WILDS for code in shown)
        if "colour" in fields and fields["colour"] not in COLOURS and not (
            wild and fields["colour"] is None
        ):
            raise RefereeError(
                f"colour must be one of {', '.join(COLOURS)} (or null on a wild: named, "
                f"not known), not {fields['colour']!r}"
            )
        if kind == "play" and wild and "colour" not in fields:
            raise RefereeError('a wild needs "colour", the colour its player names')
        if kind == "play" and not wild and "colour" in fields:
            raise RefereeError("only a wild names a colour")
        for name in ("count", "target", "swap"):
            value = fields.get(name)
            if name in fields and (not isinstance(value, int) or isinstance(value, bool)):
                raise RefereeError(f"{name} must be a number, not {value!r}")
        if kind == "draw" and fields["count"] < 1:
            raise RefereeError(f"count must be at least 1, not {fields['count']}")
        if kind == "draw" and len(fields.get("cards", [])) > fields["count"]:
            raise RefereeError("a draw shows at most as many cards as it draws")
        return Move(seat, kind, dict(fields))

    def describe(self, move: Move) -> Text:
        return describe(move)

    def _check_code(self, code: Any, what: str) -> None:
        if code not in self._cards:
            raise RefereeError(
                f"{what} must be a playing card's code such as red-7, blue-skip, green-draw2, "
                f"wild or wild-draw4, not {code!r}"
            )

    # -- state ------------------------------------------------------------------

    def setup(self, header: Header) -> UnoState:
        seats = len(header.seats)
        return UnoState(
            options=dict(header.options),
            round=1,
            totals=(0,) * seats,
            **round_start(seats, (header.first - 1) % seats, self.playing_cards),
        )

    def to_play(self, state: UnoState) -> int | None:
        if state.phase == "over":
            return None
        if state.phase in ("deal", "turn-up"):
            return state.dealer
        if state.challenge is not None:
            return state.challenge.accused
        if state.debts:
            return state.debts[0].seat
        if state.phase == "reveal":
            return next((s for s in seats_from(state, state.turn.current) if unshown(state, s)),
                        None)
        return state.turn.current

    def is_over(self, state: UnoState) -> bool:
        return state.phase == "over"

    def scores(self, state: UnoState) -> dict[int, int]:
        return dict(enumerate(state.totals))

    def winners(self, state: UnoState) -> list[int]:
        """House: the lowest total wins (UNO-GAME-END); official: the highest."""
        if not self.is_over(state):
            return []
        pick = max if state.options["scoring"] == "official" else min
        best = pick(state.totals)
        return [seat for seat, total in enumerate(state.totals) if total == best]

    def deferred(self, before: UnoState, move: Move, after: UnoState) -> list[Verdict]:
        return list(after.proven)

    def public_view(self, state: UnoState) -> dict[str, Any]:
        return {
            "round": state.round,
            "phase": state.phase,
            "dealer": state.dealer,
            "top": state.top,
            "colour": state.colour,
            "direction": "clockwise" if state.turn.direction > 0 else "counterclockwise",
            "penalty": state.stack,
            "hands": list(state.hands),
            "pile": state.pile,
            "discard": len(state.discard),
            "totals": list(state.totals),
            "zones": [{"zone": "discard", "top": state.top, "cards": list(state.discard[-5:])}],
        }

    def page_moves(self, state: UnoState) -> list[PageMove]:
        return page_moves(state)

    def interpreter(self, header: Header, card_mm: tuple[float, float] | None = None
                    ) -> UnoTable:
        """(The discard pile and the hands are read by nearness to the mat's centre and
        the seats: no place follows the cards' size.)"""
        return UnoTable(self)

    # -- judging ------------------------------------------------------------------

    def judge(self, state: UnoState, move: Move) -> Verdict:
        breaches, message = breaches_of(self, state, move)
        if breaches:
            return Verdict.illegal(breaches)
        after = self.apply(state, move)
        if move.kind == "play" and unseen_colour_matters(state, self._cards[move.get("cards")[0]]):
            return Verdict.unchecked(round_news(state, after, Text.joined("; ", [message, t(
                "the colour named for the {wild} was not seen, so not checked", wild=state.top,
            )]), checked=False))
        if move.kind == "reveal" and len(move.get("cards")) != state.hands[move.seat]:
            return Verdict.unchecked(round_news(state, after, tn(
                "the referee counts {count} cards in this hand: confirm it; it proves nothing",
                "the referee counts 1 card in this hand: confirm it; it proves nothing",
                count=state.hands[move.seat],
            ), checked=False))
        return Verdict.legal(round_news(state, after, message))


    def match_breaches(self, state: UnoState, card: UnoCard, move: Move) -> list[Breach]:
        """UNO-MATCH, UNO-SKIP, UNO-STACK and the wild restrictions, as far as known."""
        options = state.options
        if unseen_colour_matters(state, card):
            # Named but not seen: the colour is not checked, nor what it would forbid.
            return []
        if state.stack:
            return defence_breaches(state, card)
        if card.code == "wild" and options["wild"] == "house":
            return self.known_breaches(state, move.seat, "UNO-WILD-RESTRICT")
        if card.code == "wild-draw4":
            return self.known_breaches(state, move.seat, "UNO-WD4-RESTRICT")
        if card.wild or self._matches(state, card):
            return []
        top = self._cards[str(state.top)]
        if card.action == "skip":
            return [("UNO-SKIP", t("a skip goes on {colour} or on a skip", colour=state.colour))]
        if card.action == "reverse":
            return [("UNO-REVERSE",
                     t("a reverse goes on {colour} or on a reverse", colour=state.colour))]
        if card.action == "draw2" and top.action == "draw2":
            return [("UNO-MATCH", t("a +2 goes on its colour, or on a +2 only as a defence"))]
        return [("UNO-MATCH", t("{card} matches neither {colour} nor {top}",
                                card=card.code, colour=state.colour, top=top.code))]

    def _matches(self, state: UnoState, card: UnoCard) -> bool:
        """UNO-MATCH for a coloured card: the colour, or the number or symbol of the top
        (a +2 on another colour's +2 only with `draw2_on_draw2`)."""
        top = self._cards[str(state.top)]
        if card.colour == state.colour:
            return True
        if top.wild or card.symbol != top.symbol:
            return False
        return card.action != "draw2" or bool(state.options["draw2_on_draw2"])

    def forbidding(self, state: UnoState, rule: str) -> frozenset[str]:
        """The cards whose presence in the hand makes a wild illegal now."""
        if rule == "UNO-WD4-RESTRICT" and state.options["wild_draw4"] == "official":
            return frozenset(c.code for c in self._cards.values() if c.colour == state.colour)
        playable = {c.code for c in self._cards.values() if not c.wild and self._matches(state, c)}
        if rule == "UNO-WD4-RESTRICT":
            playable.add("wild")
        return frozenset(playable)

    def known_breaches(self, state: UnoState, seat: int, rule: str) -> list[Breach]:
        """A wild while the referee knows the seat holds a card that forbids it."""
        held = sorted(set(state.known[state.hand_of[seat]]) & self.forbidding(state, rule))
        if not held:
            return []
        what = t("a wild") if rule == "UNO-WILD-RESTRICT" else t("a wild draw 4")
        return [(rule, t("seat {seat} holds {card}, so {wild} may not be played",
                         seat=seat, card=held[0], wild=what))]


    # -- applying ------------------------------------------------------------------

    def apply(self, state: UnoState, move: Move) -> UnoState:
        appliers = {
            "deal": self._apply_deal,
            "turn-up": self._apply_turn_up,
            "play": self._apply_play,
            "colour": _apply_colour,
            "draw": self._apply_draw,
            "uno": _apply_uno,
            "catch": _apply_catch,
            "challenge": _apply_challenge,
            "reveal": self._apply_reveal,
        }
        cleared = replace(state, proven=())
        after = appliers[move.kind](cleared, move)
        if move.kind in ASIDES:
            after = replace(after, asides=(*state.asides, move))
        elif move.kind == "play" and state.phase == "play":
            flagged = bool(breaches_of(self, state, move)[0])
            after = replace(after, played=Played(move, flagged), asides=())
        else:
            after = replace(after, played=None, asides=())
        return replace(after, index=state.index + 1)

    def _apply_deal(self, state: UnoState, move: Move) -> UnoState:
        if state.phase == "reveal":
            state = self._score_round(state)
        if state.phase != "deal":
            return state
        seats = state.seats
        return replace(
            state,
            phase="turn-up",
            hands=(HAND_SIZE,) * seats,
            hand_of=tuple(range(seats)),
            known=((),) * seats,
            discard=(),
            pile=self.playing_cards - HAND_SIZE * seats,
            turn=TurnOrder(seats, (state.dealer + 1) % seats),
        )

    def _apply_turn_up(self, state: UnoState, move: Move) -> UnoState:
        if state.phase != "turn-up":
            return state
        code = move.get("card")
        if returned(state, code):
            return state
        card = self._cards[code]
        dealer = state.turn.at(state.dealer)
        unseen = card.wild and move.get("colour") is None
        state = replace(
            state,
            phase="play",
            discard=(code,),
            pile=state.pile - 1,
            colour=move.get("colour") if card.wild else card.colour,
            top_wild=TopWild(dealer.after(state.dealer), turned_up=True) if unseen else None,
        )
        if card.action == "reverse" and state.options["turned_up_reverse"] == "dealer_first":
            # Mattel's reading (uno.md §4.4.7): the dealer plays first, the other way. The
            # sheet's (the default) is the dealer's own reverse, below: its right plays.
            return replace(state, turn=dealer.reversed())
        if card.value == 0:
            # [INF] the seed lists what a first card does; a 0 is not among them.
            return replace(state, turn=dealer.advance())
        return self._effects(state, dealer, [card])

    def _effects(self, state: UnoState, turn: TurnOrder, cards: list[UnoCard]) -> UnoState:
        """The cards' effects in turn (uno.md §4.4.1), from the seat that played them."""
        skips, stack = 0, state.stack
        for card in cards:
            if card.action == "skip":
                skips += 1
            elif card.action == "reverse":
                if state.seats == 2 and state.options["two_player_reverse"] == "skip":
                    skips += 1
                else:
                    turn = turn.reversed()
            stack += PENALTY.get(str(card.action), 0)
        return replace(state, turn=turn.advance(1 + skips), stack=stack)

    def _apply_play(self, state: UnoState, move: Move) -> UnoState:
        if state.phase != "play":
            return state
        seat, codes = move.seat, list(move.get("cards"))
        cards = [self._cards[code] for code in codes]
        top_wild = None
        if cards[0].wild and move.get("colour") is None:
            top_wild = TopWild(seat, len(codes))
        jump = jumps_in(state, move)
        if not jump and state.drawer is not None and seat != state.drawer:
            state = replace(state, turn=state.turn.advance())
        suspicion = wild_suspicion(self, state, move) if not jump else None
        wd4 = None
        if codes[0] == "wild-draw4" and not state.stack:
            wd4 = Wd4(state.index, seat, len(codes), bool(self.known_breaches(
                state, seat, "UNO-WD4-RESTRICT")))
        hands = list(state.hands)
        hands[seat] = max(0, hands[seat] - len(codes))
        hand = state.hand_of[seat]
        known = list(state.known)
        known[hand] = without(known[hand], codes)
        state = replace(
            state,
            hands=tuple(hands),
            known=tuple(known),
            discard=(*state.discard, *codes),
            colour=move.get("colour") if cards[0].wild else cards[0].colour,
            top_wild=top_wild,
            drawer=None,
            drawn=None,
            wd4=wd4,
            exposed=seat if hands[seat] == 1 and seat not in state.called else None,
        )
        state = show(state, hand, codes)
        if suspicion is not None:
            state = replace(state, suspicions=(*state.suspicions, suspicion))
        state = self._effects(state, state.turn.at(seat), cards)
        if hands[seat] == 0:
            return self._go_out(state, seat)
        if cards[0].value == 0:
            for _ in cards:
                state = pass_hands(state, seat, move.get("swap"))
        return state

    def _go_out(self, state: UnoState, seat: int) -> UnoState:
        """UNO-SCORE: the round ends; a penalty the last card set is drawn first."""
        debts = state.debts
        if state.stack:
            debts = (*debts, Debt(state.turn.current, state.stack, "UNO-SCORE"))
        return replace(
            state, phase="reveal", out=seat, stack=0, debts=debts, exposed=None, wd4=None,
            revealed={},
        )

    def _apply_draw(self, state: UnoState, move: Move) -> UnoState:
        seat, count = move.seat, move.get("count")
        if state.phase not in ("play", "reveal"):
            return state
        debt = debt_of(state, seat)
        seen = tuple(move.get("cards", []))
        if debt is not None:
            debts = list(state.debts)
            debts.remove(debt)
            return take(replace(state, debts=tuple(debts)), seat, count, seen)
        if state.phase != "play":
            return state
        if state.drawer is not None and seat != state.drawer:
            state = replace(state, turn=state.turn.advance(), drawer=None, drawn=None)
        state = replace(state, wd4=None, exposed=state.exposed if state.exposed == seat else None)
        if state.stack and seat == state.turn.current:
            state = replace(state, stack=0, turn=state.turn.advance())
            return take(state, seat, count, seen)
        state = replace(state, turn=state.turn.at(seat), drawer=seat,
                        drawn=seen[0] if seen else None)
        return take(state, seat, count, seen)

    def _apply_reveal(self, state: UnoState, move: Move) -> UnoState:
        seat, cards = move.seat, tuple(move.get("cards"))
        counted = len(cards) == state.hands[seat]
        hand = state.hand_of[seat]
        if counted:
            known = list(state.known)
            known[hand] = tuple(sorted(cards))
            state = replace(state, known=tuple(known))
            state = prove(state, hand, cards)
        waiting = state.challenge
        if waiting is not None and seat == waiting.accused:
            proven = any(v.concerns == waiting.index for v in state.proven)
            state = replace(state, challenge=None, stack=0)
            if waiting.guilty or proven:
                debt = Debt(seat, 4 * waiting.cards, "UNO-CHALLENGE")
                return replace(state, debts=(*state.debts, debt))
            # The challenger draws the penalty and 2 more, and loses the turn.
            debt = Debt(waiting.challenger, 4 * waiting.cards + CHALLENGE_EXTRA, "UNO-CHALLENGE")
            return replace(state, debts=(*state.debts, debt), turn=state.turn.advance())
        if state.phase != "reveal" or seat == state.out or seat in state.revealed:
            return state
        state = replace(state, revealed={**state.revealed, seat: cards})
        if any(unshown(state, s) for s in range(state.seats)):
            return state
        return self._score_round(state)

    def _score_round(self, state: UnoState) -> UnoState:
        """UNO-SCORE, then UNO-GAME-END or the next round's deal."""
        totals = list(state.totals)
        hands = {seat: self.points(state, cards) for seat, cards in state.revealed.items()}
        if state.options["scoring"] == "official" and state.out is not None:
            totals[state.out] += sum(hands.values())
        else:
            for seat, points in hands.items():
                totals[seat] += points
        state = replace(state, totals=tuple(totals))
        if game_ends(state):
            return replace(state, phase="over")
        dealer = (state.dealer + 1) % state.seats
        return fresh_round(state, dealer, self.playing_cards)


def _apply_colour(state: UnoState, move: Move) -> UnoState:
    """The colour named for the wild on top now counts (a correction the table accepts
    too, so any wild on top takes it)."""
    if state.top not in WILDS:
        return state
    return replace(state, colour=move.get("colour"))


def _apply_uno(state: UnoState, move: Move) -> UnoState:
    if state.hands[move.seat] > 2:
        return state
    return replace(
        state,
        called=state.called | {move.seat},
        exposed=None if state.exposed == move.seat else state.exposed,
    )


def _apply_catch(state: UnoState, move: Move) -> UnoState:
    target = move.get("target")
    if state.exposed != target:
        return state
    return replace(state, exposed=None, debts=(*state.debts, Debt(target, UNO_PENALTY, "UNO-CALL")))


def _apply_challenge(state: UnoState, move: Move) -> UnoState:
    if state.wd4 is None or not state.options["challenge"]:
        return state
    wd4 = state.wd4
    return replace(
        state,
        wd4=None,
        challenge=Challenge(move.seat, wd4.seat, wd4.index, wd4.cards, wd4.guilty),
    )
