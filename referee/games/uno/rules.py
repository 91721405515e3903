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
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from referee.core import (
    TURN_RULE,
    Game,
    Header,
    Move,
    Option,
    PageField,
    PageMove,
    RefereeError,
    Ruling,
    Verdict,
)
from referee.decks import Deck, load_deck
from referee.seats import TurnOrder
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
from referee.text import Text, t

COLOURS = ("red", "green", "blue", "yellow")
WILDS = ("wild", "wild-draw4")
HAND_SIZE = 7
#: What a card adds to the pending draw penalty.
PENALTY = {"draw2": 2, "wild-draw4": 4}
#: Cards a seat draws when caught not calling UNO, and extra for a failed challenge.
UNO_PENALTY = 2
CHALLENGE_EXTRA = 2
#: Moves that put no card down and take none: the camera cannot see them (the page
#: enters them), so it reads the discard pile against the last play before them.
ASIDES = ("colour", "uno", "catch", "challenge")

#: A rule broken: its id and the sentence that says how (a `Text`).
Breach = tuple[str, str]


@dataclass(frozen=True)
class UnoCard:
    """What the rules read off a face: colour (None for wilds), number or action."""

    code: str
    colour: str | None
    value: int | None
    action: str | None
    points: int
    points_official: int

    @property
    def wild(self) -> bool:
        return self.colour is None

    @property
    def symbol(self) -> str:
        """The number or action: what 'same number or symbol' compares."""
        return str(self.value) if self.value is not None else str(self.action)


@dataclass(frozen=True)
class Suspicion:
    """A wild played with hidden cards that may have forbidden it (UNO-WILD-RESTRICT,
    UNO-WD4-RESTRICT). It is proven when the hand it was played from shows more of the
    `forbidding` cards (played since, or revealed) than can have entered it since."""

    index: int
    offender: int
    #: The physical hand it was played from: hands move on a 0, the proof follows them.
    hand: int
    rule: str
    forbidding: frozenset[str]
    why: str
    shown: tuple[str, ...] = ()
    known_in: tuple[str, ...] = ()
    unknown_in: int = 0

    def proof(self, revealed: Iterable[str] = ()) -> tuple[str, ...]:
        """The forbidding cards shown, when they prove the breach; empty otherwise."""
        shown = [*self.shown, *(code for code in revealed if code in self.forbidding)]
        entered = self.unknown_in + sum(code in self.forbidding for code in self.known_in)
        return tuple(shown) if len(shown) > entered else ()


@dataclass(frozen=True)
class Debt:
    """Cards a seat must draw now, out of turn: a missed UNO, a lost challenge, or the
    penalty of a last card."""

    seat: int
    count: int
    rule: str


@dataclass(frozen=True)
class Challenge:
    """A wild draw 4 challenged: the accused shows its hand to settle it."""

    challenger: int
    accused: int
    index: int
    cards: int
    #: Already proven illegal when it was played (the referee knew a forbidding card).
    guilty: bool


@dataclass(frozen=True)
class Wd4:
    """The last play, a wild draw 4 that its target may still challenge."""

    index: int
    seat: int
    cards: int
    guilty: bool


@dataclass(frozen=True)
class TopWild:
    """The wild on top of the discard pile when it went down with its colour unseen
    (`"colour": null`): who names the colour on the page, and how it went down."""

    #: The seat that names the colour: the one that played the wild, or for a wild
    #: turned up under `first_card: "official"` the first player (UNO-FIRST-CARD).
    seat: int
    #: How many wilds went down together (two in a double).
    cards: int = 1
    turned_up: bool = False


@dataclass(frozen=True)
class Played:
    """The last play, kept while only moves of `ASIDES` follow it: the camera reads its
    cards picked up again, or a second identical card put down, as changes to this play,
    which those later moves are undone for first."""

    move: Move
    #: Its verdict was not ok: picked up again, it is taken back.
    flagged: bool


@dataclass(frozen=True)
class UnoState:
    """A round in progress and the running totals.

    `phase`: "deal" (the dealer deals next), "turn-up" (the first card), "play",
    "reveal" (someone went out: the others show their hands), "over".
    """

    options: Mapping[str, Any]
    phase: str
    round: int
    dealer: int
    turn: TurnOrder
    hands: tuple[int, ...]
    #: Which physical hand each seat holds (hands move on a 0), and what the referee
    #: knows of each physical hand: cards drawn face up, passed known, or revealed.
    hand_of: tuple[int, ...]
    known: tuple[tuple[str, ...], ...]
    discard: tuple[str, ...]
    pile: int
    colour: str | None
    #: The wild on top if its colour went down unseen; kept once named, until a card
    #: goes on it.
    top_wild: TopWild | None
    #: The draw penalty pending on the seat to play (stacked +2 and +4).
    stack: int
    #: The seat that drew a card on its turn and may still play it; the card if seen.
    drawer: int | None
    drawn: str | None
    debts: tuple[Debt, ...]
    wd4: Wd4 | None
    challenge: Challenge | None
    #: A seat down to one card without calling UNO, until the next seat starts a turn.
    exposed: int | None
    called: frozenset[int]
    suspicions: tuple[Suspicion, ...]
    #: Round end: the seat that went out and the hands shown since.
    out: int | None
    revealed: Mapping[int, tuple[str, ...]]
    totals: tuple[int, ...]
    #: Moves applied so far: the index of the next move, for deferred verdicts.
    index: int = 0
    #: Deferred verdicts proven by the last move.
    proven: tuple[Verdict, ...] = ()
    #: The last play while only moves of `ASIDES` followed it, and those moves.
    played: Played | None = None
    asides: tuple[Move, ...] = ()

    @property
    def top(self) -> str | None:
        return self.discard[-1] if self.discard else None

    @property
    def seats(self) -> int:
        return len(self.hands)


class Uno(Game[UnoState]):
    """UNO for 2 to 10 players: the seed's house rules by default, Mattel's as options."""

    name = "uno"
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
        self._deck = load_deck("uno")
        self._cards = {
            face.code: UnoCard(
                face.code,
                face.attrs["colour"],
                face.attrs.get("value"),
                face.attrs.get("action"),
                int(face.attrs["points"]),
                int(face.attrs["points_official"]),
            )
            for face in self._deck.faces
            if face.attrs.get("in_play", True)
        }
        self.playing_cards = sum(
            face.copies for face in self._deck.faces if face.code in self._cards
        )

    @property
    def deck(self) -> Deck:
        return self._deck

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
        kind = move.kind
        if kind == "deal":
            return t("deals {count} cards each", count=HAND_SIZE)
        if kind == "colour":
            return t("names {colour} for the wild", colour=move.get("colour"))
        if kind == "draw":
            seen = move.get("cards") or []
            if seen:
                return t("draws {count}, seen: {cards}",
                         count=move.get("count"), cards=Text.joined(", ", seen))
            return t("draws {count}", count=move.get("count"))
        if kind == "uno":
            return t("calls UNO")
        if kind == "catch":
            return t("catches seat {target} without UNO", target=move.get("target"))
        if kind == "challenge":
            return t("challenges the wild draw 4")
        if kind == "reveal":
            shown = move.get("cards")
            return t("shows {cards}", cards=Text.joined(", ", shown)) if shown else t(
                "shows no card")
        if kind == "turn-up":
            said = t("turns up {card}", card=move.get("card"))
        else:
            said = t("plays {cards}", cards=_listed(move.get("cards")))
        if "colour" in move.fields:
            colour = move.get("colour")
            said = (t("{play}, a colour named (not seen)", play=said) if colour is None
                    else t("{play}, {colour} named", play=said, colour=colour))
        if "swap" in move.fields:
            said = t("{play}, swaps hands with seat {seat}", play=said, seat=move.get("swap"))
        return said

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
            **_round_start(seats, (header.first - 1) % seats, self.playing_cards),
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
            return next((s for s in _seats_from(state, state.turn.current) if _unshown(state, s)),
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
        """What the camera cannot see or hear, offered only while the referee would
        judge it legal: a wild's colour, a challenge, a catch, the UNO call."""
        return [
            *_colour_offer(state),
            *_challenge_offer(state),
            *_catch_offer(state),
            *_uno_offer(state),
        ]

    def interpreter(self, header: Header) -> UnoTable:
        return UnoTable(self)

    # -- judging ------------------------------------------------------------------

    def judge(self, state: UnoState, move: Move) -> Verdict:
        breaches, message = self._breaches(state, move)
        if breaches:
            return Verdict.illegal(breaches)
        after = self.apply(state, move)
        if move.kind == "play" and _unseen_colour_matters(state, self._cards[move.get("cards")[0]]):
            return Verdict.unchecked(_round_news(state, after, t(
                "{play}: the colour named for the {wild} was not seen, so not checked",
                play=message, wild=state.top,
            )))
        if move.kind == "reveal" and len(move.get("cards")) != state.hands[move.seat]:
            return Verdict.unchecked(_round_news(state, after, t(
                "seat {seat} holds {held} cards by the referee's count, {shown} shown: "
                "confirm the hand; it proves nothing",
                seat=move.seat, held=state.hands[move.seat], shown=len(move.get("cards")),
            )))
        return Verdict.legal(_round_news(state, after, message))

    def _breaches(self, state: UnoState, move: Move) -> tuple[list[Breach], str]:
        """The rules `move` breaks in `state`, and what it does if it breaks none."""
        if state.phase == "over":
            return [("UNO-GAME-END", t("the game is over: no more moves"))], ""
        judges = {
            "deal": self._judge_deal,
            "turn-up": self._judge_turn_up,
            "play": self._judge_play,
            "colour": self._judge_colour,
            "draw": self._judge_draw,
            "uno": self._judge_uno,
            "catch": self._judge_catch,
            "challenge": self._judge_challenge,
            "reveal": self._judge_reveal,
        }
        breaches, message = judges[move.kind](state, move)
        waiting = state.challenge
        # Naming a wild's colour, calling and catching are no turn: they wait for nothing.
        if waiting is not None and move.kind not in ("reveal", "uno", "catch", "colour"):
            breaches.insert(0, ("UNO-CHALLENGE", t(
                "seat {accused} first shows its hand to seat {challenger}",
                accused=waiting.accused, challenger=waiting.challenger,
            )))
        return breaches, message

    def _judge_deal(self, state: UnoState, move: Move) -> tuple[list[Breach], str]:
        if state.phase == "reveal":
            missing = ", ".join(str(s) for s in range(state.seats) if _unshown(state, s))
            return [("UNO-SCORE", t("the round is not scored: seat(s) {seats} show first",
                                    seats=missing))], ""
        if state.phase != "deal":
            return [(TURN_RULE, t("the round is under way: no deal now"))], ""
        if move.seat != state.dealer:
            return [(TURN_RULE, t("seat {dealer} deals round {round}",
                                  dealer=state.dealer, round=state.round))], ""
        return [], t("seat {seat} deals {count} cards each for round {round}",
                     seat=move.seat, count=HAND_SIZE, round=state.round)

    def _judge_turn_up(self, state: UnoState, move: Move) -> tuple[list[Breach], str]:
        code = move.get("card")
        if state.phase != "turn-up":
            return [("UNO-FIRST-CARD", t("the first card is turned up once, after the deal"))], ""
        breaches: list[Breach] = []
        if move.seat != state.dealer:
            breaches.append((TURN_RULE, t("seat {dealer}, the dealer, turns up the card",
                                          dealer=state.dealer)))
        if _returned(state, code):
            return breaches, t("{card} turned up: it goes back into the pile, turn up another",
                               card=code)
        if code == "wild" and "colour" not in move.fields:
            breaches.append(_first_names(state.turn.after(state.dealer)))
        return breaches, t("{card} turned up by the dealer", card=code)

    def _judge_play(self, state: UnoState, move: Move) -> tuple[list[Breach], str]:
        seat, codes = move.seat, move.get("cards")
        if state.phase == "deal":
            return [(TURN_RULE, t("seat {dealer} deals first", dealer=state.dealer))], ""
        if state.phase == "turn-up":
            return [("UNO-FIRST-CARD",
                     t("the dealer turns up the first card before any play"))], ""
        if state.phase == "reveal":
            return [("UNO-SCORE",
                     t("the round is over: the other hands are shown and scored"))], ""
        cards = [self._cards[code] for code in codes]
        breaches: list[Breach] = []
        breaches += self._debt_breaches(state, seat)
        jump = _jumps_in(state, move)
        if not jump and not _in_turn(state, seat):
            breaches.append(_not_your_turn(state, seat))
            if state.options["jump_in"]:
                breaches.append(
                    ("UNO-JUMP-IN", t("out of turn only a card identical to {top}", top=state.top))
                )
        if len(cards) > 1:
            breaches += self._double_breaches(state, codes)
        if state.drawer == seat and not jump:
            breaches += _play_drawn_breaches(state, codes)
        if not jump:
            breaches += self._match_breaches(state, cards[0], move)
        breaches += self._zero_breaches(state, move, cards)
        message = t("{cards} on {top}", cards=_listed(codes), top=state.top)
        if jump:
            message = t("seat {seat} jumps in with {play}", seat=seat, play=message)
        if move.get("colour") is not None:
            message = t("{play}, {colour} named", play=message, colour=move.get("colour"))
        elif "colour" in move.fields:
            message = t("{play}, a colour named (not seen)", play=message)
        return breaches, message

    def _debt_breaches(self, state: UnoState, seat: int) -> list[Breach]:
        debt = _debt_of(state, seat)
        if debt is None:
            return []
        return [(debt.rule, _owes(seat, debt))]

    def _double_breaches(self, state: UnoState, codes: list[str]) -> list[Breach]:
        if not state.options["doubles"]:
            return [("UNO-DOUBLE", t("one card at a time: this table plays without doubles"))]
        if len(codes) > 2 or codes[0] != codes[1]:
            return [("UNO-DOUBLE", t("only two identical cards go down together"))]
        return []

    def _match_breaches(self, state: UnoState, card: UnoCard, move: Move) -> list[Breach]:
        """UNO-MATCH, UNO-SKIP, UNO-STACK and the wild restrictions, as far as known."""
        options = state.options
        if _unseen_colour_matters(state, card):
            # Named but not seen: the colour is not checked, nor what it would forbid.
            return []
        if state.stack:
            return _defence_breaches(state, card)
        if card.code == "wild" and options["wild"] == "house":
            return self._known_breaches(state, move.seat, "UNO-WILD-RESTRICT")
        if card.code == "wild-draw4":
            return self._known_breaches(state, move.seat, "UNO-WD4-RESTRICT")
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

    def _known_breaches(self, state: UnoState, seat: int, rule: str) -> list[Breach]:
        """A wild while the referee knows the seat holds a card that forbids it."""
        held = sorted(set(state.known[state.hand_of[seat]]) & self.forbidding(state, rule))
        if not held:
            return []
        what = t("a wild") if rule == "UNO-WILD-RESTRICT" else t("a wild draw 4")
        return [(rule, t("seat {seat} holds {card}, so {wild} may not be played",
                         seat=seat, card=held[0], wild=what))]

    def _zero_breaches(self, state: UnoState, move: Move, cards: list[UnoCard]) -> list[Breach]:
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

    def _judge_colour(self, state: UnoState, move: Move) -> tuple[list[Breach], str]:
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
                return [_first_names(wild.seat)], ""
            return [(TURN_RULE, t("seat {seat} played the {card}: it names the colour",
                                  seat=wild.seat, card=top))], ""
        return [], t("seat {seat} names {colour} for the {card}",
                     seat=move.seat, colour=move.get("colour"), card=top)

    def _judge_draw(self, state: UnoState, move: Move) -> tuple[list[Breach], str]:
        seat, count = move.seat, move.get("count")
        if state.phase in ("deal", "turn-up"):
            return [(TURN_RULE, t("the round starts with the deal and the first card"))], ""
        debt = _debt_of(state, seat)
        if debt is not None:
            if count != debt.count:
                return [(debt.rule, t("seat {seat} owes {owed} cards, not {count}",
                                      seat=seat, owed=debt.count, count=count))], ""
            return [], t("seat {seat} draws {count} ({rule})", seat=seat, count=count,
                         rule=debt.rule)
        if state.phase == "reveal":
            return [("UNO-SCORE", t("the round is over: no more draws"))], ""
        if not _in_turn(state, seat):
            return [_not_your_turn(state, seat)], ""
        left = state.pile + max(0, len(state.discard) - 1)
        if count > left:
            return [("UNO-RESHUFFLE", t("only {left} cards are left to draw, with the discards",
                                        left=left))], ""
        if state.stack and seat == state.turn.current:
            if count != state.stack:
                return [("UNO-STACK", t("the penalty is {penalty} cards, not {count}",
                                        penalty=state.stack, count=count))], ""
            return [], t("seat {seat} draws {count}: the penalty, and loses the turn",
                         seat=seat, count=count)
        if state.drawer == seat:
            return [("UNO-DRAW", t("one card drawn a turn: play it or keep it"))], ""
        if count != 1:
            return [("UNO-DRAW", t("a player who does not play draws 1 card, not {count}",
                                   count=count))], ""
        return [], t("seat {seat} draws {count}", seat=seat, count=count)

    def _judge_uno(self, state: UnoState, move: Move) -> tuple[list[Breach], str]:
        if not state.options["uno_call"]:
            return [("UNO-CALL", t("this table plays without the UNO call"))], ""
        held = state.hands[move.seat]
        if held > 2:
            return [], t("seat {seat} calls UNO with {held} cards: nothing to call yet",
                         seat=move.seat, held=held)
        return [], t("seat {seat} calls UNO", seat=move.seat)

    def _judge_catch(self, state: UnoState, move: Move) -> tuple[list[Breach], str]:
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
        return [], t("seat {seat} catches seat {target} without UNO: seat {target} draws {count}",
                     seat=move.seat, target=target, count=UNO_PENALTY)

    def _judge_challenge(self, state: UnoState, move: Move) -> tuple[list[Breach], str]:
        if not state.options["challenge"]:
            return [("UNO-CHALLENGE", t("this table plays without challenges"))], ""
        if state.wd4 is None or state.phase != "play":
            return [("UNO-CHALLENGE", t("only a wild draw 4 just played may be challenged"))], ""
        if move.seat != state.turn.current:
            return [("UNO-CHALLENGE", t("only seat {seat}, its target, may challenge",
                                        seat=state.turn.current))], ""
        return [], t("seat {seat} challenges the wild draw 4: seat {accused} shows",
                     seat=move.seat, accused=state.wd4.seat)

    def _judge_reveal(self, state: UnoState, move: Move) -> tuple[list[Breach], str]:
        seat = move.seat
        waiting = state.challenge
        if waiting is not None and seat == waiting.accused:
            [owed] = self.apply(state, move).debts[len(state.debts) :]
            if owed.seat == seat:
                return [], t("seat {seat} shows its hand: the wild draw 4 was illegal; "
                             "seat {drawer} draws {count}",
                             seat=seat, drawer=owed.seat, count=owed.count)
            return [], t("seat {seat} shows its hand: the wild draw 4 was legal; "
                         "seat {drawer} draws {count}",
                         seat=seat, drawer=owed.seat, count=owed.count)
        if state.phase == "reveal" and seat in state.revealed:
            return [("UNO-SCORE", t("seat {seat} has already shown its hand", seat=seat))], ""
        if state.phase == "reveal" and seat == state.out:
            return [("UNO-SCORE", t("seat {seat} went out: no hand to show", seat=seat))], ""
        debt = _debt_of(state, seat)
        if debt is not None:
            return [(debt.rule, _owes(seat, debt))], ""
        points = self.points(state, move.get("cards"))
        return [], t("seat {seat} shows {count} cards ({points} points)",
                     seat=seat, count=len(move.get("cards")), points=points)

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
            flagged = bool(self._breaches(state, move)[0])
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
        if _returned(state, code):
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
        if card.action == "reverse":
            # [INF] uno.md §4.4.7: the dealer plays first and play goes the other way.
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
        jump = _jumps_in(state, move)
        if not jump and state.drawer is not None and seat != state.drawer:
            state = replace(state, turn=state.turn.advance())
        suspicion = self._suspicion(state, move) if not jump else None
        wd4 = None
        if codes[0] == "wild-draw4" and not state.stack:
            wd4 = Wd4(state.index, seat, len(codes), bool(self._known_breaches(
                state, seat, "UNO-WD4-RESTRICT")))
        hands = list(state.hands)
        hands[seat] = max(0, hands[seat] - len(codes))
        hand = state.hand_of[seat]
        known = list(state.known)
        known[hand] = _without(known[hand], codes)
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
        state = _show(state, hand, codes)
        if suspicion is not None:
            state = replace(state, suspicions=(*state.suspicions, suspicion))
        state = self._effects(state, state.turn.at(seat), cards)
        if hands[seat] == 0:
            return self._go_out(state, seat)
        if cards[0].value == 0:
            for _ in cards:
                state = _pass_hands(state, seat, move.get("swap"))
        return state

    def _suspicion(self, state: UnoState, move: Move) -> Suspicion | None:
        """A wild whose legality hangs on hidden cards: remember what would prove it."""
        code = move.get("cards")[0]
        if state.stack or code not in WILDS:
            return None
        rule = "UNO-WILD-RESTRICT" if code == "wild" else "UNO-WD4-RESTRICT"
        if _colour_unknown(state):
            return None
        if rule == "UNO-WILD-RESTRICT" and state.options["wild"] == "official":
            return None
        if self._known_breaches(state, move.seat, rule):
            return None
        what = t("a wild") if code == "wild" else t("a wild draw 4")
        why = t("{wild} on {top} ({colour})", wild=what, top=state.top, colour=state.colour)
        return Suspicion(
            state.index, move.seat, state.hand_of[move.seat], rule, self.forbidding(state, rule),
            why,
        )

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
        debt = _debt_of(state, seat)
        seen = tuple(move.get("cards", []))
        if debt is not None:
            debts = list(state.debts)
            debts.remove(debt)
            return _take(replace(state, debts=tuple(debts)), seat, count, seen)
        if state.phase != "play":
            return state
        if state.drawer is not None and seat != state.drawer:
            state = replace(state, turn=state.turn.advance(), drawer=None, drawn=None)
        state = replace(state, wd4=None, exposed=state.exposed if state.exposed == seat else None)
        if state.stack and seat == state.turn.current:
            state = replace(state, stack=0, turn=state.turn.advance())
            return _take(state, seat, count, seen)
        state = replace(state, turn=state.turn.at(seat), drawer=seat,
                        drawn=seen[0] if seen else None)
        return _take(state, seat, count, seen)

    def _apply_reveal(self, state: UnoState, move: Move) -> UnoState:
        seat, cards = move.seat, tuple(move.get("cards"))
        counted = len(cards) == state.hands[seat]
        hand = state.hand_of[seat]
        if counted:
            known = list(state.known)
            known[hand] = tuple(sorted(cards))
            state = replace(state, known=tuple(known))
            state = _prove(state, hand, cards)
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
        if any(_unshown(state, s) for s in range(state.seats)):
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
        if _game_ends(state):
            return replace(state, phase="over")
        dealer = (state.dealer + 1) % state.seats
        return _fresh_round(state, dealer, self.playing_cards)


def _fresh_round(state: UnoState, dealer: int, playing_cards: int) -> UnoState:
    """The next round before its deal: every card back in the pile, the totals kept."""
    return replace(
        state, round=state.round + 1, **_round_start(state.seats, dealer, playing_cards)
    )


def _round_start(seats: int, dealer: int, playing_cards: int) -> dict[str, Any]:
    """The state's fields at a round's start, before the deal: all cards in the pile,
    the seat after the dealer to play first."""
    return {
        "phase": "deal",
        "dealer": dealer,
        "turn": TurnOrder(seats, (dealer + 1) % seats),
        "hands": (0,) * seats,
        "hand_of": tuple(range(seats)),
        "known": ((),) * seats,
        "discard": (),
        "pile": playing_cards,
        "colour": None,
        "top_wild": None,
        "stack": 0,
        "drawer": None,
        "drawn": None,
        "debts": (),
        "wd4": None,
        "challenge": None,
        "exposed": None,
        "called": frozenset(),
        "suspicions": (),
        "out": None,
        "revealed": {},
    }


# -- helpers ---------------------------------------------------------------------------


def _listed(codes: list[str]) -> str:
    """The cards of one play in a sentence: "red-7", "red-7 and red-7"."""
    if len(codes) == 1:
        return codes[0]
    return t("{first} and {second}", first=codes[0], second=_listed(codes[1:]))


def _not_your_turn(state: UnoState, seat: int) -> Breach:
    return (TURN_RULE, t("it is seat {current}'s turn, not {seat}'s",
                         current=state.turn.current, seat=seat))


def _owes(seat: int, debt: Debt) -> Text:
    return t("seat {seat} first draws the {count} cards it owes", seat=seat, count=debt.count)


def _first_names(seat: int) -> Breach:
    """UNO-FIRST-CARD (official): on a wild turned up, the first player names the colour."""
    return ("UNO-FIRST-CARD", t("a wild turned up: seat {first} names the colour", first=seat))


def _turn_up(state: UnoState, code: str) -> Move:
    """The dealer's turn-up the camera saw; a wild that stays (UNO-FIRST-CARD, official)
    has its colour named by the first player, unseen."""
    fields: dict[str, Any] = {"card": code}
    if code in WILDS and not _returned(state, code):
        fields["colour"] = None
    return Move(state.dealer, "turn-up", fields)


def _uncovered(state: UnoState, codes: set[str | None], played: int) -> bool:
    """Does the pile show the card that lay under its last `played` cards, and not its top?"""
    if len(state.discard) <= played:
        return False
    return state.discard[-1 - played] in codes and state.top not in codes


def _debt_of(state: UnoState, seat: int) -> Debt | None:
    """The first debt `seat` still has to draw."""
    return next((debt for debt in state.debts if debt.seat == seat), None)


def _seats_from(state: UnoState, seat: int) -> list[int]:
    return [(seat + step) % state.seats for step in range(state.seats)]


def _unshown(state: UnoState, seat: int) -> bool:
    """A seat that still shows its hand at the round end."""
    return state.phase == "reveal" and seat != state.out and seat not in state.revealed


def _returned(state: UnoState, code: str) -> bool:
    """UNO-FIRST-CARD: a turned-up card that goes back into the pile."""
    if state.options["first_card"] == "house":
        return code in WILDS
    return code == "wild-draw4"


def _colour_unknown(state: UnoState) -> bool:
    """The top is a wild whose named colour was not seen ("colour": null)."""
    return state.top in WILDS and state.colour is None


def _unseen_colour_matters(state: UnoState, card: UnoCard) -> bool:
    """Would judging `card` need the colour named for a wild that was not seen? Any card
    on it, or on a pending +4 a +2 (of the named colour only)."""
    if not _colour_unknown(state):
        return False
    return not state.stack or (state.top == "wild-draw4" and card.action == "draw2")


def _in_turn(state: UnoState, seat: int) -> bool:
    """The seat to play, or the next one once the seat that drew keeps its card."""
    current = state.turn.current
    return seat == current or (state.drawer == current and seat == state.turn.after(current))


def _jumps_in(state: UnoState, move: Move) -> bool:
    """UNO-JUMP-IN: out of turn, cards identical to the top (never a wild)."""
    codes = move.get("cards")
    return (
        bool(state.options["jump_in"])
        and state.phase == "play"
        and not _in_turn(state, move.seat)
        and state.top is not None
        and state.top not in WILDS
        and all(code == state.top for code in codes)
        and (len(codes) == 1 or bool(state.options["doubles"]))
    )


def _defence_breaches(state: UnoState, card: UnoCard) -> list[Breach]:
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


def _play_drawn_breaches(state: UnoState, codes: list[str]) -> list[Breach]:
    """UNO-DRAW: after drawing, only the drawn card may be played."""
    if len(codes) > 1:
        return [("UNO-DRAW", t("after drawing, only the drawn card may be played"))]
    if state.drawn is not None and codes[0] != state.drawn:
        return [("UNO-DRAW", t("after drawing, only the drawn card ({card}) may be played",
                               card=state.drawn))]
    return []


def _without(cards: tuple[str, ...], gone: Iterable[str]) -> tuple[str, ...]:
    """`cards` less one copy of each of `gone` that is there."""
    left = Counter(cards)
    left.subtract(gone)
    return tuple(sorted(left.elements()))


def _take(state: UnoState, seat: int, count: int, seen: tuple[str, ...]) -> UnoState:
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


def _show(state: UnoState, hand: int, codes: list[str]) -> UnoState:
    """Cards played from `hand` count as shown for the suspicions on it."""
    suspicions = tuple(
        replace(s, shown=(*s.shown, *(c for c in codes if c in s.forbidding)))
        if s.hand == hand
        else s
        for s in state.suspicions
    )
    return _prove(replace(state, suspicions=suspicions), hand, ())


def _prove(state: UnoState, hand: int, revealed: tuple[str, ...]) -> UnoState:
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
                    wild=suspicion.why, index=suspicion.index,
                ),
                severity="illegal",
                concerns=suspicion.index,
            )
        )
    return replace(state, suspicions=tuple(kept), proven=(*state.proven, *proven))


def _pass_hands(state: UnoState, seat: int, swap: int | None) -> UnoState:
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


def _colour_offer(state: UnoState) -> list[PageMove]:
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


def _challenge_offer(state: UnoState) -> list[PageMove]:
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


def _catch_offer(state: UnoState) -> list[PageMove]:
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


def _uno_offer(state: UnoState) -> list[PageMove]:
    """UNO-CALL: a seat with one card, or two (about to play its next-to-last), that has
    not called yet, unless it owes cards (caught, it draws them first)."""
    if state.phase != "play" or not state.options["uno_call"]:
        return []
    callers = tuple(
        seat for seat in range(state.seats)
        if 0 < state.hands[seat] <= 2
        and seat not in state.called
        and _debt_of(state, seat) is None
    )
    if not callers:
        return []
    return [PageMove("uno", t("Who called UNO?"), callers)]


def _game_ends(state: UnoState) -> bool:
    """UNO-GAME-END: someone reached the target; with `play_on`, a tie for the lead
    (lowest under house scoring) plays another round."""
    if max(state.totals) < state.options["target"]:
        return False
    if state.options["ties"] == "shared" or state.options["scoring"] == "official":
        return True
    return state.totals.count(min(state.totals)) == 1


def _round_news(before: UnoState, after: UnoState, message: str) -> str:
    """`message`, followed by '; round 1 ends ...' when the move scores a round or ends
    the game."""
    if after.phase == "over" and before.phase != "over":
        return t("{move}; round {round} scored: the game is over",
                 move=message, round=before.round)
    if after.round > before.round:
        totals = ", ".join(str(total) for total in after.totals)
        return t("{move}; round {round} scored (totals {totals}): seat {dealer} deals",
                 move=message, round=before.round, totals=totals, dealer=after.dealer)
    if after.phase == "reveal" and before.phase == "play":
        return t("{move}; seat {seat} goes out: round {round} ends, the others show",
                 move=message, seat=after.out, round=before.round)
    return message


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
            return [AskTable(
                t("the camera cannot read the top of the discard pile: which is it?")
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
            return [Play(Move(dealer, "deal")), Play(_turn_up(state, code))]
        if state.phase == "turn-up":
            if last is not None and last.move.kind == "turn-up" and last.move.get("card") == code:
                return []  # the card that goes back is still there
            return [Play(_turn_up(state, code))]
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
        """Does the pile show its top from before the flagged play again?"""
        if last.verdict.ok or last.move.kind != "play":
            return False
        return _uncovered(state, codes, len(last.move.get("cards")))

    def _play_gone(self, state: UnoState, codes: set[str | None]) -> list[Action]:
        """Moves entered on the page since the last play (`ASIDES`), and the pile shows
        the card under that play again: the play left the pile. A flagged play is taken
        back, after those moves (the calls are made again: a call stands); a legal wild
        whose colour was named is asked about rather than taken for a new play."""
        played = state.played
        if played is None or not _uncovered(state, codes, len(played.move.get("cards"))):
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
        for seat in _seats_from(state, state.turn.current):
            shown = near.get(seat)
            if not shown or not _unshown(state, seat):
                continue
            debt = _debt_of(state, seat)
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
        debt = _debt_of(state, seat)
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
    return AskTable(t("the camera sees {seen} of seat {seat}'s {count} cards: lay them apart",
                      seen=seen, seat=seat, count=held))
