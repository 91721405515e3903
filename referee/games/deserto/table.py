"""How the camera sees a Deserto square: cards in cells, beside it, taken back."""

from __future__ import annotations

from collections.abc import Mapping

from referee.core import Move, Ruling
from referee.games.deserto.state import CELLS, OFF, DesertoState
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
from referee.text import Text, t

#: Gap between the cells of the square printed on the mat, in mm.
CELL_GAP_MM = 6.0
#: A cell's top card seen turned by this much (degrees) since it came, its face the same:
#: perhaps a card put on an identical one, perhaps a nudge; the table is asked.
RESTACK_DEG = 6.0
#: A seat presses to say it put a card on an identical one: the cell is the one whose top
#: turned the most since it came, by this much at least and twice as much as any other
#: (the camera outlines two identical cards lying one on the other as about one).
PRESSED_TURN_DEG = 1.5


class DesertoTable(TableInterpreter[DesertoState]):
    """Reads the square in the middle of the mat.

    A card whose centre lies within a cell's slack of that cell's printed place is in
    that cell; the top one is the one nearest the cell's centre. A card elsewhere in the
    middle of the mat (within one card of the square) has been put beside it (`off`).
    Won piles and the draw pile belong outside that area.

    The camera cannot tell a card put on an identical one from a nudge, nor whose hand put
    a card down: a press says the first (on the cell whose top turned the most since it
    came), a double press of another seat right after a card was seen the second.
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
        #: The top card of each cell in the last view, and as the camera first saw each
        #: cell's top face there (how it lay when it came); the move the last view made,
        #: which a double press of another seat can claim.
        self._tops: dict[str, ViewCard] = {}
        self._came: dict[str, ViewCard] = {}
        self._claimable: Move | None = None

    def on_view(self, state: DesertoState, view: TableView, last: Ruling | None) -> list[Action]:
        actions = self._on_square(state, view, last)
        self._claimable = next(
            (action.move for action in actions if isinstance(action, Play)), None)
        return actions

    def _on_square(self, state: DesertoState, view: TableView,
                   last: Ruling | None) -> list[Action]:
        self._tops = self._top_cards(view)
        self._came = {cell: self._settled(cell, top) for cell, top in self._tops.items()}
        turned = [cell for cell, turn in self._turns(state).items() if turn >= RESTACK_DEG]
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
        if not changes and turned:
            return [AskTable(t("the card on {cell} lies turned: a seat that put a card on an "
                               "identical one there presses its button (a double press takes "
                               "it back)", cell=turned[0]))]
        if changes:
            cell, card = changes[0]
            if cell == OFF and card is None:
                # Beside the square and unreadable: a hand's fragment can take a card's
                # outline; a flag for it could be a flag for nothing.
                return [AskTable(t("which card went on {cell}? The camera is not sure",
                                   cell=cell))]
            move = Move(state.turn.current, "place", {"cell": cell, "card": card})
            actions: list[Action] = [Play(move)]
            if card is None:
                # Until the table names it, a card put on it or next to it waits: it
                # would be judged against a card nobody knows.
                actions.append(
                    AskTable(t("which card went on {cell}? The camera is not sure", cell=cell),
                             (self._tops[cell],))
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
        claimable, self._claimable = self._claimable, None
        if press.kind == "double":
            if last is not None and last.move.seat == press.seat:
                self._came = {}  # a card lifted off an identical one: seen afresh
                return [TakeBack(t("seat {seat} took back its move", seat=press.seat))]
            if last is not None and claimable is not None and last.move == claimable:
                # The camera gave the card it just saw to the seat whose turn it was; the
                # seat that put it down says it was its own.
                return [TakeBack(t("seat {seat} says it put that card down", seat=press.seat)),
                        Play(Move(press.seat, last.move.kind, dict(last.move.fields)))]
            return []
        if press.kind == "press":
            return self._restacked(state, press.seat)
        return []

    def _restacked(self, state: DesertoState, seat: int) -> list[Action]:
        """A press: "I put a card on an identical one", on the cell whose top the camera
        saw turn the most since it came (never a guess between two)."""
        turns = sorted(self._turns(state).items(), key=lambda item: -item[1])
        if not turns or turns[0][1] < PRESSED_TURN_DEG or (
                len(turns) > 1 and turns[1][1] * 2 > turns[0][1]):
            return [AskTable(t("seat {seat} pressed, but the camera saw no card go on an "
                               "identical one: put it down a little turned", seat=seat))]
        cell = turns[0][0]
        self._came[cell] = self._tops[cell]
        return [Play(Move(seat, "place", {"cell": cell, "card": state.stacks[cell][-1]}))]

    def _settled(self, cell: str, top: ViewCard) -> ViewCard:
        """How the cell's top lies since it came. A new face: as it is seen now. The same
        face: as it lay before, unless it now lies within PRESSED_TURN_DEG of that; such a
        change is the outline's own jitter from view to view (up to 2 degrees in dim light),
        so the card is followed, and a card that never moved never counts as turned."""
        came = self._came.get(cell)
        if came is None or came.code != top.code or turned_by(top, came) < PRESSED_TURN_DEG:
            return top
        return came

    def _turns(self, state: DesertoState) -> dict[str, float]:
        """How far each cell's top (as the referee has it) turned since it came."""
        return {cell: turned_by(top, self._came[cell]) for cell, top in self._tops.items()
                if cell in self._came and top.code is not None and state.stacks[cell]
                and state.stacks[cell][-1] == top.code}

    def _top_cards(self, view: TableView) -> dict[str, ViewCard]:
        """The top card seen in each cell (the one nearest the cell's centre)."""
        tops: dict[str, tuple[float, ViewCard]] = {}
        for card in view.cards:
            cell = self._cell_of(card.x_mm, card.y_mm)
            if cell is not None:
                cx, cy = self._centres[cell]
                distance = (card.x_mm - cx) ** 2 + (card.y_mm - cy) ** 2
                if cell not in tops or distance < tops[cell][0]:
                    tops[cell] = (distance, card)
        return {cell: card for cell, (_, card) in tops.items()}

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
        # Gone, or another card in its place (swapped in one reach: that card is read
        # when the view is read again after the take-back).
        replaced = seen.get(cell) is not None and stack[-1] is not None and seen[cell] != stack[-1]
        if len(stack) == 1:
            return cell not in seen or replaced
        if stack[-1] == stack[-2]:
            # On an identical card: the camera cannot see it go (a double press can).
            return replaced
        return cell in seen and (seen[cell] == stack[-2] or replaced)
