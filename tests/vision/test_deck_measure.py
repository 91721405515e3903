"""The deck measured from an enrolment frame: its size, and whether its rim is darker than
the mat (a black frame on the dark mat in dim light too), as `tableref enrol` and the
benchmark both measure it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from vision.calibration import calibrate
from vision.deck_measure import FaceTally, measure_deck
from vision.enrolment import grid_places_mm
from vision.foreign_decks import DESIGNS, paint_deck
from vision.mat import default_mat, render_mat
from vision.render import CameraPose, CardPlacement, Lighting, Scene, render

MAT = default_mat()
DECKS = Path(__file__).resolve().parents[2] / "referee/decks"


def laid_frame(design: str, lighting: Lighting, seed: int = 5, cards_on: bool = True,
               codes: list[str] | None = None) -> np.ndarray:
    """Eight faces of the design laid out (its first eight, or these codes)."""
    d = DESIGNS[design]
    faces = json.loads((DECKS / f"{d.deck}.json").read_text(encoding="utf-8"))["faces"]
    painted = paint_deck(d, faces, seed=1)
    images = [painted[code] for code in codes] if codes else list(painted.values())[:8]
    rng = np.random.default_rng(seed)
    places = grid_places_mm(MAT.center_mm, len(images))
    cards = [CardPlacement(image, (x + rng.uniform(-4, 4), y + rng.uniform(-4, 4)),
                           float(rng.uniform(-5, 5)), size_mm=d.card_mm,
                           corner_radius_mm=d.corner_radius_mm)
             for image, (x, y) in zip(images, places, strict=True)]
    scene = Scene(render_mat(MAT, 2.0), MAT, 2.0, cards if cards_on else [])
    camera = CameraPose(resolution=(1280, 720), tilt_deg=12.0, yaw_deg=20.0, roll_deg=-10.0,
                        fill=0.88)
    return render(scene, camera, lighting, rng, blur_sigma=0.7).image


@pytest.mark.parametrize(("design", "lighting", "dark"), [
    ("tempus-framed", Lighting.dim(), True),  # a black frame, hardly apart from the mat
    ("uno-dark", Lighting.dim(), True),
    ("uno-classic", Lighting.daylight(), False),  # a white margin
    ("tempus-tall", Lighting(), False),  # dark paper inside a light rim: no mat
])
def test_the_size_and_the_rims_of_a_deck_are_measured(design: str, lighting: Lighting,
                                                       dark: bool) -> None:
    frame = laid_frame(design, lighting)
    measured = measure_deck(calibrate(frame, MAT), [frame])
    width, height = DESIGNS[design].card_mm
    assert abs(measured.card_mm[0] - width) < 1.2 and abs(measured.card_mm[1] - height) < 1.2
    assert measured.dark_rims is dark
    bare = laid_frame(design, lighting, cards_on=False)  # the same light, no card
    against = measure_deck(calibrate(bare, MAT), [frame], bare)
    assert against.dark_rims is dark
    assert np.abs(np.subtract(against.card_mm, measured.card_mm)).max() <= 0.3


@pytest.mark.parametrize(("design", "codes", "dark"), [
    ("uno-pale", None, False),  # pale fields and white ovals
    ("uno-pale", ["red-1", "yellow-2", "green-3", "blue-4", "wild", "red-5", "yellow-6",
                  "green-7"], True),  # a black wild among them, its rim the mat's grey
    ("uno-classic", ["red-1", "yellow-2", "green-3", "blue-4", "wild", "red-5", "yellow-6",
                     "green-7"], False),  # a black wild inside a white rim
    ("tempus-tall", None, True),  # dark paper inside a light rim
    ("tempus-framed", None, False),  # a black frame round light paper: a dark rim
])
def test_whether_the_faces_are_darker_than_the_mat_is_measured(design: str,
                                                               codes: list[str] | None,
                                                               dark: bool) -> None:
    frame = laid_frame(design, Lighting(), codes=codes)
    assert measure_deck(calibrate(frame, MAT), [frame]).dark_faces is dark


def test_the_dark_faces_of_several_layouts_add_up() -> None:
    pale = FaceTally(cards=8)
    wilds = FaceTally(cards=8, dark_middles=3, dark_rims=3)
    assert not pale.dark_faces and wilds.dark_faces and (pale + wilds).dark_faces
    assert FaceTally(cards=16, dark_middles=9).dark_faces  # dark paper: most middles
    assert not FaceTally(cards=16, dark_middles=4).dark_faces  # black wilds in a white rim
    # a deck with dark rims is looked for as such (find_cards' dark_rims)
    assert not FaceTally(cards=16, dark_rims=15).dark_faces


def test_a_frame_without_cards_measures_nothing() -> None:
    frame = render(Scene(render_mat(MAT, 2.0), MAT, 2.0), CameraPose(resolution=(1280, 720)),
                   Lighting(), np.random.default_rng(1)).image
    with pytest.raises(ValueError, match="no card"):
        measure_deck(calibrate(frame, MAT), [frame])
