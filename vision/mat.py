"""The table mat: a printable sheet with four ArUco tags at its corners.

The tags let the camera find the mat and map image pixels to mat millimetres
(origin at the mat's top-left corner, x to the right, y down, as printed).

    >>> mat = default_mat()
    >>> mat.width_mm, mat.height_mm
    (594.0, 420.0)
    >>> render_mat(mat, px_per_mm=1.0).shape
    (420, 594, 3)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image

from vision.mat_tiles import export_tiles

MAT_BGR = (62, 74, 60)
"""The felt colour: a dark green-grey, so white-edged cards stand out and shadows barely show."""
PLAY_CELL_MM = (63.0, 88.0)
PLAY_GAP_MM = 6.0


@dataclass(frozen=True)
class TagPlacement:
    """One ArUco tag printed on the mat: its id, centre and side length in mm."""

    tag_id: int
    center_mm: tuple[float, float]
    size_mm: float


@dataclass(frozen=True)
class MatSpec:
    """What the camera needs to know about the printed mat."""

    width_mm: float
    height_mm: float
    tags: tuple[TagPlacement, ...]
    dictionary: str = "DICT_4X4_50"

    @property
    def center_mm(self) -> tuple[float, float]:
        return (self.width_mm / 2, self.height_mm / 2)

    def to_json(self) -> dict[str, Any]:
        return {
            "width_mm": self.width_mm,
            "height_mm": self.height_mm,
            "dictionary": self.dictionary,
            "tags": [
                {"id": t.tag_id, "center_mm": list(t.center_mm), "size_mm": t.size_mm}
                for t in self.tags
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> MatSpec:
        """Read a mat.json; raises KeyError/TypeError/ValueError on a malformed one."""
        return cls(
            width_mm=float(data["width_mm"]),
            height_mm=float(data["height_mm"]),
            dictionary=str(data.get("dictionary", "DICT_4X4_50")),
            tags=tuple(
                TagPlacement(
                    tag_id=int(t["id"]),
                    center_mm=(float(t["center_mm"][0]), float(t["center_mm"][1])),
                    size_mm=float(t["size_mm"]),
                )
                for t in data["tags"]
            ),
        )


def default_mat() -> MatSpec:
    """An A2 landscape mat (594 x 420 mm) with 50 mm tags 40 mm in from each corner."""
    w, h, size, inset = 594.0, 420.0, 50.0, 40.0
    corners = [(inset, inset), (w - inset, inset), (w - inset, h - inset), (inset, h - inset)]
    return MatSpec(
        width_mm=w,
        height_mm=h,
        tags=tuple(TagPlacement(i, c, size) for i, c in enumerate(corners)),
    )


def aruco_dictionary(spec: MatSpec) -> cv2.aruco.Dictionary:
    """The ArUco dictionary the mat's tags come from."""
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, spec.dictionary))


def tag_quiet_zone_mm(tag: TagPlacement) -> float:
    """The side of the white square printed around a tag: 20 % of the tag clear on each side."""
    return tag.size_mm * 1.4


def play_cells_mm(spec: MatSpec) -> list[tuple[float, float, float, float]]:
    """The four card cells (x0, y0, x1, y1 in mm) of the 2x2 play square at the mat centre."""
    (cw, ch), g = PLAY_CELL_MM, PLAY_GAP_MM
    cx, cy = spec.center_mm
    x0, y0 = cx - cw - g / 2, cy - ch - g / 2
    return [
        (x0 + c * (cw + g), y0 + r * (ch + g), x0 + c * (cw + g) + cw, y0 + r * (ch + g) + ch)
        for r in range(2)
        for c in range(2)
    ]


def render_mat(spec: MatSpec, px_per_mm: float) -> NDArray[np.uint8]:
    """The mat as printed (BGR): felt-like dark green-grey, white-framed tags, play square."""
    w, h = round(spec.width_mm * px_per_mm), round(spec.height_mm * px_per_mm)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32) / np.float32(px_per_mm)
    # a fine deterministic weave, a few grey levels deep, so the print looks like cloth
    weave = 3.0 * np.sin(xs * 2.1) * np.sin(ys * 1.9) + 2.0 * np.sin((xs + ys) * 0.7)
    felt = np.array(MAT_BGR, np.float32) + weave[:, :, None]
    img: NDArray[np.uint8] = np.clip(felt, 0, 255).astype(np.uint8)
    line = (96, 110, 94)
    thick = max(1, round(0.6 * px_per_mm))
    for x0, y0, x1, y1 in play_cells_mm(spec):
        p0 = (round(x0 * px_per_mm), round(y0 * px_per_mm))
        p1 = (round(x1 * px_per_mm), round(y1 * px_per_mm))
        cv2.rectangle(img, p0, p1, line, thick, cv2.LINE_AA)
    _label_cells(img, spec, px_per_mm, line)
    _mark_first_seat(img, spec, px_per_mm, line)
    dictionary = aruco_dictionary(spec)
    for tag in spec.tags:
        zone = tag_quiet_zone_mm(tag)
        zx0 = round((tag.center_mm[0] - zone / 2) * px_per_mm)
        zy0 = round((tag.center_mm[1] - zone / 2) * px_per_mm)
        zs = round(zone * px_per_mm)
        img[zy0 : zy0 + zs, zx0 : zx0 + zs] = 255
        side = round(tag.size_mm * px_per_mm)
        marker = cv2.aruco.generateImageMarker(dictionary, tag.tag_id, side, borderBits=1)
        tx0 = round((tag.center_mm[0] - tag.size_mm / 2) * px_per_mm)
        ty0 = round((tag.center_mm[1] - tag.size_mm / 2) * px_per_mm)
        img[ty0 : ty0 + side, tx0 : tx0 + side] = marker[:, :, None]
    return img


#: The cells as the page names them, in the order of `play_cells_mm`.
CELL_LABELS = ("NW", "NE", "SW", "SE")


def _text(img: NDArray[np.uint8], text: str, centre_mm: tuple[float, float],
          height_mm: float, px_per_mm: float, colour: tuple[int, int, int]) -> None:
    """`text` centred on a point of the mat, capitals `height_mm` tall (Hershey, ASCII)."""
    font = cv2.FONT_HERSHEY_SIMPLEX
    scale = height_mm * px_per_mm / 22.0  # the font's capitals are ~22 px at scale 1
    thick = max(1, round(scale * 2))
    (w, h), _ = cv2.getTextSize(text, font, scale, thick)
    x = round(centre_mm[0] * px_per_mm - w / 2)
    y = round(centre_mm[1] * px_per_mm + h / 2)
    cv2.putText(img, text, (x, y), font, scale, colour, thick, cv2.LINE_AA)


def _label_cells(img: NDArray[np.uint8], spec: MatSpec, px_per_mm: float,
                 colour: tuple[int, int, int]) -> None:
    """NW, NE, SW, SE in each play cell, faint (a card covers it), as the page says them."""
    for label, (x0, y0, x1, y1) in zip(CELL_LABELS, play_cells_mm(spec), strict=True):
        _text(img, label, ((x0 + x1) / 2, (y0 + y1) / 2), 12.0, px_per_mm, colour)


def _mark_first_seat(img: NDArray[np.uint8], spec: MatSpec, px_per_mm: float,
                     colour: tuple[int, int, int]) -> None:
    """Where seat 1 sits (the bottom edge, as `Tempus.seat_facing` has it) and the way
    the others follow."""
    x = spec.width_mm / 2
    _text(img, "SEAT 1", (x, spec.height_mm - 30.0), 9.0, px_per_mm, colour)
    _text(img, "then 2, 3, ... clockwise", (x, spec.height_mm - 16.0), 5.0, px_per_mm, colour)


def export_mat(spec: MatSpec, out_dir: Path, paper: str = "a2",
               px_per_mm: float = 150 / 25.4) -> list[Path]:
    """Write mat.png, a true-size mat.pdf (one A2 sheet, or `paper="a4"`: tiled on A4
    sheets, vision/mat_tiles.py) and mat.json into out_dir; returns the paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    img = render_mat(spec, px_per_mm)
    png, pdf, meta = out_dir / "mat.png", out_dir / "mat.pdf", out_dir / "mat.json"
    cv2.imwrite(str(png), img)
    meta.write_text(json.dumps(spec.to_json(), indent=2) + "\n", encoding="utf-8")
    if paper == "a4":
        cells = play_cells_mm(spec)
        square = (min(c[0] for c in cells) - PLAY_GAP_MM, min(c[1] for c in cells) - PLAY_GAP_MM,
                  max(c[2] for c in cells) + PLAY_GAP_MM, max(c[3] for c in cells) + PLAY_GAP_MM)
        return [png, meta, *export_tiles(img, px_per_mm, out_dir, [square])]
    if paper != "a2":
        raise ValueError(f"paper must be a2 or a4, not {paper!r}")
    Image.fromarray(cv2.cvtColor(img, cv2.COLOR_BGR2RGB)).save(
        pdf, "PDF", resolution=px_per_mm * 25.4
    )
    return [png, pdf, meta]
