"""Remi tiles touching in rows: each tile's outline found on its own edges, within ~1 mm."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from vision import tile_rows
from vision.calibration import calibrate
from vision.cards import CardQuad, find_cards, view_mask
from vision.deck_art import FaceArt, paint_face
from vision.tile_rows import on_seams

TILE = (20.0, 30.0)
DECK = Path(__file__).resolve().parents[2] / "referee" / "decks" / "remi.json"
#: on_seams' calls as they were before seam_kernels: the views (each cropped to 15 mm
#: around its tiles, black beyond), the outlines given and the outlines found; from
#: vision_bench's Remi scenes (seeds 1000000 to 1000019: rows with a tile left out,
#: tiles that stay) and this module's rows and blocks of two rows
RECORDED = Path(__file__).resolve().parents[1] / "fixtures" / "vision" / "remi_seams.npz"


@pytest.fixture(scope="module")
def tiles() -> list[Any]:
    faces = json.loads(DECK.read_text(encoding="utf-8"))["faces"]
    return [paint_face(FaceArt.from_json(f["code"], f["art"]), TILE, 8.0) for f in faces[:12]]


def lay_row(scene: Any, tiles: list[Any], start: tuple[float, float], angle: float,
            gaps: list[float]) -> list[CardQuad]:
    """Tiles side by side from `start` along `angle` (degrees, clockwise), `gaps` mm apart;
    their true outlines."""
    along = np.array([math.cos(math.radians(angle)), math.sin(math.radians(angle))])
    truth, offset = [], 0.0
    for tile, gap in zip(tiles, [0.0, *gaps], strict=True):
        offset += gap
        centre = np.array(start) + along * offset
        scene.add_image(tile, (float(centre[0]), float(centre[1])), angle, TILE)
        truth.append(CardQuad.from_axes(centre, (-along[1], along[0]), TILE))
        offset += TILE[0]
    return truth


def found_tiles(scene: Any) -> list[CardQuad]:
    frame = scene.frame()
    cal = calibrate(frame, scene.mat)
    cards: list[CardQuad] = find_cards(cal.warp_mat(frame, 1.0), 1.0, TILE,
                                       view_mask(cal, 1.0)).cards
    return cards


def corner_errors(found: list[CardQuad], truth: list[CardQuad]) -> list[float]:
    """Per true tile, how far the outline found nearest it is off: its corner farthest
    from the nearest true corner (mm)."""
    errors = []
    for tile in truth:
        quad = min(found, key=lambda q: math.dist(q.center_mm, tile.center_mm))
        ours, true = np.array(quad.corners_mm), np.array(tile.corners_mm)
        errors.append(float(np.linalg.norm(ours[:, None] - true[None], axis=2).min(axis=1).max()))
    return errors


#: how far a tile's outline may be off (mm): the even split and the blob's edge votes miss
#: the edges of these rows by 0.7 to 1.3 mm
OFF_MM = 0.6


def test_a_row_of_touching_tiles_is_cut_at_each_tile_s_own_edges(scene: Any,
                                                                   tiles: list[Any]) -> None:
    # eight tiles, the gaps between them (2.6 mm in all) uneven along the row
    gaps = [0.5, 0.1, 0.5, 0.4, 0.0, 0.5, 0.6]
    truth = lay_row(scene, tiles[:8], (200.0, 150.0), 0.0, gaps)
    found = found_tiles(scene)
    assert len(found) == 8
    assert max(corner_errors(found, truth)) < OFF_MM


def test_a_row_with_a_gap_in_it(scene: Any, tiles: list[Any]) -> None:
    truth = lay_row(scene, tiles[:6], (220.0, 250.0), 0.0, [0.0, 0.0, 2.0, 0.0, 0.0])
    found = found_tiles(scene)
    assert len(found) == 6
    assert max(corner_errors(found, truth)) < OFF_MM


@pytest.mark.parametrize("angle", [90.0, 27.0, -61.0])
def test_a_row_at_an_angle(scene: Any, tiles: list[Any], angle: float) -> None:
    truth = lay_row(scene, tiles[3:9], (250.0, 150.0), angle, [0.3, 0.5, 0.2, 0.4, 0.5])
    found = found_tiles(scene)
    assert len(found) == 6
    assert max(corner_errors(found, truth)) < OFF_MM


def test_a_row_with_a_tile_across_its_end(scene: Any, tiles: list[Any]) -> None:
    # the row and the tile turned across its end make one blob that is no rectangle: its
    # tiles come from the blob's edge votes, then each is moved onto its own edges
    truth = lay_row(scene, tiles[:5], (200.0, 150.0), 0.0, [0.3, 0.0, 0.4, 0.2])
    truth += lay_row(scene, tiles[9:10], (4 * 20.9 + 225.2, 145.0), 90.0, [])
    found = found_tiles(scene)
    assert len(found) == 6
    assert max(corner_errors(found, truth)) < OFF_MM


def recorded_quads(corners: Any, poses: Any) -> list[CardQuad]:
    return [CardQuad(corners_mm=tuple((float(x), float(y)) for x, y in c.reshape(4, 2)),
                     center_mm=(float(p[0]), float(p[1])), angle_deg=float(p[2]))
            for c, p in zip(corners, poses, strict=True)]


def test_the_outlines_found_are_those_recorded_to_the_bit() -> None:
    with np.load(RECORDED) as recorded:
        calls = sorted({int(name.split("_")[0]) for name in recorded.files})
        assert len(calls) == 17
        for n in calls:
            y0, x0, height, width = (int(v) for v in recorded[f"{n}_where"])
            views = []
            for kind in ("grey", "mask"):
                part = recorded[f"{n}_{kind}"]
                view = np.zeros((height, width), np.uint8)
                view[y0:y0 + part.shape[0], x0:x0 + part.shape[1]] = part
                views.append(view)
            given = recorded_quads(recorded[f"{n}_given_corners"], recorded[f"{n}_given_poses"])
            found = on_seams(views[0], float(recorded[f"{n}_px_per_mm"]), given, views[1])
            assert found == recorded_quads(recorded[f"{n}_found_corners"],
                                           recorded[f"{n}_found_poses"]), n


def test_a_lone_card_and_a_square_of_cards_keep_their_outlines() -> None:
    # nothing beside it: nothing to move; a blank view shows no edge: the cards stay
    lone = CardQuad.from_axes((100.0, 100.0), (0.0, 1.0), TILE)
    assert on_seams(np.zeros((300, 300), np.uint8), 1.0, [lone]) == [lone]
    square = [CardQuad.from_axes((100.0 + 20 * i, 100.0 + 30 * j), (0.0, 1.0), TILE)
              for j in range(2) for i in range(2)]
    assert on_seams(np.full((300, 300), 200, np.uint8), 1.0, square) == square


def tile_row(count: int) -> tuple[np.ndarray, np.ndarray, list[CardQuad]]:
    """A view of `count` tiles side by side on a dark mat (pixel centres at whole mm), its
    foreground mask, and the outlines of the row's two end tiles only."""
    grey = np.full((200, 300), 60, np.uint8)
    for i in range(count):
        grey[50:80, 100 + 21 * i:120 + 21 * i] = 210
    mask = np.where(grey > 100, 255, 0).astype(np.uint8)
    ends = [CardQuad.from_axes((109.5 + 21 * i, 64.5), (0.0, 1.0), TILE)
            for i in (0, count - 1)]
    return grey, mask, ends


def test_a_tile_missing_between_two_in_a_row_is_added_where_the_view_shows_one() -> None:
    # three tiles side by side on a dark mat, the middle one left out by the outlines
    grey, mask, ends = tile_row(3)
    found = on_seams(grey, 1.0, ends, mask)
    assert len(found) == 3
    assert math.dist(found[2].center_mm, (130.5, 64.5)) < 0.3
    # where the view between them is mat, nothing is added
    grey[50:80, 121:141] = 60
    assert len(on_seams(grey, 1.0, ends, np.where(grey > 100, 255, 0).astype(np.uint8))) == 2


def test_a_missing_tile_whose_dark_numeral_is_a_hole_in_the_foreground_is_added() -> None:
    # the middle tile's numeral is as dark as the mat: a hole in the foreground, not in
    # the tile (the hole is all the foreground lacks there)
    grey, mask, ends = tile_row(3)
    grey[60:70, 127:134] = 60
    mask[60:70, 127:134] = 0
    found = on_seams(grey, 1.0, ends, mask)
    assert len(found) == 3
    assert math.dist(found[2].center_mm, (130.5, 64.5)) < 0.3
    assert not mask[65, 130]  # (the caller's foreground is left as it was)


def test_two_tiles_missing_side_by_side_in_a_row_are_added_unless_one_lies_under_a_tile(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # four tiles side by side on a dark mat, the middle two left out by the outlines
    grey, mask, ends = tile_row(4)
    found = on_seams(grey, 1.0, ends, mask)
    assert len(found) == 4
    assert math.dist(found[2].center_mm, (130.5, 64.5)) < 0.3
    assert math.dist(found[3].center_mm, (151.5, 64.5)) < 0.3
    # a tile laid crooked across the row, over a fifth of the first gap: neither is added
    # (that one would be named from a patch of both tiles, and one alone would lie where
    # two are missing); with no limit on the overlap, both would be
    crooked = CardQuad.from_axes((128.0, 83.0), (1.0, 0.2), TILE)
    assert len(on_seams(grey, 1.0, [*ends, crooked], mask)) == 3
    monkeypatch.setattr(tile_rows, "GAP_OVERLAP", 1.0)
    assert len(on_seams(grey, 1.0, [*ends, crooked], mask)) == 5


@pytest.mark.parametrize(("angle", "lengths", "stagger"), [
    (0.0, (3, 3), 0.0),   # 60 x 60 mm: a grid of whole tiles either way up
    (3.0, (4, 4), -5.0),  # the rows a quarter tile apart along their length: no grid
    (-4.0, (4, 5), -7.5),
    (28.0, (5, 5), 8.0),
])
def test_two_rows_touching_along_their_long_sides(scene: Any, tiles: list[Any], angle: float,
                                                  lengths: tuple[int, int],
                                                  stagger: float) -> None:
    # a meld laid right under another one: each tile found on its own outline
    a = math.radians(angle)
    along, across = np.array([math.cos(a), math.sin(a)]), np.array([-math.sin(a), math.cos(a)])
    first, second = (200.0, 150.0), np.array([200.0, 150.0]) + 30.3 * across + stagger * along
    truth = lay_row(scene, tiles[:lengths[0]], first, angle, [0.3, 0.1, 0.4, 0.2][:lengths[0] - 1])
    truth += lay_row(scene, tiles[6:6 + lengths[1]], (float(second[0]), float(second[1])), angle,
                     [0.2, 0.4, 0.0, 0.3][:lengths[1] - 1])
    found = found_tiles(scene)
    assert len(found) == len(truth)
    assert max(corner_errors(found, truth)) < OFF_MM


def test_a_tile_laid_out_of_line_with_its_row_in_a_block_keeps_its_own_outline(
        scene: Any, tiles: list[Any]) -> None:
    # a tile on a tile (a row of one on a row of two) and, beside the lower one, a tile
    # laid 5 mm lower than it: the block's cut puts both of that row on one line, but the
    # one out of line lies where its own outline says
    truth = lay_row(scene, tiles[:1], (240.0, 150.0), 0.0, [])
    truth += lay_row(scene, tiles[1:2], (240.0, 180.3), 0.0, [])
    truth += lay_row(scene, tiles[2:3], (219.7, 185.3), 0.0, [])
    found = found_tiles(scene)
    assert len(found) == len(truth)
    assert max(corner_errors(found, truth)) < OFF_MM


def test_a_tile_with_no_neighbour_in_its_blob_is_moved_onto_its_own_edges() -> None:
    # a tile given 1.5 and 1 mm off its edges, and another tile that is not beside it (as
    # one laid across it would be): each is moved onto the sides the view shows
    grey = np.full((200, 300), 60, np.uint8)
    grey[50:80, 100:120] = 210
    grey[120:150, 200:220] = 210
    given = [CardQuad.from_axes((111.0, 65.5), (0.0, 1.0), TILE),
             CardQuad.from_axes((209.5, 135.5), (0.0, 1.0), TILE)]
    found = on_seams(grey, 1.0, given)
    assert math.dist(found[0].center_mm, (109.5, 64.5)) < 0.3
    assert math.dist(found[1].center_mm, (209.5, 134.5)) < 0.3


def test_an_outline_turned_a_quarter_across_a_row_s_seam_gives_way_to_the_row_s_tiles(
        ) -> None:
    # four tiles side by side; the outlines found: the two end ones, and one turned a
    # quarter across the seam between the middle two (a phantom of the edge votes)
    grey, mask, ends = tile_row(4)
    phantom = CardQuad.from_axes((141.0, 64.5), (1.0, 0.0), TILE)
    found = on_seams(grey, 1.0, [*ends, phantom], mask)
    assert len(found) == 4
    assert all(abs(q.angle_deg) < 1 for q in found)
    assert math.dist(found[2].center_mm, (130.5, 64.5)) < 0.3
    assert math.dist(found[3].center_mm, (151.5, 64.5)) < 0.3
    # a tile really laid turned in the row, 10 mm narrower than it: it stays
    grey[50:80, 121:163] = 60
    grey[55:75, 127:157] = 210
    turned = CardQuad.from_axes((141.5, 64.5), (1.0, 0.0), TILE)
    assert on_seams(grey, 1.0, [*ends, turned],
                    np.where(grey > 100, 255, 0).astype(np.uint8))[2].angle_deg == turned.angle_deg


def test_an_outline_turned_a_quarter_beside_a_row_s_end_gives_way_to_the_row_s_next_tile(
        ) -> None:
    # three tiles side by side; the outlines found: the last one, and one turned a quarter
    # over the middle one and half the first (whose far side a tile laid on it would hide)
    grey, mask, ends = tile_row(3)
    phantom = CardQuad.from_axes((127.5, 67.0), (1.0, 0.0), TILE)
    found = on_seams(grey, 1.0, [ends[1], phantom], mask)
    assert len(found) == 2
    assert all(abs(q.angle_deg) < 1 for q in found)
    assert math.dist(found[1].center_mm, (130.5, 64.5)) < OFF_MM  # (its seam on one side)
    # a tile really laid turned at the row's end, 10 mm narrower than it: it stays
    grey[50:80, 100:141] = 60
    grey[55:75, 110:140] = 210
    turned = CardQuad.from_axes((125.0, 64.5), (1.0, 0.0), TILE)
    assert on_seams(grey, 1.0, [ends[1], turned],
                    np.where(grey > 100, 255, 0).astype(np.uint8))[1].angle_deg == turned.angle_deg
