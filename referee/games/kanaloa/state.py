"""Kanaloa's race and round: the ring of water spaces with the boats on it, the trick on
the table, and what the rules, the words and the page all read of them.

The ring is kept as a list of spaces clockwise from a fixed start marker, just before the
island space (shared/rules/kanaloa.md §2.7.2 [INF]); a boat is its laps past the marker
and its place in that list. Removing an ocean card shortens the list and leaves the
marker where it was, so laps keep counting on a shrinking ring.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from referee.core import Verdict

COLOURS = ("blue", "green", "red", "yellow")
SPECIALS = ("kanaloa", "octopus")
HAND_SIZE = 8
#: A round is one trick per card in hand (KAN-DEAL).
TRICKS = HAND_SIZE
#: Ocean cards in the ring by the number of players (§2.3).
RING_CARDS = {3: 10, 4: 11, 5: 12}
#: KAN-ROUND-REMOVE never shortens the ring below this many ocean cards.
MIN_RING = 3


@dataclass(frozen=True)
class Space:
    """One water space: the ocean card it is on, which half (a or b, as printed), its
    colour, and its marks."""

    card: str
    side: str
    colour: str
    dolphin: bool = False
    island: bool = False

    @property
    def name(self) -> str:
        """The space as the notation writes it: "ocean-4b"."""
        return f"{self.card}{self.side}"


@dataclass(frozen=True, order=True)
class Boat:
    """How far a boat has come: laps past the start marker, then its place on the ring.
    Compared as (laps, place), which is "more advanced" (§2.7.3 [INF])."""

    laps: int
    place: int


@dataclass(frozen=True)
class Race:
    """The ring (clockwise from the start marker) and each seat's boat."""

    spaces: tuple[Space, ...]
    boats: tuple[Boat, ...]
    #: Single-space steps each boat has sailed, skipped spaces and dolphin steps included.
    sailed: tuple[int, ...]

    @property
    def cards(self) -> tuple[str, ...]:
        """The ocean cards still in the ring, in ring order."""
        return tuple(dict.fromkeys(space.card for space in self.spaces))

    def space_of(self, seat: int) -> Space:
        return self.spaces[self.boats[seat].place]

    def leading(self) -> int:
        """The most advanced boat's seat (all on the island at the start: the first)."""
        return max(range(len(self.boats)), key=lambda seat: self.boats[seat])

    def trump(self) -> str:
        """KAN-TRUMP: the colour of the space under the most advanced boat (the island,
        blue, while every boat is still on it)."""
        return self.space_of(self.leading()).colour

    def taken(self, place: int, by: int) -> bool:
        """Is the space at `place` held by a boat other than `by`'s?"""
        return any(boat.place == place for seat, boat in enumerate(self.boats) if seat != by)

    def free_cards(self) -> tuple[str, ...]:
        """Ocean cards with no boat on either space (§2.7.1)."""
        held = {self.spaces[boat.place].card for boat in self.boats}
        return tuple(card for card in self.cards if card not in held)

    def step(self, seat: int) -> Race:
        """`seat`'s boat one space on, past the marker into a new lap at the ring's end."""
        boat = self.boats[seat]
        place = boat.place + 1
        moved = Boat(boat.laps + place // len(self.spaces), place % len(self.spaces))
        boats = tuple(moved if s == seat else b for s, b in enumerate(self.boats))
        sailed = tuple(n + 1 if s == seat else n for s, n in enumerate(self.sailed))
        return replace(self, boats=boats, sailed=sailed)

    def laps_rearmost(self, seat: int) -> bool:
        """KAN-END: has `seat`'s boat come a whole lap round onto the rearmost boat's space
        or past it? Checked after every single-space step (§2.7.2 [INF])."""
        size = len(self.spaces)
        boat = self.boats[seat]
        rearmost = min(b for s, b in enumerate(self.boats) if s != seat)
        return boat.laps * size + boat.place >= (rearmost.laps + 1) * size + rearmost.place

    def dolphin_ahead(self, seat: int) -> bool:
        """KAN-DOLPHIN: `seat`'s boat is on a dolphin with both neighbours free."""
        place = self.boats[seat].place
        size = len(self.spaces)
        return (
            self.spaces[place].dolphin
            and not self.taken((place + 1) % size, seat)
            and not self.taken((place - 1) % size, seat)
        )

    def without(self, card: str) -> Race:
        """The ring less a free ocean card; the boats keep their spaces and laps."""
        gone = [place for place, space in enumerate(self.spaces) if space.card == card]
        boats = tuple(
            replace(boat, place=boat.place - sum(place < boat.place for place in gone))
            for boat in self.boats
        )
        spaces = tuple(space for space in self.spaces if space.card != card)
        return replace(self, spaces=spaces, boats=boats)


@dataclass(frozen=True)
class Removal:
    """An ocean card `seat` is to remove now, and the rule that asks for it."""

    seat: int
    rule: str


@dataclass(frozen=True)
class Void:
    """A seat that played another colour than the lead colour: it claimed to hold none.
    A later Tiki of that colour from the same hand in the round proves the revoke."""

    seat: int
    colour: str
    index: int
    card: str
    #: The lead colour came from the first Tiki after a special card led (KAN-LEAD-COLOUR).
    after_special: bool


@dataclass(frozen=True)
class Sailing:
    """What the last trick did, for the verdict and the page: who won it with which card,
    and the boat's way (spaces it passed, dolphin steps taken)."""

    winner: int
    card: str
    trump: str
    landed: str
    skipped: int = 0
    dolphin_steps: int = 0


@dataclass(frozen=True)
class KanaloaState:
    """A round in progress and the race.

    `phase`: "ring" (the ocean cards are laid first), "deal", "play", "over".
    """

    options: Mapping[str, Any]
    seats: int
    phase: str
    round: int
    #: Who deals this round and leads its first trick; after it, who leads the next trick.
    dealer: int
    leader: int
    race: Race | None = None
    #: The trick on the table: (seat, card) in the order played.
    trick: tuple[tuple[int, str], ...] = ()
    #: The cards of the trick before, still lying in sight until the winner takes them.
    previous: tuple[str, ...] = ()
    #: The trump of the trick in progress, fixed when it was led (KAN-TRUMP).
    trump: str | None = None
    tricks: int = 0
    removal: Removal | None = None
    #: The seat whose boat may take a dolphin's step (KAN-DOLPHIN, the owner's choice).
    dolphin: int | None = None
    voids: tuple[Void, ...] = ()
    #: Cards played this round, to tell a camera's misread from a card seen twice.
    played: tuple[str, ...] = ()
    sailing: Sailing | None = None
    winner: int | None = None
    #: Moves applied so far: the index of the next move, for deferred verdicts.
    index: int = 0
    #: Deferred verdicts proven by the last move.
    proven: tuple[Verdict, ...] = ()

    def has_played(self, seat: int) -> bool:
        return any(s == seat for s, _ in self.trick)

    def next_in_trick(self) -> int:
        """The seat to play to the trick: the leader, then clockwise past those who played."""
        for step in range(self.seats):
            seat = (self.leader + step) % self.seats
            if not self.has_played(seat):
                return seat
        return self.leader


def tiki(code: str) -> tuple[str, int] | None:
    """A Tiki card's colour and value; None for a Kanaloa or an Octopus."""
    if code in SPECIALS:
        return None
    colour, value = code.rsplit("-", 1)
    return colour, int(value)


def lead_colour(trick: tuple[tuple[int, str], ...], after_special: str) -> str | None:
    """KAN-LEAD-COLOUR: the first card's colour; after a special lead the first Tiki's
    (`first_tiki`, [INF]) or none to follow (`free`)."""
    for position, (_, code) in enumerate(trick):
        card = tiki(code)
        if card is not None:
            return card[0] if position == 0 or after_special == "first_tiki" else None
    return None


def trick_winner(trick: tuple[tuple[int, str], ...], trump: str) -> tuple[int, str] | None:
    """KAN-WIN: the last Kanaloa; else the highest trump; else the highest of the first
    Tiki's colour. An Octopus never wins; None if nothing can (a misread trick)."""
    kanaloas = [(seat, code) for seat, code in trick if code == "kanaloa"]
    if kanaloas:
        return kanaloas[-1]
    colour = lead_colour(trick, "first_tiki")
    for wanted in (trump, colour):
        cards = [(card[1], seat, code) for seat, code in trick
                 if (card := tiki(code)) is not None and card[0] == wanted]
        if cards:
            _, seat, code = max(cards)
            return seat, code
    return None
