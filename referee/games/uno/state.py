"""UNO's cards and the state of a round, and what the rules, the table and the page
all ask of it (whose turn, who owes what, whether a card may jump in)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from referee.core import Move, Verdict
from referee.seats import TurnOrder

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


def round_start(seats: int, dealer: int, playing_cards: int) -> dict[str, Any]:
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


def debt_of(state: UnoState, seat: int) -> Debt | None:
    """The first debt `seat` still has to draw."""
    return next((debt for debt in state.debts if debt.seat == seat), None)


def seats_from(state: UnoState, seat: int) -> list[int]:
    return [(seat + step) % state.seats for step in range(state.seats)]


def unshown(state: UnoState, seat: int) -> bool:
    """A seat that still shows its hand at the round end."""
    return state.phase == "reveal" and seat != state.out and seat not in state.revealed


def returned(state: UnoState, code: str) -> bool:
    """UNO-FIRST-CARD: a turned-up card that goes back into the pile."""
    if state.options["first_card"] == "house":
        return code in WILDS
    return code == "wild-draw4"


def colour_unknown(state: UnoState) -> bool:
    """The top is a wild whose named colour was not seen ("colour": null)."""
    return state.top in WILDS and state.colour is None


def unseen_colour_matters(state: UnoState, card: UnoCard) -> bool:
    """Would judging `card` need the colour named for a wild that was not seen? Any card
    on it, or on a pending +4 a +2 (of the named colour only)."""
    if not colour_unknown(state):
        return False
    return not state.stack or (state.top == "wild-draw4" and card.action == "draw2")


def in_turn(state: UnoState, seat: int) -> bool:
    """The seat to play, or the next one once the seat that drew keeps its card."""
    current = state.turn.current
    return seat == current or (state.drawer == current and seat == state.turn.after(current))


def jumps_in(state: UnoState, move: Move) -> bool:
    """UNO-JUMP-IN: out of turn, cards identical to the top (never a wild)."""
    codes = move.get("cards")
    return (
        bool(state.options["jump_in"])
        and state.phase == "play"
        and not in_turn(state, move.seat)
        and state.top is not None
        and state.top not in WILDS
        and all(code == state.top for code in codes)
        and (len(codes) == 1 or bool(state.options["doubles"]))
    )


def fresh_round(state: UnoState, dealer: int, playing_cards: int) -> UnoState:
    """The next round before its deal: every card back in the pile, the totals kept."""
    return replace(
        state, round=state.round + 1, **round_start(state.seats, dealer, playing_cards)
    )


def game_ends(state: UnoState) -> bool:
    """UNO-GAME-END: someone reached the target; with `play_on`, a tie for the lead
    (lowest under house scoring) plays another round."""
    if max(state.totals) < state.options["target"]:
        return False
    if state.options["ties"] == "shared" or state.options["scoring"] == "official":
        return True
    return state.totals.count(min(state.totals)) == 1
