"""What a table reader gives the tracker and the pipeline, without a camera: the fields
they use of `vision.table_reader.TableReading`, for tests that script what is seen."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

#: The mat's centre, mm from its top-left corner (an A2 mat).
CENTRE = (297.0, 210.0)


@dataclass
class Card:
    code: str | None
    table_mm: tuple[float, float] | None
    corners_px: list[list[float]] | None = None  # how it lies in the picture, when it matters


@dataclass
class Clutter:
    area_mm2: float
    at_edge: bool
    center_mm: tuple[float, float]


@dataclass
class Reading:
    cards: list[Card]
    obstructed: bool = False
    thumbnail: np.ndarray = field(default_factory=lambda: np.full((30, 40), 100, np.uint8))
    clutter: list[Clutter] = field(default_factory=list)
