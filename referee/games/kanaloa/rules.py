"""Kanaloa (Piatnik, Günter Burkhardt): tricks decide a boat race on a ring of ocean
cards that shortens every round. Rule ids and [INF] choices: shared/rules/kanaloa.md.

Notation (see docs/notation.md):

    {"seat": 0, "move": "ring", "cards": ["ocean-1", "ocean-7", ...], "turned": ["ocean-7"]}
    {"seat": 0, "move": "deal"}
    {"seat": 0, "move": "play", "card": "blue-7", "trump": "blue"}
    {"seat": 1, "move": "play", "card": "octopus"}
    {"seat": 1, "move": "remove", "card": "ocean-5"}
    {"seat": 2, "move": "dolphin", "step": true}
    {"seat": 2, "move": "boat", "space": "ocean-4b"}

The referee works out the trump, the trick's winner and the boat's way itself and says
them in the verdict; `trump` (the leader's announcement) and `boat` (where the table
sees a boat) are checked against them. Hands are hidden: a seat that does not follow is
taken at its word until a later card of that colour proves the revoke (a deferred
verdict). The race and the trick: `state`; a move in words: `words`; what the page may
enter: `page`; the camera's reading: `table`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from referee.board import Board
from referee.core import TURN_RULE, Game, Header, Move, Option, PageMove, RefereeError, Verdict
from referee.games.kanaloa.page import board, page_moves
from referee.games.kanaloa.state import (
    COLOURS,
    MIN_RING,
    RING_CARDS,
    SPECIALS,
    TRICKS,
    Boat,
    KanaloaState,
    Race,
    Removal,
    Sailing,
    Space,
    Void,
    lead_colour,
    tiki,
    trick_winner,
)
from referee.games.kanaloa.table import KanaloaTable
from referee.games.kanaloa.words import RULE_NAMES, describe, news, revoke_proof
from referee.text import Text, t

Breach = tuple[str, str]


class Kanaloa(Game[KanaloaState]):
    """Kanaloa for 3 to 5 players."""

    name = "kanaloa"
    rule_names = RULE_NAMES
    title = "Kanaloa"
    min_seats = 3
    max_seats = 5
    options = (
        Option(
            "special_lead",
            "first_tiki",
            ("first_tiki", "free"),
            "KAN-LEAD-COLOUR [INF]: after a Kanaloa or Octopus lead the first Tiki card "
            "sets the colour to follow; free: nobody has to follow that trick.",
        ),
        Option(
            "dolphin",
            "choice",
            ("choice", "automatic"),
            "KAN-DOLPHIN: the boat's owner chooses the dolphin's step (the seed's 'may'); "
            "automatic: the boat always takes it.",
        ),
        Option(
            "dolphin_chain",
            True,
            (True, False),
            "KAN-DOLPHIN-CHAIN [INF]: a dolphin's step onto another dolphin may go on.",
        ),
        Option(
            "removals",
            "compulsory",
            ("compulsory", "optional"),
            "KAN-OCTOPUS and KAN-ROUND-REMOVE [INF]: an ocean card must go whenever a free "
            "one is there; optional: the seat may keep the ring as it is.",
        ),
        Option(
            "octopus_floor",
            True,
            (True, False),
            "KAN-OCTOPUS [INF]: an Octopus, like the round's end, leaves at least 3 ocean cards.",
        ),
        Option(
            "island_removable",
            True,
            (True, False),
            "The island's card may be removed once no boat is on it [INF].",
        ),
    )

    def __init__(self) -> None:
        self.copies = {
            face.code: face.copies for face in self.deck.faces if face.attrs["kind"] != "ocean"
        }
        self.oceans = {
            face.code: tuple(
                Space(face.code, space["side"], space["colour"], space["dolphin"], space["island"])
                for space in face.attrs["spaces"]
            )
            for face in self.deck.faces
            if face.attrs["kind"] == "ocean"
        }
        self.space_names = {space.name for spaces in self.oceans.values() for space in spaces}

    # -- notation ---------------------------------------------------------------

    def parse_move(self, seat: int, kind: str, fields: Mapping[str, Any]) -> Move:
        shapes: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
            "ring": (("cards",), ("turned",)),
            "deal": ((), ()),
            "play": (("card",), ("trump",)),
            "remove": (("card",), ()),
            "dolphin": (("step",), ()),
            "boat": (("space",), ()),
        }
        if kind not in shapes:
            raise RefereeError(
                f"unknown move {kind!r}; Kanaloa has ring, deal, play, remove, dolphin and boat"
            )
        required, optional = shapes[kind]
        extra = sorted(set(fields) - set(required) - set(optional))
        if extra:
            raise RefereeError(f"a {kind} move has no field {extra[0]!r}")
        missing = [name for name in required if name not in fields]
        if missing:
            raise RefereeError(f'a {kind} move needs "{missing[0]}"')
        if kind == "ring":
            self._check_ring(fields["cards"], fields.get("turned", []))
        if kind == "play" and fields["card"] not in self.copies:
            raise RefereeError(
                "card must be a playing card's code such as blue-7, yellow-12, kanaloa or "
                f"octopus, not {fields['card']!r}"
            )
        if kind == "play" and "trump" in fields and fields["trump"] not in COLOURS:
            raise RefereeError(
                f"trump must be one of {', '.join(COLOURS)}, not {fields['trump']!r}"
            )
        if kind == "remove" and fields["card"] not in self.oceans:
            raise RefereeError(
                f"card must be an ocean card such as ocean-4, not {fields['card']!r}"
            )
        if kind == "dolphin" and not isinstance(fields["step"], bool):
            raise RefereeError(f"step must be true or false, not {fields['step']!r}")
        if kind == "boat" and fields["space"] not in self.space_names:
            raise RefereeError(
                f"space must be an ocean card's half such as ocean-4a, not {fields['space']!r}"
            )
        return Move(seat, kind, dict(fields))

    def _check_ring(self, cards: Any, turned: Any) -> None:
        if not isinstance(cards, list) or not all(card in self.oceans for card in cards):
            raise RefereeError('cards must be a list of ocean cards such as ["ocean-1", "ocean-7"]')
        if len(set(cards)) != len(cards) or not MIN_RING <= len(cards) <= len(self.oceans):
            raise RefereeError(
                f"a ring has {MIN_RING} to {len(self.oceans)} different ocean cards, not {cards}"
            )
        if not any(space.island for card in cards for space in self.oceans[card]):
            raise RefereeError("a ring has the island's ocean card: the boats start there")
        if not isinstance(turned, list) or not set(turned) <= set(cards):
            raise RefereeError("turned lists ocean cards of the ring laid the other way round")

    def describe(self, move: Move) -> Text:
        return describe(move)

    # -- state ------------------------------------------------------------------

    def setup(self, header: Header) -> KanaloaState:
        return KanaloaState(
            options=dict(header.options),
            seats=len(header.seats),
            phase="ring",
            round=1,
            dealer=header.first,
            leader=header.first,
        )

    def to_play(self, state: KanaloaState) -> int | None:
        if state.phase == "over":
            return None
        if state.removal is not None:
            return state.removal.seat
        if state.dolphin is not None:
            return state.dolphin
        if state.phase == "play":
            return state.next_in_trick()
        return state.dealer

    def is_over(self, state: KanaloaState) -> bool:
        return state.phase == "over"

    def scores(self, state: KanaloaState) -> dict[int, int]:
        """No points (§2.6): the spaces each boat has sailed, for the page."""
        sailed = state.race.sailed if state.race is not None else (0,) * state.seats
        return dict(enumerate(sailed))

    def winners(self, state: KanaloaState) -> list[int]:
        """KAN-END: the boat that lapped the rearmost; ties cannot happen."""
        return [state.winner] if state.winner is not None else []

    def deferred(self, before: KanaloaState, move: Move, after: KanaloaState) -> list[Verdict]:
        return list(after.proven)

    def public_view(self, state: KanaloaState) -> dict[str, Any]:
        race = state.race
        ring = []
        if race is not None:
            ring = [
                {
                    "space": space.name,
                    "colour": space.colour,
                    "dolphin": space.dolphin,
                    "island": space.island,
                    "boats": [seat for seat, boat in enumerate(race.boats) if boat.place == place],
                }
                for place, space in enumerate(race.spaces)
            ]
        return {
            "round": state.round,
            "phase": state.phase,
            "leader": state.leader,
            "trick": [{"seat": seat, "card": card} for seat, card in state.trick],
            "lead": lead_colour(state.trick, state.options["special_lead"]),
            "trump": self.trump(state),
            "tricks": state.tricks,
            "ring": ring,
            "boats": [
                {"seat": seat, "space": race.spaces[boat.place].name, "laps": boat.laps}
                for seat, boat in enumerate(race.boats)
            ] if race is not None else [],
            "voids": {str(seat): sorted({v.colour for v in state.voids if v.seat == seat})
                      for seat in range(state.seats)},
            "winner": state.winner,
            "zones": [{"zone": "trick", "cards": [card for _, card in state.trick],
                       "top": state.trick[-1][1] if state.trick else None}],
        }

    def trump(self, state: KanaloaState) -> str | None:
        """The trick's trump, or the next trick's while none is led (KAN-TRUMP)."""
        if state.trump is not None:
            return state.trump
        return state.race.trump() if state.race is not None else None

    def free_cards(self, state: KanaloaState) -> tuple[str, ...]:
        """The ocean cards that may be removed now (§2.7.1)."""
        if state.race is None:
            return ()
        free = state.race.free_cards()
        if state.options["island_removable"]:
            return free
        return tuple(card for card in free if not any(s.island for s in self.oceans[card]))

    def page_moves(self, state: KanaloaState) -> list[PageMove]:
        return page_moves(state, self.free_cards(state))

    def board(self, state: KanaloaState) -> Board:
        return board(state, self.trump(state))

    def interpreter(self, header: Header, card_mm: tuple[float, float] | None = None
                    ) -> KanaloaTable:
        """(The ring, the trick and the seats are read by order and nearness: no place
        follows the cards' size.)"""
        return KanaloaTable(self.deck, len(header.seats))

    # -- judging ------------------------------------------------------------------

    def judge(self, state: KanaloaState, move: Move) -> Verdict:
        if state.phase == "over":
            return Verdict.illegal([("KAN-END", t(
                "the game is over: seat {seat}'s boat lapped the rearmost boat",
                seat=state.winner))])
        settled, breaches = self._settle(state, move)
        judges: dict[str, Callable[[KanaloaState, Move], list[Breach]]] = {
            "ring": self._judge_ring,
            "deal": self._judge_deal,
            "play": self._judge_play,
            "remove": self._judge_remove,
            "dolphin": self._judge_dolphin,
            "boat": self._judge_boat,
        }
        breaches += judges[move.kind](settled, move)
        if breaches:
            return Verdict.illegal(breaches)
        card = move.get("card")
        if move.kind == "play" and settled.played.count(card) >= self.copies[card]:
            return Verdict.unchecked(t(
                "{card} was played already this round: the camera misread it; confirm the card",
                card=card))
        return Verdict.legal(news(settled, move, self.apply(state, move)))

    def _judge_ring(self, state: KanaloaState, move: Move) -> list[Breach]:
        if state.phase != "ring":
            return [("KAN-SETUP", t("the ring is laid once, before the first deal"))]
        wanted, laid = RING_CARDS[state.seats], len(move.get("cards"))
        if laid != wanted:
            return [("KAN-SETUP", t("{players} players race on {wanted} ocean cards, not {laid}",
                                    players=state.seats, wanted=wanted, laid=laid))]
        return []

    def _judge_deal(self, state: KanaloaState, move: Move) -> list[Breach]:
        if state.phase == "ring":
            return [("KAN-SETUP", t("lay the ring of ocean cards before the deal"))]
        if state.phase != "deal":
            return [("KAN-DEAL", t("the round is under way: 8 cards each, no more dealt"))]
        if move.seat == state.dealer:
            return []
        if state.round == 1:
            return [("KAN-DEAL", t("seat {dealer} deals round 1", dealer=state.dealer))]
        return [("KAN-NEXT-ROUND", t("seat {dealer} won the last trick: it deals round {round}",
                                     dealer=state.dealer, round=state.round))]

    def _judge_play(self, state: KanaloaState, move: Move) -> list[Breach]:
        seat = move.seat
        if state.phase == "ring":
            return [("KAN-SETUP", t("lay the ring of ocean cards before the deal"))]
        if state.phase == "deal":
            rule = "KAN-DEAL" if state.round == 1 else "KAN-NEXT-ROUND"
            return [(rule, t("seat {dealer} deals 8 cards each first", dealer=state.dealer))]
        breaches: list[Breach] = []
        if state.has_played(seat):
            breaches.append((TURN_RULE, t("seat {seat} has played to this trick already",
                                          seat=seat)))
        elif not state.trick and seat != state.leader:
            breaches.append(self._wrong_leader(state))
        elif state.trick and seat != state.next_in_trick():
            breaches.append((TURN_RULE, t("it is seat {current}'s turn, not {seat}'s",
                                          current=state.next_in_trick(), seat=seat)))
        if "trump" in move.fields:
            breaches += self._trump_breaches(state, move.get("trump"))
        return breaches

    def _wrong_leader(self, state: KanaloaState) -> Breach:
        if state.tricks:
            return ("KAN-WIN", t("seat {seat} won the last trick: it leads", seat=state.leader))
        if state.round > 1:
            return ("KAN-NEXT-ROUND", t("seat {seat} won the last round's last trick: it leads",
                                        seat=state.leader))
        return (TURN_RULE, t("seat {seat} leads the first trick", seat=state.leader))

    def _trump_breaches(self, state: KanaloaState, claimed: str) -> list[Breach]:
        if state.trick:
            return [("KAN-TRUMP", t("the trump is announced with the trick's first card"))]
        race = state.race
        assert race is not None, "a trick is played only once the ring is laid"
        trump = race.trump()
        if claimed == trump:
            return []
        if all(boat == Boat(0, 0) for boat in race.boats):
            return [("KAN-TRUMP", t("the trump is {trump}: every boat is on the island",
                                    trump=trump))]
        return [("KAN-TRUMP", t(
            "the trump is {trump}, the colour under seat {seat}'s boat, the most advanced",
            trump=trump, seat=race.leading()))]

    def _judge_remove(self, state: KanaloaState, move: Move) -> list[Breach]:
        if state.race is None:
            return [("KAN-SETUP", t("lay the ring of ocean cards before the deal"))]
        pending, card = state.removal, move.get("card")
        if pending is None:
            rule = "KAN-OCTOPUS" if state.phase == "play" else "KAN-ROUND-REMOVE"
            return [(rule, t("no ocean card is to go now: only after an Octopus, or after a "
                             "round's 8th trick while more than 3 are left"))]
        breaches: list[Breach] = []
        if move.seat != pending.seat:
            breaches.append((pending.rule, t("seat {seat} removes the ocean card",
                                             seat=pending.seat)))
        if card not in state.race.cards:
            breaches.append((pending.rule, t("{card} is not in the ring", card=card)))
        elif card not in self.free_cards(state):
            kept = card in state.race.free_cards()
            breaches.append((pending.rule, t("this table keeps the island's card") if kept
                             else t("{card} has a boat on it: only a free ocean card goes",
                                    card=card)))
        return breaches

    def _judge_dolphin(self, state: KanaloaState, move: Move) -> list[Breach]:
        if state.race is None:
            return [("KAN-SETUP", t("lay the ring of ocean cards before the deal"))]
        if state.options["dolphin"] == "automatic":
            return [("KAN-DOLPHIN", t("this table's dolphins carry the boat on by themselves"))]
        sailing = state.sailing
        if state.dolphin is None:
            if sailing is not None and sailing.dolphin_steps > 0 and not state.trick:
                return [("KAN-DOLPHIN-CHAIN", t(
                    "seat {seat}'s boat on {space} is not on a dolphin with both neighbours "
                    "free: no further step", seat=sailing.winner, space=sailing.landed))]
            return [("KAN-DOLPHIN", t("no boat is on a dolphin with both neighbours free"))]
        if move.seat != state.dolphin:
            return [("KAN-DOLPHIN", t("the dolphin's step is seat {seat}'s to take",
                                      seat=state.dolphin))]
        return []

    def _judge_boat(self, state: KanaloaState, move: Move) -> list[Breach]:
        race = state.race
        if race is None:
            return [("KAN-SETUP", t("lay the ring of ocean cards before the deal"))]
        seen, seat = move.get("space"), move.seat
        names = [space.name for space in race.spaces]
        if seen not in names:
            return [("KAN-MOVE", t("{space} is not in the ring", space=seen))]
        place = names.index(seen)
        others = [s for s, boat in enumerate(race.boats) if boat.place == place and s != seat]
        at_start = race.boats[seat] == Boat(0, 0) and all(
            race.boats[s] == Boat(0, 0) for s in others)
        if others and not at_start:
            return [("KAN-ONE-PER-SPACE", t("{space} holds seat {other}'s boat: one boat a space",
                                            space=seen, other=others[0]))]
        right = race.space_of(seat).name
        if seen != right:
            return [("KAN-MOVE", t("seat {seat}'s boat sails on {right}, not {seen}",
                                   seat=seat, right=right, seen=seen))]
        return []

    # -- applying ------------------------------------------------------------------

    def _settle(self, state: KanaloaState, move: Move) -> tuple[KanaloaState, list[Breach]]:
        """The state `move` is played in: a dolphin's step not taken is declined, a removal
        not made is skipped (a breach when it was compulsory)."""
        breaches: list[Breach] = []
        if state.dolphin is not None and move.kind not in ("dolphin", "boat"):
            state = self._finish_trick(replace(state, dolphin=None))
        pending = state.removal
        if pending is not None and move.kind not in ("remove", "boat"):
            if state.options["removals"] == "compulsory":
                breaches.append((pending.rule, t("seat {seat} first removes a free ocean card",
                                                 seat=pending.seat)))
            state = self._removed(replace(state, removal=None), pending)
        return state, breaches

    def apply(self, state: KanaloaState, move: Move) -> KanaloaState:
        if state.phase == "over":
            return replace(state, proven=(), index=state.index + 1)
        settled, _ = self._settle(replace(state, proven=()), move)
        appliers: dict[str, Callable[[KanaloaState, Move], KanaloaState]] = {
            "ring": self._apply_ring,
            "deal": _apply_deal,
            "play": self._apply_play,
            "remove": self._apply_remove,
            "dolphin": self._apply_dolphin,
            "boat": lambda same, _: same,
        }
        after = appliers[move.kind](settled, move)
        return replace(after, index=state.index + 1)

    def _apply_ring(self, state: KanaloaState, move: Move) -> KanaloaState:
        if state.phase != "ring":
            return state
        turned = set(move.get("turned", []))
        spaces = [
            space
            for card in move.get("cards")
            for space in (reversed(self.oceans[card]) if card in turned else self.oceans[card])
        ]
        start = next(place for place, space in enumerate(spaces) if space.island)
        race = Race(
            tuple(spaces[start:] + spaces[:start]),
            (Boat(0, 0),) * state.seats,
            (0,) * state.seats,
        )
        return replace(state, phase="deal", race=race)

    def _apply_play(self, state: KanaloaState, move: Move) -> KanaloaState:
        seat, card = move.seat, move.get("card")
        if state.phase != "play" or state.has_played(seat) or state.race is None:
            return state
        trump = state.trump if state.trick else state.race.trump()
        state = _follow(state, seat, card)
        state = replace(state, trick=(*state.trick, (seat, card)), trump=trump,
                        played=(*state.played, card))
        if card == "octopus" and self._removable(state, "KAN-OCTOPUS"):
            return replace(state, removal=Removal(seat, "KAN-OCTOPUS"))
        return self._resolve(state)

    def _removable(self, state: KanaloaState, rule: str) -> bool:
        """Is an ocean card to go now (KAN-OCTOPUS, KAN-ROUND-REMOVE)?"""
        assert state.race is not None, "ocean cards go only once the ring is laid"
        floor = rule == "KAN-ROUND-REMOVE" or state.options["octopus_floor"]
        if floor and len(state.race.cards) <= MIN_RING:
            return False
        return bool(self.free_cards(state))

    def _apply_remove(self, state: KanaloaState, move: Move) -> KanaloaState:
        card, pending = move.get("card"), state.removal
        if state.race is None or card not in self.free_cards(state):
            return state
        state = replace(state, race=state.race.without(card))
        if pending is None or move.seat != pending.seat:
            return state
        return self._removed(replace(state, removal=None), pending)

    def _removed(self, state: KanaloaState, pending: Removal) -> KanaloaState:
        """Play goes on once the removal `pending` asked for is made or skipped."""
        return self._resolve(state) if pending.rule == "KAN-OCTOPUS" else state

    def _resolve(self, state: KanaloaState) -> KanaloaState:
        """A complete trick: KAN-WIN, then KAN-MOVE; unchanged while a seat has yet to play."""
        if len(state.trick) < state.seats or state.race is None or state.trump is None:
            return state
        winner, card = trick_winner(state.trick, state.trump) or state.trick[0]
        race, skipped = state.race.step(winner), 0
        while not race.laps_rearmost(winner) and race.taken(race.boats[winner].place, winner):
            race, skipped = race.step(winner), skipped + 1
        state = replace(
            state,
            race=race,
            leader=winner,
            sailing=Sailing(winner, card, state.trump, race.space_of(winner).name, skipped),
        )
        if race.laps_rearmost(winner):
            return replace(state, phase="over", winner=winner)
        return self._dolphin(state, winner, chained=False)

    def _dolphin(self, state: KanaloaState, seat: int, chained: bool) -> KanaloaState:
        """KAN-DOLPHIN and KAN-DOLPHIN-CHAIN: a step offered, taken, or none."""
        assert state.race is not None, "boats sail only once the ring is laid"
        if not state.race.dolphin_ahead(seat) or (chained and not state.options["dolphin_chain"]):
            return self._finish_trick(state)
        if state.options["dolphin"] == "choice":
            return replace(state, dolphin=seat)
        return self._dolphin_step(state, seat)

    def _dolphin_step(self, state: KanaloaState, seat: int) -> KanaloaState:
        assert state.race is not None and state.sailing is not None, "a dolphin follows a trick"
        race = state.race.step(seat)
        sailing = replace(state.sailing, landed=race.space_of(seat).name,
                          dolphin_steps=state.sailing.dolphin_steps + 1)
        state = replace(state, race=race, sailing=sailing)
        if race.laps_rearmost(seat):
            return replace(state, phase="over", winner=seat)
        return self._dolphin(state, seat, chained=True)

    def _apply_dolphin(self, state: KanaloaState, move: Move) -> KanaloaState:
        if state.dolphin is None or move.seat != state.dolphin:
            return state
        state = replace(state, dolphin=None)
        if move.get("step"):
            return self._dolphin_step(state, move.seat)
        return self._finish_trick(state)

    def _finish_trick(self, state: KanaloaState) -> KanaloaState:
        """The winner leads the next trick; after the 8th the round ends (KAN-ROUND-REMOVE,
        KAN-NEXT-ROUND)."""
        previous = tuple(card for _, card in state.trick)
        state = replace(state, trick=(), previous=previous, trump=None, tricks=state.tricks + 1)
        if state.tricks < TRICKS:
            return state
        state = replace(state, phase="deal", round=state.round + 1, dealer=state.leader,
                        voids=())
        if self._removable(state, "KAN-ROUND-REMOVE"):
            return replace(state, removal=Removal(state.leader, "KAN-ROUND-REMOVE"))
        return state


def _apply_deal(state: KanaloaState, move: Move) -> KanaloaState:
    if state.phase != "deal":
        return state
    return replace(state, phase="play", trick=(), previous=(), trump=None, tricks=0, voids=(),
                   played=(), leader=state.dealer, sailing=None)


def _follow(state: KanaloaState, seat: int, card: str) -> KanaloaState:
    """KAN-FOLLOW, KAN-VOID: a Tiki of another colour than the lead's is a claim to hold
    none of it; a Tiki of a colour the seat claimed to hold none of proves the revoke."""
    played = tiki(card)
    if played is None:
        return state
    proofs = [void for void in state.voids if void.seat == seat and void.colour == played[0]]
    voids = tuple(void for void in state.voids if void not in proofs)
    lead = lead_colour(state.trick, state.options["special_lead"])
    if lead is not None and played[0] != lead:
        after_special = state.trick[0][1] in SPECIALS
        voids = (*voids, Void(seat, lead, state.index, card, after_special))
    proven = tuple(
        Verdict(
            ok=False,
            rules=("KAN-FOLLOW", "KAN-LEAD-COLOUR") if void.after_special else ("KAN-FOLLOW",),
            message=revoke_proof(void, card, state.index),
            severity="illegal",
            concerns=void.index,
        )
        for void in proofs
    )
    return replace(state, voids=voids, proven=(*state.proven, *proven))
