"""How the camera and the buttons see a Kanaloa table: cards put on the trick, an ocean
card taken out of the ring, and the presses for the rest.

Hands are held and won tricks lie face down, so the playing cards in sight are the
trick being played and the one before it (until its winner takes it): a card beyond
those (once the last trick was seen taken, beyond the trick's own: a second Octopus is
new) is the next card of the trick, and goes to the seat whose turn it is in trick
order; the first one of a round also says the dealer dealt (hands are dealt face down).
A seat that plays out of order presses its button first. An ocean card gone from sight
while a removal is due is the removed one, unless a card the camera cannot name lies
where it lay: then it is asked about, never taken for the removed one. Any other card
the camera cannot name is asked about, and what the table does next waits for its name
(`AskTable.unread`): the next card of the trick would otherwise go to the seat that
played it.

At setup the ring is read once all its ocean cards lie in sight: their order clockwise
round the mat's centre, from the island's card. The camera gives a card's place, not
which way round it lies, so each card is taken as laid with its `a` half first
clockwise; a card laid the other way is entered in the log (`turned`). The boats are
not read.
"""

from __future__ import annotations

import math
from collections import Counter

from referee.core import Move, Ruling
from referee.decks import Deck
from referee.games.kanaloa.state import RING_CARDS, KanaloaState
from referee.table import Action, AskTable, Play, Press, TableInterpreter, TableView, TakeBack
from referee.text import t, tn

#: An unnamed card this near where an ocean card lay is that card, read weakly (mm).
SAME_PLACE_MM = 25.0


class KanaloaTable(TableInterpreter[KanaloaState]):
    """Reads the trick and the ring's cards; a press claims the next card for its seat."""

    def __init__(self, deck: Deck, seats: int) -> None:
        kinds = {face.code: face.attrs["kind"] for face in deck.faces}
        self._island = next(face.code for face in deck.faces if face.attrs["kind"] == "ocean"
                            and any(space["island"] for space in face.attrs["spaces"]))
        self._playing = {code for code, kind in kinds.items() if kind != "ocean"}
        self._oceans = {code for code, kind in kinds.items() if kind == "ocean"}
        self._seats = seats
        #: A seat that pressed to say the next card is its own (an out-of-order play).
        self._claimed: int | None = None
        #: The last trick (round, tricks before it) seen taken: none of its cards in sight.
        #: From then on a card like one of its own (a second Octopus) is a new one.
        self._taken: tuple[int, int] | None = None
        #: Where each ocean card was last seen named (mm from the mat's centre).
        self._ring_at: dict[str, tuple[float, float]] = {}

    def on_view(self, state: KanaloaState, view: TableView, last: Ruling | None) -> list[Action]:
        if state.phase == "ring":
            return self._ring(state, view)
        codes = [card.code for card in view.cards if card.code is not None]
        self._ring_at.update({str(card.code): (card.x_mm, card.y_mm) for card in view.cards
                              if card.code in self._oceans})
        if state.removal is not None and state.race is not None:
            gone = [card for card in state.race.cards if card not in codes]
            if len(gone) != 1:
                return []
            if self._unnamed_where(gone[0], view):
                # read weakly, not gone: an ocean card is never removed unread
                return [AskTable(t("{card} cannot be read where it lies: name it on the page, "
                                   "or take it away if it is the removed one", card=gone[0]))]
            return [Play(Move(state.removal.seat, "remove", {"card": gone[0]}))]
        if state.phase not in ("play", "deal"):
            return []
        if state.previous and not Counter(state.previous) & Counter(codes):
            self._taken = (state.round, state.tricks)
        unread = tuple(card for card in view.cards
                       if card.code is None and not self._ring_spot(card.x_mm, card.y_mm))
        if unread:
            # A card put on the trick that the camera cannot name: the next card waits
            # for its name, or it would go to the seat that played this one.
            return [AskTable(t("a card the camera cannot read lies on the table: name it on "
                               "the page"), unread)]
        previous = () if self._taken == (state.round, state.tricks) else state.previous
        known = Counter([card for _, card in state.trick]) + Counter(previous)
        new = Counter(code for code in codes if code in self._playing) - known
        cards = sorted(new.elements())
        if len(cards) > 1:
            return [AskTable(t("{count} new cards on the trick at once: play one at a time",
                               count=len(cards)))]
        if not cards:
            return []
        if state.phase == "deal":
            # Hands are dealt face down: the round's first lead shows the deal was made.
            return [Play(Move(state.dealer, "deal")), Play(Move(state.dealer, "play",
                                                               {"card": cards[0]}))]
        seat = state.next_in_trick() if self._claimed is None else self._claimed
        self._claimed = None
        return [Play(Move(seat, "play", {"card": cards[0]}))]

    def _ring_spot(self, x_mm: float, y_mm: float) -> bool:
        """Does an ocean card lie there (as last seen named): an unnamed card there is
        that ocean card read weakly?"""
        return any(math.dist((x_mm, y_mm), at) <= SAME_PLACE_MM for at in self._ring_at.values())

    def _unnamed_where(self, card: str, view: TableView) -> bool:
        """Does a card the camera cannot name lie where ocean card `card` was last seen?"""
        at = self._ring_at.get(card)
        return at is not None and any(
            seen.code is None and math.dist((seen.x_mm, seen.y_mm), at) <= SAME_PLACE_MM
            for seen in view.cards)

    def _ring(self, state: KanaloaState, view: TableView) -> list[Action]:
        """The ring laid, once it has the players' number of ocean cards and the island's."""
        oceans = [card for card in view.cards if card.code in self._oceans]
        unread = sum(1 for card in view.cards if card.code is None)
        if len(oceans) != RING_CARDS[self._seats]:
            if unread and len(oceans) + unread == RING_CARDS[self._seats]:
                return [AskTable(tn("{count} ocean cards of the ring cannot be read: name "
                                    "them on the page", "1 ocean card of the ring cannot be "
                                    "read: name it on the page", count=unread))]
            return []
        codes = [card.code for card in oceans]
        if len(set(codes)) != len(codes) or self._island not in codes:
            return [AskTable(t("the ring is not readable: each ocean card once, the island's "
                               "among them"))]
        # Clockwise on the mat seen from above: the angle grows with image y down.
        ordered = [str(card.code) for card in
                   sorted(oceans, key=lambda card: math.atan2(card.y_mm, card.x_mm))]
        start = ordered.index(self._island)
        return [Play(Move(state.dealer, "ring", {"cards": ordered[start:] + ordered[:start]}))]

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
