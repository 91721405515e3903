"""The outline of a dark-rimmed card on a pile, placed by its light face."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from tests.vision.recorded import recorded_views
from vision.cards import CardQuad
from vision.rim_faces import face_outline
from vision.template_identifier import TemplateIdentifier

# tracking seeds 1000003 (frame 47) and 1000005 (frame 74) of tempus-framed, dim light:
# the top card of a set on others of the deck, each unknown at the outline the fit found,
# and the table asked. "a": a violet 15 laid 3 degrees turned on a joker 11, fitted
# upright; "b": a joker 3 on four cards laid crooked, fitted a quarter turn off and 17 mm
# away. Each: the view's grey round it (1 px a mm, `origin` its top-left in the view),
# the outline found, the card as the renderer laid it (centre mm, degrees); for "a", the
# patches cut at the outline found and at its face's, the light on them, and four views
PILE_TOPS = (Path(__file__).resolve().parents[1] / "fixtures" / "vision"
             / "tempus_framed_pile_tops.npz")
CARD = (63.2, 88.3)  # as the deck's enrolment measured it


def _found(recorded: np.lib.npyio.NpzFile, key: str) -> CardQuad:
    """The outline found, in the recorded grey's pixels."""
    corners = recorded[f"{key} found"] - recorded[f"{key} origin"]
    centre = corners.mean(axis=0)
    return CardQuad.from_axes(centre, corners[3] - corners[0], CARD)


def _turned(a: float, b: float) -> float:
    """Degrees between two card angles (a card turned half a turn is the same card)."""
    return abs((a - b + 90.0) % 180.0 - 90.0)


@pytest.mark.parametrize("key", ["a", "b"])
def test_a_card_on_a_pile_of_its_deck_is_placed_by_its_face(key: str) -> None:
    recorded = np.load(PILE_TOPS)
    found = _found(recorded, key)
    x, y, angle = recorded[f"{key} truth"]
    true_centre = (x - recorded[f"{key} origin"][0], y - recorded[f"{key} origin"][1])
    # the outline found lies off the card: turned 3 degrees, or a quarter turn and 17 mm away
    assert (_turned(found.angle_deg, angle) > 2.5
            or math.dist(found.center_mm, true_centre) > 10.0)
    face = face_outline(recorded[f"{key} grey"], found, CARD, 1.0)
    assert face is not None
    assert math.dist(face.center_mm, true_centre) < 1.0
    assert _turned(face.angle_deg, angle) < 0.5
    # where the outline is the card's already, the face has nothing to add
    assert face_outline(recorded[f"{key} grey"], face, CARD, 1.0) is None


def test_the_top_card_unknown_at_the_outline_found_is_named_at_its_faces() -> None:
    recorded = np.load(PILE_TOPS)
    views = recorded_views(recorded)
    patches, lights = recorded["a patches"], recorded["a lights"]
    # (an identifier each: one would answer the same patch from its memory)
    as_found, at_face = (TemplateIdentifier.from_references(views) for _ in range(2))
    assert as_found.identify_batch(patches[:1], lights[:1])[0][0] is None
    assert at_face.identify_batch(patches[1:], lights[1:])[0][0] == "violet-15"


def test_no_face_where_nothing_light_shows_a_cards() -> None:
    quad = CardQuad.from_axes((90.0, 85.0), (0.0, 1.0), CARD)  # found 10 mm off the card
    dark = np.full((160, 160), 40, np.uint8)
    assert face_outline(dark, quad, CARD, 1.0) is None  # no contrast: no face
    face = dark.copy()
    face[43:117, 55:105] = 220  # a face 7 mm inside the card on every side
    card = face_outline(face, quad, CARD, 1.0)
    assert card is not None and math.dist(card.center_mm, (79.5, 79.5)) < 0.5
    # with a bite out of it (a corner over it) it is no card's face
    bitten = face.copy()
    bitten[43:75, 85:105] = 40
    assert face_outline(bitten, quad, CARD, 1.0) is None
    # nor a rim twice as wide on the long sides as on the short ones
    narrow = dark.copy()
    narrow[43:117, 62:98] = 220
    assert face_outline(narrow, quad, CARD, 1.0) is None
    # a light round (a glare spot, an oval) is none either
    oval = dark.copy()
    yy, xx = np.mgrid[:160, :160]
    oval[((xx - 80) / 25.0) ** 2 + ((yy - 80) / 37.0) ** 2 <= 1.0] = 220
    assert face_outline(oval, quad, CARD, 1.0) is None
