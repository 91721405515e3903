"""How the camera and the buttons see a Remi table: the discard row, the melds in front of
each seat, a freed joly, and the presses for what the camera cannot tell.

The mat's middle band (`ROW_BAND_MM` either side of the centre line) holds the row, read
from its first tile, place 0, the dead one, which lies crosswise (turned a quarter from
the row's other tiles; of two tiles alone, the one the referee has first): in lines from
the top, each from the left, or all the other way round when the crosswise tile ends
that order (a row laid from the right); when no tile lies crosswise, in lines from the
top, each from the left. A
tile gone from the row's end, with every tile after it, is a take (`take`, at once, so a
hold can announce "pe tablă"); a tile more at its end is the turn's discard. The rest of
the mat is the seats' sides (`SIDES`: seat 0 at the bottom edge, then anticlockwise, as
Remi plays); tiles touching in a line there make a meld, and what lies in front of a
seat is that seat's. What a turn laid (new melds, tiles added to a meld, a joly freed by
the tile it stands for) is read when its discard shows, or when its tiles empty the
counted rack, never while the seat may still be laying: a meld half laid is no meld. A
face-down tile in a meld is a joly freed once.

Racks face their owners and the wall stands off the mat, so a draw is the seat's press;
a turn that ends with neither a draw pressed nor a take seen is asked about, and read
once the seat presses. The atu is shown alone in the row's band before the deal; once
the racks are shown at the round's end, what lies in front of a seat and is none of its
melds is its rack (read when it has the counted number of tiles, or when the seat
presses). A tile the camera cannot name stops the reading until the page names it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from referee.core import Move, Ruling
from referee.games.remi.state import JOKER, Meld, RemiState
from referee.table import (
    Action,
    AskTable,
    Play,
    Press,
    TableInterpreter,
    TableView,
    TakeBack,
    ViewCard,
    turned_by,
)
from referee.text import t

#: Tiles whose centre lies this near the mat's centre line (mm) are the row.
ROW_BAND_MM = 40.0
#: Off the row's band, tiles this far from the centre across the mat are the side seats'.
SIDE_X_MM = 200.0
#: Where each seat sits, by the number of players (seat 0 at the mat's bottom edge).
SIDES = {2: ("bottom", "top"), 3: ("bottom", "right", "left"),
         4: ("bottom", "right", "top", "left")}
#: Two tiles of one meld lie about a tile's width apart along its line, in line across it:
#: their centres at most this many tile widths apart along it, and across it.
ALONG_WIDTHS = 1.3
ACROSS_WIDTHS = 0.45
#: The row's first tile lies turned a quarter: this far from the others is crosswise.
CROSSWISE_DEG = 45.0
BACK = "back"


@dataclass(frozen=True)
class SeenMeld:
    """Tiles touching in a line in front of a seat, in the order they lie."""

    owner: int
    codes: tuple[str, ...]


@dataclass(frozen=True)
class Reading:
    """A view as Remi sees it: the row's tiles in order, and the melds by seat."""

    row: tuple[str, ...]
    melds: tuple[SeenMeld, ...]


class RemiTable(TableInterpreter[RemiState]):
    """Reads the row and the melds; presses for a draw, "pe tablă" and a shown rack."""

    def __init__(self, seats: int, tile_mm: tuple[float, float]) -> None:
        """`tile_mm`: the tiles' size (our set's, or a table's own as its profile measured
        it)."""
        self._seats = seats
        self._along_mm = ALONG_WIDTHS * tile_mm[0]
        self._across_mm = ACROSS_WIDTHS * tile_mm[0]
        self._sides = SIDES[seats]
        #: The last view, read again when a press says what it could not (a draw).
        self._view: TableView | None = None
        #: The atu shown for the deal may still lie in the row's band.
        self._atu: str | None = None

    # -- the view --------------------------------------------------------------------

    def on_view(self, state: RemiState, view: TableView, last: Ruling | None) -> list[Action]:
        self._view = view
        unread = tuple(card for card in view.cards if card.code is None)
        if unread:
            # The page names it first; the view is read again then, and what the table
            # does meanwhile waits (a discard taken up, a meld laid on it).
            return [AskTable(t("a tile the camera cannot read lies on the table: name it on "
                               "the page"), unread)]
        if state.phase == "deal":
            return self._deal(state, view)
        reading = self.read(view, _first(state))
        if reading is None:
            return [AskTable(t("tiles lie where no seat sits: move them in front of a "
                               "player"))]
        if self._atu is not None:
            if list(reading.row) == [self._atu] and not state.row:
                return []
            self._atu = None
        if state.phase == "reveal":
            return self._reveal(state, reading, pressed=None)
        if state.phase != "play":
            return []
        return self._turn(state, reading, drew=state.turn.drew)

    def _deal(self, state: RemiState, view: TableView) -> list[Action]:
        """The atu alone in the row's band, nothing else in sight: the round is dealt."""
        faces = [card for card in view.cards if card.code != BACK]
        if len(faces) == 1 and self._in_row(faces[0]) and faces[0].code:
            self._atu = faces[0].code
            return [Play(Move(state.starter, "deal", {"atu": faces[0].code}))]
        return []

    def _in_row(self, card: ViewCard) -> bool:
        """Whether a tile lies in the row's band (short of the side seats' melds)."""
        return abs(card.y_mm) <= ROW_BAND_MM and (self._seats == 2
                                                 or abs(card.x_mm) <= SIDE_X_MM)

    def read(self, view: TableView, first: str | None = None) -> Reading | None:
        """The row and the melds in `view`; None when a tile lies on a side with no seat.
        `first`: the row's first tile as the referee has it, which tells the crosswise
        one of two tiles turned from each other."""
        row_cards = [c for c in view.cards if self._in_row(c) and c.code != BACK]
        upper = sorted((c for c in row_cards if c.y_mm < 0), key=lambda c: c.x_mm)
        lower = sorted((c for c in row_cards if c.y_mm >= 0), key=lambda c: c.x_mm)
        ordered = upper + lower
        by_side: dict[str, list[ViewCard]] = {}
        for card in view.cards:
            if not self._in_row(card):
                by_side.setdefault(_side(card, self._seats), []).append(card)
        along_row = by_side.get("bottom", []) + by_side.get("top", [])
        if len(ordered) > 1 and _crosswise(ordered, along_row, first) is ordered[-1]:
            ordered.reverse()
        row = tuple(str(c.code) for c in ordered)
        melds: list[SeenMeld] = []
        for side, cards in by_side.items():
            lines = _lines(cards, side in ("left", "right"), self._along_mm, self._across_mm)
            if side not in self._sides:
                if any(code != BACK for line in lines for code in line):
                    return None
                continue
            owner = self._sides.index(side)
            for line in lines:
                if any(code != BACK for code in line):  # a lone back is no meld's
                    melds.append(SeenMeld(owner, tuple(JOKER if c == BACK else c
                                                       for c in line)))
        return Reading(row, tuple(melds))

    def _turn(self, state: RemiState, reading: Reading, drew: bool) -> list[Action]:
        """The moves of the turn in progress that the view settles."""
        seat = state.turn.seat
        row = [code for _, code in state.row]
        seen = list(reading.row)
        actions: list[Action] = []
        cut = _common(row, seen)
        discards = seen[cut:]
        if len(discards) > 1:
            return [AskTable(t("{count} new tiles on the row at once: one discard a turn",
                               count=len(discards)))]
        took = cut < len(row)
        if took:
            if cut == 0:
                return [AskTable(t("the row is out of sight: uncover it"))]
            actions.append(Play(Move(seat, "take", {"at": cut, "tile": row[cut]})))
            drew = True
        laid = self._laid(state, reading, seat)
        if isinstance(laid, AskTable):
            return actions + [laid]
        tiles_laid = sum(_count(move) for move in laid)
        closes = tiles_laid > 0 and not discards and \
            _rack_after(state, took, cut, row) - tiles_laid <= 0
        if not discards and not closes:
            return actions
        if not drew:
            return actions + [AskTable(t("seat {seat} ends the turn with no tile seen taken: "
                                         "press the button if it drew from the wall",
                                         seat=seat))]
        actions += [Play(move) for move in laid]
        actions += [Play(Move(seat, "discard", {"tile": code})) for code in discards]
        return actions

    def _laid(self, state: RemiState, reading: Reading, seat: int) -> list[Move] | AskTable:
        """Swaps, the lay-out and lay-offs that turn the table's melds into the view's:
        each meld on the table is found again in front of its owner, as it was, grown,
        or with a joly given up for real tiles; the view's other melds are new."""
        unmatched = list(reading.melds)
        changes: dict[int, tuple[SeenMeld, Counter[str]]] = {}
        for number, meld in enumerate(state.melds, start=1):
            found = _find(meld, unmatched)
            if found is None:
                return AskTable(t("meld {meld} is not in sight as it was laid: put it back",
                                  meld=number))
            unmatched.remove(found)
            changes[number] = (found, Counter(found.codes))
        swaps: list[Move] = []
        adds: list[Move] = []
        for number, (found, codes) in changes.items():
            meld = state.melds[number - 1]
            extra = codes - Counter(meld.codes)
            if Counter(meld.codes)[JOKER] > codes[JOKER]:  # a joly given up
                tiles = _freeing(meld, extra)
                swaps.append(Move(seat, "swap", {"meld": number, "tiles": tiles}))
                extra = extra - Counter(tiles)
            if extra:
                adds.append(Move(seat, "add", {"meld": number,
                                               "tiles": _in_order(found.codes, extra)}))
        new = unmatched
        others = [m for m in new if m.owner != seat]
        if others:
            return AskTable(t("tiles lie in front of seat {owner}, but it is seat {seat}'s "
                              "turn", owner=others[0].owner, seat=seat))
        lay = [Move(seat, "lay", {"melds": [list(m.codes) for m in new]})] if new else []
        return swaps + lay + adds

    # -- the round's end ---------------------------------------------------------------

    def _reveal(self, state: RemiState, reading: Reading, pressed: int | None
                ) -> list[Action]:
        """Each seat's shown rack: what lies in front of it beyond its melds, once it has
        the counted number of tiles (or its seat pressed); an empty counted rack at once."""
        actions: list[Action] = []
        for seat in range(state.seats):
            if seat in state.shown:
                continue
            in_front = [c for m in reading.melds if m.owner == seat for c in m.codes]
            own = Counter(c for m in state.melds if m.owner == seat for c in m.codes)
            tiles = _in_order(in_front, Counter(in_front) - own)
            if len(tiles) == state.racks[seat] or seat == pressed:
                actions.append(Play(Move(seat, "reveal", {"tiles": tiles})))
        return actions

    # -- the buttons -------------------------------------------------------------------

    def on_press(self, state: RemiState, press: Press, last: Ruling | None) -> list[Action]:
        if press.kind == "double" and last is not None and last.move.seat == press.seat:
            return [TakeBack(t("seat {seat} took back its move", seat=press.seat))]
        if state.phase == "reveal" and press.kind == "press" and self._view is not None:
            reading = self.read(self._view, _first(state))
            if reading is not None:
                return [a for a in self._reveal(state, reading, press.seat)
                        if isinstance(a, Play) and a.move.seat == press.seat]
        if state.phase != "play" or press.seat != state.turn.seat:
            return []
        taken = state.turn.taken
        if press.kind == "hold" and taken is not None and taken.rule == "REMI-RUPERE-LAST":
            return [Play(Move(press.seat, "pe-tabla"))]
        if press.kind != "press" or state.turn.drew:
            return []
        actions: list[Action] = [Play(Move(press.seat, "draw"))]
        reading = None if self._view is None else self.read(self._view, _first(state))
        if reading is not None and _common([c for _, c in state.row], list(reading.row)) \
                == len(state.row):
            # the turn the view already shows (a discard seen before the press), read with
            # the drawn tile counted on the rack
            drawn = replace(state, racks=tuple(n + (s == press.seat)
                                               for s, n in enumerate(state.racks)),
                            turn=replace(state.turn, drew=True))
            actions += [a for a in self._turn(drawn, reading, drew=True)
                        if isinstance(a, Play)]
        return actions


def _side(card: ViewCard, seats: int) -> str:
    """The mat's side a tile off the row lies on."""
    if seats > 2 and abs(card.x_mm) > SIDE_X_MM:
        return "right" if card.x_mm > 0 else "left"
    return "bottom" if card.y_mm > 0 else "top"


def _crosswise(row: list[ViewCard], along_row: list[ViewCard], first: str | None
               ) -> ViewCard | None:
    """The row's one tile turned a quarter (45 degrees or more) from most of the others of
    the row and of the bottom and top seats' melds (which lie as the row's do). Where the
    tiles turned from others are not one (two tiles alone, turned from each other), the
    one of them that is the row's `first` tile; None when that leaves none or several."""
    known = [c for c in row + along_row if c.turn_deg is not None]

    def turned_from(card: ViewCard) -> int:
        return sum(turned_by(card, other) >= CROSSWISE_DEG for other in known
                   if other is not card)

    turned = [c for c in row if c.turn_deg is not None and turned_from(c) > 0]
    most = [c for c in turned if 2 * turned_from(c) > len(known) - 1]
    if len(most) == 1:
        return most[0]
    named = [c for c in turned if first is not None and c.code == first]
    return named[0] if len(named) == 1 else None


def _first(state: RemiState) -> str | None:
    return state.row[0][1] if state.row else None


def _lines(cards: list[ViewCard], across_x: bool, along_mm: float, across_mm: float
           ) -> list[tuple[str, ...]]:
    """Tiles touching in lines (along x in front of the bottom and top seats, along y in
    front of the side seats: `across_x`), each line in the order it lies; two tiles of a
    line lie at most `along_mm` apart along it and `across_mm` across it."""

    def along(c: ViewCard) -> float:
        return c.y_mm if across_x else c.x_mm

    def across(c: ViewCard) -> float:
        return c.x_mm if across_x else c.y_mm

    groups: list[list[ViewCard]] = []
    for card in sorted(cards, key=along):
        for group in groups:
            end = group[-1]
            if abs(along(card) - along(end)) <= along_mm and \
                    abs(across(card) - across(end)) <= across_mm:
                group.append(card)
                break
        else:
            groups.append([card])
    return [tuple(str(c.code) for c in group) for group in groups]


def _common(row: list[str], seen: list[str]) -> int:
    """Where the seen row leaves the row as it was: the length of their common start."""
    common = 0
    while common < min(len(row), len(seen)) and row[common] == seen[common]:
        common += 1
    return common


def _find(meld: Meld, seen: list[SeenMeld]) -> SeenMeld | None:
    """The seen meld that is `meld` as it was, grown, or with its jolies given up: the
    owner's line holding every real tile of it."""
    real = Counter(code for code in meld.codes if code != JOKER)
    jokers = Counter(meld.codes)[JOKER]
    candidates = [m for m in seen if m.owner == meld.owner and not real - Counter(m.codes)]
    exact = [m for m in candidates if Counter(m.codes) == Counter(meld.codes)]
    grown = [m for m in candidates if not Counter(meld.codes) - Counter(m.codes)]
    freed = [m for m in candidates if Counter(m.codes)[JOKER] < jokers]
    for group in (exact, grown, freed):
        if group:
            return min(group, key=lambda m: len(m.codes))
    return None


def _freeing(meld: Meld, extra: Counter[str]) -> list[str]:
    """The tiles given for a joly: in a run the one it stands for, in a set every new one."""
    if meld.kind == "run":
        wanted = [meld.stands_for(p) for p, s in enumerate(meld.slots) if s.code == JOKER]
        return [code for code in wanted if code is not None and extra[code]][:1]
    return sorted(extra.elements())


def _in_order(codes: tuple[str, ...] | list[str], wanted: Counter[str]) -> list[str]:
    """The `wanted` tiles (as many of each as counted) in the order `codes` has them."""
    left = Counter(wanted)
    out = []
    for code in codes:
        if left[code] > 0:
            left[code] -= 1
            out.append(code)
    return out


def _count(move: Move) -> int:
    """Tiles a move puts into melds, less a joly it takes back (a swap gives one)."""
    if move.kind == "lay":
        return sum(len(meld) for meld in move.get("melds"))
    if move.kind == "swap":
        return len(move.get("tiles")) - 1
    return len(move.get("tiles"))


def _rack_after(state: RemiState, took: bool, cut: int, row: list[str]) -> int:
    """The seat to play's counted rack once its take (if any) is made."""
    return state.racks[state.turn.seat] + (len(row) - cut if took else 0)
