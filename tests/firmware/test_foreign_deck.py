"""A session played with a deck the project never drew replays with the profile its
enrolment wrote (tests/fixtures/foreign/uno-classic, scripts/fixtures/foreign.py): the
camera names that deck's cards from the profile in the data folder, not from our art."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from firmware.deck_profile import load_profile
from firmware.pipeline import RefereePipeline
from firmware.session import build_pipeline, replay_outcome, replay_session
from hardware.panel import SimulatedPanel
from referee.core import Game, Header
from referee.games import get_game
from referee.table import TableInterpreter
from vision.mat import default_mat

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures/foreign/uno-classic"
SESSION = FIXTURE / "session"
EXPECTED = [json.loads(line) for line in
            (SESSION / "expected.jsonl").read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def replayed(tmp_path_factory: pytest.TempPathFactory) -> tuple[RefereePipeline, SimulatedPanel]:
    """The session replayed once, with the enrolled profile as a table's data folder has it."""
    data = tmp_path_factory.mktemp("data")
    shutil.copytree(FIXTURE / "profile", data / "decks/uno")
    panel = SimulatedPanel(2)
    return replay_session(SESSION, panel=panel, data=data), panel


def test_the_enrolled_profile_knows_every_face_at_the_decks_size() -> None:
    profile = load_profile(FIXTURE / "profile")
    assert profile.deck == "uno" and len(profile.data["passes"]) == 2
    assert all(len(views) == 2 for views in profile.faces.values())
    width, height = json.loads((FIXTURE / "enrolment/session.json").read_text())["enrolment"][
        "card_mm"]
    assert abs(profile.card_mm[0] - width) <= 1.2 and abs(profile.card_mm[1] - height) <= 1.2


def test_the_session_replays_to_its_expected_moves_and_verdicts(
    replayed: tuple[RefereePipeline, SimulatedPanel],
) -> None:
    pipeline, panel = replayed
    assert replay_outcome(pipeline) == EXPECTED
    assert panel.alarms == sum(1 for line in EXPECTED if line.get("ok") is False)


def test_a_discard_it_cannot_name_is_asked_about_and_the_card_on_it_waits_for_the_name(
    replayed: tuple[RefereePipeline, SimulatedPanel],
) -> None:
    """Never a guess: yellow-0 and yellow-5 are read too weakly to name. The camera asks
    which each is; the next card covers it before the table answers on the page (the
    recording's "name-card" lines), and that card waits: no move is made until the
    name comes, then both, in order, each by the seat that played it."""
    transcript = replayed[0].transcript
    for code, covered_by in (("yellow-0", "yellow-2"), ("yellow-5", "yellow-7")):
        named = next(i for i, e in enumerate(transcript)
                     if e.get("move", {}).get("cards") == [code])
        # just before the move: the question, then the card on it held (no move between)
        assert "cannot read the top of the discard pile" in transcript[named - 2]["ask"]
        assert "what the table did after it waits" in transcript[named - 1]["ask"]
        covering = transcript[named + 1]
        assert covering["move"]["cards"] == [covered_by]
        assert covering["seat"] != transcript[named]["seat"]


def test_the_game_is_laid_out_by_the_profile_s_card_size(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A game whose places follow its cards' size (Deserto's cells, Tempus's sets, Remi's
    melds) is read at the size the table's own deck measured, not at our deck's."""
    data = tmp_path / "data"
    shutil.copytree(FIXTURE / "profile", data / "decks/uno")
    asked: list[tuple[float, float] | None] = []
    uno = get_game("uno")
    made = type(uno).interpreter

    def interpreter(game: Game[Any], header: Header, card_mm: tuple[float, float] | None = None
                    ) -> TableInterpreter[Any]:
        asked.append(card_mm)
        return made(game, header, card_mm)

    monkeypatch.setattr(type(uno), "interpreter", interpreter)
    build_pipeline(Header("uno", ("Ana", "Bogdan")), default_mat(), SimulatedPanel(2),
                   data=data)
    assert asked == [load_profile(FIXTURE / "profile").card_mm] != [uno.deck.card_mm]
