"""A table enrolls the deck it owns: photos of its faces replace our art as references."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from firmware.cli import main
from firmware.enrollment import EnrollmentError, reference_images
from referee.games import get_game
from vision.mat import default_mat, render_mat
from vision.render import CameraPose, CardPlacement, Lighting, Scene, render

FRAME = Path(__file__).resolve().parents[1] / "fixtures/deserto/four-players-dim/frames/00100.jpg"


def photograph_deck(folder: Path) -> None:
    """Each face photographed on the mat under a warm lamp, cut out upright: what a
    table does with its own deck."""
    deck = get_game("deserto").deck
    art = reference_images(deck)
    mat = default_mat()
    rng = np.random.default_rng(7)
    folder.mkdir()
    for code in deck.codes:
        card = CardPlacement(art[code], mat.center_mm, 8.0, size_mm=deck.card_mm)
        scene = Scene(render_mat(mat, 2.0), mat, 2.0, [card])
        shot = render(scene, CameraPose(tilt_deg=12.0), Lighting.warm_lamp(), rng)
        corners = shot.card_corners_px[0].astype(np.float32)
        upright = np.float32([[0, 0], [252, 0], [252, 352], [0, 352]])
        warp = cv2.getPerspectiveTransform(corners, upright)
        cv2.imwrite(str(folder / f"{code}.jpg"), cv2.warpPerspective(shot.image, warp, (252, 352)))


def test_photos_of_a_tables_own_deck_teach_the_camera(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photos = tmp_path / "my-deck"
    photograph_deck(photos)
    art = reference_images(get_game("deserto").deck)
    enrolled = reference_images(get_game("deserto").deck, photos)
    assert enrolled["vizier"].shape[:2] == (352, 252) != art["vizier"].shape[:2]
    assert enrolled["back"] is not None  # a face without a photo keeps our art

    assert main(["vision", "identify", str(FRAME), "--game", "deserto"]) == 0
    with_art = json.loads(capsys.readouterr().out)
    args = ["vision", "identify", str(FRAME), "--game", "deserto", "--deck-photos", str(photos)]
    assert main(args) == 0
    with_photos = json.loads(capsys.readouterr().out)
    named = sorted(str(card["code"]) for card in with_art if card["code"])
    assert len(named) >= 3
    assert sorted(str(card["code"]) for card in with_photos if card["code"]) == named


def test_an_unreadable_photo_is_named(tmp_path: Path) -> None:
    photos = tmp_path / "my-deck"
    photos.mkdir()
    (photos / "oasis.jpg").write_bytes(b"not a photo")
    with pytest.raises(EnrollmentError, match="oasis.jpg: not a readable photo"):
        reference_images(get_game("deserto").deck, photos)
    with pytest.raises(EnrollmentError, match="no such folder"):
        reference_images(get_game("deserto").deck, tmp_path / "nowhere")


def test_the_cli_says_which_photo_is_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    photos = tmp_path / "my-deck"
    photos.mkdir()
    (photos / "vizier.png").write_bytes(b"")
    args = ["vision", "identify", str(FRAME), "--game", "deserto", "--deck-photos", str(photos)]
    assert main(args) == 2
    [message] = capsys.readouterr().err.splitlines()
    assert message.startswith("tableref: error: ") and "vizier.png" in message
