"""A blob of Remi tiles all turned alike read as rows, and one that must not be."""

from __future__ import annotations

import math
from pathlib import Path

import cv2
import numpy as np

from vision import tile_blobs

TILE = (20.0, 30.0)
#: two irregular blobs of vision_bench's Remi scenes (1 px/mm; each the view's grey
#: around the blob, its outline and area, and the true tiles whose centres lie in it:
#: x, y mm in the crop and angle): `rows`, seed 1000040, a row of eight with a tile
#: touching its end from above and one its middle from below; `across`, seed 1000058, a
#: row of five with one below, and a tile laid across two of the row's tiles, turned a
#: few degrees from them, its outline within the row's
BLOBS = Path(__file__).resolve().parents[1] / "fixtures" / "vision" / "remi_blob_rows.npz"


def test_a_row_with_tiles_touching_it_is_read_as_its_tiles() -> None:
    blobs = np.load(BLOBS)
    truth = blobs["rows_truth"]
    tiles = tile_blobs.as_rows(blobs["rows_contour"].reshape(-1, 1, 2), blobs["rows_grey"],
                               1.0, TILE, float(blobs["rows_area"]))
    assert tiles is not None and len(tiles) == len(truth) == 10
    for (x, y), (ax, ay) in tiles:
        off = np.hypot(truth[:, 0] - x, truth[:, 1] - y)
        nearest = int(np.argmin(off))
        assert off[nearest] <= 2.5  # (the seams then move each tile onto its own edges)
        # the long axis as the tile's (the renderer's angle turns its long side from down)
        turned = math.degrees(math.atan2(-ax, ay)) - truth[nearest, 2]
        assert abs((turned + 90.0) % 180.0 - 90.0) <= 3.0
    # each true tile read once
    assert len({int(np.argmin(np.hypot(truth[:, 0] - x, truth[:, 1] - y)))
                for (x, y), _ in tiles}) == 10


def test_a_tile_laid_across_a_rows_seams_leaves_the_blob_to_the_fit() -> None:
    # read as rows, the blob is six tiles and the tile on top is none of them: two tiles
    # of the row would be named from patches of it. The seams it covers show on some
    # lines across the row only, so the reading does not check out.
    blobs = np.load(BLOBS)
    assert len(blobs["across_truth"]) == 7
    assert tile_blobs.as_rows(blobs["across_contour"].reshape(-1, 1, 2),
                              blobs["across_grey"], 1.0, TILE,
                              float(blobs["across_area"])) is None


def test_a_blob_of_one_tile_or_of_tiles_turned_apart_is_no_rows() -> None:
    grey = np.full((120, 120), 60, np.uint8)
    one = np.array([[20, 20], [40, 20], [42, 52], [20, 50]], np.int32).reshape(-1, 1, 2)
    assert tile_blobs.as_rows(one, grey, 1.0, TILE, 640.0) is None  # (the fit's)
    # two tiles touching, one turned 45 degrees from the other: its sides hold nearly
    # half the outline, so no one direction explains it
    upright = np.array([[10.0, 40.0], [30.0, 40.0], [30.0, 70.0], [10.0, 70.0]])
    c, s = math.cos(math.pi / 4), math.sin(math.pi / 4)
    turned = (upright - [20.0, 55.0]) @ np.array([[c, s], [-s, c]]) + [50.0, 55.0]
    blob = np.zeros_like(grey)
    for quad in (upright, turned):
        cv2.fillConvexPoly(blob, np.round(quad).astype(np.int32), 255)
    contours, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=cv2.contourArea)
    assert tile_blobs.as_rows(outline, grey, 1.0, TILE, cv2.contourArea(outline)) is None
