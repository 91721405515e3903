"""An enrolment measures a black-framed deck whole and records its dark rims, though
the cards' outline on the dark mat is found inside the frame; and it records whether the
faces are darker than the mat."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from firmware.enrol import EnrolSession
from referee.games import get_game
from vision.enrolment import grid_places_mm
from vision.foreign_decks import DESIGNS, ForeignDesign, paint_deck
from vision.mat import default_mat, render_mat
from vision.render import CameraPose, CardPlacement, Lighting, Scene, render

MAT = default_mat()
FRAMED = DESIGNS["tempus-framed"]  # 63 x 88 mm, a 5 mm black frame
DECKS = Path(__file__).resolve().parents[2] / "referee/decks"


def layout_frame(codes: list[str], design: ForeignDesign = FRAMED, seed: int = 11
                 ) -> np.ndarray:
    faces = json.loads((DECKS / f"{design.deck}.json").read_text(encoding="utf-8"))["faces"]
    images = paint_deck(design, faces, seed=1)
    rng = np.random.default_rng(seed)
    cards = [CardPlacement(images[code], (x + rng.uniform(-4, 4), y + rng.uniform(-4, 4)),
                           float(rng.uniform(-5, 5)), size_mm=design.card_mm, label=code,
                           corner_radius_mm=design.corner_radius_mm)
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
    session.answer("y!")
    assert not session.dark_faces



def test_a_deck_on_dark_paper_is_measured_with_dark_faces() -> None:
    tall = DESIGNS["tempus-tall"]  # dark faces inside a light rim
    session = EnrolSession(get_game("tempus").deck, MAT)
    frame = layout_frame(session.asked(), tall)
    session.on_frame(frame)
    message = session.on_frame(frame)
    assert session.state == "confirm", message
    assert not session.dark_faces  # (counted once the table keeps the layout)
    session.answer("y!")
    assert session.dark_faces and not session.dark_rims


def test_a_layout_looked_at_again_counts_for_nothing() -> None:
    # the table answers "again" (a card of another deck among them, say): what that layout
    # showed of the deck's faces and of the pass's light is not kept; the layout taken
    # again counts once
    tall = DESIGNS["tempus-tall"]
    session = EnrolSession(get_game("tempus").deck, MAT)
    frame = layout_frame(session.asked(), tall)
    session.on_frame(frame)
    session.on_frame(frame)
    session.answer("again")
    assert session.state == "laying" and not session.dark_faces
    session.on_frame(frame)
    session.on_frame(frame)
    assert session.state == "confirm"
    session.answer("y!")
    cards = len(session.views[0])
    assert session.dark_faces and session._faces.cards == cards
