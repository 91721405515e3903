"""Deserto (Djeco, J.-J. Derghazarian): a 2x2 square of piles, viziers catch brigands,
brigands steal treasures. Rule ids and [INF] choices: shared/rules/deserto.md.

Notation (see docs/notation.md):

    {"seat": 0, "move": "place", "cell": "nw", "card": "vizier"}
    {"seat": 1, "move": "stuck"}

Cells are `nw`, `ne`, `sw`, `se` of the square printed on the mat; `off` is a card put
down beside the square. `card` is null when the camera could not recognise it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from referee.core import TURN_RULE, Game, Header, Move, Option, RefereeError, Ruling, Verdict
from referee.decks import Deck, load_deck
from referee.seats import DIRECTIONS, TurnOrder, direction_option
from referee.table import Action, AskTable, Play, Press, TableInterpreter, TableView, TakeBack
from referee.text import Text, t

CELLS = ("nw", "ne", "sw", "se")
OFF = "off"
NEIGHBOURS = {"nw": ("ne", "sw"), "ne": ("nw", "se"), "sw": ("nw", "se"), "se": ("ne", "sw")}
HAND_SIZE = 3
#: What each capturing card takes when placed next to it.
PREY = {"vizier": "brigand", "brigand": "treasure"}
#: Each card with its article, as a sentence names it (a language may give them genders).
A_CARD = {
    "vizier": t("a vizier"),
    "brigand": t("a brigand"),
    "treasure": t("a treasure"),
    "oasis": t("an oasis"),
}

Stack = tuple[str | None, ...]


@dataclass(frozen=True)
class DesertoState:
    """The square, the hidden hands (as counts), the draw pile and the won piles."""

    stacks: Mapping[str, Stack]
    hands: tuple[int, ...]
    pile: int
    won: tuple[int, ...]
    turn: TurnOrder
    #: The house options of the match header.
    options: Mapping[str, Any]
    #: Cards put down outside the square (illegal, DES-FORM) and not taken back.
    strays: int = 0
    #: For an empty cell, the top card of the pile last captured from it: the camera
    #: may still see that pile until a player has picked it up.
    captured_tops: Mapping[str, str | None] = ()  # type: ignore[assignment]
    last_capturer: int | None = None
    #: The seat that made the last move: the "previous player" of DES-STUCK.
    last_mover: int | None = None

    def top(self, cell: str) -> str | None:
        stack = self.stacks[cell]
        return stack[-1] if stack else None

    @property
    def occupied(self) -> list[str]:
        return [cell for cell in CELLS if self.stacks[cell]]


class Deserto(Game[DesertoState]):
    """The rules of Deserto for 2 to 4 players."""

    name = "deserto"
    title = "Deserto"
    min_seats = 2
    max_seats = 4
    options = (
        direction_option("Play direction; the rule sheet does not say [INF]."),
        Option(
            "placed_card_stays",
            True,
            (True, False),
            "A capturing card stays in the square (DES-WON-PILE [INF]); "
            "false: it joins the captured pile.",
        ),
        Option(
            "stuck_draws_back",
            True,
            (True, False),
            "A stuck player who gives a card draws back to 3 (DES-STUCK [INF]).",
        ),
        Option(
            "square_at_end",
            "nobody",
            ("nobody", "last_capturer"),
            "Who scores the cards left in the square at the end [INF].",
        ),
    )

    def __init__(self) -> None:
        self._deck = load_deck("deserto")

    @property
    def deck(self) -> Deck:
        return self._deck

    # -- notation ---------------------------------------------------------------

    def parse_move(self, seat: int, kind: str, fields: Mapping[str, Any]) -> Move:
        if kind == "place":
            extra = sorted(set(fields) - {"cell", "card"})
            if extra:
                raise RefereeError(f"a place move has no field {extra[0]!r}")
            cell, card = fields.get("cell"), fields.get("card")
            if cell not in (*CELLS, OFF):
                raise RefereeError(f"cell must be one of {', '.join(CELLS)} or off, not {cell!r}")
            if card is not None and card not in self.deck.codes:
                raise RefereeError(
                    f"card must be one of {', '.join(self.deck.codes)} or null, not {card!r}"
                )
            return Move(seat, kind, {"cell": cell, "card": card})
        if kind == "stuck":
            if fields:
                raise RefereeError("a stuck move has no fields")
            return Move(seat, kind, {})
        raise RefereeError(f"unknown move {kind!r}; Deserto has place and stuck")

    def describe(self, move: Move) -> Text:
        if move.kind == "stuck":
            return t("cannot play and gives a card to the previous player")
        card = move.get("card")
        named = t("an unread card") if card is None else A_CARD[card]
        if move.get("cell") == OFF:
            return t("puts {card} beside the square", card=named)
        return t("puts {card} on {cell}", card=named, cell=move.get("cell"))

    # -- state ------------------------------------------------------------------

    def setup(self, header: Header) -> DesertoState:
        seats = len(header.seats)
        direction = DIRECTIONS[header.options["direction"]]
        return DesertoState(
            stacks={cell: () for cell in CELLS},
            hands=(HAND_SIZE,) * seats,
            pile=self.deck.size - HAND_SIZE * seats,
            won=(0,) * seats,
            turn=TurnOrder(seats, header.first, direction),
            options=dict(header.options),
            captured_tops={},
        )

    def judge(self, state: DesertoState, move: Move) -> Verdict:
        if self.is_over(state):
            return Verdict.illegal(
                [("DES-END", t("the game is over: the pile and every hand are empty"))]
            )
        breaches: list[tuple[str, str]] = []
        if move.seat != state.turn.current:
            breaches.append(
                (
                    TURN_RULE,
                    t(
                        "it is seat {current}'s turn, not {seat}'s",
                        current=state.turn.current,
                        seat=move.seat,
                    ),
                )
            )
        if state.hands[move.seat] == 0:
            breaches.append(
                ("DES-ONE-CARD", t("seat {seat} has no card left to play", seat=move.seat))
            )
        if move.kind == "place":
            breaches += self._placement_breaches(state, move.get("cell"), move.get("card"))
        else:
            breaches += self._stuck_breaches(state)
        if breaches:
            return Verdict.illegal(breaches)
        if move.kind == "place" and move.get("card") is None:
            return Verdict.unchecked(t("card not recognised: confirm it on the page; not checked"))
        return Verdict.legal(self._describe(state, move))

    def _placement_breaches(
        self, state: DesertoState, cell: str, card: str | None
    ) -> list[tuple[str, str]]:
        if cell == OFF:
            return [("DES-FORM", t("the card lies outside the 2x2 square"))]
        breaches: list[tuple[str, str]] = []
        occupied = state.occupied
        if len(occupied) < 4 and state.stacks[cell]:
            breaches.append(
                (
                    "DES-STACK-FULL",
                    t(
                        "no stacking until the square is complete: {empty} cell(s) still empty",
                        empty=4 - len(occupied),
                    ),
                )
            )
        if (
            occupied
            and not state.stacks[cell]
            and not any(state.stacks[n] for n in NEIGHBOURS[cell])
        ):
            breaches.append(("DES-FORM", t("{cell} touches the square only diagonally", cell=cell)))
        if card is not None and state.stacks[cell] and state.top(cell) == card:
            breaches.append(
                ("DES-NO-SAME-ON-SAME", t("{card} may not go on {card}", card=A_CARD[card]))
            )
        neighbour_tops = {state.top(n) for n in NEIGHBOURS[cell]}
        if card == "brigand" and "vizier" in neighbour_tops:
            breaches.append(
                ("DES-NO-BRIGAND-BY-VIZIER", t("a brigand may not go next to a vizier"))
            )
        if card == "treasure" and "brigand" in neighbour_tops:
            breaches.append(
                ("DES-NO-TREASURE-BY-BRIGAND", t("a treasure may not go next to a brigand"))
            )
        return breaches

    def _stuck_breaches(self, state: DesertoState) -> list[tuple[str, str]]:
        # Hands are hidden, so a claim to be stuck can be disproved only when every
        # card could be placed: on an empty square anything goes.
        if not state.occupied:
            return [("DES-STUCK", t("the square is empty, so any card can be placed"))]
        if all(any(self._surely_fits(state, c, code) for c in CELLS) for code in self.deck.codes):
            return [("DES-STUCK", t("every kind of card has a legal place on the square"))]
        return []

    def _surely_fits(self, state: DesertoState, cell: str, card: str) -> bool:
        """Is `card` legal on `cell` whatever the unrecognised cards around it are?"""
        if any(state.stacks[c] and state.top(c) is None for c in (cell, *NEIGHBOURS[cell])):
            return False
        return not self._placement_breaches(state, cell, card)

    def _describe(self, state: DesertoState, move: Move) -> Text:
        if move.kind == "stuck":
            return t(
                "seat {seat} is stuck and gives a card to seat {previous}",
                seat=move.seat,
                previous=_previous_player(state, move.seat),
            )
        after = self.apply(state, move)
        gained = after.won[move.seat] - state.won[move.seat]
        cell, card = move.get("cell"), move.get("card")
        square_full = all(state.stacks[c] or c == cell for c in CELLS)
        if gained and not any(after.stacks.values()) and square_full:
            return t(
                "{card} on {cell}: four viziers, seat {seat} wins the square ({gained} cards)",
                card=card,
                cell=cell,
                seat=move.seat,
                gained=gained,
            )
        if gained:
            return t(
                "{card} on {cell}: captures {gained} card(s)", card=card, cell=cell, gained=gained
            )
        return t("{card} on {cell}", card=card, cell=cell)

    def apply(self, state: DesertoState, move: Move) -> DesertoState:
        seat = move.seat
        hands = list(state.hands)
        won = list(state.won)
        pile = state.pile
        hands[seat] = max(0, hands[seat] - 1)
        stacks = dict(state.stacks)
        captured = dict(state.captured_tops)
        strays, last_capturer = state.strays, state.last_capturer
        options = state.options
        if move.kind == "stuck":
            won[_previous_player(state, seat)] += 1
            draws = options["stuck_draws_back"]
        else:
            draws = True
            cell, card = move.get("cell"), move.get("card")
            if cell == OFF:
                strays += 1
            else:
                stacks[cell] = (*stacks[cell], card)
                captured.pop(cell, None)
                prey = PREY.get(card or "")
                taken = [
                    n
                    for n in NEIGHBOURS[cell]
                    if prey is not None and stacks[n] and stacks[n][-1] == prey
                ]
                for n in taken:
                    won[seat] += len(stacks[n])
                    captured[n] = stacks[n][-1]
                    stacks[n] = ()
                if taken:
                    last_capturer = seat
                    if not options["placed_card_stays"]:
                        won[seat] += 1
                        captured[cell] = card
                        stacks[cell] = stacks[cell][:-1]
                if all(stacks[c] and stacks[c][-1] == "vizier" for c in CELLS):
                    for c in CELLS:
                        won[seat] += len(stacks[c])
                        captured[c] = "vizier"
                        stacks[c] = ()
                    last_capturer = seat
        if draws and pile > 0:
            hands[seat] += 1
            pile -= 1
        turn = state.turn.at(seat).advance()
        turn = _skip_empty_hands(turn, hands)
        return replace(
            state,
            stacks=stacks,
            hands=tuple(hands),
            pile=pile,
            won=tuple(won),
            turn=turn,
            strays=strays,
            captured_tops=captured,
            last_capturer=last_capturer,
            last_mover=seat,
        )

    def to_play(self, state: DesertoState) -> int | None:
        return None if self.is_over(state) else state.turn.current

    def is_over(self, state: DesertoState) -> bool:
        return state.pile == 0 and not any(state.hands)

    def scores(self, state: DesertoState) -> dict[int, int]:
        won = list(state.won)
        if (
            self.is_over(state)
            and state.options["square_at_end"] == "last_capturer"
            and state.last_capturer is not None
        ):
            won[state.last_capturer] += sum(len(stack) for stack in state.stacks.values())
        return dict(enumerate(won))

    def public_view(self, state: DesertoState) -> dict[str, Any]:
        return {
            "zones": [
                {"zone": cell, "cards": list(state.stacks[cell]), "top": state.top(cell)}
                for cell in CELLS
            ],
            "pile": state.pile,
            "hands": list(state.hands),
        }

    def interpreter(self, header: Header) -> DesertoTable:
        return DesertoTable(self.deck.card_mm)


def _previous_player(state: DesertoState, seat: int) -> int:
    """Who took the turn just before `seat`'s (DES-STUCK): that is not always the seat
    before it, as seats with no cards left are passed over at the end."""
    if state.last_mover is not None and state.last_mover != seat:
        return state.last_mover
    return state.turn.before(seat)


def _skip_empty_hands(turn: TurnOrder, hands: list[int]) -> TurnOrder:
    """Once the pile is empty a seat with no cards left is passed over."""
    for _ in range(turn.count):
        if hands[turn.current] > 0:
            return turn
        turn = turn.advance()
    return turn


#: Gap between the cells of the square printed on the mat, in mm.
CELL_GAP_MM = 6.0


class DesertoTable(TableInterpreter[DesertoState]):
    """Reads the square in the middle of the mat.

    A card whose centre lies within a cell's slack of that cell's printed place is in
    that cell; the top one is the one nearest the cell's centre. A card elsewhere in the
    middle of the mat (within one card of the square) has been put beside it (`off`).
    Won piles and the draw pile belong outside that area.
    """

    def __init__(self, card_mm: tuple[float, float]) -> None:
        width, height = card_mm
        self._centres = {
            cell: (sx * (width + CELL_GAP_MM) / 2, sy * (height + CELL_GAP_MM) / 2)
            for cell, (sx, sy) in zip(CELLS, [(-1, -1), (1, -1), (-1, 1), (1, 1)], strict=True)
        }
        self._slack = (width * 0.45, height * 0.45)
        self._middle = (width * 1.75, height * 1.6)
        #: Empty cells the camera has seen empty since their pile was captured.
        self._cleared: set[str] = set()

    def on_view(self, state: DesertoState, view: TableView, last: Ruling | None) -> list[Action]:
        seen, off_square = self._read_square(view)
        if (
            last is not None
            and not last.verdict.ok
            and self._taken_back(state, seen, off_square, last)
        ):
            return [TakeBack(t("seat {seat} took the flagged card back", seat=last.move.seat))]
        changes: list[tuple[str, str | None]] = []
        missing: list[str] = []
        for cell in CELLS:
            stack = state.stacks[cell]
            present = cell in seen
            code = seen.get(cell)
            if not stack:
                if not present:
                    self._cleared.add(cell)
                    continue
                leftover_of_capture = (
                    cell in state.captured_tops
                    and cell not in self._cleared
                    and code in (None, state.captured_tops[cell])
                )
                if not leftover_of_capture:
                    changes.append((cell, code))
                continue
            self._cleared.discard(cell)
            if not present:
                missing.append(cell)
            elif code is not None and stack[-1] is not None and code != stack[-1]:
                changes.append((cell, code))
        for card in off_square[state.strays :]:
            changes.append((OFF, card))
        if missing:
            # The square does not look like the referee's: judging a new card against
            # cards that are not where they should be could flag a play wrongly.
            return [
                AskTable(
                    t(
                        "the referee has cards on {cells} but sees none there: "
                        "put them back, or double press to take a move back",
                        cells=Text.joined(", ", missing),
                    )
                )
            ]
        if len(changes) > 1:
            where = Text.joined(", ", (cell for cell, _ in changes))
            return [
                AskTable(
                    t(
                        "{count} cards changed at once ({cells}): play one at a time",
                        count=len(changes),
                        cells=where,
                    )
                )
            ]
        if changes:
            cell, card = changes[0]
            move = Move(state.turn.current, "place", {"cell": cell, "card": card})
            actions: list[Action] = [Play(move)]
            if card is None:
                actions.append(
                    AskTable(t("which card went on {cell}? The camera is not sure", cell=cell))
                )
            return actions
        return []

    def on_press(self, state: DesertoState, press: Press, last: Ruling | None) -> list[Action]:
        if press.kind == "hold":
            if press.seat != state.turn.current:
                return [
                    AskTable(
                        t(
                            "seat {seat} held its button, but it is seat {current}'s turn",
                            seat=press.seat,
                            current=state.turn.current,
                        )
                    )
                ]
            return [Play(Move(press.seat, "stuck", {}))]
        if press.kind == "double" and last is not None and last.move.seat == press.seat:
            return [TakeBack(t("seat {seat} took back its move", seat=press.seat))]
        return []

    def _read_square(self, view: TableView) -> tuple[dict[str, str | None], list[str | None]]:
        """The top card seen in each cell, and the cards lying beside the square."""
        nearest: dict[str, tuple[float, str | None]] = {}
        off_square: list[str | None] = []
        for card in view.cards:
            cell = self._cell_of(card.x_mm, card.y_mm)
            if cell is None:
                if abs(card.x_mm) < self._middle[0] and abs(card.y_mm) < self._middle[1]:
                    off_square.append(card.code)
                continue
            cx, cy = self._centres[cell]
            distance = (card.x_mm - cx) ** 2 + (card.y_mm - cy) ** 2
            if cell not in nearest or distance < nearest[cell][0]:
                nearest[cell] = (distance, card.code)
        return {cell: code for cell, (_, code) in nearest.items()}, off_square

    def _cell_of(self, x: float, y: float) -> str | None:
        for cell, (cx, cy) in self._centres.items():
            if abs(x - cx) <= self._slack[0] and abs(y - cy) <= self._slack[1]:
                return cell
        return None

    def _taken_back(
        self,
        state: DesertoState,
        seen: Mapping[str, str | None],
        off_square: list[str | None],
        last: Ruling,
    ) -> bool:
        """Does the view show the flagged last card gone again?"""
        if last.move.kind != "place":
            return False
        cell = last.move.get("cell")
        if cell == OFF:
            return len(off_square) < state.strays
        stack = state.stacks[cell]
        if not stack:
            return False
        if len(stack) == 1:
            return cell not in seen
        return cell in seen and seen[cell] is not None and seen[cell] == stack[-2]
