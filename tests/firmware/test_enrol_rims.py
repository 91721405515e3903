"""An enrolment measures a black-framed deck whole and records its dark rims, though
the cards' outline on the dark mat is found inside the frame."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from firmware.enrol import EnrolSession
from referee.games import get_game
from vision.enrolment import grid_places_mm
from vision.foreign_decks import DESIGNS, paint_deck
from vision.mat import default_mat, render_mat
from vision.render import CameraPose, CardPlacement, Lighting, Scene, render

MAT = default_mat()
FRAMED = DESIGNS["tempus-framed"]  # 63 x 88 mm, a 5 mm black frame
FACES = json.loads((Path(__file__).resolve().parents[2] / "referee/decks/tempus.json")
                   .read_text(encoding="utf-8"))["faces"]


def layout_frame(codes: list[str]) -> np.ndarray:
    images = paint_deck(FRAMED, FACES, seed=1)
    rng = np.random.default_rng(11)
    cards = [CardPlacement(images[code], (x + rng.uniform(-4, 4), y + rng.uniform(-4, 4)),
                           float(rng.uniform(-5, 5)), size_mm=FRAMED.card_mm, label=code,
                           corner_radius_mm=FRAMED.corner_radius_mm)
             for code, (x, y) in zip(codes, grid_places_mm(MAT.center_mm, len(codes)),
                                     strict=True)]
    camera = CameraPose(resolution=(1280, 720), tilt_deg=10.0, yaw_deg=15.0, roll_deg=-8.0,
                        fill=0.88)
    scene = Scene(render_mat(MAT, 2.0), MAT, 2.0, cards)
    return render(scene, camera, Lighting.daylight(), rng, blur_sigma=0.6).image


def test_a_framed_deck_is_measured_whole_with_dark_rims() -> None:
    session = EnrolSession(get_game("tempus").deck, MAT)
    frame = layout_frame(session.asked())
    session.on_frame(frame)
    message = session.on_frame(frame)  # still: taken
    assert session.state == "confirm", message
    assert session.dark_rims
    assert session.card_mm is not None
    width, height = FRAMED.card_mm
    assert abs(session.card_mm[0] - width) < 1.2 and abs(session.card_mm[1] - height) < 1.2
    assert session.layout is not None
    crop = session.layout.crops[0]  # cut at the whole card's size, frame and all
    assert abs(crop.shape[0] / crop.shape[1] - height / width) < 0.03
