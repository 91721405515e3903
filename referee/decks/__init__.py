"""Deck data: every card code of a deck, its copies, and the attributes rules need.

The decks are JSON files beside this module (`<name>.json`), read by both the referee
and the vision side (which paints our print-and-play faces from each face's `art`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any


@dataclass(frozen=True)
class Face:
    """One card face: its code, how many copies a deck has, rule attributes, art."""

    code: str
    copies: int
    attrs: dict[str, Any]
    art: dict[str, Any]


@dataclass(frozen=True)
class Deck:
    """A deck as data: its name, the card size in mm, its faces and its back."""

    name: str
    card_mm: tuple[float, float]
    faces: tuple[Face, ...]
    back: dict[str, Any]

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(face.code for face in self.faces)

    @property
    def size(self) -> int:
        return sum(face.copies for face in self.faces)

    def face(self, code: str) -> Face:
        for face in self.faces:
            if face.code == code:
                return face
        raise KeyError(code)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Deck:
        width, height = data["card_mm"]
        return cls(
            name=str(data["deck"]),
            card_mm=(float(width), float(height)),
            faces=tuple(
                Face(
                    code=str(face["code"]),
                    copies=int(face["copies"]),
                    attrs=dict(face.get("attrs", {})),
                    art=dict(face.get("art", {})),
                )
                for face in data["faces"]
            ),
            back=dict(data.get("back", {})),
        )


def load_deck(name: str) -> Deck:
    """The packaged deck `name` (the one read of data the referee does)."""
    text = resources.files(__package__).joinpath(f"{name}.json").read_text(encoding="utf-8")
    return Deck.from_json(json.loads(text))
