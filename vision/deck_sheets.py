"""The deck's printable A4 pages, for a double-sided print.

Page 1 says how to print and cut; page 2 is its blank back. Then each page of faces is
followed by its page of backs, laid out mirrored (the sheet is flipped on its long
edge), so that every face gets a back whichever card it is. A printer without duplex
prints the odd pages, then the even ones on the same sheets turned over.
"""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from numpy.typing import NDArray

Image8 = NDArray[np.uint8]

A4_MM = (210.0, 297.0)
CUT_BGR = (170, 170, 170)
INK_BGR = (40, 40, 40)
#: A bar this long on page 1 checks that the print was not scaled.
CHECK_BAR_MM = 50.0


def grid(card_mm: tuple[float, float]) -> tuple[int, int]:
    """(columns, rows) of cards on an A4 page."""
    return max(1, int(A4_MM[0] // card_mm[0])), max(1, int(A4_MM[1] // card_mm[1]))


def sheet(cards: Sequence[Image8], card_mm: tuple[float, float], px_per_mm: float,
          mirrored: bool = False) -> Image8:
    """One A4 page: up to a full grid of cards, centred, with cut lines to the paper edge.
    `mirrored` puts card i in the mirror slot of its row (the back of a flipped sheet)."""
    pw, ph = round(A4_MM[0] * px_per_mm), round(A4_MM[1] * px_per_mm)
    page = np.full((ph, pw, 3), 255, np.uint8)
    cols, rows = grid(card_mm)
    cw, ch = cards[0].shape[1], cards[0].shape[0]
    ox, oy = (pw - cols * cw) // 2, (ph - rows * ch) // 2
    for i, card in enumerate(cards[: cols * rows]):
        r, c = divmod(i, cols)
        if mirrored:
            c = cols - 1 - c
        page[oy + r * ch : oy + (r + 1) * ch, ox + c * cw : ox + (c + 1) * cw] = card
    for c in range(cols + 1):
        x = ox + c * cw
        cv2.line(page, (x, 0), (x, oy - 1), CUT_BGR, 2)
        cv2.line(page, (x, oy + rows * ch), (x, ph), CUT_BGR, 2)
    for r in range(rows + 1):
        y = oy + r * ch
        cv2.line(page, (0, y), (ox - 1, y), CUT_BGR, 2)
        cv2.line(page, (ox + cols * cw, y), (pw, y), CUT_BGR, 2)
    return page


def instructions(cards: int, sheets: int, card_mm: tuple[float, float],
                 px_per_mm: float) -> Image8:
    """Page 1: how to print, check and cut the deck (ASCII, as OpenCV draws text)."""
    pw, ph = round(A4_MM[0] * px_per_mm), round(A4_MM[1] * px_per_mm)
    page = np.full((ph, pw, 3), 255, np.uint8)
    lines = [
        ("tableref print-and-play deck", 6.0),
        (f"{cards} cards on {sheets} sheets of A4, faces and backs.", 3.6),
        ("", 3.6),
        ("1. Print at 100 % (actual size: not 'fit to page'),", 3.6),
        ("   double-sided, flipping on the long edge.", 3.6),
        ("   Each page of faces is followed by its page of backs.", 3.6),
        ("   Without duplex: print the odd pages, put the sheets", 3.6),
        ("   back in the tray turned over, print the even pages.", 3.6),
        (f"2. Check the scale: the bar below is {CHECK_BAR_MM:g} mm long,", 3.6),
        (f"   a card {card_mm[0]:g} x {card_mm[1]:g} mm.", 3.6),
        ("3. Cut along the grey lines at the paper edges.", 3.6),
        ("4. Thick matte paper (200-300 g/m2), or a sleeve with an old", 3.6),
        ("   card behind each one, keeps cards flat for the camera.", 3.6),
    ]
    margin, y = round(20 * px_per_mm), round(30 * px_per_mm)
    for text, height_mm in lines:
        scale = height_mm * px_per_mm / 22.0
        cv2.putText(page, text, (margin, y), cv2.FONT_HERSHEY_SIMPLEX, scale, INK_BGR,
                    max(1, round(scale * 1.5)), cv2.LINE_AA)
        y += round(height_mm * 2.2 * px_per_mm)
    y += round(8 * px_per_mm)
    bar = round(CHECK_BAR_MM * px_per_mm)
    cv2.rectangle(page, (margin, y), (margin + bar, y + round(3 * px_per_mm)), INK_BGR, -1)
    return page


def print_pages(prints: Sequence[Image8], back: Image8, card_mm: tuple[float, float],
                px_per_mm: float) -> list[Image8]:
    """Instructions and its blank back, then each page of faces and its page of backs."""
    cols, rows = grid(card_mm)
    per_page = cols * rows
    faces = [prints[i : i + per_page] for i in range(0, len(prints), per_page)]
    pages = [instructions(len(prints), len(faces) + 1, card_mm, px_per_mm)]
    pages.append(np.full_like(pages[0], 255))
    for group in faces:
        pages.append(sheet(group, card_mm, px_per_mm))
        pages.append(sheet([back] * len(group), card_mm, px_per_mm, mirrored=True))
    return pages
