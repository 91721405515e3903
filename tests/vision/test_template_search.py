"""The shape search's cascade gives what the full comparison gives where the decision looks:
its bounds bound, its two best shapes are the full comparison's, and so are the names."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from numpy.typing import NDArray

from vision.deck_art import FaceArt, paint_face
from vision.identify import batch
from vision.template_identifier import TemplateIdentifier, balanced, ink
from vision.template_search import ShapeSearch

DECKS = Path(__file__).resolve().parents[2] / "referee" / "decks"
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


def test_every_bound_is_above_its_correlation(identifier: TemplateIdentifier,
                                              patches: Image) -> None:
    search = identifier.search
    inks = ink(balanced(patches))
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
    # and the other shapes were mostly left unscored: the point of the cascade
    assert (fast[others] == -1.0).mean() > 0.5


def test_the_names_are_the_full_comparisons(identifier: TemplateIdentifier, patches: Image,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    fast = identifier._identify(patches)
    monkeypatch.setattr(ShapeSearch, "scored", ShapeSearch.full_scored)
    full = identifier._identify(patches)
    assert [code for code, _ in fast] == [code for code, _ in full]
    assert np.allclose([c for _, c in fast], [c for _, c in full], atol=2e-3)
    assert sum(code is not None for code, _ in fast) > len(fast) // 3


def test_every_shape_needs_a_template(identifier: TemplateIdentifier) -> None:
    search = identifier.search
    with pytest.raises(ValueError):
        ShapeSearch.build(search.templates, search.shapes, search.n_shapes + 1, search.size,
                          search.margin)


def test_a_shapes_best_templates_are_the_full_comparisons(identifier: TemplateIdentifier,
                                                          patches: Image) -> None:
    search = identifier.search
    inks = ink(balanced(patches[:20]))
    scored = search.scored(inks)
    columns = 2 * search.margin[0] + 1
    for i, picture in enumerate(inks):
        products = search.windows(picture[None])[0] @ search.templates.T
        shapes = list(range(0, search.n_shapes, 5))
        for shape, found in zip(shapes, scored.best_templates(i, shapes, 3), strict=True):
            start, end = search.starts[shape], search.ends[shape]
            every = products[:, start:end].max(axis=0)
            assert [t for t, _, _ in found] == list(
                start + np.argsort(-every, kind="stable")[:3])
            assert [dy * columns + dx for _, dy, dx in found] == [
                int(products[:, t].argmax()) for t, _, _ in found]
