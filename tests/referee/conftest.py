"""Random play for the referee tests: a match fed random views, presses and written moves,
legal or not, and everything the game says meanwhile (what the language tests read)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from referee.core import Match, Move
from referee.table import Play, Press, TableView, TakeBack

#: What the table might show now: (rng, match) -> a view.
Viewer = Callable[[random.Random, Match[Any]], TableView]
#: A move a log might hold: (rng, seat, seats) -> a move.
Writer = Callable[[random.Random, int, int], Move]


def said_at_the_table(match: Match[Any], rng: random.Random, view: Viewer, written: Writer,
                      steps: int, page_moves: bool = False) -> Iterator[Any]:
    """Everything a game says in `steps` random turns of a match: each move played as the
    history page describes it, verdicts (deferred ones too), questions for the table,
    take-backs and the moves offered on the page (their titles, labels and choices). With
    `page_moves`, the offered moves are made too."""
    game = match.game
    seats = len(match.header.seats)
    table = game.interpreter(match.header)
    for _ in range(steps):
        last = match.rulings[-1] if match.rulings else None
        to_play = game.to_play(match.state)
        offers = game.page_moves(match.state) if page_moves else []
        roll = rng.random()
        if offers and roll < 0.3:
            offer = rng.choice(offers)
            answers = {field.name: rng.choice(field.choices) for field in offer.fields}
            actions: list[Any] = [Play(game.parse_move(
                rng.choice(offer.seats), offer.kind, {**offer.fixed, **answers}))]
        elif roll < 0.55:
            actions = table.on_view(match.state, view(rng, match), last)
        elif roll < 0.75:
            press = Press(rng.randrange(seats), rng.choice(["press", "hold", "double"]))
            actions = table.on_press(match.state, press, last)
        else:
            seat = to_play if to_play is not None and rng.random() < 0.8 else rng.randrange(seats)
            actions = [Play(written(rng, seat, seats))]
        for action in actions:
            if isinstance(action, Play):
                ruling = match.play(action.move)
                yield game.describe(action.move)
                yield from (said.verdict.message for said in (ruling, *ruling.deferred))
            elif isinstance(action, TakeBack):
                yield action.reason
                if match.rulings:
                    match.undo()
            else:
                yield action.message
        for offered in game.page_moves(match.state):
            yield offered.title
            for field in offered.fields:
                yield field.label
                yield from (str(choice) for choice in field.choices)


@pytest.fixture
def random_play() -> Callable[..., Iterator[Any]]:
    """`said_at_the_table`, for the tests of what the games say."""
    return said_at_the_table
