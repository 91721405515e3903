"""A card's outline fitted to its own edges: out to its margin, never onto the cloth."""

from __future__ import annotations

import cv2
import numpy as np

from vision.card_edges import fit_outline

CARD = np.float32([[160, 120], [300, 120], [300, 340], [160, 340]])  # the card's corners
FIELD = CARD + np.float32([[12, 12], [-12, 12], [-12, -12], [12, -12]])  # inside its margin


def lab_of(photo: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(photo, cv2.COLOR_BGR2Lab).astype(np.float32)


def check_cloth() -> np.ndarray:
    ys, xs = np.mgrid[0:480, 0:480]
    bands = ((ys // 40) % 2) + ((xs // 40) % 2)
    colours = np.array([(235, 240, 238), (90, 170, 110), (50, 120, 60)], np.uint8)
    return colours[bands]


def card_on(table: np.ndarray) -> np.ndarray:
    photo = table.copy()
    cv2.fillConvexPoly(photo, CARD.astype(np.int32), (200, 200, 200))  # the card's edge
    cv2.fillConvexPoly(photo, (CARD + np.float32([[2, 2], [-2, 2], [-2, -2], [2, -2]]))
                       .astype(np.int32), (245, 245, 245))
    cv2.fillConvexPoly(photo, FIELD.astype(np.int32), (40, 160, 40))
    cv2.circle(photo, (230, 230), 62, (245, 245, 245), -1)  # the oval, nearly to the field's sides
    return np.asarray(cv2.GaussianBlur(photo, (3, 3), 0), np.uint8)


def test_a_field_box_is_pushed_out_to_the_cards_margin_not_onto_the_check() -> None:
    outline = fit_outline(lab_of(card_on(check_cloth())), FIELD, 116.0)
    assert outline is not None
    assert np.abs(outline.corners - CARD).max() < 3.0, outline.corners
    assert outline.weakest >= 0.7


def test_a_box_over_the_bare_check_finds_no_card_side() -> None:
    box = np.float32([[60, 60], [180, 60], [180, 250], [60, 250]])
    assert fit_outline(lab_of(check_cloth()), box, 120.0) is None
