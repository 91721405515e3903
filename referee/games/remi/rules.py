"""Remi pe tablă, the laid-out ("etalat") game of seed 004: 106 tiles, hidden racks, a
public discard row, a 45-point opening. Rule ids and [INF] choices: shared/rules/remi.md.

Notation (see docs/notation.md):

    {"seat": 0, "move": "deal", "atu": "red-7"}
    {"seat": 0, "move": "discard", "tile": "blue-3"}
    {"seat": 1, "move": "draw"}
    {"seat": 1, "move": "take", "at": 4, "tile": "red-9"}
    {"seat": 1, "move": "pe-tabla"}
    {"seat": 1, "move": "lay", "melds": [["red-3", "red-4", "red-5"], ["blue-9", "joker", "red-9"]]}
    {"seat": 1, "move": "add", "meld": 2, "tiles": ["red-6"]}
    {"seat": 1, "move": "swap", "meld": 2, "tiles": ["yellow-9"]}
    {"seat": 2, "move": "atu"}
    {"seat": 2, "move": "reveal", "tiles": ["red-1", "joker"]}

Melds are numbered from 1 in the order they were laid; `at` counts the row from its
reversed first tile, 0. Racks are hidden: the referee counts each one (14 or 15 dealt,
+1 a draw, + the tiles taken, - the tiles laid, -1 a discard). What the turn must do with
a tile taken from the row or a freed joly is checked when the turn ends, from what the
table laid; what only the rack can prove is proven when the racks are shown (deferred
verdicts). The tiles and melds: `state`; a move in words: `words`; the page: `page`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from referee.core import TURN_RULE, Game, Header, Move, Option, PageMove, RefereeError, Verdict
from referee.games.remi.page import page_moves
from referee.games.remi.state import (
    DEALT,
    JOKER,
    RUPERE_ANY_RACK,
    TILES,
    Breach,
    Meld,
    Pending,
    RemiState,
    Slot,
    Taken,
    Turn,
    extended,
    rack_value,
    read_meld,
)
from referee.games.remi.table import RemiTable
from referee.games.remi.words import RULE_NAMES, describe, news, rack_proof, unused_proof
from referee.text import Text, t

SHAPES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "deal": (("atu",), ()),
    "draw": ((), ()),
    "take": (("at",), ("tile",)),
    "pe-tabla": ((), ()),
    "lay": (("melds",), ()),
    "add": (("meld", "tiles"), ()),
    "swap": (("meld", "tiles"), ()),
    "discard": (("tile",), ()),
    "atu": ((), ()),
    "reveal": (("tiles",), ()),
}
#: Moves that belong to the turn of the seat to play.
TURN_MOVES = ("draw", "take", "pe-tabla", "lay", "add", "swap", "discard")


class Remi(Game[RemiState]):
    """Remi pe tablă, laid-out, for 2 to 4 players."""

    name = "remi"
    rule_names = RULE_NAMES
    title = "Remi pe tablă"
    min_seats = 2
    max_seats = 4
    options = (
        Option("opening", 45, (45, 50),
               "REMI-OPEN-45: the first lay-out is worth at least 45 points (the seed); "
               "50: Pagat's threshold."),
        Option("joker_ratio", False, (False, True),
               "REMI-JOLY-RATIO: the seed lets a joly stand for any tile; true: a meld needs "
               "twice as many tiles as jolies (Pagat)."),
        Option("pe_tabla", "one_go", ("one_go", "flag"),
               "REMI-PE-TABLA [INF]: who announces 'pe tablă' then goes out in one go, laying "
               "nothing before; flag: the announcement only lets the tile be kept."),
        Option("close_discard", True, (True, False),
               "REMI-CLOSE [INF]: a player goes out by laying all but one tile and "
               "discarding it; false: laying every tile out also goes out."),
        Option("closer_bonus", 50, (0, 50, 100),
               "Round scoring [INF]: points for going out."),
        Option("double_joker", True, (True, False),
               "Round scoring [INF]: the bonus doubles when the last discard is a joly."),
        Option("double_at_once", True, (True, False),
               "Round scoring [INF]: the bonus doubles when the player lays everything in "
               "the turn it goes out, with no earlier lay-out."),
        Option("joker_on_rack", 50, (50, 25),
               "Round scoring [INF]: what a joly left on the rack costs."),
        Option("ace_on_rack", 25, (25, 5),
               "Round scoring [INF]: what a 1 left on the rack costs."),
        Option("unopened", "rack", ("rack", "flat"),
               "Round scoring [INF]: a player who never laid out loses the rack's value; "
               "flat: loses 100."),
        Option("atu_bonus", 50, (50, 25, 0),
               "REMI-ATU: points for showing the tile identical to the atu when dealt it."),
        Option("wall_out", "score", ("score", "nobody"),
               "Round scoring [INF]: when the wall runs out everyone scores with no bonus; "
               "nobody: the round scores nothing."),
        Option("game_end", "target", ("target", "rounds"),
               "REMI-GAME-END [INF]: play until a total reaches the target; rounds: a fixed "
               "number of rounds."),
        Option("target", 1000, (1000, 500, 1500, 2000),
               "REMI-GAME-END: the total that ends the game."),
        Option("rounds_per_dealer", 1, (1, 2, 3),
               "REMI-GAME-END with rounds: how many rounds each player starts."),
    )

    def __init__(self) -> None:
        self.copies = {face.code: face.copies for face in self.deck.faces}

    # -- notation ---------------------------------------------------------------

    def parse_move(self, seat: int, kind: str, fields: Mapping[str, Any]) -> Move:
        if kind not in SHAPES:
            raise RefereeError(f"unknown move {kind!r}; Remi has {', '.join(SHAPES)}")
        required, optional = SHAPES[kind]
        extra = sorted(set(fields) - set(required) - set(optional))
        if extra:
            raise RefereeError(f"a {kind} move has no field {extra[0]!r}")
        missing = [name for name in required if name not in fields]
        if missing:
            raise RefereeError(f'a {kind} move needs "{missing[0]}"')
        for name in ("atu", "tile"):
            if name in fields:
                self._check_tile(fields[name], allow_joker=name == "tile")
        for name in ("at", "meld"):
            if name in fields and (type(fields[name]) is not int or fields[name] < 0):
                raise RefereeError(f"{name} must be a whole number from 0, not {fields[name]!r}")
        if "tiles" in fields:
            self._check_tiles(fields["tiles"], empty=kind == "reveal")
        if "melds" in fields:
            melds = fields["melds"]
            if not isinstance(melds, list) or not melds:
                raise RefereeError("melds lists the melds laid, each a list of tile codes")
            for meld in melds:
                self._check_tiles(meld, empty=False)
        return Move(seat, kind, dict(fields))

    def _check_tile(self, code: Any, allow_joker: bool) -> None:
        if code not in self.copies or (code == JOKER and not allow_joker):
            raise RefereeError(f"a tile's code is like red-7, black-13 or joker, not {code!r}")

    def _check_tiles(self, codes: Any, empty: bool) -> None:
        if not isinstance(codes, list) or (not codes and not empty):
            raise RefereeError("tiles lists tile codes such as red-7 or joker")
        for code in codes:
            self._check_tile(code, allow_joker=True)

    def describe(self, move: Move) -> Text:
        return describe(move)

    # -- state ------------------------------------------------------------------

    def setup(self, header: Header) -> RemiState:
        seats = len(header.seats)
        return RemiState(options=dict(header.options), seats=seats, phase="deal", round=1,
                         starter=header.first, totals=(0,) * seats)

    def to_play(self, state: RemiState) -> int | None:
        if state.phase == "over":
            return None
        if state.phase == "deal":
            return state.starter
        if state.phase == "reveal":
            return next(s for s in range(state.seats) if s not in state.shown)
        return state.turn.seat

    def is_over(self, state: RemiState) -> bool:
        return state.phase == "over"

    def scores(self, state: RemiState) -> dict[int, int]:
        return dict(enumerate(state.totals))

    def deferred(self, before: RemiState, move: Move, after: RemiState) -> list[Verdict]:
        return list(after.proven)

    def page_moves(self, state: RemiState) -> list[PageMove]:
        return page_moves(state)

    def interpreter(self, header: Header, card_mm: tuple[float, float] | None = None
                    ) -> RemiTable:
        return RemiTable(len(header.seats), card_mm or self.deck.card_mm)

    def public_view(self, state: RemiState) -> dict[str, Any]:
        return {
            "round": state.round,
            "phase": state.phase,
            "atu": state.atu,
            "wall": state.wall,
            "row": [{"seat": seat, "tile": code, "dead": at == 0}
                    for at, (seat, code) in enumerate(state.row)],
            "melds": [{"meld": n, "owner": meld.owner, "kind": meld.kind, "tiles": meld.codes,
                       "freed": [slot.freed for slot in meld.slots]}
                      for n, meld in enumerate(state.melds, 1)],
            "racks": {str(seat): count for seat, count in enumerate(state.racks)},
            "opened": {str(seat): opened for seat, opened in enumerate(state.opened)},
            "last_round": {str(seat): points for seat, points in enumerate(state.last_round)},
            "hands": list(state.racks),
            "zones": _zones(state),
        }

    # -- judging ------------------------------------------------------------------

    def judge(self, state: RemiState, move: Move) -> Verdict:
        breaches = self._phase_breaches(state, move)
        if not breaches:
            judges: dict[str, Callable[[RemiState, Move], list[Breach]]] = {
                "deal": _judge_deal,
                "draw": _judge_draw,
                "take": _judge_take,
                "pe-tabla": lambda _state, _move: [],
                "lay": self._judge_lay,
                "add": self._judge_add,
                "swap": self._judge_swap,
                "discard": self._judge_discard,
                "atu": _judge_atu,
                "reveal": lambda _state, _move: [],
            }
            breaches = judges[move.kind](state, move)
        if breaches:
            return Verdict.illegal(breaches)
        after = self.apply(state, move)
        warning = self._misread(state, move)
        if warning is not None:
            return Verdict.unchecked(warning)
        return Verdict.legal(news(state, move, after))

    def _phase_breaches(self, state: RemiState, move: Move) -> list[Breach]:
        kind, seat = move.kind, move.seat
        if state.phase == "over":
            return [("REMI-GAME-END", t("the game is over"))]
        if state.phase == "deal":
            return [] if kind == "deal" else [("REMI-DRAW", t(
                "seat {seat} deals first: 15 tiles to itself, 14 to the others",
                seat=state.starter))]
        if kind == "deal":
            return [("REMI-DRAW", t("the tiles are dealt once a round"))]
        if state.phase == "reveal":
            if kind != "reveal":
                return [("REMI-CLOSE", t("the round is over: every rack is shown"))]
            if seat in state.shown:
                return [("REMI-CLOSE", t("seat {seat} has shown its rack", seat=seat))]
            return []
        if kind == "reveal":
            return [("REMI-CLOSE", t("racks are shown when the round ends"))]
        if kind == "discard" and not state.turn.drew and state.row \
                and state.row[-1][0] == seat and seat != state.turn.seat:
            return [("REMI-DISCARD", t("one discard a turn: seat {seat} has discarded",
                                       seat=seat))]
        if kind in TURN_MOVES and seat != state.turn.seat:
            ended = state.turn.drew and seat == state.next_seat(state.turn.seat)
            if ended and kind in ("draw", "take"):
                return [("REMI-DISCARD", t("seat {seat} ends its turn with a discard first",
                                           seat=state.turn.seat))]
            return [(TURN_RULE, t("it is seat {current}'s turn, not {seat}'s",
                                  current=state.turn.seat, seat=seat))]
        return []

    def _judge_lay(self, state: RemiState, move: Move) -> list[Breach]:
        seat, turn = move.seat, state.turn
        if not turn.drew:
            return [("REMI-DRAW", t("take a tile first: from the wall or the row"))]
        if not state.first_round_over:
            return [("REMI-OPEN-ROUND", t("nobody lays out in the first round of turns"))]
        melds: list[Meld] = []
        for codes in move.get("melds"):
            made = read_meld(codes, seat, state.options)
            if not isinstance(made, Meld):
                return [made]
            melds.append(made)
        breaches = self._rack_breaches(state, seat, sum(len(m.slots) for m in melds))
        if state.opened[seat]:
            return breaches
        points = sum(meld.points() for meld in melds)
        if points < state.options["opening"]:
            breaches.append(("REMI-OPEN-45", t(
                "an opening is worth at least {needed} points, not {points}",
                needed=state.options["opening"], points=points)))
        runs = [meld for meld in melds if meld.kind == "run"]
        if not runs and not (len(melds) == 1 and melds[0].number == 1):
            breaches.append(("REMI-OPEN-RUN", t(
                "an opening has a run, or is a set of 1s alone")))
        taken = turn.taken
        if taken is not None and state.announced[seat] is None and not any(
                taken.code in meld.codes for meld in melds):
            breaches.append((taken.rule, t("the tile taken from the row, {tile}, goes into "
                                           "the opening", tile=taken.code)))
        return breaches

    def _rack_breaches(self, state: RemiState, seat: int, laid: int) -> list[Breach]:
        """REMI-CLOSE: laying out the last tile goes out only where the table allows it."""
        left = state.racks[seat] - laid
        if left == 0 and state.options["close_discard"]:
            return [("REMI-CLOSE", t("keep a tile to discard: a player goes out with a "
                                     "last discard"))]
        return []

    def _target(self, state: RemiState, move: Move) -> Meld | Breach:
        number = int(move.get("meld"))
        if not 1 <= number <= len(state.melds):
            return ("REMI-LAYOFF", t("there is no meld {meld} on the table", meld=number))
        return state.melds[number - 1]

    def _judge_add(self, state: RemiState, move: Move) -> list[Breach]:
        seat, turn = move.seat, state.turn
        if not turn.drew:
            return [("REMI-DRAW", t("take a tile first: from the wall or the row"))]
        if not state.opened[seat]:
            return [("REMI-LAYOFF", t("tiles are laid off only after one's opening"))]
        meld = self._target(state, move)
        if not isinstance(meld, Meld):
            return [meld]
        tiles = move.get("tiles")
        if JOKER in tiles and meld.owner != seat:
            return [("REMI-JOLY-LAYOFF-OWN", t(
                "a joly is laid off only on one's own melds: meld {meld} is seat {owner}'s",
                meld=move.get("meld"), owner=meld.owner))]
        if extended(meld, tiles, seat, state.options) is None:
            return [("REMI-LAYOFF", t("{tiles} do not fit meld {meld}",
                                      tiles=", ".join(tiles), meld=move.get("meld")))]
        return self._rack_breaches(state, seat, len(tiles))

    def _judge_swap(self, state: RemiState, move: Move) -> list[Breach]:
        if not state.turn.drew:
            return [("REMI-DRAW", t("take a tile first: from the wall or the row"))]
        meld = self._target(state, move)
        if not isinstance(meld, Meld):
            return [("REMI-JOLY-SWAP", meld[1])]
        found = _freed(meld, move.get("tiles"))
        if isinstance(found, tuple):
            return [found]
        return []

    def _judge_discard(self, state: RemiState, move: Move) -> list[Breach]:
        turn = state.turn
        if not turn.drew:
            return [("REMI-DRAW", t("take a tile first: from the wall or the row"))]
        if turn.freed and move.get("tile") == JOKER:
            return [("REMI-JOLY-SWAP", t("a freed joly goes into a meld this turn, not onto "
                                         "the row"))]
        return []

    def _misread(self, state: RemiState, move: Move) -> Text | None:
        """A tile seen more often than the set has it, or a take that names another tile
        than the row's: the camera misread, never a verdict."""
        if move.kind == "take" and "tile" in move.fields:
            at = move.get("at")
            if at < len(state.row) and state.row[at][1] != move.get("tile"):
                return t("the row has {tile} there: confirm the tile taken",
                         tile=state.row[at][1])
        if move.kind == "reveal" and len(move.get("tiles")) != state.racks[move.seat]:
            return t("seat {seat}'s rack was counted at {count} tiles: confirm the rack",
                     seat=move.seat, count=state.racks[move.seat])
        seen = state.on_table()
        for code in _codes(move):
            if seen.count(code) + _codes(move).count(code) > self.copies[code]:
                return t("{tile} is on the table already as often as the set has it: the "
                         "camera misread it; confirm the tile", tile=code)
        return None

    # -- applying ------------------------------------------------------------------

    def apply(self, state: RemiState, move: Move) -> RemiState:
        state = replace(state, proven=())
        if state.phase == "over":
            return replace(state, index=state.index + 1)
        if state.phase == "play" and move.kind in TURN_MOVES and move.seat != state.turn.seat:
            state = self._pass_turn(state, move.seat)
        appliers: dict[str, Callable[[RemiState, Move], RemiState]] = {
            "deal": _apply_deal,
            "draw": _apply_draw,
            "take": _apply_take,
            "pe-tabla": _apply_announce,
            "lay": self._apply_lay,
            "add": self._apply_add,
            "swap": _apply_swap,
            "discard": self._apply_discard,
            "atu": _apply_atu,
            "reveal": self._apply_reveal,
        }
        after = appliers[move.kind](state, move)
        return replace(after, index=state.index + 1)

    def _pass_turn(self, state: RemiState, seat: int) -> RemiState:
        """An accepted move by another seat: the turn ends there, its checks made."""
        state = self._end_turn(state)
        return replace(state, turn=Turn(seat, state.index))

    def _end_turn(self, state: RemiState) -> RemiState:
        """What a turn had to do with what it took, proven from what the table laid:
        REMI-RUPERE-LAST and -ANY, REMI-JOLY-SWAP, REMI-PE-TABLA."""
        turn, seat = state.turn, state.turn.seat
        proofs: list[Verdict] = []
        taken = turn.taken
        excused = taken is not None and taken.rule == "REMI-RUPERE-LAST" and \
            state.announced[seat] is not None
        if taken is not None and not excused and taken.code not in turn.used:
            proofs.append(unused_proof(taken.rule, taken.index, seat, taken.code))
        for index in turn.freed:
            proofs.append(unused_proof("REMI-JOLY-SWAP", index, seat, JOKER))
        announced = state.announced[seat]
        if (state.options["pe_tabla"] == "one_go" and announced is not None
                and turn.laid is not None and state.racks[seat] > 0):
            proofs.append(unused_proof("REMI-PE-TABLA", turn.laid, seat, "", announced))
        return replace(state, proven=(*state.proven, *proofs))

    def _apply_lay(self, state: RemiState, move: Move) -> RemiState:
        melds = []
        for codes in move.get("melds"):
            made = read_meld(codes, move.seat, state.options)
            melds.append(made if isinstance(made, Meld) else Meld(
                move.seat, "loose", tuple(Slot(code, move.seat) for code in codes)))
        codes = [code for meld in melds for code in meld.codes]
        turn = state.turn
        opened = state.opened[move.seat]
        turn = replace(turn, laid=turn.laid if turn.laid is not None else state.index,
                       opened=turn.opened or not opened)
        state = replace(state, melds=(*state.melds, *melds), turn=turn,
                        opened=_set(state.opened, move.seat, True))
        return self._out_if_empty(self._laid(state, move.seat, codes), move.seat)

    def _apply_add(self, state: RemiState, move: Move) -> RemiState:
        meld = self._target(state, move)
        if not isinstance(meld, Meld):
            return state
        grown = extended(meld, move.get("tiles"), move.seat, state.options)
        if grown is None:
            return state
        melds = list(state.melds)
        melds[move.get("meld") - 1] = grown
        return self._out_if_empty(
            self._laid(replace(state, melds=tuple(melds)), move.seat, move.get("tiles")),
            move.seat)

    def _out_if_empty(self, state: RemiState, seat: int) -> RemiState:
        """REMI-CLOSE where the table lets laying every tile out go out: the rack emptied
        by a lay-out or a lay-off ends the round, with no last discard."""
        if state.options["close_discard"] or state.racks[seat] > 0:
            return state
        return self._closed(self._end_turn(state), seat, False)

    def _laid(self, state: RemiState, seat: int, codes: list[str]) -> RemiState:
        """Tiles gone from the rack into melds; a joly freed this turn laid again is marked
        as freed once (REMI-JOLY-SWAP)."""
        turn = state.turn
        freed = list(turn.freed)
        melds = list(state.melds)
        for _ in range(min(codes.count(JOKER), len(freed))):
            freed.pop(0)
            for n in range(len(melds) - 1, -1, -1):
                slots = melds[n].slots
                marks = [p for p, s in enumerate(slots) if s.code == JOKER and s.by == seat
                         and not s.freed]
                if marks:
                    slots = tuple(replace(s, freed=True) if p == marks[-1] else s
                                  for p, s in enumerate(slots))
                    melds[n] = replace(melds[n], slots=slots)
                    break
        turn = replace(turn, used=(*turn.used, *codes), freed=tuple(freed))
        return replace(state, melds=tuple(melds), turn=turn,
                       racks=_add(state.racks, seat, -len(codes)))

    def _apply_discard(self, state: RemiState, move: Move) -> RemiState:
        seat, code = move.seat, move.get("tile")
        state = replace(state, row=(*state.row, (seat, code)),
                        racks=_add(state.racks, seat, -1),
                        discarded=state.discarded | {seat})
        state = self._end_turn(state)
        if state.racks[seat] <= 0:
            return self._closed(state, seat, code == JOKER)
        if state.wall <= 0:
            return replace(state, phase="reveal", closer=None)
        following = state.next_seat(seat)
        return replace(state, turn=Turn(following, state.index + 1))

    def _closed(self, state: RemiState, seat: int, joker: bool) -> RemiState:
        """REMI-CLOSE: the round ends; the closer's empty rack is proven when shown."""
        pending = (*state.pending, Pending(seat, state.index, "REMI-CLOSE", 0))
        return replace(state, phase="reveal", closer=seat, closed_joker=joker,
                       closed_at_once=state.turn.opened, pending=pending)

    def _apply_reveal(self, state: RemiState, move: Move) -> RemiState:
        seat, tiles = move.seat, tuple(move.get("tiles"))
        if state.phase != "reveal" or seat in state.shown:
            return state
        # A rack shown as counted proves every count of the round (tiles leave a rack
        # only in sight); a closer's rack with tiles proves the closing false.
        exact = len(tiles) == state.racks[seat]
        proofs = [_rack_proof(item, len(tiles)) for item in state.pending if item.seat == seat
                  and ((exact and item.counted < _needed(item))
                       or (item.rule == "REMI-CLOSE" and tiles))]
        shown = {**state.shown, seat: tiles}
        state = replace(state, shown=shown, proven=(*state.proven, *proofs))
        if len(shown) < state.seats:
            return state
        return self._scored(state)

    def _scored(self, state: RemiState) -> RemiState:
        """Round scoring (§5.6 [INF]), then the next round or the game's end."""
        points = round_scores(state)
        totals = tuple(total + gained for total, gained in zip(state.totals, points,
                                                                strict=True))
        starter = state.next_seat(state.starter)
        options = state.options
        if options["game_end"] == "target":
            over = max(totals) >= options["target"]
        else:
            over = state.round >= options["rounds_per_dealer"] * state.seats
        return RemiState(options=options, seats=state.seats,
                         phase="over" if over else "deal", round=state.round + 1,
                         starter=starter, totals=totals, last_round=points,
                         index=state.index, proven=state.proven)


def _zones(state: RemiState) -> list[dict[str, Any]]:
    """What the page draws of the table: the atu, the row, each meld with its owner."""
    zones: list[dict[str, Any]] = []
    if state.atu is not None and state.phase == "play":
        zones.append({"zone": t("the atu"), "cards": [state.atu], "top": state.atu})
    row = [code for _, code in state.row]
    zones.append({"zone": t("the row"), "cards": row, "top": row[-1] if row else None})
    zones += [{"zone": t("meld {meld} of seat {owner}", meld=number, owner=meld.owner),
               "cards": meld.codes, "top": meld.codes[-1]}
              for number, meld in enumerate(state.melds, 1)]
    return zones


def round_scores(state: RemiState) -> tuple[int, ...]:
    """Each seat's points for the round: its tiles on the table for it, its rack against
    it (a flat 100 for one never laid out, by option), the closer's bonus, the atu's."""
    options = state.options
    if state.closer is None and options["wall_out"] == "nobody":
        return (0,) * state.seats
    points = []
    for seat in range(state.seats):
        rack = sum(rack_value(code, options) for code in state.shown.get(seat, ()))
        if not state.opened[seat] and options["unopened"] == "flat":
            rack = 100
        laid = sum(meld.points(seat) for meld in state.melds)
        score = laid - rack
        if seat == state.closer:
            bonus = int(options["closer_bonus"])
            if state.closed_joker and options["double_joker"]:
                bonus *= 2
            if state.closed_at_once and options["double_at_once"]:
                bonus *= 2
            score += bonus
        if seat == state.atu_claimed:
            score += int(options["atu_bonus"])
        points.append(score)
    return tuple(points)


def _needed(item: Pending) -> int:
    return RUPERE_ANY_RACK if item.rule == "REMI-RUPERE-ANY" else 0


def _rack_proof(item: Pending, shown: int) -> Verdict:
    return Verdict(ok=False, rules=(item.rule,), message=rack_proof(item, shown),
                   severity="illegal", concerns=item.index)


def _freed(meld: Meld, tiles: list[str]) -> int | Breach:
    """The place of the joly `tiles` free in `meld`, or why they free none
    (REMI-JOLY-SWAP, REMI-JOLY-SET)."""
    places = [p for p, slot in enumerate(meld.slots) if slot.code == JOKER]
    if not places:
        return ("REMI-JOLY-SWAP", t("this meld has no joly"))
    free = [p for p in places if not meld.slots[p].freed]
    if not free:
        return ("REMI-JOLY-SWAP", t("a joly is freed only once: this one was"))
    if meld.kind == "run":
        for place in free:
            if tiles == [meld.stands_for(place)]:
                return place
        return ("REMI-JOLY-SWAP", t("the joly is freed by the very tile it stands for"))
    real = [s.code for s in meld.slots if s.code != JOKER]
    slots_after = len(meld.slots) - 1 + len(tiles)
    codes = real + tiles + [JOKER] * (len(places) - 1)
    made = read_meld(codes, meld.owner, {"joker_ratio": False})
    if slots_after != 4 or not isinstance(made, Meld) or made.number != meld.number:
        return ("REMI-JOLY-SET", t("a joly in a set is freed by every missing colour, the "
                                   "set made whole with 4 tiles"))
    return free[0]


def _apply_deal(state: RemiState, move: Move) -> RemiState:
    if state.phase != "deal":
        return state
    seats = state.seats
    racks = tuple(DEALT + (seat == state.starter) for seat in range(seats))
    return replace(state, phase="play", atu=move.get("atu"), wall=TILES - sum(racks),
                   racks=racks, opened=(False,) * seats, announced=(None,) * seats,
                   turn=Turn(state.starter, state.index, drew=True))


def _apply_draw(state: RemiState, move: Move) -> RemiState:
    return replace(state, wall=state.wall - 1, racks=_add(state.racks, move.seat, 1),
                   turn=replace(state.turn, drew=True), took=state.took | {move.seat})


def _apply_take(state: RemiState, move: Move) -> RemiState:
    at = move.get("at")
    if not 0 < at < len(state.row):
        return state
    seat = move.seat
    rule = "REMI-RUPERE-LAST" if at == len(state.row) - 1 else "REMI-RUPERE-ANY"
    code = state.row[at][1]
    pending = state.pending
    if rule == "REMI-RUPERE-ANY":
        pending = (*pending, Pending(seat, state.index, rule, state.racks[seat]))
    taken = Taken(state.index, code, rule)
    return replace(state, row=state.row[:at], pending=pending,
                   racks=_add(state.racks, seat, len(state.row) - at),
                   turn=replace(state.turn, drew=True, taken=taken),
                   took=state.took | {seat})


def _apply_announce(state: RemiState, move: Move) -> RemiState:
    if state.phase != "play" or state.announced[move.seat] is not None:
        return state
    announced = list(state.announced)
    announced[move.seat] = state.index
    return replace(state, announced=tuple(announced))


def _apply_swap(state: RemiState, move: Move) -> RemiState:
    number = move.get("meld")
    if not 1 <= number <= len(state.melds):
        return state
    meld = state.melds[number - 1]
    place = _freed(meld, move.get("tiles"))
    if isinstance(place, tuple):
        return state
    seat, tiles = move.seat, move.get("tiles")
    slots = list(meld.slots)
    slots[place] = Slot(tiles[0], seat)
    slots += [Slot(code, seat) for code in tiles[1:]]
    melds = list(state.melds)
    melds[number - 1] = replace(meld, slots=tuple(slots))
    turn = replace(state.turn, used=(*state.turn.used, *tiles),
                   freed=(*state.turn.freed, state.index))
    return replace(state, melds=tuple(melds), turn=turn,
                   racks=_add(state.racks, seat, 1 - len(tiles)))


def _apply_atu(state: RemiState, move: Move) -> RemiState:
    if state.phase != "play" or state.atu_claimed is not None:
        return state
    return replace(state, atu_claimed=move.seat)


def _judge_deal(state: RemiState, move: Move) -> list[Breach]:
    if move.seat != state.starter:
        return [(TURN_RULE, t("seat {seat} starts this round and deals", seat=state.starter))]
    return []


def _judge_draw(state: RemiState, move: Move) -> list[Breach]:
    if state.turn.drew:
        return [("REMI-DRAW", t("one tile a turn: seat {seat} has its tile",
                                seat=move.seat))]
    if state.wall <= 0:
        return [("REMI-DRAW", t("the wall is empty"))]
    return []


def _judge_take(state: RemiState, move: Move) -> list[Breach]:
    seat, at, row = move.seat, move.get("at"), state.row
    if state.turn.drew:
        return [("REMI-DRAW", t("one tile a turn: seat {seat} has its tile", seat=seat))]
    if at == 0:
        return [("REMI-FIRST-DISCARD-DEAD", t("the reversed first tile of the row is dead"))]
    if at >= len(row):
        return [("REMI-RUPERE-ANY", t("the row has {count} tiles", count=len(row)))]
    if at == len(row) - 1:
        if not state.first_round_over:
            return [("REMI-RUPERE-LAST", t("the row's last tile is taken from the second "
                                           "round of turns on"))]
        return []
    if not state.opened[seat]:
        return [("REMI-RUPERE-ANY", t("only a player who has laid out takes from inside "
                                      "the row"))]
    return []


def _judge_atu(state: RemiState, move: Move) -> list[Breach]:
    if state.atu_claimed is not None:
        return [("REMI-ATU", t("the atu's bonus is seat {seat}'s this round",
                               seat=state.atu_claimed))]
    first = move.seat == state.starter and move.seat not in state.discarded
    if move.seat in state.took or (move.seat == state.starter and not first):
        return [("REMI-ATU", t("the tile identical to the atu is shown from the dealt "
                               "tiles, before one's first draw"))]
    return []


def _codes(move: Move) -> list[str]:
    """The tiles a move puts in sight."""
    if move.kind == "lay":
        return [code for meld in move.get("melds") for code in meld]
    if move.kind in ("add", "swap"):
        return list(move.get("tiles"))
    if move.kind == "discard":
        return [move.get("tile")]
    return []


def _set(values: tuple[bool, ...], seat: int, value: bool) -> tuple[bool, ...]:
    return tuple(value if s == seat else v for s, v in enumerate(values))


def _add(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    return tuple(v + delta if s == seat else v for s, v in enumerate(values))
