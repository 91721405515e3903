"""How the camera and the buttons see a Kanaloa table: cards put on the trick, an ocean
card taken out of the ring, and the presses for the rest.

Hands are held and won tricks lie face down, so the playing cards in sight are the
trick being played and the one before it (until its winner takes it): a card beyond
those is the next card of the trick, and goes to the seat whose turn it is in trick
order. A seat that plays out of order presses its button first. An ocean card gone
from sight while a removal is due is the removed one. Reading the ring's layout and
the boats is not done here yet: the ring is entered as a move.
"""

from __future__ import annotations

from collections import Counter

from referee.core import Move, Ruling
from referee.decks import Deck
from referee.games.kanaloa.state import KanaloaState
from referee.table import Action, AskTable, Play, Press, TableInterpreter, TableView, TakeBack
from referee.text import t


class KanaloaTable(TableInterpreter[KanaloaState]):
    """Reads the trick and the ring's cards; a press claims the next card for its seat."""

    def __init__(self, deck: Deck, seats: int) -> None:
        kinds = {face.code: face.attrs["kind"] for face in deck.faces}
        self._playing = {code for code, kind in kinds.items() if kind != "ocean"}
        self._oceans = {code for code, kind in kinds.items() if kind == "ocean"}
        self._seats = seats
        #: A seat that pressed to say the next card is its own (an out-of-order play).
        self._claimed: int | None = None

    def on_view(self, state: KanaloaState, view: TableView, last: Ruling | None) -> list[Action]:
        codes = [card.code for card in view.cards if card.code is not None]
        if state.removal is not None and state.race is not None:
            gone = [card for card in state.race.cards if card not in codes]
            if len(gone) == 1:
                return [Play(Move(state.removal.seat, "remove", {"card": gone[0]}))]
            return []
        if state.phase != "play":
            return []
        known = Counter([card for _, card in state.trick]) + Counter(state.previous)
        new = Counter(code for code in codes if code in self._playing) - known
        cards = sorted(new.elements())
        if len(cards) > 1:
            return [AskTable(t("{count} new cards on the trick at once: play one at a time",
                               count=len(cards)))]
        if not cards:
            return []
        seat = state.next_in_trick() if self._claimed is None else self._claimed
        self._claimed = None
        return [Play(Move(seat, "play", {"card": cards[0]}))]

    def on_press(self, state: KanaloaState, press: Press, last: Ruling | None) -> list[Action]:
        if press.kind == "double" and last is not None and last.move.seat == press.seat:
            return [TakeBack(t("seat {seat} took back its move", seat=press.seat))]
        if state.dolphin == press.seat and press.kind in ("press", "hold"):
            return [Play(Move(press.seat, "dolphin", {"step": press.kind == "press"}))]
        if press.kind == "press" and state.phase == "play" and 0 <= press.seat < self._seats:
            self._claimed = press.seat
            return [AskTable(t("seat {seat} plays next: put the card on the trick",
                               seat=press.seat))]
        return []
