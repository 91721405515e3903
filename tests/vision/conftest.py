"""Synthetic table scenes for the vision tests: the mat, cards pasted on it, a camera view.

Built by hand (flat paste, one homography) so a failure points at vision, not the renderer.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.deck_art import FaceArt, paint_back, paint_face
from vision.mat import MatSpec, default_mat, render_mat

DECK = Path(__file__).resolve().parents[2] / "referee" / "decks" / "deserto.json"
SCENE_PX_PER_MM = 3.0
FRAME_SIZE = (1280, 720)
# where the mat's corners land in the 1280x720 frame: a camera a little off-centre and tilted
MAT_IN_FRAME = np.array([[150, 62], [1140, 40], [1190, 690], [100, 700]], np.float32)

Image = NDArray[np.uint8]


def deserto_faces(px_per_mm: float = 8.0) -> dict[str, Image]:
    """Every Deserto face and the back, painted from the deck data."""
    data = json.loads(DECK.read_text(encoding="utf-8"))
    faces = {f["code"]: paint_face(FaceArt.from_json(f["code"], f["art"]), (63, 88), px_per_mm)
             for f in data["faces"]}
    faces["back"] = paint_back(data["back"]["colour"], (63, 88), px_per_mm)
    return faces


@dataclass
class Scene:
    """A mat with things on it, seen by a camera; build it with add_* then call frame()."""

    mat: MatSpec = field(default_factory=default_mat)
    corners_in_frame: NDArray[np.float32] = field(default_factory=lambda: MAT_IN_FRAME.copy())
    top: Image = field(init=False)

    def __post_init__(self) -> None:
        self.top = render_mat(self.mat, SCENE_PX_PER_MM)

    def add_image(self, image: Image, center_mm: tuple[float, float], angle_deg: float,
                  size_mm: tuple[float, float], mask: NDArray[np.uint8] | None = None) -> None:
        """Paste an image of size_mm centred at center_mm, turned clockwise by angle_deg."""
        s = SCENE_PX_PER_MM
        h, w = image.shape[:2]
        scale = size_mm[0] * s / w
        m = cv2.getRotationMatrix2D((w / 2, h / 2), -angle_deg, scale)
        m[:, 2] += np.array(center_mm) * s - np.array([w / 2, h / 2])
        size = (self.top.shape[1], self.top.shape[0])
        warped = cv2.warpAffine(image, m, size, flags=cv2.INTER_AREA)
        alpha = np.full((h, w), 255, np.uint8) if mask is None else mask
        a = cv2.warpAffine(alpha, m, size, flags=cv2.INTER_LINEAR).astype(np.float32)[..., None]
        self.top = (self.top * (1 - a / 255) + warped * (a / 255)).astype(np.uint8)

    def add_card(self, face: Image, center_mm: tuple[float, float], angle_deg: float = 0.0) -> None:
        self.add_image(face, center_mm, angle_deg, (63.0, 88.0))

    def add_blob(self, colour: tuple[int, int, int], center_mm: tuple[float, float],
                 size_mm: tuple[float, float], angle_deg: float = 0.0,
                 ellipse: bool = False) -> None:
        """A plain object: a rectangle (phone, pen) or an ellipse (coin, mug, hand)."""
        w, h = round(size_mm[0] * 4), round(size_mm[1] * 4)
        img = np.zeros((h, w, 3), np.uint8)
        img[:] = colour
        mask = np.zeros((h, w), np.uint8)
        if ellipse:
            cv2.ellipse(mask, (w // 2, h // 2), (w // 2, h // 2), 0, 0, 360, 255, -1)
        else:
            mask[:] = 255
        self.add_image(img, center_mm, angle_deg, size_mm, mask)

    def mat_to_frame(self) -> NDArray[np.float64]:
        """The true homography from mat mm to frame pixels."""
        src = np.array([[0, 0], [self.mat.width_mm, 0], [self.mat.width_mm, self.mat.height_mm],
                        [0, self.mat.height_mm]], np.float32)
        h: NDArray[np.float64] = cv2.getPerspectiveTransform(src, self.corners_in_frame)
        return h

    def frame(self, background: tuple[int, int, int] = (120, 130, 140)) -> Image:
        s = np.diag([1 / SCENE_PX_PER_MM, 1 / SCENE_PX_PER_MM, 1.0])
        out: Image = cv2.warpPerspective(self.top, self.mat_to_frame() @ s, FRAME_SIZE,
                                         flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT,
                                         borderValue=background)
        return out


@pytest.fixture
def scene() -> Scene:
    """An empty mat seen by the test camera; add things, then take scene.frame()."""
    return Scene()


@pytest.fixture(scope="session")
def faces() -> dict[str, Image]:
    """The Deserto faces and the back at print resolution."""
    return deserto_faces()
