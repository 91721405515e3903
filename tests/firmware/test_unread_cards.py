"""A card the camera cannot name is asked about, and what the table does after it waits
for the answer (issue 11: never an invented move): covered before the table names it,
the card put on it is not given to the seat whose turn it is; once the page names it,
both moves are made in order, each with its verdict. For every game's interpreter."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from firmware.pipeline import RefereePipeline
from firmware.tracker import Tracker, TrackerSettings
from hardware.panel import SimulatedPanel
from referee.core import Header, Match, Move
from referee.games import get_game
from tests.firmware.readings import CENTRE, Card, Reading
from tests.firmware.test_pipeline import UnreadableFrame

#: A card: its code (None: the camera cannot name it) and mm from the mat's centre.
Seen = tuple[str | None, tuple[float, float]]
#: Deserto's cells, mm from the centre (63 x 88 mm cards, 6 mm apart).
NW, NE, SE = (-34.5, -47.0), (34.5, -47.0), (34.5, 47.0)
HOLD = "what the table did after it waits"
HAND = "a hand over the mat"


class PlacedReader:
    """Reads 'frames' that are lists of (code, (x, y) mm from the mat centre)."""

    def read(self, frame: np.ndarray, *, full: np.ndarray | None = None) -> Reading:
        if frame.size == 1 and frame[0] == HAND:
            return Reading([], obstructed=True)
        return Reading([Card(code, (CENTRE[0] + x, CENTRE[1] + y))
                        for code, (x, y) in frame.tolist()])


def pipeline_for(game: str, seats: int, *moves: Move) -> RefereePipeline:
    referee = get_game(game)
    match = Match(referee, referee.check_header(
        Header(game, tuple(f"p{n}" for n in range(seats)))))
    for move in moves:
        match.play(move)
    tracker = Tracker(CENTRE, TrackerSettings(agreeing_frames=2))
    return RefereePipeline(match, PlacedReader(), tracker, SimulatedPanel(seats),
                           UnreadableFrame)


def show(pipeline: RefereePipeline, *cards: Seen) -> None:
    """A hand, then the table as it lies once the hand has gone."""
    hand = np.empty(1, dtype=object)
    hand[0] = HAND
    pipeline.on_frame(hand)
    frame = np.empty(len(cards), dtype=object)
    frame[:] = list(cards)
    for _ in range(2):
        pipeline.on_frame(frame)


def moves(pipeline: RefereePipeline) -> list[dict[str, object]]:
    return [ruling.move.to_json() for ruling in pipeline.match.rulings]


def asks(pipeline: RefereePipeline) -> list[str]:
    return [event["ask"] for event in pipeline.transcript if "ask" in event]


def plays(seat: int, *cards: str) -> dict[str, object]:
    return {"seat": seat, "move": "play", "cards": list(cards)}


def uno() -> RefereePipeline:
    """Two seats, red-3 turned up by the dealer (seat 1): seat 0 to play."""
    pipeline = pipeline_for("uno", 2, Move(1, "deal"), Move(1, "turn-up", {"card": "red-3"}))
    show(pipeline, ("red-3", (0.0, 0.0)))
    return pipeline


def test_uno_a_discard_covered_before_it_is_named_holds_the_card_on_it_until_it_is() -> None:
    pipeline = uno()
    show(pipeline, (None, (1.0, 1.0)))
    assert "cannot read the top of the discard pile" in asks(pipeline)[-1]
    show(pipeline, ("red-5", (-1.0, 2.0)))  # seat 1's card covers it
    assert len(moves(pipeline)) == 2 and HOLD in asks(pipeline)[-1]
    [covered] = pipeline.snapshot()["unknown"]  # the page still offers the covered card
    assert (covered["x_mm"], covered["y_mm"]) == (1.0, 1.0)

    pipeline.name_card(0, "red-9")
    assert moves(pipeline)[2:] == [plays(0, "red-9"), plays(1, "red-5")]
    assert all(ruling.verdict.ok for ruling in pipeline.match.rulings)
    assert pipeline.unknown_cards() == [] and pipeline.turn_shown() == 0


def test_uno_a_press_after_the_card_it_cannot_name_is_made_after_it() -> None:
    pipeline = uno()
    show(pipeline, (None, (1.0, 1.0)))
    pipeline.on_press(1, "hold")  # seat 1 draws: after seat 0's card, whatever it is
    assert len(moves(pipeline)) == 2
    pipeline.name_card(0, "green-3")
    assert moves(pipeline)[2:] == [plays(0, "green-3"),
                                   {"seat": 1, "move": "draw", "count": 1}]


def test_uno_what_comes_after_a_wrong_name_is_judged_against_that_name() -> None:
    """The name is the table's word: a card put on it is judged against it."""
    pipeline = uno()
    show(pipeline, (None, (1.0, 1.0)))
    show(pipeline, ("blue-5", (0.0, 0.0)))
    pipeline.name_card(0, "red-5")
    last = pipeline.match.rulings[-1]
    assert last.move.to_json() == plays(1, "blue-5") and last.verdict.ok  # on red-5


def deserto() -> RefereePipeline:
    pipeline = pipeline_for("deserto", 2)
    show(pipeline, ("oasis", NW))
    return pipeline


def test_deserto_a_card_covered_before_it_is_named_holds_the_card_on_it() -> None:
    pipeline = deserto()
    show(pipeline, ("oasis", NW), (None, NE))  # seat 1's card, unchecked until named
    assert moves(pipeline)[-1] == {"seat": 1, "move": "place", "cell": "ne", "card": None}
    show(pipeline, ("oasis", NW), ("vizier", NE))  # seat 0's card on it
    assert len(moves(pipeline)) == 2 and HOLD in asks(pipeline)[-1]

    pipeline.name_card(0, "brigand")
    assert moves(pipeline) == [
        {"seat": 0, "move": "place", "cell": "nw", "card": "oasis"},
        {"seat": 1, "move": "place", "cell": "ne", "card": "brigand"},
        {"seat": 0, "move": "place", "cell": "ne", "card": "vizier"},
    ]
    assert pipeline.match.rulings[1].verdict.severity == "ok"


def test_deserto_a_card_it_cannot_name_lifted_again_is_no_move_and_no_question() -> None:
    pipeline = deserto()
    show(pipeline, ("oasis", NW), (None, NE))
    show(pipeline, ("oasis", NW))  # lifted before anyone named it
    assert len(moves(pipeline)) == 1 and pipeline.unknown_cards() == []
    show(pipeline, ("oasis", NW), ("vizier", SE))
    assert moves(pipeline)[-1] == {"seat": 1, "move": "place", "cell": "se", "card": "vizier"}


def test_tempus_a_set_top_covered_before_it_is_named_holds_the_capture() -> None:
    free = ("series-minus", (40.0, 0.0))
    pipeline = pipeline_for("tempus", 2)
    show(pipeline, ("series-plus", (-40.0, 0.0)), free)
    show(pipeline, free, ("series-plus", (-35.0, 150.0)), (None, (35.0, 150.0)))
    assert "cannot read the top card of a set" in asks(pipeline)[-1]
    show(pipeline, free, ("series-plus", (-35.0, 150.0)), ("red-11", (35.0, 150.0)))
    assert moves(pipeline) == [] and HOLD in asks(pipeline)[-1]

    pipeline.name_card(0, "red-9")
    assert moves(pipeline) == [
        {"seat": 0, "move": "open", "series": "plus", "card": "red-9"},
        {"seat": 1, "move": "capture", "set": 1, "card": "red-11"},
    ]


def kanaloa_ring() -> list[Seen]:
    return [(f"ocean-{n}", (200.0 + 10 * n, 0.0)) for n in range(1, 11)]


def test_kanaloa_a_trick_card_it_cannot_name_holds_the_next_one() -> None:
    pipeline = pipeline_for("kanaloa", 3, Move(0, "ring", {"cards": [
        f"ocean-{n}" for n in range(1, 11)]}), Move(0, "deal"))
    ring: Sequence[Seen] = kanaloa_ring()
    show(pipeline, *ring)
    show(pipeline, *ring, (None, (0.0, 0.0)))
    assert "cannot read lies on the table" in asks(pipeline)[-1]
    show(pipeline, *ring, (None, (0.0, 0.0)), ("blue-9", (70.0, 0.0)))
    assert len(moves(pipeline)) == 2 and HOLD in asks(pipeline)[-1]

    pipeline.name_card(0, "blue-5")
    assert moves(pipeline)[2:] == [{"seat": 0, "move": "play", "card": "blue-5"},
                                   {"seat": 1, "move": "play", "card": "blue-9"}]
