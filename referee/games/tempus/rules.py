"""Professor Tempus (Gigamic, Steinwender & Lepuschitz): sets on three holders change
hands by capture; at each round end every player keeps the sets in front of them and
scores their hourglasses. Rule ids and [INF] choices: shared/rules/tempus.md.

Notation (see docs/notation.md):

    {"seat": 0, "move": "open", "series": "minus", "card": "red-5"}
    {"seat": 1, "move": "capture", "set": 1, "card": "red-3"}
    {"seat": 2, "move": "feed", "set": 1, "card": null}
    {"seat": 0, "move": "bury", "card": null}

Sets are numbered 1, 2, 3 after the holders; an opening takes the lowest free number.
Round ends, refills and the game end follow from the moves and are never written.
Hands are hidden: the referee keeps how many cards each seat holds, not which.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from referee.core import (
    TURN_RULE,
    Game,
    Header,
    Move,
    Option,
    PageField,
    PageMove,
    RefereeError,
    Ruling,
    Verdict,
)
from referee.decks import Deck, load_deck
from referee.seats import DIRECTIONS, TurnOrder, direction_option
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

HOLDERS = 3
SERIES = ("plus", "minus")
SIGN = {"plus": "+", "minus": "-"}
PLAYER_COUNTS = (2, 3, 4, 5)
#: The base rule (tempus.md §1.3, §1.6): 7 dealt, 5 drawn with two players, else 6 and 4;
#: a round ends when every hand is down to 2. Five players use the base rule until the
#: rulebook's five-player variant is known (§1.7).
BASE_HANDS = {n: (7, 5, 2) if n == 2 else (6, 4, 2) for n in PLAYER_COUNTS}

Card = str | None
Breach = tuple[str, str]


class CardFace(NamedTuple):
    """What the rules read off a playing card."""

    colour: str
    value: int
    hourglasses: int


@dataclass(frozen=True)
class TempusSet:
    """A holder in play: its number, who has it in front of them, its series face, and
    its cards from the bottom up (None: a card nobody saw, usually one fed face down)."""

    number: int
    owner: int
    series: str
    cards: tuple[Card, ...]

    @property
    def top(self) -> Card:
        return self.cards[-1]


@dataclass(frozen=True)
class TempusState:
    """The sets on the table, the hidden hands (as counts), the draw pile, the scoring piles."""

    sets: tuple[TempusSet, ...]
    hands: tuple[int, ...]
    pile: int
    #: Each seat's scoring pile: the cards of the sets it kept at round ends.
    won: tuple[tuple[Card, ...], ...]
    turn: TurnOrder
    #: Who started this round: the next round starts with the seat after them.
    starter: int
    round: int
    options: Mapping[str, Any]
    #: Cards drawn at each round end, and the hand that ends a round, for this table.
    refill: int
    round_end_hand: int
    #: Cards put out of play: buried on a table pile (TEMPUS-DEADLOCK as "table_pile").
    buried: int = 0
    #: Cards played onto a set that was not on the table (illegal, left lying there).
    strays: int = 0
    #: Cards fed under an opponent's set when the table did not say which set: at the
    #: round end they go to an unknown scoring pile (they count for nobody).
    fed_unknown: int = 0
    fed_unknown_before_round: int = 0
    #: What each seat took at the last round end, and how many cards fed under an
    #: unknown set that round may belong to any of them: a table's count is checked
    #: against these.
    round_won: tuple[int, ...] = ()
    round_unplaced: int = 0
    #: Seats whose count the page still offers: every seat at a round end, until it has
    #: counted or play goes on. A count checks the log and changes nothing in the game, so
    #: states that differ only here are the same position.
    uncounted: tuple[int, ...] = field(default=(), compare=False)
    last_mover: int | None = None
    over: bool = False

    def find(self, number: int) -> TempusSet | None:
        return next((s for s in self.sets if s.number == number), None)


class Tempus(Game[TempusState]):
    """The rules of Professor Tempus for 2 to 5 players."""

    name = "tempus"
    title = "Professor Tempus"
    min_seats = 2
    max_seats = 5
    options = (
        direction_option(
            "Play direction (the sheet says clockwise); the next round's starter follows it."
        ),
        Option(
            "strict_order",
            True,
            (True, False),
            "TEMPUS-ORDER: '+' needs a strictly higher card, '-' a strictly lower one [INF].",
        ),
        Option(
            "series_fixed",
            True,
            (True, False),
            "TEMPUS-SERIES-CHOICE: the face chosen on opening stays [INF]; false: whoever "
            "captures may turn the series card after playing.",
        ),
        Option(
            "deadlock_pile",
            "draw_pile",
            ("draw_pile", "table_pile"),
            "TEMPUS-DEADLOCK: the card goes under the draw pile [INF], or onto a table pile "
            "out of play.",
        ),
        Option(
            "ties",
            "shared",
            ("shared", "most_cards"),
            "Equal hourglasses share the win [INF]; most_cards: more cards won breaks the tie.",
        ),
        *(
            Option(
                f"{name}_{players}",
                BASE_HANDS[players][index],
                choices,
                f"{doc} with {players} players.",
            )
            for players in PLAYER_COUNTS
            for index, (name, choices, doc) in enumerate(
                [
                    ("hand_size", tuple(range(3, 11)), "Cards dealt to each player"),
                    ("refill", tuple(range(1, 9)), "Cards each player draws at a round end"),
                    ("round_end_hand", tuple(range(5)), "Cards left in each hand at a round end"),
                ]
            )
        ),
    )

    def __init__(self) -> None:
        self._deck = load_deck("tempus")
        self._faces = {
            face.code: CardFace(
                str(face.attrs["colour"]), int(face.attrs["value"]), int(face.attrs["hourglasses"])
            )
            for face in self._deck.faces
            if "colour" in face.attrs
        }

    @property
    def deck(self) -> Deck:
        return self._deck

    @property
    def playing_cards(self) -> int:
        """63: the series cards are not dealt."""
        return len(self._faces)

    def hourglasses(self, card: Card) -> int:
        """A card's hourglasses; a card nobody saw counts none."""
        return 0 if card is None else self._faces[card].hourglasses

    def check_header(self, header: Header) -> Header:
        """The shared checks, and a deal that leaves each round some turns to play."""
        header = super().check_header(header)
        players = len(header.seats)
        hand = header.options[f"hand_size_{players}"]
        end = header.options[f"round_end_hand_{players}"]
        if end >= hand:
            raise RefereeError(
                f"round_end_hand_{players} ({end}) must be less than hand_size_{players} ({hand})"
            )
        return header

    # -- notation ---------------------------------------------------------------

    def parse_move(self, seat: int, kind: str, fields: Mapping[str, Any]) -> Move:
        shapes = {
            "open": (("series", "card"), ()),
            "capture": (("set", "card"), ("series",)),
            "feed": (("set", "card"), ()),
            "bury": (("card",), ()),
            "count": (("cards",), ()),
        }
        if kind not in shapes:
            raise RefereeError(
                f"unknown move {kind!r}; Professor Tempus has open, capture, feed, bury "
                "and count"
            )
        required, optional = shapes[kind]
        article = "an" if kind == "open" else "a"
        extra = sorted(set(fields) - set(required) - set(optional))
        if extra:
            raise RefereeError(f"{article} {kind} move has no field {extra[0]!r}")
        missing = [name for name in required if name not in fields]
        if missing:
            raise RefereeError(f'{article} {kind} move needs "{missing[0]}"')
        number = fields.get("set")
        unknown_set = kind == "feed" and number is None
        if "set" in fields and not unknown_set and (
            not isinstance(number, int) or isinstance(number, bool) or number < 1
        ):
            raise RefereeError(f"set must be a set number (1, 2 or 3), not {number!r}")
        if "series" in fields and fields["series"] not in SERIES:
            raise RefereeError(f"series must be 'plus' or 'minus', not {fields['series']!r}")
        if kind == "count":
            cards = fields["cards"]
            if not isinstance(cards, int) or isinstance(cards, bool) or cards < 0:
                raise RefereeError(f"cards must be how many cards the seat won, not {cards!r}")
            return Move(seat, kind, dict(fields))
        card = fields["card"]
        if card is not None and card not in self._faces:
            raise RefereeError(
                "card must be a playing card's code such as red-12, violet-3 or joker-7, "
                f"or null, not {card!r}"
            )
        return Move(seat, kind, dict(fields))

    def describe(self, move: Move) -> Text:
        kind, card = move.kind, move.get("card")
        if kind == "count":
            return t("counts {cards} cards won", cards=move.get("cards"))
        if kind in ("open", "capture"):
            # A card played face up that the camera could not read.
            played = t("an unread card") if card is None else card
            if kind == "open":
                return t("opens a set on the '{sign}' side with {card}",
                         sign=SIGN[move.get("series")], card=played)
            if "series" in move.fields:
                return t("captures set {number} with {card}, leaving it on '{sign}'",
                         number=move.get("set"), card=played, sign=SIGN[move.get("series")])
            return t("captures set {number} with {card}", number=move.get("set"), card=played)
        # Fed and buried cards go face down: an unnamed one is the usual case.
        hidden = t("a card") if card is None else card
        if kind == "feed" and move.get("set") is None:
            return t("slides {card} under an opponent's set", card=hidden)
        if kind == "feed":
            return t("slides {card} under set {number}", card=hidden, number=move.get("set"))
        return t("buries {card}, holding all three sets", card=hidden)

    # -- state ------------------------------------------------------------------

    def setup(self, header: Header) -> TempusState:
        seats = len(header.seats)
        options = header.options
        direction = DIRECTIONS[options["direction"]]
        hand = options[f"hand_size_{seats}"]
        return TempusState(
            sets=(),
            hands=(hand,) * seats,
            pile=self.playing_cards - hand * seats,
            won=((),) * seats,
            turn=TurnOrder(seats, header.first, direction),
            starter=header.first,
            round=1,
            options=dict(options),
            refill=options[f"refill_{seats}"],
            round_end_hand=options[f"round_end_hand_{seats}"],
        )

    def judge(self, state: TempusState, move: Move) -> Verdict:
        if move.kind == "count":
            return self._judge_count(state, move)
        if state.over:
            return Verdict.illegal([(TURN_RULE, t("the game is over: no more moves"))])
        seat = move.seat
        breaches: list[Breach] = []
        if seat != state.turn.current:
            breaches.append(
                (
                    TURN_RULE,
                    t("it is seat {current}'s turn, not {seat}'s",
                      current=state.turn.current, seat=seat),
                )
            )
            if seat == state.last_mover:
                breaches.append(
                    ("TEMPUS-ONE-CARD", t("one card a turn: seat {seat} just played", seat=seat))
                )
        if state.hands[seat] <= state.round_end_hand:
            breaches.append(
                (
                    "TEMPUS-ONE-CARD",
                    t("seat {seat} keeps its last {cards} cards until the round ends",
                      seat=seat, cards=state.round_end_hand),
                )
            )
        breaches += self._action_breaches(state, move)
        if breaches:
            return Verdict.illegal(breaches)
        doubt = self._doubt(state, move)
        parts = (self._describe(state, move), doubt, self._round_ending(state, move))
        message = Text.joined("; ", (part for part in parts if part is not None))
        return Verdict.unchecked(message) if doubt else Verdict.legal(message)

    def _judge_count(self, state: TempusState, move: Move) -> Verdict:
        """A seat's won cards counted at the last round end, against the log.

        A mismatch is not a player's breach: the camera or the table missed a card, so
        it is a warning for the table to look, never an illegal play.
        """
        if not state.round_won:
            return Verdict.unchecked(t("no round has ended yet: nothing to count"))
        seat, counted = move.seat, move.get("cards")
        logged, unplaced = state.round_won[seat], state.round_unplaced
        if logged <= counted <= logged + unplaced:
            return Verdict.legal(
                t("seat {seat} won {cards} cards last round, as the log says",
                  seat=seat, cards=counted)
            )
        expected: int | Text = logged
        if unplaced:
            expected = t("{low} to {high}", low=logged, high=logged + unplaced)
        return Verdict.unchecked(
            t(
                "seat {seat} counts {counted} cards won last round, the log says {expected}: "
                "look for a card the camera missed",
                seat=seat, counted=counted, expected=expected,
            )
        )

    def _action_breaches(self, state: TempusState, move: Move) -> list[Breach]:
        seat, kind = move.seat, move.kind
        if not state.sets and kind != "open":
            return [
                ("TEMPUS-FIRST-OPENS", t("no set is on the table: the round starts with an open"))
            ]
        breaches: list[Breach] = []
        deadlocked = _deadlocked(state, seat)
        if kind == "open" and len(state.sets) >= HOLDERS:
            breaches.append(
                ("TEMPUS-HOLDER-FREE", t("all three holders are taken: no set to open"))
            )
        if kind == "feed" and move.get("set") is None:
            if not any(held.owner != seat for held in state.sets):
                breaches.append(
                    ("TEMPUS-UNDER-ANY", t("no opponent has a set to slide a card under"))
                )
        elif kind in ("capture", "feed"):
            number = move.get("set")
            target = state.find(number)
            if target is None:
                rule = "TEMPUS-ONE-CARD" if kind == "capture" else "TEMPUS-UNDER-ANY"
                breaches.append((rule, t("there is no set {number} on the table", number=number)))
            elif target.owner == seat:
                breaches.append(
                    (
                        "TEMPUS-NOT-OWN",
                        t("set {number} is already yours: play on an opponent's set",
                          number=number),
                    )
                )
            if kind == "capture" and target is not None:
                breaches += self._capture_breaches(state, target, move)
        if kind == "bury" and not deadlocked:
            breaches.append(
                (
                    "TEMPUS-DEADLOCK",
                    t("a card goes {pile} only when all three sets are in front of you",
                      pile=_pile_name(state)),
                )
            )
        if kind != "bury" and deadlocked:
            breaches.append(
                (
                    "TEMPUS-DEADLOCK",
                    t("all three sets are in front of you: put a card {pile}",
                      pile=_pile_name(state)),
                )
            )
        return breaches

    def _capture_breaches(self, state: TempusState, target: TempusSet, move: Move) -> list[Breach]:
        breaches: list[Breach] = []
        turned = move.get("series", target.series)
        if state.options["series_fixed"] and turned != target.series:
            breaches.append(
                (
                    "TEMPUS-SERIES-CHOICE",
                    t(
                        "set {number} shows '{sign}' for the whole round: "
                        "its series card may not be turned",
                        number=target.number, sign=SIGN[target.series],
                    ),
                )
            )
        card = self._believed(state, move.get("card"))
        if card is None or target.top is None:
            return breaches
        played, top = self._faces[card], self._faces[target.top]
        jokers = (played.colour == "joker") + (top.colour == "joker")
        if played.value == top.value and jokers == 1:
            return breaches
        if jokers == 0 and played.colour != top.colour:
            breaches.append(
                (
                    "TEMPUS-COLOUR",
                    t("{card} may not go on {top}: the set is {colour}",
                      card=card, top=target.top, colour=top.colour),
                )
            )
        strict = state.options["strict_order"]
        if target.series == "plus":
            fits = played.value > top.value or (not strict and played.value == top.value)
            wanted = (
                t("higher than {value}", value=top.value)
                if strict
                else t("at least {value}", value=top.value)
            )
        else:
            fits = played.value < top.value or (not strict and played.value == top.value)
            wanted = (
                t("lower than {value}", value=top.value)
                if strict
                else t("at most {value}", value=top.value)
            )
        if not fits:
            breaches.append(
                (
                    "TEMPUS-ORDER",
                    t("under '{sign}' the card must be {wanted}",
                      sign=SIGN[target.series], wanted=wanted),
                )
            )
        return breaches

    def _believed(self, state: TempusState, card: Card) -> Card:
        """The card as the referee takes it: a code already in a set or a scoring pile
        cannot be played again (one copy each), so the camera misread it."""
        return None if card is not None and _where(state, card) else card

    def _doubt(self, state: TempusState, move: Move) -> Text | None:
        """Why a legal-looking move could not be fully checked; None when it could."""
        card = move.get("card")
        where = None if card is None else _where(state, card)
        if where:
            return t("{card} is already {where}: the camera misread it; confirm the card",
                     card=card, where=where)
        if move.kind == "open" and card is None:
            return t(
                "card not recognised; confirm it on the page, or the next capture goes unchecked"
            )
        if move.kind != "capture":
            return None
        target = state.find(move.get("set"))
        if card is None:
            return t("card not recognised: colour and order not checked")
        if target is not None and target.top is None:
            return t("the top of set {number} is not known: colour and order not checked",
                     number=target.number)
        return None

    def _describe(self, state: TempusState, move: Move) -> Text:
        """What a legal move did, in the words of the table."""
        seat, kind = move.seat, move.kind
        card = move.get("card") or t("a card")
        if kind == "open":
            return t("seat {seat} opens set {number} ('{sign}') with {card}",
                     seat=seat, number=_free_number(state), sign=SIGN[move.get("series")],
                     card=card)
        if kind == "capture":
            target = state.find(move.get("set"))
            assert target is not None, "judge flags a capture of a set that is not there"
            return t("{card} on set {number}: seat {seat} takes it from seat {owner}",
                     card=card, number=target.number, seat=seat, owner=target.owner)
        if kind == "feed" and move.get("set") is None:
            return t("{card} slid under an opponent's set (which one the page may say)",
                     card=card)
        if kind == "feed":
            return t("{card} slid under set {number}", card=card, number=move.get("set"))
        return t("all three sets are seat {seat}'s: {card} goes {pile}",
                 seat=seat, card=card, pile=_pile_name(state))

    def _round_ending(self, state: TempusState, move: Move) -> Text | None:
        """'round 1 ends, ...' when `move` is the last of its round, else None."""
        after = self.apply(state, move)
        if after.over:
            return t("round {round} ends and the pile cannot refill every hand: game over",
                     round=state.round)
        if after.round > state.round:
            return t("round {round} ends, seat {starter} starts round {next}",
                     round=state.round, starter=after.starter, next=after.round)
        return None

    def apply(self, state: TempusState, move: Move) -> TempusState:
        if move.kind == "count":
            return replace(
                state, uncounted=tuple(s for s in state.uncounted if s != move.seat)
            )
        seat = move.seat
        hands = list(state.hands)
        hands[seat] = max(0, hands[seat] - 1)
        card = self._believed(state, move.get("card"))
        sets = list(state.sets)
        pile, buried, strays = state.pile, state.buried, state.strays
        fed_unknown = state.fed_unknown
        target = state.find(move.get("set") or 0)
        if move.kind == "open":
            sets.append(TempusSet(_free_number(state), seat, move.get("series"), (card,)))
        elif move.kind == "bury":
            if state.options["deadlock_pile"] == "draw_pile":
                pile += 1
            else:
                buried += 1
        elif move.kind == "feed" and move.get("set") is None:
            fed_unknown += 1
        elif target is None:
            strays += 1
        else:
            if move.kind == "capture":
                moved = replace(
                    target,
                    owner=seat,
                    series=move.get("series", target.series),
                    cards=(*target.cards, card),
                )
            else:
                moved = replace(target, cards=(card, *target.cards))
            sets[sets.index(target)] = moved
        after = replace(
            state,
            sets=tuple(sorted(sets, key=lambda s: s.number)),
            hands=tuple(hands),
            pile=pile,
            buried=buried,
            strays=strays,
            fed_unknown=fed_unknown,
            uncounted=(),
            last_mover=seat,
            turn=state.turn.at(seat).advance(),
        )
        if all(hand <= state.round_end_hand for hand in hands):
            return self._end_round(after)
        return replace(after, turn=_skip_waiting(after.turn, hands, state.round_end_hand))

    def _end_round(self, state: TempusState) -> TempusState:
        """Each seat keeps the sets in front of it; refill, or end the game."""
        won = [list(pile) for pile in state.won]
        for held in state.sets:
            won[held.owner] += held.cards
        seats = len(state.hands)
        ended = replace(
            state,
            sets=(),
            won=tuple(tuple(pile) for pile in won),
            round_won=tuple(len(won[s]) - len(state.won[s]) for s in range(seats)),
            round_unplaced=state.fed_unknown - state.fed_unknown_before_round,
            fed_unknown_before_round=state.fed_unknown,
            uncounted=tuple(range(seats)),
        )
        if state.pile < state.refill * seats:
            return replace(ended, over=True)
        starter = state.turn.after(state.starter)
        return replace(
            ended,
            hands=tuple(hand + state.refill for hand in state.hands),
            pile=state.pile - state.refill * seats,
            starter=starter,
            round=state.round + 1,
            turn=state.turn.at(starter),
        )

    def to_play(self, state: TempusState) -> int | None:
        return None if state.over else state.turn.current

    def is_over(self, state: TempusState) -> bool:
        return state.over

    def scores(self, state: TempusState) -> dict[int, int]:
        """Hourglasses in each scoring pile; a card nobody saw counts none."""
        return {
            seat: sum(self.hourglasses(card) for card in pile)
            for seat, pile in enumerate(state.won)
        }

    def winners(self, state: TempusState) -> list[int]:
        best = super().winners(state)
        if len(best) > 1 and state.options["ties"] == "most_cards":
            most = max(len(state.won[seat]) for seat in best)
            return [seat for seat in best if len(state.won[seat]) == most]
        return best

    def public_view(self, state: TempusState) -> dict[str, Any]:
        return {
            "round": state.round,
            "starter": state.starter,
            "sets": [
                {
                    "set": held.number,
                    "owner": held.owner,
                    "series": held.series,
                    "top": held.top,
                    "cards": len(held.cards),
                }
                for held in state.sets
            ],
            "zones": [
                {
                    "zone": t("set {number} ({sign}), seat {seat}",
                              number=held.number, sign=SIGN[held.series], seat=held.owner),
                    "top": held.top,
                    "cards": [card or "?" for card in held.cards],
                }
                for held in state.sets
            ],
            "won": [
                {
                    "seat": seat,
                    "cards": len(pile),
                    "unknown": pile.count(None),
                    "hourglasses": self.scores(state)[seat],
                }
                for seat, pile in enumerate(state.won)
            ],
            "hands": list(state.hands),
            "pile": state.pile,
            "buried": state.buried,
            "fed_unknown": state.fed_unknown,
        }

    def page_moves(self, state: TempusState) -> list[PageMove]:
        """The round-end count (`count`), for each seat that has not counted yet.

        At a round end every player gathers the sets in front of them into their scoring
        pile: that is when a table counts what each seat took. So the page offers the count
        from the round end until the seat has counted or the next round's first card is
        played (by then the sets are mixed into the scoring piles). After the last round the
        game is over and the counts stay offered: they are the last check of the log. Every
        seat is offered, also one the log says took nothing: a set the camera gave to the
        wrong seat shows on both seats' counts.
        """
        if not state.uncounted:
            return []
        ended = state.round if state.over else state.round - 1
        return [
            PageMove(
                "count",
                t("count the cards won in round {round}", round=ended),
                state.uncounted,
                # No seat can have won more cards than the deck has.
                (PageField("cards", t("cards won"), maximum=self.playing_cards),),
            )
        ]

    def interpreter(self, header: Header) -> TempusTable:
        return TempusTable(self.deck.card_mm)


def _free_number(state: TempusState) -> int:
    """The lowest set number not in play: holders 1, 2, 3; 4 only for a set opened
    with no holder free (illegal, but it lies on the table all the same)."""
    taken = {held.number for held in state.sets}
    return next(n for n in range(1, len(taken) + 2) if n not in taken)


def _pile_name(state: TempusState) -> Text:
    """Where TEMPUS-DEADLOCK puts the card, as the house plays it."""
    return (
        t("under the draw pile")
        if state.options["deadlock_pile"] == "draw_pile"
        else t("onto the table pile")
    )


def _deadlocked(state: TempusState, seat: int) -> bool:
    """TEMPUS-DEADLOCK: no holder free and every set in front of `seat`."""
    return len(state.sets) >= HOLDERS and all(held.owner == seat for held in state.sets)


def _where(state: TempusState, card: str) -> Text | None:
    """Where a card already played lies ('in set 2', "in seat 1's scoring pile"), or None."""
    for held in state.sets:
        if card in held.cards:
            return t("in set {number}", number=held.number)
    for seat, pile in enumerate(state.won):
        if card in pile:
            return t("in seat {seat}'s scoring pile", seat=seat)
    return None


def _skip_waiting(turn: TurnOrder, hands: list[int], round_end_hand: int) -> TurnOrder:
    """A seat already down to the round-end hand waits for the others."""
    for _ in range(turn.count):
        if hands[turn.current] > round_end_hand:
            return turn
        turn = turn.advance()
    return turn


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
            and not _where(state, held.top)
        ]
        if any(held.top is None for held in seen) and not new:
            return [AskTable(t("the camera cannot read the top card of a set: which is it?"))]
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
        if _deadlocked(state, seat):
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
            card for card in unpaired if card.code is not None and not _where(state, card.code)
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
        pairs = sorted(
            (math.hypot(s.x_mm - c.x_mm, s.y_mm - c.y_mm), i, j)
            for i, s in enumerate(series)
            for j, c in enumerate(cards)
        )
        taken_series: set[int] = set()
        taken_cards: set[int] = set()
        seen: list[SeenSet] = []
        for distance, i, j in pairs:
            if distance > self._pair_reach or i in taken_series or j in taken_cards:
                continue
            taken_series.add(i)
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

    def _taken_back(self, state: TempusState, seen: list[SeenSet], last: Ruling) -> bool:
        """Does the view show the set as it was before the flagged capture?"""
        if last.move.kind != "capture":
            return False
        held = state.find(last.move.get("set", 0))
        if held is None or len(held.cards) < 2:
            return False
        return any(s.top == held.cards[-2] for s in seen) and all(
            s.top != held.top for s in seen
        )

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
