"""How the camera sees Tempus sets: tops, cards seen going under, and the feed presses."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from referee.core import Move, Ruling
from referee.games.tempus.state import Card, TempusSet, TempusState, is_deadlocked, where_played
from referee.table import (
    Action,
    AskTable,
    Play,
    Press,
    TableInterpreter,
    TableView,
    TakeBack,
    ViewCard,
)
from referee.text import Text, t

SERIES_CODES = {"series-plus": "plus", "series-minus": "minus"}


@dataclass(frozen=True)
class SeenSet:
    """A set as the camera sees it: a series card (`x_mm`, `y_mm`) and the card pile
    lying beside it (its top card at `top_x_mm`, `top_y_mm`)."""

    series: str
    top: Card
    x_mm: float
    y_mm: float
    top_x_mm: float
    top_y_mm: float

    def distance(self, x_mm: float, y_mm: float) -> float:
        """How far a spot lies from the set: from the nearer of its two cards."""
        return min(
            math.hypot(x_mm - self.x_mm, y_mm - self.y_mm),
            math.hypot(x_mm - self.top_x_mm, y_mm - self.top_y_mm),
        )


#: The tops of the sets in a view (sorted), or None when one of them is unreadable.
Tops = tuple[str, ...] | None
#: Where a card seen going under went: (the set's number, or None when two or more
#: opponents' sets lay about as near; the numbers of the sets it may be under).
FeedTarget = tuple[int | None, tuple[int, ...]]


@dataclass(frozen=True)
class Sighting:
    """A loose card the camera saw, and the sets as they lay in that view."""

    card: ViewCard
    sets: tuple[SeenSet, ...]

    @property
    def code(self) -> str:
        return str(self.card.code)


@dataclass(frozen=True)
class PendingFeed:
    """A press recorded as a face-down feed (`index`, `move`) while loose cards lay on
    the mat: if the next change of the view is one of them gone, and nothing else, the
    feed is made again with that card (`targets`: the candidates and where they would
    have gone). `loose` and `tops` are what the view showed at the press."""

    index: int
    move: Move
    loose: frozenset[str]
    tops: Tops
    targets: Mapping[str, FeedTarget]


class TempusTable(TableInterpreter[TempusState]):
    """Reads the sets on the table.

    A set lies in front of its owner as its series card with the pile of played cards
    beside it (within `PAIR_REACH` of a card's length). Free series cards wait in the
    middle of the mat. Every playing card is unique, so a set is known by its top card:
    a top the referee has not placed yet is a new card on a set. A card fed under a set
    cannot be seen going under: the feeding seat presses its button.

    **A card seen going under.** Any other playing card in sight is *loose*: neither a
    set's top (paired with a series card) nor a series card, and not a card the referee
    has already placed in a set or a scoring pile. A loose card seen in one view and gone
    from a later one, with every set's top the same, went under a set or back into a
    hand: the camera cannot tell which. Both are done under a hand (frames the tracker
    ignores), and a set is seen from above, so the height of its pile does not show
    either. Recording a feed whenever a loose card vanished would turn a card picked up
    again into a move nobody made: the seat's real move that follows would then be a
    second card in its turn, and a card laid down beside one's own set and picked up
    again would be a feed under one's own set: false "illegal" verdicts
    (TEMPUS-ONE-CARD, TURN-ORDER, TEMPUS-NOT-OWN). So a vanished card alone is never a
    move. The seat's press says that a card went under ("I slid a card under"); the loose
    card that went just before says which card, and where it lay says under which set.
    The press records the feed with the card's code when all of these hold:

    - the press is by the seat to play (as any feed press; out of turn the table is
      asked), the seat is not deadlocked, and some opponent has a set;
    - exactly one loose card went since the last move, with the sets' tops unchanged
      and readable; it was laid down after the last move (a card lying there since an
      earlier turn is nobody's evidence, nor is any card in the first view after a
      resume);
    - it lay by an opponent's set: within `FEED_REACH` card lengths of that set's
      series card or top card, and no set of the feeding seat's own lay about as near
      (within `FEED_MARGIN` times that distance). A card by one's own set, or far from
      every set, says nothing about the feed: it is recorded face down.

    The set is the opponent's set nearest to where the card lay, when no other
    opponent's set lay within `FEED_MARGIN` times its distance; otherwise the feed is
    recorded with its card under an unknown set and the table is asked which, as for a
    press alone with several opponents' sets. A player may also press first and slide
    the card under after: a press while loose cards lie records a face-down feed
    at once, and if the next change of the view is one of those cards gone, and nothing
    else, that feed is taken back and made again with the card. Either way one press
    is one feed: a second press of the same seat is out of turn.

    None of this can make a verdict "illegal" that the press alone would not: the
    seat, the turn and the choice of set among the opponents' are those of a press, and
    a feed takes any card (TEMPUS-UNDER-ANY). The code only puts the card, with its
    hourglasses, into the set, for whoever holds it at the round end. If the card was in
    fact picked up and another slid under face down, the set's hourglasses are wrong
    and the card, when played later, is taken for a misreading (a warning, never
    "illegal"); the round-end count of cards is unaffected.
    """

    #: How far (in card lengths) a set's top card may lie from its series card.
    PAIR_REACH = 1.3
    #: How far (in card lengths) a loose card may lie from a set to be fed under it.
    FEED_REACH = 1.5
    #: A set lies "about as near" as the nearest when within this factor of its distance.
    FEED_MARGIN = 1.5

    def __init__(self, card_mm: tuple[float, float]) -> None:
        self._pair_reach = card_mm[1] * self.PAIR_REACH
        self._feed_reach = card_mm[1] * self.FEED_REACH
        #: Free holders wait within this distance of the mat centre.
        self._middle = card_mm[1]
        #: What the views since the last move showed of loose cards: the position (the
        #: state) they belong to, the tops of the last view, every loose code in it, the
        #: cards laid down in this position (by code), the cards lying since an earlier
        #: one, and the cards that went with the tops unchanged.
        self._position: TempusState | None = None
        self._tops: Tops = None
        self._visible: frozenset[str] = frozenset()
        self._loose: dict[str, Sighting] = {}
        self._stale: set[str] = set()
        self._gone: list[Sighting] = []
        self._pending: PendingFeed | None = None

    def on_view(
        self, state: TempusState, view: TableView, last: Ruling | None
    ) -> list[Action]:
        seen, loose = self._read(state, view)
        actions = self._on_sets(state, seen, last)
        if not any(isinstance(action, Play | TakeBack) for action in actions):
            actions = self._seen_after_press(seen, loose, last) + actions
        self._remember(state, seen, loose)
        return actions

    def _on_sets(
        self, state: TempusState, seen: list[SeenSet], last: Ruling | None
    ) -> list[Action]:
        """Opens, captures, take-backs and questions, from the sets in sight."""
        if last is not None and not last.verdict.ok and self._taken_back(state, seen, last):
            return [TakeBack(t("seat {seat} took the flagged card back", seat=last.move.seat))]
        tops = {held.top for held in seen}
        unseen = [held for held in state.sets if held.top is not None and held.top not in tops]
        new = [
            held
            for held in seen
            if held.top is not None
            and not any(s.top == held.top for s in state.sets)
            and not where_played(state, held.top)
        ]
        if any(held.top is None for held in seen) and not new:
            # A card put on it, or on another set, waits for its name: the capture it
            # made is not known, nor whose turn follows.
            return [AskTable(t("the camera cannot read the top card of a set: which is it?"),
                             tuple(ViewCard(None, held.top_x_mm, held.top_y_mm)
                                   for held in seen if held.top is None))]
        if new and any(held.top is None for held in state.sets):
            # A set whose top nobody saw cannot be told apart from a new set.
            return [AskTable(t("{card} went on a set: which one, or a new set?", card=new[0].top))]
        if len(new) > 1:
            cards = Text.joined(", ", (str(held.top) for held in new))
            return [
                AskTable(
                    t("{count} new cards on sets at once ({cards}): one at a time",
                      count=len(new), cards=cards)
                )
            ]
        if not new:
            if unseen:
                return [AskTable(self._missing(unseen))]
            return self._misplaced(state, seen)
        card = new[0]
        seat = state.turn.current
        if not unseen:
            return [Play(Move(seat, "open", {"series": card.series, "card": card.top}))]
        if len(unseen) == 1:
            return [Play(Move(seat, "capture", {"set": unseen[0].number, "card": card.top}))]
        return [AskTable(self._missing(unseen))]

    @staticmethod
    def seat_facing(x_mm: float, y_mm: float, seats: int) -> int:
        """The seat a spot on the mat lies in front of: seats sit evenly around the
        table, seat 0 at the mat's bottom edge as printed (tags 3 and 2), then clockwise."""
        angle = math.degrees(math.atan2(y_mm, x_mm)) - 90.0
        return round(angle / (360.0 / seats)) % seats

    def _misplaced(self, state: TempusState, seen: list[SeenSet]) -> list[Action]:
        """Ask the table to move a set that lies in front of a seat not holding it."""
        seats = len(state.hands)
        for held in state.sets:
            spot = next((s for s in seen if s.top is not None and s.top == held.top), None)
            if spot is None:
                continue
            facing = self.seat_facing(spot.x_mm, spot.y_mm, seats)
            if facing != held.owner:
                return [AskTable(
                    t("set {number} lies in front of seat {facing}, but seat {owner} holds it: "
                      "move it over", number=held.number, facing=facing, owner=held.owner)
                )]
        return []

    def on_press(self, state: TempusState, press: Press, last: Ruling | None) -> list[Action]:
        seat = press.seat
        if press.kind == "double" and last is not None and last.move.seat == seat:
            return [TakeBack(t("seat {seat} took back its move", seat=seat))]
        if press.kind != "press":
            return []
        if seat != state.turn.current:
            return [
                AskTable(
                    t("seat {seat} pressed, but it is seat {current}'s turn",
                      seat=seat, current=state.turn.current)
                )
            ]
        if is_deadlocked(state, seat):
            return [Play(Move(seat, "bury", {"card": None}))]
        targets = [held for held in state.sets if held.owner != seat]
        if not targets:
            return [
                AskTable(t("seat {seat} pressed to feed a set, but no opponent has one", seat=seat))
            ]
        here = state == self._position
        self._pending = None
        if here and len(self._gone) == 1:
            went = self._gone[0]
            target = self._feed_target(state, seat, went)
            if target is not None:
                self._gone = []
                return self._seen_feed(seat, went.code, target)
        if len(targets) == 1:
            actions: list[Action] = [
                Play(Move(seat, "feed", {"set": targets[0].number, "card": None}))
            ]
        else:
            numbers = ", ".join(str(held.number) for held in targets)
            actions = [
                Play(Move(seat, "feed", {"set": None, "card": None})),
                AskTable(
                    t("seat {seat} fed a set: which one ({numbers})?", seat=seat, numbers=numbers)
                ),
            ]
        if here and self._loose:
            candidates = {
                code: target
                for code, sighting in self._loose.items()
                if (target := self._feed_target(state, seat, sighting)) is not None
            }
            if candidates:
                first = actions[0]
                assert isinstance(first, Play)
                self._pending = PendingFeed(
                    0 if last is None else last.index + 1,
                    first.move,
                    self._visible,
                    self._tops,
                    candidates,
                )
        return actions

    # -- cards seen going under -------------------------------------------------

    def _remember(self, state: TempusState, seen: list[SeenSet], loose: list[ViewCard]) -> None:
        """Keep track of the loose cards: laid down since the last move, and gone."""
        cards = {str(card.code): card for card in loose}
        tops = _tops(seen)
        if state != self._position:
            # A move was made (or taken back): what lies there now was laid down before
            # it, except what this view is the first to show; after a resume, everything.
            lying = set(cards) if self._position is None else set(self._visible)
            self._stale = lying & set(cards)
            self._loose, self._gone = {}, []
            self._position = state
        else:
            self._stale &= set(cards)
            steady = tops is not None and tops == self._tops
            went = [s for code, s in self._loose.items() if code not in cards]
            self._gone = [s for s in self._gone + went if s.code not in cards] if steady else []
        self._loose = {
            code: Sighting(card, tuple(seen))
            for code, card in cards.items()
            if code not in self._stale
        }
        self._tops = tops
        self._visible = frozenset(cards)

    def _seen_after_press(
        self, seen: list[SeenSet], loose: list[ViewCard], last: Ruling | None
    ) -> list[Action]:
        """A face-down feed recorded while loose cards lay, and this view the first to
        show a change: one of them gone, and nothing else, makes it a feed of that card."""
        pending = self._pending
        if pending is None:
            return []
        visible = frozenset(str(card.code) for card in loose)
        tops = _tops(seen)
        if visible == pending.loose and tops == pending.tops:
            return []
        self._pending = None
        went = pending.loose - visible
        if (
            last is None
            or last.index != pending.index
            or last.move != pending.move
            or not last.verdict.ok
            or tops is None
            or tops != pending.tops
            or not visible < pending.loose
            or len(went) != 1
        ):
            return []
        code = next(iter(went))
        target = pending.targets.get(code)
        if target is None:
            return []
        seat = pending.move.seat
        return [
            TakeBack(t("the camera saw which card seat {seat} slid under: {card}",
                       seat=seat, card=code)),
            *self._seen_feed(seat, code, target),
        ]

    def _feed_target(
        self, state: TempusState, seat: int, sighting: Sighting
    ) -> FeedTarget | None:
        """Under which of the sets of `state` `seat` fed the card seen at `sighting`;
        None when where it lay says nothing (by no set, or by one of the seat's own)."""
        x, y = sighting.card.x_mm, sighting.card.y_mm
        located: list[tuple[float, TempusSet]] = []
        for held in state.sets:
            spot = next(
                (s for s in sighting.sets if held.top is not None and s.top == held.top), None
            )
            if spot is None:
                return None
            located.append((spot.distance(x, y), held))
        if not located:
            return None
        located.sort(key=lambda pair: (pair[0], pair[1].number))
        nearest, held = located[0]
        if nearest > self._feed_reach:
            return None
        near = [other for distance, other in located if distance <= nearest * self.FEED_MARGIN]
        if any(other.owner == seat for other in near):
            return None
        if len(near) == 1:
            return held.number, (held.number,)
        return None, tuple(sorted(other.number for other in near))

    @staticmethod
    def _seen_feed(seat: int, card: str, target: FeedTarget) -> list[Action]:
        number, near = target
        move = Play(Move(seat, "feed", {"set": number, "card": card}))
        if number is not None:
            return [move]
        numbers = ", ".join(str(n) for n in near)
        return [
            move,
            AskTable(
                t("seat {seat} slid {card} under a set: which one ({numbers})?",
                  seat=seat, card=card, numbers=numbers)
            ),
        ]

    # -- reading the view ----------------------------------------------------------

    def _read(self, state: TempusState, view: TableView) -> tuple[list[SeenSet], list[ViewCard]]:
        """The sets in sight, and the loose cards: readable playing cards that are no
        set's top and that the referee has not placed in a set or a scoring pile."""
        seen, unpaired = self._sets_in(view)
        loose = [
            card
            for card in unpaired
            if card.code is not None and not where_played(state, card.code)
        ]
        return seen, loose

    def _sets_in(self, view: TableView) -> tuple[list[SeenSet], list[ViewCard]]:
        """Pair each series card outside the middle with the nearest playing card; the
        playing cards left over come second."""
        series = [
            card for card in view.cards
            if card.code in SERIES_CODES and math.hypot(card.x_mm, card.y_mm) > self._middle
        ]
        cards = [
            card for card in view.cards
            if card.code not in SERIES_CODES and card.code != "back"
        ]
        taken_cards: set[int] = set()
        seen: list[SeenSet] = []
        for i, j in self._pairing(series, cards):
            taken_cards.add(j)
            face: ViewCard = series[i]
            top = cards[j]
            seen.append(
                SeenSet(
                    SERIES_CODES[str(face.code)], top.code, face.x_mm, face.y_mm,
                    top.x_mm, top.y_mm,
                )
            )
        unpaired = [card for j, card in enumerate(cards) if j not in taken_cards]
        return seen, unpaired

    def _pairing(self, series: list[ViewCard], cards: list[ViewCard]) -> list[tuple[int, int]]:
        """Which playing card lies with which series card: as many pairs within reach
        as there can be, then the shortest in all. Pairing the nearest first would give a
        set's series card its neighbour's pile when that lies a few millimetres nearer
        (a crooked card), and leave its own top unseen: a false capture."""
        near = [[j for j, c in enumerate(cards)
                 if math.hypot(f.x_mm - c.x_mm, f.y_mm - c.y_mm) <= self._pair_reach]
                for f in series]
        best: tuple[int, float, list[tuple[int, int]]] = (0, 0.0, [])

        def search(i: int, used: frozenset[int], pairs: list[tuple[int, int]],
                   length: float) -> None:
            nonlocal best
            most = len(pairs) + len(series) - i  # pairs this branch can still reach
            if most < best[0] or (most == best[0] and length >= best[1] > 0.0):
                return  # it cannot do better than the best found
            if i == len(series):
                if (len(pairs), -length) > (best[0], -best[1]):
                    best = (len(pairs), length, list(pairs))
                return
            search(i + 1, used, pairs, length)
            for j in near[i]:
                if j not in used:
                    f, c = series[i], cards[j]
                    search(i + 1, used | {j}, [*pairs, (i, j)],
                           length + math.hypot(f.x_mm - c.x_mm, f.y_mm - c.y_mm))

        search(0, frozenset(), [], 0.0)
        return best[2]

    def _taken_back(self, state: TempusState, seen: list[SeenSet], last: Ruling) -> bool:
        """Does the view show the set as it was before the flagged capture, or with
        another card in the flagged one's place?"""
        if last.move.kind != "capture":
            return False
        held = state.find(last.move.get("set", 0))
        if held is None or len(held.cards) < 2 or any(s.top == held.top for s in seen):
            return False
        if any(s.top == held.cards[-2] for s in seen):
            return True
        # Another card in the flagged one's place, every other set as it was: taken back
        # and replaced in one reach (the view is read again after the take-back).
        others = {other.top for other in state.sets if other is not held}
        tops = [s.top for s in seen]
        new = [top for top in tops if top not in others]
        return (len(new) == 1 and new[0] is not None and others <= set(tops)
                and not where_played(state, new[0]))

    @staticmethod
    def _missing(unseen: list[TempusSet]) -> Text:
        names = Text.joined(
            ", ",
            (t("set {number} (top {top})", number=held.number, top=held.top) for held in unseen),
        )
        return t("the camera does not see {sets}: is a set covered or moved?", sets=names)


def _tops(seen: list[SeenSet]) -> Tops:
    """The tops of the sets in sight, sorted; None when one of them is unreadable."""
    tops = [held.top for held in seen]
    return None if None in tops else tuple(sorted(str(top) for top in tops))
