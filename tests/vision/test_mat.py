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


def reassemble(folder: Path) -> tuple[np.ndarray, float]:
    """The mat put back together from the A4 sheets, each page's part where tiles.json
    says; where sheets overlap, both must print the very same pixels (the marks line up)."""
    layout = json.loads((folder / "tiles.json").read_text())
    ppm = float(layout["px_per_mm"])
    mat = cv2.imread(str(folder / "mat.png"))
    canvas = np.zeros_like(mat)
    covered = np.zeros(mat.shape[:2], bool)
    for sheet in layout["sheets"]:
        page = cv2.imread(str(folder / sheet["png"]))
        x0, y0, x1, y1 = (round(v * ppm) for v in sheet["mat_mm"])
        ox, oy = (round(v * ppm) for v in sheet["offset_mm"])
        assert page.shape[1] == round(sheet["paper_mm"][0] * ppm)
        part = page[oy : oy + y1 - y0, ox : ox + x1 - x0]
        shared = covered[y0:y1, x0:x1]
        assert np.array_equal(canvas[y0:y1, x0:x1][shared], part[shared]), sheet["png"]
        canvas[y0:y1, x0:x1] = part
        covered[y0:y1, x0:x1] = True
    assert covered.all()
    return canvas, ppm


def test_the_a4_tiles_reassemble_into_the_mat_and_its_four_tags(tmp_path: Path) -> None:
    from vision.calibration import calibrate
    from vision.mat_tiles import plan_tiles

    spec = default_mat()
    written = export_mat(spec, tmp_path, paper="a4", px_per_mm=4.0)
    tiles = plan_tiles(spec.width_mm, spec.height_mm)
    assert len(tiles) == 8 and {p.name for p in written} >= {"mat-a4.pdf", "tiles.json"}
    pdf = (tmp_path / "mat-a4.pdf").read_bytes()
    assert len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf)) == 8
    for box in re.findall(rb"/MediaBox \[ 0 0 ([\d.]+) ([\d.]+) \]", pdf):
        assert sorted(round(float(v) / 72 * 25.4) for v in box) == [210, 297]
    canvas, ppm = reassemble(tmp_path)
    framed = cv2.copyMakeBorder(canvas, 40, 40, 40, 40, cv2.BORDER_CONSTANT, value=(90, 90, 90))
    calibration = calibrate(framed, spec)
    assert calibration.tags_seen == (0, 1, 2, 3)
    for tag in spec.tags:
        centre = np.array([[tag.center_mm[0] * ppm + 40, tag.center_mm[1] * ppm + 40]])
        assert np.allclose(calibration.image_to_mat(centre), [tag.center_mm], atol=0.5)


def test_the_mat_names_its_cells_as_the_page_does() -> None:
    from vision.mat import CELL_LABELS

    spec = default_mat()
    img = render_mat(spec, 4.0)
    plain = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    assert CELL_LABELS == ("NW", "NE", "SW", "SE")
    for x0, y0, x1, y1 in play_cells_mm(spec):
        middle = ((y0 + y1) * 2, (x0 + x1) * 2)  # the cell's centre, in px at 4 px/mm
        centre = plain[round(middle[0]) - 40 : round(middle[0]) + 40,
                       round(middle[1]) - 80 : round(middle[1]) + 80]
        assert int(centre.max()) - int(np.median(centre)) > 20  # a label is printed there
