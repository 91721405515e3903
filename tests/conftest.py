"""Fixtures more than one room of the tests uses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scripts.fixtures.enrolment import record_enrolment
from vision.foreign_decks import DESIGNS, paint_deck

ROOT = Path(__file__).resolve().parents[1]
PALE_SEED = 777  # the session's layouts, light and camera


@pytest.fixture(scope="session")
def uno_pale_enrolment(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A rendered enrolment session (as tests/fixtures/enrolment/ records one: two passes,
    each layout in two frames) of the unseen design uno-pale (vision.foreign_decks: 59 x
    91 mm, coloured to a rim of the mat's own grey; its wilds and blank black to the rim,
    so framed unlike the yellows they are laid with)."""
    design = DESIGNS["uno-pale"]
    faces = json.loads((ROOT / "referee/decks/uno.json").read_text(encoding="utf-8"))["faces"]
    folder = tmp_path_factory.mktemp("uno-pale") / "enrolment"
    record_enrolment(folder, paint_deck(design, faces, seed=1), design.card_mm, PALE_SEED,
                     "uno-pale", corner_radius_mm=design.corner_radius_mm,
                     rendered_by="tests/conftest.py")
    return folder
