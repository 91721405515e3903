"""Deserto (Djeco, J.-J. Derghazarian): a 2x2 square of piles, viziers catch brigands,
brigands steal treasures. Rule ids and [INF] choices: shared/rules/deserto.md.

Notation (see docs/notation.md):

    {"seat": 0, "move": "place", "cell": "nw", "card": "vizier"}
    {"seat": 1, "move": "stuck"}

Cells and the state: `state`; the square read off the mat: `table`; a move in words:
`words`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from referee.core import TURN_RULE, Game, Header, Move, Option, RefereeError, Verdict
from referee.games.deserto.state import (
    CELLS,
    HAND_SIZE,
    NEIGHBOURS,
    OFF,
    PREY,
    DesertoState,
)
from referee.games.deserto.table import DesertoTable
from referee.games.deserto.words import A_CARD, RULE_NAMES, describe
from referee.seats import DIRECTIONS, TurnOrder, direction_option
from referee.text import Text, t, tn


class Deserto(Game[DesertoState]):
    """The rules of Deserto for 2 to 4 players."""

    name = "deserto"
    rule_names = RULE_NAMES
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
        return describe(move)

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
        return Verdict.legal(self._news(state, move))

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
                    tn(
                        "no stacking until the square is complete: {count} cells still empty",
                        "no stacking until the square is complete: 1 cell still empty",
                        count=4 - len(occupied),
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

    def _news(self, state: DesertoState, move: Move) -> str:
        """What a legal move did beyond itself (the move says where the card went): the
        captures, the square won, who gets a stuck player's card. Empty for a plain move."""
        if move.kind == "stuck":
            return t("(seat {previous})", previous=_previous_player(state, move.seat))
        after = self.apply(state, move)
        gained = after.won[move.seat] - state.won[move.seat]
        cell = move.get("cell")
        square_full = all(state.stacks[c] or c == cell for c in CELLS)
        if gained and not any(after.stacks.values()) and square_full:
            return tn("and wins the square with four viziers ({count} cards)",
                      "and wins the square with four viziers (1 card)", count=gained)
        if gained:
            return tn("and captures {count} cards", "and captures 1 card", count=gained)
        return ""

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

    def interpreter(self, header: Header, card_mm: tuple[float, float] | None = None
                    ) -> DesertoTable:
        return DesertoTable(card_mm or self.deck.card_mm)


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
