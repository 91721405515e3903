"""The print-and-play faces: distinct, deterministic, exported at true size."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import cv2
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
    assert len(boxes) == 2 + 2 * 2  # instructions and its back; 13 faces on two pages, each
    # followed by its backs
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
    assert len(boxes) == 2 + 8 * 2  # 63 + 3 + 3 prints, nine to a page, each with its backs


# -- UNO -------------------------------------------------------------------------------

UNO = Path(__file__).resolve().parents[2] / "referee" / "decks" / "uno.json"
UNO_COLOURS = ("red", "yellow", "green", "blue")


def uno_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(UNO.read_text(encoding="utf-8"))
    return data


def uno_arts() -> list[FaceArt]:
    return [FaceArt.from_json(f["code"], f["art"]) for f in uno_data()["faces"]]


def camera_view(face: np.ndarray) -> np.ndarray:
    """What a camera about 2 px/mm away sees of a face: small and a little blurred."""
    small = cv2.resize(face.astype(np.uint8), (56, 87), interpolation=cv2.INTER_AREA)
    return cv2.GaussianBlur(small, (0, 0), 0.8).astype(int)


@pytest.fixture(scope="module")
def uno_faces() -> dict[str, np.ndarray]:
    return {a.code: paint_face(a, (56, 87), 4.0) for a in uno_arts()}


def test_uno_export(tmp_path: Path) -> None:
    data = uno_data()
    arts = uno_arts()
    copies = {f["code"]: f["copies"] for f in data["faces"]}
    written = export_deck(arts, (56, 87), tmp_path, back_colour=data["back"]["colour"],
                          copies=copies)
    codes = [a.code for a in arts]
    expected = {f"{c}-{v}" for c in UNO_COLOURS for v in
                [*map(str, range(10)), "skip", "reverse", "draw2"]}
    assert set(codes) == expected | {"wild", "wild-draw4", "blank"} and len(codes) == 55
    assert {p.name for p in written} == {f"{c}.png" for c in codes} | {
        "back.png", "manifest.json", "sheet.pdf"}
    for code in codes:
        with Image.open(tmp_path / f"{code}.png") as png:
            assert png.size == (round(56 * 300 / 25.4), round(87 * 300 / 25.4))
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest == {"card_mm": [56, 87], "faces": {c: f"{c}.png" for c in codes},
                        "back": "back.png"}
    pdf = (tmp_path / "sheet.pdf").read_bytes()
    boxes = re.findall(rb"/MediaBox \[ 0 0 ([\d.]+) ([\d.]+) \]", pdf)
    assert sum(copies.values()) == 110
    assert len(boxes) == 2 + 13 * 2  # 110 prints, nine to a page, each with its backs
    for w, h in boxes:
        assert abs(float(w) / 72 * 25.4 - 210) < 0.5
        assert abs(float(h) / 72 * 25.4 - 297) < 0.5


def test_uno_faces_differ_both_ways_up(uno_faces: dict[str, np.ndarray]) -> None:
    views = {c: camera_view(f) for c, f in uno_faces.items()}
    codes = list(views)
    nearest = min(
        (min(np.abs(views[a] - views[b]).mean(), np.abs(views[a] - views[b][::-1, ::-1]).mean()),
         a, b)
        for i, a in enumerate(codes) for b in codes[i + 1 :])
    assert nearest[0] > 4.5, nearest
    for colour in UNO_COLOURS:  # 6 and 9, and the actions against the values
        six, nine = views[f"{colour}-6"], views[f"{colour}-9"]
        assert np.abs(six - nine).mean() > 4.0, colour
        assert np.abs(six - nine[::-1, ::-1]).mean() > 15.0, colour
        for action in ("skip", "reverse", "draw2"):
            for value in range(10):
                other = views[f"{colour}-{value}"]
                assert np.abs(views[f"{colour}-{action}"] - other).mean() > 6.0
    assert np.abs(views["wild"] - views["wild-draw4"]).mean() > 15.0


def test_uno_colours_far_apart_in_hue_also_under_a_warm_lamp() -> None:
    from vision.deck_art import UNO_WHEEL
    from vision.render import Lighting

    data = {f["code"]: f["art"]["colour"] for f in uno_data()["faces"]}
    assert tuple(data[f"{c}-5"] for c in UNO_COLOURS) == UNO_WHEEL  # the wilds' wheel
    for colour in UNO_COLOURS:
        assert {data[f"{colour}-{v}"] for v in [*map(str, range(10)), "skip", "reverse",
                                                 "draw2"]} == {data[f"{colour}-5"]}
    for gains in ((1.0, 1.0, 1.0), Lighting.warm_lamp().gains_bgr, Lighting.dim().gains_bgr):
        hues = []
        for hex_colour in UNO_WHEEL:
            bgr = np.array(hex_to_bgr(hex_colour), float) * np.array(gains)
            pixel = np.clip(bgr, 0, 255).astype(np.uint8).reshape(1, 1, 3)
            hues.append(2.0 * float(cv2.cvtColor(pixel, cv2.COLOR_BGR2HSV)[0, 0, 0]))
        hues.sort()
        gaps = [b - a for a, b in zip(hues, hues[1:], strict=False)] + [hues[0] + 360 - hues[-1]]
        assert min(gaps) > 40.0, (gains, hues)


def test_uno_strips_code_every_sign_apart() -> None:
    from vision.deck_art import UNO_WORDS, uno_code, uno_sign

    signs = {a.code: uno_sign(a) for a in uno_arts()}
    for colour in UNO_COLOURS:
        own = [s for c, s in signs.items() if c.startswith(f"{colour}-")]
        assert sorted(own) == list(range(13))
    assert len({signs["wild"], signs["wild-draw4"], signs["blank"], 0, 12}) == 5
    assert len(set(UNO_WORDS)) == len(UNO_WORDS) == 16
    codes = {s: uno_code(s) for s in range(16)}
    for a in codes:
        for b in codes:
            if a < b:
                assert sum(x != y for x, y in zip(codes[a], codes[b], strict=True)) >= 2


def test_the_backs_page_mirrors_its_faces_for_a_sheet_flipped_on_its_long_edge() -> None:
    from vision.deck_sheets import print_pages

    ppm = 2.0
    faces = [np.full((176, 126, 3), 10 * i, np.uint8) for i in range(1, 5)]
    back = np.full((176, 126, 3), 200, np.uint8)
    pages = print_pages(faces, back, (63, 88), ppm)
    assert len(pages) == 4  # instructions, its blank back, the faces, their backs
    front, behind = pages[2], pages[3]
    cw, ch = 126, 176
    ox, oy = (front.shape[1] - 3 * cw) // 2, (front.shape[0] - 3 * ch) // 2
    def slot(page: np.ndarray, r: int, c: int) -> int:
        return int(page[oy + r * ch + ch // 2, ox + c * cw + cw // 2, 0])
    assert [slot(front, 0, c) for c in range(3)] == [10, 20, 30]
    assert slot(front, 1, 0) == 40 and slot(front, 1, 2) == 255
    # the backs sit behind the faces: column c of the faces is column 2 - c of the backs
    assert [slot(behind, 0, c) for c in range(3)] == [200, 200, 200]
    assert slot(behind, 1, 2) == 200 and slot(behind, 1, 0) == 255
    assert int(pages[0].min()) < 100 and int(pages[1].min()) == 255  # words, then blank


KANALOA = DECK.parent / "kanaloa.json"


def kanaloa_data() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(KANALOA.read_text(encoding="utf-8"))
    return data


def test_kanaloa_ocean_art_draws_the_spaces_of_the_deck_data() -> None:
    faces = kanaloa_data()["faces"]
    hexes = {f["attrs"]["colour"]: f["art"]["colour"] for f in faces
             if f["attrs"]["kind"] == "tiki"}
    oceans = [f for f in faces if f["attrs"]["kind"] == "ocean"]
    assert len(oceans) == 12
    for face in oceans:
        art = FaceArt.from_json(face["code"], face["art"])
        assert art.symbol == "ocean"
        printed = [(s.colour, s.dolphin, s.island) for s in art.spaces]
        data = [(hexes[s["colour"]], s["dolphin"], s["island"]) for s in face["attrs"]["spaces"]]
        assert printed == data, face["code"]


def test_kanaloa_faces_differ_both_ways_up() -> None:
    views = {f["code"]: camera_view(paint_face(FaceArt.from_json(f["code"], f["art"]),
                                               (63, 88), 4.0))
             for f in kanaloa_data()["faces"]}
    codes = list(views)
    nearest = min(
        (min(np.abs(views[a] - views[b]).mean(), np.abs(views[a] - views[b][::-1, ::-1]).mean()),
         a, b)
        for i, a in enumerate(codes) for b in codes[i + 1 :])
    assert nearest[0] > 2.0, nearest


def test_kanaloa_export(tmp_path: Path) -> None:
    data = kanaloa_data()
    arts = [FaceArt.from_json(f["code"], f["art"]) for f in data["faces"]]
    copies = {f["code"]: f["copies"] for f in data["faces"]}
    written = export_deck(arts, (63, 88), tmp_path, back_colour=data["back"]["colour"],
                          copies=copies)
    assert len(arts) == 62 and sum(copies.values()) == 65
    assert {p.name for p in written} == {f"{a.code}.png" for a in arts} | {
        "back.png", "manifest.json", "sheet.pdf"}
    pdf = (tmp_path / "sheet.pdf").read_bytes()
    boxes = re.findall(rb"/MediaBox \[ 0 0 ([\d.]+) ([\d.]+) \]", pdf)
    assert len(boxes) == 2 + 8 * 2  # instructions and its back; 65 prints, each page its backs
