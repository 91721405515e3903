"""The match log notation: JSON Lines, a header line and then one move per line.

    {"game": "deserto", "seats": ["Ana", "Bogdan"], "first": 0, "options": {}}
    {"seat": 0, "move": "place", "cell": "nw", "card": "oasis"}
    {"seat": 1, "move": "place", "cell": "ne", "card": "vizier"}

Blank lines and lines starting with `#` are comments. docs/notation.md has the rest.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from referee.core import Game, Header, Match, Move, RefereeError
from referee.games import get_game


class NotationError(RefereeError):
    """A malformed log: names the line and what is wrong with it."""

    def __init__(self, line: int, problem: str) -> None:
        super().__init__(f"line {line}: {problem}")
        self.line = line
        self.problem = problem


@dataclass(frozen=True)
class MatchLog:
    """A parsed log: the header and the moves, each with the line it came from."""

    game: Game[Any]
    header: Header
    moves: tuple[tuple[int, Move], ...]


def parse_header(data: Mapping[str, Any]) -> Header:
    """A header from its JSON object; RefereeError when a field is missing or wrong."""
    game = data.get("game")
    seats = data.get("seats")
    if not isinstance(game, str):
        raise RefereeError('the header needs "game", e.g. "deserto"')
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise RefereeError('the header needs "seats", a list of player names')
    first = data.get("first", 0)
    options = data.get("options", {})
    if not isinstance(first, int) or isinstance(first, bool):
        raise RefereeError('"first" must be a seat number')
    if not isinstance(options, dict):
        raise RefereeError('"options" must be an object')
    return Header(game, tuple(seats), first, options)


def parse_move(game: Game[Any], data: Mapping[str, Any], seats: int) -> Move:
    """A move from its JSON object, checked against the game's notation."""
    seat = data.get("seat")
    kind = data.get("move")
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
        raise RefereeError(f'"seat" must be a seat number from 0 to {seats - 1}, not {seat!r}')
    if not isinstance(kind, str):
        raise RefereeError('a move needs "move", its kind (e.g. "place")')
    fields = {k: v for k, v in data.items() if k not in ("seat", "move")}
    return game.parse_move(seat, kind, fields)


def read_log(lines: Iterable[str], expected_game: str | None = None) -> MatchLog:
    """Parse a whole log; the first problem raises NotationError with its line number."""
    header: Header | None = None
    game: Game[Any] | None = None
    moves: list[tuple[int, Move]] = []
    number = 0
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise NotationError(number, f"not valid JSON ({error.msg})") from None
        if not isinstance(data, dict):
            raise NotationError(number, "each line must be a JSON object")
        try:
            if header is None or game is None:
                header = parse_header(data)
                if expected_game is not None and header.game != expected_game:
                    raise RefereeError(f"the log is a {header.game!r} match, not {expected_game!r}")
                game = get_game(header.game)
                header = game.check_header(header)
            else:
                moves.append((number, parse_move(game, data, len(header.seats))))
        except RefereeError as error:
            raise NotationError(number, str(error)) from None
    if header is None or game is None:
        raise NotationError(max(number, 1), "the log is empty: it needs a header line")
    return MatchLog(game, header, tuple(moves))


def replay(log: MatchLog) -> Match[Any]:
    """Play every move of a log into a fresh match."""
    match = Match(log.game, log.header)
    for _, move in log.moves:
        match.play(move)
    return match


def write_log(match: Match[Any]) -> list[str]:
    """The log of a match as JSON Lines, the header first."""
    lines = [json.dumps(match.header.to_json())]
    lines += [json.dumps(move.to_json()) for move in match.moves]
    return lines
