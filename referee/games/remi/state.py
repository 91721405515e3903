"""Remi's tiles, melds and round, and the queries the rules, the words and the page share.

A run's places are numbered 1 to 14: 14 is a 1 laid high (12-13-1, REMI-ACE), so no run
wraps round. A joly in a meld stands for the tile of its place; in a set of three with a
joly the missing colour is not known (REMI-JOLY-SET), and its value is the set's all the
same. Racks are hidden: the referee counts them (§5.8) and keeps what only a shown rack
can prove for the round's end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product
from typing import Any

from referee.core import Verdict
from referee.text import Text, t

COLOURS = ("red", "yellow", "blue", "black")
JOKER = "joker"
TILES = 106
DEALT = 14
#: A set of 1s is worth 25 a tile (REMI-VALUES).
ACE_IN_SET = 25
#: REMI-RUPERE-ANY: tiles a rack must hold to take from inside the row.
RUPERE_ANY_RACK = 4

Breach = tuple[str, Text]


def tile(code: str) -> tuple[str, int] | None:
    """A numbered tile's colour and number; None for a joly."""
    if code == JOKER:
        return None
    colour, number = code.rsplit("-", 1)
    return colour, int(number)


def place_value(place: int) -> int:
    """REMI-VALUES for a run's place: 2-9 are 5, 10-13 are 10, a 1 low 5 and a 1 high 10."""
    return 5 if place <= 9 else 10


def rack_value(code: str, options: Mapping[str, Any]) -> int:
    """What a tile left on the rack costs (§5.6 [INF]: a joly 50, a 1 25)."""
    found = tile(code)
    if found is None:
        return int(options["joker_on_rack"])
    return int(options["ace_on_rack"]) if found[1] == 1 else place_value(found[1])


@dataclass(frozen=True)
class Slot:
    """One tile of a meld: its code, who put it there, and for a joly whether it was
    freed once already (REMI-JOLY-SWAP: never again)."""

    code: str
    by: int
    freed: bool = False


@dataclass(frozen=True)
class Meld:
    """A run (colour, first place) or a set (number) on the table, and whose it is."""

    owner: int
    kind: str  # "run", "set", or "loose" (an illegal meld the table accepted)
    slots: tuple[Slot, ...]
    colour: str = ""
    start: int = 0
    number: int = 0

    def stands_for(self, position: int) -> str | None:
        """The tile a joly at `position` stands for; None in a set whose colour is open."""
        if self.kind == "run":
            place = self.start + position
            return f"{self.colour}-{1 if place == 14 else place}"
        real = {found[0] for slot in self.slots if (found := tile(slot.code)) is not None}
        missing = [colour for colour in COLOURS if colour not in real]
        return f"{missing[0]}-{self.number}" if len(missing) == 1 and len(self.slots) == 4 \
            else None

    def value(self, position: int) -> int:
        """REMI-VALUES of the tile at `position`; a joly counts as the tile it replaces."""
        if self.kind == "loose":  # an accepted tangle: each tile at its own number
            found = tile(self.slots[position].code)
            return place_value(found[1]) if found is not None else 0
        if self.kind == "set":
            return ACE_IN_SET if self.number == 1 else place_value(self.number)
        return place_value(self.start + position)

    def points(self, by: int | None = None) -> int:
        return sum(self.value(p) for p, slot in enumerate(self.slots)
                   if by is None or slot.by == by)

    @property
    def codes(self) -> list[str]:
        return [slot.code for slot in self.slots]


def _as_run(codes: Sequence[str], start: int) -> bool:
    for offset, code in enumerate(codes):
        place, found = start + offset, tile(code)
        if not 1 <= place <= 14:
            return False
        if found is not None and found[1] != (1 if place == 14 else place):
            return False
    return True


def read_meld(codes: Sequence[str], owner: int, options: Mapping[str, Any]
              ) -> Meld | Breach:
    """The meld `codes` make, laid in that order (either way round), or why they make none:
    REMI-RUN, REMI-SET, REMI-ACE, REMI-JOLY, REMI-JOLY-RATIO."""
    real = [found for code in codes if (found := tile(code)) is not None]
    jokers = len(codes) - len(real)
    if not 3 <= len(codes) <= 13:
        return ("REMI-RUN", t("a meld has 3 to 13 tiles, not {count}", count=len(codes)))
    if not real:
        return ("REMI-JOLY", t("a joly stands for a tile of a meld: a meld of jolies only "
                               "is none"))
    if options["joker_ratio"] and len(real) < 2 * jokers:
        return ("REMI-JOLY-RATIO", t("a meld needs twice as many tiles as jolies: {real} "
                                     "tiles, {jokers} jolies", real=len(real), jokers=jokers))
    slots = tuple(Slot(code, owner) for code in codes)
    colours = {colour for colour, _ in real}
    if len(colours) == 1:
        for ordered in (list(codes), list(reversed(codes))):
            first = next(i for i, code in enumerate(ordered) if code != JOKER)
            found = tile(ordered[first])
            assert found is not None, "the first real tile is a tile"
            starts = {found[1] - first, 14 - first} if found[1] == 1 else {found[1] - first}
            for start in sorted(starts):
                if _as_run(ordered, start):
                    return Meld(owner, "run", tuple(Slot(c, owner) for c in ordered),
                                colour=found[0], start=start)
    numbers = {number for _, number in real}
    if len(numbers) == 1 and len(codes) <= 4 and len(colours) == len(real):
        return Meld(owner, "set", slots, number=real[0][1])
    if len(colours) == 1:
        values = {number for _, number in real}
        if 1 in values and 13 in values:
            return ("REMI-ACE", t("a 1 goes low (1-2-3) or high (12-13-1): a run never "
                                  "wraps round"))
        if jokers:
            return ("REMI-JOLY", t("the jolies cannot fill the gaps of this run"))
        return ("REMI-RUN", t("a run is of consecutive numbers"))
    if len(numbers) == 1:
        return ("REMI-SET", t("a set is of 3 or 4 tiles of one number, each of another "
                              "colour"))
    return ("REMI-RUN", t("a run is of one colour and a set of one number"))


def extended(meld: Meld, codes: Sequence[str], by: int, options: Mapping[str, Any]
             ) -> Meld | None:
    """`meld` with `codes` laid off on it (REMI-LAYOFF), or None if they do not fit.

    On a run each tile goes where its number falls, a 1 at either end, jolies first into
    gaps, then on past the top, then below the bottom."""
    added = [Slot(code, by) for code in codes]
    if meld.kind == "loose":
        return None
    if meld.kind == "set":
        slots = meld.slots + tuple(added)
        made = read_meld([s.code for s in slots], meld.owner, options)
        if isinstance(made, Meld) and made.kind == "set" and made.number == meld.number:
            return Meld(meld.owner, "set", slots, number=meld.number)
        return None
    real = [(slot, tile(slot.code)) for slot in added if slot.code != JOKER]
    jokers = [slot for slot in added if slot.code == JOKER]
    ones = [i for i, (_, found) in enumerate(real) if found is not None and found[1] == 1]
    for highs in product((1, 14), repeat=len(ones)):
        placed: dict[int, Slot] = {meld.start + p: slot for p, slot in enumerate(meld.slots)}
        fits = True
        for i, (slot, found) in enumerate(real):
            assert found is not None, "real tiles are tiles"
            place = highs[ones.index(i)] if i in ones else found[1]
            if found[0] != meld.colour or place in placed:
                fits = False
                break
            placed[place] = slot
        if not fits:
            continue
        spare = list(jokers)
        low, high = min(placed), max(placed)
        for place in range(low, high + 1):
            if place not in placed and spare:
                placed[place] = spare.pop()
        while spare and high < 14:
            high += 1
            placed[high] = spare.pop()
        while spare and low > 1:
            low -= 1
            placed[low] = spare.pop()
        if spare or sorted(placed) != list(range(low, high + 1)) or high - low >= 13:
            continue
        return Meld(meld.owner, "run", tuple(placed[p] for p in range(low, high + 1)),
                    colour=meld.colour, start=low)
    return None


@dataclass(frozen=True)
class Taken:
    """A tile taken from the row this turn, to be used in a meld before the turn ends."""

    index: int
    code: str
    rule: str  # REMI-RUPERE-LAST or REMI-RUPERE-ANY


@dataclass(frozen=True)
class Turn:
    """The turn in progress: whose, what it took, what it laid."""

    seat: int
    index: int = 0
    drew: bool = False
    taken: Taken | None = None
    #: Codes put into melds this turn (laid, laid off, or given for a joly).
    used: tuple[str, ...] = ()
    #: Move indices of the jolies freed this turn and not yet laid again.
    freed: tuple[int, ...] = ()
    #: Move index of this turn's first lay-out, if any.
    laid: int | None = None
    opened: bool = False


@dataclass(frozen=True)
class Pending:
    """What only the seat's shown rack can prove: a take from inside the row on a rack
    counted under 4 tiles, or a closing (`rule`), made at move `index`."""

    seat: int
    index: int
    rule: str
    counted: int


@dataclass(frozen=True)
class RemiState:
    """A round in progress and the game's totals.

    `phase`: "deal", "play", "reveal" (the racks are shown), "over".
    """

    options: Mapping[str, Any]
    seats: int
    phase: str
    round: int
    starter: int
    totals: tuple[int, ...]
    atu: str | None = None
    atu_claimed: int | None = None
    wall: int = 0
    row: tuple[tuple[int, str], ...] = ()
    melds: tuple[Meld, ...] = ()
    racks: tuple[int, ...] = ()
    opened: tuple[bool, ...] = ()
    #: Seats that have discarded this round: once all have, the first round is over.
    discarded: frozenset[int] = frozenset()
    #: Seats that have taken a tile (drawn or from the row) this round.
    took: frozenset[int] = frozenset()
    #: The move index of each seat's "pe tablă" announcement this round.
    announced: tuple[int | None, ...] = ()
    turn: Turn = field(default_factory=lambda: Turn(0))
    closer: int | None = None
    #: The closer went out by discarding a joly / with its first lay-out in that turn.
    closed_joker: bool = False
    closed_at_once: bool = False
    pending: tuple[Pending, ...] = ()
    shown: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    last_round: tuple[int, ...] = ()
    index: int = 0
    proven: tuple[Verdict, ...] = ()

    @property
    def first_round_over(self) -> bool:
        """§5.7.6 [INF]: every seat has discarded once, the opening player's discard too."""
        return len(self.discarded) == self.seats

    def next_seat(self, seat: int) -> int:
        """Play goes anticlockwise: seats are numbered in playing order."""
        return (seat + 1) % self.seats

    def on_table(self) -> list[str]:
        return [code for _, code in self.row] + [c for meld in self.melds for c in meld.codes]
