"""Card designs the project never drew, for measuring how well it names a table's own deck.

A table plays with its printed commercial deck, not our print-and-play art
(`vision.deck_art`: a white card, a coloured field, a code strip). These designs look
like the decks sold instead: UNO-like cards coloured to the edge with a tilted white
oval, outlined italic numerals and small corner indices; Tempus-like cards with a
coloured frame, big two-colour numbers and jokers; pale and dark colour sets; real-deck
sizes and corner radii. Each design paints every face of one of our decks (the same
codes, from referee/decks/<deck>.json's faces), so the referee could use it as it is.

A deck is painted from its design and a seed: the seed moves the print run a little
(oval tilt, numeral size, ink tones), so two seeds give two printings of one design.

    >>> design = DESIGNS["uno-classic"]                                   # doctest: +SKIP
    >>> faces = paint_deck(design, uno_json["faces"], seed=1)             # doctest: +SKIP
    >>> faces["red-7"].shape, "back" in faces                             # doctest: +SKIP
    ((696, 448, 3), True)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import cv2
import numpy as np
from numpy.typing import NDArray

Bgr = tuple[int, int, int]
Image8 = NDArray[np.uint8]
BACK = "back"
_AA = cv2.LINE_AA
DARK: Bgr = (30, 28, 26)


@dataclass(frozen=True)
class ForeignDesign:
    """How one foreign deck looks. `colours` maps a face's colour (its attrs' "colour")
    to its field colour; `paper` is the oval (UNO-like) or the field (Tempus-like)."""

    name: str
    deck: Literal["uno", "tempus"]
    card_mm: tuple[float, float]
    corner_radius_mm: float
    border_mm: float
    border: Bgr
    colours: Mapping[str, Bgr]
    paper: Bgr = (250, 250, 248)
    ink: Bgr = DARK
    font: int = cv2.FONT_HERSHEY_TRIPLEX | cv2.FONT_ITALIC
    oval: bool = True
    wild_field: Bgr = (24, 22, 22)
    back: tuple[Bgr, Bgr] = ((24, 22, 22), (40, 40, 200))


UNO_CLASSIC = {"red": (40, 30, 215), "yellow": (10, 205, 250), "green": (70, 160, 40),
               "blue": (190, 105, 0)}
UNO_PALE = {"red": (150, 150, 245), "yellow": (140, 232, 250), "green": (165, 222, 160),
            "blue": (238, 196, 140)}
UNO_DARK = {"red": (40, 25, 135), "yellow": (20, 135, 185), "green": (45, 95, 25),
            "blue": (115, 45, 15)}
TEMPUS_INK = {"red": (45, 40, 190), "violet": (150, 50, 110), "joker": (40, 150, 200)}
TEMPUS_NEON = {"red": (120, 120, 255), "violet": (240, 150, 200), "joker": (90, 215, 240)}

DESIGNS: Mapping[str, ForeignDesign] = {d.name: d for d in (
    ForeignDesign("uno-classic", "uno", (56.0, 87.0), 3.5, 2.5, (255, 255, 255), UNO_CLASSIC),
    ForeignDesign("uno-pale", "uno", (59.0, 91.0), 5.0, 1.5, (70, 60, 60), UNO_PALE,
                  font=cv2.FONT_HERSHEY_COMPLEX, back=((210, 200, 190), (150, 150, 245))),
    ForeignDesign("uno-dark", "uno", (63.0, 88.0), 2.5, 3.0, (20, 20, 20), UNO_DARK,
                  paper=(225, 232, 235), font=cv2.FONT_HERSHEY_DUPLEX, oval=False,
                  back=((60, 30, 20), (30, 120, 170))),
    ForeignDesign("tempus-framed", "tempus", (63.0, 88.0), 3.0, 5.0, (0, 0, 0), TEMPUS_INK,
                  paper=(225, 240, 246), font=cv2.FONT_HERSHEY_TRIPLEX, oval=False,
                  back=((90, 50, 30), (150, 200, 225))),
    ForeignDesign("tempus-tall", "tempus", (70.0, 120.0), 4.0, 1.2, (200, 200, 200),
                  TEMPUS_NEON, paper=(40, 30, 28), ink=(235, 235, 235),
                  font=cv2.FONT_HERSHEY_COMPLEX, oval=False,
                  back=((30, 20, 20), (90, 215, 240))),
)}


@dataclass(frozen=True)
class _Print:
    """One printing of a design: the seed's small departures from it."""

    design: ForeignDesign
    s: float  # pixels per mm
    tilt_deg: float  # of the oval
    numeral: float  # numeral height, as a share of the card width
    tones: Mapping[str, Bgr]

    @property
    def size(self) -> tuple[int, int]:
        return round(self.design.card_mm[0] * self.s), round(self.design.card_mm[1] * self.s)


def paint_deck(design: ForeignDesign, faces: Sequence[Mapping[str, Any]], seed: int,
               px_per_mm: float = 8.0) -> dict[str, Image8]:
    """Every face (code -> upright BGR image) of the deck and its back ("back")."""
    rng = np.random.default_rng(seed)
    tones = {name: tuple(int(np.clip(c + rng.integers(-8, 9), 0, 255)) for c in bgr)
             for name, bgr in design.colours.items()}
    run = _Print(design, px_per_mm, float(-32 + rng.uniform(-6, 6)),
                 float(rng.uniform(0.5, 0.56)),
                 {k: (int(v[0]), int(v[1]), int(v[2])) for k, v in tones.items()})
    painter = _uno_face if design.deck == "uno" else _tempus_face
    out = {str(f["code"]): painter(run, f["attrs"]) for f in faces}
    out[BACK] = _back(run)
    return out


# --- UNO-like --------------------------------------------------------------------------


def _uno_face(run: _Print, attrs: Mapping[str, Any]) -> Image8:
    d, s = run.design, run.s
    colour = run.tones.get(str(attrs.get("colour")), d.wild_field)
    action = attrs.get("action")
    field_colour = d.wild_field if action in ("wild", "wild-draw4", "blank") else colour
    img = _card(run, field_colour)
    w, h = run.size
    centre = (w / 2, h / 2)
    axes = (0.40 * w, 0.30 * h)
    if d.oval or action in ("wild", "wild-draw4"):
        if action in ("wild", "wild-draw4"):
            _wedges(img, centre, axes, run)
        else:
            cv2.ellipse(img, _pt(centre), _pt(axes), run.tilt_deg, 0, 360, d.paper, -1, _AA)
    else:
        inset = round((d.border_mm + 4.0) * s)
        cv2.rectangle(img, (inset, inset), (w - inset, h - inset), d.paper,
                      max(1, round(0.8 * s)), _AA)
    sign_colour = colour if d.oval else d.paper
    big = run.numeral * w
    _sign(img, attrs, centre, big, sign_colour, d, run)
    small = 0.17 * w
    corner = (0.16 * w, 0.12 * h)
    _sign(img, attrs, corner, small, d.paper, d, run, index=True)
    turned = img[::-1, ::-1].copy()
    _sign(turned, attrs, corner, small, d.paper, d, run, index=True)
    return np.ascontiguousarray(turned[::-1, ::-1])


def _sign(img: Image8, attrs: Mapping[str, Any], centre: tuple[float, float], size: float,
          fill: Bgr, d: ForeignDesign, run: _Print, index: bool = False) -> None:
    """The face's value or action drawn size px high at centre, outlined in ink."""
    action, value = attrs.get("action"), attrs.get("value")
    outline = max(2, round(size * 0.09))
    if value is not None:
        _outlined_text(img, str(value), centre, size, fill, d.ink, d.font, outline)
        if value in (6, 9):  # a bar under the numeral, as printed decks do for 6 and 9
            bar_y = centre[1] + 0.66 * size
            half = 0.22 * size
            p0, p1 = _pt((centre[0] - half, bar_y)), _pt((centre[0] + half, bar_y))
            bar = max(2, round(size * 0.06))
            cv2.line(img, p0, p1, d.ink, bar + outline, _AA)
            cv2.line(img, p0, p1, fill, bar, _AA)
    elif action == "skip":
        r = 0.42 * size
        for colour, extra in ((d.ink, outline), (fill, 0)):
            thick = max(2, round(0.16 * size)) + 2 * extra
            cv2.circle(img, _pt(centre), round(r), colour, thick, _AA)
            a = math.radians(-45)
            p0 = _pt((centre[0] - r * math.cos(a), centre[1] - r * math.sin(a)))
            p1 = _pt((centre[0] + r * math.cos(a), centre[1] + r * math.sin(a)))
            cv2.line(img, p0, p1, colour, thick, _AA)
    elif action == "reverse":
        _arrows(img, centre, size, fill, d.ink, outline)
    elif action == "draw2":
        if index:
            _outlined_text(img, "+2", centre, size, fill, d.ink, d.font, outline)
        else:
            _little_cards(img, centre, size, [fill, fill], d.ink, outline)
    elif action == "wild-draw4":
        if index:
            _outlined_text(img, "+4", centre, size, fill, d.ink, d.font, outline)
        else:
            colours = [run.tones[c] for c in ("blue", "green", "yellow", "red")]
            _little_cards(img, centre, size, colours, d.ink, outline)
    elif action == "wild" and index:
        _wedges(img, centre, (0.35 * size, 0.45 * size), run)


def _wedges(img: Image8, centre: tuple[float, float], axes: tuple[float, float],
            run: _Print) -> None:
    """The wild card's tilted oval cut in four wedges of the four colours."""
    for k, name in enumerate(("red", "blue", "yellow", "green")):
        cv2.ellipse(img, _pt(centre), _pt(axes), run.tilt_deg, 90 * k, 90 * (k + 1),
                    run.tones[name], -1, _AA)
    cv2.ellipse(img, _pt(centre), _pt(axes), run.tilt_deg, 0, 360, run.design.paper,
                max(2, round(0.6 * run.s)), _AA)


def _arrows(img: Image8, centre: tuple[float, float], size: float, fill: Bgr, ink: Bgr,
            outline: int) -> None:
    """Two arrows side by side pointing opposite ways, turned 45 degrees: the reverse sign."""
    cx, cy = centre
    r = 0.45 * size
    thick = max(2, round(0.13 * size))
    for sign in (1, -1):
        y = -0.22 * size * sign
        shaft = [(-0.8 * r * sign, y), (0.35 * r * sign, y)]
        head = [(0.3 * r * sign, y - 0.3 * r), (0.9 * r * sign, y), (0.3 * r * sign, y + 0.3 * r)]
        for colour, extra in ((ink, outline), (fill, 0)):
            a, b = (_turn(p, -45, cx, cy) for p in shaft)
            cv2.line(img, a, b, colour, thick + 2 * extra, _AA)
            tip = np.array([_turn(p, -45, cx, cy) for p in head], np.int32)
            if extra:
                cv2.polylines(img, [tip], True, colour, 2 * extra, _AA)
            cv2.fillPoly(img, [tip], colour, _AA)


def _little_cards(img: Image8, centre: tuple[float, float], size: float,
                  colours: list[Bgr], ink: Bgr, outline: int) -> None:
    """Small cards fanned across the centre: two for draw two, four for wild draw four."""
    w, h = 0.36 * size, 0.52 * size
    n = len(colours)
    for k, colour in enumerate(colours):
        dx = (k - (n - 1) / 2) * 0.3 * size
        dy = (k - (n - 1) / 2) * -0.12 * size
        c = (centre[0] + dx, centre[1] + dy)
        box = cv2.boxPoints(((c[0], c[1]), (w, h), -12.0)).astype(np.int32)
        cv2.fillPoly(img, [box], colour, _AA)
        cv2.polylines(img, [box], True, ink, outline, _AA)


# --- Tempus-like -----------------------------------------------------------------------


def _tempus_face(run: _Print, attrs: Mapping[str, Any]) -> Image8:
    d, s = run.design, run.s
    name = str(attrs.get("colour", "joker"))
    colour = run.tones.get(name, run.tones["joker"])
    img = _card(run, d.paper)
    w, h = run.size
    frame = round(d.border_mm * s) + round(1.5 * s)
    if name == "joker":  # a frame of both colours, split on the diagonal
        mask = np.zeros((h, w), np.uint8)
        cv2.fillPoly(mask, [np.array([(0, 0), (w, 0), (0, h)], np.int32)], 255)
        ring = np.zeros((h, w), np.uint8)
        cv2.rectangle(ring, (frame, frame), (w - frame, h - frame), 255,
                      max(2, round(1.6 * s)))
        img[(ring > 0) & (mask > 0)] = run.tones["red"]
        img[(ring > 0) & (mask == 0)] = run.tones["violet"]
    else:
        cv2.rectangle(img, (frame, frame), (w - frame, h - frame), colour,
                      max(2, round(1.6 * s)), _AA)
    centre = (w / 2, 0.47 * h)
    cv2.circle(img, _pt(centre), round(0.36 * w), colour, max(1, round(0.5 * s)), _AA)
    for k in range(12):  # a clock's ticks around the number
        a = math.radians(30 * k)
        p0 = (centre[0] + 0.31 * w * math.cos(a), centre[1] + 0.31 * w * math.sin(a))
        p1 = (centre[0] + 0.36 * w * math.cos(a), centre[1] + 0.36 * w * math.sin(a))
        cv2.line(img, _pt(p0), _pt(p1), colour, max(1, round(0.6 * s)), _AA)
    series = attrs.get("series")
    value = attrs.get("value")
    text = "+" if series == "plus" else "-" if series == "minus" else str(value)
    big = run.numeral * w * (0.8 if len(text) > 1 else 1.0)
    outline = max(2, round(big * 0.06))
    _outlined_text(img, text, centre, big, colour, d.ink, d.font, outline)
    if value in (6, 9):
        bar_y = centre[1] + 0.62 * big
        cv2.line(img, _pt((centre[0] - 0.2 * big, bar_y)), _pt((centre[0] + 0.2 * big, bar_y)),
                 colour, max(2, round(0.08 * big)), _AA)
    dots = int(attrs.get("hourglasses", 0))
    for k in range(dots):  # the card's hourglasses as dots under the clock
        x = w / 2 + (k - (dots - 1) / 2) * 4.0 * s
        cv2.circle(img, _pt((x, 0.83 * h)), round(1.2 * s), colour, -1, _AA)
    small = 0.12 * w
    corner = (frame + 0.05 * w + 0.4 * small * len(text), frame + 0.08 * w)
    _outlined_text(img, text, corner, small, colour, d.ink, d.font, max(1, round(small * 0.05)))
    turned = img[::-1, ::-1].copy()
    _outlined_text(turned, text, corner, small, colour, d.ink, d.font,
                   max(1, round(small * 0.05)))
    return np.ascontiguousarray(turned[::-1, ::-1])


# --- shared ----------------------------------------------------------------------------


def _card(run: _Print, field_colour: Bgr) -> Image8:
    """The card's printed area: the border colour to the edge, the field within."""
    d, s = run.design, run.s
    w, h = run.size
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = d.border
    b = round(d.border_mm * s)
    r = max(1, round(max(d.corner_radius_mm - d.border_mm / 2, 1.0) * s))
    _rounded_fill(img, (b, b), (w - 1 - b, h - 1 - b), r, field_colour)
    return img


def _back(run: _Print) -> Image8:
    """The card back: a field with a tilted oval and a wave across it."""
    d = run.design
    w, h = run.size
    img = _card(run, d.back[0])
    cv2.ellipse(img, _pt((w / 2, h / 2)), _pt((0.38 * w, 0.28 * h)), run.tilt_deg, 0, 360,
                d.back[1], -1, _AA)
    xs = np.linspace(0.2 * w, 0.8 * w, 24)
    ys = h / 2 + 0.05 * h * np.sin(np.linspace(0, 3 * math.pi, 24))
    cv2.polylines(img, [np.column_stack([xs, ys]).astype(np.int32)], False, d.back[0],
                  max(2, round(1.5 * run.s)), _AA)
    return img


def _rounded_fill(img: Image8, p0: tuple[int, int], p1: tuple[int, int], radius: int,
                  colour: Bgr) -> None:
    (x0, y0), (x1, y1) = p0, p1
    cv2.rectangle(img, (x0 + radius, y0), (x1 - radius, y1), colour, -1)
    cv2.rectangle(img, (x0, y0 + radius), (x1, y1 - radius), colour, -1)
    for cx, cy in ((x0 + radius, y0 + radius), (x1 - radius, y0 + radius),
                   (x1 - radius, y1 - radius), (x0 + radius, y1 - radius)):
        cv2.circle(img, (cx, cy), radius, colour, -1, _AA)


def _outlined_text(img: Image8, text: str, centre: tuple[float, float], height: float,
                   fill: Bgr, outline_colour: Bgr, font: int, outline: int) -> None:
    """Text `height` px high centred on centre, filled and outlined."""
    (_, th), _ = cv2.getTextSize(text, font, 1.0, 1)
    scale = height / max(th, 1)
    thick = max(1, round(scale * 2.0))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    org = (round(centre[0] - tw / 2), round(centre[1] + th / 2))
    cv2.putText(img, text, org, font, scale, outline_colour, thick + 2 * outline, _AA)
    cv2.putText(img, text, org, font, scale, fill, thick, _AA)


def _pt(p: tuple[float, float]) -> tuple[int, int]:
    return round(p[0]), round(p[1])


def _turn(p: tuple[float, float], angle_deg: float, cx: float, cy: float) -> tuple[int, int]:
    a = math.radians(angle_deg)
    return (round(cx + p[0] * math.cos(a) - p[1] * math.sin(a)),
            round(cy + p[0] * math.sin(a) + p[1] * math.cos(a)))
