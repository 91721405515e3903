"""The referee's core: moves, verdicts, the game interface and the match log.

A match is an append-only list of moves after a header. The state is a fold of the
game's `apply` over that list; `judge` gives each move its verdict against the state
it was played in. An illegal move that the table accepts stays in the log and play
goes on from the state it leaves. Undo drops the last move.

Nothing here does I/O: the notation (`referee.notation`) turns JSON into these objects.
"""

from __future__ import annotations

import abc
import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar

from referee.board import Board
from referee.decks import Deck, load_deck
from referee.text import Text, t

if TYPE_CHECKING:
    from referee.table import TableInterpreter

Severity = Literal["ok", "warning", "illegal"]

#: The rule id of the one rule every game shares: play in turn.
TURN_RULE = "TURN-ORDER"
TURN_RULE_NAME = t("Play in turn")


class RefereeError(Exception):
    """A user-facing problem with a match: bad header, bad move, unknown game."""


@dataclass(frozen=True)
class Move:
    """One move at the table: who made it, what kind, and the game's own fields.

    `fields` holds JSON values only (str, int, None, lists), so a move writes back
    to the notation exactly as it was read.
    """

    seat: int
    kind: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "move": self.kind, **self.fields}


@dataclass(frozen=True)
class Verdict:
    """What the referee says of one move.

    `ok` is False only for what the referee can prove. `severity` is "warning" for a
    move the referee could not check (an unrecognised card), never for a guess.
    `concerns` is set on a deferred verdict: the index of the earlier move it proves
    illegal once hidden cards are revealed.
    """

    ok: bool
    rules: tuple[str, ...] = ()
    message: str = ""
    severity: Severity = "ok"
    concerns: int | None = None

    @staticmethod
    def legal(message: str = "") -> Verdict:
        return Verdict(ok=True, message=message)

    @staticmethod
    def unchecked(message: str) -> Verdict:
        return Verdict(ok=True, message=message, severity="warning")

    @staticmethod
    def illegal(breaches: Sequence[tuple[str, str]]) -> Verdict:
        """A verdict for one or more (rule id, one-line explanation) breaches."""
        return Verdict(
            ok=False,
            rules=tuple(rule for rule, _ in breaches),
            message=Text.joined("; ", (text for _, text in breaches)),
            severity="illegal",
        )


@dataclass(frozen=True)
class Option:
    """A house option: an [INF] interpretation or a variant, recorded in the log header."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    doc: str

    def check(self, value: Any) -> None:
        if value not in self.choices or type(value) is not type(self.default):
            allowed = ", ".join(repr(c) for c in self.choices)
            raise RefereeError(f"option {self.name!r} must be one of {allowed}, not {value!r}")


@dataclass(frozen=True)
class Header:
    """The first line of a match log: the game, the seats, who starts, house options."""

    game: str
    seats: tuple[str, ...]
    first: int = 0
    options: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seats": list(self.seats),
            "first": self.first,
            "options": dict(self.options),
        }


@dataclass(frozen=True)
class PageField:
    """One field of a `PageMove`: a choice among JSON values, or a whole number."""

    name: str
    label: str
    choices: tuple[Any, ...] = ()  # empty: a whole number from `minimum` to `maximum`
    minimum: int = 0
    maximum: int = 0

    def to_json(self) -> dict[str, Any]:
        if self.choices:
            return {"name": self.name, "label": self.label, "choices": list(self.choices)}
        return {"name": self.name, "label": self.label,
                "minimum": self.minimum, "maximum": self.maximum}


@dataclass(frozen=True)
class PageMove:
    """A move the table enters on the page because the camera cannot see it.

    A wild's named colour, a seat's round-end count. The page shows `title` and the
    `fields`; the move it sends is `{"seat": s, "move": kind, **fixed, **answers}` for
    one of `seats`, and goes through `Game.parse_move` and `judge` like any other.
    """

    kind: str
    title: str
    seats: tuple[int, ...]
    fields: tuple[PageField, ...] = ()
    fixed: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "move": self.kind,
            "title": self.title,
            "seats": list(self.seats),
            "fields": [item.to_json() for item in self.fields],
            "fixed": dict(self.fixed),
        }


StateT = TypeVar("StateT")


class Game(abc.ABC, Generic[StateT]):
    """One game's rules behind the interface every game implements.

    A game module subclasses this once. `judge` and `apply` are pure functions of a
    state and a move; the state is immutable.
    """

    name: str
    title: str
    min_seats: int
    max_seats: int
    options: tuple[Option, ...] = ()
    #: Each rule id's short name in words (from shared/rules/<game>.md): a verdict shows
    #: the name, the id small beside it for the rule sheet.
    rule_names: ClassVar[Mapping[str, Text]] = {}

    def rule_name(self, rule: str) -> str:
        """`rule`'s name in words; the id itself for a rule without one."""
        if rule == TURN_RULE:
            return TURN_RULE_NAME
        return self.rule_names.get(rule, rule)

    @functools.cached_property
    def deck(self) -> Deck:
        """The deck this game is played with: the packaged deck of its name, read once."""
        return load_deck(self.name)

    @abc.abstractmethod
    def parse_move(self, seat: int, kind: str, fields: Mapping[str, Any]) -> Move:
        """Check a move's fields; raise RefereeError naming what is wrong."""

    @abc.abstractmethod
    def describe(self, move: Move) -> Text:
        """`move` as a player would say it, after the seat's name ("puts a vizier on nw").

        Read from the move alone, so a log's line reads without replaying the match (the
        history page shows it in the reader's language); never raises for a move that
        `parse_move` accepted. Like SAN in chess: short, readable and unambiguous.
        """

    @abc.abstractmethod
    def setup(self, header: Header) -> StateT:
        """The state before the first move."""

    @abc.abstractmethod
    def judge(self, state: StateT, move: Move) -> Verdict:
        """Is `move` legal in `state`? Only what can be proven is illegal."""

    @abc.abstractmethod
    def apply(self, state: StateT, move: Move) -> StateT:
        """The state after `move`, legal or accepted by the table."""

    @abc.abstractmethod
    def to_play(self, state: StateT) -> int | None:
        """The seat whose turn it is, or None once the game is over."""

    @abc.abstractmethod
    def scores(self, state: StateT) -> dict[int, int]:
        """Points per seat so far."""

    @abc.abstractmethod
    def is_over(self, state: StateT) -> bool: ...

    def winners(self, state: StateT) -> list[int]:
        """Seats with the best score; ties are shared. Empty while the game goes on."""
        if not self.is_over(state):
            return []
        scores = self.scores(state)
        best = max(scores.values())
        return [seat for seat, points in sorted(scores.items()) if points == best]

    def deferred(self, before: StateT, move: Move, after: StateT) -> list[Verdict]:
        """Verdicts on earlier moves that `move` proves illegal by showing hidden cards,
        each with `concerns` set. Only games with hidden information have any."""
        return []

    def page_moves(self, state: StateT) -> list[PageMove]:
        """Moves the page may enter now, for what the camera cannot see (none by default)."""
        return []

    def board(self, state: StateT) -> Board:
        """What the page draws besides the zones: a track and notes (none by default)."""
        return Board()

    @abc.abstractmethod
    def public_view(self, state: StateT) -> dict[str, Any]:
        """What everyone at the table may see (no hands): zones, counts, for the page."""

    @abc.abstractmethod
    def interpreter(self, header: Header, card_mm: tuple[float, float] | None = None
                    ) -> TableInterpreter[StateT]:
        """How this game reads the table: camera views and button presses to moves.
        `card_mm`: the size of the cards on the table (a table's own deck, as its profile
        measured them), where the game's places follow it; the game's own deck's if not
        given."""

    def check_header(self, header: Header) -> Header:
        """Validate seats and options; fill in defaults for options not given."""
        if not self.min_seats <= len(header.seats) <= self.max_seats:
            raise RefereeError(
                f"{self.title} is for {self.min_seats} to {self.max_seats} players, "
                f"not {len(header.seats)}"
            )
        if not 0 <= header.first < len(header.seats):
            raise RefereeError(f"first seat {header.first} is not one of the seats")
        known = {option.name: option for option in self.options}
        unknown = sorted(set(header.options) - set(known))
        if unknown:
            raise RefereeError(
                f"unknown option {unknown[0]!r} for {self.name}; known: {', '.join(sorted(known))}"
            )
        options = {name: option.default for name, option in known.items()}
        for name, value in header.options.items():
            known[name].check(value)
            options[name] = value
        return Header(header.game, header.seats, header.first, options)


@dataclass(frozen=True)
class Ruling:
    """One move of a match with the verdict it got.

    `deferred` holds what this move proved about earlier moves (it showed cards that
    were hidden when they were made): one ruling each, numbered with this move's index
    but holding the earlier move, so that its seat is the one that broke the rule.
    """

    index: int
    move: Move
    verdict: Verdict
    deferred: tuple[Ruling, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "index": self.index,
            "seat": self.move.seat,
            "ok": self.verdict.ok,
            "rules": list(self.verdict.rules),
            "message": self.verdict.message,
        }
        if self.verdict.severity == "warning":
            out["severity"] = "warning"
        if self.verdict.concerns is not None:
            out["concerns"] = self.verdict.concerns
        return out


class Match(Generic[StateT]):
    """A match in progress: the header, the log of moves, and the folded state.

    >>> from referee.games import get_game
    >>> game = get_game("deserto")
    >>> match = Match(game, Header("deserto", ("Ana", "Bogdan")))
    >>> match.play(Move(0, "place", {"cell": "nw", "card": "oasis"})).verdict.ok
    True
    """

    def __init__(self, game: Game[StateT], header: Header) -> None:
        self.game = game
        self.header = game.check_header(header)
        self._states: list[StateT] = [game.setup(self.header)]
        self.rulings: list[Ruling] = []

    @property
    def state(self) -> StateT:
        return self._states[-1]

    @property
    def moves(self) -> list[Move]:
        return [ruling.move for ruling in self.rulings]

    def play(self, move: Move) -> Ruling:
        """Judge `move`, append it to the log and fold it into the state."""
        before = self.state
        verdict = self.game.judge(before, move)
        after = self.game.apply(before, move)
        index = len(self.rulings)
        proven = self.game.deferred(before, move, after)
        ruling = Ruling(
            index,
            move,
            verdict,
            tuple(Ruling(index, self._concerned(proof).move, proof) for proof in proven),
        )
        self.rulings.append(ruling)
        self._states.append(after)
        return ruling

    def _concerned(self, proof: Verdict) -> Ruling:
        """The earlier ruling a deferred verdict points back at."""
        if proof.concerns is None or not 0 <= proof.concerns < len(self.rulings):
            raise ValueError(f"a deferred verdict must concern an earlier move: {proof}")
        return self.rulings[proof.concerns]

    def undo(self) -> Ruling:
        """Drop the last move (the table took it back)."""
        if not self.rulings:
            raise RefereeError("there is no move to undo")
        self._states.pop()
        return self.rulings.pop()

    def to_play(self) -> int | None:
        return self.game.to_play(self.state)

    def transcript(self) -> list[dict[str, Any]]:
        """Every ruling as JSON, each followed by the deferred verdicts it proved."""
        return [
            line.to_json() for ruling in self.rulings for line in (ruling, *ruling.deferred)
        ]

    def result(self) -> dict[str, Any]:
        """The final line of a transcript: scores by seat and the winners."""
        scores = self.game.scores(self.state)
        return {
            "final": self.game.is_over(self.state),
            "scores": {str(seat): points for seat, points in sorted(scores.items())},
            "winners": self.game.winners(self.state),
        }
