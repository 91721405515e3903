"""The A2 mat tiled on A4 sheets, for a home printer.

The sheets overlap; on each shared strip a dashed cut line and registration crosses are
printed at the same mat position on both sheets. Trim a sheet along its dashed lines
(left and top), lay it over its neighbours, crosses on crosses, and tape it. `tiles.json`
says which part of the mat each page holds, in mm, so a program can reassemble them too.

    >>> [(tile.row, tile.column) for tile in plan_tiles(594.0, 420.0)][:3]
    [(1, 1), (1, 2), (1, 3)]
    >>> len(plan_tiles(594.0, 420.0))
    8
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image

A4_MM = (210.0, 297.0)
#: What most home printers leave blank at each edge of the paper.
MARGIN_MM = 10.0
#: The least strip two neighbouring sheets share; the plan spreads any extra evenly.
MIN_OVERLAP_MM = 15.0
#: The registration crosses: arm length and where along a cut line they go.
CROSS_MM = 8.0
CROSSES_PER_LINE = 3
#: Light enough to find on the felt, dim enough that the camera never takes it for a card.
MARK_BGR = (128, 140, 126)

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class Tile:
    """One sheet: its place in the grid (from 1) and the part of the mat it prints (mm)."""

    row: int
    column: int
    x0: float
    y0: float
    x1: float
    y1: float
    paper_mm: tuple[float, float]

    def to_json(self) -> dict[str, object]:
        return {
            "row": self.row,
            "column": self.column,
            "mat_mm": [round(v, 2) for v in (self.x0, self.y0, self.x1, self.y1)],
            "paper_mm": list(self.paper_mm),
            "offset_mm": [MARGIN_MM, MARGIN_MM],
        }


def _starts(length: float, span: float, count: int) -> list[float]:
    if count == 1:
        return [0.0]
    step = (length - span) / (count - 1)
    return [i * step for i in range(count)]


def _count(length: float, span: float) -> int:
    return max(1, math.ceil((length - MIN_OVERLAP_MM) / (span - MIN_OVERLAP_MM)))


def plan_tiles(width_mm: float, height_mm: float) -> list[Tile]:
    """The fewest A4 sheets (portrait or landscape, whichever needs fewer) that cover the
    mat with at least MIN_OVERLAP_MM shared between neighbours; row by row."""
    plans = []
    for paper in (A4_MM, (A4_MM[1], A4_MM[0])):
        span_x, span_y = paper[0] - 2 * MARGIN_MM, paper[1] - 2 * MARGIN_MM
        cols, rows = _count(width_mm, span_x), _count(height_mm, span_y)
        xs, ys = _starts(width_mm, span_x, cols), _starts(height_mm, span_y, rows)
        plans.append([
            Tile(r + 1, c + 1, x, y, min(x + span_x, width_mm), min(y + span_y, height_mm),
                 paper)
            for r, y in enumerate(ys)
            for c, x in enumerate(xs)
        ])
    return min(plans, key=len)


def cut_lines(tiles: list[Tile]) -> tuple[list[float], list[float]]:
    """Where neighbours are trimmed (mm): the middle of each shared strip, x then y."""
    columns = sorted({(t.column, t.x0, t.x1) for t in tiles})
    rows = sorted({(t.row, t.y0, t.y1) for t in tiles})
    xs = [(columns[i + 1][1] + columns[i][2]) / 2 for i in range(len(columns) - 1)]
    ys = [(rows[i + 1][1] + rows[i][2]) / 2 for i in range(len(rows) - 1)]
    return xs, ys


def _dashed(img: NDArray[np.uint8], p0: tuple[int, int], p1: tuple[int, int],
            dash: int, thick: int) -> None:
    length = max(abs(p1[0] - p0[0]), abs(p1[1] - p0[1]))
    for start in range(0, length, 2 * dash):
        a = start / length
        b = min(start + dash, length) / length
        q0 = (round(p0[0] + (p1[0] - p0[0]) * a), round(p0[1] + (p1[1] - p0[1]) * a))
        q1 = (round(p0[0] + (p1[0] - p0[0]) * b), round(p0[1] + (p1[1] - p0[1]) * b))
        cv2.line(img, q0, q1, MARK_BGR, thick)


def _cross(img: NDArray[np.uint8], x: float, y: float, ppm: float) -> None:
    arm, thick = round(CROSS_MM * ppm), max(1, round(0.3 * ppm))
    cx, cy = round(x * ppm), round(y * ppm)
    cv2.line(img, (cx - arm, cy), (cx + arm, cy), MARK_BGR, thick)
    cv2.line(img, (cx, cy - arm), (cx, cy + arm), MARK_BGR, thick)
    cv2.circle(img, (cx, cy), round(arm / 2), MARK_BGR, thick)


def _inside(x: float, y: float, boxes: Sequence[Box]) -> bool:
    return any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in boxes)


def mark_cuts(mat: NDArray[np.uint8], tiles: list[Tile], ppm: float,
              keep_clear: Sequence[Box] = ()) -> NDArray[np.uint8]:
    """A copy of the mat image with the cut lines and crosses where the sheets meet;
    nothing is printed in the `keep_clear` boxes (mm), where cards are read."""
    marked = mat.copy()
    h, w = marked.shape[:2]
    xs, ys = cut_lines(tiles)
    dash, thick = round(4 * ppm), max(1, round(0.3 * ppm))
    width_mm, height_mm = w / ppm, h / ppm
    for x in xs:
        _dashed(marked, (round(x * ppm), 0), (round(x * ppm), h - 1), dash, thick)
        for i in range(CROSSES_PER_LINE):
            y = height_mm * (i + 0.5) / CROSSES_PER_LINE
            if not _inside(x, y, keep_clear):
                _cross(marked, x, y, ppm)
    for y in ys:
        _dashed(marked, (0, round(y * ppm)), (w - 1, round(y * ppm)), dash, thick)
        for i in range(CROSSES_PER_LINE):
            x = width_mm * (i + 0.5) / CROSSES_PER_LINE
            if not _inside(x, y, keep_clear):
                _cross(marked, x, y, ppm)
    for x0, y0, x1, y1 in keep_clear:
        box = np.s_[round(y0 * ppm) : round(y1 * ppm), round(x0 * ppm) : round(x1 * ppm)]
        marked[box] = mat[box]
    return marked


def _caption(page: NDArray[np.uint8], tile: Tile, total: int, ppm: float) -> None:
    """The sheet's place and how to assemble it, in the bottom margin."""
    lines = [
        f"tableref mat, sheet {tile.row}-{tile.column} ({total} sheets: rows top to bottom, "
        "columns left to right). Print at 100 % (actual size).",
        "Trim along the dashed lines on the left and top, lay over the neighbours "
        "crosses on crosses, tape. The tags measure 50 mm.",
    ]
    scale = 2.2 * ppm / 22.0
    y = page.shape[0] - round(MARGIN_MM * ppm) + round(4 * ppm)
    for line in lines:
        cv2.putText(page, line, (round(MARGIN_MM * ppm), y), cv2.FONT_HERSHEY_SIMPLEX,
                    scale, (0, 0, 0), 1, cv2.LINE_AA)
        y += round(3.5 * ppm)


def render_tile(marked: NDArray[np.uint8], tile: Tile, total: int, ppm: float
                ) -> NDArray[np.uint8]:
    """One A4 page (BGR): white paper, the tile's part of the mat inside the margins."""
    pw, ph = round(tile.paper_mm[0] * ppm), round(tile.paper_mm[1] * ppm)
    page = np.full((ph, pw, 3), 255, np.uint8)
    x0, y0 = round(tile.x0 * ppm), round(tile.y0 * ppm)
    x1, y1 = round(tile.x1 * ppm), round(tile.y1 * ppm)
    part = marked[y0:y1, x0:x1]
    m = round(MARGIN_MM * ppm)
    page[m : m + part.shape[0], m : m + part.shape[1]] = part
    _caption(page, tile, total, ppm)
    return page


def export_tiles(mat: NDArray[np.uint8], ppm: float, out_dir: Path,
                 keep_clear: Sequence[Box] = ()) -> list[Path]:
    """Write mat-a4.pdf (one page a sheet), mat-a4-<row>-<column>.png and tiles.json."""
    tiles = plan_tiles(mat.shape[1] / ppm, mat.shape[0] / ppm)
    marked = mark_cuts(mat, tiles, ppm, keep_clear)
    pages = [render_tile(marked, tile, len(tiles), ppm) for tile in tiles]
    written: list[Path] = []
    for tile, page in zip(tiles, pages, strict=True):
        path = out_dir / f"mat-a4-{tile.row}-{tile.column}.png"
        cv2.imwrite(str(path), page)
        written.append(path)
    pdf = out_dir / "mat-a4.pdf"
    images = [Image.fromarray(cv2.cvtColor(p, cv2.COLOR_BGR2RGB)) for p in pages]
    images[0].save(pdf, "PDF", resolution=ppm * 25.4, save_all=True, append_images=images[1:])
    layout = out_dir / "tiles.json"
    layout.write_text(json.dumps({
        "px_per_mm": ppm,
        "sheets": [{"png": p.name, **t.to_json()} for p, t in zip(written, tiles, strict=True)],
    }, indent=2) + "\n", encoding="utf-8")
    return [pdf, *written, layout]
