"""UNO: the colour named for a wild the camera saw go down, entered on the page.

The camera cannot see which colour a wild's player names, so the wild is logged with
`"colour": null` and the page offers a `colour` move to the seat that names it.
"""

from __future__ import annotations

from typing import Any

import pytest

from referee.core import TURN_RULE, Header, Match, Move, PageMove, RefereeError
from referee.games.uno import Uno, UnoState, UnoTable
from referee.table import Play, Press, TableView, ViewCard
from referee.text import Text, catalogue, translate

GAME = Uno()
COLOURS = ("red", "green", "blue", "yellow")


def started(top: str = "red-3", seats: int = 3, **options: Any) -> Match[UnoState]:
    """Seat 2 has dealt and turned up `top`; seat 0 plays first."""
    match = Match(GAME, Header("uno", tuple(f"seat{n}" for n in range(seats)), 0, options))
    dealer = seats - 1
    assert match.play(Move(dealer, "deal")).verdict.ok
    assert match.play(Move(dealer, "turn-up", {"card": top})).verdict.ok
    return match


def play(seat: int, *cards: str, **fields: Any) -> Move:
    return Move(seat, "play", {"cards": list(cards), **fields})


def unseen(seat: int, code: str = "wild") -> Move:
    """A wild the camera saw: its colour was named, but nobody knows which."""
    return Move(seat, "play", {"cards": [code], "colour": None})


def colour(seat: int, name: str) -> Move:
    return Move(seat, "colour", {"colour": name})


def colour_offers(state: UnoState) -> list[PageMove]:
    """The page's colour offers (a wild draw 4 is offered to be challenged too)."""
    return [offer for offer in GAME.page_moves(state) if offer.kind == "colour"]


def legal(match: Match[UnoState], *moves: Move) -> None:
    for move in moves:
        verdict = match.play(move).verdict
        assert verdict.ok and verdict.severity == "ok", (move, verdict)


def rules(match: Match[UnoState], move: Move) -> tuple[str, ...]:
    return match.play(move).verdict.rules


# -- the notation ---------------------------------------------------------------------------


def test_the_colour_move_reads_and_writes_back() -> None:
    line = {"seat": 1, "move": "colour", "colour": "blue"}
    move = GAME.parse_move(1, "colour", {"colour": "blue"})
    assert move.to_json() == line


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({}, 'a colour move needs "colour"'),
        ({"colour": None}, "a colour move names one of red, green, blue, yellow, not None"),
        ({"colour": "black"}, "a colour move names one of red, green, blue, yellow, not 'black'"),
        ({"colour": "blue", "cards": ["wild"]}, "a colour move has no field 'cards'"),
    ],
)
def test_a_malformed_colour_move_is_named(fields: dict[str, Any], problem: str) -> None:
    with pytest.raises(RefereeError, match=problem):
        GAME.parse_move(0, "colour", fields)


# -- judged and applied ---------------------------------------------------------------------


def test_the_wilds_player_names_its_colour_and_the_next_card_is_checked_against_it() -> None:
    match = started(wild="official")
    legal(match, unseen(0))
    ruling = match.play(colour(0, "blue"))
    assert ruling.verdict.ok and ruling.verdict.message == ""
    assert match.state.colour == "blue"
    assert match.to_play() == 1  # naming is no turn
    legal(match, play(1, "blue-5"))  # checked, not a warning any more
    match.undo()
    assert rules(match, play(1, "green-7")) == ("UNO-MATCH",)


def test_another_seat_may_not_name_it() -> None:
    match = started(wild="official")
    legal(match, unseen(0))
    verdict = match.play(colour(1, "green")).verdict
    assert verdict.rules == (TURN_RULE,)
    assert verdict.message == "seat 0 played the wild: it names the colour"


def test_only_while_a_wild_of_unseen_colour_is_on_top() -> None:
    match = started(wild="official")
    assert rules(match, colour(0, "red")) == ("UNO-MATCH",)  # a red 3 is on top
    legal(match, play(0, "wild", colour="green"))
    verdict = match.play(colour(0, "red")).verdict
    assert verdict.rules == ("UNO-MATCH",)
    assert verdict.message == "the colour named for the wild is green already"
    match.undo()
    legal(match, play(1, "green-2"), unseen(2))
    assert match.play(play(0, "blue-2")).verdict.severity == "warning"
    assert rules(match, colour(2, "blue")) == ("UNO-MATCH",)  # a card went on the wild


def test_named_once_a_second_naming_is_flagged_and_stands_only_if_accepted() -> None:
    match = started(wild="official")
    legal(match, unseen(0), colour(0, "blue"))
    assert rules(match, colour(0, "green")) == ("UNO-MATCH",)
    assert match.state.colour == "green"  # the table let it stand


def test_not_before_the_first_card() -> None:
    match = Match(GAME, Header("uno", ("a", "b", "c"), 0, {}))
    assert rules(match, colour(0, "red")) == ("UNO-FIRST-CARD",)
    legal(match, Move(2, "deal"))
    assert rules(match, colour(0, "red")) == ("UNO-FIRST-CARD",)
    assert match.state.colour is None


def test_a_wild_turned_up_is_named_by_the_first_player() -> None:
    match = Match(GAME, Header("uno", ("a", "b", "c"), 0, {"first_card": "official"}))
    legal(match, Move(2, "deal"), Move(2, "turn-up", {"card": "wild", "colour": None}))
    verdict = match.play(colour(2, "red")).verdict
    assert verdict.rules == ("UNO-FIRST-CARD",)
    assert verdict.message == "a wild turned up: seat 0 names the colour"
    match.undo()
    legal(match, colour(0, "yellow"))
    assert rules(match, play(0, "red-4")) == ("UNO-MATCH",)


def test_a_draw2_on_a_named_draw4_must_be_of_its_colour() -> None:
    match = started(wild="official", wild_draw4="official")
    legal(match, unseen(0, "wild-draw4"), colour(0, "yellow"))
    assert rules(match, play(1, "green-draw2")) == ("UNO-STACK",)
    match.undo()
    legal(match, play(1, "yellow-draw2"))
    assert match.state.stack == 6


def test_naming_keeps_the_challenge_open_and_waits_for_none() -> None:
    match = started(wild_draw4="official")
    legal(match, unseen(0, "wild-draw4"), colour(0, "red"))
    assert match.state.wd4 is not None  # the target may still challenge
    legal(match, Move(1, "challenge"))
    waiting = started(wild_draw4="official")
    legal(waiting, unseen(0, "wild-draw4"), Move(1, "challenge"))
    legal(waiting, colour(0, "green"))  # not "seat 0 first shows its hand"


def test_a_wild_on_a_named_wild_is_judged_on_the_named_colour() -> None:
    match = started()
    legal(match, unseen(0), colour(0, "blue"))
    legal(match, play(1, "wild", colour="red"))
    # What would have forbidden it is what matches the named colour.
    assert match.state.suspicions[-1].why == "a wild on wild (blue)"
    assert "blue-5" in match.state.suspicions[-1].forbidding


def test_the_last_card_a_wild_its_colour_counts_for_nothing_but_is_no_breach() -> None:
    match = started(seats=2)
    state = match.state
    match._states[-1] = type(state)(  # noqa: SLF001 - a test shortcut: seat 1 holds one card
        **{**state.__dict__, "hands": (7, 1), "pile": state.pile + 6}
    )
    legal(match, play(0, "red-5"), unseen(1))
    assert match.state.phase == "reveal"
    assert GAME.page_moves(match.state) == []
    legal(match, colour(1, "green"))


# -- offered on the page ---------------------------------------------------------------------


def test_the_page_offers_the_colour_to_the_wilds_player_only_while_it_is_unseen() -> None:
    match = started(wild="official")
    assert GAME.page_moves(match.state) == []
    legal(match, play(0, "wild", colour="blue"))
    assert GAME.page_moves(match.state) == []  # the log named it
    legal(match, play(1, "blue-1"), unseen(2, "wild-draw4"))
    [offer] = colour_offers(match.state)
    assert offer.to_json() == {
        "move": "colour",
        "title": "Which colour did seat 2 name for the wild-draw4?",
        "seats": [2],
        "fields": [{"name": "colour", "label": "colour", "choices": list(COLOURS)}],
        "fixed": {},
    }
    legal(match, Move(0, "draw", {"count": 4}))
    assert GAME.page_moves(match.state) == [offer]  # still on top after the penalty
    answer = {"seat": 2, "move": offer.kind, **offer.fixed, "colour": "green"}
    entered = GAME.parse_move(answer.pop("seat"), answer.pop("move"), answer)
    legal(match, entered)
    assert GAME.page_moves(match.state) == []


def test_the_page_offers_a_turned_up_wilds_colour_to_the_first_player() -> None:
    match = Match(GAME, Header("uno", ("a", "b", "c"), 1, {"first_card": "official"}))
    legal(match, Move(0, "deal"), Move(0, "turn-up", {"card": "wild", "colour": None}))
    [offer] = GAME.page_moves(match.state)
    assert offer.seats == (1,)
    assert offer.title == "wild turned up: which colour does seat 1 name?"


def test_a_card_on_the_wild_withdraws_the_offer() -> None:
    match = started(wild="official")
    legal(match, unseen(0))
    match.play(play(1, "green-2"))  # a warning: the colour is not known
    assert GAME.page_moves(match.state) == []


def test_the_offer_speaks_romanian() -> None:
    match = started(wild="official")
    legal(match, unseen(0, "wild-draw4"))
    [offer] = colour_offers(match.state)
    ro = catalogue("ro")
    assert isinstance(offer.title, Text) and isinstance(offer.fields[0].label, Text)
    assert translate(offer.title, ro, ("Ana", "Bogdan", "Chiara", "Dan")) == (
        "Ce culoare a ales Ana pentru +4?"
    )
    assert translate(offer.fields[0].label, ro) == "culoarea"
    assert [translate(choice, ro) for choice in offer.fields[0].choices] == [
        "roșu", "verde", "albastru", "galben",
    ]


# -- the camera side: UnoTable ------------------------------------------------------------------


def seen(match: Match[UnoState], *codes: str, table: UnoTable | None = None) -> list[Any]:
    """What the table makes of the discard pile showing `codes` (its top, as a rule)."""
    cards = tuple(ViewCard(code, 3.0 * i, 2.0) for i, code in enumerate(codes))
    last = match.rulings[-1] if match.rulings else None
    actions = (table or UnoTable(GAME)).on_view(match.state, TableView(cards), last)
    return [a.move.to_json() if isinstance(a, Play) else type(a).__name__ for a in actions]


def pressed(match: Match[UnoState], seat: int, kind: str) -> list[Any]:
    last = match.rulings[-1] if match.rulings else None
    actions = UnoTable(GAME).on_press(match.state, Press(seat, kind), last)  # type: ignore[arg-type]
    return [a.move.to_json() if isinstance(a, Play) else type(a).__name__ for a in actions]


def test_table_a_named_colour_is_no_new_card() -> None:
    match = started(wild="official")
    legal(match, unseen(0), colour(0, "blue"))
    assert seen(match, "wild") == []
    assert seen(match, "green-8") == [
        {"seat": 1, "move": "play", "cards": ["green-8"]}
    ]
    assert rules(match, play(1, "green-8")) == ("UNO-MATCH",)


def test_table_a_flagged_wild_picked_up_after_naming_goes_back_with_its_colour() -> None:
    match = started(wild="official")
    legal(match, play(0, "red-draw2"))
    assert rules(match, unseen(1)) == ("UNO-WILD-RESTRICT",)  # no wild on a penalty
    match.play(colour(1, "blue"))
    assert seen(match, "red-draw2") == ["TakeBack", "TakeBack"]
    match.undo()
    match.undo()
    assert match.state.top == "red-draw2" and match.state.stack == 2


def test_table_a_legal_wild_picked_up_after_naming_is_asked_not_played() -> None:
    match = started(wild="official")
    legal(match, unseen(0), colour(0, "blue"))
    assert seen(match, "red-3") == ["AskTable"]


def test_table_a_second_wild_after_naming_is_a_double_of_the_named_colour() -> None:
    match = started(wild="official")
    legal(match, unseen(0), colour(0, "blue"))
    assert pressed(match, 0, "press") == [
        "TakeBack", "TakeBack", {"seat": 0, "move": "play", "cards": ["wild", "wild"],
                                 "colour": "blue"},
    ]
    assert pressed(match, 0, "double") == ["TakeBack"]  # takes back the naming only


def test_table_a_wild_turned_up_under_the_official_rule_waits_for_its_colour() -> None:
    match = Match(GAME, Header("uno", ("a", "b", "c"), 0, {"first_card": "official"}))
    table = UnoTable(GAME)
    assert seen(match, table=table) == []
    moves = seen(match, "wild", table=table)
    assert moves == [
        {"seat": 2, "move": "deal"},
        {"seat": 2, "move": "turn-up", "card": "wild", "colour": None},
    ]
    for line in moves:
        legal(match, Move(line.pop("seat"), line.pop("move"), line))
    assert [offer.kind for offer in GAME.page_moves(match.state)] == ["colour"]


def test_table_a_wild_turned_up_under_the_house_rule_has_no_colour() -> None:
    match = Match(GAME, Header("uno", ("a", "b", "c"), 0, {}))
    table = UnoTable(GAME)
    assert seen(match, table=table) == []
    assert seen(match, "wild", table=table)[1] == {"seat": 2, "move": "turn-up", "card": "wild"}
