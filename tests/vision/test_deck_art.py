"""The print-and-play faces: distinct, deterministic, exported at true size."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from vision.deck_art import (
    FaceArt,
    export_deck,
    hex_to_bgr,
    paint_back,
    paint_face,
    value_code,
)

DECK = Path(__file__).resolve().parents[2] / "referee" / "decks" / "deserto.json"


def deserto_arts() -> list[FaceArt]:
    data = json.loads(DECK.read_text(encoding="utf-8"))
    return [FaceArt.from_json(f["code"], f["art"]) for f in data["faces"]]


def test_hex_to_bgr() -> None:
    assert hex_to_bgr("#1d4f9c") == (0x9C, 0x4F, 0x1D)
    with pytest.raises(ValueError):
        hex_to_bgr("blue")


def test_from_json_rejects_unknown_symbol() -> None:
    with pytest.raises(ValueError, match="unknown symbol"):
        FaceArt.from_json("x", {"title": "X", "colour": "#000000", "symbol": "nope",
                                "corner": "X"})


def test_faces_have_the_card_shape_and_differ() -> None:
    faces = [paint_face(a, (63, 88), 4.0) for a in deserto_arts()]
    for face in faces:
        assert face.shape == (352, 252, 3)
        assert face.dtype == np.uint8
        assert (face[0:3, 120:130] < 200).any()  # the edge line
    for i, a in enumerate(faces):
        for b in faces[i + 1 :]:
            diff = np.abs(a.astype(int) - b.astype(int)).mean()
            assert diff > 25


def test_painting_is_deterministic() -> None:
    art = deserto_arts()[0]
    assert np.array_equal(paint_face(art, px_per_mm=3.0), paint_face(art, px_per_mm=3.0))
    assert paint_back("#6b3f1d", px_per_mm=3.0).shape == (264, 189, 3)


def test_export_deck(tmp_path: Path) -> None:
    arts = deserto_arts()
    written = export_deck(arts, (63, 88), tmp_path, copies={"vizier": 10})
    names = {p.name for p in written}
    assert names == {"vizier.png", "brigand.png", "treasure.png", "oasis.png", "back.png",
                     "manifest.json", "sheet.pdf"}
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest == {
        "card_mm": [63, 88],
        "faces": {a.code: f"{a.code}.png" for a in arts},
        "back": "back.png",
    }
    # Pillow writes PDFs but cannot read them: check the page boxes (A4 in points)
    pdf = (tmp_path / "sheet.pdf").read_bytes()
    assert pdf.startswith(b"%PDF")
    boxes = re.findall(rb"/MediaBox \[ 0 0 ([\d.]+) ([\d.]+) \]", pdf)
    assert len(boxes) == 3  # 13 faces on two pages, then the backs
    for w, h in boxes:
        assert abs(float(w) / 72 * 25.4 - 210) < 0.5
        assert abs(float(h) / 72 * 25.4 - 297) < 0.5
    with Image.open(tmp_path / "vizier.png") as png:
        assert png.size == (round(63 * 300 / 25.4), round(88 * 300 / 25.4))


# -- Professor Tempus ------------------------------------------------------------------

TEMPUS = Path(__file__).resolve().parents[2] / "referee" / "decks" / "tempus.json"


def tempus_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(TEMPUS.read_text(encoding="utf-8"))
    return data


def tempus_arts() -> list[FaceArt]:
    return [FaceArt.from_json(f["code"], f["art"]) for f in tempus_data()["faces"]]


def test_marks_are_read_from_the_art_and_default_to_none() -> None:
    arts = {a.code: a for a in tempus_arts()}
    assert arts["red-7"].marks == 3 and arts["violet-13"].marks == 0
    assert arts["joker-5"].symbol == "joker" and arts["series-minus"].symbol == "series-minus"
    assert all(a.marks == 0 for a in deserto_arts())
    with pytest.raises(ValueError, match="marks"):
        FaceArt.from_json("x", {"title": "X", "colour": "#000000", "symbol": "numeral",
                                "corner": "1", "marks": 4})


def test_value_codes_differ_in_two_squares_at_least() -> None:
    codes = [value_code(v) for v in range(1, 26)]
    for i, a in enumerate(codes):
        for b in codes[i + 1 :]:
            assert sum(x != y for x, y in zip(a, b, strict=True)) >= 2
    with pytest.raises(ValueError):
        value_code(0)


def test_tempus_faces_differ_also_upside_down() -> None:
    faces = {a.code: paint_face(a, (63, 88), 2.0).astype(int) for a in tempus_arts()}
    pairs = [("red-6", "red-9"), ("red-16", "red-19"), ("red-18", "red-13"),
             ("series-plus", "series-minus"), ("red-5", "violet-5"), ("joker-5", "red-5")]
    for a, b in pairs:
        assert np.abs(faces[a] - faces[b]).mean() > 4, (a, b)
        assert np.abs(faces[a] - faces[b][::-1, ::-1]).mean() > 8, (a, b)


def test_red_and_violet_differ_in_hue() -> None:
    data = {f["code"]: f["art"]["colour"] for f in tempus_data()["faces"]}
    red, violet = hex_to_bgr(data["red-1"]), hex_to_bgr(data["violet-1"])
    assert red[0] / red[2] < 0.4 and violet[0] / violet[2] > 1.5  # blue over red (BGR)


def test_export_tempus(tmp_path: Path) -> None:
    data = tempus_data()
    arts = tempus_arts()
    copies = {f["code"]: f["copies"] for f in data["faces"]}
    written = export_deck(arts, (63, 88), tmp_path, back_colour=data["back"]["colour"],
                          copies=copies)
    codes = [a.code for a in arts]
    assert len(codes) == 65
    assert {p.name for p in written} == {f"{c}.png" for c in codes} | {
        "back.png", "manifest.json", "sheet.pdf"}
    for code in codes:
        with Image.open(tmp_path / f"{code}.png") as png:
            assert png.size == (round(63 * 300 / 25.4), round(88 * 300 / 25.4))
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["faces"] == {c: f"{c}.png" for c in codes}
    assert manifest["back"] == "back.png" and manifest["card_mm"] == [63, 88]
    pdf = (tmp_path / "sheet.pdf").read_bytes()
    boxes = re.findall(rb"/MediaBox \[ 0 0 ([\d.]+) ([\d.]+) \]", pdf)
    assert len(boxes) == 8 + 1  # 63 + 3 + 3 prints, nine to a page, then the backs
