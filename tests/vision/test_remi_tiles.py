"""Remi's print-and-play tiles: each face apart from every other, a 6 from a 9 turned round
too, and the sheets to print (106 tiles, 90 to an A4 page)."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import numpy as np

from vision.deck_art import FaceArt, export_deck, paint_face
from vision.mat import default_mat
from vision.render import tile_rows

DECK = Path(__file__).resolve().parents[2] / "referee" / "decks" / "remi.json"
TILE_MM = (20.0, 30.0)


def remi_data() -> dict[str, object]:
    data: dict[str, object] = json.loads(DECK.read_text(encoding="utf-8"))
    return data


def arts() -> list[FaceArt]:
    faces = remi_data()["faces"]
    assert isinstance(faces, list)
    return [FaceArt.from_json(f["code"], f["art"]) for f in faces]


def test_the_tile_set_has_the_codes_of_cards_md() -> None:
    codes = [art.code for art in arts()]
    numbered = [f"{colour}-{n}" for colour in ("red", "yellow", "blue", "black")
                for n in range(1, 14)]
    assert sorted(codes) == sorted([*numbered, "joker"])


def apart(a: np.ndarray, b: np.ndarray) -> float:
    """The share of pixels where two faces differ strongly (ink on one, cream on the other)."""
    return float((np.abs(a - b).max(axis=2) > 80).mean())


def test_every_tile_differs_from_every_other_either_way_up() -> None:
    faces = {art.code: paint_face(art, TILE_MM, 4.0).astype(int) for art in arts()}
    assert {face.shape for face in faces.values()} == {(120, 80, 3)}
    codes = sorted(faces)
    for i, a in enumerate(codes):
        for b in codes[i + 1:]:
            # the closest pairs (5 and 8, 3 and 5 of a colour) differ in about 1.3 %
            assert min(apart(faces[a], faces[b]), apart(faces[a], faces[b][::-1, ::-1])
                       ) > 0.01, (a, b)


def test_the_sheets_hold_every_tile_twice_the_jolies_once_each(tmp_path: Path) -> None:
    faces = remi_data()["faces"]
    assert isinstance(faces, list)
    copies = {f["code"]: f["copies"] for f in faces}
    written = export_deck(arts(), TILE_MM, tmp_path, copies=copies)
    assert sum(copies.values()) == 106
    assert {p.name for p in written} >= {"red-1.png", "joker.png", "back.png", "sheet.pdf"}
    pdf = (tmp_path / "sheet.pdf").read_bytes()
    boxes = re.findall(rb"/MediaBox \[ 0 0 ([\d.]+) ([\d.]+) \]", pdf)
    assert len(boxes) == 2 + 2 * 2  # instructions and its back; 90 + 16 tiles, their backs


def test_tiles_in_rows_touch_side_by_side_inside_the_mat() -> None:
    tiles = [(art.code, paint_face(art, TILE_MM, 2.0)) for art in arts()[:20]]
    mat = default_mat()
    laid = tile_rows(np.random.default_rng(7), mat, tiles, TILE_MM)
    assert 15 <= len(laid) <= 20
    for tile in laid:
        corners = tile.corners_mm()[:, :2]
        assert corners.min() >= 0 and corners[:, 0].max() <= mat.width_mm
    gaps = [math.dist(a.center_mm, b.center_mm) - TILE_MM[0]
            for a, b in zip(laid, laid[1:], strict=False)]
    assert sum(0 <= gap <= 0.6 for gap in gaps) >= len(laid) // 2  # most are neighbours
