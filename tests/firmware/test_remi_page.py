"""What the live page shows of a Remi match: the row, the melds with their owners, each
rack's counted size and the totals, in every language."""

from __future__ import annotations

import numpy as np
from gpiozero.pins.mock import MockFactory

from firmware.pipeline import RefereePipeline
from firmware.tracker import ReadingLike, Tracker, TrackerSettings
from hardware.panel import SeatPanel
from referee.core import Header, Match, Move
from referee.games import get_game
from referee.text import LANGUAGES

OPENING = [["red-10", "red-11", "red-12"], ["blue-9", "joker", "black-9"]]


class NoReader:
    def read(self, frame: np.ndarray, *, full: np.ndarray | None = None) -> ReadingLike:
        raise AssertionError("no frame is read here")


def test_the_snapshot_shows_the_row_the_melds_the_racks_and_the_scores() -> None:
    match = Match(get_game("remi"), Header("remi", ("Ana", "Bogdan")))
    for move in [Move(0, "deal", {"atu": "red-7"}), Move(0, "discard", {"tile": "blue-3"}),
                 Move(1, "draw"), Move(1, "discard", {"tile": "blue-4"}), Move(0, "draw"),
                 Move(0, "lay", {"melds": OPENING}), Move(0, "discard", {"tile": "black-2"})]:
        assert match.play(move).verdict.ok
    panel = SeatPanel([(4, 17), (27, 22)], 16, 18, pin_factory=MockFactory(),
                      clock=lambda: 0.0)
    pipeline = RefereePipeline(match, NoReader(), Tracker((297.0, 210.0), TrackerSettings()),
                               panel, AssertionError)
    snapshot = pipeline.snapshot()
    assert [s["cards_in_hand"] for s in snapshot["seats"]] == [8, 14]
    assert [s["score"] for s in snapshot["seats"]] == [0, 0]
    zones = snapshot["table"]
    assert [(z["cards"], z["top"]) for z in zones] == [
        (["red-7"], "red-7"), (["blue-3", "blue-4", "black-2"], "black-2"),
        (OPENING[0], "red-12"), (OPENING[1], "black-9")]
    assert zones[1]["zone_texts"] == {"en": "the row", "ro": "șirul", "it": "la fila",
                                      "es": "la fila", "pt": "a fila"}
    assert zones[2]["zone_texts"]["en"] == "Ana's meld 1"
    assert zones[3]["zone_texts"]["ro"] == "formația 2 a lui Ana"
    assert all(set(z["zone_texts"]) == set(LANGUAGES) and "seat" not in z["zone_texts"]["en"]
               for z in zones)
    panel.close()
