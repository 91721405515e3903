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

The state: `state`; the sets read off the mat: `table`; a move in words: `words`; the
round-end count: `page`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from referee.core import (
    TURN_RULE,
    Game,
    Header,
    Move,
    Option,
    PageMove,
    RefereeError,
    Verdict,
)
from referee.games.tempus.page import count_offer
from referee.games.tempus.state import (
    BASE_HANDS,
    HOLDERS,
    PLAYER_COUNTS,
    SERIES,
    SIGN,
    Breach,
    Card,
    CardFace,
    TempusSet,
    TempusState,
    free_number,
    is_deadlocked,
    skip_waiting,
    where_played,
)
from referee.games.tempus.table import TempusTable
from referee.games.tempus.words import RULE_NAMES, describe, pile_name, said
from referee.seats import DIRECTIONS, TurnOrder, direction_option
from referee.text import Text, t, tn


class Tempus(Game[TempusState]):
    """The rules of Professor Tempus for 2 to 5 players."""

    name = "tempus"
    rule_names = RULE_NAMES
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
        self._faces = {
            face.code: CardFace(
                str(face.attrs["colour"]), int(face.attrs["value"]), int(face.attrs["hourglasses"])
            )
            for face in self.deck.faces
            if "colour" in face.attrs
        }

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
        return describe(move)

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
                    tn("seat {seat} keeps its last {count} cards until the round ends",
                       "seat {seat} keeps its last card until the round ends",
                       seat=seat, count=state.round_end_hand),
                )
            )
        breaches += self._action_breaches(state, move)
        if breaches:
            return Verdict.illegal(breaches)
        doubt = self._doubt(state, move)
        news, ending = said(state, move), self._round_ending(state, move)
        if news is None and doubt is None and ending is not None:
            ending = t("and {news}", news=ending)  # it reads after the move
        parts = [part for part in (news, doubt, ending) if part is not None]
        message = Text.joined("; ", parts) if parts else ""
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
            return Verdict.legal(t("as the log says"))
        expected: int | Text = logged
        if unplaced:
            expected = t("{low} to {high}", low=logged, high=logged + unplaced)
        return Verdict.unchecked(
            t("the log says {expected}: look for a card the camera missed", expected=expected)
        )

    def _action_breaches(self, state: TempusState, move: Move) -> list[Breach]:
        seat, kind = move.seat, move.kind
        if not state.sets and kind != "open":
            return [
                ("TEMPUS-FIRST-OPENS", t("no set is on the table: the round starts with an open"))
            ]
        breaches: list[Breach] = []
        deadlocked = is_deadlocked(state, seat)
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
                      pile=pile_name(state)),
                )
            )
        if kind != "bury" and deadlocked:
            breaches.append(
                (
                    "TEMPUS-DEADLOCK",
                    t("all three sets are in front of you: put a card {pile}",
                      pile=pile_name(state)),
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
        return None if card is not None and where_played(state, card) else card

    def _doubt(self, state: TempusState, move: Move) -> Text | None:
        """Why a legal-looking move could not be fully checked; None when it could."""
        card = move.get("card")
        where = None if card is None else where_played(state, card)
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
            sets.append(TempusSet(free_number(state), seat, move.get("series"), (card,)))
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
        return replace(after, turn=skip_waiting(after.turn, hands, state.round_end_hand))

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
        return count_offer(state, self.playing_cards)

    def interpreter(self, header: Header, card_mm: tuple[float, float] | None = None
                    ) -> TempusTable:
        return TempusTable(card_mm or self.deck.card_mm)
