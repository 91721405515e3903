"""A deck whose special faces are framed unlike the others is enrolled all the same.

The unseen design uno-pale (vision.foreign_decks: 59 x 91 mm, coloured to a rim of the
mat's own grey) has black wilds and a black blank: laid with the yellows, they are
framed unlike the others. The table is asked once whether they are another deck's
cards, keeps them with `y!`, and is not asked again in the second pass, nor about any
face framed like one it kept. A card of
another design laid among them (uno-dark's, black-framed, at the size the camera
measures this deck) is still reported.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from firmware.enrol import BACK, EnrolSession
from referee.games import get_game
from scripts.fixtures.enrolment import Pass
from vision.foreign_decks import DESIGNS, paint_deck
from vision.mat import default_mat
from vision.render import Lighting

ROOT = Path(__file__).resolve().parents[2]
FACES = json.loads((ROOT / "referee/decks/uno.json").read_text(encoding="utf-8"))["faces"]
PALE = DESIGNS["uno-pale"]
SPECIALS = ["wild", "wild-draw4", "blank"]


def test_black_specials_are_asked_about_once_and_kept_with_y_bang(
    uno_pale_enrolment: Path
) -> None:
    session = EnrolSession(get_game("uno").deck, default_mat(), passes=2)
    events = (uno_pale_enrolment / "events.jsonl").read_text(encoding="utf-8").splitlines()
    asked: list[tuple[int, list[str], str]] = []  # (pass, layout, prompt) of each layout
    for line in events:
        image = cv2.imread(str(uno_pale_enrolment / json.loads(line)["frame"]))
        prompt = session.on_frame(image)
        if session.state != "confirm":
            continue
        assert session.layout is not None
        asked.append((session.pass_number, list(session.layout.names), prompt))
        if session.layout.problems:
            # a plain yes keeps nothing: the same question again
            assert session.answer("y") == prompt and session.state == "confirm"
            assert prompt.endswith("(y! to keep them, again once the right cards are there)")
            session.answer("y!")
        else:
            session.answer("y")
        if session.state == "done":
            break
    assert session.state == "done"

    last = [(number, prompt) for number, names, prompt in asked if names[4:7] == SPECIALS]
    assert [number for number, _ in last] == [1, 2]
    assert last[0][1].startswith("cards 5, 6 and 7 are framed unlike the others "
                                 "(cards of another deck?). crops: ")
    assert "framed" not in last[1][1]  # kept in the first pass: not asked again
    # nor any face framed like one kept (the greens laid beside the reds, say)
    assert not [prompt for number, _, prompt in asked if number == 2 and "framed" in prompt]

    enrolled = session.result()
    assert set(enrolled.views) == {*get_game("uno").deck.codes, BACK}
    assert all(len(views) == 2 for views in enrolled.views.values())


def test_a_card_of_another_design_is_still_reported() -> None:
    session = EnrolSession(get_game("uno").deck, default_mat())
    codes = session.asked()
    own = paint_deck(PALE, FACES, seed=1)
    other = paint_deck(DESIGNS["uno-dark"], FACES, seed=1)
    # at the size the camera finds this deck (inside its grey rim): not refused by size
    cards = [(other[code], (56.0, 88.0), code) if i == 3 else (own[code], PALE.card_mm, code)
             for i, code in enumerate(codes)]
    for frame in Pass(np.random.default_rng(6), Lighting.daylight(),
                      PALE.corner_radius_mm).layout_frames(cards, 2):
        prompt = session.on_frame(frame)
    assert session.state == "confirm"
    assert prompt.startswith("card 4 is framed unlike the others (a card of another deck?)")
    assert session.answer("y") == prompt and session.state == "confirm"
    assert session.answer("again") == "look again: lay out " + ", ".join(codes)
    assert session.state == "laying" and session.views == [{}]  # nothing kept
