"""The second look at a tile's numeral: close faces told apart by shape where they differ and
by the ink's colour, and no face when none of them is the tile."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from vision.deck_art import FaceArt, paint_face
from vision.numeral_look import (
    NUMERAL_BOX,
    SHIFT,
    CloseFaces,
    blurred_means,
    class_means,
    colour_and_value,
    numerals,
    second_look,
)

REMI = Path(__file__).resolve().parents[2] / "referee" / "decks" / "remi.json"
TILE_MM = (20.0, 30.0)
CODES = ("red-3", "red-5", "red-8", "blue-8", "black-8", "yellow-6", "yellow-9", "joker")


def tiles() -> dict[str, np.ndarray]:
    data = json.loads(REMI.read_text(encoding="utf-8"))
    return {f["code"]: cv2.resize(paint_face(FaceArt.from_json(f["code"], f["art"]), TILE_MM),
                                  (64, 88), interpolation=cv2.INTER_AREA)
            for f in data["faces"] if f["code"] in CODES}


def seen(tile: np.ndarray, dx: int = 0, gains: tuple[float, float, float] = (1, 1, 1),
         brightness: float = 1.0, blur: float = 1.2) -> np.ndarray:
    """A tile under a light, blurred, its numeral `dx` pixels off its place."""
    lit = np.roll(tile, dx, axis=1).astype(np.float32) * np.array(gains, np.float32)
    blurred = cv2.GaussianBlur(lit * brightness, (0, 0), blur)
    return np.clip(blurred, 0, 255).astype(np.uint8)


def learnt(faces: dict[str, np.ndarray], blurs: tuple[float, ...] = (0.5, 1.0, 1.5)
           ) -> dict[str, tuple[np.ndarray, np.ndarray, str]]:
    """Each face's mean numeral and colour, learnt from a few views of it, blurred so."""
    views = [(code, seen(face, blur=b)) for code, face in faces.items() for b in blurs]
    maps, colours = numerals(np.stack([v for _, v in views]))
    order = list(faces)
    classes = np.array([order.index(code) for code, _ in views], np.intp)
    mean_maps, mean_colours = class_means(maps, colours, classes, len(order))
    return {code: (mean_maps[i], mean_colours[i], code) for i, code in enumerate(order)}


def look(patch: np.ndarray, faces: list[tuple[np.ndarray, np.ndarray, str]],
         sure: float | None = None) -> str | None:
    found = looked(patch, faces, sure)
    return None if found is None else faces[found[0]][2]


def looked(patch: np.ndarray, faces: list[tuple[np.ndarray, np.ndarray, str]],
           sure: float | None = None) -> tuple[int, float] | None:
    grown, colours = numerals(patch[None], SHIFT)
    close = CloseFaces.of(faces)
    if sure is None:
        return second_look(grown[0], colours[0], close)
    return second_look(grown[0], colours[0], close, blurred_means(close.numerals), sure)


def test_a_value_is_told_from_its_close_values_of_one_colour() -> None:
    faces = tiles()
    means = learnt(faces)
    close = [means[c] for c in ("red-3", "red-5", "red-8")]
    for code in ("red-3", "red-5", "red-8"):
        for dx in (-SHIFT, 0, SHIFT):  # the numeral a little off where the outline put it
            assert look(seen(faces[code], dx, blur=1.4), close) == code


def test_blue_is_told_from_black_in_dim_warm_light() -> None:
    faces = tiles()
    means = learnt(faces)
    close = [means[c] for c in ("blue-8", "black-8", "red-8")]
    for code in ("blue-8", "black-8", "red-8"):
        dim = seen(faces[code], gains=(0.75, 0.95, 1.2), brightness=0.4, blur=1.5)
        assert look(dim, close) == code


def test_no_face_when_the_tile_is_none_of_the_close_faces() -> None:
    faces = tiles()
    means = learnt(faces)
    close = [means[c] for c in ("red-3", "red-5", "red-8")]
    blank = np.full((88, 64, 3), (200, 225, 240), np.uint8)
    for sure in (None, 0.45):  # a second try among the blurred faces finds none either
        for other in ("yellow-6", "yellow-9", "joker", "blue-8"):
            assert look(seen(faces[other]), close, sure) is None
            assert look(seen(faces[other], blur=2.0), close, sure) is None
        assert look(blank, close, sure) is None


def test_a_tile_blurred_beyond_the_faces_views_is_told_surely_among_them_blurred() -> None:
    """Faces learnt from sharp views only; a red 5 out of focus wins against the red 3 and
    the red 8 by little among their sharp means, by much among their blurred ones."""
    faces = tiles()
    means = learnt(faces, blurs=(0.3,))
    close = [means[c] for c in ("red-3", "red-5", "red-8")]
    out_of_focus = seen(faces["red-5"], blur=2.0)
    unsure, sure = looked(out_of_focus, close), looked(out_of_focus, close, sure=0.45)
    assert unsure is not None and unsure[0] == 1 and unsure[1] > 0.45
    assert sure is not None and sure[0] == 1 and sure[1] <= 0.45


def test_a_maps_box_is_the_same_either_way_up() -> None:
    x0, y0, x1, y1 = NUMERAL_BOX
    assert (x0 + x1, y0 + y1) == (64, 88)
    assert min(x0, y0) >= SHIFT


def test_a_code_gives_its_colour_and_value() -> None:
    assert colour_and_value("blue-12") == ("blue", "12")
    assert colour_and_value("joker") == (None, "joker")
    assert colour_and_value("back") == (None, "back")

