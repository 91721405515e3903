"""The print-and-play faces: distinct, deterministic, exported at true size."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from vision.deck_art import FaceArt, export_deck, hex_to_bgr, paint_back, paint_face

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
