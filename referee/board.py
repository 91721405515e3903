"""What the page draws of a game besides its zones of cards: a race track with the seats'
pieces on it, and notes in words (the trump, what a seat has shown it lacks).

A game fills a `Board` from its state (`Game.board`); firmware puts it in the live
snapshot with every sentence in every language, and the page draws any board the same
way, whatever the game. Colours are colour words ("blue"), said in words and painted.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.text import Text


@dataclass(frozen=True)
class TrackSpace:
    """One space of a track, in track order: its name, its colour, its marks (words such
    as "dolphin"), the seats whose pieces stand on it, and the card it is printed on
    (spaces of one card are drawn together)."""

    name: str
    colour: str
    marks: tuple[str, ...] = ()
    seats: tuple[int, ...] = ()
    card: str = ""


@dataclass(frozen=True)
class Note:
    """A sentence the page shows with the board, the colours it names drawn beside it;
    with `seat`, it is shown with that seat."""

    text: Text
    colours: tuple[str, ...] = ()
    seat: int | None = None


@dataclass(frozen=True)
class Board:
    """A game's track (none: empty) and its notes, under `title`."""

    title: Text | None = None
    track: tuple[TrackSpace, ...] = ()
    notes: tuple[Note, ...] = ()
