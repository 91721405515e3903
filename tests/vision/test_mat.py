"""The printable mat: tags where the spec says, exports at true size."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cv2
import numpy as np

from vision.mat import MatSpec, default_mat, export_mat, play_cells_mm, render_mat


def test_render_mat_tags_are_detectable_at_their_places() -> None:
    spec = default_mat()
    img = render_mat(spec, 2.0)
    assert img.shape == (840, 1188, 3)
    # a frame always shows some table around the mat; the detector needs that margin
    img = cv2.copyMakeBorder(img, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=(90, 90, 90))
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    corners, ids, _ = detector.detectMarkers(img)
    assert ids is not None
    found = {int(i): (c.reshape(4, 2).mean(axis=0) - 40) / 2.0
             for i, c in zip(ids.ravel(), corners, strict=True)}
    for tag in spec.tags:
        assert np.allclose(found[tag.tag_id], tag.center_mm, atol=1.0)


def test_mat_is_dark_and_play_square_is_centred() -> None:
    spec = default_mat()
    img = render_mat(spec, 1.0)
    assert float(np.median(img)) < 90
    cells = play_cells_mm(spec)
    xs = [c[0] for c in cells] + [c[2] for c in cells]
    ys = [c[1] for c in cells] + [c[3] for c in cells]
    assert (min(xs) + max(xs)) / 2 == spec.center_mm[0]
    assert (min(ys) + max(ys)) / 2 == spec.center_mm[1]
    assert max(xs) - min(xs) == 63 * 2 + 6


def test_export_mat(tmp_path: Path) -> None:
    spec = default_mat()
    written = export_mat(spec, tmp_path, px_per_mm=2.0)
    assert {p.name for p in written} == {"mat.png", "mat.pdf", "mat.json"}
    assert MatSpec.from_json(json.loads((tmp_path / "mat.json").read_text())) == spec
    pdf = (tmp_path / "mat.pdf").read_bytes()
    box = re.search(rb"/MediaBox \[ 0 0 ([\d.]+) ([\d.]+) \]", pdf)
    assert box is not None
    assert abs(float(box[1]) / 72 * 25.4 - 594) < 0.5
    assert abs(float(box[2]) / 72 * 25.4 - 420) < 0.5
