"""The table mat: a printable sheet with four ArUco tags at its corners.

The tags let the camera find the mat and map image pixels to mat millimetres
(origin at the mat's top-left corner, x to the right, y down, as printed).

    >>> mat = default_mat()
    >>> mat.width_mm, mat.height_mm
    (594.0, 420.0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


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
