"""What the end of an enrolment says of the faces: a pair only when one face is named as
the other, and a face the camera mostly leaves unknown as that (the table is asked for it),
never as a confusion with the face most like it; and nothing of a deck that play names."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from firmware.enrol import CLOSE_TRIES, CONFUSION_TRIES, confusions, named_tries
from vision.foreign_decks import DESIGNS, paint_deck

FACES = json.loads((Path(__file__).resolve().parents[2] / "referee/decks/uno.json")
                   .read_text(encoding="utf-8"))["faces"]
CODES = ("red-1", "red-2", "blue-1", "blue-2", "wild", "back")


def small(image: np.ndarray) -> np.ndarray:
    """A face at the size an enrolment cuts it from the camera's frame."""
    return np.asarray(cv2.resize(image, (114, 176), interpolation=cv2.INTER_AREA), np.uint8)


def seen(image: np.ndarray, gains: tuple[float, float, float]) -> np.ndarray:
    """A face as a 1280x720 camera over the whole mat cuts it (1 px/mm, a little soft) in
    a light of these gains (B, G, R)."""
    cut = cv2.resize(image, (59, 91), interpolation=cv2.INTER_AREA)
    lit = cv2.GaussianBlur(cut, (0, 0), 0.7).astype(np.float32) * np.array(gains, np.float32)
    return np.asarray(np.clip(lit, 0, 255), np.uint8)


class Every(list[str | None]):
    """An identifier (as the warning calls one) that names the views it is given in turn
    as these names, over and over: what play's luck does, without the luck."""

    def identify_many(self, views: list[np.ndarray]) -> list[tuple[str | None, float]]:
        return [(self[i % len(self)], 1.0) for i in range(len(views))]


def deck() -> dict[str, np.ndarray]:
    faces = paint_deck(DESIGNS["uno-classic"], FACES, seed=1)
    return {code: small(faces[code]) for code in CODES}


def test_faces_printed_alike_are_left_unknown_not_confused() -> None:
    # a "blank" printed as the wild: neither can be told from the other, so both are
    # mostly left unknown, and neither is named as the other
    faces = deck()
    found = confusions([{**faces, "blank": faces["wild"].copy()}])
    assert not found.pairs
    assert {code for code, _ in found.unsure} == {"blank", "wild"}
    assert all(share > 0.5 for _, share in found.unsure)


def test_a_face_named_as_another_is_a_pair() -> None:
    # the second pass's blue-1 is a red 1: its views are named red-1, a pair to warn about
    first = deck()
    second = {**first, "blue-1": first["red-1"].copy()}
    found = confusions([first, second])
    assert [(a, b) for a, b, _ in found.pairs] == [("blue-1", "red-1")]
    assert not found.unsure


def test_a_deck_play_names_is_not_reported_as_left_unknown() -> None:
    # uno-pale, which play names (benchmarks/vision_bench.py --unseen-decks: 8 of 566
    # cards left unknown), enrolled in daylight and under a warm lamp: its 0s, 5s and 8s
    # are not "often left unknown" (tried as an identifier is trained, 12 faces were)
    faces = paint_deck(DESIGNS["uno-pale"], FACES, seed=1)
    first = {code: seen(face, (1.0, 1.0, 1.0)) for code, face in faces.items()}
    second = {code: seen(face, (0.8, 0.95, 1.1)) for code, face in faces.items()}
    found = confusions([first, second])
    assert not found.pairs
    assert not found.unsure


def test_a_face_left_unknown_half_the_time_is_reported_on_more_tries() -> None:
    # yellow-8 of the bench's pale deck, left unknown in 8 of its 16 tries (and 5 of 8 times
    # in play), was not reported: "more than half" of so few tries is the luck of one try.
    # A face near the line is tried more, and half is reported
    face = {"yellow-8": deck()["red-1"]}
    half = named_tries([face], Every([None, "yellow-8"]))["yellow-8"]  # type: ignore[arg-type]
    assert len(half) == CLOSE_TRIES and half.count(None) == CLOSE_TRIES // 2
    found = confusions([face], Every([None, "yellow-8"]))  # type: ignore[arg-type]
    assert found.unsure == [("yellow-8", 0.5)] and not found.pairs
    # a face named on its first tries is tried no more, and not reported
    named = named_tries([face], Every(["yellow-8"]))["yellow-8"]  # type: ignore[arg-type]
    assert len(named) == CONFUSION_TRIES and None not in named
    assert not confusions([face], Every(["yellow-8"])).unsure  # type: ignore[arg-type]
