"""Reading the recorded fixtures of tests/fixtures/vision (np.savez files)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numpy.typing import NDArray

Image = NDArray[np.uint8]


def recorded_views(recorded: Mapping[str, Image]) -> dict[str, Image]:
    """The enrolled views a recorded fixture (np.load's) holds, its "view CODE" arrays, by
    code."""
    return {key.removeprefix("view "): recorded[key] for key in recorded
            if key.startswith("view ")}
