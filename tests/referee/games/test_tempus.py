"""Professor Tempus: every rule of shared/rules/tempus.md by its id, the options, round
ends, scoring, unknown cards, whole games with real (simulated) hands, and the logs.

A set is drawn as (owner, series, cards from the bottom up): (1, "plus", [None, "red-5"])
is seat 1's set under '+', a card nobody saw beneath a red 5 on top. Sets are numbered
1, 2, 3 in the order they are given unless `numbers` says otherwise.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pytest

from firmware.cli import main
from referee.core import TURN_RULE, Header, Match, Move, RefereeError, Verdict
from referee.games import get_game
from referee.games.tempus import BASE_HANDS, Tempus, TempusSet, TempusState, TempusTable
from referee.table import AskTable, Play, Press, TableView, TakeBack, ViewCard

GAME = Tempus()
FIXTURES = Path(__file__).parents[2] / "fixtures" / "referee" / "tempus"
PLAYING = [f"{c}-{v}" for c in ("red", "violet") for v in range(1, 26)] + [
    f"joker-{v}" for v in range(1, 26, 2)
]
#: Rounds played under the base rules, from the table of tempus.md §1.6.
ROUNDS = {2: 5, 3: 4, 4: 3, 5: 2}

SetPicture = tuple[int, str, Sequence[str | None]]


def table(
    *sets: SetPicture,
    seats: int = 2,
    to_play: int = 0,
    hands: Sequence[int] | None = None,
    pile: int | None = None,
    numbers: Sequence[int] | None = None,
    **options: Any,
) -> TempusState:
    """A state with `sets` on the table and `to_play` to play (and starting the round);
    unless `pile` says otherwise, the cards not in hands or sets make the draw pile."""
    names = tuple(f"seat{n}" for n in range(seats))
    state = GAME.setup(GAME.check_header(Header("tempus", names, to_play, options)))
    numbers = numbers or range(1, len(sets) + 1)
    held = tuple(
        TempusSet(number, owner, series, tuple(cards))
        for number, (owner, series, cards) in zip(numbers, sets, strict=True)
    )
    hands = state.hands if hands is None else tuple(hands)
    in_sets = sum(len(s.cards) for s in held)
    return replace(
        state,
        sets=held,
        hands=hands,
        pile=GAME.playing_cards - sum(hands) - in_sets if pile is None else pile,
    )


def open_(seat: int, series: str, card: str | None) -> Move:
    return Move(seat, "open", {"series": series, "card": card})


def capture(seat: int, number: int, card: str | None, series: str | None = None) -> Move:
    fields: dict[str, Any] = {"set": number, "card": card}
    if series is not None:
        fields["series"] = series
    return Move(seat, "capture", fields)


def feed(seat: int, number: int, card: str | None = None) -> Move:
    return Move(seat, "feed", {"set": number, "card": card})


def bury(seat: int, card: str | None = None) -> Move:
    return Move(seat, "bury", {"card": card})


def judge(state: TempusState, move: Move) -> Verdict:
    return GAME.judge(state, move)


def play(state: TempusState, move: Move) -> tuple[Verdict, TempusState]:
    return GAME.judge(state, move), GAME.apply(state, move)


def sets_of(state: TempusState) -> list[tuple[int, int, str, list[str | None]]]:
    """The sets of `state` as (number, owner, series, cards)."""
    return [(s.number, s.owner, s.series, list(s.cards)) for s in state.sets]


def total_cards(state: TempusState) -> int:
    """Every playing card is somewhere: hands, sets, scoring piles, pile, out of play."""
    return (
        sum(state.hands)
        + sum(len(s.cards) for s in state.sets)
        + sum(len(pile) for pile in state.won)
        + state.pile
        + state.buried
        + state.strays
    )


#: Seat 1's red set under '+', a red 12 on top: seat 0 to play.
RED_12_PLUS: SetPicture = (1, "plus", ["red-12"])
RED_12_MINUS: SetPicture = (1, "minus", ["red-12"])


# -- the deck ---------------------------------------------------------------------------


def test_deck_has_63_unique_playing_cards_and_the_two_series_faces() -> None:
    deck = GAME.deck
    assert sorted(GAME.deck.codes) == sorted([*PLAYING, "series-plus", "series-minus"])
    assert GAME.playing_cards == 63
    assert all(deck.face(code).copies == 1 for code in PLAYING)
    for side, other in (("plus", "minus"), ("minus", "plus")):
        face = deck.face(f"series-{side}")
        assert face.copies == 3
        assert face.attrs == {"series": side, "double_sided_with": f"series-{other}"}
        assert face.art["symbol"] == f"series-{side}"


def test_deck_hourglasses_are_our_print_and_play_distribution() -> None:
    marks = {code: GAME.deck.face(code).attrs["hourglasses"] for code in PLAYING}
    assert sum(marks.values()) == 61
    assert {code for code, n in marks.items() if n == 3} == {
        f"{c}-{v}" for c in ("red", "violet") for v in (7, 14, 21)
    }
    assert all(marks[f"joker-{v}"] == 1 for v in range(1, 26, 2))
    assert marks["red-1"] == marks["violet-4"] == 2
    assert marks["red-5"] == marks["violet-12"] == 1
    assert marks["red-13"] == marks["violet-25"] == 0
    for code in PLAYING:
        face = GAME.deck.face(code)
        colour, value = code.rsplit("-", 1)
        assert face.attrs["colour"] == colour and face.attrs["value"] == int(value)
        assert face.art["marks"] == face.attrs["hourglasses"]
        assert face.art["corner"] == value
        assert face.art["symbol"] == ("joker" if colour == "joker" else "numeral")


def test_tempus_is_registered_with_its_table_side() -> None:
    game = get_game("tempus")
    assert game.title == "Professor Tempus"
    assert isinstance(game.interpreter(Header("tempus", ("A", "B"))), TempusTable)


# -- TEMPUS-ONE-CARD ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "move",
    [open_(0, "plus", "red-3"), capture(0, 1, "red-13"), feed(0, 1), feed(0, 1, "violet-2")],
    ids=["open", "capture", "feed", "feed-seen"],
)
def test_one_card_each_action_takes_exactly_one_card_from_the_mover(move: Move) -> None:
    state = table(RED_12_PLUS)
    verdict, after = play(state, move)
    assert verdict.ok, verdict.message
    assert after.hands == (6, 7) and after.pile == state.pile
    assert total_cards(after) == total_cards(state) == 63


def test_one_card_the_deadlock_bury_also_takes_one_card() -> None:
    state = table((0, "plus", ["red-3"]), (0, "minus", ["red-9"]), (0, "plus", ["joker-1"]))
    verdict, after = play(state, bury(0))
    assert verdict.ok
    assert after.hands == (6, 7) and after.pile == state.pile + 1


def test_one_card_a_second_card_in_a_row_is_flagged() -> None:
    state = table(RED_12_PLUS, (1, "minus", ["violet-4"]), seats=3)
    _, after = play(state, capture(0, 1, "red-13"))
    verdict = judge(after, capture(0, 2, "violet-3"))
    assert verdict.rules == (TURN_RULE, "TEMPUS-ONE-CARD")
    assert verdict.message == "it is seat 1's turn, not 0's; one card a turn: seat 0 just played"


def test_one_card_a_seat_down_to_the_round_end_hand_waits() -> None:
    state = table(RED_12_PLUS, seats=3, hands=(2, 4, 4))
    verdict = judge(state, capture(0, 1, "red-13"))
    assert "TEMPUS-ONE-CARD" in verdict.rules
    assert "seat 0 keeps its last 2 cards until the round ends" in verdict.message


def test_one_card_a_capture_of_a_set_that_is_not_there_is_flagged_and_left_lying() -> None:
    state = table(RED_12_PLUS)
    verdict, after = play(state, capture(0, 2, "red-13"))
    assert verdict.rules == ("TEMPUS-ONE-CARD",)
    assert verdict.message == "there is no set 2 on the table"
    assert after.strays == 1 and sets_of(after) == sets_of(state)
    assert total_cards(after) == 63


# -- TEMPUS-FIRST-OPENS -------------------------------------------------------------------


@pytest.mark.parametrize("series", ["plus", "minus"])
def test_first_opens_the_round_starts_with_an_open(series: str) -> None:
    verdict, after = play(table(), open_(0, series, "violet-7"))
    assert verdict.ok
    assert verdict.message == "as set 1"  # after "opens a set on the '+' side with ..."
    assert sets_of(after) == [(1, 0, series, ["violet-7"])]


@pytest.mark.parametrize(
    "move",
    [capture(0, 1, "red-3"), feed(0, 1), bury(0)],
    ids=["capture", "feed", "bury"],
)
def test_first_opens_anything_else_first_is_illegal(move: Move) -> None:
    verdict = judge(table(), move)
    assert verdict.rules == ("TEMPUS-FIRST-OPENS",)
    assert verdict.message == "no set is on the table: the round starts with an open"


def test_first_opens_again_at_the_start_of_every_round() -> None:
    state = table((0, "plus", ["red-3"]), hands=(2, 3), to_play=1)
    _, after = play(state, feed(1, 1))
    assert after.round == 2 and after.sets == ()
    assert judge(after, feed(after.starter, 1)).rules == ("TEMPUS-FIRST-OPENS",)
    assert judge(after, open_(after.starter, "minus", None)).ok


# -- TEMPUS-HOLDER-FREE -------------------------------------------------------------------


def test_holder_free_an_open_takes_the_lowest_free_holder() -> None:
    state = table((1, "plus", ["red-3"]), (1, "minus", ["red-9"]), numbers=[1, 3])
    verdict, after = play(state, open_(0, "plus", "joker-5"))
    assert verdict.ok and verdict.message == "as set 2"
    assert [s.number for s in after.sets] == [1, 2, 3]
    assert after.find(2) == TempusSet(2, 0, "plus", ("joker-5",))


def test_holder_free_no_fourth_set() -> None:
    state = table((1, "plus", ["red-3"]), (1, "minus", ["red-9"]), (0, "plus", ["joker-1"]))
    verdict, after = play(state, open_(0, "minus", "violet-20"))
    assert verdict.rules == ("TEMPUS-HOLDER-FREE",)
    assert verdict.message == "all three holders are taken: no set to open"
    assert after.find(4) == TempusSet(4, 0, "minus", ("violet-20",)), "the table let it stand"


# -- TEMPUS-SERIES-CHOICE -----------------------------------------------------------------


def test_series_choice_the_opener_picks_the_face_and_it_stays() -> None:
    _, after = play(table(), open_(0, "minus", "red-10"))
    verdict, after = play(after, capture(1, 1, "red-4", series="minus"))
    assert verdict.ok, "naming the face the set already shows is fine"
    assert after.find(1) == TempusSet(1, 1, "minus", ("red-10", "red-4"))


def test_series_choice_turning_the_series_card_is_illegal() -> None:
    verdict, after = play(table(RED_12_MINUS), capture(0, 1, "red-4", series="plus"))
    assert verdict.rules == ("TEMPUS-SERIES-CHOICE",)
    assert verdict.message == (
        "set 1 shows '-' for the whole round: its series card may not be turned"
    )
    assert after.find(1) == TempusSet(1, 0, "plus", ("red-12", "red-4")), "as the table left it"


def test_series_choice_not_fixed_the_capturer_turns_it_after_playing() -> None:
    state = table(RED_12_MINUS, series_fixed=False)
    verdict, after = play(state, capture(0, 1, "red-4", series="plus"))
    assert verdict.ok
    assert after.find(1) == TempusSet(1, 0, "plus", ("red-12", "red-4"))
    assert judge(after, capture(1, 1, "red-5")).ok, "the next card follows the new face"
    # The card is judged against the face it was played on, not the one left showing.
    assert judge(state, capture(0, 1, "red-13", series="plus")).rules == ("TEMPUS-ORDER",)


# -- TEMPUS-NOT-OWN -----------------------------------------------------------------------


def test_not_own_a_capture_moves_the_set_in_front_of_the_capturer() -> None:
    verdict, after = play(table(RED_12_PLUS), capture(0, 1, "red-13"))
    assert verdict.ok
    assert verdict.message == "and takes it from seat 1"
    assert sets_of(after) == [(1, 0, "plus", ["red-12", "red-13"])]


def test_not_own_a_feed_leaves_the_set_where_it_is() -> None:
    verdict, after = play(table(RED_12_PLUS), feed(0, 1, "red-25"))
    assert verdict.ok and verdict.message == ""  # the move says it all
    assert sets_of(after) == [(1, 1, "plus", ["red-25", "red-12"])]


@pytest.mark.parametrize(
    "move", [capture(1, 1, "red-13"), feed(1, 1)], ids=["capture-own", "feed-own"]
)
def test_not_own_playing_on_your_own_set_is_illegal(move: Move) -> None:
    verdict = judge(table(RED_12_PLUS, to_play=1), move)
    assert verdict.rules == ("TEMPUS-NOT-OWN",)
    assert verdict.message == "set 1 is already yours: play on an opponent's set"


# -- TEMPUS-COLOUR ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("top", "card"),
    [
        ("red-12", "red-20"),
        ("violet-3", "violet-4"),
        ("red-12", "joker-13"),
        ("violet-1", "joker-25"),
    ],
)
def test_colour_same_colour_or_a_joker_is_legal(top: str, card: str) -> None:
    assert judge(table((1, "plus", [top])), capture(0, 1, card)).ok


@pytest.mark.parametrize(
    ("top", "card", "colour"),
    [("red-12", "violet-13", "red"), ("violet-3", "red-4", "violet")],
)
def test_colour_the_other_colour_is_illegal(top: str, card: str, colour: str) -> None:
    verdict = judge(table((1, "plus", [top])), capture(0, 1, card))
    assert verdict.rules == ("TEMPUS-COLOUR",)
    assert verdict.message == f"{card} may not go on {top}: the set is {colour}"


def test_colour_is_the_top_card_s_not_the_opening_card_s() -> None:
    state = table((1, "plus", ["red-2", "joker-5", "violet-9"]))
    assert judge(state, capture(0, 1, "violet-10")).ok
    assert judge(state, capture(0, 1, "red-10")).rules == ("TEMPUS-COLOUR",)


# -- TEMPUS-ORDER -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("series", "card"),
    [("plus", "red-13"), ("plus", "red-25"), ("minus", "red-11"), ("minus", "red-1")],
)
def test_order_follows_the_series(series: str, card: str) -> None:
    assert judge(table((1, series, ["red-12"])), capture(0, 1, card)).ok


@pytest.mark.parametrize(
    ("series", "card", "message"),
    [
        ("plus", "red-11", "under '+' the card must be higher than 12"),
        ("minus", "red-13", "under '-' the card must be lower than 12"),
        ("plus", "joker-9", "under '+' the card must be higher than 12"),
        ("minus", "joker-13", "under '-' the card must be lower than 12"),
    ],
    ids=["plus-lower", "minus-higher", "joker-plus", "joker-minus"],
)
def test_order_against_the_series_is_illegal(series: str, card: str, message: str) -> None:
    verdict = judge(table((1, series, ["red-12"])), capture(0, 1, card))
    assert verdict.rules == ("TEMPUS-ORDER",)
    assert verdict.message == message


def test_order_a_joker_on_a_joker_follows_the_order() -> None:
    assert judge(table((1, "minus", ["joker-11"])), capture(0, 1, "joker-9")).ok
    assert judge(table((1, "minus", ["joker-11"])), capture(0, 1, "joker-13")).rules == (
        "TEMPUS-ORDER",
    )


def test_order_colour_and_order_are_reported_together() -> None:
    verdict = judge(table(RED_12_PLUS), capture(0, 1, "violet-3"))
    assert verdict.rules == ("TEMPUS-COLOUR", "TEMPUS-ORDER")
    assert verdict.message == (
        "violet-3 may not go on red-12: the set is red; under '+' the card must be higher than 12"
    )


@pytest.mark.parametrize(
    ("strict", "rules"),
    [(True, ("TEMPUS-COLOUR", "TEMPUS-ORDER")), (False, ("TEMPUS-COLOUR",))],
)
def test_order_strict_option_equal_values_without_a_joker(
    strict: bool, rules: tuple[str, ...]
) -> None:
    # With this deck an equal value is either a joker pair (TEMPUS-EQUAL-JOKER) or a
    # red/violet pair (illegal by colour): the option changes only what is reported.
    verdict = judge(table(RED_12_PLUS, strict_order=strict), capture(0, 1, "violet-12"))
    assert verdict.rules == rules


def test_order_not_strict_says_at_least() -> None:
    verdict = judge(table(RED_12_PLUS, strict_order=False), capture(0, 1, "red-5"))
    assert verdict.message == "under '+' the card must be at least 12"


# -- TEMPUS-EQUAL-JOKER -------------------------------------------------------------------


@pytest.mark.parametrize("series", ["plus", "minus"])
@pytest.mark.parametrize(
    ("top", "card"),
    [("red-5", "joker-5"), ("violet-5", "joker-5"), ("joker-5", "red-5"), ("joker-5", "violet-5")],
)
def test_equal_joker_captures_on_the_same_value_either_way(
    series: str, top: str, card: str
) -> None:
    verdict, after = play(table((1, series, [top])), capture(0, 1, card))
    assert verdict.ok, verdict.message
    assert sets_of(after) == [(1, 0, series, [top, card])]


@pytest.mark.parametrize(
    ("top", "card", "rules"),
    [
        ("red-5", "violet-5", ("TEMPUS-COLOUR", "TEMPUS-ORDER")),
        ("red-5", "joker-3", ("TEMPUS-ORDER",)),
        ("joker-7", "red-5", ("TEMPUS-ORDER",)),
    ],
    ids=["no-joker", "joker-one-off", "on-a-joker-one-off"],
)
def test_equal_joker_needs_a_joker_and_the_same_value(
    top: str, card: str, rules: tuple[str, ...]
) -> None:
    assert judge(table((1, "plus", [top])), capture(0, 1, card)).rules == rules


# -- TEMPUS-JOKER-RESET -------------------------------------------------------------------


@pytest.mark.parametrize("card", ["red-20", "violet-20", "joker-21"])
def test_joker_reset_a_joker_on_top_takes_any_colour(card: str) -> None:
    assert judge(table((1, "plus", ["red-2", "joker-15"])), capture(0, 1, card)).ok


def test_joker_reset_an_opening_joker_makes_the_set_colourless() -> None:
    _, after = play(table(), open_(0, "minus", "joker-17"))
    assert judge(after, capture(1, 1, "violet-3")).ok
    assert judge(after, capture(1, 1, "red-3")).ok


def test_joker_reset_the_next_card_sets_the_new_colour() -> None:
    _, after = play(table((1, "plus", ["red-2", "joker-15"])), capture(0, 1, "violet-16"))
    verdict = judge(after, capture(1, 1, "red-20"))
    assert verdict.rules == ("TEMPUS-COLOUR",)
    assert verdict.message == "red-20 may not go on violet-16: the set is violet"
    assert judge(after, capture(1, 1, "violet-20")).ok


# -- TEMPUS-UNDER-ANY ---------------------------------------------------------------------


@pytest.mark.parametrize("card", [None, "red-1", "violet-11", "red-25", "joker-1"])
def test_under_any_any_card_goes_under_an_opponent_s_set(card: str | None) -> None:
    # red-13 could capture set 1: feeding is a free choice all the same.
    verdict, after = play(table(RED_12_PLUS), feed(0, 1, card))
    assert verdict.ok and verdict.severity == "ok"
    assert after.find(1) == TempusSet(1, 1, "plus", (card, "red-12")), "same owner, same top"


def test_under_any_needs_a_set_on_the_table() -> None:
    verdict, after = play(table(RED_12_PLUS), feed(0, 3, "red-1"))
    assert verdict.rules == ("TEMPUS-UNDER-ANY",)
    assert verdict.message == "there is no set 3 on the table"
    assert after.strays == 1


# -- TEMPUS-DEADLOCK ----------------------------------------------------------------------

ALL_MINE = ((0, "plus", ["red-3"]), (0, "minus", ["red-9"]), (0, "plus", ["joker-1"]))


@pytest.mark.parametrize(
    ("pile", "pile_change", "buried", "where"),
    [("draw_pile", 1, 0, "under the draw pile"), ("table_pile", 0, 1, "onto the table pile")],
)
def test_deadlock_all_three_sets_yours_a_card_leaves_the_round(
    pile: str, pile_change: int, buried: int, where: str
) -> None:
    state = table(*ALL_MINE, deadlock_pile=pile)
    verdict, after = play(state, bury(0))
    assert verdict.ok
    assert verdict.message == f"and it goes {where}"
    assert after.pile == state.pile + pile_change and after.buried == buried
    assert after.sets == state.sets
    assert total_cards(after) == 63


@pytest.mark.parametrize(
    "sets",
    [
        [(0, "plus", ["red-3"]), (0, "minus", ["red-9"])],
        [(0, "plus", ["red-3"]), (0, "minus", ["red-9"]), (1, "plus", ["joker-1"])],
    ],
    ids=["a-holder-free", "one-set-is-an-opponent-s"],
)
def test_deadlock_a_card_under_the_pile_otherwise_is_illegal(sets: list[SetPicture]) -> None:
    verdict = judge(table(*sets), bury(0))
    assert verdict.rules == ("TEMPUS-DEADLOCK",)
    assert verdict.message == (
        "a card goes under the draw pile only when all three sets are in front of you"
    )


@pytest.mark.parametrize(
    ("move", "rules"),
    [
        (open_(0, "plus", "red-20"), ("TEMPUS-HOLDER-FREE", "TEMPUS-DEADLOCK")),
        (feed(0, 2), ("TEMPUS-NOT-OWN", "TEMPUS-DEADLOCK")),
        (capture(0, 2, "red-8"), ("TEMPUS-NOT-OWN", "TEMPUS-DEADLOCK")),
    ],
    ids=["open", "feed", "capture"],
)
def test_deadlock_anything_but_the_pile_is_illegal(move: Move, rules: tuple[str, ...]) -> None:
    verdict = judge(table(*ALL_MINE), move)
    assert verdict.rules == rules
    assert verdict.message.endswith(
        "all three sets are in front of you: put a card under the draw pile"
    )


def test_deadlock_two_sets_yours_and_a_free_holder_you_simply_open() -> None:
    assert judge(table(*ALL_MINE[:2]), open_(0, "plus", "red-20")).ok


# -- TEMPUS-HIDDEN-HAND -------------------------------------------------------------------


def test_hidden_hand_the_state_holds_counts_and_the_page_shows_only_counts() -> None:
    _, after = play(table(), open_(0, "plus", "red-3"))
    assert after.hands == (6, 7)
    assert GAME.public_view(after)["hands"] == [6, 7]


def test_hidden_hand_nothing_that_needs_a_hand_shown_is_ever_flagged() -> None:
    # No move breaks TEMPUS-HIDDEN-HAND: the referee never asks for a hand. A face-down
    # feed, a feed when a capture was possible, and a deadlock card unseen are all fine
    # and need no confirmation.
    for state, move in [
        (table(RED_12_PLUS), feed(0, 1)),
        (table(*ALL_MINE), bury(0)),
    ]:
        verdict = judge(state, move)
        assert verdict.ok and verdict.severity == "ok" and verdict.rules == ()


# -- unknown cards --------------------------------------------------------------------------


@pytest.mark.parametrize("card", PLAYING[::4])
@pytest.mark.parametrize("series", ["plus", "minus"])
def test_unknown_top_any_card_on_it_is_never_flagged(series: str, card: str) -> None:
    verdict = judge(table((1, series, ["red-12", None])), capture(0, 1, card))
    assert verdict.ok and verdict.severity == "warning"
    assert verdict.message == (
        "and takes it from seat 1; the top of set 1 is not known: colour and order not checked"
    )


@pytest.mark.parametrize("top", ["red-25", "violet-1", "joker-13"])
def test_unknown_card_captures_anything_with_a_warning(top: str) -> None:
    verdict, after = play(table((1, "plus", [top])), capture(0, 1, None))
    assert verdict.ok and verdict.severity == "warning"
    assert "card not recognised: colour and order not checked" in verdict.message
    assert sets_of(after) == [(1, 0, "plus", [top, None])]


def test_unknown_card_opening_asks_for_confirmation() -> None:
    verdict, after = play(table(), open_(0, "plus", None))
    assert verdict.ok and verdict.severity == "warning"
    assert "card not recognised" in verdict.message
    assert after.find(1) == TempusSet(1, 0, "plus", (None,))


def test_unknown_card_what_does_not_depend_on_the_card_is_still_judged() -> None:
    assert judge(table(RED_12_PLUS, to_play=1), capture(1, 1, None)).rules == ("TEMPUS-NOT-OWN",)
    assert judge(table(), capture(0, 1, None)).rules == ("TEMPUS-FIRST-OPENS",)


def test_unknown_a_card_already_played_is_a_misreading_never_judged_or_scored_twice() -> None:
    state = table((1, "plus", ["red-12", "red-20"]))
    verdict, after = play(state, capture(0, 1, "red-12"))
    assert verdict.ok and verdict.severity == "warning"
    assert "red-12 is already in set 1: the camera misread it; confirm the card" in verdict.message
    assert sets_of(after) == [(1, 0, "plus", ["red-12", "red-20", None])]
    won = replace(state, sets=(), won=(("violet-7",), ()))
    verdict = judge(won, open_(0, "plus", "violet-7"))
    assert verdict.severity == "warning"
    assert "violet-7 is already in seat 0's scoring pile" in verdict.message


# -- round end, refill, next starter ------------------------------------------------------


def test_round_end_when_every_hand_holds_two() -> None:
    state = table(
        (0, "plus", [None, "red-3", "red-7"]), (1, "minus", ["joker-9"]), hands=(3, 2), pile=20
    )
    verdict, after = play(state, capture(0, 2, "joker-7"))
    assert verdict.ok
    assert verdict.message == (
        "and takes it from seat 1; round 1 ends, seat 1 starts round 2"
    )
    assert after.sets == ()
    assert after.won == ((None, "red-3", "red-7", "joker-9", "joker-7"), ())
    assert after.hands == (7, 7) and after.pile == 10
    assert after.round == 2 and after.starter == 1 and GAME.to_play(after) == 1


def test_round_end_not_before_every_hand_holds_two() -> None:
    state = table(RED_12_PLUS, seats=3, hands=(3, 3, 3))
    _, after = play(state, capture(0, 1, "red-13"))
    assert after.round == 1 and after.hands == (2, 3, 3) and len(after.sets) == 1


@pytest.mark.parametrize(
    ("direction", "starters"),
    [("clockwise", [0, 1, 2, 0]), ("counterclockwise", [0, 2, 1, 0])],
)
def test_round_end_the_next_starter_is_the_seat_after_the_last_starter(
    direction: str, starters: list[int]
) -> None:
    state = table(seats=3, direction=direction)
    seen = [state.starter]
    for _ in range(3):
        sets = (TempusSet(1, 0, "plus", ("red-1",)), TempusSet(2, 1, "plus", ("red-2",)))
        state = replace(state, sets=sets, hands=(3, 3, 3))
        for _ in range(3):
            mover = state.turn.current
            state = GAME.apply(state, feed(mover, 2 if mover == 0 else 1))
        assert GAME.to_play(state) == state.starter
        seen.append(state.starter)
    assert seen == starters


def test_round_end_a_seat_that_played_out_of_turn_waits_for_the_others() -> None:
    state = table(RED_12_PLUS, seats=3, hands=(3, 3, 3))
    _, after = play(state, capture(0, 1, "red-13"))
    _, after = play(after, feed(2, 1))  # out of turn: seat 1 is passed over
    assert after.hands == (2, 3, 2)
    assert GAME.to_play(after) == 1, "seats 0 and 2 hold 2 cards and wait"
    _, after = play(after, feed(1, 1))
    assert after.round == 2


# -- game end -------------------------------------------------------------------------------


def test_game_end_when_the_pile_cannot_refill_every_hand() -> None:
    state = table((1, "plus", ["red-14", "violet-7"]), hands=(3, 2), pile=9)
    verdict, after = play(state, feed(0, 1, "red-1"))
    assert verdict.message.endswith("round 1 ends and the pile cannot refill every hand: game over")
    assert GAME.is_over(after) and GAME.to_play(after) is None
    assert after.hands == (2, 2) and after.pile == 9, "no refill"
    assert GAME.scores(after) == {0: 0, 1: 3 + 3 + 2}
    assert GAME.winners(after) == [1]
    late = judge(after, open_(0, "plus", "red-5"))
    assert late.rules == (TURN_RULE,) and late.message == "the game is over: no more moves"


def test_game_end_a_pile_that_exactly_refills_plays_another_round() -> None:
    _, after = play(table(RED_12_PLUS, hands=(3, 2), pile=10), feed(0, 1))
    assert not GAME.is_over(after) and after.pile == 0 and after.hands == (7, 7)


def test_game_end_cards_left_in_hand_do_not_count() -> None:
    _, after = play(table(RED_12_PLUS, hands=(3, 2), pile=0), feed(0, 1, "red-2"))
    assert GAME.scores(after) == {0: 0, 1: 1 + 2}


# -- scores and ties ------------------------------------------------------------------------


def test_scores_count_hourglasses_and_unknown_cards_count_none() -> None:
    state = replace(table(), won=(("red-7", None, None, "joker-3"), ("violet-2",)))
    assert GAME.scores(state) == {0: 3 + 1, 1: 2}
    view = GAME.public_view(state)
    assert view["won"] == [
        {"seat": 0, "cards": 4, "unknown": 2, "hourglasses": 4},
        {"seat": 1, "cards": 1, "unknown": 0, "hourglasses": 2},
    ]


@pytest.mark.parametrize(
    ("ties", "won", "winners"),
    [
        ("shared", (("red-7",), ("red-1", "joker-1")), [0, 1]),
        ("most_cards", (("red-7",), ("red-1", "joker-1")), [1]),
        ("most_cards", (("red-7", None), ("red-1", "joker-1")), [0, 1]),
        ("shared", (("red-7",), ("red-1",)), [0]),
    ],
    ids=["shared", "most-cards", "most-cards-still-equal", "no-tie"],
)
def test_ties(ties: str, won: tuple[tuple[str | None, ...], ...], winners: list[int]) -> None:
    state = replace(table(ties=ties), won=won, over=True)
    assert GAME.winners(state) == winners


def test_public_view_shows_sets_hands_pile_and_round() -> None:
    state = table((1, "plus", [None, "red-5"]), (0, "minus", ["joker-9", None]), hands=(5, 6))
    view = GAME.public_view(state)
    assert view["sets"] == [
        {"set": 1, "owner": 1, "series": "plus", "top": "red-5", "cards": 2},
        {"set": 2, "owner": 0, "series": "minus", "top": None, "cards": 2},
    ]
    assert view["zones"][0] == {
        "zone": "set 1 (+), seat 1",
        "top": "red-5",
        "cards": ["?", "red-5"],
    }
    assert (view["hands"], view["pile"], view["round"], view["buried"]) == ([5, 6], 48, 1, 0)


# -- options and the header -----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_options_default_to_the_base_deal(players: int) -> None:
    names = tuple(str(n) for n in range(players))
    state = GAME.setup(GAME.check_header(Header("tempus", names)))
    hand, refill, end = BASE_HANDS[players]
    assert state.hands == (hand,) * players and state.pile == 63 - hand * players
    assert (state.refill, state.round_end_hand) == (refill, end)


def test_options_per_player_count_only_the_table_s_count_applies() -> None:
    state = table(seats=5, hand_size_5=5, refill_5=3, round_end_hand_5=1, hand_size_2=9)
    assert state.hands == (5,) * 5 and state.pile == 38
    assert (state.refill, state.round_end_hand) == (3, 1)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"round_end_hand_2": 4, "hand_size_2": 4}, "round_end_hand_2 (4) must be less than"),
        ({"holders": 4}, "unknown option 'holders' for tempus"),
        ({"strict_order": "yes"}, "option 'strict_order' must be one of True, False"),
    ],
)
def test_options_that_cannot_be_played_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(RefereeError) as error:
        GAME.check_header(Header("tempus", ("A", "B"), 0, options))
    assert message in str(error.value)


@pytest.mark.parametrize(
    ("kind", "fields", "message"),
    [
        (
            "pass",
            {},
            "unknown move 'pass'; Professor Tempus has open, capture, feed, bury and count",
        ),
        ("open", {"card": "red-1"}, 'an open move needs "series"'),
        ("open", {"series": "up", "card": "red-1"}, "series must be 'plus' or 'minus', not 'up'"),
        ("capture", {"set": 0, "card": "red-1"}, "set must be a set number (1, 2 or 3), not 0"),
        ("capture", {"set": True, "card": None}, "set must be a set number"),
        ("feed", {"set": 1, "card": None, "series": "plus"}, "a feed move has no field 'series'"),
        ("bury", {}, 'a bury move needs "card"'),
        ("bury", {"card": "series-plus"}, "card must be a playing card's code"),
        ("capture", {"set": 1, "card": "red-26"}, "or null, not 'red-26'"),
    ],
)
def test_parse_move_names_what_is_wrong(kind: str, fields: dict[str, Any], message: str) -> None:
    with pytest.raises(RefereeError) as error:
        GAME.parse_move(0, kind, fields)
    assert message in str(error.value)


def test_parse_move_keeps_the_fields_as_written() -> None:
    move = GAME.parse_move(1, "capture", {"set": 2, "card": None, "series": "plus"})
    assert move.to_json() == {
        "seat": 1,
        "move": "capture",
        "set": 2,
        "card": None,
        "series": "plus",
    }


# -- whole games with real hands -------------------------------------------------------------


def fits(card: str, top: str, series: str) -> bool:
    """The oracle: may `card` capture a set showing `top` under `series`? (from the codes)"""
    colour, value = card.rsplit("-", 1)
    top_colour, top_value = top.rsplit("-", 1)
    if value == top_value and (colour == "joker") != (top_colour == "joker"):
        return True
    if "joker" not in (colour, top_colour) and colour != top_colour:
        return False
    return int(value) > int(top_value) if series == "plus" else int(value) < int(top_value)


@dataclass
class RealTable:
    """The cards as they really lie: the referee sees only what the log says of them."""

    hands: list[list[str]]
    pile: list[str]
    sets: dict[int, tuple[int, str, list[str]]] = field(default_factory=dict)
    won: list[list[str]] = field(default_factory=list)
    unseen: set[str] = field(default_factory=set)
    buries: int = 0
    table_pile: list[str] = field(default_factory=list)


def choose(real: RealTable, seat: int, rng: random.Random) -> tuple[str, int, str, str]:
    """A legal move for `seat` from its real hand: (kind, set, card, series)."""
    hand = real.hands[seat]
    theirs = [n for n, (owner, _, _) in real.sets.items() if owner != seat]
    captures = [
        ("capture", n, card, "")
        for n in theirs
        for card in hand
        if fits(card, real.sets[n][2][-1], real.sets[n][1])
    ]
    opens = [("open", 0, card, rng.choice(["plus", "minus"])) for card in hand]
    feeds = [("feed", n, card, "") for n in theirs for card in hand]
    kinds = [moves for moves in (captures, opens if len(real.sets) < 3 else [], feeds) if moves]
    if not kinds:
        return ("bury", 0, rng.choice(hand), "")
    return rng.choice(rng.choice(kinds))


def simulate(players: int, seed: int, **options: Any) -> tuple[Match[TempusState], RealTable, int]:
    """A whole game from a shuffled deck; every state is checked against the real table."""
    rng = random.Random(seed)
    deck = list(PLAYING)
    rng.shuffle(deck)
    hand, refill, end = BASE_HANDS[players]
    real = RealTable(
        hands=[deck[n * hand : (n + 1) * hand] for n in range(players)],
        pile=deck[players * hand :],
        won=[[] for _ in range(players)],
    )
    first = rng.randrange(players)
    names = tuple(f"p{n}" for n in range(players))
    match = Match(GAME, Header("tempus", names, first, options))
    starter, seat, rounds = first, first, 1
    while True:
        kind, number, card, series = choose(real, seat, rng)
        real.hands[seat].remove(card)
        # The camera sees the cards played on top, now and then not well enough; a card
        # slid under a set is usually face down; a buried one always is.
        seen = {
            "open": rng.random() > 0.1,
            "capture": rng.random() > 0.1,
            "feed": rng.random() > 0.8,
            "bury": False,
        }[kind]
        # A buried card may come back from the pile and be seen the next time.
        (real.unseen.discard if seen else real.unseen.add)(card)
        logged = card if seen else None
        if kind == "open":
            number = min(set(range(1, 4)) - set(real.sets))
            real.sets[number] = (seat, series, [card])
            move = open_(seat, series, logged)
        elif kind == "capture":
            _, face, cards = real.sets[number]
            real.sets[number] = (seat, face, [*cards, card])
            move = capture(seat, number, logged)
        elif kind == "feed":
            real.sets[number][2].insert(0, card)
            move = feed(seat, number, logged)
        else:
            real.buries += 1
            if options.get("deadlock_pile") == "table_pile":
                real.table_pile.append(card)
            else:
                real.pile.append(card)
            move = bury(seat, logged)
        ruling = match.play(move)
        assert ruling.verdict.ok and not ruling.verdict.rules, (ruling.index, ruling.verdict)
        state = match.state
        round_over = all(len(h) == end for h in real.hands)
        if round_over:
            for owner, _, cards in real.sets.values():
                real.won[owner] += cards
            real.sets = {}
            if len(real.pile) < refill * players:
                assert GAME.is_over(state) and match.to_play() is None
                break
            for h in real.hands:
                h += [real.pile.pop(0) for _ in range(refill)]
            starter = (starter + 1) % players
            seat = starter
            rounds += 1
        else:
            seat = (seat + 1) % players
        assert state.round == rounds, "a round ends exactly when every hand holds 2"
        assert match.to_play() == seat
        assert list(state.hands) == [len(h) for h in real.hands]
        assert state.pile == len(real.pile) and state.buried == len(real.table_pile)
        assert [(s.number, s.owner, s.series, len(s.cards)) for s in state.sets] == [
            (n, owner, face, len(cards)) for n, (owner, face, cards) in sorted(real.sets.items())
        ]
        assert total_cards(state) == 63 and state.strays == 0
    return match, real, rounds


SEEDS = range(6)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_whole_game_with_real_hands(players: int, seed: int) -> None:
    match, real, rounds = simulate(players, seed)
    state = match.state
    # Cards buried under the draw pile come back and can pay for another round.
    assert rounds == ROUNDS[players] if real.buries == 0 else rounds >= ROUNDS[players]
    assert total_cards(state) == 63
    assert [len(pile) for pile in state.won] == [len(pile) for pile in real.won]
    view = GAME.public_view(state)
    for seat, pile in enumerate(real.won):
        assert view["won"][seat]["unknown"] == sum(card in real.unseen for card in pile)
        assert GAME.scores(state)[seat] == sum(
            GAME.hourglasses(card) for card in pile if card not in real.unseen
        )
    best = max(GAME.scores(state).values())
    assert GAME.winners(state) == [s for s, p in GAME.scores(state).items() if p == best]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_whole_game_with_a_table_pile_plays_the_rounds_of_the_rule_sheet(players: int) -> None:
    for seed in SEEDS:
        _, real, rounds = simulate(players, seed, deadlock_pile="table_pile")
        assert rounds == ROUNDS[players]


def test_whole_games_meet_the_deadlock_and_a_buried_card_can_pay_for_a_round() -> None:
    games = [simulate(2, seed) for seed in SEEDS]
    assert sum(real.buries for _, real, _ in games) > 0, "the seeds exercise TEMPUS-DEADLOCK"
    assert any(rounds > ROUNDS[2] for _, _, rounds in games)


# -- the logs and `tableref referee check` -------------------------------------------------


def check(name: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, list[dict[str, Any]], str]:
    code = main(["referee", "check", "--game", "tempus", str(FIXTURES / f"{name}.jsonl")])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines()], err


def test_log_opening_is_legal_and_ends_a_round(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = check("opening", capsys)
    assert code == 0
    *rulings, result = lines
    assert all(r["ok"] and r["rules"] == [] for r in rulings)
    assert [r["index"] for r in rulings if r.get("severity") == "warning"] == [9]
    assert rulings[9]["message"] == (
        "and takes it from seat 0; card not recognised: colour and order "
        "not checked; round 1 ends, seat 1 starts round 2"
    )
    assert rulings[4]["message"] == "and takes it from seat 1"
    assert result == {"final": False, "scores": {"0": 1, "1": 6}, "winners": []}


def test_log_flagged_names_every_kind_of_illegal_move(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = check("flagged", capsys)
    assert code == 0
    *rulings, result = lines
    flagged = {r["index"]: r["rules"] for r in rulings if not r["ok"]}
    assert flagged == {
        0: ["TEMPUS-FIRST-OPENS"],
        2: ["TEMPUS-COLOUR"],
        3: ["TEMPUS-ORDER"],
        4: ["TEMPUS-SERIES-CHOICE"],
        5: [TURN_RULE, "TEMPUS-ONE-CARD"],
        7: ["TEMPUS-UNDER-ANY"],
        8: ["TEMPUS-NOT-OWN"],
        10: ["TEMPUS-HOLDER-FREE"],
        20: ["TEMPUS-DEADLOCK"],
        23: [TURN_RULE, "TEMPUS-ONE-CARD"],
    }
    assert rulings[22]["message"] == "and it goes under the draw pile"
    assert rulings[24]["message"].endswith("round 2 ends, seat 2 starts round 3")
    assert result == {"final": False, "scores": {"0": 5, "1": 2, "2": 11}, "winners": []}


def test_log_malformed_names_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, err = check("malformed", capsys)
    assert code == 2 and lines == []
    assert err.strip() == (
        f"tableref: error: {FIXTURES / 'malformed.jsonl'}: line 5: card must be a playing "
        "card's code such as red-12, violet-3 or joker-7, or null, not 'red-26'"
    )


NOTATION_DOC = Path(__file__).parents[3] / "docs" / "notation.md"


def test_the_documented_tempus_log_and_check_lines_are_what_tableref_does(
    capsys: pytest.CaptureFixture[str],
) -> None:
    doc = NOTATION_DOC.read_text(encoding="utf-8")
    assert (FIXTURES / "opening.jsonl").read_text(encoding="utf-8").strip() in doc
    printed = {
        json.dumps(line) for name in ("opening", "flagged") for line in check(name, capsys)[1]
    }
    section = doc[doc.index("## Professor Tempus") : doc.index("## UNO")]
    shown = [line for line in section.splitlines() if line.startswith(('{"index"', '{"final"'))]
    assert len(shown) == 9
    assert set(shown) <= printed


# -- the table interpreter ----------------------------------------------------------------

#: Where seat 0's and seat 1's sets lie, in mm from the mat centre (series card, pile).
SEAT_SPOTS = {0: [(-40.0, 150.0), (30.0, 150.0)], 1: [(-40.0, -150.0), (30.0, -150.0)]}
FREE_SERIES = [ViewCard("series-plus", -40.0, 0.0), ViewCard("series-plus", 40.0, 0.0)]


def seen_set(seat: int, series: str, top: str | None, slot: int = 0) -> list[ViewCard]:
    """The two cards of a set lying in front of `seat` (slot moves it sideways)."""
    (sx, sy), (px, py) = SEAT_SPOTS[seat]
    shift = 150.0 * slot
    return [ViewCard(f"series-{series}", sx + shift, sy), ViewCard(top, px + shift, py)]


def look(state: TempusState, *cards: list[ViewCard], last: Any = None) -> list[Any]:
    view = TableView(tuple(FREE_SERIES + [c for group in cards for c in group]))
    return TempusTable(GAME.deck.card_mm).on_view(state, view, last)


def test_table_a_new_set_in_front_of_a_seat_is_an_open() -> None:
    state = table()
    assert look(state, seen_set(0, "minus", "red-12")) == [Play(open_(0, "minus", "red-12"))]


def test_table_free_series_cards_in_the_middle_are_no_sets() -> None:
    assert look(table()) == []


def test_table_a_new_top_on_a_set_is_a_capture_of_that_set() -> None:
    state = table((0, "plus", ["red-5"]), to_play=1)
    seen = look(state, seen_set(0, "plus", "red-9"))
    assert seen == [Play(capture(1, 1, "red-9"))]


def test_table_a_set_moved_in_front_of_its_new_owner_is_no_move() -> None:
    state = table((1, "plus", ["red-5", "red-9"]), to_play=0)
    assert look(state, seen_set(1, "plus", "red-9")) == []


def test_table_cards_already_scored_are_no_new_set() -> None:
    state = replace(table(), won=(("red-5", "violet-7"), ()))
    assert look(state, seen_set(0, "plus", "violet-7")) == []


def test_table_two_new_cards_at_once_ask_the_table() -> None:
    state = table((0, "plus", ["red-5"]), to_play=1)
    actions = look(state, seen_set(0, "plus", "red-9"), seen_set(1, "minus", "violet-3", 1))
    assert len(actions) == 1 and isinstance(actions[0], AskTable)


def test_table_a_set_the_camera_cannot_see_asks_and_plays_nothing() -> None:
    state = table((0, "plus", ["red-5"]), (1, "minus", ["violet-20"]), to_play=0)
    actions = look(state, seen_set(0, "plus", "red-5"))
    assert len(actions) == 1 and isinstance(actions[0], AskTable)
    assert "set 2" in actions[0].message


def test_table_an_unreadable_top_asks_and_is_never_judged() -> None:
    state = table((0, "plus", ["red-5"]), to_play=1)
    actions = look(state, seen_set(0, "plus", None))
    assert len(actions) == 1 and isinstance(actions[0], AskTable)


def test_table_a_flagged_capture_taken_back_undoes_it() -> None:
    match = Match(GAME, Header("tempus", ("a", "b")))
    match._states[-1] = table((0, "plus", ["red-5"]), to_play=1)
    ruling = match.play(capture(1, 1, "red-3"))
    assert ruling.verdict.rules == ("TEMPUS-ORDER",)
    actions = look(match.state, seen_set(0, "plus", "red-5"), last=ruling)
    assert len(actions) == 1 and isinstance(actions[0], TakeBack)


def test_table_a_flagged_capture_swapped_on_the_same_set_is_taken_back_then_read_again() -> None:
    match = Match(GAME, Header("tempus", ("a", "b")))
    match._states[-1] = table((0, "plus", ["red-5"]), to_play=1)
    ruling = match.play(capture(1, 1, "red-3"))
    # the red 3 picked up and the red 9 put on the set under one hand
    actions = look(match.state, seen_set(0, "plus", "red-9"), last=ruling)
    assert len(actions) == 1 and isinstance(actions[0], TakeBack)
    match.undo()
    assert look(match.state, seen_set(0, "plus", "red-9")) == [Play(capture(1, 1, "red-9"))]


def press(state: TempusState, seat: int, kind: Any = "press") -> list[Any]:
    return TempusTable(GAME.deck.card_mm).on_press(state, Press(seat, kind), None)


def test_table_a_press_feeds_the_only_opponent_set() -> None:
    state = table((0, "plus", ["red-5"]), to_play=1)
    assert press(state, 1) == [Play(feed(1, 1))]


def test_table_a_press_with_several_opponent_sets_feeds_one_and_asks_which() -> None:
    state = table((0, "plus", ["red-5"]), (2, "minus", ["red-7"]), seats=3, to_play=1)
    actions = press(state, 1)
    assert actions[0] == Play(Move(1, "feed", {"set": None, "card": None}))
    assert isinstance(actions[1], AskTable) and "1, 2" in actions[1].message


def test_a_feed_under_an_unknown_set_is_legal_and_scores_for_nobody() -> None:
    state = table((0, "plus", ["red-5"]), (2, "minus", ["red-7"]), seats=3, to_play=1)
    move = Move(1, "feed", {"set": None, "card": None})
    verdict, after = play(state, move)
    assert verdict.ok and verdict.message == ""  # "slides a card under an opponent's set"
    assert after.fed_unknown == 1 and [len(s.cards) for s in after.sets] == [1, 1]
    lonely = table((1, "plus", ["red-5"]), seats=3, to_play=1)
    assert judge(lonely, move).rules == ("TEMPUS-UNDER-ANY",)


def test_table_a_press_when_every_set_is_yours_buries_a_card() -> None:
    state = table((0, "plus", ["red-5"]), (0, "minus", ["red-7"]), (0, "plus", ["joker-3"]))
    assert press(state, 0) == [Play(bury(0))]


def test_table_a_press_out_of_turn_asks() -> None:
    state = table((0, "plus", ["red-5"]), to_play=1)
    assert isinstance(press(state, 0)[0], AskTable)


# -- counting the cards won at a round end ------------------------------------------------


def test_count_matches_the_cards_each_seat_took_at_the_last_round_end() -> None:
    state = table((0, "plus", ["red-5", "red-9"]), (1, "minus", ["violet-20"]),
                  hands=[3, 2], to_play=0)
    verdict, ended = play(state, feed(0, 2))
    assert ended.round == state.round + 1 and ended.round_won == (2, 2)
    counted, after = play(ended, Move(1, "count", {"cards": 2}))
    assert counted.ok and counted.severity == "ok" and after == ended
    wrong = judge(ended, Move(0, "count", {"cards": 3}))
    assert wrong.ok and wrong.severity == "warning" and "the log says 2" in wrong.message


def test_count_allows_for_cards_fed_under_an_unknown_set() -> None:
    state = table((0, "plus", ["red-5"]), (0, "minus", ["violet-20"]), (2, "plus", ["red-1"]),
                  seats=3, hands=[2, 3, 2], to_play=1)
    _, ended = play(state, Move(1, "feed", {"set": None, "card": None}))
    assert ended.round_won == (2, 0, 1) and ended.round_unplaced == 1
    assert judge(ended, Move(2, "count", {"cards": 2})).severity == "ok"
    assert judge(ended, Move(2, "count", {"cards": 3})).severity == "warning"


def test_count_before_any_round_end_is_a_warning_and_after_the_game_is_still_taken() -> None:
    assert judge(table(), Move(0, "count", {"cards": 0})).severity == "warning"
    over = replace(table(), over=True, round_won=(3, 4))
    assert judge(over, Move(1, "count", {"cards": 4})).ok


def test_table_says_in_front_of_which_seat_a_set_lies() -> None:
    assert TempusTable.seat_facing(0.0, 150.0, 2) == 0
    assert TempusTable.seat_facing(0.0, -150.0, 2) == 1
    assert [TempusTable.seat_facing(x, y, 4) for x, y in
            [(0.0, 150.0), (-200.0, 0.0), (0.0, -150.0), (200.0, 0.0)]] == [0, 1, 2, 3]


def test_table_asks_to_move_a_set_left_in_front_of_the_wrong_seat() -> None:
    state = table((1, "plus", ["red-5", "red-9"]), to_play=0)
    actions = look(state, seen_set(0, "plus", "red-9"))
    assert len(actions) == 1 and isinstance(actions[0], AskTable)
    assert "lies in front of seat 0, but seat 1 holds it" in actions[0].message


def test_table_a_pile_a_little_nearer_the_next_series_card_still_goes_with_its_own() -> None:
    # Seat 1's two sets side by side; the left one's pile lies 4 mm towards the right
    # set's series card (nearer it than to its own): pairing the nearest first would take
    # the right set's top as unseen and the new set for a capture of it (a false flag).
    state = table((1, "minus", ["red-9", "red-2"]), (1, "minus", ["violet-22"]), to_play=0)
    view = TableView((
        *FREE_SERIES,
        ViewCard("series-minus", -35.0, -140.0), ViewCard("red-2", 41.0, -142.0),
        ViewCard("series-minus", -187.0, -140.0), ViewCard("violet-22", -111.0, -140.0),
        ViewCard("series-plus", -37.0, 139.0), ViewCard("joker-7", 38.0, 142.0),
    ))
    actions = TempusTable(GAME.deck.card_mm).on_view(state, view, None)
    assert actions == [Play(open_(0, "plus", "joker-7"))]
