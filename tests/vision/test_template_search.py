"""The shape search's cascade gives what the full comparison near each picture's place gives
where the decision looks: its bounds bound, its two best shapes are the full comparison's,
and so are the names; placing a picture first names cards as searching its whole margin
does; the finer look at two close shapes gives what comparing every window of their
templates does."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.deck_art import FaceArt, paint_face
from vision.identify import batch
from vision.mat import MatSpec
from vision.search_kernels import weighted_correlation
from vision.table_reader import TableReader
from vision.template_identifier import (
    FINE_CANDIDATES,
    FINE_MARGIN,
    FINE_SIZE,
    FINE_TEMPLATES,
    FOCUS_BLUR,
    OWN_SIZE,
    SCALINGS,
    SHAPE_FLOOR,
    Floats,
    TemplateIdentifier,
    balanced,
    close_calls,
    ink,
)
from vision.template_search import COARSE, AlignedSearch, Scored, ShapeSearch, standardised

DECKS = Path(__file__).resolve().parents[2] / "referee" / "decks"
FOREIGN = Path(__file__).resolve().parents[1] / "fixtures" / "foreign" / "uno-classic"
Image = NDArray[np.uint8]


def faces(name: str) -> dict[str, Image]:
    data = json.loads((DECKS / f"{name}.json").read_text(encoding="utf-8"))
    card_mm = tuple(data.get("card_mm", (63, 88)))
    return {f["code"]: paint_face(FaceArt.from_json(f["code"], f["art"]), card_mm, 4.0)
            for f in data["faces"]}


@pytest.fixture(scope="module")
def identifier() -> TemplateIdentifier:
    return TemplateIdentifier.from_references(faces("uno"))


@pytest.fixture(scope="module")
def patches() -> Image:
    """UNO faces as a camera cuts them (blurred, in a cast, turned, cut wide), cards of
    another deck, and noise: patches named, unknown and in between."""
    rng = np.random.default_rng(7)
    views = []
    for i, face in enumerate(list(faces("uno").values()) + list(faces("deserto").values())):
        pad = int(rng.integers(0, 12))
        view = cv2.copyMakeBorder(face, pad, pad, pad, pad, cv2.BORDER_CONSTANT,
                                  value=(60, 70, 80))
        view = cv2.resize(view, (62, 96), interpolation=cv2.INTER_AREA).astype(np.float32)
        view = cv2.GaussianBlur(view * rng.uniform(0.6, 1.2, 3).astype(np.float32), (0, 0),
                                float(rng.uniform(0.3, 1.5)))
        out = np.clip(view + rng.normal(0, 3, view.shape), 0, 255).astype(np.uint8)
        views.append(out[::-1, ::-1] if i % 3 == 0 else out)
    views += [rng.integers(0, 256, (96, 62, 3), dtype=np.uint8) for _ in range(8)]
    return batch(views)


def near_inks(search: AlignedSearch, patches: Image) -> Floats:
    """The patches' ink pictures cut to the windows near each one's place."""
    inks = ink(balanced(patches))
    return search.cut_near(inks, search.places(inks))


def test_every_bound_is_above_its_correlation(identifier: TemplateIdentifier,
                                              patches: Image) -> None:
    search = identifier.search.near
    inks = near_inks(identifier.search, patches)
    full = search.windows(inks) @ search.templates.T
    assert (search.bounds(inks) >= full).all()


def test_the_two_best_shapes_are_the_full_comparisons(identifier: TemplateIdentifier,
                                                      patches: Image) -> None:
    inks = ink(balanced(patches))
    fast, full = identifier.search.scored(inks).scores, identifier.search.full_scored(inks).scores
    top = np.argsort(-full, axis=1)[:, :2]
    assert np.allclose(np.take_along_axis(fast, top, axis=1),
                       np.take_along_axis(full, top, axis=1), atol=1e-5)
    second = np.take_along_axis(full, top[:, 1:], axis=1)
    others = np.ones_like(fast, bool)
    np.put_along_axis(others, top, False, axis=1)
    assert (fast[others] <= np.broadcast_to(second, fast.shape)[others] + 1e-5).all()
    # and the other shapes were about half left unscored: the point of the cascade (0.52
    # of them here before the cards' shading was taken out of the ink, 0.48 since: the
    # shapes' correlations, no longer sharing it, lie closer below the second best)
    assert (fast[others] == -1.0).mean() > 0.45


def test_the_names_are_the_full_comparisons(identifier: TemplateIdentifier, patches: Image,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    fast = identifier._identify(patches)
    best = identifier.search.full_scored(ink(balanced(patches))).scores.max(axis=1)
    monkeypatch.setattr(AlignedSearch, "scored",  # (every score full, whatever the floors)
                        lambda self, inks, *floors: self.full_scored(inks, *floors[2:]))
    full = identifier._identify(patches)
    assert [code for code, _ in fast] == [code for code, _ in full]
    # a card whose best shape scores below `least` is unknown either way, its confidence
    # from scores the search did not need exactly (noise here, a hand on a table)
    sought = best >= identifier.least
    assert np.allclose(np.array([c for _, c in fast])[sought],
                       np.array([c for _, c in full])[sought], atol=2e-3)
    assert (~sought).any() and all(fast[i][0] is None for i in np.flatnonzero(~sought))
    assert sum(code is not None for code, _ in fast) > len(fast) // 3


def test_every_shape_needs_a_template(identifier: TemplateIdentifier) -> None:
    search = identifier.search.near
    with pytest.raises(ValueError):
        ShapeSearch.build(search.templates, search.shapes, search.n_shapes + 1, search.size,
                          search.margin)


def test_a_shapes_best_templates_are_the_full_comparisons(identifier: TemplateIdentifier,
                                                          patches: Image) -> None:
    inks = ink(balanced(patches[:20]))
    scored = identifier.search.scored(inks)
    assert scored.origins is not None
    search = identifier.search.near
    columns = 2 * search.margin[0] + 1
    for i, picture in enumerate(identifier.search.cut_near(inks, scored.origins)):
        products = search.windows(picture[None])[0] @ search.templates.T
        shapes = list(range(0, search.n_shapes, 5))
        top, left = scored.origins[i]
        for shape, found in zip(shapes, scored.best_templates(i, shapes, 3), strict=True):
            start, end = search.starts[shape], search.ends[shape]
            every = products[:, start:end].max(axis=0)
            assert [t for t, _, _ in found] == list(
                start + np.argsort(-every, kind="stable")[:3])
            assert [(dy - top) * columns + dx - left for _, dy, dx in found] == [
                int(products[:, t].argmax()) for t, _, _ in found]


def test_a_view_is_placed_to_the_pixel_where_it_lies(identifier: TemplateIdentifier) -> None:
    """Each view's template at its own size laid anywhere in the margin of a picture of
    noise, at odd places too (between two coarse ones): the coarse look and its
    refinement by the guides place it there to the pixel, all but a few (a guide is the
    mean look of a shape's views, not the view), and every one within a coarse pixel."""
    search = identifier.search
    (w, h), (mx, my) = search.size, search.margin
    tw, th = w - 2 * mx, h - 2 * my
    rng = np.random.default_rng(3)
    templates = search.near.templates[OWN_SIZE :: len(SCALINGS)]
    pictures, offsets = [], []
    for template in templates:
        y, x = int(rng.integers(0, 2 * my + 1)), int(rng.integers(0, 2 * mx + 1))
        picture = rng.normal(0.0, 0.02, (h, w, 2)).astype(np.float32)
        picture[y : y + th, x : x + tw] += template.reshape(th, tw, 2)
        pictures.append(picture)
        offsets.append((y, x))
    assert sum(y % 2 or x % 2 for y, x in offsets) > len(offsets) // 2
    apart = np.abs(np.array(offsets) - search.places(np.array(pictures)))
    assert (apart.sum(axis=1) == 0).mean() > 0.95
    assert apart.max() <= COARSE


@pytest.fixture(scope="module")
def enrolled() -> TemplateIdentifier:
    """A deck we never drew (uno-classic) as its rendered enrolment session learnt it."""
    profile = json.loads((FOREIGN / "profile" / "profile.json").read_text(encoding="utf-8"))
    return TemplateIdentifier.from_references(
        {code: [cv2.imread(str(FOREIGN / "profile" / name)) for name in names]
         for code, names in profile["faces"].items()})


class Cutting:
    """An identifier that keeps every batch of patches a table reader gives it to name."""

    def __init__(self, identifier: TemplateIdentifier) -> None:
        self.identifier = identifier
        self.codes = identifier.codes
        self.reads_light = identifier.reads_light
        self.reads_covered = identifier.reads_covered
        self.batches: list[Image] = []

    def identify(self, patch: Image) -> tuple[str | None, float]:
        return self.identify_batch(batch([patch]))[0]

    def identify_many(self, patches: list[Image]) -> list[tuple[str | None, float]]:
        return self.identify_batch(batch(patches))

    def identify_batch(self, patches: Image, lights: Floats | None = None
                       ) -> list[tuple[str | None, float]]:
        self.batches.append(patches)
        return self.identifier.identify_batch(patches, lights)


@pytest.fixture(scope="module")
def scene_patches(enrolled: TemplateIdentifier) -> Image:
    """The cards of the session played with that deck, as a table reader cuts them from
    its rendered frames to name them."""
    session = json.loads((FOREIGN / "session" / "session.json").read_text(encoding="utf-8"))
    profile = json.loads((FOREIGN / "profile" / "profile.json").read_text(encoding="utf-8"))
    cutting = Cutting(enrolled)
    reader = TableReader(MatSpec.from_json(session["mat"]), cutting,
                         tuple(profile["card_mm"]))
    for frame in sorted((FOREIGN / "session" / "frames").glob("*.jpg"))[::3]:
        reader.read(cv2.imread(str(frame)))
    return np.concatenate([b for b in cutting.batches if len(b)])


def direct_fine_ratios(identifier: TemplateIdentifier, ink_picture: Image,
                       origin: tuple[int, int], fine: Image, shapes: list[int]
                       ) -> tuple[float, float]:
    """The finer look at two shapes computed directly: each one's FINE_TEMPLATES best
    templates (every window compared with every template of the shape) of the colour of
    the first shape's best, where both shapes have that colour among their FINE_CANDIDATES
    best, every window a pixel either way of theirs standardised and compared, the focus
    from the two best (and the focused correlation as the identifier weighs it). The
    windows at SIZE those near the picture's place (`origin`, AlignedSearch.places)."""
    search = identifier.search.near
    (w, h), (mx, my) = FINE_SIZE, FINE_MARGIN
    tw, th = w - 2 * mx, h - 2 * my
    near = identifier.search.cut_near(ink_picture[None], np.array([origin]))
    products = search.windows(near)[0] @ search.templates.T
    candidates = [search.starts[shape] + np.argsort(
        -products[:, search.starts[shape]:search.ends[shape]].max(axis=0),
        kind="stable")[:FINE_CANDIDATES] for shape in shapes]
    colours = identifier.template_colours
    alike = [found[colours[found] == colours[candidates[0][0]]] for found in candidates]
    chosen = alike if all(len(found) for found in alike) else candidates
    best = []
    for found in chosen:
        templates = found[:FINE_TEMPLATES]
        cuts = []
        for t in templates:
            dy, dx = np.add(divmod(int(products[:, t].argmax()), 2 * search.margin[0] + 1),
                            origin)
            cuts.append([fine[y : y + th, x : x + tw]
                         for y in (min(max(2 * dy + d, 0), 2 * my) for d in (-1, 0, 1))
                         for x in (min(max(2 * dx + d, 0), 2 * mx) for d in (-1, 0, 1))])
        rows = standardised(np.array(cuts).reshape(len(templates) * 9, -1))
        fine_templates = identifier.fine[templates].astype(np.float32)
        scores = np.einsum("tsv,tv->ts", rows.reshape(len(templates), 9, -1), fine_templates)
        k, shift = np.unravel_index(int(scores.argmax()), scores.shape)
        best.append((float(scores[k, shift]), fine_templates[k].reshape(th, tw, 2),
                     cuts[k][shift]))
    (first, a, cut_a), (second, b, cut_b) = best
    focus = cv2.GaussianBlur(np.abs(a - b).sum(axis=2), (0, 0), FOCUS_BLUR)
    focus /= focus.sum()
    return ((1 - first) / (1 - second), (1 - weighted_correlation(cut_a, a, focus))
            / (1 - weighted_correlation(cut_b, b, focus)))


def test_the_finer_look_is_the_direct_comparisons_on_an_enrolled_decks_scenes(
        enrolled: TemplateIdentifier, scene_patches: Image) -> None:
    views = [camera_like(patch, blur) for patch in scene_patches for blur in (0.0, 1.6)]
    patches = batch(views)
    inks = ink(balanced(patches))
    scored: Scored = enrolled.search.scored(inks)
    assert scored.origins is not None
    close = np.flatnonzero(close_calls(scored.scores)).tolist()
    fine = ink(balanced(patches[close], FINE_SIZE))
    assert len(close) >= 10
    for k, i in enumerate(close):
        two = list(np.argsort(-scored.scores[i])[:2])  # (the full scores' to a rounding)
        # (to a float32 rounding of the correlations, 1e-7, which a ratio of two distances
        # near 0.1 makes 1e-6: the direct ones in float32, the finer look's in float64)
        assert enrolled._fine_ratios(scored, i, fine[k]) == pytest.approx(
            direct_fine_ratios(enrolled, inks[i], scored.origins[i], fine[k], two), abs=1e-5)


def test_an_enrolled_decks_scenes_are_named_as_by_the_full_comparison(
        enrolled: TemplateIdentifier, scene_patches: Image,
        monkeypatch: pytest.MonkeyPatch) -> None:
    patches = batch([camera_like(patch, blur) for patch in scene_patches
                     for blur in (0.0, 1.6)])
    fast = enrolled._identify(patches)
    two = np.sort(enrolled.search.full_scored(ink(balanced(patches))).scores, axis=1)[:, -2:]
    monkeypatch.setattr(AlignedSearch, "scored",  # (every score full, whatever the floors)
                        lambda self, inks, *floors: self.full_scored(inks, *floors[2:]))
    full = enrolled._identify(patches)
    assert [code for code, _ in fast] == [code for code, _ in full]
    # where the two best shapes lie within a rounding of each other, which comes first
    # (and so the finer look's ratios) is the rounding's
    apart = two[:, 1] - two[:, 0] > 1e-5
    assert apart.mean() > 0.9
    apart &= two[:, 1] >= enrolled.least  # (below it, unknown with another confidence)
    # the scores agree to a float32 rounding (1e-7), and a confidence that lies on the
    # edge of its rounding to 0.001 may round either way (a blue-6 at 0.566 and 0.567)
    assert np.allclose(np.array([c for _, c in fast])[apart],
                       np.array([c for _, c in full])[apart], atol=1.0001e-3)
    assert sum(code is not None for code, _ in fast) > len(fast) // 3


def test_placing_a_picture_first_names_as_searching_its_whole_margin(
        enrolled: TemplateIdentifier, scene_patches: Image,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """What placing gives up, on an enrolled deck's scenes: a shape whose best window lies
    beyond REACH of the picture's place scores lower. The cards are named the same, and
    most with the same confidence (a second shape's best window a few pixels away)."""
    patches = batch([camera_like(patch, blur) for patch in scene_patches
                     for blur in (0.0, 1.6)])
    placed = enrolled._identify(patches)
    near = enrolled.search.near
    whole = ShapeSearch.build(near.templates, near.shapes, near.n_shapes,
                              enrolled.search.size, enrolled.search.margin)
    monkeypatch.setattr(AlignedSearch, "scored",
                        lambda self, inks, *floors: whole.scored(inks, *floors[:2]))
    searched = enrolled._identify(patches)
    assert [code for code, _ in placed] == [code for code, _ in searched]
    same = np.isclose([c for _, c in placed], [c for _, c in searched], atol=1.0001e-3)
    assert same.mean() > 0.9
    assert sum(code is not None for code, _ in placed) > len(placed) // 3


def camera_like(patch: Image, blur: float) -> Image:
    """A patch as a blurrier camera would cut it: where two numerals come close."""
    return np.asarray(cv2.GaussianBlur(patch, (0, 0), blur), np.uint8) if blur else patch


def test_a_card_one_window_leaves_unknown_is_searched_in_the_nine_around_it(
        enrolled: TemplateIdentifier, scene_patches: Image,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The cards the search at each one's place leaves unknown though a shape could name
    them (its best SHAPE_FLOOR or more: blurred, a few are) are searched again in the
    windows around their place, and named as that wider search names them; every other
    card a shape could name is named from its one window."""
    patches = batch([camera_like(patch, blur) for patch in scene_patches
                     for blur in (0.0, 1.6, 2.4)])
    calls: list[tuple[Floats, bool, Scored]] = []
    scored = AlignedSearch.scored

    def spied(self: AlignedSearch, inks: Floats, *rest: float | bool) -> Scored:
        out = scored(self, inks, *rest)  # type: ignore[arg-type]
        calls.append((inks, bool(rest[2]) if len(rest) > 2 else False, out))
        return out

    monkeypatch.setattr(AlignedSearch, "scored", spied)
    answers = enrolled._identify(patches)
    monkeypatch.undo()
    (inks, wide, first), *again = calls
    assert not wide and len(again) == 1 and again[0][1]
    asked = [int(np.abs(inks - picture).max(axis=(1, 2, 3)).argmin())  # (to a rounding:
             for picture in again[0][0]]  # a batch's matmuls round by its rows)
    best = first.scores.max(axis=1)
    assert asked and (best[asked] >= SHAPE_FLOOR).all()
    assert [answers[i] for i in asked] == enrolled._identify(patches[asked], None, True)
    others = [i for i in range(len(patches)) if i not in asked and best[i] >= SHAPE_FLOOR]
    assert all(answers[i][0] is not None for i in others)
