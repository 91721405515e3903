"""Our own print-and-play card faces, drawn by code from a deck's "art" data.

Each face is a white card with a rounded border, a coloured field whose layout
depends on the symbol, a large central symbol, the title and a corner index in two
opposite corners. Faces of one deck differ in colour, symbol shape and field layout,
so a camera tells them apart even when blurred.

    >>> art = FaceArt.from_json("oasis", {"title": "OASIS", "colour": "#2e8b57",
    ...                                    "symbol": "palm", "corner": "O"})
    >>> paint_face(art, px_per_mm=2.0).shape
    (176, 126, 3)

A new deck adds its symbols to `SYMBOLS`: a painter that draws into a square box and
the field layout that goes with it.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray
from PIL import Image

Bgr = tuple[int, int, int]
Image8 = NDArray[np.uint8]

WHITE: Bgr = (255, 255, 255)
INK: Bgr = (40, 40, 40)
EDGE: Bgr = (150, 150, 150)
CARD_MM: tuple[float, float] = (63.0, 88.0)
PRINT_DPI = 300
A4_MM = (210.0, 297.0)


def hex_to_bgr(colour: str) -> Bgr:
    """'#1d4f9c' -> (156, 79, 29), the order OpenCV draws in."""
    text = colour.lstrip("#")
    if len(text) != 6:
        raise ValueError(f"colour {colour!r} is not #rrggbb")
    r, g, b = (int(text[i : i + 2], 16) for i in (0, 2, 4))
    return (b, g, r)


@dataclass(frozen=True)
class FaceArt:
    """How one face looks: the deck JSON's "art" block plus the face's code."""

    code: str
    title: str
    colour: str
    symbol: str
    corner: str

    @classmethod
    def from_json(cls, code: str, data: Mapping[str, Any]) -> FaceArt:
        """Read a face's "art" block; raises KeyError on a missing field."""
        art = cls(
            code=code,
            title=str(data["title"]),
            colour=str(data["colour"]),
            symbol=str(data["symbol"]),
            corner=str(data["corner"]),
        )
        hex_to_bgr(art.colour)
        if art.symbol not in SYMBOLS:
            raise ValueError(f"face {code!r}: unknown symbol {art.symbol!r}")
        return art


@dataclass(frozen=True)
class _Box:
    """A square drawing box in pixels: centre and half side."""

    cx: float
    cy: float
    r: float

    def pt(self, u: float, v: float) -> tuple[int, int]:
        """A point given in box units (-1..1, y down)."""
        return (round(self.cx + u * self.r), round(self.cy + v * self.r))

    def poly(self, uvs: Sequence[tuple[float, float]]) -> NDArray[np.int32]:
        return np.array([self.pt(u, v) for u, v in uvs], dtype=np.int32)

    def len(self, d: float) -> int:
        return max(1, round(d * self.r))


SymbolPainter = Callable[[Image8, _Box, Bgr, Bgr], None]
"""Draws a symbol in `ink` into a box on a background of colour `paper`."""

_AA = cv2.LINE_AA


def _crescent(img: Image8, box: _Box, ink: Bgr, paper: Bgr) -> None:
    cv2.circle(img, box.pt(0, 0), box.len(0.9), ink, -1, _AA)
    cv2.circle(img, box.pt(0.38, -0.22), box.len(0.74), paper, -1, _AA)
    star = [
        (0.55 + 0.22 * math.cos(a) * (1 if i % 2 == 0 else 0.4),
         0.35 + 0.22 * math.sin(a) * (1 if i % 2 == 0 else 0.4))
        for i, a in enumerate(np.linspace(-math.pi / 2, 1.5 * math.pi, 10, endpoint=False))
    ]
    cv2.fillPoly(img, [box.poly(star)], ink, _AA)


def _dagger(img: Image8, box: _Box, ink: Bgr, paper: Bgr) -> None:
    blade = [(0.0, -0.95), (0.16, -0.7), (0.14, 0.22), (-0.14, 0.22), (-0.16, -0.7)]
    cv2.fillPoly(img, [box.poly(blade)], ink, _AA)
    cv2.line(img, box.pt(0, -0.75), box.pt(0, 0.15), paper, box.len(0.04), _AA)
    guard = [(-0.55, 0.22), (0.55, 0.22), (0.6, 0.36), (-0.6, 0.36)]
    cv2.fillPoly(img, [box.poly(guard)], ink, _AA)
    cv2.rectangle(img, box.pt(-0.09, 0.36), box.pt(0.09, 0.78), ink, -1, _AA)
    cv2.circle(img, box.pt(0, 0.86), box.len(0.13), ink, -1, _AA)


def _chest(img: Image8, box: _Box, ink: Bgr, paper: Bgr) -> None:
    cv2.ellipse(img, box.pt(0, -0.2), (box.len(0.85), box.len(0.5)), 0, 180, 360, ink, -1, _AA)
    cv2.rectangle(img, box.pt(-0.85, -0.2), box.pt(0.85, 0.7), ink, -1, _AA)
    cv2.line(img, box.pt(-0.85, -0.12), box.pt(0.85, -0.12), paper, box.len(0.07), _AA)
    for u in (-0.5, 0.5):
        cv2.line(img, box.pt(u, -0.62), box.pt(u, 0.7), paper, box.len(0.07), _AA)
    cv2.rectangle(img, box.pt(-0.14, -0.2), box.pt(0.14, 0.2), paper, -1, _AA)
    cv2.circle(img, box.pt(0, 0.02), box.len(0.06), ink, -1, _AA)


def _palm(img: Image8, box: _Box, ink: Bgr, paper: Bgr) -> None:
    cv2.ellipse(img, box.pt(0, 0.85), (box.len(0.8), box.len(0.16)), 0, 0, 360, ink, -1, _AA)
    trunk = [(-0.05, 0.8), (0.14, 0.8), (0.18, 0.2), (0.08, -0.4), (-0.02, -0.38), (0.05, 0.2)]
    cv2.fillPoly(img, [box.poly(trunk)], ink, _AA)
    top = box.pt(0.03, -0.42)
    for angle, length in ((160, 0.75), (200, 0.8), (245, 0.6), (295, 0.6), (340, 0.8), (20, 0.75)):
        a = math.radians(angle)
        centre = (top[0] + 0.5 * length * box.r * math.cos(a),
                  top[1] + 0.5 * length * box.r * math.sin(a))
        cv2.ellipse(img, (round(centre[0]), round(centre[1])),
                    (box.len(length / 2), box.len(0.11)), angle, 0, 360, ink, -1, _AA)
    for u in (-0.12, 0.16):
        cv2.circle(img, box.pt(u, -0.3), box.len(0.08), paper, -1, _AA)


@dataclass(frozen=True)
class SymbolStyle:
    """A symbol painter and the field layout it is printed on."""

    paint: SymbolPainter
    layout: str  # one of "full", "diagonal", "bands", "disc"


SYMBOLS: Mapping[str, SymbolStyle] = {
    "crescent": SymbolStyle(_crescent, "full"),
    "dagger": SymbolStyle(_dagger, "diagonal"),
    "chest": SymbolStyle(_chest, "bands"),
    "palm": SymbolStyle(_palm, "disc"),
}


def _blank_card(card_mm: tuple[float, float], px_per_mm: float) -> tuple[Image8, int]:
    """A white card with a thin grey edge line and rounded corners; returns it and the margin."""
    w, h = round(card_mm[0] * px_per_mm), round(card_mm[1] * px_per_mm)
    img = np.full((h, w, 3), 255, np.uint8)
    radius = max(1, round(3.0 * px_per_mm))
    line = max(1, round(0.35 * px_per_mm))
    _rounded_rect(img, (line // 2, line // 2), (w - 1 - line // 2, h - 1 - line // 2),
                  radius, EDGE, line)
    return img, max(2, round(4.0 * px_per_mm))


def _rounded_rect(img: Image8, p0: tuple[int, int], p1: tuple[int, int], radius: int,
                  colour: Bgr, thickness: int) -> None:
    """Outline (thickness > 0) or fill (thickness < 0) a rectangle with rounded corners."""
    (x0, y0), (x1, y1) = p0, p1
    if thickness < 0:
        cv2.rectangle(img, (x0 + radius, y0), (x1 - radius, y1), colour, -1)
        cv2.rectangle(img, (x0, y0 + radius), (x1, y1 - radius), colour, -1)
    else:
        sides = (((x0 + radius, y0), (x1 - radius, y0)), ((x0 + radius, y1), (x1 - radius, y1)),
                 ((x0, y0 + radius), (x0, y1 - radius)), ((x1, y0 + radius), (x1, y1 - radius)))
        for a, b in sides:
            cv2.line(img, a, b, colour, thickness, _AA)
    for cx, cy, start in ((x0 + radius, y0 + radius, 180), (x1 - radius, y0 + radius, 270),
                          (x1 - radius, y1 - radius, 0), (x0 + radius, y1 - radius, 90)):
        cv2.ellipse(img, (cx, cy), (radius, radius), 0, start, start + 90, colour, thickness, _AA)


def _text(img: Image8, text: str, centre: tuple[float, float], max_w: float, max_h: float,
          colour: Bgr) -> None:
    """Centred text scaled to fit a max_w x max_h box."""
    font = cv2.FONT_HERSHEY_DUPLEX
    (tw, th), _ = cv2.getTextSize(text, font, 1.0, 2)
    scale = min(max_w / max(tw, 1), max_h / max(th, 1))
    thick = max(1, round(scale * 2.2))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    org = (round(centre[0] - tw / 2), round(centre[1] + th / 2))
    cv2.putText(img, text, org, font, scale, colour, thick, _AA)


def paint_face(art: FaceArt, card_mm: tuple[float, float] = CARD_MM,
               px_per_mm: float = 8.0) -> Image8:
    """Paint one face (BGR uint8, card_mm[1] * px_per_mm rows)."""
    style = SYMBOLS[art.symbol]
    colour = hex_to_bgr(art.colour)
    img, m = _blank_card(card_mm, px_per_mm)
    h, w = img.shape[:2]
    corner_h = round(8.0 * px_per_mm)
    inset = round(10.5 * px_per_mm)
    field = (m, inset, w - m, h - inset)
    x0, y0, x1, y1 = field
    ink, paper = WHITE, colour
    if style.layout == "full":
        _rounded_rect(img, (x0, y0), (x1, y1), round(4 * px_per_mm), colour, -1)
    elif style.layout == "diagonal":
        cv2.fillPoly(img, [np.array([(x0, y0), (x1, y0), (x0, y1)], np.int32)], colour, _AA)
        cv2.rectangle(img, (x0, y0), (x1, y1), colour, max(1, round(1.2 * px_per_mm)), _AA)
        ink, paper = INK, WHITE
    elif style.layout == "bands":
        band = round((y1 - y0) * 0.2)
        cv2.rectangle(img, (x0, y0), (x1, y0 + band), colour, -1)
        cv2.rectangle(img, (x0, y1 - band), (x1, y1), colour, -1)
        ink, paper = colour, WHITE
    else:  # disc
        cv2.rectangle(img, (x0, y0), (x1, y1), colour, max(1, round(1.5 * px_per_mm)), _AA)
        cv2.circle(img, ((x0 + x1) // 2, (y0 + y1) // 2), round(0.46 * (x1 - x0)), colour, -1,
                   _AA)
    box = _Box((x0 + x1) / 2, (y0 + y1) / 2, 0.36 * (x1 - x0))
    style.paint(img, box, ink, paper)
    title_y = y1 - 0.09 * (y1 - y0)
    title_colour = WHITE if style.layout in ("full", "bands") else INK
    _text(img, art.title, ((x0 + x1) / 2, title_y), 0.7 * (x1 - x0), 0.05 * (y1 - y0),
          title_colour)
    _corner_indices(img, art.corner, colour, m, corner_h)
    return img


def _corner_indices(img: Image8, text: str, colour: Bgr, margin: int, size: int) -> None:
    """The corner index top-left and, turned 180 degrees, bottom-right."""
    patch = np.full((size, size, 3), 255, np.uint8)
    _text(patch, text, (size / 2, size / 2), 0.8 * size, 0.62 * size, colour)
    h, w = img.shape[:2]
    x = y = round(margin * 0.35)
    img[y : y + size, x : x + size] = np.minimum(img[y : y + size, x : x + size], patch)
    turned = patch[::-1, ::-1]
    img[h - y - size : h - y, w - x - size : w - x] = np.minimum(
        img[h - y - size : h - y, w - x - size : w - x], turned)


def paint_back(colour: str, card_mm: tuple[float, float] = CARD_MM,
               px_per_mm: float = 8.0) -> Image8:
    """Paint the card back: a diamond lattice in `colour` inside a white margin."""
    bgr = hex_to_bgr(colour)
    img, m = _blank_card(card_mm, px_per_mm)
    h, w = img.shape[:2]
    _rounded_rect(img, (m, m), (w - m, h - m), round(3 * px_per_mm), bgr, -1)
    light = tuple(int(0.5 * c + 0.5 * 255) for c in bgr)
    step = 9.0 * px_per_mm
    thick = max(1, round(0.8 * px_per_mm))
    field = np.zeros_like(img)
    for k in range(-int(h / step) - 2, int(w / step) + int(h / step) + 3):
        x = k * step
        cv2.line(field, (round(x), 0), (round(x + h), h), (1, 1, 1), thick, _AA)
        cv2.line(field, (round(x), h), (round(x + h), 0), (1, 1, 1), thick, _AA)
    inner = np.zeros((h, w), bool)
    inner[m + thick * 2 : h - m - thick * 2, m + thick * 2 : w - m - thick * 2] = True
    img[inner & (field[:, :, 0] > 0)] = light
    cv2.circle(img, (w // 2, h // 2), round(9 * px_per_mm), WHITE, -1, _AA)
    cv2.circle(img, (w // 2, h // 2), round(6 * px_per_mm), bgr, -1, _AA)
    return img


def export_deck(arts: Sequence[FaceArt], card_mm: tuple[float, float], out_dir: Path,
                back_colour: str = "#6b3f1d",
                copies: Mapping[str, int] | None = None) -> list[Path]:
    """Write <code>.png per face, back.png, manifest.json and a true-size A4 sheet.pdf.

    The PDF holds `copies[code]` of each face (one each by default), nine to a page,
    with cut lines, then one page of backs. Returns the paths written.
    """
    px_per_mm = PRINT_DPI / 25.4
    out_dir.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    faces: dict[str, Image8] = {}
    for art in arts:
        faces[art.code] = paint_face(art, card_mm, px_per_mm)
        path = out_dir / f"{art.code}.png"
        cv2.imwrite(str(path), faces[art.code])
        written.append(path)
    back = paint_back(back_colour, card_mm, px_per_mm)
    back_path = out_dir / "back.png"
    cv2.imwrite(str(back_path), back)
    written.append(back_path)
    manifest = {
        "card_mm": [card_mm[0], card_mm[1]],
        "faces": {art.code: f"{art.code}.png" for art in arts},
        "back": "back.png",
    }
    manifest_path = out_dir / "manifest.json"
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    written.append(manifest_path)
    wanted = copies or {}
    prints = [faces[a.code] for a in arts for _ in range(wanted.get(a.code, 1))]
    pages = [_sheet(prints[i : i + 9], card_mm, px_per_mm) for i in range(0, len(prints), 9)]
    pages.append(_sheet([back] * 9, card_mm, px_per_mm))
    pdf_path = out_dir / "sheet.pdf"
    images = [Image.fromarray(cv2.cvtColor(p, cv2.COLOR_BGR2RGB)) for p in pages]
    images[0].save(pdf_path, "PDF", resolution=float(PRINT_DPI), save_all=True,
                   append_images=images[1:])
    written.append(pdf_path)
    return written


def _sheet(cards: Sequence[Image8], card_mm: tuple[float, float], px_per_mm: float) -> Image8:
    """One A4 page: up to a 3x3 grid of cards, centred, with cut lines to the paper edge."""
    pw, ph = round(A4_MM[0] * px_per_mm), round(A4_MM[1] * px_per_mm)
    page = np.full((ph, pw, 3), 255, np.uint8)
    cols = max(1, int(A4_MM[0] // card_mm[0]))
    rows = max(1, int(A4_MM[1] // card_mm[1]))
    cw, ch = cards[0].shape[1], cards[0].shape[0]
    ox, oy = (pw - cols * cw) // 2, (ph - rows * ch) // 2
    for i, card in enumerate(cards[: cols * rows]):
        r, c = divmod(i, cols)
        page[oy + r * ch : oy + (r + 1) * ch, ox + c * cw : ox + (c + 1) * cw] = card
    cut = (170, 170, 170)
    for c in range(cols + 1):
        x = ox + c * cw
        cv2.line(page, (x, 0), (x, oy - 1), cut, 2)
        cv2.line(page, (x, oy + rows * ch), (x, ph), cut, 2)
    for r in range(rows + 1):
        y = oy + r * ch
        cv2.line(page, (0, y), (ox - 1, y), cut, 2)
        cv2.line(page, (ox + cols * cw, y), (pw, y), cut, 2)
    return page
