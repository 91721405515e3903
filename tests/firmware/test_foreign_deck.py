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
from firmware.session import replay_session
from hardware.panel import SimulatedPanel

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures/foreign/uno-classic"
SESSION = FIXTURE / "session"
EXPECTED = [json.loads(line) for line in
            (SESSION / "expected.jsonl").read_text(encoding="utf-8").splitlines()]


def outcome(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What expected.jsonl holds (as tests/firmware/test_session.py reads a transcript)."""
    return [{"takeback": e["takeback"]} if "takeback" in e else e
            for e in events if "ask" not in e and "problem" not in e]


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


@pytest.mark.xfail(strict=True, reason=(
    "naming: of the 28 cards laid, played or shown, yellow-5 is unknown in all 3 settled "
    "frames (confidence 0.43-0.46 < 0.5) and the camera asks the table; no card named "
    "wrong. From then on the camera's game is a move behind the table's"))
def test_the_session_replays_to_its_expected_moves_and_verdicts(
    replayed: tuple[RefereePipeline, SimulatedPanel],
) -> None:
    pipeline, panel = replayed
    assert outcome([*pipeline.transcript, pipeline.result()]) == EXPECTED
    assert panel.alarms == sum(1 for line in EXPECTED if line.get("ok") is False)


@pytest.mark.xfail(strict=True, reason="a discard the camera cannot name (yellow-0), covered "
                   "by the next card before the table is asked, is lost: UNO's table gives the "
                   "next card to the seat whose turn it is (open in issue 11)")
def test_until_a_card_it_cannot_name_the_camera_makes_the_tables_moves_and_asks(
    replayed: tuple[RefereePipeline, SimulatedPanel],
) -> None:
    """Never a guess: every move up to the first card the camera asks about (all of
    them, once it names every card) is the table's own, with its verdict, the flagged
    card of the wrong colour among them."""
    pipeline, _ = replayed
    transcript = pipeline.transcript
    first_ask = next((i for i, e in enumerate(transcript) if "ask" in e), len(transcript))
    before = outcome(transcript[:first_ask])
    assert before == EXPECTED[:len(before)]
    assert len(before) >= 14 and any(e.get("ok") is False for e in before)
