"""Identification: every face under camera-like changes, and an explicit unknown otherwise."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from vision import identify
from vision.deck_art import FaceArt, paint_back, paint_face
from vision.identify import CardIdentifier, align, augment, confidence, describe
from vision.identify_kernels import description_rows, edge_profiles, project, resize_area


@pytest.fixture(scope="module")
def identifier(faces: Any) -> CardIdentifier:
    return CardIdentifier.from_references(faces, np.random.default_rng(0))


def camera_view(face: np.ndarray, gains: tuple[float, float, float] = (1, 1, 1),
                brightness: float = 1.0, blur: float = 0.0, turned: bool = False) -> np.ndarray:
    patch = cv2.resize(face, (64, 88), interpolation=cv2.INTER_AREA).astype(np.float32)
    patch = patch * np.array(gains, np.float32) * brightness
    if blur:
        patch = cv2.GaussianBlur(patch, (0, 0), blur)
    out = np.clip(patch, 0, 255).astype(np.uint8)
    return out[::-1, ::-1].copy() if turned else out


CONDITIONS = {
    "plain": {},
    "turned": {"turned": True},
    "warm": {"gains": (0.7, 0.95, 1.25)},
    "cool": {"gains": (1.25, 1.0, 0.8)},
    "dark": {"brightness": 0.4},
    "bright": {"brightness": 1.3},
    "blurred": {"blur": 2.0},
    "turned, warm, dark, blurred": {"turned": True, "gains": (0.75, 0.95, 1.2),
                                    "brightness": 0.5, "blur": 1.5},
}


@pytest.mark.parametrize("condition", list(CONDITIONS))
def test_each_face_is_recognised(identifier: CardIdentifier, faces: Any, condition: str) -> None:
    for code, face in faces.items():
        got, conf = identifier.identify(camera_view(face, **CONDITIONS[condition]))
        assert got == code, (condition, code, got, conf)
        assert conf >= identifier.threshold


def test_blank_and_random_patches_are_unknown(identifier: CardIdentifier) -> None:
    rng = np.random.default_rng(7)
    assert identifier.identify(np.full((88, 64, 3), 250, np.uint8)) == (None, 0.0)
    for _ in range(200):
        noise = rng.integers(0, 256, (88, 64, 3), dtype=np.uint8)
        shapes = np.full((88, 64, 3), rng.integers(0, 256, 3), np.uint8)
        for _ in range(4):
            cv2.circle(shapes, (int(rng.integers(0, 64)), int(rng.integers(0, 88))),
                       int(rng.integers(4, 30)), rng.integers(0, 256, 3).tolist(), -1)
        for patch in (noise, shapes):
            code, conf = identifier.identify(patch)
            assert code is None
            assert not identifier.is_card_like(patch)
            assert 0.0 <= conf < identifier.threshold


def test_grey_patches_and_batches(identifier: CardIdentifier, faces: Any) -> None:
    views = [camera_view(f) for f in faces.values()]
    assert [c for c, _ in identifier.identify_many(views)] == list(faces)
    assert identifier.identify_many([]) == []
    grey = cv2.cvtColor(views[0], cv2.COLOR_BGR2GRAY)
    assert identifier.identify(grey)[1] >= 0.0  # a grey patch is accepted, not an error


def test_learning_is_deterministic_for_a_seed(faces: Any) -> None:
    a = CardIdentifier.from_references(faces, np.random.default_rng(3), views=4)
    b = CardIdentifier.from_references(faces, np.random.default_rng(3), views=4)
    for learnt in ("projection", "centres", "templates"):
        assert np.array_equal(getattr(a, learnt), getattr(b, learnt)), learnt
    description = 12 * 16 * 3 + 6 * 8 * 2 + 28 * 32
    assert a.templates.shape == (5 * 2, description)  # 5 faces, each both ways up
    assert a.projection.shape[0] == description
    with pytest.raises(ValueError):
        CardIdentifier.from_references({}, np.random.default_rng(0))


def test_description_ignores_a_colour_cast_and_brightness(faces: Any) -> None:
    base = camera_view(faces["oasis"])
    cast = camera_view(faces["oasis"], gains=(0.7, 1.0, 1.3), brightness=0.6)
    a, b = describe([base])[0], describe([cast])[0]
    assert float(a @ b) / float(np.linalg.norm(a) * np.linalg.norm(b)) > 0.97
    assert float(np.linalg.norm(a)) <= 1.0 + 1e-5


def test_confidence_needs_similarity_nearness_and_a_lead() -> None:
    assert confidence(0.9, 1.0, 0.05) == 1.0
    assert confidence(0.9, 1.0, 0.79) < 0.1  # as near to another face
    assert confidence(0.4, 70.0, 0.05) == 0.0  # far from every face and not much alike
    assert confidence(0.9, 70.0, 0.05) == 1.0  # far in the learnt space, but much alike
    assert confidence(-0.1, 1.0, 0.05) == 0.0  # not like the face's views at all


def test_augment_keeps_the_shape(faces: Any) -> None:
    patch = camera_view(faces["vizier"])
    out = augment(patch, np.random.default_rng(1))
    assert out.shape == patch.shape and out.dtype == np.uint8


def test_a_playing_card_is_learnt_as_without_its_size(faces: Any) -> None:
    """Only cards narrower than SMALL_CARD_MM (tiles) are learnt otherwise: a deck of
    playing cards keeps the identifier (and figures) it had."""
    a = CardIdentifier.from_references(faces, np.random.default_rng(3), views=4)
    b = CardIdentifier.from_references(faces, np.random.default_rng(3), views=4,
                                       card_mm=(63.0, 88.0))
    for learnt in ("projection", "centres", "templates"):
        assert np.array_equal(getattr(a, learnt), getattr(b, learnt)), learnt
    assert len(a.numerals) == len(b.numerals) == 0  # no second look at a numeral


REMI = Path(__file__).resolve().parents[2] / "referee" / "decks" / "remi.json"
TILE_MM = (20.0, 30.0)


def tile_seen(face: np.ndarray, px_per_mm: float, rng: np.random.Generator) -> np.ndarray:
    """A tile across few camera pixels (px_per_mm) under a warm lamp, blurred, noisy,
    JPEG-compressed, and cut from that frame at the patch size."""
    w, h = round(TILE_MM[0] * px_per_mm), round(TILE_MM[1] * px_per_mm)
    small = cv2.resize(face, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32)
    small = cv2.GaussianBlur(small, (0, 0), 1.0) * np.array((0.75, 0.95, 1.2), np.float32) * 0.9
    small += rng.normal(0.0, 2.0, small.shape).astype(np.float32)
    _, data = cv2.imencode(".jpg", np.clip(small, 0, 255).astype(np.uint8),
                           [cv2.IMWRITE_JPEG_QUALITY, 70])
    return cv2.resize(cv2.imdecode(data, cv2.IMREAD_COLOR), (64, 88),
                      interpolation=cv2.INTER_LINEAR)


def test_tiles_seen_across_few_pixels_are_named_more_and_never_wrong() -> None:
    """A 3, a 5 and an 8 of a colour, blue and black, from 30 to 40 camera pixels across:
    the identifier told the tile's size names more of them than one that is not, and
    names none wrong."""
    data = json.loads(REMI.read_text(encoding="utf-8"))
    wanted = {f"red-{n}" for n in range(1, 14)} | {f"{colour}-{n}" for colour in ("blue", "black")
                                                     for n in (3, 5, 8)}
    tiles = {f["code"]: paint_face(FaceArt.from_json(f["code"], f["art"]), TILE_MM)
             for f in data["faces"] if f["code"] in wanted}
    named: dict[tuple[float, float] | None, int] = {}
    for size in (None, TILE_MM):
        ident = CardIdentifier.from_references(tiles, np.random.default_rng(0), card_mm=size)
        rng = np.random.default_rng(3)
        views = [(code, tile_seen(face, px_per_mm, rng)) for px_per_mm in (1.5, 2.0)
                 for _ in range(3) for code, face in tiles.items()]
        got = [(code, ident.identify(view)[0]) for code, view in views]
        assert not [(code, g) for code, g in got if g not in (code, None)], size
        named[size] = sum(code == g for code, g in got)
    assert named[TILE_MM] > named[None] and named[TILE_MM] >= 0.95 * 6 * len(tiles)


def test_the_focus_maps_kept_name_as_those_worked_out_afresh(monkeypatch: Any) -> None:
    """The second look's focus maps are kept per pair of classes (either way round), never
    more than FOCUS_MAPS_KEPT; kept or worked out again, the names and confidences are
    the same."""
    data = json.loads(REMI.read_text(encoding="utf-8"))
    wanted = {f"{colour}-{n}" for colour in ("red", "blue", "black") for n in (3, 5, 6, 8, 9)}
    tiles = {f["code"]: paint_face(FaceArt.from_json(f["code"], f["art"]), TILE_MM)
             for f in data["faces"] if f["code"] in wanted}
    ident = CardIdentifier.from_references(tiles, np.random.default_rng(0), card_mm=TILE_MM)
    rng = np.random.default_rng(5)
    views = np.stack([tile_seen(face, px_per_mm, rng) for px_per_mm in (1.2, 1.5)
                      for face in tiles.values() for _ in range(3)])
    ident.identify_batch(views)
    kept = ident.identify_batch(views)  # every focus map taken from those kept
    assert len(ident.focus_maps) > 2 and all(a < b for a, b, _ in ident.focus_maps)
    monkeypatch.setattr(identify, "FOCUS_MAPS_KEPT", 1)
    fresh = dataclasses.replace(ident)  # none kept yet, and at most one from now on
    again = fresh.identify_batch(views)
    assert len(fresh.focus_maps) == 1
    assert [code for code, _ in again] == [code for code, _ in kept]
    assert [conf for _, conf in again] == [conf for _, conf in kept]


# -- Professor Tempus: 65 faces, 25 values in two colours, jokers, series ----------------

TEMPUS = Path(__file__).resolve().parents[2] / "referee" / "decks" / "tempus.json"
WARM = {"gains": (0.75, 0.95, 1.2), "brightness": 0.95, "blur": 1.0, "noise": 2.0, "jpeg": 75}
DIM = {"gains": (0.9, 0.97, 1.05), "brightness": 0.45, "blur": 0.8, "noise": 4.0, "jpeg": 70}


@pytest.fixture(scope="module")
def tempus_faces() -> dict[str, np.ndarray]:
    data = json.loads(TEMPUS.read_text(encoding="utf-8"))
    faces = {f["code"]: paint_face(FaceArt.from_json(f["code"], f["art"]), (63, 88))
             for f in data["faces"]}
    faces["back"] = paint_back(data["back"]["colour"], (63, 88))
    return faces


@pytest.fixture(scope="module")
def tempus(tempus_faces: dict[str, np.ndarray]) -> CardIdentifier:
    return CardIdentifier.from_references(tempus_faces, np.random.default_rng(11))


def table_view(face: np.ndarray, angle: float, rng: np.random.Generator,
               gains: tuple[float, float, float] = (1, 1, 1), brightness: float = 1.0,
               blur: float = 0.0, noise: float = 0.0, jpeg: int = 0) -> np.ndarray:
    """The card lying on a table turned `angle` degrees clockwise, seen at 2 px/mm under a
    light, blurred, noisy and JPEG-compressed, then cut out as the reader does: an upright
    64x88 patch whose long axis points down the image (so either way up)."""
    s, size = 2.0, 260
    card = cv2.resize(face, (round(63 * s), round(88 * s)), interpolation=cv2.INTER_AREA)
    h, w = card.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), -angle, 1.0)
    m[:, 2] += np.array([size / 2 - w / 2, size / 2 - h / 2])
    table = np.full((size, size, 3), (95, 120, 100), np.float32)
    warped = cv2.warpAffine(card, m, (size, size)).astype(np.float32)
    alpha = cv2.warpAffine(np.ones((h, w), np.float32), m, (size, size))[..., None]
    img = table * (1 - alpha) + warped * alpha
    img = img * np.array(gains, np.float32) * brightness
    if blur:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    img += rng.normal(0, noise, img.shape) if noise else 0
    out = np.clip(img, 0, 255).astype(np.uint8)
    if jpeg:
        out = cv2.imdecode(cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, jpeg])[1],
                           cv2.IMREAD_COLOR)
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    corners = corners @ m[:, :2].T + m[:, 2]
    down = corners[3] - corners[0]
    if down[1] < -1e-6 or (abs(down[1]) <= 1e-6 and down[0] < 0):
        corners = corners[[2, 3, 0, 1]]
    dst = np.array([[0, 0], [64, 0], [64, 88], [0, 88]], np.float32) - 0.5
    t = cv2.getPerspectiveTransform(corners.astype(np.float32), dst)
    return cv2.warpPerspective(out, t, (64, 88), flags=cv2.INTER_LINEAR)


@pytest.mark.parametrize("light", ["warm", "dim"])
def test_every_tempus_face_at_any_angle_is_its_own_code(
        tempus: CardIdentifier, tempus_faces: dict[str, np.ndarray], light: str) -> None:
    rng = np.random.default_rng(2024 if light == "warm" else 2025)
    conditions = WARM if light == "warm" else DIM
    wrong = []
    for code, face in tempus_faces.items():
        for angle in (0.0, 90.0, 180.0, 270.0, float(rng.uniform(0, 360))):
            got, conf = tempus.identify(table_view(face, angle, rng, **conditions))
            if got != code:
                wrong.append((code, angle, got, conf))
    assert not wrong


def test_red_and_violet_of_a_value_are_never_confused(
        tempus: CardIdentifier, tempus_faces: dict[str, np.ndarray]) -> None:
    rng = np.random.default_rng(31)
    casts = [(0.65, 0.9, 1.3), (0.75, 0.95, 1.2), (1.2, 1.0, 0.85)]
    for value in range(1, 26):
        for colour, other in (("red", "violet"), ("violet", "red")):
            for gains in casts:
                patch = table_view(tempus_faces[f"{colour}-{value}"], float(rng.uniform(0, 360)),
                                   rng, gains=gains, blur=1.0, noise=2.0, jpeg=80)
                got, _ = tempus.identify(patch)
                assert got != f"{other}-{value}"
                assert got == f"{colour}-{value}", (colour, value, gains, got)


@pytest.mark.parametrize(("a", "b"), [(6, 9), (16, 19), (18, 13), (1, 7), (21, 12)])
def test_values_alike_upside_down_stay_apart(
        tempus: CardIdentifier, tempus_faces: dict[str, np.ndarray], a: int, b: int) -> None:
    rng = np.random.default_rng(41)
    for colour in ("red", "violet"):
        for value in (a, b):
            for angle in (180.0, 0.0):
                code = f"{colour}-{value}"
                patch = table_view(tempus_faces[code], angle, rng, blur=1.2, noise=2.0, jpeg=75)
                assert tempus.identify(patch)[0] == code


def test_series_faces_and_jokers_are_their_own(
        tempus: CardIdentifier, tempus_faces: dict[str, np.ndarray]) -> None:
    rng = np.random.default_rng(51)
    codes = ["series-plus", "series-minus", "back"] + [f"joker-{v}" for v in range(1, 26, 2)]
    for code in codes:
        for angle in (0.0, 180.0, float(rng.uniform(0, 360))):
            patch = table_view(tempus_faces[code], angle, rng, **WARM)
            assert tempus.identify(patch)[0] == code


def test_non_card_patches_are_unknown_to_tempus(tempus: CardIdentifier) -> None:
    rng = np.random.default_rng(61)
    assert tempus.identify(np.full((88, 64, 3), 250, np.uint8))[0] is None
    for _ in range(150):
        noise = rng.integers(0, 256, (88, 64, 3), dtype=np.uint8)
        shapes = np.full((88, 64, 3), rng.integers(0, 256, 3), np.uint8)
        for _ in range(4):
            cv2.circle(shapes, (int(rng.integers(0, 64)), int(rng.integers(0, 88))),
                       int(rng.integers(4, 30)), rng.integers(0, 256, 3).tolist(), -1)
        for patch in (noise, shapes):
            assert tempus.identify(patch)[0] is None
            assert not tempus.is_card_like(patch)


def test_a_patch_cut_a_few_millimetres_off_the_card_is_still_read(
        tempus: CardIdentifier, tempus_faces: dict[str, np.ndarray]) -> None:
    patch = table_view(tempus_faces["violet-18"], 0.0, np.random.default_rng(71))
    for dx, dy in ((4, 0), (0, -4), (-3, 3)):
        moved = cv2.warpAffine(patch, np.array([[1.0, 0, dx], [0, 1.0, dy]]), (64, 88),
                               borderMode=cv2.BORDER_REPLICATE)
        assert tempus.identify(moved)[0] == "violet-18"
    assert align([patch], tempus.layout)[0].shape == patch.shape


# -- the compiled loops and the batches give what one patch at a time with OpenCV gave ----


def test_projection_sums_as_einsum_did() -> None:
    rng = np.random.default_rng(81)
    for n, dim, k in ((10, 1568, 131), (1, 7, 3), (3, 1571, 9)):
        rows = rng.normal(0, 0.05, (n, dim)).astype(np.float32)
        projection = rng.normal(0, 1, (dim, k)).astype(np.float32)
        got = project(rows, projection)
        assert np.array_equal(got, np.einsum("pd,dk->pk", rows, projection))
        exact = rows.astype(np.float64) @ projection.astype(np.float64)
        assert np.allclose(got, exact, rtol=0, atol=1e-4)


def test_edge_profiles_are_opencvs_gradients_normalised_by_numpy() -> None:
    rng = np.random.default_rng(82)
    greys = rng.integers(0, 256, (6, 88, 64), dtype=np.uint8)
    greys[0] = 77  # no edges at all
    cols, rows = edge_profiles(greys)
    for grey, col, row in zip(greys, cols, rows, strict=True):
        for got, axis, diff in ((col, 0, cv2.absdiff(grey[:, 1:], grey[:, :-1])),
                                (row, 1, cv2.absdiff(grey[1:], grey[:-1]))):
            want = cv2.reduce(diff, axis, cv2.REDUCE_SUM, dtype=cv2.CV_32F).reshape(1, -1)
            want -= want.mean(axis=1, keepdims=True)
            want /= np.linalg.norm(want, axis=1, keepdims=True) + 1e-6
            assert np.array_equal(got, want[0])


def test_description_rows_are_numpys_steps_bit_for_bit() -> None:
    rng = np.random.default_rng(84)
    n = 7
    small = rng.integers(0, 256, (n, 16, 12, 3)).astype(np.float32)
    hue = rng.normal(0, 0.4, (n, 8, 6, 2)).astype(np.float32)
    detail = rng.integers(0, 256, (n, 32, 28)).astype(np.float32)
    small[0], hue[1] = 0, 0  # a black thumbnail, a grey patch without hue
    weights, floors = np.sqrt([0.2, 0.2, 0.6]), np.array([1e-6, 1.0, 1e-6])
    got = description_rows(small, hue, detail, weights, floors)
    balanced = small / (small.mean(axis=(1, 2), keepdims=True) + 1.0)
    centred = hue - hue.mean(axis=(1, 2), keepdims=True)
    parts = []
    for part, weight, floor, centre in zip((balanced, centred, detail), weights, floors,
                                           (True, False, True), strict=True):
        flat = part.reshape(n, -1)
        if centre:
            flat = flat - flat.mean(axis=1, keepdims=True)
        length = np.linalg.norm(flat, axis=1, keepdims=True) + float(floor)  # in float32
        parts.append(flat * (weight / length))  # in float64
    assert np.array_equal(got, np.concatenate(parts, axis=1).astype(np.float32))


def test_area_thumbnails_are_opencvs_bit_for_bit() -> None:
    rng = np.random.default_rng(85)

    def opencv(patches: np.ndarray, size: tuple[int, int]) -> np.ndarray:
        n, h, w = patches.shape[:3]
        stack = patches.reshape((n * h, w) + patches.shape[3:])
        out = cv2.resize(stack, (size[0], n * size[1]), interpolation=cv2.INTER_AREA)
        return np.asarray(out).reshape((n, size[1], size[0]) + patches.shape[3:])

    thumbnails = [rng.integers(0, 256, (28, 88, 64, 3), dtype=np.uint8) for _ in range(10)]
    ys, xs = np.mgrid[0:88, 0:64]
    smooth = np.empty((28, 88, 64, 3), np.uint8)
    for i in range(28):  # gradients, flat patches and steps: sums on the rounding edges
        a, b = rng.uniform(-4, 4, 2)
        ramp = (a * xs + b * ys)[..., None] + rng.uniform(0, 255, 3)
        level = np.where(((xs > rng.integers(64)) ^ (ys > rng.integers(88)))[..., None],
                         *rng.integers(0, 256, 2))
        smooth[i] = np.clip(np.rint([ramp, level + np.zeros(3), ramp * 0 + i * 9][i % 3]),
                            0, 255)
    thumbnails += [smooth, thumbnails[0][:1], thumbnails[1][:5]]
    for patches in thumbnails:
        assert np.array_equal(resize_area(patches, (12, 16)), opencv(patches, (12, 16)))
    for shape, size in (((9, 88, 64), (12, 16)), ((9, 120, 80, 3), (12, 16)),
                        ((9, 88, 64, 4), (7, 9)), ((9, 31, 29, 2), (5, 7)),
                        ((9, 88, 64, 3), (63, 87)), ((9, 64, 56), (20, 24))):
        patches = rng.integers(0, 256, shape, dtype=np.uint8)
        assert np.array_equal(resize_area(patches, size), opencv(patches, size))
    assert resize_area(thumbnails[0][:0], (12, 16)).shape == (0, 16, 12, 3)
    for shape, size in (((3, 64, 56), (28, 32)),  # a whole factor: OpenCV's fast area path
                        ((1, 420, 594, 3), (74, 52)),  # a top-down view for the mat's light
                        ((2, 20, 30, 3), (45, 30))):  # enlarged: OpenCV's own again
        patches = rng.integers(0, 256, shape, dtype=np.uint8)
        assert np.array_equal(resize_area(patches, size), opencv(patches, size))


def test_a_batch_reads_as_its_patches_one_at_a_time(tempus: CardIdentifier,
                                                    tempus_faces: dict[str, np.ndarray]) -> None:
    rng = np.random.default_rng(83)
    patches = [table_view(face, float(rng.uniform(0, 360)), rng, **WARM)
               for face in list(tempus_faces.values())[:12]]
    patches.append(rng.integers(0, 256, (88, 64, 3), dtype=np.uint8))
    patches.append(cv2.resize(patches[0], (50, 70)))  # resized to the patch size first
    assert np.array_equal(describe(patches), np.concatenate([describe([p]) for p in patches]))
    assert tempus.identify_many(patches) == [tempus.identify(p) for p in patches]
    m = 7
    for patch, moved in zip(patches, align(patches, tempus.layout), strict=True):
        one = align([patch], tempus.layout)[0]
        assert np.array_equal(moved, one)
        prepared = cv2.resize(patch, (64, 88), interpolation=cv2.INTER_AREA)
        padded = cv2.copyMakeBorder(prepared, m, m, m, m, cv2.BORDER_REPLICATE)
        assert any(np.array_equal(moved, padded[m + dy : m + dy + 88, m + dx : m + dx + 64])
                   for dy in range(-m, m + 1) for dx in range(-m, m + 1))


def test_a_face_is_learnt_from_several_views(faces: Any) -> None:
    """A profile keeps several views of a face (another light, another table): each is
    learnt, and the face is named in either."""
    codes = list(faces)[:6]
    warm = {code: camera_view(faces[code], gains=(0.6, 0.9, 1.3)) for code in codes}
    refs = {code: [faces[code], warm[code]] for code in codes}
    ident = CardIdentifier.from_references(refs, np.random.default_rng(3), views=32)
    assert ident.codes == tuple(codes)
    for code in codes:
        assert ident.identify(camera_view(faces[code]))[0] == code
        assert ident.identify(camera_view(faces[code], gains=(0.65, 0.9, 1.25)))[0] == code


def test_a_face_without_a_view_is_refused(faces: Any) -> None:
    code = next(iter(faces))
    with pytest.raises(ValueError, match="without a reference"):
        CardIdentifier.from_references({code: faces[code], "other": []},
                                       np.random.default_rng(0))
