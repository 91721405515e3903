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

from vision.deck_sheets import print_pages

Bgr = tuple[int, int, int]
Image8 = NDArray[np.uint8]

WHITE: Bgr = (255, 255, 255)
INK: Bgr = (40, 40, 40)
EDGE: Bgr = (150, 150, 150)
CARD_MM: tuple[float, float] = (63.0, 88.0)
MAX_MARKS = 3
PRINT_DPI = 300


def hex_to_bgr(colour: str) -> Bgr:
    """'#1d4f9c' -> (156, 79, 29), the order OpenCV draws in."""
    text = colour.lstrip("#")
    if len(text) != 6:
        raise ValueError(f"colour {colour!r} is not #rrggbb")
    r, g, b = (int(text[i : i + 2], 16) for i in (0, 2, 4))
    return (b, g, r)


@dataclass(frozen=True)
class WaterSpace:
    """One half of a Kanaloa ocean card as printed: its colour and its marks."""

    colour: str
    dolphin: bool = False
    island: bool = False


@dataclass(frozen=True)
class FaceArt:
    """How one face looks: the deck JSON's "art" block plus the face's code."""

    code: str
    title: str
    colour: str
    symbol: str
    corner: str
    marks: int = 0  # small hourglass icons under a numeral (Tempus), 0-3
    #: An ocean card's water spaces (Kanaloa), a then b, left to right as printed.
    spaces: tuple[WaterSpace, ...] = ()

    @classmethod
    def from_json(cls, code: str, data: Mapping[str, Any]) -> FaceArt:
        """Read a face's "art" block; raises KeyError on a missing field."""
        art = cls(
            code=code,
            title=str(data["title"]),
            colour=str(data["colour"]),
            symbol=str(data["symbol"]),
            corner=str(data["corner"]),
            marks=int(data.get("marks", 0)),
            spaces=tuple(WaterSpace(str(space["colour"]), bool(space.get("dolphin", False)),
                                    bool(space.get("island", False)))
                         for space in data.get("spaces", ())),
        )
        for space in art.spaces:
            hex_to_bgr(space.colour)
        hex_to_bgr(art.colour)
        if not 0 <= art.marks <= MAX_MARKS:
            raise ValueError(f"face {code!r}: {art.marks} marks, not 0..{MAX_MARKS}")
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


FacePainter = Callable[[Image8, "FaceArt", tuple[int, int, int, int], float], None]
"""Paints a whole field (x0, y0, x1, y1 in pixels) from the face's art, at px_per_mm."""


def _no_symbol(img: Image8, box: _Box, ink: Bgr, paper: Bgr) -> None:
    """The symbol of a face whose field painter draws everything."""


@dataclass(frozen=True)
class SymbolStyle:
    """A symbol painter and the field layout it is printed on.

    A symbol that needs more of the face than a box and two colours (a value, its
    hourglasses) gives a `face` painter instead, which draws the whole field.
    """

    paint: SymbolPainter
    layout: str  # "full", "diagonal", "bands", "disc", "own" (the face painter's), "tile"
    face: FacePainter | None = None


# -- Professor Tempus: numerals, jokers and the two series faces ---------------------------
#
# Every value is printed big and bold (27 mm tall) in the upper part of a strong colour
# field, the hourglasses in a row under it, then the title and, at the bottom of the
# field, a strip of six squares: the value again, as a code a blurred camera still reads
# (white squares for the ones of an even-weight 6-bit word, so any two values differ in
# at least two squares). The layout is not symmetric under a half turn, so an upside-down
# 6 does not look like a 9 (which, with the 6, is also underlined), nor 16 like 91.

NUMERAL_CENTRE_MM = 30.0  # from the card's top edge; the field spans 10.5 to 77.5 mm
NUMERAL_HEIGHT_MM = 27.0
NUMERAL_STROKE = 0.16  # stroke width as a fraction of the digit height
MARKS_CENTRE_MM = 53.5
MARK_SIZE_MM = (5.0, 7.0)
MARK_PITCH_MM = 8.5
TITLE_CENTRE_MM = 61.0
STRIP_TOP_MM = 65.0
STRIP_SQUARE_MM = 7.0
STRIP_PITCH_MM = 7.8
UNDERLINED = {"6", "9"}  # values that read as another value upside down
SILVER: Bgr = (205, 200, 196)
JOKER_DARK: Bgr = (70, 66, 62)
CODE_WORDS = tuple(n for n in range(1, 63) if bin(n).count("1") % 2 == 0)  # 30 words


def value_code(value: int) -> tuple[bool, ...]:
    """The six squares (left to right, True = white) printed for a value 1..30."""
    if not 1 <= value <= len(CODE_WORDS):
        raise ValueError(f"no code strip for the value {value}")
    word = CODE_WORDS[value - 1]
    return tuple(bool(word >> (5 - i) & 1) for i in range(6))


def _numeral(img: Image8, text: str, centre: tuple[float, float], height: float,
             colour: Bgr, underline: bool = False) -> None:
    """A bold numeral, its digits `height` px tall, centred on `centre`."""
    font = cv2.FONT_HERSHEY_DUPLEX
    thick = max(1, round(NUMERAL_STROKE * height))
    (_, th), _ = cv2.getTextSize("0", font, 1.0, 1)
    scale = max(height - thick, 1.0) / th
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    org = (round(centre[0] - tw / 2), round(centre[1] + th / 2))
    cv2.putText(img, text, org, font, scale, colour, thick, _AA)
    if underline:
        y = round(centre[1] + th / 2 + 1.3 * thick)
        cv2.line(img, (round(centre[0] - 0.42 * tw), y), (round(centre[0] + 0.42 * tw), y),
                 colour, max(1, round(0.7 * thick)), _AA)


def _hourglass(img: Image8, centre: tuple[float, float], size: tuple[float, float],
               colour: Bgr, sand: Bgr) -> None:
    """One hourglass icon: two caps and two glass triangles meeting at the waist."""
    cx, cy = centre
    w, h = size
    cap = max(1, round(0.12 * h))
    cv2.rectangle(img, (round(cx - w / 2), round(cy - h / 2)),
                  (round(cx + w / 2), round(cy - h / 2) + cap), colour, -1, _AA)
    cv2.rectangle(img, (round(cx - w / 2), round(cy + h / 2) - cap),
                  (round(cx + w / 2), round(cy + h / 2)), colour, -1, _AA)
    gx = 0.4 * w
    top = np.array([(cx - gx, cy - h / 2 + cap), (cx + gx, cy - h / 2 + cap), (cx, cy)])
    bottom = np.array([(cx, cy), (cx + gx, cy + h / 2 - cap), (cx - gx, cy + h / 2 - cap)])
    for tri in (top, bottom):
        cv2.fillPoly(img, [np.round(tri).astype(np.int32)], colour, _AA)
    grain = np.array([(cx - 0.45 * gx, cy + 0.28 * h), (cx + 0.45 * gx, cy + 0.28 * h), (cx, cy)])
    cv2.fillPoly(img, [np.round(grain).astype(np.int32)], sand, _AA)


def _marks(img: Image8, n: int, cx: float, cy: float, s: float, colour: Bgr,
           sand: Bgr) -> None:
    """n hourglass icons in a row centred on (cx, cy)."""
    for i in range(n):
        x = cx + (i - (n - 1) / 2) * MARK_PITCH_MM * s
        _hourglass(img, (x, cy), (MARK_SIZE_MM[0] * s, MARK_SIZE_MM[1] * s), colour, sand)


def _strip(img: Image8, value: int, cx: float, s: float, ink: Bgr) -> None:
    """The value's code strip: six squares, the ones filled, the zeros outlined."""
    side, pitch = STRIP_SQUARE_MM * s, STRIP_PITCH_MM * s
    y0 = STRIP_TOP_MM * s
    line = max(1, round(0.4 * s))
    for i, bit in enumerate(value_code(value)):
        x0 = cx + (i - 2.5) * pitch - side / 2
        p0, p1 = (round(x0), round(y0)), (round(x0 + side), round(y0 + side))
        cv2.rectangle(img, p0, p1, ink, -1 if bit else line, _AA)


def _value_face(img: Image8, art: FaceArt, field: tuple[int, int, int, int], s: float,
                ink: Bgr, marks_ink: Bgr) -> None:
    """What number cards and jokers share: value, hourglasses, title and code strip."""
    x0, y0, x1, y1 = field
    colour = hex_to_bgr(art.colour)
    cx = (x0 + x1) / 2
    _numeral(img, art.corner, (cx, NUMERAL_CENTRE_MM * s), NUMERAL_HEIGHT_MM * s, ink,
             art.corner in UNDERLINED)
    _marks(img, art.marks, cx, MARKS_CENTRE_MM * s, s, marks_ink, colour)
    _text(img, art.title, (cx, TITLE_CENTRE_MM * s), 0.5 * (x1 - x0), 2.6 * s, ink)
    if art.corner.isdigit():
        _strip(img, int(art.corner), cx, s, ink)


def _numeral_face(img: Image8, art: FaceArt, field: tuple[int, int, int, int],
                  s: float) -> None:
    """A number card: the colour as a full field, the value in white, hourglasses under it."""
    x0, y0, x1, y1 = field
    _rounded_rect(img, (x0, y0), (x1, y1), round(4 * s), hex_to_bgr(art.colour), -1)
    _value_face(img, art, field, s, WHITE, WHITE)


def _joker_face(img: Image8, art: FaceArt, field: tuple[int, int, int, int], s: float) -> None:
    """A joker: a grey field edged left and right by columns of harlequin diamonds."""
    x0, y0, x1, y1 = field
    _rounded_rect(img, (x0, y0), (x1, y1), round(4 * s), hex_to_bgr(art.colour), -1)
    width, n = 5.5 * s, 6
    top, bottom = y0 + 2.0 * s, STRIP_TOP_MM * s - 2.0 * s
    step = (bottom - top) / n
    for left in (x0 + 0.8 * s, x1 - 0.8 * s - width):
        for i in range(n):
            t = top + i * step
            diamond = np.array([(left + width / 2, t), (left + width, t + step / 2),
                                (left + width / 2, t + step), (left, t + step / 2)])
            fill = SILVER if i % 2 == 0 else JOKER_DARK
            cv2.fillPoly(img, [np.round(diamond).astype(np.int32)], fill, _AA)
    _value_face(img, art, field, s, WHITE, JOKER_DARK)


def _series_face(sign: str) -> FacePainter:
    def paint(img: Image8, art: FaceArt, field: tuple[int, int, int, int], s: float) -> None:
        """A series face: a white disc on the colour field, a big sign in it."""
        x0, y0, x1, y1 = field
        colour = hex_to_bgr(art.colour)
        _rounded_rect(img, (x0, y0), (x1, y1), round(4 * s), colour, -1)
        cx, cy = (x0 + x1) / 2, y0 + 0.42 * (y1 - y0)
        cv2.circle(img, (round(cx), round(cy)), round(0.44 * (x1 - x0)), WHITE, -1, _AA)
        arm, bar = 17.0 * s, 4.5 * s
        cv2.rectangle(img, (round(cx - arm), round(cy - bar)), (round(cx + arm), round(cy + bar)),
                      colour, -1, _AA)
        if sign == "+":
            cv2.rectangle(img, (round(cx - bar), round(cy - arm)),
                          (round(cx + bar), round(cy + arm)), colour, -1, _AA)
        # which way the set runs: a triangle pointing up (ascending) or down (descending)
        ty, th = y1 - 0.13 * (y1 - y0), 4.0 * s
        tip, base = (ty - th, ty + th) if sign == "+" else (ty + th, ty - th)
        tri = np.array([(cx, tip), (cx + 1.3 * th, base), (cx - 1.3 * th, base)])
        cv2.fillPoly(img, [np.round(tri).astype(np.int32)], WHITE, _AA)
    return paint


# -- UNO: four colours of numbers and actions, the wilds and a blank spare ---------------
#
# Every coloured card has a full field in its colour and, in its upper part, one big
# bold sign: the value (6 and 9 underlined) or an action icon (skip: a barred circle,
# reverse: two opposite arrows, draw two: two stacked cards marked +2). Under it come
# the title and a strip of six tall bars that codes the sign again (as the squares of
# the Tempus faces do), so that a turned card, its strip on top, never looks like
# another card upright.
# The wilds are black with a four-colour wheel (the draw four smaller, over a big +4);
# the blank spare is a plain grey field that says BLANK (a pale one would look like a
# glare spot on the mat). The ink is white, dark on a light field (yellow), so the signs
# keep their contrast.

UNO_WHEEL: tuple[str, str, str, str] = ("#d51a2c", "#f2d000", "#0e9c5a", "#1f4fd1")
"""The four colours (red, yellow, green, blue): the wilds' wheel, clockwise from top left.
They are the deck data's colours, far apart in hue so a warm lamp keeps them apart."""
UNO_SIGN_CENTRE_MM = 30.0  # from the card's top edge; the field spans 10.5 to 76.5 mm
UNO_SIGN_MM = 30.0  # height of a value, side of an action icon's box
UNO_TITLE_MM = 57.0
UNO_STRIP_TOP_MM = 63.5
UNO_STRIP_BAR_MM = (6.2, 9.5)  # width, height: tall bars weigh more in a blurred view
UNO_STRIP_PITCH_MM = 7.0
UNO_SIGN_CODES = {"uno-skip": 10, "uno-reverse": 11, "uno-draw2": 12, "uno-wild": 13,
                  "uno-wild-draw4": 14, "uno-blank": 15}
LIGHT_FIELD = 150  # a field this bright (grey level) or brighter takes dark ink
UNO_WORDS = (0b000101, 0b010111, 0b001001, 0b100001, 0b111001, 0b011101, 0b011000, 0b011110,
             0b110110, 0b001111, 0b110011, 0b111010, 0b100111, 0b101101, 0b110101, 0b101011)
"""The strip per sign (1 = a filled square, left to right): words of even weight, so any
two differ in two bars at least, assigned by a search that gave the signs that look
most alike when blurred (3 and 5, 1 and 2, 0 and 8...) the most different strips."""


def uno_sign(art: FaceArt) -> int:
    """The sign an UNO face's strip codes: its value 0..9, or 10.. for the other symbols."""
    if art.symbol == "uno-number":
        return int(art.corner)
    return UNO_SIGN_CODES[art.symbol]


def uno_code(sign: int) -> tuple[bool, ...]:
    """The six bars (left to right, True = filled) printed for a sign 0..15."""
    word = UNO_WORDS[sign]
    return tuple(bool(word >> (5 - i) & 1) for i in range(6))


def _ink_on(colour: Bgr) -> Bgr:
    b, g, r = colour
    return INK if 0.114 * b + 0.587 * g + 0.299 * r >= LIGHT_FIELD else WHITE


def _uno_strip(img: Image8, sign: int, cx: float, s: float, ink: Bgr) -> None:
    """The sign's code strip: six bars, the ones filled, the zeros outlined."""
    side, tall = UNO_STRIP_BAR_MM[0] * s, UNO_STRIP_BAR_MM[1] * s
    pitch = UNO_STRIP_PITCH_MM * s
    y0 = UNO_STRIP_TOP_MM * s
    line = max(1, round(0.45 * s))
    for i, bit in enumerate(uno_code(sign)):
        x0 = cx + (i - 2.5) * pitch - side / 2
        p0, p1 = (round(x0), round(y0)), (round(x0 + side), round(y0 + tall))
        cv2.rectangle(img, p0, p1, ink, -1 if bit else line, _AA)


def _zero(img: Image8, centre: tuple[float, float], height: float, ink: Bgr) -> None:
    """A plain oval 0, as tall and as bold as `_numeral`'s digits: the font's slashed zero
    looks like an 8 when blurred."""
    thick = NUMERAL_STROKE * height
    axes = (round(0.3 * height - thick / 2), round(0.5 * height - thick / 2))
    cv2.ellipse(img, (round(centre[0]), round(centre[1])), axes, 0, 0, 360, ink,
                max(1, round(thick)), _AA)


def _uno_skip(img: Image8, box: _Box, ink: Bgr, paper: Bgr) -> None:
    cv2.circle(img, box.pt(0, 0), box.len(0.8), ink, box.len(0.26), _AA)
    d = 0.8 * math.sqrt(0.5)
    cv2.line(img, box.pt(d, -d), box.pt(-d, d), ink, box.len(0.26), _AA)


def _uno_reverse(img: Image8, box: _Box, ink: Bgr, paper: Bgr) -> None:
    for v, way in ((-0.42, 1.0), (0.42, -1.0)):
        tail, neck, tip = -0.9 * way, 0.3 * way, 0.95 * way
        cv2.rectangle(img, box.pt(min(tail, neck), v - 0.13), box.pt(max(tail, neck), v + 0.13),
                      ink, -1, _AA)
        cv2.fillPoly(img, [box.poly([(neck, v - 0.38), (tip, v), (neck, v + 0.38)])], ink, _AA)


def _uno_draw2(img: Image8, box: _Box, ink: Bgr, paper: Bgr) -> None:
    back = box.poly([(-0.85, -0.95), (0.3, -0.95), (0.3, 0.55), (-0.85, 0.55)])
    cv2.polylines(img, [back], True, ink, box.len(0.12), _AA)
    cv2.rectangle(img, box.pt(-0.3, -0.45), box.pt(0.85, 1.0), ink, -1, _AA)
    _text(img, "+2", (box.cx + 0.275 * box.r, box.cy + 0.28 * box.r), 0.95 * box.r,
          0.6 * box.r, paper)


def _wheel(img: Image8, centre: tuple[float, float], radius: float, rim: Bgr, s: float) -> None:
    """The four colours as quarters of a disc, red top left, edged by a rim."""
    c, r = (round(centre[0]), round(centre[1])), round(radius)
    for start, colour in zip((180, 270, 0, 90), UNO_WHEEL, strict=True):
        cv2.ellipse(img, c, (r, r), 0, start, start + 90, hex_to_bgr(colour), -1, _AA)
    cv2.circle(img, c, r, rim, max(1, round(1.2 * s)), _AA)


def _uno_face(symbol: str) -> FacePainter:
    icons: dict[str, SymbolPainter] = {"uno-skip": _uno_skip, "uno-reverse": _uno_reverse,
                                       "uno-draw2": _uno_draw2}

    def paint(img: Image8, art: FaceArt, field: tuple[int, int, int, int], s: float) -> None:
        """An UNO face: the field, its sign, the title and the sign's code strip."""
        x0, y0, x1, y1 = field
        colour = hex_to_bgr(art.colour)
        cx, cy = (x0 + x1) / 2, UNO_SIGN_CENTRE_MM * s
        _rounded_rect(img, (x0, y0), (x1, y1), round(4 * s), colour, -1)
        ink = _ink_on(colour)
        if symbol == "uno-number" and art.corner == "0":
            _zero(img, (cx, cy), UNO_SIGN_MM * s, ink)
        elif symbol == "uno-number":
            _numeral(img, art.corner, (cx, cy), UNO_SIGN_MM * s, ink, art.corner in UNDERLINED)
        elif symbol == "uno-wild":
            _wheel(img, (cx, cy + 2.5 * s), 17.5 * s, WHITE, s)
        elif symbol == "uno-wild-draw4":
            _wheel(img, (cx, 22.5 * s), 9.5 * s, WHITE, s)
            _numeral(img, "+4", (cx, 44.0 * s), 15.0 * s, ink)
        elif symbol == "uno-blank":
            _text(img, "BLANK", (cx, cy), 0.85 * (x1 - x0), 0.4 * UNO_SIGN_MM * s, ink)
        else:
            icons[symbol](img, _Box(cx, cy, 0.5 * UNO_SIGN_MM * s), ink, colour)
        _text(img, art.title, (cx, UNO_TITLE_MM * s), 0.8 * (x1 - x0), 2.8 * s, ink)
        _uno_strip(img, uno_sign(art), cx, s, ink)
    return paint


# -- Kanaloa: Tiki cards, the two specials and the ocean cards -----------------------------
#
# A Tiki card is a full field in its colour with the value big in its upper part, a tiki
# mask under it, the title and the value's code strip (the Tempus squares), so a turned
# 6 or 9 still reads apart (underlined too). The Kanaloa is a deep violet field with one
# big golden mask, the Octopus a slate field with a white disc and the octopus in it; each
# has its own strip word (13, 14). An ocean card shows its two water spaces as two
# upright panels in the upper part of the field, a on the left, each in its colour, with
# a dolphin or the island drawn on it; the card's number and its strip lie under them.
# Every ocean card's two colours are another's the other way round (ocean-1 blue|red,
# ocean-3 red|blue): with the panels off the card's middle, a card laid the other way
# round shows its colours in the lower part, and never looks like its twin upright.

KANALOA_GOLD: Bgr = (40, 180, 235)
SAND: Bgr = (150, 215, 240)
OCEAN_NUMBER_MM = (57.5, 10.0)  # centre from the top edge, height
OCEAN_PANELS_MM = (11.5, 50.0)  # top and bottom of the two water panels
KANALOA_CODES = {"kanaloa": 13, "octopus": 14}


def _tiki_mask(img: Image8, box: _Box, ink: Bgr, paper: Bgr) -> None:
    """A carved tiki mask: a crest of three spikes, a tall head, round eyes, a wide mouth."""
    crest = [(-0.55, -0.62), (-0.42, -1.0), (-0.2, -0.7), (0.0, -1.05), (0.2, -0.7),
             (0.42, -1.0), (0.55, -0.62)]
    cv2.fillPoly(img, [box.poly(crest)], ink, _AA)
    cv2.ellipse(img, box.pt(0, 0.05), (box.len(0.6), box.len(0.8)), 0, 0, 360, ink, -1, _AA)
    for u in (-0.27, 0.27):
        cv2.circle(img, box.pt(u, -0.22), box.len(0.19), paper, -1, _AA)
        cv2.circle(img, box.pt(u, -0.22), box.len(0.08), ink, -1, _AA)
    nose = [(-0.1, -0.1), (0.1, -0.1), (0.16, 0.22), (-0.16, 0.22)]
    cv2.fillPoly(img, [box.poly(nose)], paper, _AA)
    cv2.rectangle(img, box.pt(-0.4, 0.36), box.pt(0.4, 0.62), paper, -1, _AA)
    for u in (-0.2, 0.0, 0.2):
        cv2.line(img, box.pt(u, 0.36), box.pt(u, 0.62), ink, box.len(0.06), _AA)


def _octopus(img: Image8, box: _Box, ink: Bgr, paper: Bgr) -> None:
    """An octopus: a round head, two eyes and eight curling arms."""
    for i in range(8):
        a = math.pi * (0.15 + 0.7 * i / 7)
        points = [(0.3 * math.cos(a) + 0.62 * k * math.cos(a) + 0.12 * math.sin(4 * k),
                   0.1 + 0.3 * math.sin(a) + 0.75 * k * math.sin(a)) for k in np.linspace(0, 1, 8)]
        cv2.polylines(img, [box.poly(points)], False, ink, box.len(0.11), _AA)
    cv2.ellipse(img, box.pt(0, -0.25), (box.len(0.5), box.len(0.55)), 0, 0, 360, ink, -1, _AA)
    for u in (-0.2, 0.2):
        cv2.circle(img, box.pt(u, -0.18), box.len(0.11), paper, -1, _AA)


def _dolphin(img: Image8, box: _Box, ink: Bgr, paper: Bgr) -> None:
    """A leaping dolphin: an arched body, a fin, a tail."""
    cv2.ellipse(img, box.pt(0, 0.25), (box.len(0.75), box.len(0.5)), 0, 200, 340, ink,
                box.len(0.28), _AA)
    cv2.fillPoly(img, [box.poly([(-0.1, -0.2), (0.2, -0.55), (0.25, -0.15)])], ink, _AA)
    cv2.fillPoly(img, [box.poly([(0.62, 0.0), (0.95, -0.05), (0.8, 0.35)])], ink, _AA)
    cv2.circle(img, box.pt(-0.5, -0.02), box.len(0.06), paper, -1, _AA)


def _island(img: Image8, box: _Box, ink: Bgr, paper: Bgr) -> None:
    """The start island: a sand disc with a palm on it."""
    cv2.circle(img, box.pt(0, 0), box.len(1.0), SAND, -1, _AA)
    _palm(img, _Box(box.cx, box.cy, 0.75 * box.r), INK, SAND)


def _tiki_face(img: Image8, art: FaceArt, field: tuple[int, int, int, int], s: float) -> None:
    """A Tiki card: the colour field, the value, a mask, the title and the value's strip."""
    x0, y0, x1, y1 = field
    colour = hex_to_bgr(art.colour)
    ink = _ink_on(colour)
    cx = (x0 + x1) / 2
    _rounded_rect(img, (x0, y0), (x1, y1), round(4 * s), colour, -1)
    _numeral(img, art.corner, (cx, NUMERAL_CENTRE_MM * s), NUMERAL_HEIGHT_MM * s, ink,
             art.corner in UNDERLINED)
    _tiki_mask(img, _Box(cx, MARKS_CENTRE_MM * s, 6.0 * s), ink, colour)
    _text(img, art.title, (cx, TITLE_CENTRE_MM * s + 1.0 * s), 0.6 * (x1 - x0), 2.4 * s, ink)
    _strip(img, int(art.corner), cx, s, ink)


def _special_face(picture: SymbolPainter, ink: Bgr) -> FacePainter:
    def paint(img: Image8, art: FaceArt, field: tuple[int, int, int, int], s: float) -> None:
        """A special card: its field, a white disc with its picture, the title, its strip."""
        x0, y0, x1, y1 = field
        colour = hex_to_bgr(art.colour)
        cx, cy = (x0 + x1) / 2, 35.0 * s
        _rounded_rect(img, (x0, y0), (x1, y1), round(4 * s), colour, -1)
        cv2.circle(img, (round(cx), round(cy)), round(22.0 * s), WHITE, -1, _AA)
        picture(img, _Box(cx, cy + 1.0 * s, 17.0 * s), ink, WHITE)
        _text(img, art.title, (cx, TITLE_CENTRE_MM * s), 0.8 * (x1 - x0), 2.8 * s, WHITE)
        _strip(img, KANALOA_CODES[art.symbol], cx, s, WHITE)
    return paint


_kanaloa_face = _special_face(_tiki_mask, (110, 40, 95))
_octopus_face = _special_face(_octopus, (90, 80, 60))


def _ocean_face(img: Image8, art: FaceArt, field: tuple[int, int, int, int], s: float) -> None:
    """An ocean card: its two water spaces side by side, its number and its strip under them."""
    x0, y0, x1, y1 = field
    cx = (x0 + x1) / 2
    _rounded_rect(img, (x0, y0), (x1, y1), round(4 * s), INK, max(1, round(0.6 * s)))
    _numeral(img, art.corner, (cx, OCEAN_NUMBER_MM[0] * s), OCEAN_NUMBER_MM[1] * s, INK,
             art.corner in UNDERLINED)
    top, bottom = OCEAN_PANELS_MM[0] * s, OCEAN_PANELS_MM[1] * s
    gap = 1.0 * s
    halves = ((x0 + gap, cx - gap / 2), (cx + gap / 2, x1 - gap))
    for (left, right), space in zip(halves, art.spaces, strict=True):
        colour = hex_to_bgr(space.colour)
        _rounded_rect(img, (round(left), round(top)), (round(right), round(bottom)),
                      round(2.5 * s), colour, -1)
        box = _Box((left + right) / 2, (top + bottom) / 2, 0.4 * (right - left))
        if space.island:
            _island(img, box, INK, colour)
        elif space.dolphin:
            _dolphin(img, box, _ink_on(colour), colour)
    _strip(img, int(art.corner), cx, s, INK)


# -- Remi: tiles ------------------------------------------------------------------------
#
# A tile is small (20 x 30 mm) and lies touching others in rows, so it carries no corner
# index and no field: one numeral in its colour, half the tile tall, on a cream face; a
# 6 and a 9 are underlined. A joly is a smiling face in its colour.

CREAM: Bgr = (210, 233, 243)
TILE_NUMERAL = 0.42  # of the tile's height


def _tile_face(img: Image8, art: FaceArt, field: tuple[int, int, int, int], s: float) -> None:
    x0, y0, x1, y1 = field
    _rounded_rect(img, (x0, y0), (x1, y1), round(2 * s), CREAM, -1)
    _numeral(img, art.corner, ((x0 + x1) / 2, (y0 + y1) / 2), TILE_NUMERAL * (y1 - y0),
             hex_to_bgr(art.colour), art.corner in UNDERLINED)


def _tile_joker(img: Image8, art: FaceArt, field: tuple[int, int, int, int], s: float) -> None:
    x0, y0, x1, y1 = field
    _rounded_rect(img, (x0, y0), (x1, y1), round(2 * s), CREAM, -1)
    ink = hex_to_bgr(art.colour)
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, 0.36 * (x1 - x0)
    line = max(1, round(0.8 * s))
    cv2.circle(img, (round(cx), round(cy)), round(r), ink, line, _AA)
    for dx in (-0.35, 0.35):
        cv2.circle(img, (round(cx + dx * r), round(cy - 0.3 * r)), max(1, round(0.12 * r)),
                   ink, -1, _AA)
    cv2.ellipse(img, (round(cx), round(cy + 0.1 * r)), (round(0.55 * r), round(0.45 * r)), 0,
                20, 160, ink, line, _AA)


SYMBOLS: Mapping[str, SymbolStyle] = {
    "crescent": SymbolStyle(_crescent, "full"),
    "dagger": SymbolStyle(_dagger, "diagonal"),
    "chest": SymbolStyle(_chest, "bands"),
    "palm": SymbolStyle(_palm, "disc"),
    "numeral": SymbolStyle(_no_symbol, "own", _numeral_face),
    "tile": SymbolStyle(_no_symbol, "tile", _tile_face),
    "tile-joker": SymbolStyle(_no_symbol, "tile", _tile_joker),
    "joker": SymbolStyle(_no_symbol, "own", _joker_face),
    "series-plus": SymbolStyle(_no_symbol, "own", _series_face("+")),
    "series-minus": SymbolStyle(_no_symbol, "own", _series_face("-")),
    **{name: SymbolStyle(_no_symbol, "own", _uno_face(name))
       for name in ("uno-number", "uno-skip", "uno-reverse", "uno-draw2", "uno-wild",
                    "uno-wild-draw4", "uno-blank")},
    "tiki": SymbolStyle(_no_symbol, "own", _tiki_face),
    "kanaloa": SymbolStyle(_no_symbol, "own", _kanaloa_face),
    "octopus": SymbolStyle(_no_symbol, "own", _octopus_face),
    "ocean": SymbolStyle(_no_symbol, "own", _ocean_face),
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
    if style.layout == "tile" and style.face is not None:  # the whole face, no corners
        line = max(1, round(0.35 * px_per_mm))
        style.face(img, art, (2 * line, 2 * line, w - 1 - 2 * line, h - 1 - 2 * line),
                   px_per_mm)
        return img
    if style.face is not None:
        style.face(img, art, field, px_per_mm)
        _corner_indices(img, art.corner, colour, m, corner_h)
        return img
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

    The PDF holds `copies[code]` of each face (one each by default), nine to a page with
    cut lines, each page followed by its backs for a double-sided print, after a page of
    printing instructions (vision/deck_sheets.py). Returns the paths written.
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
    pages = print_pages(prints, back, card_mm, px_per_mm)
    pdf_path = out_dir / "sheet.pdf"
    images = [Image.fromarray(cv2.cvtColor(p, cv2.COLOR_BGR2RGB)) for p in pages]
    images[0].save(pdf_path, "PDF", resolution=float(PRINT_DPI), save_all=True,
                   append_images=images[1:])
    written.append(pdf_path)
    return written
