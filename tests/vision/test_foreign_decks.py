"""The foreign deck designs: deterministic, complete, and every face its own picture."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.foreign_decks import BACK, DESIGNS, paint_deck

DECKS = Path(__file__).resolve().parents[2] / "referee" / "decks"
PATCH = (64, 88)  # the identifier's patch size: faces must differ there, not only in print


def _faces(deck: str) -> list[dict[str, object]]:
    faces: list[dict[str, object]] = json.loads((DECKS / f"{deck}.json").read_text("utf-8"))[
        "faces"]
    return faces


def test_there_are_five_designs_of_both_decks_and_four_sizes() -> None:
    assert len(DESIGNS) >= 5
    assert {d.deck for d in DESIGNS.values()} == {"uno", "tempus"}
    assert {d.card_mm for d in DESIGNS.values()} >= {(56.0, 87.0), (59.0, 91.0), (63.0, 88.0),
                                                     (70.0, 120.0)}


@pytest.mark.parametrize("name", list(DESIGNS))
def test_a_design_paints_every_code_of_its_deck_once_and_apart(name: str) -> None:
    design = DESIGNS[name]
    faces = _faces(design.deck)
    painted = paint_deck(design, faces, seed=3, px_per_mm=3.0)
    assert list(painted) == [f["code"] for f in faces] + [BACK]
    w, h = round(design.card_mm[0] * 3.0), round(design.card_mm[1] * 3.0)
    assert all(img.shape == (h, w, 3) and img.dtype == np.uint8 for img in painted.values())
    small = {code: cv2.resize(img, PATCH, interpolation=cv2.INTER_AREA).astype(np.float32)
             for code, img in painted.items()}
    for a, b in itertools.combinations(small, 2):  # either way up: cards lie both ways
        apart = min(np.abs(small[a] - small[b]).mean(),
                    np.abs(small[a] - small[b][::-1, ::-1]).mean())
        assert apart > 0.5, (a, b)


def test_a_seed_fixes_the_print_and_another_seed_moves_it() -> None:
    design, faces = DESIGNS["uno-classic"], _faces("uno")[:6]
    first = paint_deck(design, faces, seed=3, px_per_mm=3.0)
    again = paint_deck(design, faces, seed=3, px_per_mm=3.0)
    other = paint_deck(design, faces, seed=4, px_per_mm=3.0)
    assert all(np.array_equal(first[c], again[c]) for c in first)
    assert not all(np.array_equal(first[c], other[c]) for c in first)
